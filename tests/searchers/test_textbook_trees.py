"""The four textbook trees: values, best moves, scored leaves and pruned branches."""

from __future__ import annotations

import math

import pytest

from searchers import TraceNode, alphabeta, expectiminimax, minimax
from tests.pygames import TEXTBOOK_TREES, TreeGame

# name: (value, best move, leaves alpha-beta scores in order, {node: moves pruned there})
KNOWN = {
    "aima": (3, "B", [3, 12, 8, 2, 14, 5, 2], {"C": ["C2", "C3"]}),
    "four_leaves": (4, "B", [-1, 4, 2, 6, -3, -5], {"C": ["G"]}),
    "pruning": (3, "B", [2, 3, 5, 0, 1], {"E": ["E2"], "C": ["G"]}),
    "two_ply": (1, "E", [-1, 5, -2, -4, 1, -1, 2], {"G": ["G2"]}),
}


def all_nodes(node: TraceNode) -> list[TraceNode]:
    """The trace tree's nodes in search order."""
    return [node, *(n for child in node.children for n in all_nodes(child))]


def leaf_values_in_order(tree: dict) -> list[int]:
    """Every leaf value of a TreeGame table, left to right."""
    def walk(node: str) -> list[int]:
        return [v for child in tree[node]
                for v in (walk(child) if isinstance(child, str) else [child])]
    return walk(next(iter(tree)))


@pytest.mark.parametrize("name", KNOWN)
def test_minimax_value_move_and_every_leaf(name: str) -> None:
    value, move, _, _ = KNOWN[name]
    result = minimax(TreeGame(TEXTBOOK_TREES[name]), trace=True)
    assert (result.value, result.move, result.exact) == (value, move, True)
    assert [v for _, v in result.leaves] == leaf_values_in_order(TEXTBOOK_TREES[name])
    assert result.stats.leaves == len(result.leaves)


@pytest.mark.parametrize("name", KNOWN)
def test_alphabeta_scores_exactly_the_textbook_leaves(name: str) -> None:
    value, move, leaves, _ = KNOWN[name]
    result = alphabeta(TreeGame(TEXTBOOK_TREES[name]), trace=True)
    assert (result.value, result.move, result.exact) == (value, move, True)
    assert [v for _, v in result.leaves] == leaves
    assert result.stats.leaves == len(leaves)


@pytest.mark.parametrize("name", KNOWN)
def test_alphabeta_trace_names_the_pruned_moves(name: str) -> None:
    *_, pruned = KNOWN[name]
    result = alphabeta(TreeGame(TEXTBOOK_TREES[name]), trace=True)
    nodes = all_nodes(result.tree)
    assert {n.state: n.pruned for n in nodes if n.pruned} == pruned
    assert result.stats.cutoffs == len(pruned)
    visited = {n.state for n in nodes}
    for moves in pruned.values():
        assert not visited & set(moves)


def test_aima_trace_has_the_figures_windows_and_bounds() -> None:
    tree = alphabeta(TreeGame(TEXTBOOK_TREES["aima"]), trace=True).tree
    assert (tree.kind, tree.player, tree.alpha, tree.beta, tree.value) == (
        "max", "MAX", -math.inf, math.inf, 3)
    b, c, d = tree.children
    assert [n.move for n in tree.children] == ["B", "C", "D"]
    assert (b.kind, b.alpha, b.beta, b.value, b.bound) == ("min", -math.inf, math.inf, 3, "exact")
    # C is refuted by its first leaf: the figure's "<= 2".
    assert (c.alpha, c.beta, c.value, c.bound) == (3, math.inf, 2, "upper")
    assert [(n.move, n.kind, n.scored_by, n.value) for n in c.children] == [
        ("C1", "leaf", "utility", 2)]
    assert [n.beta for n in d.children] == [math.inf, 14, 5]
    assert alphabeta(TreeGame(TEXTBOOK_TREES["aima"])).move_bounds == {
        "B": "exact", "C": "upper", "D": "upper"}


def test_minimax_trace_has_no_window_and_every_node() -> None:
    result = minimax(TreeGame(TEXTBOOK_TREES["aima"]), trace=True)
    nodes = all_nodes(result.tree)
    assert len(nodes) == result.stats.nodes == 13
    assert all(n.alpha is None and n.beta is None and not n.pruned for n in nodes)
    assert [n.value for n in result.tree.children] == [3, 2, 2]
    assert result.move_values == {"B": 3, "C": 2, "D": 2}
    assert result.pv == ["B", "B1"]


@pytest.mark.parametrize("name", KNOWN)
def test_expectiminimax_without_chance_is_minimax(name: str) -> None:
    game = TreeGame(TEXTBOOK_TREES[name])
    expected = minimax(game)
    result = expectiminimax(game, trace=True)
    assert (result.value, result.move, result.move_values) == (
        expected.value, expected.move, expected.move_values)
    assert result.stats.nodes == expected.stats.nodes


def test_no_trace_unless_asked() -> None:
    result = alphabeta(TreeGame(TEXTBOOK_TREES["aima"]))
    assert result.tree is None and result.leaves is None
    assert result.to_move == "MAX" and result.algorithm == "alphabeta"
