"""Solving tier by tier: memory for one tier at a time, the rules run in parallel.

A game that declares ``tier(state)``, an integer no move lowers (discs on the board, seeds in
the stores), is solved in two passes over its tiers:

- forward, lowest tier first: the tier's positions (those the earlier tiers' moves reach, the
  start for the first) are expanded, in chunks, by the runner (this process, worker processes
  or Ray tasks, see ``parallel``); moves that stay in the tier add positions to expand, moves to
  a higher tier add them to that tier's frontier, held in memory up to a bound and beyond
  that on disk (a batch of states at a time) in a scratch SQLite file; the tier's graph waits
  for the backward pass in memory, up to a bound of bytes of graphs, else in a scratch file of
  its own (always, for worker processes, which read it there; ``scratch``); it is put in
  solving order while the runner expands the next tier;
- backward, highest tier first: the tier's graph is read back, the answers of the positions
  its moves reach in higher tiers are read from the solutions of the tiers solved just before
  (up to ``_ANSWERS_KEPT`` positions; found there while the tier above is solved) or from the
  tablebase being written, and the tier is solved and written out.  A tier whose every move
  leaves it is cut into chunks that the runner solves; so is each level of a tier with moves
  inside it but no cycle (Kalah's: a sowing that passes no store), a level at a time
  (``TierGraph.levels``); so is a tier with cycles whose moves inside it fall apart into
  groups that no move joins (Pig's, one for each pair of scores), in chunks of whole groups
  (``TierGraph.groups``); a tier of one such group is solved in this process
  (``solver.solve_graph``: backward induction, then the cycles).

With worker processes the main process passes only keys around (to Ray tasks, pickled
states too): the workers run the rules, encode the keys and solve the chunks; in the backward
pass they read each tier's graph from its file once and cut the chunks themselves.

Rows are written in key order, and a tier with a cycle is numbered by group and in key order
within a group before it is solved (elsewhere each position's answers follow from its children's
alone), so one process, worker processes and Ray write the same tablebase (but for the place of
a best move where equal states list their moves in different orders: see ``kept_move``).
"""

from __future__ import annotations

import os
import tempfile
from array import array
from collections import Counter, defaultdict, deque
from collections.abc import Callable, Iterable, Iterator, Sequence
from dataclasses import dataclass, field
from functools import partial
from itertools import accumulate, chain, compress, count, islice, repeat
from operator import invert
from pathlib import Path
from time import perf_counter
from typing import Any

from ..protocol import Game, Value, has_chance, position_of, tier_of
from ..results import GameError
from .graph import CHANCE, MAX, MIN, ONE_POSITION_TWO_TIERS, TERMINAL, IntArray
from .keys import stable_key
from .parallel import ChunkExpansion, Factory, Runner, Seeds, chunk_size, chunked, make_runner, stops_deferred
from .scratch import Scratch
from .solution import NEVER, Solution, capped_residual, repetition_scores
from .solver import (
    DEFAULT_TOLERANCE, Reporter, StrongProgress, StrongResult, StrongStats, best_line, check_game, solved_meta,
    start_result,
)
from .tablebase import TablebaseWriter, remove_leftovers, rows_of
from .tiergraph import Answers, ChunkSolution, TierGraph, in_solving_order, merge_into, tier_solution

# Positions a chunk to solve holds at most, and at least where there are enough (fewer cost
# more to send than to solve: a level of a tier may hold a handful).
_SOLVE_CHUNK = 8_000
_SOLVE_CHUNK_LEAST = 256

# Rows written at least between commits of the tablebase (this process reads what it has not
# committed: commits only write the pages out).
_COMMIT_ROWS = 1 << 16

# Answers of the tiers solved last held in memory at most, for the tiers below to read; the
# tablebase has the others (and these), read more slowly.
_ANSWERS_KEPT = 500_000

# Keys of positions of higher tiers looked up at a time while the workers solve a tier.
_LOOK_SLICE = 8_000

# Positions of a tier for each one queued from the tiers below, at least, for the next tier's
# chunks to expand the positions they find inside it (``Closure``): Pig's tiers have 16 to 116
# (the rolls of a turn, found a round each, a hundred positions a round), Kalah's 1 to 2 (a few
# rounds of thousands, which keep the workers busy: a closure costs more than it saves).
_FOUND_PER_QUEUED = 4

# Positions a round of expansion holds on average, at most, for the next tier's chunks to go on
# past the positions they are sent (a tier of few positions, found in several rounds).
_SMALL_ROUND = 1_000


