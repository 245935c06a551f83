"""The limits of the language (docs/language.md, "Limits"): what a value may be built of,
how deep a file may nest, how large a power may be. Each is an error at the rule, raised
before the memory is taken, never a MemoryError, a hang or Python's own limits."""

from __future__ import annotations

import sys
import tracemalloc
from fractions import Fraction
from typing import Any, Callable

import pytest

import gdl
import gdl.library as library
import gdl.limits as limits
from gdl.errors import GdlError, GdlRuntimeError, GdlSyntaxError
from gdl.limits import MAX_ITEMS, MAX_NESTING
from gdl.builtins import BUILTINS
from gdl.values import RuleError
from gdl.values import EMPTY, Map, make_grid
from tests.lang.harness import game_text, value

# ---- what each built-in makes, counted independently of the runtime ----------------------------


def cells_made(lines: Any) -> int:
    """The cells of a list of lines (rows, columns, windows, diagonals)."""
    return sum(len(line) for line in lines)


def entries_made(maps: Any) -> int:
    """The entries of a list of cell maps (dihedral, mirror)."""
    return sum(len(m) for m in maps)


def product_made(tuples: Any) -> int:
    """The tuples of a product and their items; an empty tuple is one item of the list."""
    return sum(max(len(t), 1) for t in tuples)


SMALL = 60  # the item limit the counting is tried against, so that brute force stays quick
SIZES = range(0, 12)

COUNTS: list[tuple[str, Callable[..., Any], list[tuple[Any, ...]], Callable[[Any], int]]] = [
    ("range", BUILTINS["range"].implementation, [(n,) for n in range(0, 80, 7)], len),
    ("cells", BUILTINS["cells"].implementation, [(r, c) for r in SIZES for c in SIZES] + [(n,) for n in SIZES], len),
    ("rows", BUILTINS["rows"].implementation, [(r, c) for r in SIZES for c in SIZES] + [(n,) for n in SIZES], cells_made),
    ("columns", BUILTINS["columns"].implementation, [(r, c) for r in SIZES for c in SIZES] + [(n,) for n in SIZES], cells_made),
    ("diagonals", BUILTINS["diagonals"].implementation, [(n,) for n in range(0, 40, 3)], cells_made),
    ("windows", BUILTINS["windows"].implementation, [(r, c, k) for r in range(0, 9) for c in range(0, 9) for k in range(1, 6)], cells_made),
    ("dihedral", BUILTINS["dihedral"].implementation, [(n,) for n in range(0, 6)], entries_made),
    ("mirror", BUILTINS["mirror"].implementation, [(r, c) for r in SIZES for c in SIZES], entries_made),
    ("grid", BUILTINS["grid"].implementation, [(r, c, 0) for r in range(1, 12) for c in range(1, 12)], len),
    ("product", BUILTINS["product"].implementation, [(tuple(range(k)), n) for k in range(0, 5) for n in range(0, 7)], product_made),
    ("pad", BUILTINS["pad"].implementation, [("x", w) for w in range(0, 90, 9)], len),
    ("join", BUILTINS["join"].implementation, [("-" * s, tuple(range(n))) for s in range(0, 5) for n in range(0, 30, 4)], len),
    ("str", BUILTINS["str"].implementation, [(tuple(range(n)),) for n in range(0, 30, 3)] + [(("ab",) * n,) for n in range(8, 14)] + [(Map({i: "x" * i for i in range(n)}),) for n in range(0, 12)] + [(Map(),), ("x" * 60,), ("x" * 61,)], len),
    ("show", BUILTINS["show"].implementation, [(make_grid(r, c, tuple(range(r * c))),) for r in range(1, 7) for c in range(1, 7)] + [(make_grid(2, 2, (EMPTY,) * 4), Map({EMPTY: "-" * w})) for w in range(10, 20)] + [(make_grid(1, c, (1,) * c),) for c in (30, 31)], len),
    ("flatten", BUILTINS["flatten"].implementation, [((tuple(range(a)),) * b,) for a in range(0, 15, 2) for b in range(0, 15, 3)], len),
    ("repeat", library.repeat, [("ab", n) for n in range(0, 50, 5)] + [(n, (1, 2, 3)) for n in range(0, 30, 4)] + [(6, 7)], lambda v: len(v) if isinstance(v, (str, tuple)) else 0),
    ("concat", library.concat, [("a" * a, "b" * b) for a in range(0, 60, 11) for b in range(0, 60, 13)] + [((1,) * 40, (2,) * 30)], len),
]


