"""Strong solving in one process: every reachable position's value, remoteness and best move.

The graph of positions is found first (``graph.discover``); then the part where every line
of play ends without a cycle is solved by backward induction, finished games first; what is
left is split into strongly connected components, solved successors first: a component
without dice by retrograde analysis (``retrograde``), one with dice by value iteration and,
when small enough, exact policy iteration (``stochastic``, ``policy``).
"""

from __future__ import annotations

import math
import os
from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass, field, replace
from functools import cached_property
from itertools import chain
from pathlib import Path
from time import perf_counter
from typing import Any

from .._common import root_player
from ..protocol import Game, Move, State, Value, has_chance, position_of, require_two_player_zero_sum
from ..results import SearchError
from .graph import CHANCE, FIXED, TERMINAL, Graph, GrowthProgress, discover
from .retrograde import solve_cycle
from .solution import (
    BOUNDS_APART, FLOAT_ODDS, FLOAT_SCORES, NEVER, NO_MOVE, SHORT_OF_TOLERANCE, VARYING_REPETITION, Solution,
    backward_induction, capped_residual, repetition_scores, solve_nodes, strongly_connected,
)
from . import policy
from .stochastic import solve_chance_cycle
from .tablebase import TablebaseWriter, rows_of

DEFAULT_TOLERANCE = 1e-12
"""Value iteration stops when no value changes by this much in a sweep."""
OUTCOMES_KEPT = 1000
"""The most different values whose counts a tablebase's metadata keeps (``solved_meta``)."""


@dataclass(frozen=True)
class StrongProgress:
    """How a strong solve is going, for a progress display."""

    phase: str  # "discovering", "solving" or "writing"
    positions: int  # positions found so far
    done: int  # positions expanded, solved or written in this phase
    seconds: float
    tier: int | None = None  # the tier at work, in a solve by tiers


@dataclass(frozen=True)
class StrongStats:
    """Timing of a strong solve."""

    seconds: float
    positions_per_second: float
    discover_seconds: float = 0.0
    solve_seconds: float = 0.0
    write_seconds: float | None = 0.0  # None by tiers: each tier is written as it is solved (in solve_seconds)
    workers: int = 1
    tiers: int = 0  # the number of tiers solved one by one (0: the whole graph in memory)
    where: str = "one process"  # "2 worker processes", "Ray tasks on 2 CPUs"
    # Of ``seconds`` (and ``discover_seconds``): starting the worker processes or Ray (each
    # worker then builds its game as its first work comes, counted in discovering).
    start_seconds: float = 0.0


@dataclass
class SolvedTable:
    """Every position's value, remoteness and best move, in memory."""

    graph: Graph
    solution: Solution
    position: Callable[[State], Hashable] | None = None

    def node(self, state: State) -> int:
        """The node of ``state``; KeyError if it is not reachable from the start."""
        return self.graph.positions[state if self.position is None else self.position(state)]

    def value(self, state: State) -> Value:
        """The value of ``state`` for the first player."""
        return self.solution.solved[self.node(state)]

    def remoteness(self, state: State) -> int | None:
        """Plies to the end under perfect play (None: it can be put off for ever, or dice decide)."""
        r = self.solution.remoteness[self.node(state)]
        return None if r == NEVER else r

    def best_move_index(self, state: State) -> int | None:
        """The index in ``actions(state)`` of the best move (None at an end or a chance node)."""
        best = self.solution.best[self.node(state)]
        return None if best == NO_MOVE else best

    def best_move(self, game: Game, state: State, slack: float = 0.0) -> Move | None:
        """The best move of ``state`` (None at an end or a chance node), one that keeps the
        value (within ``slack``) where an equal state lists its moves in another order
        (``kept_move``)."""
        value, remoteness, best = self.answer(state)
        if best == NO_MOVE:
            return None
        return kept_move(game, state, game.actions(state), best, self.answer, value, remoteness, slack)

    def answer(self, state: State) -> tuple[Value, int, int]:
        """The value, remoteness (NEVER: none) and best move's index (NO_MOVE: none) of ``state``."""
        node = self.node(state)
        return self.solution.solved[node], self.solution.remoteness[node], self.solution.best[node]


