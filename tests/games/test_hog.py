"""games/hog.gdl: its dice, and expectiminimax against a dynamic programme."""

from __future__ import annotations

import json
import subprocess
import sys
from collections import Counter
from fractions import Fraction
from functools import cache
from itertools import product
from pathlib import Path

import pytest

import gdl
from searchers import SearchError, alphabeta, expectiminimax, minimax
from searchers.perft import perft

ROOT = Path(__file__).resolve().parents[2]
HOG = ROOT / "games" / "hog.gdl"


def turn_distribution(dice: int) -> dict[int, Fraction]:
    """The score of a turn with `dice` dice: the sum, or 1 if any die shows a 1."""
    throws = list(product(range(1, 7), repeat=dice))
    counts = Counter(1 if 1 in throw else sum(throw) for throw in throws)
    return {score: Fraction(n, len(throws)) for score, n in counts.items()}


def hog_values(goal: int, dice: int) -> dict[int, Fraction]:
    """First's expected utility for each number of dice of the first turn, by dynamic programming."""
    turns = {n: turn_distribution(n) for n in range(1, dice + 1)}

    @cache
    def rolling(mine: int, theirs: int, n: int) -> Fraction:
        """The roller's expected utility, with `n` dice in the air."""
        return sum(p * (1 if mine + s >= goal else -choosing(theirs, mine + s))
                   for s, p in turns[n].items())

    @cache
    def choosing(mine: int, theirs: int) -> Fraction:
        """The expected utility of the player about to choose how many dice to roll."""
        return max(rolling(mine, theirs, n) for n in turns)

    return {n: rolling(0, 0, n) for n in turns}


DEFAULT_VALUE = Fraction(
    129048379488004815858713878475638225027981500342597295133704028002522505805117906151,
    548662206564347547507249259881474222149657585204871284760844181932834655389832183808,
)
# (goal, dice) -> (First's expected value, the best number of dice to start with)
KNOWN = {
    (21, 3): (DEFAULT_VALUE, 3),
    (10, 2): (Fraction(48669446086935846948086383, 143255899979035215919054848), 2),
    (5, 3): (Fraction(19858307719, 39182082048), 2),
}


@pytest.mark.parametrize("goal, dice", sorted(KNOWN))
def test_expectiminimax_equals_dynamic_programming(goal: int, dice: int) -> None:
    value, best = KNOWN[goal, dice]
    expected = hog_values(goal, dice)
    assert max(expected.values()) == value
    params = {} if (goal, dice) == (21, 3) else {"goal": goal, "dice": dice}
    result = expectiminimax(gdl.load(HOG, **params), table=True)
    assert result.value == value and isinstance(result.value, Fraction) and result.exact
    assert result.move_values == expected
    assert result.move == best and result.pv == [best]


def test_a_small_game_without_a_table() -> None:
    result = expectiminimax(gdl.load(HOG, goal=4, dice=2))
    assert result.move_values == hog_values(4, 2)


def chance_state(game, n: int):
    state = game.result(game.initial_state(), n)
    assert game.is_chance(state) and not game.is_terminal(state)
    return state


def test_outcome_distributions() -> None:
    game = gdl.load(HOG)
    one, two, three = (dict(game.chance_outcomes(chance_state(game, n))) for n in (1, 2, 3))
    assert one == {s: Fraction(1, 6) for s in range(1, 7)}
    # Two dice without a 1 show 2..6 each: sums 4..12 in 1, 2, 3, 4, 5, 4, 3, 2, 1 ways of 36.
    assert two == {1: Fraction(11, 36)} | {
        s: Fraction(n, 36) for s, n in zip(range(4, 13), [1, 2, 3, 4, 5, 4, 3, 2, 1])}
    assert three == turn_distribution(3)
    assert sorted(three) == [1] + list(range(6, 19)) and three[18] == Fraction(1, 216)
    for n, outcomes in enumerate((one, two, three), start=1):
        assert outcomes[1] == 1 - Fraction(5, 6) ** n
        assert sum(outcomes.values()) == 1


def test_turns_alternate_through_the_dice() -> None:
    game = gdl.load(HOG, goal=5)
    state = game.initial_state()
    assert game.to_move(state) == "First" and game.actions(state) == (1, 2, 3)
    assert not game.is_chance(state)
    state = chance_state(game, 2)
    assert game.display(state) == "First 0, Second 0 (goal 5): First rolls 2 dice"
    state = game.result(state, 4)
    assert game.to_move(state) == "Second" and not game.is_terminal(state)
    assert game.display(state) == "First 4, Second 0 (goal 5): Second chooses 1 to 3 dice"
    assert game.evaluate(state, "First") == Fraction(4, 5)
    state = game.result(game.result(state, 3), 1)           # Second pigs out: 1 point
    state = game.result(game.result(state, 1), 1)           # First pigs out too, and has 5
    assert game.is_terminal(state)                          # reaching the goal is enough
    assert game.utility(state, "First") == 1 and game.utility(state, "Second") == -1
    assert game.display(state) == "First 5, Second 1 (goal 5): game over"


def test_perft_counts_the_dice_as_moves() -> None:
    assert [perft(gdl.load(HOG), depth) for depth in (1, 2, 3)] == [3, 30, 90]


def test_alphabeta_and_minimax_refuse_the_dice() -> None:
    game = gdl.load(HOG, goal=5)
    for search in (alphabeta, minimax):
        with pytest.raises(SearchError, match="chance nodes; use expectiminimax"):
            search(game)


def test_gdl_solve_picks_expectiminimax() -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gdl", "solve", str(HOG), "-p", "goal=10", "-p", "dice=2", "--json"],
        capture_output=True, text=True, timeout=60, cwd=ROOT,
    )
    assert done.returncode == 0, done.stderr
    answer = json.loads(done.stdout)
    value, best = KNOWN[10, 2]
    assert answer["algorithm"] == "expectiminimax" and answer["exact"] is True
    assert answer["value"] == float(value)
    assert answer["best_move"] == str(best) and answer["to_move"] == "First"
    assert answer["move_values"] == {str(n): float(v) for n, v in hog_values(10, 2).items()}