@pytest.mark.parametrize(("name", "function", "arguments", "made"), COUNTS, ids=[c[0] for c in COUNTS])
def test_a_built_in_makes_a_value_exactly_when_what_it_makes_fits_the_limit(
    monkeypatch: pytest.MonkeyPatch, name: str, function: Callable[..., Any], arguments: list[tuple[Any, ...]], made: Callable[[Any], int]
) -> None:
    # Each value is made without the limit, its items counted by hand; with a limit of SMALL
    # items the built-in must make exactly those that fit, and refuse the others.
    expected = [(args, function(*args)) for args in arguments]
    monkeypatch.setattr(limits, "MAX_ITEMS", SMALL)
    fitting = 0
    for args, whole in expected:
        if made(whole) <= SMALL:
            assert function(*args) == whole
            fitting += 1
        else:
            with pytest.raises(RuleError, match=f"more than the {SMALL}( characters)? one value may have"):
                function(*args)
    assert 0 < fitting < len(expected)  # both sides of the limit were tried


@pytest.mark.parametrize(
    ("expr", "made"),
    [
        ('"ab" * 2000000000', f"`*` would make {2 * 2_000_000_000:,} items"),
        ("[0] * (10 ** 12)", f"`*` would make {10**12:,} items"),
        ("cells(100000, 100000)", f"cells() would make {100_000 * 100_000:,} items"),
        ("rows(3000)", f"rows() would make {3000 * 3000:,} items"),
        ("columns(2000, 3000)", f"columns() would make {2000 * 3000:,} items"),
        # runs of 4 across (2000 rows of 1997), down (1997 x 2000) and on both diagonals (1997 x 1997)
        ("windows(2000, 2000, 4)", f"windows() would make {4 * (2000 * 1997 * 2 + 1997 * 1997 * 2):,} items"),
        ("dihedral(1000)", f"dihedral() would make {7 * 1000 * 1000:,} items"),
        ("mirror(1001, 1000)", f"mirror() would make {1001 * 1000:,} items"),
        ("product([1], 1000000000)", f"product() would make {1 * 10**9:,} items"),
        ('pad("x", 10 ** 9)', f"pad() would make {10**9:,} items"),
        ("grid(1001, 1000, 0)", f"a 1001 x 1000 grid would make {1001 * 1000:,} items"),
        ("range(10 ** 15)", f"range() would make {10**15:,} items"),
        ('"ab" * (10 ** 30)', "`*` would make over 10^18 items"),
        # past the machine's word (2^63): Python's len() of such a range fails (OverflowError)
        ("range(1, 10 ** 20 + 1)", "range() would make over 10^18 items"),
        ("range(10 ** 20, -(10 ** 20), -3)", "range() would make over 10^18 items"),
    ],
)
def test_a_value_too_large_is_refused_at_load_before_it_is_made(expr: str, made: str) -> None:
    tracemalloc.start()
    try:
        with pytest.raises(GdlRuntimeError) as caught:
            value(expr)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    error = caught.value
    assert error.message == f"{made}, more than the 1,000,000 one value may have"
    assert (error.line, error.column) == (5, 11)  # the field `out` of the harness game
    assert peak < 50_000_000  # nothing of the size asked for was allocated


def test_the_item_limit_is_a_million() -> None:
    assert MAX_ITEMS == 1_000_000
    assert len(value("range(1000000)")) == 1_000_000
    assert sum(len(row) for row in value("rows(1000)")) == 1000 * 1000


def test_a_string_that_grows_in_a_loop_stops_at_the_limit() -> None:
    text = game_text(fields='out = "ab"', body="while true:\n    out = out + out")
    game = gdl.loads(text)
    with pytest.raises(GdlRuntimeError) as caught:
        game.result(game.initial_state(), 0)
    assert caught.value.message == f"`+` made {2 ** 20:,} items, more than the 1,000,000 one value may have"
    assert caught.value.source_line == text.split("\n")[(caught.value.line or 0) - 1] == "        out = out + out"


def test_augmented_assignment_is_bounded_like_its_operator() -> None:
    game = gdl.loads(game_text(fields="out = [1, 2]", body="while true:\n    out += out"))
    with pytest.raises(GdlRuntimeError) as caught:
        game.result(game.initial_state(), 0)
    assert caught.value.message == f"`+` made {2 ** 20:,} items, more than the 1,000,000 one value may have"
    # `*=` on a value whose kind the checker cannot know (here a list or a number)
    game = gdl.loads(game_text(fields="out = [[1, 2], 0][0]", body="while true:\n    out *= 2"))
    with pytest.raises(GdlRuntimeError) as caught:
        game.result(game.initial_state(), 0)
    assert caught.value.message == f"`*` would make {2 ** 20:,} items, more than the 1,000,000 one value may have"