def has_tiers(game: Game) -> bool:
    """Whether the game declares tiers."""
    return tier_of(game) is not None


def expand_tier(tier: int, batches: Iterable[Seeds], runner: Runner, scratch: Scratch, report: Reporter,
                meanwhile: Callable[[], None] | None = None, closed: bool = False
                ) -> tuple[TierGraph, list[bytes], int, int]:
    """The forward pass over one tier: expand its positions, a batch of the queued ones at a
    time, then the positions their moves find inside the tier (``closed``: most of them by the
    chunks that find them, see ``Closure``); queue those of higher tiers.  ``meanwhile`` is
    called once, while the runner is at work on the first batch (the main process puts the
    tier before in order then).

    A node is numbered when its expansion comes back (the runner may return chunks in any
    order); a move inside the tier points to the child's place in ``found``, the order the
    tier's positions were found, until ``in_solving_order`` numbers the nodes.  The graph
    and ``found`` are returned for it, with the number of positions queued (the others were
    found by moves inside the tier) and of rounds of work sent to the runner."""
    graph = TierGraph(tier)
    target = graph.target
    found: list[bytes] = []
    local: dict[bytes, int] = {}  # the places in ``found``, made at the first move inside the tier
    outside = _Outside(graph.external, graph.external_tiers, {t for t, queued in scratch.frontier.items() if queued})
    expanded = 0
    done: set[bytes] = set()  # with ``closed``: the positions expanded so far
    seeds = sent = 0
    flat = True  # whether every move so far leaves the tier
    rounds: Iterable[tuple[Seeds, bool]] = ((batch, True) for batch in batches)
    while rounds:
        next_round: Seeds = []
        for pending, queued in rounds:
            if queued:  # not yet in ``found``: a move inside the tier may have found some
                if local:
                    pending = [(key, state) for key, state in pending if key not in local]
                    local.update(zip([key for key, _ in pending], range(len(found), len(found) + len(pending))))
                found += [key for key, _ in pending]
                seeds += len(pending)
            sent += 1
            for chunk_keys, answer in runner.expand(tier, pending, meanwhile, closed):
                inside = tier in answer[6]  # a move stays in the tier
                if not local and (answer[8] or inside):  # the first move inside the tier
                    local.update(zip(found, range(len(found))))
                if answer[8]:
                    chunk_keys, answer = _expanded_once(chunk_keys, answer, done)
                    for key in answer[8]:
                        if key not in local:
                            local[key] = len(found)
                            found.append(key)
                    expanded += len(answer[8])
                    inside = tier in answer[6]  # of the moves kept
                elif closed:
                    done.update(chunk_keys)
                _add_nodes(graph, chunk_keys, answer)
                flat = flat and not inside
                if inside:
                    _add_children(tier, answer, local, found, next_round, outside, target, scratch)
                else:
                    _add_children_outside(answer, outside, target, scratch, runner.children_held)
                scratch.spill_if_full()
            meanwhile = None
            expanded += len(pending)
            report.positions = report.offset + len(found) + len(outside.keys)
            report("discovering", expanded)
        if done:  # a chunk may have expanded a position found by another one
            next_round = [(key, state) for key, state in next_round if key not in done]
        rounds = [(next_round, False)] if next_round else []
    if meanwhile is not None:  # no batch at all
        meanwhile()
    runner.forget(tier)
    graph.flat = flat  # known here without a look at every move
    return graph, found, seeds, sent


def _expanded_once(chunk_keys: list[bytes], answer: ChunkExpansion, done: set[bytes]
                   ) -> tuple[list[bytes], ChunkExpansion]:
    """The keys of a chunk's positions, its own and those it expanded past them (the last of
    ``answer``), and its answer, without the positions expanded before (``done``, which they
    join): another process may have found and expanded one of them too."""
    extra = answer[8]
    fresh = [key not in done for key in extra]
    if all(fresh):
        keys = chunk_keys + extra
        done.update(keys)
        return keys, answer
    kinds, counts, utilities, probabilities, repetitions, child_keys, child_tiers, children, _ = answer
    keep = [True] * len(chunk_keys) + fresh
    node = dict(zip(compress(range(len(keep)), keep), range(len(keep))))  # old number -> new
    moves_kept = list(chain.from_iterable(map(repeat, keep, counts)))
    kept_children = list(compress(children, moves_kept))
    # A chunk gives a child's state with the first move to it: if that move was dropped, with
    # the first one kept.
    lost = {key: child for key, child, kept in zip(child_keys, children, moves_kept) if not kept and child is not None}
    kept_keys = list(compress(child_keys, moves_kept))
    for place, key in enumerate(kept_keys):
        if key in lost:
            if kept_children[place] is None:
                kept_children[place] = lost[key]
            del lost[key]
    keys = chunk_keys + list(compress(extra, fresh))
    done.update(keys)
    return keys, (
        bytearray(compress(kinds, keep)), array("q", compress(counts, keep)),
        {node[n]: u for n, u in utilities.items() if keep[n]},
        {node[n]: p for n, p in probabilities.items() if keep[n]},
        list(compress(repetitions, keep)), kept_keys, array("q", compress(child_tiers, moves_kept)), kept_children,
        keys[len(chunk_keys):],
    )


