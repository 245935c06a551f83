"""The values a running game works with: symbols, grids, maps, sets and states, all immutable."""

from __future__ import annotations

import decimal
from fractions import Fraction
from functools import lru_cache
from operator import itemgetter
from typing import TYPE_CHECKING, Any, Iterable, Iterator

from gdl import _hot
from gdl.kinds import ANY, Kind

if TYPE_CHECKING:  # mypy sees typeguard's own decorator and checks the function
    from typeguard import typeguard_ignore
else:  # at run time typeguard is not needed: this stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore

class RuleError(Exception):
    """A rule of the game failed while running; the game adds where and in which state."""


class Symbol(str):
    """A symbolic constant such as `X`, `empty` or `pass`: a string that prints as its name.

    Symbols are interned, so the compiled rules compare them with `is`.
    """

    __slots__ = ()

    def __repr__(self) -> str:
        return str.__str__(self)

    def __reduce__(self) -> tuple[Any, tuple[str]]:
        # Copies and pickles come back as the one interned symbol: rules compare with `is`.
        return (symbol, (str.__str__(self),))

    def __copy__(self) -> Symbol:
        return self

    def __deepcopy__(self, seen: dict[int, Any]) -> Symbol:
        return self


_SYMBOLS: dict[str, Symbol] = {}


def symbol(name: str) -> Symbol:
    """The one Symbol with this name."""
    found = _SYMBOLS.get(name)
    if found is None:
        found = _SYMBOLS[name] = Symbol(name)
    return found


class _CellIndex(dict):  # type: ignore[type-arg]
    """Maps a cell (row, col) to its position in a grid's flat tuple; off-board cells fail clearly."""

    __slots__ = ("rows", "cols")
    rows: int
    cols: int

    def __missing__(self, cell: Any) -> int:
        raise RuleError(f"cell {to_text(cell)} is not on the {self.rows}x{self.cols} board")


@lru_cache(maxsize=None)
def cell_index(rows: int, cols: int) -> _CellIndex:
    """The table from cell to flat position for a rows x cols grid, shared by all such grids."""
    table = _CellIndex({(r, c): r * cols + c for r in range(rows) for c in range(cols)})
    table.rows, table.cols = rows, cols
    return table


class Grid(tuple):  # type: ignore[type-arg]
    """A rows x cols board: a tuple of its cells, row by row.

    Each size of board has its own subclass (see `grid_class`) holding `rows`, `cols` and
    `index`, the table from a cell (row, col) to its position, so a board is a plain tuple at
    run time: compiled rules read a cell as `board[board.index[cell]]`.
    """

    __slots__ = ()
    if TYPE_CHECKING:
        # Class attributes of each size's subclass, declared for type checkers only: at run
        # time, class annotations on a tuple subclass make typeguard take it for a NamedTuple.
        rows: int
        cols: int
        index: _CellIndex  # type: ignore[assignment]  # it stands in for tuple's method

    def __repr__(self) -> str:
        return "\n".join(self.row_texts())

    def __reduce__(self) -> tuple[Any, tuple[int, int, tuple[Any, ...]]]:
        # Each size's class is made at run time, so a pickle names the function that makes it.
        return (make_grid, (self.rows, self.cols, tuple(self)))

    @typeguard_ignore
    def with_cell(self, cell: Any, value: Any) -> Grid:
        """A copy with one cell (row, col) changed."""
        cells = list(self)
        cells[self.index[cell]] = value
        return tuple.__new__(type(self), cells)

    @typeguard_ignore
    def with_position(self, position: int, value: Any) -> Grid:
        """A copy with the cell at a flat position (row * cols + col) changed."""
        cells = list(self)
        cells[position] = value
        return tuple.__new__(type(self), cells)

    def row_texts(self, legend: dict[Any, str] | None = None, budget: TextBudget | None = None) -> list[str]:
        """Each row as text, cells separated by spaces (empty cells as `.`)."""
        def text(value: Any) -> str:
            if legend is not None and value in legend:
                return _spend(budget, str(legend[value]))
            if value is EMPTY:
                return _spend(budget, ".")
            return _text(value, budget, ANY)

        rows = [[text(self[r * self.cols + c]) for c in range(self.cols)] for r in range(self.rows)]
        width = max((len(t) for row in rows for t in row), default=1)
        if budget is not None:  # the padding, the spaces and the line ends, before they are made
            budget.spend(sum(width + 1 - len(t) for row in rows for t in row) - 1)
        return [" ".join(t.rjust(width) for t in row) for row in rows]


