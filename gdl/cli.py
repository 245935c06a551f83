"""The `gdl` command: check, perft, solve (and the commands built on them)."""

from __future__ import annotations

import argparse
import json
import os
import sys
from fractions import Fraction
from typing import Any, Callable, Sequence

from gdl import load
from gdl.errors import GdlError, GdlParamError
from gdl.parser import parse_value

EXAMPLES = """\
examples:
  gdl check games/tictactoe.gdl
  gdl perft games/tictactoe.gdl --depth 9 --json
  gdl solve games/tictactoe.gdl
  gdl solve games/nim.gdl -p 'piles=(3, 4, 5)' --json
  gdl solve games/connect.gdl -p rows=5 -p cols=4 --depth 6
"""


class UsageError(Exception):
    """A command-line mistake (not a mistake in a game file)."""


def parse_params(assignments: Sequence[str], file: str | None = None) -> dict[str, Any]:
    """`-p NAME=VALUE` options as parameter overrides; VALUE is written as in the language."""
    params: dict[str, Any] = {}
    for assignment in assignments:
        name, sep, text = assignment.partition("=")
        name = name.strip()
        if not sep or not name.isidentifier():
            raise UsageError(f"-p expects NAME=VALUE (e.g. -p rows=5), got `{assignment}`")
        try:
            params[name] = parse_value(text, f"-p {name}")
        except GdlError as error:
            raise GdlParamError(f"-p {name}: {error.message}", file=file) from None
    return params


def load_game(args: argparse.Namespace) -> Any:
    """The game named on the command line, with its `-p` overrides."""
    return load(args.file, **parse_params(args.param, args.file))


