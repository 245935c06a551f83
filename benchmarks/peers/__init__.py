"""Other game-search libraries doing the same work as gdl, for the `solve` and `chess_perft`
suites. Each is optional (the `bench` extra installs them all): a peer that is not installed
gives a column that says so, never an error.

Every peer module offers its `Peer`s: a `Solver` for each `Work` it covers, whose run solves
the work exactly from its initial state and returns the `Outcome` (the value from the first
player's view, as -1, 0 or 1, and the nodes where the peer counts them).
"""

from __future__ import annotations

import importlib.util
from collections.abc import Callable
from dataclasses import dataclass
from importlib.metadata import PackageNotFoundError, version
from typing import Any, Literal

from benchmarks.harness import Outcome

# A timed run, and the check that turns its outcome's value into the game's value outside the
# timing (None: the run's value is the game's value).
Solver = tuple[Callable[[], Outcome], Callable[[Any], int] | None]

INSTALL_HINT = "pip install -e '.[bench]'"

# The peers' distributions, by the module each is imported as.
DISTRIBUTIONS = {"pyspiel": "open_spiel", "easyAI": "easyAI", "aima3": "aima3", "chess": "chess"}


def installed(module: str) -> bool:
    """Whether ``module`` can be imported."""
    return importlib.util.find_spec(module) is not None


def not_installed(module: str) -> str:
    """The note of a column whose library is missing."""
    return f"not installed ({DISTRIBUTIONS.get(module, module)}: {INSTALL_HINT})"


def versions() -> dict[str, str | None]:
    """Each peer distribution's installed version, None when it is not installed."""
    found: dict[str, str | None] = {}
    for distribution in DISTRIBUTIONS.values():
        try:
            found[distribution] = version(distribution)
        except PackageNotFoundError:
            found[distribution] = None
    return found


@dataclass(frozen=True)
class Work:
    """An exact solve, from the initial state, of one of the games every peer can play.

    ``game`` is "tictactoe", "nim" (normal play: whoever takes the last stone wins) or
    "connect" (connect four, k = 4, on ``rows`` x ``cols``).
    """

    name: str
    game: Literal["tictactoe", "nim", "connect"]
    piles: tuple[int, ...] = ()
    rows: int = 0
    cols: int = 0

    @property
    def longest(self) -> int:
        """The most moves a game can last: the depth an exact search must be allowed."""
        if self.game == "tictactoe":
            return 9
        if self.game == "nim":
            return sum(self.piles)
        return self.rows * self.cols


@dataclass(frozen=True)
class Peer:
    """A library's column of the `solve` suite: its name, the module it imports (its rows say
    "not installed" without it), a note for its rows, the games (`Work.game`) it covers and
    how it solves one."""

    name: str
    module: str
    note: str
    games: frozenset[str]
    solver: Callable[[Work], Solver]


def sign(value: float) -> int:
    """-1, 0 or 1: a value as a loss, draw or win, whatever the scale a library scores in."""
    return (value > 0) - (value < 0)