@lru_cache(maxsize=None)
def grid_class(rows: int, cols: int) -> type[Grid]:
    """The Grid subclass for boards of rows x cols."""
    namespace = {"__slots__": (), "rows": rows, "cols": cols, "index": cell_index(rows, cols)}
    return type(f"Grid{rows}x{cols}", (Grid,), namespace)


def make_grid(rows: int, cols: int, cells: Iterable[Any]) -> Grid:
    """A rows x cols grid with these cells, row by row."""
    return tuple.__new__(grid_class(rows, cols), cells)


class Map(dict):  # type: ignore[type-arg]
    """An immutable map: the game never changes one in place, it makes a new one."""

    __slots__ = ("_hash",)
    _hash: int

    def __missing__(self, key: Any) -> Any:
        raise RuleError(f"the map has no key {to_text(key)}")

    def __hash__(self) -> int:  # type: ignore[override]
        # Kept once made: a map is hashed with each state that holds it.  (``getattr`` with a
        # default: a new map's missing slot is found quicker than by ``except``.)
        found: int | None = getattr(self, "_hash", None)
        if found is None:
            found = self._hash = hash(frozenset(self.items()))
        return found

    def __reduce__(self) -> tuple[Any, tuple[dict[Any, Any]]]:
        # Without the hash kept: another process (a Ray worker) may hash strings otherwise.
        return (Map, (dict(self),))

    @typeguard_ignore
    def with_item(self, key: Any, value: Any) -> Map:
        """A copy with one key set."""
        copy = Map(self)
        copy[key] = value
        return copy


class Set(frozenset):  # type: ignore[type-arg]
    """An immutable set: membership in constant time, and its items in the order they were
    first given (so that a loop over a set goes the same way in every run)."""

    __slots__ = ("_order",)
    _order: tuple[Any, ...]

    def __new__(cls, items: Iterable[Any] = ()) -> Set:
        order = tuple(dict.fromkeys(items))
        made = frozenset.__new__(cls, order)
        made._order = order
        return made

    def __iter__(self) -> Iterator[Any]:
        return iter(self._order)

    def __reduce__(self) -> tuple[Any, tuple[tuple[Any, ...]]]:
        return (Set, (self._order,))

    @typeguard_ignore
    def __add__(self, other: Any) -> Set:
        """The union, this set's items first."""
        if not isinstance(other, frozenset):
            return NotImplemented
        return Set(self._order + tuple(other))

    @typeguard_ignore
    def __sub__(self, other: Any) -> Set:
        """The items that are not in `other`, in this set's order."""
        if not isinstance(other, frozenset):
            return NotImplemented
        return Set(item for item in self._order if item not in other)

    def __repr__(self) -> str:
        return to_text(self)


EMPTY = symbol("empty")
CHANCE = symbol("chance")


class TextBudget:
    """How many more characters a text being made may have: each piece is counted as it is
    made, and going past the limit is a RuleError, before the pieces are joined."""

    __slots__ = ("left", "limit", "what")

    def __init__(self, limit: int, what: str) -> None:
        self.left = self.limit = limit
        self.what = what

    def spend(self, characters: int) -> None:
        """Count `characters` more; a RuleError past the limit."""
        self.left -= characters
        if self.left < 0:
            raise RuleError(f"{self.what} would make more than the {self.limit:,} characters one value may have")


def cut_short(text: str, most: int) -> str:
    """``text`` as a message quotes it: whole up to ``most`` characters, else cut to that many,
    its last three ``...``."""
    return text if len(text) <= most else text[:most - 3] + "..."