def _keep_in_order(scratch: Scratch, graph: TierGraph, found: list[bytes]) -> None:
    """Put a tier's graph, as ``expand_tier`` left it, in solving order, and keep it for the
    backward pass."""
    scratch.keep_graph(graph if graph.flat else in_solving_order(graph, found))


def _add_nodes(graph: TierGraph, chunk_keys: list[bytes], answer: ChunkExpansion) -> None:
    """Add a chunk's positions to the tier's graph (their moves come next)."""
    kinds, counts, utilities, probabilities, repetitions = answer[:5]
    base = len(graph.kind)
    graph.keys += chunk_keys
    graph.kind += kinds
    graph.first.extend(accumulate(counts, initial=graph.first[-1]))
    del graph.first[-len(counts) - 1]  # accumulate repeats the initial
    graph.utility.update({base + n: u for n, u in utilities.items()})
    graph.probabilities.update({base + n: p for n, p in probabilities.items()})
    graph.repetition += repetitions


class _Outside:
    """The positions of higher tiers that a tier's moves reach: their keys (the graph's
    ``external``), each key's place there, and each one's tier (a key met again in another tier
    is a ``position`` that merges states of two tiers).

    ``place`` numbers a key it has not seen the first time it is asked for it, in turn: a chunk's
    moves are looked up once, at C speed, and the keys new to it are the last ones it holds."""

    def __init__(self, keys: list[bytes], tiers: IntArray, shared: set[int]) -> None:
        """Keys and tiers to fill (the graph's); ``shared``: the tiers whose frontiers held
        positions queued by other tiers when this one began (a key new here may be queued there
        already)."""
        self.keys, self.tiers, self.shared = keys, tiers, shared
        self.place: defaultdict[bytes, int] = defaultdict(count().__next__)
        self.tiers_met: set[int] = set()  # the distinct ``tiers``

    def new_keys(self, before: int) -> list[bytes]:
        """The keys placed since ``place`` held ``before``, in the order they were placed."""
        fresh = list(islice(reversed(self.place), len(self.place) - before))
        fresh.reverse()
        return fresh


def _add_children(tier: int, answer: ChunkExpansion, local: dict[bytes, int], found: list[bytes],
                  next_round: list[tuple[bytes, Any]], outside: _Outside, target: IntArray, scratch: Scratch) -> None:
    """Add a chunk's moves to the tier's graph, move by move: new children in the tier to
    expand next, new ones of higher tiers to their frontiers."""
    frontier: dict[bytes, Any] = {}
    frontier_tier = None
    place, external_keys, external_tiers = outside.place, outside.keys, outside.tiers
    for key, child_tier, child in zip(answer[5], answer[6], answer[7]):
        if child_tier == tier:
            index = local.get(key)
            if index is None:
                if child is None:  # its state came with a move to another tier
                    raise GameError(ONE_POSITION_TWO_TIERS)
                index = local[key] = len(found)
                found.append(key)
                next_round.append((key, child))
            target.append(index)
        else:
            index = place[key]
            if index == len(external_keys):  # numbered just now: a key not met before
                if child is None:
                    raise GameError(ONE_POSITION_TWO_TIERS)
                external_keys.append(key)
                external_tiers.append(child_tier)
                outside.tiers_met.add(child_tier)
                if child_tier != frontier_tier:
                    frontier, frontier_tier = scratch.tier(child_tier), child_tier
                frontier.setdefault(key, child)
            elif external_tiers[index] != child_tier:
                raise GameError(ONE_POSITION_TWO_TIERS)
            target.append(-1 - index)


