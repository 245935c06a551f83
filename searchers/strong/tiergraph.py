"""One tier's graph, as the forward pass of a solve by tiers leaves it, and its solution.

The positions a tier's moves reach in higher tiers are solved before it: here they are fixed
nodes, their answers given.  A tier where every move leaves the tier (a disc dropped, a seed
sown into a store) needs no search for an order: each position follows from its children at
once, so such a tier can be cut into chunks solved anywhere, each chunk with the answers of
the children it reaches (``ChunkCutter``, ``solve_chunk``).
"""

from __future__ import annotations

import marshal
import pickle
from array import array
from bisect import bisect_left, bisect_right
from collections import Counter
from dataclasses import dataclass, field
from functools import cached_property
from itertools import accumulate, chain, compress, repeat
from operator import sub
from typing import TypeVar

from ..protocol import Value
from .graph import FIXED, Graph, IntArray
from .solution import Solution, solve_nodes
from .solver import Reporter, solve_graph

Item = TypeVar("Item")

Answer = tuple[Value, int]
"""A solved position's value and remoteness."""

Answers = tuple[list[Value], IntArray]
"""Solved positions' values and remoteness, in order: two sequences, which pickle several times
quicker than as many pairs."""


@dataclass
class TierGraph:
    """One tier's positions and moves, as the forward pass leaves them for the backward one.

    ``target`` holds a local node for a move inside the tier, and ``-1 - i`` for a move to
    ``external[i]``, a position of a higher tier, ``external_tiers[i]``.

    ``levels`` cuts a tier with moves inside it but no cycle there into levels solved one after
    the other, each like a flat tier: level 0 holds the nodes whose every move leaves the tier,
    level k + 1 those whose moves inside the tier reach level k and below; level k holds nodes
    ``levels[k]`` to ``levels[k + 1]``.  It is empty for a flat tier and for a tier with a cycle.

    ``groups`` cuts a tier with a cycle whose moves inside the tier fall apart into groups of
    nodes no move joins (Pig's: one for each pair of scores) into those groups, solved apart
    (each in one piece, ``tier_solution``): group g holds nodes ``groups[g]`` to
    ``groups[g + 1]``.  It is empty for a tier without a cycle and for one with a single group
    (solved in one piece)."""

    tier: int
    keys: list[bytes] = field(default_factory=list)
    kind: bytearray = field(default_factory=bytearray)
    first: IntArray = field(default_factory=lambda: array("q", [0]))
    target: IntArray = field(default_factory=lambda: array("q"))
    external: list[bytes] = field(default_factory=list)
    external_tiers: IntArray = field(default_factory=lambda: array("q"))
    probabilities: dict[int, list[Value]] = field(default_factory=dict)
    utility: dict[int, Value] = field(default_factory=dict)
    repetition: list[Value | None] = field(default_factory=list)
    levels: list[int] = field(default_factory=list)
    groups: list[int] = field(default_factory=list)

    def to_bytes(self) -> bytes:
        """The graph as bytes for a process of this machine to read back (``from_bytes``): the
        keys apart, by ``marshal``, three times quicker both ways than ``pickle`` for hundreds
        of thousands of short byte strings, after their length; then the rest pickled."""
        rest = {name: value for name, value in vars(self).items() if name not in ("keys", "external")}
        keys = marshal.dumps((self.keys, self.external))
        return b"".join((len(keys).to_bytes(8, "little"), keys, pickle.dumps(rest, pickle.HIGHEST_PROTOCOL)))

    @classmethod
    def from_bytes(cls, data: bytes) -> TierGraph:
        """The graph ``to_bytes`` wrote."""
        view = memoryview(data)
        length = int.from_bytes(view[:8], "little")
        graph = cls.__new__(cls)
        vars(graph).update(pickle.loads(view[8 + length:]))
        graph.keys, graph.external = marshal.loads(view[8:8 + length])
        return graph

    @cached_property
    def flat(self) -> bool:
        """Whether every move leaves the tier (asked once the graph is whole: a look at every
        move, kept, and pickled with the graph)."""
        return max(self.target, default=-1) < 0

    @property
    def in_chunks(self) -> bool:
        """Whether the tier is solved in chunks: it is flat, or cut into levels or groups."""
        return self.flat or bool(self.levels) or bool(self.groups)


