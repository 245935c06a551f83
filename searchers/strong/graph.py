"""The game graph: every position reachable from the start, numbered, with its successors.

Positions are found breadth first from a queue, never by recursion, so a game thousands of
moves deep needs no deep Python stack.  A position's identity is the game's optional
``position(state)`` (by default the state itself): two states with the same position are one
node, expanded once.  The successors of a node are kept in the order of ``actions(state)``
(or of ``chance_outcomes(state)``), one edge a move, so an edge's place in its node's list is
the move's index in ``actions``: that is how a tablebase names a best move.
"""

from __future__ import annotations

from array import array
from collections import deque
from collections.abc import Callable, Hashable, Iterator
from dataclasses import dataclass, field
from operator import ne
from random import Random
from time import perf_counter
from typing import TYPE_CHECKING, Any, TypeAlias, cast, no_type_check as typeguard_ignore

from ..protocol import (
    Game, State, Value, check_merge, check_same_position, has_chance, no_moves_error, position_of, repetition_rule,
    tier_of,
)
from ..results import GameError
from .keys import stable_key

if TYPE_CHECKING:
    IntArray: TypeAlias = array[int]
else:  # array is not subscriptable at run time before Python 3.12
    IntArray = array
"""An ``array`` of integers (typecode ``q``)."""

TERMINAL, MAX, MIN, CHANCE, FIXED = 0, 1, 2, 3, 4
"""A node's kind: a finished game, the first player to move, the second, the dice, or a
position solved before (in a later tier), whose answer ``Graph.fixed`` holds."""

# Positions between two calls of the progress callback while the graph grows.
_PROGRESS_EVERY = 4096


@dataclass
class Graph:
    """Every reachable position as a node ``0..size-1`` (the start is node 0).

    ``first[n]:first[n + 1]`` are the indices in ``target`` of node ``n``'s successors, in
    move order; ``probabilities[n]`` lists a chance node's outcome probabilities in the same
    order; ``utility[n]`` is a terminal node's score for the first player.  ``positions`` maps
    each position to its node, in node order.  ``repetition`` is the score of a never-ending
    play for the first player: one number, or one a node when the game's rule reads the state.
    """

    kind: bytearray = field(default_factory=bytearray)
    first: IntArray = field(default_factory=lambda: array("q", [0]))
    target: IntArray = field(default_factory=lambda: array("q"))
    probabilities: dict[int, list[Value]] = field(default_factory=dict)
    utility: dict[int, Value] = field(default_factory=dict)
    fixed: dict[int, tuple[Value, int]] = field(default_factory=dict)  # value, remoteness
    positions: dict[Hashable, int] = field(default_factory=dict)
    repetition: Value | list[Value] = 0
    has_chance: bool = False
    _by_node: list[Hashable] = field(default_factory=list, repr=False)  # the positions in node order
    _keys: dict[int, bytes] = field(default_factory=dict, repr=False)  # the stable keys made (``key``)

    @property
    def size(self) -> int:
        """The number of nodes."""
        return len(self.kind)

    def successors(self, node: int) -> IntArray:
        """The successors of ``node``, one a move, in move order."""
        return self.target[self.first[node]:self.first[node + 1]]

    def in_key_order(self, nodes: list[int]) -> list[int]:
        """``nodes`` in the order of their positions' stable keys: a graph of positions by
        their keys (the whole game's); else by number (a tier's graph, whose positions are
        numbered in key order within each group of positions its moves join, see
        ``TierGraph.groups``, and a cycle lies within one group).  Value iteration over a cycle
        sweeps its positions in this order, whichever way the solve went, so that its values
        agree to the last bit."""
        return sorted(nodes, key=self.key) if self.positions else sorted(nodes)

    def key(self, node: int) -> bytes:
        """The stable key of ``node``'s position (a graph of positions), kept for
        ``stable_keys``: the cycles' positions, put in key order, are written to the tablebase
        too."""
        found = self._keys.get(node)
        if found is None:
            if len(self._by_node) != len(self.positions):
                self._by_node = list(self.positions)
            found = self._keys[node] = stable_key(self._by_node[node])
        return found

    def stable_keys(self) -> Iterator[tuple[bytes, int]]:
        """Each position's stable key and node: those ``key`` made are taken as they are, the
        others made here and not kept (a graph of millions of positions)."""
        made = self._keys
        for position, node in self.positions.items():
            yield made.get(node) or stable_key(position), node

    def repetition_of(self, node: int) -> Value:
        """The score of a never-ending play from ``node``, for the first player."""
        rule = self.repetition
        return rule[node] if isinstance(rule, list) else rule

    def predecessors(self) -> tuple[IntArray, IntArray]:
        """The reverse edges, as ``(first, source)``: ``source[first[n]:first[n + 1]]`` are the
        nodes with an edge to ``n``, once an edge."""
        size = self.size
        counts = array("q", bytes(8 * (size + 1)))
        for child in self.target:
            counts[child + 1] += 1
        for n in range(size):
            counts[n + 1] += counts[n]
        source = array("q", bytes(8 * len(self.target)))
        fill = array("q", counts)
        first, target = self.first, self.target
        for node in range(size):
            for index in range(first[node], first[node + 1]):
                child = target[index]
                source[fill[child]] = node
                fill[child] += 1
        return counts, source


