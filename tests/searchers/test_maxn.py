"""Max^n: the textbook's three-player tree, agreement with brute force written here, pruning
that skips nodes but never changes a value, and minimax's values on two-player games."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest

from searchers import Progress, SearchError, maxn, minimax
from tests.multiplayer_games import AIMA_THREE_PLAYER_TREE, PayoffTable, PayoffTree, TakeAway
from tests.pygames import TEXTBOOK_TREES, TicTacToe, TreeGame
from tests.searchers.test_progress import InterruptAfter, eager_progress  # noqa: F401 (a fixture)

PLAYERS = ("A", "B", "C")


def brute_maxn(tree: PayoffTable, node: str, depth: int = 0, players: int = 3) -> tuple:
    """The max^n vector of a node of a payoff table: the mover's best child, the first of equals."""
    mover = depth % players
    best = None
    for child in tree[node]:
        vector = child if isinstance(child, tuple) else brute_maxn(tree, child, depth + 1, players)
        if best is None or vector[mover] > best[mover]:
            best = vector
    return best


def as_dict(vector: tuple) -> dict:
    return dict(zip(PLAYERS, vector))


# --------------------------------------------------------------------------- the textbook tree

def test_aima_three_player_tree_backs_up_1_2_6_to_the_root() -> None:
    result = maxn(PayoffTree(AIMA_THREE_PLAYER_TREE), trace=True)
    assert result.value == {"A": 1, "B": 2, "C": 6}
    # A's two moves tie at 1: the first in move order is kept, as the figure's arrow shows.
    assert result.move == "b1" and result.pv == ["b1", "c1", "c11"]
    assert result.move_values == {"b1": {"A": 1, "B": 2, "C": 6}, "b2": {"A": 1, "B": 5, "C": 2}}
    assert result.exact and result.stats.leaves == 8
    # Every node of the figure, as the book labels it.
    nodes = {node.state: node.value for node in walk(result.tree)}
    assert {name: nodes[name] for name in ("c1", "c2", "c3", "c4", "b1", "b2")} == {
        "c1": as_dict((1, 2, 6)), "c2": as_dict((6, 1, 2)), "c3": as_dict((1, 5, 2)),
        "c4": as_dict((5, 4, 5)), "b1": as_dict((1, 2, 6)), "b2": as_dict((1, 5, 2)),
    }
    assert all(node.kind in ("max", "leaf") for node in walk(result.tree))


def walk(node):
    yield node
    for child in node.children:
        yield from walk(child)


# ---------------------------------------------------------------- random trees and pruning

def random_tree(rng: random.Random, depth: int, branching: int, total: int = 10) -> PayoffTable:
    """A random three-player tree whose payoffs are 0..total and add up to ``total``."""
    tree: dict = {}

    def grow(name: str, level: int) -> None:
        children = tree[name] = []  # the root is the table's first key
        for i in range(rng.randint(1, branching)):
            if level + 1 == depth or rng.random() < 0.15:
                cuts = sorted(rng.randint(0, total) for _ in range(2))
                children.append((cuts[0], cuts[1] - cuts[0], total - cuts[1]))
            else:
                child = f"{name}.{i}"
                children.append(child)
                grow(child, level + 1)

    grow("r", 0)
    return tree


@pytest.mark.parametrize("seed", range(40))
def test_random_constant_sum_trees_agree_with_brute_force_with_and_without_pruning(seed: int) -> None:
    rng = random.Random(seed)
    tree = random_tree(rng, depth=rng.randint(2, 5), branching=4)
    expected = as_dict(brute_maxn(tree, "r"))
    pruned = maxn(PayoffTree(tree, payoff_bounds=(0, 10), payoff_sum=10))
    plain = maxn(PayoffTree(tree, payoff_bounds=(0, 10), payoff_sum=10), prune=False)
    assert pruned.value == plain.value == expected
    assert pruned.move == plain.move and pruned.exact and plain.exact
    assert pruned.stats.nodes <= plain.stats.nodes
    # A root move is exact, or proven no better for A than the best move.
    leaves = PayoffTree(tree).values
    for move, bound in pruned.move_bounds.items():
        true = leaves[move] if move in leaves else brute_maxn(tree, move, 1)
        if bound == "exact":
            assert pruned.move_values[move] == as_dict(true)
        else:
            assert bound == "upper" and true[0] <= expected["A"]


