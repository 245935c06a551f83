"""Sets, slices, branches of one statement on the line of their `if`, and `count` of booleans:
each value proven against the same computation in Python."""

from __future__ import annotations

import subprocess
import sys
from typing import Any

import pytest

import gdl
from gdl.values import Set
from interpreter import symbol
from searchers.perft import perft
from tests.lang.harness import after, game_text, same, value, values

A, B = symbol("A"), symbol("B")

SETS = [
    ("3 in {1, 2, 3}", True),
    ("4 in {1, 2, 3}", False),
    ("4 not in {1, 2, 3}", True),
    ("A in {A, B}", True),
    ("(0, 1) in {(r, c) for r in range(2) for c in range(2)}", True),
    ("list({3, 1, 2, 1})", (3, 1, 2)),  # each item once, in the order first given
    ("{1, 2} == {2, 1}", True),  # equal sets hold the same items, in any order
    ("{1, 2} == {1, 2, 3}", False),
    ("{1, 2} != {2}", True),
    ("{x % 3 for x in range(10)}", Set([0, 1, 2])),
    ("set([2, 2, 1])", Set([2, 1])),
    ("len(set(\"abca\"))", 3),
    ("len(set([]))", 0),
    ("{1, 2} + {2, 3}", Set([1, 2, 3])),
    ("{1, 2, 3} - {2}", Set([1, 3])),
    ("sorted({3, 1, 2})", (1, 2, 3)),
    ("[x * 10 for x in {2, 1}]", (20, 10)),
    ("str({1, A})", "{1, A}"),
    ("str(set([]))", "set([])"),
    ("len({})", 0),  # `{}` is still the empty map
    ("{} == {1: 2}", False),
]

SLICES = [
    ("[1, 2, 3, 4][1:]", (2, 3, 4)),
    ("[1, 2, 3][:-1]", (1, 2)),
    ("[1, 2, 3][-2:]", (2, 3)),
    ("[1, 2, 3][:]", (1, 2, 3)),
    ("[1, 2, 3][5:]", ()),
    ("[1, 2, 3][2:1]", ()),
    ("(1, A, 3)[1:]", (A, 3)),
    ('"hello"[1:3]', "el"),
    ('"hello"[:-1]', "hell"),
    ('"hello"[10:]', ""),
    ("[x for x in range(6)][2:4]", (2, 3)),
]


@pytest.fixture(scope="module")
def evaluated() -> dict[str, Any]:
    """Every expression of the tables, evaluated in one game."""
    return values([e for e, _ in SETS + SLICES])


@pytest.mark.parametrize(("expr", "expected"), SETS + SLICES, ids=[e for e, _ in SETS + SLICES])
def test_expression(expr: str, expected: Any, evaluated: dict[str, Any]) -> None:
    actual = evaluated[expr] if expr in evaluated else value(expr)
    assert same(actual, expected), actual


def test_slices_with_bounds_computed_in_the_rules() -> None:
    body = "let xs = [10, 20, 30, 40]\nout = xs[m:m + 2] + xs[:m]"
    state = after(body, fields="out = []", move=1, moves="[1]")
    assert tuple(state.out) == (20, 30, 10)


def test_a_set_is_a_hash_set() -> None:
    # Membership asks the set's hash table, not every item: the value is a frozenset.
    made = value("set(range(1000))")
    assert isinstance(made, frozenset) and 999 in made and len(made) == 1000


def test_a_loop_over_a_set_goes_the_same_way_whatever_python_hashes_strings_to() -> None:
    script = (
        "import gdl\n"
        "from tests.lang.harness import value\n"
        "print(value('[str(s) for s in {X, Y, Z, empty, A, B}]', 'symbols X, Y, Z\\n'))\n"
    )
    orders = {
        subprocess.run([sys.executable, "-c", script], capture_output=True, text=True, check=True,
                       env={"PYTHONHASHSEED": seed, "PATH": ""}).stdout
        for seed in ("1", "2")
    }
    assert orders == {"('X', 'Y', 'Z', 'empty', 'A', 'B')\n"}


