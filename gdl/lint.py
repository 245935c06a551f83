"""`gdl check --deep`: play random games, and look for a line of play that never ends, to report
what only running a game can show. Works on any game object of the protocol."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from gdl.errors import GdlError


# How many states the search for an endless line may visit, for each move of the line it seeks:
# enough to back out of many short dead ends, at about the cost of a few dozen random games.
_LINE_SEARCH_STATES_PER_MOVE = 10

# The positions whose first state the random games keep, to compare the states met later at
# each of them (a bound on memory: a long check of a large game meets many).
_POSITIONS_KEPT = 100_000

SamePosition = Callable[[Any, Any], None]
"""Compares two states of one position: raises the game's error if they differ in play."""


@dataclass
class Findings:
    """What the random games showed: problems found, and how much was played."""

    found: dict[str, tuple[str, int]] = field(default_factory=dict)
    rules: dict[str, str] = field(default_factory=dict)  # the rule of the game each problem is about, by kind
    games: int = 0
    moves: int = 0
    outcomes: int = 0  # chance outcomes drawn (the dice's moves)
    terminals: int = 0
    unfinished: int = 0  # random games stopped at the move limit
    failed: int = 0  # random games cut short by a problem (a rule that failed, a move that lowers the tier)

    def add(self, message: str, kind: str | None = None, rule: str | None = None) -> None:
        """Record a problem (about the game's ``rule``, where it is one rule's); the same
        problem met again in other states is counted, not repeated.  Problems are the same when
        their ``kind`` is (by default, their first line)."""
        kind = message.splitlines()[0] if kind is None else kind
        first, times = self.found.get(kind, (message, 0))
        self.found[kind] = (first, times + 1)
        if rule is not None:
            self.rules[kind] = rule

    @property
    def problems(self) -> list[tuple[str, str | None]]:
        """Each problem once, with how often it was met when more than once, and the rule of
        the game it is about (None where no one rule is)."""
        shown = []
        for kind, (message, times) in self.found.items():
            if times > 1:
                head, _, rest = message.partition("\n")
                message = f"{head} [met {times} times; the first shown]\n{rest}" if rest else f"{head} [met {times} times]"
            shown.append((message, self.rules.get(kind)))
        return shown


# The share of the states met that are drawn by `display` (the last of each game always): drawing
# every state took as long as the rest of a deep check of chess.
_DISPLAYED = 1 / 8


def _shown(game: Any, state: Any) -> str:
    try:
        text = game.display(state)
    except GdlError:
        text = repr(state)
    return "\n".join("    " + line for line in str(text).splitlines())


def _pick_outcome(game: Any, state: Any, dice: random.Random) -> Any:
    outcomes = game.chance_outcomes(state)
    pick = dice.random()
    for outcome, probability in outcomes:
        pick -= float(probability)
        if pick < 0:
            return outcome
    return outcomes[-1][0]


def _play_one(
    game: Any, dice: random.Random, max_moves: int, findings: Findings,
    samples: list[tuple[Any, Any, Any, Any]], heuristic: list[tuple[Any, Any, Any]],
    positions: _Positions | None, shown: random.Random,
) -> None:
    state = game.initial_state()
    for _ in range(max_moves):
        if positions is not None:
            positions.meet(state)
        if shown.random() < _DISPLAYED:  # `gdl play` shows every state: `display` must not fail
            game.display(state)
        if game.is_terminal(state):
            game.display(state)
            findings.terminals += 1
            for player in _scored_players(game):
                utility = game.utility(state, player)
                if getattr(game, "has_evaluation", False):
                    samples.append((player, utility, game.evaluate(state, player), state))
            return
        if getattr(game, "has_chance", False) and game.is_chance(state):
            _check_names(game, state, [outcome for outcome, _ in game.chance_outcomes(state)], findings)
            state = _played(game, state, _pick_outcome(game, state, dice))
            findings.outcomes += 1
            continue
        game.to_move(state)  # a player (the game checks it), as every search asks
        if getattr(game, "has_evaluation", False):
            heuristic.extend((player, game.evaluate(state, player), state) for player in _scored_players(game))
        moves = list(game.actions(state))
        if len(set(moves)) != len(moves):
            repeated = sorted({game.format_move(m) for m in moves if moves.count(m) > 1})
            findings.add(f"a state lists the same move more than once ({', '.join(repeated)}): moves must be distinct\n{_shown(game, state)}",
                         rule="moves")
        _check_names(game, state, moves, findings)
        state = _played(game, state, dice.choice(moves))
        findings.moves += 1
    findings.unfinished += 1
    findings.add(f"a random game did not end within {max_moves} moves (is `terminal` ever true? use --max-moves for longer games); it reached:\n{_shown(game, state)}",
                 rule="terminal")


