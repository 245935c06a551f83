"""A tier's graph cut into chunks and kept on disk: the chunks a ChunkCutter makes match the
same chunks made node by node, and a graph comes back from its bytes unchanged; a tier with
moves inside it but no cycle is put in levels, and solved a level at a time gives what it gives
solved whole."""

from __future__ import annotations

import math
import random
from array import array
from collections.abc import Callable, Iterable
from fractions import Fraction
from functools import partial
from typing import Any

import pytest

from searchers.protocol import Value
from searchers.strong.graph import CHANCE, MAX, MIN, TERMINAL
from searchers.strong.parallel import Runner
from searchers.strong.solution import NEVER, NO_MOVE, Solution
from searchers.strong.solver import Reporter
from searchers.strong.tiergraph import Answer, Answers, ChunkCutter, TierGraph, in_solving_order, tier_solution
import searchers.strong.tiers as tiers_module
from searchers.strong.tiers import solve_tier


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


def answers_of(pairs: Iterable[Answer]) -> Answers:
    """The answers ``pairs`` as the solver passes them: values and remoteness apart."""
    listed = list(pairs)
    return [value for value, _ in listed], array("q", [remoteness for _, remoteness in listed])


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


def flat_answers_by_the_rule(graph: TierGraph, fixed: Answers, dice: bool) -> list[tuple[Any, int, int]]:
    """Each node's value, remoteness and best move in a flat tier, worked out from the rule of
    ``solution``'s docstring alone: the side the value favours (the first player when it is at
    least the repetition score) takes the quickest end among the moves that keep the value, the
    other the slowest (an endless one above all), the first move among equals; with dice, the
    first move that keeps the value, and no remoteness but 0 for a finished game."""
    answers = []
    for node, kind in enumerate(graph.kind):
        moves = [-1 - t for t in graph.target[graph.first[node]:graph.first[node + 1]]]
        if kind == TERMINAL:
            answers.append((graph.utility[node], 0, NO_MOVE))
            continue
        values = [fixed[0][i] for i in moves]
        if kind == CHANCE:
            answers.append((sum(p * v for p, v in zip(graph.probabilities[node], values)), NEVER, NO_MOVE))
            continue
        value = max(values) if kind == MAX else min(values)
        keeping = [m for m, v in enumerate(values) if v == value]
        if dice:
            answers.append((value, NEVER, keeping[0]))
            continue
        score = graph.repetition[node] or 0
        hurry = (value >= score) == (kind == MAX)
        ends = [fixed[1][moves[m]] for m in keeping]
        finite = [r for r in ends if r != NEVER]
        if hurry and finite:
            move = keeping[ends.index(min(finite))]
        elif not hurry and NEVER in ends:
            move = keeping[ends.index(NEVER)]
        elif not hurry:
            move = keeping[ends.index(max(ends))]
        else:
            move = keeping[0]
        end = fixed[1][moves[move]]
        answers.append((value, NEVER if end == NEVER else end + 1, move))
    return answers


@pytest.mark.parametrize("seed, dice, scores", [(seed, dice, scores) for seed in range(6) for dice in (False, True)
                                               for scores in ([0], [0, 1, Fraction(-1, 2)])])
def test_a_flat_tier_is_solved_by_the_remoteness_rule(seed: int, dice: bool, scores: list[Value]) -> None:
    """A flat tier solved whole (``tier_solution``) gives each node the answers the rule gives:
    the higher tiers' answers drawn from few values (integers, a fraction, a float) and few
    remoteness figures (``NEVER`` among them), so that many moves tie; one repetition score,
    or several."""
    chooser = random.Random(seed)
    graph = flat_tier(seed, size=300, externals=12)
    graph.repetition = [None if kind == TERMINAL else chooser.choice(scores) for kind in graph.kind]
    if not dice:
        for node in list(graph.probabilities):  # no dice: their nodes become MAX
            graph.kind[node] = MAX
            del graph.probabilities[node]
    fixed = answers_of((chooser.choice([*SCORES, 0.5]), [NEVER, 1, 2, 5][i % 4]) for i in range(len(graph.external)))
    whole = tier_solution(graph, fixed, dice, 1e-12, Reporter(None), 10 ** 6)
    size = len(graph.kind)
    solved = list(zip(whole.solved[:size], whole.remoteness[:size], whole.best[:size]))
    expected = flat_answers_by_the_rule(graph, fixed, dice)
    assert solved == expected
    assert [type(value) for value, _, _ in solved] == [type(value) for value, _, _ in expected]  # a Fraction stays one
    if not dice:  # both sides' choices met: endless lines delayed into, and quick ends hurried to
        assert sum(1 for _, remoteness, move in solved if move != NO_MOVE and remoteness == NEVER) > 10
        assert sum(1 for _, remoteness, _ in solved if remoteness == 2) > 10


