"""Solving tier by tier: memory for one tier at a time, the rules run in parallel.

A game that declares ``tier(state)``, an integer no move lowers (discs on the board, seeds in
the stores), is solved in two passes over its tiers:

- forward, lowest tier first: the tier's positions (those the earlier tiers' moves reach, the
  start for the first) are expanded, in chunks, by the runner (this process, worker processes
  or Ray tasks, see ``parallel``); moves that stay in the tier add positions to expand, moves to
  a higher tier add them to that tier's frontier, kept on disk (a batch of states at a time)
  in a scratch SQLite file with the tier's graph;
- backward, highest tier first: the tier's graph is read back, the positions its moves reach
  in higher tiers are looked up in the tablebase being written, and the tier is solved in
  memory by this process (``solver.solve_graph``: backward induction, and the cycles inside the
  tier) and written out.

The node order inside a tier does not depend on how the chunks were shared out, so one
process, worker processes and Ray write the same tablebase.
"""

from __future__ import annotations

import os
import pickle
import sqlite3
import tempfile
from array import array
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from time import perf_counter
from typing import Any

from ..protocol import Game, Value, has_chance
from ..results import SearchError
from .graph import CHANCE, FIXED, MAX, MIN, TERMINAL, Graph, IntArray, position_of
from .keys import stable_key
from .parallel import Factory, Runner, make_runner
from .solution import NEVER
from .solver import (
    DEFAULT_TOLERANCE, Reporter, StrongProgress, StrongResult, StrongStats, check_game, method_text,
    solve_graph, solved_meta, start_result,
)
from .tablebase import TablebaseWriter, row

# Positions a chunk of work holds at most, and chunks per worker in a round at least.
_CHUNK = 2_000
_CHUNKS_PER_WORKER = 4


def has_tiers(game: Game) -> bool:
    """Whether the game declares tiers."""
    return callable(getattr(game, "tier", None)) and bool(getattr(game, "has_tiers", True))


@dataclass
class TierGraph:
    """One tier's positions and moves, as the forward pass leaves them for the backward one.

    ``target`` holds a local node for a move inside the tier, and ``-1 - i`` for a move to
    ``external[i]``, a position of a higher tier."""

    tier: int
    keys: list[bytes] = field(default_factory=list)
    kind: bytearray = field(default_factory=bytearray)
    first: IntArray = field(default_factory=lambda: array("q", [0]))
    target: IntArray = field(default_factory=lambda: array("q"))
    external: list[bytes] = field(default_factory=list)
    probabilities: dict[int, list[Value]] = field(default_factory=dict)
    utility: dict[int, Value] = field(default_factory=dict)
    repetition: list[Value | None] = field(default_factory=list)


class Scratch:
    """The scratch file of a solve by tiers: each tier's frontier, then its graph.

    The frontier is written a batch at a time (one pickle of many states); the keys of the
    positions queued and not yet expanded are kept in memory, so that each is queued once."""

    def __init__(self, path: Path) -> None:
        """A new scratch file at ``path``."""
        self.path = path
        if path.exists():
            os.remove(path)
        self.connection = sqlite3.connect(path)
        self.connection.executescript(
            """
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            CREATE TABLE frontier (tier INTEGER NOT NULL, batch BLOB NOT NULL);
            CREATE INDEX frontier_tier ON frontier (tier);
            CREATE TABLE graphs (tier INTEGER PRIMARY KEY, data BLOB NOT NULL);
            """
        )
        self.queued: set[bytes] = set()

    def add_frontier(self, rows: list[tuple[int, bytes, Any]]) -> None:
        """Queue positions of higher tiers, (tier, key, state); a position already queued stays
        as it was."""
        batches: dict[int, list[tuple[bytes, Any]]] = {}
        for tier, key, state in rows:
            if key not in self.queued:
                self.queued.add(key)
                batches.setdefault(tier, []).append((key, state))
        self.connection.executemany(
            "INSERT INTO frontier VALUES (?, ?)",
            [(tier, pickle.dumps(batch, pickle.HIGHEST_PROTOCOL)) for tier, batch in batches.items()],
        )

    def next_tier(self) -> int | None:
        """The lowest tier with positions queued."""
        tier: int | None = self.connection.execute("SELECT MIN(tier) FROM frontier").fetchone()[0]
        return tier

    def take_frontier(self, tier: int) -> list[tuple[bytes, Any]]:
        """The queued positions of ``tier`` (key, state or pickled state), in the order they
        were queued."""
        batches = self.connection.execute(
            "SELECT batch FROM frontier WHERE tier = ? ORDER BY rowid", (tier,)).fetchall()
        self.connection.execute("DELETE FROM frontier WHERE tier = ?", (tier,))
        seeds = [seed for (batch,) in batches for seed in pickle.loads(batch)]
        self.queued.difference_update(key for key, _ in seeds)
        return seeds

    def keep_graph(self, graph: TierGraph) -> None:
        """Store a tier's graph until the backward pass."""
        self.connection.execute("INSERT INTO graphs VALUES (?, ?)",
                                (graph.tier, pickle.dumps(graph, pickle.HIGHEST_PROTOCOL)))
        self.connection.commit()

    def take_graph(self, tier: int) -> TierGraph:
        """A tier's graph, read back (and dropped from the file)."""
        data = self.connection.execute("SELECT data FROM graphs WHERE tier = ?", (tier,)).fetchone()[0]
        self.connection.execute("DELETE FROM graphs WHERE tier = ?", (tier,))
        graph: TierGraph = pickle.loads(data)
        return graph

    def close(self) -> None:
        """Close and delete the scratch file."""
        self.connection.close()
        for path in (self.path, Path(f"{self.path}-journal")):
            if path.exists():
                os.remove(path)


