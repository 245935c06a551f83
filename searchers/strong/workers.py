"""Worker processes of this machine that keep the states they make.

Pickling a game state costs more than expanding it, so states do not travel: each worker keeps
the children its expansions make, by tier and key, and the main process, which decides which
positions are new, sends each worker only the keys of the positions it holds.  A child made by
two workers is expanded by the one whose answer the main process read first; the other copy is
dropped with its tier (``forget``).  Before a tier is expanded, a worker that holds more than
its share of the tier's positions hands the surplus over to the others, pickled (``give``,
``adopt``): the start is held by one worker, and without this every position after it would
stay with that worker too; balanced once, the workers make about equal shares of the next
tiers, so little moves after the first tiers.  Each worker also solves chunks of tiers (of
flat tiers, and of the levels of tiers without cycles).

A worker answers its requests in turn over its pipe (a request to expand chunks has an answer
for each chunk), and the main process sends a worker a request only once it has read every
answer to the ones before: a worker sent a request is always reading, so neither side can be
stuck writing to a full pipe.
"""

from __future__ import annotations

import multiprocessing
import os
import pickle
import queue
import threading
from collections import deque
from collections.abc import Callable, Iterable, Iterator
from multiprocessing.connection import Connection, wait
from typing import Any

from .._common import fewer_collections
from ..results import SearchError
from .parallel import ChunkExpansion, Factory, Runner, Seeds, ignore_interrupts, chunked, expand_states
from .tablebase import TablebaseWriter, rows_of
from .tiergraph import ChunkSolution, SolveChunk, solve_chunk

# Positions a worker may hold beyond its share of a tier before some are moved to another.
_BALANCE_SLACK = 256


def _serve(connection: Connection, factory_bytes: bytes, number: int, part: str | None) -> None:
    """A worker's loop: answer requests until told to stop; the rows of the chunks it solves
    go to its part file ``part``.

    Answers leave through an outbox, sent by a thread of their own, so that the worker goes
    on to its next chunk while the main process is too busy to read."""
    ignore_interrupts()
    rows = None if part is None else TablebaseWriter(part)
    outbox: queue.SimpleQueue[Any] = queue.SimpleQueue()
    sender = threading.Thread(target=_send_all, args=(connection, outbox), daemon=True)
    sender.start()
    try:
        with fewer_collections():
            _answer(connection, pickle.loads(factory_bytes)(), number, rows, outbox.put)
    finally:
        outbox.put(None)
        sender.join()
        if rows is not None:
            rows.close()


def _send_all(connection: Connection, outbox: queue.SimpleQueue[Any]) -> None:
    """Send the answers put in ``outbox``, in order, until it gives None."""
    while (answer := outbox.get()) is not None:
        try:
            connection.send(answer)
        except Exception as error:  # an answer that cannot be pickled: the main process raises it
            connection.send(("error", SearchError(f"a worker failed: {error!r}")))


def _answer(connection: Connection, game: Any, number: int, rows: TablebaseWriter | None,
            reply: Callable[[tuple[str, Any]], None]) -> None:
    """Answer requests until told to stop: read from ``connection``, answered by ``reply``."""
    kept: dict[int, dict[bytes, Any]] = {}  # the states this worker made, by tier and key
    while True:
        request = connection.recv()
        what = request[0]
        if what == "stop":
            return
        try:
            if what == "expand":  # chunks of keys: an answer for each, one after the other
                _, tier, chunks = request
                held = kept.get(tier, {})
                for keys in chunks:
                    answer = expand_states(game, tier, [held.pop(key) for key in keys])
                    children = answer[7]
                    for key, child_tier, child in zip(answer[5], answer[6], children):
                        if child is not None:
                            kept.setdefault(child_tier, {}).setdefault(key, child)
                    answer = answer[:7] + ([None if child is None else number for child in children],)
                    reply(("ok", answer))
            elif what == "adopt":
                _, tier, keys, states = request
                kept.setdefault(tier, {}).update(zip(keys, pickle.loads(states)))
            elif what == "give":
                _, tier, keys = request
                held = kept.get(tier, {})
                reply(("ok", pickle.dumps([held.pop(key) for key in keys], pickle.HIGHEST_PROTOCOL)))
            elif what == "forget":
                kept.pop(request[1], None)
            elif what == "solve":
                _, chunk, keys = request
                solved = solve_chunk(chunk)
                if keys is not None and rows is not None:
                    rows.add(rows_of(keys, *solved[:3]), commit=False)
                reply(("ok", solved))
            elif what == "commit":
                if rows is not None:
                    rows.commit()
                reply(("ok", None))
        except Exception as error:  # the game's own errors among them: the main process raises it
            reply(("error", error))


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


