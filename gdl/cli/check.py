"""`gdl check`: parse and check a game file; with `--deep`, also play it and report what only
running it shows."""

from __future__ import annotations

import argparse
import sys
from functools import partial
from typing import Any

from gdl.cli.common import Subcommands, UsageError, add_command, error_text, load_game, rule_error, say
from gdl.tablebase import param_texts
from gdl.lint import Findings, deep_check
from searchers.protocol import check_same_position, position_of

# The random games `--deep` plays, and the moves a game may last, unless told.
_GAMES, _MAX_MOVES = 300, 1000


def register(commands: Subcommands) -> argparse.ArgumentParser:
    """Add `gdl check` and its options."""
    check = add_command(commands,
                "check", help="parse and check a game file",
        description="Parse and check a game file. Exit status 0 when valid; otherwise every mistake "
        "is printed as FILE:LINE:COL: error: MESSAGE with the line and a caret, and the status is 1.",
        epilog="examples:\n  gdl check games/tictactoe.gdl -p size=4\n  gdl check --deep games/connect.gdl",
    )
    check.add_argument("--deep", action="store_true", help="also play random games and report what only running shows")
    check.add_argument("--games", type=int, metavar="N",
                       help=f"with --deep: how many random games (default {_GAMES})")
    check.add_argument("--max-moves", type=int, metavar="N",
                       help=f"with --deep: a game longer than this is reported (default {_MAX_MOVES})")
    return check


def run(args: argparse.Namespace) -> int:
    """Parse, check and compile the file; say so when it is valid."""
    for option, given in (("--games", args.games), ("--max-moves", args.max_moves)):
        if given is not None and not args.deep:
            raise UsageError(f"{option} needs --deep (it sets how the random games are played)")
        if given is not None and given < 1:
            raise UsageError(f"{option} must be 1 or more, not {given}")
    game = load_game(args)
    valid = f"{args.file}: ok: {game.title}: " + "; ".join(_described(game))
    if not args.deep:
        say(valid)
        return 0
    position = position_of(game)
    same_position = None if position is None else partial(check_same_position, game, position=position)
    findings = deep_check(game, games=args.games or _GAMES, max_moves=args.max_moves or _MAX_MOVES, describe=error_text,
                          same_position=same_position)
    summary = _summary(findings)
    for problem, rule in findings.problems:
        say(problem if problem.startswith(args.file + ":") else _at_rule(game, rule, problem), to=sys.stderr)
    if findings.problems:
        count = len(findings.problems)
        say(f"{args.file}: {count} problem{'s' if count != 1 else ''} found in {summary}", to=sys.stderr)
        return 1
    say(valid)
    say(f"{args.file}: deep check ok: {summary}")
    return 0


def _at_rule(game: Any, rule: str | None, problem: str) -> str:
    """A problem of the random games about one `rule` of the game, said at that rule's line
    (`FILE:LINE:COL: error:`, the line and a caret, then the rest of the problem); one about no
    one rule, after the file's name."""
    head, _, rest = problem.partition("\n")
    error = rule_error(game, rule, head) if rule is not None else None
    if error is None or error.line is None:
        return f"{game.source.name}: {problem}"
    return error_text(error) + (f"\n{rest}" if rest else "")


def _described(game: Any) -> list[str]:
    parts = [f"{len(game.players)} players ({', '.join(game.players)})"]
    if game.params:
        parts.append("parameters " + ", ".join(f"{name}={text}" for name, text in param_texts(game).items()))
    return parts


def _summary(findings: Findings) -> str:
    played = f"{findings.moves} moves"
    if findings.outcomes:
        played += f" and {findings.outcomes} chance outcomes"
    failed = f" ({findings.failed} cut short by a problem)" if findings.failed else ""
    return f"{findings.games} random games{failed}, {played}, {findings.terminals} ended"
