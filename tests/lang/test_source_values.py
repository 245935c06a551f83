"""A value written back as the language writes it (`source_text`): a parameter given that text
has the same value again. A tablebase records its parameters so, and reads them back to build
its game; `gdl check` shows them so."""

from __future__ import annotations

import json
import sqlite3
from fractions import Fraction
from pathlib import Path
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import gdl
from gdl.cli import main
from gdl.parser import parse_value
from gdl.values import Map, Set, make_grid, source_text, symbol

GAME = """game "Parameters"
players A, B
symbols red, blue
param p = {default}
state:
    n = 1
to_move = A
moves = [1]
result(m):
    n -= m
terminal = n == 0
utility = 0
"""

atoms = st.one_of(
    st.integers(-10**30, 10**30),
    st.fractions().filter(lambda f: f.denominator != 1),
    st.booleans(),
    st.text(max_size=8),  # any characters: quotes, backslashes, line ends, controls, beyond ASCII
    st.sampled_from([symbol("red"), symbol("blue"), symbol("empty"), symbol("A")]),
)
hashable = st.recursive(atoms, lambda inner: st.lists(inner, max_size=3).map(tuple), max_leaves=6)
values = st.recursive(
    hashable,
    lambda inner: st.one_of(
        st.lists(inner, max_size=3).map(tuple),
        st.lists(hashable, max_size=3).map(Set),
        st.dictionaries(hashable, inner, max_size=3).map(Map),
    ),
    max_leaves=10,
)


def read_back(text: str) -> Any:
    """The value a parameter given ``text`` has in a game, as its default and as the value
    given for it (a parameter takes values of its default's kind)."""
    written = gdl.build(GAME.replace("{default}", text)).params["p"]
    overridden = gdl.build(GAME.replace("{default}", text), "<string>", {"p": parse_value(text)}).params["p"]
    assert written == overridden
    return written


@settings(max_examples=150, deadline=None)
@given(values)
def test_every_value_written_reads_back_the_same(value: Any) -> None:
    again = read_back(source_text(value))
    assert again == value
    assert source_text(again) == source_text(value)


@pytest.mark.parametrize(("value", "text"), [
    (("x", 'y"\n\\'), '("x", "y\\"\\n\\\\")'),
    (("é\x01",), '("é\\x01",)'),
    (Fraction(-1, 2), "-1/2"),
    (Set([]), "set([])"),
    (Map({symbol("red"): (1, "a")}), '{red: (1, "a")}'),
    (make_grid(2, 2, [0, 5, 0, 0]), "put(grid(2, 2, 0), (0, 1), 5)"),
    (make_grid(1, 2, [symbol("empty")] * 2), "grid(1, 2, empty)"),
])
def test_values_as_the_language_writes_them(value: Any, text: str) -> None:
    assert source_text(value) == text
    assert read_back(text) == value


# Parameters whose kind the file tells by how it writes them: a list is a tuple at run time,
# but the checks keep the two apart (`[1] + (2,)` is an error), so a value written back must
# give the kind again.
KINDS = [
    "[1, 2]",
    "[5]",
    "[]",
    "[[1], [2, 3]]",
    '{"a": [1, 2]}',
    "(1, [2])",
    '[("x", [true])]',
    "{[1], [2]}",
    'put(grid(1, 3, red), (0, 0), "red")',
    "[grid(1, 1, [0])]",
    "10 ** 4500",  # more digits than a literal may have
    "-(10 ** 2000) + 7",
    "(10 ** 1200 + 1) / 10 ** 1500",
]


@pytest.mark.parametrize("default", KINDS)
def test_a_value_written_back_has_its_kind_again(default: str) -> None:
    game = gdl.build(GAME.replace("{default}", default))
    value, kind = game.params["p"], game.checked.params["p"].kind
    text = source_text(value, kind)
    again = gdl.build(GAME.replace("{default}", default), "<string>", {"p": parse_value(text)})
    assert again.params["p"] == value
    assert again.checked.params["p"].kind == kind
    if isinstance(value, tuple):
        assert [type(cell) for cell in again.params["p"]] == [type(cell) for cell in value]  # "red" is no symbol red


def test_a_grid_of_strings_and_symbols_of_one_name_keeps_them_apart() -> None:
    board = make_grid(1, 3, ["red", symbol("red"), symbol("red")])
    assert source_text(board) == 'put(grid(1, 3, red), (0, 0), "red")'


NAMED = """game "Names"
players A, B
param names = ["x", "y"]
param board = put(grid(2, 2, 0), (1, 0), 7)
state:
    n = 2
    mover = A
to_move = mover
moves = [1]
result(m):
    n -= m
    mover = other(mover)
terminal = n == 0
utility = 1 if mover == A else -1
display = str(n) + " of " + str(len(names + ["z"]))
"""


