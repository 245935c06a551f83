"""What compiled rules may call: the built-in functions and a few helpers, nothing else.

These run inside every search, so they are marked `typeguard_ignore`.

The compiled code runs with an empty `__builtins__`; this module's `namespace` is the whole of
the Python it can reach.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import Any, Callable, Iterable, Sequence
from typing import no_type_check as typeguard_ignore  # typeguard skips these: they run at every node

from gdl.limits import LOOP_LIMIT, MAX_EXPONENT, MAX_ITEMS, MAX_POWER_BITS
from interpreter.values import CHANCE, EMPTY, Grid, Map, RuleError, Symbol, TextBudget, make_grid, number, to_text


@typeguard_ignore
def _made(count: int, what: str) -> None:
    """Refuse to build a value of more than MAX_ITEMS items; `count` is computed before building."""
    if count > MAX_ITEMS:
        amount = f"{count:,}" if count < 10**18 else "far more than that many"
        raise RuleError(f"{what} would make {amount} items, more than the {MAX_ITEMS:,} one value may have")


@typeguard_ignore
def _whole(*numbers: Any) -> None:
    for n in numbers:
        if not isinstance(n, int) or isinstance(n, bool):
            raise RuleError(f"a size must be an integer, got {to_text(n)}")


@typeguard_ignore
def _grid(rows: int, cols: int, fill: Any) -> Grid:
    if not (isinstance(rows, int) and isinstance(cols, int)) or rows < 1 or cols < 1:
        raise RuleError(f"a grid needs positive numbers of rows and columns, got {to_text(rows)} x {to_text(cols)}")
    _made(rows * cols, f"a {rows} x {cols} grid")
    return make_grid(rows, cols, (fill,) * (rows * cols))


@typeguard_ignore
def _index(target: Any, key: Any) -> Any:
    if isinstance(target, Grid):
        return target[target.index[key]]
    return target[key]


@typeguard_ignore
def _put(target: Any, key: Any, value: Any) -> Any:
    if isinstance(target, Grid):
        return target.with_cell(key, value)
    if isinstance(target, Map):
        return target.with_item(key, value)
    if isinstance(target, tuple):
        if not isinstance(key, int) or isinstance(key, bool):
            raise RuleError(f"a list index must be an integer, got {to_text(key)}")
        items = list(target)
        items[key] = value
        return tuple(items)
    raise RuleError(f"cannot change an item of {to_text(target)}")


_NO_DEFAULT = object()


@typeguard_ignore
def _get(target: Any, key: Any, default: Any = _NO_DEFAULT) -> Any:
    if isinstance(target, Grid):
        position = target.index.get(key) if isinstance(key, tuple) else None
        if position is not None:
            return target[position]
    elif isinstance(target, Map):
        if key in target:
            return dict.__getitem__(target, key)
    elif isinstance(target, (tuple, str)) and isinstance(key, int) and -len(target) <= key < len(target):
        return target[key]
    if default is _NO_DEFAULT:
        # Python's None is no value of the language: without a default, a miss is an error.
        raise RuleError(f"get() found nothing at {to_text(key)}; give a default: get(x, key, default)")
    return default


@typeguard_ignore
def _divide(a: Any, b: Any) -> Any:
    return number(Fraction(a) / Fraction(b)) if b != 0 else _fail("division by zero")


@typeguard_ignore
def _power(a: Any, b: Any) -> Any:
    if not isinstance(b, int) or isinstance(b, bool):
        raise RuleError(f"an exponent must be an integer, not {to_text(b)}: powers stay exact")
    if abs(b) > MAX_EXPONENT:
        raise RuleError(f"an exponent may be at most {MAX_EXPONENT:,}, not {to_text(b)}")
    # The numerator and the denominator of the result have about |b| times their bits.
    bits = max(a.numerator.bit_length(), a.denominator.bit_length()) if isinstance(a, (int, Fraction)) else 0
    if bits > 1 and abs(b) * bits > MAX_POWER_BITS:
        raise RuleError(f"this power would have about {abs(b) * bits:,} bits, more than the {MAX_POWER_BITS:,} a number may have")
    if b < 0:
        return _divide(1, a ** -b)
    return a ** b


@typeguard_ignore
def _fail(message: str) -> Any:
    raise RuleError(message)


@typeguard_ignore
def _loop_limit() -> None:
    raise RuleError(f"a `while` loop ran more than {LOOP_LIMIT} times")


_SIZED = (str, tuple)


@typeguard_ignore
def _concat(*parts: Any) -> Any:
    """`a + b + ...` where the parts may be strings, lists or tuples: each sum is bounded."""
    total = parts[0]
    for part in parts[1:]:
        total = total + part
        if isinstance(total, _SIZED) and len(total) > MAX_ITEMS:
            raise RuleError(f"`+` made {len(total):,} items, more than the {MAX_ITEMS:,} one value may have")
    return total


@typeguard_ignore
def _repeat(a: Any, b: Any) -> Any:
    """`a * b` where one side may be a string or list repeated: bounded before it is built."""
    if isinstance(a, _SIZED) and isinstance(b, int):
        _made(len(a) * b, "`*`")
    elif isinstance(b, _SIZED) and isinstance(a, int):
        _made(len(b) * a, "`*`")
    return a * b


@typeguard_ignore
def _range(*args: int) -> tuple[int, ...]:
    if len(args) == 3 and args[2] == 0:
        raise RuleError("range() step must not be zero")
    numbers = range(*args)
    _made(len(numbers), "range()")
    return tuple(numbers)


def _minmax(pick: Callable[..., Any], name: str) -> Callable[..., Any]:
    @typeguard_ignore
    def choose(*args: Any) -> Any:
        items = args[0] if len(args) == 1 else args
        items = tuple(items)
        if not items:
            raise RuleError(f"{name}() of an empty list")
        return pick(items)

    return choose


@typeguard_ignore
def _count(items: Iterable[Any], value: Any = None, *rest: Any) -> int:
    if rest:
        raise RuleError("count() takes a list and at most one value")
    items = tuple(items)
    if value is None:
        return len(items)
    return items.count(value)


@typeguard_ignore
def _index_of(items: Sequence[Any], value: Any) -> int:
    for position, item in enumerate(items):
        if item == value:
            return position
    raise RuleError(f"{to_text(value)} is not in {to_text(tuple(items))}")


@typeguard_ignore
def _list(items: Any) -> tuple[Any, ...]:
    return tuple(items)


@typeguard_ignore
def _flatten(lists: Iterable[Any]) -> tuple[Any, ...]:
    lists = tuple(lists)
    _made(sum(len(inner) for inner in lists), "flatten()")
    return tuple(item for inner in lists for item in inner)


@typeguard_ignore
def _cells(*args: Any) -> tuple[tuple[int, int], ...]:
    if len(args) == 1 and isinstance(args[0], Grid):
        rows, cols = args[0].rows, args[0].cols
    else:
        rows, cols = _dimensions(args, "cells()")
    return tuple((r, c) for r in range(rows) for c in range(cols))


@typeguard_ignore
def _dimensions(args: tuple[int, ...], what: str) -> tuple[int, int]:
    """(rows, cols) of `f(n)` or `f(rows, cols)`, whose rows * cols cells are counted as made."""
    rows, cols = (args[0], args[0]) if len(args) == 1 else (args[0], args[1])
    _whole(rows, cols)
    _made(rows * cols, what)
    return rows, cols


@typeguard_ignore
def _rows(*args: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    rows, cols = _dimensions(args, "rows()")
    return tuple(tuple((r, c) for c in range(cols)) for r in range(rows))


@typeguard_ignore
def _columns(*args: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    rows, cols = _dimensions(args, "columns()")
    return tuple(tuple((r, c) for r in range(rows)) for c in range(cols))


@typeguard_ignore
def _diagonals(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    _whole(n)
    _made(2 * n, "diagonals()")
    return (tuple((i, i) for i in range(n)), tuple((i, n - 1 - i) for i in range(n)))


@typeguard_ignore
def _windows(rows: int, cols: int, k: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    _whole(rows, cols, k)
    if k < 1:
        raise RuleError(f"windows() needs runs of at least 1 cell, not {k}")
    across, down = max(0, cols - k + 1), max(0, rows - k + 1)
    # Runs across, down and along both diagonals, k cells each.
    _made(k * (max(0, rows) * across + down * max(0, cols) + 2 * down * across), "windows()")
    found = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    found.append(tuple((r + dr * i, c + dc * i) for i in range(k)))
    return tuple(found)


@typeguard_ignore
def _offset(cell: tuple[int, int], step: tuple[int, int], n: int = 1) -> tuple[int, int]:
    return (cell[0] + step[0] * n, cell[1] + step[1] * n)


@typeguard_ignore
def _directions(n: int) -> tuple[tuple[int, int], ...]:
    if n == 4:
        return ((-1, 0), (0, 1), (1, 0), (0, -1))
    if n == 8:
        return ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
    raise RuleError(f"directions() takes 4 or 8, got {to_text(n)}")


def _cell_map(n_rows: int, n_cols: int, transform: Callable[[int, int], tuple[int, int]]) -> Map:
    return Map({(r, c): transform(r, c) for r in range(n_rows) for c in range(n_cols)})


@typeguard_ignore
def _dihedral(n: int) -> tuple[Map, ...]:
    _whole(n)
    _made(7 * n * n, "dihedral()")
    last = n - 1
    transforms = (
        lambda r, c: (c, last - r), lambda r, c: (last - r, last - c), lambda r, c: (last - c, r),
        lambda r, c: (r, last - c), lambda r, c: (last - r, c), lambda r, c: (c, r),
        lambda r, c: (last - c, last - r),
    )
    return tuple(_cell_map(n, n, t) for t in transforms)


@typeguard_ignore
def _mirror(rows: int, cols: int) -> tuple[Map, ...]:
    _whole(rows, cols)
    _made(rows * cols, "mirror()")
    return (_cell_map(rows, cols, lambda r, c: (r, cols - 1 - c)),)


def _text_budget(what: str) -> TextBudget:
    """The characters one text may have, counted as it is made."""
    return TextBudget(MAX_ITEMS, what)


@typeguard_ignore
def _str(value: Any) -> str:
    return to_text(value, _text_budget("str()"))


@typeguard_ignore
def _join(separator: str, items: Iterable[Any]) -> str:
    budget = _text_budget("join()")
    texts = [to_text(item, budget) for item in items]
    separator = str(separator)
    budget.spend(len(separator) * max(0, len(texts) - 1))
    return separator.join(texts)


@typeguard_ignore
def _pad(value: Any, width: int) -> str:
    _whole(width)
    _made(width, "pad()")
    return to_text(value, _text_budget("pad()")).rjust(width)


@typeguard_ignore
def _show(board: Grid, legend: Map | None = None) -> str:
    if not isinstance(board, Grid):
        raise RuleError(f"show() draws a grid, not {to_text(board)}")
    return "\n".join(board.row_texts(legend, _text_budget("show()")))


@typeguard_ignore
def _product(items: Iterable[Any], n: int) -> tuple[tuple[Any, ...], ...]:
    items = tuple(items)
    _whole(n)
    # len(items) ** n tuples of n items; past 64 factors of 2 or more there is no need to count.
    if len(items) > 1 and n > 64:
        _made(MAX_ITEMS + 1, "product()")
    _made(len(items) ** max(n, 0) * max(n, 1), "product()")
    return tuple(itertools.product(items, repeat=n))


@typeguard_ignore
def _sign(x: Any) -> int:
    return (x > 0) - (x < 0)


def player_functions(players: tuple[Symbol, ...]) -> dict[str, Callable[[Any], Symbol]]:
    """`other` and `next` for a game with these players."""
    following = {p: players[(i + 1) % len(players)] for i, p in enumerate(players)}

    @typeguard_ignore
    def other(player: Any) -> Symbol:
        if len(players) != 2:
            raise RuleError("other() is for two-player games; use next()")
        try:
            return following[player]
        except KeyError:
            raise RuleError(f"{to_text(player)} is not a player") from None

    @typeguard_ignore
    def next_player(player: Any) -> Symbol:
        try:
            return following[player]
        except KeyError:
            raise RuleError(f"{to_text(player)} is not a player") from None

    return {"b_other": other, "b_next": next_player}


BUILTIN_FUNCTIONS: dict[str, Callable[..., Any]] = {
    "abs": abs,
    "sign": _sign,
    "min": _minmax(min, "min"),
    "max": _minmax(max, "max"),
    "sum": lambda items: sum(items),
    "len": len,
    "range": _range,
    "count": _count,
    "any": any,
    "all": all,
    "sorted": lambda items: tuple(sorted(items)),
    "reversed": lambda items: tuple(items)[::-1],
    "list": _list,
    "zip": lambda a, b: tuple(zip(a, b)),
    "enumerate": lambda items: tuple(enumerate(items)),
    "index": _index_of,
    "flatten": _flatten,
    "product": _product,
    "keys": lambda m: tuple(m.keys()),
    "values": lambda m: tuple(m.values()),
    "items": lambda m: tuple(m.items()),
    "get": _get,
    "put": _put,
    "grid": _grid,
    "height": lambda g: g.rows,
    "width": lambda g: g.cols,
    "cells": _cells,
    "inside": lambda g, cell: isinstance(cell, tuple) and cell in g.index,
    "rows": _rows,
    "columns": _columns,
    "diagonals": _diagonals,
    "windows": _windows,
    "offset": _offset,
    "directions": _directions,
    "dihedral": _dihedral,
    "mirror": _mirror,
    "str": _str,
    "join": _join,
    "pad": _pad,
    "show": _show,
}


def namespace(players: tuple[Symbol, ...]) -> dict[str, Any]:
    """The globals of a game's compiled code: built-ins, helpers, and no Python builtins."""
    names: dict[str, Any] = {"__builtins__": {}}
    for name, function in BUILTIN_FUNCTIONS.items():
        names["b_" + name] = function
    names.update(player_functions(players))
    names.update({
        "_tuple": tuple, "_Map": Map, "_index": _index, "_put": _put,
        "_divide": _divide, "_power": _power, "_loop_limit": _loop_limit, "_fail": _fail,
        "_concat": _concat, "_repeat": _repeat,
        "_LOOP_LIMIT": LOOP_LIMIT, "_players": players, "s_empty": EMPTY, "s_chance": CHANCE,
    })
    return names