@dataclass(frozen=True)
class GrowthProgress:
    """How the discovery of positions is going."""

    positions: int  # found so far
    expanded: int  # of which expanded
    seconds: float


def tier_error(game: Game, state: State, move: Any, child: State) -> Exception:
    """The game's error for a move into a lower tier (a SearchError if it has none of its own)."""
    make_error = getattr(game, "tier_error", None)
    if callable(make_error):
        return cast(Exception, make_error(state, move, child))
    return GameError(
        f"the move {move!r} goes from tier {game.tier(state)} down to tier {game.tier(child)}: "
        "no move may lower the tier"
    )


ONE_POSITION_TWO_TIERS = (
    "one position was found in two tiers: the game's `position` makes states of different tiers one "
    "position; `position` must keep what `tier` counts")
"""What a solve by tiers says when it meets one key in two tiers (where the sample of
``PositionSampler`` did not show the two states)."""


class PositionSampler:
    """Checks, on a sample, that states with the same position behave the same: the states of
    the positions met lately are kept, and a later state of one of them is compared with it.

    One sampler serves a whole solve in a process (a solve by tiers meets a position again in
    another chunk, often another tier's).  It keeps at most ``kept`` positions, and starts
    afresh when it holds that many: the positions met last are the ones the moves still to come
    reach (a solve by tiers goes up from tier to tier).  It compares ``checks`` pairs each time
    it starts afresh and in each tier (``enter``), so that the last tiers are checked as the
    first ones are; past those, a pair whose fields differ in a way not seen before (the
    player to move and the field the position leaves out, where only that field differed so
    far) is compared too, a few times.

    A pair is compared by its moves and the positions they lead to; the first ``lines`` pairs
    of each tier (and of each ``kept`` positions) also along a line of play to the end, the same
    moves from both, picked at random: a field the position leaves out may matter only to the
    score of a finished game (``check_merge``)."""

    def __init__(self, game: Game, kept: int = 4096, checks: int = 16, lines: int = 2) -> None:
        """Keep the states of at most ``kept`` positions; compare ``checks`` pairs a tier and a
        ``kept`` positions, ``lines`` of them to the end, and more of the pairs that differ in
        new fields."""
        self.game = game
        self.position = position_of(game)
        self.states: dict[Hashable, State] = {}
        self.kept, self.budget, self.checks = kept, checks, checks
        self.line_budget, self.lines = lines, lines
        self.choose = Random(0)  # the lines' moves: the same in every run
        self.tier: int | None = None
        self.differences: dict[tuple[bool, ...] | None, int] = {}  # how often each was compared
        self.skipped = 0  # pairs past the checks, counted to look at one in four

    def enter(self, tier: int) -> None:
        """States of ``tier`` come next: a new tier has checks of its own."""
        if tier != self.tier:
            self.tier, self.checks, self.lines = tier, self.budget, self.line_budget

    @typeguard_ignore
    def see(self, key: Hashable, state: State) -> None:
        """Note ``state`` of position ``key`` (of a game with a ``position``); compare it with
        the one kept, if another."""
        states = self.states
        kept = states.get(key)
        if kept is None:
            if len(states) >= self.kept:
                states.clear()
                self.checks, self.lines = self.budget, self.line_budget
            states[key] = state
        elif kept is not state and kept != state:
            self._differ(kept, state)

    def _differ(self, kept: State, state: State) -> None:
        """Compare two states of one position, unless the checks are spent and their fields
        differ as in the pairs compared before (a fourth of such pairs are looked at)."""
        if self.checks:
            self.checks -= 1
        else:
            self.skipped = (self.skipped + 1) & 3
            if self.skipped:
                return
            difference: tuple[bool, ...] | None = None
            if isinstance(kept, tuple) and isinstance(state, tuple) and len(kept) == len(state):
                difference = tuple(map(ne, kept, state))
            compared = self.differences.get(difference, 0)
            if compared >= _CHECKS_A_DIFFERENCE:
                return
            self.differences[difference] = compared + 1
        if self.position is None:  # never: only a game with a position has states to compare
            return
        if self.lines:
            self.lines -= 1
            check_merge(self.game, kept, state, self.choose)
        else:
            check_same_position(self.game, kept, state, self.position)


