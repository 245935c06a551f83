"""Retrograde analysis of a cycle without dice: a position is decided only when it is forced.

The component's moves either stay in it or leave it for positions already solved (its exits).
For each value ``v`` an exit can have, the attractor "the first player can force an end worth
at least ``v``" grows backwards from the exits worth that much: a first-player node joins as
soon as one move leads into it, a second-player node once every move does.  ``a(p)``, the
largest ``v`` whose attractor holds ``p``, is what the first player can force; the mirror
attractors give ``b(p)``, what the second player can force.  A play that never ends scores the
repetition value ``r``; so the value is ``a(p)`` when that beats ``r``, ``b(p)`` when that is
below ``r``, and ``r`` otherwise (neither side can force a better end than endless play).

Where ``r`` differs from one position of the cycle to another (a `repetition` that reads the
state), the score of a play that never ends hangs on where it came into the cycle, so a
position may have no one value: a side that cannot force an end better than every ``r`` of
the cycle may do better, or worse, by steering the endless play.  Those positions keep their
own ``r`` and the solution is not exact, every value within the cycle's span of ``r``
(``solution.VARYING_REPETITION``).

Remoteness then follows the rule of ``solution``: among the moves that keep the value, the
favoured side hurries and the other delays, computed shortest-first from the exits (so the
positions whose end can be put off for ever are left ``NEVER``).
"""

from __future__ import annotations

import heapq
from dataclasses import dataclass
from typing import Any, no_type_check as typeguard_ignore

from .graph import MAX, Graph
from .solution import NEVER, Solution, favours_first, repetition_varies


class _Component:
    """A cycle's nodes with their edges split into those that stay (local indices) and exits."""

    def __init__(self, graph: Graph, solution: Solution, members: list[int]) -> None:
        # Where dice decide elsewhere in the game no position records a remoteness: a move out
        # of the cycle then counts as an end, so that the best moves leave the cycle as soon as
        # the favoured side can, rather than follow it round for ever.
        exits_end = graph.has_chance
        self.nodes = members
        local = {node: i for i, node in enumerate(members)}
        first, target = graph.first, graph.target
        self.maximizing = [graph.kind[node] == MAX for node in members]
        self.inner: list[list[tuple[int, int]]] = []  # (move index, local child)
        self.outer: list[list[tuple[int, Any, int]]] = []  # (move index, value, remoteness)
        self.parents: list[list[int]] = [[] for _ in members]  # once an inner edge
        for i, node in enumerate(members):
            inner, outer = [], []
            for move, child in enumerate(target[first[node]:first[node + 1]]):
                j = local.get(child)
                if j is None:
                    outer.append((move, solution.value[child], 0 if exits_end else solution.remoteness[child]))
                else:
                    inner.append((move, j))
                    self.parents[j].append(i)
            self.inner.append(inner)
            self.outer.append(outer)
        self.repetition = [graph.repetition_of(node) for node in members]


@typeguard_ignore
def _attractor(component, good, for_first):
    """The local nodes from which one side (the first player if ``for_first``) can force an
    exit that ``good(value)`` accepts, as a bytearray of flags; and, for each such node of
    that side, a move that does (-1 elsewhere): to such an exit, or to a node that joined
    before it, so that following these moves leads out whatever the other side does."""
    size = len(component.nodes)
    inside = bytearray(size)
    forcing = [-1] * size
    waiting = [0] * size
    queue = []
    for i in range(size):
        chooser = component.maximizing[i] == for_first
        outer = component.outer[i]
        if chooser:
            way_out = next((move for move, value, _ in outer if good(value)), None)
            if way_out is not None:
                inside[i], forcing[i] = 1, way_out
                queue.append(i)
        elif all(good(value) for _, value, _ in outer):
            waiting[i] = len(component.inner[i])
            if not waiting[i]:
                inside[i] = 1
                queue.append(i)
        else:
            waiting[i] = -1  # an exit the other side takes: never forced in
    while queue:
        j = queue.pop()
        for i in component.parents[j]:
            if inside[i]:
                continue
            if component.maximizing[i] == for_first:
                inside[i] = 1
                forcing[i] = next(move for move, k in component.inner[i] if k == j)
                queue.append(i)
            elif waiting[i] > 0:
                waiting[i] -= 1
                if not waiting[i]:
                    inside[i] = 1
                    queue.append(i)
    return inside, forcing


@dataclass
class _Forced:
    """What each side can force from each local node: the best end (None: none), and, at the
    side's own nodes, a move that forces it (-1 elsewhere)."""

    first: list[Any]
    second: list[Any]
    first_moves: list[int]
    second_moves: list[int]


def component_values(component: _Component) -> tuple[list[Any], bool, _Forced]:
    """The value of every node of the component (see the module's docstring), whether they
    are sure (no node's value hangs on a repetition score that differs along the cycle), and
    what each side can force."""
    size = len(component.nodes)
    exit_values = sorted({value for outer in component.outer for _, value, _ in outer})
    low_r, high_r = min(component.repetition), max(component.repetition)
    forced = _Forced([None] * size, [None] * size, [-1] * size, [-1] * size)
    for v in exit_values:
        if v > low_r:
            inside, forcing = _attractor(component, lambda value, v=v: value >= v, True)
            for i in range(size):
                if inside[i]:
                    forced.first[i], forced.first_moves[i] = v, forcing[i]
    for v in reversed(exit_values):
        if v < high_r:
            inside, forcing = _attractor(component, lambda value, v=v: value <= v, False)
            for i in range(size):
                if inside[i]:
                    forced.second[i], forced.second_moves[i] = v, forcing[i]
    values = []
    sure = True
    for i in range(size):
        r, a, b = component.repetition[i], forced.first[i], forced.second[i]
        values.append(a if a is not None and a > r else b if b is not None and b < r else r)
        # An end forced at least as good as every score of endless play is sure, whatever the
        # cycle's scores.
        if low_r != high_r and not (a is not None and a >= high_r) and not (b is not None and b <= low_r):
            sure = False
    return values, sure, forced


