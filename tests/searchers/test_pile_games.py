"""Subtraction and Nim: values known in closed form."""

from __future__ import annotations

from functools import reduce
from itertools import product
from operator import xor

import pytest

from searchers import alphabeta, expectiminimax, minimax
from tests.pygames import Nim, Subtraction


def test_subtraction_15_take_2_is_lost_for_the_first_player() -> None:
    for search in (minimax, alphabeta, expectiminimax):
        result = search(Subtraction(stones=15, take=2))
        assert (result.value, result.exact, result.to_move) == (-1, True, "A")


def test_subtraction_5_take_2_is_won_by_taking_two() -> None:
    for search in (minimax, alphabeta, expectiminimax):
        result = search(Subtraction(stones=5, take=2))
        assert (result.value, result.move) == (1, 2)
        assert result.move_values == {1: -1, 2: 1}
        assert result.pv[0] == 2 and len(result.pv) % 2 == 1  # A takes the last stone


@pytest.mark.parametrize("stones", range(0, 13))
def test_subtraction_mover_loses_on_multiples_of_take_plus_one(stones: int) -> None:
    result = alphabeta(Subtraction(stones=stones, take=3), table=True, ordering=True)
    assert result.value == (-1 if stones % 4 == 0 else 1)
    assert (result.move is None) == (stones == 0)


def nim_rule(piles: tuple[int, ...], misere: bool) -> int:
    """+1 when the player to move wins Nim with perfect play, else -1."""
    if misere and all(p <= 1 for p in piles):
        return 1 if sum(piles) % 2 == 0 else -1
    return 1 if reduce(xor, piles, 0) else -1


ALL_PILES = list(product(range(4), repeat=3))


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_nim_values_follow_the_xor_rule_for_every_small_position(misere: bool) -> None:
    for piles in ALL_PILES:
        expected = nim_rule(piles, misere)
        plain = alphabeta(Nim(piles, misere))
        refined = alphabeta(Nim(piles, misere), table=True, ordering=True, symmetry=True)
        assert plain.value == refined.value == expected, piles


def test_nim_winning_move_leaves_xor_zero() -> None:
    game = Nim((3, 4, 5))
    result = alphabeta(game, table=True, symmetry=True)
    assert result.value == 1
    piles, _ = game.result(game.initial_state(), result.move)
    assert reduce(xor, piles) == 0
    assert minimax(Nim((1, 2, 3))).value == -1
