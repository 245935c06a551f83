"""The game protocol the searchers rely on, and the checks made before a search.

A game is any object with ``players``, ``initial_state()``, ``to_move(s)``,
``actions(s)``, ``result(s, a)``, ``is_terminal(s)`` and ``utility(s, p)``;
optionally ``evaluate(s, p)`` (with ``has_evaluation``), chance nodes
(``has_chance``, ``is_chance(s)``, ``chance_outcomes(s)``), ``canonical(s)``,
``position(s)``, ``repetition_utility(s, p)`` and ``zero_sum``.  The searchers use nothing else,
so a hand-written Python class serves as well as a game loaded from a file.

Any number of players.  ``players`` lists them in turn order (``to_move`` decides
who really moves).  ``utility(s, p)``, ``evaluate(s, p)`` and
``repetition_utility(s, p)`` give player ``p``'s own payoff.  A two-player game is
zero-sum unless it says ``zero_sum = False``: the second player's payoff is the
negation of the first's, and the searchers ask only for the first.  A game of more
players is taken as general-sum unless it says ``zero_sum = True``.  Two optional
attributes tell the searchers more about the payoffs, and let them prove and prune
more (they are promises: a game that breaks them gets wrong answers):

- ``payoff_bounds = (low, high)``: every payoff of every player, at terminal
  states, at cut-offs (the evaluation) and at repetitions, lies in low..high.
- ``payoff_sum = S``: the payoffs of all the players add up to S at every terminal
  state, cut-off and repetition (a zero-sum game has ``S = 0`` without saying so).
- ``utility_bounds = (low, high)``: every payoff at terminal states and at repetitions
  lies in low..high (the evaluation need not); ``payoff_bounds`` implies it.

Max^n prunes with them (Korf's shallow and immediate pruning), and Monte Carlo tree
search scales its exploration to ``payoff_bounds`` and proves a position as soon as
one move gives the mover the highest payoff, where that settles the others' payoffs
(see ``searchers.payoffs``); without them it proves a position only by its whole tree.
Alpha-beta searching to the end starts from the window ``utility_bounds`` gives, and so stops
looking at a position's other moves as soon as one reaches the best payoff there is.

``position(s)`` says what identifies a position, where a state holds more (a field kept only to
speed up the rules): states with the same position must play the same from there on. The
transposition table and the strong solver keep one entry per position, and check that promise
on a sample of the states they merge.
"""

from __future__ import annotations

from collections.abc import Callable, Hashable, Sequence
from dataclasses import dataclass
from fractions import Fraction
from random import Random
from typing import Any, TypeAlias, cast

from .results import GameError, SearchError

# Structural checking would be wrong here: members are optional, and a game may
# provide them as attributes holding functions rather than as methods.
Game: TypeAlias = Any
State: TypeAlias = Hashable
Move: TypeAlias = Hashable
Player: TypeAlias = str
Value: TypeAlias = int | float | Fraction


@dataclass(frozen=True)
class Rules:
    """A game's protocol methods, typed, for the searchers' inner loops to bind once.

    ``evaluate``, ``is_chance`` and ``chance_outcomes`` are None when the game has none;
    a searcher that needs one checks before it starts.
    """

    players: tuple[Player, ...]
    to_move: Callable[[State], Player]
    actions: Callable[[State], Sequence[Move]]
    result: Callable[[State, Move], State]
    is_terminal: Callable[[State], bool]
    utility: Callable[[State, Player], Value]
    evaluate: Callable[[State, Player], Value] | None
    is_chance: Callable[[State], bool] | None
    chance_outcomes: Callable[[State], Sequence[tuple[Move, Value]]] | None


