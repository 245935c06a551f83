"""The strong solver in memory: values, remoteness and best moves proven by other methods."""

from __future__ import annotations

import random
from fractions import Fraction
from functools import reduce
from operator import xor
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, assume, given, settings, strategies as st

import gdl
from searchers import SearchError, alphabeta, expectiminimax
from searchers.protocol import Value
from searchers.strong import component, policy, solve_strong, stochastic
from searchers.strong.graph import CHANCE, MAX, MIN, TERMINAL
from searchers.strong.solution import NEVER
from tests.pygames import FloatDice, GraphGame, PassingSubtraction, TicTacToe
from tests.searchers.random_games import random_acyclic_graphs, random_graphs, reference_value
from tests.strong.games import CoinFlip, TieredGraph, brute_remoteness, reachable

GAMES = Path(__file__).resolve().parents[2] / "games"
FEW = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def test_tictactoe_has_5478_positions_and_is_a_draw() -> None:
    """5,478 positions are reachable from the empty board (terminal ones included), counted
    here by a walk over the hand-written game; the value is 0, as alpha-beta finds."""
    game = gdl.load(GAMES / "tictactoe.gdl")
    result = solve_strong(game)
    assert len(reachable(TicTacToe())) == 5478
    assert result.positions == 5478
    assert result.value == 0 == alphabeta(TicTacToe()).value
    assert result.exact and result.method == "backward induction"
    assert result.terminal == sum(1 for s in reachable(TicTacToe()) if TicTacToe().is_terminal(s))
    assert sum(result.outcomes.values()) == 5478


SMALL_GAMES = [
    ("tictactoe.gdl", {}),
    ("connect.gdl", {"rows": 3, "cols": 4, "k": 3}),
    ("connect.gdl", {"rows": 4, "cols": 3, "k": 3}),
    ("kalah.gdl", {"pits": 3, "seeds": 2}),
    ("nim.gdl", {}),
    ("nim.gdl", {"misere": True}),
    ("subtraction.gdl", {}),
    ("hog.gdl", {"goal": 8, "dice": 2}),
    ("checkers.gdl", {"black_men": (), "black_kings": (14,), "white_men": (22,), "white_kings": (), "limit": 8}),
    ("textbook/aima.gdl", {}),
    ("textbook/pruning.gdl", {}),
]


@pytest.mark.parametrize("name, params", SMALL_GAMES, ids=[f"{n}{p or ''}" for n, p in SMALL_GAMES])
def test_strong_values_equal_the_depth_first_searches(name: str, params: dict) -> None:
    """At the start and at sampled positions, the strong value is the value alpha-beta (or
    expectiminimax, with dice) finds searching from that position."""
    game = gdl.load(GAMES / name, **params)
    result = solve_strong(game, tiers=False)
    table = result.table
    search = expectiminimax if getattr(game, "has_chance", False) else alphabeta
    assert result.exact
    assert result.value == search(game, table=True).value
    for state in sampled_states(game, random.Random(name), 12):
        assert table.value(state) == search(game, state, table=True).value, state


def sampled_states(game: object, dice: random.Random, count: int) -> list:
    """``count`` states met on random lines of play from the start."""
    states = []
    while len(states) < count:
        state = game.initial_state()
        for _ in range(dice.randrange(40)):
            if game.is_terminal(state):
                break
            if getattr(game, "has_chance", False) and game.is_chance(state):
                moves = [outcome for outcome, _ in game.chance_outcomes(state)]
            else:
                moves = list(game.actions(state))
            state = game.result(state, dice.choice(moves))
        states.append(state)
    return states


def test_every_nim_position_follows_boutons_rule() -> None:
    """Normal-play Nim: the player to move wins exactly when the xor of the piles is not 0."""
    game = gdl.load(GAMES / "nim.gdl", piles=(3, 4, 5))
    table = solve_strong(game, tiers=False).table
    first = game.players[0]
    for state in table.graph.positions:
        mover_wins = reduce(xor, state.heaps, 0) != 0
        assert table.value(state) == (1 if mover_wins == (state.mover == first) else -1)


def test_the_coin_game_is_exactly_one_third() -> None:
    """Heads the mover wins, tails the flip passes: A's value is 1/3, proven exactly."""
    result = solve_strong(CoinFlip())
    assert result.value == Fraction(1, 3)
    assert result.exact and "policy iteration" in result.method
    assert result.move_values == {"flip": Fraction(1, 3)}


def test_value_iteration_alone_is_marked_inexact(monkeypatch: pytest.MonkeyPatch) -> None:
    """Without policy iteration (a game too large for it), the coin game's value comes within
    the tolerance of 1/3 and is not called exact; the residual is below the tolerance."""
    monkeypatch.setattr(policy, "EXACT_LIMIT", 0)
    result = solve_strong(CoinFlip(), tolerance=1e-9)
    assert not result.exact and result.method == "value iteration"
    assert abs(result.value - 1 / 3) < 1e-8
    assert result.residual < 1e-9
    assert result.inexact_reason == "value iteration stops within the tolerance"


class CoinToOneScore(CoinFlip):
    """The coin game where every end, and endless play, scores ``score`` for A (and its
    opposite for B): so every position's value is exactly ``score``."""

    def __init__(self, score: Value) -> None:
        self.score = score

    def utility(self, state: Any, player: str) -> Value:
        """``score`` for A."""
        return self.score if player == "A" else -self.score

    repetition_utility = utility


@pytest.mark.parametrize("score", [2**60 + 1, Fraction(1, 3), Fraction(2**70 + 1, 3)])
def test_value_iteration_counts_the_scores_it_rounds_to_floats(monkeypatch: pytest.MonkeyPatch, score: Value) -> None:
    """Value iteration computes with floats: a score that no float equals (2**60 + 1, 1/3)
    moves as it becomes one, and the value found with it.  Every value here is the score, so the
    span of the scores is nought; the residual still bounds how far the value found is."""
    monkeypatch.setattr(policy, "EXACT_LIMIT", 0)
    result = solve_strong(CoinToOneScore(score))
    assert not result.exact and result.method == "value iteration"
    assert result.value != score  # no float is the score
    assert 0 < abs(Fraction(result.value) - score) <= result.residual
    assert result.residual <= 4 * abs(Fraction(float(score)) - score)  # and not far past it
    # Every play ends (at once or later): the rules have one solution, whatever the floats do.
    assert result.inexact_reason is not None and "more than one value" not in result.inexact_reason
    if abs(score) > 2**53:  # past the floats' integers: the sweeps meet only as near as their rounding lets them
        assert result.inexact_reason.startswith("value iteration stopped with its bounds from below and from above "
                                                "further apart than the tolerance (the floats' rounding")


class ThrowAgain:
    """A throw of the dice that comes back at odds ``again``, or ends: A wins at odds ``win``,
    else A loses.  A's value v = again * v + win - (1 - again - win), so with odds 1/10, 2/10
    and 7/10, v = -5/9."""

    players = ("A", "B")
    has_chance = True

    def __init__(self, again: Value, win: Value, lose: Value) -> None:
        self.odds = [("again", again), ("win", win), ("lose", lose)]

    def initial_state(self) -> str:
        """The dice in the air."""
        return "throw"

    def to_move(self, state: str) -> str:
        """No player moves here: A, nominally."""
        return "A"

    def is_chance(self, state: str) -> bool:
        """Whether the dice are in the air."""
        return state == "throw"

    def chance_outcomes(self, state: str) -> list[tuple[str, Value]]:
        """Again, a win or a loss."""
        return self.odds

    def actions(self, state: str) -> list[str]:
        """None: the dice decide."""
        return []

    def result(self, state: str, move: str) -> str:
        """The throw's outcome."""
        return "throw" if move == "again" else move

    def is_terminal(self, state: str) -> bool:
        """Won or lost."""
        return state in ("win", "lose")

    def utility(self, state: str, player: str) -> int:
        """+1 to the winner, -1 to the other."""
        return 1 if (state == "win") == (player == "A") else -1


class ThrowOnce(ThrowAgain):
    """``ThrowAgain`` where the throw that came back is a tie (0): A's value is ``win - lose``,
    -1/2 with odds 1/10, 2/10 and 7/10, and no position comes back."""

    def result(self, state: str, move: str) -> str:
        """The throw's outcome."""
        return "tie" if move == "again" else move

    def is_terminal(self, state: str) -> bool:
        """Won, lost or tied."""
        return state != "throw"

    def utility(self, state: str, player: str) -> int:
        """+1 to the winner, -1 to the other, 0 each for a tie."""
        return 0 if state == "tie" else super().utility(state, player)


FLOAT_ODDS = "the game gives some odds as floats (0.1 for 1/10, which no float is)"


