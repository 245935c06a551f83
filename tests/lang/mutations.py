"""Broken game files made from the bundled ones, and what may come of loading them.

A mutant is a bundled game file with a few changes of the kinds people and tools make:
lines and tokens deleted, duplicated and swapped; stray and non-UTF-8 bytes; deep nesting;
long lines; huge numbers.  Loading one may give a game, which must then play 40 random moves,
or a `GdlError` whose quoted line is the line it reports — nothing else.  The suite runs a
few thousand mutants (tests/lang/test_fuzz.py); `python -m benchmarks.fuzz` runs many more.
"""

from __future__ import annotations

import contextlib
import io
import random
import re
import tempfile
from collections.abc import Callable
from pathlib import Path

import gdl
from gdl.errors import GdlError

ROOT = Path(__file__).resolve().parents[2]
GAME_FILES = sorted(
    [*ROOT.glob("games/*.gdl"), *ROOT.glob("games/textbook/*.gdl"), *ROOT.glob("docs/tutorial/*.gdl")]
)
SOURCES: dict[str, bytes] = {path.relative_to(ROOT).as_posix(): path.read_bytes() for path in GAME_FILES}

_TOKEN = re.compile(rb'"(?:[^"\\\n]|\\.)*"|\w+|\*\*|//|[=!<>]=|->|\S')
_STRAY = [b"\x00", b"\x0c", b"\x1c", b"\x85", "\u2028".encode(), b"\xef\xbb\xbf", b"\t", b"\r",
          b"\\", b"'", b'"', b"$", b"(", b")", b"[", b"]", b":", b"#", b"\x1b[31m"]


def _lines(data: bytes) -> list[bytes]:
    return data.split(b"\n")


def _delete_line(data: bytes, pick: random.Random) -> bytes:
    lines = _lines(data)
    del lines[pick.randrange(len(lines))]
    return b"\n".join(lines)


def _duplicate_line(data: bytes, pick: random.Random) -> bytes:
    lines = _lines(data)
    i = pick.randrange(len(lines))
    lines.insert(i, lines[i])
    return b"\n".join(lines)


def _swap_lines(data: bytes, pick: random.Random) -> bytes:
    lines = _lines(data)
    i, j = pick.randrange(len(lines)), pick.randrange(len(lines))
    lines[i], lines[j] = lines[j], lines[i]
    return b"\n".join(lines)


def _tokens(data: bytes) -> list[re.Match[bytes]]:
    return list(_TOKEN.finditer(data))


def _delete_token(data: bytes, pick: random.Random) -> bytes:
    tokens = _tokens(data)
    token = tokens[pick.randrange(len(tokens))]
    return data[: token.start()] + data[token.end():]


def _duplicate_token(data: bytes, pick: random.Random) -> bytes:
    tokens = _tokens(data)
    token = tokens[pick.randrange(len(tokens))]
    return data[: token.end()] + b" " + token.group() + data[token.end():]


def _swap_tokens(data: bytes, pick: random.Random) -> bytes:
    tokens = _tokens(data)
    a, b = sorted((tokens[pick.randrange(len(tokens))], tokens[pick.randrange(len(tokens))]),
                  key=lambda m: m.start())
    if a.start() == b.start():
        return data
    return (data[: a.start()] + b.group() + data[a.end(): b.start()] + a.group()
            + data[b.end():])


def _stray_bytes(data: bytes, pick: random.Random) -> bytes:
    at = pick.randrange(len(data) + 1)
    stray = pick.choice(_STRAY) if pick.random() < 0.7 else bytes([pick.randrange(256)])
    return data[:at] + stray + data[at:]


def _not_utf8(data: bytes, pick: random.Random) -> bytes:
    at = pick.randrange(len(data))
    return data[:at] + bytes([pick.randrange(0x80, 0x100)]) + data[at + 1:]


def _deep_nesting(data: bytes, pick: random.Random) -> bytes:
    """An expression nested far deeper than any game needs, in place of a number or a name."""
    tokens = [t for t in _tokens(data) if re.fullmatch(rb"\w+", t.group())]
    token = tokens[pick.randrange(len(tokens))]
    depth = pick.choice([50, 199, 300, 501, 2000])
    shape = pick.choice([(b"(", b")"), (b"[", b"]"), (b"-", b""), (b"not ", b""), (b"f(", b")")])
    nested = shape[0] * depth + token.group() + shape[1] * depth
    if pick.random() < 0.5:  # or a long chain: a + a + a ..., x if c else x if c else ...
        joint = pick.choice([b" + ", b" * ", b" and ", b" if true else ", b", "])
        nested = joint.join([token.group()] * depth)
    return data[: token.start()] + nested + data[token.end():]


