"""Alpha-beta search (AIMA's ALPHA-BETA-SEARCH) and its opt-in refinements.

The refinements (transposition table, move ordering, killer moves, history
heuristic, symmetry) change how many nodes are searched, never the value.
Iterative deepening (``time``/``max_nodes``) and the beam trade exactness for
time, and say so in the result.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable
from dataclasses import dataclass
from time import perf_counter
# typeguard skips functions with this decorator (its typeguard_ignore is the same
# object); imported from typing so that typeguard is not needed at run time.
from typing import Any, no_type_check as typeguard_ignore

from ._common import UNLIMITED, Budget, Counters, Outcome, Progress, Tracer, in_game_order, pv_from_line, run
from .minimax import no_moves_error
from .ordering import MoveOrderer, hint_first
from .protocol import (
    Game,
    Move,
    State,
    Value,
    check_limits,
    limits_need_evaluation,
    position_key,
    repetition_scorer,
    require_evaluation,
    require_no_chance,
    require_two_player_zero_sum,
)
from .results import SearchResult

EXACT, LOWER, UPPER = "exact", "lower", "upper"
INFINITY = float("inf")

# A table entry: (value, bound, draft, complete, best move, state).  ``draft`` is
# the depth that was left to search; ``complete`` says no state below was cut
# off, so the value holds for any larger draft too.
Entry = tuple[Value, str, int, bool, Move | None, State]


@dataclass(frozen=True)
class AlphaBetaOptions:
    """Which refinements an alpha-beta search uses."""

    table: bool = False
    ordering: bool = False
    killers: bool = False
    history: bool = False
    beam: int | None = None
    symmetry: bool = False


def alphabeta(
    game: Game,
    state: State | None = None,
    *,
    depth: int | None = None,
    table: bool = False,
    ordering: bool = False,
    killers: bool = False,
    history: bool = False,
    time: float | None = None,
    max_nodes: int | None = None,
    beam: int | None = None,
    symmetry: bool = False,
    trace: bool = False,
    progress: Callable[[Progress], None] | None = None,
) -> SearchResult:
    """Minimax value and best move of ``state`` by alpha-beta search.

    ``depth`` cuts the search off and evaluates; ``time``/``max_nodes`` deepen
    iteratively within that budget; ``table``, ``ordering``, ``killers``,
    ``history`` and ``symmetry`` (table keys by ``game.canonical``) only speed it
    up; ``beam=N`` searches only the N best moves by evaluation at each node.

    ``progress`` is called with a ``Progress`` about four times a second once the search
    has run for a second; Ctrl-C returns the best result found so far, marked
    ``interrupted`` and not exact.
    """
    require_two_player_zero_sum(game, "alphabeta")
    require_no_chance(game, "alphabeta")
    check_limits(depth=depth, time=time, max_nodes=max_nodes, beam=beam)
    limits_need_evaluation(game, "alphabeta", depth, time, max_nodes)
    if beam is not None:
        require_evaluation(game, "alphabeta with a beam (it ranks moves by evaluation)")
    started = perf_counter()
    root = game.initial_state() if state is None else state
    options = AlphaBetaOptions(table, ordering, killers, history, beam, symmetry)
    counters, budget = Counters(), Budget(time, max_nodes, progress)
    iterate = _alphabeta_iterations(game, root, options, counters, budget, trace)
    deepening = time is not None or max_nodes is not None
    return run(
        game, root, iterate, counters, budget,
        depth=depth, deepening=deepening, algorithm="alphabeta", started=started,
    )


def _root_bound(value: Value, alpha: Value, beta: Value) -> str:
    """Whether a root move's value is exact or a bound, given the window it was searched with."""
    return UPPER if value <= alpha else LOWER if value >= beta else EXACT