def test_odds_given_as_floats_give_no_exact_value() -> None:
    """Odds of 1/10, 2/10, 7/10 give A -5/9, exactly; given as the floats 0.1, 0.2 and 0.7
    (whose fractions are not those, nor add up to 1) the value is found by value iteration
    within its bound of -5/9, and not called exact; nor is a throw without a cycle (-1/2)."""
    exact = solve_strong(ThrowAgain(Fraction(1, 10), Fraction(2, 10), Fraction(7, 10)))
    assert exact.value == Fraction(-5, 9) and exact.exact and exact.method == "policy iteration"
    floats = solve_strong(ThrowAgain(0.1, 0.2, 0.7))
    assert not floats.exact and floats.method == "value iteration"
    assert abs(floats.value + 5 / 9) < 1e-9
    assert floats.inexact_reason is not None and FLOAT_ODDS in floats.inexact_reason
    once = solve_strong(ThrowOnce(Fraction(1, 10), Fraction(2, 10), Fraction(7, 10)))
    assert once.value == Fraction(-1, 2) and once.exact
    once = solve_strong(ThrowOnce(0.1, 0.2, 0.7))
    assert not once.exact and once.method == "backward induction" and abs(once.value + 0.5) < 1e-15
    assert once.inexact_reason is not None and once.inexact_reason.startswith(FLOAT_ODDS)
    # A float of a type of its own (numpy's float64 is one) is a float all the same.
    odds = [type("Odds", (float,), {})(p) for p in (0.1, 0.2, 0.7)]
    assert not solve_strong(ThrowOnce(*odds)).exact and not solve_strong(ThrowAgain(*odds)).exact


class ThrowFirst(ThrowAgain):
    """A throw at even odds, given as floats, before ``ThrowAgain``'s (exact odds): heads, the
    throw that can come back; tails, A wins."""

    def initial_state(self) -> str:
        """The first throw in the air."""
        return "first"

    def is_chance(self, state: str) -> bool:
        """Whether the dice are in the air."""
        return state in ("first", "throw")

    def chance_outcomes(self, state: str) -> list[tuple[str, Value]]:
        """Even odds, as floats, for the first throw."""
        return [("heads", 0.5), ("tails", 0.5)] if state == "first" else self.odds

    def result(self, state: str, move: str) -> str:
        """The throw's outcome."""
        return {"heads": "throw", "tails": "win"}.get(move) or super().result(state, move)


def test_odds_given_as_floats_are_named_beside_value_iteration(monkeypatch: pytest.MonkeyPatch) -> None:
    """Value iteration makes the solve not exact first; the first throw's float odds are named
    among the reasons all the same (A: 1/2 + 1/2 * -5/9 = 2/9)."""
    monkeypatch.setattr(policy, "EXACT_LIMIT", 0)
    result = solve_strong(ThrowFirst(Fraction(1, 10), Fraction(2, 10), Fraction(7, 10)))
    assert not result.exact and abs(result.value - 2 / 9) < 1e-9
    assert result.inexact_reason is not None
    assert result.inexact_reason.startswith("value iteration stops within the tolerance; and " + FLOAT_ODDS)


# The mover flips a coin (heads at 1/3: the mover wins; tails: the other player wins) or
# passes the turn.  With `repetition` 1/2 for A, passing for ever is better for A than flipping:
# A passes, and B must flip (1/3 for A), though B's pass is worth as much to B if A then flips.
PASS_COIN = """
players A, B
symbols flip, pass, heads, tails
param rep = 1/2
state:
    mover = A
    flipping = false
    winner = empty
to_move = chance if flipping else mover
moves = [] if flipping else [flip, pass]
outcomes = [(heads, 1/3), (tails, 2/3)]
result(m):
    if flipping:
        flipping = false
        winner = mover if m == heads else other(mover)
    elif m == flip:
        flipping = true
    else:
        mover = other(mover)
terminal = winner != empty
utility = 1 if winner == A else -1
repetition = rep
"""

# Pass coin's turn, but the pass first and the flip a win, a loss or a flip again, a third each
# (0 for A, whoever flips).  Passing is as good as flipping; both passing for ever is not (`rep`).
LOOP_COIN = (PASS_COIN.replace("heads, tails", "win, lose, again").replace("[flip, pass]", "[pass, flip]")
             .replace("[(heads, 1/3), (tails, 2/3)]", "[(win, 1/3), (lose, 1/3), (again, 1/3)]")
             .replace("        winner = mover if m == heads else other(mover)\n",
                      "        if m == win:\n            winner = mover\n"
                      "        elif m == lose:\n            winner = other(mover)\n"))


# A stays put or throws a coin: heads A wins, tails B moves; B stays put or hands the turn back.
# B stays for ever (0, the repetition score); A throws (1/2), though staying is worth as much
# to A as long as the values are all value iteration knows: A's stay must not be the best move.
STAY_OR_THROW = """
players A, B
symbols stay, go, heads, tails
param rep = 0
state:
    at = 0
    winner = empty
to_move = chance if at == 1 else (A if at == 0 else B)
moves = [] if at == 1 else [stay, go]
outcomes = [(heads, 1/2), (tails, 1/2)]
result(m):
    if at == 1:
        if m == heads:
            winner = A
        else:
            at = 2
    elif m == go:
        at = 1 if at == 0 else 0
terminal = winner != empty
utility = 1 if winner == A else -1
repetition = rep
"""


def score_of_the_best_moves(game: Any, table: Any, repetition: Fraction) -> dict[Any, float]:
    """What each position scores for the first player when both sides play the table's best
    moves: the Markov chain they leave, iterated from the repetition score (what a play that
    has not ended scores) until its changes vanish."""
    first = game.players[0]
    states = list(table.graph.positions)
    steps = {}
    for state in states:
        if game.is_terminal(state):
            continue
        if game.is_chance(state):
            steps[state] = [(float(p), game.result(state, o)) for o, p in game.chance_outcomes(state)]
        else:
            move = game.actions(state)[table.best_move_index(state)]
            steps[state] = [(1.0, game.result(state, move))]
    score = {state: float(repetition) if state in steps else float(game.utility(state, first))
             for state in states}
    for _ in range(2_000):
        score = {state: sum(p * score[child] for p, child in steps[state]) if state in steps else score[state]
                 for state in states}
    return score


@pytest.mark.parametrize("exact", [True, False], ids=["policy iteration", "value iteration"])
@pytest.mark.parametrize("text, repetition, value, positions", [
    (PASS_COIN, Fraction(1, 2), Fraction(1, 3), 8),
    (PASS_COIN, Fraction(-1, 2), Fraction(-1, 3), 8),
    (LOOP_COIN, Fraction(1, 2), 0, 8),
    (LOOP_COIN, Fraction(-1, 2), 0, 8),
    (STAY_OR_THROW, 0, Fraction(1, 2), 4),
], ids=["pass coin, 1/2", "pass coin, -1/2", "loop coin, 1/2", "loop coin, -1/2", "stay or throw"])
def test_both_sides_playing_the_best_moves_score_the_values(monkeypatch: pytest.MonkeyPatch, text: str,
                                                           repetition: Fraction, value: Fraction, positions: int,
                                                           exact: bool) -> None:
    """Where a pass (or a stay) is as good as a throw, a best move that passes can follow the
    cycle round for ever if the other side passes too, scored as endless play (`rep`), not as
    the value: at every position, playing the table's best moves scores the table's value (a
    chain iterated here), and the start's is known by hand (1/3, -1/3, 0 or 1/2 for A)."""
    if not exact:
        monkeypatch.setattr(policy, "EXACT_LIMIT", 0)
    game = gdl.loads(text, rep=repetition)
    result = solve_strong(game, tiers=False, tolerance=1e-12)
    assert result.exact == exact or "retrograde" in result.method  # pass coin's cycle has no dice in it
    assert abs(result.value - value) < 1e-9
    table = result.table
    assert table is not None
    score = score_of_the_best_moves(game, table, repetition)
    assert len(score) == positions
    wrong = {state: (score[state], table.value(state)) for state in score if abs(score[state] - table.value(state)) > 1e-9}
    assert wrong == {}


def cycle_of(moves: list[list[int]], kinds: list[int], ends: dict[int, Value],
             probabilities: dict[int, list[Value]] | None = None, repetition: Value = 0) -> component.Component:
    """The cycle of a graph whose node ``n`` moves to ``moves[n]``: the nodes of ``kinds``, the
    others solved already, at ``ends``' values; endless play scores ``repetition``."""
    from array import array
    from itertools import accumulate

    from searchers.strong.graph import Graph
    from searchers.strong.solution import Solution

    size = len(kinds) + len(ends)
    graph = Graph(kind=bytearray(kinds) + bytes([TERMINAL]) * len(ends), probabilities=probabilities or {},
                  first=array("q", accumulate(map(len, moves + [[]] * len(ends)), initial=0)),
                  target=array("q", [child for row in moves for child in row]), has_chance=bool(probabilities),
                  repetition=repetition)
    solution = Solution.empty(size)
    for node, value in ends.items():
        solution.value[node] = value
    return component.Component(graph, solution, list(range(len(kinds))))


