"""Cycles through the dice: value iteration, then exact values where they can be had.

Within a strongly connected component holding chance nodes (Pig, the coin game), the values
are those of the game where a play that never ends scores the repetition value ``r``.  They
satisfy the values' rules (a first-player node has the largest of its successors' values, a
chance node their average, and so on), which are monotone; but where play can go round for
ever, other values satisfy them too.  Value iteration sweeps (Gauss-Seidel) from below every
value a node can have and from above at once (``value_iteration``): the sweeps from below
stay below every solution of the rules between the lowest and the highest value, the game's
values among them, and those from above above, so their gap bounds the error at every
sweep.  Where every play ends and a sweep reads few nodes before their turn, Newton's method
on those nodes starts the two ends next to the values, proven there by one sweep
(``_near_ends``: Pig's cycles take a few sweeps instead of dozens).  Where one player alone
can keep the play going (``circles_of``), that player's positions there are read as one, worth
``r`` or the best way out, and where both can, the gap stays open and says so.  The values
found are proven within the bound, never exact: for components small enough, policy iteration
with fractions then tries for exact values, and a certificate that they are the game's
(``policy``); ``solve_chance_cycle`` does both.
"""

from __future__ import annotations

from operator import add, sub
from typing import Any, no_type_check as typeguard_ignore

from ..results import SearchError
from .component import EXIT, Circles, Component, circles_of
from .policy import NotExact, ending_choices, exact_values
from .graph import CHANCE, MAX, Graph
from .solution import BOUNDS_APART, FLOAT_ODDS, SHORT_OF_TOLERANCE, Solution, float_error, floats_among, repetition_varies

_SWEEPS = 1_000_000  # value iteration stops here even if the tolerance is not met
_CUT_LIMIT = 8  # the most nodes a sweep may read before their turn for Newton's method to start it
_NEWTON_ROUNDS = 12  # Newton's method's rounds at most (each a change of choices; Pig's take two or three)


@typeguard_ignore
def value_iteration(component, tolerance, interrupt_check):
    """Float values of the component's nodes, a bound on their errors (given the values the
    component leads out to), and the slack its best moves may take: the last change of the
    sweeps that made the values, or half the gap where the two ends met (see the module's
    docstring).

    The sweeps run from both ends at once: from the lowest value a node can have and from the
    highest.  The values' rules are monotone, so the first stay below every solution of them
    between those two, the game's values among them, and the second above (each value moved
    past its roundings: see ``_from_both_ends``): once the two meet within the tolerance, their
    middle is the values, proven within half their gap.  Where they stop apart, the rules
    have more than one solution: where one player alone can keep the play going
    (``circles_of``), that player's positions there are read as one and the sweeps run again;
    where both can (each handing the turn back), the values are those of sweeps from the
    repetition value, kept between the two ends, and the bound is the whole gap."""
    sweep = _sweep_order(component, {})
    endless = _may_go_on(component, sweep)
    near = None if endless else _near_ends(component, sweep, tolerance, interrupt_check)
    low, high, apart = _from_both_ends(component, sweep, tolerance, interrupt_check, endless, near)
    if apart:
        circles = circles_of(component.kind, component.moves)
        if circles:
            sweep = _sweep_order(component, circles)
            low, high, apart = _from_both_ends(component, sweep, tolerance, interrupt_check,
                                               _may_go_on(component, sweep))
    gap = max(map(sub, high, low))
    if not apart:  # met, or as near as the sweeps could bring them
        return [(a + b) / 2 for a, b in zip(low, high)], gap / 2, gap / 2
    component.bounds_apart = True
    x = [float(r) for r in component.repetition]
    sweeps = 0
    while True:
        before = x[:]
        _sweep_both(sweep, x, x, 0.0)  # one end: rare enough to compute twice
        change = max(map(abs, map(sub, x, before)))
        sweeps += 1
        # To the tolerance, or where the values are too large for it, to as many digits.
        if change < max(tolerance, gap * 1e-12) or sweeps >= _SWEEPS:
            # Kept between the ends: sweeps from the repetition value that stopped sooner than
            # the ends did may lie outside them.
            return [min(max(v, a), b) for v, a, b in zip(x, low, high)], gap, change
        if not sweeps & 15:
            interrupt_check(sweeps, change)


