"""Machinery shared by the searchers: limits, counters, tracing, iterative deepening."""

from __future__ import annotations

import gc
import sys
from collections.abc import Callable, Hashable, Iterable, Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from time import perf_counter
from typing import Any, TypeAlias, TypeVar

from .protocol import Game, Move, State, Value, has_chance, is_zero_sum, rules_of

# A line of play as a cons list, (first move, rest of the line): cheap to build backwards.
Line: TypeAlias = "tuple[Move, Line] | None"
from .results import ESTIMATE, EXACT, Bound, GameError, NodeKind, SearchResult, SearchStats, SearchValue, TraceNode
from .table import TranspositionTable

# A depth limit that is never reached, so that "unlimited" needs no special case.
UNLIMITED = sys.maxsize
MAX_PLIES = 100_000
"""The deepest a search may go: a game longer than this never ends or never repeats."""
# Python frames a searcher uses per ply (search, then expand or average), and how many
# plies to make room for at a time.
_FRAMES_PER_PLY = 3
_PLY_STEP = 1_000
# Nodes between two looks at the clock.
_CLOCK_INTERVAL = 256


class Stop(Exception):
    """Raised inside a search when its time or node budget is spent."""


@dataclass(frozen=True)
class Progress:
    """How a running search is doing, for a progress display."""

    nodes: int
    seconds: float
    depth: int | None  # the iteration being searched (iterative deepening), else None
    best_move: Move | None  # the best move of the deepest completed iteration, if any


# Seconds before the first progress report, and between two reports.
_PROGRESS_DELAY = 1.0
_PROGRESS_INTERVAL = 0.25


class Budget:
    """The time and node limits of one search, enforced only once ``armed``; it also calls
    ``progress`` now and then, and keeps what an interrupted search can still report."""

    def __init__(
        self,
        seconds: float | None,
        max_nodes: int | None,
        progress: Callable[[Progress], None] | None = None,
    ) -> None:
        """Start the clock for a search limited to ``seconds`` and ``max_nodes``."""
        self.started = perf_counter()
        self.deadline = None if seconds is None else self.started + seconds
        self.max_nodes = max_nodes
        self.armed = False
        self.progress = progress
        self.next_report = self.started + _PROGRESS_DELAY
        self.depth: int | None = None  # set by iterative deepening
        self.best_move: Move | None = None
        # The root's move values found so far in the running iteration, for an interrupt:
        # numbers, or the payoff vectors of max^n.
        self.root_values: dict[Hashable, Any] = {}
        self.root_bounds: dict[Hashable, Bound] = {}  # filled by searchers whose root values may be bounds

    def next_check(self, nodes: int) -> int:
        """The node count at which the search must next call ``check``."""
        if not self.armed:
            return UNLIMITED if self.progress is None else nodes + _CLOCK_INTERVAL
        limit = UNLIMITED if self.max_nodes is None else self.max_nodes
        if self.deadline is not None or self.progress is not None:
            limit = min(limit, nodes + _CLOCK_INTERVAL)
        return limit

    def expired(self) -> bool:
        """True once the time limit has passed."""
        return self.deadline is not None and perf_counter() >= self.deadline

    def check(self, nodes: int) -> int:
        """Raise Stop if the budget is spent; else return the next checkpoint."""
        if self.armed:
            if self.max_nodes is not None and nodes >= self.max_nodes:
                raise Stop
            if self.expired():
                raise Stop
        if self.progress is not None:
            now = perf_counter()
            if now >= self.next_report:
                self.next_report = now + _PROGRESS_INTERVAL
                self.progress(Progress(nodes, now - self.started, self.depth, self.best_move))
        return self.next_check(nodes)


class Counters:
    """Running totals of a search, kept across the iterations of iterative deepening."""

    __slots__ = ("nodes", "leaves", "cutoffs", "table_hits", "repetitions", "deepest", "table")

    def __init__(self) -> None:
        """All counts start at zero."""
        self.nodes = self.leaves = self.cutoffs = 0
        self.table_hits = self.repetitions = self.deepest = 0
        self.table: TranspositionTable | None = None


