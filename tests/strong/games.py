"""Small games written by hand for the strong solver's tests, and independent references."""

from __future__ import annotations

from collections import deque
from fractions import Fraction
from functools import lru_cache, partial
from typing import Any

CoinState = tuple[str, bool, "str | None"]  # mover, coin in the air, winner


class CoinFlip:
    """Players A and B; the mover flips a fair coin: heads, the mover wins; tails, the flip
    passes to the other player.  The positions repeat through the dice, for ever if the coin
    keeps falling tails.  A's value (win +1, loss -1) is 1/3: with p the chance that the
    player to flip wins, p = 1/2 + (1 - p)/2, so p = 2/3 and 2/3 - 1/3 = 1/3."""

    name = "coin flip"
    players = ("A", "B")
    has_chance = True

    def initial_state(self) -> CoinState:
        """A to flip."""
        return ("A", False, None)

    def to_move(self, state: CoinState) -> str:
        """The player whose turn it is."""
        return state[0]

    def is_chance(self, state: CoinState) -> bool:
        """The coin is in the air."""
        return state[1]

    def chance_outcomes(self, state: CoinState) -> list[tuple[str, Fraction]]:
        """Heads or tails, even chances."""
        return [("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))]

    def actions(self, state: CoinState) -> list[str]:
        """The only move: flip."""
        return ["flip"]

    def result(self, state: CoinState, move: str) -> CoinState:
        """Flip, or read the coin."""
        mover = state[0]
        if move == "flip":
            return (mover, True, None)
        if move == "heads":
            return (mover, False, mover)
        return ("B" if mover == "A" else "A", False, None)

    def is_terminal(self, state: CoinState) -> bool:
        """Someone has won."""
        return state[2] is not None

    def utility(self, state: CoinState, player: str) -> int:
        """+1 for the winner, -1 for the other."""
        return 1 if state[2] == player else -1


def reachable(game: Any, identity: Any = None) -> set[Any]:
    """Every state reachable from the start, by a breadth-first walk written here; with
    ``identity`` (such as the game's ``position``), what it gives of each, each met once."""
    start = game.initial_state()
    identify = identity or (lambda state: state)
    seen, queue = {identify(start)}, deque([start])
    while queue:
        state = queue.popleft()
        if game.is_terminal(state):
            continue
        for move in game.actions(state):
            child = game.result(state, move)
            if identify(child) not in seen:
                seen.add(identify(child))
                queue.append(child)
    return seen


def brute_remoteness(game: Any, repetition: int = 0) -> Any:
    """A function giving (value, remoteness) of a state of an acyclic game without dice, by
    memoized recursion: among the moves that keep the value, the first player hurries when the
    value is at least the repetition value and delays otherwise, and the second player the
    other way round."""
    first = game.players[0]

    @lru_cache(maxsize=None)
    def solve(state: Any) -> tuple[Any, int]:
        if game.is_terminal(state):
            return game.utility(state, first), 0
        answers = [solve(game.result(state, move)) for move in game.actions(state)]
        maximizing = game.to_move(state) == first
        value = (max if maximizing else min)(v for v, _ in answers)
        lengths = [r for v, r in answers if v == value]
        hurry = (value >= repetition) == maximizing
        return value, 1 + (min(lengths) if hurry else max(lengths))

    return solve


class TieredGraph:
    """A game on a small graph whose nodes lie in tiers, for comparing the solve by tiers with
    the solve of the whole graph: node 0 starts; a node is A's (MAX), B's, the dice's or an end
    scored ``ends[node]`` for A; a move goes to a node of the same tier or a higher one, so the
    moves inside a tier may make cycles, and a move may skip tiers.  A play that never ends
    scores ``repetition[node]`` for A at the node repeated, or a draw where it is None."""

    name = "tiered graph"
    players = ("A", "B")

    def __init__(self, kinds: tuple[str, ...], arcs: tuple[tuple[int, ...], ...], weights: tuple[tuple[int, ...], ...],
                 ends: tuple[int, ...], tiers: tuple[int, ...], repetition: tuple[Fraction, ...] | None) -> None:
        """Node ``i`` of kind ``kinds[i]`` ("A", "B", "dice" or "end") moves to ``arcs[i]``
        (the dice at odds ``weights[i]``), in tier ``tiers[i]``."""
        self.kinds, self.arcs, self.weights, self.ends, self.tiers = kinds, arcs, weights, ends, tiers
        self.repetition = repetition
        self.has_chance = "dice" in kinds
        if repetition is not None:
            self.repetition_utility = lambda node, player: repetition[node] if player == "A" else -repetition[node]

    def __reduce__(self) -> Any:
        return (TieredGraph, (self.kinds, self.arcs, self.weights, self.ends, self.tiers, self.repetition))

    def factory(self) -> Any:
        """A picklable function that makes this game again (in a worker process)."""
        return partial(TieredGraph, *self.__reduce__()[1])

    def __repr__(self) -> str:
        return (f"TieredGraph(kinds={self.kinds}, arcs={self.arcs}, weights={self.weights}, ends={self.ends}, "
                f"tiers={self.tiers}, repetition={self.repetition})")

    def initial_state(self) -> int:
        """Node 0."""
        return 0

    def to_move(self, node: int) -> str:
        """A or B."""
        return self.kinds[node]

    def is_chance(self, node: int) -> bool:
        """Whether the dice move."""
        return self.kinds[node] == "dice"

    def chance_outcomes(self, node: int) -> list[tuple[int, Fraction]]:
        """Each next node at its odds."""
        total = sum(self.weights[node])
        return [(child, Fraction(weight, total)) for child, weight in zip(self.arcs[node], self.weights[node])]

    def actions(self, node: int) -> list[int]:
        """The next nodes."""
        return list(self.arcs[node])

    def result(self, node: int, move: int) -> int:
        """The node moved to."""
        return move

    def is_terminal(self, node: int) -> bool:
        """Whether the node is an end."""
        return self.kinds[node] == "end"

    def utility(self, node: int, player: str) -> int:
        """The end's score, A's or B's (zero sum)."""
        return self.ends[node] if player == "A" else -self.ends[node]

    def tier(self, node: int) -> int:
        """The node's tier."""
        return self.tiers[node]
