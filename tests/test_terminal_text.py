"""Text from a game file never reaches the terminal raw: its control characters (escape
sequences, bells, C1 controls) and lone surrogates are shown as visible escapes, in every
command's output and in its error messages; JSON escapes them its own way."""

from __future__ import annotations

import json
import subprocess
import sys
import unicodedata
from pathlib import Path

import pytest

import gdl
from gdl.cli import main
from gdl.cli.common import terminal_safe
from gdl.cli.solve import ProgressLine
from searchers import Progress

# A title, move names and a display full of what a terminal obeys: colours, clear screen,
# cursor home, a bell, the C1 control sequence introducer, and a lone surrogate.
TITLE = "\x1b[31mRed\x1b[0m title\x9b"
GAME = r'''game "\x1b[31mRed\x1b[0m title\x9b"
players A, B
state:
    n = 0
to_move = A if n % 2 == 0 else B
moves = [1, 2]
def move_name(m) = "\x1b[2J" + str(m) + "\x07"
result(m):
    n += m
terminal = n >= 3
utility = 1 if n == 3 else -1
display = "\x1b[H" + str(n) + "\ud800"
'''
MOVES = ["\x1b[2J1\x07", "\x1b[2J2\x07"]


def unsafe(text: str) -> list[str]:
    """The characters of `text` a terminal would obey or cannot write: by Unicode's own
    categories, control (C0, DEL, C1) and surrogate, newline and tab aside."""
    return [c for c in text if unicodedata.category(c) in ("Cc", "Cs") and c not in "\n\t"]


@pytest.fixture
def game_file(tmp_path: Path) -> Path:
    path = tmp_path / "escapes.gdl"
    path.write_text(GAME, encoding="utf-8")
    return path


def test_terminal_safe_escapes_exactly_the_controls_and_surrogates() -> None:
    every_character = "".join(chr(code) for code in range(0x110000))
    shown = terminal_safe(every_character)
    assert unsafe(shown) == []
    shown.encode("utf-8")  # no lone surrogate is left to fail the terminal's encoding
    for character in every_character:
        if unsafe(character):
            code = ord(character)
            assert terminal_safe(character) == (f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}")
        elif ord(character) % 997 == 0 or ord(character) < 0x200:  # a sample of the rest, and all of Latin
            assert terminal_safe(character) == character


def test_check_shows_the_title_escaped(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", str(game_file)]) == 0
    out = capsys.readouterr().out
    assert unsafe(out) == []
    assert terminal_safe(TITLE) in out and "\\x1b[31mRed" in out


def test_solve_shows_title_and_moves_escaped(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(game_file)]) == 0
    out = capsys.readouterr().out
    assert unsafe(out) == []
    assert out.startswith(terminal_safe(TITLE) + ": A wins")
    assert f"best move for A: {terminal_safe(MOVES[0])}" in out


def test_solve_json_escapes_the_game_text_and_keeps_it_whole(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["solve", str(game_file), "--json"]) == 0
    out = capsys.readouterr().out
    assert unsafe(out) == [] and out.isascii()
    result = json.loads(out)
    assert result["game"] == TITLE
    assert result["best_move"] == MOVES[0]
    assert set(result["move_values"]) == set(MOVES)


