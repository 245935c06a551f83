"""The move-ordering measurements behind `gdl solve`'s defaults (docs/performance.md, "Move
ordering"): exact alpha-beta solves of the bundled games with the transposition table (and the
game's symmetries where it has them), each refinement alone; nodes searched and the median CPU
seconds of a few runs. The nodes are exact and the same on any machine; the seconds are not.

    python -m benchmarks.ordering              # every game and refinement, as a Markdown table
    python -m benchmarks.ordering --skip-slow  # without the runs known to take minutes
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from typing import Any

import gdl
import searchers
from benchmarks import ROOT

# (row name, game file, parameters)
GAMES: list[tuple[str, str, dict[str, Any]]] = [
    ("tic-tac-toe", "games/tictactoe.gdl", {}),
    ("Nim (3, 4, 5)", "games/nim.gdl", {}),
    ("connect four 4x4", "games/connect.gdl", {"rows": 4, "cols": 4}),
    ("connect four 5x4", "games/connect.gdl", {"rows": 5, "cols": 4}),
    ("connect four 4x5", "games/connect.gdl", {"rows": 4, "cols": 5}),
    ("Kalah 3 pits x 3 seeds", "games/kalah.gdl", {"pits": 3, "seeds": 3}),
    ("Kalah 4 pits x 3 seeds", "games/kalah.gdl", {"pits": 4, "seeds": 3}),
    ("Othello 4x4", "games/othello.gdl", {"size": 4}),
]

# (column name, alphabeta's options besides the table and the symmetries)
REFINEMENTS: list[tuple[str, dict[str, Any]]] = [
    ("table's move only", {}),
    ("+ killers", {"killers": True}),
    ("+ history", {"history": True}),
    ("+ evaluation, every ply (the default)", {"ordering": True}),
    ("+ evaluation, plies < 4", {"ordering": True, "ordering_plies": 4}),
    ("+ evaluation, plies < 8", {"ordering": True, "ordering_plies": 8}),
]

# Runs that take minutes (millions of nodes), left out by --skip-slow.
SLOW = {("connect four 4x5", "+ killers"), ("connect four 4x5", "+ history"),
        ("Kalah 4 pits x 3 seeds", "table's move only"), ("Kalah 4 pits x 3 seeds", "+ killers"),
        ("Kalah 4 pits x 3 seeds", "+ history"), ("Kalah 4 pits x 3 seeds", "+ evaluation, plies < 4"),
        ("Kalah 4 pits x 3 seeds", "+ evaluation, plies < 8")}


def measure(path: str, params: dict[str, Any], options: dict[str, Any], repeat: int) -> tuple[Any, int, float]:
    """(value, nodes, median CPU seconds of ``repeat`` runs) of an exact solve."""
    game = gdl.load(ROOT / path, **params)
    times = []
    for _ in range(repeat):
        started = time.process_time()
        result = searchers.alphabeta(game, table=True, symmetry=game.has_symmetries, **options)
        times.append(time.process_time() - started)
        if not result.exact:
            raise SystemExit(f"{path} {params} {options}: not exact: {result.inexact_reason}")
    return result.value, result.stats.nodes, statistics.median(times)


def main(argv: list[str] | None = None) -> int:
    """Print the table; every refinement must give each game the same value."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.ordering", description=__doc__.split("\n\n")[0])
    parser.add_argument("--skip-slow", action="store_true", help="leave out the runs that take minutes")
    parser.add_argument("--repeat", type=int, default=3, metavar="N", help="runs of each solve; the median is shown (default 3)")
    args = parser.parse_args(argv)
    print("| game | " + " | ".join(name for name, _ in REFINEMENTS) + " |")
    print("|---" * (len(REFINEMENTS) + 1) + "|")
    for row, path, params in GAMES:
        cells, values = [], set()
        for column, options in REFINEMENTS:
            if args.skip_slow and (row, column) in SLOW:
                cells.append("—")
                continue
            value, nodes, seconds = measure(path, params, options, args.repeat)
            values.add(value)
            cells.append(f"{nodes:,} ({seconds:.2f} s)")
            print(f"  {row}, {column}: {nodes:,} nodes, {seconds:.2f} s", file=sys.stderr)
        if len(values) > 1:
            raise SystemExit(f"{row}: the refinements disagree on the value: {sorted(values)}")
        print(f"| {row} | " + " | ".join(cells) + " |", flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
