"""aima3: the textbook's `alphabeta_search` (AIMA, figure 5.7) on its own `TicTacToe` and
`ConnectFour` classes, and on a Nim written as its `Game` subclasses are.

`alphabeta_search` returns only the best move, so the value is checked by playing on from
that move, each side choosing with `alphabeta_search`, to the end (outside the timing): the
utility reached is the value exactly when every choice was optimal. It keeps no table and
counts no nodes.
"""

from __future__ import annotations

from functools import lru_cache
from typing import Any

from benchmarks.harness import Outcome
from benchmarks.peers import Peer, Solver, Work, sign


def load(work: Work) -> Any:
    """aima's game for ``work``: x runs along the columns and y up the rows."""
    from aima3 import games

    class Nim(games.Game):
        """Nim, normal play, as aima's games are written: state (piles, player to move)."""

        def __init__(self, piles: tuple[int, ...]) -> None:
            super().__init__()
            self.initial = (piles, "MAX")

        def actions(self, state: Any) -> list[tuple[int, int]]:
            return [(i, n) for i, size in enumerate(state[0]) for n in range(1, size + 1)]

        def result(self, state: Any, move: tuple[int, int]) -> Any:
            piles, mover = state
            i, n = move
            return (piles[:i] + (piles[i] - n,) + piles[i + 1:], "MIN" if mover == "MAX" else "MAX")

        def utility(self, state: Any, player: str) -> int:
            return -1 if player == state[1] else 1

        def terminal_test(self, state: Any) -> bool:
            return not any(state[0])

        def to_move(self, state: Any) -> str:
            return state[1]

    if work.game == "tictactoe":
        return games.TicTacToe()
    if work.game == "nim":
        return Nim(work.piles)
    return games.ConnectFour(h=work.cols, v=work.rows, k=4)


def solver(work: Work) -> Solver:
    """The timed search (its outcome's value is the move it chose) and the check that turns
    that move into the game's value by playing on."""
    from aima3.games import alphabeta_search

    game = load(work)
    first = game.to_move(game.initial)

    def run() -> Outcome:
        return Outcome(alphabeta_search(game.initial, game))

    @lru_cache(maxsize=None)  # every run chooses the same move: play it out once
    def value_of(move: Any) -> int:
        state = game.result(game.initial, move)
        while not game.terminal_test(state):
            state = game.result(state, alphabeta_search(state, game))
        return sign(game.utility(state, first))

    return run, value_of


PEER = Peer("aima3 alphabeta_search", "aima3",
            "no table; value checked by playing on from its move",
            frozenset({"tictactoe", "nim", "connect"}), solver)
