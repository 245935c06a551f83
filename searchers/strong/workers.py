"""Worker processes of this machine that keep the states they make.

Pickling a game state costs more than expanding it, so states do not travel: each worker keeps
the children its expansions make, by tier and key, and the main process, which decides which
positions are new, sends each worker only the keys of the positions it holds.  A child made by
two workers is expanded by the one whose answer the main process read first; the other copy is
dropped with its tier (``forget``).  Before a tier is expanded, a worker that holds more than
its share of the tier's positions hands the surplus over to the others, pickled (``give``,
``adopt``): the start is held by one worker, and without this every position after it would
stay with that worker too; balanced once, the workers make about equal shares of the next
tiers, so little moves after the first tiers.  Equal numbers of positions may still take two
workers quite different times (more finished games in one share): the last quarter of each
worker's chunks of a large tier is held back, sent as the worker runs short, or handed over to
another that has run out of its own (``hand``: the holder's receiving thread pickles the
states at once, while the holder expands others).

Each worker also solves chunks of tiers (of flat tiers, of the levels of tiers without cycles,
and of whole groups of tiers with cycles) and writes their rows.  It reads each tier's graph
from its file once, told to while it solves the tier before (``next_tier``), then is sent the
answers the tier reaches in higher tiers (``start_tier``); after that a chunk to solve is only
a range of nodes, which the worker cuts itself.  In a tier solved in levels, a chunk reaches the
levels below, part of which the other workers solved: their answers come with the worker's next
range.

A worker answers its requests in turn (a request to expand chunks has an answer for each
chunk).  It reads requests and sends answers through threads of its own, so neither side is
ever stuck writing to a full pipe: the main process may send a request at any time, and a
worker goes on while the main process is too busy to read.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import threading
from collections import deque
from collections.abc import Callable, Iterator, Sequence
from multiprocessing.connection import Connection, wait
from pathlib import Path
from time import monotonic
from typing import Any

from .._common import without_collections
from ..protocol import Value
from ..results import GameError, SearchError
from .graph import ONE_POSITION_TWO_TIERS, IntArray, PositionSampler
from .parallel import (
    ChunkExpansion, Closure, Factory, Runner, Seeds, chunked, expand_states, ignore_interrupts, stops_deferred,
    stops_held,
)
from .solution import Solution
from .tablebase import TablebaseWriter, remove_sqlite_file, rows_of
from .tiergraph import Answers, ChunkCutter, ChunkSolution, TierGraph, solve_chunk

# Positions a worker may hold beyond its share of a tier before some are moved to another.
_BALANCE_SLACK = 64

# Chunks to solve a worker is sent ahead of its answers.
_AHEAD = 2

# The part of each worker's chunks of a tier held back, for whichever worker runs short first
# (``_Tail``), where it has ``_HELD_BACK`` chunks at least (a round of a few chunks, of which
# Kalah's tiers have many, would only wait for them); a worker is sent one when it has fewer
# than ``_AHEAD_HELD_BACK`` to do.
_HELD_BACK = 8
_HELD_BACK_PART = 4
_AHEAD_HELD_BACK = 3

# Seconds the worker processes are given to stop when asked, in all, before they are ended.
_STOP_SECONDS = 1.0

_GONE = ("a worker process stopped unexpectedly: killed, out of memory (try fewer workers), or by an error of its "
         "own, printed above")


def _serve(connection: Connection, factory_bytes: bytes, number: int, part: str | None,
           inherited: list[Connection]) -> None:
    """A worker's loop: answer requests until told to stop; the rows of the chunks it solves
    go to its part file ``part``.  ``inherited`` are the main process's ends of the pipes,
    which a forked worker holds too: closed, so that the worker sees its pipe end when the main
    process is gone.

    Requests come in, and answers leave, through threads of their own: the worker goes on to
    its next chunk while the main process is too busy to read, and the main process can send
    a worker its next chunk while it is busy with one."""
    ignore_interrupts()
    for other in inherited:
        other.close()
    rows = None if part is None else TablebaseWriter(part)
    if rows is not None:
        rows.hold_until_commit()  # the main process reads the part file while this worker writes
    inbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    kept: dict[int, dict[bytes, Any]] = {}  # the states this worker made, by tier and key
    threads = [threading.Thread(target=_receive_all, args=(connection, inbox, kept, outbox.put), daemon=True),
               threading.Thread(target=_send_all, args=(connection, outbox), daemon=True)]
    for thread in threads:
        thread.start()
    try:
        with without_collections():
            try:
                game = pickle.loads(factory_bytes)()
            except Exception as error:  # the game's own error (a parameter refused): the main process raises it
                outbox.put(("error", error))
                while inbox.get()[0] != "stop":
                    pass
                return
            _answer(inbox.get, game, number, rows, outbox.put, kept)
    finally:
        outbox.put(None)
        threads[1].join()
        if rows is not None:
            rows.close()


def _receive_all(connection: Connection, inbox: queue.SimpleQueue[Any], kept: dict[int, dict[bytes, Any]],
                 reply: Callable[[tuple[str, Any]], None]) -> None:
    """Put the requests read from ``connection`` in ``inbox``, in order, until told to stop
    (or the main process is gone); but answer at once a request to hand over positions not
    sent to this worker to expand, while it expands others (``_hand_over``)."""
    request: Any = None
    while request is None or request[0] != "stop":
        try:
            request = connection.recv()
        except (EOFError, OSError):
            request = ("stop",)
        except BaseException as error:  # a request that cannot be read: answered as an error
            inbox.put(("unreadable", error))
            request = ("stop",)
        if request[0] != "hand" or not _hand_over(kept, request[1], request[2], request[3], reply):
            inbox.put(request)


def _hand_over(kept: dict[int, dict[bytes, Any]], tier: int, keys: list[bytes], number: int,
               reply: Callable[[tuple[str, Any]], None]) -> bool:
    """Answer request ``number`` to hand over the states of positions ``keys`` of ``tier``,
    pickled, if this worker holds them all (else the request waits its turn: an adoption
    before it may bring some, and its answer may come after those of later ones); whether it
    did.  The keys were never sent to this worker to expand, so taking them out while it
    expands others touches no state it works on (each change of a dict holds the
    interpreter's lock)."""
    held = kept.get(tier, {})
    states = [held.get(key, _MISSING) for key in keys]
    if _MISSING in states:
        return False
    try:
        pickled = pickle.dumps(states, pickle.HIGHEST_PROTOCOL)
    except Exception:  # the request's turn will come, and its error be answered as any other's
        return False
    for key in keys:
        del held[key]
    reply(("handed", (number, pickled)))
    return True


_MISSING = object()


def _send_all(connection: Connection, outbox: queue.SimpleQueue[Any]) -> None:
    """Send the answers put in ``outbox``, in order, until it gives None; a worker that cannot
    send at all ends at once, so that the main process sees it gone rather than wait."""
    while (answer := outbox.get()) is not None:
        try:
            connection.send(answer)
        except Exception as error:  # an answer that cannot be pickled: the main process raises it
            try:
                connection.send(("error", SearchError(f"a worker failed: {error!r}")))
            except BaseException:
                os._exit(1)


def _answer(receive: Callable[[], Any], game: Any, number: int, rows: TablebaseWriter | None,
            reply: Callable[[tuple[str, Any]], None], kept: dict[int, dict[bytes, Any]]) -> None:
    """Answer requests until told to stop: each from ``receive``, answered by ``reply``;
    ``kept`` holds the states this worker made, by tier and key."""
    claimed: dict[int, set[bytes]] = {}  # by tier: the positions it expanded past its chunks (``Closure``)
    sampler = PositionSampler(game)
    upcoming: TierGraph  # the graph of the tier to solve next
    tier_at_work: _TierAtWork
    while True:
        request = receive()
        what = request[0]
        if what == "stop":
            return
        try:
            if what == "expand":  # chunks of keys: an answer for each, one after the other
                _, tier, chunks, seeds = request
                closure = None if seeds is None else Closure(set(seeds), claimed.setdefault(tier, set()))
                for keys in chunks:
                    reply(("ok", _expand_and_keep(game, sampler, number, tier, keys, kept, closure)))
            elif what == "adopt":
                _, tier, keys, states = request
                kept.setdefault(tier, {}).update(zip(keys, pickle.loads(states)))
            elif what in ("give", "hand"):  # a hand-over the receiving thread could not answer at once, or in turn
                _, tier, keys, *asked = request
                held = kept.get(tier, {})
                states = pickle.dumps([held.pop(key) for key in keys], pickle.HIGHEST_PROTOCOL)
                reply(("handed", (asked[0], states)) if asked else ("ok", states))
            elif what == "forget":
                kept.pop(request[1], None)
                claimed.pop(request[1], None)
            elif what == "graph":
                upcoming = TierGraph.from_bytes(Path(request[1]).read_bytes())
            elif what == "tier":
                _, tier, fixed, settings = request
                if upcoming.tier != tier:  # a "graph" request failed: its error is on its way
                    raise SearchError(f"a worker was sent tier {tier} to solve, "
                                      f"but holds the graph of tier {upcoming.tier}")
                tier_at_work = _TierAtWork(upcoming, fixed, settings)
            elif what == "solve":
                _, start, end, learned = request
                tier_at_work.learn(learned)
                solved = tier_at_work.solve(start, end)
                reply(("ok", solved))  # first: in a tier solved in levels, the others may wait for it
                if rows is not None:  # a failure here is an error answer the main process reads next
                    rows.add(rows_of(tier_at_work.graph.keys[start:end], *solved[:3]), commit=False)
            elif what == "unreadable":
                raise request[1]
            elif what == "commit":
                if rows is not None:
                    rows.commit()
                reply(("ok", None))
            elif what == "hand over":  # the last request but "stop": the main process takes the file over
                if rows is not None:
                    rows.commit()
                    rows.close()
                reply(("ok", 0 if rows is None else rows.rows))
                rows = None
        except Exception as error:  # the game's own errors among them: the main process raises it
            reply(("error", error))


def _expand_and_keep(game: Any, sampler: PositionSampler, number: int, tier: int, keys: list[bytes],
                     kept: dict[int, dict[bytes, Any]], closure: Closure | None) -> ChunkExpansion:
    """The expansion of the positions ``keys`` of ``tier`` (and with a ``closure``, of those
    they find inside the tier), whose states worker ``number`` keeps in ``kept`` (by tier and
    key): their states let go, their children's kept, and in the answer each child's state
    replaced by the worker's number (None where the chunk gave the same position before)."""
    held = kept.get(tier, {})
    try:
        states = [held.pop(key) for key in keys]
    except KeyError:  # kept in another tier: found in two
        raise GameError(ONE_POSITION_TWO_TIERS) from None
    if closure is not None:
        closure.expanding(keys)
    answer = expand_states(game, sampler, tier, states, closure=closure)
    children = answer[7]
    for key, child_tier, child in zip(answer[5], answer[6], children):
        if child is not None:
            kept.setdefault(child_tier, {}).setdefault(key, child)
    kinds, counts, utilities, probabilities, repetitions, child_keys, child_tiers, _, extra = answer
    return (kinds, counts, utilities, probabilities, repetitions, child_keys, child_tiers,
            [None if child is None else number for child in children], extra)


class _TierAtWork:
    """The tier a worker solves chunks of: its graph, the answers it reaches in higher tiers,
    and, in a tier solved in levels, the answers of its nodes solved so far (by this worker, or
    learnt from the others; a flat tier's chunks reach none of them)."""

    def __init__(self, graph: TierGraph, fixed: Answers, settings: tuple[bool, float, int]) -> None:
        """Solve ``graph``, whose external positions' answers are ``fixed``."""
        self.graph = graph
        self.levelled = bool(graph.levels)
        self.solution = Solution.empty(len(graph.kind) if self.levelled else 0)
        self.cutter = ChunkCutter(self.graph, fixed, self.solution)
        self.settings = settings

    def learn(self, parts: list[tuple[int, list[Value], IntArray]]) -> None:
        """Note the answers of nodes other workers solved: each part's first node, values and
        remoteness."""
        for start, values, remoteness in parts:
            self.solution.value[start:start + len(values)] = values
            self.solution.remoteness[start:start + len(values)] = remoteness

    def solve(self, start: int, end: int) -> ChunkSolution:
        """Solve nodes ``start`` to ``end``, whose moves inside the tier reach nodes solved."""
        solved = solve_chunk((*self.cutter.cut(start, end), *self.settings))
        if self.levelled:
            self.learn([(start, solved[0], solved[1])])
        return solved


def _answering(connections: list[Connection], idle_work: Callable[[], bool] | None) -> list[Any]:
    """Those of ``connections`` with an answer to read, once one has; until then ``idle_work``
    is done, a piece at a time, until it says none is left (``Runner.idle_work``)."""
    if idle_work is not None:
        while not (ready := wait(connections, 0)) and idle_work():
            pass
        if ready:
            return ready
    return wait(connections)


def _in_order(answers: Iterator[tuple[int, ChunkSolution]]) -> Iterator[ChunkSolution]:
    """The answers of jobs ``0, 1, ...`` in that order, each as soon as it and those before it
    are in."""
    early: dict[int, ChunkSolution] = {}
    wanted = 0
    for index, answer in answers:
        early[index] = answer
        while wanted in early:
            yield early.pop(wanted)
            wanted += 1


class _Tail:
    """The chunks of a tier's positions sent to each worker, and the last ones of each held
    back: sent to the worker as it runs short, or, once it has none left, to another worker
    that has run short, the states handed over at once (``_hand_over``).  Workers holding equal
    numbers of positions may take quite different times over them (more finished games in one
    share than in the other): without this, one waited for the other at the end of each tier."""

    def __init__(self, runner: WorkerRunner, tier: int, held: list[list[bytes]], holding: bool,
                 round_seeds: list[bytes] | None) -> None:
        """Send each worker its chunks of the positions of ``tier`` it holds (``held``), but
        the last ones if ``holding`` and it has enough (``_HELD_BACK``); a closure's
        ``round_seeds`` go with them."""
        self.runner, self.tier, self.round_seeds = runner, tier, round_seeds
        self.coming: list[deque[list[bytes]]] = [deque() for _ in held]  # each worker's chunks sent, in order
        self.handing: list[dict[int, tuple[int, list[bytes]]]] = [{} for _ in held]  # asked of it: (taker, keys)
        self.taking = [0] * len(held)  # the chunks on their way to each worker from another
        self.asked = 0  # the requests to hand over states so far
        self.unsent: list[list[list[bytes]]] = []
        for number, keys in enumerate(held):
            chunks = [list(chunk) for chunk in chunked(keys, 1)]
            cut = len(chunks) - len(chunks) // _HELD_BACK_PART if holding and len(chunks) >= _HELD_BACK else len(chunks)
            self.unsent.append(chunks[cut:])
            if chunks[:cut]:
                self._send(number, chunks[:cut])

    @property
    def waiting(self) -> list[int]:
        """The workers with answers to come."""
        return [number for number in range(len(self.coming)) if self.coming[number] or self.handing[number]]

    def answered(self, number: int, status: str, answer: Any) -> tuple[list[bytes], ChunkExpansion] | None:
        """Take worker ``number``'s answer: a chunk's keys and expansion, or None for the states
        it handed over (sent on to the taker, with the chunk to expand); keep the workers going."""
        expanded = None
        if status == "handed":
            asked, answer = answer
            taker, keys = self.handing[number].pop(asked)
            self.taking[taker] -= 1
            self.runner._send(self.runner.connections[taker], ("adopt", self.tier, keys, answer))
            self._send(taker, [keys])
        else:
            expanded = self.coming[number].popleft(), answer
        for worker in range(len(self.coming)):
            self._feed(worker)
        return expanded

    def _send(self, number: int, chunks: list[list[bytes]]) -> None:
        """Send worker ``number`` ``chunks`` to expand."""
        self.runner._send(self.runner.connections[number], ("expand", self.tier, chunks, self.round_seeds))
        self.coming[number].extend(chunks)

    def _feed(self, number: int) -> None:
        """Send worker ``number`` a chunk held back once it has fewer than ``_AHEAD_HELD_BACK``
        to do: its own, or another's (the last of the one with the most held back)."""
        if len(self.coming[number]) + self.taking[number] >= _AHEAD_HELD_BACK:
            return
        if self.unsent[number]:
            self._send(number, [self.unsent[number].pop(0)])
            return
        giver = max(range(len(self.unsent)), key=lambda other: len(self.unsent[other]))
        if self.unsent[giver]:
            keys = self.unsent[giver].pop()
            self.asked += 1
            self.runner._send(self.runner.connections[giver], ("hand", self.tier, keys, self.asked))
            self.handing[giver][self.asked] = (number, keys)
            self.taking[number] += 1


class WorkerRunner(Runner):
    """Expands and solves chunks in ``workers`` processes of this machine, each keeping the
    states it makes (a seed is the number of the worker that holds its state)."""

    reads_graph_files = True
    children_held = True

    def __init__(self, factory: Factory, workers: int, parts: str | None = None) -> None:
        """Start the worker processes (each writing the rows it solves to ``parts`` and its
        number, if given)."""
        self.workers = workers
        self.where = f"{workers} worker processes"
        self.part_files = [] if parts is None else [f"{parts}{number}" for number in range(workers)]
        self.levelled = False  # whether the tier at work is solved in levels (``start_tier``)
        # The answers each worker has not seen yet, of a tier in levels: (first node, values, remoteness).
        self.unseen: list[list[tuple[int, list[Value], IntArray]]] = [[] for _ in range(workers)]
        factory_bytes = pickle.dumps(factory)
        self.connections: list[Connection] = []
        self.processes = []
        try:
            # Held back, and, if another thread (Ray's, say) takes one, recorded: a stop comes
            # once every worker started is known, to be shut down.
            with stops_deferred(), stops_held():
                for number in range(workers):
                    mine, theirs = multiprocessing.Pipe()
                    part = self.part_files[number] if self.part_files else None
                    process = multiprocessing.Process(target=_serve, args=(theirs, factory_bytes, number, part,
                                                                           [*self.connections, mine]), daemon=True)
                    process.start()
                    theirs.close()
                    self.connections.append(mine)
                    self.processes.append(process)
        except BaseException:  # a stop held back while they started, or a start that failed
            self.close()  # the workers started so far, and their part files: the caller has no runner to close
            raise

    def seed(self, tier: int, key: bytes, state: Any) -> Any:
        """Hand the state to the first worker."""
        self._send(self.connections[0], ("adopt", tier, [key], pickle.dumps([state], pickle.HIGHEST_PROTOCOL)))
        return 0

    def expand(self, tier: int, seeds: Seeds, meanwhile: Callable[[], None] | None = None, closed: bool = False
               ) -> Iterator[tuple[list[bytes], ChunkExpansion]]:
        """The expansion of each worker's seeds, a chunk at a time, as the chunks are ready, with
        the positions each chunk finds inside the tier if ``closed`` (``Closure``: each worker
        is sent the round's seeds); ``meanwhile`` is called once every worker is sent its chunks.

        Each worker is sent its chunks at once but the last few (``_Tail``), and
        answers them one by one without waiting for the main process, which reads the answers
        as they come (a worker's answers wait in its outbox while the main process is busy with
        ``meanwhile``)."""
        held = [[key for key, holder in seeds if holder == number] for number in range(self.workers)]
        if closed:
            self._interleave(tier, held)
        else:
            self._balance(tier, held, _BALANCE_SLACK)
        tail = _Tail(self, tier, held, not closed, [key for key, _ in seeds] if closed else None)
        if meanwhile is not None:
            meanwhile()
        while tail.waiting:
            for connection in wait([self.connections[number] for number in tail.waiting]):
                assert isinstance(connection, Connection)
                number = self.connections.index(connection)
                expanded = tail.answered(number, *self._status_and_answer(connection))
                if expanded is not None:
                    yield expanded

    def _interleave(self, tier: int, held: list[list[bytes]]) -> None:
        """Share the positions of ``tier`` out among the workers (``held``: each worker's keys,
        updated) by turns in key order, moving those another worker is to expand.  With a
        closure each position sent carries the work of those it finds, which varies: Pig's
        turns are longer for the player further behind (one to 54 positions a turn in a tier of
        Pig to 30), and equal numbers of turns held as they were found kept one worker busy
        about twice as long as the other."""
        turns = sorted(key for keys in held for key in keys)
        given = {key: place % self.workers for place, key in enumerate(turns)}
        for giver, keys in enumerate(held):
            for taker in range(self.workers):
                moved = [key for key in keys if given[key] == taker]
                if taker != giver and moved:
                    self._move(tier, giver, taker, moved)
        held[:] = [turns[number::self.workers] for number in range(self.workers)]

    def _move(self, tier: int, giver: int, taker: int, keys: list[bytes]) -> None:
        """Move the states of ``keys`` of ``tier`` from worker ``giver`` to worker ``taker``."""
        self._send(self.connections[giver], ("give", tier, keys))
        states = self._received(self.connections[giver])
        self._send(self.connections[taker], ("adopt", tier, keys, states))

    def _balance(self, tier: int, held: list[list[bytes]], least: int) -> None:
        """Move positions of ``tier`` from the workers holding more than their share to those
        holding less (``held``: each worker's keys, updated), when both the surplus and the room
        are worth it: more than a tenth of a share, and more than ``least``."""
        share = -(-sum(map(len, held)) // self.workers)
        slack = max(least, share // 10)
        for giver, keys in enumerate(held):
            for taker, taken in enumerate(held):
                surplus, room = len(keys) - share, share - len(taken)
                if surplus <= slack or room <= slack:
                    continue
                moved = keys[len(keys) - min(surplus, room):]
                del keys[len(keys) - len(moved):]
                self._move(tier, giver, taker, moved)
                taken += moved

    def forget(self, tier: int) -> None:
        """Every worker drops the states of ``tier`` it still keeps."""
        for connection in self.connections:
            self._send(connection, ("forget", tier))

    def commit(self) -> None:
        """Every worker commits the rows it wrote to its part file."""
        for connection in self.connections:
            self._send(connection, ("commit",))
        for connection in self.connections:
            self._received(connection)

    def hand_over(self) -> list[tuple[str, int]]:
        """Every worker commits the rows it wrote to its part file and closes it, its work done:
        each part file with its number of rows."""
        for connection in self.connections:
            self._send(connection, ("hand over",))
        counts = [self._received(connection) for connection in self.connections]
        return list(zip(self.part_files, counts))

    def next_tier(self, graph_file: Path) -> None:
        """Tell every worker the file of the graph of the tier to solve next: they read it
        while they solve the tier at work (from the file: megabytes through a pipe held up the
        main process until the workers' reader threads had taken them), and cut its chunks
        themselves (``solve_ranges``)."""
        for connection in self.connections:
            self._send(connection, ("graph", str(graph_file)))

    def start_tier(self, graph: TierGraph, fixed: Answers, solved: Solution,
                   settings: tuple[bool, float, int]) -> None:
        """Send every worker the answers the tier reaches in higher tiers: the workers start on
        the graph sent last with ``next_tier``."""
        message = pickle.dumps(("tier", graph.tier, fixed, settings), pickle.HIGHEST_PROTOCOL)
        for connection in self.connections:
            self._send(connection, message)
        self.levelled = bool(graph.levels)
        self.unseen = [[] for _ in self.connections]

    def solve_ranges(self, ranges: list[Sequence[int]]) -> Iterator[ChunkSolution]:
        """The solutions of ``ranges`` of the tier's nodes, in order, each worker writing the rows
        of those it solves to its part file.  Each worker is sent ``_AHEAD`` ranges at first,
        and one more with each answer, so that it goes on at once; a range carries the answers
        the other workers found since the worker's last range (a tier in levels only: a level
        reaches the ones below).  The first ranges are sent before this returns."""
        pending = deque(enumerate(ranges))
        sent: dict[int, deque[tuple[int, Sequence[int]]]] = {number: deque() for number in range(self.workers)}
        for _ in range(_AHEAD):
            for number in sent:
                if pending:
                    self._send_range(number, *pending.popleft(), sent)
        return _in_order(self._shared_answers(pending, sent))

    def _send_range(self, number: int, index: int, part: Sequence[int],
                    sent: dict[int, deque[tuple[int, Sequence[int]]]]) -> None:
        """Send worker ``number`` the range ``part`` (the ``index``-th) to solve."""
        learned, self.unseen[number] = self.unseen[number], []
        self._send(self.connections[number], ("solve", part[0], part[-1] + 1, learned))
        sent[number].append((index, part))

    def _shared_answers(self, pending: deque[tuple[int, Sequence[int]]],
                        sent: dict[int, deque[tuple[int, Sequence[int]]]]) -> Iterator[tuple[int, ChunkSolution]]:
        """The answers of the workers sent ranges (worker -> its ranges not answered yet, with
        their indices), as (index, answer); a worker that answers gets the next of
        ``pending``."""
        while any(sent.values()):
            # The last chunks of a level out, the workers soon wait for the next level's: no idle work.
            idle = self.idle_work if pending or not self.levelled else None
            for connection in _answering([self.connections[number] for number, ranges in sent.items() if ranges], idle):
                assert isinstance(connection, Connection)
                number = self.connections.index(connection)
                index, part = sent[number].popleft()
                answer: ChunkSolution = self._received(connection)
                if self.levelled:
                    for other, unseen in enumerate(self.unseen):
                        if other != number:
                            unseen.append((part[0], answer[0], answer[1]))
                if pending:
                    self._send_range(number, *pending.popleft(), sent)
                yield index, answer

    @staticmethod
    def _send(connection: Connection, request: Any) -> None:
        """Send a worker a request (pickled already if bytes)."""
        try:
            if isinstance(request, bytes):
                connection.send_bytes(request)
            else:
                connection.send(request)
        except OSError:  # killed, or out of memory
            raise SearchError(_GONE) from None

    @staticmethod
    def _status_and_answer(connection: Connection) -> tuple[str, Any]:
        """A worker's answer with its kind (``ok``, or ``handed`` for states handed over), or
        the error it sent raised here."""
        try:
            status, answer = connection.recv()
        except (EOFError, OSError):  # killed, or out of memory: it had no chance to say why
            raise SearchError(_GONE) from None
        if status == "error":
            raise answer
        return status, answer

    def _received(self, connection: Connection) -> Any:
        """A worker's answer, or the error it sent raised here."""
        return self._status_and_answer(connection)[1]

    def close(self) -> None:
        """Stop the worker processes: each is asked to, then given a second in all, the same
        second for every one (a worker at work answers once its chunk is done), and ended if
        it is still at work."""
        for connection in self.connections:
            try:
                connection.send(("stop",))
            except (OSError, ValueError):
                pass
        deadline = monotonic() + _STOP_SECONDS
        for process in self.processes:
            process.join(timeout=max(0.0, deadline - monotonic()))
        for connection, process in zip(self.connections, self.processes):
            if process.is_alive():
                process.terminate()
                process.join()
            connection.close()
        for part in self.part_files:
            remove_sqlite_file(part)
