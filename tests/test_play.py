"""`gdl play`, driven through its standard input as a person would type."""

from __future__ import annotations

import subprocess
import sys


def play(*args: str, typed: str) -> subprocess.CompletedProcess[str]:
    """Run `gdl play` with the given arguments and typed lines."""
    return subprocess.run(
        [sys.executable, "-m", "gdl", "play", *args],
        input=typed, capture_output=True, text=True, timeout=120,
    )


def test_a_human_plays_tictactoe_to_the_end_against_a_perfect_opponent() -> None:
    # "1" always takes the first legal move; the searcher never loses, so O wins or it is a draw.
    done = play("games/tictactoe.gdl", typed="1\n" * 5)
    assert done.returncode == 0
    assert "Traceback" not in done.stderr
    assert "legal moves: 1) (0, 0)  2) (0, 1)" in done.stdout
    assert "O plays" in done.stdout
    assert "Game over: O wins" in done.stdout


def test_illegal_input_is_refused_with_the_legal_moves_and_asked_again() -> None:
    done = play("games/tictactoe.gdl", typed="zz\n(1, 1)\nquit\n")
    assert "`zz` is not a legal move here. Legal moves: (0, 0), (0, 1), (0, 2), (1, 0), (1, 1)" in done.stdout
    assert "X to move> (1, 1)" in done.stdout  # typed by name, echoed
    assert "bye." in done.stdout
    assert done.returncode == 0


def test_hint_and_undo() -> None:
    done = play("games/tictactoe.gdl", typed="hint\n5\nundo\nquit\n")
    assert "hint: (1, 1) (value 0 for X, exact)" in done.stdout
    assert "O plays (0, 0)" in done.stdout
    assert "undone." in done.stdout
    # After the undo the empty board is shown again with all nine moves.
    assert done.stdout.count("legal moves: 1) (0, 0)  2) (0, 1)  3) (0, 2)") == 2


def test_the_searchers_play_each_other_with_as_none() -> None:
    done = play("games/nim.gdl", "-p", "piles=(1, 2)", "--as", "none", typed="")
    assert done.returncode == 0
    assert "First plays take 1 from pile 1" in done.stdout
    assert "Game over: First wins (First scores 1)." in done.stdout


def test_playing_the_second_player() -> None:
    done = play("games/subtraction.gdl", "-p", "stones=3", "--as", "Second", typed="2\n")
    # 3 stones, take 1..2: the first player loses whatever it takes; here it takes 1, we take 2.
    assert "First plays 1  (value -1 for First, exact)" in done.stdout
    assert "legal moves: 1  2" in done.stdout  # the moves are numbers: no list numbers beside them
    assert "Second to move> 2" in done.stdout
    assert "Game over: Second wins (First scores -1)." in done.stdout


def test_an_unknown_player_is_a_usage_error() -> None:
    done = play("games/nim.gdl", "--as", "Nobody", typed="")
    assert done.returncode == 2
    assert "--as takes a player (First, Second) or none, not `Nobody`" in done.stderr
    assert "Traceback" not in done.stderr


def test_when_moves_are_numbers_a_typed_number_is_always_a_move_name() -> None:
    # Connect-k moves are column numbers: typing 1 drops a disc in column 1, never "the first
    # move of the list", even when column 0 is the first legal move.
    done = play("games/connect.gdl", "-p", "rows=2", "-p", "cols=3", "-p", "k=2", typed="1\n")
    assert "legal moves: 0  1  2" in done.stdout
    assert "X to move> 1\n\n. . .\n. X ." in done.stdout