def test_shallow_pruning_visits_fewer_nodes_on_random_trees() -> None:
    saved = visited = 0
    for seed in range(40):
        rng = random.Random(seed)
        tree = random_tree(rng, depth=rng.randint(2, 5), branching=4)
        pruned = maxn(PayoffTree(tree, payoff_bounds=(0, 10), payoff_sum=10))
        plain = maxn(PayoffTree(tree, payoff_bounds=(0, 10), payoff_sum=10), prune=False)
        saved += plain.stats.nodes - pruned.stats.nodes
        visited += plain.stats.nodes
        assert plain.stats.cutoffs == 0
    assert saved > visited // 10


def test_without_declared_bounds_nothing_is_pruned() -> None:
    tree = random_tree(random.Random(7), depth=4, branching=3)
    assert maxn(PayoffTree(tree)).stats.cutoffs == 0


def test_shallow_pruning_stops_at_the_first_child_that_settles_it() -> None:
    # A takes b1 = (6, 2, 2); at b2, B's first child leaves A at most 10 - 5 = 5 <= 6.
    tree = {"a": ["b1", "b2"], "b1": [(6, 2, 2)], "b2": [(3, 5, 2), (9, 0, 1)]}
    result = maxn(PayoffTree(tree, ["A", "B"] + ["C"], payoff_bounds=(0, 10), payoff_sum=10), trace=True)
    assert result.value == as_dict((6, 2, 2))
    b2 = result.tree.children[1]
    assert b2.pruned == ["b22"] and b2.bound == "upper"
    assert result.move_bounds == {"b1": "exact", "b2": "upper"}


def test_immediate_pruning_stops_once_the_mover_has_the_highest_payoff() -> None:
    tree = {"a": [(10, 0, 0), (10, 0, 0), (2, 4, 4)]}
    result = maxn(PayoffTree(tree, payoff_bounds=(0, 10)), trace=True)
    assert result.value == as_dict((10, 0, 0)) and result.move == "a1"
    assert result.tree.pruned == ["a2", "a3"] and result.exact


# ------------------------------------------------------------------ three-player take-away

def takeaway_brute_force(stones: int, take: int, scores: tuple, players: int = 3) -> tuple:
    """Max^n over (stones, mover, last taker) by memoised recursion."""

    @cache
    def value(left: int, mover: int, last: int) -> tuple:
        if left == 0:
            return tuple(scores[0] if i == last else scores[1] if i == (last - 1) % players
                         else scores[2] for i in range(players))
        best = None
        for n in range(1, min(take, left) + 1):
            vector = value(left - n, (mover + 1) % players, mover)
            if best is None or vector[mover] > best[mover]:
                best = vector
        return best

    return value(stones, 0, -1)


@pytest.mark.parametrize("scores", [(2, 1, 0), (1, 0, 0), (3, 2, 0)])
@pytest.mark.parametrize("stones", range(1, 14))
def test_takeaway_values_agree_with_brute_force(stones: int, scores: tuple) -> None:
    game = TakeAway(stones, 3, payoffs=scores)
    expected = as_dict(takeaway_brute_force(stones, 3, scores))
    result = maxn(game)
    assert result.value == expected and result.exact
    assert maxn(game, prune=False).value == expected


def test_a_long_game_searches_to_its_end() -> None:
    # One stone at a time: 3,000 plies, far beyond Python's default recursion limit.
    result = maxn(TakeAway(3000, 1))
    last = (3000 - 1) % 3  # the player taking the 3,000th stone: C, after B
    assert result.value == {"A": 0, "B": 1, "C": 2} and PLAYERS[last] == "C"
    assert len(result.pv) == 3000 and result.stats.depth == 3000


# ---------------------------------------------------------------- evaluation and limits

class EstimatedTakeAway(TakeAway):
    """Take-away with an estimate: the player who would move last if everyone took one
    stone at a time is favoured."""

    has_evaluation = True

    def evaluate(self, state: tuple, player: str) -> int:
        left, mover, _ = state
        favoured = (mover + left - 1) % len(self.players)
        return 2 if self.players.index(player) == favoured else 1 if player == self.players[mover] else 0