@dataclass(frozen=True)
class StrongResult:
    """A strong solve: the start's value and best move, and figures about every position.

    ``exact`` is True only when every value is proven: by backward induction, retrograde
    analysis, or policy iteration with its certificate; after value iteration it is False and
    ``residual`` bounds how far any value may be from the game's (up to the floats' rounding).  ``outcomes`` counts the positions by
    value; ``remoteness`` is the start's (None where the end can be put off for ever or dice
    decide).  ``table`` holds every position's answer when the solve was made in memory.
    ``has_chance`` tells whether a chance node was met (a game may declare dice it never throws:
    then it is solved, remoteness too, as a game without).  ``endless`` counts the positions
    whose end can be put off for ever, worth the ``repetition`` score (None where dice decide:
    no remoteness is kept there to tell them).  ``principal_variation`` is the line of best
    moves from the start (``best_line``).
    """

    value: Value
    exact: bool
    method: str
    positions: int
    terminal: int
    outcomes: dict[Value, int]
    remoteness: int | None
    max_remoteness: int | None
    best_move: Move | None
    move_values: dict[Move, Value]
    move_remoteness: dict[Move, int | None]
    to_move: str | None
    stats: StrongStats
    tolerance: float = DEFAULT_TOLERANCE
    residual: float = 0.0
    table: SolvedTable | None = field(default=None, repr=False)
    has_chance: bool = False
    endless: int | None = None
    inexact_reason: str | None = None  # why ``exact`` is False, in words
    principal_variation: tuple[Move, ...] = ()

    @cached_property
    def outcome_counts(self) -> dict[str, int]:
        """The number of positions of each value, the values as text, highest value first;
        made once (a game of dice solved by value iteration has nearly as many values as
        positions: a second or two of formatting for Pig to 100)."""
        counts: dict[str, int] = {}
        for value in sorted(self.outcomes, reverse=True):
            text = value_text(value)
            counts[text] = counts.get(text, 0) + self.outcomes[value]
        return counts


class Reporter:
    """Calls the progress callback at most four times a second after the first second, and at
    once when the phase changes (so that a stop is said of the phase it came in)."""

    def __init__(self, progress: Callable[[StrongProgress], None] | None) -> None:
        """Start the clock."""
        self.progress = progress
        self.started = perf_counter()
        self.next_report = self.started + 1.0
        self.positions = 0
        self.tier: int | None = None
        self.offset = 0  # work done in the phase's earlier tiers
        self.phase = ""  # the phase last reported
        self.untold: StrongProgress | None = None  # the last step, if not reported

    def __call__(self, phase: str, done: int) -> None:
        """Report ``done`` units of work in ``phase`` (beyond ``offset``) if it is time to."""
        if self.progress is None:
            return
        done += self.offset
        now = perf_counter()
        step = StrongProgress(phase, max(self.positions, done), done, now - self.started, self.tier)
        if now >= self.next_report or phase != self.phase:
            if now >= self.next_report:
                self.next_report = now + 0.25
            self.phase, self.untold = phase, None
            self.progress(step)
        else:
            self.untold = step

    def tell_last(self) -> None:
        """Report the last step if it was not: a solve stopped says how far it got."""
        if self.progress is not None and self.untold is not None:
            self.progress(self.untold)
            self.untold = None


def check_game(game: Game, tolerance: float) -> None:
    """Raise SearchError for a game or tolerance the strong solver cannot work with."""
    require_two_player_zero_sum(game, "the strong solver")
    check_settings(tolerance)


def check_settings(tolerance: float, workers: int = 1) -> None:
    """Raise SearchError for a tolerance or a number of worker processes the strong solver
    cannot work with, whatever the game."""
    refused = settings_refused(tolerance, workers)
    if refused is not None:
        raise SearchError(refused)


WORKERS_A_CORE = 4
"""Worker processes a core at most: a few more than the cores may help when some wait; many
more only take turns (a thousand took half a minute to start and stop for tic-tac-toe)."""


def settings_refused(tolerance: float, workers: int, prefix: str = "") -> str | None:
    """Why a strong solve on this machine cannot take this ``tolerance`` or this many
    ``workers``, each named with ``prefix`` (``--`` for the command line's options); None
    when it can."""
    if not 0 < tolerance < math.inf:
        shown = f"{tolerance:g}" if isinstance(tolerance, float) else repr(tolerance)
        return f"{prefix}tolerance must be a positive, finite number (default {DEFAULT_TOLERANCE:g}), not {shown}"
    if isinstance(workers, bool) or workers < 1:
        return f"{prefix}workers must be 1 or more, not {workers!r}"
    cores = os.cpu_count() or 1
    if workers > WORKERS_A_CORE * cores:
        return (f"{prefix}workers {workers} on a machine with {cores} core{'s' if cores != 1 else ''}: "
                f"at most {WORKERS_A_CORE * cores} ({WORKERS_A_CORE} a core); more would only take "
                "turns on the cores, each a process with its own copy of the game")
    return None


