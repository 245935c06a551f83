"""A game file cannot reach Python: Python's names are unknown names, attribute syntax is a
syntax error, strings are data, names that look like the compiler's own are just names, and
the compiled rules run with empty `__builtins__`."""

from __future__ import annotations

import os
from fractions import Fraction
from typing import Any

import pytest

import gdl
from gdl.errors import GdlCheckError, GdlSyntaxError
from interpreter import symbol
from tests.lang.harness import after, game_text, same, value

PYTHON_NAMES = [
    "__import__", "open", "eval", "exec", "compile", "globals", "locals", "vars", "dir",
    "__builtins__", "__class__", "__dict__", "__name__", "__loader__", "__spec__",
    "print", "input", "getattr", "setattr", "delattr", "type", "object", "breakpoint", "exit",
    "True", "False", "None", "lambda", "import", "os", "sys",
    # names of the generated code and of the runtime's helpers
    "S", "State", "_tuple", "_Map", "_index", "_put", "_divide", "_power", "_fail", "_loop_limit",
    "_LOOP_LIMIT", "_players", "_new_state", "_move", "_h0", "_k0", "_g0", "_i0",
    "_last_moves", "_uncached_moves", "_param_size", "_constant_lines", "_initial_n",
    "b_len", "b_other", "v_x", "d_x", "f_x", "p_x", "s_empty", "result",
]

@pytest.mark.parametrize("name", PYTHON_NAMES)
def test_python_names_are_unknown_names(name: str) -> None:
    with pytest.raises(GdlCheckError) as caught:
        value(name)
    error = caught.value
    assert error.message.startswith(f"unknown name `{name}`")
    assert (error.line, error.column) == (5, 11)  # the field `out` of the harness game
    assert len(error.errors) == 1


@pytest.mark.parametrize("name", PYTHON_NAMES)
def test_python_names_are_unknown_functions(name: str) -> None:
    with pytest.raises(GdlCheckError) as caught:
        value(f'{name}("os")')
    error = caught.value
    assert error.message.startswith(f"unknown function `{name}`")
    assert (error.line, error.column) == (5, 11)  # the field `out` of the harness game


@pytest.mark.parametrize(
    "expr",
    ["n.__class__", "(1).__class__", '"".join', "[].__class__.__mro__", "A.lower()", "grid(1, 1, 0).index", "f.__globals__"],
)
def test_attribute_syntax_is_a_syntax_error(expr: str) -> None:
    with pytest.raises(GdlSyntaxError) as caught:
        value(expr)
    error = caught.value
    assert "unexpected character `.`" in error.message
    assert error.line == 5 and error.source_line is not None and error.source_line[error.column - 1] == "."


@pytest.mark.parametrize(
    "source",
    [
        "x = 1; y = 2",  # Python's statement separator
        "x = [c for c in range(3) if c := 1]",  # walrus
        "x = lambda: 1",
        "x = `ls`",
        "x = f'{n}'",
        "x = 1 @ 2",
        "x = ~1",
        "x = 1 << 2",
        "x = 1 | 2",
        "x = {*range(3)}",
        "x = [*range(3)]",
        "import os",
        "from os import system",
        "x = 0x10",
        "x = 1e3",
    ],
)
def test_python_syntax_that_is_not_the_language(source: str) -> None:
    with pytest.raises(gdl.GdlError) as caught:
        gdl.loads(game_text(decls=source))
    assert isinstance(caught.value, (GdlSyntaxError, GdlCheckError))
    assert caught.value.line == 3


CANARY = "GDL_SANDBOX_CANARY"

HOSTILE_STRINGS = [
    # (text in the file, the value it must have)
    ('"\\"); __import__(\'os\')"', "\"); __import__('os')"),
    ('"\\\\"', "\\"),
    ('"\\\\\\""', '\\"'),
    (f'"\\"); __import__(\'os\').environ.__setitem__(\'{CANARY}\', \'1\') #"', f"\"); __import__('os').environ.__setitem__('{CANARY}', '1') #"),
    ('"\'\'\' + str(__import__(\'os\')) + \'\'\'"', "''' + str(__import__('os')) + '''"),
    ('"\\n\\t\\x41\\u00e9"', "\n\tAé"),
    ('"{__import__}"', "{__import__}"),
    ('"%s %(x)s"', "%s %(x)s"),
    ('"#"', "#"),
    ('"__builtins__"', "__builtins__"),
]


