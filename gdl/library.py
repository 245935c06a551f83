"""What the language's built-in functions and operators do to values.

`gdl.builtins` names each function of this module in its row of the built-in table; the
interpreter's compiled rules call them. They run inside every search, so they are marked to be
skipped by typeguard (see `gdl._hot`). Each one that builds a value counts what it would make
against `limits.MAX_ITEMS` before making it.
"""

from __future__ import annotations

import itertools
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Callable, Iterable, Sequence

from gdl import _hot, limits
from gdl.kinds import Kind
from gdl.values import Grid, Map, RuleError, Set, Symbol, TextBudget, make_grid, number, to_text

if TYPE_CHECKING:  # mypy sees typeguard's own decorator and checks the function
    from typeguard import typeguard_ignore
else:  # at run time typeguard is not needed: this stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore


# ---- sizes ------------------------------------------------------------------------------------


@typeguard_ignore
def made(count: int, what: str) -> None:
    """Refuse to build a value of more than MAX_ITEMS items; `count` is computed before building."""
    if count > limits.MAX_ITEMS:
        amount = f"{count:,}" if count <= 10**18 else "over 10^18"
        raise RuleError(f"{what} would make {amount} items, more than the {limits.MAX_ITEMS:,} one value may have")


@typeguard_ignore
def _whole(*numbers: Any) -> None:
    for n in numbers:
        if not isinstance(n, int) or isinstance(n, bool):
            raise RuleError(f"a size must be an integer, got {to_text(n)}")


@typeguard_ignore
def fail(message: str) -> Any:
    """Raise a RuleError (for use inside an expression)."""
    raise RuleError(message)


# ---- operators --------------------------------------------------------------------------------


@typeguard_ignore
def divide(a: Any, b: Any) -> Any:
    """`a / b`, exact: an int when the quotient is whole, else a fraction."""
    if type(a) is int and type(b) is int:
        return divide_integers(a, b)
    return number(Fraction(a) / Fraction(b)) if b != 0 else fail("division by zero")


# The fractions made by `divide_integers`, kept: an evaluation such as `count / 100` makes the
# same few over and over, and making one (normalising it) costs far more than finding it.
# Fractions are immutable, so one can be handed out any number of times.
_FRACTIONS: dict[tuple[int, int], Fraction] = {}
_FRACTIONS_KEPT = 1 << 16


@typeguard_ignore
def divide_integers(a: int, b: int) -> int | Fraction:
    """`a / b` for two integers: no fraction is made when the quotient is whole."""
    if b == 0:
        raise RuleError("division by zero")
    quotient, remainder = divmod(a, b)
    if remainder == 0:
        return quotient
    fraction = _FRACTIONS.get((a, b))
    if fraction is None:
        fraction = Fraction(a, b)
        if len(_FRACTIONS) < _FRACTIONS_KEPT:
            _FRACTIONS[a, b] = fraction
    return fraction


@typeguard_ignore
def power(a: Any, b: Any) -> Any:
    """`a ** b`, exact, with an integer exponent of bounded size."""
    if not isinstance(b, int) or isinstance(b, bool):
        raise RuleError(f"an exponent must be an integer, not {to_text(b)}: powers stay exact")
    if abs(b) > limits.MAX_EXPONENT:
        raise RuleError(f"an exponent may be at most {limits.MAX_EXPONENT:,}, not {to_text(b)}")
    # The numerator and the denominator of the result have about |b| times their bits.
    bits = max(a.numerator.bit_length(), a.denominator.bit_length()) if isinstance(a, (int, Fraction)) else 0
    if bits > 1 and abs(b) * bits > limits.MAX_POWER_BITS:
        raise RuleError(f"this power would have about {abs(b) * bits:,} bits, more than the {limits.MAX_POWER_BITS:,} a number may have")
    if b < 0:
        return divide(1, a ** -b)
    return a ** b


_SIZED = (str, tuple, Set)


@typeguard_ignore
def concat(*parts: Any) -> Any:
    """`a + b + ...` where the parts may be strings, lists, tuples or sets: each sum is bounded."""
    total = parts[0]
    for part in parts[1:]:
        total = total + part
        if isinstance(total, _SIZED) and len(total) > limits.MAX_ITEMS:
            raise RuleError(f"`+` made {len(total):,} items, more than the {limits.MAX_ITEMS:,} one value may have")
    return total


