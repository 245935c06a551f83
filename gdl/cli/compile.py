"""`gdl compile`: the Python a game file becomes, to read what runs."""

from __future__ import annotations

import argparse
from typing import Any

from gdl.cli.common import Subcommands, add_command, load_game, say
from interpreter import to_text

_VALUE_WIDTH = 100  # a value made at load is shown on one line, cut to this many characters


def register(commands: Subcommands) -> argparse.ArgumentParser:
    """Add `gdl compile` and its options."""
    return add_command(commands,
                "compile", help="print the Python a game file becomes",
        description="Print the Python source a game file is translated into when it loads (with "
        "its parameters set by -p): first what is computed once, at load, then the rules, each "
        "a function of the state S, under a comment naming the line of the file it comes from. "
        "Values made at load that the code uses by name are listed at the end.",
        epilog="examples:\n  gdl compile games/tictactoe.gdl\n  gdl compile games/connect.gdl -p rows=4 -p cols=4",
    )


def run(args: argparse.Namespace) -> int:
    """Load the game and print its generated source."""
    game = load_game(args)
    source: str | None = getattr(game, "generated_source", None)
    settings = ", ".join(f"{name}={to_text(value)}" for name, value in game.params.items())
    say(f"# The Python that {args.file} becomes" + (f" (parameters: {settings})" if settings else ""))
    if source is None:
        say(f"# {game.title} is a game tree given as a table: it runs as the table, with no code of its own")
        return 0
    say(source.rstrip("\n"))
    values: dict[str, Any] = getattr(game, "generated_values", {})
    if values:
        say("\n# ---- values made at load, used by name above")
        for name, value in values.items():
            text = " ".join(repr(value).split())
            say(f"# {name} = {text if len(text) <= _VALUE_WIDTH else text[:_VALUE_WIDTH - 3] + '...'}")
    return 0
