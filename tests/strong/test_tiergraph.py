"""A tier's graph cut into chunks and kept on disk: the chunks a ChunkCutter makes match the
same chunks made node by node, and a graph comes back from its bytes unchanged."""

from __future__ import annotations

import random
from array import array
from fractions import Fraction
from typing import Any

import pytest

from searchers.protocol import Value
from searchers.strong.graph import CHANCE, MAX, MIN, TERMINAL
from searchers.strong.tiergraph import Answer, ChunkCutter, TierGraph


SCORES: list[Value] = [-1, 0, 1, Fraction(1, 3)]


def flat_tier(seed: int, size: int = 60, externals: int = 40) -> TierGraph:
    """A random flat tier: every move leads to one of ``externals`` positions of higher tiers."""
    chooser = random.Random(seed)
    graph = TierGraph(7, external=[f"key{i}".encode() for i in range(externals)])
    for node in range(size):
        kind = chooser.choice([TERMINAL, MAX, MIN, CHANCE])
        graph.kind.append(kind)
        graph.keys.append(f"node{node}".encode())
        moves = 0 if kind == TERMINAL else chooser.randint(1, 4)
        graph.target.extend(-1 - chooser.randrange(externals) for _ in range(moves))
        graph.first.append(len(graph.target))
        if kind == TERMINAL:
            graph.utility[node] = chooser.choice(SCORES)
        if kind == CHANCE:
            graph.probabilities[node] = [Fraction(1, moves)] * moves
        graph.repetition.append(None if kind == TERMINAL else 0)
    return graph


def chunk_node_by_node(graph: TierGraph, answers: dict[bytes, Answer], start: int, end: int) -> tuple[Any, ...]:
    """Nodes ``start`` to ``end`` as a graph of their own, written plainly, one node and one move
    at a time: externals numbered in the order of their first index in ``external``."""
    moves = list(graph.target[graph.first[start]:graph.first[end]])
    reached = sorted({-1 - t for t in moves})  # indices in ``external``
    renumber = {index: -1 - place for place, index in enumerate(reached)}
    first = [graph.first[n] - graph.first[start] for n in range(start, end + 1)]
    utility = {n - start: graph.utility[n] for n in range(start, end) if graph.kind[n] == TERMINAL}
    chances = {n - start: graph.probabilities[n] for n in range(start, end) if graph.kind[n] == CHANCE}
    return (list(graph.kind[start:end]), first, [renumber[-1 - t] for t in moves], utility, chances,
            graph.repetition[start:end], [answers[graph.external[i]] for i in reached])


@pytest.mark.parametrize("seed", range(5))
def test_chunks_cut_match_chunks_made_node_by_node(seed: int) -> None:
    graph = flat_tier(seed)
    answers: dict[bytes, Answer] = {key: (i % 3 - 1, i) for i, key in enumerate(graph.external)}
    cutter = ChunkCutter(graph, lambda keys: [answers[key] for key in keys])
    for start, end in [(0, 60), (0, 1), (13, 29), (59, 60), (30, 31)]:
        part, fixed = cutter.cut(start, end)
        made = (list(part.kind), list(part.first), list(part.target), part.utility, part.probabilities,
                part.repetition, fixed)
        assert made == chunk_node_by_node(graph, answers, start, end)


def test_a_graph_comes_back_from_its_bytes() -> None:
    graph = flat_tier(11)
    assert graph.flat  # cached before it is written: it must come back too
    again = TierGraph.from_bytes(*graph.to_bytes())
    assert again == graph
    assert again.flat is True
    assert isinstance(again.first, array) and isinstance(again.kind, bytearray)