@typeguard_ignore
def repeat(a: Any, b: Any) -> Any:
    """`a * b` where one side may be a string or list repeated: bounded before it is built."""
    if isinstance(a, _SIZED) and isinstance(b, int):
        made(len(a) * b, "`*`")
    elif isinstance(b, _SIZED) and isinstance(a, int):
        made(len(b) * a, "`*`")
    return a * b


@typeguard_ignore
def index(target: Any, key: Any) -> Any:
    """`target[key]` of a value whose kind is not known: a grid is indexed by its cells."""
    if isinstance(target, Grid):
        return target[target.index[key]]
    return target[key]


@typeguard_ignore
def put(target: Any, key: Any, value: Any) -> Any:
    """A copy of the grid, map or list `target` with the item at `key` set to `value`."""
    if isinstance(target, Grid):
        return target.with_cell(key, value)
    if isinstance(target, Map):
        return target.with_item(key, value)
    if isinstance(target, tuple):
        return put_item(target, key, value)
    raise RuleError(f"cannot change an item of {to_text(target)}")


@typeguard_ignore
def put_item(items: tuple[Any, ...], key: Any, value: Any) -> tuple[Any, ...]:
    """A copy of the list (or tuple) `items` with the item at position `key` set to `value`."""
    if not isinstance(key, int) or isinstance(key, bool):
        raise RuleError(f"a list index must be an integer, got {to_text(key)}")
    copy = list(items)
    copy[key] = value
    return tuple(copy)


# ---- built-in functions -------------------------------------------------------------------------

_NO_DEFAULT = object()


@typeguard_ignore
def get(target: Any, key: Any, default: Any = _NO_DEFAULT) -> Any:
    """`get(x, key, default)`."""
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
def grid(rows: int, cols: int, fill: Any) -> Grid:
    """`grid(rows, cols, fill)`."""
    if not (isinstance(rows, int) and isinstance(cols, int)) or rows < 1 or cols < 1:
        raise RuleError(f"a grid needs positive numbers of rows and columns, got {to_text(rows)} x {to_text(cols)}")
    made(rows * cols, f"a {rows} x {cols} grid")
    return make_grid(rows, cols, (fill,) * (rows * cols))


@typeguard_ignore
def integers(*args: int) -> tuple[int, ...]:
    """`range(...)`."""
    if len(args) == 3 and args[2] == 0:
        raise RuleError("range() step must not be zero")
    numbers = range(*args)
    try:
        count = len(numbers)
    except OverflowError:  # past the machine's word: counted by hand, only to be refused
        start, stop, step = numbers.start, numbers.stop, numbers.step
        count = (stop - start + step - (1 if step > 0 else -1)) // step
    made(count, "range()")
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


smallest = _minmax(min, "min")
largest = _minmax(max, "max")


@typeguard_ignore
def total(items: Iterable[Any]) -> Any:
    """`sum(xs)`."""
    return sum(items)


@typeguard_ignore
def count(items: Iterable[Any], value: Any = None, *rest: Any) -> int:
    """`count(xs)` or `count(xs, v)`."""
    if rest:
        raise RuleError("count() takes a list and at most one value")
    if not isinstance(items, tuple):  # a board is a tuple already: no copy of its cells
        items = tuple(items)
    if value is None:
        return len(items)
    return items.count(value)


@typeguard_ignore
def position_of(items: Sequence[Any], value: Any) -> int:
    """`index(xs, v)`."""
    for position, item in enumerate(items):
        if item == value:
            return position
    raise RuleError(f"{to_text(value)} is not in {to_text(tuple(items))}")


@typeguard_ignore
def items_of(items: Any) -> tuple[Any, ...]:
    """`list(xs)`."""
    return tuple(items)


@typeguard_ignore
def set_of(items: Any) -> Set:
    """`set(xs)`."""
    return Set(items)


@typeguard_ignore
def flatten(lists: Iterable[Any]) -> tuple[Any, ...]:
    """`flatten(xss)`."""
    lists = tuple(lists)
    made(sum(len(inner) for inner in lists), "flatten()")
    return tuple(item for inner in lists for item in inner)


