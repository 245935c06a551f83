"""Every construct of the language, evaluated through a tiny game (see `harness`).

Each case is a snippet and the exact value it must have: the kind matters as well as the value
(an int is not a fraction, a symbol is not a string, `true` is not 1).
"""

from __future__ import annotations

from fractions import Fraction as F
from pathlib import Path
from typing import Any

import pytest

import gdl
from gdl.builtins import BUILTINS
from interpreter import Set, Symbol, symbol
from searchers.perft import perft
from tests.lang.harness import G, after, game_text, same, value, values

A, B = symbol("A"), symbol("B")
EMPTY = symbol("empty")

# ---- expressions, evaluated at load ------------------------------------------------------

LITERALS = [
    ("7", 7),
    ("0", 0),
    ("1.5", F(3, 2)),
    ("0.25", F(1, 4)),
    ("0.1 + 0.2 == 0.3", True),  # decimals are exact fractions, not floats
    ("0.1 + 0.2", F(3, 10)),
    ('"hi"', "hi"),
    ('""', ""),
    ('"say \\"hi\\""', 'say "hi"'),
    ('"back\\\\slash"', "back\\slash"),
    ("true", True),
    ("false", False),
    ("A", A),
    ("empty", EMPTY),
    ("chance", symbol("chance")),
]

ARITHMETIC = [
    ("1 + 2 * 3", 7),
    ("(1 + 2) * 3", 9),
    ("7 - 10", -3),
    ("10 - 2 - 3", 5),
    ("6 / 3", 2),  # exact division that comes out whole is an int
    ("7 / 2", F(7, 2)),
    ("1 / 3 + 1 / 6", F(1, 2)),
    ("-6 / 4", F(-3, 2)),
    ("7 // 2", 3),
    ("-7 // 2", -4),
    ("7 % 3", 1),
    ("-7 % 3", 2),
    ("2 ** 10", 1024),
    ("2 ** -2", F(1, 4)),
    ("2 ** 3 ** 2", 512),  # ** groups to the right
    ("-2 ** 2", -4),  # - applies to the power
    ("(-2) ** 2", 4),
    ("-3", -3),
    ("- -3", 3),
    ("-(1.5)", F(-3, 2)),
    ("2 * 3 % 4", 2),
    ("1 + 0.5", F(3, 2)),
    ("1.5 * 1.5", F(9, 4)),
    ("1.25 - 0.75", F(1, 2)),
    ('"ab" + "cd"', "abcd"),
    ('"ab" * 3', "ababab"),
    ("[1] * 3", (1, 1, 1)),
    ("[1] + [2, 3]", (1, 2, 3)),
    ("(1, 2) + (3,)", (1, 2, 3)),
]

COMPARISONS = [
    ("0 <= 2 < 3", True),
    ("0 <= 3 < 3", False),
    ("0 <= -1 < 3", False),
    ("1 < 2 > 0", True),
    ("1 < 2 < 3 < 4 <= 4", True),
    ("1 == 1", True),
    ("1 == 2", False),
    ("1 != 1", False),
    ("1 != 2", True),
    ("2 < 1", False),
    ("2 <= 2", True),
    ("3 > 2", True),
    ("3 >= 4", False),
    ("1 == 1.0", True),
    ("1 / 2 < 0.75", True),
    ('"abc" < "abd"', True),
    ("2 in [1, 2]", True),
    ("3 in [1, 2]", False),
    ("3 not in [1, 2]", True),
    ("2 not in [1, 2]", False),
    ('"at" in "cat"', True),
    ("1 in {1: 2}", True),  # `in` on a map asks about its keys
    ("2 in {1: 2}", False),
    ("(0, 1) in [(0, 1), (1, 1)]", True),
    ("2 in (1, 2, 3)", True),
    ("A == A", True),
    ("A != B", True),
    ("A == B", False),
    ("empty == empty", True),
    ("(1, 2) == (1, 2)", True),
    ("[1, 2] == [1, 2]", True),
    ("[1, 2] != [2, 1]", True),
    ("{1: 2} == {1: 2}", True),
]

LOGIC = [
    ("not true", False),
    ("not false", True),
    ("not not true", True),
    ("true and false", False),
    ("true and true", True),
    ("false or true", True),
    ("false or false", False),
    ("true or false and false", True),  # `and` binds tighter than `or`
    ("not 1 > 2 and 2 > 1", True),  # `not` binds looser than comparisons
    ("false and [1][5] == 1", False),  # short-circuit: the index is never evaluated
    ("true or 1 / 0 == 1", True),
    ("1 if true else 2", 1),
    ("1 if false else 2", 2),
    ("1 if false else 2 if false else 3", 3),
    ("1 if false else 2 if true else 3", 2),
    ("[1][5] if false else 0", 0),  # only the chosen branch is evaluated
    ("(1 if true else 2) + 10", 11),
]

COLLECTIONS = [
    ('(1, "a", true)', (1, "a", True)),
    ("(1,)", (1,)),
    ("()", ()),
    ("(1, 2,)", (1, 2)),
    ("(1 + 2)", 3),  # brackets alone make no tuple
    ("((1, 2), (3,))", ((1, 2), (3,))),
    ("[1, 2, 3]", (1, 2, 3)),  # lists are tuples at run time: immutable and hashable
    ("[]", ()),
    ("[1, 2,]", (1, 2)),
    ("[[1], []]", ((1,), ())),
    ('{1: "a", 2: "b"}', {1: "a", 2: "b"}),
    ("{}", {}),
    ("{(0, 1): A}", {(0, 1): A}),
    ("{2: 1, 1: 2,}", {2: 1, 1: 2}),
    ("{1: 1, 1: 2}", {1: 2}),  # a later key replaces an earlier one
]

INDEXING = [
    ("[10, 20, 30][1]", 20),
    ("[10, 20, 30][0]", 10),
    ("[10, 20, 30][-1]", 30),
    ('(1, "a")[1]', "a"),
    ('{1: "a", 2: "b"}[2]', "b"),
    ("{(0, 1): A}[(0, 1)]", A),
    ('"abc"[1]', "b"),
    ("[[1, 2], [3, 4]][1][0]", 3),
    ("((1, 2), (3, 4))[0][1]", 2),
    ("put(grid(2, 3, 0), (1, 2), 5)[1, 2]", 5),  # board[r, c]
    ("put(grid(2, 3, 0), (1, 2), 5)[(1, 2)]", 5),  # board[c] with a cell
    ("put(grid(2, 3, 0), (1, 2), 5)[0, 2]", 0),
    ("[x for x in range(5)][2]", 2),
]

