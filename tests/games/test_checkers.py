"""Checkers (games/checkers.gdl): perft from the start and hand-built positions."""

from __future__ import annotations

from fractions import Fraction

from pathlib import Path
from typing import Any

import pytest

import gdl
from gdl.values import EMPTY, symbol
from searchers import alphabeta
from searchers.perft import perft

CHECKERS = Path(__file__).resolve().parents[2] / "games" / "checkers.gdl"
BLACK, WHITE = symbol("Black"), symbol("White")
BMAN, BKING, WMAN, WKING = (symbol(n) for n in ("bman", "bking", "wman", "wking"))

# Known perft counts from the start.
PERFT = {1: 7, 2: 49, 3: 302, 4: 1469, 5: 7361, 6: 36768, 7: 179740}


@pytest.fixture(scope="module")
def game() -> Any:
    return gdl.load(CHECKERS)


def setup(first: str = "Black", black_men: tuple[int, ...] = (), black_kings: tuple[int, ...] = (),
          white_men: tuple[int, ...] = (), white_kings: tuple[int, ...] = (), **more: Any) -> Any:
    return gdl.load(CHECKERS, first=first, black_men=black_men, black_kings=black_kings,
                    white_men=white_men, white_kings=white_kings, **more)


def names(game: Any, state: Any) -> list[str]:
    return [game.format_move(m) for m in game.actions(state)]


def pieces(state: Any) -> dict[int, str]:
    """The occupied squares and what stands on them."""
    return {s: str(p) for s, p in enumerate(state.board) if p is not EMPTY}


def game_move(game: Any, move: Any) -> str:
    return game.format_move(move)


def play(game: Any, *moves: str) -> Any:
    state = game.initial_state()
    for text in moves:
        state = game.result(state, game.parse_move(state, text))
    return state


@pytest.mark.parametrize("depth", sorted(PERFT))
def test_perft_from_the_start(game: Any, depth: int) -> None:
    assert perft(game, depth) == PERFT[depth]


def test_start_position_and_opening_moves(game: Any) -> None:
    s = game.initial_state()
    assert pieces(s) == {**{n: "bman" for n in range(1, 13)}, **{n: "wman" for n in range(21, 33)}}
    assert game.to_move(s) == BLACK
    assert names(game, s) == ["9-13", "9-14", "10-14", "10-15", "11-15", "11-16", "12-16"]
    after = play(game, "11-15")
    assert names(game, after) == ["21-17", "22-17", "22-18", "23-18", "23-19", "24-19", "24-20"]
    assert game.display(after).splitlines()[3] == "13    14     b    16   "


def test_captures_are_compulsory(game: Any) -> None:
    # 11-15 22-18: Black must take (15x22) though eight simple moves are open.
    s = play(game, "11-15", "22-18")
    assert names(game, s) == ["15x22"]
    s = play(game, "11-15", "22-18", "15x22")
    assert pieces(s)[22] == "bman" and 15 not in pieces(s) and 18 not in pieces(s)
    assert names(game, s) == ["25x18", "26x17"]
    # A lone capture anywhere on the board rules out every simple move.
    lone = setup(black_men=(1, 9), white_men=(14,))
    assert names(lone, lone.initial_state()) == ["9x18"]


def test_a_multi_jump_is_one_move() -> None:
    g = setup(first="White", white_men=(22,), black_men=(18, 10))
    s = g.initial_state()
    # 22x15 alone is no move: the capture must go on over 10.
    assert g.actions(s) == (((22, 15, 6), (18, 10)),)
    assert names(g, s) == ["22x15x6"]
    after = g.result(s, g.parse_move(s, "22x15x6"))
    assert pieces(after) == {6: "wman"}
    # Black has no piece left: it cannot move and loses.
    assert g.is_terminal(after) and g.to_move(after) == BLACK
    assert g.utility(after, "Black") == -1 and g.utility(after, "White") == 1
    assert g.evaluate(after, "White") == 1  # a finished game evaluates as its utility
    result = alphabeta(g)
    assert (result.value, result.exact, game_move(g, result.move)) == (-1, True, "22x15x6")


def test_a_king_may_jump_back_over_its_start_square() -> None:
    g = setup(black_kings=(10,), white_men=(14, 15, 22, 23))
    s = g.initial_state()
    assert names(g, s) == ["10x17x26x19x10", "10x19x26x17x10"]
    after = g.result(s, g.actions(s)[0])
    assert pieces(after) == {10: "bking"}
    assert g.is_terminal(after) and g.utility(after, "Black") == 1


def test_a_man_crowned_by_a_capture_stops_there() -> None:
    g = setup(first="White", white_men=(10,), black_men=(7, 8))
    s = g.initial_state()
    # A king on 3 could go on over 8 to 12, but the crowning ends the move.
    assert names(g, s) == ["10x3"]
    after = g.result(s, g.actions(s)[0])
    assert pieces(after) == {3: "wking", 8: "bman"}
    assert g.to_move(after) == BLACK
    # A king already crowned goes on.
    k = setup(first="White", white_kings=(10,), black_men=(7, 8))
    assert names(k, k.initial_state()) == ["10x3x12"]


def test_a_man_reaching_the_far_row_by_a_simple_move_is_crowned() -> None:
    g = setup(black_men=(26,), white_men=(8,))
    s = g.initial_state()
    assert names(g, s) == ["26-30", "26-31"]
    after = g.result(s, g.parse_move(s, "26-31"))
    assert pieces(after) == {31: "bking", 8: "wman"}
    # Now a king: it moves both ways.
    after = g.result(after, g.parse_move(after, "8-3"))
    assert names(g, after) == ["31-26", "31-27"]


def test_a_player_who_cannot_move_loses() -> None:
    # Black's man on 5 is blocked by 9 and cannot jump, since 14 is taken.
    g = setup(black_men=(5,), white_men=(9, 14))
    s = g.initial_state()
    assert g.actions(s) == ()
    assert g.is_terminal(s)
    assert g.utility(s, "Black") == -1 and g.utility(s, "White") == 1
    # The same position with White to move is not over.
    w = setup(first="White", black_men=(5,), white_men=(9, 14))
    assert not w.is_terminal(w.initial_state())
    assert names(w, w.initial_state()) == ["9-6", "14-10"]


def test_the_move_limit_makes_a_draw() -> None:
    g = setup(black_kings=(1,), white_kings=(32,), limit=2)
    s = g.initial_state()
    s = g.result(s, g.parse_move(s, "1-6"))
    assert not g.is_terminal(s)
    s = g.result(s, g.parse_move(s, "32-27"))
    assert g.is_terminal(s) and g.utility(s, "Black") == 0
    # A man's move (or a capture) starts the count again.
    m = setup(black_kings=(1,), black_men=(12,), white_kings=(32,), limit=3)
    s = m.initial_state()
    for text, quiet in (("1-6", 1), ("32-27", 2), ("12-16", 0), ("27-23", 1)):
        s = m.result(s, m.parse_move(s, text))
        assert s.quiet == quiet and not m.is_terminal(s)


def test_evaluation_counts_material_and_advance(game: Any) -> None:
    assert game.evaluate(game.initial_state(), "Black") == 0
    # A man is worth 10, plus 1 for each row it has advanced: 11-15 advances one.
    assert game.evaluate(play(game, "11-15"), "Black") == Fraction(1, 1000)
    assert game.evaluate(play(game, "11-15", "22-18"), "Black") == 0
    # 15x22 takes White's man on 18 (worth 13: three rows advanced) and advances
    # two rows.
    assert game.evaluate(play(game, "11-15", "22-18", "15x22"), "Black") == Fraction(13 + 2, 1000)
