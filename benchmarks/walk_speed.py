"""Speed of a game written in the language against the same game written by hand in Python.

A full walk of the tic-tac-toe game tree (every node: moves, result, terminal test, and the
utility of every terminal state), once with games/tictactoe.gdl and once with the hand-written
`tests.pygames.TicTacToe`; then the time to load each bundled game file.

    python benchmarks/walk_speed.py
"""

from __future__ import annotations

import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import gdl  # noqa: E402
from tests.pygames import TicTacToe  # noqa: E402


def walk(game: Any) -> tuple[int, int]:
    """Visit every node of the game tree; return (nodes, sum of X's utilities at the leaves)."""
    actions, result, is_terminal, utility = game.actions, game.result, game.is_terminal, game.utility
    first = game.players[0]

    def visit(state: Any) -> tuple[int, int]:
        if is_terminal(state):
            return 1, utility(state, first)
        nodes, total = 1, 0
        for move in actions(state):
            n, t = visit(result(state, move))
            nodes += n
            total += t
        return nodes, total

    return visit(game.initial_state())


def best_of(runs: int, function: Any, *args: Any) -> tuple[float, Any]:
    """The fastest of several runs, and the function's answer."""
    best, answer = float("inf"), None
    for _ in range(runs):
        start = time.perf_counter()
        answer = function(*args)
        best = min(best, time.perf_counter() - start)
    return best, answer


def main() -> None:
    """Print the walk table and the load times."""
    games = [("games/tictactoe.gdl", gdl.load(ROOT / "games/tictactoe.gdl")), ("hand-written Python", TicTacToe())]
    rows = []
    for label, game in games:
        seconds, (nodes, total) = best_of(3, walk, game)
        rows.append((label, nodes, total, seconds))
    assert rows[0][1:3] == rows[1][1:3], "the two games disagree"
    print("Full walk of the tic-tac-toe tree")
    print(f"{'game':<22}{'nodes':>10}{'seconds':>10}{'nodes/s':>12}")
    for label, nodes, _, seconds in rows:
        print(f"{label:<22}{nodes:>10,}{seconds:>10.3f}{nodes / seconds:>12,.0f}")
    print(f"ratio file / hand-written: {rows[0][3] / rows[1][3]:.2f}")
    print()
    print("Load time (parse, check, compile)")
    for path in sorted(ROOT.glob("games/**/*.gdl")):
        seconds, _ = best_of(3, gdl.load, path)
        print(f"  {str(path.relative_to(ROOT)):<34}{seconds * 1000:8.1f} ms")


if __name__ == "__main__":
    main()