COMPREHENSIONS = [
    ("[x * x for x in range(4)]", (0, 1, 4, 9)),
    ("[x * y for x in range(3) for y in range(3) if x < y if y > 1]", (0, 2)),
    ("[(x, y) for x in range(3) for y in range(x)]", ((1, 0), (2, 0), (2, 1))),
    ("[x for x in range(10) if x % 2 == 0 if x > 4]", (6, 8)),
    ("[x for x in range(4) if x > 0 for y in range(x) if y != 1]", (1, 2, 3, 3)),
    ("[a + b for (a, b) in [(1, 2), (3, 4)]]", (3, 7)),
    ("[a for a, b in [(1, 2), (3, 4)] if b > 2]", (3,)),
    ("[a + b + c for (a, (b, c)) in [(1, (2, 3)), (4, (5, 6))]]", (6, 15)),
    ("[y for x in [[1, 2], [3]] for y in x]", (1, 2, 3)),
    ('[c + c for c in "ab"]', ("aa", "bb")),
    ("[k for k in {1: 2, 3: 4}]", (1, 3)),
    ("[i * 10 + x for (i, x) in enumerate([5, 6])]", (5, 16)),
    ("[x for x in []]", ()),
    ("{x: x * x for x in range(3)}", {0: 0, 1: 1, 2: 4}),
    ("{k: v for (k, v) in [(1, 2), (3, 4)] if k > 1}", {3: 4}),
    ("{(r, c): r * 2 + c for r in range(2) for c in range(2) if r != c}", {(0, 1): 1, (1, 0): 2}),
    ("any(x > 2 for x in range(4))", True),
    ("any(x > 5 for x in range(4))", False),
    ("all(x < 4 for x in range(4))", True),
    ("all(x < 3 for x in range(4))", False),
    ("all(x > 0 for x in [])", True),
    ("any(a == b for (a, b) in [(1, 2), (3, 3)])", True),
    ("count(x for x in range(10) if x % 3 == 0)", 4),
    ("count(x for x in range(3) for y in range(2))", 6),
    ("sum(x * x for x in range(4))", 14),
    ("sum(a * b for (a, b) in [(1, 2), (3, 4)])", 14),
    ("sum(x / 4 for x in range(4))", F(3, 2)),
    ("min(x * x - 4 * x for x in range(5))", -4),
    ("max(-x for x in [3, 1, 2])", -1),
    ("max(x for x in range(4) if x % 2 == 0)", 2),
]

