"""`gdl solve` without --strong, on a game whose positions repeat through the dice: the search
stops at the first such repetition and every position is solved instead, with the true value
(a search could only score the repetition by the game's rule, where the game goes on)."""

from __future__ import annotations

import gc
import json
import pickle
from fractions import Fraction
from pathlib import Path

import pytest

import gdl
import gdl.cli.solve as solve_command
from gdl.cli import main
from searchers import ChanceCycleMet, expectiminimax, maxn
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
    assert report["move_value_fractions"] == {"flip": "1/3"}
    assert report["stats"]["nodes"] == report["positions"] == COIN_POSITIONS
    assert report["to_move"] == "A" and report["stats"]["seconds"] >= 0


def test_a_searcher_named_searches_as_asked(capsys: pytest.CaptureFixture[str], coin: str) -> None:
    status, out, err = solve(capsys, coin, "--algorithm", "expectiminimax", "--json")
    report = json.loads(out)
    assert status == 0 and err == ""
    assert report["algorithm"] == "expectiminimax" and report["value_fraction"] == "1/4"
    assert report["move_value_fractions"] == {"flip": "1/4"}
    assert report["exact"] is False and "repeat through chance nodes" in report["inexact_reason"]


def test_a_game_too_large_for_memory_is_refused_in_words(capsys: pytest.CaptureFixture[str], coin: str) -> None:
    """A game without tiers is solved in memory up to as many positions as --memory holds
    (1,000 bytes each); past them it stops and says how to go on, rather than fall back to a
    search, which goes round the cycles through the dice again and again (Pig to 10 without
    tiers did not end in 24 minutes); the search is there when named."""
    status, out, err = solve(capsys, coin, "--memory", str(1000 * (COIN_POSITIONS - 1)))
    assert (status, out) == (2, "")
    assert f"\ngdl solve: error: more than {COIN_POSITIONS - 1} positions, as many as " in err
    assert "holds (--memory; about 1,000 bytes each)" in err
    assert "`--algorithm expectiminimax` searches instead" in err
    status, out, err = solve(capsys, coin, "--memory", str(1000 * COIN_POSITIONS), "--json")
    assert json.loads(out)["value_fraction"] == "1/3"
    status, out, err = solve(capsys, coin, "--memory", str(1000 * (COIN_POSITIONS - 1)), "--algorithm",
                             "expectiminimax", "--json")
    assert status == 0 and json.loads(out)["value_fraction"] == "1/4" and json.loads(out)["exact"] is False


@pytest.mark.parametrize("size, why", [("0", "is less than a byte"), ("0.5", "is less than a byte"),
                                       ("-1", "is not a size"), ("2X", "is not a size"), ("lots", "is not a size")])
def test_a_memory_that_is_not_a_size_of_at_least_a_byte_is_refused(capsys: pytest.CaptureFixture[str],
                                                                    size: str, why: str) -> None:
    """`0.5` was taken for 0 bytes, and every game was then too large."""
    with pytest.raises(SystemExit) as stopped:
        main(["solve", "games/nim.gdl", f"--memory={size}"])
    assert stopped.value.code == 2
    assert f"argument --memory: `{size}` {why}: write e.g. 512M or 2G" in capsys.readouterr().err


def test_a_memory_of_hundreds_of_digits_is_only_large(capsys: pytest.CaptureFixture[str]) -> None:
    """It overflowed a float, and argparse showed the traceback."""
    status, out, _ = solve(capsys, "games/nim.gdl", "--memory", "9" * 400, "--json")
    assert status == 0 and json.loads(out)["value"] == 1


def test_a_game_with_tiers_is_solved_whatever_the_memory(capsys: pytest.CaptureFixture[str]) -> None:
    """Tiers hold one tier in memory at a time: --memory does not limit a game with them."""
    status, out, _ = solve(capsys, str(PIG), "-p", "goal=4", "--memory", "1000", "--json")
    report = json.loads(out)
    assert status == 0 and report["exact"] is True and report["stats"]["tiers"] > 0
    assert report["positions"] > 1


@pytest.mark.parametrize("limit", [["--depth", "4"], ["--time", "0.2"], ["--iterations", "50"]],
                         ids=["depth", "time", "iterations"])