def rules_of(game: Game) -> Rules:
    """The protocol methods of ``game``."""
    chance = has_chance(game)
    return Rules(
        players=tuple(game.players),
        to_move=game.to_move,
        actions=game.actions,
        result=game.result,
        is_terminal=game.is_terminal,
        utility=game.utility,
        evaluate=game.evaluate if callable(getattr(game, "evaluate", None)) else None,
        is_chance=game.is_chance if chance else None,
        chance_outcomes=game.chance_outcomes if chance else None,
    )


def game_name(game: Game) -> str:
    """A short name for ``game`` to use in error messages."""
    name = getattr(game, "name", None)
    return name if isinstance(name, str) and name else type(game).__name__


def has_evaluation(game: Game) -> bool:
    """True when ``game`` provides a heuristic evaluation for cut-off states."""
    return callable(getattr(game, "evaluate", None)) and bool(
        getattr(game, "has_evaluation", True)
    )


def has_chance(game: Game) -> bool:
    """True when ``game`` may contain chance nodes."""
    return bool(getattr(game, "has_chance", hasattr(game, "chance_outcomes")))


def require_two_player_zero_sum(game: Game, searcher: str) -> None:
    """Raise SearchError unless ``game`` is a two-player zero-sum game, naming the searchers
    that can take it instead."""
    players = tuple(game.players)
    if len(players) != 2:
        raise SearchError(
            f"{searcher} needs a two-player game; {game_name(game)} has "
            f"{len(players)} players ({', '.join(map(str, players))}): "
            "use maxn, paranoid or mcts, which take any number of players"
        )
    if not is_zero_sum(game):
        raise SearchError(
            f"{searcher} needs a zero-sum game; {game_name(game)} is not zero-sum: "
            "use maxn, paranoid or mcts"
        )


def is_zero_sum(game: Game) -> bool:
    """Whether the players' payoffs add up to zero: a two-player game is, unless it says
    ``zero_sum = False``; a game of more players is not, unless it says ``zero_sum = True``."""
    return bool(getattr(game, "zero_sum", len(tuple(game.players)) == 2))


def payoff_bounds(game: Game) -> tuple[Value, Value] | None:
    """The game's ``payoff_bounds`` (lowest, highest payoff of any player), or None."""
    return _bounds(game, "payoff_bounds")


def utility_bounds(game: Game) -> tuple[Value, Value] | None:
    """The lowest and highest payoff at terminal states and repetitions: the game's
    ``utility_bounds``, else its ``payoff_bounds``, else None."""
    return _bounds(game, "utility_bounds") or payoff_bounds(game)


def _bounds(game: Game, name: str) -> tuple[Value, Value] | None:
    bounds = getattr(game, name, None)
    if bounds is None:
        return None
    try:
        low, high = bounds
        valid = low <= high
    except (TypeError, ValueError):
        valid = False
    if not valid:
        raise SearchError(
            f"{game_name(game)}: {name} must be a pair (lowest, highest) of numbers, "
            f"not {bounds!r}"
        )
    return low, high


def payoff_sum(game: Game) -> Value | None:
    """What all the players' payoffs add up to, when it is always the same: the game's
    ``payoff_sum``, 0 for a zero-sum game, else None."""
    total = getattr(game, "payoff_sum", None)
    if total is None and is_zero_sum(game):
        return 0
    return total


def require_no_chance(game: Game, searcher: str) -> None:
    """Raise SearchError if ``game`` has chance nodes."""
    if has_chance(game):
        raise SearchError(
            f"{searcher} cannot search {game_name(game)}: it has chance nodes; "
            "use expectiminimax"
        )


# What each searcher needs of a game beyond the protocol (searchers not named need nothing
# more): two players whose payoffs sum to zero, and no chance nodes.
_NEEDS = {"minimax": ("two players", "no chance"), "alphabeta": ("two players", "no chance"),
          "expectiminimax": ("two players",)}