def _add_children_outside(answer: ChunkExpansion, outside: _Outside, target: IntArray, scratch: Scratch,
                          held: bool) -> None:
    """``_add_children`` for a chunk whose every move leaves the tier, a chunk at a time: the
    usual case, where the main process must not spend a statement a move (every step below
    runs over the moves or children at C speed)."""
    child_keys, child_tiers, children = answer[5], answer[6], answer[7]
    if not child_keys:
        return
    before = len(outside.keys)
    moves = array("q", map(invert, map(outside.place.__getitem__, child_keys)))  # ~i is -1 - i
    fresh = outside.new_keys(before)
    target += moves
    one_tier = child_tiers[0] if min(child_tiers) == max(child_tiers) else None
    if one_tier is not None and outside.tiers_met <= {one_tier}:
        outside.keys += fresh
        outside.tiers += array("q", [one_tier]) * len(fresh)
        if fresh:
            outside.tiers_met.add(one_tier)
            _queue(scratch.tier(one_tier), fresh, _first_states(child_keys, children, fresh, held),
                   one_tier in outside.shared)
        return
    # Moves to several tiers, here or before: a key's tier is its first move's (the one with
    # its state), and every move must agree with it.
    first_tiers = dict(zip(reversed(child_keys), reversed(child_tiers)))  # the last one written stays: the first
    fresh_tiers = array("q", map(first_tiers.__getitem__, fresh))
    outside.keys += fresh
    outside.tiers += fresh_tiers
    if array("q", map(outside.tiers.__getitem__, map(invert, moves))) != child_tiers:
        raise GameError(ONE_POSITION_TWO_TIERS)
    outside.tiers_met.update(fresh_tiers)
    fresh_states = _first_states(child_keys, children, fresh, held)
    for each_tier in set(fresh_tiers):
        chosen = list(map(each_tier.__eq__, fresh_tiers))
        _queue(scratch.tier(each_tier), list(compress(fresh, chosen)), list(compress(fresh_states, chosen)),
               each_tier in outside.shared)


def _first_states(child_keys: list[bytes], children: list[Any], keys: list[bytes], held: bool) -> list[Any]:
    """The states of ``keys``, children of a chunk's moves, as the chunk's first move to each
    gives it; or, ``held`` (``Runner.children_held``), the worker that keeps them all."""
    if held:
        return [children[0]] * len(keys)  # never None: only a child the chunk gave before is
    firsts = dict(zip(reversed(child_keys), reversed(children)))  # the last one written stays: the first move's
    return list(map(firsts.__getitem__, keys))


def _queue(frontier: dict[bytes, Any], keys: list[bytes], states: list[Any], shared: bool) -> None:
    """Queue positions in their tier's frontier (``keys`` and their states, in order); a
    position queued before keeps the state it was queued with.  Not ``shared``, the frontier
    holds only positions this tier queued, none of them among ``keys``."""
    if not shared or not frontier:
        frontier.update(zip(keys, states))
        return
    queued = dict(zip(keys, states))
    for key in queued.keys() & frontier.keys():  # the smaller of the two is the one read
        del queued[key]
    frontier.update(queued)


def solve_tier(tier_graph: TierGraph, fixed: Answers, runner: Runner, chance: bool, tolerance: float,
               report: Reporter, positions: int, solution: Solution) -> Iterator[ChunkSolution]:
    """The backward pass over one tier, into ``solution`` (empty), the answers of its external
    positions ``fixed``: a flat tier in chunks by the runner (already at work when this
    returns), a tier without cycles the same way a level at a time, a tier of groups in chunks of
    whole groups, another here; the solutions of consecutive chunks, in order, each once it is
    merged into ``solution``."""
    if tier_graph.in_chunks:
        runner.start_tier(tier_graph, fixed, solution, (chance, tolerance, positions))
        if tier_graph.groups:
            return _merged(runner.solve_ranges(_whole_groups(tier_graph.groups, runner.workers)), solution)
        bounds = tier_graph.levels or [0, len(tier_graph.kind)]
        return chain(_merged(_solve_level(runner, bounds[0], bounds[1]), solution),
                     _solve_levels(runner, bounds[1:], solution))
    whole = tier_solution(tier_graph, fixed, chance, tolerance, report, positions)
    size = len(tier_graph.kind)
    return _merged(iter([(whole.solved[:size], whole.remoteness[:size], whole.best[:size], whole.exact,
                          whole.residual, whole.methods)]), solution)


