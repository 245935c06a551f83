"""Monte Carlo tree search: it plays tic-tac-toe without losing to a perfect opponent, its
proofs are exact (checked by formulas and brute force written here), a seed repeats a run
exactly, chance and three-player games, budgets, progress and Ctrl-C."""

from __future__ import annotations

from fractions import Fraction
from functools import cache

import pytest

from searchers import Progress, SearchError, alphabeta, expectiminimax, mcts
from tests.multiplayer_games import AIMA_THREE_PLAYER_TREE, PayoffTree, TakeAway
from tests.pygames import DiceRace, Nim, PassingSubtraction, Subtraction, TicTacToe
from tests.searchers.test_maxn import takeaway_brute_force
from tests.searchers.test_progress import InterruptAfter, eager_progress  # noqa: F401 (a fixture)


class BoundedSubtraction(Subtraction):
    """Subtraction declaring that payoffs are -1 or 1: a proven win proves its parent."""

    payoff_bounds = (-1, 1)


class BoundedNim(Nim):
    """Nim declaring that payoffs are -1 or 1."""

    payoff_bounds = (-1, 1)


# ------------------------------------------------------------------------- playing strength

def play_against_alphabeta(mcts_player: str, seed: int) -> int:
    """A game of tic-tac-toe between MCTS (2,000 iterations a move) and exact alpha-beta;
    MCTS's payoff at the end."""
    game = TicTacToe()
    state, turn = game.initial_state(), 0
    while not game.is_terminal(state):
        if game.to_move(state) == mcts_player:
            move = mcts(game, state, iterations=2_000, seed=seed * 10 + turn).move
        else:
            move = alphabeta(game, state, table=True).move
        state, turn = game.result(state, move), turn + 1
    return game.utility(state, mcts_player)


def test_mcts_never_loses_tic_tac_toe_to_exact_alphabeta() -> None:
    # Tic-tac-toe is a draw (0), so a player that never loses draws every game.
    outcomes = [play_against_alphabeta(player, seed) for seed in range(10) for player in ("X", "O")]
    assert outcomes == [0] * 20


def test_the_same_seed_gives_the_same_search_twice() -> None:
    game = TicTacToe()
    first, second = (mcts(game, iterations=1_500, seed=42) for _ in range(2))
    assert first.move == second.move and first.pv == second.pv
    assert first.visits == second.visits and first.mean_payoffs == second.mean_payoffs
    other = mcts(game, iterations=1_500, seed=43)
    assert other.visits != first.visits


def test_the_search_does_not_touch_the_global_random_generator() -> None:
    import random

    random.seed(5)
    expected = random.random()
    random.seed(5)
    mcts(TicTacToe(), iterations=200, seed=1)
    assert random.random() == expected


# ------------------------------------------------------------------------------- proofs

@pytest.mark.parametrize("stones", [10, 11, 12, 20, 21])
def test_solver_proves_subtraction_by_its_formula(stones: int) -> None:
    # The mover loses exactly when the stones are a multiple of take + 1 = 3.
    result = mcts(BoundedSubtraction(stones, 2), iterations=50_000, seed=3)
    won = stones % 3 != 0
    assert result.exact and result.value == (1 if won else -1)
    if won:
        assert result.move == stones % 3
    assert result.stats.iterations < 50_000  # stopped once proven


def test_a_winning_move_proves_the_position_before_the_other_moves_are_known() -> None:
    result = mcts(BoundedSubtraction(20, 2), iterations=50_000, seed=3)
    assert result.exact and result.move == 2
    assert result.move_bounds[2] == "exact" and "estimate" in result.move_bounds.values()


def test_without_declared_bounds_a_win_is_proven_only_by_its_whole_tree() -> None:
    result = mcts(Subtraction(10, 2), iterations=3_000, seed=3)
    assert not result.exact and result.move == 1
    assert "did not prove" in result.inexact_reason


@pytest.mark.parametrize("piles", [(1, 2, 3), (2, 3, 4), (1, 4, 5)])
def test_solver_proves_nim_by_boutons_rule(piles: tuple) -> None:
    nim_sum = piles[0] ^ piles[1] ^ piles[2]
    result = mcts(BoundedNim(piles), iterations=50_000, seed=1)
    assert result.exact and result.value == (1 if nim_sum else -1)
    if nim_sum:  # the winning move leaves a nim-sum of 0
        pile, count = result.move
        left = list(piles)
        left[pile] -= count
        assert left[0] ^ left[1] ^ left[2] == 0


@pytest.mark.parametrize("stones, scores", [
    (5, (2, 1, 0)), (8, (2, 1, 0)), (8, (3, 2, 0)),
    # A win settles every payoff (1 for the winner, 0 for the others): proofs go further.
    (9, (1, 0, 0)), (13, (1, 0, 0)),
])
def test_three_player_proofs_are_the_max_n_vectors(stones: int, scores: tuple) -> None:
    result = mcts(TakeAway(stones, 3, payoffs=scores), iterations=50_000, seed=2)
    assert result.exact
    assert result.value == dict(zip("ABC", takeaway_brute_force(stones, 3, scores)))


