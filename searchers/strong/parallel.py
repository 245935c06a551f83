"""The work of a tier in parallel: in this process, in worker processes, or as Ray tasks.

A tier is worked on in chunks, each independent of the others, so a chunk can go anywhere:

- expanding positions (running the game's rules for their moves, the costly part of a strong
  solve): ``expand_states`` gives, for a chunk of states of one tier, each position's kind,
  score and number of moves, and each move's child as its stable key, its tier and its state;
- solving positions whose every move leaves the tier (the children's answers known from the
  tiers solved before): ``solve_chunk`` gives their values, remoteness and best moves.

A worker builds its own copy of the game from the caller's ``factory``, a picklable function
with no arguments that returns the game (searchers never import gdl: the command line passes
one that builds the game from its file's text and parameters).  To Ray tasks states travel
pickled, one by one, so that the main process only passes on the bytes of the new ones; worker
processes of this machine (``workers``) keep the states they make and receive only keys.
"""

from __future__ import annotations

import pickle
import signal
import socket
import threading
from array import array
from collections.abc import Callable, Iterable, Iterator, Sequence
from contextlib import contextmanager
from itertools import accumulate
from pathlib import Path
from typing import Any, TypeVar, no_type_check as typeguard_ignore

from ..protocol import Game, Value, has_chance, no_moves_error, position_of, repetition_rule
from ..results import SearchError
from .graph import CHANCE, MAX, MIN, TERMINAL, IntArray, PositionSampler, tier_error
from .keys import stable_key
from .solution import Solution
from .tiergraph import Answers, ChunkCutter, ChunkSolution, SolveChunk, TierGraph, solve_chunk

Factory = Callable[[], Game]

# Positions a chunk of work holds at most, and chunks per worker in a round at least.
_CHUNK = 2_000
_CHUNKS_PER_WORKER = 4

# Seconds to wait for a Ray cluster's address to answer before saying nothing does.
_RAY_PROBE_SECONDS = 5.0

# Positions a chunk expands at most, those its moves find inside the tier included (``Closure``).
_CLOSURE_LIMIT = 8_000

ChunkExpansion = tuple[bytearray, IntArray, dict[int, Value], dict[int, list[Value]], list[Value | None],
                       list[bytes], IntArray, list[Any], list[bytes]]
"""A chunk's expansion: for each position in order its kind, number of moves, and (by its index
in the chunk) its score if finished and its outcomes' probabilities at a chance node, and its
repetition score (None if finished or where the game has no rule); then for each move in order
its child's key, tier and state (pickled from a worker; None where the chunk gave the same
position before); last, the keys of the positions expanded past the chunk's own, found by its
moves inside the tier (``Closure``), whose answers follow those of the chunk's own."""


class Closure:
    """Leave to a chunk the positions its moves find inside the tier: in a tier such as Pig's
    (a turn's rolls, one after the other), a round of expansion a roll costs a round trip
    to the workers each, and keeps them waiting.  A child inside the tier is expanded in the
    same chunk unless it is one of the round's ``seeds`` (another chunk's, or this one's), was
    expanded here before (``claimed``: by this process, in this tier) or the chunk has grown to
    ``limit`` positions; the main process drops a position two processes expanded both."""

    def __init__(self, seeds: set[bytes], claimed: set[bytes], limit: int = _CLOSURE_LIMIT) -> None:
        """Expand past the round's ``seeds``, never twice what this process ``claimed``."""
        self.seeds, self.claimed, self.limit = seeds, claimed, limit

    def expanding(self, keys: list[bytes]) -> None:
        """Note the chunk's own positions, about to be expanded: this process claims them too,
        so that a later round's chunk does not go past them again."""
        self.claimed.update(keys)


# This process's copy of each game, by its factory's pickle, and the sampler that checks its
# positions (Ray tasks run one after another in a process).
_games: dict[bytes, tuple[Game, PositionSampler]] = {}

# The stable keys of the positions met lately: a position is reached by several moves, and
# hashing it is much quicker than encoding it again.
_keys: dict[Any, bytes] = {}
_KEYS_KEPT = 1 << 18


def key_of(position: Any) -> bytes:
    """The stable key of ``position``, remembered for the next move that reaches it."""
    key = _keys.get(position)
    if key is None:
        if len(_keys) >= _KEYS_KEPT:
            _keys.clear()
        key = _keys[position] = stable_key(position)
    return key