def _check_names(game: Any, state: Any, moves: list[Any], findings: Findings) -> None:
    """Report the names that `move_name` gives to several of a state's moves (or the dice's
    outcomes), as typed: a typed move, a tablebase's list of moves, JSON's `move_values` could
    not tell which one is meant."""
    shared = game.shared_names(moves) if hasattr(game, "shared_names") else []
    if shared:
        groups = "; ".join(f"`{names[0]}` {len(names)} times" if len(set(names)) == 1
                           else " and ".join(f"`{name}`" for name in names) for names in shared)
        named = "move_name" in getattr(getattr(game, "checked", None), "functions", {})
        dice = getattr(game, "has_chance", False) and game.is_chance(state)
        findings.add(f"moves of one state have names that read the same when typed, spaces, brackets and case aside "
                     f"({groups}): `move_name` must tell them apart\n{_shown(game, state)}",
                     kind="moves of one state have names that read the same",
                     rule="move_name" if named else "outcomes" if dice else "moves")


@dataclass
class _Positions:
    """The first state the random games met at each position, to compare the others with:
    ``same`` raises the game's error for two that differ in play (a searcher or the strong
    solver would take one for the other), which goes to ``findings`` (by ``describe``); the
    game goes on, for the other checks."""

    position: Callable[[Any], Any]
    same: SamePosition
    findings: Findings
    describe: Callable[[GdlError], str]
    first: dict[Any, Any] = field(default_factory=dict)

    def meet(self, state: Any) -> None:
        """Compare ``state`` with the first state met at its position, or keep it as that."""
        key = self.position(state)
        first = self.first.get(key)
        if first is None:
            if len(self.first) < _POSITIONS_KEPT:
                self.first[key] = state
        elif first != state:
            try:
                self.same(first, state)
            except GdlError as error:
                self.findings.add(self.describe(error))


def _position_of(game: Any) -> Callable[[Any], Any] | None:
    """The game's `position`, or None where a state is its own position (the language does
    not import the searchers, whose `protocol.position_of` says the same)."""
    return game.position if getattr(game, "has_position", False) else None


class _LowerTier(Exception):
    """A random game made a move into a lower tier: ``error`` is the game's for it."""

    def __init__(self, error: GdlError) -> None:
        self.error = error


def _played(game: Any, state: Any, move: Any) -> Any:
    """The state after ``move``; a move into a lower tier, in a game with tiers, raises
    _LowerTier (the strong solver would stop there)."""
    child = game.result(state, move)
    if getattr(game, "has_tiers", False) and game.tier(child) < game.tier(state):
        raise _LowerTier(game.tier_error(state, move, child))
    return child


def _scored_players(game: Any) -> tuple[Any, ...]:
    """The players whose payoffs are checked: the first alone in a two-player zero-sum game
    (the second's is the negation), else every player, each of whom has a payoff of its own."""
    players = tuple(game.players)
    zero_sum = getattr(game, "zero_sum", len(players) == 2)
    return players[:1] if zero_sum and len(players) == 2 else players


def _unfinished_children(game: Any, state: Any, dice: random.Random) -> Iterator[Any]:
    """The states one move (or one chance outcome) after `state` that are not terminal, in a
    random order."""
    if getattr(game, "has_chance", False) and game.is_chance(state):
        moves = [outcome for outcome, _ in game.chance_outcomes(state)]
    else:
        moves = list(game.actions(state))
    dice.shuffle(moves)
    for move in moves:
        child = game.result(state, move)
        if not game.is_terminal(child):
            yield child


def _endless_line(game: Any, dice: random.Random, max_moves: int, budget: int) -> Any | None:
    """The last state of a line of `max_moves` moves that reaches neither a terminal state nor any
    position twice (a state, where the game declares no `position`: a search finds a repetition
    by the position), or None when none is found among `budget` states.

    Random play may end almost surely while some line never does (a move that could be played
    forever beside one that ends the game); a search follows every line, so it would follow that
    one down without end. A depth-first search that never enters a terminal or already seen state
    finds such a line in a few states a move."""
    root = game.initial_state()
    if game.is_terminal(root):
        return None
    position = _position_of(game)
    seen = {root if position is None else position(root)}
    line = [root]
    pending = [_unfinished_children(game, root, dice)]
    while pending and len(seen) < budget:
        child = next(pending[-1], None)
        if child is None:
            pending.pop()
            line.pop()
        elif (here := child if position is None else position(child)) not in seen:
            seen.add(here)
            line.append(child)
            if len(line) > max_moves:
                return child
            pending.append(_unfinished_children(game, child, dice))
    return None


