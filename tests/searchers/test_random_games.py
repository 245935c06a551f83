"""Random game trees and graphs: every searcher and refinement agrees with minimax."""

from __future__ import annotations

import math

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from searchers import SearchResult, alphabeta, expectiminimax, minimax
from tests.pygames import GraphGame, TreeGame
from tests.searchers.random_games import (
    MirroredGame,
    random_acyclic_graphs,
    random_dags,
    random_graphs,
    random_trees,
    reference_value,
)

FEW = settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])

REFINEMENTS = [
    {},
    {"table": True},
    {"ordering": True},
    {"killers": True},
    {"history": True},
    {"table": True, "ordering": True, "killers": True, "history": True},
    {"table": True, "ordering": True, "ordering_plies": 2},
    {"table": True, "ordering": True, "ordering_plies": 1, "killers": True},
    {"table": True, "symmetry": True},
    {"max_nodes": 10**6},
    {"max_nodes": 10**6, "table": True, "ordering": True},
]


def check_agreement(game: object, depth: int | None = None) -> SearchResult:
    """Every alpha-beta variant and expectiminimax give minimax's value (to ``depth``)."""
    exact = minimax(game, depth=depth)
    for options in REFINEMENTS:
        result = alphabeta(game, **{"depth": depth, **options})
        assert result.value == exact.value, options
        assert result.move_values[result.move] == exact.value, options
        check_bounds(result, exact)
    for table in (False, True):
        assert expectiminimax(game, depth=depth, table=table).value == exact.value
    return exact


def check_bounds(result: SearchResult, exact: SearchResult) -> None:
    """Each root move's value is ``exact``'s, or a bound on it, as ``move_bounds`` says: "exact"
    where the result is the game's value, "estimate" where it rests on the evaluation at the
    depth limit (alpha-beta may prove the game's value where minimax reaches the limit)."""
    for move, value in result.move_values.items():
        true = exact.move_values[move]
        bound = result.move_bounds[move]
        assert bound != ("estimate" if result.exact else "exact"), (move, bound)
        assert {"exact": value == true, "estimate": value == true, "upper": true <= value,
                "lower": true >= value}[bound], (move, bound, value, true)


@FEW
@given(random_trees())
def test_searchers_agree_on_random_trees(game: TreeGame) -> None:
    exact = check_agreement(game)
    assert exact.exact
    assert alphabeta(game).stats.nodes <= exact.stats.nodes


@FEW
@given(random_dags())
def test_searchers_agree_on_random_graphs_with_transpositions(game: TreeGame) -> None:
    exact = check_agreement(game)
    assert alphabeta(game).stats.nodes <= exact.stats.nodes
    assert alphabeta(game, table=True).stats.nodes <= alphabeta(game).stats.nodes


@FEW
@given(random_trees(), st.integers(1, 3))
def test_depth_limited_searchers_agree(game: TreeGame, depth: int) -> None:
    check_agreement(game, depth)


@FEW
@given(random_dags(), st.integers(1, 3))
def test_depth_limited_searchers_agree_with_transpositions(game: TreeGame, depth: int) -> None:
    check_agreement(game, depth)


@FEW
@given(random_acyclic_graphs(), st.integers(1, 4))
def test_depth_limited_searchers_agree_across_transpositions_between_depths(
    game: GraphGame, depth: int,
) -> None:
    # A table entry searched deeper than needed here would change the value.
    check_agreement(game, depth)


@FEW
@given(random_dags())
def test_symmetric_positions_share_table_entries(base: TreeGame) -> None:
    game = MirroredGame(base)
    expected = minimax(base)
    for options in [{"table": True, "symmetry": True},
                    {"table": True, "symmetry": True, "ordering": True, "killers": True},
                    {"symmetry": True, "max_nodes": 10**6, "table": True}]:
        result = alphabeta(game, **options)
        assert result.value == expected.value, options
        state = game.initial_state()
        for move in result.pv:  # a legal line, whatever the orientation
            assert move in game.actions(state)
            state = game.result(state, move)


