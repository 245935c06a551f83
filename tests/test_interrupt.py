"""`gdl solve` on a person's terminal: live progress, and Ctrl-C that still answers."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time

import pytest

import gdl
from gdl.cli.solve import ProgressLine
from searchers import Progress
from tests.terminal import ctrl_c_as_in_a_terminal


def test_ctrl_c_stops_a_timed_solve_with_the_best_result_so_far() -> None:
    solve = subprocess.Popen(
        [sys.executable, "-m", "gdl", "solve", "games/connect.gdl", "--time", "120", "--json"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=ctrl_c_as_in_a_terminal,
    )
    time.sleep(4)
    solve.send_signal(signal.SIGINT)
    out, err = solve.communicate(timeout=60)
    assert solve.returncode == 130, err  # the status of a command stopped by Ctrl-C, answer or not
    result = json.loads(out)
    assert result["interrupted"] is True
    assert result["exact"] is False
    assert result["best_move"] in [str(c) for c in range(7)]
    assert result["stats"]["depth"] >= 1
    # Standard error is not a terminal here: no progress line was drawn.
    assert err == ""


def test_an_interrupted_solve_exits_with_status_130_after_printing_its_best_result() -> None:
    solve = subprocess.Popen(
        [sys.executable, "-m", "gdl", "solve", "games/connect.gdl", "--time", "120"],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, preexec_fn=ctrl_c_as_in_a_terminal,
    )
    time.sleep(4)
    solve.send_signal(signal.SIGINT)
    out, err = solve.communicate(timeout=60)
    assert out.splitlines()[0].endswith("[interrupted: the best found so far]")
    assert "best move for X: " in out
    assert solve.returncode == 130, err


def test_the_human_summary_says_the_result_was_interrupted(capsys: pytest.CaptureFixture[str]) -> None:
    from gdl.cli.solve import result_text
    from searchers import alphabeta
    from tests.searchers.test_progress import InterruptAfter

    game = gdl.load("games/connect.gdl", rows=4, cols=5)
    result = alphabeta(InterruptAfter(game, calls=2_000), max_nodes=10**9, table=True, ordering=True)
    text = result_text(game, result)
    assert text.splitlines()[0].endswith("[interrupted: the best found so far]")


def test_the_progress_line_shows_nodes_rate_depth_and_best_move(capsys: pytest.CaptureFixture[str]) -> None:
    line = ProgressLine(gdl.load("games/connect.gdl"))
    line(Progress(nodes=12_000, seconds=2.0, depth=5, best_move=3))
    line.clear()
    err = capsys.readouterr().err
    assert "\r  searching: 12,000 nodes, 6,000/s, 2 s, depth 5, best so far 3 (Ctrl-C stops)" in err
    assert err.endswith("\r\x1b[K")


def test_sigterm_is_an_interruption_only_within_terminate_as_interrupt() -> None:
    """Within it SIGTERM raises Terminated (a KeyboardInterrupt, so that what cleans up after
    Ctrl-C cleans up after it); outside, SIGTERM's handler is the one before."""
    import os

    from gdl.cli.common import Terminated, terminate_as_interrupt

    before = signal.getsignal(signal.SIGTERM)
    with pytest.raises(Terminated):
        with terminate_as_interrupt():
            os.kill(os.getpid(), signal.SIGTERM)
            time.sleep(5)  # the handler raises at once, long before this ends
    assert issubclass(Terminated, KeyboardInterrupt)
    assert signal.getsignal(signal.SIGTERM) == before


def test_ctrl_c_during_the_computers_turn_quits_gdl_play() -> None:
    """Ctrl-C while the computer thinks quits the game, as it does while the game waits for a
    move: it cut the search short and the match went on (connect four, 42 moves of 10 s)."""
    play = subprocess.Popen(
        [sys.executable, "-m", "gdl", "play", "games/connect.gdl", "--as", "none", "--time", "60"],
        stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True,
        preexec_fn=ctrl_c_as_in_a_terminal,
    )
    assert play.stdout is not None
    while not play.stdout.readline().startswith(". . ."):  # the board is drawn: the first search is under way
        assert play.poll() is None
    time.sleep(2)
    started = time.monotonic()
    play.send_signal(signal.SIGINT)
    out, err = play.communicate(timeout=60)
    assert time.monotonic() - started < 30  # well before the 60 s search would have ended
    assert play.returncode == 130
    assert err == "gdl play: interrupted\n"
    assert " plays " not in out  # no move was made with the search cut short
