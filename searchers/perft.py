"""Perft: counting move sequences, to check a game's move generation."""

from __future__ import annotations

# typeguard skips functions with this decorator (its typeguard_ignore is the same
# object); imported from typing so that typeguard is not needed at run time.
from typing import no_type_check as typeguard_ignore

from .protocol import Game, State, has_chance
from .results import SearchError


def perft(game: Game, depth: int, state: State | None = None) -> int:
    """The number of sequences of exactly ``depth`` moves from ``state`` (default: the start).

    As in chess programming, a sequence may end in a terminal state but not pass
    through one; the outcomes of chance nodes count as moves.
    """
    if isinstance(depth, bool) or depth < 0:
        raise SearchError(f"perft depth must be 0 or more, not {depth!r}")
    root = game.initial_state() if state is None else state
    actions, result, is_terminal = game.actions, game.result, game.is_terminal
    is_chance = game.is_chance if has_chance(game) else None
    chance_outcomes = getattr(game, "chance_outcomes", None)

    @typeguard_ignore
    def count(state, left):
        if left == 0:
            return 1
        if is_terminal(state):
            return 0
        if is_chance is not None and is_chance(state):
            moves = [outcome for outcome, _ in chance_outcomes(state)]
        else:
            moves = actions(state)
        if left == 1:  # the last move: its results need not be generated
            return len(moves)
        return sum(count(result(state, move), left - 1) for move in moves)

    return count(root, depth)