@typeguard_ignore
def _remoteness(component, values, forced):
    """Remoteness and best move of every local node, shortest ends first (a Dijkstra search
    over the moves that keep the value, from the exits)."""
    size = len(component.nodes)
    uniform = min(component.repetition) == max(component.repetition)
    hurry = [_favoured(component, values, forced, uniform, i) == component.maximizing[i] for i in range(size)]
    remoteness = [NEVER] * size
    best = [-1] * size
    candidate: list[Any] = [None] * size
    chosen = [-1] * size
    waiting = [0] * size
    heap: list[tuple[int, int]] = []
    for i in range(size):
        v = values[i]
        keep = [(move, r) for move, value, r in component.outer[i] if value == v]
        if hurry[i]:
            finite = [(r, move) for move, r in keep if r != NEVER]
            if finite:
                r, move = min(finite)
                candidate[i], chosen[i] = r + 1, move
                heapq.heappush(heap, (r + 1, i))
        else:
            waiting[i] = sum(1 for _, j in component.inner[i] if values[j] == v)
            if any(r == NEVER for _, r in keep):
                waiting[i] = -1  # it can delay for ever through an exit
                continue
            if keep:
                r, move = max((r, -move) for move, r in keep)
                candidate[i], chosen[i] = r + 1, -move
            if not waiting[i] and keep:
                heapq.heappush(heap, (candidate[i], i))
    done = bytearray(size)
    while heap:
        r, j = heapq.heappop(heap)
        if done[j]:
            continue
        done[j] = 1
        remoteness[j], best[j] = r, chosen[j]
        for i in set(component.parents[j]):
            if done[i] or values[i] != values[j]:
                continue
            moves = [move for move, k in component.inner[i] if k == j]
            if hurry[i]:
                if candidate[i] is None or r + 1 < candidate[i] or (r + 1 == candidate[i] and moves[0] < chosen[i]):
                    candidate[i], chosen[i] = r + 1, moves[0]
                    heapq.heappush(heap, (r + 1, i))
            elif waiting[i] > 0:
                waiting[i] -= len(moves)
                if candidate[i] is None or r + 1 > candidate[i] or (r + 1 == candidate[i] and moves[0] < chosen[i]):
                    candidate[i], chosen[i] = r + 1, moves[0]
                if not waiting[i]:
                    heapq.heappush(heap, (candidate[i], i))
    for i in range(size):
        if not done[i]:
            best[i] = _forced_move(component, values, forced, uniform, i)
            if best[i] < 0:
                best[i] = _endless_move(component, values, remoteness, i)
    return remoteness, best


def _favoured(component: _Component, values: list[Any], forced: _Forced, uniform: bool, i: int) -> bool:
    """Whether node ``i``'s value favours the first player: where the cycle has one
    repetition score, when the value is at least it; where its scores differ, when the
    first player can force an end worth the value (and the second cannot), since a play that
    went round instead would score where it came into the cycle, perhaps worse."""
    v = values[i]
    if not uniform:
        first, second = bool(forced.first[i] == v), bool(forced.second[i] == v)
        if first != second:
            return first
    return favours_first(v, component.repetition[i])


def _forced_move(component: _Component, values: list[Any], forced: _Forced, uniform: bool, i: int) -> int:
    """Where the end cannot come by perfect play (or comes only through a play that goes on
    for ever elsewhere), the move of the side to move at node ``i`` that forces the way out
    its value needs, if the value is such a way out's: the cycle's play itself does not
    give it (the value is not the cycle's one repetition score). -1 where no move is forced."""
    v = values[i]
    if uniform and v == component.repetition[i]:
        return -1
    if component.maximizing[i]:
        return forced.first_moves[i] if forced.first[i] == v else -1
    return forced.second_moves[i] if forced.second[i] == v else -1


def _endless_move(component: _Component, values: list[Any], remoteness: list[int], i: int) -> int:
    """A best move where the end can be put off for ever: one that keeps the value, towards
    another such position when there is one."""
    v = values[i]
    keeping = [(move, j) for move, j in component.inner[i] if values[j] == v]
    for move, j in keeping:
        if remoteness[j] == NEVER:
            return move
    for move, value, r in component.outer[i]:
        if value == v and r == NEVER:
            return move
    if keeping:
        return keeping[0][0]
    # Only where the repetition value differs from one position to the next can no move
    # keep the value: then the first move stands.
    return min((move for move, value, _ in component.outer[i] if value == v), default=0)


def solve_cycle(graph: Graph, solution: Solution, members: list[int]) -> None:
    """Solve a strongly connected component without chance nodes whose exits are solved."""
    component = _Component(graph, solution, members)
    values, sure, forced = component_values(component)
    if not sure:
        repetition_varies(solution, component.repetition)
    remoteness, best = _remoteness(component, values, forced)
    for i, node in enumerate(members):
        solution.value[node] = values[i]
        # Where dice decide elsewhere in the game, its length is luck: no remoteness anywhere.
        solution.remoteness[node] = NEVER if graph.has_chance else remoteness[i]
        solution.best[node] = best[i]
    solution.methods.add("retrograde analysis")
