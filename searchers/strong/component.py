"""A cycle through the dice as the solvers of its values read it: its nodes, each with its
moves inside the cycle and out of it (``Component``), and the places where play can stay for
ever (``end_blocks``; ``circles_of``: those where one player alone keeps it going).  Value
iteration (``stochastic``) and policy iteration (``policy``) read it alike."""

from __future__ import annotations

from collections.abc import Callable
from functools import cached_property
from math import ulp
from typing import Any

from .graph import CHANCE, MAX, MIN, Graph
from .solution import Solution, strongly_connected

EXIT = -1
"""The successor of a move that leaves the component (``Component.moves``)."""

Move = tuple[int, int, Any, Any]  # a move as ``Component`` holds it


class Component:
    """A cycle's nodes, each with its moves: (move index, local successor or EXIT, exit value,
    probability).

    A player's move that keeps the position is an exit worth the repetition value: staying
    for ever scores that, and staying a while then moving on is moving on.  As a move to
    itself, value iteration would let the node keep a value that dipped during the sweeps
    (the side to move taking its own last value as an option) and settle there.  An outcome
    of the dice at odds of 0 is left out: read as a way out (or in), it would make a round
    that never ends look as if it did."""

    bounds_apart = False
    """Whether value iteration left the sweeps from below and from above apart (both players
    can keep the play going, and the rules have more than one solution)."""

    def __init__(self, graph: Graph, solution: Solution, members: list[int]) -> None:
        self.nodes = members
        local = {node: i for i, node in enumerate(members)}
        first, target = graph.first, graph.target
        self.kind = [graph.kind[node] for node in members]
        self.moves: list[list[Move]] = []
        self.odds_types: set[type] = set()  # the types of the odds of its chance nodes
        for node in members:
            probabilities = graph.probabilities.get(node)
            if probabilities is not None:
                self.odds_types.update(map(type, probabilities))
            row: list[Move] = []
            for move, child in enumerate(target[first[node]:first[node + 1]]):
                if probabilities is not None and not probabilities[move]:  # never thrown: no way in or out
                    continue
                j = local.get(child, EXIT)
                if child == node and probabilities is None:  # a stay: see the class's docstring
                    row.append((move, EXIT, graph.repetition_of(node), None))
                    continue
                value = solution.value[child] if j == EXIT else None
                row.append((move, j, value, None if probabilities is None else probabilities[move]))
            self.moves.append(row)
        self.repetition = [graph.repetition_of(node) for node in members]

    @cached_property
    def scores(self) -> list[Any]:
        """The values the component leads out to, then its repetition scores: a play that
        leaves it, or never does, scores one of them."""
        return [v for row in self.moves for _, j, v, _ in row if j == EXIT] + self.repetition

    @cached_property
    def ends(self) -> tuple[float, float, float]:
        """The lowest and the highest value a node can have (of its ``scores``), and how far the
        roundings of a sweep can move a value."""
        ends = list(map(float, self.scores))
        lowest, highest = min(ends), max(ends)
        widest = max((len(row) for kind, row in zip(self.kind, self.moves) if kind == CHANCE), default=0)
        return lowest, highest, (2 * widest + 4) * ulp(max(abs(lowest), abs(highest)))


def end_blocks(candidates: set[int], targets: Callable[[int], list[int]],
                must_stay: Callable[[int], bool]) -> dict[int, frozenset[int]]:
    """The end components among ``candidates`` (each node moving to ``targets(i)``, EXIT
    among them for a move out): for each node in one, its block.  An end component is a
    strongly connected block where every node has a move that stays in it, and every node
    that ``must_stay`` (whose moves another chooses among: the dice, or a choice made
    already) only such moves."""
    while True:
        blocks = strongly_connected(sorted(candidates), lambda i: [j for j in targets(i) if j in candidates])
        where = {i: block for block in map(frozenset, blocks) for i in block}
        out = set()
        for i in candidates:
            moves = targets(i)
            stays = [j for j in moves if j in where[i]]
            if not stays or (must_stay(i) and len(stays) != len(moves)):
                out.add(i)
        if not out:
            return where
        candidates = candidates - out


Circles = dict[int, tuple[int, frozenset[int], list[Move]]]
"""For each node of a place where one player alone keeps the play going: that player, the
place's nodes and the moves that leave it (``circles_of``)."""


def circles_of(kind: list[int], moves: list[list[Move]]) -> Circles:
    """The places where one player alone keeps the play going, among a component's nodes
    (``kind``, and ``moves`` as ``Component`` holds them): for each node in one, that player
    (``MAX`` or ``MIN``), the place's nodes and the moves that leave it.

    Such a place (an end component of that player's) is a strongly connected block of two or
    more positions where the other player has no choice (one place to go, inside it) and the
    dice cannot throw the play out.  Its player can keep the play in it for ever (scored the
    repetition value), or reach any of its positions, for certain, and leave from there: value
    iteration reads its player's positions as one (``stochastic._row``), so that a value that
    dipped during the sweeps cannot go round it and stay."""
    size = len(kind)
    forced = [kind[i] != CHANCE and len({j for _, j, _, _ in moves[i]}) == 1 and moves[i][0][1] != EXIT
              for i in range(size)]
    circles: Circles = {}
    for player in (MAX, MIN):
        blocks = end_blocks({i for i in range(size) if kind[i] in (player, CHANCE) or forced[i]},
                            lambda i: [j for _, j, _, _ in moves[i]], lambda i: kind[i] != player)
        leaving: dict[frozenset[int], list[Move]] = {}
        for i, block in blocks.items():
            if len(block) > 1:
                if block not in leaving:
                    leaving[block] = [move for node in block for move in moves[node] if move[1] not in block]
                circles[i] = (player, block, leaving[block])
    return circles
