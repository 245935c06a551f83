"""Chance nodes: expectiminimax against an independent dynamic programme."""

from __future__ import annotations

from fractions import Fraction
from functools import cache
from itertools import product

import pytest

from searchers import SearchError, alphabeta, expectiminimax, maxn, mcts, minimax, perft
from tests.pygames import DiceRace, FloatDice, TicTacToe


def dice_race_values(goal: int, sides: int, max_dice: int) -> dict[int, Fraction]:
    """A's expected utility for each opening choice of dice, by dynamic programming."""
    def points(dice: int) -> dict[int, Fraction]:
        throws = list(product(range(1, sides + 1), repeat=dice))
        table: dict[int, Fraction] = {}
        for throw in throws:
            score = 1 if 1 in throw else sum(throw)
            table[score] = table.get(score, 0) + Fraction(1, len(throws))
        return table

    chances = {dice: points(dice) for dice in range(1, max_dice + 1)}

    @cache
    def after_throw(mine: int, theirs: int, dice: int) -> Fraction:
        """Expected utility for the thrower, before the dice are read."""
        return sum(p * (1 if mine + s >= goal else -before_throw(theirs, mine + s))
                   for s, p in chances[dice].items())

    @cache
    def before_throw(mine: int, theirs: int) -> Fraction:
        """Expected utility for the player about to choose how many dice to throw."""
        return max(after_throw(mine, theirs, dice) for dice in chances)

    return {dice: after_throw(0, 0, dice) for dice in chances}


@pytest.mark.parametrize("goal, sides, max_dice, table", [
    (4, 3, 2, False), (10, 3, 2, True), (12, 4, 3, True), (8, 2, 3, True),
])
def test_expectiminimax_equals_dynamic_programming(goal: int, sides: int, max_dice: int,
                                                   table: bool) -> None:
    expected = dice_race_values(goal, sides, max_dice)
    result = expectiminimax(DiceRace(goal, sides, max_dice), table=table)
    assert result.move_values == expected
    assert result.value == max(expected.values())
    assert isinstance(result.value, Fraction) and result.exact
    assert result.move == max(expected, key=expected.get) and result.pv == [result.move]


def test_table_only_saves_work() -> None:
    plain = expectiminimax(DiceRace(goal=5))
    tabled = expectiminimax(DiceRace(goal=5), table=True)
    assert plain.value == tabled.value and tabled.stats.nodes < plain.stats.nodes


def test_depth_limited_expectiminimax_averages_the_evaluation() -> None:
    # Depth 2: A throws, the dice are read, and the lead is evaluated: one die
    # scores 2 on average, two dice 5/9 * 1 + (4 + 5 + 5 + 6) / 9 = 25/9.
    result = expectiminimax(DiceRace(goal=10, sides=3), depth=2)
    assert result.move_values == {1: Fraction(2, 10), 2: Fraction(25, 90)}
    assert (result.move, result.exact) == (2, False)


def test_chance_root_has_outcomes_but_no_move() -> None:
    game = DiceRace(goal=4)
    thrown = game.result(game.initial_state(), 1)
    result = expectiminimax(game, thrown, trace=True)
    assert (result.move, result.pv, result.to_move) == (None, [], None)
    assert set(result.move_values) == {1, 2, 3}
    assert result.tree.kind == "chance"
    assert [c.probability for c in result.tree.children] == [Fraction(1, 3)] * 3
    assert result.value == sum(c.probability * c.value for c in result.tree.children)


def test_alphabeta_and_minimax_refuse_chance_games() -> None:
    for search in (alphabeta, minimax):
        with pytest.raises(SearchError, match="chance.*expectiminimax"):
            search(DiceRace())


def test_expectiminimax_without_chance_agrees_with_minimax() -> None:
    result = expectiminimax(TicTacToe(), table=True)
    assert result.value == 0 and len(result.pv) == 9


def test_perft_counts_chance_outcomes_as_moves() -> None:
    game = DiceRace(goal=10, sides=3, max_dice=2)
    # A chooses 1 or 2 dice; one die scores 1, 2 or 3 points; two dice score 1, 4, 5 or 6.
    assert [perft(game, depth) for depth in range(3)] == [1, 2, 3 + 4]
    assert perft(game, 3) == 7 * 2


ROUNDED = "the game gives some odds or scores as floats, which the dice average, so the expected values are rounded"


