"""Move ordering for alpha-beta: hint move, killer moves, history heuristic, evaluation, beam."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from . import _hot
from .protocol import Game, Move, State, has_evaluation, rules_of

if TYPE_CHECKING:  # mypy checks per-node code with typeguard's own decorator
    from typeguard import typeguard_ignore
else:  # typeguard recognises that name; at run time the stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore

# History bonuses grow with the height of the subtree below the cut-off; an
# unlimited search has no known height, so the ply stands in for it.
_HISTORY_HORIZON = 64

_EVERY_PLY = 1 << 30


@typeguard_ignore
def hint_first(moves: Sequence[Move], hint: Move) -> Sequence[Move]:
    """``moves`` with ``hint`` first, if it is one of them."""
    if hint not in moves:
        return moves
    return [hint, *(move for move in moves if move != hint)]


class MoveOrderer:
    """Chooses the order (and, with a beam, the subset) of the moves searched at a node.

    The hint (best move from the table or the previous iteration) comes first,
    then this ply's killer moves, then the rest by history score and by the
    evaluation (utility, if terminal) of the child for the mover; sorting is
    stable, so ties keep the game's order.  With a beam only the ``beam`` best
    moves by evaluation are kept.
    """

    def __init__(
        self,
        game: Game,
        *,
        by_evaluation: bool,
        evaluation_plies: int | None = None,
        killers: bool,
        history: bool,
        beam: int | None,
    ) -> None:
        """An orderer using the refinements that are switched on."""
        evaluates = (by_evaluation or beam is not None) and has_evaluation(game)
        rules = rules_of(game)
        self._evaluate = rules.evaluate if evaluates else None
        self._result, self._is_terminal, self._utility = rules.result, rules.is_terminal, rules.utility
        self._max_player = game.players[0]
        self._beam = beam
        # Ranking by evaluation costs a child state and an evaluation per move: near the root,
        # where a subtree is large, it pays; deep down it may not (beam search needs it everywhere).
        self._evaluation_plies = (
            evaluation_plies if evaluation_plies is not None and beam is None else _EVERY_PLY
        )
        self._killers: list[list[Move]] | None = [] if killers else None
        self._history: tuple[dict[Move, int], dict[Move, int]] | None = (
            ({}, {}) if history else None
        )
        self.plain_from = (
            _EVERY_PLY if killers or history else self._evaluation_plies if evaluates else 0
        )
        """The ply from which `order` only puts the hint first (the caller may do that itself)."""

    @typeguard_ignore
    def order(
        self, state: State, moves: Sequence[Move], maximizing: bool, ply: int, hint: Move | None
    ) -> tuple[list[Move], list[State] | None, list[Move] | None]:
        """Return (moves in search order, their child states or None, moves dropped by the beam)."""
        children: list[State] | None = None
        dropped: list[Move] | None = None
        indices = list(range(len(moves)))
        if self._evaluate is not None and ply < self._evaluation_plies:
            result, evaluate, first = self._result, self._evaluate, self._max_player
            is_terminal, utility = self._is_terminal, self._utility
            children = [result(state, move) for move in moves]
            # As in H-MINIMAX, a finished game is scored by its utility.
            scores = [utility(child, first) if is_terminal(child) else evaluate(child, first)
                      for child in children]
            indices.sort(key=scores.__getitem__, reverse=maximizing)
            beam = self._beam
            if beam is not None and len(indices) > beam:
                dropped = [moves[i] for i in indices[beam:]]
                del indices[beam:]
        if self._history is not None:
            history = self._history[0 if maximizing else 1]
            indices.sort(key=lambda i: history.get(moves[i], 0), reverse=True)
        front: list[Move] = [] if hint is None else [hint]
        if self._killers is not None and ply < len(self._killers):
            front += self._killers[ply]
        for move in reversed(front):
            if move in moves:
                i = moves.index(move)
                if i in indices:
                    indices.remove(i)
                    indices.insert(0, i)
        ordered = [moves[i] for i in indices]
        return ordered, None if children is None else [children[i] for i in indices], dropped

    @typeguard_ignore
    def reward(self, move: Move, maximizing: bool, ply: int, remaining: int) -> None:
        """Remember that ``move`` caused a cut-off at ``ply`` with ``remaining`` depth."""
        killers = self._killers
        if killers is not None:
            while len(killers) <= ply:
                killers.append([])
            slot = killers[ply]
            if move not in slot:
                slot.insert(0, move)
                del slot[2:]
        if self._history is not None:
            height = remaining if remaining < _HISTORY_HORIZON else max(1, _HISTORY_HORIZON - ply)
            scores = self._history[0 if maximizing else 1]
            scores[move] = scores.get(move, 0) + height * height