def _whole_groups(bounds: list[int], workers: int) -> list[Sequence[int]]:
    """The nodes of a tier of groups (``bounds``: see ``TierGraph.groups``) as ranges of whole
    groups, each as large as a chunk of a flat tier of that size, or the group that is larger."""
    size = chunk_size(bounds[-1], workers, largest=_SOLVE_CHUNK, least=_SOLVE_CHUNK_LEAST)
    ranges: list[Sequence[int]] = []
    start = 0
    for end in bounds[1:]:
        if end - start >= size or end == bounds[-1]:
            ranges.append(range(start, end))
            start = end
    return ranges


def _merged(parts: Iterator[ChunkSolution], solution: Solution) -> Iterator[ChunkSolution]:
    """``parts``, each merged into ``solution`` before it is passed on."""
    for part in parts:
        merge_into(solution, part)
        yield part


def _solve_level(runner: Runner, start: int, end: int) -> Iterator[ChunkSolution]:
    """Nodes ``start`` to ``end`` of the tier at work, each solved from positions already
    solved, in chunks by the runner (at work when this returns); the chunks' solutions, in
    order."""
    return runner.solve_ranges(chunked(range(start, end), runner.workers, largest=_SOLVE_CHUNK,
                                       least=_SOLVE_CHUNK_LEAST))


def _solve_levels(runner: Runner, bounds: list[int], solution: Solution) -> Iterator[ChunkSolution]:
    """The levels of a tier from ``bounds[0]`` on (``TierGraph.levels``), each like a flat tier
    once the levels below are merged into ``solution``."""
    for start, end in zip(bounds, bounds[1:]):
        yield from _merged(_solve_level(runner, start, end), solution)


def tier_rows(keys: list[bytes], solution: Solution) -> list[tuple[Any, ...]]:
    """The tablebase rows of a tier's positions, in key order."""
    size = len(keys)
    return rows_of(keys, solution.solved[:size], solution.remoteness[:size], solution.best[:size])


class _Known:
    """A tier solved, or being solved, as the tiers below it read it: where each of its
    positions is in its solution."""

    def __init__(self, tier: int, keys: list[bytes], solution: Solution) -> None:
        """Tier ``tier`` of positions ``keys``, whose answers ``solution`` holds or will."""
        self.tier = tier
        self.where = dict(zip(keys, range(len(keys))))
        self.solution = solution

    def __len__(self) -> int:
        return len(self.where)

    def answers(self, places: list[int]) -> Answers:
        """The answers of the positions at ``places``, solved by now."""
        values, remoteness = self.solution.solved, self.solution.remoteness
        return list(map(values.__getitem__, places)), array("q", map(remoteness.__getitem__, places))


class _KnownTiers:
    """The tiers solved last, the oldest first, each found by its number too, with their
    positions counted as they come and go: a game of thousands of small tiers (a pile of
    stones taken a few at a time) pays the same for each tier, not more for each one before."""

    def __init__(self) -> None:
        """None known yet."""
        self.order: deque[_Known] = deque()
        self.by_tier: dict[int, _Known] = {}
        self.positions = 0

    @property
    def latest(self) -> _Known | None:
        """The tier solved last, or being solved; None before the first."""
        return self.order[-1] if self.order else None

    def add(self, known: _Known) -> None:
        """Know a tier more, after those known."""
        self.order.append(known)
        self.by_tier[known.tier] = known
        self.positions += len(known)

    def make_room(self, coming: int) -> None:
        """Make room for the answers of a tier of ``coming`` positions: forget the oldest tiers'
        past ``_ANSWERS_KEPT`` answers in all, the last tier's never: the tier about to be
        solved reaches it most.  Moves that skip tiers (a capture in Kalah) to tiers forgotten
        read the tablebase."""
        while len(self.order) > 1 and self.positions + coming > _ANSWERS_KEPT:
            oldest = self.order.popleft()
            del self.by_tier[oldest.tier]
            self.positions -= len(oldest)


