"""Max^n search (Luckhardt and Irani 1986; AIMA, "Multiplayer games"): every player
maximises its own payoff.

Each node's value is a vector of payoffs, one per player; the player to move takes the
child whose vector gives it the most, and of equal ones the first in the game's move
order (a later child replaces the best only when strictly better for the mover).  A
chance node's vector is the average of its outcomes' weighed by their probabilities.

Pruning (Korf 1991, "Multi-player alpha-beta pruning") needs what the game declares
about its payoffs (``searchers.protocol``):

- *immediate*: once a child gives the mover the highest payoff (``payoff_bounds``),
  no later child can be strictly better, so the rest are skipped; the value is exact;
- *shallow*: when the payoffs have a constant sum (with more than two players, and a
  lowest payoff), a player sure of ``x`` leaves any other at most ``limit - x``; once
  that is no more than what the player moving above already has, it will not come
  here, and the rest are skipped.  The node's vector is then only what was found so
  far.  In a two-player zero-sum game this is alpha-beta without its deep cut-offs.

Why this is not the one depth-first search of ``driver.py``: that search compares one
number against an alpha-beta window and stores bounds in a table; here every value is
a vector compared on a different player's entry at each node, and a node is pruned
against its parent alone.  The node prologue is the driver's, step for step and with
its names: the budget (time, nodes, progress, Ctrl-C), a finished game scored by its
utility, a position repeated on the current line scored by the game's repetition rule,
the depth limit scored by the evaluation (or making room on the stack for deep games),
and only then the node's own work.  There is no transposition table: a pruned node's
vector depends on the line that reached it.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from typing import TYPE_CHECKING, cast

from . import _hot
from ._common import (
    Budget,
    Counters,
    DeepRecursion,
    Line,
    Outcome,
    Progress,
    Tracer,
    in_game_order,
    pv_from_line,
    search_from,
)
from .payoffs import PayoffReader, PayoffVector
from .protocol import (
    Game, Move, Player, State, Value, check_limits, limits_need_evaluation, no_moves_error, position_of, rules_of,
)
from .results import EXACT, LOWER, UPPER, Bound, ChanceCycleMet, GameError, NodeKind, SearchResult

if TYPE_CHECKING:  # mypy checks per-node code with typeguard's own decorator
    from typeguard import typeguard_ignore
else:  # typeguard recognises that name; at run time the stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore

NO_RIVAL = -1  # no player above to prune for: the root, or the outcome of a chance node


def maxn(
    game: Game,
    state: State | None = None,
    *,
    depth: int | None = None,
    time: float | None = None,
    max_nodes: int | None = None,
    prune: bool = True,
    trace: bool = False,
    progress: Callable[[Progress], None] | None = None,
    stop_at_chance_cycle: bool = False,
) -> SearchResult:
    """Max^n value and best move of ``state`` (default: the initial state), for any number
    of players.

    ``value`` and each of ``move_values`` is a dict from every player to its payoff, or,
    in a two-player zero-sum game, one number from the first player's view (there max^n
    is minimax).  Of moves equally good for the mover, the first in the game's move
    order is taken.  ``prune`` (on by default) skips moves by immediate and shallow
    pruning where the game's ``payoff_bounds`` and ``payoff_sum`` allow it; the value is
    the same.  A root move cut short by shallow pruning has ``move_bounds`` "upper": it
    is proven no better for the player to move than the best move, and its payoffs are
    those found before the search stopped (in a two-player zero-sum game "upper" and
    "lower" are bounds from the first player's view, as alpha-beta gives them).

    ``depth`` cuts the search off and scores every player by ``game.evaluate``;
    ``time``/``max_nodes`` deepen it one move at a time within that budget.
    ``progress`` is called with a ``Progress`` about four times a second once the search
    has run for a second; Ctrl-C returns the best result found so far, marked
    ``interrupted`` and not exact.  A position repeating through chance nodes is scored by
    the game's repetition rule and makes the value not exact; ``stop_at_chance_cycle``
    raises ``ChanceCycleMet`` there instead.
    """
    check_limits(depth=depth, time=time, max_nodes=max_nodes)
    limits_need_evaluation(game, "maxn", depth, time, max_nodes)
    payoffs = PayoffReader(game)

    def make_iterate(
        root: State, counters: Counters, budget: Budget, stack: DeepRecursion
    ) -> Callable[[int, Outcome | None], Outcome]:
        return _maxn_iterations(game, root, payoffs, prune, counters, budget, stack, trace, stop_at_chance_cycle)

    return search_from(
        game, state, make_iterate,
        depth=depth, time=time, max_nodes=max_nodes, progress=progress, algorithm="maxn",
        interrupted=_interrupted_outcome(payoffs), traced=trace,
    )


def _maxn_iterations(
    game: Game,
    root: State,
    payoffs: PayoffReader,
    prune: bool,
    counters: Counters,
    budget: Budget,
    stack: DeepRecursion,
    trace: bool,
    stop_at_chance_cycle: bool,
) -> Callable[[int, Outcome | None], Outcome]:
    """A function searching ``root`` by max^n to a given depth, updating ``counters``."""
    rules = rules_of(game)
    to_move, actions, result, is_terminal = rules.to_move, rules.actions, rules.result, rules.is_terminal
    is_chance = rules.is_chance
    # Only a game with chance nodes lists outcomes, and a search reaching a cut-off is
    # refused before it starts when the game cannot evaluate.
    chance_outcomes = cast(Callable[[State], Sequence[tuple[Move, Value]]], rules.chance_outcomes)
    evaluation_of = cast(Callable[[State], PayoffVector], payoffs.evaluation)
    index, show, single = payoffs.index, payoffs.show, payoffs.single
    utility_of, repetition_of = payoffs.utility, payoffs.repetition
    players = len(payoffs.players)
    highest = payoffs.bounds[1] if prune and payoffs.bounds is not None else None
    limit = payoffs.shallow_limit() if prune else None
    # A position repeats on the line of play when its ``position`` does (see ``driver``).
    at_position = position_of(game)

    @typeguard_ignore
    def iterate(max_depth: int, previous: Outcome | None) -> Outcome:
        nodes, leaves, cutoffs = counters.nodes, counters.leaves, counters.cutoffs
        repetitions, deepest = counters.repetitions, counters.deepest
        horizon = chance_cycles = 0
        check_at = budget.next_check(nodes)
        # The positions on the current line, each with the number of chance nodes above it.
        path: dict[Hashable, int] = {}
        chance_depth = 0
        root_values: dict[Move, PayoffVector] = {}
        budget.root_values = root_values  # what an interrupted search can still report
        root_bounds: dict[Move, Bound] = {}
        budget.root_bounds = root_bounds
        line: Line = None  # principal variation below the node just searched
        cut_short = False  # whether the node just searched stopped early by shallow pruning
        tracer = Tracer() if trace else None
        ply_limit = min(max_depth, stack.mark)

        @typeguard_ignore
        def search(state: State, rival: int, bar: Value | None, ply: int) -> PayoffVector:
            """The payoff vector of ``state``.  ``rival`` (the index of the player moving
            above, or NO_RIVAL) already has ``bar`` elsewhere: once this node cannot give
            it more, its search stops (shallow pruning)."""
            nonlocal nodes, leaves, repetitions, deepest, horizon, check_at, line
            nonlocal chance_cycles, ply_limit, cutoffs, cut_short
            if nodes >= check_at:
                check_at = budget.check(nodes)
            nodes += 1
            if is_terminal(state):
                leaves += 1
                if ply > deepest:
                    deepest = ply
                line, cut_short = None, False
                value = utility_of(state)
                if tracer is not None:
                    tracer.leaf(state, None, ply, show(value), "utility")
                return value
            chance = is_chance is not None and is_chance(state)
            here = state if at_position is None else at_position(state)
            on_path = len(path)
            first_seen = path.setdefault(here, chance_depth)
            if len(path) == on_path:
                repetitions += 1
                if chance_depth > first_seen:
                    chance_cycles += 1  # the cycle passes through the dice: not a rule of the game
                    if stop_at_chance_cycle:
                        raise ChanceCycleMet(ply)
                line, cut_short = None, False
                value = repetition_of(state)
                if tracer is not None:
                    tracer.leaf(state, mover(state, chance), ply, show(value), "repetition")
                return value
            if ply >= ply_limit:  # the depth limit, or deep enough to need more stack
                if ply == max_depth:
                    del path[here]
                    leaves += 1
                    horizon += 1
                    line, cut_short = None, False
                    value = evaluation_of(state)
                    if tracer is not None:
                        tracer.leaf(state, mover(state, chance), ply, show(value), "evaluation")
                    return value
                ply_limit = min(max_depth, stack.grow(ply))
            if chance:
                return average(state, here, ply)
            player = to_move(state)
            me = index[player]
            moves = actions(state)
            if not moves:
                raise no_moves_error(game, state)
            if tracer is not None:
                tracer.open()
                pruned = None
            # Shallow pruning asks about another player than the mover (there is no bar
            # for the first child, nor below the root or a chance node).
            watch = limit is not None and bar is not None and rival != me
            best: PayoffVector = ()
            best_line: Line = None
            shallow = False
            last = len(moves) - 1
            for number, move in enumerate(moves):
                value = search(result(state, move), me, best[me] if best else None, ply + 1)
                if tracer is not None:
                    tracer.label(move)
                if not ply:
                    root_values[move] = value
                    root_bounds[move] = root_bound(cut_short, me)
                if not best or value[me] > best[me]:
                    best, best_line = value, (move, line)
                if number < last and prune:
                    shallow = watch and limit - best[me] <= bar  # type: ignore[operator]  # watch: both set
                    if shallow or (highest is not None and best[me] >= highest):
                        cutoffs += 1
                        if tracer is not None:
                            pruned = list(moves[number + 1:])
                        break
            del path[here]
            if tracer is not None:
                kind: NodeKind = "min" if single and me == 1 else "max"
                bound = root_bound(shallow, rival) if shallow else EXACT
                tracer.close(state, player, kind, ply, (None, None), show(best), bound, pruned)
            line, cut_short = best_line, shallow
            return best

        @typeguard_ignore
        def average(state: State, here: Hashable, ply: int) -> PayoffVector:
            """The expected payoff vector of a chance node: its outcomes weighed by their
            probabilities."""
            nonlocal chance_depth, line, cut_short
            outcomes = chance_outcomes(state)
            if not outcomes:
                raise GameError(f"chance node {state!r} has no outcomes")
            chance_depth += 1
            if tracer is not None:
                tracer.open()
            sums: list[Value] = [0] * players
            for outcome, probability in outcomes:
                value = search(result(state, outcome), NO_RIVAL, None, ply + 1)
                if tracer is not None:
                    tracer.label(outcome, probability)
                if not ply:
                    root_values[outcome] = value
                    root_bounds[outcome] = EXACT
                for i in range(players):
                    sums[i] += probability * value[i]
            chance_depth -= 1
            del path[here]
            total = tuple(sums)
            if tracer is not None:
                tracer.close(state, None, "chance", ply, (None, None), show(total))
            line, cut_short = None, False  # a principal variation stops where the dice decide
            return total

        def root_bound(stopped: bool, above: int) -> Bound:
            """The bound of a vector whose search stopped (or not), for the player above."""
            if not stopped:
                return EXACT
            if single:  # from the first player's view, as alpha-beta says it
                return UPPER if above == 0 else LOWER
            return UPPER

        def mover(state: State, chance: bool) -> Player | None:
            return None if chance else to_move(state)

        try:
            value = search(root, NO_RIVAL, None, 0)
        finally:
            counters.nodes, counters.leaves, counters.cutoffs = nodes, leaves, cutoffs
            counters.repetitions, counters.deepest = repetitions, deepest
        shown = {move: show(vector) for move, vector in root_values.items()}
        if line is None:  # the root is terminal, a chance node or cut off at depth 0
            return Outcome(
                show(value), None, [], shown, dict(root_bounds), hit_horizon=horizon > 0,
                tracer=tracer, chance_cycles=chance_cycles,
            )
        first, rest = line
        root_moves = list(actions(root))
        return Outcome(
            show(value), first, pv_from_line(first, rest), in_game_order(root_moves, shown),
            in_game_order(root_moves, root_bounds), hit_horizon=horizon > 0,
            tracer=tracer, chance_cycles=chance_cycles,
        )

    return iterate


def _interrupted_outcome(payoffs: PayoffReader) -> Callable[[Game, State, Budget], Outcome]:
    """What a max^n search stopped by Ctrl-C can still say: the best root move it finished
    for the player to move there (the first of equals).  Raises KeyboardInterrupt again when
    it finished none, or the root is a chance node (whose average needs every outcome)."""

    def outcome(game: Game, root: State, budget: Budget) -> Outcome:
        values: dict[Hashable, PayoffVector] = dict(budget.root_values)
        is_chance = rules_of(game).is_chance
        if not values or (is_chance is not None and is_chance(root)):
            raise KeyboardInterrupt
        me = payoffs.index[game.to_move(root)]
        best = max(values, key=lambda move: values[move][me])  # max keeps the first of equals
        shown = {move: payoffs.show(vector) for move, vector in values.items()}
        bounds = {move: budget.root_bounds.get(move, EXACT) for move in values}
        return Outcome(shown[best], best, [best], shown, bounds)

    return outcome
