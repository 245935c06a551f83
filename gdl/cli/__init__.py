"""The `gdl` command. Each subcommand is a module of this package with `register` and `run`
(see `common.Command`); `COMMANDS` lists them, in the order `gdl --help` shows them."""

from __future__ import annotations

import argparse
import os
import re
import signal
import sys
from importlib import import_module
from difflib import get_close_matches
from typing import TYPE_CHECKING, Any, Callable, NoReturn, Sequence

if TYPE_CHECKING:
    from gdl.cli.common import Command

_COMMAND_NAMES = ("check", "perft", "solve", "play", "tree", "query", "compile")
"""The modules of the commands, in the order `gdl --help` lists them."""


def commands() -> tuple[Command, ...]:
    """The modules of the commands (imported when first asked for: `import gdl.cli` stays quick,
    so that a Ctrl-C while they load is the command's to take quietly)."""
    return tuple(import_module(f"gdl.cli.{name}") for name in _COMMAND_NAMES)


def __getattr__(name: str) -> Any:
    """``COMMANDS``: the modules of the commands, in order (``commands()``)."""
    if name == "COMMANDS":
        return commands()
    raise AttributeError(f"module 'gdl.cli' has no attribute {name!r}")

EXAMPLES = """\
examples:
  gdl check games/tictactoe.gdl
  gdl perft games/tictactoe.gdl --depth 9 --json
  gdl solve games/tictactoe.gdl
  gdl solve games/nim.gdl -p 'piles=(3, 4, 5)' --json
  gdl solve games/connect.gdl -p rows=5 -p cols=4 --depth 6
  gdl solve games/tictactoe.gdl --strong --out ttt.sqlite
  gdl query ttt.sqlite '(1, 1)'
  gdl compile games/tictactoe.gdl
"""


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gdl")
    except PackageNotFoundError:
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `gdl` command."""
    from gdl.cli.common import ArgumentParser

    parser = ArgumentParser(
        prog="gdl",
        description="Write games in a small language; check, count, solve and play them.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"gdl {_version()}")
    subcommands = parser.add_subparsers(dest="command", metavar="COMMAND")
    subcommands.required = True
    for command in commands():
        command.register(subcommands).set_defaults(run=command.run)
    return parser


def _is_option(word: str) -> bool:
    """Whether argparse would take ``word`` for an option (a negative number is not one)."""
    return word.startswith("-") and re.fullmatch(r"-\d+|-\d*\.\d+", word) is None


def _refuse_unknown(parser: argparse.ArgumentParser, command: str, extra: list[str]) -> NoReturn:
    """Exit with the command's own usage for the words it does not know (``extra``), and the
    option each misspelled one may have meant (`--stong`: did you mean `--strong`?)."""
    found = [action for action in parser._actions if isinstance(action, argparse._SubParsersAction)]
    own: argparse.ArgumentParser = found[0].choices[command]
    options = [name for action in own._actions for name in action.option_strings if name.startswith("--")]
    guesses = [f"`{match[0]}`" for word in extra if _is_option(word)
               if (match := get_close_matches(word.partition("=")[0], options, n=1, cutoff=0.7))]
    meant = f" (did you mean {' or '.join(dict.fromkeys(guesses))}?)" if guesses else ""
    own.error(f"unrecognized arguments: {' '.join(extra)}{meant}")


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `gdl` command; return its exit status."""
    try:
        return _main(argv)
    except KeyboardInterrupt:  # while gdl loaded, before the command took over: quietly
        return 128 + signal.SIGINT  # common.INTERRUPTED, but common may be what was loading


def _main(argv: Sequence[str] | None) -> int:
    from gdl.cli.common import INTERRUPTED, UsageError, error_text, say
    from gdl.errors import GdlError
    from searchers import GameError

    sys.set_int_max_str_digits(0)  # a game may score in numbers of any size; print them whole
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):
        parser.print_help(sys.stderr)
        return 2
    args, extra = parser.parse_known_args(argv)
    # argparse takes a list of positionals in one stretch: `gdl query DB --json MOVE` left MOVE
    # over.  Moves may come anywhere among the options; anything else left over is an error.
    if extra and isinstance(getattr(args, "moves", None), list) and not any(map(_is_option, extra)):
        args.moves += extra
    elif extra:
        _refuse_unknown(parser, args.command, extra)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except GdlError as error:
        say(error_text(error), to=sys.stderr)
        return 1
    except GameError as error:  # what a search found wrong with the game: an error of its file
        say(f"{args.file}: error: {error}", to=sys.stderr)
        return 1
    except UsageError as error:
        say(f"gdl {args.command}: error: {error}", to=sys.stderr)
        return 2
    except RecursionError:
        say(f"{args.file}: error: the game is too deep for Python's recursion limit", to=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        say(f"gdl {args.command}: interrupted", to=sys.stderr)
        return INTERRUPTED
    except Exception as error:  # a bug in gdl itself, not a mistake of the user's
        if os.environ.get("GDL_DEBUG"):
            raise
        say(f"gdl {args.command}: internal error: {type(error).__name__}: {error} "
            "(set GDL_DEBUG=1 to see the Python traceback)", to=sys.stderr)
        return 3