def in_solving_order(graph: TierGraph, found: list[bytes]) -> TierGraph:
    """The tier with its nodes numbered in the order they can be solved in, its moves inside
    the tier pointing to their nodes (``graph.target`` holds for them the child's index in
    ``found``): by level (see ``TierGraph.levels``) where no cycle stays inside the tier, else by
    group (``TierGraph.groups``) and by key within a group, so that the order the runner
    expanded the nodes in makes no difference to the solution of a cycle, not even to the last
    bits of value iteration."""
    old = graph
    size = len(old.keys)
    node_of_key = dict(zip(old.keys, range(size)))
    old_node_of_found = list(map(node_of_key.__getitem__, found))
    parents, children = _moves_inside(old, old_node_of_found)
    height = _heights(size, parents, children)
    groups: list[int] = []
    if height is None:
        order, groups = _by_group(old.keys, parents, children)
    else:  # each node's answers follow from its children's alone: no order within a level needed
        order = sorted(range(size), key=height.__getitem__)
    new_node = sorted(range(size), key=order.__getitem__)  # the inverse of ``order``
    # A move's target: a place in ``found``, or -1 - i for external i, which indexes the end of
    # a list from the end: so a list that ends with the negative targets themselves maps both.
    renumber = list(map(new_node.__getitem__, old_node_of_found)) + list(range(-len(old.external), 0))
    # Each node's moves, in the new order, taken as slices at C speed.
    starts = list(map(old.first.__getitem__, order))
    ends = list(map(old.first.__getitem__, map((1).__add__, order)))
    moves = chain.from_iterable(map(old.target.__getitem__, map(slice, starts, ends)))
    counts = Counter(height) if height is not None else {}
    return TierGraph(
        old.tier, keys=list(map(old.keys.__getitem__, order)), kind=bytearray(map(old.kind.__getitem__, order)),
        first=array("q", accumulate(map(sub, ends, starts), initial=0)),
        target=array("q", map(renumber.__getitem__, moves)), external=old.external,
        external_tiers=old.external_tiers,
        probabilities={new_node[n]: p for n, p in old.probabilities.items()},
        utility={new_node[n]: u for n, u in old.utility.items()},
        repetition=list(map(old.repetition.__getitem__, order)),
        levels=list(accumulate((counts[h] for h in range(len(counts))), initial=0)) if counts else [],
        groups=groups,
    )


def _by_group(keys: list[bytes], parents: list[int], children: list[int]) -> tuple[list[int], list[int]]:
    """The nodes of a tier with a cycle (``keys``; its moves inside the tier ``parents`` to
    ``children``) in solving order, and the bounds of its groups (see ``TierGraph.groups``;
    none if it has one): each group's nodes in key order, the groups in the order of their least
    keys, so that the order does not hang on how the tier was found."""
    leader = list(range(len(keys)))  # a forest in which each group is a tree: its root leads it

    def root(node: int) -> int:
        while leader[node] != node:
            leader[node] = node = leader[leader[node]]
        return node

    for parent, child in zip(parents, children):
        leader[root(parent)] = root(child)
    members: dict[int, list[int]] = {}  # by leader, in the order of the groups' least keys
    for node in sorted(range(len(keys)), key=keys.__getitem__):
        members.setdefault(root(node), []).append(node)
    order = list(chain.from_iterable(members.values()))
    return order, list(accumulate(map(len, members.values()), initial=0)) if len(members) > 1 else []


def _moves_inside(graph: TierGraph, node_of_found: list[int]) -> tuple[list[int], list[int]]:
    """Each move inside the tier as its parent node and its child node (``node_of_found``: the
    node of each place in ``found``), at C speed: the usual tier has few of them."""
    size = len(graph.kind)
    first, target = graph.first, graph.target
    inside = list(map((0).__le__, target))
    parents = list(compress(chain.from_iterable(map(repeat, range(size), map(sub, first[1:], first))), inside))
    return parents, list(map(node_of_found.__getitem__, compress(target, inside)))