def _alphabeta_iterations(
    game: Game,
    root: State,
    options: AlphaBetaOptions,
    counters: Counters,
    budget: Budget,
    trace: bool,
) -> Callable[[int, Outcome | None], Outcome]:
    """A function searching ``root`` by alpha-beta to a given depth, updating ``counters``.

    The table, killer moves and history persist from one iteration to the next.
    """
    max_player = game.players[0]
    to_move, actions, result = game.to_move, game.actions, game.result
    is_terminal, utility = game.is_terminal, game.utility
    evaluate = getattr(game, "evaluate", None)
    score_repetition = repetition_scorer(game)
    key_of = position_key(game, options.symmetry)
    table: dict[Hashable, Entry] | None = {} if options.table else None
    table_move_first = options.ordering and table is not None
    orderer = None
    if options.ordering or options.killers or options.history or options.beam is not None:
        orderer = MoveOrderer(
            game, by_evaluation=options.ordering, killers=options.killers,
            history=options.history, beam=options.beam,
        )

    def iterate(max_depth: int, previous: Outcome | None) -> Outcome:
        hints = {} if previous is None else _line_hints(game, root, previous.pv, key_of)
        nodes, leaves, cutoffs = counters.nodes, counters.leaves, counters.cutoffs
        table_hits, repetitions = counters.table_hits, counters.repetitions
        deepest = counters.deepest
        horizon = dropped_moves = 0
        check_at = budget.next_check(nodes)
        path: set[Hashable] = set()  # positions on the current line, to catch repetitions
        root_values: dict = {}
        budget.root_values = root_values  # what an interrupted search can still report
        root_bounds: dict = {}
        budget.root_bounds = root_bounds
        unlimited = max_depth == UNLIMITED
        line = None  # principal variation below the node just searched, as (move, rest)
        tracer = Tracer() if trace else None

        @typeguard_ignore
        def search(state, alpha, beta, ply):
            """The value of ``state`` (fail-soft: a bound if outside alpha..beta)."""
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
                    tracer.leaf(state, None, ply, value, "utility", (alpha, beta))
                return value
            key = state if key_of is None else key_of(state)
            if state in path:  # the very position, not a symmetric one: that is no repetition
                repetitions += 1
                line = None
                value = score_repetition(state)
                if tracer is not None:
                    tracer.leaf(state, to_move(state), ply, value, "repetition", (alpha, beta))
                return value
            if ply == max_depth:
                leaves += 1
                horizon += 1
                line = None
                value = evaluate(state, max_player)
                if tracer is not None:
                    tracer.leaf(state, to_move(state), ply, value, "evaluation", (alpha, beta))
                return value
            hint = hints.get(key) if hints else None
            if table is not None and ply:
                entry = table.get(key)
                if entry is not None:
                    stored, bound, draft, complete, stored_move, _ = entry
                    remaining = max_depth - ply
                    # A complete entry saw only finished games below it: in a search to the end
                    # its value holds at any depth; in a depth-limited one, only with more depth left.
                    if (draft == remaining or (complete and (unlimited or remaining > draft))) and (
                        bound == EXACT
                        or (bound == LOWER and stored >= beta)
                        or (bound == UPPER and stored <= alpha)
                    ):
                        table_hits += 1
                        if not complete:
                            horizon += 1
                        line = None
                        if tracer is not None:
                            tracer.leaf(state, to_move(state), ply, stored, "table",
                                        (alpha, beta), bound)
                        return stored
                    if table_move_first and stored_move is not None:
                        hint = stored_move
            return expand(state, key, alpha, beta, ply, hint)

        @typeguard_ignore
        def expand(state, key, alpha, beta, ply, hint):
            """Search the moves of ``state``, ``hint`` first, and store what was learnt."""
            nonlocal cutoffs, dropped_moves, line
            player = to_move(state)
            maximizing = player == max_player
            moves = actions(state)
            if not moves:
                raise no_moves_error(game, state)
            children = skipped = None
            if orderer is not None:
                moves, children, skipped = orderer.order(state, moves, maximizing, ply, hint)
                if skipped:
                    dropped_moves += len(skipped)
            elif hint is not None:
                moves = hint_first(moves, hint)
            path.add(state)
            horizon_before, repetitions_before = horizon, repetitions
            alpha0, beta0 = alpha, beta
            if tracer is not None:
                tracer.open()
            best = best_move = best_line = pruned = None
            for i, move in enumerate(moves):
                child = result(state, move) if children is None else children[i]
                value = search(child, alpha, beta, ply + 1)
                if tracer is not None:
                    tracer.label(move)
                if not ply:
                    root_values[move] = value
                    root_bounds[move] = _root_bound(value, alpha, beta)
                if best is None or (value > best if maximizing else value < best):
                    best, best_move, best_line = value, move, (move, line)
                    if maximizing:
                        if value > alpha:
                            alpha = value
                    elif value < beta:
                        beta = value
                    if alpha >= beta:
                        if orderer is not None:
                            orderer.reward(move, maximizing, ply, max_depth - ply)
                        if i + 1 < len(moves):
                            cutoffs += 1
                            if tracer is not None:
                                pruned = list(moves[i + 1:])
                        break
            path.discard(state)
            bound = LOWER if best >= beta0 else UPPER if best <= alpha0 else EXACT
            if table is not None and repetitions == repetitions_before:
                complete = horizon == horizon_before
                table[key] = (best, bound, max_depth - ply, complete, best_move, state)
            if tracer is not None:
                kind = "max" if maximizing else "min"
                tracer.close(state, player, kind, ply, (alpha0, beta0), best, bound,
                             pruned, skipped)
            line = best_line
            return best

        try:
            value = search(root, -INFINITY, INFINITY, 0)
        finally:
            counters.nodes, counters.leaves, counters.cutoffs = nodes, leaves, cutoffs
            counters.table_hits, counters.repetitions = table_hits, repetitions
            counters.deepest = deepest
        if line is None:  # the root is terminal, or cut off at depth 0
            return Outcome(value, None, [], hit_horizon=horizon > 0, tracer=tracer)
        first, rest = line
        pv = pv_from_line(first, rest)
        if table is not None:
            _extend_from_table(game, root, pv, table, key_of, max_depth)
        root_moves = list(actions(root))
        return Outcome(
            value, first, pv, in_game_order(root_moves, root_values),
            in_game_order(root_moves, root_bounds), hit_horizon=horizon > 0,
            dropped=dropped_moves > 0, tracer=tracer,
        )

    return iterate


