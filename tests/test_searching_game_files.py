"""The searchers' known results, proven on the game files themselves (the searchers' own tests
use hand-written Python games): the textbook figures prune as the textbooks do, tic-tac-toe's
tree has 549,946 nodes, and Nim follows Bouton's rule in every small position."""

from __future__ import annotations

import itertools
from functools import reduce
from operator import xor

import pytest

import gdl
from searchers import alphabeta, expectiminimax, maxn, mcts, minimax, paranoid
from tests.multiplayer_games import AIMA_THREE_PLAYER_TREE
from tests.searchers.test_maxn import brute_maxn

# file, value, best move, leaf values alpha-beta evaluates (left to right), pruned moves
TEXTBOOK = [
    ("games/textbook/aima.gdl", 3, "B", [3, 12, 8, 2, 14, 5, 2], ["C2", "C3"]),
    ("games/textbook/four_leaves.gdl", 4, "B", [-1, 4, 2, 6, -3, -5], ["G"]),
    ("games/textbook/pruning.gdl", 3, "B", [2, 3, 5, 0, 1], ["E2", "G"]),
    ("games/textbook/two_ply.gdl", 1, "E", [-1, 5, -2, -4, 1, -1, 2], ["G2"]),
]


def pruned_moves(node: object) -> list[str]:
    """Every move a traced search pruned, in search order."""
    found = list(getattr(node, "pruned"))
    for child in getattr(node, "children"):
        found += pruned_moves(child)
    return found


@pytest.mark.parametrize("path, value, best, leaves, pruned", TEXTBOOK, ids=[t[0] for t in TEXTBOOK])
def test_alphabeta_on_a_textbook_figure(path: str, value: int, best: str, leaves: list[int], pruned: list[str]) -> None:
    game = gdl.load(path)
    result = alphabeta(game, trace=True)
    assert (result.value, result.move, result.exact) == (value, best, True)
    assert [v for _, v in result.leaves] == leaves
    assert pruned_moves(result.tree) == pruned
    plain = minimax(game, trace=True)
    assert (plain.value, plain.move) == (value, best)
    assert len(plain.leaves) == (9 if "aima" in path else 8)  # minimax evaluates every leaf


def test_tictactoe_file_minimax_visits_the_whole_game_tree() -> None:
    game = gdl.load("games/tictactoe.gdl")
    plain = minimax(game)
    assert (plain.value, plain.stats.nodes) == (0, 549_946)
    pruning = alphabeta(game)
    table = alphabeta(game, table=True)
    assert plain.stats.nodes > pruning.stats.nodes > table.stats.nodes
    assert pruning.value == table.value == 0
    assert expectiminimax(game, table=True).value == 0


def test_tictactoe_file_depth_limited_values() -> None:
    game = gdl.load("games/tictactoe.gdl")
    one = alphabeta(game, depth=1)
    assert one.move == (1, 1)
    two = minimax(game, depth=2).move_values
    assert (two[(1, 1)], two[(0, 0)], two[(0, 1)]) == (1, -1, -2)


@pytest.mark.parametrize("misere", [False, True], ids=["normal", "misere"])
def test_nim_file_follows_boutons_rule_on_every_three_pile_position(misere: bool) -> None:
    for piles in itertools.product(range(4), repeat=3):
        if sum(piles) == 0:
            continue
        nim_sum = reduce(xor, piles)
        if misere and max(piles) <= 1:
            first_wins = piles.count(1) % 2 == 0
        else:
            first_wins = nim_sum != 0
        value = alphabeta(gdl.load("games/nim.gdl", piles=piles, misere=misere), table=True).value
        assert value == (1 if first_wins else -1), piles


@pytest.mark.parametrize(
    "path, params, moves, win",
    [
        ("games/tictactoe.gdl", {}, [(1, 1), (0, 0), (1, 2), (2, 2)], (1, 0)),
        ("games/connect.gdl", {"rows": 4, "cols": 5, "k": 3}, [1, 1, 2, 2], 3),
        ("games/connect.gdl", {"rows": 4, "cols": 5, "k": 3}, [1, 1, 2, 2], 0),
    ],
    ids=["tictactoe", "connect, the line's right end", "connect, its left end"],
)
def test_a_shallow_search_takes_an_immediate_win(path: str, params: dict[str, int], moves: list[object], win: object) -> None:
    # The evaluations stay below a win's utility, so even a depth-1 search sees the win as best.
    game = gdl.load(path, **params)
    state = game.initial_state()
    for move in moves:
        state = game.result(state, move)
    result = alphabeta(game, state, depth=1)
    assert result.value == max(result.move_values.values())
    assert game.is_terminal(game.result(state, result.move))
    assert result.move_values[win] == game.utility(game.result(state, win), game.to_move(state))


def test_the_three_player_textbook_figure_backs_up_1_2_6_to_the_root() -> None:
    game = gdl.load("games/textbook/three_players.gdl")
    # The file's table is the figure: every inner node's children, and every leaf's payoffs.
    for node, children in AIMA_THREE_PLAYER_TREE.items():
        state = (node,)
        assert len(game.actions(state)) == len(children)
        for move, child in zip(game.actions(state), children):
            below = game.result(state, move)
            if isinstance(child, tuple):
                assert game.is_terminal(below) and tuple(game.utility(below, p) for p in game.players) == child
            else:
                assert move == child
    expected = brute_maxn(AIMA_THREE_PLAYER_TREE, "a")
    assert expected == (1, 2, 6)  # as the book backs it up
    for result in (maxn(game), maxn(game, prune=False), mcts(game, iterations=500, seed=0)):
        assert result.value == dict(zip(game.players, expected)) and result.exact
        assert result.move == "b1"  # A's two moves tie at 1: the first is kept
    # Paranoid: B and C both against A leave it 1 on either side, min(1, 4) and min(5, 1).
    assert paranoid(game).value == 1
