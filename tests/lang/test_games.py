"""The bundled game files: known perft counts and values, agreement with the hand-written
tic-tac-toe over every reachable state, and the textbook trees exactly as drawn."""

from __future__ import annotations

from typing import Any

import pytest

import gdl
from searchers import alphabeta, minimax
from searchers.perft import perft
from tests.pygames import TicTacToe

TICTACTOE_PERFT = [9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]


@pytest.fixture(scope="module")
def tictactoe() -> Any:
    return gdl.load("games/tictactoe.gdl")


# ---- tic-tac-toe --------------------------------------------------------------------------------


def test_tictactoe_perft_by_depth(tictactoe: Any) -> None:
    # Depth 8 alone would add seconds; the next test counts every depth another way.
    depths = [1, 2, 3, 4, 5, 6, 7, 9]
    assert [perft(tictactoe, d) for d in depths] == [TICTACTOE_PERFT[d - 1] for d in depths]
    assert perft(tictactoe, 0) == 1


def test_tictactoe_move_sequences_counted_position_by_position(tictactoe: Any) -> None:
    """Perft again, by dynamic programming: how many move sequences reach each position, depth
    by depth, expanding each position once; terminal positions end their sequences."""
    layer = {tictactoe.initial_state(): 1}
    counts = []
    while layer:
        following: dict[Any, int] = {}
        for state, ways in layer.items():
            if tictactoe.is_terminal(state):
                continue
            for move in tictactoe.actions(state):
                child = tictactoe.result(state, move)
                following[child] = following.get(child, 0) + ways
        if following:
            counts.append(sum(following.values()))
        layer = following
    assert counts == TICTACTOE_PERFT  # and no sequence is longer than nine moves


def test_tictactoe_evaluation_after_the_first_move(tictactoe: Any) -> None:
    start = tictactoe.initial_state()
    expected = {(0, 0): 3, (0, 2): 3, (2, 0): 3, (2, 2): 3, (1, 1): 4, (0, 1): 2, (1, 0): 2, (1, 2): 2, (2, 1): 2}
    for move, value in expected.items():
        state = tictactoe.result(start, move)
        assert tictactoe.evaluate(state, "X") == value
        assert tictactoe.evaluate(state, "O") == -value
    assert tictactoe.evaluate(start, "X") == 0


def test_tictactoe_start(tictactoe: Any) -> None:
    start = tictactoe.initial_state()
    assert tictactoe.players == ("X", "O") and tictactoe.title == "Tic-tac-toe"
    assert tictactoe.params == {"size": 3}
    assert tictactoe.to_move(start) == "X"
    assert tictactoe.actions(start) == tuple((r, c) for r in range(3) for c in range(3))
    assert not tictactoe.is_terminal(start)
    assert tictactoe.display(start) == ". . .\n. . .\n. . ."
    assert tictactoe.display(tictactoe.result(start, (1, 1))) == ". . .\n. X .\n. . ."


def test_tictactoe_file_agrees_with_the_hand_written_game_on_every_reachable_state(tictactoe: Any) -> None:
    """Both games are played from the start by the same move sequences; every state reached is
    compared once: moves in the same order, whose turn, terminal test, utility and evaluation
    for both players. States of the two games correspond one to one."""
    reference = TicTacToe()
    seen: dict[Any, Any] = {}  # reference state -> the file's state reached by the same moves
    pending = [(reference.initial_state(), tictactoe.initial_state())]
    terminals = 0
    while pending:
        ref_state, state = pending.pop()
        if ref_state in seen:
            assert seen[ref_state] == state  # the same position, whatever the move order
            continue
        seen[ref_state] = state
        moves = tictactoe.actions(state)
        assert list(moves) == reference.actions(ref_state)
        assert tictactoe.to_move(state) == reference.to_move(ref_state)
        assert tictactoe.is_terminal(state) == reference.is_terminal(ref_state)
        for player in ("X", "O"):
            assert tictactoe.evaluate(state, player) == reference.evaluate(ref_state, player)
        if reference.is_terminal(ref_state):
            terminals += 1
            for player in ("X", "O"):
                assert tictactoe.utility(state, player) == reference.utility(ref_state, player)
            continue
        for move in moves:
            pending.append((reference.result(ref_state, move), tictactoe.result(state, move)))
    assert len(seen) == 5478  # the reachable positions of tic-tac-toe
    assert terminals == 958
    assert len(set(seen.values())) == len(seen)


