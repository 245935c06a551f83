"""Tablebases: what `gdl solve --strong --out` writes, read back by `gdl query`, `gdl play
--tablebase` and `gdl.Tablebase`, against a recursion over the hand-written tic-tac-toe."""

from __future__ import annotations

import argparse
import errno
import json
import os
import re
import sqlite3
import subprocess
import sys
from collections import Counter
from contextlib import closing
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest

import gdl
import gdl.cli.solve as solve_command
from gdl.cli import main
from gdl.cli.solve import available_memory, strong_memory
from searchers import SearchError
from searchers.strong import TablebaseError, TablebaseReader, solve_strong, stable_key
from searchers.strong import solver as strong_solver
from searchers.strong.tablebase import TablebaseWriter, marked_as_tablebase
from tests.pygames import TicTacToe
from tests.strong.games import brute_remoteness, reachable

ROOT = Path(__file__).resolve().parents[2]
TICTACTOE = str(ROOT / "games" / "tictactoe.gdl")


def run(capsys: pytest.CaptureFixture[str], *args: str) -> tuple[int, str, str]:
    """`gdl ARGS...` in this process: exit status, standard output and standard error."""
    status = main(list(args))
    captured = capsys.readouterr()
    return status, captured.out, captured.err


@pytest.fixture(scope="module")
def tictactoe_db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """Tic-tac-toe solved into a tablebase."""
    path = tmp_path_factory.mktemp("tb") / "ttt.sqlite"
    assert main(["solve", TICTACTOE, "--strong", "--out", str(path), "--json"]) == 0
    return path


def pygame_state(state: tuple) -> tuple:
    """The hand-written tic-tac-toe's state for a state of the game file."""
    return (tuple("." if c == "empty" else str(c) for c in state.board), str(state.mover))


def test_solve_strong_json_has_the_documented_keys(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """--json: value, exact, positions, terminal, outcomes, remoteness, max_remoteness,
    best_move and stats; the counts are those of a walk over the hand-written game."""
    status, out, _ = run(capsys, "solve", TICTACTOE, "--strong", "--json")
    assert status == 0
    answer = json.loads(out)
    states = reachable(TicTacToe())
    assert answer["positions"] == len(states) == 5478
    assert answer["terminal"] == sum(1 for s in states if TicTacToe().is_terminal(s))
    assert answer["value"] == 0 and answer["exact"] is True
    assert sum(answer["outcomes"].values()) == 5478
    assert answer["remoteness"] == answer["max_remoteness"] == 9
    assert answer["best_move"] in answer["move_values"]
    assert set(answer["stats"]) >= {"seconds", "positions_per_second"}
    # The keys of a search's JSON too, as `gdl solve` gives them when it solves every position
    # by itself: the principal variation is the line of best moves to the end (its moves are
    # proven in tests/strong/test_solver.py), the nodes are the positions.
    assert len(answer["principal_variation"]) == 9 and answer["principal_variation"][0] == answer["best_move"]
    assert answer["stats"]["nodes"] == 5478
    # Tic-tac-toe has tiers: each tier is written as it is solved, no writing timed apart.
    assert answer["stats"]["tiers"] == 10 and answer["stats"]["write_seconds"] is None


def test_a_line_longer_than_the_limit_is_said_to_be_cut(capsys: pytest.CaptureFixture[str]) -> None:
    """Subtraction from 15,002 stones (take 1 or 2): the first player takes 2, then each round
    the loser takes 1 and the winner 2, 15,000 stones in 10,000 plies, 10,001 in all. The
    principal variation stops at 10,000 moves, and says so: `principal_variation_cut` in the
    JSON (false where the line ends), "the game goes on" in the text (which gave the line's
    moves, then "and on: the line is cut there")."""
    subtraction = str(ROOT / "games" / "subtraction.gdl")
    status, out, _ = run(capsys, "solve", subtraction, "-p", "stones=15002", "--strong", "--json")
    answer = json.loads(out)
    assert status == 0 and answer["value"] == 1 and answer["remoteness"] == 1 + 15_000 // 3 * 2
    assert answer["principal_variation"] == ["2"] + ["1", "2"] * 4999 + ["1"]
    assert answer["principal_variation_cut"] is True
    status, out, _ = run(capsys, "solve", subtraction, "-p", "stones=15002", "--strong")
    assert "(10,000 moves in all; --json lists them) (the line is cut there, after 10,000 moves; the game goes on)" in out
    status, out, _ = run(capsys, "solve", subtraction, "-p", "stones=14", "--strong", "--json")
    answer = json.loads(out)
    assert len(answer["principal_variation"]) == answer["remoteness"] == 1 + 12 // 3 * 2
    assert answer["principal_variation_cut"] is False


def test_a_solve_in_memory_times_its_writing(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Without tiers the tablebase is written after the solve: its time is part of the whole."""
    game = str(ROOT / "games" / "subtraction.gdl")
    status, out, _ = run(capsys, "solve", game, "--strong", "--json", "--out", str(tmp_path / "s.sqlite"))
    stats = json.loads(out)["stats"]
    assert status == 0 and stats["tiers"] == 0
    assert 0 < stats["write_seconds"] <= stats["seconds"]
    status, out, _ = run(capsys, "solve", game, "--strong", "--json")
    assert status == 0 and json.loads(out)["stats"]["write_seconds"] == 0  # nothing written


@pytest.mark.parametrize("given, shown", [
    (None, "None"), (5, "5"), ("(1, 1)", "'(1, 1)'"), ((1, 2, 3), "(1, 2, 3)"),
])
def test_the_python_api_says_what_is_no_state(tictactoe_db: Path, given: Any, shown: str) -> None:
    """What is no state of the game (no tuple of its fields) is a TypeError that says what is
    wanted; it was called a position missing from the tablebase, "or the tablebase is
    damaged". A state of the game loaded again from its file is looked up (value 0 after the
    centre, a draw, by the recursion of test_every_position_reads_back_through_the_python_api)."""
    base = gdl.Tablebase(tictactoe_db)
    for ask in (base.value, base.remoteness, base.best_move):
        with pytest.raises(TypeError, match=re.escape(
                "a state of Tic-tac-toe is wanted (a tuple of its 2 fields, as game.initial_state() and "
                f"game.result() give), not {shown}")):
            ask(given)
    again = gdl.load(TICTACTOE)
    assert base.value(again.result(again.initial_state(), (1, 1))) == 0


def test_every_position_reads_back_through_the_python_api(tictactoe_db: Path) -> None:
    """gdl.Tablebase gives every reachable position's value and remoteness as the recursion
    does, and a best move that keeps both."""
    base = gdl.Tablebase(tictactoe_db)
    game = base.game
    brute = brute_remoteness(TicTacToe())
    reader = TablebaseReader(tictactoe_db)
    assert reader.connection.execute("SELECT count(*) FROM positions").fetchone()[0] == 5478
    assert (base.exact, base.residual, base.inexact_reason) == (True, 0.0, None)
    states, frontier = {game.initial_state()}, [game.initial_state()]
    checked = 0
    while frontier:
        state = frontier.pop()
        moves = [] if game.is_terminal(state) else game.actions(state)
        for child in (game.result(state, m) for m in moves):
            if child not in states:
                states.add(child)
                frontier.append(child)
        if len(states) % 7:  # one position in seven is checked, to keep the test quick
            continue
        checked += 1
        value, remoteness = brute(pygame_state(state))
        assert (base.value(state), base.remoteness(state)) == (value, remoteness)
        move = base.best_move(state)
        if game.is_terminal(state):
            assert move is None
            continue
        assert brute(pygame_state(game.result(state, move))) == (value, remoteness - 1)
    assert len(states) == 5478 and checked > 500


def test_query_answers_from_the_tablebase_alone(capsys: pytest.CaptureFixture[str], tictactoe_db: Path,
                                                tmp_path: Path) -> None:
    """`gdl query DB MOVES --json` after X centre, O edge: X wins in 5, and every move's value
    and remoteness are the recursion's; the game file is not needed (the database is copied
    where no game file is)."""
    copy = tmp_path / "copy.sqlite"
    copy.write_bytes(tictactoe_db.read_bytes())
    status, out, _ = run(capsys, "query", str(copy), "(1, 1)", "(0, 1)", "--json")
    assert status == 0
    answer = json.loads(out)
    brute = brute_remoteness(TicTacToe())
    state = ((".", "O", ".", ".", "X", ".", ".", ".", "."), "X")
    assert (answer["value"], answer["remoteness"]) == brute(state) == (10, 5)
    for r, c in ((0, 0), (2, 1)):
        cells = list(state[0])
        cells[3 * r + c] = "X"
        child = brute((tuple(cells), "O"))
        assert (answer["move_values"][f"({r}, {c})"], answer["move_remoteness"][f"({r}, {c})"]) == child
    assert answer["move_values"][answer["best_move"]] == 10
    assert answer["move_remoteness"][answer["best_move"]] == 4


def test_query_takes_moves_among_its_options(capsys: pytest.CaptureFixture[str], tictactoe_db: Path) -> None:
    """Moves may come before, between and after the options, in their order, and are given
    back as the game prints them; an option that does not exist is still refused."""
    status, out, _ = run(capsys, "query", str(tictactoe_db), "--json", "(1,1)", "-p", "size=3", "0,1")
    assert status == 0 and json.loads(out)["moves"] == ["(1, 1)", "(0, 1)"]
    assert json.loads(out)["remoteness"] == 5  # X wins in 5, as above
    with pytest.raises(SystemExit) as stop:
        main(["query", str(tictactoe_db), "(1, 1)", "--jsn"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and "gdl query: error: unrecognized arguments: --jsn (did you mean `--json`?)" in err
    assert err.startswith("usage: gdl query ")  # the command's usage, not gdl's
    with pytest.raises(SystemExit) as stop:
        main(["solve", TICTACTOE, "--stong", "--wrokers=2", "--nothing-like-it"])
    err = capsys.readouterr().err
    assert stop.value.code == 2 and err.startswith("usage: gdl solve ") and err.endswith(
        "gdl solve: error: unrecognized arguments: --stong --wrokers=2 --nothing-like-it "
        "(did you mean `--strong` or `--workers`?)\n")


def test_query_refuses_an_illegal_move_plainly(capsys: pytest.CaptureFixture[str], tictactoe_db: Path) -> None:
    """A move that is not legal ends in the usual error line, exit status 1."""
    status, _, err = run(capsys, "query", str(tictactoe_db), "(1, 1)", "(1, 1)")
    assert status == 1
    assert "error: move 2: `(1, 1)` is not a legal move here" in err


def test_play_from_the_tablebase_wins_and_says_in_how_many(tictactoe_db: Path) -> None:
    """X plays the corner, then a poor edge: O, playing from the tablebase, announces its win
    and its length, then wins."""
    done = subprocess.run(
        [sys.executable, "-m", "gdl", "play", TICTACTOE, "--tablebase", str(tictactoe_db)],
        input="(0, 0)\n(0, 1)\n(2, 2)\n(1, 0)\n", capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "O wins in 1" in done.stdout
    assert "Game over: O wins" in done.stdout


def test_a_tablebase_of_other_parameters_or_another_file_is_refused(
    capsys: pytest.CaptureFixture[str], tictactoe_db: Path
) -> None:
    """Playing a game from a tablebase built with other parameters, or from another file, stops
    with a plain message naming what differs."""
    status, _, err = run(capsys, "play", TICTACTOE, "-p", "size=4", "--tablebase", str(tictactoe_db))
    assert status == 1 and "built with other parameters (size=3), not these (size=4); give -p size=3 to use it" in err
    status, _, err = run(capsys, "play", str(ROOT / "games" / "nim.gdl"), "--tablebase", str(tictactoe_db))
    assert status == 1 and "built from another game file" in err
    base = gdl.Tablebase(tictactoe_db)
    with pytest.raises(gdl.GdlTablebaseError, match="other parameters"):
        base.check_game(gdl.load(TICTACTOE, size=4))
    edited = tictactoe_db.parent / "edited" / "tictactoe.gdl"  # the same file, a comment added since
    edited.parent.mkdir(exist_ok=True)
    edited.write_text(Path(TICTACTOE).read_text(encoding="utf-8") + "# a comment\n", encoding="utf-8")
    status, _, err = run(capsys, "play", str(edited), "--tablebase", str(tictactoe_db))
    assert status == 1 and "built from another text of tictactoe.gdl (the file has changed since" in err
    copied = tictactoe_db.parent / "edited" / "my-tictactoe.gdl"  # a copy of it, edited
    copied.write_text(edited.read_text(encoding="utf-8"), encoding="utf-8")
    status, _, err = run(capsys, "play", str(copied), "--tablebase", str(tictactoe_db))
    assert status == 1 and f'built from another file of "Tic-tac-toe" ({TICTACTOE}), whose text differs' in err


def test_query_checks_only_the_parameters_given(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`gdl query -p` checks the parameters given against the tablebase's and leaves the others
    be: connect on 3x4 (k = 3) answers `-p k=3` and `-p rows=3 -p k=3`, and refuses `-p k=4`,
    naming the parameters it was built with, and `-p row=3`, naming the parameters it has."""
    out = tmp_path / "c34.sqlite"
    connect = str(ROOT / "games" / "connect.gdl")
    assert run(capsys, "solve", connect, "-p", "rows=3", "-p", "cols=4", "-p", "k=3", "--strong", "--out", str(out))[0] == 0
    for given in (["-p", "k=3"], ["-p", "rows=3", "-p", "k=3"]):
        status, printed, _ = run(capsys, "query", str(out), *given, "--json")
        assert status == 0 and json.loads(printed)["value"] == 1
    status, _, err = run(capsys, "query", str(out), "-p", "k=4")
    assert status == 1 and err.endswith(
        "built with other parameters (rows=3, cols=4, k=3), not these (rows=3, cols=4, k=4); give -p k=3 to use it\n")
    # A name the game does not have is said of the tablebase, whose game file may be elsewhere.
    status, _, err = run(capsys, "query", str(out), "-p", "row=3")
    assert status == 1
    assert err == (f"{out}: error: the tablebase's game has no parameter `row`; did you mean `rows`? "
                   "(its parameters: rows, cols, k)\n")
    # A value not written as in the language is said of the tablebase too (it was looked for as a
    # line of the database, read as the game's text).
    for text in ("k=", "k=(1,"):
        status, _, err = run(capsys, "query", str(out), "-p", text)
        assert status == 1
        assert err == f"{out}: error: -p k: `{text[2:]}` is not a value written as in the language (e.g. 5, true, (3, 4, 5))\n"


