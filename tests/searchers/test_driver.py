"""The search driver shared by minimax, alpha-beta and expectiminimax: principal variations
that reach the end, games thousands of moves long, a table bounded in memory, and values that
are not called exact when positions repeat through the dice."""

from __future__ import annotations

import copy
from fractions import Fraction
from typing import Any, Callable

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import searchers._common as common
from searchers import SearchError, SearchResult, alphabeta, expectiminimax, minimax
from tests.pygames import ConnectK, GraphGame, Nim, Subtraction, TicTacToe
from tests.searchers.random_games import (
    MirroredGame,
    random_acyclic_graphs,
    random_dags,
    random_graphs,
    random_nims,
    reference_value,
)

Search = Callable[[Any], SearchResult]


def with_utility_range(game: Any) -> Any:
    """A copy of ``game`` that declares ``utility_bounds``: the lowest and highest utility of
    the finished games reachable from the start and 0 (a repetition's draw), found by
    visiting every reachable position."""
    first = game.players[0]
    seen: set[Any] = set()
    pending, payoffs = [game.initial_state()], {0}
    while pending:
        state = pending.pop()
        if state in seen:
            continue
        seen.add(state)
        if game.is_terminal(state):
            payoffs.add(game.utility(state, first))
        else:
            pending.extend(game.result(state, move) for move in game.actions(state))
    declared = copy.copy(game)
    declared.utility_bounds = (min(payoffs), max(payoffs))
    return declared


# Every searcher with every refinement, searching to the end.
EXACT_SEARCHES: list[tuple[str, Search]] = [
    ("minimax", lambda g: minimax(g)),
    ("alphabeta", lambda g: alphabeta(g)),
    ("alphabeta table", lambda g: alphabeta(g, table=True)),
    ("alphabeta table ordering", lambda g: alphabeta(g, table=True, ordering=True)),
    ("alphabeta killers history", lambda g: alphabeta(g, killers=True, history=True)),
    ("alphabeta everything", lambda g: alphabeta(
        g, table=True, ordering=True, killers=True, history=True, symmetry=True)),
    ("alphabeta tiny table", lambda g: alphabeta(g, table=True, memory=1)),
    ("alphabeta utility range", lambda g: alphabeta(with_utility_range(g))),
    ("alphabeta utility range table ordering", lambda g: alphabeta(with_utility_range(g), table=True, ordering=True)),
    ("expectiminimax", lambda g: expectiminimax(g)),
    ("expectiminimax table", lambda g: expectiminimax(g, table=True)),
]
# And with a depth limit, for games with an evaluation.
LIMITED_SEARCHES: list[tuple[str, Search]] = [
    ("minimax depth 2", lambda g: minimax(g, depth=2)),
    ("alphabeta depth 3", lambda g: alphabeta(g, depth=3)),
    ("alphabeta depth 3 table ordering", lambda g: alphabeta(g, depth=3, table=True, ordering=True)),
    ("alphabeta deepening", lambda g: alphabeta(g, max_nodes=40, table=True, ordering=True)),
    ("expectiminimax depth 2 table", lambda g: expectiminimax(g, depth=2, table=True)),
]


def replay(game: Any, result: SearchResult, depth: int | None = None) -> Any:
    """Play the principal variation from the start and score where it ends: a finished game
    by its utility, a position met again on the line by the repetition rule, the depth limit
    by the evaluation.  Fails if the line stops anywhere else."""
    state = game.initial_state()
    line = [state]
    first = game.players[0]
    for move in result.pv:
        assert move in list(game.actions(state)), f"{move!r} is not legal"
        state = game.result(state, move)
        line.append(state)
    if game.is_terminal(state):
        return game.utility(state, first)
    if state in line[:-1]:
        score = getattr(game, "repetition_utility", None)
        return score(state, first) if score else 0
    assert depth is not None and len(result.pv) == depth, (
        f"the line stops after {len(result.pv)} moves at {state!r}, which is not the end")
    return game.evaluate(state, first)


@pytest.mark.parametrize("name, search", EXACT_SEARCHES, ids=[n for n, _ in EXACT_SEARCHES])
@settings(max_examples=60, deadline=None)
@given(st.one_of(random_nims(), random_dags(), random_acyclic_graphs(max_size=10), random_graphs()))
def test_principal_variation_replays_to_the_value(name: str, search: Search, game: Any) -> None:
    result = search(game)
    assert result.value == reference_value(game)
    assert replay(game, result) == result.value


