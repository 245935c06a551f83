"""strong: `gdl solve --strong` by tiers into a tablebase, in one process and with two worker
processes, on connect four 4x4 and 5x4, Kalah 4x3 and Pig to 30 (`benchmarks/strong.py` has
the same rows as one table, and the 5x5 board).  Each run is a fresh process; its time is the
solve's wall time measured inside it (two workers save wall time, not CPU time), so the
ratio of the 2-worker row is one over the speedup.  µs/node is per position; the note gives
positions per second and the bytes a position takes on disk (the tablebase) and in memory
(the growth of the main process's peak resident memory, workers not counted)."""

from __future__ import annotations

from typing import Any

from benchmarks.harness import Case, Contender, Outcome
from benchmarks.strong import how_text, run_row

TITLE = "strong solves by tiers: one process vs two workers (wall time), bytes per position"

# (file, parameters, known value or None, quick)
GAMES: list[tuple[str, dict[str, Any], object, bool]] = [
    ("games/connect.gdl", {"rows": 3, "cols": 4, "k": 3}, None, True),
    ("games/connect.gdl", {"rows": 4, "cols": 4}, 0, False),
    ("games/connect.gdl", {"rows": 5, "cols": 4}, None, False),
    ("games/kalah.gdl", {"pits": 4, "seeds": 3}, 6, False),
    ("games/pig.gdl", {"goal": 30}, None, False),
]


def solver(file: str, params: dict[str, Any], workers: int) -> Contender:
    """A solve by tiers with ``workers`` processes (1: in this process), in a fresh process."""

    def run() -> Outcome:
        figures = run_row(file, params, workers)
        return Outcome(figures["float"], figures["positions"], seconds=figures["seconds"],
                       figures=f"{figures['rate']:,.0f} positions/s; {figures['disk']:.0f} bytes/position on disk, "
                       f"{figures['memory']:.0f} in memory")

    return Contender(how_text(workers), run, "wall time")


def cases(quick: bool) -> list[Case]:
    """One case per game; ``quick`` keeps connect 3x4 (k = 3)."""
    return [
        Case("strong", f"{file} {' '.join(f'{k}={v}' for k, v in params.items())}",
             [solver(file, params, 1), solver(file, params, 2)], expected=expected)
        for file, params, expected, is_quick in GAMES
        if is_quick or not quick
    ]