def test_aima_three_player_tree_is_proven() -> None:
    result = mcts(PayoffTree(AIMA_THREE_PLAYER_TREE), iterations=1_000, seed=0)
    assert result.exact and result.value == {"A": 1, "B": 2, "C": 6} and result.move == "b1"


@pytest.mark.parametrize("score", [0, 1, -1])
def test_repetitions_on_the_line_are_scored_by_the_games_rule(score: int) -> None:
    # With passing, 3 or 4 stones are worth the repetition score (PassingSubtraction's rule).
    for stones in (3, 4):
        result = mcts(PassingSubtraction(stones, 2, repetition_score=score), iterations=20_000, seed=2)
        assert result.exact and result.value == score and result.repetition


def dice_race_value(game: DiceRace) -> Fraction:
    """The expectimax value for A, by memoised recursion over (scores, mover)."""

    @cache
    def value(a: int, b: int, a_moves: bool) -> Fraction:
        if a >= game.goal or b >= game.goal:
            return Fraction(1 if a >= game.goal else -1)
        options = []
        for dice in range(1, game.max_dice + 1):
            options.append(sum(p * (value(a + points, b, False) if a_moves else value(a, b + points, True))
                               for points, p in game.points_distribution(dice)))
        return max(options) if a_moves else min(options)

    return value(0, 0, True)


@pytest.mark.parametrize("goal, sides, dice", [(3, 2, 1), (4, 2, 2)])
def test_chance_nodes_are_proven_with_exact_expected_values(goal: int, sides: int, dice: int) -> None:
    game = DiceRace(goal, sides, dice)
    result = mcts(game, iterations=50_000, seed=1)
    assert result.exact and result.value == dice_race_value(game)


# ------------------------------------------------------------------- chance: playing well

@pytest.mark.parametrize("goal, sides, dice", [(10, 3, 2), (6, 6, 3)])
def test_dice_race_first_move_agrees_with_expectiminimax(goal: int, sides: int, dice: int) -> None:
    game = DiceRace(goal, sides, dice)
    best = expectiminimax(game, table=True).move
    for seed in range(2):
        assert mcts(game, iterations=2_000, seed=seed).move == best


# ----------------------------------------------------------------------- the result

def test_visits_and_mean_payoffs_of_the_root_moves() -> None:
    game = TicTacToe()
    result = mcts(game, iterations=500, seed=7)
    assert list(result.visits) == game.actions(game.initial_state())
    assert sum(result.visits.values()) == result.stats.iterations == 500
    assert result.move == max(result.visits, key=result.visits.get)
    assert set(result.mean_payoffs) == {m for m, n in result.visits.items() if n}
    assert all(-10 <= v <= 10 for v in result.mean_payoffs.values())
    assert result.value == result.move_values[result.move] and not result.exact
    assert set(result.move_bounds.values()) == {"estimate"}


def test_three_player_results_are_dicts_of_payoffs() -> None:
    result = mcts(TakeAway(30, 3), iterations=300, seed=1)
    assert not result.exact and set(result.value) == {"A", "B", "C"}
    assert all(set(v) == {"A", "B", "C"} for v in result.mean_payoffs.values())
    # Every playout ends with payoffs 2, 1 and 0 for the three players.
    assert all(sum(v.values()) == pytest.approx(3) for v in result.mean_payoffs.values())


def test_a_finished_game_is_its_utility() -> None:
    game = TicTacToe()
    state = game.initial_state()
    for move in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:
        state = game.result(state, move)
    result = mcts(game, state, seed=0)
    assert (result.value, result.move, result.exact, result.visits) == (10, None, True, {})


def test_playouts_cut_off_by_the_evaluation() -> None:
    result = mcts(TicTacToe(), iterations=1_000, seed=1, playout_depth=0)
    # The lecture's evaluation prefers the centre (4 open lines against a corner's 3).
    assert result.move == (1, 1) and not result.exact
    assert "evaluated" in result.inexact_reason


class DiceLoop:
    """A throws a die, and either face brings the game back where it was: it never ends."""

    players = ("A", "B")
    has_chance = True

    def initial_state(self) -> str:
        return "waiting"

    def to_move(self, state: str) -> str:
        return "A"

    def actions(self, state: str) -> list[str]:
        return ["throw"]

    def is_chance(self, state: str) -> bool:
        return state == "rolling"

    def chance_outcomes(self, state: str) -> list[tuple[str, Fraction]]:
        return [("one", Fraction(1, 2)), ("two", Fraction(1, 2))]

    def result(self, state: str, move: str) -> str:
        return "rolling" if move == "throw" else "waiting"

    def is_terminal(self, state: str) -> bool:
        return False

    def utility(self, state: str, player: str) -> int:
        return 0


def test_a_time_budget_stops_a_search_whose_iterations_make_no_new_nodes() -> None:
    # After three iterations the tree is whole: its leaves repeat the root through the dice,
    # scored but never proven; every later iteration only walks down to them.
    result = mcts(DiceLoop(), time=0.05, iterations=10**6, seed=1)
    assert 3 <= result.stats.iterations < 10**6
    assert not result.exact and result.value == 0 and result.repetition