def test_value_iterations_best_moves_leave_a_cycle_where_a_pass_ties_with_a_flip() -> None:
    """Loop coin's cycle as value iteration leaves it, every value 0.0 (floats that tie
    exactly: each side's pass is worth its flip): where endless play scores -1/2, the first best
    move of each side, a pass, would go round for ever and score that; the best moves chosen
    are the flips (at A, a flip leaves the cycle in two steps, a pass in three).  Where endless
    play scores 0, what every node is worth, the passes are as good.  A move out worth a little
    less than a move round the cycle is as good within the slack, and not beyond it."""
    third = [Fraction(1, 3)] * 3
    # A (0) passes to B (2) or flips (1: a win, 4, a loss, 5, or again); B likewise (3).
    coins = cycle_of([[2, 1], [4, 5, 0], [0, 3], [4, 5, 2]], [MAX, CHANCE, MIN, CHANCE], {4: 1, 5: -1},
                     {1: third, 3: third}, Fraction(-1, 2))
    assert policy.ending_choices(coins, [0.0] * 4, 1e-9) == [1, 0, 1, 0]
    coins.repetition = [0] * 4
    assert policy.ending_choices(coins, [0.0] * 4, 1e-9) == [0, 0, 0, 0]
    # C (0) moves to D (1) or out (2), worth a hair less; D moves back to C alone.
    hair = cycle_of([[1, 2], [0]], [MAX, MIN], {2: 0.5 - 1e-12})
    assert policy.ending_choices(hair, [0.5, 0.5], 1e-9) == [1, 0]
    assert policy.ending_choices(hair, [0.5, 0.5], 1e-15) == [0, 0]


def test_exact_values_take_the_tied_move_that_leads_out() -> None:
    """A (0) moves to the throw T (3) or to B (1); B to B2 (4) or T; B3 (2) leaves (a win, 5)
    or moves to A; T throws a loss (6) at 1/3, else B2; B2 moves to B3 or to B.  Endless play
    scores 1/2.  By hand: B can make every play end in the loss (at B and B2 it goes on to the
    throw, at B3 back to A; A has no move but to the throw or to B), so every position of the
    cycle is worth -1, exactly, and each B move among the cycle ties at -1.  The first of B's
    tied moves, B to B2 and B2 to B3, let A go round A, B, B2, B3 for ever (1/2, better for A):
    they do not make -1 sure, and once the certificate failed and left the value to value
    iteration (-0.99999999999984); B's moves towards the throw do."""
    cycle = cycle_of([[3, 1], [4, 3], [5, 0], [6, 4], [2, 1]], [MAX, MIN, MIN, CHANCE, MIN], {5: 1, 6: -1},
                     {3: [Fraction(1, 3), Fraction(2, 3)]}, Fraction(1, 2))
    first_best = [0, 0, 1, 0, 0]  # the first move worth the most to its player under those values
    assert policy.evaluate_policy(cycle, first_best, [10**6]) == [-1] * 5
    assert policy._drift(cycle, [-1] * 5, first_best) == "the second player's choices may drift for ever"
    values, choices = policy.exact_values(cycle, [-0.9999999999998] * 5, 1e-9)
    assert values == [-1] * 5 and choices == [0, 1, 1, 0, 1]  # B to T, B3 to A, B2 to B: on to the throw
    assert policy._drift(cycle, values, choices) == ""
    game = TieredGraph(kinds=("A", "B", "B", "dice", "B", "end", "end"), arcs=((3, 1), (4, 3), (5, 0), (6, 4), (2, 1), (), ()),
                       weights=((), (), (), (1, 2), (), (), ()), ends=(0, 0, 0, 0, 0, 1, -1), tiers=(0,) * 7,
                       repetition=(Fraction(1, 2),) * 7)
    for tiers in (False, True):  # the whole graph, and by tiers (one tier)
        result = solve_strong(game, tiers=tiers)
        assert (result.value, result.exact, result.method) == (-1, True, "policy iteration")


# The stay-put cycle below: T (0) throws, a win (4) or C (3); B (1) moves to D (2) or T; D
# throws, itself, a loss (5) or B.  By hand: T = 2/3 + C/3; B takes the better of T and D; D =
# 2B/5; C, the second player's, at best min(1/2, D), 1/2 being endless play.  So B = T, T = 2/3 +
# 2T/15: T = B = 10/13, D = C = 4/13.
THIRDS, SEVENTHS = [Fraction(2, 3), Fraction(1, 3)], [Fraction(2, 7), Fraction(3, 7), Fraction(2, 7)]
STAY_PUT_VALUES = [Fraction(10, 13), Fraction(10, 13), Fraction(4, 13), Fraction(4, 13)]


def assert_within(values: list[float], bound: float, expected: list[Value], tolerance: float) -> None:
    """``bound`` is below ``tolerance``, and every value within it of the one expected."""
    assert bound < tolerance
    assert [abs(value - exact) <= bound for value, exact in zip(values, expected)] == [True] * len(expected)


def test_value_iteration_does_not_settle_where_a_side_stays_put() -> None:
    """A cycle where the second player, at C, may stay put for ever (1/2, the repetition value)
    or go on to the throw D, whose value dips during the sweeps: the stay once let C keep the
    dip as its value (0.2857, the last change 6e-13)."""
    cycle = cycle_of([[4, 3], [2, 0], [2, 5, 1], [3, 2]], [CHANCE, MAX, CHANCE, MIN], {4: 1, 5: 0},
                     {0: THIRDS, 2: SEVENTHS}, Fraction(1, 2))
    values, bound, _ = stochastic.value_iteration(cycle, 1e-12, lambda *_: None)
    assert_within(values, bound, STAY_PUT_VALUES, 1e-12)


@pytest.mark.parametrize("kinds, moves, probabilities", [
    # C (3) moves to D or C2 (4), which moves back to C or to D.
    ([MIN], [[4, 2], [3, 2]], {}),
    # C moves to D or throws X (4): half back to C, half to C2 (5), which throws X again or moves to D.
    ([CHANCE, MIN], [[4, 2], [3, 5], [4, 2]], {4: [Fraction(1, 2)] * 2}),
], ids=["two positions", "through the dice"])
def test_value_iteration_does_not_settle_where_one_side_goes_round(kinds: list[int], moves: list[list[int]],
                                                                   probabilities: dict[int, list[Value]]) -> None:
    """The stay-put cycle, with C's stay replaced by a round that only the second player
    steers (through positions of its own, or through a die whose every throw stays in the
    round).  The second player may go round for ever (1/2), so the values are the stay-put
    cycle's, every position of the round worth C's.  Going round let the dip stay before (T
    0.7619 for 10/13, the last change 6e-13)."""
    size = 3 + len(moves)  # T, B, D, then C and the round
    win, loss = size, size + 1
    cycle = cycle_of([[win, 3], [2, 0], [2, loss, 1], *moves], [CHANCE, MAX, CHANCE, MIN, *kinds], {win: 1, loss: 0},
                     {0: THIRDS, 2: SEVENTHS, **probabilities}, Fraction(1, 2))
    values, bound, _ = stochastic.value_iteration(cycle, 1e-12, lambda *_: None)
    assert_within(values, bound, STAY_PUT_VALUES + [STAY_PUT_VALUES[3]] * len(kinds), 1e-12)


# Pass coin's turn at even odds, heads ending the game at 1/5 for A if A flipped, 4/5 if B did,
# and tails leaving the turn to the flipper, to flip again or pass.
PASS_OR_THROW = (PASS_COIN.replace("[(heads, 1/3), (tails, 2/3)]", "[(heads, 1/2), (tails, 1/2)]")
                 .replace("        winner = mover if m == heads else other(mover)\n",
                          "        if m == heads:\n            winner = mover\n")
                 .replace("utility = 1 if winner == A else -1", "utility = 1/5 if winner == A else 4/5"))


def test_value_iteration_bounds_values_it_cannot_pin_down(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pass or throw: both players may hand the turn back and forth for ever.  Every v from 1/5
    to 4/5, for A and B both, satisfies the values' rules (A = max(B, (A + 1/5)/2), B = min(A,
    (B + 4/5)/2)): the sweeps cannot tell which.  The game's is 1/2 (each side passes: a throw
    is worth less to it, (1/2 + 1/5)/2 to A, (1/2 + 4/5)/2 to B), which the values found are,
    and the bound says how far they might be, 3/5, rather than a last change of nothing.
    Policy iteration proves 1/2."""
    monkeypatch.setattr(policy, "EXACT_LIMIT", 0)
    game = gdl.loads(PASS_OR_THROW)
    result = solve_strong(game, tiers=False)
    assert result.value == 0.5 and not result.exact and result.method == "value iteration"
    assert abs(result.residual - 0.6) < 1e-9
    assert result.inexact_reason is not None
    assert result.inexact_reason.startswith("value iteration could not bring its bounds from below and from above "
                                            "within the tolerance")
    monkeypatch.undo()
    proven = solve_strong(game, tiers=False)
    assert proven.value == Fraction(1, 2) and proven.exact


# Copies of pass or throw (above), one thrown at random at the start: in copy c, node 10c + 10
# is A's turn (pass to 10c + 11, or throw at 10c + 12), 10c + 11 B's (pass back, or throw at
# 10c + 13); a throw ends the game at even odds (1/5 from A's, 4/5 from B's: 10c + 14, 10c +
# 15), else the thrower has the turn again.  ``tier`` puts the start apart from the copies.
PASS_OR_THROW_COPIES = """\
game "Copies of pass or throw"
players A, B
param copies = 5
state:
    node = 0