# One case or more for every built-in function; test_every_builtin_has_a_case checks the list.
BUILTIN_CASES = [
    ("abs(-3)", 3),
    ("abs(4)", 4),
    ("abs(-1.5)", F(3, 2)),
    ("sign(-2)", -1),
    ("sign(0)", 0),
    ("sign(0.5)", 1),
    ("min(3, 1, 2)", 1),
    ("min([3, 1, 2])", 1),
    ("min(1.5, 2)", F(3, 2)),
    ("max(3, 1, 2)", 3),
    ("max([3, 1, 2])", 3),
    ('max("a", "b")', "b"),
    ("sum([1, 2, 3])", 6),
    ("sum([])", 0),
    ("sum([0.5, 0.25])", F(3, 4)),
    ("len([1, 2, 3])", 3),
    ('len("abcd")', 4),
    ("len({1: 2})", 1),
    ("len((1, 2))", 2),
    ("len([])", 0),
    ("range(3)", (0, 1, 2)),
    ("range(1, 4)", (1, 2, 3)),
    ("range(0, 10, 3)", (0, 3, 6, 9)),
    ("range(5, 0, -2)", (5, 3, 1)),
    ("range(0)", ()),
    ("count([1, 2, 1], 1)", 2),
    ("count([1, 2, 1])", 3),
    ("count([A, B, A], B)", 1),
    ("any([false, true])", True),
    ("any([])", False),
    ("all([true, false])", False),
    ("all([])", True),
    ("sorted([3, 1, 2])", (1, 2, 3)),
    ('sorted(["b", "a"])', ("a", "b")),
    ("sorted([(1, 2), (0, 5)])", ((0, 5), (1, 2))),
    ("reversed([1, 2, 3])", (3, 2, 1)),
    ("list((1, 2))", (1, 2)),
    ("list({1: 2, 3: 4})", (1, 3)),
    ("list(put(grid(2, 2, 0), (1, 0), 7))", (0, 0, 7, 0)),
    ('list("ab")', ("a", "b")),
    ('zip([1, 2], ["a", "b"])', ((1, "a"), (2, "b"))),
    ("zip([1, 2, 3], [4])", ((1, 4),)),
    ('enumerate(["a", "b"])', ((0, "a"), (1, "b"))),
    ("index([5, 6, 7], 6)", 1),
    ("index([5, 6, 6], 6)", 1),
    ("flatten([[1, 2], [], [3]])", (1, 2, 3)),
    ("product([0, 1], 2)", ((0, 0), (0, 1), (1, 0), (1, 1))),
    ("product(range(1, 7), 2)[35]", (6, 6)),
    ("len(product(range(1, 7), 3))", 216),
    ("keys({1: 2, 3: 4})", (1, 3)),
    ("values({1: 2, 3: 4})", (2, 4)),
    ("items({1: 2, 3: 4})", ((1, 2), (3, 4))),
    ("get({1: 2}, 1, 0)", 2),
    ("get({1: 2}, 3, 0)", 0),
    ("get({1: 2}, 1)", 2),
    ("get([1, 2], 1, 0)", 2),
    ("get([1, 2], 5, 0)", 0),
    ("get([1, 2], -1, 0)", 2),
    ("get(grid(2, 2, 1), (1, 1), 0)", 1),
    ("get(grid(2, 2, 1), (2, 0), 0)", 0),
    ("get(grid(2, 2, 1), (-1, 0), 9)", 9),
    ("put([1, 2, 3], 1, 9)", (1, 9, 3)),
    ("put((1, 2), 0, 9)", (9, 2)),
    ("put({1: 2}, 3, 4)", {1: 2, 3: 4}),
    ("put({1: 2}, 1, 4)", {1: 4}),
    ("put(grid(1, 2, 0), (0, 1), A)", G(1, 2, (0, A))),
    ("grid(2, 3, 0)", G(2, 3, (0,) * 6)),
    ("grid(1, 1, empty)", G(1, 1, (EMPTY,))),
    ("height(grid(2, 3, 0))", 2),
    ("width(grid(2, 3, 0))", 3),
    ("cells(grid(2, 3, 0))", ((0, 0), (0, 1), (0, 2), (1, 0), (1, 1), (1, 2))),
    ("cells(2)", ((0, 0), (0, 1), (1, 0), (1, 1))),
    ("cells(1, 3)", ((0, 0), (0, 1), (0, 2))),
    ("inside(grid(2, 2, 0), (1, 1))", True),
    ("inside(grid(2, 2, 0), (2, 0))", False),
    ("inside(grid(2, 2, 0), (0, -1))", False),
    ("rows(2)", (((0, 0), (0, 1)), ((1, 0), (1, 1)))),
    ("rows(2, 3)", (((0, 0), (0, 1), (0, 2)), ((1, 0), (1, 1), (1, 2)))),
    ("columns(2)", (((0, 0), (1, 0)), ((0, 1), (1, 1)))),
    ("columns(2, 3)", (((0, 0), (1, 0)), ((0, 1), (1, 1)), ((0, 2), (1, 2)))),
    ("diagonals(3)", (((0, 0), (1, 1), (2, 2)), ((0, 2), (1, 1), (2, 0)))),
    ("windows(2, 2, 2)", (((0, 0), (0, 1)), ((1, 0), (1, 1)), ((0, 0), (1, 0)), ((0, 1), (1, 1)), ((0, 0), (1, 1)), ((0, 1), (1, 0)))),
    ("len(windows(6, 7, 4))", 69),  # the 69 winning lines of Connect Four
    ("windows(1, 3, 3)", (((0, 0), (0, 1), (0, 2)),)),
    ("offset((1, 1), (0, 1))", (1, 2)),
    ("offset((1, 1), (-1, 1), 2)", (-1, 3)),
    ("directions(4)", ((-1, 0), (0, 1), (1, 0), (0, -1))),
    ("directions(8)", ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))),
    (
        "dihedral(2)",
        (
            {(0, 0): (0, 1), (0, 1): (1, 1), (1, 0): (0, 0), (1, 1): (1, 0)},  # quarter turn
            {(0, 0): (1, 1), (0, 1): (1, 0), (1, 0): (0, 1), (1, 1): (0, 0)},  # half turn
            {(0, 0): (1, 0), (0, 1): (0, 0), (1, 0): (1, 1), (1, 1): (0, 1)},  # three quarters
            {(0, 0): (0, 1), (0, 1): (0, 0), (1, 0): (1, 1), (1, 1): (1, 0)},  # left-right
            {(0, 0): (1, 0), (0, 1): (1, 1), (1, 0): (0, 0), (1, 1): (0, 1)},  # top-bottom
            {(0, 0): (0, 0), (0, 1): (1, 0), (1, 0): (0, 1), (1, 1): (1, 1)},  # diagonal
            {(0, 0): (1, 1), (0, 1): (0, 1), (1, 0): (1, 0), (1, 1): (0, 0)},  # anti-diagonal
        ),
    ),
    ("len(dihedral(3))", 7),
    ("mirror(1, 3)", ({(0, 0): (0, 2), (0, 1): (0, 1), (0, 2): (0, 0)},)),
    ("other(A)", B),
    ("other(B)", A),
    ("next(A)", B),
    ("next(B)", A),
    ("str(12)", "12"),
    ("str(-1.5)", "-3/2"),
    ("str(1 / 2 * 2)", "1"),  # a whole number, though a fraction to Python: printed as one
    ("str((0.5 + 1.5, 1.0))", "(2, 1)"),
    ("str(A)", "A"),
    ('str("a")', "a"),
    ("str(true)", "true"),
    ("str(false)", "false"),
    ('str((1, "a"))', "(1, a)"),
    ("str((1,))", "(1,)"),
    ("str({1: A})", "{1: A}"),
    ("str(grid(2, 2, empty))", ". .\n. ."),
    ('join(", ", [1, 2, 3])', "1, 2, 3"),
    ('join("", ["a", A, true])', "aAtrue"),
    ('join("-", [])', ""),
    ("pad(7, 3)", "  7"),
    ('pad("ab", 1)', "ab"),
    ("pad(A, 2)", " A"),
    ("show(grid(2, 2, empty))", ". .\n. ."),
    ("show(put(grid(2, 2, empty), (0, 0), A))", "A .\n. ."),
    ('show(put(grid(2, 2, empty), (0, 0), A), {A: "x", empty: "_"})', "x _\n_ _"),
    ("show(put(grid(1, 2, 5), (0, 1), 10))", " 5 10"),
    ("set([3, 1, 3])", Set([3, 1])),
    ('split("a/b//c", "/")', ("a", "b", "", "c")),
    ('split("e2e4", " ")', ("e2e4",)),
    ('split("w KQkq -", " ")[1]', "KQkq"),
    ('error("never asked") if false else 1', 1),
]

EXPRESSIONS = LITERALS + ARITHMETIC + COMPARISONS + LOGIC + COLLECTIONS + INDEXING + COMPREHENSIONS + BUILTIN_CASES


@pytest.fixture(scope="module")
def evaluated() -> dict[str, Any]:
    """Every expression of the tables, evaluated in one game (each case alone if that fails)."""
    return values([e for e, _ in EXPRESSIONS]) | values([e for e, _ in FUNCTION_CASES], FUNCTIONS)


@pytest.mark.parametrize(("expr", "expected"), EXPRESSIONS, ids=[e for e, _ in EXPRESSIONS])
def test_expression(expr: str, expected: Any, evaluated: dict[str, Any]) -> None:
    actual = evaluated[expr] if expr in evaluated else value(expr)
    assert same(actual, expected), actual


def test_expressions_give_the_same_values_alone_and_together() -> None:
    sample = ["6 / 3", "1.5", "false and [1][5] == 1", "[a + b for (a, b) in [(1, 2), (3, 4)]]", "other(A)"]
    together = values(sample)
    assert len(together) == len(sample)
    for expr in sample:
        assert same(value(expr), together[expr])


def test_every_builtin_has_a_case() -> None:
    called = {name for name in BUILTINS for expr, _ in BUILTIN_CASES if expr.startswith(name + "(")}
    assert called == set(BUILTINS) - {"after"}  # which needs a state: see test_after.py


def test_exact_division_gives_an_int_and_inexact_a_fraction() -> None:
    assert type(value("6 / 3")) is int
    assert type(value("7 / 2")) is F
    assert type(value("1.5")) is F


# ---- expressions that read the state, and the result block --------------------------------


def test_a_grid_is_indexed_by_a_cell_or_by_row_and_column_inside_rules() -> None:
    state = after(
        "out = [board[c] for c in cells(board)]\nrc = board[1, 0] + board[(0, 1)]",
        fields="board = put(put(grid(2, 2, 0), (1, 0), 7), (0, 1), 5)\nout = []\nrc = 0",
    )
    assert same(state.out, (0, 5, 7, 0))
    assert same(state.rc, 12)