class _LookAhead:
    """The answers of positions of higher tiers a tier reaches (``keys``, of ``tiers``), found
    while the tier above it is being solved (the last of ``known``), a slice at a time
    (``step``), and given once it is solved (``answers``).  Found in the tiers solved before it
    (``known``), else in the tablebase (the workers' part files among it, which they never lock
    between commits: ``TablebaseWriter.hold_until_commit``).

    Most moves reach the tier solved last, so a key is looked for there first, once: where it
    is found, its answer is read from that tier's solution when asked for.  A slice is looked
    up at C speed (``map``, ``compress``), -1 marking a key not found (an index, but
    overwritten); the others are looked for in their own tiers (Pig's holds reach dozens); a
    slice takes a few milliseconds, less than a chunk of the workers'."""

    def __init__(self, keys: list[bytes], tiers: IntArray, known: _KnownTiers, writer: TablebaseWriter) -> None:
        """Find the answers of ``keys``, of ``tiers``; ``known`` stays as it is until they are
        given (``answers``)."""
        self.keys, self.tiers, self.writer = keys, tiers, writer
        self.latest = known.latest
        self.older = known.by_tier  # the latest among them too: a key not found there is missing
        self.done = 0  # keys looked up so far
        self.places: list[int] = []  # each key's index in the latest tier, or -1
        self.found: list[int] = []  # the indices in ``keys`` of those found elsewhere, with their answers:
        self.values: list[Value] = []
        self.remoteness = array("q")

    def step(self) -> bool:
        """Look up the next slice of keys, if any are left; whether any are left after it."""
        if self.done == len(self.keys):  # the backward pass asks after every chunk
            return False
        start, end = self.done, min(self.done + _LOOK_SLICE, len(self.keys))
        self.done = end
        keys = self.keys[start:end]
        places = list(map(self.latest.where.get, keys, repeat(-1))) if self.latest else [-1] * len(keys)
        self.places += places
        by_tier: dict[int, list[int]] = {}
        tiers = self.tiers
        for index in compress(range(start, end), map((-1).__eq__, places)):
            by_tier.setdefault(tiers[index], []).append(index)
        missing: list[int] = []
        for tier, indices in by_tier.items():
            solved = self.older.get(tier)
            if solved is None:
                missing += indices
                continue
            wheres = list(map(solved.where.get, map(self.keys.__getitem__, indices), repeat(-1)))
            hits = list(map((-1).__ne__, wheres))
            self._note(list(compress(indices, hits)), list(compress(wheres, hits)), solved.solution)
            missing += compress(indices, map((-1).__eq__, wheres))
        missing_keys = list(map(self.keys.__getitem__, missing))
        looked_up = self.writer.lookup(missing_keys)  # in tiers forgotten
        self.found += missing
        self.values += (looked_up[key][0] for key in missing_keys)
        self.remoteness.extend(looked_up[key][1] for key in missing_keys)
        return self.done < len(self.keys)

    def _note(self, found: list[int], wheres: list[int], solution: Solution) -> None:
        """Note the answers of keys ``found`` at ``wheres`` in the tier solved with ``solution``."""
        self.found += found
        self.values += map(solution.solved.__getitem__, wheres)
        self.remoteness.extend(map(solution.remoteness.__getitem__, wheres))

    def answers(self) -> Answers:
        """The answers of all the keys, in order, once the latest tier is solved."""
        while self.done < len(self.keys):
            self.step()
        self.older = {}  # the tiers known change from now on
        if self.latest is None:  # every key found elsewhere: these are all overwritten
            values: list[Value] = [0] * len(self.keys)
            remoteness = array("q", [0]) * len(self.keys)
        else:
            values, remoteness = self.latest.answers(self.places)
        for place, value, steps in zip(self.found, self.values, self.remoteness):
            values[place], remoteness[place] = value, steps
        return values, remoteness