def require_searchable(game: Game, searcher: str) -> None:
    """Raise SearchError unless the searcher named ``searcher`` can search ``game``: the
    searcher's own first check, and a caller's that must know before any search (a game
    played move by move, searched only at the computer's turn)."""
    needs = _NEEDS.get(searcher, ())
    if "two players" in needs:
        require_two_player_zero_sum(game, searcher)
    if "no chance" in needs:
        require_no_chance(game, searcher)


def require_evaluation(game: Game, reason: str) -> None:
    """Raise SearchError unless ``game`` has an evaluation; ``reason`` says who needs it."""
    if not has_evaluation(game):
        raise SearchError(
            f"{reason} needs an evaluation function, and {game_name(game)} has "
            "none; search to the end instead (no depth, time, node limit or beam)"
        )


def check_limits(
    *,
    depth: int | None = None,
    time: float | None = None,
    max_nodes: int | None = None,
    beam: int | None = None,
) -> None:
    """Raise SearchError for a search limit that makes no sense."""
    if depth is not None and (isinstance(depth, bool) or depth < 0):
        raise SearchError(f"depth must be a number of moves (0 or more), not {depth!r}")
    if time is not None and not time > 0:
        raise SearchError(f"time must be a positive number of seconds, not {time!r}")
    if max_nodes is not None and (isinstance(max_nodes, bool) or max_nodes < 1):
        raise SearchError(f"max_nodes must be a positive count, not {max_nodes!r}")
    if beam is not None and (isinstance(beam, bool) or beam < 1):
        raise SearchError(f"beam must be a positive number of moves, not {beam!r}")


def check_memory(memory: int | None) -> None:
    """Raise SearchError for a table size limit that makes no sense."""
    if memory is not None and (isinstance(memory, bool) or memory < 1):
        raise SearchError(f"memory must be a positive number of bytes, not {memory!r}")


def limits_need_evaluation(
    game: Game, searcher: str, depth: int | None, time: float | None, max_nodes: int | None
) -> None:
    """Raise SearchError if a depth, time or node limit is set and ``game`` cannot evaluate."""
    if depth is not None:
        require_evaluation(game, f"{searcher} with a depth limit")
    elif time is not None or max_nodes is not None:
        require_evaluation(game, f"{searcher} with a time or node limit (iterative deepening)")


def repetition_rule(game: Game) -> Callable[[State], Value] | None:
    """The game's score, from the first player's view, of a play that never ends (a position
    repeated on the line of play), or None when it has none: a draw."""
    score: Callable[[State, Player], Value] | None = getattr(game, "repetition_utility", None)
    if not callable(score):
        return None
    first: Player = game.players[0]
    return lambda state: score(state, first)


def repetition_scorer(game: Game) -> Callable[[State], Value]:
    """The score, from the first player's view, of a position repeated on the current line
    (``repetition_rule``, a draw by default)."""
    return repetition_rule(game) or (lambda state: 0)


def position_key(game: Game, symmetry: bool) -> Callable[[State], Hashable] | None:
    """The function giving a state's table key, or None when the state is its own key: under
    ``symmetry``, ``canonical(s)`` (which, for a game saying ``position``, keys the position);
    otherwise ``position(s)`` when the game has one (``has_position`` false says it has not)."""
    canonical: Callable[[State], Hashable] | None = getattr(game, "canonical", None)
    if symmetry and callable(canonical):
        return canonical
    return position_of(game)


def position_of(game: Game) -> Callable[[State], Hashable] | None:
    """The game's ``position`` function, or None when a state is its own position: what a
    repetition on a line of play and a strong solver's key go by."""
    return game.position if has_position(game) else None


def tier_of(game: Game) -> Callable[[State], int] | None:
    """The game's ``tier`` function, or None when the game has no tiers (``has_tiers`` false
    says it has not)."""
    tier = getattr(game, "tier", None)
    if not callable(tier) or not getattr(game, "has_tiers", True):
        return None
    return cast(Callable[[State], int], tier)


