"""`gdl solve` without --strong, on a game whose positions repeat through the dice: the search
stops at the first such repetition and every position is solved instead, with the true value
(a search could only score the repetition by the game's rule, where the game goes on)."""

from __future__ import annotations

import json
from fractions import Fraction
from pathlib import Path

import pytest

import gdl
import gdl.cli.solve as solve_command
from gdl.cli import main
from searchers import ChanceCycleMet, expectiminimax
from tests.strong.test_pig import PIG, pig_win_chance

# The coin game of the issue: the mover flips a fair coin; heads, the mover wins; tails, the
# flip passes to the other player.  A wins as mover with chance P = 1/2 + (1 - P)/2, so P = 2/3
# and A's value is 2/3 - 1/3 = 1/3.  A search that scores A's second turn by the repetition
# rule (a draw) gets 1/2 - 1/4 = 1/4 instead.
COIN = """game "Coin"
players A, B
symbols flip, heads, tails
state:
    mover = A
    flipping = false
    won = false
to_move = chance if flipping else mover
moves = [] if flipping else [flip]
outcomes = [(heads, 1 / 2), (tails, 1 / 2)]
result(m):
    if flipping:
        flipping = false
        if m == heads:
            won = true
        else:
            mover = other(mover)
    else:
        flipping = true
terminal = won
utility = 1 if mover == A else -1
"""
# Its positions, as (mover, flipping, won): each player about to flip, flipping, and won.
COIN_POSITIONS = 6


@pytest.fixture
def coin(tmp_path: Path) -> str:
    path = tmp_path / "coin.gdl"
    path.write_text(COIN)
    return str(path)


def solve(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    status = main(["solve", *args])
    captured = capsys.readouterr()
    return status, captured.out, captured.err


def test_a_plain_solve_of_the_coin_game_gives_exactly_one_third(capsys: pytest.CaptureFixture[str],
                                                                 coin: str) -> None:
    status, out, err = solve(capsys, coin)
    assert status == 0
    assert "repeat through the dice" in err and "every position is solved instead" in err
    assert out.startswith("Coin: expected value 1/3 (~0.3333) for A\n")
    assert "not exact" not in out and f"positions: {COIN_POSITIONS} reachable" in out
    status, out, _ = solve(capsys, coin, "--json")
    report = json.loads(out)
    assert status == 0 and report["exact"] is True and report["value_fraction"] == "1/3"
    # The search's keys as well as the strong solve's.
    assert report["best_move"] == "flip" and report["principal_variation"] == ["flip"]
    assert report["move_values"] == {"flip": pytest.approx(1 / 3)}
    assert report["stats"]["nodes"] == report["positions"] == COIN_POSITIONS
    assert report["to_move"] == "A" and report["stats"]["seconds"] >= 0


def test_a_searcher_named_searches_as_asked(capsys: pytest.CaptureFixture[str], coin: str) -> None:
    status, out, err = solve(capsys, coin, "--algorithm", "expectiminimax", "--json")
    report = json.loads(out)
    assert status == 0 and err == ""
    assert report["algorithm"] == "expectiminimax" and report["value_fraction"] == "1/4"
    assert report["exact"] is False and "repeat through chance nodes" in report["inexact_reason"]


def test_a_game_too_large_to_hold_is_searched_as_before(capsys: pytest.CaptureFixture[str], coin: str,
                                                        monkeypatch: pytest.MonkeyPatch) -> None:
    """A game without tiers is solved in memory up to a limit of positions; past it the
    search goes on, and says its value is not exact."""
    monkeypatch.setattr(solve_command, "_IN_MEMORY_AT_MOST", COIN_POSITIONS - 1)
    status, out, err = solve(capsys, coin)
    assert status == 0
    assert f"more than {COIN_POSITIONS - 1} positions, too many to solve in memory" in err
    assert out.startswith("Coin: expected value 1/4 (~0.2500) for A  [not exact]\n")


def test_pig_to_six_is_solved_exactly_without_strong(capsys: pytest.CaptureFixture[str]) -> None:
    """Pig declares tiers: solved tier by tier, exactly (policy iteration), the value the
    value iteration written in test_pig gives (First's 2P - 1)."""
    status, out, _ = solve(capsys, str(PIG), "-p", "goal=6", "--json")
    report = json.loads(out)
    assert status == 0 and report["exact"] is True and report["method"] == "policy iteration"
    assert Fraction(report["value_fraction"]) == Fraction(17, 31)
    assert report["value"] == pytest.approx(2 * pig_win_chance(6) - 1, abs=1e-12)


def test_a_game_of_dice_without_a_cycle_is_searched(capsys: pytest.CaptureFixture[str]) -> None:
    """Hog's scores only grow: the search meets no cycle and is exact, as before (its value,
    goal 5 with 3 dice, from games/hog.gdl's header, proven in tests/games/test_hog.py)."""
    status, out, err = solve(capsys, "games/hog.gdl", "-p", "goal=5", "--json")
    report = json.loads(out)
    assert status == 0 and "repeat" not in err
    assert report["algorithm"] == "expectiminimax" and report["exact"] is True
    assert report["value_fraction"] == "19858307719/39182082048"


def test_expectiminimax_stops_at_the_first_cycle_through_the_dice_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "coin.gdl"
    path.write_text(COIN)
    game = gdl.load(path)
    with pytest.raises(ChanceCycleMet, match="repeats through chance nodes"):
        expectiminimax(game, table=True, stop_at_chance_cycle=True)
    assert expectiminimax(game, table=True).value == Fraction(1, 4)
