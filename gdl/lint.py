"""`gdl check --deep`: play random games and report what only running a game can show."""

from __future__ import annotations

import random
from dataclasses import dataclass, field
from typing import Any

from gdl.errors import GdlError


@dataclass
class Findings:
    """What the random games showed: problems found, and how much was played."""

    found: dict[str, tuple[str, int]] = field(default_factory=dict)
    games: int = 0
    moves: int = 0
    terminals: int = 0

    def add(self, message: str) -> None:
        """Record a problem; the same problem met again in other states is counted, not repeated."""
        kind = message.splitlines()[0]
        first, times = self.found.get(kind, (message, 0))
        self.found[kind] = (first, times + 1)

    @property
    def problems(self) -> list[str]:
        """Each problem once, with how often it was met when more than once."""
        shown = []
        for message, times in self.found.values():
            if times > 1:
                head, _, rest = message.partition("\n")
                message = f"{head} [met {times} times; the first shown]\n{rest}" if rest else f"{head} [met {times} times]"
            shown.append(message)
        return shown


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
    samples: list[tuple[Any, Any, Any]], heuristic: list[tuple[Any, Any]],
) -> None:
    state = game.initial_state()
    for _ in range(max_moves):
        if game.is_terminal(state):
            findings.terminals += 1
            utility = game.utility(state, game.players[0])
            if getattr(game, "has_evaluation", False):
                samples.append((utility, game.evaluate(state, game.players[0]), state))
            return
        if getattr(game, "has_chance", False) and game.is_chance(state):
            state = game.result(state, _pick_outcome(game, state, dice))
            continue
        if getattr(game, "has_evaluation", False):
            heuristic.append((game.evaluate(state, game.players[0]), state))
        moves = list(game.actions(state))
        if len(set(moves)) != len(moves):
            repeated = sorted({game.format_move(m) for m in moves if moves.count(m) > 1})
            findings.add(f"a state lists the same move more than once ({', '.join(repeated)}): moves must be distinct\n{_shown(game, state)}")
        state = game.result(state, dice.choice(moves))
        findings.moves += 1
    findings.add(f"a random game did not end within {max_moves} moves (is `terminal` ever true? use --max-moves for longer games); it reached:\n{_shown(game, state)}")


def _check_evaluation_order(game: Any, samples: list[tuple[Any, Any, Any]], findings: Findings) -> None:
    """The evaluation must order terminal states as the utility does (the lecture's rule)."""
    best_by_utility: dict[Any, tuple[Any, Any]] = {}
    worst_by_utility: dict[Any, tuple[Any, Any]] = {}
    for utility, evaluation, state in samples:
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
                first = game.players[0]
                findings.add(
                    f"the evaluation ranks a terminal state worth {low} to {first} (evaluation {low_eval}) above one "
                    f"worth {high} (evaluation {high_eval}); an evaluation should order terminal states as the utility does.\n"
                    f"  worth {low}:\n{_shown(game, low_state)}\n  worth {high}:\n{_shown(game, high_state)}"
                )
                return


def deep_check(game: Any, games: int = 300, max_moves: int = 1000, seed: int = 0) -> Findings:
    """Play `games` random games (at most `max_moves` moves each) and collect the problems seen."""
    dice = random.Random(seed)
    findings = Findings()
    samples: list[tuple[Any, Any, Any]] = []
    heuristic: list[tuple[Any, Any]] = []
    for _ in range(games):
        findings.games += 1
        try:
            _play_one(game, dice, max_moves, findings, samples, heuristic)
        except GdlError as error:
            findings.add(error.format())
    _check_evaluation_order(game, samples, findings)
    _check_evaluation_range(game, samples, heuristic, findings)
    return findings


def _check_evaluation_range(game: Any, samples: list[tuple[Any, Any, Any]], heuristic: list[tuple[Any, Any]], findings: Findings) -> None:
    """A position that is only estimated must not look better than a win, or worse than a
    loss: else a depth-limited search passes a win by (the lecture's rule, EVAL between the
    utilities of a loss and a win)."""
    if not samples or not heuristic:
        return
    low = min(u for u, _, _ in samples)
    high = max(u for u, _, _ in samples)
    if low == high:
        return
    first = game.players[0]
    for value, state in heuristic:
        if value > high or value < low:
            findings.add(
                f"the evaluation gives {value} to an unfinished state, beyond the utilities of the finished "
                f"games seen ({low} to {high} for {first}); a depth-limited search would prefer it to a win "
                f"(scale the evaluation down, or the utility up):\n{_shown(game, state)}"
            )
            return
