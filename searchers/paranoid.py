"""Paranoid search (Sturtevant and Korf 2000): one player against the coalition of all the
others, who are assumed to play only to hurt it.

The game is seen through a ``CoalitionView``: a two-player zero-sum game between the
player and "the others", scored by the player's own payoff.  That view is handed to
alpha-beta (or, for a game with chance nodes, to expectiminimax), so every refinement
of those searchers -- table, ordering, killers, history, symmetry, beam, iterative
deepening, tracing -- works here unchanged.
"""

from __future__ import annotations

from dataclasses import replace
from typing import TYPE_CHECKING, Any

from . import _hot
from ._common import root_player, strongly_solvable
from .alphabeta import alphabeta
from .expectiminimax import expectiminimax
from .protocol import Game, Player, State, Value, game_name, has_chance, has_evaluation
from .results import SearchError, SearchResult

if TYPE_CHECKING:  # mypy checks per-node code with typeguard's own decorator
    from typeguard import typeguard_ignore
else:  # typeguard recognises that name; at run time the stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore

# The optional members of the game protocol the view passes on as they are.
_PASSED_ON = ("is_chance", "chance_outcomes", "canonical", "has_chance", "position", "has_position", "position_error")


class CoalitionView:
    """``game`` as a two-player zero-sum game: ``player`` against all the others.

    Its players are ``player`` and the coalition, named by the others' names joined by
    "+" ("B+C"); ``to_move`` gives one of the two.  The utility, evaluation and
    repetition score are ``player``'s own payoff from its view, and its negation from
    the coalition's.  States and moves are the game's own.
    """

    zero_sum = True

    def __init__(self, game: Game, player: Player) -> None:
        """The view of ``game`` for ``player``, one of its players."""
        if player not in tuple(game.players):
            raise SearchError(
                f"{player!r} is not a player of {game_name(game)} "
                f"(its players: {', '.join(map(str, game.players))})"
            )
        self.game, self.player = game, player
        self.coalition = "+".join(str(p) for p in game.players if p != player)
        self.players = (player, self.coalition)
        self.name = f"{game_name(game)}, {player} against {self.coalition}"
        self.has_evaluation = has_evaluation(game)
        # The strong solver solves the game itself, not this view (of two sides whatever the game).
        self.strongly_solvable = strongly_solvable(game)
        for member in _PASSED_ON:
            if hasattr(game, member):
                setattr(self, member, getattr(game, member))
        self.initial_state, self.actions, self.result = game.initial_state, game.actions, game.result
        self.is_terminal = game.is_terminal
        if callable(getattr(game, "repetition_utility", None)):
            self.repetition_utility = self._repetition_utility

    @typeguard_ignore
    def to_move(self, state: State) -> Player:
        """The player, or the coalition when another player is to move."""
        return self.player if self.game.to_move(state) == self.player else self.coalition

    @typeguard_ignore
    def utility(self, state: State, player: Player) -> Value:
        """The player's payoff, negated for the coalition."""
        value: Value = self.game.utility(state, self.player)
        return value if player == self.player else -value

    @typeguard_ignore
    def evaluate(self, state: State, player: Player) -> Value:
        """The player's evaluation, negated for the coalition."""
        value: Value = self.game.evaluate(state, self.player)
        return value if player == self.player else -value

    @typeguard_ignore
    def _repetition_utility(self, state: State, player: Player) -> Value:
        value: Value = self.game.repetition_utility(state, self.player)
        return value if player == self.player else -value


def paranoid(
    game: Game,
    state: State | None = None,
    *,
    player: Player | None = None,
    **options: Any,
) -> SearchResult:
    """The value and best move of ``state`` (default: the initial state) for ``player``,
    assuming every other player plays to minimise ``player``'s payoff.

    ``player`` defaults to the player to move at ``state`` (the first player when that is
    a chance node or the game is over).  ``value`` and each of ``move_values`` is
    ``player``'s own payoff (one number, even in a two-player game where ``player`` is the
    second: then it is the negation of alpha-beta's); ``to_move`` is the game's player.
    ``options`` are those of ``alphabeta`` (``depth``, ``time``, ``max_nodes``,
    ``table``, ``ordering``, ``killers``, ``history``, ``beam``, ``symmetry``,
    ``memory``, ``trace``, ``progress``), or of ``expectiminimax`` for a game with chance
    nodes, where the coalition's and the dice's moves alternate as they come.  A trace
    names the coalition's nodes by the coalition ("B+C").

    The value is a guarantee: ``player`` gets at least that much whatever the others do.
    It is often pessimistic, since the others have their own aims.
    """
    root = game.initial_state() if state is None else state
    if player is None:
        mover = root_player(game, root)
        player = game.players[0] if mover is None or game.is_terminal(root) else mover
    view = CoalitionView(game, player)
    search = expectiminimax if has_chance(game) else alphabeta
    result = search(view, root, **options)
    return replace(result, algorithm="paranoid", to_move=root_player(game, root))