def test_expected_values_of_floats_are_not_called_exact() -> None:
    """The dice's mean of the floats 0.1 and 0.7 is the float 0.39999999999999997, not the
    exact mean of the two (called exact before); odds given as floats alike; fractions give
    2/5, exact."""
    rounded = expectiminimax(FloatDice())
    assert rounded.value == 0.39999999999999997 and Fraction(rounded.value) != (Fraction(0.1) + Fraction(0.7)) / 2
    assert not rounded.exact and rounded.inexact_reason == ROUNDED
    odds = expectiminimax(FloatDice(float_odds=True))
    assert odds.value == -0.5 and not odds.exact and odds.inexact_reason == ROUNDED
    exact = expectiminimax(FloatDice(floats=False))
    assert exact.value == Fraction(2, 5) and exact.exact and exact.inexact_reason is None


class FloatDiceForThree(FloatDice):
    """``FloatDice`` for three players: B and C share A's loss."""

    players = ("A", "B", "C")

    def utility(self, state: int, player: str) -> Fraction | float | int:
        """A's score, or half its opposite."""
        score = super().utility(state, "A")
        return score if player == "A" else -score / 2


def test_payoffs_of_floats_are_not_called_exact_by_maxn_or_mcts() -> None:
    """Each player's payoff is a mean of floats too (max^n, three players), and Monte Carlo
    tree search proves a throw by the same mean: neither calls it exact (both did)."""
    three = maxn(FloatDiceForThree())
    assert three.value["A"] == 0.39999999999999997 and not three.exact and three.inexact_reason == ROUNDED
    proven = mcts(FloatDice(), iterations=50, seed=1)
    assert proven.value == 0.39999999999999997 and not proven.exact and proven.inexact_reason == ROUNDED
    assert mcts(FloatDice(floats=False), iterations=50, seed=1).exact
    # A sure 1 beats the throw (worth 0.49999999999999994 at odds 1/3 and 2/3): the root's value
    # is exact, its move's not, and the result is not (MCTS called it exact).
    choice = SureOrThrow()
    for result in (mcts(choice, iterations=200, seed=1), expectiminimax(choice)):
        assert result.value == 1 and result.move_values["throw"] == 0.49999999999999994
        assert not result.exact and result.inexact_reason == ROUNDED


class SureOrThrow(FloatDice):
    """A chooses: "sure" ends at 1; "throw" is ``FloatDice``'s throw at odds 1/3 and 2/3."""

    def initial_state(self) -> int:
        """A to choose."""
        return -1

    def is_chance(self, state: int) -> bool:
        """The throw in the air."""
        return state == 0

    def chance_outcomes(self, state: int) -> list[tuple[int, Fraction | float]]:
        """1 or 2, at 1/3 and 2/3."""
        return [(1, Fraction(1, 3)), (2, Fraction(2, 3))]

    def actions(self, state: int) -> list[str]:  # type: ignore[override]
        """A's choice at the start."""
        return ["sure", "throw"] if state == -1 else []

    def result(self, state: int, move: str) -> int:  # type: ignore[override]
        """3 for the sure end, the throw, or its outcome."""
        return {"sure": 3, "throw": 0}.get(move, move)  # type: ignore[return-value]

    def is_terminal(self, state: int) -> bool:
        """After the throw, or the sure end."""
        return state > 0

    def utility(self, state: int, player: str) -> Fraction | float | int:
        """1 for the sure end, else 0.1 or 0.7."""
        score: Fraction | float | int = 1 if state == 3 else super().utility(state, "A")
        return score if player == "A" else -score


def test_an_evaluation_in_floats_is_said_to_be_an_estimate_alone() -> None:
    """A search cut off at a horizon is not exact for that reason; the evaluation's floats are
    no reason of their own (the rounding is the least of an estimate's errors)."""
    game = FloatDice(floats=False)
    game.evaluate = lambda state, player: 0.5  # type: ignore[attr-defined]
    game.is_terminal = lambda state: False  # type: ignore[method-assign]  # a throw the search cuts off
    cut = expectiminimax(game, depth=1)
    assert cut.value == 0.5 and not cut.exact and cut.inexact_reason is not None
    assert ROUNDED not in cut.inexact_reason
    assert "estimated the positions there with the evaluation" in cut.inexact_reason