@pytest.mark.parametrize("seed", range(5))
def test_chunks_cut_match_chunks_made_node_by_node(seed: int) -> None:
    graph = flat_tier(seed)
    answers: dict[bytes, Answer] = {key: (i % 3 - 1, i) for i, key in enumerate(graph.external)}
    cutter = ChunkCutter(graph, answers_of(answers[key] for key in graph.external), Solution.empty(len(graph.kind)))
    for start, end in [(0, 60), (0, 1), (13, 29), (59, 60), (30, 31)]:
        part, fixed = cutter.cut(start, end)
        made = (list(part.kind), list(part.first), list(part.target), part.utility, part.probabilities,
                part.repetition, list(zip(*fixed)))
        assert made == chunk_node_by_node(graph, answers, start, end)


def test_a_graph_comes_back_from_its_bytes() -> None:
    graph = flat_tier(11)
    assert graph.flat  # cached before it is written: it must come back too
    again = TierGraph.from_bytes(graph.to_bytes())
    assert again == graph
    assert again.flat is True
    assert isinstance(again.first, array) and isinstance(again.kind, bytearray)


def tier_with_moves_inside(seed: int, size: int = 80, externals: int = 30, cycle: bool = False,
                           dice: bool = True) -> tuple[TierGraph, list[bytes]]:
    """A random tier with moves inside it, as the forward pass leaves it: nodes in the order
    their expansions came back, a move inside the tier pointing to its child's place in the
    order the nodes were found (``found``, returned with the graph).

    Node i moves inside the tier only to nodes made before it (so there is no cycle), unless
    ``cycle``, where the last node also moves to the first one made (by a die, with ``dice``);
    chance nodes only with ``dice``."""
    chooser = random.Random(seed)
    made = [f"pos{chooser.randrange(10 ** 6):06d}-{n}".encode() for n in range(size)]  # key order is not this order
    found = made[:]
    chooser.shuffle(found)
    place = {key: i for i, key in enumerate(found)}
    graph = TierGraph(3, external=[f"ext{i}".encode() for i in range(externals)])
    expanded = list(range(size))
    chooser.shuffle(expanded)
    for n in expanded:
        kind = TERMINAL if n == 0 else chooser.choice([TERMINAL, MAX, MIN, CHANCE][:4 if dice else 3]) if n > 5 else MAX
        graph.keys.append(made[n])
        graph.kind.append(kind)
        moves = [] if kind == TERMINAL else [
            place[made[chooser.randrange(n)]] if n and chooser.random() < 0.6 else -1 - chooser.randrange(externals)
            for _ in range(chooser.randint(1, 4))]
        if cycle and n == size - 1:  # with dice, a die decides whether the cycle goes on
            kind = graph.kind[-1] = CHANCE if dice else MAX
            moves = [place[made[0]], -1] if dice else [place[made[0]]]
        if n == 0 and cycle:
            graph.kind[-1] = MAX
            moves = [place[made[size - 1]]]
        graph.target.extend(moves)
        graph.first.append(len(graph.target))
        node = len(graph.kind) - 1
        if graph.kind[-1] == TERMINAL:
            graph.utility[node] = chooser.choice(SCORES)
        if graph.kind[-1] == CHANCE:
            graph.probabilities[node] = [Fraction(1, len(moves))] * len(moves)
        graph.repetition.append(None if graph.kind[-1] == TERMINAL else 0)
    return graph, found


def moves_by_key(graph: TierGraph, found: list[bytes] | None = None) -> dict[bytes, list[Any]]:
    """Each node's moves, by its key: a child inside the tier by its key, another by its index
    in ``external`` (inside the tier a move names the child's place in ``found``, if given,
    else its node)."""
    names = graph.keys if found is None else found
    return {key: [names[t] if t >= 0 else -1 - t for t in graph.target[graph.first[n]:graph.first[n + 1]]]
            for n, key in enumerate(graph.keys)}


