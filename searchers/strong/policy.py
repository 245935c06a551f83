"""Exact values of a cycle through the dice: policy iteration with fractions, and the
certificate that makes its values the game's.

Value iteration (``stochastic``) proves values within a bound, never exact.  So, for
components small enough, policy iteration follows: both players' choices are fixed (first
those value iteration found), the resulting Markov chain is solved exactly with fractions, one
of its own strongly connected components at a time (a component the chain can never leave is a
play that never ends, scored the repetition value ``r``), and every choice that is not best
under those values is switched, until none is.

Exact values are then only claimed with a certificate.  Values ``V`` that every node's rule
reproduces (a first-player node has the largest of its successors' values, and so on) are the
game's values when, besides, the first player's choices keep the game from drifting for ever
through positions worth more than ``r`` (every end component of the chain the second player
then faces holds only positions worth at most ``r``), and the second player's choices likewise
(end components worth at least ``r``).  Under the first player's choices ``V`` is then a
submartingale that a play either ends on, or follows into positions worth at most ``r``, so the
first player is guaranteed ``V``; the same argument gives the second player's guarantee.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from .component import EXIT, Component, end_blocks
from .graph import CHANCE, MAX, MIN
from .solution import strongly_connected

EXACT_LIMIT = 10_000
"""The most positions a game may have for its values to be made exact by policy iteration."""
_BLOCK_LIMIT = 1_500  # the largest block of linear equations solved with fractions
# The most steps of elimination (a coefficient updated) a cycle's exact values may take, over
# every round of policy iteration: fractions grow as the rows fill in (a ring of 478 positions
# took 2.2 million steps and 13 s; 798 positions, 78 s; Pig to 14, 23,000).
_FRACTION_STEPS = 1_000_000
_ROUNDS = 50  # policy improvements before giving up on exact values


class NotExact(Exception):
    """Exact values could not be found (or proven) for a component."""


def _option_values(component: Component, values: list[Any], i: int) -> list[Any]:
    return [v if j == EXIT else values[j] for _, j, v, _ in component.moves[i]]


def _first_best(options: list[Any], kind: int, slack: float) -> int:
    """The place of the first of a node's ``options`` (its moves' values) within ``slack`` of
    the best for the player of ``kind``: values from value iteration differ in their last bits
    with the order of the sweep (the whole graph's, or a tier's), and the first best move must
    not."""
    best = max(options) if kind == MAX else min(options)
    return next(iter(_within(options, best, slack)), options.index(best))  # none within: a NaN compares false


def ending_choices(component: Component, values: list[Any], slack: float) -> list[int]:
    """A best move for each player's node under values found by value iteration (a place in
    its moves; those within ``slack`` of the best count as best), chosen so that both sides
    playing them score the values where the best moves allow: the first best move would do in
    a game without cycles, but here it may go round a cycle for ever, scored as endless play
    (the repetition value ``r``) rather than as the node's value.

    So a node takes a best move towards a *settled* place where it can: out of the component,
    or to a node worth ``r`` (within ``slack``), from which endless play scores what it is
    worth.  A node can if one of its best moves leads to a settled place or to such a node
    nearer one (at the dice: some outcome does, and every outcome is settled or such a node; at
    a player's node worth less to that player than endless play, every best move does: that
    player would go round for ever where one of them let it);
    a node that cannot is dropped, with the moves into it, and the rest looked at again until
    every node left can (the sure way to a target of a Markov decision process).  The nodes
    dropped, and those worth ``r``, take their first best move."""
    size = len(component.nodes)
    kind, moves = component.kind, component.moves
    options = [None if kind[i] == CHANCE else _option_values(component, values, i) for i in range(size)]
    best = [[] if row is None else _within(row, max(row) if kind[i] == MAX else min(row), slack)
            for i, row in enumerate(options)]
    if all(len(places) < 2 for places in best):  # no two best moves anywhere: nearly all of Pig's cycles
        return [places[0] if places else 0 for places in best]
    settled = bytearray(abs(values[i] - component.repetition[i]) <= slack for i in range(size))
    # A player whose node is worth less to it than endless play would keep the play going if it
    # could: it reaches a settled place for certain only if every one of its best moves does.
    adverse = bytearray((kind[i] == MAX and values[i] < component.repetition[i] - slack)
                        or (kind[i] == MIN and values[i] > component.repetition[i] + slack) for i in range(size))
    # The moves the search for a settled place follows: a player's best moves, every outcome of the dice.
    followed = [[moves[i][place][1] for place in best[i]] if options[i] is not None else [j for _, j, _, _ in moves[i]]
                for i in range(size)]
    callers: list[list[int]] = [[] for _ in range(size)]
    for i, targets in enumerate(followed):
        for j in targets:
            if j != EXIT:
                callers[j].append(i)
    sure = bytearray([1]) * size
    while True:
        distance = _distances_to_settled(kind, followed, callers, sure, settled, adverse)
        lost = [i for i in range(size) if sure[i] and distance[i] is None]
        if not lost:
            break
        for i in lost:
            sure[i] = 0
    choices = [0] * size
    for i, row in enumerate(options):
        if row is None:
            continue
        if sure[i] and not settled[i]:
            choices[i] = min(best[i], key=lambda place: (_steps_from(moves[i][place][1], distance), place))
        else:
            choices[i] = _first_best(row, kind[i], slack)
    return choices




def _within(row: list[Any], best: Any, slack: float) -> list[int]:
    """The places in ``row`` of the values within ``slack`` of ``best`` (``best``'s among them
    where it is infinite: a sum past the floats' range)."""
    return [place for place, value in enumerate(row) if value == best or abs(value - best) <= slack]


def _steps_from(target: int, distance: list[int | None]) -> int:
    """How far a move to ``target`` is from a settled place (see ``_distances_to_settled``):
    none for a move out; past every distance for a node with none."""
    if target == EXIT:
        return 0
    steps = distance[target]
    return len(distance) + 1 if steps is None else steps


def _distances_to_settled(kind: list[int], followed: list[list[int]], callers: list[list[int]], sure: bytearray,
                          settled: bytearray, adverse: bytearray) -> list[int | None]:
    """Each ``sure`` node's number of steps to a settled place (a move out of the component, or
    a node worth the repetition value: 0 steps) along ``followed`` moves that stay among the
    sure nodes (a player's node: one such move, or, where the player would rather play for
    ever (``adverse``), every one; a node of dice: some outcome, and every outcome out or
    sure); None where there is none."""
    size = len(kind)
    distance: list[int | None] = [0 if sure[i] and settled[i] else None for i in range(size)]

    def joins(i: int) -> bool:
        if not sure[i] or distance[i] is not None:
            return False
        if adverse[i]:
            return all(j == EXIT or distance[j] is not None for j in followed[i])
        return kind[i] != CHANCE or all(j == EXIT or sure[j] for j in followed[i])

    frontier = [i for i in range(size) if distance[i] == 0]
    steps = 0
    while True:
        steps += 1
        reached = []
        if steps == 1:  # a move out is a settled place one step away
            reached = [i for i in range(size) if EXIT in followed[i] and joins(i)]
            for i in reached:
                distance[i] = 1
        for j in frontier:
            for i in callers[j]:
                if joins(i):
                    distance[i] = steps
                    reached.append(i)
        if not reached:
            return distance
        frontier = reached


def _solve_block(block: list[int], equations: dict[int, tuple[Any, dict[int, Any]]], steps: list[int]) -> dict[int, Any]:
    """Solve ``x_i = constant_i + sum(coefficient * x_j)`` over ``block`` with fractions,
    by Gaussian elimination on sparse rows (x_j outside the block are already in the constants),
    in at most ``steps[0]`` steps (counted down there)."""
    if len(block) > _BLOCK_LIMIT:
        raise NotExact(f"a block of {len(block)} equations is too large to solve with fractions")
    # Row i: x_i - sum(c_ij x_j) = constant_i, kept as {j: coefficient} with the diagonal.
    rows: dict[int, dict[int, Any]] = {}
    rhs: dict[int, Any] = {}
    for i in block:
        constant, coefficients = equations[i]
        row = {j: -Fraction(c) for j, c in coefficients.items()}
        row[i] = row.get(i, 0) + Fraction(1)
        rows[i], rhs[i] = row, Fraction(constant)
    order = list(block)
    for pivot in order:
        row = rows[pivot]
        diagonal = row[pivot]
        if diagonal == 0:
            raise NotExact("a singular system of equations")
        for other in order:
            if other == pivot or pivot not in rows[other]:
                continue
            target = rows[other]
            steps[0] -= len(row)
            if steps[0] < 0:
                raise NotExact(f"solving with fractions takes more than {_FRACTION_STEPS:,} steps")
            factor = target.pop(pivot) / diagonal
            for j, c in row.items():
                if j != pivot:
                    target[j] = target.get(j, 0) - factor * c
            rhs[other] -= factor * rhs[pivot]
    return {i: rhs[i] / rows[i][i] for i in order}


def evaluate_policy(component: Component, policy: list[int], steps: list[int]) -> list[Any]:
    """The exact values of the Markov chain where each player's node plays ``policy[i]``
    (a place in its moves), in at most ``steps[0]`` steps of elimination; nodes the chain
    never leaves score the repetition value."""
    size = len(component.nodes)

    def followed(i: int) -> list[tuple[int, Any, Any]]:
        moves = component.moves[i]
        if component.kind[i] == CHANCE:
            return [(j, v, p) for _, j, v, p in moves]
        _, j, v, _ = moves[policy[i]]
        return [(j, v, 1)]

    chains = [followed(i) for i in range(size)]
    values: list[Any] = [None] * size
    blocks = strongly_connected(range(size), lambda i: [j for j, _, _ in chains[i] if j != EXIT])
    for block in blocks:
        members = set(block)
        closed = all(j in members for i in block for j, _, _ in chains[i])
        if closed:
            for i in block:
                values[i] = component.repetition[i]
            continue
        equations = {}
        for i in block:
            constant: Any = 0
            coefficients: dict[int, Any] = {}
            for j, v, p in chains[i]:
                if j == EXIT:
                    constant += p * v
                elif j in members:
                    coefficients[j] = coefficients.get(j, 0) + p
                else:
                    constant += p * values[j]
            equations[i] = (constant, coefficients)
        solved = _solve_block(block, equations, steps)
        for i, value in solved.items():
            values[i] = value.numerator if value.denominator == 1 else value
    return values


def _end_components(component: Component, fixed_kind: int, policy: list[int]) -> set[int]:
    """The nodes in end components of the chain where ``fixed_kind``'s nodes play ``policy``
    and the other player's nodes may take any move that stays in the component."""
    def targets(i: int) -> list[int]:
        moves = component.moves[i]
        if component.kind[i] == fixed_kind:
            return [moves[policy[i]][1]]
        return [j for _, j, _, _ in moves]

    return set(end_blocks(set(range(len(component.nodes))), targets,
                           lambda i: component.kind[i] in (CHANCE, fixed_kind)))


def exact_values(component: Component, guess: list[float], slack: float) -> tuple[list[Any], list[int]]:
    """Exact values of the component by policy iteration from the choices ``guess`` makes (the
    first move within ``slack`` of the best), certified (see the module's docstring), and the
    choices that make them (a place in each player's node's moves): played by both sides, they
    score those values; raises NotExact when they cannot be had."""
    if len(set(component.repetition)) > 1:
        raise NotExact("the repetition value differs between positions of one cycle")
    if any(v is not None and isinstance(v, float) for row in component.moves for _, _, v, _ in row):
        raise NotExact("a position the cycle leads to has no exact value")
    if isinstance(component.repetition[0], float):  # the dice would average it: a rounded mean
        raise NotExact("the repetition value is a float")
    size = len(component.nodes)
    deciding = [i for i in range(size) if component.kind[i] != CHANCE]
    policy = [0] * size
    for i in deciding:
        policy[i] = _first_best(_option_values(component, guess, i), component.kind[i], slack)
    steps = [_FRACTION_STEPS]
    for _ in range(_ROUNDS):
        values = evaluate_policy(component, policy, steps)
        switched = False
        for i in deciding:
            options = _option_values(component, values, i)
            best = max(options) if component.kind[i] == MAX else min(options)
            if options[policy[i]] != best:
                policy[i] = options.index(best)
                switched = True
        if not switched:
            break
    else:
        raise NotExact("policy iteration did not settle")
    drift = _drift(component, values, policy)
    if drift:
        # Of two equally good moves the one kept may go round a cycle for ever (worth the
        # values all the same, as the dice lead out of it): the moves towards a way out, if
        # they score the same values, may have no such drift.
        ending = ending_choices(component, values, 0)
        try:
            scored = ending != policy and evaluate_policy(component, ending, steps) == values
        except NotExact:  # the fractions outgrew their steps: the drift is what was found
            scored = False
        if not scored or _drift(component, values, ending):
            raise NotExact(drift)
        policy = ending
    return values, policy


def _drift(component: Component, values: list[Any], policy: list[int]) -> str:
    """What keeps ``values``, which both players' ``policy`` scores, from being certified (see
    the module's docstring): a player's choices that let the game drift for ever through
    positions worth more to that player than endless play; "" where nothing does."""
    r = component.repetition[0]
    if any(values[i] > r for i in _end_components(component, MAX, policy)):
        return "the first player's choices may drift for ever"
    if any(values[i] < r for i in _end_components(component, MIN, policy)):
        return "the second player's choices may drift for ever"
    return ""