def _heights(size: int, parents: list[int], children: list[int]) -> IntArray | None:
    """Each of the ``size`` nodes' level: 0 if every move leaves the tier, else one more than
    the highest level its moves inside the tier (``parents`` to ``children``) reach; None if
    some of those moves make a cycle.

    A round finds a level, at C speed: the nodes whose every move inside the tier reaches a
    node placed before, all moves looked at at once.  A round costs as much as the moves left,
    so once a round would place few of the nodes left (a deep tier: a chain would take a round
    a node), the rest are placed one move at a time (``_heights_by_moves``)."""
    height = array("q", bytes(8 * size))
    waiting = set(parents)  # the nodes whose level is not known yet
    up = 0
    while waiting:
        blocked = set(compress(parents, map(waiting.__contains__, children)))
        placed = waiting - blocked
        if not placed:  # each node left moves to another one left: following the moves must cycle
            return None
        if len(placed) * 8 < len(waiting):  # a deep tier, or a cycle below some of it
            return _heights_by_moves(height, parents, children, waiting)
        up += 1
        for node in placed:
            height[node] = up
        waiting = blocked
        left = list(map(blocked.__contains__, parents))
        parents, children = list(compress(parents, left)), list(compress(children, left))
    return height


def _heights_by_moves(height: IntArray, parents: list[int], children: list[int], waiting: set[int]) -> IntArray | None:
    """``_heights`` finished one move at a time: ``parents`` and ``children`` are the moves
    inside the tier from the nodes ``waiting``, whose levels are not known yet (0 in
    ``height``, which holds the others'); None if some of those moves make a cycle."""
    callers: dict[int, list[int]] = {}
    unknown: Counter[int] = Counter()  # each waiting node's moves to waiting nodes
    for parent, child in zip(parents, children):
        if child in waiting:
            callers.setdefault(child, []).append(parent)
            unknown[parent] += 1
        elif height[child] >= height[parent]:
            height[parent] = height[child] + 1
    ready = [node for node in waiting if not unknown[node]]
    placed = len(ready)
    while ready:
        node = ready.pop()
        for parent in callers.get(node, ()):
            height[parent] = max(height[parent], height[node] + 1)
            unknown[parent] -= 1
            if not unknown[parent]:
                ready.append(parent)
                placed += 1
    return height if placed == len(waiting) else None


SolveChunk = tuple[TierGraph, Answers, bool, float, int]
"""Positions to solve: their graph, the answers of its external positions in order, whether
the game has dice, the tolerance of value iteration and the number of positions of the game."""

ChunkSolution = tuple[list[Value], IntArray, IntArray, bool, float, set[str]]
"""A chunk's values, remoteness and best moves, in node order; whether they are exact, the bound
on the error of value iteration's values (``Solution.residual``) and the methods used."""


def tier_solution(tier_graph: TierGraph, fixed: Answers, chance: bool, tolerance: float, report: Reporter,
                  positions: int) -> Solution:
    """Solve one tier in memory, the positions of higher tiers fixed at their answers
    (``fixed``'s i-th: ``external[i]``'s)."""
    size, outside = len(tier_graph.kind), len(fixed[0])
    graph = Graph(has_chance=chance)
    graph.kind = tier_graph.kind + bytes([FIXED]) * outside
    graph.first = tier_graph.first + array("q", [tier_graph.first[-1]]) * outside
    graph.target = array("q", [t if t >= 0 else size - 1 - t for t in tier_graph.target])
    graph.probabilities, graph.utility = tier_graph.probabilities, tier_graph.utility
    graph.fixed = dict(enumerate(zip(*fixed), start=size))
    scores = {score for score in tier_graph.repetition if score is not None}
    if len(scores) > 1:
        graph.repetition = [0 if s is None else s for s in tier_graph.repetition] + [0] * outside
    else:
        graph.repetition = scores.pop() if scores else 0
    if not tier_graph.flat:
        return solve_graph(graph, tolerance, report, positions)
    solution = Solution.empty(graph.size)
    solution.value[size:], solution.remoteness[size:] = fixed
    solve_nodes(graph, solution, range(size))
    if len(tier_graph.utility) < size:  # not only finished games (``solver.method_text``)
        solution.methods.add("backward induction")
    return solution