def _solve_backward(tiers: list[int], scratch: Scratch, runner: Runner, writer: TablebaseWriter, totals: _Totals,
                    chance: bool, tolerance: float, report: Reporter, positions: int) -> None:
    """The backward pass, highest tier first: each tier solved from the answers of the tiers
    after it, written out, and counted in ``totals``.  Once the runner is at work on a tier,
    the tier before is written and counted, and the next tier's graph is read back and the
    answers it reaches looked up (``_LookAhead``): between the chunks, and while the main
    process waits for the worker processes."""
    known = _KnownTiers()
    done: tuple[TierGraph, Solution] | None = None  # the tier solved last, not yet written out nor counted
    ahead: _LookAhead | None  # the look-up of the answers the tier to solve next reaches
    report.offset = 0
    report("solving", 0)
    upcoming, ahead = _read_ahead(scratch, tiers[-1], runner, known, writer)
    for place in reversed(range(len(tiers))):
        assert ahead is not None
        runner.commit()  # the rows of the tiers solved before, read back by ``_LookAhead``
        if runner.part_files and not writer.parts:  # made by now: each worker makes its file before it answers
            writer.attach(runner.part_files)
        tier_graph = upcoming
        report.tier = tier_graph.tier
        solution = Solution([], array("q"), array("q"))
        solving = solve_tier(tier_graph, ahead.answers(), runner, chance, tolerance, report, positions, solution)
        if done is not None:
            _write_and_count(*done, runner, writer, totals)
        known.make_room(len(tier_graph.kind))
        known.add(_Known(tier_graph.tier, tier_graph.keys, solution))
        # The next tier's graph read at once: its file is handed to the workers before the
        # commit at its start, which shows they read it.
        ahead = None
        if place:
            upcoming, ahead = _read_ahead(scratch, tiers[place - 1], runner, known, writer)
        runner.idle_work = None if ahead is None else ahead.step
        level_ends = set(tier_graph.levels)  # there the workers wait for the next level's chunks: no work here
        try:
            for _ in solving:
                report("solving", len(solution.value))
                if ahead is not None and len(solution.value) not in level_ends:
                    ahead.step()
        finally:
            runner.idle_work = None
        scratch.drop_graph(tier_graph.tier)  # every worker has read it: each answered the commit above
        done = tier_graph, solution
        report.offset += len(tier_graph.kind)
    if done is not None:
        _write_and_count(*done, runner, writer, totals)


def _write_and_count(tier_graph: TierGraph, solution: Solution, runner: Runner, writer: TablebaseWriter,
                     totals: _Totals) -> None:
    """Write out the rows of a tier solved (unless the runner's processes wrote them) and count
    it in ``totals``."""
    if not (tier_graph.in_chunks and runner.part_files):
        writer.add(tier_rows(tier_graph.keys, solution), commit=False)
        if writer.uncommitted >= _COMMIT_ROWS:  # not a commit a tier: thousands of small tiers spend their time there
            writer.commit()
    totals.add(tier_graph, solution)


def _read_ahead(scratch: Scratch, tier: int, runner: Runner, known: _KnownTiers, writer: TablebaseWriter
                ) -> tuple[TierGraph, _LookAhead]:
    """The graph of ``tier``, the next to solve, read back, and the search for the answers it
    reaches begun (``known``: the tiers solved last, the last one being solved).  The runner is
    handed the graph's file too, ahead of time, if it is to solve it in chunks (worker processes
    read it while they solve the tier before)."""
    graph = TierGraph.from_bytes(scratch.graph_bytes(tier))
    if graph.in_chunks and runner.reads_graph_files:  # else solved here (as a tier of one group with a cycle is)
        runner.next_tier(scratch.graph_in_file(tier))
    return graph, _LookAhead(graph.external, graph.external_tiers, known, writer)