def test_result_assigns_fields_cells_nested_items_and_map_keys() -> None:
    state = after(
        """
board[0, 1] = A
board[(1, 0)] = B
nested[1][0] = 9
table[2] = "two"
table[1] = "ONE"
n = n + 1
""",
        fields='board = grid(2, 2, empty)\nnested = [[0, 0], [0, 0]]\ntable = {1: "one"}\nn = 5',
    )
    assert same(state.board, G(2, 2, (EMPTY, A, B, EMPTY)))
    assert same(state.nested, ((0, 0), (9, 0)))
    assert same(state.table, {1: "ONE", 2: "two"})
    assert same(state.n, 6)


def test_augmented_assignment() -> None:
    state = after(
        "n += 5\nk -= 2\nx *= 3\nboard[0, 0] += 4\nnested[0][1] -= 1\nlog += [m]\nname += \"!\"",
        fields='n = 1\nk = 1\nx = 1.5\nboard = grid(1, 1, 10)\nnested = [[1, 1]]\nlog = [7]\nname = "hi"',
        move=8,
        moves="[8]",
    )
    assert (state.n, state.k, state.x) == (6, -1, F(9, 2))
    assert same(state.board, G(1, 1, (14,)))
    assert same(state.nested, ((1, 0),))
    assert same(state.log, (7, 8))
    assert same(state.name, "hi!")


def test_result_with_if_elif_else_for_while_and_let() -> None:
    body = """
let total = 0
for i in range(1, m + 1):
    if i % 3 == 0:
        total += 100
    elif i % 2 == 0:
        total += 10
    else:
        total += 1
let k = 1
while k < 50:
    k = k * 2
out = (total, k)
"""
    # m = 6: i = 1 3 5 -> 1, 100, 1; 2 4 -> 10 each; 6 -> 100.  k: 1 2 4 ... 64.
    assert same(after(body, fields="out = (0, 0)", move=6, moves="[6]").out, (222, 64))


def test_result_reads_the_old_state_until_a_field_is_assigned() -> None:
    state = after("a = b\nb = a\nc = (a, b)", fields="a = 1\nb = 2\nc = (0, 0)")
    assert (state.a, state.b, state.c) == (2, 2, (2, 2))


def test_result_with_a_tuple_pattern_move() -> None:
    state = after(
        "heaps[i] -= n\nout = i * 10 + n", fields="heaps = [5, 5]\nout = 0", move=(1, 3), moves="[(1, 3)]", target="(i, n)"
    )
    assert same(state.heaps, (5, 2))
    assert same(state.out, 13)


def test_result_with_a_nested_tuple_pattern_move() -> None:
    moves = "[((1, 2), (0, -1))]"
    state = after("out = (r + dr, c + dc)", fields="out = (0, 0)", move=((1, 2), (0, -1)), moves=moves, target="((r, c), (dr, dc))")
    assert same(state.out, (1, 1))
    state = after("let ((r, c), step) = m\nout = (r, c + step[1])", fields="out = (0, 0)", move=((1, 2), (0, -1)), moves=moves)
    assert same(state.out, (1, 1))


def test_each_result_makes_a_new_state_and_leaves_the_old_one_alone() -> None:
    game = gdl.loads(game_text(fields="board = grid(1, 2, 0)\nn = 0", body="board[0, m] = 1\nn += 1", moves="[0, 1]"))
    start = game.initial_state()
    first = game.result(start, 0)
    second = game.result(first, 1)
    assert same(start.board, G(1, 2, (0, 0))) and start.n == 0
    assert same(first.board, G(1, 2, (1, 0))) and first.n == 1
    assert same(second.board, G(1, 2, (1, 1))) and second.n == 2
    assert game.result(start, 0) == first and hash(game.result(start, 0)) == hash(first)


# ---- parameters -----------------------------------------------------------------------------

PARAMS = "param rows = 3\nparam cols = rows + 1\nparam piles = (3, 4)\nparam first = A\nparam fast = false\n"


def test_params_have_defaults() -> None:
    assert same(value("(rows, cols, piles, first, fast)", PARAMS), (3, 4, (3, 4), A, False))


def test_params_are_overridden_from_python() -> None:
    got = value("(rows, cols, piles, first, fast)", PARAMS, rows=5, piles=(1, 2, 3), first="B", fast=True)
    assert same(got, (5, 6, (1, 2, 3), B, True))  # cols = rows + 1 follows the new rows


def test_params_take_lists_for_tuples_and_tuples_for_lists() -> None:
    assert same(value("piles", PARAMS, piles=[7, 8]), (7, 8))
    assert same(value("sizes", "param sizes = [1, 2]\n", sizes=(3,)), (3,))
    assert same(value("piles", PARAMS, piles=[]), ())


def test_params_are_overridden_with_parsed_values() -> None:
    assert same(value("piles", PARAMS, piles=gdl.parse_value("(1, 2, 3)")), (1, 2, 3))
    assert same(value("first", PARAMS, first=gdl.parse_value("B")), B)
    assert same(value("rows", PARAMS, rows=gdl.parse_value("2 + 2")), 4)


NESTED = '''
game "Graph"
players A, B
param succ = [[1, 2], [0], []]
state:
    node = 0
to_move = A
moves = succ[node]
result(n):
    node = n
terminal = succ[node] == []
utility = node
'''


@pytest.mark.parametrize("given", [((1,), (2,), ()), [(1,), [2], []], ([1], (2,), ())])
def test_lists_and_tuples_stand_for_each_other_at_every_depth(given: Any) -> None:
    """A list of lists given as tuples of tuples, or mixed (Python's own `game.params` gives a
    list of lists back so), is the list of lists it stands for: a game loads again from its
    own parameters."""
    game = gdl.loads(NESTED, succ=given)
    assert game.params == {"succ": ((1,), (2,), ())}
    assert gdl.loads(NESTED, **game.params).params == game.params
    assert list(game.actions(game.initial_state())) == [1]


