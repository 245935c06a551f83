"""Monte Carlo tree search: how many iterations a second, and how well it plays.

Prints MCTS iterations per second from the start of tic-tac-toe and connect four 6x7, for
the game files of games/ and the same games written by hand in Python; then plays MCTS
(random playouts to the end, a fixed time a move) against alpha-beta at a fixed depth
with the game file's evaluation on connect four, each side first in half the games, and
prints MCTS's wins, draws and losses.

    python benchmarks/mcts.py [--seconds 1] [--games 20] [--depth 4] [--speed-seconds 3]
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from time import perf_counter
from typing import Any

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

import gdl  # noqa: E402
from searchers import alphabeta, mcts  # noqa: E402
from tests.pygames import ConnectK, TicTacToe  # noqa: E402


def iterations_per_second(game: Any, seconds: float) -> tuple[float, int]:
    """MCTS iterations a second from the game's start, and the positions made per iteration."""
    result = mcts(game, time=seconds, seed=1)
    iterations = result.stats.iterations
    return iterations / result.stats.seconds, round(result.stats.nodes / iterations)


def speed_table(seconds: float) -> None:
    """Iterations per second on each game, file and hand-written."""
    print(f"MCTS iterations per second from the start ({seconds:g} s each)")
    header = f"{'game':28} {'file it/s':>10} {'Python it/s':>12} {'file/Python':>12} {'positions/it':>13}"
    print(f"{header}\n{'-' * len(header)}")
    for label, path, reference in [
        ("tic-tac-toe", "games/tictactoe.gdl", TicTacToe()),
        ("connect four 6x7", "games/connect.gdl", ConnectK(6, 7, 4)),
    ]:
        file_rate, per_iteration = iterations_per_second(gdl.load(ROOT / path), seconds)
        python_rate, _ = iterations_per_second(reference, seconds)
        print(f"{label:28} {file_rate:>10,.0f} {python_rate:>12,.0f} {python_rate / file_rate:>12.2f}"
              f" {per_iteration:>13}")


def play(game: Any, mcts_first: bool, seconds: float, depth: int, seed: int) -> tuple[int, list[int]]:
    """One game of MCTS against alpha-beta; MCTS's utility at the end, and its iterations a move."""
    mcts_player = game.players[0 if mcts_first else 1]
    state, turn, iterations = game.initial_state(), 0, []
    while not game.is_terminal(state):
        if game.to_move(state) == mcts_player:
            result = mcts(game, state, time=seconds, seed=seed * 1_000 + turn)
            iterations.append(result.stats.iterations)
        else:
            result = alphabeta(game, state, depth=depth, table=True, ordering=True)
        state, turn = game.result(state, result.move), turn + 1
    return game.utility(state, mcts_player), iterations


def match(games: int, seconds: float, depth: int) -> None:
    """MCTS at ``seconds`` a move against alpha-beta at ``depth`` on connect four."""
    game = gdl.load(ROOT / "games/connect.gdl")
    print(f"\nconnect four 6x7: MCTS at {seconds:g} s a move against alpha-beta at depth {depth} "
          "(table, ordering), the file's evaluation")
    tally = {"won": 0, "drawn": 0, "lost": 0}
    moves = []
    started = perf_counter()
    for number in range(games):
        mcts_first = number % 2 == 0
        outcome, iterations = play(game, mcts_first, seconds, depth, seed=number)
        moves.extend(iterations)
        verdict = "won" if outcome > 0 else "lost" if outcome < 0 else "drawn"
        tally[verdict] += 1
        print(f"  game {number + 1:2}: MCTS {'first ' if mcts_first else 'second'} {verdict}"
              f" ({len(iterations)} moves, {sum(iterations) // max(1, len(iterations)):,} iterations a move)")
    print(f"MCTS won {tally['won']}, drew {tally['drawn']}, lost {tally['lost']} of {games}"
          f" ({sum(moves) / max(1, len(moves)):,.0f} iterations a move on average; {perf_counter() - started:.0f} s)")


def main() -> None:
    """Parse the options and run both parts."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seconds", type=float, default=1.0, help="MCTS's time a move in the match")
    parser.add_argument("--games", type=int, default=20, help="games in the match")
    parser.add_argument("--depth", type=int, default=4, help="alpha-beta's depth in the match")
    parser.add_argument("--speed-seconds", type=float, default=3.0, help="time for each speed figure")
    options = parser.parse_args()
    speed_table(options.speed_seconds)
    if options.games:
        match(options.games, options.seconds, options.depth)


if __name__ == "__main__":
    main()
