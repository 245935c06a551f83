"""Games a searcher cannot handle are refused with a message saying why."""

from __future__ import annotations

import pytest

from searchers import SearchError, alphabeta, expectiminimax, minimax
from tests.pygames import Subtraction, TicTacToe, TreeGame


class ThreePlayerCount:
    """Three players each add one to a counter; the game ends at 3."""

    players = ("A", "B", "C")

    def initial_state(self) -> int:
        return 0

    def to_move(self, state: int) -> str:
        return self.players[state % 3]

    def actions(self, state: int) -> list[int]:
        return [1]

    def result(self, state: int, move: int) -> int:
        return state + move

    def is_terminal(self, state: int) -> bool:
        return state >= 3

    def utility(self, state: int, player: str) -> int:
        return 1


class Cooperative(Subtraction):
    """Subtraction declared not zero-sum."""

    zero_sum = False


class Stuck(TreeGame):
    """A tree whose inner node B claims no legal moves."""

    def actions(self, state: str) -> list[str]:
        return [] if state == "B" else super().actions(state)


SEARCHERS = [minimax, alphabeta, expectiminimax]


@pytest.mark.parametrize("search", SEARCHERS)
def test_three_player_games_are_refused(search) -> None:
    with pytest.raises(SearchError, match="two-player.*3 players"):
        search(ThreePlayerCount())


@pytest.mark.parametrize("search", SEARCHERS)
def test_the_refusal_of_more_players_names_the_searchers_that_take_them(search) -> None:
    with pytest.raises(SearchError, match="use maxn, paranoid or mcts, which take any number of players"):
        search(ThreePlayerCount())


@pytest.mark.parametrize("search", SEARCHERS)
def test_games_that_are_not_zero_sum_are_refused(search) -> None:
    with pytest.raises(SearchError, match="zero-sum"):
        search(Cooperative())


@pytest.mark.parametrize("search", SEARCHERS)
def test_a_non_terminal_state_without_moves_is_an_error(search) -> None:
    with pytest.raises(SearchError, match="no legal moves"):
        search(Stuck({"A": ["B"], "B": [1, 2]}))


def test_terminal_root_has_a_value_and_no_move() -> None:
    game = TicTacToe()
    state = game.initial_state()
    for move in [(0, 0), (1, 0), (0, 1), (1, 1), (0, 2)]:
        state = game.result(state, move)
    for search in SEARCHERS:
        result = search(game, state)
        assert (result.value, result.move, result.pv, result.move_values) == (10, None, [], {})
        assert result.exact and result.stats.nodes == 1