def test_a_nested_item_of_another_kind_is_refused() -> None:
    """Lists and tuples alike, but the items inside must still be of the default's kind; and
    where the default's items are tuples (cells), of their length too."""
    with pytest.raises(gdl.GdlError, match="each item of parameter `succ` must be a list .* but one given is an "
                                           "integer"):
        gdl.loads(NESTED, succ=((1,), 2))
    cells = NESTED.replace("param succ = [[1, 2], [0], []]\n", "param succ = [[1, 2], [0], []]\nparam cells = [(0, 1)]\n")
    assert gdl.loads(cells, cells=((1, 1), (0, 0))).params["cells"] == ((1, 1), (0, 0))
    with pytest.raises(gdl.GdlError, match=r"each item of parameter `cells` must be a tuple of 2 items \(default "
                                           r"\[\(0, 1\)\]\), but one given is a tuple of 3 items"):
        gdl.loads(cells, cells=[(0, 1, 2)])
    with pytest.raises(gdl.GdlError, match="each item of parameter `cells` must be a tuple of 2 items .* but one "
                                           "given is a list"):
        gdl.loads(cells, cells=[[0, 1]])
    for mixed in ([(0, 1), (0, 1, 2)], [(0, 1), (0,)], [()]):
        with pytest.raises(gdl.GdlError, match="must be a tuple of 2 items .* but one given is a tuple of another "
                                               "length"):
            gdl.loads(cells, cells=mixed)


def test_a_tuple_holding_a_list_loads_again_from_its_own_parameters() -> None:
    """`param edges = [(0, [1, 2])]`: Python gives it back as ((0, (1, 2)),), which stands for
    it, item by item, with the default's kinds (the rules take `edges[0][1]` as the moves, a
    list)."""
    text = NESTED.replace("param succ = [[1, 2], [0], []]\n", "param succ = [[1, 2], [0], []]\nparam edges = [(0, [1, 2])]\n"
                          ).replace("moves = succ[node]", "moves = edges[0][1] if node == 0 else succ[node]")
    game = gdl.loads(text)
    again = gdl.loads(text, **game.params)
    assert again.params == game.params == {"succ": ((1, 2), (0,), ()), "edges": ((0, (1, 2)),)}
    assert list(again.actions(again.initial_state())) == [1, 2]


def test_maps_of_lists_load_again_from_their_own_parameters() -> None:
    """`param p = {1: [2, 3]}` and `param q = [{1: [2]}]` come back from Python as maps of
    tuples: they stand for the maps of lists, and the rules add their lists."""
    text = NESTED.replace("param succ = [[1, 2], [0], []]\n",
                          "param succ = [[1, 2], [0], []]\nparam p = {1: [2, 3]}\nparam q = [{1: [2]}]\n"
                          ).replace("moves = succ[node]", "moves = p[1] + q[0][1] if node == 0 else []")
    game = gdl.loads(text)
    again = gdl.loads(text, **game.params)
    assert again.params == game.params and again.params["p"] == {1: (2, 3)} and again.params["q"] == ({1: (2,)},)
    assert list(again.actions(again.initial_state())) == [2, 3, 2]


def test_a_value_given_to_a_game_without_parameters_is_said_in_its_file() -> None:
    """No line to show, the file's name still."""
    with pytest.raises(gdl.GdlError) as caught:
        gdl.load(Path("games/textbook/three_players.gdl"), x=None)
    assert str(caught.value) == "games/textbook/three_players.gdl: error: a parameter cannot be set to the Python value None"


def test_game_params_show_the_values_in_use() -> None:
    game = gdl.loads(game_text(decls=PARAMS), rows=2)
    assert game.params == {"rows": 2, "cols": 3, "piles": (3, 4), "first": A, "fast": False}


@pytest.mark.parametrize(
    ("override", "message"),
    [
        ({"rows": "5"}, "parameter `rows` is an integer (default 3), but a string (\"5\") was given"),
        ({"rows": 1.5}, "parameter `rows` is an integer (default 3), but a decimal or a fraction (1.5) was given; write "
                        "its default as a decimal (`param rows = 3.0`) for it to take fractions"),
        ({"rows": True}, "parameter `rows` is an integer (default 3), but a boolean (true) was given"),
        ({"rows": F(1, 3)}, "parameter `rows` is an integer (default 3), but a decimal or a fraction (1/3) was "
                                   "given; write its default as a decimal (`param rows = 3.0`) for it to take fractions"),
        ({"rows": "ab" * 30}, "parameter `rows` is an integer (default 3), but a string "
                              f"(\"{'ab' * 18}...) was given"),
        ({"cols": gdl.parse_value("3.0")}, "parameter `cols` is an integer (default rows + 1), but a decimal or a "
                                           "fraction (3.0) was given; write its default as a decimal (`rows + 1 + 0.0`) "
                                           "for it to take fractions"),
        ({"piles": 3}, "parameter `piles` is a tuple (default (3, 4)), but an integer (3) was given"),
        ({"piles": (1, "a")}, "each item of parameter `piles` must be an integer (default (3, 4)), but one given is a string"),
        ({"fast": 1}, "parameter `fast` is a boolean (default false), but an integer (1) was given"),
        ({"first": 1}, "parameter `first` is a player (default A), but an integer (1) was given"),
        ({"rows": None}, "a parameter cannot be set to the Python value None"),
        ({"row": 5}, "the game has no parameter `row`; did you mean `rows`? (its parameters: rows, cols, piles, first, fast)"),
        ({"zzz": 5}, "the game has no parameter `zzz` (its parameters: rows, cols, piles, first, fast)"),
        ({"rows": gdl.parse_value("nope")}, "the value given for parameter `rows` is not valid: unknown name `nope`"),
    ],
)
def test_bad_param_overrides(override: dict[str, Any], message: str) -> None:
    """Each mistake is located at the `param` line of the parameter it is about (the first
    `param` line for a name the game lacks), with that line quoted."""
    with pytest.raises(gdl.GdlParamError) as caught:
        gdl.loads(game_text(decls=PARAMS), **override)
    assert caught.value.message == message
    (name,) = override
    declared = f"param {name} " if f"param {name} " in PARAMS else "param rows "
    assert caught.value.source_line is not None and caught.value.source_line.startswith(declared)
    assert caught.value.column == len("param ") + 1


def test_a_game_without_params_names_none() -> None:
    with pytest.raises(gdl.GdlParamError) as caught:
        gdl.loads(game_text(), size=3)
    assert caught.value.message == "the game has no parameter `size` (it declares none)"
    assert caught.value.line is None  # the mistake is in the value given, not in the file's title
    assert str(caught.value) == "<string>: error: the game has no parameter `size` (it declares none)"


# ---- state fields, symbols, definitions and functions ---------------------------------------


def test_state_fields_of_every_kind_and_their_initial_values() -> None:
    fields = """
n = 3
half = 1 / 2
flag = true
who = B
mark = red
pair = (1, "x")
items = [1, 2]
board = grid(2, 2, empty)
scores = {A: 0, B: 0}
"""
    game = gdl.loads(game_text(decls="symbols red, black", fields=fields, body="n += 1"))
    state = game.initial_state()
    assert type(state).__name__ == "State"
    assert state == (3, F(1, 2), True, B, symbol("red"), (1, "x"), (1, 2), state.board, {A: 0, B: 0})
    assert same(state.board, G(2, 2, (EMPTY,) * 4))
    assert isinstance(state.mark, Symbol) and state.mark == "red"
    assert hash(state) == hash(game.initial_state())