def estimated_brute_force(game: EstimatedTakeAway, state: tuple, depth: int) -> tuple:
    """Depth-limited max^n with the evaluation at the cut-off."""
    if game.is_terminal(state):
        return tuple(game.utility(state, p) for p in game.players)
    if depth == 0:
        return tuple(game.evaluate(state, p) for p in game.players)
    mover = state[1]
    best = None
    for move in game.actions(state):
        vector = estimated_brute_force(game, game.result(state, move), depth - 1)
        if best is None or vector[mover] > best[mover]:
            best = vector
    return best


@pytest.mark.parametrize("depth", [0, 1, 2, 3, 5])
def test_depth_limited_values_use_every_players_evaluation(depth: int) -> None:
    game = EstimatedTakeAway(12, 3)
    result = maxn(game, depth=depth)
    assert result.value == as_dict(estimated_brute_force(game, game.initial_state(), depth))
    assert not result.exact and "evaluation" in result.inexact_reason


def test_a_node_limit_deepens_one_move_at_a_time() -> None:
    game = EstimatedTakeAway(20, 3)
    result = maxn(game, max_nodes=2_000)
    reached = result.stats.depth
    assert 1 <= reached < 20 and not result.exact
    assert result.value == as_dict(estimated_brute_force(game, game.initial_state(), reached))


def test_a_cut_off_without_an_evaluation_is_refused() -> None:
    with pytest.raises(SearchError, match="maxn with a depth limit needs an evaluation"):
        maxn(TakeAway(), depth=2)


# ----------------------------------------------------------------------- chance nodes

def test_chance_nodes_average_the_payoff_vectors() -> None:
    tree = {
        "a": ["b1", "b2"],
        "b1": [(3, 3, 3)],
        "b2": ["c1", "c2"],  # B's turn is taken by the dice: 1/4 and 3/4
        "c1": [(8, 0, 1), (0, 8, 1)], "c2": [(4, 4, 4), (0, 0, 9)],
    }
    game = PayoffTree(tree, chance={"b2": [Fraction(1, 4), Fraction(3, 4)]})
    # c1 and c2 are C's: C takes (8, 0, 1) (the first of equals) and (0, 0, 9).
    expected_b2 = (Fraction(2), Fraction(0), Fraction(1, 4) + Fraction(27, 4))
    result = maxn(game)
    assert result.move_values["b2"] == as_dict(expected_b2)
    assert result.value == as_dict((3, 3, 3)) and result.move == "b1"


# --------------------------------------------------------------------- two-player games

@pytest.mark.parametrize("name", sorted(TEXTBOOK_TREES))
def test_two_player_trees_have_minimax_values_as_one_number(name: str) -> None:
    game = TreeGame(TEXTBOOK_TREES[name])
    expected = minimax(game)
    result = maxn(game, prune=False)
    assert (result.value, result.move, result.move_values) == (
        expected.value, expected.move, expected.move_values)
    assert maxn(game).value == expected.value


def test_tic_tac_toe_values_are_minimax_values_and_pruning_skips_most_nodes() -> None:
    game = TicTacToe()
    state = game.result(game.result(game.initial_state(), (1, 1)), (0, 1))  # O's edge reply loses
    expected = minimax(game, state)
    pruned, plain = maxn(game, state), maxn(game, state, prune=False)
    assert pruned.value == plain.value == expected.value == 10 and pruned.exact
    assert plain.move_values == expected.move_values
    assert plain.stats.nodes == expected.stats.nodes  # the whole tree below
    assert pruned.stats.nodes < plain.stats.nodes // 4


def test_aima_two_player_tree_prunes_c2_and_c3_like_the_textbook() -> None:
    result = maxn(TreeGame(TEXTBOOK_TREES["aima"]), trace=True)
    assert result.value == 3 and result.move == "B"
    assert result.tree.children[1].pruned == ["C2", "C3"]
    assert result.move_bounds["C"] == "upper"


# ------------------------------------------------------------------ progress and Ctrl-C

def test_progress_reports_while_searching(eager_progress: None) -> None:
    reports: list[Progress] = []
    result = maxn(TakeAway(13, 3), progress=reports.append)
    assert len(reports) == result.stats.nodes // 256


def test_ctrl_c_returns_the_best_root_move_finished() -> None:
    game = TakeAway(13, 3)
    complete = maxn(game, prune=False)
    result = maxn(InterruptAfter(game, calls=1_500), prune=False)
    assert result.interrupted and not result.exact
    assert result.move_values and set(result.move_values) < set(complete.move_values)
    for move, value in result.move_values.items():
        assert value == complete.move_values[move]
