"""Depth limits, iterative deepening under time and node limits, and the beam."""

from __future__ import annotations

import pytest

from searchers import SearchError, alphabeta, expectiminimax, minimax
from tests.pygames import AIMA_TREE, ConnectK, GraphGame, Subtraction, TicTacToe, TreeGame

SEARCHERS = [minimax, alphabeta, expectiminimax]
# The AIMA tree with an estimate for every inner node (MAX's view).
ESTIMATES = {"A": 0, "B": 5, "C": 1, "D": 7}


@pytest.mark.parametrize("search", SEARCHERS)
def test_cut_off_states_are_evaluated(search) -> None:
    game = TreeGame(AIMA_TREE, estimates=ESTIMATES)
    result = search(game, depth=1, trace=True)
    assert result.move_values == {"B": 5, "C": 1, "D": 7}
    assert (result.value, result.move, result.exact) == (7, "D", False)
    assert [(n.state, n.scored_by) for n in result.tree.children] == [
        ("B", "evaluation"), ("C", "evaluation"), ("D", "evaluation")]
    assert result.stats.depth == 1


@pytest.mark.parametrize("search", SEARCHERS)
def test_depth_beyond_the_tree_is_exact(search) -> None:
    result = search(TreeGame(AIMA_TREE, estimates=ESTIMATES), depth=5)
    assert (result.value, result.move, result.exact) == (3, "B", True)


@pytest.mark.parametrize("search", SEARCHERS)
@pytest.mark.parametrize("limit", [{"depth": 1}, {"time": 1.0}, {"max_nodes": 100}])
def test_limits_need_an_evaluation(search, limit: dict) -> None:
    for game in (TreeGame(AIMA_TREE), Subtraction()):  # has_evaluation False; no evaluate
        with pytest.raises(SearchError, match="evaluation"):
            search(game, **limit)


def test_beam_needs_an_evaluation() -> None:
    with pytest.raises(SearchError, match="beam.*evaluation"):
        alphabeta(TreeGame(AIMA_TREE), beam=2)


@pytest.mark.parametrize("limit", [{"depth": -1}, {"max_nodes": 0}, {"time": 0}, {"beam": 0}])
def test_nonsense_limits_are_refused(limit: dict) -> None:
    with pytest.raises(SearchError):
        alphabeta(TicTacToe(), **limit)


def test_node_limit_stops_deepening_and_reports_the_depth_reached() -> None:
    game = TicTacToe()
    result = alphabeta(game, max_nodes=3000)
    assert 1 < result.stats.depth < 9 and not result.exact
    assert result.stats.nodes <= 3000
    # The answer is that of the deepest completed iteration.
    fixed = alphabeta(game, depth=result.stats.depth)
    assert result.value == fixed.value
    assert result.move_values[result.move] == fixed.value


def test_deepening_stops_once_an_iteration_is_exact() -> None:
    result = alphabeta(TicTacToe(), max_nodes=10**6, table=True, ordering=True)
    assert (result.value, result.exact, result.stats.depth) == (0, True, 9)
    tree = minimax(TreeGame(AIMA_TREE, estimates=ESTIMATES), max_nodes=10**6)
    assert (tree.value, tree.exact, tree.stats.depth) == (3, True, 2)


def test_deepening_stops_at_the_depth_given() -> None:
    result = alphabeta(TicTacToe(), max_nodes=10**6, depth=3)
    assert (result.stats.depth, result.exact) == (3, False)
    assert result.value == alphabeta(TicTacToe(), depth=3).value


def test_depth_one_is_always_completed() -> None:
    for limit in ({"max_nodes": 1}, {"time": 1e-9}):
        result = alphabeta(TicTacToe(), **limit)
        assert result.stats.depth == 1 and result.move == (1, 1) and not result.exact
        assert result.value == 4


def test_time_limit_deepens_connect_four() -> None:
    result = alphabeta(ConnectK(), time=0.3, table=True, ordering=True)
    assert result.stats.depth >= 2 and not result.exact
    assert result.move in range(7) and len(result.move_values) == 7


def test_beam_searches_only_the_best_moves_and_is_inexact() -> None:
    game = TicTacToe()
    result = alphabeta(game, beam=2, trace=True)
    assert not result.exact
    assert set(result.move_values) == {(1, 1), (0, 0)}  # the centre and the first corner
    assert result.tree.dropped == [(0, 2), (2, 0), (2, 2), (0, 1), (1, 0), (1, 2), (2, 1)]
    assert len(result.tree.children) == 2
    wide = alphabeta(game, beam=9)
    assert (wide.value, wide.exact) == (0, True)  # nothing dropped: a plain search


def test_minimax_iterative_deepening_counts_every_iteration() -> None:
    # Depths 1 to 4 visit 10 + 82 + 586 + 3610 = 4288 nodes; depth 5 would need
    # 3610 + 15120 more, so the search stops at the limit and answers for depth 4.
    result = minimax(TicTacToe(), max_nodes=5000)
    assert (result.stats.depth, result.stats.nodes) == (4, 5000)
    assert result.value == minimax(TicTacToe(), depth=4).value


def test_table_entries_are_reused_only_at_the_depth_they_were_searched_to() -> None:
    # v2 is met first one move from the root (3 moves left: its line is cut off
    # at v6, estimated 0) and again three moves down, where only v4 (estimated
    # 5) is in reach.  Reusing the deeper result there would make the value 0.
    game = GraphGame(
        {"v0": ["v2", "v1"], "v1": ["v3"], "v3": ["v2"], "v2": ["v4"], "v4": ["v5"],
         "v5": ["v6"], "v6": ["t"]},
        {"t": 9}, start="v0",
        estimates={"v0": 0, "v1": 0, "v2": 0, "v3": 0, "v4": 5, "v5": 0, "v6": 0},
    )
    assert minimax(game, depth=4).move_values == {"v2": 0, "v1": 5}
    for result in (alphabeta(game, depth=4, table=True, ordering=True),
                   alphabeta(game, depth=4, table=True),
                   expectiminimax(game, depth=4, table=True)):
        assert (result.value, result.move, result.exact) == (5, "v1", False)