def test_constant_definitions_are_computed_once_at_load() -> None:
    text = game_text(decls="base = 10\nlines = rows(2) + columns(2)\ndouble = base * 2", fields="out = double")
    checked = gdl.check_text(text)
    assert {"base", "lines", "double"} <= set(checked.constant_order)
    assert checked.constant_order.index("base") < checked.constant_order.index("double")
    assert not {"base", "lines", "double"} & checked.state_dependent
    assert gdl.loads(text).initial_state().out == 20
    # A constant is computed at load even if nothing uses it: a failing one stops the load.
    with pytest.raises(gdl.GdlRuntimeError) as caught:
        gdl.loads(game_text(decls="unused = [1, 2][7]"))
    assert (caught.value.line, caught.value.column) == (3, 10)


def test_state_dependent_definitions_follow_the_state() -> None:
    text = game_text(decls="twice = n * 2\ndef plus(k) = twice + k", fields="n = 1\nout = 0", body="n += 1\nout = plus(100)")
    checked = gdl.check_text(text)
    assert {"twice", "plus"} <= checked.state_dependent
    assert "twice" not in checked.constant_order
    game = gdl.loads(text)
    first = game.result(game.initial_state(), 0)
    second = game.result(first, 0)
    # Definitions and functions called in the result block see the state as the block has
    # made it so far (n = 2 after `n += 1`, so twice = 4), like the block's own field names.
    assert (first.n, first.out) == (2, 104)
    assert (second.n, second.out) == (3, 106)


FUNCTIONS = """
def square(x) = x * x
def fact(n) = 1 if n <= 1 else n * fact(n - 1)
def fib(n):
    let a = 0
    let b = 1
    for i in range(n):
        let c = a + b
        a = b
        b = c
    return a
def collatz(n):
    let steps = 0
    while n != 1:
        if n % 2 == 0:
            n = n // 2
        else:
            n = 3 * n + 1
        steps += 1
    return steps
def grade(x):
    if x >= 90:
        return "A"
    elif x >= 80:
        return "B"
    else:
        return "C"
def first_even(xs):
    for x in xs:
        if x % 2 == 0:
            return x
    return -1
def swap(p):
    let (a, b) = p
    return (b, a)
edges = {1: [2, 3], 2: [4], 3: [4], 4: [5], 5: [], 6: [1]}
def path(a, b, seen):
    if a == b:
        return [a]
    for n in edges[a]:
        if n not in seen:
            let rest = path(n, b, seen + [a])
            if rest != []:
                return [a] + rest
    return []
def even(n) = true if n == 0 else odd(n - 1)
def odd(n) = false if n == 0 else even(n - 1)
def no_args() = 42
"""

FUNCTION_CASES = [
    ("square(7)", 49),
    ("square(1.5)", F(9, 4)),
    ("fact(0)", 1),
    ("fact(10)", 3628800),
    ("fib(10)", 55),
    ("collatz(6)", 8),
    ("collatz(27)", 111),
    ('[grade(95), grade(85), grade(10)]', ("A", "B", "C")),
    ("first_even([3, 5, 8, 10])", 8),
    ("first_even([1])", -1),
    ("swap((1, A))", (A, 1)),
    ("path(1, 5, [])", (1, 2, 4, 5)),
    ("path(6, 4, [])", (6, 1, 2, 4)),
    ("path(5, 1, [])", ()),
    ("(even(10), odd(7), even(3))", (True, True, False)),
    ("no_args()", 42),
]


@pytest.mark.parametrize(("expr", "expected"), FUNCTION_CASES, ids=[e for e, _ in FUNCTION_CASES])
def test_functions(expr: str, expected: Any, evaluated: dict[str, Any]) -> None:
    actual = evaluated[expr] if expr in evaluated else value(expr, FUNCTIONS)
    assert same(actual, expected), actual


def test_functions_called_in_result_see_the_assignments_made_so_far() -> None:
    decls = """
def owner(c) = board[c]
def count_of(p) = count(c for c in cells(board) if board[c] == p)
def free():
    let found = []
    for c in cells(board):
        if board[c] == empty:
            found += [c]
    return found
"""
    state = after(
        "board[0, 0] = A\nout = (owner((0, 0)), count_of(empty), free())",
        decls=decls,
        fields="board = grid(1, 2, empty)\nout = (empty, 0, [])",
    )
    # The functions read the board as the block has made it: A is already on (0, 0).
    assert same(state.out, (A, 1, ((0, 1),)))


# ---- whose turn: alternation, extra turns, passes --------------------------------------------

TURNS = """game "Turns"
players A, B
symbols pass
state:
    mover = A
    stones = 4
    passes = 0
to_move = mover
# Taking 2 earns another turn; passing is allowed while stones remain; two passes end it.
moves = [n for n in [1, 2] if n <= stones] + ([pass] if stones > 0 else [])
result(m):
    if m == pass:
        passes += 1
        mover = other(mover)
    else:
        passes = 0
        stones -= m
        if m == 1:
            mover = other(mover)
terminal = stones == 0 or passes == 2
utility = 0
"""


def test_a_player_moves_again_and_a_pass_hands_over_the_turn() -> None:
    game = gdl.loads(TURNS)
    pass_ = symbol("pass")
    s = game.initial_state()
    assert game.to_move(s) == A and game.actions(s) == (1, 2, pass_)
    s = game.result(s, 2)
    assert game.to_move(s) == A  # an extra turn
    s = game.result(s, 1)
    assert game.to_move(s) == B
    s = game.result(s, pass_)
    assert game.to_move(s) == A and s.stones == 1 and s.passes == 1
    assert game.actions(s) == (1, pass_)
    s = game.result(s, pass_)
    assert game.is_terminal(s) and game.to_move(s) == B


def test_perft_of_the_turns_game() -> None:
    # Sequences by hand: depth 1: 1, 2, pass. Depth 2: after 1 (3 left): 1, 2, pass;
    # after 2 (2 left): 1, 2, pass; after pass (4 left): 1, 2, pass -> 9.
    game = gdl.loads(TURNS)
    assert [perft(game, d) for d in (1, 2)] == [3, 9]


# ---- chance, tree tables, symmetries, display and move names --------------------------------

CHANCE = """game "Coin"
players A, B
state:
    tossed = false
    coin = 0
    done = false
to_move = chance if not tossed else A
moves = [] if not tossed else ["stop", "double"]
outcomes = [(1, 1/2), (2, 1/4), (1, 1/4)]
result(m):
    if not tossed:
        coin = m
        tossed = true
    else:
        if m == "double":
            coin = coin * 2 - 1
        done = true
terminal = done
utility = coin
"""


