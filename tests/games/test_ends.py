"""games/ends.gdl: three players take cards from the ends of a row. Its max^n and paranoid
values, computed by a brute force written here over (first, last, mover), agree with the
searchers on the game file; Monte Carlo tree search proves the same vector."""

from __future__ import annotations

from functools import cache

import pytest

import gdl
from searchers import maxn, mcts, paranoid
from searchers.perft import perft

PATH = "games/ends.gdl"
CARDS = (4, 7, 2, 9, 5, 3, 8, 6, 1)
PLAYERS = ("A", "B", "C")


def brute_maxn(cards: tuple[int, ...]) -> tuple[tuple[int, ...], str]:
    """Each player's max^n payoff from the start, and the first move ("left" or "right"):
    the mover takes the end giving it the most, the left one of equals."""

    @cache
    def gains(first: int, last: int, mover: int) -> tuple[tuple[int, ...], str]:
        if first > last:
            return (0, 0, 0), ""
        best: tuple[int, ...] | None = None
        chosen = ""
        ends = [("left", cards[first], first + 1, last)]
        if first < last:
            ends.append(("right", cards[last], first, last - 1))
        for end, card, rest_first, rest_last in ends:
            later, _ = gains(rest_first, rest_last, (mover + 1) % 3)
            total = tuple(g + (card if i == mover else 0) for i, g in enumerate(later))
            if best is None or total[mover] > best[mover]:
                best, chosen = total, end
        assert best is not None
        return best, chosen

    return gains(0, len(cards) - 1, 0)


def brute_paranoid(cards: tuple[int, ...], me: int) -> int:
    """What player ``me`` is sure to take when the other two play to minimise it."""

    @cache
    def mine(first: int, last: int, mover: int) -> int:
        if first > last:
            return 0
        options = [(cards[first] if mover == me else 0) + mine(first + 1, last, (mover + 1) % 3)]
        if first < last:
            options.append((cards[last] if mover == me else 0) + mine(first, last - 1, (mover + 1) % 3))
        return max(options) if mover == me else min(options)

    return mine(0, len(cards) - 1, 0)


@pytest.mark.parametrize("cards", [CARDS, (1, 2, 3), (5, 1, 1, 5, 2), (3, 9, 1, 4, 1, 5, 9, 2, 6, 5, 3)])
def test_max_n_values_agree_with_brute_force(cards: tuple[int, ...]) -> None:
    game = gdl.load(PATH, cards=cards)
    vector, first_move = brute_maxn(cards)
    result = maxn(game)
    assert result.value == dict(zip(PLAYERS, vector))
    assert str(result.move) == first_move
    assert result.exact


@pytest.mark.parametrize("cards", [CARDS, (5, 1, 1, 5, 2), (3, 9, 1, 4, 1, 5, 9, 2, 6, 5, 3)])
@pytest.mark.parametrize("me", [0, 1, 2])
def test_paranoid_values_agree_with_brute_force(cards: tuple[int, ...], me: int) -> None:
    game = gdl.load(PATH, cards=cards)
    result = paranoid(game, player=PLAYERS[me])
    assert result.value == brute_paranoid(cards, me)
    assert result.exact


def test_the_values_stated_in_the_header() -> None:
    header = open(PATH).read().split("\ngame ")[0]
    vector, first_move = brute_maxn(CARDS)
    stated = ", ".join(f"{p} {v}" for p, v in zip(PLAYERS, vector))
    assert f"({stated})" in " ".join(header.replace("#", "").split())
    assert f"best first move is {first_move}" in " ".join(header.replace("#", "").split())
    sure = [brute_paranoid(CARDS, me) for me in range(3)]
    assert f"A is sure of {sure[0]}, B of {sure[1]} and C of {sure[2]}" in " ".join(header.replace("#", "").split())


def test_mcts_proves_the_max_n_vector_of_a_short_row() -> None:
    cards = (5, 1, 1, 5, 2)
    result = mcts(gdl.load(PATH, cards=cards), iterations=5_000, seed=0)
    assert result.exact and result.value == dict(zip(PLAYERS, brute_maxn(cards)[0]))


def test_perft_doubles_until_one_card_is_left() -> None:
    game = gdl.load(PATH)
    assert [perft(game, depth) for depth in range(1, 10)] == [2 ** d for d in range(1, 9)] + [256]