@pytest.mark.parametrize(("literal", "expected"), HOSTILE_STRINGS, ids=[e for _, e in HOSTILE_STRINGS])
def test_strings_are_data(literal: str, expected: str) -> None:
    assert value(literal) == expected
    assert after(f"out = {literal} + str(m)", fields='out = ""').out == expected + "0"
    assert CANARY not in os.environ


@pytest.mark.parametrize(("_literal", "text"), HOSTILE_STRINGS, ids=[e for _, e in HOSTILE_STRINGS])
def test_string_parameters_from_python_are_data(_literal: str, text: str) -> None:
    assert value("name + \"!\"", 'param name = "x"\n', name=text) == text + "!"
    assert CANARY not in os.environ


def test_a_parameter_value_from_the_command_line_cannot_call_python() -> None:
    with pytest.raises(gdl.GdlError):
        gdl.parse_value("__import__('os')")
    expr = gdl.parse_value('__import__("os")')
    with pytest.raises(gdl.GdlParamError) as caught:
        value("p", "param p = 1\n", p=expr)
    assert caught.value.message == "the value given for parameter `p` is not valid: unknown function `__import__`"


# ---- names that look like the compiler's are ordinary names ----------------------------------

LOOKALIKES = ["S", "State", "_tuple", "_Map", "_index", "_put", "_move", "_h0", "_k0", "_g0", "_i0",
              "_loop1", "_LOOP_LIMIT", "_new_state", "b_len", "v_out", "d_x", "f_x", "p_x", "s_empty",
              "moves_uncached", "_uncached_moves", "_last_moves", "_param_n", "_initial_out", "fields", "count"]


@pytest.mark.parametrize("name", LOOKALIKES)
def test_lookalike_names_are_ordinary_names(name: str) -> None:
    # A state field, read and assigned in the result block.
    state = after(f"{name} = {name} * 10 + m\nout = {name} + 1", fields=f"{name} = 4\nout = 0", move=2, moves="[2]")
    assert (state[0], state.out, getattr(state, name)) == (42, 43, 42)
    # A parameter (overridden too), a definition, a function and its parameter, a local.
    assert value(f"{name} + 1", f"param {name} = 6\n") == 7
    assert value(f"{name} + 1", f"param {name} = 6\n", **{name: 9}) == 10
    assert value(f"{name} * 2", f"{name} = 6\n") == 12
    if name != "count":  # a built-in function
        assert value(f"{name}(3)", f"def {name}(x) = x + 1\n") == 4
    assert value("g(5)", f"def g({name}):\n    let t{name} = {name} * 3\n    return t{name}\n") == 15
    assert after(f"let {name} = m + 1\nout = {name}").out == 1


def test_a_definition_named_like_the_cached_body_of_another() -> None:
    # `moves` is read by `terminal`, so its last answer is remembered; a definition called
    # `moves_uncached` must not replace its body.
    text = game_text(decls="moves_uncached = [7, 8, 9]", fields="n = 0", body="n += m", moves="[1, 2] if n < 3 else []")
    text = text.replace("terminal = false", "terminal = moves == []")
    game = gdl.loads(text)
    assert game.actions(game.initial_state()) == (1, 2)


