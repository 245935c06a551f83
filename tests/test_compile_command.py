"""`gdl compile FILE`: the Python a game becomes, each rule under the line of the file it comes
from."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

from gdl.cli import main

ROOT = Path(__file__).resolve().parent.parent
TICTACTOE = ROOT / "games" / "tictactoe.gdl"


def compiled(capsys: pytest.CaptureFixture[str], *args: str) -> str:
    assert main(["compile", *args]) == 0
    return capsys.readouterr().out


def line_of(path: Path, start: str) -> int:
    """The number of the first line of the file that starts with `start` (found by reading it)."""
    return next(n for n, text in enumerate(path.read_text().splitlines(), 1) if text.startswith(start))


def test_each_rule_comes_under_the_line_of_the_file_it_is_written_on(capsys: pytest.CaptureFixture[str]) -> None:
    out = compiled(capsys, str(TICTACTOE))
    for start, defined in [("def won(p)", "def f_won(S, v_p):"), ("moves ", "def d_moves(S):"), ("result(c):", "def result(S, _move):")]:
        number = line_of(TICTACTOE, start)
        comment = f"# {TICTACTOE} line {number}: {start}"
        assert comment in out
        after_comment = out[out.index(comment):].splitlines()
        assert any(line == defined for line in after_comment[1:4])  # the rule follows its comment


def test_the_printed_source_is_python_that_compiles(capsys: pytest.CaptureFixture[str]) -> None:
    out = compiled(capsys, str(TICTACTOE))
    code = compile(out, "<printed>", "exec")
    names = set(code.co_names)
    assert {"d_moves", "d_terminal", "result", "f_won"} <= names


def test_parameters_set_with_p_are_in_the_printed_program(capsys: pytest.CaptureFixture[str]) -> None:
    default = compiled(capsys, str(ROOT / "games" / "connect.gdl"))
    small = compiled(capsys, str(ROOT / "games" / "connect.gdl"), "-p", "rows=4", "-p", "cols=5")
    assert "(parameters: rows=6, cols=7, k=4)" in default.splitlines()[0]
    assert "(parameters: rows=4, cols=5, k=4)" in small.splitlines()[0]
    # The cell tables made at load are listed with the values the code uses by name.
    assert re.search(r"^# _K\d+ = \{\(0, 0\): 0, \(0, 1\): 1, ", small, re.M)


def test_a_game_tree_table_has_no_code_of_its_own(capsys: pytest.CaptureFixture[str]) -> None:
    out = compiled(capsys, str(ROOT / "games" / "textbook" / "aima.gdl"))
    assert "a game tree given as a table" in out and "def " not in out


def test_a_broken_file_is_reported_as_every_command_reports_it(tmp_path: Path) -> None:
    broken = tmp_path / "broken.gdl"
    broken.write_text('game "B"\nplayers A, B\nstate:\n    n = 0\nto_move = A\nmoves = [1]\nresult(m):\n    n += mm\nterminal = true\nutility = 0\n')
    done = subprocess.run([sys.executable, "-m", "gdl", "compile", str(broken)], capture_output=True, text=True)
    assert done.returncode == 1
    assert done.stderr.startswith(f"{broken}:8:10: error: unknown name `mm`")
