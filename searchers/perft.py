"""Perft: counting move sequences, the chess programmers' test of move generation."""

from __future__ import annotations

from typing import Any

try:
    from typeguard import typeguard_ignore
except ImportError:  # typeguard is only a test dependency
    def typeguard_ignore(f: Any) -> Any:  # type: ignore[no-redef]
        return f


def perft(game: Any, depth: int, state: Any = None) -> int:
    """The number of move sequences of exactly `depth` moves from `state` (the initial state by
    default) that pass through no terminal state before their last move.

    At a chance node the outcomes count as moves.
    """
    if depth < 0:
        raise ValueError(f"perft depth must be 0 or more, got {depth}")
    if state is None:
        state = game.initial_state()
    if depth == 0:
        return 1
    if game.is_terminal(state):
        return 0
    return _perft(game, state, depth)


def _moves(game: Any, state: Any) -> Any:
    if getattr(game, "has_chance", False) and game.is_chance(state):
        return [outcome for outcome, _ in game.chance_outcomes(state)]
    return game.actions(state)


@typeguard_ignore
def _perft(game: Any, state: Any, depth: int) -> int:
    moves = _moves(game, state)
    if depth == 1:
        return len(moves)
    result, is_terminal = game.result, game.is_terminal
    total = 0
    for move in moves:
        child = result(state, move)
        if not is_terminal(child):
            total += _perft(game, child, depth - 1)
    return total