@typeguard_ignore
def _dimensions(args: tuple[int, ...], what: str) -> tuple[int, int]:
    """(rows, cols) of `f(n)` or `f(rows, cols)`, whose rows * cols cells are counted as made."""
    rows, cols = (args[0], args[0]) if len(args) == 1 else (args[0], args[1])
    _whole(rows, cols)
    made(rows * cols, what)
    return rows, cols


@typeguard_ignore
def cells(*args: Any) -> tuple[tuple[int, int], ...]:
    """`cells(g)`, `cells(n)` or `cells(rows, cols)`."""
    if len(args) == 1 and isinstance(args[0], Grid):
        rows, cols = args[0].rows, args[0].cols
    else:
        rows, cols = _dimensions(args, "cells()")
    return tuple((r, c) for r in range(rows) for c in range(cols))


@typeguard_ignore
def rows_of(*args: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """`rows(n)` or `rows(rows, cols)`."""
    rows, cols = _dimensions(args, "rows()")
    return tuple(tuple((r, c) for c in range(cols)) for r in range(rows))


@typeguard_ignore
def columns_of(*args: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """`columns(n)` or `columns(rows, cols)`."""
    rows, cols = _dimensions(args, "columns()")
    return tuple(tuple((r, c) for r in range(rows)) for c in range(cols))


@typeguard_ignore
def diagonals(n: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """`diagonals(n)`."""
    _whole(n)
    made(2 * n, "diagonals()")
    return (tuple((i, i) for i in range(n)), tuple((i, n - 1 - i) for i in range(n)))


@typeguard_ignore
def windows(rows: int, cols: int, k: int) -> tuple[tuple[tuple[int, int], ...], ...]:
    """`windows(rows, cols, k)`."""
    _whole(rows, cols, k)
    if k < 1:
        raise RuleError(f"windows() needs runs of at least 1 cell, not {k}")
    across, down = max(0, cols - k + 1), max(0, rows - k + 1)
    # Runs across, down and along both diagonals, k cells each.
    made(k * (max(0, rows) * across + down * max(0, cols) + 2 * down * across), "windows()")
    found = []
    for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
        for r in range(rows):
            for c in range(cols):
                end_r, end_c = r + dr * (k - 1), c + dc * (k - 1)
                if 0 <= end_r < rows and 0 <= end_c < cols:
                    found.append(tuple((r + dr * i, c + dc * i) for i in range(k)))
    return tuple(found)


@typeguard_ignore
def offset(cell: tuple[int, int], step: tuple[int, int], n: int = 1) -> tuple[int, int]:
    """`offset(cell, step)` or `offset(cell, step, n)`."""
    return (cell[0] + step[0] * n, cell[1] + step[1] * n)


@typeguard_ignore
def directions(n: int) -> tuple[tuple[int, int], ...]:
    """`directions(4)` or `directions(8)`."""
    if n == 4:
        return ((-1, 0), (0, 1), (1, 0), (0, -1))
    if n == 8:
        return ((-1, -1), (-1, 0), (-1, 1), (0, -1), (0, 1), (1, -1), (1, 0), (1, 1))
    raise RuleError(f"directions() takes 4 or 8, got {to_text(n)}")


def _cell_map(n_rows: int, n_cols: int, transform: Callable[[int, int], tuple[int, int]]) -> Map:
    return Map({(r, c): transform(r, c) for r in range(n_rows) for c in range(n_cols)})


@typeguard_ignore
def dihedral(n: int) -> tuple[Map, ...]:
    """`dihedral(n)`."""
    _whole(n)
    made(7 * n * n, "dihedral()")
    last = n - 1
    transforms: tuple[Callable[[int, int], tuple[int, int]], ...] = (
        lambda r, c: (c, last - r), lambda r, c: (last - r, last - c), lambda r, c: (last - c, r),
        lambda r, c: (r, last - c), lambda r, c: (last - r, c), lambda r, c: (c, r),
        lambda r, c: (last - c, last - r),
    )
    return tuple(_cell_map(n, n, t) for t in transforms)


@typeguard_ignore
def mirror(rows: int, cols: int) -> tuple[Map, ...]:
    """`mirror(rows, cols)`."""
    _whole(rows, cols)
    made(rows * cols, "mirror()")
    return (_cell_map(rows, cols, lambda r, c: (r, cols - 1 - c)),)


def _text_budget(what: str) -> TextBudget:
    """The characters one text may have, counted as it is made."""
    return TextBudget(limits.MAX_ITEMS, what)


@typeguard_ignore
def text(value: Any, kind: Kind | None = None) -> str:
    """`str(x)`; given the ``kind`` of x, a list in brackets."""
    return to_text(value, _text_budget("str()"), kind)


@typeguard_ignore
def join(separator: str, items: Iterable[Any], kind: Kind | None = None) -> str:
    """`join(separator, xs)`; given the ``kind`` of the items, lists in brackets."""
    budget = _text_budget("join()")
    texts = [to_text(item, budget, kind) for item in items]
    separator = str(separator)
    budget.spend(len(separator) * max(0, len(texts) - 1))
    return separator.join(texts)


@typeguard_ignore
def pad(value: Any, width: int) -> str:
    """`pad(x, width)`."""
    _whole(width)
    made(width, "pad()")
    return to_text(value, _text_budget("pad()")).rjust(width)


@typeguard_ignore
def split(text: str, separator: str) -> tuple[str, ...]:
    """`split(text, separator)`."""
    if not isinstance(text, str) or not isinstance(separator, str):
        raise RuleError(f"split() takes two strings, got {to_text(text)} and {to_text(separator)}")
    if separator == "":
        raise RuleError("split() needs a separator of at least one character")
    pieces = text.split(separator)
    made(len(pieces), "split()")
    return tuple(pieces)


@typeguard_ignore
def error(message: Any) -> Any:
    """`error(message)`: the rule fails with the message."""
    raise RuleError(message if isinstance(message, str) else to_text(message))


@typeguard_ignore
def show(board: Grid, legend: Map | None = None) -> str:
    """`show(g)` or `show(g, legend)`."""
    if not isinstance(board, Grid):
        raise RuleError(f"show() draws a grid, not {to_text(board)}")
    return "\n".join(board.row_texts(legend, _text_budget("show()")))


@typeguard_ignore
def product(items: Iterable[Any], n: int) -> tuple[tuple[Any, ...], ...]:
    """`product(xs, n)`."""
    items = tuple(items)
    _whole(n)
    # len(items) ** n tuples of n items; past 64 factors of 2 or more there is no need to count.
    if len(items) > 1 and n > 64:
        made(limits.MAX_ITEMS + 1, "product()")
    made(len(items) ** max(n, 0) * max(n, 1), "product()")
    return tuple(itertools.product(items, repeat=n))


@typeguard_ignore
def sign(x: Any) -> int:
    """`sign(x)`."""
    found: int = (x > 0) - (x < 0)
    return found


@typeguard_ignore
def inside(board: Any, cell: Any) -> bool:
    """`inside(g, cell)`."""
    return isinstance(cell, tuple) and cell in board.index


class _Following(dict):  # type: ignore[type-arg]
    """Each player's follower in turn order; asking for one that is no player is a rule error."""

    def __missing__(self, player: Any) -> Symbol:
        raise RuleError(f"{to_text(player)} is not a player")


def _following(players: tuple[Symbol, ...]) -> _Following:
    return _Following({p: players[(i + 1) % len(players)] for i, p in enumerate(players)})


OTHER_NEEDS_TWO_PLAYERS = "other() is for two-player games; use next()"
"""What `other(p)` in a game of more or fewer than two players is told: by the checker, and by
the function itself in a game built without it."""


def other_player(players: tuple[Symbol, ...]) -> Callable[[Any], Symbol]:
    """`other(p)` for a game with these players: a look-up in a table (a rule error for a
    game of more or fewer than two players)."""
    if len(players) == 2:
        return _following(players).__getitem__

    @typeguard_ignore
    def other(player: Any) -> Symbol:
        raise RuleError(OTHER_NEEDS_TWO_PLAYERS)

    return other


def next_player(players: tuple[Symbol, ...]) -> Callable[[Any], Symbol]:
    """`next(p)` for a game with these players: a look-up in a table."""
    return _following(players).__getitem__