def test_a_time_budget_stops_the_search() -> None:
    result = mcts(Subtraction(60, 3), time=0.2, seed=1)
    assert result.stats.iterations > 0 and not result.exact


@pytest.mark.parametrize("options, message", [
    ({"iterations": 0}, "iterations must be a positive count"),
    ({"time": 0}, "time must be a positive number"),
    ({"playout_depth": -1}, "playout_depth must be a number of moves"),
    ({"exploration": -1.0}, "exploration must be a number 0 or more"),
])
def test_bad_limits_are_refused(options: dict, message: str) -> None:
    with pytest.raises(SearchError, match=message):
        mcts(TicTacToe(), **options)


def test_a_playout_depth_needs_an_evaluation() -> None:
    with pytest.raises(SearchError, match="mcts with a playout depth needs an evaluation"):
        mcts(Subtraction(), playout_depth=3)


# ------------------------------------------------------------------ progress and Ctrl-C

def test_progress_names_the_best_move_so_far(eager_progress: None) -> None:
    reports: list[Progress] = []
    result = mcts(TicTacToe(), iterations=1_000, seed=1, progress=reports.append)
    # A report at each checkpoint, 256 positions apart, looked at between iterations.
    assert result.stats.nodes // 300 <= len(reports) <= result.stats.nodes // 256
    assert [r.nodes for r in reports] == sorted(r.nodes for r in reports)
    assert reports[-1].best_move in TicTacToe().actions(TicTacToe().initial_state())


def test_ctrl_c_returns_the_best_move_so_far() -> None:
    result = mcts(InterruptAfter(TicTacToe(), calls=3_000), iterations=10**6, seed=1)
    assert result.interrupted and not result.exact
    assert result.move in result.visits and result.stats.iterations > 0
    assert "interrupted" in result.inexact_reason


# Dice first, then A gets ready, then the players pass (a cycle without dice, met first in
# a playout) or stop (the roll decides).
DICE_THEN_PASS = """game "Dice then pass"
players A, B
symbols low, high, go, pass, stop
state:
    rolled = false
    high_roll = false
    mover = A
    ready = false
    stopped = false
to_move = mover if rolled else chance
moves = [] if not rolled else [pass, stop] if ready else [go]
outcomes = [(low, 1 / 2), (high, 1 / 2)]
result(m):
    if not rolled:
        rolled = true
        high_roll = m == high
    elif m == go:
        ready = true
    elif m == stop:
        stopped = true
    else:
        mover = other(mover)
terminal = stopped
utility = (1 if high_roll else -1) * (1 if mover == A else -1)
"""


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_repetitions_through_the_dice_are_told_from_the_others(seed: int) -> None:
    """The coin game (A's value 1/3): every repetition passes through the dice, and scores
    the repetition rule where the game goes on, so the estimate leans to 1/4; the reason said
    only "estimated".  Counted among the repetitions, in the tree and in the playouts, all of
    them here; in a game whose only cycle is two passes after the dice, none.  The strong
    solver is pointed to for two players only."""
    import gdl
    from tests.strong.test_plain_solve import COIN
    from tests.test_tree import COIN_FOR_THREE

    pig = gdl.load("games/pig.gdl", goal=10)  # a 1 rolled by both players from where they stood
    for game, strong in ((gdl.loads(COIN), True), (gdl.loads(COIN_FOR_THREE), False), (pig, True)):
        result = mcts(game, iterations=300, seed=seed)
        count = result.stats.chance_repetitions
        assert count == result.stats.repetitions > 0
        assert result.exact is False and result.inexact_reason is not None
        assert result.inexact_reason.endswith(
            f"; and positions repeat through chance nodes ({count:,} time{'s' if count != 1 else ''}): there the "
            "game goes on, but Monte Carlo tree search can only score the repetition by the game's repetition rule"
            + ("; the strong solver finds the true value" if strong else "")), result.inexact_reason
    passing = mcts(gdl.loads(DICE_THEN_PASS), iterations=300, seed=seed)
    assert passing.stats.repetitions > 0 and passing.stats.chance_repetitions == 0
    assert "chance nodes" not in (passing.inexact_reason or "")


@pytest.mark.parametrize("utility, declared", [("10**400 if mover == A else -1", False),
                                               ("1" + "0" * 400 + " if mover == A else -1", True)],
                         ids=["computed", "written, so bounds are declared"])
def test_scores_past_the_floats_are_refused_in_words(utility: str, declared: bool) -> None:
    """The coin game with a win worth 10**400, an integer the language allows: the search
    averages floats, and said so only as Python's OverflowError (an internal error), in its
    playouts or, where the file writes the score and so declares the range, as it began."""
    import gdl
    from tests.strong.test_plain_solve import COIN

    game = gdl.loads(COIN.replace("utility = 1 if mover == A else -1", f"utility = {utility}"))
    assert (game.utility_bounds is not None) == declared
    with pytest.raises(SearchError, match=r"averages scores as floats, and Coin can end with a score past their "
                                          r"range \(about 1.8e308\): give the game smaller scores"):
        mcts(game, iterations=50, seed=1)
