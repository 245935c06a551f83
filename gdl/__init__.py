"""gdl: a small language for games, from a text file to a checked, fast game object.

    import gdl
    game = gdl.load("games/tictactoe.gdl")          # or gdl.loads(text, **params)
    state = game.initial_state()
    game.actions(state)
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from gdl.checker import check
from gdl.model import CheckedGame
from gdl.errors import GdlCheckError, GdlError, GdlParamError, GdlRuntimeError, GdlSyntaxError, Source
from gdl.parser import parse, parse_value
from gdl.tablebase import GdlTablebaseError, Tablebase

if TYPE_CHECKING:
    from interpreter.game import BaseGame

__all__ = [
    "GdlCheckError", "GdlError", "GdlParamError", "GdlRuntimeError", "GdlSyntaxError",
    "GdlTablebaseError", "Tablebase", "CheckedGame", "build", "check_text", "load", "loads", "parse", "parse_value",
]


def check_text(text: str, name: str = "<string>", params: Mapping[str, Any] | None = None) -> CheckedGame:
    """Parse and check a game's text; raise a GdlError describing every mistake."""
    program = parse(text, name)
    return check(program, Source(name, text), params or {})


def build(text: str, name: str = "<string>", params: Mapping[str, Any] | None = None) -> "BaseGame":
    """Parse, check and compile a game's text into a game object."""
    from interpreter import build as build_game  # the interpreter depends on gdl, not the reverse

    return build_game(check_text(text, name, params))


def loads(text: str, /, **params: Any) -> "BaseGame":
    """The game written in `text`, with parameters overridden by keyword (`rows=5`)."""
    return build(text, "<string>", params)


def load(path: str | Path, /, **params: Any) -> "BaseGame":
    """The game in the file at `path`, with parameters overridden by keyword (`rows=5`)."""
    path = Path(path)
    try:
        text = path.read_text(encoding="utf-8")
    except OSError as error:
        raise GdlError(f"cannot read the game file: {error.strerror}", file=str(path)) from None
    return build(text, str(path), params)