def _game_for(factory_bytes: bytes) -> tuple[Game, PositionSampler]:
    found = _games.get(factory_bytes)
    if found is None:
        game = pickle.loads(factory_bytes)()
        found = _games[factory_bytes] = (game, PositionSampler(game))
    return found


def expand_chunk(factory_bytes: bytes, tier: int, states: list[bytes], seeds: set[bytes] | None
                 ) -> ChunkExpansion:
    """Expand pickled states of ``tier`` with the game the pickled factory builds (in a
    worker), and, given the round's ``seeds``, the positions found inside the tier
    (``Closure``); the children come back pickled."""
    game, sampler = _game_for(factory_bytes)
    closure = None if seeds is None else Closure(seeds, set())
    expansion: ChunkExpansion = expand_states(game, sampler, tier, [pickle.loads(s) for s in states], pickled=True,
                                              closure=closure)
    return expansion


@typeguard_ignore
def expand_states(game: Game, sampler: PositionSampler, tier: int, states: list[Any], pickled: bool = False,
                  closure: Closure | None = None) -> ChunkExpansion:
    """The expansion of ``states``, all of ``tier`` (see ``ChunkExpansion``), and with a
    ``closure`` of the positions they find inside the tier; the children pickled if
    ``pickled``.  ``sampler`` is the process's for the whole solve: a position is met again in
    other chunks."""
    first_player = game.players[0]
    chance = has_chance(game)
    is_chance, chance_outcomes = (game.is_chance, game.chance_outcomes) if chance else (None, None)
    is_terminal, utility, actions, result, to_move = (
        game.is_terminal, game.utility, game.actions, game.result, game.to_move)
    position = position_of(game)
    repetition = repetition_rule(game)
    tier_of = game.tier
    sampler.enter(tier)
    see = sampler.see
    dumps, protocol = pickle.dumps, pickle.HIGHEST_PROTOCOL
    kinds, counts = bytearray(), array("q")
    utilities: dict[int, Value] = {}
    probabilities: dict[int, list[Value]] = {}
    repetitions: list[Value | None] = []
    keys: list[bytes] = []
    tiers = array("q")
    children: list[Any] = []
    sent: set[bytes] = set()
    extra: list[bytes] = []
    states = list(states)  # grown by the closure, as the loop goes
    seeds, claimed = (closure.seeds, closure.claimed) if closure is not None else (set(), set())
    room = 0 if closure is None else closure.limit - len(states)
    for node, state in enumerate(states):
        if is_terminal(state):
            kinds.append(TERMINAL)
            counts.append(0)
            utilities[node] = utility(state, first_player)
            repetitions.append(None)
            continue
        if chance and is_chance(state):
            outcomes = chance_outcomes(state)
            moves = [outcome for outcome, _ in outcomes]
            probabilities[node] = [p for _, p in outcomes]
            kinds.append(CHANCE)
        else:
            moves = actions(state)
            if not moves:
                raise no_moves_error(game, state)
            kinds.append(MAX if to_move(state) == first_player else MIN)
        counts.append(len(moves))
        repetitions.append(None if repetition is None else repetition(state))
        for move in moves:
            child = result(state, move)
            child_tier = tier_of(child)
            if child_tier < tier:
                raise tier_error(game, state, move, child)
            if position is None:
                key = key_of(child)
            else:
                key = key_of(position(child))
                see(key, child)  # by the key: its hash is kept, the position's is computed anew
            keys.append(key)
            tiers.append(child_tier)
            if key in sent:
                children.append(None)
            else:
                sent.add(key)
                children.append(dumps(child, protocol) if pickled else child)
                if child_tier == tier and room > 0 and key not in seeds and key not in claimed:
                    claimed.add(key)
                    states.append(child)
                    extra.append(key)
                    room -= 1
    return kinds, counts, utilities, probabilities, repetitions, keys, tiers, children, extra


_STOPS = {signal.SIGINT, signal.SIGTERM}


@contextmanager
def stops_held() -> Iterator[None]:
    """Hold Ctrl-C and SIGTERM back while worker processes are started (on systems that can):
    a Python handler that ran inside fork's own bookkeeping would have its exception printed
    and dropped, so the signal would be lost.  Held back, it reaches the main process once the
    workers are started, and each worker once it has its own handlers (``ignore_interrupts``)."""
    if not hasattr(signal, "pthread_sigmask"):
        yield
        return
    previous = signal.pthread_sigmask(signal.SIG_BLOCK, _STOPS)
    try:
        yield
    finally:
        signal.pthread_sigmask(signal.SIG_SETMASK, previous)