class DeepRecursion:
    """Makes room on Python's stack as a search goes deeper, and gives it back afterwards.

    A recursive searcher uses a few Python frames per ply; Python's default recursion limit
    (1000 frames) would stop it a few hundred plies down.  ``grow`` raises the limit ahead
    of the search, a thousand plies at a time, up to MAX_PLIES; ``restore`` puts it back.
    The game's own rules keep the headroom they had, so a runaway recursion in a rule is
    still caught.
    """

    def __init__(self) -> None:
        """Remember the recursion limit to restore."""
        self.saved = sys.getrecursionlimit()
        self.mark = 100  # the ply at which to make room next

    def grow(self, ply: int) -> int:
        """Make room for the next thousand plies below ``ply``; return the next ply to call at."""
        if ply >= MAX_PLIES:
            raise GameError(
                f"the search went {MAX_PLIES:,} moves deep without the game ending or a "
                "position repeating: does the game ever end?"
            )
        needed = self.saved + (ply + _PLY_STEP) * _FRAMES_PER_PLY
        if sys.getrecursionlimit() < needed:
            sys.setrecursionlimit(needed)
        self.mark = ply + _PLY_STEP
        return self.mark

    def restore(self) -> None:
        """Put the recursion limit back as it was."""
        sys.setrecursionlimit(self.saved)


T = TypeVar("T")


def _roomy_frame() -> Callable[..., Any]:
    """A function whose own frame is larger than 64 KiB, made once (see ``on_roomy_stack``)."""
    slots = [f"_{i}" for i in range(_ROOMY_SLOTS)]
    source = (
        "def roomy(call, args, options):\n"
        "    if call is None:  # never: the names only make the frame large\n"
        f"        {' = '.join(slots)} = None\n"
        "    return call(*args, **options)\n"
    )
    made: dict[str, Any] = {}
    exec(source, {}, made)
    roomy: Callable[..., Any] = made["roomy"]
    return roomy


# CPython (3.11 at least) keeps frames in chunks of at least 16 KiB, and frees a chunk as soon as
# the frames in it return: a search whose lines end around a chunk's edge maps and unmaps memory
# at every node (twice as slow, on a dice game 25 plies deep). A chunk is sized to the frame
# that opens it, to a power of two: a first frame of just over 64 KiB gets a chunk of 128 KiB,
# so the search called from it has some 64 KiB, a hundred plies or so, before the next edge.
_ROOMY_SLOTS = 8_300
_roomy = _roomy_frame()


def on_roomy_stack(call: Callable[..., T], *args: Any, **options: Any) -> T:
    """``call(*args, **options)``, with room for the frames of a deep recursion before the
    first edge of a chunk of the interpreter's frame stack."""
    result: T = _roomy(call, args, options)
    return result


class Tracer:
    """Builds the TraceNode tree of a search as it runs (only with ``trace=True``).

    A node's move is known only once its search returns to its parent (``label``): until then
    the node waits as the tuple of its other fields, and is made once, with its move (a trace
    of tic-tac-toe has half a million nodes; made and then copied with the move, they took
    half of the traced search)."""

    def __init__(self) -> None:
        """An empty trace."""
        self.leaves: list[tuple[State, SearchValue]] = []
        self._open: list[list[TraceNode | tuple[Any, ...]]] = [[]]

    def leaf(
        self,
        state: State,
        player: str | None,
        depth: int,
        value: SearchValue,
        scored_by: str,
        window: tuple[Value | None, Value | None] = (None, None),
        bound: Bound = "exact",
    ) -> None:
        """Record a node scored without searching below it."""
        if scored_by in ("utility", "evaluation"):
            self.leaves.append((state, value))
        self._open[-1].append((state, player, "leaf", depth, window[0], window[1], value, bound, scored_by))

    def open(self) -> None:
        """Start recording the children of a node about to be searched."""
        self._open.append([])

    def close(
        self,
        state: State,
        player: str | None,
        kind: NodeKind,
        depth: int,
        window: tuple[Value | None, Value | None],
        value: SearchValue,
        bound: Bound = "exact",
        pruned: list[Move] | None = None,
        dropped: list[Move] | None = None,
    ) -> None:
        """Finish the node opened last, now that its value is known."""
        children = [_made(child) for child in self._open.pop()]
        self._open[-1].append((state, player, kind, depth, window[0], window[1], value, bound, None,
                               children, list(pruned or ()), list(dropped or ())))

    def label(self, move: Move, probability: Value | None = None) -> None:
        """Name the move (and probability) that led to the node recorded last."""
        siblings = self._open[-1]
        fields = siblings[-1]
        assert isinstance(fields, tuple), "a node is labelled once"
        siblings[-1] = _made(fields, move, probability)

    def root(self) -> TraceNode:
        """The finished tree."""
        return _made(self._open[0][-1])


