"""Payoff vectors: every player's payoff at once, for the searchers of any number of players.

Max^n and Monte Carlo tree search carry one payoff per player, as a tuple in the order
of ``game.players``.  A ``PayoffReader`` reads such vectors from a game (at terminal
states, cut-offs and repetitions), shows them in a ``SearchResult`` (one number from the
first player's view in a two-player zero-sum game, as every searcher reports it there;
a dict player -> payoff otherwise), and says what the game's declared ``payoff_bounds``
and ``payoff_sum`` allow a searcher to conclude (see ``searchers.protocol``).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from . import _hot
from .protocol import Game, Player, State, Value, has_evaluation, is_zero_sum, payoff_bounds, payoff_sum
from .results import SearchValue

if TYPE_CHECKING:  # mypy checks per-node code with typeguard's own decorator
    from typeguard import typeguard_ignore
else:  # typeguard recognises that name; at run time the stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore

PayoffVector = tuple[Value, ...]
"""Each player's payoff, in the order of ``game.players``."""


class PayoffReader:
    """How a game's payoffs are read as vectors and shown in results.

    ``utility``, ``evaluation`` (None without one) and ``repetition`` give a state's
    payoff vector; a game without ``repetition_utility`` scores a repetition 0 for
    every player (a draw), as the depth-first searchers do.  In a two-player zero-sum
    game only the first player is asked, and the second's payoff is its negation.
    """

    def __init__(self, game: Game) -> None:
        """Read the players and the declared facts about the payoffs of ``game``."""
        self.players: tuple[Player, ...] = tuple(game.players)
        self.index = {player: i for i, player in enumerate(self.players)}
        # One number from the first player's view, as for minimax and alpha-beta.
        self.single = len(self.players) == 2 and is_zero_sum(game)
        self.bounds = payoff_bounds(game)
        self.total = payoff_sum(game)
        self.utility = self._reader(game.utility)
        self.evaluation = self._reader(game.evaluate) if has_evaluation(game) else None
        repetition = getattr(game, "repetition_utility", None)
        zeros: PayoffVector = (0,) * len(self.players)
        self.repetition: Callable[[State], PayoffVector] = (
            self._reader(repetition) if callable(repetition) else lambda state: zeros
        )

    def _reader(self, score: Callable[[State, Player], Value]) -> Callable[[State], PayoffVector]:
        players = self.players
        if self.single:
            first = players[0]

            @typeguard_ignore
            def read_one(state: State) -> PayoffVector:
                value = score(state, first)
                return (value, -value)

            return read_one

        @typeguard_ignore
        def read_each(state: State) -> PayoffVector:
            return tuple([score(state, player) for player in players])

        return read_each

    def show(self, vector: PayoffVector) -> SearchValue:
        """The vector as a result gives it: the first player's payoff in a two-player zero-sum
        game, else a dict from each player to its payoff."""
        return vector[0] if self.single else dict(zip(self.players, vector))

    def shallow_limit(self) -> Value | None:
        """The most that two players' payoffs can add up to, or None when unknown.

        When one player is sure of ``x``, any other gets at most ``limit - x``: this is
        what max^n's shallow pruning needs (Korf 1991).  It follows from a constant sum
        and, with more than two players, a lowest payoff for the others.
        """
        if self.total is None:
            return None
        if len(self.players) == 2:
            return self.total
        if self.bounds is None:
            return None
        return self.total - (len(self.players) - 2) * self.bounds[0]

    def decisive(self) -> Value | None:
        """The payoff that, for the player to move, settles a position's value, or None.

        A move giving the mover the highest payoff cannot be bettered; the whole vector
        then follows when the others' payoffs are fixed by it: two players with a
        constant sum, or the others all at the lowest payoff (the sum is the highest
        plus the lowest for every other player).
        """
        if self.bounds is None or self.total is None:
            return None
        low, high = self.bounds
        if len(self.players) == 2 or self.total == high + (len(self.players) - 1) * low:
            return high
        return None
