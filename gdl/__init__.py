"""gdl: a small language for games, from a text file to a checked, fast game object.

    import gdl
    game = gdl.load("games/tictactoe.gdl")          # or gdl.loads(text, **params)
    state = game.initial_state()
    game.actions(state)
"""

from __future__ import annotations

from importlib import import_module
from pathlib import Path
from typing import TYPE_CHECKING, Any, Mapping

from gdl.errors import GdlCheckError, GdlError, GdlParamError, GdlRuntimeError, GdlSyntaxError, Source

if TYPE_CHECKING:
    from gdl.model import CheckedGame
    from gdl.parser import parse, parse_value
    from gdl.tablebase import GdlTablebaseError, Tablebase, build_tablebase
    from interpreter.game import BaseGame

# The names of the package that its modules give, each imported where first used: `import gdl`
# (and the `gdl` command, which starts with it) stays quick, so that the command is ready to
# take a Ctrl-C quietly from its first moment, not while Lark and the searchers load.
_FROM_MODULES = {
    "CheckedGame": "gdl.model", "parse": "gdl.parser", "parse_value": "gdl.parser",
    "GdlTablebaseError": "gdl.tablebase", "Tablebase": "gdl.tablebase", "build_tablebase": "gdl.tablebase",
}


def __getattr__(name: str) -> Any:
    """A name of ``_FROM_MODULES``, from its module (then kept here)."""
    module = _FROM_MODULES.get(name)
    if module is None:
        raise AttributeError(f"module 'gdl' has no attribute {name!r}")
    value = globals()[name] = getattr(import_module(module), name)
    return value


def __dir__() -> list[str]:
    """The package's names, those imported where first used among them."""
    return sorted(set(globals()) | set(_FROM_MODULES))

__all__ = [
    "GdlCheckError", "GdlError", "GdlParamError", "GdlRuntimeError", "GdlSyntaxError",
    "GdlTablebaseError", "Tablebase", "CheckedGame", "build", "build_tablebase", "check_text", "load", "loads", "locate_param", "parse", "parse_value",
]


def check_text(text: str, name: str = "<string>", params: Mapping[str, Any] | None = None) -> "CheckedGame":
    """Parse and check a game's text; raise a GdlError describing every mistake."""
    from gdl.checker import check
    from gdl.limits import room_for_nesting
    from gdl.parser import nesting_guard, parse

    source = Source(name, text)
    program = parse(source.text, name)
    with room_for_nesting(), nesting_guard(program, source):
        return check(program, source, params or {})


def build(text: str, name: str = "<string>", params: Mapping[str, Any] | None = None) -> "BaseGame":
    """Parse, check and compile a game's text into a game object."""
    from gdl.parser import nesting_guard
    from interpreter import build as build_game  # the interpreter depends on gdl, not the reverse

    checked = check_text(text, name, params)
    with nesting_guard(checked.program, checked.source):
        return build_game(checked)


def loads(text: str, /, **params: Any) -> "BaseGame":
    """The game written in `text`, with parameters overridden by keyword (`rows=5`)."""
    return build(text, "<string>", params)


def load(path: str | Path, /, **params: Any) -> "BaseGame":
    """The game in the file at `path`, with parameters overridden by keyword (`rows=5`)."""
    return build(read(path), str(path), params)


def locate_param(error: GdlParamError, path: str | Path, name: str) -> GdlParamError:
    """`error`, about the value given for parameter `name` of the game file at `path`, located
    at the parameter's declaration in the file."""
    from gdl.params import located
    from gdl.parser import parse

    text = read(path)
    return located(error, Source(str(path), text), parse(text, str(path)), name)


def read(path: str | Path) -> str:
    """The text of the game file at `path` (see `decode`)."""
    path = Path(path)
    try:
        data = path.read_bytes()
    except OSError as error:
        raise GdlError(f"cannot read the game file: {error.strerror}", file=str(path)) from None
    return decode(data, str(path))


_SQLITE_HEADER = b"SQLite format 3\0"  # how every SQLite file begins


def decode(data: bytes, name: str) -> str:
    """The text of a game file's bytes, read as UTF-8 with any line ends (`\r\n`, `\r`)
    as `\n`; bytes that are not UTF-8 are a syntax error at the first of them, and an SQLite file
    (a tablebase given for its game) is refused as one."""
    if data.startswith(_SQLITE_HEADER):  # a tablebase given where the game is asked for
        raise GdlError("this is an SQLite database (a tablebase?), not a game file: `gdl query FILE` reads a "
                       "tablebase, and `gdl play GAME --tablebase FILE` plays from one", file=name)
    data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    try:
        return data.decode("utf-8")
    except UnicodeDecodeError as error:
        line_start = data.rfind(b"\n", 0, error.start) + 1
        line_end = data.find(b"\n", error.start)
        line_text = data[line_start: line_end if line_end >= 0 else len(data)].decode("utf-8", "replace")
        column = len(data[line_start: error.start].decode("utf-8")) + 1
        raise GdlSyntaxError(
            f"the file is not UTF-8 text: byte 0x{data[error.start]:02x} cannot be read here",
            file=name, line=data.count(b"\n", 0, error.start) + 1, column=column, source_line=line_text,
        ) from None
