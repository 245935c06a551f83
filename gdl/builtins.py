"""The built-in functions and symbols of the language, one row each.

A row says everything about a built-in: how it is written and what it gives (the line of the
reference, docs/language.md, which a test keeps in step), how many arguments of which kinds it
takes and the kind of its value (for the checker), the function that computes it (for the
interpreter), whether it is pure (its value depends on its arguments alone, so the compiler may
compute it once, at load or before a loop, when its arguments are known), and what it counts
against the limit on the items of one value.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any, Callable

from gdl import library
from gdl.kinds import (
    ANY, BOOL, CELL, GRID, INT, LIST, MAP, NUMBER, PLAYER, STRING, SYMBOL, TUPLE, Kind,
    element, grid_of, join, list_of, map_of, set_of, tuple_of,
)

ResultKind = Callable[[tuple[Kind, ...]], Kind]

BUILTIN_SYMBOLS: tuple[str, ...] = ("empty", "chance")
"""Symbols every game has: `empty` for a free cell, `chance` as the player of a chance node."""


@dataclass(frozen=True)
class Builtin:
    """A built-in function: its row of the table."""

    name: str
    forms: tuple[str, ...]
    """How it is called, each form as written: `range(n)`, `range(a, b)`, ..."""
    summary: str
    """What it gives, as the reference says it (Markdown)."""
    min_args: int
    max_args: int | None
    result: ResultKind
    args: tuple[Kind, ...] = ()
    implementation: Callable[..., Any] | None = None
    """The function that computes it; None for `after`, which the compiler writes out."""
    for_players: bool = False
    """Whether `implementation` is made for a game from its players: `implementation(players)`."""
    pure: bool = True
    """Whether its value depends on its arguments alone (`after` reads the state)."""
    counts: str = ""
    """What it counts against the limit on the items of one value, as the reference says it."""
    reserved: bool = True
    """Whether a file's own `def` may not take the name (false for the built-ins added after
    files were written with functions of those names: a file's function then takes precedence)."""
    prints: ResultKind | None = None
    """The kind of what it writes as text, from its arguments' kinds (`str`: x's; `join`: the
    items'): where that holds a list, the compiler passes `implementation` that kind too, so
    that the list is written in brackets."""

    @property
    def usage(self) -> str:
        """The forms in words, for messages: `range(n), range(a, b) or range(a, b, step)`."""
        return _listed(self.forms)

    @property
    def reference_row(self) -> str:
        """Its row in the reference's table of built-in functions."""
        return f"| {_listed(tuple(f'`{form}`' for form in self.forms))} | {self.summary} |"


def _listed(forms: tuple[str, ...]) -> str:
    return forms[0] if len(forms) == 1 else ", ".join(forms[:-1]) + " or " + forms[-1]


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
    # Items of no known kind (an empty tuple's) may all be integers: their sum is not known
    # to be anything but a number.
    items = element(args[0]).name
    return INT if items == "int" else ANY if items == "any" else NUMBER


def _get(args: tuple[Kind, ...]) -> Kind:
    target = args[0]
    found = {"grid": 0, "map": 1, "list": 0}.get(target.name)
    if found is None:
        return ANY
    return join(target.args[found], args[2]) if len(args) == 3 else target.args[found]


def _items_as_list(args: tuple[Kind, ...]) -> Kind:
    return list_of(args[0].args[0]) if args[0].name == "grid" else list_of(element(args[0]))


def _map_part(position: int) -> ResultKind:
    return lambda args: list_of(args[0].args[position]) if args[0].name == "map" else LIST


_LINES = _always(list_of(list_of(CELL)))
_CELL_MAPS = list_of(map_of(CELL, CELL))
_b = Builtin
_lib = library