def test_a_limited_search_is_a_search(capsys: pytest.CaptureFixture[str], tmp_path: Path, limit: list[str]) -> None:
    path = tmp_path / "coin.gdl"
    path.write_text(COIN + "evaluation = 0\n")  # a depth limit needs it
    _, out, err = solve(capsys, str(path), *limit, "--json")
    report = json.loads(out)
    assert report["algorithm"] != "strong" and report["exact"] is False and "repeat through the dice" not in err


def test_the_solve_starts_on_a_chance_node_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The coin in the air at the start: heads A wins, tails B flips and wins with chance 2/3
    (as A does in the coin game), so A's value is 1/2 - 1/2 (2/3 - 1/3) = 1/3."""
    path = tmp_path / "coin.gdl"
    path.write_text(COIN.replace("flipping = false\n    won", "flipping = true\n    won"))
    status, out, _ = solve(capsys, str(path), "--json")
    report = json.loads(out)
    assert status == 0 and report["exact"] is True and report["value_fraction"] == "1/3"
    assert report["to_move"] is None and report["best_move"] is None and report["principal_variation"] == []
    assert {name: Fraction(value).limit_denominator(10) for name, value in report["move_values"].items()} == {
        "heads": 1, "tails": Fraction(-1, 3)}


def test_a_stop_while_every_position_is_solved_says_there_is_nothing_to_show(
        capsys: pytest.CaptureFixture[str], coin: str, monkeypatch: pytest.MonkeyPatch) -> None:
    def stopped(*args: object, **options: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_command, "solve_strong", stopped)
    status, out, err = solve(capsys, coin, "--json")
    assert status == 130 and out == ""
    assert err.startswith("gdl solve: positions of Coin repeat through the dice")
    assert "gdl solve: interrupted; a solve of every position has no value to show before its end" in err