def test_chance_nodes_list_their_outcomes_with_duplicates_merged() -> None:
    game = gdl.loads(CHANCE)
    start = game.initial_state()
    assert game.has_chance and game.is_chance(start)
    assert game.to_move(start) == "chance" and game.to_move(start) is symbol("chance")
    assert game.chance_outcomes(start) == ((1, F(3, 4)), (2, F(1, 4)))
    assert game.actions(start) == ()  # a chance node has outcomes, not moves
    after_two = game.result(start, 2)
    assert not game.is_chance(after_two) and game.to_move(after_two) == A
    assert game.actions(after_two) == ("stop", "double")
    assert game.utility(game.result(after_two, "double"), A) == 3
    assert perft(game, 1) == 2 and perft(game, 2) == 4


DICE_THAT_GROW = """game "Growing die"
players A, B
state:
    sides = 2
    rolled = 0
to_move = chance if rolled < 2 else A
moves = ["stop"]
outcomes = [(face, 1 / sides) for face in range(1, sides + 1)]
result(m):
    if rolled < 2:
        sides += 1
        rolled += 1
terminal = rolled == 2
utility = sides
"""


def test_outcomes_that_read_the_state_are_found_anew_in_every_state() -> None:
    # Outcomes that never change are checked once and kept; these read `sides`, so the die
    # of two faces must not be kept for the state after it, which has three.
    game = gdl.loads(DICE_THAT_GROW)
    start = game.initial_state()
    assert game.chance_outcomes(start) == ((1, F(1, 2)), (2, F(1, 2)))
    after = game.result(start, 1)
    assert game.chance_outcomes(after) == ((1, F(1, 3)), (2, F(1, 3)), (3, F(1, 3)))
    assert game.chance_outcomes(start) == ((1, F(1, 2)), (2, F(1, 2)))


def test_fixed_outcomes_are_the_same_in_every_state() -> None:
    game = gdl.loads(CHANCE)
    start = game.initial_state()
    assert game.chance_outcomes(start) == ((1, F(3, 4)), (2, F(1, 4)))
    assert game.chance_outcomes(game.result(start, 2)) == ((1, F(3, 4)), (2, F(1, 4)))


def test_expectiminimax_value_of_the_chance_game() -> None:
    from searchers import expectiminimax

    # coin 1 (3/4): stop 1, double 1; coin 2 (1/4): double 3. Expected value 3/4 + 3/4 = 3/2.
    assert expectiminimax(gdl.loads(CHANCE)).value == F(3, 2)


@pytest.mark.parametrize(
    ("outcomes", "message"),
    [
        ("[(1, 1/2)]", "the probabilities of the outcomes must add up to 1, not 1/2"),
        ("[(1, 1/2), (2, 1/2), (1, 1/2)]", "the probabilities of the outcomes must add up to 1, not 3/2"),
        ("[(1, 3/2), (2, -1/2)]", "the probability of the outcome 2 is negative: -1/2"),
    ],
)
def test_probabilities_must_add_up_to_one(outcomes: str, message: str) -> None:
    """Dice that read no state are the same everywhere: checked as the game loads (so `gdl
    check` finds them), with no state to show; dice that read the state, where they are thrown."""
    text = CHANCE.replace("[(1, 1/2), (2, 1/4), (1, 1/4)]", outcomes)
    with pytest.raises(gdl.GdlRuntimeError) as caught:
        gdl.loads(text)
    error = caught.value
    assert (error.message, error.line, error.column) == (message, 9, 1)
    assert error.source_line == "outcomes = " + outcomes
    assert error.state_text is None
    reading = text.replace("outcomes = " + outcomes, "outcomes = " + outcomes + " if coin == 0 else []")
    game = gdl.loads(reading)
    with pytest.raises(gdl.GdlRuntimeError):
        game.chance_outcomes(game.initial_state())
    with pytest.raises(gdl.GdlRuntimeError) as caught:  # a wrong die is refused every time
        game.chance_outcomes(game.initial_state())
    error = caught.value
    assert (error.message, error.line, error.column) == (message, 9, 1)
    assert error.state_text == "tossed = false\ncoin = 0\ndone = false"


def test_outcomes_that_are_not_pairs_are_said_to_be_so() -> None:
    """`outcomes = [1, 2, 3]`: Python's "cannot unpack non-iterable int object" was the message."""
    with pytest.raises(gdl.GdlRuntimeError) as caught:
        gdl.loads(CHANCE.replace("[(1, 1/2), (2, 1/4), (1, 1/4)]", "[1, 2, 3]"))
    assert caught.value.message == ("`outcomes` lists pairs (outcome, probability), such as (6, 1/6); "
                                    "one of its items is 1")
    assert (caught.value.line, caught.value.column) == (9, 1)


TREE = """game "Small tree"
players MAX, MIN
tree:
    R -> L, b: 8, -2    # a named leaf between an inner node and an automatic one
    L -> 3, 5
"""


def test_tree_tables_name_leaves_after_their_parent_unless_named() -> None:
    game = gdl.loads(TREE)
    root = game.initial_state()
    assert root == ("R",)
    assert game.actions(root) == ("L", "b", "R3")
    assert game.actions(("L",)) == ("L1", "L2")
    assert game.to_move(root) == "MAX" and game.to_move(("L",)) == "MIN" and game.to_move(("b",)) == "MIN"
    assert game.result(root, "b") == ("b",)
    assert [game.utility((leaf,), "MAX") for leaf in ("b", "R3", "L1", "L2")] == [8, -2, 3, 5]
    assert [game.utility((leaf,), "MIN") for leaf in ("b", "R3", "L1", "L2")] == [-8, 2, -3, -5]
    assert not game.is_terminal(root) and not game.is_terminal(("L",)) and game.is_terminal(("L2",))
    assert game.display(("b",)) == "b = 8" and game.display(root) == "R"
    assert perft(game, 1) == 3 and perft(game, 2) == 2


SYMMETRIC = """game "Corners"
players A, B
state:
    board = grid(3, 3, empty)
    row = grid(1, 3, 0)
    mover = A
to_move = mover
moves = [c for c in cells(board) if board[c] == empty]
result(c):
    board[c] = mover
    row[0, c[1]] += 1
    mover = other(mover)
terminal = moves == []
utility = 0
symmetries = dihedral(3)
"""