def test_tictactoe_symmetric_positions_share_a_key(tictactoe: Any) -> None:
    start = tictactoe.initial_state()
    corners = [tictactoe.result(start, c) for c in [(0, 0), (0, 2), (2, 0), (2, 2)]]
    edges = [tictactoe.result(start, c) for c in [(0, 1), (1, 0), (1, 2), (2, 1)]]
    assert len({tictactoe.canonical(s) for s in corners}) == 1
    assert len({tictactoe.canonical(s) for s in edges}) == 1
    assert tictactoe.canonical(corners[0]) != tictactoe.canonical(edges[0])
    assert tictactoe.canonical(tictactoe.result(start, (1, 1))) not in {tictactoe.canonical(corners[0]), tictactoe.canonical(edges[0])}


def test_tictactoe_on_a_larger_board() -> None:
    game = gdl.load("games/tictactoe.gdl", size=4)
    assert game.params == {"size": 4}
    assert [perft(game, d) for d in (1, 2, 3)] == [16, 16 * 15, 16 * 15 * 14]
    start = game.initial_state()
    assert game.evaluate(game.result(start, (0, 0)), "X") == 3  # open lines through a corner: row, column, diagonal


# ---- subtraction and Nim -------------------------------------------------------------------------


def test_subtraction_defaults() -> None:
    game = gdl.load("games/subtraction.gdl")
    assert game.params == {"stones": 15, "take": 2}
    start = game.initial_state()
    assert (start.pile, game.to_move(start), game.actions(start)) == (15, "First", (1, 2))
    assert game.display(start) == "15 stones, First to move"
    assert alphabeta(game, table=True).value == -1  # 15 is a multiple of take + 1


@pytest.mark.parametrize(
    ("params", "counts"),
    [
        # 4 stones, take 1 or 2: sequences 1|2, then 11 12 21 22, then 111 112 121 211, then 1111.
        ({"stones": 4, "take": 2}, [2, 4, 4, 1, 0]),
        # 3 stones, take up to 3: 1 2 3 | 11 12 21 | 111.
        ({"stones": 3, "take": 3}, [3, 3, 1, 0]),
        ({"stones": 1}, [1, 0]),
        ({"stones": 0}, [0]),
    ],
)
def test_subtraction_perft(params: dict[str, int], counts: list[int]) -> None:
    game = gdl.load("games/subtraction.gdl", **params)
    assert [perft(game, d) for d in range(1, len(counts) + 1)] == counts


@pytest.mark.parametrize(("stones", "value"), [(1, 1), (2, 1), (3, -1), (4, 1), (5, 1), (6, -1), (9, -1), (10, 1)])
def test_subtraction_values(stones: int, value: int) -> None:
    game = gdl.load("games/subtraction.gdl", stones=stones)
    assert minimax(game).value == value


def test_subtraction_of_five_is_won_by_taking_two() -> None:
    game = gdl.load("games/subtraction.gdl", stones=5)
    result = minimax(game)
    assert result.value == 1 and result.move == 2
    assert result.move_values == {1: -1, 2: 1}


def test_nim_defaults() -> None:
    game = gdl.load("games/nim.gdl")
    assert game.params == {"piles": (3, 4, 5), "misere": False}
    start = game.initial_state()
    assert start.heaps == (3, 4, 5) and game.to_move(start) == "First"
    assert perft(game, 1) == 12
    assert game.format_move((2, 5)) == "take 5 from pile 2"
    assert game.display(start) == "pile 0: 3  pile 1: 4  pile 2: 5"
    assert alphabeta(game, table=True).value == 1  # nim-sum 3 ^ 4 ^ 5 = 2 is not zero