def _made(node: TraceNode | tuple[Any, ...], move: Move | None = None, probability: Value | None = None) -> TraceNode:
    """The node, made from its fields (``Tracer``) with its move if it is not made yet."""
    if isinstance(node, TraceNode):
        return node
    state, player, kind, depth, alpha, beta, value, bound, scored_by, *below = node
    children, pruned, dropped = below or ([], [], [])  # a leaf has none
    return TraceNode(move, state, player, kind, depth, alpha, beta, value, bound, scored_by, children, pruned, dropped,
                     probability)


@dataclass
class Outcome:
    """The answer of one complete search to a fixed depth (one iteration)."""

    value: SearchValue
    move: Move | None
    pv: list[Move]
    move_values: dict[Move, SearchValue] = field(default_factory=dict)
    move_bounds: dict[Move, Bound] = field(default_factory=dict)
    hit_horizon: bool = False  # some state was cut off and evaluated
    dropped: bool = False  # the beam skipped some move
    tracer: Tracer | None = None
    interrupted: bool = False  # stopped by Ctrl-C: the best found so far
    chance_cycles: int = 0  # repetitions scored on a cycle through chance nodes


def pv_from_line(first: Move, line: Any) -> list[Move]:
    """The principal variation from its first move and the cons list ``(move, rest)`` after it."""
    pv = [first]
    while line is not None:
        move, line = line
        pv.append(move)
    return pv


def deepen(
    iterate: Callable[[int, Outcome | None], Outcome],
    budget: Budget,
    depth: int | None,
) -> tuple[Outcome, int]:
    """Iterative deepening: search to depth 1, 2, ... until exact, at ``depth``, or out of budget.

    ``iterate(d, previous)`` searches to depth ``d`` given the previous iteration's
    outcome.  Depth 1 is always completed; returns the deepest completed outcome and
    its depth.
    """
    completed: Outcome | None = None
    done = 0
    while True:
        if completed is not None and budget.expired():
            return completed, done
        budget.armed = completed is not None
        budget.depth = done + 1
        try:
            outcome = iterate(done + 1, completed)
        except Stop:
            assert completed is not None  # depth 1 runs unarmed, so it cannot stop
            return completed, done
        except KeyboardInterrupt:
            if completed is None:
                raise
            completed.interrupted = True
            return completed, done
        completed, done = outcome, done + 1
        budget.best_move = outcome.move
        if not outcome.hit_horizon or done == depth:
            return completed, done


def interrupted_outcome(game: Game, root: State, budget: Budget) -> Outcome:
    """What a search stopped by Ctrl-C can still say: the best of the root moves it finished.

    Raises KeyboardInterrupt again when not even one root move was searched to the end.
    """
    values = dict(budget.root_values)
    if not values:
        raise KeyboardInterrupt
    maximizing = game.to_move(root) == game.players[0]
    best = (max if maximizing else min)(values, key=values.__getitem__)
    bounds = {move: budget.root_bounds.get(move, "exact") for move in values}
    return Outcome(values[best], best, [best], dict(values), bounds)


