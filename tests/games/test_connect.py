"""games/connect.gdl: connect-k with gravity, its perft counts and solved small boards."""

from __future__ import annotations

import pytest

import gdl
from searchers import alphabeta
from searchers.perft import perft
from tests.pygames import ConnectK

PATH = "games/connect.gdl"


@pytest.mark.parametrize("depth, nodes", [(1, 7), (2, 49), (3, 343), (4, 2401), (5, 16807), (6, 117649)])
def test_perft_of_the_standard_board(depth: int, nodes: int) -> None:
    assert perft(gdl.load(PATH), depth) == nodes


@pytest.mark.parametrize(
    "rows, cols, k, value",
    [(3, 3, 3, 0), (4, 4, 3, 1), (4, 4, 4, 0)],
    ids=["3x3 k3 is a draw", "4x4 k3 is a first-player win", "4x4 k4 is a draw"],
)
def test_small_boards_solve_to_their_known_values(rows: int, cols: int, k: int, value: int) -> None:
    result = alphabeta(gdl.load(PATH, rows=rows, cols=cols, k=k), table=True, ordering=True, symmetry=True)
    assert result.exact
    assert result.value == value


def cell(board: tuple, row: int, col: int) -> str:
    """The content of a cell of a loaded game's grid."""
    return board[board.index[(row, col)]]


def test_gravity_stacks_discs_from_the_bottom() -> None:
    game = gdl.load(PATH, rows=3, cols=3, k=3)
    state = game.result(game.result(game.initial_state(), 1), 1)
    assert cell(state.board, 2, 1) == "X"
    assert cell(state.board, 1, 1) == "O"
    assert cell(state.board, 0, 1) == "empty"
    full = game.result(state, 1)
    assert game.actions(full) == (0, 2)


def test_a_vertical_line_of_k_wins_for_the_player_who_made_it() -> None:
    game = gdl.load(PATH, rows=4, cols=4, k=3)
    state = game.initial_state()
    for column in (0, 1, 0, 1, 0):
        assert not game.is_terminal(state)
        state = game.result(state, column)
    assert game.is_terminal(state)
    assert game.utility(state, "X") == 1
    assert game.utility(state, "O") == -1


def test_the_file_agrees_with_the_hand_written_game_on_every_state_of_a_small_board() -> None:
    file_game = gdl.load(PATH, rows=3, cols=4, k=3)
    hand = ConnectK(rows=3, cols=4, k=3)
    seen = 0

    def walk(file_state: object, hand_state: object) -> None:
        nonlocal seen
        seen += 1
        assert file_game.is_terminal(file_state) == hand.is_terminal(hand_state)
        if file_game.is_terminal(file_state):
            for player in ("X", "O"):
                assert file_game.utility(file_state, player) == hand.utility(hand_state, player)
            return
        moves = list(file_game.actions(file_state))
        assert moves == list(hand.actions(hand_state))
        for move in moves:
            walk(file_game.result(file_state, move), hand.result(hand_state, move))

    walk(file_game.initial_state(), hand.initial_state())
    assert seen > 10_000


def test_depth_limited_search_on_the_standard_board_uses_the_evaluation() -> None:
    result = alphabeta(gdl.load(PATH), depth=2, table=True, ordering=True)
    assert not result.exact
    assert result.move == 3  # the centre column opens the most windows
