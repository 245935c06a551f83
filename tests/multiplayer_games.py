"""Hand-written Python games of any number of players, for the multiplayer searchers.

A game tree with a payoff vector at each leaf (with the three-player tree of AIMA's
multiplayer figure) and a take-away game for three players or more.
Payoffs are each player's own (``utility(s, p)``); ``payoff_bounds`` and
``payoff_sum`` are declared where the tests need them.
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction

from tests.pygames import TreeGame

Number = int | float | Fraction
Payoffs = tuple[Number, ...]

# ------------------------------------------------------------------- trees with payoff vectors

PayoffTable = Mapping[str, Sequence["str | Payoffs"]]


class PayoffTree(TreeGame):
    """A game tree written as a table, whose leaves are payoff vectors (one per player).

    ``tree`` maps each inner node to its children, as for ``TreeGame``, but a leaf is a
    tuple of payoffs in player order.  The players move in turn by depth (the first at the
    root).  ``chance`` maps inner nodes that are chance nodes to their children's
    probabilities (the players' turns still go by depth, chance nodes included).
    """

    def __init__(
        self,
        tree: PayoffTable,
        players: Sequence[str] = ("A", "B", "C"),
        *,
        chance: Mapping[str, Sequence[Number]] | None = None,
        payoff_bounds: tuple[Number, Number] | None = None,
        payoff_sum: Number | None = None,
        name: str = "payoff tree",
    ) -> None:
        """Index ``tree``'s nodes; ``payoff_bounds`` and ``payoff_sum`` are declared as given."""
        super().__init__(tree, players=tuple(players), name=name)
        self.payoff_bounds, self.payoff_sum = payoff_bounds, payoff_sum
        self.has_chance = bool(chance)
        self.chance = dict(chance or {})

    def to_move(self, state: str) -> str:
        """The players in turn by depth."""
        return self.players[self.depth[state] % len(self.players)]

    def utility(self, state: str, player: str) -> Number:
        """The leaf's payoff for ``player``."""
        return self.values[state][self.players.index(player)]

    def is_chance(self, state: str) -> bool:
        """Whether the node is a chance node."""
        return state in self.chance

    def chance_outcomes(self, state: str) -> list[tuple[str, Number]]:
        """The children of a chance node with their probabilities."""
        return list(zip(self.children[state], self.chance[state]))


# AIMA 3rd edition, Figure 5.4: players A, B, C move in turn; the leaves are (vA, vB, vC).
# The book backs up (1, 2, 6) to the root.
AIMA_THREE_PLAYER_TREE: PayoffTable = {
    "a": ["b1", "b2"],
    "b1": ["c1", "c2"], "b2": ["c3", "c4"],
    "c1": [(1, 2, 6), (4, 2, 3)], "c2": [(6, 1, 2), (7, 4, 1)],
    "c3": [(5, 1, 1), (1, 5, 2)], "c4": [(7, 7, 1), (5, 4, 5)],
}

# ----------------------------------------------------------------- three-player take-away

TakeState = tuple[int, int, int]  # stones left, index of the player to move, who took last (-1: none)


class TakeAway:
    """Players in turn take 1..``take`` stones from one pile.

    Whoever takes the last stone scores ``payoffs[0]``, the player who moved just before
    scores ``payoffs[1]`` and every other player ``payoffs[2]``.  The default payoffs
    (2, 1, 0) add up to 3 for three players: ``payoff_sum`` and ``payoff_bounds`` say so.
    """

    def __init__(
        self,
        stones: int = 7,
        take: int = 3,
        players: Sequence[str] = ("A", "B", "C"),
        payoffs: tuple[int, int, int] = (2, 1, 0),
    ) -> None:
        """A pile of ``stones``; at most ``take`` taken per move."""
        self.stones, self.take, self.players = stones, take, tuple(players)
        self.scores = payoffs
        self.name = f"take-away {stones}/{take}, {len(self.players)} players"
        self.payoff_bounds = (min(payoffs), max(payoffs))
        others = len(self.players) - 2
        self.payoff_sum = payoffs[0] + payoffs[1] + others * payoffs[2]

    def initial_state(self) -> TakeState:
        """The full pile, the first player to move."""
        return (self.stones, 0, -1)

    def to_move(self, state: TakeState) -> str:
        """The player whose turn it is."""
        return self.players[state[1]]

    def actions(self, state: TakeState) -> list[int]:
        """How many stones may be taken."""
        return list(range(1, min(self.take, state[0]) + 1))

    def result(self, state: TakeState, move: int) -> TakeState:
        """Take ``move`` stones; the next player moves."""
        stones, mover, _ = state
        return (stones - move, (mover + 1) % len(self.players), mover)

    def is_terminal(self, state: TakeState) -> bool:
        """The pile is empty."""
        return state[0] == 0

    def utility(self, state: TakeState, player: str) -> int:
        """``payoffs[0]`` for the last taker, ``payoffs[1]`` for the one before, else ``payoffs[2]``."""
        last = state[2]
        n = len(self.players)
        i = self.players.index(player)
        return self.scores[0] if i == last else self.scores[1] if i == (last - 1) % n else self.scores[2]