def test_hints_from_a_mirror_image_are_checked_for_legality() -> None:
    # "c" is reached in both orientations (through "a" and through "b"); the
    # previous iteration's move from one is not legal in the other.
    base = TreeGame({"r": ["a", "b"], "a": ["c"], "b": ["c"], "c": ["d"], "d": [1, 2]},
                    estimates={"r": 0, "a": 0, "b": 0, "c": 0, "d": 0})
    game = MirroredGame(base)
    orientations = {game.result(game.result(game.initial_state(), move), next_move)[1]
                    for move in game.actions(game.initial_state())
                    for next_move in game.actions(game.result(game.initial_state(), move))}
    assert orientations == {0, 1}
    for options in ({"symmetry": True}, {"symmetry": True, "ordering": True}):
        result = alphabeta(game, max_nodes=10**6, **options)
        assert (result.value, result.stats.depth, result.exact) == (1, 4, True)  # MIN picks 1


@FEW
@given(random_trees())
def test_principal_variation_reaches_a_leaf_with_the_value(game: TreeGame) -> None:
    for result in (minimax(game), alphabeta(game), alphabeta(game, table=True, ordering=True)):
        state = game.initial_state()
        for move in result.pv:
            state = game.result(state, move)
        assert game.is_terminal(state)
        assert game.utility(state, "MAX") == result.value


@FEW
@given(random_graphs())
def test_searchers_agree_on_cyclic_graphs(game: object) -> None:
    expected = reference_value(game)
    assert minimax(game).value == expected
    for options in [{}, {"ordering": True}, {"killers": True, "history": True}, {"table": True},
                    {"table": True, "killers": True, "history": True}]:
        assert alphabeta(game, **options).value == expected, options
    assert expectiminimax(game).value == expected
    assert expectiminimax(game, table=True).value == expected


def knuth_moore_leaves(branching: int, depth: int) -> int:
    """Leaves alpha-beta scores on a uniform tree searched best move first."""
    return branching ** math.ceil(depth / 2) + branching ** (depth // 2) - 1


@st.composite
def best_first_uniform_trees(draw: st.DrawFn) -> tuple[TreeGame, int, int]:
    """A uniform tree whose children are sorted best first for the player to move."""
    branching, depth = draw(st.integers(2, 4)), draw(st.integers(1, 4))
    if branching ** depth > 256:
        depth = 3
    leaves = iter(draw(st.lists(st.integers(-5, 5), min_size=branching ** depth,
                                max_size=branching ** depth)))
    tree: dict[str, list] = {}
    values: dict[str, int] = {}

    def build_all(name: str, level: int) -> int:
        if level == depth:
            values[name] = next(leaves)
            return values[name]
        kids = [(build_all(name + "abcd"[i], level + 1), name + "abcd"[i])
                for i in range(branching)]
        kids.sort(key=lambda kid: kid[0], reverse=level % 2 == 0)
        tree[name] = [values[kid] if level + 1 == depth else kid for _, kid in kids]
        return kids[0][0]

    build_all("r", 0)
    table = {"r": tree.pop("r"), **tree}
    return TreeGame(table), branching, depth


@settings(max_examples=60, deadline=None)
@given(best_first_uniform_trees())
def test_alphabeta_scores_the_knuth_moore_minimum_on_best_first_trees(
    case: tuple[TreeGame, int, int],
) -> None:
    game, branching, depth = case
    result = alphabeta(game)
    assert result.stats.leaves == knuth_moore_leaves(branching, depth)
    assert result.value == minimax(game).value


def test_knuth_moore_formula_examples() -> None:
    assert knuth_moore_leaves(3, 2) == 5 and knuth_moore_leaves(2, 4) == 7
    assert knuth_moore_leaves(4, 3) == 16 + 4 - 1