def _long_line(data: bytes, pick: random.Random) -> bytes:
    lines = _lines(data)
    i = pick.randrange(len(lines))
    lines[i] = lines[i] + b" " + b" ".join([b"x"] * pick.choice([1000, 20000]))
    return b"\n".join(lines)


def _huge_number(data: bytes, pick: random.Random) -> bytes:
    numbers = [t for t in _tokens(data) if t.group().isdigit()]
    if not numbers:
        return data
    token = numbers[pick.randrange(len(numbers))]
    digits = pick.choice([b"9" * 30, b"9" * 4000, b"9" * 4001, b"1" + b"0" * 300, b"0"])
    return data[: token.start()] + digits + data[token.end():]


MUTATIONS: dict[str, Callable[[bytes, random.Random], bytes]] = {
    "delete a line": _delete_line,
    "duplicate a line": _duplicate_line,
    "swap two lines": _swap_lines,
    "delete a token": _delete_token,
    "duplicate a token": _duplicate_token,
    "swap two tokens": _swap_tokens,
    "insert stray bytes": _stray_bytes,
    "break the UTF-8": _not_utf8,
    "nest deeply": _deep_nesting,
    "make a line long": _long_line,
    "make a number huge": _huge_number,
}


def mutant(name: str, seed: int, changes: int) -> tuple[bytes, list[str]]:
    """The bundled file ``name`` with ``changes`` random mutations (chosen by ``seed``)."""
    pick = random.Random(seed)
    data = SOURCES[name]
    done = []
    for _ in range(changes):
        kind = pick.choice(list(MUTATIONS))
        data = MUTATIONS[kind](data, pick)
        done.append(kind)
    return data, done


def quoted_line_agrees(error: GdlError, data: bytes) -> bool:
    """Whether the line the error quotes is the file's line it reports.

    A file's lines end at `\\n`, `\\r\\n` or a lone `\\r`, as editors show them.
    """
    if error.line is None or error.source_line is None:
        return True  # nothing quoted, so nothing quoted wrongly
    data = data.replace(b"\r\n", b"\n").replace(b"\r", b"\n")
    text = data.decode("utf-8", errors="replace")
    if text.startswith("\ufeff"):
        text = text[1:]
    lines = text.split("\n")
    if not 1 <= error.line <= len(lines):
        return False
    return error.source_line.rstrip("\r") == lines[error.line - 1].rstrip("\r")


def play_random_moves(game: object, moves: int, seed: int) -> None:
    """Play up to ``moves`` random moves (and dice) from the start; rules may fail only with
    a GdlError."""
    pick = random.Random(seed)
    state = game.initial_state()  # type: ignore[attr-defined]
    for _ in range(moves):
        if game.is_terminal(state):  # type: ignore[attr-defined]
            game.utility(state, game.players[0])  # type: ignore[attr-defined]
            return
        if getattr(game, "has_chance", False) and game.is_chance(state):  # type: ignore[attr-defined]
            options = [outcome for outcome, _ in game.chance_outcomes(state)]  # type: ignore[attr-defined]
        else:
            options = list(game.actions(state))  # type: ignore[attr-defined]
        state = game.result(state, pick.choice(options))  # type: ignore[attr-defined]


def load_mutant(data: bytes, seed: int) -> str:
    """Load ``data`` from Python and say what came of it: "game" or "error".

    Raises AssertionError for any other outcome: an exception that is not a GdlError, or a
    GdlError quoting another line than the one it reports.
    """
    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mutant.gdl"
        path.write_bytes(data)
        try:
            game = gdl.load(path)
            play_random_moves(game, 40, seed)
        except GdlError as error:
            assert error.line is None or error.line >= 1, error.format()
            assert quoted_line_agrees(error, data), f"quotes another line:\n{error.format()}"
            return "error"
    return "game"


def check_mutant(data: bytes) -> int:
    """Run `gdl check` on ``data``; assert it ends as a user's mistake should; return the status."""
    from gdl.cli import main

    with tempfile.TemporaryDirectory() as folder:
        path = Path(folder) / "mutant.gdl"
        path.write_bytes(data)
        out, err = io.StringIO(), io.StringIO()
        with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
            status = main(["check", str(path)])
    stderr = err.getvalue()
    assert status in (0, 1), f"exit status {status}:\n{stderr}"
    assert "Traceback" not in stderr and "internal error" not in stderr, stderr
    if status == 1:
        first = stderr.splitlines()[0]
        assert re.match(re.escape(str(path)) + r":\d+:\d+: error: ", first), first
    return status
