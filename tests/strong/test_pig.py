"""Pig, whose positions repeat through the dice: the strong solver against a value iteration
written here from the rules, as Neller and Presser compute it."""

from __future__ import annotations

from pathlib import Path

import pytest

import gdl
from searchers import expectiminimax
from searchers.strong import solve_strong, stochastic

PIG = Path(__file__).resolve().parents[2] / "games" / "pig.gdl"


def pig_win_chance(goal: int) -> float:
    """The chance that the player about to roll at 0-0 wins, by value iteration over
    P(i, j, k): the mover has i points, the opponent j, and k on the turn.  Rolling 1 hands the
    turn over with nothing banked; 2..6 add to the turn total, a total that reaches the goal
    wins; holding banks k and hands the turn over."""
    p = {(i, j, k): 0.0 for i in range(goal) for j in range(goal) for k in range(goal - i)}
    while True:
        change = 0.0
        for (i, j, k), old in p.items():
            roll = (1 - p[j, i, 0]) / 6
            for face in range(2, 7):
                roll += (1.0 if i + k + face >= goal else p[i, j, k + face]) / 6
            best = max(roll, 1 - p[j, i + k, 0]) if k > 0 else roll
            change = max(change, abs(best - old))
            p[i, j, k] = best
        if change < 1e-14:
            return p[0, 0, 0]


@pytest.mark.parametrize("goal", [5, 10])
def test_pig_to_a_small_goal_matches_value_iteration(goal: int) -> None:
    """First's value is 2P - 1, P the value iteration's chance of winning; the solver proves it
    exactly (policy iteration with its certificate), by tiers or in memory alike."""
    game = gdl.load(PIG, goal=goal)
    expected = 2 * pig_win_chance(goal) - 1
    for tiers in (False, True):
        result = solve_strong(game, tiers=tiers)
        assert result.exact and "policy iteration" in result.method
        assert abs(result.value - expected) < 1e-12
        assert result.best_move == game.actions(game.initial_state())[0]  # roll: nothing to hold


def test_pig_past_the_exact_limit_is_within_its_bound(monkeypatch: pytest.MonkeyPatch) -> None:
    """Pig to 20 (13,376 positions: too many for policy iteration) by value iteration: First's
    value is within the solve's bound of 2P - 1 (P by the value iteration written here), the
    bound below a billionth, and the sweeps of every cycle start next to the values, proven
    there (Newton's method on the two turns' starts, ``_near_ends``)."""
    started: list[object] = []
    near_ends = stochastic._near_ends
    monkeypatch.setattr(stochastic, "_near_ends", lambda *args: started.append(near_ends(*args)) or started[-1])
    result = solve_strong(gdl.load(PIG, goal=20), tiers=False)
    assert not result.exact and result.method == "value iteration"
    assert abs(result.value - (2 * pig_win_chance(20) - 1)) <= result.residual + 1e-13
    assert result.residual < 1e-9
    assert len(started) > 100 and None not in started


def test_depth_first_search_says_pig_is_not_exact() -> None:
    """Expectiminimax meets Pig's repeated positions through the dice, says its value is not
    exact and why, and calls no move's value exact; the strong solver's value differs from it."""
    game = gdl.load(PIG, goal=5)
    searched = expectiminimax(game, table=True)
    assert not searched.exact and searched.stats.chance_repetitions > 0
    assert "strong solver" in searched.inexact_reason
    assert searched.value != solve_strong(game, tiers=False).value
    # No move's value is called exact either (its bound said "exact"), and with a depth limit
    # too, the reason gives both causes (it gave the first alone).
    assert set(searched.move_bounds.values()) == {"estimate"}
    limited = expectiminimax(game, depth=4)
    assert limited.inexact_reason.startswith("the search stopped 4 moves ahead")
    assert "; and positions repeat through chance nodes (" in limited.inexact_reason
    assert set(limited.move_bounds.values()) == {"estimate"}


def test_the_counts_by_value_are_formatted_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """The solve wrote its counts of positions by value into the tablebase's metadata; asked
    for them again (the command's text, its JSON, the metadata), it formats no value again but
    the start's: Pig to 100 has 932,178 different values, a second or two each time."""
    import searchers.strong.solver as solver_module

    result = solve_strong(gdl.load(PIG, goal=10), tiers=True)
    assert len(result.outcomes) == 498  # of 1,476 positions: nearly one a position
    formatted: list[object] = []
    format_value = solver_module.value_text
    monkeypatch.setattr(solver_module, "value_text", lambda value: formatted.append(value) or format_value(value))
    counts = solver_module.outcome_counts(result)
    assert solver_module.outcome_counts(result) is counts
    assert solver_module.solved_meta(result)["distinct_values"] == len(counts) == 498
    assert formatted == [result.value]
    assert sum(counts.values()) == result.positions == 1476