def has_position(game: Game) -> bool:
    """Whether the game says what identifies a position (``position(s)``), so that states that
    differ may be one position (``has_position`` false says a game's ``position`` is the state)."""
    return callable(getattr(game, "position", None)) and bool(getattr(game, "has_position", True))


def behaviour(game: Game, state: State, position: Callable[[State], Hashable]) -> tuple[Any, ...]:
    """What a position must fix: finished or not, the score, who moves, the moves, and the
    positions they lead to (with their probabilities at a chance node)."""
    if game.is_terminal(state):
        return ("terminal", game.utility(state, game.players[0]))
    if has_chance(game) and game.is_chance(state):
        outcomes = game.chance_outcomes(state)
        # In any order: the dice's value is their average, and no outcome is kept by its place.
        return ("chance", tuple(sorted(((o, p, position(game.result(state, o))) for o, p in outcomes),
                                       key=lambda throw: repr(throw[0]))))
    moves = tuple(game.actions(state))
    return (game.to_move(state), moves, tuple(position(game.result(state, m)) for m in moves))


def check_same_position(game: Game, first: State, second: State, position: Callable[[State], Hashable]) -> None:
    """Raise the game's error if two states of one position behave differently, or lie in
    different tiers (a strong solver solves a position in one tier)."""
    what = _how_they_differ(game, first, second, position)
    if what is None:
        return
    make_error = getattr(game, "position_error", None)
    if callable(make_error):
        raise make_error(first, second, what)
    raise GameError(f"the states {first!r} and {second!r} have the same position but {what}")


def _how_they_differ(game: Game, first: State, second: State, position: Callable[[State], Hashable]) -> str | None:
    """How two states of one position differ in play, in words; None if they do not."""
    tier = tier_of(game)
    if tier is not None and tier(first) != tier(second):
        return "they lie in different tiers"
    mine, theirs = behaviour(game, first, position), behaviour(game, second, position)
    if mine == theirs:
        return None
    if mine[0] != theirs[0]:
        return "one is finished and the other not" if "terminal" in (mine[0], theirs[0]) else "another player moves"
    if mine[0] == "terminal":
        return "they score differently"
    if mine[0] == "chance":
        if [outcome for outcome, _, _ in mine[1]] != [outcome for outcome, _, _ in theirs[1]]:
            return "the dice have different outcomes"
        if [odds for _, odds, _ in mine[1]] != [odds for _, odds, _ in theirs[1]]:
            return "the dice fall with different odds"
        return "the same outcome of the dice leads to different positions"
    if mine[1] != theirs[1]:
        if sorted(map(repr, mine[1])) == sorted(map(repr, theirs[1])):  # a move is known by its index
            return "they list the same moves in another order"
        return "they have different moves"
    return "the same move leads to different positions"


_MERGE_CHECK_PLIES = 200  # a game that goes round in circles is checked this far


def no_moves_error(game: Game, state: State) -> GameError:
    """The error for a non-terminal state without legal moves (a broken game)."""
    return GameError(f"state {state!r} is not terminal but has no legal moves")


def check_merge(game: Game, stored: State, state: State, choose: Random) -> bool:
    """Check two states that a table key stands for: if the key makes them one position (rather
    than mirror images under the game's symmetries), they must play the same. They are compared
    here and along one line of play from both, the same moves chosen by ``choose``, to the end:
    a field the position leaves out may matter only to the score of a finished game. Whether
    they were compared (not for mirror images)."""
    position = game.position
    if position(stored) != position(state):
        return False
    chance = has_chance(game)
    for _ in range(_MERGE_CHECK_PLIES):
        check_same_position(game, stored, state, position)
        if game.is_terminal(stored):
            return True
        if chance and game.is_chance(stored):
            move = choose.choice(game.chance_outcomes(stored))[0]
        else:
            moves = game.actions(stored)
            if not moves:
                raise no_moves_error(game, stored)
            move = choose.choice(moves)
        stored, state = game.result(stored, move), game.result(state, move)
    return True