def test_number_arithmetic_stays_plain_python_operators() -> None:
    game = gdl.loads(game_text(fields="out = 0\nk = 3", body="out = k * m + 2 * k\nk += m * m"))
    assert "_repeat" not in game.generated_source and "_concat" not in game.generated_source
    state = game.result(game.initial_state(), 0)
    assert (state.out, state.k) == (3 * 0 + 2 * 3, 3 + 0)


def test_tictactoe_of_size_3000_fails_fast_at_the_first_value_too_large() -> None:
    tracemalloc.start()
    try:
        with pytest.raises(GdlRuntimeError) as caught:
            gdl.load("games/tictactoe.gdl", size=3000)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    error = caught.value
    assert error.message == "rows() would make 9,000,000 items, more than the 1,000,000 one value may have"
    assert error.source_line is not None and error.source_line[error.column - 1:].startswith("rows(size)")
    assert peak < 50_000_000


def test_hog_fits_the_limit_up_to_six_dice() -> None:
    game = gdl.load("games/hog.gdl", dice=6)
    assert game.actions(game.initial_state()) == (1, 2, 3, 4, 5, 6)
    with pytest.raises(GdlRuntimeError) as caught:
        gdl.load("games/hog.gdl", dice=7)
    assert caught.value.message == f"product() would make {6 ** 7 * 7:,} items, more than the 1,000,000 one value may have"


# ---- powers ----------------------------------------------------------------------------------


@pytest.mark.parametrize(
    ("expr", "bits"),
    [
        ("(1 / 10 ** 3999) ** 9999", 9999 * (10**3999).bit_length()),
        ("(10 ** 3999 / 7) ** 9999", 9999 * (10**3999).bit_length()),
        ("(7 / 10 ** 3999) ** -9999", 9999 * (10**3999).bit_length()),
        ("(3 ** 1000) ** 1000", 1000 * (3**1000).bit_length()),
    ],
)
def test_a_power_is_refused_when_its_numerator_or_denominator_would_be_too_long(expr: str, bits: int) -> None:
    with pytest.raises(GdlRuntimeError) as caught:
        value(expr)
    assert caught.value.message == f"this power would have about {bits:,} bits, more than the 1,000,000 a number may have"


def test_powers_within_the_limit_are_exact() -> None:
    assert value("(1 / 2) ** 10000") == Fraction(1, 2**10000)
    assert value("(-1) ** 10000") == 1 and value("0 ** 10000") == 0
    assert value("2 ** 9999") == 2**9999
    assert value("(2 / 3) ** -9999") == Fraction(3, 2) ** 9999


def test_a_number_too_long_to_print_with_str_prints_in_full() -> None:
    game = gdl.loads(game_text(fields="out = 0", decls='display = str(10 ** 5000) + "/" + str(1 / 10 ** 4400)'))
    assert game.display(game.initial_state()) == "1" + "0" * 5000 + "/1/1" + "0" * 4400


# ---- nesting -----------------------------------------------------------------------------------


def if_chain(n: int, name: str = "k") -> str:
    """`0 if k == 0 else 1 if k == 1 else ... else -1`, n ways."""
    return " else ".join(f"{i} if {name} == {i}" for i in range(n)) + " else -1"


