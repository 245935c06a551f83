"""The text of a game file: UTF-8 (a byte-order mark ignored), lines ending only at a newline,
strings with the documented escapes and nothing else. Every mistake is a GdlSyntaxError at its
line and column, and the line it quotes is the line it names."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from pathlib import Path

import pytest

import gdl
from gdl.errors import GdlError, GdlSyntaxError
from tests.lang.harness import game_text, value

# ---- strings ---------------------------------------------------------------------------------

ESCAPES = [
    ('"\\""', '"'),
    ('"\\\\"', "\\"),
    ('"a\\nb"', "a\nb"),
    ('"a\\tb"', "a\tb"),
    ('"a\\rb"', "a\rb"),
    ('"\\x41\\x7e"', "A~"),
    ('"\\u00e9\\u20AC"', "é€"),
    ('"\\U0001F600\\U0010FFFF"', chr(0x1F600) + chr(0x10FFFF)),
    ('"\\x00"', chr(0)),  # a NUL written as an escape is a character like another
    ('"\\ud800"', chr(0xD800)),  # a lone surrogate: a character of a Python string
    ('"tab\there"', "tab\there"),  # a tab written as itself
    ('"\u2028\u00e9"', "\u2028\u00e9"),  # a line separator and an accent: no control characters
]


@pytest.mark.parametrize(("literal", "text"), ESCAPES, ids=[repr(t) for _, t in ESCAPES])
def test_each_documented_escape_is_the_character_it_names(literal: str, text: str) -> None:
    assert value(literal) == text
    assert gdl.parse_value(literal) == gdl.ast.String(text, line=1, column=1)


BAD_ESCAPES = [
    ('"\\N{LATIN SMALL LETTER A}"', 2, "`\\N` is not an escape"),
    ('"ab\\x4"', 4, "`\\x` needs exactly 2 hexadecimal digits, as in `\\x41`"),
    ('"\\u12"', 2, "`\\u` needs exactly 4 hexadecimal digits, as in `\\u0041`"),
    ('"\\U1234567"', 2, "`\\U` needs exactly 8 hexadecimal digits, as in `\\U00000041`"),
    ('"\\U0011FFFF"', 2, "`\\U0011FFFF` is not a character"),
    ('"x\\q"', 3, "`\\q` is not an escape"),
    ('"\\0"', 2, "`\\0` is not an escape"),
    ('"\\\'"', 2, "`\\'` is not an escape"),
    ('"a\x00b"', 3, "a string cannot hold the control character U+0000; write it as an escape (`\\x00`)"),
    ('"\x1b[31m"', 2, "a string cannot hold the control character U+001B; write it as an escape (`\\x1b`)"),
    ('"a\x85"', 3, "a string cannot hold the control character U+0085; write it as an escape (`\\x85`)"),
]


@pytest.mark.parametrize(("literal", "offset", "message"), BAD_ESCAPES, ids=[b[0] for b in BAD_ESCAPES])
def test_a_bad_escape_or_a_control_character_is_a_syntax_error_at_its_column(literal: str, offset: int, message: str) -> None:
    with pytest.raises(GdlSyntaxError) as caught:
        value(literal)
    error = caught.value
    assert error.message.startswith(message)
    # The harness writes the field as `    out = LITERAL` on line 5: the string starts at column 11.
    assert (error.line, error.column) == (5, 10 + offset)
    assert error.source_line == "    out = " + literal
    # A value given on the command line is read the same way.
    with pytest.raises(GdlSyntaxError) as caught:
        gdl.parse_value(literal)
    assert caught.value.message.startswith(message) and caught.value.column == offset


def test_a_bad_escape_in_the_title_is_a_syntax_error() -> None:
    with pytest.raises(GdlSyntaxError) as caught:
        gdl.loads(game_text().replace('game "Harness"', 'game "Bad \\N{X}"'))
    assert (caught.value.line, caught.value.column) == (1, 11)


# ---- the bytes of a file ---------------------------------------------------------------------


def test_a_file_that_is_not_utf8_is_a_syntax_error_at_its_first_bad_byte(tmp_path: Path) -> None:
    lines = game_text().encode("utf-8").split(b"\n")
    lines[4] = "    out = \"é\"".encode("utf-8") + b" # \xff\xfe"  # the bad byte is character 16 of line 5
    path = tmp_path / "latin.gdl"
    path.write_bytes(b"\n".join(lines))
    with pytest.raises(GdlSyntaxError) as caught:
        gdl.load(path)
    error = caught.value
    assert (error.file, error.line, error.column) == (str(path), 5, len('    out = "é" # ') + 1)
    assert error.message == "the file is not UTF-8 text: byte 0xff cannot be read here"
    assert error.source_line is not None and error.source_line.startswith('    out = "é" # ')


def test_an_sqlite_file_is_named_as_one_not_as_text_that_is_not_utf8(tmp_path: Path) -> None:
    # A tablebase given where the game file goes: its bytes are not quoted as a line of text.
    path = tmp_path / "game.sqlite"
    with closing(sqlite3.connect(path)) as connection:
        connection.execute("CREATE TABLE positions (key BLOB)")
    assert path.read_bytes().startswith(b"SQLite format 3\0")
    with pytest.raises(GdlError) as caught:
        gdl.load(path)
    error = caught.value
    assert not isinstance(error, GdlSyntaxError) and (error.file, error.line) == (str(path), None)
    assert error.message.startswith("this is an SQLite database (a tablebase?), not a game file: `gdl query FILE`")


def test_a_byte_order_mark_at_the_start_is_ignored(tmp_path: Path) -> None:
    text = game_text(fields="out = 7")
    path = tmp_path / "bom.gdl"
    path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    assert gdl.load(path).initial_state().out == 7
    assert gdl.loads("\ufeff" + text).initial_state().out == 7
    # Positions on the first line are those of the text without the mark.
    broken = "\ufeffgame Harness\n"
    with pytest.raises(GdlSyntaxError) as with_mark:
        gdl.loads(broken)
    with pytest.raises(GdlSyntaxError) as without_mark:
        gdl.loads(broken[1:])
    assert (with_mark.value.line, with_mark.value.column) == (without_mark.value.line, without_mark.value.column)
    assert with_mark.value.source_line == "game Harness"


def test_windows_line_ends_give_the_same_positions(tmp_path: Path) -> None:
    text = game_text(fields="out = bogus")
    path = tmp_path / "crlf.gdl"
    path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    with pytest.raises(GdlError) as from_file:
        gdl.load(path)
    with pytest.raises(GdlError) as from_text:
        gdl.loads(text)
    assert (from_file.value.line, from_file.value.column, from_file.value.source_line) == (
        from_text.value.line, from_text.value.column, from_text.value.source_line,
    )


# ---- lines -----------------------------------------------------------------------------------

# Characters that Python's str.splitlines() takes for line ends, but the grammar does not.
NOT_LINE_ENDS = ["\f", "\x1c", "\x1d", "\x1e", "\x85", "\u2028", "\u2029", "\x0b"]


@pytest.mark.parametrize("char", NOT_LINE_ENDS, ids=[f"U+{ord(c):04X}" for c in NOT_LINE_ENDS])
def test_the_line_quoted_is_the_line_reported(char: str) -> None:
    text = f"# a comment with {char} inside\n" + game_text(fields="out = bogus")
    with pytest.raises(GdlError) as caught:
        gdl.loads(text)
    error = caught.value
    line = text.split("\n")[(error.line or 0) - 1]
    assert error.source_line == line == "    out = bogus"
    assert error.column is not None and line[error.column - 1:] == "bogus"  # the caret is under it


def test_a_character_that_is_no_line_end_leaves_the_line_numbers_alone() -> None:
    base = game_text(fields="out = bogus")
    for char in NOT_LINE_ENDS:
        with pytest.raises(GdlError) as caught:
            gdl.loads(f"# {char}\n" + base)
        assert caught.value.line == 6  # line 5 of the harness, after the comment's line


def test_gdl_check_reports_a_file_that_is_not_utf8_at_its_first_bad_byte(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    from gdl.cli import main

    path = tmp_path / "latin.gdl"
    path.write_bytes(game_text().encode("utf-8").replace(b"out = 0", b"out = 0 # caf\xe9"))
    assert main(["check", str(path)]) == 1
    first = capsys.readouterr().err.splitlines()[0]
    column = len("    out = 0 # caf") + 1
    assert first == f"{path}:5:{column}: error: the file is not UTF-8 text: byte 0xe9 cannot be read here"