def test_query_gives_an_exact_value_as_a_fraction_too(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Pig to 5 is solved exactly: `gdl query --json` gives the start's value as the fraction
    `gdl solve --json` gives, and as a float."""
    out = tmp_path / "pig.sqlite"
    status, printed, _ = run(capsys, "solve", str(ROOT / "games" / "pig.gdl"), "-p", "goal=5", "--strong",
                             "--out", str(out), "--json")
    solved = json.loads(printed)
    status, printed, _ = run(capsys, "query", str(out), "--json")
    queried = json.loads(printed)
    assert solved["exact"] and solved["value_fraction"] == queried["value_fraction"] is not None
    assert queried["value"] == float(Fraction(queried["value_fraction"]))
    # Each move's value too: Pig's start has one move, roll, worth the start's value.
    assert solved["move_value_fractions"] == queried["move_value_fractions"] == {"roll": solved["value_fraction"]}
    status, printed, _ = run(capsys, "query", str(out), "roll", "--json")
    dice = json.loads(printed)
    faces = [Fraction(text) if text else Fraction(dice["move_values"][face])  # a whole number: the value says it
             for face, text in dice["move_value_fractions"].items()]
    assert len(faces) == 6 and Fraction(dice["value_fraction"]) == sum(faces) / 6


def test_query_gives_the_bound_of_a_value_found_by_value_iteration(capsys: pytest.CaptureFixture[str],
                                                                   monkeypatch: pytest.MonkeyPatch,
                                                                   tmp_path: Path) -> None:
    """Pig to 5 with policy iteration held back (its 176 positions past the exact limit) is
    solved by value iteration: `gdl query` says the value is not exact and within what, the
    solve's bound (`residual`, in JSON too); the value is within it of the exact 161/271."""
    from searchers.strong import policy

    monkeypatch.setattr(policy, "EXACT_LIMIT", 100)
    out = tmp_path / "pig.sqlite"
    status, printed, _ = run(capsys, "solve", str(ROOT / "games" / "pig.gdl"), "-p", "goal=5", "--strong",
                             "--out", str(out), "--json")
    solved = json.loads(printed)
    assert status == 0 and not solved["exact"] and 0 < solved["residual"] < 1e-9
    status, printed, _ = run(capsys, "query", str(out), "--json")
    queried = json.loads(printed)
    assert (queried["exact"], queried["residual"]) == (False, solved["residual"])
    assert abs(queried["value"] - 161 / 271) <= queried["residual"]
    with gdl.Tablebase(out) as base:  # the Python API says it too
        assert (base.exact, base.residual) == (False, solved["residual"])
        assert base.inexact_reason == "value iteration stops within the tolerance"
        assert abs(base.value(base.game.initial_state()) - 161 / 271) <= base.residual
    with closing(sqlite3.connect(out)) as connection, connection:  # as a tablebase from before the reason was kept
        connection.execute("DELETE FROM meta WHERE name = 'inexact_reason'")
    with gdl.Tablebase(out) as base:
        assert base.inexact_reason == "value iteration stops within the tolerance"
    assert json.loads(run(capsys, "query", str(out), "--json")[1])["inexact_reason"] == base.inexact_reason
    status, printed, _ = run(capsys, "query", str(out))
    assert (f"value 0.5941 for First (not exact, every value within {solved['residual']:.2g}: value iteration "
            "stops within the tolerance)\n") in printed


@pytest.mark.parametrize("old_format", [1, 2])
def test_a_tablebase_of_an_earlier_format_is_refused(capsys: pytest.CaptureFixture[str], tictactoe_db: Path,
                                                     tmp_path: Path, old_format: int) -> None:
    """Format 1 wrote boards cell by cell, format 2 a whole number reached as a fraction as a
    fraction (`1/1`), so their keys are not all the keys this gdl looks up: such a file is
    refused, with what to do, instead of answering "not in the tablebase"."""
    import shutil

    path = tmp_path / "old.sqlite"
    shutil.copy(tictactoe_db, path)
    with sqlite3.connect(path) as connection:
        connection.execute("UPDATE meta SET value = ? WHERE name = 'format'", (str(old_format),))
    status, _, err = run(capsys, "query", str(path))
    assert status == 1
    assert (f"a tablebase of format {old_format}, which this gdl cannot read (it reads format 3); "
            "solve the game again") in err
    with pytest.raises(gdl.GdlTablebaseError, match=f"format {old_format}"):
        gdl.Tablebase(path)


START_KEY = "74027509017305656d707479730158"  # the empty board, X to move (format 3)


@pytest.mark.parametrize("damage, said", [
    ("UPDATE positions SET best = 99", "it gives move 100 as the best of a position with 9 moves"),
    ("UPDATE positions SET value = 'abc'", f"the row of key {START_KEY} holds value 'abc', remoteness 9"),
    ("UPDATE positions SET value = '1/0'", "holds value '1/0'"),
    ("UPDATE positions SET value = x'00'", "holds value b'\\x00'"),
    ("UPDATE positions SET remoteness = 'x'", "remoteness 'x', best move 0"),
    ("UPDATE positions SET best = -3", "best move -3"),
    ("UPDATE meta SET value = '[]' WHERE name = 'params'", "its metadata does not hold its game's file name"),
    ("DELETE FROM meta WHERE name = 'params'", "its metadata does not hold its game's file name"),
    # One character of the game's text changed: its own error was blamed on the game file.
    ("UPDATE meta SET value = replace(value, 'won(X)', 'wan(X)') WHERE name = 'game_text'",
     "the game text it holds is not the text it was built from (their SHA-256 differ)"),
    (f"DELETE FROM positions WHERE key = x'{START_KEY}'",
     "this position is not in the tablebase: every position reached from the start by legal moves is, so "
     "either this one cannot be reached, or the tablebase is damaged (rows lost)"),
])
def test_a_damaged_tablebase_is_said_to_be(capsys: pytest.CaptureFixture[str], tictactoe_db: Path,
                                           tmp_path: Path, damage: str, said: str) -> None:
    """Rows and metadata changed behind gdl's back (a best move past the position's moves, a
    value that is no number, a remoteness that is no count, parameters that are no map, the
    start's row gone) are said of the tablebase by `gdl query`, `gdl play` and the Python API,
    never an internal error."""
    import shutil

    path = tmp_path / "damaged.sqlite"
    shutil.copy(tictactoe_db, path)
    assert stable_key(gdl.load(TICTACTOE).initial_state()).hex() == START_KEY
    with sqlite3.connect(path) as connection:
        connection.execute(damage)
    status, out, err = run(capsys, "query", str(path))
    assert (status, out) == (1, "") and err.startswith(f"{path}: error: ") and said in err
    status, _, err = run(capsys, "play", TICTACTOE, "--tablebase", str(path), "--as", "none")
    assert status == 1 and said in err and "internal error" not in err
    with pytest.raises(gdl.GdlTablebaseError, match="damaged"):
        base = gdl.Tablebase(path)
        base.value(base.game.initial_state()), base.best_move(base.game.initial_state())


def test_an_interrupted_build_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C while the positions are written: exit status 130, and the half-written file is
    refused by query and by the Python API as incomplete, never read."""
    path = tmp_path / "stopped.sqlite"
    written = strong_solver.TablebaseWriter.add

    def add_then_stop(self: object, rows: object, commit: bool = True) -> None:
        written(self, rows)  # committed, whatever the solve asks: a file half written
        raise KeyboardInterrupt

    monkeypatch.setattr(strong_solver.TablebaseWriter, "add", add_then_stop)
    monkeypatch.setattr(strong_solver, "_WRITE_CHUNK", 1000)
    status, _, err = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(path))
    assert status == 130 and "left incomplete" in err
    monkeypatch.undo()
    rows = sqlite3.connect(path).execute("SELECT count(*) FROM positions").fetchone()[0]
    assert 0 < rows < 5478
    status, _, err = run(capsys, "query", str(path))
    assert status == 1 and "this tablebase is incomplete" in err
    with pytest.raises(gdl.GdlTablebaseError, match="incomplete"):
        gdl.Tablebase(path)


def test_a_build_stopped_with_rows_not_yet_committed_is_refused(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A solve by tiers commits its rows every 65,536, not every tier: Ctrl-C after tic-tac-toe's
    last tiers are written but not committed leaves a sound SQLite file, which query and the
    Python API refuse as incomplete, and a second solve rebuilds whole (5,478 positions)."""
    from searchers.strong import tiers

    path = tmp_path / "stopped.sqlite"
    written = strong_solver.TablebaseWriter.add
    calls: list[bool] = []

    def add_then_stop(self: Any, rows: Any, commit: bool = True) -> None:
        written(self, rows, commit)
        calls.append(commit)
        if len(calls) == 5:
            assert self.uncommitted > 0  # rows in the file's open transaction
            raise KeyboardInterrupt

    monkeypatch.setattr(tiers.TablebaseWriter, "add", add_then_stop)
    status, _, err = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(path))
    assert status == 130 and "left incomplete" in err and calls == [False] * 5
    monkeypatch.undo()
    assert sqlite3.connect(path).execute("PRAGMA integrity_check").fetchone() == ("ok",)
    status, _, err = run(capsys, "query", str(path))
    assert status == 1 and "this tablebase is incomplete" in err
    with pytest.raises(gdl.GdlTablebaseError, match="incomplete"):
        gdl.Tablebase(path)
    status, out, _ = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(path))
    assert status == 0 and "5,478 reachable" in out
    assert gdl.Tablebase(path).value(gdl.load(TICTACTOE).initial_state()) == 0


def test_the_tablebase_records_the_game_and_how_it_was_solved(tictactoe_db: Path) -> None:
    """The metadata: the file's text and its SHA-256, the parameters, counts and method."""
    import hashlib

    meta = TablebaseReader(tictactoe_db).meta
    text = Path(TICTACTOE).read_text(encoding="utf-8")
    assert meta["game_text"] == text
    assert meta["game_sha256"] == hashlib.sha256(text.encode()).hexdigest()
    assert meta["params"] == {"size": "3"}
    assert (meta["positions"], meta["terminal"], meta["exact"]) == (5478, 958, True)
    assert meta["method"] == "backward induction" and meta["complete"] is True
    assert meta["title"] == "Tic-tac-toe" and meta["gdl_version"]
    solve = brute_remoteness(TicTacToe())
    by_value = Counter(str(solve(state)[0]) for state in reachable(TicTacToe()))
    assert meta["outcomes"] == dict(by_value) and meta["distinct_values"] == 3


def test_a_tablebase_of_many_values_leaves_their_counts_out(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Pig to 5's 176 positions have 38 different values (Pig to 100's 1,922,976 have 932,178):
    past ``OUTCOMES_KEPT`` of them the metadata says how many there are, and leaves their
    counts to --json, which lists them all."""
    monkeypatch.setattr(strong_solver, "OUTCOMES_KEPT", 37)
    out = tmp_path / "pig.sqlite"
    status, printed, _ = run(capsys, "solve", str(ROOT / "games" / "pig.gdl"), "-p", "goal=5", "--strong",
                             "--out", str(out), "--json")
    assert status == 0
    answer = json.loads(printed)
    assert len(answer["outcomes"]) == 38 and sum(answer["outcomes"].values()) == answer["positions"] == 176
    meta = gdl.Tablebase(out).meta
    assert "outcomes" not in meta and meta["distinct_values"] == 38 and meta["positions"] == 176


def test_stable_keys_are_the_same_bytes_in_another_process() -> None:
    """A position's key does not depend on the process (Python salts string hashes)."""
    state = gdl.load(TICTACTOE).initial_state()
    code = ("import gdl, sys; from searchers.strong import stable_key; "
            f"sys.stdout.write(stable_key(gdl.load({TICTACTOE!r}).initial_state()).hex())")
    for seed in ("1", "2"):
        other = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True,
                               env={"PYTHONHASHSEED": seed, "PATH": ""}, timeout=60)
        assert other.stdout == stable_key(state).hex()
    assert stable_key({"b": 1, "a": 2}) == stable_key({"a": 2, "b": 1})
    assert len({stable_key(v) for v in (1, "1", (1,), [1], True, 1.0, None, (), "")}) == 9


