"""The games the suites measure: a bundled game file and the same game written by hand in
Python (`tests.pygames`), as two contenders doing the same work."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

import gdl
from benchmarks import ROOT
from benchmarks.harness import Contender, Outcome, Target
from tests.pygames import ConnectK, TicTacToe

Work = Callable[[Any, Any], Outcome]  # (game, state to start from) -> outcome


class Twins:
    """A game file and its hand-written twin, with the same state reached in each."""

    def __init__(self, path: str, hand: Any, hand_name: str, after: tuple[int, ...] = (), **params: Any) -> None:
        """Load ``path`` (relative to the repository) with ``params``; ``hand`` is the twin.
        The work starts from the state reached by playing, in both, the move at each index of
        ``after`` in turn (both list their moves in the same order)."""
        self.path, self.hand, self.hand_name, self.after = path, hand, hand_name, after
        self.file = gdl.load(ROOT / path, **params)

    def start(self, game: Any) -> Any:
        """The state the work starts from in ``game``."""
        state = game.initial_state()
        for choice in self.after:
            state = game.result(state, game.actions(state)[choice])
        return state

    def contenders(self, work: Work, target: Target | None = None) -> list[Contender]:
        """The hand-written game (the base) and the file doing ``work``; ``target`` bounds the
        file's ratio to the hand-written game."""
        hand, file = self.hand, self.file
        hand_state, file_state = self.start(hand), self.start(file)
        return [
            Contender(f"hand-written ({self.hand_name})", lambda: work(hand, hand_state)),
            Contender(f"game file ({self.path})", lambda: work(file, file_state), target=target),
        ]


def tictactoe(after: tuple[int, ...] = ()) -> Twins:
    """games/tictactoe.gdl and `tests.pygames.TicTacToe`."""
    return Twins("games/tictactoe.gdl", TicTacToe(), "tests.pygames.TicTacToe", after)


def connect_four(rows: int = 6, cols: int = 7) -> Twins:
    """games/connect.gdl and `tests.pygames.ConnectK` on rows x cols, four in a row."""
    return Twins("games/connect.gdl", ConnectK(rows, cols, 4), "tests.pygames.ConnectK", rows=rows, cols=cols, k=4)