def wide_then_deep_tier(seed: int) -> tuple[TierGraph, list[bytes]]:
    """A tier without cycles, as the forward pass leaves it: 200 nodes whose moves leave the
    tier, 200 that move to two of those, then a chain of 100 nodes each moving to the one
    before (a level a node: the levels past the wide part are found one move at a time)."""
    chooser = random.Random(seed)
    moves_of: list[list[int]] = [[] for _ in range(200)]
    moves_of += [[chooser.randrange(200), chooser.randrange(200)] for _ in range(200)]
    moves_of += [[399 + i] for i in range(100)]
    made = [f"node{n:03d}".encode() for n in range(len(moves_of))]
    found = made[:]
    chooser.shuffle(found)
    place = {key: i for i, key in enumerate(found)}
    graph = TierGraph(5, external=[b"outside"])
    for n in chooser.sample(range(len(made)), len(made)):
        graph.keys.append(made[n])
        graph.kind.append(MAX)
        graph.target.extend([place[made[m]] for m in moves_of[n]] or [-1])
        graph.first.append(len(graph.target))
        graph.repetition.append(0)
    return graph, found


@pytest.mark.parametrize("make", [partial(tier_with_moves_inside, seed) for seed in range(6)]
                         + [partial(wide_then_deep_tier, seed) for seed in range(2)])
def test_a_tier_without_cycles_is_put_in_levels(make: Callable[[], tuple[TierGraph, list[bytes]]]) -> None:
    """Level 0 holds the nodes whose moves all leave the tier; a node of level k + 1 moves to
    level k and nothing higher, found here by the longest chain of moves inside the tier below
    each node, counted plainly; every node keeps its moves."""
    graph, found = make()
    ordered = in_solving_order(graph, found)
    moves = moves_by_key(graph, found)
    assert moves_by_key(ordered) == moves
    chain: dict[bytes, int] = {}

    def longest(key: bytes) -> int:
        if key not in chain:
            chain[key] = max((1 + longest(m) for m in moves[key] if isinstance(m, bytes)), default=0)
        return chain[key]

    levels = ordered.levels
    assert levels[0] == 0 and levels[-1] == len(ordered.keys) and len(levels) > 3
    for level, (start, end) in enumerate(zip(levels, levels[1:])):
        keys = ordered.keys[start:end]
        assert [longest(key) for key in keys] == [level] * len(keys)
    assert ordered.utility == {n: graph.utility[graph.keys.index(k)] for n, k in enumerate(ordered.keys)
                               if graph.keys.index(k) in graph.utility}


def tier_of_groups(seed: int, parts: int = 4, dice: bool = True) -> tuple[TierGraph, list[bytes]]:
    """Random tiers with a cycle (``tier_with_moves_inside``) side by side as one tier, as the
    forward pass leaves it: no move joins two of them, and their keys interleave."""
    whole = TierGraph(3, external=[f"ext{i}".encode() for i in range(30)])
    found: list[bytes] = []
    for part in range(parts):
        graph, its_found = tier_with_moves_inside(seed * 10 + part, size=40, cycle=True, dice=dice)
        offset = len(found)
        found += [key + f"/{part}".encode() for key in its_found]
        whole.keys += [key + f"/{part}".encode() for key in graph.keys]
        base = len(whole.kind)
        whole.kind += graph.kind
        moves_before = whole.first[-1]
        whole.first.extend(moves_before + f for f in graph.first[1:])
        whole.target.extend(t + offset if t >= 0 else t for t in graph.target)
        whole.utility.update((base + n, u) for n, u in graph.utility.items())
        whole.probabilities.update((base + n, p) for n, p in graph.probabilities.items())
        whole.repetition += graph.repetition
    return whole, found


def groups_by_search(graph: TierGraph, found: list[bytes]) -> list[list[bytes]]:
    """The tier's keys split into groups no move joins, found by a search over the moves inside
    the tier taken both ways; each group in key order, the groups in the order of their least
    keys."""
    near: dict[bytes, set[bytes]] = {key: set() for key in graph.keys}
    for key, moves in moves_by_key(graph, found).items():
        for child in moves:
            if isinstance(child, bytes):
                near[key].add(child)
                near[child].add(key)
    groups, seen = [], set()
    for key in sorted(graph.keys):
        if key not in seen:
            group, todo = {key}, [key]
            while todo:
                for other in near[todo.pop()] - group:
                    group.add(other)
                    todo.append(other)
            seen |= group
            groups.append(sorted(group))
    return groups