def _may_go_on(component: Component, sweep: list[tuple[Any, ...]]) -> bool:
    """Whether the play can go on for ever inside the component, both players keeping it going,
    as value iteration reads it (``sweep``, from ``_sweep_order``): whether some of its nodes
    hold together, every throw among them staying among them and every player's node among them
    reading one of them.  Where none do, every play ends, whatever the players choose, and the
    values' rules have one solution: the ends of the sweeps meet, however slowly."""
    reads = {i: _reads(kind, inner) for i, kind, _, inner in sweep}
    throw = {i for i in reads if component.kind[i] == CHANCE}
    callers: dict[int, list[int]] = {i: [] for i in reads}
    for i, read in reads.items():
        for j in read:
            callers[j].append(i)
    inside = {i: len(read) for i, read in reads.items()}  # a player's node: how many it reads that hold
    leaving = [i for i in reads if not reads[i] or (i in throw and any(j == EXIT for _, j, _, _ in component.moves[i]))]
    gone = set(leaving)
    while leaving:
        j = leaving.pop()
        for i in callers[j]:
            if i not in gone:
                inside[i] -= 1
                if i in throw or not inside[i]:
                    gone.add(i)
                    leaving.append(i)
    return len(gone) < len(reads)


def _sweep_order(component: Component, circles: Circles) -> list[tuple[Any, ...]]:
    """Each node with its rule (``_row``), in the order a sweep visits them: a node after the
    nodes it reads where the cycles allow, so that a change travels along a whole line of
    moves in one sweep (Pig to 20: 18 sweeps a cycle, not 32)."""
    rows = [_row(component, i, circles) for i in range(len(component.nodes))]
    order = _successors_first([_reads(kind, inner) for kind, _, inner in rows])
    return [(i, *rows[i]) for i in order]


@typeguard_ignore
def _from_both_ends(component, sweep, tolerance, interrupt_check, endless, near=None):
    """Sweeps from below every value a node can have and from above (or from ``near``, ends
    proven on either side of the values: ``_near_ends``), until they meet within
    ``tolerance`` or stop apart: the two ends' values and whether they stopped apart.

    The sum of the gaps shrinks as the ends close in.  Where the play cannot go on for ever
    (not ``endless``: ``_may_go_on``), the values are pinned down and the sweeps go on until the
    ends meet, or come as near as the roundings let them (the sum shrinks by less than they
    may move it), or run out.  Elsewhere the ends are apart for good where the sum stops shrinking, or shrinks
    towards a sum of its own: foretold from its last three, as a geometric series would end, at
    more than half the sum left, two sweeps running, the series steady (its ratio the same to a
    tenth of what it lacks of 1) and its steps well above the roundings.

    Each sweep moves the lower end down and the upper end up by as much as the floats'
    roundings can have moved a value it computes (the odds, the products and the sums of a
    throw of the most outcomes, each half a unit in the last place at most), so that the
    ends stay on their sides of the game's values whatever the rounding."""
    size = len(component.nodes)
    lowest, highest, rounding = component.ends
    low, high = near or ([lowest] * size, [highest] * size)
    # Each sweep widens the sum by twice the rounding a node, and sums it with roundings of
    # its own: a step of the sum below four times that is no step.
    floor, noise = 4 * size * rounding, 100 * size * rounding
    sweeps = foretold = 0
    total, step, ratio = sum(map(sub, high, low)), _INFINITY, 0.0
    while True:
        _sweep_both(sweep, low, high, rounding)
        sweeps += 1
        gaps = list(map(sub, high, low))
        if max(gaps) < tolerance or sweeps >= _SWEEPS:
            return low, high, False
        left = sum(gaps)
        step, ratio, before = total - left, (total - left) / step, ratio
        total = left
        if not step > floor:  # no nearer (nor a number: ends past the floats' range)
            return low, high, endless
        if endless:
            steady = 0 < ratio < 1 and abs(ratio - before) <= (1 - ratio) / 10 and step > noise
            foretold = foretold + 1 if steady and left - step * ratio / (1 - ratio) > left / 2 else 0
            if foretold == 2:
                return low, high, True
        if not sweeps & 15:
            interrupt_check(sweeps, left)


