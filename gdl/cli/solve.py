"""`gdl solve`: search a game with minimax, alpha-beta or expectiminimax and report the result."""

from __future__ import annotations

import argparse
import json
import sys
from fractions import Fraction
from typing import Any

import searchers
from gdl.cli.common import (
    INTERRUPTED, Subcommands, UsageError, add_command, clear_status, json_number, load_game, memory_size,
    move_text, number_text, say, show_status,
)
from searchers import SearchError
from searchers.table import DEFAULT_MEMORY

# The principal variation printed for people stops after this many moves (JSON has it whole).
PV_SHOWN = 40

ALGORITHMS = ("minimax", "alphabeta", "expectiminimax")


def register(commands: Subcommands) -> argparse.ArgumentParser:
    """Add `gdl solve` and its options."""
    solve = add_command(commands,
                "solve", help="solve a game, or search it to a depth or for a time",
        description="Search a game from its initial state. Without --depth or --time the search "
        "goes to the end of the game and the value is exact; with them it stops early and scores "
        "the states where it stopped with the game's `evaluation`. Ctrl-C stops the search: the "
        "best result found so far is printed, and the exit status is 130.",
        epilog="examples:\n  gdl solve games/tictactoe.gdl\n  gdl solve games/subtraction.gdl -p stones=5 --json\n"
        "  gdl solve games/connect.gdl --depth 6 --algorithm alphabeta",
    )
    solve.add_argument("--algorithm", choices=ALGORITHMS, help="the searcher (default: alphabeta, or expectiminimax for a game with chance)")
    solve.add_argument("--depth", type=int, metavar="N", help="stop N moves ahead and use the evaluation there")
    solve.add_argument("--time", type=float, metavar="SECONDS", help="deepen iteratively until the time is up")
    solve.add_argument("--no-table", action="store_true", help="search without a transposition table")
    solve.add_argument("--memory", type=memory_size, default=DEFAULT_MEMORY, metavar="SIZE",
                       help=f"the most memory the transposition table may use, e.g. 512M or 4G (default {DEFAULT_MEMORY >> 30}G); "
                       "when it is full, the positions cheapest to search again are dropped")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    return solve


def run_search(game: Any, args: argparse.Namespace) -> Any:
    """Run the searcher the options ask for."""
    algorithm = args.algorithm or ("expectiminimax" if getattr(game, "has_chance", False) else "alphabeta")
    if args.depth is not None and args.depth < 0:
        raise UsageError("--depth must be 0 or more")
    if args.time is not None and args.time <= 0:
        raise UsageError("--time must be a positive number of seconds")
    table = not args.no_table
    progress = ProgressLine(game) if sys.stderr.isatty() else None
    try:
        if algorithm == "alphabeta":
            return searchers.alphabeta(
                game, depth=args.depth, time=args.time, table=table, memory=args.memory, ordering=True,
                symmetry=table and bool(getattr(game, "has_symmetries", False)), progress=progress,
            )
        if algorithm == "minimax":
            return searchers.minimax(game, depth=args.depth, time=args.time, progress=progress)
        return searchers.expectiminimax(
            game, depth=args.depth, time=args.time, table=table, memory=args.memory, progress=progress,
        )
    finally:
        if progress is not None:
            progress.clear()


class ProgressLine:
    """A live line on the terminal: nodes, nodes per second, depth and best move so far."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.shown = False

    def __call__(self, progress: Any) -> None:
        rate = progress.nodes / progress.seconds if progress.seconds else 0
        parts = [f"{progress.nodes:,} nodes", f"{rate:,.0f}/s", f"{progress.seconds:.0f} s"]
        if progress.depth is not None:
            parts.append(f"depth {progress.depth}")
        if progress.best_move is not None:
            parts.append(f"best so far {move_text(self.game, progress.best_move)}")
        show_status("  searching: " + ", ".join(parts) + " (Ctrl-C stops) ")
        self.shown = True

    def clear(self) -> None:
        """Remove the line once the search is over."""
        if self.shown:
            clear_status()


def verdict(game: Any, value: Any, exact: bool) -> str:
    """The value in words, from the first player's view."""
    first, second = game.players[0], game.players[1] if len(game.players) > 1 else "the opponent"
    if getattr(game, "has_chance", False):
        return f"expected value {number_text(value)} for {first}"
    if not exact:
        leaning = first if value > 0 else second if value < 0 else "neither player"
        return f"estimate {number_text(value)}, favouring {leaning}"
    if value == 0:
        return "draw (value 0)"
    if value in (1, -1):
        return f"{first if value > 0 else second} wins (value {number_text(value)})"
    # Scores (a margin, a payoff) rather than a plain win or loss.
    return f"value {number_text(value)} for {first}, in {first if value > 0 else second}'s favour"