def test_the_search_is_freed_before_every_position_is_solved(capsys: pytest.CaptureFixture[str], coin: str,
                                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """The search's table, kept alive by its closures' cycles, is collected before the strong
    solve (which turns the collector off) or the search made again."""
    from searchers.table import TranspositionTable

    def tables() -> int:
        return sum(isinstance(thing, TranspositionTable) for thing in gc.get_objects())

    alive: list[int] = []
    solve_strong = solve_command.solve_strong
    monkeypatch.setattr(solve_command, "solve_strong",
                        lambda *args, **options: alive.append(tables()) or solve_strong(*args, **options))
    before = tables()
    assert solve(capsys, coin)[0] == 0
    assert alive == [before]


def test_pig_to_six_is_solved_exactly_without_strong(capsys: pytest.CaptureFixture[str]) -> None:
    """Pig declares tiers: solved tier by tier, exactly (policy iteration), the value the
    value iteration written in test_pig gives (First's 2P - 1)."""
    status, out, _ = solve(capsys, str(PIG), "-p", "goal=6", "--json")
    report = json.loads(out)
    assert status == 0 and report["exact"] is True and report["method"] == "policy iteration"
    assert Fraction(report["value_fraction"]) == Fraction(17, 31)
    assert report["value"] == pytest.approx(2 * pig_win_chance(6) - 1, abs=1e-12)


def test_a_game_of_more_players_with_dice_is_searched_by_max_n(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    """The strong solver is for two players: three players with the coin are searched (max^n),
    not exact, as before, and `--strong` is not offered (it pointed to it)."""
    path = tmp_path / "coin3.gdl"
    path.write_text(COIN.replace("players A, B", "players A, B, C")
                    .replace("mover = other(mover)", "mover = B if mover == A else C if mover == B else A")
                    .replace("utility = 1 if mover == A else -1", "utility = {p: (1 if p == mover else 0) for p in [A, B, C]}"))
    status, out, err = solve(capsys, str(path), "--json")
    report = json.loads(out)
    assert status == 0 and report["algorithm"] == "maxn" and report["exact"] is False
    assert "repeat through the dice" not in err
    # Nor is the strong solver, which refuses more than two players, pointed to.
    assert report["inexact_reason"].endswith("can only score the repetition by the game's repetition rule")
    status, out, _ = solve(capsys, str(path))
    assert status == 0 and "not exact: positions repeat through chance nodes" in out and "strong" not in out


def test_a_cycle_without_dice_on_it_is_searched(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A game with dice whose positions repeat only by moves (each player may pass the turn,
    or roll to end the game: even, A wins): the search's repetition rule is the game's own
    there, so the search answers, exact. Rolling is worth 0 to either player, passing leads
    to a draw by repetition: 0."""
    path = tmp_path / "pass.gdl"
    path.write_text("""game "Pass or roll"
players A, B
symbols roll, pass
state:
    mover = A
    rolling = false
    won = 0
to_move = chance if rolling else mover
moves = [] if rolling else [roll, pass]
outcomes = [(1, 1 / 2), (2, 1 / 2)]
result(m):
    if rolling:
        rolling = false
        won = 1 if m == 2 else -1
    elif m == roll:
        rolling = true
    else:
        mover = other(mover)
terminal = won != 0
utility = won
""")
    status, out, err = solve(capsys, str(path), "--json")
    report = json.loads(out)
    assert status == 0 and report["algorithm"] == "expectiminimax" and report["exact"] is True
    assert report["value"] == 0 and "repeat through the dice" not in err


# A moves `a` or `b` (A wins 1 at once); after `a`, B ends the game (2 for A) or goes `back`
# to the start.  By hand: to the strong solver a position is worth the same whatever came
# before it, so `back` is worth 1 (A then plays `b`) and B takes it: `a` is worth min(2, 1) = 1.
# A search from the start ends a line where a position of it comes back, scored by the
# `repetition` rule (0), as `gdl play` ends the game there: `a` is worth min(2, 0) = 0.  The
# start is worth 1 either way.
BACK_TO_THE_START = """game "Back"
players A, B
symbols start, after_a, won1, won2, a, b, back, finish
state:
    at = start
to_move = A if at == start else B
moves = [a, b] if at == start else [back, finish]
result(m):
    at = after_a if m == a else won1 if m == b else start if m == back else won2
terminal = at == won1 or at == won2
utility = 1 if at == won1 else 2
"""


def test_a_move_back_to_the_start_is_worth_what_each_solver_says_of_a_repetition(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """The strong solver's values are the positions' own (`a` worth 1); a search's are those of
    moves from the start, a return to it scored by the repetition rule (`a` worth 0), both
    exact under their rule (docs/strong.md); the start is worth 1 to both."""
    path = tmp_path / "back.gdl"
    path.write_text(BACK_TO_THE_START)
    searched = json.loads(solve(capsys, str(path), "--json")[1])
    strong = json.loads(solve(capsys, str(path), "--strong", "--json")[1])
    assert (searched["value"], searched["exact"], searched["move_values"]) == (1, True, {"a": 0, "b": 1})
    assert (strong["value"], strong["exact"], strong["move_values"]) == (1, True, {"a": 1, "b": 1})


def test_a_game_of_dice_without_a_cycle_is_searched(capsys: pytest.CaptureFixture[str]) -> None:
    """Hog's scores only grow: the search meets no cycle and is exact, as before (its value,
    goal 5 with 3 dice, from games/hog.gdl's header, proven in tests/games/test_hog.py)."""
    status, out, err = solve(capsys, "games/hog.gdl", "-p", "goal=5", "--json")
    report = json.loads(out)
    assert status == 0 and "repeat" not in err
    assert report["algorithm"] == "expectiminimax" and report["exact"] is True
    assert report["value_fraction"] == "19858307719/39182082048"


def test_expectiminimax_and_maxn_stop_at_the_first_cycle_through_the_dice_when_asked(tmp_path: Path) -> None:
    path = tmp_path / "coin.gdl"
    path.write_text(COIN)
    game = gdl.load(path)
    # A flips, tails, B flips, tails: A is about to flip again, 4 moves down.
    with pytest.raises(ChanceCycleMet, match="repeats through chance nodes 4 moves down") as met:
        expectiminimax(game, table=True, stop_at_chance_cycle=True)
    assert met.value.ply == 4 and pickle.loads(pickle.dumps(met.value)).ply == 4
    assert expectiminimax(game, table=True).value == Fraction(1, 4)
    with pytest.raises(ChanceCycleMet, match="repeats through chance nodes 4 moves down"):
        maxn(game, stop_at_chance_cycle=True)
    assert maxn(game).exact is False