kinds = {0: 0, 1: 1, 2: 2, 3: 2, 4: 3, 5: 3}
passes = {0: [1, 2], 1: [0, 3]}
throws = {2: [(4, 1/2), (0, 1/2)], 3: [(5, 1/2), (1, 1/2)]}
scores = {4: 1/5, 5: 4/5}
own = node % 10
to_move = chance if node == 0 or kinds[own] == 2 else (A if kinds[own] == 0 else B)
moves = [node - own + m for m in passes[own]]
outcomes = [(10 * c + 10, 1 / copies) for c in range(copies)] if node == 0 else [(node - own + m, p) for (m, p) in throws[own]]
result(m):
    node = m
terminal = node != 0 and kinds[own] == 3
utility = scores[own]
repetition = 1/2
tier = 0 if node == 0 else 1
"""


@pytest.mark.parametrize("tiers", [False, True], ids=["in memory", "by tiers"])
def test_value_iterations_bound_is_at_most_the_distance_from_the_lowest_score_to_the_highest(
        monkeypatch: pytest.MonkeyPatch, tiers: bool) -> None:
    """Five copies of pass or throw: each copy's cycle is bound by 3/5 (above), and the bounds
    of the five add up to 3; but every value lies between the lowest and the highest score a
    play can end with (1/5, 1/2 by repetition, 4/5), so none is off by more than 3/5, and the
    bound says so.  The values are the game's, worked out by hand: each side passes (1/2 for
    both turns), a throw is worth (1/5 + 1/2)/2 = 7/20 from A's and (4/5 + 1/2)/2 = 13/20 from
    B's, the start 1/2."""
    monkeypatch.setattr(policy, "EXACT_LIMIT", 0)
    game = gdl.loads(PASS_OR_THROW_COPIES)
    result = solve_strong(game, tiers=tiers)
    assert not result.exact and result.value == 0.5 and result.positions == 31
    assert abs(result.residual - 0.6) < 1e-12
    if tiers:
        return
    table = result.table
    assert table is not None
    by_own = {0: Fraction(1, 2), 1: Fraction(1, 2), 2: Fraction(7, 20), 3: Fraction(13, 20), 4: Fraction(1, 5),
              5: Fraction(4, 5)}
    values: dict[int, Value] = {}
    waiting = [(game.initial_state(), 0)]  # each state with its node: a move is the node it leads to
    while waiting:
        state, node = waiting.pop()
        if node not in values:
            values[node] = table.value(state)
            moves = [] if game.is_terminal(state) else [outcome for outcome, _ in game.chance_outcomes(state)] \
                if game.is_chance(state) else game.actions(state)
            waiting += [(game.result(state, move), move) for move in moves]
    assert len(values) == 31
    assert all(abs(value - (by_own[node % 10] if node else Fraction(1, 2))) <= result.residual
               for node, value in values.items())


def test_the_scores_that_cap_the_bound_are_the_ends_and_the_repetition_scores_of_positions_in_play() -> None:
    """A finished game's repetition score (none, or one filled in) does not count; a position
    in play without one (a game with no rule) counts as 0, a never-ending play's score; the
    bound is the distance between the lowest and highest of those where that is less."""
    from searchers.strong.solution import capped_residual, repetition_scores

    assert repetition_scores([Fraction(1, 2), None, 7], [MAX, TERMINAL, TERMINAL]) == {Fraction(1, 2)}
    assert repetition_scores([None, None, None], [MAX, MIN, TERMINAL]) == {0}
    assert capped_residual(3.0, [Fraction(1, 5), Fraction(4, 5), 0]) == 0.8
    assert capped_residual(1e-9, [Fraction(1, 5), Fraction(4, 5)]) == 1e-9
    assert capped_residual(2.0, []) == 2.0


@st.composite
def chance_cycles(draw: Any) -> tuple[list[list[int]], list[int], dict[int, list[Value]], Fraction]:
    """A cycle with dice for value iteration: up to five nodes of either player or of dice,
    each moving on to the next (so that they form one cycle) and to up to two other nodes or
    ends (the nodes after the cycle's, worth ``END_VALUES`` to the first player), the dice's
    outcomes at random odds; endless play scores 0 or +-1/2."""
    size = draw(st.integers(3, 6))
    kinds = draw(st.lists(st.sampled_from([MAX, MIN, CHANCE]), min_size=size, max_size=size).filter(
        lambda kinds: CHANCE in kinds))
    moves: list[list[int]] = []
    probabilities: dict[int, list[Value]] = {}
    for node in range(size):
        others = draw(st.lists(st.integers(0, size + len(END_VALUES) - 1), max_size=3))
        row = list(dict.fromkeys([(node + 1) % size, *others]))
        moves.append(row)
        if kinds[node] == CHANCE:
            weights = draw(st.lists(st.integers(1, 3), min_size=len(row), max_size=len(row)))
            probabilities[node] = [Fraction(w, sum(weights)) for w in weights]
    return moves, kinds, probabilities, draw(st.sampled_from([Fraction(0), Fraction(1, 2), Fraction(-1, 2)]))


END_VALUES = [1, -1, 0]


def brute_force_values(moves: list[list[int]], kinds: list[int], probabilities: dict[int, list[Value]],
                       repetition: Fraction) -> list[Fraction]:
    """The game's values, by brute force: for every pair of the players' fixed choices, the
    Markov chain they leave solved exactly (a node that cannot reach an end is worth
    ``repetition``, and so is the chance of never reaching one); each node's value the best
    the first player's choices guarantee against every choice of the second.  Fixed choices are
    enough in such games (Liggett and Lippman 1969)."""
    size = len(kinds)
    firsts = [node for node in range(size) if kinds[node] == MAX]
    seconds = [node for node in range(size) if kinds[node] == MIN]

    def chain(choice: dict[int, int]) -> list[Fraction]:
        steps = {node: list(zip(probabilities[node], moves[node])) if kinds[node] == CHANCE
                 else [(Fraction(1), moves[node][choice[node]])] for node in range(size)}
        ending = {node for node in range(size) if any(t >= size for _, t in steps[node])}
        while True:  # the nodes from which an end can be reached
            more = {node for node in range(size) if any(t in ending for _, t in steps[node])} - ending
            if not more:
                break
            ending |= more
        order = sorted(ending)
        # Gaussian elimination on x_i - sum(p x_j) = sum(p * (end value or repetition)).
        rows = []
        for node in order:
            row = [Fraction(0)] * (len(order) + 1)
            row[order.index(node)] += 1
            for p, t in steps[node]:
                if t >= size:
                    row[-1] += p * END_VALUES[t - size]
                elif t in ending:
                    row[order.index(t)] -= p
                else:
                    row[-1] += p * repetition
            rows.append(row)
        for column in range(len(order)):
            pivot = next(r for r in range(column, len(order)) if rows[r][column] != 0)
            rows[column], rows[pivot] = rows[pivot], rows[column]
            for r in range(len(order)):
                if r != column and rows[r][column] != 0:
                    factor = rows[r][column] / rows[column][column]
                    rows[r] = [a - factor * b for a, b in zip(rows[r], rows[column])]
        solved = {node: rows[k][-1] / rows[k][k] for k, node in enumerate(order)}
        return [solved.get(node, repetition) for node in range(size)]

    def every_choice(nodes: list[int]) -> list[dict[int, int]]:
        choices: list[dict[int, int]] = [{}]
        for node in nodes:
            choices = [{**c, node: move} for c in choices for move in range(len(moves[node]))]
        return choices

    guaranteed = [[min(column) for column in zip(*(chain({**first, **second}) for second in every_choice(seconds)))]
                  for first in every_choice(firsts)]
    return [max(column) for column in zip(*guaranteed)]


