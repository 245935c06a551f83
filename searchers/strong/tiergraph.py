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
from bisect import bisect_left
from collections.abc import Callable
from dataclasses import dataclass, field
from functools import cached_property
from typing import Any, TypeVar

from ..protocol import Value
from .graph import FIXED, Graph, IntArray
from .solution import Solution, solve_node
from .solver import Reporter, solve_graph

Item = TypeVar("Item")

Answer = tuple[Value, int]
"""A solved position's value and remoteness."""


@dataclass
class TierGraph:
    """One tier's positions and moves, as the forward pass leaves them for the backward one.

    ``target`` holds a local node for a move inside the tier, and ``-1 - i`` for a move to
    ``external[i]``, a position of a higher tier."""

    tier: int
    keys: list[bytes] = field(default_factory=list)
    kind: bytearray = field(default_factory=bytearray)
    first: IntArray = field(default_factory=lambda: array("q", [0]))
    target: IntArray = field(default_factory=lambda: array("q"))
    external: list[bytes] = field(default_factory=list)
    probabilities: dict[int, list[Value]] = field(default_factory=dict)
    utility: dict[int, Value] = field(default_factory=dict)
    repetition: list[Value | None] = field(default_factory=list)

    def to_bytes(self) -> tuple[bytes, bytes]:
        """The graph as bytes for this process to read back (``from_bytes``): the keys apart, by
        ``marshal``, three times quicker both ways than ``pickle`` for hundreds of thousands of
        short byte strings; the rest pickled."""
        rest = {name: value for name, value in vars(self).items() if name not in ("keys", "external")}
        return marshal.dumps((self.keys, self.external)), pickle.dumps(rest, pickle.HIGHEST_PROTOCOL)

    @classmethod
    def from_bytes(cls, keys: bytes | memoryview, rest: bytes | memoryview) -> TierGraph:
        """The graph ``to_bytes`` wrote."""
        graph = cls.__new__(cls)
        vars(graph).update(pickle.loads(rest))
        graph.keys, graph.external = marshal.loads(keys)
        return graph

    @cached_property
    def flat(self) -> bool:
        """Whether every move leaves the tier (asked once the graph is whole: a look at every
        move, kept, and pickled with the graph)."""
        return max(self.target, default=-1) < 0


def in_key_order(graph: TierGraph, found: list[bytes]) -> TierGraph:
    """The tier with its nodes numbered in the order of their keys, its moves inside the tier
    pointing to their nodes (``graph.target`` holds for them the child's index in ``found``).
    The order the runner expanded the nodes in then makes no difference, not even to the
    last bits of value iteration."""
    old = graph
    order = sorted(range(len(old.keys)), key=old.keys.__getitem__)
    keys = [old.keys[n] for n in order]
    rank = {key: n for n, key in enumerate(keys)}
    node_of_found = [rank[key] for key in found]
    first, target = array("q", [0]), array("q")
    for n in order:
        target.extend([t if t < 0 else node_of_found[t] for t in old.target[old.first[n]:old.first[n + 1]]])
        first.append(len(target))
    return TierGraph(
        old.tier, keys=keys, kind=bytearray(old.kind[n] for n in order), first=first, target=target,
        external=old.external,
        probabilities={i: old.probabilities[n] for i, n in enumerate(order) if n in old.probabilities},
        utility={i: old.utility[n] for i, n in enumerate(order) if n in old.utility},
        repetition=[old.repetition[n] for n in order],
    )


SolveChunk = tuple[TierGraph, list[Answer], bool, float, int]
"""Positions to solve: their graph, the answers of its external positions in order, whether
the game has dice, the tolerance of value iteration and the number of positions of the game."""

ChunkSolution = tuple[list[Value], IntArray, IntArray, bool, float, set[str]]
"""A chunk's values, remoteness and best moves, in node order; whether they are exact, the
residual of value iteration and the methods used."""


def tier_solution(tier_graph: TierGraph, fixed: list[Answer], chance: bool, tolerance: float, report: Reporter,
                  positions: int) -> Solution:
    """Solve one tier in memory, the positions of higher tiers fixed at their answers
    (``fixed[i]``: ``external[i]``'s)."""
    size, outside = len(tier_graph.kind), len(fixed)
    graph = Graph(has_chance=chance)
    graph.kind = tier_graph.kind + bytes([FIXED]) * outside
    graph.first = tier_graph.first + array("q", [tier_graph.first[-1]]) * outside
    graph.target = array("q", [t if t >= 0 else size - 1 - t for t in tier_graph.target])
    graph.probabilities, graph.utility = tier_graph.probabilities, tier_graph.utility
    graph.fixed = dict(enumerate(fixed, start=size))
    scores = {score for score in tier_graph.repetition if score is not None}
    if len(scores) > 1:
        graph.repetition = [0 if s is None else s for s in tier_graph.repetition] + [0] * outside
    else:
        graph.repetition = scores.pop() if scores else 0
    if not tier_graph.flat:
        return solve_graph(graph, tolerance, report, positions)
    solution = Solution.empty(graph.size)
    solution.value[size:] = [value for value, _ in fixed]
    solution.remoteness[size:] = array("q", [remoteness for _, remoteness in fixed])
    for node in range(size):
        solve_node(graph, solution, node)
    solution.methods.add("backward induction")
    return solution


class ChunkCutter:
    """A flat tier cut into chunks to solve apart (``cut``), each with the answers of the
    external positions it reaches, found by ``answers`` from their keys.

    The main process cuts every chunk while the workers solve, so cutting is done at C speed
    (slices, ``map``) wherever it can be: Python statements go only to the chunk's finished and
    chance positions."""

    def __init__(self, tier_graph: TierGraph, answers: Callable[[list[bytes]], list[Answer]]) -> None:
        """Cut ``tier_graph``, a flat tier."""
        self.graph = tier_graph
        self.answers = answers
        self.terminal = sorted(tier_graph.utility)
        self.chance = sorted(tier_graph.probabilities)
        # A move's target t is -1 - i for external[i]: in the reversed list, that is index t.
        self.external_reversed = tier_graph.external[::-1]

    def cut(self, start: int, end: int) -> tuple[TierGraph, list[Answer]]:
        """Nodes ``start`` to ``end`` as a graph of their own, with the answers of the external
        positions they reach (their keys are not needed further, and stay behind)."""
        graph = self.graph
        begin, stop = graph.first[start], graph.first[end]
        moves = graph.target[begin:stop]
        reached = sorted(set(moves), reverse=True)  # -1 - i, the first external first
        renumber = dict(zip(reached, range(-1, -1 - len(reached), -1)))
        part = TierGraph(
            graph.tier, kind=graph.kind[start:end],
            first=array("q", map((-begin).__add__, graph.first[start:end + 1])),
            target=array("q", map(renumber.__getitem__, moves)),
            probabilities=self._within(self.chance, graph.probabilities, start, end),
            utility=self._within(self.terminal, graph.utility, start, end),
            repetition=graph.repetition[start:end],
        )
        return part, self.answers(list(map(self.external_reversed.__getitem__, reached)))

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
    solution.residual = max(solution.residual, residual)
    solution.methods |= methods


__all__ = ["Answer", "ChunkCutter", "ChunkSolution", "SolveChunk", "TierGraph", "in_key_order", "merge_into", "solve_chunk", "tier_solution"]