def solve_graph(graph: Graph, tolerance: float, report: Reporter, positions: int | None = None) -> Solution:
    """Solve every node of ``graph``: backward induction, then each cycle in turn.  Cycles
    through the dice are made exact only in a game of at most ``policy.EXACT_LIMIT``
    ``positions`` (by default, the graph's size)."""
    solution = Solution.empty(graph.size)
    solved = backward_induction(graph, solution, graph.predecessors(), lambda n: report("solving", n))
    if solved > graph.kind.count(TERMINAL) + graph.kind.count(FIXED):  # a move chosen, or dice thrown
        solution.methods.add("backward induction")
    if solved < graph.size:
        small = (graph.size if positions is None else positions) <= policy.EXACT_LIMIT
        solve_cycles(graph, solution, tolerance, report, solved, small)
    return solution


def solve_cycles(graph: Graph, solution: Solution, tolerance: float, report: Reporter, solved: int,
                 try_exact: bool) -> None:
    """Solve the nodes backward induction left, one strongly connected component at a time."""
    values, kind = solution.value, graph.kind
    open_nodes = [n for n in range(graph.size) if values[n] is None]

    def unsolved(node: int) -> list[int]:
        return [c for c in graph.successors(node) if values[c] is None]

    def tick(sweeps: int, change: float) -> None:
        report("solving", solved)

    for component in strongly_connected(open_nodes, unsolved):
        node = component[0]
        if len(component) == 1 and node not in graph.successors(node):  # after a cycle, but on none
            solve_nodes(graph, solution, (node,))
            solution.methods.add("backward induction")
        elif any(kind[n] == CHANCE for n in component):
            solve_chance_cycle(graph, solution, graph.in_key_order(component), tolerance, tick, try_exact)
        else:
            solve_cycle(graph, solution, component)
        solved += len(component)
        report("solving", solved)


def summarize(
    game: Game,
    graph: Graph,
    solution: Solution,
    stats: StrongStats,
    tolerance: float,
    table: SolvedTable | None,
) -> StrongResult:
    """The StrongResult of a solved graph (node 0 is the start)."""
    outcomes: dict[Value, int] = {}
    for value in solution.solved:
        outcomes[value] = outcomes.get(value, 0) + 1
    finite = [r for r in solution.remoteness if r != NEVER]
    start = game.initial_state()
    residual = capped_residual(solution.residual, chain(graph.utility.values(), (
        repetition_scores(graph.repetition, graph.kind) if isinstance(graph.repetition, list)
        else [graph.repetition])))
    line = () if table is None else best_line(game, start, table.answer, residual)
    return start_result(
        game, start, graph.kind[0], [solution.solved[c] for c in graph.successors(0)],
        [solution.remoteness[c] for c in graph.successors(0)],
        value=solution.solved[0], remoteness=solution.remoteness[0], best=solution.best[0],
        exact=solution.exact, methods=solution.methods, positions=graph.size,
        terminal=sum(1 for k in graph.kind if k == TERMINAL), outcomes=outcomes,
        max_remoteness=max(finite) if finite and not graph.has_chance else None,
        endless=None if graph.has_chance else solution.remoteness.count(NEVER),
        stats=stats, tolerance=tolerance, table=table, has_chance=graph.has_chance, residual=residual,
        principal_variation=line,
    )


def start_result(
    game: Game,
    start: State,
    kind: int,
    child_values: list[Value],
    child_remoteness: list[int],
    *,
    value: Value,
    remoteness: int,
    best: int,
    exact: bool,
    methods: set[str],
    **figures: Any,
) -> StrongResult:
    """The StrongResult around the start's own answer and its moves' answers (in move order),
    how it was solved told by the ``methods`` used."""
    if kind == TERMINAL:
        moves: list[Move] = []
    elif kind == CHANCE:
        moves = [outcome for outcome, _ in game.chance_outcomes(start)]
    else:
        moves = list(game.actions(start))
    return StrongResult(
        value=value,
        remoteness=None if remoteness == NEVER else remoteness,
        best_move=None if best == NO_MOVE else moves[best],
        move_values=dict(zip(moves, child_values)),
        move_remoteness={m: None if r == NEVER else r for m, r in zip(moves, child_remoteness)},
        to_move=root_player(game, start),  # as every searcher gives it: a finished start's player too
        exact=exact, method=method_text(methods), inexact_reason=inexact_reason(exact, methods),
        **figures,
    )


