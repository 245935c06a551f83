"""The built-in functions and symbols of the language: their arity and kinds, for the checker.

Their implementations live in the interpreter (`interpreter.runtime`); this table is what the
language promises, and `docs/language.md` lists the same functions.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Callable

from gdl.kinds import (
    ANY, BOOL, GRID, INT, LIST, MAP, NUMBER, PLAYER, STRING, SYMBOL, TUPLE, Kind,
    element, grid_of, join, list_of, map_of, tuple_of,
)

ResultKind = Callable[[tuple[Kind, ...]], Kind]

BUILTIN_SYMBOLS: tuple[str, ...] = ("empty", "chance")
"""Symbols every game has: `empty` for a free cell, `chance` as the player of a chance node."""


@dataclass(frozen=True)
class Builtin:
    """A built-in function: how many arguments it takes and what kind it returns."""

    name: str
    usage: str
    summary: str
    min_args: int
    max_args: int | None
    result: ResultKind
    args: tuple[Kind, ...] = ()
    reserved: bool = True
    """Whether a file's own `def` may not take the name (false for the built-ins added after
    files were written with functions of those names: a file's function then takes precedence)."""


def _always(kind: Kind) -> ResultKind:
    return lambda args: kind


def _element_of_first(args: tuple[Kind, ...]) -> Kind:
    if len(args) == 1:
        return element(args[0])
    kind = args[0]
    for arg in args[1:]:
        kind = join(kind, arg)
    return kind


def _same_as_first(args: tuple[Kind, ...]) -> Kind:
    return args[0] if args else ANY


def _list_of_first_elements(args: tuple[Kind, ...]) -> Kind:
    return list_of(element(args[0])) if args else LIST


def _grid_of_fill(args: tuple[Kind, ...]) -> Kind:
    return grid_of(args[2]) if len(args) == 3 else GRID


def _sum(args: tuple[Kind, ...]) -> Kind:
    return INT if element(args[0]).name == "int" else NUMBER


def _get(args: tuple[Kind, ...]) -> Kind:
    target = args[0]
    if target.name == "grid":
        return join(target.args[0], args[2]) if len(args) == 3 else target.args[0]
    if target.name == "map":
        return join(target.args[1], args[2]) if len(args) == 3 else target.args[1]
    if target.name == "list":
        return join(target.args[0], args[2]) if len(args) == 3 else target.args[0]
    return ANY


def _lines(args: tuple[Kind, ...]) -> Kind:
    return list_of(list_of(tuple_of((INT, INT))))


_CELL = tuple_of((INT, INT))
_CELL_MAPS = list_of(map_of(_CELL, _CELL))