@pytest.mark.parametrize("seed", range(4))
def test_a_tier_with_cycles_is_cut_into_groups_each_in_key_order(seed: int) -> None:
    """A tier with a cycle has no levels; its nodes come group by group (Pig's: one for each
    pair of scores), each group in key order, the groups in the order of their least keys, as
    a search for the groups finds them; every node keeps its moves."""
    graph, found = tier_of_groups(seed)
    ordered = in_solving_order(graph, found)
    assert ordered.levels == []
    bounds = ordered.groups
    assert [ordered.keys[start:end] for start, end in zip(bounds, bounds[1:])] == groups_by_search(graph, found)
    assert len(bounds) > 5 and bounds[-1] == len(graph.keys)
    assert moves_by_key(ordered) == moves_by_key(graph, found)


def test_a_tier_of_one_group_is_in_key_order_and_solved_whole() -> None:
    """A ring of moves joins every node: one group, so no groups, nodes in key order."""
    keys = [b"c", b"a", b"d", b"b"]
    graph = TierGraph(1, keys=keys, kind=bytearray([MAX] * 4), first=array("q", [0, 1, 2, 3, 4]),
                      target=array("q", [1, 2, 3, 0]), repetition=[0] * 4)
    ordered = in_solving_order(graph, keys)
    assert (ordered.levels, ordered.groups, ordered.keys) == ([], [], sorted(keys))
    assert not ordered.in_chunks
    assert moves_by_key(ordered) == moves_by_key(graph, keys)


@pytest.mark.parametrize("seed, dice, positions", [(0, False, 10 ** 6), (1, True, 100), (2, True, 10 ** 6)])
def test_a_tier_of_groups_solved_in_chunks_matches_the_tier_solved_whole(seed: int, dice: bool, positions: int,
                                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Whole groups solved chunk by chunk (small chunks here) give the values, remoteness and
    best moves of the whole tier solved at once: by retrograde analysis, by exact policy
    iteration (a game of 100 positions) and to the last bit by value iteration."""
    monkeypatch.setattr(tiers_module, "_SOLVE_CHUNK_LEAST", 1)
    ordered = in_solving_order(*tier_of_groups(seed, dice=dice))
    answers: dict[bytes, Answer] = {key: (i % 3 - 1, 2 * i) for i, key in enumerate(ordered.external)}
    fixed = answers_of(answers[key] for key in ordered.external)
    whole = tier_solution(ordered, fixed, dice, 1e-12, Reporter(None), positions)
    parts = list(solve_tier(ordered, fixed, Runner(None), dice, 1e-12,
                            Reporter(None), positions, Solution([], array("q"), array("q"))))
    assert len(parts) >= 3
    size = len(ordered.kind)
    assert [v for part in parts for v in part[0]] == whole.solved[:size]
    assert [r for part in parts for r in part[1]] == list(whole.remoteness[:size])
    assert [b for part in parts for b in part[2]] == list(whole.best[:size])
    assert all(part[3] for part in parts) == whole.exact
    assert math.isclose(sum(part[4] for part in parts), whole.residual, rel_tol=1e-9)  # the cycles' bounds, added up
    assert set().union(*(part[5] for part in parts)) == whole.methods  # retrograde, policy or value iteration


@pytest.mark.parametrize("seed, dice", [(seed, dice) for seed in range(4) for dice in (False, True)])
def test_a_tier_solved_a_level_at_a_time_matches_the_tier_solved_whole(seed: int, dice: bool,
                                                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """The levels solved in chunks (small ones here, several a level), each from the answers of
    the levels below, give the values, remoteness and best moves of the whole tier solved at
    once by backward induction."""
    monkeypatch.setattr(tiers_module, "_SOLVE_CHUNK_LEAST", 1)
    ordered = in_solving_order(*tier_with_moves_inside(seed, size=200, dice=dice))
    answers: dict[bytes, Answer] = {key: (i % 3 - 1, 2 * i) for i, key in enumerate(ordered.external)}
    fixed = answers_of(answers[key] for key in ordered.external)
    whole = tier_solution(ordered, fixed, dice, 1e-12, Reporter(None), 10 ** 6)
    parts = list(solve_tier(ordered, fixed, Runner(None), dice, 1e-12,
                            Reporter(None), 10 ** 6, Solution([], array("q"), array("q"))))
    assert len(parts) > len(ordered.levels) - 1  # a level in more than one chunk
    size = len(ordered.kind)
    assert [v for part in parts for v in part[0]] == whole.solved[:size]
    assert [r for part in parts for r in part[1]] == list(whole.remoteness[:size])
    assert [b for part in parts for b in part[2]] == list(whole.best[:size])