def number_text(value: Any) -> str:
    """A value for people: integers as they are, fractions also as decimals."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return str(value.numerator)
        return f"{value} (~{float(value):.4f})"
    if isinstance(value, float):
        return f"{value:.4f}".rstrip("0").rstrip(".")
    return str(value)


def json_number(value: Any) -> int | float:
    """A value for JSON: ints stay ints, fractions become floats."""
    if isinstance(value, Fraction):
        return value.numerator if value.denominator == 1 else float(value)
    if isinstance(value, bool):
        return int(value)
    return value


def move_text(game: Any, move: Any) -> str:
    """The move as the game prints it."""
    formatter = getattr(game, "format_move", None)
    return formatter(move) if formatter is not None else str(move)


# ---- gdl check ---------------------------------------------------------------------


def command_check(args: argparse.Namespace) -> int:
    """Parse, check and compile the file; say so when it is valid."""
    game = load_game(args)
    parts = [f"{len(game.players)} players ({', '.join(game.players)})"]
    if game.params:
        parts.append("parameters " + ", ".join(f"{k}={_show(v)}" for k, v in game.params.items()))
    if not args.deep:
        print(f"{args.file}: ok: {game.title}: " + "; ".join(parts))
        return 0
    from gdl.lint import deep_check

    findings = deep_check(game, games=args.games, max_moves=args.max_moves)
    summary = f"{findings.games} random games, {findings.moves} moves, {findings.terminals} ended"
    for problem in findings.problems:
        print(problem if problem.startswith(args.file + ":") else f"{args.file}: {problem}", file=sys.stderr)
    if findings.problems:
        count = len(findings.problems)
        print(f"{args.file}: {count} problem{'s' if count != 1 else ''} found in {summary}", file=sys.stderr)
        return 1
    print(f"{args.file}: ok: {game.title}: " + "; ".join(parts))
    print(f"{args.file}: deep check ok: {summary}")
    return 0


def _show(value: Any) -> str:
    from interpreter import to_text

    return to_text(value)


# ---- gdl perft ---------------------------------------------------------------------


def command_perft(args: argparse.Namespace) -> int:
    """Count the move sequences of exactly --depth moves."""
    import time

    from searchers.perft import perft

    if args.depth < 0:
        raise UsageError("--depth must be 0 or more")
    game = load_game(args)
    start = time.perf_counter()
    nodes = perft(game, args.depth)
    seconds = time.perf_counter() - start
    if args.json:
        print(json.dumps({"depth": args.depth, "nodes": nodes, "seconds": round(seconds, 4)}))
    else:
        print(f"perft({args.depth}) = {nodes}  ({seconds:.2f} s)")
    return 0


# ---- the parser -------------------------------------------------------------------


def add_command(commands: Any, name: str, *, help: str, description: str, epilog: str) -> argparse.ArgumentParser:
    """A `gdl NAME` subcommand taking the game file and `-p NAME=VALUE` options, as all of them do."""
    parser = commands.add_parser(
        name, help=help, description=description, epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="the game file (.gdl)")
    parser.add_argument(
        "-p", "--param", action="append", default=[], metavar="NAME=VALUE",
        help="set a parameter, VALUE written as in the language (repeatable): -p rows=5 -p 'piles=(3,4,5)'",
    )
    return parser


def _version() -> str:
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gdl")
    except PackageNotFoundError:
        return "(not installed)"


def build_parser() -> argparse.ArgumentParser:
    """The argument parser of the `gdl` command."""
    parser = argparse.ArgumentParser(
        prog="gdl",
        description="Write two-player games in a small language; check, count, solve and play them.",
        epilog=EXAMPLES,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("--version", action="version", version=f"gdl {_version()}")
    commands = parser.add_subparsers(dest="command", metavar="COMMAND")
    commands.required = True

    check = add_command(commands,
                "check", help="parse and check a game file",
        description="Parse and check a game file. Exit status 0 when valid; otherwise every mistake "
        "is printed as FILE:LINE:COL: error: MESSAGE with the line and a caret, and the status is 1.",
        epilog="examples:\n  gdl check games/tictactoe.gdl -p size=4\n  gdl check --deep games/connect.gdl",
    )
    check.add_argument("--deep", action="store_true", help="also play random games and report what only running shows")
    check.add_argument("--games", type=int, default=300, metavar="N", help="with --deep: how many random games (default 300)")
    check.add_argument("--max-moves", type=int, default=1000, metavar="N", help="with --deep: a game longer than this is reported (default 1000)")
    check.set_defaults(run=command_check)

    perft = add_command(commands,
                "perft", help="count move sequences of a given length",
        description="Count the move sequences of exactly N moves from the initial state that pass "
        "through no terminal state before their last move (the chess programmers' perft).",
        epilog="example:\n  gdl perft games/tictactoe.gdl --depth 9 --json   # 127872",
    )
    perft.add_argument("--depth", type=int, required=True, metavar="N", help="the number of moves")
    perft.add_argument("--json", action="store_true", help='print {"depth": N, "nodes": COUNT}')
    perft.set_defaults(run=command_perft)

    from gdl.commands import add_commands

    add_commands(commands)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    """Run the `gdl` command; return its exit status."""
    sys.set_int_max_str_digits(0)  # a game may score in numbers of any size; print them whole
    parser = build_parser()
    if not (sys.argv[1:] if argv is None else argv):
        parser.print_help(sys.stderr)
        return 2
    args = parser.parse_args(argv)
    run: Callable[[argparse.Namespace], int] = args.run
    try:
        return run(args)
    except GdlError as error:
        print(error.format(), file=sys.stderr)
        return 1
    except UsageError as error:
        print(f"gdl {args.command}: error: {error}", file=sys.stderr)
        return 2
    except RecursionError:
        print(f"{args.file}: error: the game is too deep for Python's recursion limit", file=sys.stderr)
        return 1
    except BrokenPipeError:
        return 0
    except KeyboardInterrupt:
        hint = " (a search stopped before finishing its first move has nothing to show; --time SECONDS always has an answer)" if args.command == "solve" else ""
        print(f"gdl {args.command}: interrupted{hint}", file=sys.stderr)
        return 130
    except Exception as error:  # a bug in gdl itself, not a mistake of the user's
        if os.environ.get("GDL_DEBUG"):
            raise
        print(f"gdl {args.command}: internal error: {type(error).__name__}: {error} "
              "(set GDL_DEBUG=1 to see the Python traceback)", file=sys.stderr)
        return 3


if __name__ == "__main__":
    from gdl.cli import main as cli_main  # the module proper, so its exception classes are the ones raised

    sys.exit(cli_main())