def run(
    game: Game,
    root: State,
    iterate: Callable[[int, Outcome | None], Outcome],
    counters: Counters,
    budget: Budget,
    *,
    depth: int | None,
    deepening: bool,
    algorithm: str,
    started: float,
    interrupted: Callable[[Game, State, Budget], Outcome] = interrupted_outcome,
) -> SearchResult:
    """Run a search (iteratively deepened or not) and package its SearchResult.

    ``interrupted`` makes the outcome of a search stopped by Ctrl-C before its first
    iteration ended, from what the budget kept of it (marked here as interrupted, and as
    cut off where a depth limit was given).
    """
    if deepening and depth != 0:
        outcome, reached = deepen(iterate, budget, depth)
    else:
        try:
            outcome = iterate(UNLIMITED if depth is None else depth, None)
        except KeyboardInterrupt:
            # Made from the root moves finished, which met the depth limit if there was one.
            outcome = interrupted(game, root, budget)
            outcome.interrupted, outcome.hit_horizon = True, depth is not None
        reached = counters.deepest if depth is None else depth
    tracer = outcome.tracer
    table = counters.table
    stats = SearchStats(
        nodes=counters.nodes,
        leaves=counters.leaves,
        cutoffs=counters.cutoffs,
        table_hits=counters.table_hits,
        depth=reached,
        seconds=perf_counter() - started,
        repetitions=counters.repetitions,
        table_entries=0 if table is None else len(table),
        table_capacity=0 if table is None else table.capacity,
        table_evictions=0 if table is None else table.evictions,
        chance_repetitions=outcome.chance_cycles,
    )
    reason = inexact_reason(outcome, reached, strongly_solvable(game), has_chance(game))
    return SearchResult(
        value=outcome.value,
        move=outcome.move,
        pv=outcome.pv,
        move_values=outcome.move_values,
        move_bounds=_bounds_told(outcome),
        exact=reason is None,
        to_move=root_player(game, root),
        repetition=counters.repetitions > 0,
        stats=stats,
        algorithm=algorithm,
        leaves=None if tracer is None else tracer.leaves,
        tree=None if tracer is None else tracer.root(),
        interrupted=outcome.interrupted,
        inexact_reason=reason,
    )


IterationMaker = Callable[[State, Counters, Budget, DeepRecursion], Callable[[int, Outcome | None], Outcome]]
"""Makes a depth-first searcher's ``iterate(depth, previous)`` for a root, with the running
totals, budget and stack of the search it belongs to."""


# The collector looks at the young objects each time this many more have been made than freed.
# A search keeps many alive in its table (entries and states), and each pass that moves them to
# an older generation brings a full pass over all of them nearer: with Python's 700, a quarter
# of the time of an exact connect four 4x5 solve; with this, a twentieth. It makes no cycles of
# its own that must be freed sooner.
_YOUNG_OBJECTS = 100_000


@contextmanager
def without_collections() -> Iterator[None]:
    """Within the block, no cyclic collection at all (as it was, after): for a strong solve,
    whose graph, frontier and tables hold millions of containers that even the passes over the
    young objects of ``fewer_collections`` keep looking at (a seventh of connect four 5x4's
    strong solve), and which makes no cycles (reference counting frees what it drops: a
    collection after strong solves of connect four, Kalah and Pig finds two dozen objects, the
    same for each).  A game whose states refer to one another in a cycle would keep its
    garbage until the solve ends."""
    enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if enabled:
            gc.enable()


@contextmanager
def fewer_collections() -> Iterator[None]:
    """Within the block, the cyclic collector runs only after ``_YOUNG_OBJECTS`` new objects
    (if it is set to run less often already, or not at all (a threshold of 0), as it is); as
    it was, after."""
    thresholds = gc.get_threshold()
    if thresholds[0]:
        gc.set_threshold(max(thresholds[0], _YOUNG_OBJECTS), *thresholds[1:])
    try:
        yield
    finally:
        gc.set_threshold(*thresholds)


def search_from(
    game: Game,
    state: State | None,
    make_iterate: IterationMaker,
    *,
    depth: int | None,
    time: float | None,
    max_nodes: int | None,
    progress: Callable[[Progress], None] | None,
    algorithm: str,
    interrupted: Callable[[Game, State, Budget], Outcome] = interrupted_outcome,
    traced: bool = False,
) -> SearchResult:
    """Search ``state`` (default: the initial state) with the iterations ``make_iterate``
    makes: to ``depth``, or deepening within ``time``/``max_nodes``; and report the result.
    ``traced``: the iterations keep a trace, a node for every position searched, and the
    cyclic collector does not run meanwhile (it would walk them all again and again: half of a
    traced search of tic-tac-toe's 549,946 nodes)."""
    started = perf_counter()
    root = game.initial_state() if state is None else state
    counters, budget = Counters(), Budget(time, max_nodes, progress)
    stack = DeepRecursion()
    try:
        iterate = make_iterate(root, counters, budget, stack)
        deepening = time is not None or max_nodes is not None
        with without_collections() if traced else fewer_collections():
            return on_roomy_stack(
                run, game, root, iterate, counters, budget, depth=depth, deepening=deepening,
                algorithm=algorithm, started=started, interrupted=interrupted,
            )
    finally:
        stack.restore()