TABLE: tuple[Builtin, ...] = (
    # numbers
    _b("abs", ("abs(x)",), "the absolute value of a number", 1, 1, _same_as_first, (NUMBER,), abs),
    _b("sign", ("sign(x)",), "-1, 0 or 1, the sign of a number", 1, 1, _always(INT), (NUMBER,), _lib.sign),
    _b("min", ("min(xs)", "min(a, b, ...)"), "the smallest item", 1, None, _element_of_first, (), _lib.smallest),
    _b("max", ("max(xs)", "max(a, b, ...)"), "the largest item", 1, None, _element_of_first, (), _lib.largest),
    _b("sum", ("sum(xs)",), "the sum of a list of numbers (0 for an empty list)", 1, 1, _sum, (), _lib.total),
    # collections
    _b("len", ("len(x)",), "the number of items of a list, tuple, map, set or string", 1, 1, _always(INT), (), len),
    _b("range", ("range(n)", "range(a, b)", "range(a, b, step)"), "the integers a, a+step, ... below b (a=0, step=1 by default)",
       1, 3, _always(list_of(INT)), (INT, INT, INT), _lib.integers, counts="a list or range of n numbers is n"),
    _b("count", ("count(xs)", "count(xs, v)"), "how many items xs has, or how many of them equal v (to count the items for which a condition holds: `count(x for x in xs if CONDITION)`)",
       1, 2, _always(INT), (), _lib.count),
    _b("any", ("any(xs)",), "whether some item is true", 1, 1, _always(BOOL), (), any),
    _b("all", ("all(xs)",), "whether every item is true (true for an empty list)", 1, 1, _always(BOOL), (), all),
    _b("sorted", ("sorted(xs)",), "the items in increasing order", 1, 1, _list_of_first_elements, (), lambda items: tuple(sorted(items))),
    _b("reversed", ("reversed(xs)",), "the items in reverse order", 1, 1, _list_of_first_elements, (), lambda items: tuple(items)[::-1]),
    _b("list", ("list(xs)",), "the items of a tuple, list, set, map (its keys) or grid (what its cells hold, row by row; `cells(g)` gives the cells themselves) as a list", 1, 1, _items_as_list, (), _lib.items_of),
    _b("set", ("set(xs)",), "the items of a list, tuple, map (its keys) or string as a set", 1, 1, lambda a: set_of(element(a[0])), (), _lib.set_of, reserved=False),
    _b("zip", ("zip(xs, ys)",), "the list of pairs (x, y) taken side by side", 2, 2, lambda a: list_of(tuple_of((element(a[0]), element(a[1])))), (), lambda a, b: tuple(zip(a, b))),
    _b("enumerate", ("enumerate(xs)",), "the list of pairs (position, item), positions from 0", 1, 1, lambda a: list_of(tuple_of((INT, element(a[0])))), (), lambda items: tuple(enumerate(items))),
    _b("index", ("index(xs, v)",), "the position of the first item equal to v (an error if none is)", 2, 2, _always(INT), (), _lib.position_of),
    _b("flatten", ("flatten(xss)",), "the items of a list of lists, in order, as one list", 1, 1, lambda a: list_of(element(element(a[0]))), (), _lib.flatten,
       counts="`flatten` all the items"),
    _b("product", ("product(xs, n)",), "every tuple of n items of xs (n dice: `product(range(1, 7), n)`)", 2, 2, _always(list_of(TUPLE)), (ANY, INT), _lib.product,
       counts="`product(xs, n)` its tuples times n"),
    _b("keys", ("keys(m)",), "the keys of a map, in the order they were added", 1, 1, _map_part(0), (MAP,), lambda m: tuple(m.keys())),
    _b("values", ("values(m)",), "the values of a map", 1, 1, _map_part(1), (MAP,), lambda m: tuple(m.values())),
    _b("items", ("items(m)",), "the (key, value) pairs of a map", 1, 1, lambda a: list_of(tuple_of(a[0].args)) if a[0].name == "map" else LIST, (MAP,), lambda m: tuple(m.items())),
    _b("get", ("get(x, key, default)",), "x[key], or default when the key is missing or the cell is off the grid", 2, 3, _get, (), _lib.get),
    _b("put", ("put(x, key, value)",), "a copy of the list, tuple, map or grid x with x[key] set to value", 3, 3, _same_as_first, (), _lib.put),
    # grids and boards
    _b("grid", ("grid(rows, cols, fill)",), "a rows x cols grid with every cell set to fill", 3, 3, _grid_of_fill, (INT, INT), _lib.grid,
       counts="a grid or `cells(rows, cols)` rows x cols"),
    _b("height", ("height(g)",), "the number of rows of a grid", 1, 1, _always(INT), (GRID,), lambda g: g.rows),
    _b("width", ("width(g)",), "the number of columns of a grid", 1, 1, _always(INT), (GRID,), lambda g: g.cols),
    _b("cells", ("cells(g)", "cells(n)", "cells(rows, cols)"), "every cell (row, col), row by row", 1, 2, _always(list_of(CELL)), (), _lib.cells,
       counts="a grid or `cells(rows, cols)` rows x cols"),
    _b("inside", ("inside(g, cell)",), "whether the cell is on the grid", 2, 2, _always(BOOL), (GRID, TUPLE), _lib.inside),
    _b("rows", ("rows(n)", "rows(rows, cols)"), "the rows of a board, each a list of cells", 1, 2, _LINES, (INT, INT), _lib.rows_of,
       counts="`rows(n)` and `columns(n)` n x n cells"),
    _b("columns", ("columns(n)", "columns(rows, cols)"), "the columns of a board, each a list of cells", 1, 2, _LINES, (INT, INT), _lib.columns_of,
       counts="`rows(n)` and `columns(n)` n x n cells"),
    _b("diagonals", ("diagonals(n)",), "the two long diagonals of an n x n board", 1, 1, _LINES, (INT,), _lib.diagonals,
       counts="`diagonals(n)` 2n"),
    _b("windows", ("windows(rows, cols, k)",), "every horizontal, vertical and diagonal run of k cells", 3, 3, _LINES, (INT, INT, INT), _lib.windows,
       counts="`windows(rows, cols, k)` k cells a run"),
    _b("offset", ("offset(cell, step)", "offset(cell, step, n)"), "the cell n steps (default 1) away in direction step", 2, 3, _always(CELL), (TUPLE, TUPLE, INT), _lib.offset),
    _b("directions", ("directions(4)", "directions(8)"), "the 4 orthogonal or 8 king-move steps (dr, dc)", 1, 1, _always(list_of(CELL)), (INT,), _lib.directions),
    _b("dihedral", ("dihedral(n)",), "the 7 rotations and reflections of an n x n board, as cell maps, for `symmetries`", 1, 1, _always(_CELL_MAPS), (INT,), _lib.dihedral,
       counts="`dihedral(n)` 7 n x n"),
    _b("mirror", ("mirror(rows, cols)",), "the left-right reflection of a board, as a list of one cell map, for `symmetries`", 2, 2, _always(_CELL_MAPS), (INT, INT), _lib.mirror,
       counts="`mirror(rows, cols)` rows x cols"),
    # players
    _b("other", ("other(p)",), "the other player of a two-player game", 1, 1, _always(PLAYER), (SYMBOL,), _lib.other_player, for_players=True),
    _b("next", ("next(p)",), "the player after p in turn order", 1, 1, _always(PLAYER), (SYMBOL,), _lib.next_player, for_players=True),
    # the state after a move
    _b("after", ("after(move, x)",), "x in the state after the move: its fields, definitions and functions read that state, local names keep their values",
       2, 2, lambda a: a[1], pure=False, reserved=False),
    # text
    _b("str", ("str(x)",), "x as text, as the game prints it", 1, 1, _always(STRING), (), _lib.text, counts="`str(x)`",
       prints=lambda args: args[0]),
    _b("join", ("join(separator, xs)",), "the items as text, with the separator between them", 2, 2, _always(STRING), (STRING,), _lib.join, counts="`join`",
       prints=lambda args: element(args[1])),
    _b("pad", ("pad(x, width)",), "x as text, right-aligned in width characters", 2, 2, _always(STRING), (ANY, INT), _lib.pad, counts="`pad(x, width)`"),
    _b("show", ("show(g)", "show(g, legend)"), "a grid as text, one line a row; legend maps cell values to text", 1, 2, _always(STRING), (GRID, MAP), _lib.show,
       counts="`show(g)`"),
    _b("split", ("split(text, separator)",), "the pieces of the text between the separators, as a list of strings (`split(\"a/b\", \"/\")` is `[\"a\", \"b\"]`)",
       2, 2, _always(list_of(STRING)), (STRING, STRING), _lib.split, counts="`split` its pieces", reserved=False),
    # mistakes
    _b("error", ("error(message)",), "an error at the rule that calls it, with this message: for a parameter the rules cannot use, `x if ok else error(\"...\")`",
       1, 1, _always(ANY), (STRING,), _lib.error, reserved=False),
)
"""Every built-in function, in the order of the reference."""

BUILTINS: dict[str, Builtin] = {b.name: b for b in TABLE}
"""Every built-in function by name."""
