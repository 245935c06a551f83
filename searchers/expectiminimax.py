"""Expectiminimax search (AIMA's EXPECTIMINIMAX) for games with chance nodes."""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter
# typeguard skips functions with this decorator (its typeguard_ignore is the same
# object); imported from typing so that typeguard is not needed at run time.
from typing import Any, no_type_check as typeguard_ignore

from ._common import Budget, Counters, Outcome, Progress, Tracer, in_game_order, pv_from_line, run
from .minimax import no_moves_error
from .protocol import (
    Game,
    Move,
    State,
    check_limits,
    has_chance,
    limits_need_evaluation,
    repetition_scorer,
    require_two_player_zero_sum,
)
from .results import SearchError, SearchResult


def expectiminimax(
    game: Game,
    state: State | None = None,
    *,
    depth: int | None = None,
    table: bool = False,
    trace: bool = False,
    time: float | None = None,
    max_nodes: int | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> SearchResult:
    """Expected minimax value and best move of ``state``, averaging over chance nodes.

    Chance outcomes count as moves for ``depth``.  On a game without chance
    nodes this is minimax.  Exact probabilities (Fractions) give exact values.
    ``table`` reuses the values of states reached again by another route.

    ``progress`` is called with a ``Progress`` about four times a second once the search
    has run for a second; Ctrl-C returns the best result found so far, marked
    ``interrupted`` and not exact.
    """
    require_two_player_zero_sum(game, "expectiminimax")
    check_limits(depth=depth, time=time, max_nodes=max_nodes)
    limits_need_evaluation(game, "expectiminimax", depth, time, max_nodes)
    started = perf_counter()
    root = game.initial_state() if state is None else state
    counters, budget = Counters(), Budget(time, max_nodes, progress)
    iterate = _expectiminimax_iterations(game, root, table, counters, budget, trace)
    deepening = time is not None or max_nodes is not None
    return run(
        game, root, iterate, counters, budget,
        depth=depth, deepening=deepening, algorithm="expectiminimax", started=started,
    )


def _expectiminimax_iterations(
    game: Game, root: State, use_table: bool, counters: Counters, budget: Budget, trace: bool
) -> Callable[[int, Outcome | None], Outcome]:
    """A function searching ``root`` by expectiminimax to a given depth, updating ``counters``.

    Table entries are (value, draft, complete, best move); see alphabeta.Entry.
    """
    max_player = game.players[0]
    to_move, actions, result = game.to_move, game.actions, game.result
    is_terminal, utility = game.is_terminal, game.utility
    evaluate = getattr(game, "evaluate", None)
    is_chance = game.is_chance if has_chance(game) else None
    chance_outcomes = getattr(game, "chance_outcomes", None)
    score_repetition = repetition_scorer(game)
    table: dict | None = {} if use_table else None

    def iterate(max_depth: int, previous: Outcome | None) -> Outcome:
        nodes, leaves = counters.nodes, counters.leaves
        table_hits, repetitions = counters.table_hits, counters.repetitions
        deepest = counters.deepest
        horizon = 0
        check_at = budget.next_check(nodes)
        path: set[State] = set()  # states on the current line, to catch repetitions
        root_values: dict = {}
        budget.root_values = root_values  # what an interrupted search can still report
        line = None  # principal variation below the node just searched, as (move, rest)
        tracer = Tracer() if trace else None

        @typeguard_ignore
        def value_of(state, ply):
            nonlocal nodes, leaves, table_hits, repetitions, deepest, horizon, check_at, line
            if nodes >= check_at:
                check_at = budget.check(nodes)
            nodes += 1
            if is_terminal(state):
                leaves += 1
                if ply > deepest:
                    deepest = ply
                line = None
                value = utility(state, max_player)
                if tracer is not None:
                    tracer.leaf(state, None, ply, value, "utility")
                return value
            chance = is_chance is not None and is_chance(state)
            player = None if chance else to_move(state)
            if state in path:
                repetitions += 1
                line = None
                value = score_repetition(state)
                if tracer is not None:
                    tracer.leaf(state, player, ply, value, "repetition")
                return value
            if ply == max_depth:
                leaves += 1
                horizon += 1
                line = None
                value = evaluate(state, max_player)
                if tracer is not None:
                    tracer.leaf(state, player, ply, value, "evaluation")
                return value
            remaining = max_depth - ply
            if table is not None and ply:
                entry = table.get(state)
                if entry is not None and (
                    entry[1] == remaining or (entry[2] and remaining > entry[1])
                ):
                    table_hits += 1
                    if not entry[2]:
                        horizon += 1
                    line = None
                    if tracer is not None:
                        tracer.leaf(state, player, ply, entry[0], "table")
                    return entry[0]
            horizon_before, repetitions_before = horizon, repetitions
            path.add(state)
            if tracer is not None:
                tracer.open()
            if chance:
                value = average(state, ply)
                kind = "chance"
            else:
                maximizing = player == max_player
                value = best_of(state, ply, maximizing)
                kind = "max" if maximizing else "min"
            path.discard(state)
            if table is not None and repetitions == repetitions_before:
                best_move = None if line is None else line[0]
                table[state] = (value, remaining, horizon == horizon_before, best_move)
            if tracer is not None:
                tracer.close(state, player, kind, ply, (None, None), value)
            return value

        @typeguard_ignore
        def average(state, ply):
            nonlocal line
            outcomes = chance_outcomes(state)
            if not outcomes:
                raise SearchError(f"chance node {state!r} has no outcomes")
            total = 0
            for outcome, probability in outcomes:
                value = value_of(result(state, outcome), ply + 1)
                if tracer is not None:
                    tracer.label(outcome, probability)
                if not ply:
                    root_values[outcome] = value
                total += probability * value
            line = None  # a principal variation stops where the dice decide
            return total

        @typeguard_ignore
        def best_of(state, ply, maximizing):
            nonlocal line
            moves = actions(state)
            if not moves:
                raise no_moves_error(game, state)
            best = best_line = None
            for move in moves:
                value = value_of(result(state, move), ply + 1)
                if tracer is not None:
                    tracer.label(move)
                if not ply:
                    root_values[move] = value
                if best is None or (value > best if maximizing else value < best):
                    best, best_line = value, (move, line)
            line = best_line
            return best

        try:
            value = value_of(root, 0)
        finally:
            counters.nodes, counters.leaves = nodes, leaves
            counters.table_hits, counters.repetitions = table_hits, repetitions
            counters.deepest = deepest
        exact_values = {key: "exact" for key in root_values}
        if line is None:  # the root is terminal, a chance node or cut off at depth 0
            return Outcome(
                value, None, [], root_values, exact_values,
                hit_horizon=horizon > 0, tracer=tracer,
            )
        first, rest = line
        pv = pv_from_line(first, rest)
        if table is not None:
            _extend_from_table(game, root, pv, table, max_depth)
        root_moves = list(actions(root))
        return Outcome(
            value, first, pv, in_game_order(root_moves, root_values),
            in_game_order(root_moves, exact_values), hit_horizon=horizon > 0, tracer=tracer,
        )

    return iterate


def _extend_from_table(
    game: Game, root: State, pv: list[Move], table: dict[State, Any], max_depth: int
) -> None:
    """Continue ``pv`` past a table hit with the entries' best moves, up to a chance node."""
    state = root
    for move in pv:
        state = game.result(state, move)
    is_chance = game.is_chance if has_chance(game) else None
    seen: set[State] = set()
    while len(pv) < max_depth and state not in seen and not game.is_terminal(state):
        if is_chance is not None and is_chance(state):
            return
        entry = table.get(state)
        remaining = max_depth - len(pv)
        if entry is None or entry[3] is None:
            return
        if not (entry[1] == remaining or (entry[2] and remaining > entry[1])):
            return
        seen.add(state)
        pv.append(entry[3])
        state = game.result(state, entry[3])
