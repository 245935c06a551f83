"""Minimax search (AIMA's MINIMAX-SEARCH and H-MINIMAX)."""

from __future__ import annotations

from collections.abc import Callable
from time import perf_counter
# typeguard skips functions with this decorator (its typeguard_ignore is the same
# object); imported from typing so that typeguard is not needed at run time.
from typing import no_type_check as typeguard_ignore

from ._common import Budget, Counters, Outcome, Progress, Tracer, pv_from_line, run
from .protocol import (
    Game,
    State,
    check_limits,
    limits_need_evaluation,
    repetition_scorer,
    require_no_chance,
    require_two_player_zero_sum,
)
from .results import SearchError, SearchResult


def minimax(
    game: Game,
    state: State | None = None,
    *,
    depth: int | None = None,
    time: float | None = None,
    max_nodes: int | None = None,
    trace: bool = False,
    progress: Callable[[Progress], None] | None = None,
) -> SearchResult:
    """Minimax value and best move of ``state`` (default: the initial state).

    With ``depth=d`` non-terminal states ``d`` moves below the root are scored by
    ``game.evaluate``; with ``time`` or ``max_nodes`` the search deepens one move
    at a time and returns the deepest iteration it completed.

    ``progress`` is called with a ``Progress`` about four times a second once the search
    has run for a second; Ctrl-C returns the best result found so far, marked
    ``interrupted`` and not exact.
    """
    require_two_player_zero_sum(game, "minimax")
    require_no_chance(game, "minimax")
    check_limits(depth=depth, time=time, max_nodes=max_nodes)
    limits_need_evaluation(game, "minimax", depth, time, max_nodes)
    started = perf_counter()
    root = game.initial_state() if state is None else state
    counters, budget = Counters(), Budget(time, max_nodes, progress)
    iterate = _minimax_iterations(game, root, counters, budget, trace)
    deepening = time is not None or max_nodes is not None
    return run(
        game, root, iterate, counters, budget,
        depth=depth, deepening=deepening, algorithm="minimax", started=started,
    )


def no_moves_error(game: Game, state: State) -> SearchError:
    """The error for a non-terminal state without legal moves (a broken game)."""
    return SearchError(f"state {state!r} is not terminal but has no legal moves")


def _minimax_iterations(
    game: Game, root: State, counters: Counters, budget: Budget, trace: bool
) -> Callable[[int, Outcome | None], Outcome]:
    """A function searching ``root`` by minimax to a given depth, updating ``counters``."""
    max_player = game.players[0]
    to_move, actions, result = game.to_move, game.actions, game.result
    is_terminal, utility = game.is_terminal, game.utility
    evaluate = getattr(game, "evaluate", None)
    score_repetition = repetition_scorer(game)

    def iterate(max_depth: int, previous: Outcome | None) -> Outcome:
        nodes, leaves = counters.nodes, counters.leaves
        repetitions, deepest = counters.repetitions, counters.deepest
        horizon = 0
        check_at = budget.next_check(nodes)
        path: set[State] = set()  # states on the current line, to catch repetitions
        root_values: dict = {}
        budget.root_values = root_values  # what an interrupted search can still report
        line = None  # principal variation below the node just searched, as (move, rest)
        tracer = Tracer() if trace else None

        @typeguard_ignore
        def value_of(state, ply):
            nonlocal nodes, leaves, repetitions, deepest, horizon, check_at, line
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
            on_path = len(path)
            path.add(state)  # adding and then counting hashes the state once, not twice
            if len(path) == on_path:
                repetitions += 1
                line = None
                value = score_repetition(state)
                if tracer is not None:
                    tracer.leaf(state, to_move(state), ply, value, "repetition")
                return value
            if ply == max_depth:
                path.discard(state)
                leaves += 1
                horizon += 1
                line = None
                value = evaluate(state, max_player)
                if tracer is not None:
                    tracer.leaf(state, to_move(state), ply, value, "evaluation")
                return value
            player = to_move(state)
            maximizing = player == max_player
            moves = actions(state)
            if not moves:
                raise no_moves_error(game, state)
            if tracer is not None:
                tracer.open()
            best = best_line = None
            for move in moves:
                value = value_of(result(state, move), ply + 1)
                if tracer is not None:
                    tracer.label(move)
                if not ply:
                    root_values[move] = value
                if best is None or (value > best if maximizing else value < best):
                    best = value
                    best_line = (move, line)
            path.discard(state)
            if tracer is not None:
                kind = "max" if maximizing else "min"
                tracer.close(state, player, kind, ply, (None, None), best)
            line = best_line
            return best

        try:
            value = value_of(root, 0)
        finally:
            counters.nodes, counters.leaves = nodes, leaves
            counters.repetitions, counters.deepest = repetitions, deepest
        if line is None:  # the root is terminal, or cut off at depth 0
            return Outcome(value, None, [], hit_horizon=horizon > 0, tracer=tracer)
        first, rest = line
        return Outcome(
            value, first, pv_from_line(first, rest), root_values,
            {move: "exact" for move in root_values}, hit_horizon=horizon > 0, tracer=tracer,
        )

    return iterate