def test_a_tablebase_that_cannot_be_written_is_a_plain_error(capsys: pytest.CaptureFixture[str],
                                                            tmp_path: Path) -> None:
    """--out in a folder that does not exist, or beside a folder named as its lock file: a
    one-line error that says why, no traceback."""
    out = tmp_path / "no" / "t.sqlite"
    status, _, err = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(out))
    assert status == 2 and f"error: cannot write {out}: No such file or directory ({out.parent})" in err
    assert "Traceback" not in err
    out = tmp_path / "t.sqlite"
    Path(f"{out}.lock").mkdir()  # where the lock file goes: the error named the folder it is in, "."
    status, _, err = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(out))
    assert (status, err) == (2, f"gdl solve: error: cannot write {out}: {out}.lock is a folder, where a solve keeps "
                                "its lock file; move it, or name another tablebase\n")


def test_a_full_disk_under_a_solve_in_memory_leaves_no_file_to_refuse(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A tablebase written without a journal that the disk cannot take may be no database at
    all: it was left, called "nothing was written", and the same solve then refused it as
    another file. Now it is removed, and the solve made again writes it."""
    from searchers.strong.tablebase import TablebaseWriter

    out, subtraction = tmp_path / "t.sqlite", str(ROOT / "games" / "subtraction.gdl")  # without tiers
    add = TablebaseWriter.add

    def full(self: TablebaseWriter, rows: Any, commit: bool = True) -> None:
        add(self, rows, commit)
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(TablebaseWriter, "add", full)
    status, _, err = run(capsys, "solve", subtraction, "--strong", "--out", str(out))
    assert status == 2
    assert f"cannot write the tablebase: database or disk is full; nothing was written to {out}" in err
    assert not out.exists()
    monkeypatch.setattr(TablebaseWriter, "add", add)
    assert run(capsys, "solve", subtraction, "--strong", "--out", str(out))[0] == 0
    # 15 stones, 1 or 2 a move: a multiple of 3 loses for the mover, so First loses.
    assert TablebaseReader(out).get(stable_key(gdl.load(subtraction).initial_state()))[0] == -1


def test_a_second_solve_into_the_same_tablebase_is_refused(capsys: pytest.CaptureFixture[str],
                                                           tmp_path: Path) -> None:
    """While a solve writes a tablebase (it holds the lock beside it), another solve into the
    same file is refused before it deletes anything; the lock file goes with the solve."""
    from searchers.strong.tablebase import held_for_writing

    out = tmp_path / "t.sqlite"
    assert run(capsys, "solve", TICTACTOE, "--strong", "--out", str(out))[0] == 0
    assert not Path(f"{out}.lock").exists()
    before = out.read_bytes()
    writing = sqlite3.connect(out)
    writing.execute("BEGIN EXCLUSIVE")  # as the other solve does while it copies rows in
    with held_for_writing(out):
        status, _, err = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(out), "--workers", "2")
    writing.rollback()
    writing.close()
    assert status == 2 and f"error: another solve is writing {out}" in err
    assert out.read_bytes() == before and gdl.Tablebase(out).meta["positions"] == 5478
    assert sorted(path.name for path in tmp_path.iterdir()) == ["t.sqlite"]


def test_a_solve_whose_workers_cannot_start_leaves_the_tablebase_as_it_was(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--ray without Ray installed (or a cluster out of reach): the error, and the tablebase at
    --out as it was, complete or not, with nothing left beside it; without --out, no temporary
    folder left."""
    from searchers.results import SearchError
    from searchers.strong import tiers as tiers_module

    out = tmp_path / "t.sqlite"
    assert run(capsys, "solve", TICTACTOE, "--strong", "--out", str(out))[0] == 0
    before = out.read_bytes()

    def no_ray(*args: Any, **kwargs: Any) -> Any:
        raise SearchError("--ray needs Ray: pip install 'gdl[ray]'")

    monkeypatch.setattr(tiers_module, "make_runner", no_ray)
    status, _, err = run(capsys, "solve", TICTACTOE, "--strong", "--ray", "auto", "--out", str(out))
    assert status == 2 and err == "gdl solve: error: --ray needs Ray: pip install 'gdl[ray]'\n"
    assert out.read_bytes() == before and gdl.Tablebase(out).meta["positions"] == 5478
    assert sorted(path.name for path in tmp_path.iterdir()) == ["t.sqlite"]
    # An unfinished tablebase there is left as it was too (a failed solve deletes only the file
    # it began writing), and said to be.
    with sqlite3.connect(out) as connection:
        connection.execute("UPDATE meta SET value = 'false' WHERE name = 'complete'")
    connection.close()
    before = out.read_bytes()
    status, _, err = run(capsys, "solve", TICTACTOE, "--strong", "--ray", "auto", "--out", str(out))
    assert status == 2 and err.endswith("gdl solve: error: --ray needs Ray: pip install 'gdl[ray]'\n")
    assert out.read_bytes() == before
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    monkeypatch.setattr(tiers_module.tempfile, "tempdir", str(scratch))
    assert run(capsys, "solve", TICTACTOE, "--strong", "--ray", "auto")[0] == 2
    assert list(scratch.iterdir()) == []


def test_a_move_listed_twice_is_said_to_be_listed_twice_not_to_need_a_name(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Twenty-one whose `moves` lists 1 twice: the solve merges the two (5 counters, taking 1
    to 3, whoever takes the last loses: 5 is 4k + 1, a loss for the player to move), and where
    a name must name one move the error says the move is listed twice, which no `move_name`
    could mend."""
    game = tmp_path / "twice.gdl"
    game.write_text(Path("docs/tutorial/twentyone.gdl").read_text().replace(
        "moves = [n for n in [1, 2, 3] if n <= left]", "moves = [n for n in [1, 1, 2, 3] if n <= left]"))
    assert "[1, 1, 2, 3]" in game.read_text()
    twice = ("a position lists the move `1` twice: `moves` must list each move once (`gdl check --deep` finds such "
             "positions)")
    # Said at `moves`, as `gdl check --deep` says it.
    at_moves = f"{game}:11:1: error: {twice}\n    moves = [n for n in [1, 1, 2, 3] if n <= left]\n    ^\n"
    status, printed, err = run(capsys, "solve", str(game), "-p", "counters=5", "--json")
    assert (status, printed) == (1, "") and err == at_moves
    out = tmp_path / "twice.sqlite"
    status, printed, err = run(capsys, "solve", str(game), "-p", "counters=5", "--strong", "--out", str(out))
    assert status == 0 and "Twenty-one: Bob wins (value -1)" in printed
    assert err.startswith(f"gdl solve: note: {twice}; `gdl query` will refuse such a position")
    status, printed, err = run(capsys, "query", str(out))
    assert (status, printed) == (1, "") and err == at_moves


def test_moves_printed_the_same_are_an_error_where_a_name_must_name_one(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A game whose `move_name` prints a take of one stone from either heap as `take 1`: the
    solve's value stands (two heaps of 2, equal: a loss for the player to move, Bouton's rule),
    but JSON's `move_values`, a tablebase's list of moves and a typed move would each name one
    of two moves: each is an error that says so, never one move's answer for the other's."""
    game = tmp_path / "take.gdl"
    game.write_text("""game "Take"
players First, Second
state:
    piles = (2, 2)
    mover = First
to_move = mover
moves = [(h, n) for h in range(len(piles)) for n in range(1, piles[h] + 1)]
result(m):
    piles[m[0]] -= m[1]
    mover = other(mover)
terminal = all(p == 0 for p in piles)
utility = 1 if mover == Second else -1
def move_name(m) = "take " + str(m[1])
""")
    out = tmp_path / "take.sqlite"
    status, printed, err = run(capsys, "solve", str(game), "--strong", "--out", str(out))
    assert status == 0 and "Take: Second wins (value -1)" in printed
    shared = ("two moves of one position print as `take 1`: the game's `move_name` must tell them apart "
              "(`gdl check --deep` finds such positions)")
    assert err == (f"gdl solve: note: {shared}; `gdl query` will refuse such a position (`gdl play` asks for the "
                   "move's number there)\n")
    # A rule of the start that fails is the game's error, never such a note.
    failing = tmp_path / "failing.gdl"
    failing.write_text(game.read_text().replace("mover = First\n", "mover = First\n    zero = 0\n", 1)
                       .replace("moves = [", "moves = [(1 // zero, 1)] + ["))
    status, printed, err = run(capsys, "solve", str(failing), "--strong", "--out", str(tmp_path / "failing.sqlite"))
    assert (status, printed) == (1, "") and err.startswith(f"{failing}:8:11: error: division by zero\n")  # at `1 // zero`
    assert "note" not in err
    status, printed, err = run(capsys, "solve", str(game), "--strong", "--json")
    assert (status, printed) == (1, "") and err.startswith(f"{game}:13:5: error: {shared}\n    def move_name(m)")
    # The start's own moves clash: JSON could not name them, so nothing is solved or written.
    unwritten = tmp_path / "unwritten.sqlite"
    status, printed, err = run(capsys, "solve", str(game), "--strong", "--json", "--out", str(unwritten))
    assert (status, printed) == (1, "") and shared in err and not unwritten.exists()
    status, printed, err = run(capsys, "query", str(out))
    assert (status, printed) == (1, "") and shared in err
    base = gdl.Tablebase(out)
    with pytest.raises(gdl.GdlError, match=r"`take1` could be any of 2 moves here \(`take 1`, `take 1`\): their "
                       "names read the same when typed, so the game's `move_name` must tell them apart$"):
        base.game.parse_move(base.game.initial_state(), "take1")
    # Names that differ only in case: the one typed exactly is taken; typed otherwise, neither.
    cased = gdl.loads(game.read_text().replace('"take " + str(m[1])', '("t" if m[0] == 0 else "T") + str(m[1])'))
    start = cased.initial_state()
    assert (cased.parse_move(start, "t1"), cased.parse_move(start, " T1")) == ((0, 1), (1, 1))
    with pytest.raises(gdl.GdlError, match="`t 1` could be any of 2 moves here"):
        cased.parse_move(start, "t 1")


def test_a_solve_by_tiers_that_fills_the_disk_leaves_no_file(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk full while a solve by tiers writes its rows: written without a journal, the file
    may be no database at all (refused as another file by the next solve, which would not
    rebuild it): it is deleted, and the error says nothing was written; the next solve writes
    the tablebase whole (5,478 tic-tac-toe positions, counted by a walk above)."""
    from searchers.strong import tiers

    path = tmp_path / "full.sqlite"
    written = tiers.TablebaseWriter.add

    def add_then_fill(self: Any, rows: Any, commit: bool = True) -> None:
        written(self, rows, commit)
        raise sqlite3.OperationalError("database or disk is full")

    monkeypatch.setattr(tiers.TablebaseWriter, "add", add_then_fill)
    status, _, err = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(path))
    assert (status, err) == (2, "gdl solve: error: cannot write the tablebase: database or disk is full; nothing was "
                                f"written to {path}\n")
    assert not path.exists()
    monkeypatch.undo()
    assert run(capsys, "solve", TICTACTOE, "--strong", "--out", str(path))[0] == 0
    assert gdl.Tablebase(path).meta["positions"] == 5478


def torn(path: Path) -> None:
    """Tear the file at ``path`` as a kill in the middle of a commit without a journal may: the
    header whole (one write of the first page), every page after it junk."""
    data = path.read_bytes()
    page = int.from_bytes(data[16:18], "big")
    path.write_bytes(data[:page] + b"\xff" * (len(data) - page))


def test_a_tablebase_torn_by_a_kill_is_refused_as_incomplete_and_rebuilt(
        capsys: pytest.CaptureFixture[str], tictactoe_db: Path, tmp_path: Path) -> None:
    """A solve killed while SQLite writes its rows (which go in without a journal) may leave the
    file torn, unreadable as SQLite: the header marks it a solve's, so query and the Python API
    say it was left damaged and is to be solved again, and the next solve rebuilds it (5,478
    positions) and says it begins again; an SQLite file torn alike that no solve made is still
    refused, left as it was."""
    import shutil

    path = tmp_path / "torn.sqlite"
    shutil.copy(tictactoe_db, path)
    torn(path)
    with pytest.raises(sqlite3.DatabaseError, match="malformed"):
        sqlite3.connect(path).execute("SELECT * FROM meta").fetchall()
    status, out, err = run(capsys, "query", str(path))
    assert (status, out) == (1, "")
    assert err == (f"{path}: error: a tablebase left damaged (database disk image is malformed): its build was killed "
                   "while it wrote, most likely; solve the game into it again to rebuild it\n")
    with pytest.raises(gdl.GdlTablebaseError, match="left damaged"):
        gdl.Tablebase(path)
    status, out, err = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(path))
    assert status == 0 and "5,478 reachable" in out
    assert err == (f"gdl solve: note: {path} is a tablebase whose build did not finish; a solve does not resume it, but "
                   "begins again\n")
    assert gdl.Tablebase(path).meta["positions"] == 5478
    assert run(capsys, "solve", TICTACTOE, "--strong", "--out", str(path))[2] == ""  # complete: nothing to say

    other = tmp_path / "other.sqlite"
    with sqlite3.connect(other) as connection:
        connection.executescript("CREATE TABLE notes (line TEXT); INSERT INTO notes VALUES ('kept');")
    connection.close()
    other.write_bytes(other.read_bytes() + bytes(4096))  # a second page, to tear
    torn(other)
    before = other.read_bytes()
    status, out, err = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(other))
    assert (status, out) == (2, "") and f"{other} is not a tablebase, so a tablebase is not written over it" in err
    assert other.read_bytes() == before


def test_a_tablebase_its_solve_holds_locked_is_said_to_be_written_not_damaged(
        tictactoe_db: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A reader that meets the tablebase locked by the solve writing it (a long transaction)
    says a solve is writing it, not that it was left damaged by a kill; once the solve lets it
    go, it reads (5,478 positions)."""
    import shutil

    from searchers.strong.tablebase import held_for_writing

    path = tmp_path / "busy.sqlite"
    shutil.copy(tictactoe_db, path)
    connect = sqlite3.connect
    monkeypatch.setattr(sqlite3, "connect", lambda *args, **options: connect(*args, **{**options, "timeout": 0.1}))
    writing = connect(path, isolation_level=None)
    writing.execute("BEGIN EXCLUSIVE")
    with held_for_writing(path):
        with pytest.raises(TablebaseError, match="^a solve is writing this tablebase now: read it once the solve "
                                                 "has ended$"):
            TablebaseReader(path)
    writing.execute("ROLLBACK")
    writing.close()
    assert TablebaseReader(path).meta["positions"] == 5478


def test_a_database_of_another_program_with_a_meta_table_is_not_written_over(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """An SQLite file with a `meta` table holding a `format` row, as a tablebase's, but tables
    of its own too, is another program's: refused, left as it was (it was written over, its
    table lost); a tablebase of a gdl from before the mark in the header (its format and
    whether it is complete in `meta`, no other table but SQLite's own) is still rebuilt.  Named
    as the file a solve writes beside a complete tablebase (`NAME.new`), the other program's
    file is in the way, not deleted."""
    other = tmp_path / "app.sqlite"
    with closing(sqlite3.connect(other)) as connection, connection:
        connection.executescript("CREATE TABLE meta (name, value); INSERT INTO meta VALUES ('format', '3');"
                                 "INSERT INTO meta VALUES ('complete', 'true'); CREATE TABLE important (x);")
    before = other.read_bytes()
    status, out, err = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(other))
    assert (status, out) == (2, "") and f"{other} is not a tablebase, so a tablebase is not written over it" in err
    assert other.read_bytes() == before
    unmarked = tmp_path / "old.sqlite"
    with closing(sqlite3.connect(unmarked)) as connection, connection:
        connection.executescript("CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);"
                                 "INSERT INTO meta VALUES ('format', '2'), ('complete', 'false');"
                                 "CREATE TABLE positions (key BLOB PRIMARY KEY, value, remoteness, best);")
    with closing(sqlite3.connect(unmarked)) as connection:
        connection.execute("ANALYZE")  # SQLite's own table of statistics: still a tablebase's file
    assert not marked_as_tablebase(unmarked)
    status, out, _ = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(unmarked))
    assert status == 0 and TablebaseReader(unmarked).meta["positions"] == 5478
    # Named as the new tablebase that replaces a complete one is written (NAME.new), a file
    # with a format in its `meta` and a table of its own is kept too (it was deleted).
    beside = Path(f"{unmarked}.new")
    with closing(sqlite3.connect(beside)) as connection, connection:
        connection.executescript("CREATE TABLE meta (name, value); INSERT INTO meta VALUES ('format', '3');"
                                 "INSERT INTO meta VALUES ('complete', 'false'); CREATE TABLE important (x);")
    kept = beside.read_bytes()
    status, out, err = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(unmarked))
    assert (status, out) == (2, "") and f"{beside} is in the way" in err and "that one is not a tablebase" in err
    assert beside.read_bytes() == kept


def test_metadata_that_is_no_text_is_no_tablebase(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A `meta` table whose values are numbers, not JSON text, is not a gdl tablebase: said so
    by query and the Python API (it was an internal error, a TypeError of json)."""
    path = tmp_path / "numbers.sqlite"
    with closing(sqlite3.connect(path)) as connection, connection:
        connection.executescript("CREATE TABLE meta (name, value); INSERT INTO meta VALUES ('format', 3);")
    status, out, err = run(capsys, "query", str(path))
    assert (status, out) == (1, "")
    assert err == f"{path}: error: not a gdl tablebase (its metadata is not text)\n"
    with pytest.raises(gdl.GdlTablebaseError, match="not a gdl tablebase"):
        gdl.Tablebase(path)


def test_a_build_stopped_before_its_first_metadata_is_incomplete(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C between the file's tables and their first rows (its format): the file, marked as
    a solve's, is refused as incomplete (it was "a tablebase of format None, which this gdl cannot
    read"), as the solve's last words say. Ctrl-C before the tables leaves an empty file, which
    no reader takes for a tablebase, and the solve's last words say that solving again writes
    over it (they said to remove it first)."""
    path = tmp_path / "early.sqlite"

    def stop(self: object, meta: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(TablebaseWriter, "_set", stop)
    status, _, err = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(path))
    monkeypatch.undo()
    assert status == 130 and f"{path} is left incomplete and will be refused until solved again" in err
    assert marked_as_tablebase(path) and sqlite3.connect(path).execute("SELECT count(*) FROM meta").fetchone() == (0,)
    status, out, err = run(capsys, "query", str(path))
    assert (status, out) == (1, "") and "this tablebase is incomplete: its build stopped or failed before the end" in err
    status, out, _ = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(path))
    assert status == 0 and TablebaseReader(path).meta["positions"] == 5478

    empty = tmp_path / "empty.sqlite"
    opened = TablebaseWriter._opened

    def open_then_stop(path: Path) -> sqlite3.Connection:
        opened(path).close()
        raise KeyboardInterrupt

    monkeypatch.setattr(TablebaseWriter, "_opened", staticmethod(open_then_stop))
    status, _, err = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(empty))
    monkeypatch.undo()
    assert status == 130 and empty.stat().st_size == 0
    assert err.endswith(f"{empty} is left unreadable (not a gdl tablebase (no such table: meta)); "
                        "solving again writes over it\n")
    status, out, _ = run(capsys, "solve", TICTACTOE, "--strong", "--out", str(empty))
    assert status == 0 and TablebaseReader(empty).meta["positions"] == 5478