@typeguard_ignore
def _near_ends(component, sweep, tolerance, interrupt_check):
    """Ends for the sweeps from both ends (``_from_both_ends``) near the values and proven on
    either side of them, or None: for a component where every play ends (the values' rules
    have one solution) and whose sweep reads few nodes before their turn (``_cut``).

    A sweep's values follow from those of the cut alone.  Newton's method on them
    (``_newton``) finds the values in a few sweeps where the sweeps from both ends take dozens
    (Pig's cycles: two nodes in the cut); floats are only a guess, which one more sweep proves
    or refuses (``_proven_ends``)."""
    cut = _cut(sweep)
    if not cut or len(cut) > _CUT_LIMIT:  # none: one sweep from the ends finds the values
        return None
    found = _newton(component, sweep, cut, interrupt_check)
    return None if found is None else _proven_ends(component, sweep, cut, *found, tolerance)


@typeguard_ignore
def _newton(component, sweep, cut, interrupt_check):
    """The values of the ``cut`` by Newton's method (policy iteration on the cut: each player
    choosing by the cut's values at hand, the sweep is linear in them, and the linear
    equations are solved), and the margins ``_proven_ends`` takes for them; None where the
    choices make a play that never ends (the equations singular, or their values past the
    ends)."""
    lowest, highest, _ = component.ends
    guess = [min(max(float(component.repetition[c]), lowest), highest) for c in cut]
    slack = (highest - lowest) * 1e-9
    met: set[tuple[float, ...]] = set()
    for rounds in range(1, _NEWTON_ROUNDS + 1):
        forms = _linear_sweep(sweep, cut, guess, len(component.nodes))
        better = _solve_linear(forms)
        if better is None or not all(lowest - slack <= v <= highest + slack for v in better):
            return None
        better = [min(max(v, lowest), highest) for v in better]  # past an end by its roundings alone
        key = tuple(better)
        if key in met:  # the same choices again (or two that tie, in turn)
            break
        met.add(key)
        interrupt_check(rounds, max(abs(a - b) for a, b in zip(better, guess)))
        guess = better
    # Where a cut node's value follows another's in full (no throw between), one margin for
    # both could not be proven: each node's margin is its ``steps`` (w = A w + 1, A the cut's
    # part of the equations), which a sweep narrows by one.
    steps = _solve_linear([form[:-1] + [1.0] for form in forms])
    return None if steps is None or not all(w >= 1.0 for w in steps) else (guess, steps)


@typeguard_ignore
def _proven_ends(component, sweep, cut, guess, steps, tolerance):
    """The ends after one sweep from the ``cut``'s ``guess`` less and more its margins
    (``steps``, a unit each), if the sweep proves them on either side of the game's values;
    else None (a unit too small to prove is tried eight times larger, up to three times).

    The sweep proves them where the lower end's cut values do not fall and the upper end's do
    not rise.  The sweep computed below the rules' own (each value moved past its roundings),
    so the rules, swept from the lower end, do not lower its cut values either, nor any value
    after that (they are monotone): sweeps of the rules from it only rise, to the rules' one
    solution (the game's values), which is then above the lower end, and above the values the
    sweep computed from it; likewise for the upper end.  An end is never started past the
    lowest or the highest value (the sweeps from there would close in on a value at that end
    only slowly), and one at that end is proven by the rules alone."""
    lowest, highest, rounding = component.ends
    size = len(component.nodes)
    unit = max(tolerance / 4 / max(steps), 16 * rounding)
    for _ in range(4):
        below = [max(v - unit * w, lowest) for v, w in zip(guess, steps)]
        above = [min(v + unit * w, highest) for v, w in zip(guess, steps)]
        low, high = [lowest] * size, [highest] * size  # the cut's are read before they are computed; no other is
        for c, a, b in zip(cut, below, above):
            low[c], high[c] = a, b
        _sweep_both(sweep, low, high, rounding)
        # An end at the lowest (highest) value needs no proof: the rules never take a value
        # below (above) it.
        if all((low[c] >= a or a == lowest) and (high[c] <= b or b == highest)
               for c, a, b in zip(cut, below, above)):
            return low, high
        unit *= 8
    return None


def _cut(sweep: list[tuple[Any, ...]]) -> list[int]:
    """The nodes a sweep reads before their turn in it (or at it): its other nodes are
    computed before they are read, so the sweep's values follow from these nodes' alone."""
    place = {row[0]: n for n, row in enumerate(sweep)}
    cut: dict[int, None] = {}
    for n, (_, kind, _, inner) in enumerate(sweep):
        for j in _reads(kind, inner):
            if place[j] >= n:
                cut[j] = None
    return list(cut)