def test_symmetries_give_rotated_and_reflected_boards_one_key() -> None:
    game = gdl.loads(SYMMETRIC.replace("    row = grid(1, 3, 0)\n", "").replace("    row[0, c[1]] += 1\n", ""))
    s = game.initial_state()

    def play(*moves: tuple[int, int]) -> Any:
        state = s
        for move in moves:
            state = game.result(state, move)
        return state

    assert game.has_symmetries
    base = play((0, 0), (0, 1))
    for turned in [play((0, 2), (1, 2)), play((2, 2), (2, 1)), play((2, 0), (1, 0)), play((0, 0), (1, 0))]:
        assert game.canonical(turned) == game.canonical(base)
    assert game.canonical(play((0, 0), (1, 1))) != game.canonical(base)
    assert game.canonical(play((0, 1), (0, 0))) == game.canonical(play((1, 0), (0, 0)))


def test_symmetries_must_map_every_board_onto_itself() -> None:
    with pytest.raises(gdl.GdlError) as caught:
        gdl.loads(SYMMETRIC)  # dihedral(3) maps 3x3 cells, but `row` is 1x3
    assert caught.value.message == "a symmetry must map the 1x3 board's cells onto themselves"
    assert (caught.value.line, caught.value.column) == (15, 1)
    fine = gdl.loads(SYMMETRIC.replace("    board = grid(3, 3, empty)\n", "    board = grid(1, 3, empty)\n").replace("dihedral(3)", "mirror(1, 3)"))
    s = fine.initial_state()
    left, right = fine.result(s, (0, 0)), fine.result(s, (0, 2))
    assert left != right and fine.canonical(left) == fine.canonical(right)
    assert fine.canonical(fine.result(s, (0, 1))) != fine.canonical(left)


def test_a_game_without_symmetries_uses_the_state_as_its_key() -> None:
    game = gdl.loads(game_text())
    assert not game.has_symmetries
    assert game.canonical(game.initial_state()) is game.initial_state()


DISPLAY = """game "Shown"
players A, B
state:
    board = grid(2, 3, empty)
    mover = A
to_move = mover
moves = [c for c in cells(board) if board[c] == empty]
result(c):
    board[c] = mover
    mover = other(mover)
terminal = moves == []
utility = 0
display = show(board, {A: "x", B: "o"}) + "\\n" + str(mover) + " to move"
def move_name(c) = "abc"[c[1]] + str(c[0] + 1)
"""


def test_display_draws_the_state() -> None:
    game = gdl.loads(DISPLAY)
    s = game.result(game.result(game.initial_state(), (0, 1)), (1, 2))
    assert game.display(s) == ". x .\n. . o\nA to move"


def test_display_without_a_display_definition_lists_the_fields() -> None:
    game = gdl.loads(DISPLAY.replace('display = show(board, {A: "x", B: "o"}) + "\\n" + str(mover) + " to move"\n', ""))
    s = game.result(game.initial_state(), (1, 0))
    assert game.display(s) == "board:\n. . .\nA . .\nmover = B"


def test_move_name_prints_and_reads_moves() -> None:
    game = gdl.loads(DISPLAY)
    s = game.initial_state()
    assert [game.format_move(m) for m in game.actions(s)] == ["a1", "b1", "c1", "a2", "b2", "c2"]
    assert game.parse_move(s, "b2") == (1, 1)
    assert game.parse_move(s, " C1 ") == (0, 2)
    with pytest.raises(gdl.GdlError) as caught:
        game.parse_move(s, "d9")
    assert caught.value.message == "`d9` is not a legal move here; the legal moves are: a1, b1, c1, a2, b2, c2"


def test_without_move_name_moves_print_as_values() -> None:
    game = gdl.loads(DISPLAY.replace("def move_name", "def unused"))
    s = game.initial_state()
    assert game.format_move((1, 2)) == "(1, 2)"
    assert game.parse_move(s, "(1, 2)") == (1, 2)
    assert game.parse_move(s, "1,2") == (1, 2)


def test_utility_and_evaluation_are_negated_for_the_second_player() -> None:
    game = gdl.loads(game_text(decls="evaluation = 3 / 4", fields="out = 0").replace("utility = 0", "utility = -2"))
    s = game.initial_state()
    assert (game.utility(s, A), game.utility(s, B)) == (-2, 2)
    assert (game.evaluate(s, A), game.evaluate(s, B)) == (F(3, 4), F(-3, 4))
    assert game.has_evaluation


def test_repetition_scores_a_repeated_position() -> None:
    game = gdl.loads(game_text(decls="repetition = -1"))
    s = game.initial_state()
    assert (game.repetition_utility(s, A), game.repetition_utility(s, B)) == (-1, 1)
    assert gdl.loads(game_text()).repetition_utility(s, A) == 0


def test_three_players_take_turns_with_next() -> None:
    text = """game "Three"
players P, Q, R
state:
    mover = P
    n = 0
to_move = mover
moves = [1]
result(m):
    n += m
    mover = next(mover)
terminal = n == 4
utility = (0, 0, 0)
"""
    game = gdl.loads(text)
    s = game.initial_state()
    order = []
    while not game.is_terminal(s):
        order.append(game.to_move(s))
        s = game.result(s, 1)
    assert order == ["P", "Q", "R", "P"]
    assert game.players == ("P", "Q", "R")


# ---- comments and layout ---------------------------------------------------------------------

LAYOUT = """# A comment before anything.

game "Layout"   # after a declaration
players A, B    # A first

# Comments between declarations, and blank lines.

param n = 2 # after a parameter

state:
    # inside a block, before a field
    total = 0   # after a field

    items = [   # a list over several lines
        1,      # with comments inside the brackets
        2,
        # even on a line of their own
        3,
    ]
to_move = A
moves = [
    k
    for k in range(n)   # a comprehension over several lines
    if k >= 0
]
result(m):
    # before a statement
    total += sum(       # a call over several lines
        x * n
        for x in items
    ) + \\
        m               # a backslash joins lines
    if total > 0:       # after an if
        # inside the if
        items = items + [m]
terminal = total > 100 or len(items) > 5
utility = 0
# at the very end, with no newline after it"""


def test_comments_anywhere_and_expressions_over_several_lines() -> None:
    game = gdl.loads(LAYOUT)
    s = game.initial_state()
    assert (s.total, s.items) == (0, (1, 2, 3))
    assert game.actions(s) == (0, 1)
    s = game.result(s, 1)
    assert (s.total, s.items) == (13, (1, 2, 3, 1))
    assert game.title == "Layout"


def test_a_file_may_use_crlf_line_ends_and_tabs() -> None:
    text = game_text(body="if m == 0:\n\tout = 5").replace("\n", "\r\n")
    game = gdl.loads(text)
    assert game.result(game.initial_state(), 0).out == 5