@pytest.mark.parametrize("name", ["__class__", "__init__", "__iter__", "__hash__", "__slots__", "__eq__", "__getattribute__", "__x"])
@pytest.mark.parametrize(
    ("where", "make"),
    [
        ("field", lambda n: game_text(fields=f"out = 0\n{n} = 1")),
        ("param", lambda n: game_text(decls=f"param {n} = 1")),
        ("definition", lambda n: game_text(decls=f"{n} = 1")),
        ("function", lambda n: game_text(decls=f"def {n}(x) = x")),
        ("function parameter", lambda n: game_text(decls=f"def f({n}) = 1")),
        ("local", lambda n: game_text(body=f"let {n} = m\nout = 1")),
        ("loop variable", lambda n: game_text(body=f"for {n} in [1]:\n    out = 1")),
        ("comprehension variable", lambda n: game_text(fields=f"out = [1 for {n} in [1]]")),
        ("symbol", lambda n: game_text(decls=f"symbols {n}")),
        ("player", lambda n: game_text().replace("players A, B", f"players A, B, {n}")),
    ],
)
def test_dunder_names_are_reserved(name: str, where: str, make: Any) -> None:
    with pytest.raises(GdlCheckError) as caught:
        gdl.loads(make(name))
    assert [e.message for e in caught.value.errors] == [f"`{name}`: names starting with `__` are reserved; choose another name"]


# ---- the compiled code ------------------------------------------------------------------------


def compiled_functions(game: Any) -> list[Any]:
    return [v for k, v in game._names.items() if callable(v) and getattr(v, "__code__", None) is not None
            and v.__code__.co_filename == game._filename]


@pytest.mark.parametrize("path", ["games/tictactoe.gdl", "games/nim.gdl", "games/subtraction.gdl"])
def test_compiled_rules_run_with_empty_builtins(path: str) -> None:
    game = gdl.load(path)
    assert game._names["__builtins__"] == {}
    functions = compiled_functions(game)
    assert {"result", "d_to_move", "d_moves", "d_terminal", "d_utility"} <= {f.__name__ for f in functions}
    for function in functions:
        assert function.__globals__["__builtins__"] == {}
        assert function.__globals__ is game._names


def test_the_compiled_code_reaches_only_prefixed_names_and_helpers() -> None:
    game = gdl.load("games/tictactoe.gdl")
    allowed_prefixes = ("b_", "s_", "p_", "d_", "f_", "_")
    for name in game._names:
        assert name.startswith(allowed_prefixes) or name in ("result", "actions", "State"), name
    # The helpers are the runtime's own functions and value types; nothing from builtins but tuple.
    import builtins

    reachable_builtins = {name for name, v in game._names.items() if any(v is b for b in vars(builtins).values())}
    assert reachable_builtins <= {"_tuple", "__builtins__", "b_abs", "b_len", "b_any", "b_all"}
    import re

    assert re.findall(r"\b(?:import|eval|exec|open|getattr|globals|__\w+)\b", game.generated_source) == []


def test_a_string_in_the_rules_is_written_as_a_python_literal() -> None:
    game = gdl.loads(game_text(fields='out = ""', body='out = "\\"); __import__(\'os\') #"'))
    assert repr("\"); __import__('os') #") in game.generated_source  # a string literal, nothing more
    assert game.result(game.initial_state(), 0).out == "\"); __import__('os') #"
    compiled = compile(game.generated_source, "<check>", "exec")
    assert "__import__" not in compiled.co_names
    for const in compiled.co_consts:
        if hasattr(const, "co_names"):
            assert "__import__" not in const.co_names


# ---- parameter values from Python are data, whatever their class ----------------------------

PAYLOAD = f"__import__('os').environ.__setitem__('{CANARY}', '1') or 1"


def hostile(base: type) -> type:
    """A subclass of `base` whose every way of becoming text returns Python code."""

    def code(self: object, *args: object) -> str:
        return PAYLOAD

    return type(f"Hostile{base.__name__}", (base,), {"__repr__": code, "__str__": code, "__format__": code})


HOSTILE_VALUES = [
    ("text", '"x"', hostile(str)("abc"), "abc"),
    ("number", "1", hostile(int)(12), 12),
    ("share", "1/2", hostile(float)(2.5), Fraction(5, 2)),
    ("share", "1/2", hostile(Fraction)(3, 4), Fraction(3, 4)),
    ("items", '(1, "a")', hostile(tuple)((hostile(int)(5), hostile(str)("q"))), (5, "q")),
    ("items", "[1, 2]", hostile(list)([hostile(int)(7)]), (7,)),
    ("table", "{1: 2}", hostile(dict)({hostile(int)(1): hostile(int)(9)}), {1: 9}),
]