# Moves at most in a principal variation: a line that ends is as long as the start's remoteness.
_LINE_LIMIT = 10_000


def best_line(game: Game, start: State, answer: Callable[[State], tuple[Value, int, int]], slack: float
              ) -> tuple[Move, ...]:
    """The principal variation of a strong solve: its best moves from ``start`` until the game
    ends, the dice move (what follows is theirs to choose), or a position comes back (perfect
    play goes round for ever there).  ``answer`` gives a state's value, remoteness and best
    move's place; ``slack`` bounds the error of a value (a solve by value iteration)."""
    position = position_of(game)
    chance = has_chance(game)
    answers: dict[State, tuple[Value, int, int]] = {}

    def answer_once(state: State) -> tuple[Value, int, int]:
        # The move kept is tested by its child's answer, which the next ply asks for again (a
        # query of the tablebase each, after a solve by tiers).
        found = answers.get(state)
        if found is None:
            found = answers[state] = answer(state)
        return found

    seen: set[Hashable] = set()
    line: list[Move] = []
    state = start
    while not game.is_terminal(state) and not (chance and game.is_chance(state)) and len(line) < _LINE_LIMIT:
        here = state if position is None else position(state)
        value, remoteness, best = answer_once(state)
        if here in seen or best == NO_MOVE:
            break
        seen.add(here)
        moves = game.actions(state)
        line.append(kept_move(game, state, moves, best, answer_once, value, remoteness, slack))
        state = game.result(state, line[-1])
    return tuple(line)


def kept_move(game: Game, state: State, moves: Sequence[Move], best: int,
               answer: Callable[[State], tuple[Value, int, int]], value: Value, remoteness: int, slack: float) -> Move:
    """The best move of ``state``, kept as its place among the moves of the state the solve
    met: an equal state may list them in another order (a loop over a set or a map goes the
    way its items were added), and there the place names another move; then the best is the
    first move that keeps the value (within ``slack``), one ply nearer the end where the end is
    counted.  ``answer`` gives a state's value, remoteness (NEVER: none) and best move's place;
    the readers of a tablebase use it too."""
    def keeps(move: Move) -> bool:
        after, left, _ = answer(game.result(state, move))
        near = after == value or abs(after - value) <= slack  # type: ignore[operator]  # Value's kinds mix
        return near and (remoteness == NEVER or left == NEVER or left == remoteness - 1)

    if keeps(moves[best]):
        return moves[best]
    return next((move for move in moves if keeps(move)), moves[best])


def inexact_reason(exact: bool, methods: set[str]) -> str | None:
    """Why a solve's values are not exact, in words (None where they are)."""
    if exact:
        return None
    causes = []
    if BOUNDS_APART in methods:
        causes.append("value iteration could not bring its bounds from below and from above within the tolerance "
                      "(where play can go on for ever the values' rules allow more than one value), so every value "
                      "is known only within the residual")
    elif SHORT_OF_TOLERANCE in methods:
        causes.append("value iteration stopped with its bounds from below and from above further apart than the "
                      "tolerance (the floats' rounding, where the scores are this large, or a cycle that ends only "
                      "slowly), so every value is known only within the residual")
    elif "value iteration" in methods:
        causes.append("value iteration stops within the tolerance")
    if FLOAT_ODDS in methods:
        causes.append("the game gives some odds as floats (0.1 for 1/10, which no float is), so the expected "
                      "values are those of the floats' odds, rounded")
    # Else the floats the dice averaged may be those of the odds, or value iteration's own.
    if FLOAT_SCORES in methods and not methods & {FLOAT_ODDS, "value iteration"}:
        causes.append("the game gives some scores as floats, which the dice average, so the expected values "
                      "are rounded")
    if VARYING_REPETITION in methods:
        causes.append("the `repetition` score differs along a cycle, so a play that never ends scores what "
                      "the position where it came into the cycle says, and a position there may have no one "
                      "value: it takes its own score")
    return "; and ".join(causes) or "some value is not proven"


def method_text(methods: set[str]) -> str:
    """The methods used, in the order they run (backward induction where no move was left to
    solve: every position is a finished game).

    A method is named wherever some position that is not a finished game was solved by it, so
    that the text does not hang on how the positions were split (into tiers, chunks, workers)."""
    order = ["backward induction", "retrograde analysis", "policy iteration", "value iteration"]
    return " + ".join(m for m in order if m in methods) or "backward induction"