def _chunks(states: list[Any], workers: int) -> list[list[Any]]:
    size = max(1, min(_CHUNK, -(-len(states) // (workers * _CHUNKS_PER_WORKER))))
    return [states[i:i + size] for i in range(0, len(states), size)]


def expand_tier(tier: int, seeds: list[tuple[bytes, Any]], runner: Runner, scratch: Scratch,
                report: Reporter) -> TierGraph:
    """The forward pass over one tier: expand its positions, queue those of higher tiers."""
    graph = TierGraph(tier)
    local: dict[bytes, int] = {}
    external: dict[bytes, int] = {}
    pending = []
    for key, state in seeds:
        local[key] = len(graph.keys)
        graph.keys.append(key)
        pending.append(pickle.loads(state) if type(state) is bytes else state)
    expanded = 0
    while pending:
        higher: list[tuple[int, bytes, Any]] = []
        next_round: list[Any] = []
        for answers in runner.expand(_chunks(pending, runner.workers)):
            for kind, utility, probabilities, repetition, children in answers:
                node = len(graph.kind)
                graph.kind.append(kind)
                graph.repetition.append(repetition)
                if kind == TERMINAL:
                    graph.utility[node] = utility
                if probabilities is not None:
                    graph.probabilities[node] = probabilities
                for key, child_tier, state in children:
                    if child_tier == tier:
                        index = local.get(key)
                        if index is None:
                            index = local[key] = len(graph.keys)
                            graph.keys.append(key)
                            next_round.append(pickle.loads(state) if type(state) is bytes else state)
                        graph.target.append(index)
                    else:
                        index = external.get(key)
                        if index is None:
                            index = external[key] = len(graph.external)
                            graph.external.append(key)
                            higher.append((child_tier, key, state))
                        graph.target.append(-1 - index)
                graph.first.append(len(graph.target))
        scratch.add_frontier(higher)
        expanded += len(pending)
        report.positions = report.offset + len(graph.keys) + len(graph.external)
        report("discovering", expanded)
        pending = next_round
    return graph


def tier_solution(tier_graph: TierGraph, answers: dict[bytes, tuple[Any, int, int]], chance: bool,
                  tolerance: float, report: Reporter, positions: int) -> Any:
    """Solve one tier in memory, the positions of higher tiers fixed at their answers."""
    size, outside = len(tier_graph.kind), len(tier_graph.external)
    graph = Graph(has_chance=chance)
    graph.kind = tier_graph.kind + bytes([FIXED]) * outside
    graph.first = tier_graph.first + array("q", [tier_graph.first[-1]]) * outside
    graph.target = array("q", (t if t >= 0 else size - 1 - t for t in tier_graph.target))
    graph.probabilities, graph.utility = tier_graph.probabilities, tier_graph.utility
    for i, key in enumerate(tier_graph.external):
        value, remoteness, _ = answers[key]
        graph.fixed[size + i] = (value, remoteness)
    scores = {score for score in tier_graph.repetition if score is not None}
    if len(scores) > 1:
        graph.repetition = [0 if s is None else s for s in tier_graph.repetition] + [0] * outside
    else:
        graph.repetition = scores.pop() if scores else 0
    return solve_graph(graph, tolerance, report, positions)


@dataclass
class _Totals:
    """What the tiers add up to."""

    positions: int = 0
    terminal: int = 0
    outcomes: dict[Value, int] = field(default_factory=dict)
    max_remoteness: int | None = None
    exact: bool = True
    residual: float = 0.0
    methods: set[str] = field(default_factory=set)

    def add(self, tier_graph: TierGraph, solution: Any) -> None:
        size = len(tier_graph.kind)
        self.positions += size
        self.terminal += sum(1 for k in tier_graph.kind if k == TERMINAL)
        for value in solution.value[:size]:
            self.outcomes[value] = self.outcomes.get(value, 0) + 1
        finite = [r for r in solution.remoteness[:size] if r != NEVER]
        if finite:
            self.max_remoteness = max(finite + ([] if self.max_remoteness is None else [self.max_remoteness]))
        self.exact = self.exact and solution.exact
        self.residual = max(self.residual, solution.residual)
        self.methods |= solution.methods


def solve_by_tiers(
    game: Game,
    *,
    factory: Factory | None = None,
    workers: int = 1,
    ray: str | None = None,
    out: str | Path | None = None,
    meta: dict[str, Any] | None = None,
    tolerance: float = DEFAULT_TOLERANCE,
    progress: Callable[[StrongProgress], None] | None = None,
) -> StrongResult:
    """Solve every position of a game with tiers, tier by tier, into the tablebase ``out`` (a
    temporary one when None); ``workers`` processes or Ray (``ray``: an address or ``auto``)
    expand the positions, each rebuilding the game with ``factory``."""
    check_game(game, tolerance)
    if isinstance(workers, bool) or workers < 1:
        raise SearchError(f"workers must be 1 or more, not {workers!r}")
    started = perf_counter()
    report = Reporter(progress)
    temporary = None
    if out is None:
        temporary = tempfile.mkdtemp(prefix="gdl-strong-")
        out = Path(temporary) / "tablebase.sqlite"
    writer = TablebaseWriter(out)
    scratch = Scratch(Path(f"{out}.scratch"))
    runner = make_runner(game, factory, workers, ray)
    try:
        start = game.initial_state()
        position = position_of(game)
        start_key = stable_key(start if position is None else position(start))
        scratch.add_frontier([(game.tier(start), start_key, start)])
        tiers = []
        positions = 0
        tier = scratch.next_tier()
        while tier is not None:
            report.tier, report.offset = tier, positions
            tier_graph = expand_tier(tier, scratch.take_frontier(tier), runner, scratch, report)
            scratch.keep_graph(tier_graph)
            tiers.append(tier)
            positions += len(tier_graph.kind)
            tier = scratch.next_tier()
        discovered = perf_counter()
        totals = _Totals()
        chance = has_chance(game)
        report.positions = positions
        for tier in reversed(tiers):
            report.tier, report.offset = tier, totals.positions
            tier_graph = scratch.take_graph(tier)
            solution = tier_solution(tier_graph, writer.lookup(tier_graph.external), chance, tolerance, report,
                                     positions)
            size = len(tier_graph.kind)
            rows = sorted(row(tier_graph.keys[i], solution.value[i], solution.remoteness[i], solution.best[i])
                          for i in range(size))
            writer.add(rows)
            totals.add(tier_graph, solution)
        finished = perf_counter()
        result = _result(game, start, start_key, writer, totals, tolerance, StrongStats(
            seconds=finished - started,
            positions_per_second=totals.positions / (finished - started) if finished > started else 0.0,
            discover_seconds=discovered - started, solve_seconds=finished - discovered,
            workers=runner.workers, tiers=len(tiers),
        ))
        writer.finish({**(meta or {}), **solved_meta(result), "where": runner.where})
        return result
    finally:
        runner.close()
        scratch.close()
        writer.close()
        if temporary is not None:
            for leftover in Path(temporary).iterdir():
                os.remove(leftover)
            os.rmdir(temporary)


def _result(game: Game, start: Any, start_key: bytes, writer: TablebaseWriter, totals: _Totals,
            tolerance: float, stats: StrongStats) -> StrongResult:
    """The StrongResult of a solve by tiers: the start's answers read back from the tablebase."""
    position = position_of(game)
    if game.is_terminal(start):
        children = []
    elif has_chance(game) and game.is_chance(start):
        children = [game.result(start, o) for o, _ in game.chance_outcomes(start)]
    else:
        children = [game.result(start, m) for m in game.actions(start)]
    keys = [stable_key(c if position is None else position(c)) for c in children]
    found = writer.lookup(keys + [start_key])
    value, remoteness, best = found[start_key]
    first = game.players[0]
    kind = TERMINAL if game.is_terminal(start) else CHANCE if (has_chance(game) and game.is_chance(start)) else (
        MAX if game.to_move(start) == first else MIN)
    return start_result(
        game, start, kind, [found[k][0] for k in keys], [found[k][1] for k in keys],
        value=value, remoteness=remoteness, best=best, exact=totals.exact,
        method=method_text(totals.methods), positions=totals.positions, terminal=totals.terminal,
        outcomes=totals.outcomes, max_remoteness=None if has_chance(game) else totals.max_remoteness,
        stats=stats, tolerance=tolerance, residual=totals.residual, table=None,
    )