@pytest.mark.parametrize(("name", "default", "given", "expected"), HOSTILE_VALUES, ids=[type(h[2]).__name__ for h in HOSTILE_VALUES])
def test_a_parameter_of_a_hostile_subclass_is_copied_as_plain_data(name: str, default: str, given: Any, expected: Any) -> None:
    game = gdl.loads(game_text(decls=f"param {name} = {default}", fields=f"out = {name}"), **{name: given})
    assert same(game.initial_state().out, expected)
    assert CANARY not in os.environ
    assert PAYLOAD not in game.generated_source and "__import__" not in game.generated_source


def test_a_symbol_given_for_a_string_parameter_is_its_text() -> None:
    game = gdl.loads(game_text(decls='param label = "x"', fields="out = label"), label=symbol(PAYLOAD))
    assert same(game.initial_state().out, PAYLOAD)
    assert CANARY not in os.environ


@pytest.mark.parametrize(
    ("default", "node", "expected"),
    [
        ('"s"', gdl.ast.String(hostile(str)("abc"), line=1, column=1), "abc"),
        ("0", gdl.ast.Number(hostile(int)(12), line=1, column=1), 12),
        ("(0,)", gdl.ast.TupleExpr((gdl.ast.Number(hostile(int)(5), line=1, column=1),), line=1, column=1), (5,)),
    ],
    ids=["str", "int", "tuple of int"],
)
def test_the_compiler_writes_only_plain_values_as_literals(default: str, node: Any, expected: Any) -> None:
    # A parsed value (as from the command line) handed over as a node skips the copying of
    # Python values: the compiler itself must keep a value of any other class out of the text.
    game = gdl.loads(game_text(decls=f"param p = {default}", fields="out = p"), p=node)
    assert game.initial_state().out == expected
    assert CANARY not in os.environ
    assert PAYLOAD not in game.generated_source
    compiled = compile(game.generated_source, "<check>", "exec")
    assert "__import__" not in str(compiled.co_consts)


@pytest.mark.parametrize(
    "node",
    [
        gdl.ast.Name("x) or __import__('os') or (x", line=1, column=1),
        gdl.ast.Binary("+ __import__('os') +", gdl.ast.Number(1, line=1, column=1), gdl.ast.Number(2, line=1, column=1), line=1, column=1),
        gdl.ast.Unary(hostile(str)("-"), gdl.ast.Number(1, line=1, column=1), line=1, column=1),
    ],
    ids=["name", "operator", "operator of a hostile class"],
)
def test_names_and_operators_not_of_the_grammar_are_refused(node: Any) -> None:
    with pytest.raises(gdl.GdlError):
        gdl.loads(game_text(decls="param p = 0", fields="out = p"), p=node)
    assert CANARY not in os.environ


@pytest.mark.parametrize(
    ("given", "message"),
    [
        (float("nan"), "a parameter must be a finite number, not nan"),
        (float("inf"), "a parameter must be a finite number, not inf"),
        (-float("inf"), "a parameter must be a finite number, not -inf"),
        (10**5000, "a number given as a parameter may have at most 4000 digits"),
        (-(10**4000), "a number given as a parameter may have at most 4000 digits"),
        (Fraction(1, 10**4000), "a number given as a parameter may have at most 4000 digits"),
        ([0] * 1_000_001, "a parameter value may have at most 1,000,000 items"),
        ("x" * 1_000_001, "a parameter value may have at most 1,000,000 items"),
        ({1, 2}, "a parameter cannot be set to the Python value of type set"),
    ],
    ids=["nan", "inf", "-inf", "5001 digits", "4001 digits", "fraction", "long list", "long string", "set"],
)
def test_a_python_value_out_of_the_limits_is_a_parameter_error(given: Any, message: str) -> None:
    with pytest.raises(gdl.GdlParamError) as caught:
        value("p", "param p = 1\n", p=given)
    assert caught.value.message == message


def test_a_number_of_4000_digits_is_a_parameter_value_like_any() -> None:
    assert value("p + 1", "param p = 1\n", p=10**4000 - 1) == 10**4000