@typeguard_ignore
def _linear_sweep(sweep, cut, guess, size):
    """One sweep with the ``cut`` read at ``guess`` before their turn, each node's value also
    written as a linear function of those values (its coefficients, then a constant), each
    player choosing by the values at ``guess``: the cut's nodes as the sweep leaves them, as
    functions."""
    k = len(cut)
    value, form = [0.0] * size, [None] * size
    for t, c in enumerate(cut):
        value[c] = guess[t]
        form[c] = [0.0] * t + [1.0] + [0.0] * (k - t)
    zeros = [0.0] * k
    for i, kind, constant, inner in sweep:
        if kind == _AVERAGE:
            v, f = constant, zeros + [constant]
            for p, j in inner:
                v += p * value[j]
                f = list(map(add, f, map(p.__mul__, form[j])))
        else:
            if kind == _HIGHER or kind == _LOWER:
                j = inner
            else:
                j = (max if kind == _LARGEST else min)(inner, key=value.__getitem__)
            v, f = value[j], form[j]
            if (constant > v) if kind == _HIGHER or kind == _LARGEST else (constant < v):
                v, f = constant, zeros + [constant]
        value[i], form[i] = v, f
    return [form[c] for c in cut]


def _solve_linear(forms: list[list[float]]) -> list[float] | None:
    """The values ``x`` with ``x[t] = forms[t][:k] . x + forms[t][k]`` (k of them), by
    Gaussian elimination with partial pivoting in floats; None where the equations are
    singular, or nearly."""
    k = len(forms)
    rows = [[(1.0 if s == t else 0.0) - f[s] for s in range(k)] + [f[k]] for t, f in enumerate(forms)]
    for t in range(k):
        pivot = max(range(t, k), key=lambda r: abs(rows[r][t]))
        if not abs(rows[pivot][t]) > 1e-9:
            return None
        rows[t], rows[pivot] = rows[pivot], rows[t]
        for r in range(t + 1, k):
            factor = rows[r][t] / rows[t][t]
            if factor:
                rows[r] = [a - factor * b for a, b in zip(rows[r], rows[t])]
    x = [0.0] * k
    for t in reversed(range(k)):
        x[t] = (rows[t][k] - sum(rows[t][s] * x[s] for s in range(t + 1, k))) / rows[t][t]
    return x


@typeguard_ignore
def _sweep_both(sweep, low, high, rounding):
    """One sweep of value iteration over ``low`` and ``high`` at once, in place (``sweep``: each
    node with its rule from ``_row``, in the order to visit them), ``low`` moved down and
    ``high`` up by ``rounding``; ``low`` is below ``high`` throughout, or the same list (with
    no rounding)."""
    for i, kind, constant, inner in sweep:
        if kind == _AVERAGE:
            lower = upper = constant
            for p, j in inner:
                lower += p * low[j]
                upper += p * high[j]
        elif kind == _HIGHER:
            lower, upper = low[inner], high[inner]
            if constant > lower:
                lower = constant
                if constant > upper:
                    upper = constant
        elif kind == _LOWER:
            lower, upper = low[inner], high[inner]
            if constant < upper:
                upper = constant
                if constant < lower:
                    lower = constant
        elif kind == _LARGEST:
            lower = max(map(low.__getitem__, inner))
            upper = max(map(high.__getitem__, inner))
            if constant > lower:
                lower = constant
                if constant > upper:
                    upper = constant
        else:
            lower = min(map(low.__getitem__, inner))
            upper = min(map(high.__getitem__, inner))
            if constant < upper:
                upper = constant
                if constant < lower:
                    lower = constant
        low[i] = lower - rounding
        high[i] = upper + rounding


# How value iteration computes a node from the nodes it reads (see ``_row``).
_HIGHER, _LOWER, _LARGEST, _SMALLEST, _AVERAGE = range(5)