def to_text(value: Any, budget: TextBudget | None = None, kind: Kind | None = None) -> str:
    """A value as the game prints it: symbols by name, `true`/`false`, fractions as 1/2; with a
    budget, a RuleError rather than a text longer than it allows.  Given the ``kind`` the file
    gives the value (a state's field, a move), a list in brackets as the file writes it: at run
    time a list is a tuple, printed in parentheses."""
    return _text(value, budget, kind or ANY)


def _spend(budget: TextBudget | None, text: str) -> str:
    if budget is not None:
        budget.spend(len(text))
    return text


def _text(value: Any, budget: TextBudget | None, kind: Kind) -> str:
    if value is True:
        return _spend(budget, "true")
    if value is False:
        return _spend(budget, "false")
    if isinstance(value, str):
        return _spend(budget, str.__str__(value))
    if isinstance(value, Grid):
        return "\n".join(value.row_texts(None, budget))
    if isinstance(value, tuple):
        if budget is not None:  # the brackets and commas
            budget.spend(3 if len(value) == 1 else 2 * max(len(value), 1))
        inner = ", ".join(_text(v, budget, _item_kind(kind, index, len(value))) for index, v in enumerate(value))
        if kind.name == "list":
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, Set):
        if not value:
            return _spend(budget, "set([])")  # as the language writes it: `set()` is no call of it
        if budget is not None:  # the braces and commas
            budget.spend(2 * len(value))
        element = _item_kind(kind, 0, 1)
        return "{" + ", ".join(_text(v, budget, element) for v in value) + "}"
    if isinstance(value, Map):
        if budget is not None:  # the braces, colons and commas
            budget.spend(4 * len(value) if value else 2)
        keys, items = kind.args if kind.name == "map" else (ANY, ANY)
        return "{" + ", ".join(f"{_text(k, budget, keys)}: {_text(v, budget, items)}" for k, v in value.items()) + "}"
    if isinstance(value, int):
        return _spend(budget, _digits(value))
    if isinstance(value, Fraction):  # a whole number computed as a fraction (1/2 * 2) prints as one
        if value.denominator == 1:
            return _spend(budget, _digits(value.numerator))
        return _spend(budget, f"{_digits(value.numerator)}/{_digits(value.denominator)}")
    return _spend(budget, str(value))


def source_text(value: Any, kind: Kind | None = None) -> str:
    """A value written as the language writes it, so that a parameter given this text (`-p`,
    or a tablebase's record of the parameters it was solved with) has the same value and kind
    again: strings quoted (inside lists and maps too), symbols by name, a grid as the calls
    that make it, and, where the ``kind`` the checks gave it says so, a list in brackets (at
    run time a list is a tuple; elsewhere in parentheses)."""
    kind = kind or ANY
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, Symbol):
        return str.__str__(value)
    if isinstance(value, str):
        return _quoted(value)
    if isinstance(value, Grid):
        return _grid_source(value, _item_kind(kind, 0, 1))
    if isinstance(value, tuple):
        inner = ", ".join(source_text(item, _item_kind(kind, index, len(value))) for index, item in enumerate(value))
        if kind.name == "list":
            return f"[{inner}]"
        return f"({inner},)" if len(value) == 1 else f"({inner})"
    if isinstance(value, Set):
        element = _item_kind(kind, 0, 1)
        return "{" + ", ".join(source_text(item, element) for item in value) + "}" if value else "set([])"
    if isinstance(value, Map):
        keys, items = kind.args if kind.name == "map" else (ANY, ANY)
        return "{" + ", ".join(f"{source_text(k, keys)}: {source_text(v, items)}" for k, v in value.items()) + "}"
    if type(value) is int and abs(value) >= _LONGEST_LITERAL:
        return _long_integer_source(value)
    if isinstance(value, Fraction) and value.denominator != 1 and max(abs(value.numerator), value.denominator) >= _LONGEST_LITERAL:
        return f"{source_text(value.numerator)} / {source_text(value.denominator)}"
    return to_text(value)  # a number (of a fraction, each part within the literals' limit)


# Integers written out whole up to this; beyond it as a sum of parts, since a literal of the
# language has at most MAX_DIGITS digits.
_PART_DIGITS = 1_000
_LONGEST_LITERAL = 10 ** _PART_DIGITS


