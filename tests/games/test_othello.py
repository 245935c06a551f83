"""Othello (games/othello.gdl): perft from the start, the solved 4x4 board, flips and passes."""

from __future__ import annotations

from fractions import Fraction

from pathlib import Path
from typing import Any

import pytest

import gdl
from gdl.values import EMPTY, symbol
from searchers import alphabeta, minimax
from searchers.perft import perft

OTHELLO = Path(__file__).resolve().parents[2] / "games" / "othello.gdl"
BLACK, WHITE, PASS = symbol("Black"), symbol("White"), symbol("pass")

# Known perft counts from the 8x8 start (passes counted as moves).
PERFT = {1: 4, 2: 12, 3: 56, 4: 244, 5: 1396, 6: 8200, 7: 55092}


@pytest.fixture(scope="module")
def game() -> Any:
    return gdl.load(OTHELLO)


def position(game: Any, picture: str, mover: str) -> Any:
    """A state drawn as rows of `x` (black), `o` (white) and `.` (empty), first row on top."""
    glyphs = {"x": BLACK, "o": WHITE, ".": EMPTY}
    board = tuple(glyphs[ch] for row in picture.split() for ch in row)
    return tuple.__new__(type(game.initial_state()), (board, symbol(mover)))


def picture(state: Any, size: int) -> str:
    glyphs = {BLACK: "x", WHITE: "o", EMPTY: "."}
    cells = [glyphs[v] for v in state.board]
    return " ".join("".join(cells[r * size:(r + 1) * size]) for r in range(size))


def names(game: Any, state: Any) -> list[str]:
    return [game.format_move(m) for m in game.actions(state)]


@pytest.mark.parametrize("depth", sorted(PERFT))
def test_perft_from_the_start(game: Any, depth: int) -> None:
    assert perft(game, depth) == PERFT[depth]


def test_start_position_and_opening_moves(game: Any) -> None:
    s = game.initial_state()
    # White on d4 and e5 (the main diagonal), black on d5 and e4.
    assert picture(s, 8) == "........ ........ ........ ...ox... ...xo... ........ ........ ........"
    assert game.to_move(s) == BLACK
    assert names(game, s) == ["d3", "c4", "f5", "e6"]
    assert game.parse_move(s, "F5") == 37
    after = game.result(s, 37)
    assert picture(after, 8) == "........ ........ ........ ...ox... ...xxx.. ........ ........ ........"
    assert game.to_move(after) == WHITE
    assert names(game, after) == ["f4", "d6", "f6"]


def test_a_move_flips_in_all_eight_directions(game: Any) -> None:
    s = position(game, """
        x..x..x.
        .o.o.o..
        ..ooo...
        xoo.oox.
        ..ooo...
        .o.o.o..
        x..x..x.
        ........""", "Black")
    assert game.format_move(27) == "d4"
    assert 27 in game.actions(s)
    after = game.result(s, 27)
    # Every line of white discs ending in black flips; the white discs out of
    # those lines (none here) would stay.
    assert picture(after, 8) == ("x..x..x. .x.x.x.. ..xxx... xxxxxxx. "
                                 "..xxx... .x.x.x.. x..x..x. ........")
    assert game.to_move(after) == WHITE


def test_a_line_not_closed_by_the_mover_does_not_flip(game: Any) -> None:
    s = position(game, """
        ........
        ........
        ........
        ..xoo...
        ........
        ........
        ........
        ........""", "Black")
    # f4 closes the line c4-d4-e4; b4 or anything else flips nothing.
    assert names(game, s) == ["f4"]
    after = game.result(s, 29)
    assert picture(after, 8).split()[3] == "..xxxx.."


def test_a_player_without_a_move_passes() -> None:
    small = gdl.load(OTHELLO, size=4)
    s = position(small, "xo.. .... .... ....", "White")
    assert small.actions(s) == (PASS,)
    assert small.format_move(PASS) == "pass"
    assert small.parse_move(s, "pass") == PASS
    assert not small.is_terminal(s)
    passed = small.result(s, PASS)
    assert passed.board == s.board and small.to_move(passed) == BLACK
    assert names(small, passed) == ["c1"]
    end = small.result(passed, 2)
    # White has no disc left: neither player can move.
    assert small.is_terminal(end)
    assert small.utility(end, "Black") == 3 and small.utility(end, "White") == -3
    # A finished game is evaluated as its utility.
    assert small.evaluate(end, "Black") == 3
    # The pass counts as a move in perft: pass, c1, then the game is over.
    assert [perft(small, d, s) for d in (1, 2, 3)] == [1, 1, 0]


def test_game_over_when_neither_can_move_with_empty_squares_left() -> None:
    small = gdl.load(OTHELLO, size=4)
    s = position(small, "oxxx .... .... ....", "White")
    assert small.is_terminal(s)
    assert small.utility(s, "Black") == 2


def test_4x4_is_a_white_win_by_8() -> None:
    small = gdl.load(OTHELLO, size=4)
    assert names(small, small.initial_state()) == ["b1", "a2", "d3", "c4"]
    plain = alphabeta(small)
    assert (plain.value, plain.exact) == (-8, True)
    full = alphabeta(small, table=True, ordering=True)
    assert (full.value, full.exact) == (-8, True)
    assert set(full.move_values.values()) == {-8}


def test_4x4_minimax_over_the_whole_tree_agrees() -> None:
    result = minimax(gdl.load(OTHELLO, size=4))
    assert (result.value, result.exact) == (-8, True)
    assert result.move_values == {1: -8, 4: -8, 11: -8, 14: -8}


def test_6x6_starts_with_four_moves() -> None:
    medium = gdl.load(OTHELLO, size=6)
    s = medium.initial_state()
    assert picture(s, 6) == "...... ...... ..ox.. ..xo.. ...... ......"
    assert names(medium, s) == ["c2", "b3", "e4", "d5"]
    assert perft(medium, 2) == 12


def test_evaluation_and_display(game: Any) -> None:
    s = game.initial_state()
    assert game.evaluate(s, "Black") == 0
    after = game.result(s, 37)  # f5: 4 black discs to 1 white, 3 moves for each side
    assert game.evaluate(after, "Black") == Fraction(3, 4)  # (3 discs ahead) / 4
    assert game.display(after).splitlines()[5] == " 5 . . . x x x . ."
    assert game.display(after).splitlines()[-1] == "White (o) to move"

