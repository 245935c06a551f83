"""A tiny game around a snippet, to evaluate expressions and blocks of the language.

`value(expr)` makes the expression the initial value of a state field and reads it back;
`after(body)` runs a `result` block once and returns the new state. Both go through
`gdl.loads`, so every snippet is parsed, checked and compiled like a real game file.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any

import gdl
from interpreter import Grid, Map, Symbol

HEADER = 'game "Harness"\nplayers A, B\n'

RULES = """\
to_move = A
moves = {moves}
result({target}):
{body}
terminal = false
utility = 0
"""


def indent(block: str, spaces: int = 4) -> str:
    """Every line of the block indented."""
    return "".join(" " * spaces + line + "\n" for line in block.strip("\n").split("\n"))


def game_text(
    *, decls: str = "", fields: str = "out = 0", body: str = "out = out", moves: str = "[0]", target: str = "m"
) -> str:
    """A minimal valid game: players A and B, the given declarations, fields and result block."""
    rules = RULES.format(moves=moves, target=target, body=indent(body))
    return HEADER + decls.strip("\n") + "\nstate:\n" + indent(fields) + rules


def value(expr: str, decls: str = "", **params: Any) -> Any:
    """The value of `expr` computed at load, as the initial value of the field `out`."""
    game = gdl.loads(game_text(decls=decls, fields=f"out = {expr}"), **params)
    return game.initial_state().out


def values(exprs: list[str], decls: str = "") -> dict[str, Any]:
    """The values of many expressions from one game (a field each), to load one game, not
    hundreds; empty when that game does not load, so that each case then loads its own game
    and reports its own error."""
    fields = "out = 0\n" + "\n".join(f"e{i} = {expr}" for i, expr in enumerate(exprs))
    try:
        state = gdl.loads(game_text(decls=decls, fields=fields)).initial_state()
    except gdl.GdlError:
        return {}
    return {expr: state[i + 1] for i, expr in enumerate(exprs)}


def after(
    body: str, *, fields: str = "out = 0", decls: str = "", move: Any = 0, moves: str = "[0]", target: str = "m"
) -> Any:
    """The state after the move `move` (bound to `target` in `result(target):`) by the block `body`."""
    game = gdl.loads(game_text(decls=decls, fields=fields, body=body, moves=moves, target=target))
    return game.result(game.initial_state(), move)


class G:
    """An expected grid: its size and its cells, row by row."""

    def __init__(self, rows: int, cols: int, cells: tuple[Any, ...]) -> None:
        self.rows, self.cols, self.cells = rows, cols, cells

    def __repr__(self) -> str:
        return f"G({self.rows}, {self.cols}, {self.cells!r})"


def same(actual: Any, expected: Any) -> bool:
    """Equal values of the same kind: an int is not a fraction, a symbol is not a string,
    `true` is not 1; lists and tuples are tuples at run time; maps keep their order."""
    if isinstance(expected, G):
        return (
            isinstance(actual, Grid)
            and (actual.rows, actual.cols) == (expected.rows, expected.cols)
            and same(tuple(actual), expected.cells)
        )
    if isinstance(expected, bool):
        return actual is expected
    if isinstance(expected, int):
        return type(actual) is int and actual == expected
    if isinstance(expected, Fraction):
        return type(actual) is Fraction and actual == expected
    if isinstance(expected, Symbol):
        return isinstance(actual, Symbol) and str(actual) == str(expected)
    if isinstance(expected, str):
        return type(actual) is str and actual == expected
    if isinstance(expected, tuple):
        return (
            isinstance(actual, tuple) and not isinstance(actual, Grid) and len(actual) == len(expected)
            and all(same(a, e) for a, e in zip(actual, expected))
        )
    if isinstance(expected, dict):
        return isinstance(actual, Map) and len(actual) == len(expected) and all(
            same(ak, ek) and same(av, ev) for (ak, av), (ek, ev) in zip(actual.items(), expected.items())
        )
    raise TypeError(f"no way to compare with {expected!r}")
