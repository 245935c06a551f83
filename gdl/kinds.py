"""Kinds of values, as far as they can be known before a game runs."""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Kind:
    """A kind of value: `name` is one of the names below; `args` are element kinds.

    `list`, `grid`, `set`: one arg, the element; `map`: key and value; `tuple`: the items, or no
    args when the length is unknown. `any` is unknown and matches everything.
    """

    name: str
    args: tuple[Kind, ...] = ()

    def __str__(self) -> str:
        return describe(self)


ANY = Kind("any")
INT = Kind("int")
NUMBER = Kind("number")
BOOL = Kind("bool")
STRING = Kind("string")
SYMBOL = Kind("symbol")
PLAYER = Kind("player")
TUPLE = Kind("tuple")
LIST = Kind("list", (ANY,))
GRID = Kind("grid", (ANY,))
MAP = Kind("map", (ANY, ANY))
SET = Kind("set", (ANY,))
CELL = Kind("tuple", (INT, INT))
"""A cell of a board: (row, col)."""

_ARTICLES = {
    "any": "a value", "int": "an integer", "number": "a number", "bool": "a boolean",
    "string": "a string", "symbol": "a symbol", "player": "a player", "tuple": "a tuple",
    "list": "a list", "grid": "a grid", "map": "a map", "set": "a set",
}


def list_of(element: Kind) -> Kind:
    """The kind of a list of `element`."""
    return Kind("list", (element,))


def grid_of(element: Kind) -> Kind:
    """The kind of a grid whose cells hold `element`."""
    return Kind("grid", (element,))


def set_of(element: Kind) -> Kind:
    """The kind of a set of `element`."""
    return Kind("set", (element,))


def map_of(key: Kind, value: Kind) -> Kind:
    """The kind of a map from `key` to `value`."""
    return Kind("map", (key, value))


def tuple_of(items: tuple[Kind, ...]) -> Kind:
    """The kind of a tuple with these items."""
    return Kind("tuple", items) if items else Kind("tuple", ())


def describe(kind: Kind) -> str:
    """The kind in words, with an article: `an integer`, `a list`."""
    return _ARTICLES.get(kind.name, kind.name)


def is_known(kind: Kind) -> bool:
    """Whether anything at all is known of the kind."""
    return kind.name != "any"


def fits(actual: Kind, expected: Kind) -> bool:
    """Whether a value of kind `actual` may be used where `expected` is required."""
    if actual.name == "any" or expected.name == "any":
        return True
    if expected.name == "number" and actual.name == "int":
        return True
    if expected.name == "symbol" and actual.name == "player":
        return True
    if actual.name != expected.name:
        return False
    if actual.name == "tuple" and actual.args and expected.args:
        return len(actual.args) == len(expected.args) and all(
            fits(a, e) for a, e in zip(actual.args, expected.args)
        )
    if actual.name in ("list", "grid", "map", "set"):
        return all(fits(a, e) for a, e in zip(actual.args, expected.args))
    return True


def join(a: Kind, b: Kind) -> Kind:
    """The kind of a value that is either `a` or `b` (the branches of an `if`, a list's items)."""
    if a == b:
        return a
    if a.name == "any" or b.name == "any":
        return ANY
    if {a.name, b.name} == {"int", "number"}:
        return NUMBER
    if {a.name, b.name} <= {"symbol", "player"}:
        return SYMBOL
    if a.name != b.name:
        return ANY
    if a.name == "tuple":
        if a.args and b.args and len(a.args) == len(b.args):
            return tuple_of(tuple(join(x, y) for x, y in zip(a.args, b.args)))
        return TUPLE
    return Kind(a.name, tuple(join(x, y) for x, y in zip(a.args, b.args)))


def element(kind: Kind) -> Kind:
    """The kind of the items met when iterating over a value of this kind."""
    if kind.name in ("list", "set"):
        return kind.args[0]
    if kind.name == "map":
        return kind.args[0]
    if kind.name == "tuple" and kind.args:
        items = kind.args[0]
        for item in kind.args[1:]:
            items = join(items, item)
        return items
    if kind.name == "string":
        return STRING
    return ANY


def comparable(a: Kind, b: Kind) -> bool:
    """Whether `a == b` can ever be true for values of these kinds."""
    if not is_known(a) or not is_known(b):
        return True
    numeric = {"int", "number"}
    symbolic = {"symbol", "player"}
    if a.name in numeric and b.name in numeric:
        return True
    if a.name in symbolic and b.name in symbolic:
        return True
    if {a.name, b.name} <= {"list", "tuple"}:
        return True  # both are sequences at run time: [1, 2] == (1, 2)
    if a.name != b.name:
        return False
    return True