def inexact_reason(outcome: Outcome, depth: int, strong: bool = True, chance: bool = False) -> str | None:
    """Why the outcome's value is not the game's true value, in words (every reason that
    holds; ``strong``: the strong solver, for two-player zero-sum games, can do better;
    ``chance``: the game has dice, whose expected values of floats are rounded); None when it
    is."""
    reasons = []
    if outcome.interrupted:
        reasons.append("the search was interrupted: this is the best found so far")
    if outcome.hit_horizon:
        reasons.append(f"the search stopped {depth} move{'s' if depth != 1 else ''} ahead and "
                       "estimated the positions there with the evaluation")
    if outcome.dropped:
        reasons.append("the beam left some moves unsearched")
    if outcome.chance_cycles:
        count = outcome.chance_cycles
        reasons.append(f"positions repeat through chance nodes ({count} time{'s' if count != 1 else ''}): "
                       + chance_cycle_words("a depth-first search", strong))
    if chance and not outcome.hit_horizon and holds_float((outcome.value, *outcome.move_values.values())):
        reasons.append(FLOATS_AVERAGED)
    return "; and ".join(reasons) or None


FLOATS_AVERAGED = ("the game gives some odds or scores as floats, which the dice average, so the expected values "
                   "are rounded")
"""Why a search's values are not exact where the game has dice and its values are floats (the
evaluation's aside): a float's mean is rounded, and the dice are what average values.  A float
that no dice averaged (a score reached by moves alone) is counted too: the search does not tell
them apart, and a value called exact must be."""


def holds_float(values: Iterable[object]) -> bool:
    """Whether one of ``values`` (numbers, or payoffs by player as a map or a tuple) is a float
    or holds one."""
    for value in values:
        items = value.values() if isinstance(value, dict) else value if isinstance(value, tuple) else (value,)
        if any(isinstance(item, float) for item in items):
            return True
    return False


def chance_cycle_words(searcher: str, strong: bool) -> str:
    """Why a value that rests on a position repeated through chance nodes is not the true one,
    as ``searcher`` meets it (``strong``: the strong solver can solve the game)."""
    return (f"there the game goes on, but {searcher} can only score the repetition by the game's repetition rule"
            + ("; the strong solver finds the true value" if strong else ""))


def strongly_solvable(game: Game) -> bool:
    """Whether the strong solver can solve ``game``: two players, zero-sum (a view of a game,
    such as paranoid's, says for the game it views)."""
    return bool(getattr(game, "strongly_solvable", len(tuple(game.players)) == 2 and is_zero_sum(game)))


def _bounds_told(outcome: Outcome) -> dict[Hashable, Bound]:
    """The root moves' bounds as a result gives them: where values rest on the evaluation at a
    horizon, on a beam's choice or on the repetition rule under dice, a move's value the search
    did not cut is an estimate, not exact (an interruption alone leaves the moves it finished
    exact)."""
    if not (outcome.hit_horizon or outcome.dropped or outcome.chance_cycles):
        return outcome.move_bounds
    return {move: ESTIMATE if bound == EXACT else bound for move, bound in outcome.move_bounds.items()}


def root_player(game: Game, root: State) -> str | None:
    """The player to move at ``root``, or None at a chance node."""
    rules = rules_of(game)
    if rules.is_chance is not None and not rules.is_terminal(root) and rules.is_chance(root):
        return None
    return rules.to_move(root)


def in_game_order(moves: list[Move], values: dict[Hashable, Any]) -> dict[Hashable, Any]:
    """``values`` re-keyed in the game's own move order (searchers may reorder moves)."""
    return {move: values[move] for move in moves if move in values}