def _line_hints(
    game: Game, root: State, pv: list[Move], key_of: Callable[[State], Hashable] | None
) -> dict[Hashable, Move]:
    """The previous iteration's principal variation as {position: move to try first}."""
    hints: dict[Hashable, Move] = {}
    state = root
    for move in pv:
        hints.setdefault(state if key_of is None else key_of(state), move)
        state = game.result(state, move)
    return hints


def _extend_from_table(
    game: Game,
    root: State,
    pv: list[Move],
    table: dict[Hashable, Any],
    key_of: Callable[[State], Hashable] | None,
    max_depth: int,
) -> None:
    """Continue ``pv`` past a table hit, following exact table entries."""
    state = root
    for move in pv:
        state = game.result(state, move)
    seen: set[Hashable] = set()
    while len(pv) < max_depth and not game.is_terminal(state):
        key = state if key_of is None else key_of(state)
        entry = _exact_entry(table, key, max_depth - len(pv))
        if entry is None or key in seen:
            return
        seen.add(key)
        value, move, stored_state = entry[0], entry[4], entry[5]
        # Under symmetry the entry may come from a mirror image, whose best move
        # need not be this state's: then find a move that keeps the value.
        if stored_state != state:
            move = _move_keeping(game, state, value, table, key_of, max_depth - len(pv) - 1)
        if move is None:
            return
        pv.append(move)
        state = game.result(state, move)


def _exact_entry(table: dict[Hashable, Any], key: Hashable, remaining: int) -> Entry | None:
    """The table's entry for ``key`` if it holds an exact value valid at ``remaining`` depth."""
    entry = table.get(key)
    if entry is None or entry[1] != EXACT:
        return None
    draft, complete = entry[2], entry[3]
    return entry if draft == remaining or (complete and remaining > draft) else None


def _move_keeping(
    game: Game,
    state: State,
    value: Value,
    table: dict[Hashable, Any],
    key_of: Callable[[State], Hashable] | None,
    remaining: int,
) -> Move | None:
    """A move from ``state`` to a child whose known exact value is ``value``, if any."""
    first = game.players[0]
    for move in game.actions(state):
        child = game.result(state, move)
        if game.is_terminal(child):
            known = game.utility(child, first)
        else:
            entry = _exact_entry(table, child if key_of is None else key_of(child), remaining)
            known = None if entry is None else entry[0]
        if known is not None and known == value:
            return move
    return None