def _row(component: Component, i: int, circles: Circles) -> tuple[int, float, Any]:
    """How value iteration computes node ``i``: its rule, the value of its moves out of the
    component (their best for a player, their share of the average at a chance node), and the
    nodes it reads inside (one node for a player's node with one move inside: ``_HIGHER`` or
    ``_LOWER``; a list for one with several; pairs of probability and node at a chance node).

    A node of a place where one player alone keeps the play going (in ``circles``, see
    ``circles_of``) reads the moves that leave the place, and the repetition value: that player
    may go on to any of them, or stay for ever."""
    moves = component.moves[i]
    if component.kind[i] == CHANCE:
        outside = 0.0
        for _, j, v, p in moves:
            if j == EXIT:
                outside += float(p) * float(v)
        return _AVERAGE, outside, [(float(p), j) for _, j, _, p in moves if j != EXIT]
    maximizing = component.kind[i] == MAX
    if i in circles:
        player, _, leaving = circles[i]
        maximizing = player == MAX
        moves = [*leaving, (-1, EXIT, component.repetition[i], None)]
    exits = [float(v) for _, j, v, _ in moves if j == EXIT]
    best = (max(exits) if maximizing else min(exits)) if exits else -_INFINITY if maximizing else _INFINITY
    inside = sorted({j for _, j, _, _ in moves if j != EXIT})
    if not inside:  # not met in a cycle, where every node moves inside: its best move out, as a sum
        return _AVERAGE, best, []
    if len(inside) == 1:
        return _HIGHER if maximizing else _LOWER, best, inside[0]
    return _LARGEST if maximizing else _SMALLEST, best, inside


_INFINITY = float("inf")


def _reads(kind: int, inner: Any) -> list[int]:
    """The nodes a node of ``_row``'s ``kind`` and ``inner`` reads."""
    if kind == _AVERAGE:
        return [j for _, j in inner]
    return [inner] if kind in (_HIGHER, _LOWER) else list(inner)


def _successors_first(successors: list[list[int]]) -> list[int]:
    """The nodes (``successors[i]``: the nodes node i reads) in depth-first post-order from node
    0, 1, ... in turn: every node after its successors but along a move that closes a cycle."""
    order: list[int] = []
    seen = bytearray(len(successors))
    for root in range(len(successors)):
        if seen[root]:
            continue
        seen[root] = 1
        stack = [(root, iter(successors[root]))]
        while stack:
            node, unvisited = stack[-1]
            for child in unvisited:
                if not seen[child]:
                    seen[child] = 1
                    stack.append((child, iter(successors[child])))
                    break
            else:
                stack.pop()
                order.append(node)
    return order


_TIES = 1_000  # best moves: within this many times value iteration's last change of the best


def solve_chance_cycle(
    graph: Graph, solution: Solution, members: list[int], tolerance: float, interrupt_check: Any,
    try_exact: bool,
) -> None:
    """Solve a strongly connected component with chance nodes whose exits are solved: exactly
    when ``try_exact`` (the game is small enough), the odds are exact numbers and the
    certificate holds, else by value iteration."""
    try:
        component = Component(graph, solution, members)
        guess, bound, change = value_iteration(component, tolerance, interrupt_check)
    except OverflowError:
        raise SearchError("positions repeat through the dice where play can end with a score past the range of the "
                          "floats value iteration computes with (about 1.8e308): give the game smaller scores") from None
    values: list[Any] = guess
    exact = False
    policy = None
    slack = _TIES * max(change, tolerance)  # moves this close to the best are as good, to value iteration
    # Odds given as floats (0.1 for 1/10) are not the odds meant, and their fractions do not
    # add up to 1: exact values of those would be exact values of another game.
    float_odds = floats_among(component.odds_types)
    if float_odds:
        solution.methods.add(FLOAT_ODDS)
    if try_exact and not float_odds:
        try:
            values, policy = exact_values(component, guess, slack)
            exact = True
        except NotExact:
            pass
    if policy is None:
        policy = ending_choices(component, values, slack)
    for i, node in enumerate(members):
        solution.value[node] = values[i]
        if component.kind[i] != CHANCE:
            solution.best[node] = component.moves[i][policy[i]][0]
    if exact:
        solution.methods.add("policy iteration")
    else:
        solution.methods.add("value iteration")
        solution.exact = False
        # A cycle's values are within its bound of those it would have if the values it leads
        # out to were exact: the bounds of the cycles solved add up.
        if component.bounds_apart:
            solution.methods.add(BOUNDS_APART)
        elif bound > tolerance:  # the floats' rounding (scores this large), or sweeps that ran out
            solution.methods.add(SHORT_OF_TOLERANCE)
        # Its values are off by as much again as the values it leads out to, and the repetition
        # scores, moved as they became floats.
        solution.residual += bound + float_error(component.scores)
        if len(set(component.repetition)) > 1:  # each position took its own score of endless play
            repetition_varies(solution, component.repetition)