def _long_integer_source(value: int) -> str:
    """An integer too long for one literal, as `(PART * 10 ** 1000 + PART) * ...`."""
    sign, digits = ("-", _digits(-value)) if value < 0 else ("", _digits(value))
    first = len(digits) % _PART_DIGITS or _PART_DIGITS
    text = digits[:first].lstrip("0") or "0"
    for start in range(first, len(digits), _PART_DIGITS):
        text = f"({text}) * 10 ** {_PART_DIGITS} + {digits[start:start + _PART_DIGITS].lstrip('0') or '0'}"
    return f"{sign}({text})"


def _item_kind(kind: Kind, index: int, size: int) -> Kind:
    """The kind of item ``index`` of a value of ``kind`` holding ``size`` items."""
    if kind.name in ("list", "set", "grid"):
        return kind.args[0]
    if kind.name == "tuple" and len(kind.args) == size:
        return kind.args[index]
    return ANY


# The escapes of the language's strings, for the characters that have a short one.
_ESCAPES = {'"': '\\"', "\\": "\\\\", "\n": "\\n", "\t": "\\t", "\r": "\\r"}


def _quoted(text: str) -> str:
    """A string in quotes, as the language reads it back: its control characters (and others
    that do not print) as escapes."""
    def character(c: str) -> str:
        if c in _ESCAPES:
            return _ESCAPES[c]
        if c.isprintable():
            return c
        code = ord(c)
        return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}" if code < 0x10000 else f"\\U{code:08x}"
    return '"' + "".join(map(character, text)) + '"'


def _grid_source(board: Grid, cell_kind: Kind) -> str:
    """A grid as `grid(rows, cols, fill)` with the cells that differ from the commonest
    one put in (cells told apart by their type too: a symbol `a` is not the string "a")."""
    cells = [(type(cell), cell) for cell in board]
    fill = max(dict.fromkeys(cells), key=cells.count)
    text = f"grid({board.rows}, {board.cols}, {source_text(fill[1], cell_kind)})"
    for position, cell in enumerate(cells):
        if cell != fill:
            text = f"put({text}, ({position // board.cols}, {position % board.cols}), {source_text(cell[1], cell_kind)})"
    return text


def _digits(value: int) -> str:
    """An integer in decimal, however long: Python's `str` refuses more than 4,300 digits (a
    guard against slow conversions), which powers of the language can pass; `decimal` converts
    them without that limit."""
    if value.bit_length() < 14_000:  # fewer than 4,215 digits: within str's limit
        return str(value)
    return str(decimal.Decimal(value))


def number(value: Fraction | int) -> Fraction | int:
    """A fraction with denominator 1 becomes an int, so results print and hash simply."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return value.numerator
    return value


def state_class(name: str, fields: Iterable[str]) -> type:
    """A tuple subclass for the states of one game, with one read-only property per field.

    Games with the same field names share the class, so that a state pickled in one process
    (a strong solver's worker) comes back in another as a state of the same class."""
    return _state_class(name, tuple(fields))


def make_state(name: str, fields: tuple[str, ...], values: tuple[Any, ...]) -> tuple[Any, ...]:
    """A state of the class ``state_class(name, fields)`` holding ``values`` (for unpickling)."""
    return tuple.__new__(_state_class(name, fields), values)


@lru_cache(maxsize=None)
def _state_class(name: str, names: tuple[str, ...]) -> type:

    def __repr__(self: tuple[Any, ...]) -> str:
        parts = ", ".join(f"{n}={to_text(v)!s}" if not isinstance(v, Grid) else f"{n}=<{v.rows}x{v.cols} grid>" for n, v in zip(names, self))
        return f"{name}({parts})"

    def __reduce__(self: tuple[Any, ...]) -> tuple[Any, tuple[str, tuple[str, ...], tuple[Any, ...]]]:
        return (make_state, (name, names, tuple(self)))

    namespace: dict[str, Any] = {"__slots__": (), "__repr__": __repr__, "__reduce__": __reduce__, "fields": names}
    for position, field_name in enumerate(names):
        namespace[field_name] = property(itemgetter(position), doc=f"the state field `{field_name}`")
    return type(name, (tuple,), namespace)