@contextmanager
def stops_deferred() -> Iterator[None]:
    """Let Ctrl-C and SIGTERM wait until the block is done, then handle the first that came
    as it would have been handled (a second Ctrl-C while a stopped solve shuts its workers down
    would leave their files behind); a third stop in the block stops it at once, should it
    hang.  A signal is recorded rather than blocked: another thread (Ray's) may be the one the
    system hands it to.  Only the main thread sets handlers; in another one a signal does not
    interrupt the block anyway."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return
    came: list[int] = []

    def note(number: int, _: Any) -> None:
        came.append(number)
        if len(came) > _STOPS_DEFERRED:
            raise KeyboardInterrupt

    before_int = signal.signal(signal.SIGINT, note)
    before_term = signal.signal(signal.SIGTERM, note)
    try:
        yield
    finally:
        # Each handler is put back even if the other one, put back first, raises meanwhile.
        try:
            signal.signal(signal.SIGTERM, signal.SIG_DFL if before_term is None else before_term)
        finally:
            signal.signal(signal.SIGINT, signal.SIG_DFL if before_int is None else before_int)
    if came:
        signal.raise_signal(came[0])


_STOPS_DEFERRED = 2  # stops that wait for the end of a ``stops_deferred`` block: more end it


def ignore_interrupts() -> None:
    """Let a worker process ignore Ctrl-C, and end at once on SIGTERM."""
    # Ctrl-C reaches every process of the terminal's group: the main process alone stops the
    # solve, and shuts the workers down.  A forked worker inherits the main process's handlers,
    # among them one that turns SIGTERM into an interruption to clean up after: the main
    # process cleans up, and a worker it terminates just ends.  Both signals were held back
    # while the worker started (``stops_held``): they may come now.
    signal.signal(signal.SIGINT, signal.SIG_IGN)
    signal.signal(signal.SIGTERM, signal.SIG_DFL)
    if hasattr(signal, "pthread_sigmask"):
        signal.pthread_sigmask(signal.SIG_UNBLOCK, _STOPS)


Item = TypeVar("Item")

Seeds = list[tuple[bytes, Any]]
"""Positions to expand: each one's key and its state as the runner keeps it (``Runner.seed``)."""


