"""A game file cannot reach Python: Python's names are unknown names, attribute syntax is a
syntax error, strings are data, names that look like the compiler's own are just names, and
the compiled rules run with empty `__builtins__`."""

from __future__ import annotations

import os
from typing import Any

import pytest

import gdl
from gdl.errors import GdlCheckError, GdlSyntaxError
from tests.lang.harness import after, game_text, value

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
        assert name.startswith(allowed_prefixes) or name in ("result", "State"), name
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