_TABLE: tuple[Builtin, ...] = (
    # numbers
    Builtin("abs", "abs(x)", "the absolute value of a number", 1, 1, _same_as_first, (NUMBER,)),
    Builtin("sign", "sign(x)", "-1, 0 or 1, the sign of a number", 1, 1, _always(INT), (NUMBER,)),
    Builtin("min", "min(xs) or min(a, b, ...)", "the smallest item", 1, None, _element_of_first),
    Builtin("max", "max(xs) or max(a, b, ...)", "the largest item", 1, None, _element_of_first),
    Builtin("sum", "sum(xs)", "the sum of a list of numbers (0 for an empty list)", 1, 1, _sum),
    # collections
    Builtin("len", "len(x)", "the number of items of a list, tuple, map or string", 1, 1, _always(INT)),
    Builtin("range", "range(n), range(a, b) or range(a, b, step)", "the integers a, a+step, ... below b (a=0, step=1 by default)", 1, 3, _always(list_of(INT)), (INT, INT, INT)),
    Builtin("count", "count(xs) or count(xs, v)", "how many items xs has, or how many of them equal v", 1, 2, _always(INT)),
    Builtin("any", "any(xs)", "whether some item is true", 1, 1, _always(BOOL)),
    Builtin("all", "all(xs)", "whether every item is true (true for an empty list)", 1, 1, _always(BOOL)),
    Builtin("sorted", "sorted(xs)", "the items in increasing order", 1, 1, _list_of_first_elements),
    Builtin("reversed", "reversed(xs)", "the items in reverse order", 1, 1, _list_of_first_elements),
    Builtin("list", "list(xs)", "the items of a tuple, list, map (its keys) or grid (its cells, row by row) as a list", 1, 1, lambda a: list_of(a[0].args[0]) if a[0].name == "grid" else list_of(element(a[0]))),
    Builtin("zip", "zip(xs, ys)", "the list of pairs (x, y) taken side by side", 2, 2, lambda a: list_of(tuple_of((element(a[0]), element(a[1]))))),
    Builtin("enumerate", "enumerate(xs)", "the list of pairs (position, item), positions from 0", 1, 1, lambda a: list_of(tuple_of((INT, element(a[0]))))),
    Builtin("index", "index(xs, v)", "the position of the first item equal to v (an error if none is)", 2, 2, _always(INT)),
    Builtin("flatten", "flatten(xss)", "the items of a list of lists, in order, as one list", 1, 1, lambda a: list_of(element(element(a[0])))),
    Builtin("product", "product(xs, n)", "every tuple of n items of xs (n dice: product(range(1, 7), n))", 2, 2, _always(list_of(TUPLE)), (ANY, INT)),
    Builtin("keys", "keys(m)", "the keys of a map, in the order they were added", 1, 1, lambda a: list_of(a[0].args[0]) if a[0].name == "map" else LIST, (MAP,)),
    Builtin("values", "values(m)", "the values of a map", 1, 1, lambda a: list_of(a[0].args[1]) if a[0].name == "map" else LIST, (MAP,)),
    Builtin("items", "items(m)", "the (key, value) pairs of a map", 1, 1, lambda a: list_of(tuple_of(a[0].args)) if a[0].name == "map" else LIST, (MAP,)),
    Builtin("get", "get(x, key, default)", "x[key], or default when the key is missing or the cell is off the grid", 2, 3, _get),
    Builtin("put", "put(x, key, value)", "a copy of the list, tuple, map or grid x with x[key] set to value", 3, 3, _same_as_first),
    # grids and boards
    Builtin("grid", "grid(rows, cols, fill)", "a rows x cols grid with every cell set to fill", 3, 3, _grid_of_fill, (INT, INT)),
    Builtin("height", "height(g)", "the number of rows of a grid", 1, 1, _always(INT), (GRID,)),
    Builtin("width", "width(g)", "the number of columns of a grid", 1, 1, _always(INT), (GRID,)),
    Builtin("cells", "cells(g), cells(n) or cells(rows, cols)", "every cell (row, col), row by row", 1, 2, _always(list_of(_CELL))),
    Builtin("inside", "inside(g, cell)", "whether the cell is on the grid", 2, 2, _always(BOOL), (GRID, TUPLE)),
    Builtin("rows", "rows(n) or rows(rows, cols)", "the rows of a board, each a list of cells", 1, 2, _lines, (INT, INT)),
    Builtin("columns", "columns(n) or columns(rows, cols)", "the columns of a board, each a list of cells", 1, 2, _lines, (INT, INT)),
    Builtin("diagonals", "diagonals(n)", "the two long diagonals of an n x n board", 1, 1, _lines, (INT,)),
    Builtin("windows", "windows(rows, cols, k)", "every horizontal, vertical and diagonal run of k cells", 3, 3, _lines, (INT, INT, INT)),
    Builtin("offset", "offset(cell, step) or offset(cell, step, n)", "the cell n steps (default 1) away in direction step", 2, 3, _always(_CELL), (TUPLE, TUPLE, INT)),
    Builtin("directions", "directions(4) or directions(8)", "the 4 orthogonal or 8 king-move steps (dr, dc)", 1, 1, _always(list_of(_CELL)), (INT,)),
    Builtin("dihedral", "dihedral(n)", "the 7 rotations and reflections of an n x n board, as cell maps, for `symmetries`", 1, 1, _always(_CELL_MAPS), (INT,)),
    Builtin("mirror", "mirror(rows, cols)", "the left-right reflection of a board, as a list of one cell map, for `symmetries`", 2, 2, _always(_CELL_MAPS), (INT, INT)),
    # players
    Builtin("other", "other(p)", "the other player of a two-player game", 1, 1, _always(PLAYER), (SYMBOL,)),
    Builtin("next", "next(p)", "the player after p in turn order", 1, 1, _always(PLAYER), (SYMBOL,)),
    # the state after a move
    Builtin("after", "after(move, x)", "x in the state after the move: its fields, definitions and functions read that state, local names keep their values", 2, 2, lambda a: a[1], reserved=False),
    # text
    Builtin("str", "str(x)", "x as text, as the game prints it", 1, 1, _always(STRING)),
    Builtin("join", "join(separator, xs)", "the items as text, with the separator between them", 2, 2, _always(STRING), (STRING,)),
    Builtin("pad", "pad(x, width)", "x as text, right-aligned in width characters", 2, 2, _always(STRING), (ANY, INT)),
    Builtin("show", "show(g) or show(g, legend)", "a grid as text, one line a row; legend maps cell values to text", 1, 2, _always(STRING), (GRID, MAP)),
)

BUILTINS: dict[str, Builtin] = {b.name: b for b in _TABLE}
"""Every built-in function by name."""