def result_json(game: Any, result: Any) -> dict[str, Any]:
    """The brief's JSON object for a search result."""
    stats = result.stats
    return {
        "game": getattr(game, "title", None),
        "algorithm": result.algorithm,
        "value": json_number(result.value),
        # The exact value when it is a fraction (chance games), which a float only approximates.
        "value_fraction": str(result.value) if isinstance(result.value, Fraction) and result.value.denominator != 1 else None,
        "exact": result.exact,
        "to_move": result.to_move,
        "best_move": None if result.move is None else move_text(game, result.move),
        "principal_variation": [move_text(game, m) for m in result.pv],
        "move_values": {move_text(game, m): json_number(v) for m, v in result.move_values.items()},
        "move_bounds": {move_text(game, m): b for m, b in result.move_bounds.items()},
        "inexact_reason": result.inexact_reason,
        "repetition": result.repetition,
        "interrupted": result.interrupted,
        "stats": {
            "nodes": stats.nodes, "leaves": stats.leaves, "cutoffs": stats.cutoffs,
            "table_hits": stats.table_hits, "depth": stats.depth, "repetitions": stats.repetitions,
            "chance_repetitions": stats.chance_repetitions,
            "table_entries": stats.table_entries, "table_capacity": stats.table_capacity,
            "table_evictions": stats.table_evictions, "seconds": round(stats.seconds, 4),
        },
    }


def result_text(game: Any, result: Any) -> str:
    """A short summary for people."""
    note = "  [interrupted: the best found so far]" if result.interrupted else "" if result.exact else "  [not exact]"
    lines = [f"{game.title}: {verdict(game, result.value, result.exact)}{note}"]
    if not result.exact and not result.interrupted and result.inexact_reason:
        lines.append(f"not exact: {result.inexact_reason}")
        if result.stats.chance_repetitions:
            lines.append("  `gdl solve FILE --strong` solves every position and gives the true value")
    if result.move is None and result.to_move is None and result.move_values:
        lines.append("the initial state is a chance node; the value of each outcome:")
        for outcome, value in result.move_values.items():
            lines.append(f"  {move_text(game, outcome)}  {number_text(value)}")
    elif result.move is None:
        lines.append("the initial state is terminal: no move to make")
    else:
        lines.append(f"best move for {result.to_move}: {move_text(game, result.move)}")
        lines.append("principal variation: " + line_text(game, result.pv))
        lines.append(f"value of each move (for {game.players[0]}):")
        names = {m: move_text(game, m) for m in result.move_values}
        width = max(len(n) for n in names.values())
        bounded = False
        for move, value in result.move_values.items():
            sign = {"upper": "<= ", "lower": ">= "}.get(result.move_bounds.get(move, "exact"), "")
            bounded = bounded or bool(sign)
            lines.append(f"  {names[move].ljust(width)}  {sign}{number_text(value)}")
        if bounded:
            lines.append("  (<= and >= are bounds: alpha-beta proved only that these moves are no better)")
    stats = result.stats
    lines.append(
        f"{result.algorithm}: {stats.nodes:,} node{'s' if stats.nodes != 1 else ''}, depth {stats.depth}, {stats.seconds:.2f} s"
        + (f", {stats.repetitions} repeated positions scored by the repetition rule" if stats.repetitions else "")
    )
    if stats.table_evictions:
        lines.append(f"table: full at {stats.table_capacity:,} positions; {stats.table_evictions:,} were dropped to "
                     "stay within --memory (more memory may search fewer nodes)")
    return "\n".join(lines)


def line_text(game: Any, moves: list[Any]) -> str:
    """A line of play for people: its first PV_SHOWN moves, and how long it is when longer."""
    shown = ", ".join(move_text(game, m) for m in moves[:PV_SHOWN])
    if len(moves) > PV_SHOWN:
        shown += f", ... ({len(moves):,} moves in all; --json lists them)"
    return shown


def run(args: argparse.Namespace) -> int:
    """Search the game and print the result; an interrupted search prints the best result so
    far and exits with the status of an interrupted command."""
    game = load_game(args)
    try:
        result = run_search(game, args)
    except SearchError as error:
        raise UsageError(str(error)) from None
    except KeyboardInterrupt:
        say("gdl solve: interrupted (a search stopped before finishing its first move has nothing to show; "
            "--time SECONDS always has an answer)", to=sys.stderr)
        return INTERRUPTED
    say(json.dumps(result_json(game, result)) if args.json else result_text(game, result))
    return INTERRUPTED if result.interrupted else 0
