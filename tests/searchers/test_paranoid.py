"""Paranoid search: one player against a coalition of the others, checked against brute force
written here; on two-player games it is alpha-beta from the chosen player's view."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import cache

import pytest

from searchers import CoalitionView, SearchError, alphabeta, expectiminimax, maxn, paranoid
from tests.multiplayer_games import AIMA_THREE_PLAYER_TREE, PayoffTree, TakeAway
from tests.pygames import TEXTBOOK_TREES, DiceRace, TicTacToe, TreeGame
from tests.searchers.test_maxn import EstimatedTakeAway, random_tree

PLAYERS = ("A", "B", "C")


def takeaway_paranoid(game: TakeAway, me: int, depth: int | None = None) -> int:
    """Player ``me``'s payoff when it maximises it and everyone else minimises it, by memoised
    recursion over (stones, mover, last taker); at ``depth`` the game's evaluation."""
    player = game.players[me]

    @cache
    def value(state: tuple, left: int | None) -> int:
        if game.is_terminal(state):
            return game.utility(state, player)
        if left == 0:
            return game.evaluate(state, player)
        values = [value(game.result(state, move), None if left is None else left - 1)
                  for move in game.actions(state)]
        return max(values) if state[1] == me else min(values)

    return value(game.initial_state(), depth)


@pytest.mark.parametrize("scores", [(2, 1, 0), (3, 2, 0)])
@pytest.mark.parametrize("stones", range(1, 14, 2))
@pytest.mark.parametrize("me", range(3))
def test_takeaway_values_agree_with_brute_force(stones: int, scores: tuple, me: int) -> None:
    game = TakeAway(stones, 3, payoffs=scores)
    result = paranoid(game, player=PLAYERS[me])
    assert result.value == takeaway_paranoid(game, me) and result.exact
    # The chosen move keeps the guarantee (A moves at the root).
    if me == 0:
        after = game.result(game.initial_state(), result.move)
        assert paranoid(game, after, player="A").value == result.value


@pytest.mark.parametrize("options", [{}, {"table": True}, {"table": True, "killers": True, "history": True}])
def test_alpha_betas_refinements_keep_the_value(options: dict) -> None:
    game = TakeAway(15, 3)
    for me in range(3):
        assert paranoid(game, player=PLAYERS[me], **options).value == takeaway_paranoid(game, me)


@pytest.mark.parametrize("depth", [1, 2, 4])
def test_depth_limited_values_use_the_players_evaluation(depth: int) -> None:
    game = EstimatedTakeAway(12, 3)
    for me in range(3):
        result = paranoid(game, player=PLAYERS[me], depth=depth)
        assert result.value == takeaway_paranoid(game, me, depth) and not result.exact


def test_the_default_player_is_the_one_to_move_and_to_move_names_it() -> None:
    game = TakeAway(9, 3)
    state = game.result(game.initial_state(), 1)  # B to move
    result = paranoid(game, state)
    assert result.to_move == "B"
    assert result.value == paranoid(game, state, player="B").value


def test_paranoid_is_a_guarantee_no_better_than_max_n() -> None:
    for seed in range(20):
        rng = random.Random(seed)
        game = PayoffTree(random_tree(rng, depth=4, branching=3))
        vector = maxn(game).value
        for player in PLAYERS:
            assert paranoid(game, player=player).value <= vector[player]


def test_aima_three_player_tree_for_a() -> None:
    # B and C hold A to 1 below either of its moves: c1 = min(1, 4), c3 = min(5, 1).
    result = paranoid(PayoffTree(AIMA_THREE_PLAYER_TREE), player="A")
    assert (result.value, result.move, result.exact) == (1, "b1", True)


# ---------------------------------------------------------------------- two-player games

@pytest.mark.parametrize("name", sorted(TEXTBOOK_TREES))
def test_two_player_trees_are_alpha_beta_from_each_side(name: str) -> None:
    game = TreeGame(TEXTBOOK_TREES[name])
    expected = alphabeta(game)
    first = paranoid(game, player="MAX")
    assert (first.value, first.move, first.move_values) == (expected.value, expected.move, expected.move_values)
    assert paranoid(game, player="MIN").value == -expected.value


def test_tic_tac_toe_is_a_draw_for_either_player() -> None:
    game = TicTacToe()
    state = game.result(game.initial_state(), (0, 0))
    assert paranoid(game, state, table=True).value == -alphabeta(game, state, table=True).value == 0


def test_a_chance_game_is_searched_by_expectiminimax() -> None:
    game = DiceRace(goal=8)
    expected = expectiminimax(game, table=True)
    assert paranoid(game, player="A", table=True).value == expected.value
    assert paranoid(game, player="B", table=True).value == -expected.value


def test_the_view_is_a_two_player_zero_sum_game() -> None:
    view = CoalitionView(TakeAway(), "B")
    assert view.players == ("B", "A+C") and view.zero_sum
    state = view.initial_state()
    assert view.to_move(state) == "A+C"
    end = (0, 0, 1)  # B took the last stone
    assert (view.utility(end, "B"), view.utility(end, "A+C")) == (2, -2)


def test_a_player_not_in_the_game_is_refused() -> None:
    with pytest.raises(SearchError, match="'D' is not a player"):
        paranoid(TakeAway(), player="D")


def test_positions_repeating_through_the_dice_point_to_the_strong_solver_only_for_two_players() -> None:
    """Paranoid's view of any game has two sides, but the strong solver solves the game itself,
    and refuses one of three players: the coin game for two points to it, for three does not
    (it did).  Two players: A wins 1/3 of the time net (1/4 by the repetition rule)."""
    import gdl
    from tests.strong.test_plain_solve import COIN
    from tests.test_tree import COIN_FOR_THREE

    two, three = gdl.loads(COIN), gdl.loads(COIN_FOR_THREE)
    hint = "; the strong solver finds the true value"
    for game, says in ((two, True), (three, False)):
        result = paranoid(game)
        assert result.exact is False and result.inexact_reason is not None
        assert result.inexact_reason.startswith("positions repeat through chance nodes")
        assert result.inexact_reason.endswith(hint) is says, result.inexact_reason
    assert paranoid(two).value == maxn(two).value == expectiminimax(two).value == Fraction(1, 4)