@dataclass
class _Totals:
    """What the tiers add up to."""

    positions: int = 0
    terminal: int = 0
    outcomes: dict[Value, int] = field(default_factory=dict)
    max_remoteness: int | None = None
    endless: int = 0  # positions whose end can be put off for ever (in a game without dice)
    exact: bool = True
    residual: float = 0.0
    methods: set[str] = field(default_factory=set)
    ends: set[Value] = field(default_factory=set)  # the finished games' and repetition scores (``capped_residual``)

    def add(self, tier_graph: TierGraph, solution: Solution) -> None:
        """Count in one tier's solved positions."""
        size = len(tier_graph.kind)
        self.positions += size
        self.terminal += tier_graph.kind.count(TERMINAL)
        for value, count in Counter(solution.solved[:size]).items():
            self.outcomes[value] = self.outcomes.get(value, 0) + count
        largest = max(solution.remoteness[:size], default=NEVER)  # NEVER is below every remoteness
        if largest != NEVER:
            self.max_remoteness = max(largest, self.max_remoteness or 0)
        self.endless += solution.remoteness[:size].count(NEVER)
        self.exact = self.exact and solution.exact
        self.residual += solution.residual
        self.methods |= solution.methods
        self.ends.update(tier_graph.utility.values())
        self.ends |= repetition_scores(tier_graph.repetition, tier_graph.kind)


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
    check_game(game, tolerance)  # the settings were checked by ``solve_strong``, the only caller
    started = perf_counter()
    report = Reporter(progress)
    temporary = None
    if out is None:
        temporary = tempfile.mkdtemp(prefix="gdl-strong-")
        out = Path(temporary) / "tablebase.sqlite"
    runner = writer = scratch = None
    try:
        # A killed solve's files gone first, then the runner, whose workers make their part
        # files; before the tablebase at ``out`` is touched: a runner that cannot start (no
        # Ray, a cluster out of reach) leaves it as it was.
        remove_leftovers(Path(out))
        starting = perf_counter()
        runner = make_runner(game, factory, workers, ray, parts=f"{out}.part")
        start_seconds = perf_counter() - starting
        writer = TablebaseWriter(out)
        # Worker processes read the graphs from files: written at once, while they expand.
        scratch = Scratch(Path(f"{out}.scratch"), graphs_held=0 if runner.reads_graph_files else None)
        start = game.initial_state()
        position = position_of(game)
        start_key = stable_key(start if position is None else position(start))
        scratch.tier(game.tier(start))[start_key] = runner.seed(game.tier(start), start_key, start)
        tiers = []
        positions = 0
        chance = False  # whether a chance node was met: a game may declare dice it never throws
        tier = scratch.next_tier()
        found: tuple[TierGraph, list[bytes], int, int] | None = None  # the tier before, to put in order and keep
        closed = False  # whether the tier's chunks expand the positions they find inside it
        while tier is not None:
            report.tier, report.offset = tier, positions
            meanwhile = None if found is None else partial(_keep_in_order, scratch, *found[:2])
            # The tier before found many positions from each one queued (Pig's rolls, a round
            # of expansion a roll), or in several small rounds: so will this one, the workers
            # waiting for each round, unless its chunks go on past the positions they are sent.
            closed = found is not None and (len(found[0].kind) > _FOUND_PER_QUEUED * found[2] or (
                not closed and 1 < found[3] and len(found[0].kind) < _SMALL_ROUND * found[3]))
            found = expand_tier(tier, scratch.take_frontier(tier), runner, scratch, report, meanwhile, closed)
            tiers.append(tier)
            positions += len(found[0].kind)
            chance = chance or CHANCE in found[0].kind
            tier = scratch.next_tier()
        if found is not None:
            _keep_in_order(scratch, *found[:2])
        discovered = perf_counter()
        totals = _Totals()
        report.positions = positions
        _solve_backward(tiers, scratch, runner, writer, totals, chance, tolerance, report, positions)
        writer.absorb(runner.hand_over())
        finished = perf_counter()
        result = _result(game, start, start_key, writer, totals, tolerance, chance, StrongStats(
            seconds=finished - started,
            positions_per_second=totals.positions / (finished - started) if finished > started else 0.0,
            discover_seconds=discovered - started, solve_seconds=finished - discovered, write_seconds=None,
            workers=runner.workers, tiers=len(tiers), where=runner.where, start_seconds=start_seconds,
        ))
        writer.finish({**(meta or {}), **solved_meta(result)})
        return result
    except BaseException:  # Ctrl-C, SIGTERM, an error: the caller may say how far the solve got
        report.tell_last()
        raise
    finally:
        # A second Ctrl-C (a terminal's, or `timeout`'s to the process and again to its group)
        # must not cut the cleaning up short and leave the workers' files: it comes after.
        with stops_deferred():
            for part in (runner, scratch, writer):
                if part is not None:
                    part.close()
            if temporary is not None:
                for leftover in Path(temporary).iterdir():
                    os.remove(leftover)
                os.rmdir(temporary)


def _result(game: Game, start: Any, start_key: bytes, writer: TablebaseWriter, totals: _Totals,
            tolerance: float, chance: bool, stats: StrongStats) -> StrongResult:
    """The StrongResult of a solve by tiers: the start's answers read back from the tablebase
    (``chance``: whether a chance node was met)."""
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
    residual = capped_residual(totals.residual, totals.ends)

    def answer(state: Any) -> tuple[Value, int, int]:
        key = stable_key(state if position is None else position(state))
        return writer.lookup([key])[key]

    return start_result(
        game, start, kind, [found[k][0] for k in keys], [found[k][1] for k in keys],
        value=value, remoteness=remoteness, best=best, exact=totals.exact, methods=totals.methods,
        positions=totals.positions, terminal=totals.terminal,
        outcomes=totals.outcomes, max_remoteness=None if chance else totals.max_remoteness,
        endless=None if chance else totals.endless,
        stats=stats, tolerance=tolerance, residual=residual, table=None,
        has_chance=chance, principal_variation=best_line(game, start, answer, residual),
    )