@pytest.mark.parametrize("n", [199, 450])
def test_a_long_if_else_chain_works(n: int) -> None:
    asked = (0, n // 2, n - 1, n)
    calls = ", ".join(f"pick({k})" for k in asked)
    assert value(f"({calls})", f"def pick(k) = {if_chain(n)}\n") == tuple(k if k < n else -1 for k in asked)


@pytest.mark.parametrize("n", [MAX_NESTING - 10])
def test_long_chains_of_one_operator_work(n: int) -> None:
    chains = [
        " - ".join(f"k * {i}" for i in range(n)),
        " or ".join(f"k == {i + 4}" for i in range(n)),
        " + ".join(['"a"'] * n),
    ]
    expected = (-3 * sum(range(1, n)), False, "a" * n)
    assert value("(" + ", ".join(chains) + ")", "param k = 3\n") == expected


NESTED = {
    "list": lambda n: "[" * n + "1" + "]" * n,
    "negation": lambda n: "-" * n + "1",
    "not": lambda n: "not " * n + "true",
    "call": lambda n: "abs(" * n + "1" + ")" * n,
    "sum": lambda n: " + ".join(["1"] * (n + 1)),
    "if": lambda n: if_chain(n, "m"),
}


@pytest.mark.parametrize("shape", list(NESTED))
@pytest.mark.parametrize("n", [MAX_NESTING + 1, 6 * MAX_NESTING])
def test_nesting_deeper_than_the_limit_is_a_syntax_error_at_the_first_node_too_deep(shape: str, n: int) -> None:
    source = game_text(fields="out = 0", body=f"let x = {NESTED[shape](n)}\nout = 0")
    with pytest.raises(GdlSyntaxError) as caught:
        gdl.loads(source)
    error = caught.value
    assert error.message.startswith(f"this is nested more than {MAX_NESTING} levels deep")
    assert error.line == 9 and error.source_line is not None and error.source_line.startswith("    let x = ")


@pytest.mark.parametrize("shape", list(NESTED))
@pytest.mark.parametrize("n", [150, MAX_NESTING - 10])
def test_nesting_within_the_limit_loads_or_is_an_error_at_the_rule(shape: str, n: int) -> None:
    # Within the language's limit a file loads, unless the translated Python meets its own
    # limit on brackets: then it is an error at the rule, never a RecursionError.
    source = game_text(fields="out = 0", body=f"let x = {NESTED[shape](n)}\nout = 1")
    try:
        game = gdl.loads(source)
    except GdlError as error:
        assert "nests too deeply for Python" in error.message and (error.line, error.column) == (9, 5)
        assert shape in ("list", "negation", "not", "call") and n > 190
    else:
        assert game.result(game.initial_state(), 0).out == 1


def test_deeply_nested_blocks_meet_pythons_limits_as_errors_at_the_rule() -> None:
    loops = "".join("    " * i + f"for x{i} in [1]:\n" for i in range(25)) + "    " * 25 + "out = 1"
    with pytest.raises(GdlSyntaxError) as caught:
        gdl.loads(game_text(body=loops))
    assert "too many statically nested blocks" in caught.value.message
    assert caught.value.line is not None and 9 <= caught.value.line <= 9 + 25


def test_a_deeply_nested_parameter_value_is_refused() -> None:
    deep: Any = 1
    for _ in range(MAX_NESTING + 5):
        deep = (deep,)
    with pytest.raises(gdl.GdlParamError) as caught:
        value("p", "param p = (1,)\n", p=deep)
    assert caught.value.message == f"a parameter value may nest at most {MAX_NESTING} levels deep"
    with pytest.raises(GdlSyntaxError):
        gdl.parse_value("[" * 5000 + "]" * 5000)


def test_the_limits_leave_pythons_recursion_limit_as_it_was() -> None:
    before = sys.getrecursionlimit()
    assert value(if_chain(300), "param k = 7\n") == 7
    assert sys.getrecursionlimit() == before


def test_a_recursion_error_while_checking_is_a_syntax_error_at_the_deepest_node(monkeypatch: pytest.MonkeyPatch) -> None:
    # Should the nesting check ever let through more than the checker can walk, Python's
    # RecursionError still ends as a positioned error: here the check is switched off and the
    # room for recursion taken away.
    import gdl.limits
    import gdl.parser

    monkeypatch.setattr(gdl.parser, "MAX_NESTING", 10**6)
    monkeypatch.setattr(gdl.limits, "MAX_NESTING", 0)
    text = game_text(fields="out = 0", body="let x = " + "-" * 5000 + "1\nout = 0")
    with pytest.raises(GdlSyntaxError) as caught:
        gdl.loads(text)
    error = caught.value
    assert error.message.startswith("this is nested too deeply to check and compile")
    assert (error.line, error.column) == (9, len("    let x = ") + 5000 + 1)  # the `1` inside all the `-`


def test_a_text_too_long_is_refused_before_it_is_made() -> None:
    decls = 'line = "a" * 1000000\nmany = [line] * 5000\n'
    tracemalloc.start()
    try:
        with pytest.raises(GdlRuntimeError) as caught:
            value("str(many)", decls)
        peak = tracemalloc.get_traced_memory()[1]
    finally:
        tracemalloc.stop()
    assert caught.value.message == "str() would make more than the 1,000,000 characters one value may have"
    assert peak < 50_000_000  # 5,000 million characters were asked for
    with pytest.raises(GdlRuntimeError) as caught:
        value('join("", many)', decls)
    assert caught.value.message == "join() would make more than the 1,000,000 characters one value may have"