@pytest.mark.parametrize("name, search", EXACT_SEARCHES, ids=[n for n, _ in EXACT_SEARCHES])
@settings(max_examples=30, deadline=None)
@given(random_dags())
def test_principal_variation_replays_under_symmetry(name: str, search: Search, game: Any) -> None:
    mirrored = MirroredGame(game)
    result = search(mirrored)
    assert replay(mirrored, result) == result.value == reference_value(game)


@pytest.mark.parametrize("name, search", LIMITED_SEARCHES, ids=[n for n, _ in LIMITED_SEARCHES])
@settings(max_examples=60, deadline=None)
@given(random_acyclic_graphs())
def test_limited_principal_variation_ends_at_the_evaluated_horizon(
    name: str, search: Search, game: Any
) -> None:
    result = search(game)
    assert replay(game, result, depth=result.stats.depth) == result.value


@settings(max_examples=80, deadline=None)
@given(random_graphs(), st.booleans())
def test_with_the_utility_range_every_root_move_value_is_right_or_a_true_bound(game: Any, below: bool) -> None:
    """Searched from a MAX root (the start) or a MIN root (below it), with the window the
    utility's range gives: each root move's value is its minimax value where called exact, and
    a bound on it otherwise, never a bound that the range makes exact."""
    declared = with_utility_range(game)
    low, high = declared.utility_bounds
    root = game.initial_state()
    if below:
        root = game.result(root, game.actions(root)[0])
        if game.is_terminal(root):
            return
    result = alphabeta(declared, root)
    assert result.value == reference_value(game, root)
    for move, value in result.move_values.items():
        child = game.result(root, move)
        true = reference_value(game, child, (root,))
        bound = result.move_bounds[move]
        # At most the lowest payoff is the lowest payoff; at least the highest, the highest.
        assert (bound, value) not in (("upper", low), ("lower", high))
        assert true == value if bound == "exact" else true <= value if bound == "upper" else true >= value


def test_the_utility_range_saves_nodes_and_changes_no_value() -> None:
    """Connect four 4x4 (a draw, 0) and tic-tac-toe (a draw) with the table and ordering: the
    same values, fewer nodes, when the games declare the range of their payoffs."""
    for game, known in ((ConnectK(4, 4, 4), 0), (TicTacToe(), 0)):
        plain = alphabeta(game, table=True, ordering=True)
        ranged = alphabeta(with_utility_range(game), table=True, ordering=True)
        assert plain.value == ranged.value == known
        assert ranged.stats.nodes < plain.stats.nodes


def bouton(piles: tuple[int, ...]) -> int:
    """Normal-play Nim: the player to move wins exactly when the xor of the piles is not 0."""
    xor = 0
    for pile in piles:
        xor ^= pile
    return 1 if xor else -1


def test_every_nim_line_with_the_table_reaches_the_last_stone() -> None:
    # All 64 positions of three piles of 1 to 4 stones, solved as the command line does
    # (table, ordering): each principal variation is a whole game, won as Bouton says.
    for a in range(1, 5):
        for b in range(1, 5):
            for c in range(1, 5):
                game = Nim((a, b, c))
                result = alphabeta(game, table=True, ordering=True, symmetry=True)
                assert result.value == bouton((a, b, c))
                assert replay(game, result) == result.value, (a, b, c)


# ---- games thousands of moves long


@pytest.mark.parametrize("search", [
    lambda g: minimax(g), lambda g: alphabeta(g, table=True, ordering=True),
    lambda g: expectiminimax(g, table=True),
])
def test_a_game_of_ten_thousand_moves_is_searched_to_the_end(search: Search) -> None:
    # Subtraction with one stone taken at a time: 10,000 moves, won by the second player
    # (an even pile), whose line the search follows to the last stone.
    game = Subtraction(stones=10_000, take=1)
    result = search(game)
    assert (result.value, result.exact, len(result.pv)) == (-1, True, 10_000)


def test_deep_search_gives_back_the_recursion_limit() -> None:
    import sys

    before = sys.getrecursionlimit()
    alphabeta(Subtraction(stones=3000, take=2), table=True)
    assert sys.getrecursionlimit() == before


def test_runaway_recursion_in_a_rule_is_still_caught_in_a_deep_search() -> None:
    class Runaway(Subtraction):
        def is_terminal(self, state: Any) -> bool:
            if state[0] == 1:  # a rule that recurses without end, deep down the game
                return self.is_terminal(state)
            return super().is_terminal(state)

    with pytest.raises(RecursionError):
        minimax(Runaway(stones=2500, take=1))