class WorkerRunner(Runner):
    """Expands and solves chunks in ``workers`` processes of this machine, each keeping the
    states it makes (a seed is the number of the worker that holds its state)."""

    def __init__(self, factory: Factory, workers: int, parts: str | None = None) -> None:
        """Start the worker processes (each writing the rows it solves to ``parts`` and its
        number, if given)."""
        self.workers = workers
        self.where = f"{workers} worker processes"
        self.part_files = [] if parts is None else [f"{parts}{number}" for number in range(workers)]
        factory_bytes = pickle.dumps(factory)
        self.connections: list[Connection] = []
        self.processes = []
        for number in range(workers):
            mine, theirs = multiprocessing.Pipe()
            part = self.part_files[number] if self.part_files else None
            process = multiprocessing.Process(target=_serve, args=(theirs, factory_bytes, number, part), daemon=True)
            process.start()
            theirs.close()
            self.connections.append(mine)
            self.processes.append(process)

    def seed(self, tier: int, key: bytes, state: Any) -> Any:
        """Hand the state to the first worker."""
        self.connections[0].send(("adopt", tier, [key], pickle.dumps([state], pickle.HIGHEST_PROTOCOL)))
        return 0

    def expand(self, tier: int, seeds: Seeds, meanwhile: Callable[[], None] | None = None
               ) -> Iterator[tuple[list[bytes], ChunkExpansion]]:
        """The expansion of each worker's seeds, a chunk at a time, as the chunks are ready;
        ``meanwhile`` is called once every worker is sent its chunks.

        Each worker is sent all its chunks at once, and answers them one by one without waiting
        for the main process, which reads the answers as they come (a worker's answers wait
        in its outbox while the main process is busy with ``meanwhile``)."""
        held = [[key for key, holder in seeds if holder == number] for number in range(self.workers)]
        self._balance(tier, held)
        chunks: dict[int, deque[list[bytes]]] = {}
        for number, keys in enumerate(held):
            if keys:  # a worker is idle when sent its chunks: it reads them at once
                chunks[number] = deque(list(chunk) for chunk in chunked(keys, 1))
                self.connections[number].send(("expand", tier, list(chunks[number])))
        if meanwhile is not None:
            meanwhile()
        while chunks:
            for connection in wait([self.connections[number] for number in chunks]):
                assert isinstance(connection, Connection)
                number = self.connections.index(connection)
                answer = self._received(connection)
                keys = chunks[number].popleft()
                if not chunks[number]:
                    del chunks[number]
                yield keys, answer

    def _balance(self, tier: int, held: list[list[bytes]]) -> None:
        """Move positions of ``tier`` from the workers holding more than their share to those
        holding less (``held``: each worker's keys, updated), when the difference is worth it."""
        share = -(-sum(map(len, held)) // self.workers)
        slack = max(_BALANCE_SLACK, share // 10)
        for giver, keys in enumerate(held):
            for taker, taken in enumerate(held):
                surplus, room = len(keys) - share, share - len(taken)
                if surplus <= slack or room <= slack:
                    continue
                moved = keys[len(keys) - min(surplus, room):]
                del keys[len(keys) - len(moved):]
                self.connections[giver].send(("give", tier, moved))
                states = self._received(self.connections[giver])
                self.connections[taker].send(("adopt", tier, moved, states))
                taken += moved

    def forget(self, tier: int) -> None:
        """Every worker drops the states of ``tier`` it still keeps."""
        for connection in self.connections:
            connection.send(("forget", tier))

    def commit(self) -> None:
        """Every worker commits the rows it wrote to its part file."""
        for connection in self.connections:
            connection.send(("commit",))
        for connection in self.connections:
            self._received(connection)

    def solve(self, chunks: Iterable[SolveChunk], keys: list[list[bytes]] | None = None) -> Iterator[ChunkSolution]:
        """The solution of every chunk, in order (with ``keys``, each worker writes their rows to
        its part file).  Each chunk goes to the first worker free, and is made (``chunks`` may be
        lazy) while the workers solve the ones before; the first requests are sent before this
        returns."""
        requests = (("solve", chunk, None if keys is None else keys[index]) for index, chunk in enumerate(chunks))
        busy: dict[int, int] = {}
        for number, request in zip(range(self.workers), requests):
            self.connections[number].send(request)
            busy[number] = len(busy)
        return _in_order(self._shared_answers(requests, busy))

    def _shared_answers(self, requests: Iterator[Any], busy: dict[int, int]) -> Iterator[tuple[int, Any]]:
        """The answers of the busy workers (worker -> its job's index), as (index, answer); a
        worker that answers gets the next of ``requests``, made ahead while they work."""
        sent = len(busy)
        upcoming = next(requests, None)
        while busy:
            for connection in wait([self.connections[number] for number in busy]):
                assert isinstance(connection, Connection)
                number = self.connections.index(connection)
                index = busy.pop(number)
                answer = self._received(connection)
                if upcoming is not None:
                    connection.send(upcoming)
                    busy[number], sent = sent, sent + 1
                    upcoming = next(requests, None)
                yield index, answer

    @staticmethod
    def _received(connection: Connection) -> Any:
        """A worker's answer, or the error it sent raised here."""
        status, answer = connection.recv()
        if status == "error":
            raise answer
        return answer

    def close(self) -> None:
        """Stop the worker processes (at once, if they are at work)."""
        for connection, process in zip(self.connections, self.processes):
            try:
                connection.send(("stop",))
            except (OSError, ValueError):
                pass
            process.join(timeout=1)
            if process.is_alive():
                process.terminate()
                process.join()
            connection.close()
        for part in self.part_files:
            for path in (part, f"{part}-journal"):
                if os.path.exists(path):
                    os.remove(path)