class ChunkCutter:
    """A flat tier, a level of a tier (see ``TierGraph.levels``) or a tier of groups (see
    ``TierGraph.groups``), cut into chunks to solve apart (``cut``; in a tier of groups, at
    their bounds), each with the answers of the positions it reaches: of higher tiers, from
    ``fixed`` (its i-th: ``external[i]``'s); of lower levels, read from ``solved``, the
    solution of the nodes before the chunk.

    Cutting is done at C speed (slices, ``map``) wherever it can be: Python statements go only
    to the chunk's finished and chance positions."""

    def __init__(self, tier_graph: TierGraph, fixed: Answers, solved: Solution) -> None:
        """Cut ``tier_graph``."""
        self.graph = tier_graph
        self.solved = solved
        self.terminal = sorted(tier_graph.utility)
        self.chance = sorted(tier_graph.probabilities)
        # A move's target t is -1 - i for external[i]: in the reversed sequences, that is index t.
        self.values_reversed, self.remoteness_reversed = fixed[0][::-1], fixed[1][::-1]

    def cut(self, start: int, end: int) -> tuple[TierGraph, Answers]:
        """Nodes ``start`` to ``end`` as a graph of their own, with the answers of the positions
        they reach (their keys are not needed further, and stay behind): flat, or, in a tier
        cut into groups, of whole groups, their moves inside the tier kept."""
        graph = self.graph
        begin, stop = graph.first[start], graph.first[end]
        moves = graph.target[begin:stop]
        reached = sorted(set(moves), reverse=True)  # nodes of the tier, then -1 - i, the first external first
        inside = bisect_right(reached, 0, key=(0).__sub__)  # how many are nodes (0 and up) of the tier
        renumber: dict[int, int] = {}
        if graph.groups:  # those are the chunk's own (no move leaves a group): kept as its moves
            reached, inside = reached[inside:], 0
            renumber = dict(zip(range(start, end), range(end - start)))
        renumber.update(zip(reached, range(-1, -1 - len(reached), -1)))
        part = TierGraph(
            graph.tier, kind=graph.kind[start:end],
            first=array("q", map((-begin).__add__, graph.first[start:end + 1])),
            target=array("q", map(renumber.__getitem__, moves)),
            probabilities=self._within(self.chance, graph.probabilities, start, end),
            utility=self._within(self.terminal, graph.utility, start, end),
            repetition=graph.repetition[start:end],
        )
        below, outside = reached[:inside], reached[inside:]  # nodes of lower levels, positions of higher tiers
        values, remoteness = self.solved.solved, self.solved.remoteness  # the levels below: all solved
        return part, ([*map(values.__getitem__, below), *map(self.values_reversed.__getitem__, outside)],
                      array("q", chain(map(remoteness.__getitem__, below),
                                       map(self.remoteness_reversed.__getitem__, outside))))

    @staticmethod
    def _within(nodes: list[int], found: dict[int, Item], start: int, end: int) -> dict[int, Item]:
        """``found``'s entries for ``nodes`` (sorted) from ``start`` to ``end``, numbered from
        ``start``."""
        return {node - start: found[node] for node in nodes[bisect_left(nodes, start):bisect_left(nodes, end)]}


def solve_chunk(chunk: SolveChunk) -> ChunkSolution:
    """Solve a chunk of positions (in a worker, or in this process)."""
    graph, fixed, chance, tolerance, positions = chunk
    solution = tier_solution(graph, fixed, chance, tolerance, Reporter(None), positions)
    size = len(graph.kind)
    return (solution.solved[:size], solution.remoteness[:size], solution.best[:size], solution.exact,
            solution.residual, solution.methods)


def merge_into(solution: Solution, part: ChunkSolution) -> None:
    """Add the solution of the chunk that follows the ones ``solution`` holds."""
    values, remoteness, best, exact, residual, methods = part
    solution.value.extend(values)
    solution.remoteness.extend(remoteness)
    solution.best.extend(best)
    solution.exact = solution.exact and exact
    solution.residual += residual
    solution.methods |= methods


__all__ = ["Answer", "Answers", "ChunkCutter", "ChunkSolution", "SolveChunk", "TierGraph", "in_solving_order",
           "merge_into", "solve_chunk", "tier_solution"]
