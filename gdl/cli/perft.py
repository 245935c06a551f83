"""`gdl perft`: count the move sequences of a given length, to test a game's move generation."""

from __future__ import annotations

import argparse
import time

from gdl.cli.common import Subcommands, UsageError, add_command, json_text, load_game, refused, say
from searchers import SearchError
from searchers.perft import perft


def register(commands: Subcommands) -> argparse.ArgumentParser:
    """Add `gdl perft` and its options."""
    parser = add_command(commands,
                "perft", help="count move sequences of a given length",
        description="Count the move sequences of exactly N moves from the initial state that pass "
        "through no terminal state before their last move (the chess programmers' perft).",
        epilog="example:\n  gdl perft games/tictactoe.gdl --depth 9 --json   # 127872",
    )
    parser.add_argument("--depth", type=int, required=True, metavar="N", help="the number of moves")
    parser.add_argument("--json", action="store_true", help='print {"depth": N, "nodes": COUNT, "seconds": S}')
    return parser


def run(args: argparse.Namespace) -> int:
    """Count the move sequences of exactly --depth moves."""
    if args.depth < 0:
        raise UsageError("--depth must be 0 or more")
    game = load_game(args)
    start = time.perf_counter()
    try:
        nodes = perft(game, args.depth)
    except SearchError as error:
        raise refused(error) from None
    seconds = time.perf_counter() - start
    if args.json:
        say(json_text({"depth": args.depth, "nodes": nodes, "seconds": round(seconds, 4)}))
    else:
        say(f"perft({args.depth}) = {nodes}  ({seconds:.2f} s)")
    return 0