@settings(max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(chance_cycles())
def test_value_iteration_is_within_its_bound_of_the_brute_force_values(
        cycle: tuple[list[list[int]], list[int], dict[int, list[Value]], Fraction]) -> None:
    """On small random cycles with dice, every value value iteration finds is within its bound
    of the game's value by brute force (up to the floats' rounding): where the sweeps meet,
    the values are right, and where they do not, the bound covers the values found (cycles
    where the sweeps from the repetition value alone settle wrong are rare here, about one in
    3,000: the tests above build them by hand)."""
    moves, kinds, probabilities, repetition = cycle
    ends = {len(kinds) + place: value for place, value in enumerate(END_VALUES)}
    component = cycle_of(moves, kinds, ends, probabilities, repetition)
    values, bound, _ = stochastic.value_iteration(component, 1e-12, lambda *_: None)
    exact = brute_force_values(moves, kinds, probabilities, repetition)
    assert [abs(v - e) <= bound for v, e in zip(values, exact)] == [True] * len(kinds)


# A throws or waits; the throw is a jackpot (A wins) at odds of 0, else A throws or waits again.
JACKPOT = """
players A, B
symbols throw, wait, jackpot, again
state:
    throwing = false
    won = false
to_move = chance if throwing else A
moves = [] if throwing else [throw, wait]
outcomes = [(jackpot, 0), (again, 1)]
result(m):
    if throwing:
        throwing = false
        won = m == jackpot
    elif m == throw:
        throwing = true
terminal = won
utility = 1
"""


@pytest.mark.parametrize("exact", [True, False], ids=["policy iteration", "value iteration"])
def test_an_outcome_at_odds_of_zero_is_no_way_out(monkeypatch: pytest.MonkeyPatch, exact: bool) -> None:
    """The jackpot is never thrown: the play never ends, worth the repetition value, 0, to A.
    Read as a way out of the cycle, it made value iteration take the play for one that ends,
    and its ends stopped apart: 0.5, "within 0.5"; policy iteration's certificate failed."""
    if not exact:
        monkeypatch.setattr(policy, "EXACT_LIMIT", 0)
    result = solve_strong(gdl.loads(JACKPOT), tiers=False)
    assert result.exact == exact
    assert result.value == 0 if exact else abs(result.value) <= result.residual < 1e-12


def test_newtons_start_is_proven_by_one_sweep_or_refused() -> None:
    """A throws: heads A wins, tails B throws; B throws: heads back to A, tails B throws again.
    Every play ends in A's win: both are worth 1.  A sweep reads both before their turn (the
    cut); Newton's method finds 1 and 1 in floats, and one sweep proves ends on either side of
    them, within the tolerance, each with a margin of its own: B's value follows A's and its
    own in full, so one margin for both is refused, and so is a guess a millionth off."""
    half = Fraction(1, 2)
    cycle = cycle_of([[1, 2], [0, 1]], [CHANCE, CHANCE], {2: 1}, {0: [half, half], 1: [half, half]})
    sweep = stochastic._sweep_order(cycle, {})
    cut = stochastic._cut(sweep)
    assert sorted(cut) == [0, 1]
    found = stochastic._newton(cycle, sweep, cut, lambda *_: None)
    assert found is not None
    guess, steps = found
    assert [abs(value - 1) < 1e-15 for value in guess] == [True, True]
    ends = stochastic._proven_ends(cycle, sweep, cut, guess, steps, 1e-12)
    assert ends is not None
    assert [low <= 1 <= high and high - low < 1e-12 for low, high in zip(*ends)] == [True, True]
    assert stochastic._proven_ends(cycle, sweep, cut, guess, [1.0, 1.0], 1e-12) is None
    assert stochastic._proven_ends(cycle, sweep, cut, [value + 1e-6 for value in guess], steps, 1e-12) is None
    values, bound, _ = stochastic.value_iteration(cycle, 1e-12, lambda *_: None)
    assert bound < 1e-12 and [abs(value - 1) <= bound for value in values] == [True, True]


@pytest.mark.parametrize("moves, kinds, probabilities, end, most", [
    # A throws: to B at 10,000 to 1, else the end (-1); B, the second player's, moves to A or to the end.
    ([[1, 2], [0, 2]], [CHANCE, MIN], {0: [Fraction(10_000, 10_001), Fraction(1, 10_001)]}, -1, 1e-12),
    # A, the first player's, moves to B or to the end (10**7); B throws: to A at 10,000 to 1, else the end.
    ([[1, 2], [0, 2]], [MAX, CHANCE], {1: [Fraction(10_000, 10_001), Fraction(1, 10_001)]}, 10**7, 1e-7),
], ids=["the lowest value", "the highest value"])
def test_newtons_start_at_the_lowest_or_highest_value(moves: list[list[int]], kinds: list[int],
                                                      probabilities: dict[int, list[Value]], end: int,
                                                      most: float) -> None:
    """Every value is the end's (-1 or 10**7: the lowest value there is, or the highest), the
    side to move taking it at once.  Newton's method finds it; an end started a margin past it
    closed in only as slowly as the throw ends (a bound of 5.4e-11 after 12,391 sweeps, and
    4.5e-4): started at it, the ends meet at once (the rounding of 10**7 is about 1e-9)."""
    cycle = cycle_of(moves, kinds, {2: end}, probabilities)
    values, bound, _ = stochastic.value_iteration(cycle, 1e-12, lambda *_: None)
    assert bound < most and [abs(value - end) <= bound for value in values] == [True, True]


def test_solve_linear_solves_small_systems_and_refuses_singular_ones() -> None:
    """x = 1/2 y + 1 and y = 1/4 x + 1/2 (rows: coefficients, then the constant): x = 10/7,
    y = 6/7, as by hand; x = y + 1 and y = x has no solution."""
    x, y = stochastic._solve_linear([[0.0, 0.5, 1.0], [0.25, 0.0, 0.5]])
    assert abs(x - 10 / 7) < 1e-15 and abs(y - 6 / 7) < 1e-15
    assert stochastic._solve_linear([[0.0, 1.0, 1.0], [1.0, 0.0, 0.0]]) is None


@pytest.mark.parametrize("tolerance", [1e-12, 1e-6])
@pytest.mark.parametrize("moves, kinds, probabilities", [
    # A (0, the second player's, one move) throws C (1): back to A at odds of 1000 to 1, else a win.
    ([[1], [0, 2]], [MIN, CHANCE], {1: [Fraction(1000, 1001), Fraction(1, 1001)]}),
    # A (the first player's) moves to B, B throws to C, C to D, D throws a win at 1 in 1001 or
    # E (the second player's), who moves back to D or to A: every play ends in the win.
    ([[1], [2], [3], [5, 4], [3, 0]], [MAX, CHANCE, CHANCE, CHANCE, MIN],
     {1: [Fraction(1)], 2: [Fraction(1)], 3: [Fraction(1, 1001), Fraction(1000, 1001)]}),
    # Two throws that come back to themselves, at two speeds: the first half the time (else a
    # win, or the second at 1 in 1000), the second 1999 times in 2000 (else the first).
    ([[0, 2, 1], [1, 0]], [CHANCE, CHANCE],
     {0: [Fraction(1, 2), Fraction(499, 1000), Fraction(1, 1000)], 1: [Fraction(1999, 2000), Fraction(1, 2000)]}),
], ids=["two positions", "five positions", "two speeds"])
def test_value_iteration_bounds_cycles_that_end_slowly(tolerance: float, moves: list[list[int]], kinds: list[int],
                                                       probabilities: dict[int, list[Value]]) -> None:
    """Cycles that end for certain, but slowly (a throw that comes back a thousand times in a
    thousand and one): every position is worth the win, 1, whatever the repetition value
    (3/4 here), and every value found is within its bound of 1.  The sweeps from both ends
    once stopped there as if they would never meet, and the values of the sweeps from the
    repetition value, which stopped sooner, lay below the lower end, further from 1 than the
    bound said (0.9999999990 against 0.9999999990005 at the lower end); where the gap closed at
    two speeds, the ends were taken for apart after four sweeps, the bound 2.  No play of these
    cycles goes on for ever, which the solver sees (``_may_go_on``)."""
    cycle = cycle_of(moves, kinds, {len(kinds): 1}, probabilities, Fraction(3, 4))
    assert not stochastic._may_go_on(cycle, stochastic._sweep_order(cycle, {}))
    values, bound, _ = stochastic.value_iteration(cycle, tolerance, lambda *_: None)
    assert bound < 1e-6
    assert [abs(value - 1) <= bound for value in values] == [True] * len(kinds)


@FEW
@given(random_graphs())
def test_cyclic_graph_games_agree_with_brute_force(game: GraphGame) -> None:
    """On games with cycles, retrograde analysis gives the value of the exhaustive search that
    scores a repeated position as a draw, at every position."""
    table = solve_strong(game).table
    for state in table.graph.positions:
        assert table.value(state) == reference_value(game, state), state


@FEW
@given(random_acyclic_graphs())
def test_remoteness_agrees_with_brute_force_on_acyclic_games(game: GraphGame) -> None:
    """Remoteness (the favoured side hurries, the other delays) as a recursion computes it."""
    table = solve_strong(game).table
    brute = brute_remoteness(game)
    for state in table.graph.positions:
        assert (table.value(state), table.remoteness(state)) == brute(state)


def test_remoteness_of_tictactoe_agrees_with_brute_force() -> None:
    """Every tic-tac-toe position's remoteness and best move's value, against the recursion."""
    game = TicTacToe()
    table = solve_strong(game).table
    brute = brute_remoteness(game)
    for state in table.graph.positions:
        value, remoteness = brute(state)
        assert (table.value(state), table.remoteness(state)) == (value, remoteness)
        move = table.best_move_index(state)
        if move is not None:
            child = game.result(state, game.actions(state)[move])
            assert brute(child) == (value, remoteness - 1)


def test_repetition_draws_have_no_remoteness() -> None:
    """Subtraction with passing: from 3 stones on, neither side can force a win, so the game
    is drawn by endless passing, with no end to count to; 1 and 2 stones are won in 1."""
    game = PassingSubtraction(stones=5, take=2)
    table = solve_strong(game).table
    assert table.value(game.initial_state()) == 0
    assert table.remoteness(game.initial_state()) is None
    for pile in (1, 2):
        assert table.value((pile, "A")) == 1 and table.remoteness((pile, "A")) == 1
    assert table.solution.remoteness[table.node((3, "A"))] == NEVER


def test_a_shuttle_is_a_draw_and_a_forced_line_counts_its_plies() -> None:
    """a <-> b: MAX at a may end at -1 or go to b; MIN at b may end at +1 or go back: a draw.
    Adding a MAX escape to +1 two plies away from b makes a a win in 3 (a -> c -> d -> +1)."""
    shuttle = GraphGame({"a": ["x", "b"], "b": ["y", "a"]}, {"x": -1, "y": 1}, start="a")
    assert solve_strong(shuttle).value == 0
    escape = GraphGame({"a": ["x", "b", "c"], "b": ["y", "a"], "c": ["d"], "d": ["y"]},
                       {"x": -1, "y": 1}, start="a")
    result = solve_strong(escape)
    assert (result.value, result.remoteness, result.best_move) == (1, 3, "c")


def played_line(game: Any, line: tuple[Any, ...]) -> list[Any]:
    """The states a line of play goes through from the start, the start first."""
    states = [game.initial_state()]
    for move in line:
        states.append(game.result(states[-1], move))
    return states


@pytest.mark.parametrize("game, tiers", [
    (TicTacToe(), False),
    (gdl.load(Path("games/nim.gdl"), piles=(2, 3)), None),
    (gdl.load(Path("games/connect.gdl"), rows=3, cols=4, k=3), True),
], ids=["tictactoe", "nim 2 3", "connect 3x4 by tiers"])
def test_the_principal_variation_plays_the_value_out_in_as_many_plies_as_the_remoteness(game: Any,
                                                                                         tiers: bool | None) -> None:
    """The line of best moves (in memory, and read back from a tablebase by tiers): every
    position on it has the start's value and one ply less to go, by a recursion over the game
    (tic-tac-toe 0 in 9, Nim (2, 3) 1 in 5), and it ends at a finished game of that score."""
    result = solve_strong(game, tiers=tiers)
    brute = brute_remoteness(game)
    value, remoteness = brute(game.initial_state())
    assert (result.value, result.remoteness) == (value, remoteness)
    states = played_line(game, result.principal_variation)
    assert len(result.principal_variation) == remoteness
    assert [brute(state) for state in states] == [(value, remoteness - ply) for ply in range(remoteness + 1)]
    assert game.is_terminal(states[-1]) and game.utility(states[-1], game.players[0]) == value
    if isinstance(game, TicTacToe):
        assert (value, remoteness) == (0, 9)


def test_a_principal_variation_stops_where_a_position_comes_back_or_the_dice_move() -> None:
    """The shuttle's draw is endless play (a -> b -> a): its line stops where a comes back;
    with the escape the line is the forced win a -> c -> d -> +1; Pig's first move is to roll,
    and then the dice decide."""
    shuttle = GraphGame({"a": ["x", "b"], "b": ["y", "a"]}, {"x": -1, "y": 1}, start="a")
    assert solve_strong(shuttle).principal_variation == ("b", "a")
    escape = GraphGame({"a": ["x", "b", "c"], "b": ["y", "a"], "c": ["d"], "d": ["y"]},
                       {"x": -1, "y": 1}, start="a")
    assert solve_strong(escape).principal_variation == ("c", "d", "y")
    pig = gdl.load(Path("games/pig.gdl"), goal=10)
    assert [pig.format_move(move) for move in solve_strong(pig).principal_variation] == ["roll"]



def test_gdl_solve_strong_prints_the_principal_variation_and_where_it_stops(capsys: pytest.CaptureFixture[str],
                                                                           monkeypatch: pytest.MonkeyPatch,
                                                                           tmp_path: Path) -> None:
    """The text gives the line (its moves proven above), and says where it stops short of an
    end; and every move of the start, or every outcome where the dice move first."""
    from gdl.cli import main

    assert main(["solve", "games/tictactoe.gdl", "--strong"]) == 0
    line = next(row for row in capsys.readouterr().out.splitlines() if row.startswith("principal variation: "))
    assert line.count("), (") == 8  # nine moves, to the end
    assert main(["solve", "games/pig.gdl", "-p", "goal=10", "--strong"]) == 0
    assert "\nprincipal variation: roll (then the dice)\n" in capsys.readouterr().out
    from searchers.strong import solver
    from tests.strong.test_plain_solve import COIN

    game = gdl.load(Path("games/tictactoe.gdl"))
    brute = brute_remoteness(game)
    start = game.initial_state()
    assert main(["solve", "games/tictactoe.gdl", "--strong"]) == 0
    out = capsys.readouterr().out
    table = out[out.index("every move (value for X, remoteness):\n"):out.index("positions: ")].splitlines()[1:]
    assert table == [f"  {game.format_move(move)}  {brute(game.result(start, move))[0]}  "
                     f"in {brute(game.result(start, move))[1]}" for move in game.actions(start)]  # 0 in 8 each
    # The coin game with the coin in the air at the start: heads, A has won (1); tails, B is to
    # flip, and B's chance of being first to throw heads is 2/3: -1/3 for A.
    coin = tmp_path / "coin.gdl"
    coin.write_text(COIN.replace("    flipping = false", "    flipping = true"))
    assert main(["solve", str(coin), "--strong"]) == 0
    assert "every outcome of the dice (its probability, the value for A):\n  heads  1/2 (~0.5000)   1\n" \
           "  tails  1/2 (~0.5000)  -1/3 (~-0.3333)\n" in capsys.readouterr().out

    monkeypatch.setattr(solver, "_LINE_LIMIT", 3)  # a line past the most kept
    assert main(["solve", "games/tictactoe.gdl", "--strong"]) == 0
    assert ("\nprincipal variation: (0, 0), (1, 1), (0, 1) (the line is cut there, after 3 moves; the game goes on)\n"
            in capsys.readouterr().out)


HUGE = """game "Huge"
players A, B
symbols win, lose
state:
    done = false
    choice = lose
to_move = A
moves = [win, lose]
result(m):
    done = true
    choice = m
terminal = done
utility = 10**400 if choice == win else -1
"""


def test_scores_past_the_floats_are_solved_exactly_without_dice() -> None:
    """A takes the win worth 10**400 (an integer the language allows; the bound on the error,
    a float, made it an internal error)."""
    result = solve_strong(gdl.loads(HUGE))
    assert result.value == 10**400 and result.exact and result.residual == 0
    assert result.outcomes == {10**400: 2, -1: 1}


def test_scores_past_the_floats_through_the_dice_are_refused_in_words(tmp_path: Path) -> None:
    """Value iteration computes in floats: a cycle through the dice that can end in 10**400
    is refused, saying why (it was an internal error)."""
    from tests.strong.test_plain_solve import COIN

    game = gdl.loads(COIN.replace("utility = 1 if", "utility = 10**400 if"))
    with pytest.raises(SearchError, match="past the range of the floats value iteration computes with"):
        solve_strong(game)


RING = """game "Walk"
players A, B
param n = 40
state:
    x = 1
    mover = A
    rolling = false
    over = false
to_move = chance if rolling else mover
moves = [] if rolling else [1, 2]
outcomes = [(1, 1/7), (2, 2/7), (3, 4/7)]
result(m):
    x = (x + m) % n
    if x == 0:
        over = true
    elif rolling:
        rolling = false
        mover = other(mover)
    else:
        rolling = true
terminal = over
utility = 1 if mover == A else -1
"""


def test_exact_values_give_way_to_value_iteration_when_their_fractions_grow_too_long(
        monkeypatch: pytest.MonkeyPatch) -> None:
    """A token on a ring (the mover steps 1 or 2, then a die moves it 1 to 3 more; whoever
    reaches cell 0 wins) is one cycle through the dice whose elimination fills in row after
    row: 160 positions take about 50,000 steps of it, and 800, 78 s. Past the budget of
    steps, value iteration answers, not exact but within its bound of the exact value."""
    exact = solve_strong(gdl.loads(RING))
    assert exact.exact and exact.method == "policy iteration" and exact.positions == 160
    monkeypatch.setattr(policy, "_FRACTION_STEPS", 10_000)
    bounded = solve_strong(gdl.loads(RING))
    assert not bounded.exact and bounded.method == "value iteration"
    assert abs(bounded.value - exact.value) <= bounded.residual + 1e-12


class OwnedGraph:
    """A token on a graph whose every node belongs to one player (so a player may move the
    token round a cycle alone, a stay in place among them), with a score at the ends and a
    `repetition` score of each node: a play that never ends scores the node where it came into
    the cycle, the first node met twice."""

    players = ("A", "B")

    def __init__(self, owner: list[int], arcs: list[list[int]], ends: dict[int, int], scores: list[int]) -> None:
        """Node i is A's if ``owner[i]`` is 0; its moves go to ``arcs[i]``; ``ends`` scores
        the finished nodes, ``scores`` every node's endless play."""
        self.owner, self.arcs, self.ends, self.scores = owner, arcs, ends, scores

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> str:
        return self.players[self.owner[state]]

    def actions(self, state: int) -> list[int]:
        return list(self.arcs[state])

    def result(self, state: int, move: int) -> int:
        return move

    def is_terminal(self, state: int) -> bool:
        return state in self.ends

    def utility(self, state: int, player: str) -> int:
        return self.ends[state] if player == "A" else -self.ends[state]

    def repetition_utility(self, state: int, player: str) -> int:
        return self.scores[state] if player == "A" else -self.scores[state]


@st.composite
def owned_graphs(draw: Any) -> OwnedGraph:
    """Up to six nodes, some finished; the others' moves may come back to themselves."""
    size = draw(st.integers(2, 6))
    ends = {i: draw(st.integers(-2, 2)) for i in range(1, size) if draw(st.integers(0, 3)) == 0}
    arcs = [[] if i in ends else draw(st.lists(st.integers(0, size - 1), min_size=1, max_size=3, unique=True))
            for i in range(size)]
    owner = [draw(st.integers(0, 1)) for _ in range(size)]
    scores = [draw(st.integers(-2, 2)) for _ in range(size)]
    return OwnedGraph(owner, arcs, ends, scores)


def history_value(game: OwnedGraph, node: int, seen: frozenset[int] = frozenset(), follow: Any = None,
                  side: int | None = None) -> int:
    """What A scores from ``node`` with perfect play over whole lines (a play that meets a node
    twice scores that node's repetition score): minimax over the lines themselves, the way
    the rule is written, independent of the solver; with ``follow`` (node -> next node),
    ``side``'s moves are those and the other side plays anything, against it."""
    if game.is_terminal(node):
        return game.ends[node]
    if node in seen:
        return game.scores[node]
    seen = seen | {node}
    if follow is not None and game.owner[node] == side:
        return history_value(game, follow[node], seen, follow, side)
    values = [history_value(game, child, seen, follow, side) for child in game.arcs[node]]
    return max(values) if game.owner[node] == 0 else min(values)


def played_out(game: OwnedGraph, table: Any, start: int) -> tuple[int, int | None]:
    """What A scores from ``start`` when both sides play the table's best moves (the end's
    score, or the repetition score of the first node met twice), and in how many plies it
    ends (None: never)."""
    line: list[int] = []
    node = start
    while not game.is_terminal(node) and node not in line:
        line.append(node)
        node = game.actions(node)[table.best_move_index(node)]
    return (game.ends[node], len(line)) if game.is_terminal(node) else (game.scores[node], None)


def check_best_moves(game: OwnedGraph) -> bool:
    """Whether the strong solve is exact; if it is: every position's value is the minimax over
    whole lines; the side to move, following the table's best moves, gets at least that
    whatever the other side plays; both sides following them score it, and end in as many
    plies as the remoteness says (never, where it says none).  If not, it says why."""
    result = solve_strong(game, tiers=False)
    table = result.table
    assert table is not None
    if not result.exact:
        assert result.inexact_reason
        return False
    follow = {node: game.actions(node)[table.best_move_index(node)]
              for node in table.graph.positions if not game.is_terminal(node)}
    for node in follow:
        value = table.value(node)
        assert history_value(game, node) == value, node
        held = history_value(game, node, follow=follow, side=game.owner[node])
        assert (held >= value) if game.owner[node] == 0 else (held <= value), (node, held, value)
        assert played_out(game, table, node) == (value, table.remoteness(node)), node
    return True


@FEW
@given(owned_graphs())
def test_best_moves_keep_the_value_where_repetition_scores_differ(game: OwnedGraph) -> None:
    """On random games whose cycles score endless play differently from node to node (a
    position that forces its way out to a play going on elsewhere leaves: a stay at a node
    scoring -1 beside a way out to an endless play scoring 0 was the best move, and scored -1
    against a value of 0), as ``check_best_moves`` says: a third to a half are not exact,
    and the examples are drawn until as many exact ones were checked."""
    assume(check_best_moves(game))


@pytest.mark.parametrize("owner, arcs, ends, scores", [
    # Every node is B's: B walks 0, 1, 2 to the end (-2); B at 1 went back to 0, where the
    # cycle scores 2 (its own score, -2, is the value: taken as a delay it could afford).
    ([1, 1, 1, 1], [[1], [2, 0], [0, 3], []], {3: -2}, [2, -2, 0, 2]),
    # B at 3 went to 1, whose value is B's too, but where A goes back to 3, closing the cycle
    # there (2 for A, against -2): B's way out must be one A cannot turn back.
    ([1, 0, 1, 1], [[2, 3, 1], [2, 0, 3], [], [3, 0, 1]], {2: -2}, [-2, -1, 1, 2]),
    # B, losing, delays for ever (0, 1, 2, ...): its best move is no end at once.
    ([1, 0, 0, 0], [[3, 1], [0, 2], [2], []], {3: 1}, [0, 0, 1, 0]),
    ([1, 0, 0, 0], [[1, 2, 0], [], [0, 3], []], {1: -2, 3: 1}, [-2, 0, -1, 0]),
], ids=["a delay round a worse cycle", "a way out the other side turns back", "a delay for ever",
        "a delay beside a loss"])
def test_best_moves_keep_the_value_on_games_random_ones_seldom_reach(owner: list[int], arcs: list[list[int]],
                                                                     ends: dict[int, int], scores: list[int]) -> None:
    """``check_best_moves`` on shapes a brute force over 12,000 random games found."""
    assert check_best_moves(OwnedGraph(owner, arcs, ends, scores))


def test_a_stay_beside_a_way_out_to_a_better_endless_play_leaves() -> None:
    """A at 0 stays (endless play scored -1, where it came in: 0) or leaves for 1, whose
    endless play scores 0: value 0, best move leave (it was stay), as alpha-beta finds."""
    game = OwnedGraph(owner=[0, 1], arcs=[[0, 1], [1]], ends={}, scores=[-1, 0])
    result = solve_strong(game, tiers=False)
    assert result.value == 0 and result.exact
    assert result.best_move == 1
    assert alphabeta(game).move == 1


@pytest.mark.parametrize("tiers", [False, True])
def test_scores_given_as_floats_averaged_by_dice_are_not_exact(tiers: bool) -> None:
    """The dice's mean of two float scores is rounded: not exact, and said why (it was called
    exact); with exact scores the same throw is exact (2/5), a float `repetition` score that
    nothing averages notwithstanding."""
    result = solve_strong(FloatDice(), tiers=tiers)
    exact_mean = (Fraction(0.1) + Fraction(0.7)) / 2
    assert result.value == 0.39999999999999997 and Fraction(result.value) != exact_mean
    assert not result.exact and result.inexact_reason == (
        "the game gives some scores as floats, which the dice average, so the expected values are rounded")
    exact_game = FloatDice(floats=False)
    exact_game.repetition_utility = lambda state, player: 0.0  # type: ignore[attr-defined]  # a float never used
    exact = solve_strong(exact_game, tiers=tiers)
    assert exact.value == Fraction(2, 5) and exact.exact


class FloatThirds(FloatDice):
    """Three even throws scoring 1, 1.0 and 0 to A: 1.0, a float equal to the integer 1, is
    averaged all the same (0.6666666666666666)."""

    def chance_outcomes(self, state: int) -> list[tuple[int, Fraction]]:
        """1, 2 or 3, a third each."""
        return [(face, Fraction(1, 3)) for face in (1, 2, 3)]

    def utility(self, state: int, player: str) -> float:
        """1, 1.0 or 0 to A."""
        score = {1: 1, 2: 1.0, 3: 0}[state]
        return score if player == "A" else -score


@pytest.mark.parametrize("tiers", [False, True])
def test_a_float_equal_to_another_score_is_averaged_as_a_float(tiers: bool) -> None:
    """By tiers too, where a tier's scores are gathered in a set that keeps 1 for 1.0: the
    dice's mean is a float, not exact (by tiers it was called exact)."""
    result = solve_strong(FloatThirds(), tiers=tiers)
    assert result.value == 0.6666666666666666 and not result.exact


class FloatRepetition:
    """S throws: 1/3 to A, 2/3 to an end worth 0. A (Max) moves to B or back to S; B (Min) to
    A or to an end worth 10 to A. Play between A and B never ends and scores the `repetition`
    value (``rep``), which Min takes: A's value is rep / 3 (1/30 for 1/10)."""

    players = ("A", "B")
    has_chance = True

    def __init__(self, rep: Fraction | float) -> None:
        """Endless play worth ``rep`` to A."""
        self.rep = rep

    def initial_state(self) -> str:
        """The throw in the air."""
        return "S"

    def to_move(self, state: str) -> str:
        """B at B, else A."""
        return "B" if state == "B" else "A"

    def is_chance(self, state: str) -> bool:
        """At S."""
        return state == "S"

    def chance_outcomes(self, state: str) -> list[tuple[str, Fraction]]:
        """To A, or to the end worth 0."""
        return [("A", Fraction(1, 3)), ("T0", Fraction(2, 3))]

    def actions(self, state: str) -> list[str]:
        """A: to B or S; B: to A or the end worth 10."""
        return {"A": ["B", "S"], "B": ["A", "T10"]}.get(state, [])

    def result(self, state: str, move: str) -> str:
        """Where the move goes."""
        return move

    def is_terminal(self, state: str) -> bool:
        """The ends."""
        return state.startswith("T")

    def utility(self, state: str, player: str) -> int:
        """0 or 10 to A."""
        score = 0 if state == "T0" else 10
        return score if player == "A" else -score

    def repetition_utility(self, state: str, player: str) -> Fraction | float:
        """``rep`` to A."""
        return self.rep if player == "A" else -self.rep


def test_a_repetition_score_given_as_a_float_makes_a_cycles_values_not_exact() -> None:
    """Policy iteration took the float 0.1 in as the fraction of its rounding and called A's
    value (that fraction over 3) exact; it is not: value iteration's, within its bound of the
    float's third.  Given as 1/10, the value is 1/30, exact."""
    rounded = solve_strong(FloatRepetition(0.1))
    assert not rounded.exact and rounded.method == "value iteration"
    assert abs(rounded.value - 0.1 / 3) <= rounded.residual + 1e-15
    exact = solve_strong(FloatRepetition(Fraction(1, 10)))
    assert exact.value == Fraction(1, 30) and exact.exact and exact.method == "policy iteration"


class TwoThrows(FloatDice):
    """A throw at exact odds (1/3, 2/3), then a second one at odds given as floats (0.25,
    0.75) for scores 1 and -1: no score is a float."""

    def initial_state(self) -> tuple[int, ...]:  # type: ignore[override]
        """No throw yet."""
        return (0,)

    def is_chance(self, state: tuple[int, ...]) -> bool:  # type: ignore[override]
        """Before the second throw."""
        return len(state) < 3

    def chance_outcomes(self, state: tuple[int, ...]) -> list[tuple[tuple[int, ...], Fraction | float]]:  # type: ignore[override]
        """1 or 2, at exact odds first, then at floats."""
        if len(state) == 1:
            return [(state + (1,), Fraction(1, 3)), (state + (2,), Fraction(2, 3))]
        return [(state + (1,), 0.25), (state + (2,), 0.75)]

    def result(self, state: tuple[int, ...], move: tuple[int, ...]) -> tuple[int, ...]:  # type: ignore[override]
        """The throws so far."""
        return move

    def is_terminal(self, state: tuple[int, ...]) -> bool:  # type: ignore[override]
        """After both throws."""
        return len(state) == 3

    def utility(self, state: tuple[int, ...], player: str) -> int:  # type: ignore[override]
        """1 or -1 to A, by the second throw."""
        score = 1 if state[2] == 1 else -1
        return score if player == "A" else -score

    def tier(self, state: tuple[int, ...]) -> int:  # type: ignore[override]
        """The throws made."""
        return len(state)


@pytest.mark.parametrize("tiers", [False, True])
def test_floats_made_by_float_odds_below_are_said_to_be_the_odds(tiers: bool) -> None:
    """The first throw averages floats that the second's odds made: the reason names the odds
    alone (it said the game gives scores as floats too)."""
    result = solve_strong(TwoThrows(), tiers=tiers)
    assert result.value == -0.5 and not result.exact
    assert result.inexact_reason == ("the game gives some odds as floats (0.1 for 1/10, which no float is), so "
                                     "the expected values are those of the floats' odds, rounded")


# Ten positions (nodes 0 to 10, 11 the end; 2 and 9 unreached): Max is favoured at 1 (worth 1,
# endless play 0) and has two best moves, 7 and 3. At 7 Min can go round 7 -> 6 -> 1 for ever;
# through 3 the dice lead out in the end (2/3 to 8, where Max takes 11).
OWNER = {0: 1, 1: 0, 2: 1, 3: 2, 4: 1, 5: 1, 6: 1, 7: 1, 8: 0, 9: 1, 10: 2, 11: 3}  # Max, Min, dice, end
EDGES = {0: [0, 10], 1: [7, 3], 2: [4], 4: [10], 5: [1], 6: [1], 7: [4, 6, 10], 8: [11, 10], 9: [8]}
OUTCOMES = {3: [7, 8], 10: [5, 11]}
LOOP_OR_DICE = f"""\
game "Loop or dice"
players Max, Min
state:
    node = 0
owner = {OWNER}
edges = {EDGES}
probs = {{3: [(7, 1/3), (8, 2/3)], 10: [(5, 2/3), (11, 1/3)]}}
to_move = chance if owner[node] == 2 else Max if owner[node] == 0 else Min
moves = [] if owner[node] >= 2 else edges[node]
outcomes = probs[node]
result(m):
    node = m
terminal = owner[node] == 3
utility = 1
repetition = 0
"""


def _min_can_play_for_ever(best: dict[int, int]) -> set[int]:
    """The nodes from which Min, against Max playing ``best`` (node -> move), can keep the game
    going for ever with some chance (a set the play can stay in: the dice's outcomes all in
    it, Max's move in it, some move of Min's in it), worked out apart from the solver."""
    stay = {node for node in OWNER if OWNER[node] != 3}
    while True:
        left = {node for node in stay if (
            all(o in stay for o in OUTCOMES[node]) if OWNER[node] == 2
            else best[node] in stay if OWNER[node] == 0
            else any(m in stay for m in EDGES[node]))}
        if left == stay:
            return stay
        stay = left


def test_a_best_move_does_not_let_the_other_side_go_round_for_ever() -> None:
    """Max's best move at 1 is 3, not 7 (its first), though both are worth 1: from 7 Min would
    go round back to 1 for ever, and Max playing 7 there again would score endless play, 0. So
    chosen, the game is exact (it was left to value iteration: the first best moves drift), its
    values those worked out by hand, and Max's best moves leave Min no way to play for ever from
    a node worth 1 (the start, worth 0, is Min's loop 0 -> 0).  Value iteration's values, 1.0
    everywhere within its slack, make the same choice (nodes renumbered: 1 is 0, 3 is 1, 4 is 2,
    5 is 3, 6 is 4, 7 is 5, 8 is 6, 10 is 7, the end 8)."""
    game = gdl.loads(LOOP_OR_DICE)
    result = solve_strong(game)
    assert result.value == 0 and result.exact and result.positions == 10
    table = result.table
    assert table is not None
    reached = [node for node in range(12) if node not in (2, 9)]  # the positions, 11 the end
    assert [table.value((node,)) for node in reached] == [0] + [1] * 9
    best = {node: table.best_move(game, (node,)) for node in reached if OWNER[node] == 0}
    assert best == {1: 3, 8: 11}
    assert _min_can_play_for_ever(best) == {0}
    third = [Fraction(1, 3), Fraction(2, 3)]
    loop = cycle_of([[5, 1], [5, 6], [7], [0], [0], [2, 4, 7], [8, 7], [3, 8]],
                    [MAX, CHANCE, MIN, MIN, MIN, MIN, MAX, CHANCE], {8: 1}, {1: third, 7: third[::-1]})
    for values, slack in (([1] * 8, 0), ([1.0] * 8, 1e-9)):
        assert policy.ending_choices(loop, values, slack) == [1, 0, 0, 0, 0, 2, 0, 0]  # 1 moves to 3; 7 to 10