def test_tree_shows_move_names_escaped(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    shown = terminal_safe(MOVES[0])
    # Graphviz reads a backslash in a label as an escape: dot doubles it to show it.
    for form, label in (("text", shown), ("svg", shown), ("dot", shown.replace("\\", "\\\\"))):
        assert main(["tree", str(game_file), "--format", form]) == 0
        out = capsys.readouterr().out
        assert unsafe(out) == [], form
        assert label in out, form


def test_a_failing_rule_shows_the_state_escaped(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "fails.gdl"
    path.write_text(GAME.replace("utility = 1 if n == 3 else -1", "utility = 1 // (n - n)"), encoding="utf-8")
    assert main(["solve", str(path)]) == 1
    err = capsys.readouterr().err
    assert unsafe(err) == []
    assert "in the state:\n    \\x1b[H3\\ud800" in err


def test_a_syntax_error_quotes_its_line_escaped_with_the_caret_under_the_mistake(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "raw.gdl"
    # Raw control characters in a string (the grammar lets them in), then a stray `$`.
    path.write_text('players A, B\nx = "\x1b[31m\x9b\x07" + 1 $ 2\n', encoding="utf-8")
    assert main(["check", str(path)]) == 1
    err = capsys.readouterr().err
    assert unsafe(err) == []
    head, quoted, caret = err.splitlines()[:3]
    column_in_file = '    x = "\x1b[31m\x9b\x07" + 1 $ 2'.index("$") - 3
    assert head.startswith(f"{path}:2:{column_in_file}: error: unexpected character `$`")
    assert quoted == '    x = "\\x1b[31m\\x9b\\x07" + 1 $ 2'
    assert caret.index("^") == quoted.index("$")


def test_argument_errors_echo_what_was_typed_escaped(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit):
        main(["solve", "games/nim.gdl", "--algorithm", "\x1b[2Jminimax"])
    err = capsys.readouterr().err
    assert unsafe(err) == []
    assert "invalid choice: '\\x1b[2Jminimax'" in err
    assert main(["check", "games/nim.gdl", "-p", "piles=\x1b[2J"]) == 1
    err = capsys.readouterr().err
    assert unsafe(err) == [] and "`\\x1b[2J`" in err


def test_play_shows_the_game_and_echoes_typed_input_escaped(game_file: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "gdl", "play", str(game_file)],
        input="\x1b[31mzz\n1\nquit\n", capture_output=True, text=True, timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert unsafe(done.stdout + done.stderr) == []
    lines = done.stdout.splitlines()
    assert lines[0] == f"{terminal_safe(TITLE)}: you play A. Type `help` for the commands."
    assert "\\x1b[H0\\ud800" in lines
    assert "A to move> \\x1b[31mzz" in lines
    assert f"`\\x1b[31mzz` is not a legal move here. Legal moves: {terminal_safe(MOVES[0])}, {terminal_safe(MOVES[1])} (or its number, 1 to 2)." in lines
    assert f"B plays {terminal_safe(MOVES[0])}  (value 1 for A, exact)" in lines


def test_the_progress_line_shows_the_best_move_escaped(game_file: Path, capsys: pytest.CaptureFixture[str]) -> None:
    line = ProgressLine(gdl.load(game_file))
    line(Progress(nodes=10, seconds=1.0, depth=2, best_move=1))
    line.clear()
    err = capsys.readouterr().err
    assert f"best so far {terminal_safe(MOVES[0])} (Ctrl-C stops)" in err
    # The only controls are the line's own: back to the start of the line, clear to its end.
    assert unsafe(err) == ["\r", "\x1b", "\r", "\x1b"]


def test_the_progress_line_is_cut_to_the_terminal_width(monkeypatch: pytest.MonkeyPatch) -> None:
    """A line as wide as the terminal would wrap, and only its last row is drawn over: the
    line is cut one column short of the width (80 columns here; 40, where a wide character
    takes two: 25 narrow and 7 wide fill 39), a newline shown as `\\n`; unknown width (or 0),
    it is whole."""
    import io
    import os

    from gdl.cli.common import show_status

    class Terminal(io.StringIO):
        def fileno(self) -> int:
            return 2

    long = "  discovering: tier 16, 1,319,949 positions found, 1,056,319 expanded, 54,015/s, 20 s (Ctrl-C stops) "
    wide = "  searching: best so far " + "\u738b" * 40  # a move named in wide characters: two columns each
    for text, columns, shown in ((long, 80, long[:79]), (long, None, long), (long, 0, long),
                                 (wide, 40, wide[:25 + 7]), ("a\nb", 80, "a\\nb")):
        def size(fd: int, columns: int | None = columns) -> os.terminal_size:
            if columns is None:
                raise OSError("not a terminal")
            return os.terminal_size((columns, 24))

        monkeypatch.setattr(os, "get_terminal_size", size)
        monkeypatch.setattr(sys, "stderr", Terminal())
        show_status(text)
        assert sys.stderr.getvalue() == "\r" + shown + "\x1b[K"


def test_the_strong_progress_line_counts_each_phase_at_its_own_rate(capsys: pytest.CaptureFixture[str]) -> None:
    """The rate of a phase is its own work over its own time: 50 positions solved in the second
    after 10 s of finding positions is 50/s, not 50 over 11 s."""
    from gdl.cli.solve import StrongProgressLine
    from searchers.strong import StrongProgress

    line = StrongProgressLine()
    line(StrongProgress(phase="discovering", positions=100, done=100, seconds=10.0))
    assert "100 positions found, 100 expanded, 10/s, 10 s" in capsys.readouterr().err
    line(StrongProgress(phase="solving", positions=100, done=50, seconds=11.0, tier=3))
    assert "solving: tier 3, 50 of 100 positions, 50/s, 11 s" in capsys.readouterr().err