def test_a_map_read_back_in_another_process_hashes_as_that_process_hashes_it() -> None:
    """A map keeps its hash once made, but not through pickle: read back where Python hashes
    strings otherwise (a Ray worker), it equals a map made there, and so hashes like it (one
    item in a set of both, not two)."""
    made = (
        "import pickle\n"
        "from gdl.values import Map, symbol\n"
        "scores = Map({symbol('First'): 3, symbol('Second'): 5})\n"
        "hash(scores)\n"
        "print(pickle.dumps(scores).hex())\n"
    )
    read = (
        "import pickle, sys\n"
        "from gdl.values import Map, symbol\n"
        "back = pickle.loads(bytes.fromhex(sys.stdin.read()))\n"
        "print(len({back, Map({symbol('First'): 3, symbol('Second'): 5})}), type(back).__name__, back == {'First': 3, 'Second': 5})\n"
    )
    pickled = subprocess.run([sys.executable, "-c", made], capture_output=True, text=True, check=True,
                             env={"PYTHONHASHSEED": "1", "PATH": ""}).stdout
    shown = subprocess.run([sys.executable, "-c", read], input=pickled, capture_output=True, text=True, check=True,
                           env={"PYTHONHASHSEED": "2", "PATH": ""}).stdout
    assert shown == "1 Map True\n"


CELLS_TAKEN = """
game "Cells"
players A, B
state:
    taken = set([])
    mover = A
to_move = mover
moves = [c for c in cells(3) if c not in taken]
result(c):
    taken = taken + {c}
    mover = other(mover)
terminal = len(taken) == 9
utility = 0
"""


def test_a_set_field_in_a_game() -> None:
    game = gdl.loads(CELLS_TAKEN)
    # 9 cells, taken one by one: 9 * 8 * ... move sequences.
    assert [perft(game, depth) for depth in (1, 2, 3, 4)] == [9, 72, 504, 3024]


@pytest.mark.parametrize("move, expected", [(0, 1), (1, 2), (5, 3)])
def test_a_branch_may_stand_on_the_line_of_its_if(move: int, expected: int) -> None:
    body = "if m == 0: out = 1\nelif m == 1: out = 2\nelse: out = 3"
    assert after(body, move=move, moves="[0, 1, 5]").out == expected


def test_a_function_may_return_from_the_line_of_its_if() -> None:
    decls = "def sign_of(n):\n    if n > 0: return 1\n    elif n < 0: return -1\n    else: return 0\n"
    assert [value(f"sign_of({n})", decls) for n in (5, -2, 0)] == [1, -1, 0]


@pytest.mark.parametrize("expr", ["count(x > 1 for x in [1, 2, 3])", "count([true, false])"])
def test_count_of_booleans_is_a_check_error_that_says_how_to_count_the_true_ones(expr: str) -> None:
    with pytest.raises(gdl.GdlCheckError) as caught:
        gdl.loads(game_text(fields=f"out = {expr}"))
    assert [e.message for e in caught.value.errors] == [
        "`count` counts every item, true and false alike: to count the items for which a condition "
        "holds, write the condition as a filter: `count(x for x in xs if CONDITION)`"
    ]


@pytest.mark.parametrize(
    "expr, expected",
    [("count(x for x in [1, 2, 3] if x > 1)", 2), ("count(b for b in [true, false, true] if b)", 2), ("count([true, false, true], true)", 2)],
)
def test_counting_the_items_for_which_a_condition_holds(expr: str, expected: int) -> None:
    assert value(expr) == expected


@pytest.mark.parametrize(
    "expr, message",
    [
        ("{1, 2}[0]", "a set cannot be indexed with [...]; `x in s` asks whether it holds x"),
        ("{1} == [1]", "comparing a set with a list: `==` would always be false"),
        ("grid(2, 2, 0)[1:]", "only a list, tuple or string can be sliced with [a:b], not a grid"),
        ("[1, 2][true:]", "a slice bound must be an integer, got a boolean"),
    ],
)
def test_mistakes_with_sets_and_slices_are_check_errors(expr: str, message: str) -> None:
    with pytest.raises(gdl.GdlCheckError) as caught:
        gdl.loads(game_text(fields=f"out = {expr}"))
    assert [e.message for e in caught.value.errors] == [message]