class Endless:
    """A game that never ends and never repeats: a counter that only grows."""

    players = ("A", "B")

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> str:
        return self.players[state % 2]

    def actions(self, state: int) -> list[int]:
        return [1]

    def result(self, state: int, move: int) -> int:
        return state + move

    def is_terminal(self, state: int) -> bool:
        return False

    def utility(self, state: int, player: str) -> int:
        return 0


def test_a_game_that_never_ends_is_refused_at_the_ply_limit(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(common, "MAX_PLIES", 5_000)
    for search in (minimax, alphabeta, expectiminimax):
        with pytest.raises(SearchError, match="5,000 moves deep without the game ending"):
            search(Endless())


# ---- the transposition table stays within its memory


def test_the_table_never_holds_more_than_its_capacity() -> None:
    game = ConnectK(4, 4, 3)
    free = alphabeta(game, table=True)
    bounded = alphabeta(game, table=True, memory=200_000)
    stats = bounded.stats
    assert bounded.value == free.value == 1  # connect-3 on 4x4 is a first-player win
    assert 0 < stats.table_entries <= stats.table_capacity < free.stats.table_entries
    assert stats.table_evictions > 0 and free.stats.table_evictions == 0
    assert replay(game, bounded) == 1


@settings(max_examples=80, deadline=None)
@given(random_acyclic_graphs(), st.integers(1, 3000))
def test_a_small_table_changes_the_work_not_the_value(game: Any, memory: int) -> None:
    for search in (lambda **kw: alphabeta(game, table=True, ordering=True, **kw),
                   lambda **kw: alphabeta(game, depth=3, table=True, **kw),
                   lambda **kw: expectiminimax(game, table=True, **kw)):
        assert search(memory=memory).value == search().value


def test_table_figures_are_reported() -> None:
    result = alphabeta(TicTacToe(), table=True)
    stats = result.stats
    assert stats.table_entries > 0 and stats.table_capacity >= stats.table_entries
    assert alphabeta(TicTacToe()).stats.table_capacity == 0


def test_nonsense_memory_is_refused() -> None:
    with pytest.raises(SearchError, match="memory"):
        alphabeta(TicTacToe(), table=True, memory=0)


# ---- repetitions through chance nodes


class CoinGame:
    """The mover flips a fair coin: heads, the mover wins; tails, the flip passes on.

    The first player's true value is 1/3 (it wins with probability 2/3); a depth-first
    search can only score the return to the start by the repetition rule.
    """

    players = ("A", "B")
    has_chance = True

    def initial_state(self) -> tuple[str, str]:
        return ("A", "flip")

    def to_move(self, state: tuple[str, str]) -> str:
        return state[0]

    def is_chance(self, state: tuple[str, str]) -> bool:
        return state[1] == "flip"

    def chance_outcomes(self, state: tuple[str, str]) -> list[tuple[str, Fraction]]:
        return [("heads", Fraction(1, 2)), ("tails", Fraction(1, 2))]

    def actions(self, state: tuple[str, str]) -> list[str]:
        return []

    def result(self, state: tuple[str, str], move: str) -> tuple[str, str]:
        if move == "heads":
            return (state[0], "won")
        return ("B" if state[0] == "A" else "A", "flip")

    def is_terminal(self, state: tuple[str, str]) -> bool:
        return state[1] == "won"

    def utility(self, state: tuple[str, str], player: str) -> int:
        return 1 if state[0] == player else -1


def test_a_repetition_through_chance_is_not_called_exact() -> None:
    for result in (expectiminimax(CoinGame()), expectiminimax(CoinGame(), table=True)):
        # Heads wins at once (1/2); tails then heads loses (1/4); tails twice comes back to
        # the start, scored 0 by the repetition rule: 1/2 - 1/4 = 1/4, not the true 1/3.
        assert result.value == Fraction(1, 4)
        assert not result.exact and result.repetition
        assert result.inexact_reason is not None and "chance" in result.inexact_reason


def test_a_repetition_without_chance_keeps_the_rule_and_stays_exact() -> None:
    shuttle = GraphGame({"a": ["x", "b"], "b": ["y", "a"]}, {"x": -1, "y": 1}, start="a")
    for result in (expectiminimax(shuttle), minimax(shuttle), alphabeta(shuttle, table=True)):
        assert (result.value, result.exact, result.inexact_reason) == (0, True, None)


def test_inexact_results_say_why() -> None:
    assert "2 moves ahead" in (alphabeta(TicTacToe(), depth=2).inexact_reason or "")
    assert "beam" in (alphabeta(TicTacToe(), beam=2).inexact_reason or "")
    assert alphabeta(TicTacToe()).inexact_reason is None