def chunk_count(count: int, workers: int, largest: int | None = None, least: int = 1) -> int:
    """How many chunks ``count`` items are cut into: enough that none holds more than
    ``largest`` (by default ``_CHUNK``, as it is at the call); else ``_CHUNKS_PER_WORKER`` a
    worker, or as many as hold ``least`` items each, if fewer; and where that is fewer than
    ``_CHUNKS_PER_WORKER`` a worker but more than one, as many for each worker (rounded up,
    so that a chunk may hold fewer than ``least``): cut at 256 positions, a tier of Pig to 30
    of 745 made three chunks, 256, 256 and 233, and kept one of two workers busy twice as
    long as the other; a level of 300 positions of Kalah's, two of 256 and 44."""
    if count <= 0:
        return 0
    most = _CHUNK if largest is None else largest
    chunks = max(-(-count // most), min(workers * _CHUNKS_PER_WORKER, -(-count // max(least, 1))))
    if 1 < chunks < workers * _CHUNKS_PER_WORKER:
        chunks = min(count, workers * _CHUNKS_PER_WORKER, -(-chunks // workers) * workers)
    return chunks


def chunk_size(count: int, workers: int, largest: int | None = None, least: int = 1) -> int:
    """How many of ``count`` items the largest chunk of ``chunk_count`` holds (those cut by
    ``chunked`` differ by one at most)."""
    return -(-count // max(chunk_count(count, workers, largest, least), 1))


def chunked(items: Sequence[Item], workers: int, largest: int | None = None, least: int = 1) -> list[Sequence[Item]]:
    """``items`` cut into ``chunk_count`` consecutive chunks, as even as can be: the first ones
    one item larger than the others where they cannot be equal."""
    chunks = chunk_count(len(items), workers, largest, least)
    if not chunks:
        return []
    size, larger = divmod(len(items), chunks)
    ends = accumulate(size + (place < larger) for place in range(chunks))
    return [items[end - size - (place < larger):end] for place, end in enumerate(ends)]


class Runner:
    """Expands and solves the chunks of a tier in this process."""

    workers = 1
    where = "one process"
    part_files: list[str] = []
    """The files the runner's processes write the rows of the chunks they solve to (none: the
    caller writes them)."""
    children_held = False
    """Whether an expansion gives each child as the number of the worker process that keeps its
    state (the one that expanded the chunk), not as the state."""
    idle_work: Callable[[], bool] | None = None
    """Work of the caller's to do, a piece a call, while the runner waits for its processes'
    answers, until it says none is left (worker processes only: this process never waits)."""

    def __init__(self, game: Game) -> None:
        """Work with ``game`` itself, in this process."""
        self.game = game
        self.sampler = PositionSampler(game)
        self.claimed: dict[int, set[bytes]] = {}  # by tier: the positions expanded past the chunks (``Closure``)

    def seed(self, tier: int, key: bytes, state: Any) -> Any:
        """The state of position ``key`` (of ``tier``) as the runner keeps it in a frontier."""
        return state

    def expand(self, tier: int, seeds: Seeds, meanwhile: Callable[[], None] | None = None, closed: bool = False
               ) -> Iterator[tuple[list[bytes], ChunkExpansion]]:
        """The expansion of ``seeds`` of ``tier``, a chunk at a time: the chunk's keys and its
        expansion, whose children are kept as ``seed`` keeps them; ``closed``, with the
        positions each chunk finds inside the tier (``Closure``).  ``meanwhile`` is called
        once, as soon as the work is under way (here, before it: this process does it)."""
        if meanwhile is not None:
            meanwhile()
        closure = Closure({key for key, _ in seeds}, self.claimed.setdefault(tier, set())) if closed else None
        for chunk in chunked(seeds, self.workers):
            keys = [key for key, _ in chunk]
            if closure is not None:
                closure.expanding(keys)
            yield keys, expand_states(self.game, self.sampler, tier, [state for _, state in chunk], closure=closure)

    def forget(self, tier: int) -> None:
        """Drop what is kept of ``tier``: its positions are all expanded."""
        self.claimed.pop(tier, None)

    # Whether the runner's processes read the graphs of the tiers to solve from files
    # (``next_tier``): this process has them already.
    reads_graph_files = False

    def next_tier(self, graph_file: Path) -> None:
        """The file holding the graph of the tier to solve after the one at work
        (``TierGraph.to_bytes``), handed over ahead of ``start_tier`` where the runner
        ``reads_graph_files``; it is kept until that tier is solved."""

    def start_tier(self, graph: TierGraph, fixed: Answers, solved: Solution,
                   settings: tuple[bool, float, int]) -> None:
        """Get ready to solve ``graph``'s nodes in chunks (``solve_ranges``; worker processes
        were handed the graph with ``next_tier``): ``fixed`` holds the answers of its external
        positions, in order, and ``solved`` the solution the caller fills as the chunks come back;
        ``settings`` are whether the game has dice, the tolerance of value iteration and the
        number of positions of the game."""
        self._cutter = ChunkCutter(graph, fixed, solved)
        self._settings = settings

    def solve_ranges(self, ranges: list[Sequence[int]]) -> Iterator[ChunkSolution]:
        """The solutions of ``ranges`` of the nodes of the tier begun with ``start_tier``, in
        order (a runner with ``part_files`` writes their rows there too).  Every move inside
        the tier from these nodes reaches a node of an earlier call, solved in the solution
        ``start_tier`` was given by the time of this one."""
        return self.solve((*self._cutter.cut(part[0], part[-1] + 1), *self._settings) for part in ranges)

    def solve(self, chunks: Iterable[SolveChunk]) -> Iterator[ChunkSolution]:
        """The solution of every chunk, in order (each chunk made as it is needed: ``chunks`` may
        be lazy)."""
        return (solve_chunk(chunk) for chunk in chunks)

    def commit(self) -> None:
        """Make the rows written to ``part_files`` so far readable to other processes."""

    def hand_over(self) -> list[tuple[str, int]]:
        """Commit and close the ``part_files``, the work done, for the caller to take over:
        each with its number of rows."""
        return []

    def close(self) -> None:
        """Free the workers."""


class RayRunner(Runner):
    """Expands and solves chunks as Ray tasks, on a cluster or a local Ray runtime; states
    travel pickled."""

    def __init__(self, factory: Factory, address: str) -> None:
        """Join the Ray cluster at ``address`` (``auto``: the local one, started if need be)."""
        try:
            import ray
        except ImportError:
            raise SearchError("--ray needs Ray: pip install 'gdl[ray]'") from None
        if not ray.is_initialized():
            unreachable = _unreachable(address)
            if unreachable is not None:  # Ray would log for about 20 s before it gave up
                raise SearchError(f"cannot join the Ray cluster at {address}: nothing answers there ({unreachable})")
            try:
                # A stop while Ray starts its processes comes after: within, Python may drop it
                # (raised in a handler run at a fork), and Ray sets a SIGTERM handler of its own
                # (an exit at once, without the solve's cleaning up), taken off at the end.
                with stops_deferred():
                    if address == "auto":
                        ray.init(include_dashboard=False, ignore_reinit_error=True)
                    else:
                        ray.init(address=address, include_dashboard=False)
            except Exception as error:  # Ray raises several kinds: none is the game's fault
                raise SearchError(f"cannot join the Ray cluster at {address}: {error}") from None
            except BaseException as stop:  # Ctrl-C while Ray starts: the processes it has started go too
                ray.shutdown()
                if isinstance(stop, SystemExit) and stop.code == signal.SIGTERM:
                    # SIGTERM to Ray's handler, set while it started: to the solve's, put back.
                    signal.raise_signal(signal.SIGTERM)
                raise
        self.ray = ray
        self.expand_task = ray.remote(expand_chunk)
        self.solve_task = ray.remote(solve_chunk)
        self.factory = ray.put(pickle.dumps(factory))
        self.workers = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        self.where = f"Ray tasks on {self.workers} CPUs"

    def seed(self, tier: int, key: bytes, state: Any) -> Any:
        """The state pickled."""
        return pickle.dumps(state, pickle.HIGHEST_PROTOCOL)

    def expand(self, tier: int, seeds: Seeds, meanwhile: Callable[[], None] | None = None, closed: bool = False
               ) -> Iterator[tuple[list[bytes], ChunkExpansion]]:
        """The expansion of every chunk, in order, each as soon as it is ready; ``meanwhile``
        called once the tasks are submitted."""
        chunks = chunked(seeds, self.workers)
        round_seeds = {key for key, _ in seeds} if closed else None
        tasks = [self.expand_task.remote(self.factory, tier, [state for _, state in chunk], round_seeds)
                 for chunk in chunks]
        if meanwhile is not None:
            meanwhile()
        for chunk, answer in zip(chunks, self._results(tasks)):
            yield [key for key, _ in chunk], answer

    def forget(self, tier: int) -> None:
        """Nothing is kept of a tier between tasks."""

    def solve(self, chunks: Iterable[SolveChunk]) -> Iterator[ChunkSolution]:
        """The solution of every chunk, in order, each as soon as it is ready."""
        return self._results([self.solve_task.remote(chunk) for chunk in chunks])

    def _results(self, tasks: list[Any]) -> Iterator[Any]:
        for task in tasks:
            try:
                yield self.ray.get(task)
            except self.ray.exceptions.RayTaskError as error:
                # The game's own error (a rule that failed), as a single process would raise it.
                cause = getattr(error, "cause", None)
                if isinstance(cause, Exception):
                    raise cause from None
                raise


def _unreachable(address: str) -> str | None:
    """Why nothing answers at a Ray address of the form HOST:PORT (a scheme such as ``ray://``
    allowed), tried for a few seconds; None if something does, or the address has another
    form (``auto``: Ray's own checks say what is wrong with it)."""
    host, colon, port = address.split("://", 1)[-1].rpartition(":")
    if not colon or not host or not port.isdigit() or not 0 < int(port) < 65536:
        return None
    try:
        socket.create_connection((host.strip("[]"), int(port)), timeout=_RAY_PROBE_SECONDS).close()
    except OSError as error:
        return error.strerror or str(error) or type(error).__name__
    return None


def make_runner(game: Game, factory: Factory | None, workers: int, ray: str | None, parts: str | None = None) -> Runner:
    """The runner the options ask for: Ray, worker processes, or this process; worker processes
    write the rows of the chunks they solve to files named ``parts`` and their number."""
    if ray is not None or workers > 1:
        if factory is None:
            raise SearchError("solving with workers or Ray needs a factory that builds the game")
        if ray is not None:
            return RayRunner(factory, ray)
        from .workers import WorkerRunner

        return WorkerRunner(factory, workers, parts)
    return Runner(game)