_CHECKS_A_DIFFERENCE = 8  # pairs compared past the budget, for each set of fields that differ


def discover(
    game: Game,
    root: State | None = None,
    progress: Callable[[GrowthProgress], None] | None = None,
) -> Graph:
    """The graph of every position reachable from ``root`` (default: the initial state)."""
    graph = Graph(has_chance=has_chance(game))
    start = game.initial_state() if root is None else root
    expand = _expander(game, graph)
    position = position_of(game)
    graph.positions[start if position is None else position(start)] = 0
    queue: deque[State] = deque([start])
    started = perf_counter()
    report_at = _PROGRESS_EVERY
    expanded = 0
    while queue:
        expand(queue.popleft(), queue)
        expanded += 1
        if progress is not None and expanded >= report_at:
            report_at += _PROGRESS_EVERY
            progress(GrowthProgress(len(graph.positions), expanded, perf_counter() - started))
    _settle_repetition(graph)
    return graph


def _settle_repetition(graph: Graph) -> None:
    """One number for the repetition score when every node has the same."""
    rule = graph.repetition
    if isinstance(rule, list):
        scores = {score for score in rule if score is not None}
        if len(scores) <= 1:
            graph.repetition = scores.pop() if scores else 0
        else:
            graph.repetition = [0 if score is None else score for score in rule]


def _expander(game: Game, graph: Graph) -> Callable[[State, deque[State]], None]:
    """The function that expands one state: records its node and queues its new successors."""
    first_player = game.players[0]
    to_move, actions, result = game.to_move, game.actions, game.result
    is_terminal, utility = game.is_terminal, game.utility
    is_chance = game.is_chance if graph.has_chance else None
    chance_outcomes = getattr(game, "chance_outcomes", None)
    position = position_of(game)
    sampler = PositionSampler(game)
    repetition = repetition_rule(game)
    tier = tier_of(game)
    kind, first, target = graph.kind, graph.first, graph.target
    positions, probabilities, utilities = graph.positions, graph.probabilities, graph.utility
    repetitions: list[Value | None] = []
    if repetition is not None:
        # None marks a finished game's node until _settle_repetition fills it in.
        graph.repetition = cast(list[Value], repetitions)

    @typeguard_ignore
    def expand(state, queue):
        node = len(kind)
        if is_terminal(state):
            kind.append(TERMINAL)
            utilities[node] = utility(state, first_player)
            first.append(len(target))
            if repetition is not None:
                repetitions.append(None)
            return
        if is_chance is not None and is_chance(state):
            outcomes = chance_outcomes(state)
            if not outcomes:
                raise GameError(f"chance node {state!r} has no outcomes")
            kind.append(CHANCE)
            moves = [outcome for outcome, _ in outcomes]
            probabilities[node] = [probability for _, probability in outcomes]
        else:
            kind.append(MAX if to_move(state) == first_player else MIN)
            moves = actions(state)
            if not moves:
                raise no_moves_error(game, state)
        if repetition is not None:
            repetitions.append(repetition(state))
        level = None if tier is None else tier(state)
        for move in moves:
            child = result(state, move)
            if level is not None and tier(child) < level:
                raise tier_error(game, state, move, child)
            if position is None:
                key = child
            else:
                key = position(child)
                sampler.see(key, child)
            index = positions.get(key)
            if index is None:
                index = positions[key] = len(positions)
                queue.append(child)
            target.append(index)
        first.append(len(target))

    return cast(Callable[[State, deque[State]], None], expand)

