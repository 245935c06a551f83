"""What a search returns: the result, its statistics and the optional trace tree."""

from __future__ import annotations

from collections.abc import Hashable
from dataclasses import dataclass, field
from fractions import Fraction
from typing import Any, Literal

Number = int | float | Fraction
# Each player's payoff, in a game of more than two players (or not zero-sum).
Payoffs = dict[Any, Number]
# A searcher's value: one number from the first player's view in a two-player zero-sum
# game, each player's payoff otherwise.
SearchValue = Number | Payoffs
# "estimate": neither proven nor a bound: a mean of Monte Carlo playouts, or a value that rests
# on the evaluation at a horizon, a beam's choice or the repetition rule under dice.
Bound = Literal["exact", "upper", "lower", "estimate"]

# The bounds as names, for the searchers that compare them at every node.
EXACT: Bound = "exact"
LOWER: Bound = "lower"
UPPER: Bound = "upper"
ESTIMATE: Bound = "estimate"
NodeKind = Literal["max", "min", "chance", "leaf"]


class SearchError(Exception):
    """A search that cannot be made: the game lacks what the searcher needs, or bad limits."""


class GameError(SearchError):
    """What a search found wrong with the game itself: a game that never ends, a state that is
    not over yet has no moves, dice with no outcomes, one position in two tiers."""


class ChanceCycleMet(Exception):
    """Raised by ``expectiminimax`` or ``maxn`` given ``stop_at_chance_cycle=True`` at the
    first position that repeats on a cycle through chance nodes, where a depth-first search
    could only score the game's repetition rule: for two players, the strong solver
    (``solve_strong``) gives the true values there."""

    def __init__(self, ply: int) -> None:
        """The repetition met ``ply`` moves below the search's root."""
        super().__init__(ply)  # the arguments, as a pickle rebuilds it
        self.ply = ply

    def __str__(self) -> str:
        return f"a position repeats through chance nodes {self.ply} moves down"


@dataclass(frozen=True)
class SearchStats:
    """Counts and timing of one search."""

    nodes: int  # states visited, the root included
    leaves: int  # states scored by utility or evaluation
    cutoffs: int  # nodes where alpha-beta skipped the remaining moves
    table_hits: int  # nodes answered from the transposition table
    depth: int  # depth limit, deepest completed iteration, or deepest ply reached
    seconds: float
    repetitions: int  # positions scored as repeating on the current line
    table_entries: int = 0  # positions in the transposition table at the end
    table_capacity: int = 0  # the most it may hold, from its memory limit
    table_evictions: int = 0  # entries dropped to make room
    chance_repetitions: int = 0  # repetitions on a cycle through chance nodes (not exact)
    iterations: int = 0  # Monte Carlo tree search: playouts made (selection to back-up)


@dataclass(frozen=True)
class TraceNode:
    """One node of a traced search, as a textbook would draw it.

    ``kind`` is "max", "min" or "chance" for a node whose children were searched
    (max^n calls every player's node "max" when ``value`` is a dict of payoffs),
    "leaf" for one that was scored without searching below it; ``scored_by`` then
    says how: "utility", "evaluation", "repetition" or "table".  ``alpha`` and
    ``beta`` are the window on entry (None in searchers without one), ``value``
    the backed-up value from the first player's view (a dict player -> payoff where
    the search's values are, see ``SearchResult``) and ``bound`` whether it is
    exact or only an upper/lower bound on the true value (a fail-low/high node).
    ``pruned`` lists the moves skipped by an alpha-beta cut-off, ``dropped`` those
    skipped by the beam.  ``probability`` is set on the outcomes of chance nodes.
    """

    move: Hashable | None
    state: Any
    player: str | None
    kind: NodeKind
    depth: int
    alpha: Number | None
    beta: Number | None
    value: SearchValue
    bound: Bound = "exact"
    scored_by: str | None = None
    children: list[TraceNode] = field(default_factory=list)
    pruned: list[Hashable] = field(default_factory=list)
    dropped: list[Hashable] = field(default_factory=list)
    probability: Number | None = None


@dataclass(frozen=True)
class SearchResult:
    """The outcome of a search, all values from the first player's view.

    In a two-player zero-sum game ``value`` and each of ``move_values`` is one number,
    from the first player's view.  Max^n and Monte Carlo tree search on a game of more
    players (or a two-player game declared not zero-sum) give instead a dict from each
    player to its payoff; paranoid search gives the number of the one player it plays
    for.  Monte Carlo tree search also fills ``visits`` (each root move's visit count)
    and ``mean_payoffs`` (each root move's mean payoff over its playouts, in the form of
    ``value``); its ``move_bounds`` say "exact" for a move whose value is proven and
    "estimate" for a mean.  Other searchers leave these two None.

    ``exact`` is True when ``value`` is the game's true value: the search reached
    terminal states everywhere, with no depth cut-off, no move dropped by a beam,
    no time or node limit stopping it, and no repetition scored on a cycle through
    chance nodes (where the game really goes on); otherwise ``inexact_reason`` says
    why.  ``move_bounds`` says, for each root
    move, whether its entry in ``move_values`` is exact or only an upper or lower
    bound (alpha-beta proves only that a refuted move is no better), or, where the
    values rest on the evaluation at a horizon, a beam or a repetition under dice, an
    estimate.  ``leaves``
    and ``tree`` are filled in only by a search with ``trace=True``.
    """

    value: SearchValue
    move: Hashable | None
    pv: list[Hashable]
    move_values: dict[Hashable, SearchValue]
    move_bounds: dict[Hashable, Bound]
    exact: bool
    to_move: str | None
    repetition: bool
    stats: SearchStats
    algorithm: str = ""
    leaves: list[tuple[Any, SearchValue]] | None = None
    tree: TraceNode | None = None
    interrupted: bool = False  # stopped by Ctrl-C: the best result found so far (not exact)
    inexact_reason: str | None = None  # why ``exact`` is False, in words
    visits: dict[Hashable, int] | None = None  # Monte Carlo: each root move's visit count
    mean_payoffs: dict[Hashable, SearchValue] | None = None  # Monte Carlo: each root move's mean payoff