def _check_every_line_ends(game: Any, dice: random.Random, max_moves: int, findings: Findings) -> None:
    """A line of play that never ends, even where random play always does, is a problem."""
    reached = _endless_line(game, dice, max_moves, budget=_LINE_SEARCH_STATES_PER_MOVE * max_moves)
    if reached is not None:
        though = ", though the random games all ended" if findings.terminals == findings.games else ""
        findings.add(
            f"a line of play goes {max_moves} moves without ending or repeating a position{though}: a search "
            f"would follow it without end (can `terminal` be put off forever? use --max-moves for longer "
            f"games); it reached:\n{_shown(game, reached)}", rule="terminal"
        )


def _check_evaluation_order(game: Any, samples: list[tuple[Any, Any, Any, Any]], findings: Findings) -> None:
    """The evaluation must order terminal states as the utility does (the lecture's rule), for
    each player's payoff."""
    for player in _scored_players(game):
        best_by_utility: dict[Any, tuple[Any, Any]] = {}
        worst_by_utility: dict[Any, tuple[Any, Any]] = {}
        for whose, utility, evaluation, state in samples:
            if whose != player:
                continue
            if utility not in best_by_utility or evaluation > best_by_utility[utility][0]:
                best_by_utility[utility] = (evaluation, state)
            if utility not in worst_by_utility or evaluation < worst_by_utility[utility][0]:
                worst_by_utility[utility] = (evaluation, state)
        utilities = sorted(best_by_utility)
        for low_index, low in enumerate(utilities):
            for high in utilities[low_index + 1:]:
                low_eval, low_state = best_by_utility[low]
                high_eval, high_state = worst_by_utility[high]
                if low_eval > high_eval:
                    findings.add(
                        f"the evaluation ranks a terminal state worth {low} to {player} (evaluation {low_eval}) above one "
                        f"worth {high} (evaluation {high_eval}); an evaluation should order terminal states as the utility does.\n"
                        f"  worth {low}:\n{_shown(game, low_state)}\n  worth {high}:\n{_shown(game, high_state)}",
                        rule="evaluation",
                    )
                    return


def deep_check(
    game: Any, games: int = 300, max_moves: int = 1000, seed: int = 0,
    describe: Callable[[GdlError], str] = GdlError.format, same_position: SamePosition | None = None,
) -> Findings:
    """Play `games` random games (at most `max_moves` moves each), look for a line of play longer
    than `max_moves` that never ends, and collect the problems seen; `describe` writes a rule's
    failure into the findings.  Given `same_position`, a game that declares a `position` has
    each state the games meet compared by it with the first they met at its position."""
    dice = random.Random(seed)
    shown = random.Random(seed)  # which states are drawn: apart, so that the games are the same
    findings = Findings()
    samples: list[tuple[Any, Any, Any, Any]] = []  # (player, utility, evaluation, state)
    heuristic: list[tuple[Any, Any, Any]] = []  # (player, evaluation, state)
    position = _position_of(game)
    positions = None
    if same_position is not None and position is not None:
        positions = _Positions(position, same_position, findings, describe)
    for _ in range(games):
        findings.games += 1
        try:
            _play_one(game, dice, max_moves, findings, samples, heuristic, positions, shown)
        except GdlError as error:
            findings.add(describe(error))
            findings.failed += 1
        except _LowerTier as lower:  # one problem, whichever tiers the move joined
            findings.add(describe(lower.error), kind="a move lowers the tier")
            findings.failed += 1
    if not findings.unfinished:  # else a random game has shown it already
        try:
            _check_every_line_ends(game, dice, max_moves, findings)
        except GdlError as error:
            message = describe(error)
            if message.splitlines()[0] not in findings.found:  # met by the random games: counted there
                findings.add(message)
    _check_evaluation_order(game, samples, findings)
    _check_evaluation_range(game, samples, heuristic, findings)
    return findings


def _check_evaluation_range(game: Any, samples: list[tuple[Any, Any, Any, Any]], heuristic: list[tuple[Any, Any, Any]], findings: Findings) -> None:
    """A position that is only estimated must not look better than a win, or worse than a
    loss: else a depth-limited search passes a win by (the lecture's rule, EVAL between the
    utilities of a loss and a win), for each player's payoff."""
    for player in _scored_players(game):
        utilities = [u for whose, u, _, _ in samples if whose == player]
        if not utilities or min(utilities) == max(utilities):
            continue
        low, high = min(utilities), max(utilities)
        for whose, value, state in heuristic:
            if whose == player and (value > high or value < low):
                misled = "prefer it to a win" if value > high else "shun it more than a loss"
                findings.add(
                    f"the evaluation gives {value} to an unfinished state, beyond the utilities of the finished "
                    f"games seen ({low} to {high} for {player}); a depth-limited search would {misled} "
                    f"(scale the evaluation down, or the utility up):\n{_shown(game, state)}", rule="evaluation"
                )
                return
