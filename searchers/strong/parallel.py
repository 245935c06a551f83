"""Expanding positions in parallel: in this process, in worker processes, or as Ray tasks.

Expanding a position (running the game's rules for its moves) is the costly part of a strong
solve, and each position's expansion is independent of the others', so a chunk of positions
can be expanded anywhere.  A worker builds its own copy of the game from the caller's
``factory``, a picklable function with no arguments that returns the game (searchers never
import gdl: the command line passes one that builds the game from its file's text and
parameters).  States travel pickled, a chunk at a time.

A chunk's answer lists, for each position in order, ``(kind, utility, probabilities,
repetition, children)``, each child as ``(key, tier, state)``: the child's stable key, its
tier, and the state (pickled, from a worker), for the main process to queue if it is new.
"""

from __future__ import annotations

import pickle
import signal
from collections.abc import Callable, Iterator
from concurrent.futures import ProcessPoolExecutor
from typing import Any

from ..protocol import Game, has_chance
from ..results import SearchError
from .graph import CHANCE, MAX, MIN, TERMINAL, PositionSampler, position_of, repetition_rule, tier_error
from .keys import stable_key

Factory = Callable[[], Game]
Expansion = tuple[int, Any, Any, Any, list[tuple[bytes, int, Any]]]

_games: dict[bytes, Game] = {}  # this process's copy of each game, by its factory's pickle

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


def _game_for(factory_bytes: bytes) -> Game:
    game = _games.get(factory_bytes)
    if game is None:
        game = _games[factory_bytes] = pickle.loads(factory_bytes)()
    return game


def expand_chunk(factory_bytes: bytes, states: list[Any]) -> list[Expansion]:
    """Expand each state with the game the pickled factory builds (in a worker); the children
    come back pickled, so that the main process unpickles only the new ones."""
    return expand_states(_game_for(factory_bytes), states, pickled=True)


def expand_states(game: Game, states: list[Any], pickled: bool = False) -> list[Expansion]:
    """Each state's kind, utility (finished games), probabilities (chance nodes), repetition
    score and children (key, tier, state, or the state pickled if ``pickled``), in move order."""
    first_player = game.players[0]
    chance = has_chance(game)
    position = position_of(game)
    repetition = repetition_rule(game)
    tier = game.tier
    sampler = PositionSampler(game, kept=len(states) * 4, checks=8)
    answers: list[Expansion] = []
    for state in states:
        if game.is_terminal(state):
            answers.append((TERMINAL, game.utility(state, first_player), None, None, []))
            continue
        probabilities = None
        if chance and game.is_chance(state):
            outcomes = game.chance_outcomes(state)
            moves = [outcome for outcome, _ in outcomes]
            probabilities = [p for _, p in outcomes]
            kind = CHANCE
        else:
            moves = game.actions(state)
            if not moves:
                raise SearchError(f"state {state!r} is not terminal but has no legal moves")
            kind = MAX if game.to_move(state) == first_player else MIN
        level = tier(state)
        children = []
        for move in moves:
            child = game.result(state, move)
            child_level = tier(child)
            if child_level < level:
                raise tier_error(game, state, move, child)
            if position is None:
                key = key_of(child)
            else:
                identity = position(child)
                sampler.see(identity, child)
                key = key_of(identity)
            children.append((key, child_level, pickle.dumps(child, pickle.HIGHEST_PROTOCOL) if pickled else child))
        score = None if repetition is None else repetition(state)
        answers.append((kind, None, probabilities, score, children))
    return answers


def _ignore_interrupts() -> None:
    # Ctrl-C reaches every process of the terminal's group: the main process alone stops the
    # solve, and shuts the workers down.
    signal.signal(signal.SIGINT, signal.SIG_IGN)


class Runner:
    """Expands chunks of pickled states and returns their answers in order."""

    workers = 1
    where = "one process"

    def __init__(self, game: Game) -> None:
        """Expand with ``game`` itself, in this process."""
        self.game = game

    def expand(self, chunks: list[list[Any]]) -> Iterator[list[Expansion]]:
        """The answers of every chunk, in order, each as soon as it is ready (so that the
        caller works on one chunk's answers while the workers expand the next)."""
        return (expand_states(self.game, chunk) for chunk in chunks)

    def close(self) -> None:
        """Free the workers."""


class PoolRunner(Runner):
    """Expands chunks in ``workers`` processes of this machine."""

    def __init__(self, factory: Factory, workers: int) -> None:
        """Start the worker processes."""
        self.factory_bytes = pickle.dumps(factory)
        self.workers = workers
        self.where = f"{workers} worker processes"
        self.pool = ProcessPoolExecutor(workers, initializer=_ignore_interrupts)

    def expand(self, chunks: list[list[Any]]) -> Iterator[list[Expansion]]:
        """The answers of every chunk, in order, each as soon as it is ready."""
        futures = [self.pool.submit(expand_chunk, self.factory_bytes, chunk) for chunk in chunks]
        return (future.result() for future in futures)

    def close(self) -> None:
        """Stop the worker processes."""
        self.pool.shutdown(wait=True, cancel_futures=True)


class RayRunner(Runner):
    """Expands chunks as Ray tasks, on a cluster or a local Ray runtime."""

    def __init__(self, factory: Factory, address: str) -> None:
        """Join the Ray cluster at ``address`` (``auto``: the local one, started if need be)."""
        try:
            import ray
        except ImportError:
            raise SearchError("--ray needs Ray: pip install 'gdl[ray]'") from None
        if not ray.is_initialized():
            try:
                if address == "auto":
                    ray.init(include_dashboard=False, ignore_reinit_error=True)
                else:
                    ray.init(address=address, include_dashboard=False)
            except Exception as error:  # Ray raises several kinds: none is the game's fault
                raise SearchError(f"cannot join the Ray cluster at {address}: {error}") from None
        self.ray = ray
        self.task = ray.remote(expand_chunk)
        self.factory = ray.put(pickle.dumps(factory))
        self.workers = int(ray.cluster_resources().get("CPU", 1))  # type: ignore[no-untyped-call]
        self.where = f"Ray tasks on {self.workers} CPUs"

    def expand(self, chunks: list[list[Any]]) -> Iterator[list[Expansion]]:
        """The answers of every chunk, in order, each as soon as it is ready."""
        tasks = [self.task.remote(self.factory, chunk) for chunk in chunks]
        for task in tasks:
            try:
                yield self.ray.get(task)
            except self.ray.exceptions.RayTaskError as error:
                # The game's own error (a rule that failed), as a single process would raise it.
                cause = getattr(error, "cause", None)
                if isinstance(cause, Exception):
                    raise cause from None
                raise


def make_runner(game: Game, factory: Factory | None, workers: int, ray: str | None) -> Runner:
    """The runner the options ask for: Ray, worker processes, or this process."""
    if ray is not None or workers > 1:
        if factory is None:
            raise SearchError("solving with workers or Ray needs a factory that builds the game")
        if ray is not None:
            return RayRunner(factory, ray)
        return PoolRunner(factory, workers)
    return Runner(game)
