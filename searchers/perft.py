"""Perft: counting move sequences, to check a game's move generation."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import _hot
from ._common import MAX_PLIES, DeepRecursion, on_roomy_stack
from .protocol import Game, Move, State, rules_of
from .results import SearchError

if TYPE_CHECKING:  # mypy checks per-node code with typeguard's own decorator
    from typeguard import typeguard_ignore
else:  # typeguard recognises that name; at run time the stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore


def perft(game: Game, depth: int, state: State | None = None) -> int:
    """The number of sequences of exactly ``depth`` moves from ``state`` (default: the start).

    As in chess programming, a sequence may end in a terminal state but not pass
    through one; the outcomes of chance nodes count as moves.
    """
    if isinstance(depth, bool) or depth < 0:
        raise SearchError(f"perft depth must be 0 or more, not {depth!r}")
    if depth >= MAX_PLIES:  # deeper than any search goes: a count no one could wait for
        raise SearchError(f"perft depth must be below {MAX_PLIES:,} moves, not {depth:,}")
    root = game.initial_state() if state is None else state
    rules = rules_of(game)
    actions, result, is_terminal = rules.actions, rules.result, rules.is_terminal
    is_chance, chance_outcomes = rules.is_chance, rules.chance_outcomes

    @typeguard_ignore
    def count(state: State, left: int) -> int:
        if left == 0:
            return 1
        if is_terminal(state):
            return 0
        moves: Sequence[Move]
        if is_chance is not None and chance_outcomes is not None and is_chance(state):
            moves = [outcome for outcome, _ in chance_outcomes(state)]
        else:
            moves = actions(state)
        if left == 1:  # the last move: its results need not be generated
            return len(moves)
        total = 0
        for move in moves:  # a loop, not sum() of a generator: deep counts stay off the C stack
            total += count(result(state, move), left - 1)
        return total

    stack = DeepRecursion()
    try:
        stack.grow(depth)
        return on_roomy_stack(count, root, depth)
    finally:
        stack.restore()