def test_nim_with_two_piles() -> None:
    game = gdl.load("games/nim.gdl", piles=(1, 2))
    start = game.initial_state()
    assert game.actions(start) == ((0, 1), (1, 1), (1, 2))
    # (0, 1) leaves (0, 2): 2 moves; (1, 1) leaves (1, 1): 2; (1, 2) leaves (1, 0): 1.
    # Three stones make at most three moves, and every three-move game ends.
    assert [perft(game, d) for d in (1, 2, 3, 4)] == [3, 5, 3, 0]
    assert minimax(game).value == 1  # nim-sum 1 ^ 2 = 3
    assert gdl.load("games/nim.gdl", piles=[1, 2]).initial_state() == start


@pytest.mark.parametrize(
    ("piles", "misere", "value"),
    [
        ((1, 1), False, -1),  # nim-sum 0
        ((1, 1), True, 1),  # every pile has at most one stone, and their number is even
        ((1, 1, 1), True, -1),
        ((1, 1, 1), False, 1),
        ((2, 2), True, -1),  # a pile of two: as in normal play, nim-sum 0 loses
        ((1, 2, 3), False, -1),
        ((1, 2, 3), True, -1),
        ((2, 3), True, 1),
    ],
)
def test_nim_values(piles: tuple[int, ...], misere: bool, value: int) -> None:
    game = gdl.load("games/nim.gdl", piles=piles, misere=misere)
    assert alphabeta(game, table=True).value == value


# ---- the textbook trees ------------------------------------------------------------------------

TREES = {
    "games/textbook/aima.gdl": (
        {"A": ["B", "C", "D"], "B": [3, 12, 8], "C": [2, 4, 6], "D": [14, 5, 2]},
        [3, 9, 0], 3,
    ),
    "games/textbook/four_leaves.gdl": (
        {"A": ["B", "C"], "B": ["D", "E"], "C": ["F", "G"], "D": [-1, 4], "E": [2, 6], "F": [-3, -5], "G": [0, 7]},
        [2, 4, 8, 0], 4,
    ),
    "games/textbook/pruning.gdl": (
        {"A": ["B", "C"], "B": ["D", "E"], "C": ["F", "G"], "D": [2, 3], "E": [5, 9], "F": [0, 1], "G": [7, 5]},
        [2, 4, 8, 0], 3,
    ),
    "games/textbook/two_ply.gdl": (
        {"A": ["B", "E"], "B": ["C", "D"], "E": ["F", "G"], "C": [-1, 5], "D": [-2, -4], "F": [1, -1], "G": [2, 4]},
        [2, 4, 8, 0], 1,
    ),
}


@pytest.mark.parametrize("path", list(TREES))
def test_textbook_tree_is_exactly_the_figure(path: str) -> None:
    tree, _, _ = TREES[path]
    game = gdl.load(path)
    assert game.players == ("MAX", "MIN")
    assert game.initial_state() == ("A",)
    visited = []

    def walk(node: str, depth: int) -> None:
        state = (node,)
        visited.append(node)
        assert not game.is_terminal(state)
        assert game.to_move(state) == ("MAX" if depth % 2 == 0 else "MIN")
        children = tree[node]
        names = [child if isinstance(child, str) else f"{node}{i}" for i, child in enumerate(children, start=1)]
        assert list(game.actions(state)) == names
        for name, child in zip(names, children):
            assert game.result(state, name) == (name,)
            if isinstance(child, str):
                walk(child, depth + 1)
            else:
                leaf = (name,)
                visited.append(name)
                assert game.is_terminal(leaf)
                assert game.to_move(leaf) == ("MIN" if depth % 2 == 0 else "MAX")
                assert game.utility(leaf, "MAX") == child
                assert game.utility(leaf, "MIN") == -child

    walk("A", 0)
    leaves = sum(1 for children in tree.values() for c in children if not isinstance(c, str))
    assert len(visited) == len(tree) + leaves


@pytest.mark.parametrize("path", list(TREES))
def test_textbook_tree_perft_and_value(path: str) -> None:
    _, counts, value = TREES[path]
    game = gdl.load(path)
    assert [perft(game, d) for d in range(1, len(counts) + 1)] == counts
    assert minimax(game).value == value
    assert alphabeta(game).value == value
