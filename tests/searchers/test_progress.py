"""Progress reports and Ctrl-C: a long search says how it is doing, and an interrupted one
still answers with the best it found, marked interrupted and not exact."""

from __future__ import annotations

from typing import Any

import pytest

import searchers
import searchers._common as common
from searchers import Progress, alphabeta, expectiminimax, minimax
from tests.pygames import ConnectK, TicTacToe


@pytest.fixture
def eager_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """Report at every checkpoint (every 256 nodes) instead of every quarter second."""
    monkeypatch.setattr(common, "_PROGRESS_DELAY", 0.0)
    monkeypatch.setattr(common, "_PROGRESS_INTERVAL", 0.0)


class InterruptAfter:
    """A game that raises KeyboardInterrupt (as Ctrl-C would) on its n-th call of actions."""

    def __init__(self, game: Any, calls: int) -> None:
        self.game, self.calls = game, calls
        self.players = game.players

    def __getattr__(self, name: str) -> Any:
        return getattr(self.game, name)

    def actions(self, state: Any) -> Any:
        self.calls -= 1
        if self.calls == 0:
            raise KeyboardInterrupt
        return self.game.actions(state)


def test_progress_reports_nodes_as_they_grow(eager_progress: None) -> None:
    reports: list[Progress] = []
    result = alphabeta(TicTacToe(), progress=reports.append)
    assert result.value == 0 and result.stats.nodes == 18_297
    # One report at each checkpoint of 256 nodes.
    assert len(reports) == 18_297 // 256
    assert [r.nodes for r in reports] == sorted(r.nodes for r in reports)
    assert all(r.depth is None and r.best_move is None for r in reports)


def test_progress_of_iterative_deepening_names_the_depth_and_the_best_move(eager_progress: None) -> None:
    reports: list[Progress] = []
    alphabeta(ConnectK(4, 5, 4), max_nodes=20_000, table=True, ordering=True, progress=reports.append)
    depths = [r.depth for r in reports]
    assert depths == sorted(depths) and depths[-1] >= 3
    assert reports[-1].best_move in range(5)


def test_no_progress_without_a_callback_costs_no_checkpoints() -> None:
    budget = common.Budget(None, None)
    assert budget.next_check(0) == common.UNLIMITED


def test_an_interrupted_deepening_returns_its_deepest_completed_iteration() -> None:
    game = InterruptAfter(ConnectK(4, 5, 4), calls=3_000)
    result = alphabeta(game, max_nodes=10**9, table=True, ordering=True)
    assert result.interrupted and not result.exact
    assert result.stats.depth >= 2
    assert result.move in range(5)


@pytest.mark.parametrize("search", [alphabeta, minimax])
def test_an_interrupted_exact_search_returns_the_best_root_move_it_finished(search: Any) -> None:
    # Tic-tac-toe from a position where X wins at once by (0, 2): the first root moves finish fast.
    game = TicTacToe()
    state = game.initial_state()
    for move in [(0, 0), (1, 0), (0, 1), (1, 1)]:
        state = game.result(state, move)
    counting = InterruptAfter(game, calls=-1)  # never reaches 0: counts the calls
    search(counting, state)
    total = -1 - counting.calls
    result = search(InterruptAfter(game, calls=total // 2), state)
    assert result.interrupted and not result.exact
    assert set(result.move_values) < set(game.actions(state))  # only the moves it finished
    assert result.move == max(result.move_values, key=result.move_values.__getitem__)
    # Searched to the end, the moves it finished are exact or bounds, their values those of the
    # whole search; the reason is the interruption alone (it also blamed an evaluation at a
    # depth limit, with no limit and no evaluation, and called the moves "estimate").
    assert result.inexact_reason == "the search was interrupted: this is the best found so far"
    assert "estimate" not in result.move_bounds.values()
    whole = search(game, state)
    for move, value in result.move_values.items():
        if result.move_bounds[move] == "exact":
            assert value == whole.move_values[move]


def test_an_interrupt_before_any_root_move_is_finished_propagates() -> None:
    with pytest.raises(KeyboardInterrupt):
        alphabeta(InterruptAfter(TicTacToe(), calls=5))


def test_expectiminimax_and_searchers_export_progress() -> None:
    assert searchers.Progress is Progress
    assert "progress" in expectiminimax.__code__.co_varnames



def test_the_collector_runs_less_often_during_a_search_and_as_before_after(eager_progress: None) -> None:
    """The cyclic collector's first threshold is 100,000 while a search runs (its table keeps
    many objects alive, and frequent passes cost a quarter of a solve), and what it was after."""
    import gc

    saved = gc.get_threshold()
    try:
        gc.set_threshold(700, 10, 10)
        seen: list[tuple[int, int, int]] = []
        alphabeta(ConnectK(4, 5, 4), max_nodes=2_000, table=True, progress=lambda _: seen.append(gc.get_threshold()))
        assert seen and set(seen) == {(100_000, 10, 10)}
        assert gc.get_threshold() == (700, 10, 10)
        gc.set_threshold(500_000, 20, 20)  # a program that already collects less often keeps its setting
        seen.clear()
        alphabeta(ConnectK(4, 5, 4), max_nodes=2_000, table=True, progress=lambda _: seen.append(gc.get_threshold()))
        assert set(seen) == {(500_000, 20, 20)} and gc.get_threshold() == (500_000, 20, 20)
        gc.set_threshold(0, 10, 10)  # and one that switched the collector off keeps it off
        seen.clear()
        alphabeta(ConnectK(4, 5, 4), max_nodes=2_000, table=True, progress=lambda _: seen.append(gc.get_threshold()))
        assert set(seen) == {(0, 10, 10)} and gc.get_threshold() == (0, 10, 10)
    finally:
        gc.set_threshold(*saved)