def solve_in_memory(
    game: Game,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    progress: Callable[[StrongProgress], None] | None = None,
) -> StrongResult:
    """Solve every position reachable from the start of ``game`` in this process's memory."""
    check_game(game, tolerance)
    report = Reporter(progress)
    started = perf_counter()

    def growing(step: GrowthProgress) -> None:
        report.positions = step.positions
        report("discovering", step.expanded)

    try:
        graph = discover(game, progress=growing)
        graph.has_chance = CHANCE in graph.kind  # dice declared but never thrown: solved as a game without
        report.positions = graph.size
        discovered = perf_counter()
        report("solving", 0)
        solution = solve_graph(graph, tolerance, report)
    except BaseException:  # Ctrl-C, an error: the caller may say how far the solve got
        report.tell_last()
        raise
    finished = perf_counter()
    seconds = finished - started
    stats = StrongStats(
        seconds=seconds, positions_per_second=graph.size / seconds if seconds > 0 else 0.0,
        discover_seconds=discovered - started, solve_seconds=finished - discovered,
    )
    return summarize(game, graph, solution, stats, tolerance, SolvedTable(graph, solution, position_of(game)))


def value_text(value: Value) -> str:
    """A value as text for counts and metadata: integers and fractions exactly (``1/3``), floats
    to twelve significant digits."""
    if isinstance(value, float):
        return f"{value:.12g}"
    return str(value)


def outcome_counts(result: StrongResult) -> dict[str, int]:
    """The number of positions of each value, the values as text, highest value first
    (``StrongResult.outcome_counts``)."""
    return result.outcome_counts


def solved_meta(result: StrongResult) -> dict[str, Any]:
    """What a tablebase records about how it was solved: the counts by value among it where
    there are at most ``OUTCOMES_KEPT`` different values (a game of dice solved by value
    iteration has nearly as many as positions, which every reader of the tablebase would
    load), and how many there are in any case."""
    counts = outcome_counts(result)
    return {
        "value": value_text(result.value),
        "exact": result.exact,
        "method": result.method,
        "inexact_reason": result.inexact_reason,
        "tolerance": result.tolerance,
        "residual": result.residual,
        "terminal": result.terminal,
        **({"outcomes": counts} if len(counts) <= OUTCOMES_KEPT else {}),
        "distinct_values": len(counts),
        "remoteness": result.remoteness,
        "max_remoteness": result.max_remoteness,
        "has_chance": result.has_chance,
        "seconds": round(result.stats.seconds, 3),
        "workers": result.stats.workers,
        "where": result.stats.where,
        "tiers": result.stats.tiers,
        "best_move_encoding": "the index of the move in actions(state)",
    }


def write_table(path: str | Path, table: SolvedTable, report: Reporter) -> TablebaseWriter:
    """Write every position of an in-memory solve to a new tablebase at ``path``; the caller
    finishes it with the metadata."""
    writer = TablebaseWriter(path)
    try:
        values, remoteness, best = table.solution.solved, table.solution.remoteness, table.solution.best
        keyed = sorted(table.graph.stable_keys())
        for start in range(0, len(keyed), _WRITE_CHUNK):
            chunk = keyed[start:start + _WRITE_CHUNK]
            nodes = [n for _, n in chunk]
            writer.add(rows_of([key for key, _ in chunk], [values[n] for n in nodes],
                               [remoteness[n] for n in nodes], [best[n] for n in nodes]))
            report("writing", start + len(chunk))
    except BaseException:
        writer.close()
        raise
    return writer


_WRITE_CHUNK = 50_000


def solve_whole(
    game: Game,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    progress: Callable[[StrongProgress], None] | None = None,
    out: str | Path | None = None,
    meta: dict[str, Any] | None = None,
) -> StrongResult:
    """Solve every position reachable from the start of ``game``; with ``out``, write them all
    to a tablebase there, with ``meta`` (the caller's description of the game) in its
    metadata.  Ctrl-C (KeyboardInterrupt) stops the solve; a tablebase left unfinished says so."""
    result = solve_in_memory(game, tolerance=tolerance, progress=progress)
    if out is None:
        return result
    began = perf_counter()
    report = Reporter(progress)
    report.positions = result.positions
    assert result.table is not None  # a solve in memory keeps its table
    writer = write_table(out, result.table, report)
    write_seconds = perf_counter() - began
    seconds = result.stats.seconds + write_seconds
    stats = replace(result.stats, seconds=seconds, write_seconds=write_seconds,
                    positions_per_second=result.positions / seconds if seconds > 0 else 0.0)
    result = replace(result, stats=stats)
    try:
        writer.finish({**(meta or {}), **solved_meta(result)})
    finally:
        writer.close()
    return result
