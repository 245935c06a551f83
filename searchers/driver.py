"""The one depth-first search behind minimax, alpha-beta and expectiminimax.

Every node goes through the same steps, written once here: the budget (time, nodes,
progress, Ctrl-C), a finished game scored by its utility, a position repeated on the
current line scored by the game's repetition rule, the depth limit scored by the
evaluation, the transposition table's answer, and only then the node's own work: the
best move of a MAX or MIN node (with alpha-beta cut-offs when ``prune``), or the
expected value of a chance node.  The principal variation is extended past a table
answer by searching on from where it stopped, with this same code.

The searchers in ``minimax.py``, ``alphabeta.py`` and ``expectiminimax.py`` are short
entry points that choose a ``SearchConfig``.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from functools import lru_cache
from random import Random
from typing import TYPE_CHECKING, Any, cast

from . import _hot
from ._fold import SOMETHING, Fact, specialised
from ._common import (
    UNLIMITED,
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
from .ordering import MoveOrderer, hint_first
from .protocol import (
    Game, Move, Player, State, Value, check_merge, has_chance, has_position, no_moves_error, position_key,
    position_of, repetition_scorer, rules_of, utility_bounds,
)
from .results import EXACT, LOWER, UPPER, Bound, ChanceCycleMet, GameError, NodeKind, SearchResult
from .table import CUT_OFF_BELOW, DEFAULT_MEMORY, DROPPED_BELOW, TranspositionTable, capacity_for

if TYPE_CHECKING:  # mypy checks per-node code with typeguard's own decorator
    from typeguard import typeguard_ignore
else:  # typeguard recognises that name; at run time the stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore

INFINITY = float("inf")
NEGATIVE_INFINITY = -INFINITY  # a name, not a negation at every node
_MERGE_CHECKS = 64  # pairs of states of one position checked, at most, in one search
_MERGE_LOOKS = 1_024  # table hits of another state looked at for them, at most (mirror images are not checked)


@dataclass(frozen=True)
class SearchConfig:
    """What the depth-first search does at each node: the searcher and its refinements."""

    algorithm: str
    prune: bool = False  # alpha-beta cut-offs
    table: bool = False
    memory: int | None = None  # the table's size limit in bytes (None: DEFAULT_MEMORY)
    ordering: bool = False
    ordering_plies: int | None = None  # evaluation ordering only above this ply (None: everywhere)
    killers: bool = False
    history: bool = False
    beam: int | None = None
    symmetry: bool = False
    stop_at_chance_cycle: bool = False  # raise ChanceCycleMet rather than score the repetition


def search_game(
    game: Game,
    state: State | None,
    config: SearchConfig,
    *,
    depth: int | None,
    time: float | None,
    max_nodes: int | None,
    trace: bool,
    progress: Callable[[Progress], None] | None,
) -> SearchResult:
    """Search ``state`` (default: the initial state) as ``config`` says and report the result.

    ``depth`` cuts the search off and evaluates; ``time`` or ``max_nodes`` deepen it
    iteratively within that budget.  The callers have checked the game and the limits.
    """

    def make_iterate(
        root: State, counters: Counters, budget: Budget, stack: DeepRecursion
    ) -> Callable[[int, Outcome | None], Outcome]:
        depth_first = _specialised_depth_first(_facts(game, config, trace))
        return depth_first(game, root, config, counters, budget, stack, trace)

    return search_from(
        game, state, make_iterate, depth=depth, time=time, max_nodes=max_nodes,
        progress=progress, algorithm=config.algorithm, traced=trace,
    )


def _root_bound(value: Value, alpha: Value, beta: Value, floor: Value, ceiling: Value) -> Bound:
    """Whether a root move's value is exact or a bound, given the window it was searched with
    and the range its value cannot leave (a bound at an end of the range is exact)."""
    if value <= alpha and value > floor:
        return UPPER
    return LOWER if value >= beta and value < ceiling else EXACT


def _root_window(game: Game, root: State, config: SearchConfig, unlimited: bool) -> tuple[Value, Value]:
    """The range of the values a search of ``root`` can meet (a window of its own for
    alpha-beta): payoffs of finished games and repetitions, when the search goes to the end and
    the game says their range (``utility_bounds``); else unbounded. Only the side of the root's
    opponent is narrowed, so that every root move still gets a value."""
    bounds = utility_bounds(game) if config.prune and unlimited else None
    if bounds is None or game.is_terminal(root) or (has_chance(game) and game.is_chance(root)):
        return NEGATIVE_INFINITY, INFINITY
    if game.to_move(root) == game.players[0]:
        return bounds[0], INFINITY
    return NEGATIVE_INFINITY, bounds[1]


def _make_table(game: Game, root: State, config: SearchConfig) -> TranspositionTable | None:
    if not config.table:
        return None
    memory = DEFAULT_MEMORY if config.memory is None else config.memory
    return TranspositionTable(capacity_for(memory, root, config.symmetry))


def _wants_orderer(config: SearchConfig) -> bool:
    return config.ordering or config.killers or config.history or config.beam is not None


def _make_orderer(game: Game, config: SearchConfig) -> MoveOrderer | None:
    if not _wants_orderer(config):
        return None
    return MoveOrderer(
        game, by_evaluation=config.ordering, evaluation_plies=config.ordering_plies,
        killers=config.killers, history=config.history, beam=config.beam,
    )


def _depth_first(
    game: Game,
    root: State,
    config: SearchConfig,
    counters: Counters,
    budget: Budget,
    stack: DeepRecursion,
    trace: bool,
) -> Callable[[int, Outcome | None], Outcome]:
    """A function searching ``root`` to a given depth, updating ``counters``.

    The table, killer moves and history persist from one iteration to the next.
    """
    rules = rules_of(game)
    max_player = rules.players[0]
    to_move, actions, result = rules.to_move, rules.actions, rules.result
    is_terminal, utility, is_chance = rules.is_terminal, rules.utility, rules.is_chance
    # A search that reaches a cut-off is refused before it starts when the game cannot
    # evaluate, and only a game with chance nodes lists outcomes.
    evaluate = cast(Callable[[State, Player], Value], rules.evaluate)
    chance_outcomes = cast(Callable[[State], Sequence[tuple[Move, Value]]], rules.chance_outcomes)
    score_repetition = repetition_scorer(game)
    key_of = position_key(game, config.symmetry)
    # A position repeats on the line of play when its ``position`` does: a field the position
    # leaves out (a move counter) must not hide a repetition.
    at_position = position_of(game)
    # The table's key where it is not the position (under symmetry), else None.
    other_key = None if key_of == at_position else key_of  # bound methods: equal, not the same object
    # A key that merges the states of one position trusts the game's `position`: the first
    # merges are checked (both states' moves and the positions they lead to, along a line of
    # play to the end), as the strong solver checks a sample of the states it merges.
    merge_checks, merge_looks = (_MERGE_CHECKS, _MERGE_LOOKS) if config.table and has_position(game) else (0, 0)
    choose = Random(0)  # the lines of play of those checks: the same in every run
    prune = config.prune
    table = _make_table(game, root, config)
    counters.table = table
    capacity = 0 if table is None else table.capacity
    orderer = _make_orderer(game, config)
    ordered_above = 0 if orderer is None else orderer.plain_from
    # With cut-offs, the table's move often refutes a position on its own; a beam must rank
    # every move to keep the best.
    staged = prune and config.beam is None
    windowed = prune  # whether the trace shows alpha and beta

    @typeguard_ignore
    def iterate(max_depth: int, previous: Outcome | None) -> Outcome:
        hints = {} if previous is None else _line_hints(game, root, previous.pv, key_of)
        nodes, leaves, cutoffs = counters.nodes, counters.leaves, counters.cutoffs
        table_hits, repetitions = counters.table_hits, counters.repetitions
        deepest = counters.deepest
        horizon = dropped_moves = chance_cycles = 0
        check_at = budget.next_check(nodes)
        # The positions on the current line (their ``position`` where the game has one), each
        # with the number of chance nodes above it, to catch repetitions and tell whether dice
        # lie on the cycle.
        path: dict[Hashable, int] = {}
        chance_depth = 0
        top = 0  # the ply searched from: the table never answers for the node asked about
        root_values: dict[Move, Value] = {}
        budget.root_values = root_values  # what an interrupted search can still report
        root_bounds: dict[Move, Bound] = {}
        budget.root_bounds = root_bounds
        unlimited = max_depth == UNLIMITED
        floor, ceiling = _root_window(game, root, config, unlimited)
        line: Line = None  # principal variation below the node just searched
        tracer = Tracer() if trace else None
        ply_limit = min(max_depth, stack.mark)

        @typeguard_ignore
        def search(state: State, alpha: Value, beta: Value, ply: int) -> Value:
            """The value of ``state`` (fail-soft: a bound if outside alpha..beta)."""
            nonlocal nodes, leaves, table_hits, repetitions, deepest, horizon, check_at, line
            nonlocal chance_cycles, ply_limit, cutoffs, dropped_moves, merge_checks, merge_looks
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
                    tracer.leaf(state, None, ply, value, "utility", window(alpha, beta))
                return value
            chance = is_chance is not None and is_chance(state)
            here = state if at_position is None else at_position(state)
            on_path = len(path)
            # Adding and then counting hashes the position once, not twice.
            first_seen = path.setdefault(here, chance_depth)
            if len(path) == on_path:
                repetitions += 1
                if chance_depth > first_seen:
                    chance_cycles += 1  # the cycle passes through the dice: not a rule of the game
                    if config.stop_at_chance_cycle:
                        raise ChanceCycleMet(ply)
                line = None
                value = score_repetition(state)
                if tracer is not None:
                    tracer.leaf(state, mover(state, chance), ply, value, "repetition", window(alpha, beta))
                return value
            if ply >= ply_limit:  # the depth limit, or deep enough to need more stack
                if ply == max_depth:
                    del path[here]
                    leaves += 1
                    horizon += 1
                    line = None
                    value = evaluate(state, max_player)
                    if tracer is not None:
                        tracer.leaf(state, mover(state, chance), ply, value, "evaluation", window(alpha, beta))
                    return value
                ply_limit = min(max_depth, stack.grow(ply))
            hint = key = None
            if table is not None:
                key = here if other_key is None else other_key(state)
                if hints:
                    hint = hints.get(key)
                # What this node's search adds to these, to tell whether it may be stored.
                horizon_before, repetitions_before, nodes_before = horizon, repetitions, nodes
                dropped_before = dropped_moves
                entry = table.get(key) if ply != top else None
                if entry is not None:
                    if merge_looks and entry[5] != state:
                        merge_looks -= 1
                        if check_merge(game, entry[5], state, choose):
                            merge_checks -= 1
                            if not merge_checks:
                                merge_looks = 0
                    stored, bound, draft, gaps, stored_move = entry[0], entry[1], entry[2], entry[3], entry[4]
                    remaining = max_depth - ply
                    # A complete entry (no gaps) saw only finished games below it: in a search to
                    # the end its value holds at any depth; in a depth-limited one, only with more
                    # depth left.  An entry cut off below holds at the same depth, unless positions
                    # repeat in this game: then a line cut off there may come back to a position on
                    # this line, a repetition where it was an evaluation.
                    if ((not gaps and (unlimited or remaining >= draft))
                            or (draft == remaining and not repetitions)) and (
                        bound == EXACT
                        or (bound == LOWER and stored >= beta)
                        or (bound == UPPER and stored <= alpha)
                    ):
                        del path[here]
                        table_hits += 1
                        if gaps:
                            horizon += bool(gaps & CUT_OFF_BELOW)
                            dropped_moves += bool(gaps & DROPPED_BELOW)
                        line = None
                        if tracer is not None:
                            tracer.leaf(state, mover(state, chance), ply, stored, "table",
                                        window(alpha, beta), bound)
                        return stored
                    if stored_move is not None:  # the move best here before is likely best again
                        hint = stored_move
            if chance:
                return average(state, here, key, ply)
            # The moves of a MAX or MIN node, the hint first; written here rather than in a
            # function of its own, which would cost a call at every node.
            player = to_move(state)
            maximizing = player == max_player
            moves = actions(state)
            if not moves:
                raise no_moves_error(game, state)
            next_child = skipped = later = None
            if orderer is not None and ply < ordered_above:
                if hint is not None and staged and hint in moves:
                    # The hint alone first: the other moves are ranked (a child and an
                    # evaluation each) only if it does not cut off.
                    later, moves = moves, (hint,)
                else:
                    moves, children, skipped = orderer.order(state, moves, maximizing, ply, hint)
                    if children is not None:
                        next_child = iter(children).__next__
                    if skipped:
                        dropped_moves += len(skipped)
            elif table is not None and hint is not None:  # only the table gives hints
                moves = hint_first(moves, hint)
            alpha0, beta0 = alpha, beta
            if tracer is not None:
                tracer.open()
                pruned = None
            # Any value beats the starting one, so the first move is always taken.
            best: Value = NEGATIVE_INFINITY if maximizing else INFINITY
            best_move: Move = moves[0]
            best_line: Line = None
            while True:  # once, or twice when the moves after the hint are ranked later
                for move in moves:
                    child = next_child() if orderer is not None and next_child is not None else result(state, move)
                    value = search(child, alpha, beta, ply + 1)
                    if tracer is not None or not ply:  # one test a child for the two rare cases
                        if tracer is not None:
                            tracer.label(move)
                        if not ply:
                            root_values[move] = value
                            root_bounds[move] = _root_bound(value, alpha, beta, floor, ceiling)
                    if value > best if maximizing else value < best:
                        best, best_move, best_line = value, move, (move, line)
                        if prune:
                            if maximizing:
                                if value > alpha:
                                    alpha = value
                            elif value < beta:
                                beta = value
                            if alpha >= beta:
                                if orderer is not None:
                                    orderer.reward(move, maximizing, ply, max_depth - ply)
                                if move is not moves[-1] or (later is not None and len(later) > 1):
                                    cutoffs += 1
                                    if tracer is not None:
                                        rest = moves[moves.index(move) + 1:]
                                        pruned = [*rest, *(m for m in later or () if m != move)]
                                break
                else:
                    if orderer is not None and later is not None:  # the hint did not cut off: rank the others
                        rest = [m for m in later if m != moves[0]]
                        moves, children, skipped = orderer.order(state, rest, maximizing, ply, None)
                        if children is not None:
                            next_child = iter(children).__next__
                        later = None
                        continue
                break
            del path[here]
            if table is not None and repetitions == repetitions_before:
                bound = LOWER if best >= beta0 else UPPER if best <= alpha0 else EXACT
                table[key] = (best, bound, max_depth - ply,
                              (horizon != horizon_before) * CUT_OFF_BELOW
                              | (dropped_moves != dropped_before) * DROPPED_BELOW,
                              best_move, state, nodes - nodes_before)
                if len(table) > capacity:
                    table.make_room()
            if tracer is not None:
                bound = LOWER if best >= beta0 else UPPER if best <= alpha0 else EXACT
                kind: NodeKind = "max" if maximizing else "min"
                tracer.close(state, player, kind, ply, window(alpha0, beta0), best, bound,
                             pruned, skipped)
            line = best_line
            return best

        @typeguard_ignore
        def average(state: State, here: Hashable, key: Hashable, ply: int) -> Value:
            """The expected value of a chance node: its outcomes weighed by their probabilities."""
            nonlocal chance_depth, line
            outcomes = chance_outcomes(state)
            if not outcomes:
                raise GameError(f"chance node {state!r} has no outcomes")
            if table is not None:
                horizon_before, repetitions_before, nodes_before = horizon, repetitions, nodes
                dropped_before = dropped_moves
            chance_depth += 1
            if tracer is not None:
                tracer.open()
            total: Value = 0
            for outcome, probability in outcomes:
                value = search(result(state, outcome), NEGATIVE_INFINITY, INFINITY, ply + 1)
                if tracer is not None:
                    tracer.label(outcome, probability)
                if not ply:
                    root_values[outcome] = value
                    root_bounds[outcome] = EXACT
                total += probability * value
            chance_depth -= 1
            del path[here]
            if table is not None and repetitions == repetitions_before:
                table[key] = (total, EXACT, max_depth - ply,
                              (horizon != horizon_before) * CUT_OFF_BELOW
                              | (dropped_moves != dropped_before) * DROPPED_BELOW,
                              None, state, nodes - nodes_before)
                if len(table) > capacity:
                    table.make_room()
            if tracer is not None:
                tracer.close(state, None, "chance", ply, (None, None), total)
            line = None  # a principal variation stops where the dice decide
            return total

        def window(alpha: Value, beta: Value) -> tuple[Value | None, Value | None]:
            return (alpha, beta) if windowed else (None, None)

        def mover(state: State, chance: bool) -> Any:
            return None if chance else to_move(state)

        def extend(pv: list[Move]) -> None:
            """Continue ``pv`` past the table answers that ended it, searching on from its end.

            The end's value is in the table, so the search there is short; it does not count
            in the statistics, and the line so far is on the path, as it was in the search.
            """
            nonlocal top, tracer, nodes, leaves, cutoffs, table_hits, repetitions, deepest
            nonlocal horizon, dropped_moves, chance_cycles
            saved = (nodes, leaves, cutoffs, table_hits, repetitions, deepest, horizon,
                     dropped_moves, chance_cycles, tracer)
            tracer = None
            on_line = [root]
            for move in pv:
                on_line.append(result(on_line[-1], move))
            try:
                while len(pv) < max_depth:
                    end = on_line[-1]
                    line_positions = on_line if at_position is None else list(map(at_position, on_line))
                    if is_terminal(end) or line_positions[-1] in line_positions[:-1]:
                        return
                    if is_chance is not None and is_chance(end):
                        return
                    path.clear()
                    path.update((here, 0) for here in line_positions[:-1])
                    top = len(pv)
                    search(end, -INFINITY, INFINITY, top)
                    if line is None:
                        return
                    for move in pv_from_line(*line):
                        pv.append(move)
                        on_line.append(result(on_line[-1], move))
            except KeyboardInterrupt:
                pass  # the line found so far stands
            finally:
                (nodes, leaves, cutoffs, table_hits, repetitions, deepest, horizon,
                 dropped_moves, chance_cycles, tracer) = saved
                top = 0

        try:
            value = search(root, floor, ceiling, 0)
        finally:
            counters.nodes, counters.leaves, counters.cutoffs = nodes, leaves, cutoffs
            counters.table_hits, counters.repetitions = table_hits, repetitions
            counters.deepest = deepest
        if line is None:  # the root is terminal, a chance node or cut off at depth 0
            return Outcome(
                value, None, [], dict(root_values), dict(root_bounds), hit_horizon=horizon > 0,
                tracer=tracer, chance_cycles=chance_cycles,
            )
        first, rest = line
        pv = pv_from_line(first, rest)
        if table is not None:
            extend(pv)
        root_moves = list(actions(root))
        return Outcome(
            value, first, pv, in_game_order(root_moves, root_values),
            in_game_order(root_moves, root_bounds), hit_horizon=horizon > 0,
            dropped=dropped_moves > 0, tracer=tracer, chance_cycles=chance_cycles,
        )

    return iterate


def _facts(game: Game, config: SearchConfig, trace: bool) -> tuple[tuple[str, Fact], ...]:
    """What ``_depth_first`` knows before it starts, for this search: which refinements are
    off never change during it, so their tests are folded out of the code."""
    facts: dict[str, Fact] = {
        "table": SOMETHING if config.table else None,
        "orderer": SOMETHING if _wants_orderer(config) else None,
        "is_chance": None if rules_of(game).is_chance is None else SOMETHING,
        "prune": config.prune,
    }
    if not trace:  # with a trace, `extend` sets the tracer aside for a while
        facts["tracer"] = None
    return tuple(sorted(facts.items(), key=lambda fact: fact[0]))


@lru_cache(maxsize=None)
def _specialised_depth_first(facts: tuple[tuple[str, Fact], ...]) -> Callable[..., Callable[[int, Outcome | None], Outcome]]:
    """``_depth_first`` with ``facts`` folded in: a node runs no test of a refinement that is off."""
    return specialised(_depth_first, dict(facts))


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