def test_a_tablebase_of_strings_in_a_list_and_of_a_grid_reads_its_parameters_back(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    path, out = tmp_path / "names.gdl", tmp_path / "names.sqlite"
    path.write_text(NAMED)
    assert main(["solve", str(path), "--out", str(out)]) == 0
    with sqlite3.connect(out) as connection:
        (params,) = connection.execute("SELECT value FROM meta WHERE name = 'params'").fetchone()
    assert '"names": "[\\"x\\", \\"y\\"]"' in params  # a list, of strings quoted
    capsys.readouterr()
    # A takes 1, B takes the last: A is to move at the end, which `utility` scores 1 for A.
    assert main(["query", str(out)]) == 0
    assert "value 1 for A, the game ends in 2 plies with perfect play" in capsys.readouterr().out
    table = gdl.Tablebase(out)
    assert table.game.params["names"] == ("x", "y")
    assert table.game.params["board"] == make_grid(2, 2, [0, 0, 7, 0])
    assert table.value(table.game.initial_state()) == 1
    assert main(["check", str(path)]) == 0
    assert 'parameters names=["x", "y"], board=put(grid(2, 2, 0), (1, 0), 7)' in capsys.readouterr().out


def test_a_list_prints_in_brackets_where_its_kind_is_known() -> None:
    from gdl.kinds import INT, STRING, list_of, map_of, set_of, tuple_of
    from gdl.values import to_text

    # At run time a list is a tuple: only the kind the file gives it tells the two apart.
    assert to_text((1, 2)) == "(1, 2)"
    assert to_text((1, 2), kind=list_of(INT)) == "[1, 2]"
    assert to_text(((1,), ()), kind=list_of(list_of(INT))) == "[[1], []]"
    assert to_text((1, (2,)), kind=tuple_of((INT, list_of(INT)))) == "(1, [2])"
    assert to_text(Map({"a": (1,)}), kind=map_of(STRING, list_of(INT))) == "{a: [1]}"
    assert to_text(Set([(1, 2)]), kind=set_of(list_of(INT))) == "{[1, 2]}"
    assert to_text((1, 2), kind=tuple_of((INT, INT))) == "(1, 2)"
    assert to_text(Set([])) == "set([])" == source_text(Set([]))  # the language has no `set()`


def test_a_tablebase_that_wrote_a_string_otherwise_is_still_its_games(
        capsys: pytest.CaptureFixture[str], tmp_path: Path) -> None:
    """Tablebases written before parameters were recorded as the language writes them hold a
    string as JSON (`"caf\\u00e9"`): the same value, so the same game; another value is not."""
    path, out = tmp_path / "label.gdl", tmp_path / "label.sqlite"
    path.write_text(Path("games/subtraction.gdl").read_text().replace("param stones", 'param label = "café"\nparam stones', 1))
    assert main(["solve", str(path), "--out", str(out)]) == 0
    with sqlite3.connect(out) as connection:
        (params,) = connection.execute("SELECT value FROM meta WHERE name = 'params'").fetchone()
        recorded = json.loads(params)
        assert recorded["label"] == '"café"'
        recorded["label"] = json.dumps("café")  # as gdl wrote it before: "caf\u00e9"
        assert recorded["label"] == '"caf\\u00e9"'
        connection.execute("UPDATE meta SET value = ? WHERE name = 'params'", (json.dumps(recorded),))
    capsys.readouterr()
    game = gdl.load(path)
    table = gdl.Tablebase(out)
    assert table.game.params["label"] == "café"
    assert main(["play", str(path), "--tablebase", str(out), "--as", "none"]) == 0
    assert "error" not in capsys.readouterr().err
    assert main(["play", str(path), "-p", 'label="cafe"', "--tablebase", str(out), "--as", "none"]) == 1
    assert "the tablebase was built with other parameters" in capsys.readouterr().err
    assert game.params["label"] == "café"


def test_str_and_join_write_a_list_in_brackets() -> None:
    game = gdl.loads("""game "Text"
players A, B
state:
    xs = [1, 2]
    pairs = [(1, [2])]
to_move = A
moves = [1]
result(m):
    xs = [m]
terminal = xs == [1]
utility = 0
display = str(xs) + " " + join(";", [xs, [3]]) + " " + str(pairs) + " " + str((1, 2)) + " " + join(",", [1, 2])
""")
    assert game.display(game.initial_state()) == "[1, 2] [1, 2];[3] [(1, [2])] (1, 2) 1,2"
