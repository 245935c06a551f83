"""The least a strong solve costs a position: what the parts every solve must run take, each
timed alone, against the whole solve; by default on connect four 4x4 (the fastest row of the
strong suite).

    python -m benchmarks.strong_floor                                   # connect four 4x4
    python -m benchmarks.strong_floor games/kalah.gdl pits=3 seeds=3    # another game

From the repository's root, with gdl installed (the solve is timed by ``benchmarks.strong``).

A strong solve reaches every position, so it runs the game's rules on every one (is it over,
whose move, which moves, the result of each move, each child's position and tier, the score of a
finished game), makes every position's stable key once (the tablebase finds a position by it),
and writes every position's row into SQLite. Each part is timed here on its own (processor time,
the collector off as in a solve, the best of three), over every position and every move of the
game: their sum is a floor no solver built on these parts can beat, whatever its bookkeeping,
and it shows which part a target of positions per second asks to change. The solve itself (by
tiers, with no worker processes, into a tablebase) is timed in the same run, by processor time
too, each run in a fresh process: a solve keeps the keys it made for the moves that reach their
positions again, and a second solve in one process would find them made.
"""

from __future__ import annotations

import gc
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

import gdl
from benchmarks.strong import run_row
from searchers.protocol import has_chance, position_of, tier_of
from searchers.strong.keys import stable_key
from searchers.strong.tablebase import TablebaseWriter

ROOT = Path(__file__).resolve().parent.parent
GAME = "games/connect.gdl"  # 4x4 unless other parameters are given
TARGET = 100_000  # positions a second on one core, the goal of the strong solver


def moves_of(game: Any, state: Any) -> list[Any]:
    """The moves of a position not finished: the players' or, where dice decide, the dice's."""
    if has_chance(game) and game.is_chance(state):
        return [outcome for outcome, _ in game.chance_outcomes(state)]
    moves: list[Any] = game.actions(state)
    return moves


def every_position(game: Any) -> tuple[list[Any], list[tuple[Any, Any]]]:
    """A state of every position reachable from the start, and every move of the positions
    not finished (state, move), found breadth first."""
    position = position_of(game) or (lambda state: state)
    start = game.initial_state()
    seen, frontier, states, moves = {position(start)}, [start], [], []
    while frontier:
        states += frontier
        following = []
        for state in frontier:
            if game.is_terminal(state):
                continue
            for move in moves_of(game, state):
                moves.append((state, move))
                child = game.result(state, move)
                key = position(child)
                if key not in seen:
                    seen.add(key)
                    following.append(child)
        frontier = following
    return states, moves


def best_time(work: Callable[[], object], repeats: int = 3) -> float:
    """The least processor time of ``repeats`` runs of ``work``, the collector off."""
    times = []
    for _ in range(repeats):
        gc.disable()
        started = time.process_time()
        work()
        times.append(time.process_time() - started)
        gc.enable()
    return min(times)


def parts(game: Any) -> tuple[int, dict[str, float]]:
    """The number of positions and each part's processor time over all of them."""
    states, moves = every_position(game)
    position = position_of(game) or (lambda state: state)
    tier = tier_of(game) or (lambda state: 0)
    ongoing = [state for state in states if not game.is_terminal(state)]
    finished = [state for state in states if game.is_terminal(state)]
    children = [game.result(state, move) for state, move in moves]
    distinct = list({position(state): None for state in states})
    keys = sorted(map(stable_key, distinct))
    rows = [(key, 0, 0, 0) for key in keys]

    def write() -> None:
        with tempfile.TemporaryDirectory() as directory:
            writer = TablebaseWriter(Path(directory) / "floor.sqlite")
            writer.add(rows)
            writer.close()

    # As a solve asks: whether the dice decide (a game with dice), then whose move and its
    # moves, or the dice's outcomes.
    chance = has_chance(game)
    dice = [state for state in ongoing if chance and game.is_chance(state)]
    players = [state for state in ongoing if not (chance and game.is_chance(state))]

    def whose_move() -> None:
        if chance:
            [game.is_chance(state) for state in ongoing]
        [(game.to_move(state), game.actions(state)) for state in players]
        [game.chance_outcomes(state) for state in dice]

    first = game.players[0]
    figures = {
        "rules: is it over": best_time(lambda: [game.is_terminal(state) for state in states]),
        "rules: whose move, which moves": best_time(whose_move),
        "rules: results of the moves": best_time(lambda: [game.result(state, move) for state, move in moves]),
        "rules: positions and tiers of the children": best_time(
            lambda: [(position(child), tier(child)) for child in children]),
        "rules: scores of finished games": best_time(
            lambda: [game.utility(state, first) for state in finished]),
        "stable keys, one a position": best_time(lambda: [stable_key(p) for p in distinct]),
        "rows written to SQLite, in key order": best_time(write),
    }
    return len(distinct), figures


def solve_seconds(file: str, params: dict[str, int]) -> float:
    """The processor time of the strong solve by tiers with no worker processes, into a
    tablebase, in a fresh process."""
    seconds: float = run_row(file, params, 1)["processor_seconds"]
    return seconds


def main() -> None:
    """Print each part's time a position, their sum, and the solve's."""
    arguments = sys.argv[1:]
    file = arguments.pop(0) if arguments and "=" not in arguments[0] else GAME
    given = {k: int(v) for k, v in (arg.split("=") for arg in arguments)}
    params = given if arguments or file != GAME else {"rows": 4, "cols": 4}
    positions, figures = parts(gdl.load(str(ROOT / file), **params))
    solve = min(solve_seconds(file, params) for _ in range(3))
    print(f"{file} {' '.join(f'{k}={v}' for k, v in params.items())}: {positions:,} positions")
    print("| part | µs a position | share of the floor |")
    print("|---|---|---|")
    floor = sum(figures.values())
    for name, seconds in figures.items():
        print(f"| {name} | {seconds / positions * 1e6:.2f} | {seconds / floor:.0%} |")
    print(f"| **the floor: all the parts** | **{floor / positions * 1e6:.2f}** "
          f"(at most {positions / floor:,.0f} positions/s) | |")
    print(f"| the strong solve by tiers, one process | {solve / positions * 1e6:.2f} "
          f"({positions / solve:,.0f} positions/s) | {solve / floor:.2f}x the floor |")
    print(f"| the target, {TARGET:,} positions/s | {1e6 / TARGET:.2f} | {1e6 / TARGET / (floor / positions * 1e6):.2f}x "
          "the floor |")


if __name__ == "__main__":
    main()
