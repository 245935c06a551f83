"""How fast the searchers run, and what their generality costs per node.

Prints, for each game and search, the nodes visited and nodes per second, one
column per implementation of the game (hand-written Python, and the game file of
games/ loaded with gdl), with how many times slower per node the file is; and
compares the searchers' plain minimax with the same minimax written inline.

    python benchmarks/search_speed.py [--repeat N]
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from pathlib import Path
from time import process_time
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import gdl  # noqa: E402
from searchers import SearchResult, alphabeta, minimax  # noqa: E402
from tests.pygames import ConnectK, TicTacToe  # noqa: E402

Search = Callable[[Any], SearchResult]
Columns = Sequence[tuple[str, Any]]  # (label, game): the same game, implemented differently

TIC_TAC_TOE_SEARCHES: list[tuple[str, Search]] = [
    ("minimax", lambda game: minimax(game)),
    ("alphabeta", lambda game: alphabeta(game)),
    ("alphabeta table+ordering", lambda game: alphabeta(game, table=True, ordering=True)),
]
CONNECT_SEARCHES: list[tuple[str, Search]] = [
    ("minimax depth 4", lambda game: minimax(game, depth=4)),
    ("alphabeta depth 5", lambda game: alphabeta(game, depth=5)),
    ("alphabeta depth 6 table+ordering",
     lambda game: alphabeta(game, depth=6, table=True, ordering=True)),
]
SMALL_CONNECT_SEARCHES: list[tuple[str, Search]] = [
    ("alphabeta table (solve)", lambda game: alphabeta(game, table=True)),
]


def timed(run: Callable[[], Any], repeat: int) -> tuple[Any, float]:
    """The result of ``run`` and its best time over ``repeat`` runs."""
    best = float("inf")
    for _ in range(repeat):
        started = process_time()
        outcome = run()
        best = min(best, process_time() - started)
    return outcome, best


def speed_table(title: str, columns: Columns, searches: list[tuple[str, Search]],
                repeat: int) -> None:
    """Print value, nodes and nodes/second of each search on each column's game, and how many
    times slower per node each column is than the first."""
    labels = [label for label, _ in columns]
    header = f"{'search':34}" + "".join(f" {label + ' value':>12} {'nodes':>9} {'n/s':>9}" for label in labels)
    if len(columns) > 1:
        header += "".join(f" {label + '/' + labels[0]:>16}" for label in labels[1:])
    print(f"\n{title}\n{header}\n{'-' * len(header)}")
    for name, search in searches:
        row, per_node = f"{name:34}", []
        for _, game in columns:
            result, seconds = timed(lambda: search(game), repeat)
            row += f" {str(result.value):>12} {result.stats.nodes:>9,} {result.stats.nodes / seconds:>9,.0f}"
            per_node.append(seconds / result.stats.nodes)
        row += "".join(f" {t / per_node[0]:>16.2f}" for t in per_node[1:])
        print(row)


def inline_minimax(game: Any) -> tuple[Any, int]:
    """Textbook minimax as a lean recursive function: the value and the nodes visited."""
    first = game.players[0]
    to_move, actions, result = game.to_move, game.actions, game.result
    is_terminal, utility = game.is_terminal, game.utility
    nodes = 0

    def value(state: Any) -> Any:
        nonlocal nodes
        nodes += 1
        if is_terminal(state):
            return utility(state, first)
        maximizing = to_move(state) == first
        best = None
        for move in actions(state):
            v = value(result(state, move))
            if best is None or (v > best if maximizing else v < best):
                best = v
        return best

    return value(game.initial_state()), nodes


def overhead_table(columns: Columns, repeat: int) -> None:
    """Compare the searchers' plain minimax with the inline one on each column's game."""
    print("\nPer-node overhead: searchers.minimax against an inline minimax (full solve)")
    header = f"{'game':24} {'nodes':>9} {'inline n/s':>12} {'searcher n/s':>13} {'ratio':>6}"
    print(f"{header}\n{'-' * len(header)}")
    for label, game in columns:
        (value, nodes), inline_seconds = timed(lambda: inline_minimax(game), repeat)
        result, searcher_seconds = timed(lambda: minimax(game), repeat)
        assert (result.value, result.stats.nodes) == (value, nodes)
        print(f"{label:24} {nodes:>9,} {nodes / inline_seconds:>12,.0f} "
              f"{nodes / searcher_seconds:>13,.0f} {searcher_seconds / inline_seconds:>6.2f}")


def main(argv: Sequence[str] | None = None) -> None:
    """Run the benchmark tables."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--repeat", type=int, default=3, help="runs per measurement (best kept)")
    repeat = parser.parse_args(argv).repeat
    tictactoe = [("python", TicTacToe()), ("gdl", gdl.load(ROOT / "games/tictactoe.gdl"))]
    speed_table("Tic-tac-toe, full solve", tictactoe, TIC_TAC_TOE_SEARCHES, repeat)
    connect = [("python", ConnectK()), ("gdl", gdl.load(ROOT / "games/connect.gdl"))]
    speed_table("Connect four 6x7, depth-limited", connect, CONNECT_SEARCHES, repeat)
    small = [("python", ConnectK(4, 4)), ("gdl", gdl.load(ROOT / "games/connect.gdl", rows=4, cols=4))]
    speed_table("Connect four 4x4, full solve", small, SMALL_CONNECT_SEARCHES, repeat)
    overhead_table([("tic-tac-toe (python)", TicTacToe()), ("tic-tac-toe (gdl)", tictactoe[1][1])], repeat)

if __name__ == "__main__":
    main()