def test_a_tablebase_begun_while_its_solve_holds_it_is_being_written(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """A tablebase whose tables are made but not yet its first metadata, while its solve holds
    it: being written, not stopped (and once let go, incomplete)."""
    from searchers.strong.tablebase import IncompleteTablebase, held_for_writing

    path = tmp_path / "begun.sqlite"
    monkeypatch.setattr(TablebaseWriter, "_set", lambda self, meta: None)
    with held_for_writing(path):
        TablebaseWriter(path).close()
        with pytest.raises(IncompleteTablebase, match="^a solve is writing this tablebase now"):
            TablebaseReader(path)
    with pytest.raises(IncompleteTablebase, match="^this tablebase is incomplete"):
        TablebaseReader(path)


def test_a_tablebase_without_the_hash_of_its_text_is_checked_by_its_text(capsys: pytest.CaptureFixture[str],
                                                                         tmp_path: Path) -> None:
    """A tablebase whose metadata has its game's text but not its hash (a `meta=` of one's own)
    opens, and is taken for the game of that text, with other parameters refused as such (it
    was said to be another text of the file)."""
    out = tmp_path / "nim.sqlite"
    nim = str(ROOT / "games" / "nim.gdl")
    assert run(capsys, "solve", nim, "--strong", "--out", str(out))[0] == 0
    with closing(sqlite3.connect(out)) as connection, connection:
        connection.execute("DELETE FROM meta WHERE name = 'game_sha256'")
    assert run(capsys, "query", str(out))[0] == 0
    gdl.Tablebase(out).check_game(gdl.load(nim))
    status, _, err = run(capsys, "query", str(out), "-p", "misere=true")
    assert status == 1 and "the tablebase was built with other parameters" in err


def test_a_file_that_is_not_a_tablebase_is_never_written_over(capsys: pytest.CaptureFixture[str],
                                                               tmp_path: Path) -> None:
    """--out naming the game file itself (or any file but a tablebase, or a folder) is refused
    before the solve, the file left as it was; a tablebase there, even one left incomplete, is
    rebuilt, unless it is the complete tablebase of another game."""
    game = tmp_path / "tictactoe.gdl"
    text = Path(TICTACTOE).read_text(encoding="utf-8")
    game.write_text(text, encoding="utf-8")
    status, out, err = run(capsys, "solve", str(game), "--strong", "--out", str(game))
    assert status == 2 and out == ""
    assert err == (f"gdl solve: error: {game} is not a tablebase, so a tablebase is not written over it; "
                   "name a new file (or a tablebase to rebuild), or remove that one first\n")
    assert game.read_text(encoding="utf-8") == text
    status, out, err = run(capsys, "solve", str(game), "--strong", "--out", str(tmp_path))
    assert (status, out) == (2, "")
    assert err == f"gdl solve: error: {tmp_path} is a folder; name a tablebase file (in it, say: {tmp_path / 'game.sqlite'})\n"
    assert run(capsys, "solve", str(game), "--strong", "--out", "")[:3:2] == (2, "gdl solve: error: --out needs a file name\n")
    assert run(capsys, "query", str(tmp_path))[:3:2] == (1, f"{tmp_path}: error: this is a folder, not a tablebase file\n")
    rebuilt = tmp_path / "ttt.sqlite"
    rebuilt.touch()  # an empty file: nothing to lose
    for _ in range(2):
        assert run(capsys, "solve", str(game), "--strong", "--out", str(rebuilt))[0] == 0
    with sqlite3.connect(rebuilt) as connection:
        connection.execute("UPDATE meta SET value = 'false' WHERE name = 'complete'")
    assert run(capsys, "solve", str(game), "--strong", "--out", str(rebuilt))[0] == 0
    assert gdl.Tablebase(rebuilt).meta["positions"] == 5478
    # Another game's complete tablebase is kept (Nim went over tic-tac-toe's in silence); the
    # same game with other parameters, or an incomplete tablebase of another game, is rebuilt.
    nim = str(ROOT / "games" / "nim.gdl")
    assert run(capsys, "solve", nim, "--strong", "--out", str(rebuilt)) == (
        2, "", f"gdl solve: error: {rebuilt} holds the tablebase of another game, \"Tic-tac-toe\", so it is not "
               "written over; name a new file, or remove that one first\n")
    assert gdl.Tablebase(rebuilt).meta["positions"] == 5478
    from searchers.strong import solve_strong  # from Python, with no metadata: the game's own title
    with pytest.raises(TablebaseError, match="holds the tablebase of another game, \"Tic-tac-toe\""):
        solve_strong(gdl.load(nim), out=rebuilt)
    assert gdl.Tablebase(rebuilt).meta["positions"] == 5478
    assert run(capsys, "solve", str(game), "--strong", "--out", str(rebuilt), "-p", "size=3")[0] == 0
    with sqlite3.connect(rebuilt) as connection:
        connection.execute("UPDATE meta SET value = 'false' WHERE name = 'complete'")
    assert run(capsys, "solve", nim, "--strong", "--out", str(rebuilt))[0] == 0
    assert gdl.Tablebase(rebuilt).meta["title"] == "Nim"


@pytest.mark.parametrize("name, before, after, positions", [
    ("connect.gdl", {"rows": 3, "cols": 3, "k": 3}, {"rows": 4, "cols": 3, "k": 3}, (694, 2_715)),  # by tiers
    ("subtraction.gdl", {"stones": 15}, {"stones": 30}, (30, 60)),  # in memory: stones left, player to move
])
def test_a_complete_tablebase_is_replaced_only_by_a_complete_one(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
        name: str, before: dict[str, int], after: dict[str, int], positions: tuple[int, int]) -> None:
    """A solve into the complete tablebase of the same game with other parameters (a `-p`
    forgotten) writes the new one beside it: stopped, it leaves the old one as it was, complete,
    and nothing beside it; finished, the new one takes its place."""
    from searchers.strong import tablebase

    game, out = str(ROOT / "games" / name), tmp_path / "game.sqlite"
    loaded = [gdl.load(game, **params) for params in (before, after)]
    assert tuple(len(reachable(each, each.position)) for each in loaded) == positions  # counted by a walk

    def solve(params: dict[str, int]) -> tuple[int, str, str]:
        return run(capsys, "solve", game, "--strong", "--out", str(out),
                   *[part for item in params.items() for part in ("-p", "%s=%s" % item)])

    assert solve(before)[0] == 0
    assert gdl.Tablebase(out).meta["positions"] == positions[0]
    written = tablebase.TablebaseWriter.add
    beside: list[str] = []

    def add_then_stop(self: Any, rows: Any, commit: bool = True) -> None:
        written(self, rows, commit)
        beside.append(self.path.name)
        raise KeyboardInterrupt

    monkeypatch.setattr(tablebase.TablebaseWriter, "add", add_then_stop)
    status, _, err = solve(after)
    assert status == 130 and f"; {out} is as it was before" in err
    assert beside == ["game.sqlite.new"]
    monkeypatch.undo()
    assert gdl.Tablebase(out).meta["positions"] == positions[0]
    assert [path.name for path in tmp_path.iterdir()] == ["game.sqlite"]
    assert solve(after)[0] == 0
    assert gdl.Tablebase(out).meta["positions"] == positions[1]
    assert [path.name for path in tmp_path.iterdir()] == ["game.sqlite"]


def test_a_replacement_holds_its_file_and_is_kept_once_complete(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """While a solve writes the tablebase that is to replace a complete one, a solve into that
    file's name is refused (it would delete the first one's files); a stop that comes once the
    new tablebase is finished leaves it in place; a full disk leaves the old one, and says
    what the replacement needs."""
    from searchers.strong import tablebase

    connect, out = str(ROOT / "games" / "connect.gdl"), tmp_path / "game.sqlite"
    small, large = ["-p", "rows=3", "-p", "cols=3", "-p", "k=3"], ["-p", "rows=4", "-p", "cols=3", "-p", "k=3"]
    assert run(capsys, "solve", connect, "--strong", "--out", str(out), *small)[0] == 0
    add, finish = tablebase.TablebaseWriter.add, tablebase.TablebaseWriter.finish
    refused: list[str] = []

    def add_and_try_another(self: Any, rows: Any, commit: bool = True) -> None:
        add(self, rows, commit)
        if not refused:
            with pytest.raises(TablebaseError) as caught:
                solve_strong(gdl.load(connect, rows=3, cols=3, k=3), out=tmp_path / "game.sqlite.new")
            refused.append(str(caught.value))

    monkeypatch.setattr(tablebase.TablebaseWriter, "add", add_and_try_another)
    assert run(capsys, "solve", connect, "--strong", "--out", str(out), *large)[0] == 0
    assert refused == [f"another solve is writing {out}.new: let it end, or name another file"]
    assert gdl.Tablebase(out).meta["positions"] == 2_715  # 4x3, as a walk counts (the test above)

    def finish_then_stop(self: Any, meta: Any) -> None:
        finish(self, meta)
        raise KeyboardInterrupt

    monkeypatch.setattr(tablebase.TablebaseWriter, "finish", finish_then_stop)
    status, _, err = run(capsys, "solve", connect, "--strong", "--out", str(out), *small)
    assert status == 130 and f"; {out} is complete all the same" in err
    assert gdl.Tablebase(out).meta["positions"] == 694  # 3x3
    monkeypatch.undo()

    def add_to_a_full_disk(self: Any, rows: Any, commit: bool = True) -> None:
        raise OSError(errno.ENOSPC, "No space left on device")

    monkeypatch.setattr(tablebase.TablebaseWriter, "add", add_to_a_full_disk)
    status, _, err = run(capsys, "solve", connect, "--strong", "--out", str(out), *large)
    assert (status, err) == (2, f"gdl solve: error: cannot write the tablebase: [Errno 28] No space left on device; "
                                f"{out} is as it was before (the new tablebase is written beside it, as {out}.new, "
                                "until it is complete: where there is no room for both, remove the old one first)\n")
    assert gdl.Tablebase(out).meta["positions"] == 694
    assert sorted(path.name for path in tmp_path.iterdir()) == ["game.sqlite"]


@pytest.mark.parametrize("args, message", [
    (["--out", "t.sqlite", "--depth", "3"], "--out is for a solve of every position to the end (as --strong); it "
     "takes no --depth"),
    (["--workers", "2", "--algorithm", "minimax"], "--workers is for a solve of every position to the end (as "
     "--strong); it takes no --algorithm"),
    (["--strong", "--depth", "3"], "--strong solves every position to the end; it takes no --depth"),
    (["--strong", "--no-table"], "--strong solves every position to the end; it takes no --no-table"),
    (["--strong", "--tolerance", "0"], "--tolerance must be a positive, finite number (default 1e-12), not 0"),
    (["--strong", "--tolerance", "inf"], "--tolerance must be a positive, finite number (default 1e-12), not inf"),
    (["--strong", "--tolerance", "nan"], "--tolerance must be a positive, finite number (default 1e-12), not nan"),
    (["--strong", "--workers", "0"], "--workers must be 1 or more, not 0"),
])
def test_strong_options_that_make_no_sense_are_refused(capsys: pytest.CaptureFixture[str], args: list[str],
                                                       message: str) -> None:
    """An option a strong solve would ignore, or a value it cannot use, is refused with a word
    why, exit status 2, before any work."""
    assert run(capsys, "solve", TICTACTOE, *args) == (2, "", f"gdl solve: error: {message}\n")


@pytest.mark.parametrize("option", [["--out", "ttt.sqlite"], ["--workers", "2"], ["--tolerance", "1e-9"],
                                    ["--workers", "1"], ["--tolerance", "1e-12"]])  # the defaults, given
def test_an_option_of_a_strong_solve_asks_for_one_by_itself(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                            option: list[str]) -> None:
    """`gdl solve FILE --out DB` was refused ("--out needs --strong"): it solves every position,
    5,478 for tic-tac-toe (counted by a walk in test_solve_strong_json_has_the_documented_keys),
    as --strong does; so does an option given its default value (`--workers 1` was taken as not
    given, and alpha-beta ran)."""
    if option[0] == "--out":
        option = ["--out", str(tmp_path / option[1])]
    status, out, _ = run(capsys, "solve", TICTACTOE, *option, "--json")
    assert status == 0
    answer = json.loads(out)
    assert answer["algorithm"] == "strong" and answer["positions"] == 5478 and answer["value"] == 0
    if option[0] == "--out":
        assert gdl.Tablebase(option[1]).meta["positions"] == 5478


COUNT_UP = """game "Count up"
players A, B
state:
    total = 0
    mover = A
to_move = mover
moves = [1, 2]
result(m):
    total += m
    mover = other(mover)
terminal = total < 0
utility = 1 if mover == B else -1
"""


def test_a_strong_solve_in_memory_stops_at_memory(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A game without a `tier` is solved with all its positions in memory: one whose positions
    never stop growing (a total that only counts up) stops once they pass what --memory holds,
    at about 1,000 bytes a position (it grew by 140 MB a second until the system killed it),
    by default half the memory this process may have; a game with tiers holds one tier at a time, and is
    told --memory means nothing to it."""
    game = tmp_path / "count.gdl"
    game.write_text(COUNT_UP)
    status, out, err = run(capsys, "solve", str(game), "--strong", "--memory", "300K")
    assert (status, out) == (2, "")
    assert err.startswith("gdl solve: error: more than 307 positions, as many as 300K holds (--memory; about "
                          "1,000 bytes each) for a game without a `tier`, which is solved in memory. Declare a "
                          "`tier`"), err
    # With --out it says that the tablebase was not written (without, it said so of no file).
    db = tmp_path / "count.sqlite"
    status, out, err = run(capsys, "solve", str(game), "--out", str(db), "--memory", "300K")
    assert status == 2 and f"which is solved in memory; nothing was written to {db}. Declare" in err, err
    assert not db.exists()
    # Ends at 5: 12 positions (totals 0 to 6; each total but 0 and 1 with either player to move).
    game.write_text(COUNT_UP.replace("terminal = total < 0", "terminal = total >= 5"))
    status, out, err = run(capsys, "solve", str(game), "--strong", "--memory", "12K")
    assert status == 0 and "positions: 12 reachable from the start" in out
    status, out, err = run(capsys, "solve", str(game), "--strong", "--memory", "11K")
    assert status == 2 and err.startswith("gdl solve: error: more than 11 positions")
    # A bound that holds one position, or none, is said so (it was "more than 0 positions").
    for size, words in (("1K", "more than 1 position, as many as 1K holds"), ("999", "more positions than 999 holds")):
        status, out, err = run(capsys, "solve", str(game), "--strong", "--memory", size)
        assert status == 2 and err.startswith(f"gdl solve: error: {words} (--memory; about 1,000 bytes each)"), err
    status, out, err = run(capsys, "solve", TICTACTOE, "--strong", "--memory", "1K")
    assert status == 0 and "positions: 5,478 reachable from the start" in out
    assert "gdl solve: --memory ignored: Tic-tac-toe declares a `tier`, and is solved a tier at a time" in err
    memory = available_memory()
    assert memory is not None and memory > 0
    assert strong_memory(argparse.Namespace(memory=None)) == memory // 2
    assert strong_memory(argparse.Namespace(memory=5000)) == 5000


def test_the_default_memory_is_the_control_groups_where_it_has_less(tmp_path: Path,
                                                                     monkeypatch: pytest.MonkeyPatch) -> None:
    """Half the memory a container or a service may have (the limit of its control group or
    of one above it, in either version), not half the machine's, which it may never reach;
    "max" and version 1's huge number say there is no limit, and so does a missing file."""
    physical = os.sysconf("SC_PAGE_SIZE") * os.sysconf("SC_PHYS_PAGES")
    small = min(physical, 1 << 30) // 2
    own = tmp_path / "cgroup"
    monkeypatch.setattr(solve_command, "CGROUP_FILE", str(own))
    monkeypatch.setattr(solve_command, "CGROUP_ROOT", str(tmp_path))

    def limit(path: str, text: str) -> None:
        (tmp_path / path).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / path).write_text(text)

    own.write_text("0::/system.slice/solve.service\n")  # version 2: the service's own group
    assert available_memory() == physical  # no limit files at all
    limit("system.slice/solve.service/memory.max", "max\n")
    limit("system.slice/memory.max", f"{small}\n")  # the limit is the slice's, above the service
    limit("memory.max", f"{physical * 4}\n")
    assert available_memory() == small
    assert strong_memory(argparse.Namespace(memory=None)) == small // 2
    own.write_text("12:pids:/x\n4:memory,hugetlb:/docker/abc\n")  # version 1, the memory controller's line
    limit("memory/docker/abc/memory.limit_in_bytes", "9223372036854771712\n")
    assert available_memory() == physical
    limit("memory/docker/abc/memory.limit_in_bytes", f"{small // 2}\n")
    assert available_memory() == small // 2
    own.write_text("4:memory:/elsewhere\n")  # a group not under this mount: the mount's own limit
    limit("memory/memory.limit_in_bytes", f"{small}\n")
    assert available_memory() == small
    own.unlink()
    assert available_memory() == physical


def test_play_from_a_tablebase_calls_a_value_a_win_as_gdl_solve_does(capsys: pytest.CaptureFixture[str],
                                                                     tmp_path: Path) -> None:
    """Two ply's value 1, its leaves running from -4 to 5, is in MAX's favour, no win, from the
    tablebase as in `gdl solve`'s headline (the hint said "MAX wins in 3"); subtraction's -1,
    of scores -1 and 1, is Second's win."""
    db = tmp_path / "two_ply.sqlite"
    assert run(capsys, "solve", "games/textbook/two_ply.gdl", "--strong", "--out", str(db))[0] == 0
    hinted = subprocess.run([sys.executable, "-m", "gdl", "play", "games/textbook/two_ply.gdl", "--tablebase", str(db),
                             "--as", "MAX"], input="hint\nquit\n", capture_output=True, text=True, timeout=120)
    assert "hint: E (value 1 for MAX, in MAX's favour, over in 3, from the tablebase)" in hinted.stdout
    db = tmp_path / "subtraction.sqlite"
    assert run(capsys, "solve", "games/subtraction.gdl", "--strong", "--out", str(db))[0] == 0
    hinted = subprocess.run([sys.executable, "-m", "gdl", "play", "games/subtraction.gdl", "--tablebase", str(db)],
                            input="hint\nquit\n", capture_output=True, text=True, timeout=120)
    assert "(Second wins in 10 (value -1 for First), from the tablebase)" in hinted.stdout


@pytest.mark.parametrize("option, value", [("--algorithm", "minimax"), ("--iterations", "100"), ("--depth", "2"),
                                           ("--time", "1")])
def test_play_from_a_tablebase_takes_no_searcher_options(capsys: pytest.CaptureFixture[str], tictactoe_db: Path,
                                                         option: str, value: str) -> None:
    status, out, err = run(capsys, "play", TICTACTOE, "--tablebase", str(tictactoe_db), option, value)
    assert (status, out, err) == (2, "", f"gdl play: error: --tablebase plays perfectly at once; it takes no {option}\n")


def test_a_stopped_solve_says_what_it_left_at_out(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C before a solve in memory writes anything: nothing written, or the tablebase of an
    earlier solve as it was (a solve by tiers leaves its own incomplete, above)."""
    import gdl.cli.solve as solve_command

    def stopped(*args: object, **options: object) -> None:
        raise KeyboardInterrupt

    out = tmp_path / "t.sqlite"
    monkeypatch.setattr(solve_command, "solve_strong", stopped)
    assert run(capsys, "solve", TICTACTOE, "--strong", "--out", str(out)) == (
        130, "", f"gdl solve: interrupted; nothing was written to {out}\n")
    monkeypatch.undo()
    assert run(capsys, "solve", TICTACTOE, "--strong", "--out", str(out))[0] == 0
    monkeypatch.setattr(solve_command, "solve_strong", stopped)
    assert run(capsys, "solve", TICTACTOE, "--strong", "--out", str(out)) == (
        130, "", f"gdl solve: interrupted; {out} is as it was before\n")
    assert gdl.Tablebase(out).meta["positions"] == 5478


@pytest.mark.parametrize("earlier", [False, True], ids=["new", "over an earlier one"])
def test_a_solve_stopped_as_it_ends_says_its_tablebase_is_complete(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch, earlier: bool) -> None:
    """Ctrl-C just after the tablebase was finished: it is this solve's, whole (it was called
    "as it was before", even where there was none)."""
    import gdl.cli.solve as solve_command

    out = tmp_path / "t.sqlite"
    connect = ["solve", str(ROOT / "games" / "connect.gdl"), "-p", "rows=3", "-p", "cols=3", "-p", "k=3", "--strong",
               "--out", str(out)]
    if earlier:  # the 4x3 board: another tablebase of the same game
        assert run(capsys, *connect[:2], "-p", "rows=4", *connect[4:])[0] == 0
    solve_strong = solve_command.solve_strong

    def stopped_at_the_end(*args: object, **options: object) -> None:
        solve_strong(*args, **options)
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_command, "solve_strong", stopped_at_the_end)
    assert run(capsys, *connect) == (
        130, "", f"gdl solve: interrupted; {out} is complete all the same: the solve had written it when it was "
        "stopped\n")
    assert gdl.Tablebase(out).meta["params"] == {"rows": "3", "cols": "3", "k": "3"}


def test_a_solve_stopped_while_it_finds_positions_says_a_game_may_have_no_bound(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """A total that grows for ever: the solve never ends finding positions. Stopped in that
    phase after ten seconds of it (its progress reported, on a terminal or not), it says how
    many it found and what to look for if that count never stops growing (not that the game has
    no bound: connect 5x4 stopped early was said to); stopped sooner, how many alone (a game
    merely large, most likely); stopped while solving, neither."""
    import gdl.cli.solve as solve_command
    from searchers.strong import StrongProgress

    def stopped_in(phase: str, seconds: float = 40.0) -> Any:
        def solve(*args: object, progress: Any, **options: object) -> None:
            progress(StrongProgress(phase, 1_835_012, 1_000_000, seconds))
            raise KeyboardInterrupt
        return solve

    monkeypatch.setattr(solve_command, "solve_strong", stopped_in("discovering"))
    assert run(capsys, "solve", TICTACTOE, "--strong") == (
        130, "", "gdl solve: interrupted; it was still finding positions (1,835,012 so far). If their count grows "
        "for ever (a count or a total with no bound), the game cannot be solved strongly; `gdl check --deep` looks "
        "for a line of play that never ends\n")
    monkeypatch.setattr(solve_command, "solve_strong", stopped_in("discovering", 4.0))
    assert run(capsys, "solve", TICTACTOE, "--strong") == (
        130, "", "gdl solve: interrupted; it was still finding positions (1,835,012 so far)\n")
    monkeypatch.setattr(solve_command, "solve_strong", stopped_in("solving"))
    assert run(capsys, "solve", TICTACTOE, "--strong") == (130, "", "gdl solve: interrupted\n")


@pytest.mark.parametrize("tiers", [True, False])
def test_each_phase_is_reported_as_it_begins_even_in_a_quick_solve(tiers: bool) -> None:
    """Progress is reported at most four times a second after the first second, and at once
    when a phase begins: tic-tac-toe (a tenth of a second) reports discovering, then solving,
    so that a stop is said of the phase it came in (a stop at 1.5 s in connect 4x4, still
    finding positions, did not say so; one at 2.5 s, solving, said it was still finding them)."""
    from searchers.strong import solve_strong

    phases: list[str] = []
    solve_strong(gdl.load(TICTACTOE), tiers=tiers, progress=lambda step: phases.append(step.phase))
    assert [phase for place, phase in enumerate(phases) if place == 0 or phases[place - 1] != phase] == [
        "discovering", "solving"]


def test_a_stopped_solve_reports_its_last_step() -> None:
    """Within the first second only a phase's beginning is reported; the steps after it are
    held, and the last one is told when the solve stops (the count of positions found said
    "5 so far" of connect 4x4 stopped after a second, with 80,000 found)."""
    from searchers.strong.solver import Reporter

    told: list[tuple[str, int]] = []
    report = Reporter(lambda step: told.append((step.phase, step.positions)))
    report.positions = 5
    report("discovering", 1)
    report.positions = 81_875
    report("discovering", 40_000)
    assert told == [("discovering", 5)]
    report.tell_last()
    report.tell_last()  # told once
    assert told == [("discovering", 5), ("discovering", 81_875)]


def test_build_tablebase_writes_what_gdl_reads_back(tmp_path: Path) -> None:
    """gdl.build_tablebase, with two workers: every Nim position of piles (1, 2, 3) read back
    through gdl.Tablebase (as a context manager) agrees with Bouton's rule: the player to move
    wins exactly where the piles' XOR is not 0 (the last to take wins)."""
    game = gdl.load(ROOT / "games" / "nim.gdl", piles=(1, 2, 3))
    out = tmp_path / "nim.sqlite"
    result = gdl.build_tablebase(game, out, workers=2)
    states = reachable(game)
    assert result.positions == len(states) == 40  # by a walk: of 48 piles and movers, 8 never met (the start with Second to move among them)
    with gdl.Tablebase(out) as tb:
        tb.check_game(game)
        for state in states:
            nim_sum = 0
            for heap in state.heaps:
                nim_sum ^= heap
            mover_wins = nim_sum != 0
            assert tb.value(state) == (1 if mover_wins == (state.mover == "First") else -1)


def test_a_tablebase_without_its_game_is_refused_plainly(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A tablebase written by searchers.strong.solve_strong without ``meta`` holds no game text:
    gdl.Tablebase and gdl query say so (not a KeyError), and TablebaseReader reads its rows."""
    from searchers.strong import solve_strong

    out = tmp_path / "bare.sqlite"
    game = gdl.load(ROOT / "games" / "nim.gdl", piles=(1, 2))
    solve_strong(game, out=out)
    with pytest.raises(gdl.GdlTablebaseError, match="does not hold its game's text"):
        gdl.Tablebase(out)
    status, _, err = run(capsys, "query", str(out))
    assert status == 1 and "does not hold its game's text" in err and "internal error" not in err
    start = game.initial_state()
    assert TablebaseReader(out).get(stable_key(start))[0] == 1  # 1 XOR 2 is not 0: First, to move, wins


def test_query_tells_a_missing_file_from_one_that_is_not_a_file(capsys: pytest.CaptureFixture[str],
                                                                 tmp_path: Path) -> None:
    """A name with nothing there, and a device (/dev/null): each said as it is."""
    assert run(capsys, "query", str(tmp_path / "none.sqlite"))[::2] == (
        1, f"{tmp_path / 'none.sqlite'}: error: no such tablebase file\n")
    if Path("/dev/null").exists():
        assert run(capsys, "query", "/dev/null")[::2] == (1, "/dev/null: error: this is not a file, so not a tablebase\n")


def test_an_empty_tablebase_name_and_none_at_all_are_said_plainly(capsys: pytest.CaptureFixture[str]) -> None:
    """An empty name is no file name (it was taken for the current folder, "."), and `gdl query`
    without arguments asks for DB alone: moves are optional."""
    assert run(capsys, "query", "")[::2] == (2, "gdl query: error: DB needs a file name\n")
    assert run(capsys, "play", TICTACTOE, "--tablebase", "")[::2] == (2, "gdl play: error: --tablebase needs a file name\n")
    with pytest.raises(SystemExit) as stopped:
        main(["query"])
    assert stopped.value.code == 2
    assert capsys.readouterr().err.endswith("gdl query: error: the following arguments are required: DB\n")


def test_a_file_system_without_locks_still_solves(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Where flock fails for want of locks (ENOLCK on some network file systems), the solve goes
    on unlocked, as on a system without flock, rather than claim another solve is writing."""
    import errno
    import fcntl

    def no_locks(handle: int, operation: int) -> None:
        raise OSError(errno.ENOLCK, "No locks available")

    monkeypatch.setattr(fcntl, "flock", no_locks)
    out = tmp_path / "t.sqlite"
    assert main(["solve", TICTACTOE, "--strong", "--out", str(out)]) == 0
    assert gdl.Tablebase(out).meta["positions"] == 5478 and not Path(f"{out}.lock").exists()


def test_build_tablebase_raises_gdl_errors(tmp_path: Path) -> None:
    """gdl.build_tablebase's refusals are GdlErrors, as gdl.Tablebase's are: a file that is not
    a tablebase is not written over."""
    game_file = tmp_path / "nim.gdl"
    game_file.write_text((ROOT / "games" / "nim.gdl").read_text(encoding="utf-8"), encoding="utf-8")
    with pytest.raises(gdl.GdlTablebaseError, match="is not a tablebase, so a tablebase is not written over it"):
        gdl.build_tablebase(gdl.load(game_file), game_file)
    with pytest.raises(gdl.GdlError) as caught:  # a mistake of the call, not of the game file
        gdl.build_tablebase(gdl.load(game_file), tmp_path / "t.sqlite", workers=0)
    assert str(caught.value) == "gdl.build_tablebase: error: workers must be 1 or more, not 0"
    assert not (tmp_path / "t.sqlite").exists()
    with pytest.raises(gdl.GdlError) as caught:  # the command line's words, without its dashes
        gdl.build_tablebase(gdl.load(game_file), tmp_path / "t.sqlite", tolerance=0.0)
    assert str(caught.value) == "gdl.build_tablebase: error: tolerance must be a positive, finite number (default 1e-12), not 0"
    with pytest.raises(gdl.GdlError) as caught:  # the game's: the strong solver takes two players
        gdl.build_tablebase(gdl.load(ROOT / "games" / "textbook" / "three_players.gdl"), tmp_path / "t.sqlite")
    assert str(caught.value).startswith(f"{ROOT / 'games' / 'textbook' / 'three_players.gdl'}: error: "
                                        "the strong solver needs a two-player game")
    with pytest.raises(gdl.GdlError, match="takes a game loaded by gdl.load or gdl.loads"):
        gdl.build_tablebase(TicTacToe(), tmp_path / "t.sqlite")  # a game of the protocol, written in Python


def test_many_more_workers_than_cores_are_refused_from_python(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The cap of `--workers`, four a core, holds from Python too: fifty workers on a machine
    of two cores are refused before any process starts or any file is written, by
    gdl.build_tablebase and by the searchers' solve_strong alike; eight are taken."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    game = gdl.load(ROOT / "games" / "nim.gdl", piles=(1, 2))
    refusal = ("workers 50 on a machine with 2 cores: at most 8 (4 a core); more would only take turns on the "
               "cores, each a process with its own copy of the game")
    with pytest.raises(gdl.GdlError) as caught:
        gdl.build_tablebase(game, tmp_path / "t.sqlite", workers=50)
    assert str(caught.value) == f"gdl.build_tablebase: error: {refusal}"
    with pytest.raises(SearchError) as refused:
        solve_strong(game, out=tmp_path / "t.sqlite", workers=50)
    assert str(refused.value) == refusal
    assert list(tmp_path.iterdir()) == []
    assert gdl.build_tablebase(game, tmp_path / "t.sqlite", workers=8).value == 1  # 1 xor 2: First wins


def test_a_file_that_cannot_be_read_is_not_called_another_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """--out naming a file this user may not read (opening it fails, as SQLite says for a file
    without read permission) is refused as unreadable, not as "not a tablebase", and left be."""
    from searchers.strong import tablebase as tablebase_module

    out = tmp_path / "locked.sqlite"
    out.write_bytes(b"anything")
    connect = sqlite3.connect

    def unreadable(database: str, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        if "locked.sqlite" in str(database) and "mode=ro" in str(database):
            raise sqlite3.OperationalError("unable to open database file")
        return connect(database, *args, **kwargs)

    monkeypatch.setattr(tablebase_module.sqlite3, "connect", unreadable)
    with pytest.raises(TablebaseError, match=r"locked.sqlite cannot be read \(unable to open database file\), "
                                             r"so nothing is written over it"):
        tablebase_module.check_replaceable(out)
    assert out.read_bytes() == b"anything"


def test_a_tablebase_being_written_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """`gdl query` on a tablebase a solve is writing now (it holds the lock) says so, rather
    than that its build stopped; once the lock is let go, an incomplete one stopped or failed (a
    rule that fails midway leaves one too)."""
    from searchers.strong.tablebase import held_for_writing

    out = tmp_path / "t.sqlite"
    assert run(capsys, "solve", TICTACTOE, "--strong", "--out", str(out))[0] == 0
    with sqlite3.connect(out) as connection:
        connection.execute("UPDATE meta SET value = 'false' WHERE name = 'complete'")
    with held_for_writing(out):
        status, _, err = run(capsys, "query", str(out))
    assert status == 1 and "a solve is writing this tablebase now: read it once the solve has ended" in err
    status, _, err = run(capsys, "query", str(out))
    assert status == 1 and "this tablebase is incomplete: its build stopped or failed before the end" in err


def test_query_of_a_finished_game_and_of_a_game_of_dice_says_only_what_holds(
        capsys: pytest.CaptureFixture[str], tictactoe_db: Path, tmp_path: Path) -> None:
    """X has three in the top row: the game is over, with no plies to count; in Pig, whose
    values the dice make expected ones, no move has a remoteness to head a column with."""
    status, printed, _ = run(capsys, "query", str(tictactoe_db), "0,0", "1,0", "0,1", "1,1", "0,2")
    assert status == 0 and printed.endswith("X X X\nO O .\n. . .\nvalue 10 for X: the game is over\n")
    out = tmp_path / "pig.sqlite"
    assert run(capsys, "solve", str(ROOT / "games" / "pig.gdl"), "-p", "goal=5", "--strong", "--out", str(out))[0] == 0
    status, printed, _ = run(capsys, "query", str(out), "roll", "2")
    assert status == 0 and "every move (value for First):\n  roll  " in printed and "remoteness" not in printed


def test_query_gives_the_dice_their_probabilities(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """After `roll` in Pig to 5 the die is in the air: `gdl query` gives each face its chance,
    1/6, and the position's value is the faces' values weighed by them (solved exactly)."""
    out = tmp_path / "pig.sqlite"
    assert run(capsys, "solve", str(ROOT / "games" / "pig.gdl"), "-p", "goal=5", "--strong", "--out", str(out))[0] == 0
    status, printed, _ = run(capsys, "query", str(out), "roll", "--json")
    answer = json.loads(printed)
    assert status == 0 and answer["to_move"] is None
    assert answer["move_probabilities"] == {str(face): 1 / 6 for face in range(1, 7)}
    values = gdl.Tablebase(out)
    game = values.game
    state = game.result(game.initial_state(), game.actions(game.initial_state())[0])
    faces = [values.value(game.result(state, face)) for face, _ in game.chance_outcomes(state)]
    assert values.value(state) == sum(Fraction(v) for v in faces) / 6
    status, printed, _ = run(capsys, "query", str(out), "roll")
    assert "every outcome of the dice (its probability, the value for First):" in printed
    # A 1 hands the dice over (a value below 0: the other values' digits stand under its own).
    assert "\n  1  1/6 (~0.1667)  -" in printed
    # A 6 wins at once (6 points of 5): its row has no remoteness, as no other row has, nor the
    # header (it said "in 0" there alone).
    assert "\n  6  1/6 (~0.1667)   1\n" in printed and " in 0" not in printed
    status, printed, _ = run(capsys, "query", str(out), "--json")
    assert json.loads(printed)["move_probabilities"] is None


def test_query_lines_up_the_dice_whose_probabilities_differ(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Hog to 10, two dice rolled: the sum is 1 (a die shows 1) with 11/36, 7 with 1/9: the
    values stand in one column whatever the width of the probability before them (the column
    moved with it)."""
    out = tmp_path / "hog.sqlite"
    assert run(capsys, "solve", str(ROOT / "games" / "hog.gdl"), "-p", "goal=10", "--strong", "--out", str(out))[0] == 0
    status, printed, _ = run(capsys, "query", str(out), "2")
    rows = printed.split("every outcome of the dice (its probability, the value for First):\n")[1].splitlines()
    probabilities = {row.split()[0]: row.split()[1] for row in rows}
    assert probabilities == {"1": "11/36", "4": "1/36", "5": "1/18", "6": "1/12", "7": "1/9", "8": "5/36",
                             "9": "1/9", "10": "1/12", "11": "1/18", "12": "1/36"}
    # Each value's field (a place for its sign first) begins two spaces past the widest
    # probability, ``~0.3056)`` of 11/36: only spaces stand between a narrower one and it.
    ends = [row.index(")") + 1 for row in rows]
    values_at = max(ends) + 2
    assert status == 0
    assert all(row[end:values_at].isspace() and row[values_at + 1] != " " for row, end in zip(rows, ends))


def test_a_tablebase_that_cannot_be_opened_is_a_plain_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Reading a tablebase SQLite cannot open (as for a file without read permission) raises
    the tablebase's own error, not SQLite's."""
    from searchers.strong import tablebase as tablebase_module

    out = tmp_path / "locked.sqlite"
    out.write_bytes(b"anything")

    def unopenable(database: str, *args: Any, **kwargs: Any) -> sqlite3.Connection:
        raise sqlite3.OperationalError("unable to open database file")

    monkeypatch.setattr(tablebase_module.sqlite3, "connect", unopenable)
    with pytest.raises(TablebaseError, match=r"the tablebase cannot be read \(unable to open database file\)"):
        TablebaseReader(out)


TAKE_ONE_OR_TWO = """
game "Take"
players First, Second
param stones = 4
state:
    pile = stones
    mover = First
to_move = mover
moves = [n for n in [1, 2] if n <= pile]
result(n):
    pile -= n
    mover = other(mover)
terminal = pile == 0
utility = 1 if mover == Second else -1
"""


@pytest.mark.parametrize("how", [[], ["--workers", "1"], ["--workers", "2"]], ids=["memory", "tiers", "workers"])
def test_dice_declared_but_never_thrown_leave_a_game_without_chance(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, how: list[str]) -> None:
    """A take-away game (1 or 2 from 4) that declares `outcomes` but never lets the dice roll is
    solved as the game without them: by hand, First takes 1 and wins in 3 plies (Second
    delays: takes 1, First takes the last 2); taking 2 loses in 1 more. The remoteness was
    null, and the verdict an expected value."""
    path = tmp_path / "take.gdl"
    path.write_text(TAKE_ONE_OR_TWO + "outcomes = [(1, 1)]\n" + ("tier = stones - pile\n" if how else ""))
    status, out, _ = run(capsys, "solve", str(path), "--strong", "--json", *how)
    solved = json.loads(out)
    assert status == 0 and solved["value"] == 1 and solved["exact"] is True
    assert (solved["remoteness"], solved["max_remoteness"], solved["move_remoteness"]) == (3, 3, {"1": 2, "2": 1})
    status, out, _ = run(capsys, "solve", str(path), "--strong", *how)
    assert out.splitlines()[0] == "Take: First wins (value 1)"
    assert "(the game ends in 3 plies with perfect play)" in out
    db = tmp_path / "take.sqlite"
    assert run(capsys, "solve", str(path), "--strong", "--out", str(db), *how)[0] == 0
    assert gdl.Tablebase(db).meta["has_chance"] is False
    played = subprocess.run([sys.executable, "-m", "gdl", "play", str(path), "--tablebase", str(db), "--as", "none"],
                            capture_output=True, text=True, timeout=120)
    assert "First plays 1  (First wins in 3 (value 1 for First), from the tablebase)" in played.stdout


def test_a_game_that_never_ends_with_perfect_play_says_so(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Take-away with a pass: a player facing 3 stones passes (taking 1 or 2 leaves the other
    the rest to take), so from 4 no one can force a win, perfect play passes for ever, and the
    value is the `repetition` score, 1 here: the headline said "First wins (value 1)"."""
    path = tmp_path / "pass.gdl"
    path.write_text(TAKE_ONE_OR_TWO.replace("moves = [n for n in [1, 2] if n <= pile]",
                                            'moves = [n for n in [1, 2] if n <= pile] + ["pass"]')
                    .replace("    pile -= n\n", '    pile -= 0 if n == "pass" else n\n') + "repetition = 1\n")
    db = tmp_path / "pass.sqlite"
    status, out, _ = run(capsys, "solve", str(path), "--strong", "--out", str(db))
    assert status == 0
    assert out.splitlines()[0] == "Take: never ends with perfect play: the `repetition` score, 1 for First"
    assert "ends in" not in out.splitlines()[1]
    # Both pass (a take of 1 would do too: Second passes at 3), and First is to move at 4 again.
    assert out.splitlines()[2] == "principal variation: pass, pass (then a position comes back)"
    # Taking 2 leaves Second the last 2 to take; after taking 1 or passing, play never ends, which
    # the column of remoteness says (it was left blank).
    moves = ["every move (value for First, remoteness):", "  1      1  never ends", "  2     -1  in 1",
             "  pass   1  never ends"]
    assert out.splitlines()[3:7] == moves
    status, out, _ = run(capsys, "query", str(db))
    assert "value 1 for First, the `repetition` score: the game never ends with perfect play" in out
    assert out.splitlines()[-4:] == moves
    status, out, _ = run(capsys, "query", str(db), "1", "2")  # 1 stone left, First to move: it takes it
    assert "value 1 for First, the game ends in 1 ply with perfect play" in out and "never ends" not in out


PASS_OR_TAKE = """\
game "Rep"
players A, B
symbols take, go, back
state:
    at = 0
to_move = B if at == 1 else A
moves = [take, go] if at == 0 else [go] if at == 1 else [back, go]
result(m):
    at = 3 if m == take else 1 if at == 0 else 2 if at == 1 else 0 if m == back else 1
terminal = at == 3
utility = 1
repetition = REPETITION
"""


def test_a_repetition_score_that_differs_along_a_cycle_is_not_called_exact(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """A takes a sure 1 or goes on; B at 1 must go to 2, where A goes back to 0 or on to 1: the
    cycle 1, 2 scores 2 where it repeats at 1 (A's choice, alpha-beta: exact 2), -1 at 0 and 2.
    The strong solve gave 1 as exact, below its own value of `go` (2): a play that never ends
    scores what the position where it comes into the cycle says, so a position there has no
    one value. It is now not exact, every value within 3 (the span of the scores), and says
    why; with one repetition score for the cycle it is exact, and agrees with alpha-beta."""
    from searchers import alphabeta
    from searchers.strong import solve_strong

    path = tmp_path / "rep.gdl"
    path.write_text(PASS_OR_TAKE.replace("REPETITION", "2 if at == 1 else -1"))
    searched = alphabeta(gdl.load(path))
    assert (searched.value, searched.exact) == (2, True)
    solved = solve_strong(gdl.load(path))
    assert (solved.exact, solved.residual) == (False, 3.0)
    assert solved.inexact_reason is not None and "`repetition` score differs along a cycle" in solved.inexact_reason
    db = tmp_path / "rep.sqlite"
    status, out, _ = run(capsys, "solve", str(path), "--strong", "--out", str(db))
    assert status == 0 and out.startswith("Rep: estimate 1, favouring A  [not exact: every value within 3]\n"
                                          "not exact: the `repetition` score differs along a cycle")
    status, out, _ = run(capsys, "solve", str(path), "--strong", "--json")
    answer = json.loads(out)
    assert (answer["exact"], answer["residual"]) == (False, 3.0) and "differs along a cycle" in answer["inexact_reason"]
    status, out, _ = run(capsys, "query", str(db))
    assert "(not exact, every value within 3: the `repetition` score differs along a cycle" in out
    status, out, _ = run(capsys, "query", str(db), "--json")
    assert "differs along a cycle" in json.loads(out)["inexact_reason"]
    # One score for the cycle, or an end A forces as good as the best score (1 where the scores
    # are 1 and 0): exact, and alpha-beta's value.
    for repetition, value in (("2", 2), ("1 if at == 1 else 0", 1)):
        path.write_text(PASS_OR_TAKE.replace("REPETITION", repetition))
        solved, searched = solve_strong(gdl.load(path)), alphabeta(gdl.load(path))
        assert (solved.value, solved.exact, solved.inexact_reason) == (searched.value, True, None) == (value, True, None)


def test_a_repetition_score_that_differs_along_a_cycle_through_the_dice_widens_the_bound() -> None:
    """The game above with a throw at 2 that comes back to 0 or 1: value iteration solves the
    cycle, each position taking its own score of endless play; the bound was value iteration's
    alone (7e-15) where the value is 1 against 2 with one score: now the scores' span, 3, with
    both reasons."""
    from searchers.strong import solve_strong

    text = (PASS_OR_TAKE.replace("symbols take, go, back", "symbols take, go, back, roll")
            .replace("to_move = B if at == 1 else A", "to_move = chance if at == 4 else B if at == 1 else A\n"
                     "outcomes = [(0, 1/2), (1, 1/2)]")
            .replace("else [back, go]", "else [back, go, roll]")
            .replace("result(m):\n    at = ", "result(m):\n    at = m if at == 4 else ")
            .replace("0 if m == back else 1", "0 if m == back else 4 if m == roll else 1"))
    solved = solve_strong(gdl.loads(text.replace("REPETITION", "2 if at == 1 else -1")))
    assert (solved.exact, solved.residual) == (False, 3.0)
    assert solved.inexact_reason is not None and "value iteration" in solved.inexact_reason \
        and "differs along a cycle" in solved.inexact_reason
    solved = solve_strong(gdl.loads(text.replace("REPETITION", "2")))
    assert (solved.value, solved.exact, solved.residual) == (2, True, 0.0)


COIN_DUEL = """
game "Coin duel"
players A, B
symbols heads, tails, nobody
state:
    flipped = false
    winner = nobody
to_move = chance if flipped else A
moves = ["flip"]
outcomes = [(heads, 1 / 2), (tails, 1 / 2)]
result(m):
    if m == "flip":
        flipped = true
    else:
        winner = A if m == heads else B
terminal = winner != nobody
utility = 1 if winner == A else -1
"""


def test_an_outcome_of_the_dice_is_typed_as_a_move_is(capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Spaces, brackets and case do not count in an outcome of the dice, as in a move: `HEADS`
    after `Flip` is A's win (1), `(tails)` B's (-1); a face that is not one is refused, naming
    those that are."""
    path, out = tmp_path / "duel.gdl", tmp_path / "duel.sqlite"
    path.write_text(COIN_DUEL)
    assert run(capsys, "solve", str(path), "--strong", "--out", str(out))[0] == 0
    assert [json.loads(run(capsys, "query", str(out), "Flip", face, "--json")[1])["value"]
            for face in ("HEADS", "(tails)", " Heads ")] == [1, -1, 1]
    status, _, err = run(capsys, "query", str(out), "flip", "edge")
    assert status == 1 and "move 2: `edge` is not an outcome of the dice here; they are: heads, tails" in err


SETS = """game "Sets"
players A, B
symbols y, z, none
state:
    s = set([])
    mover = A
    picked = none
to_move = mover
moves = [c for c in [y, z] if c not in s] if len(s) < 2 else list(s)
result(c):
    if len(s) < 2:
        s = s + {c}
        mover = other(mover)
    else:
        picked = c
terminal = picked != none
utility = 1 if picked == y else -1
"""


@pytest.mark.parametrize("container", ["set", "map"])
def test_the_best_move_of_a_state_listing_its_moves_in_another_order(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, container: str) -> None:
    """After y, z and after z, y the states are equal (a set, or a map, of the same items) but
    list their last moves in the order the items were added; picking y wins for A (utility 1),
    z loses. The tablebase keeps the best move's place in one order: asked about the other
    state, it named z (query, play's hint and the Python API)."""
    text = SETS if container == "set" else SETS.replace("s = set([])", "s = {}").replace(
        "s = s + {c}", "s[c] = 1").replace("list(s)", "[k for k in s]")
    path, out = tmp_path / "sets.gdl", tmp_path / "sets.sqlite"
    path.write_text(text)
    assert main(["solve", str(path), "--strong", "--out", str(out)]) == 0
    capsys.readouterr()
    game = gdl.load(path)
    with gdl.Tablebase(out) as base:
        for first, second in (("y", "z"), ("z", "y")):
            state = game.initial_state()
            for move in (first, second):
                state = game.result(state, next(m for m in game.actions(state) if str(m) == move))
            assert [str(m) for m in game.actions(state)] == [first, second]  # the order items came in
            assert str(base.best_move(state)) == "y" and base.value(state) == 1
            assert main(["query", str(out), first, second, "--json"]) == 0
            assert json.loads(capsys.readouterr().out)["best_move"] == "y"


# Sets with a coin tossed first (a game of dice, which `gdl play` solves whole before the first
# move), B choosing first and A the rest: after z, y and y, z the states are equal but list A's
# last moves in the order added; y wins for A.
SETS_AFTER_A_TOSS = SETS.replace("symbols y, z, none", "symbols y, z, none, heads, tails").replace(
    "    mover = A\n", "    mover = B\n    tossed = false\n").replace(
    "to_move = mover", "to_move = mover if tossed else chance\noutcomes = [(heads, 1 / 2), (tails, 1 / 2)]").replace(
    "    if len(s) < 2:", "    if not tossed:\n        tossed = true\n    elif len(s) < 2:").replace(
    "mover = other(mover)", "mover = A")

# Sets where B's z earns A a pass first: A's line of best moves (z, pass, y, then y) reaches the
# state whose moves come in the order other than the one the solve met (y chosen after z).
SETS_WITH_A_PASS = SETS.replace("symbols y, z, none", "symbols y, z, none, pass").replace(
    "    mover = A\n", "    mover = B\n    extra = 0\n").replace(
    "moves = [c", "moves = [pass] if extra == 1 else [c").replace(
    "    if len(s) < 2:\n        s = s + {c}\n        mover = other(mover)",
    "    if extra == 1:\n        extra = 0\n    elif len(s) < 2:\n        s = s + {c}\n        mover = A\n"
    "        if c == z and len(s) == 1:\n            extra = 1")


def test_play_solving_a_game_of_dice_first_picks_the_move_that_keeps_the_value(tmp_path: Path) -> None:
    """`gdl play` solves a game of dice in memory before the first move: B picks z, A y, and
    A's best last pick is y (a win, 1), whichever order its state lists y and z in; the place
    kept by the solve named z, and A lost a game it called won."""
    path = tmp_path / "sets.gdl"
    path.write_text(SETS_AFTER_A_TOSS)
    done = subprocess.run([sys.executable, "-m", "gdl", "play", str(path), "--as", "B", "--seed", "1"],
                          input="z\n", capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr
    assert "every position of Sets solved first" in done.stdout
    assert "A plays y  (expected value 1 for A, every position solved)" in done.stdout
    assert "Game over: A wins (A scores 1)." in done.stdout


def test_the_principal_variation_keeps_the_value_where_moves_come_in_another_order(tmp_path: Path) -> None:
    """A wins (B's z gives A a pass, and A's y then wins whatever B picks): the line of best
    moves, z, pass, y, y, ends in A's win; kept by its place alone, the last move was z, a loss
    on a line said to be won."""
    path = tmp_path / "sets.gdl"
    path.write_text(SETS_WITH_A_PASS)
    game = gdl.load(path)
    result = solve_strong(game)
    assert result.value == 1
    state = game.initial_state()
    for move in result.principal_variation:
        state = game.result(state, move)
    assert [str(move) for move in result.principal_variation] == ["z", "pass", "y", "y"]
    assert game.is_terminal(state) and game.utility(state, "A") == 1


def test_the_hint_to_query_a_tablebase_can_be_pasted_as_it_is(capsys: pytest.CaptureFixture[str],
                                                              tmp_path: Path) -> None:
    """A name with a space is quoted for the shell in `gdl query NAME` (it was two words)."""
    out = tmp_path / "sp ace.sqlite"
    status, text, _ = run(capsys, "solve", str(ROOT / "games" / "subtraction.gdl"), "--strong", "--out", str(out))
    assert status == 0 and f"`gdl query '{out}'` reads it" in text


@pytest.mark.parametrize("value, shown", [(-1e-13, "0"), (-0.0, "0"), (1e-13, "0"), (-0.0003, "-0.0003"),
                                          (-0.5, "-0.5"), (0.06118, "0.0612")])
def test_a_float_a_hair_below_zero_is_shown_as_zero(value: float, shown: str) -> None:
    """Value iteration's values of a game worth 0 may fall a hair below it: "0", not "-0"."""
    from gdl.cli.common import number_text

    assert number_text(value) == shown


def test_workers_given_with_ray_are_said_to_be_ignored(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """Ray runs as many tasks at once as the cluster has CPUs: --workers beside --ray is said
    to be ignored (it was, silently), before the solve begins."""
    import gdl.cli.solve as solve_command

    def stopped(*args: object, **options: object) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(solve_command, "solve_strong", stopped)
    status, _, err = run(capsys, "solve", TICTACTOE, "--strong", "--ray", "auto", "--workers", "2")
    assert status == 130
    assert err.startswith("gdl solve: --workers ignored: with --ray the chunks are Ray tasks")


def test_a_move_table_puts_the_digits_of_its_values_in_a_column() -> None:
    """Where a value is negative, the others are moved a place right: -1 over  1."""
    from gdl.cli.common import move_table

    assert move_table("A", [("a", -1, 3, None), ("bb", 1, 2, None)], dice=False, remoteness=True) == [
        "every move (value for A, remoteness):", "  a   -1  in 3", "  bb   1  in 2"]
    assert move_table("A", [("a", 0, 3, None), ("bb", 1, 2, None)], dice=False, remoteness=True) == [
        "every move (value for A, remoteness):", "  a   0  in 3", "  bb  1  in 2"]


def test_a_fraction_too_long_to_read_is_shown_as_a_decimal_of_its_size() -> None:
    """A value of 31 digits over one is not shown with four places of nothing after its point,
    nor its digits' count as "over 1" (the denominator, or its digits?); a fraction past the
    floats' range is shown too."""
    from gdl.cli.common import number_text

    assert number_text(Fraction(-7 * 10**30 - 1, 7)) == "~-1.0000e+30 (exactly a fraction: 31 digits over 1 digit)"
    assert number_text(Fraction(10**400, 3)) == "~3.3333e+399 (exactly a fraction: 401 digits over 1 digit)"
    assert number_text(Fraction(2, 10**400 + 1)) == "~2.0000e-400 (exactly a fraction: 1 digit over 401 digits)"
    assert number_text(Fraction(-999990000000, 300001)) == "-999990000000/300001 (~-3.3333e+06)"
    assert number_text(Fraction(1, 3)) == "1/3 (~0.3333)"
    assert number_text(Fraction(1, 1000)) == "1/1000 (~0.0010)"  # the least with four places, exactly
    assert number_text(Fraction(999, 10**6)) == "999/1000000 (~9.9900e-04)"


HUGE_SCORE = """
game "Huge"
players First, Second
state:
    taken = false
to_move = First
moves = [1, 2]
result(n):
    taken = n == 1
terminal = true if taken else false
utility = (10 ** 400) / 3 if taken else -1
"""


def test_a_value_past_the_floats_range_is_printed_and_given_in_json(capsys: pytest.CaptureFixture[str],
                                                                    tmp_path: Path) -> None:
    """A score of 10**400 / 3 has no float: the text shows it by its size, and JSON (which has
    no infinity) gives the nearest integer, beside the exact fraction (both raised OverflowError)."""
    game_file = tmp_path / "huge.gdl"
    game_file.write_text(HUGE_SCORE)
    for options in ([], ["--strong"]):
        status, printed, _ = run(capsys, "solve", str(game_file), *options, "--json")
        answer = json.loads(printed)
        assert status == 0 and answer["value"] == round(Fraction(10**400, 3))
        assert answer["value_fraction"] == f"{10**400}/3"
    status, printed, _ = run(capsys, "solve", str(game_file), "--strong")
    assert status == 0 and "value ~3.3333e+399 (exactly a fraction: 401 digits over 1 digit) for First" in printed
    assert "\n  ~3.3333e+399 (exactly a fraction: 401 digits over 1 digit)  2\n" in printed


def test_values_too_long_to_read_are_shown_in_full_where_their_sizes_would_read_the_same() -> None:
    """A column of values shows each by its size (an integer of 41 digits too), digits under
    digits; but 10**40 + 1 and 10**40 + 3 would both read ~1.0000e+40, and a table of them
    would seem to choose among equals: then they are written out in full. A count by value
    likewise (it merged such rows into one, keeping one count)."""
    from gdl.cli.common import outcome_texts, value_column

    big = 10**40
    assert value_column([big, -big]) == [" ~1.0000e+40 (exactly an integer of 41 digits)",
                                         "~-1.0000e+40 (exactly an integer of 41 digits)"]
    assert value_column([big + 1, -big, big + 3]) == [f" {big + 1}", f"-{big}", f" {big + 3}"]
    assert value_column([Fraction(1, 3), 1]) == ["1/3 (~0.3333)", "1"]
    # Floats past the floats' integers (value iteration's, of huge scores) likewise, by their size.
    assert value_column([1.00001e30, -3e20]) == [" ~1.0000e+30", "~-3.0000e+20"]
    assert value_column([1.00001e30, 1.00002e30]) == ["1.00001e+30", "1.00002e+30"]
    assert value_column([1e23, 1234567.5]) == ["~1.0000e+23", "  1234567.5"]  # not 99999999999999991611392
    # Numbers stand right-aligned, last digit under last digit (a query of tic-tac-toe: 10 over 0).
    assert value_column([10, 0, -1, 10]) == ["10", " 0", "-1", "10"]
    assert value_column([Fraction(-5, 1), Fraction(12, 1), 3]) == ["-5", "12", " 3"]
    # Each player's payoffs (max^n, paranoid) likewise.
    assert value_column([{"A": big + 1, "B": 0}, {"A": big + 3, "B": 0}]) == [f"(A {big + 1}, B 0)",
                                                                              f"(A {big + 3}, B 0)"]
    texts = [f"{big + n}/7" for n in (3, 2, 1)]
    assert outcome_texts(texts) == texts
    assert outcome_texts([f"{big + 1}/7", "-1"]) == ["~1.4286e+39 (exactly a fraction: 41 digits over 1 digit)", "-1"]


# A coin game with a pass: the mover flips (a third of the time the mover wins `hi`, else the
# turn passes) or passes the turn.  Scores near the floats' largest, whose differences value
# iteration cannot hold: by hand V = hi/3 - 2V/3, so V = hi/5 = 3e307, which it does not find.
HUGE_COIN = """game "Huge coin"
players First, Second
param hi = 15 * 10**307
state:
    mover = First
    flipping = false
    winner = empty
to_move = chance if flipping else mover
moves = [] if flipping else [0, 1]
outcomes = [(1, 1/3), (0, 2/3)]
result(m):
    if flipping:
        flipping = false
        if m == 1:
            winner = mover
        else:
            mover = other(mover)
    elif m == 0:
        flipping = true
    else:
        mover = other(mover)
terminal = winner != empty
utility = hi if winner == First else -hi
"""


def test_a_bound_past_the_floats_range_is_no_bound_and_json_stays_json(
        capsys: pytest.CaptureFixture[str], tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Value iteration whose bound grows past the floats' range (scores of 1.5e308 and -1.5e308)
    is not exact and says that no bound is known: `"residual": null` in JSON (Python wrote
    `Infinity`, which no JSON reader takes), in words in the text and in `gdl query`; a float
    value that large is shown by its size, not by its 308 digits."""
    from searchers.strong import policy

    monkeypatch.setattr(policy, "EXACT_LIMIT", 0)  # value iteration alone, as past 10,000 positions
    path = tmp_path / "huge.gdl"
    path.write_text(HUGE_COIN)

    def no_constants(name: str) -> None:
        raise AssertionError(f"not JSON: {name}")

    status, out, _ = run(capsys, "solve", str(path), "--strong", "--json", "--out", str(tmp_path / "h.sqlite"))
    report = json.loads(out, parse_constant=no_constants)
    assert status == 0 and report["exact"] is False and report["residual"] is None
    queried = json.loads(run(capsys, "query", str(tmp_path / "h.sqlite"), "--json")[1], parse_constant=no_constants)
    assert queried["exact"] is False and queried["residual"] is None
    status, out, _ = run(capsys, "solve", str(path), "--strong")
    headline = out.splitlines()[0]
    assert headline.endswith("[not exact: no bound known: it grew past the floats' range]")
    assert "e+307 for First" in headline and len(headline) < 150
    assert "no bound known: it grew past the floats' range" in run(capsys, "query", str(tmp_path / "h.sqlite"))[1]
