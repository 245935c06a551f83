"""Parameters set from outside the file: Python values (`rows=5`) and the rules for overriding
a parameter's default."""

from __future__ import annotations

import math
from fractions import Fraction
from typing import Iterator, TypeVar

from gdl import ast
from gdl.errors import GdlParamError, Source
from gdl.limits import MAX_DIGITS, MAX_ITEMS, MAX_NESTING
from gdl.kinds import Kind, element, fits


_SEQUENCES = {"list", "tuple"}


def override_fits(given: Kind, default: Kind) -> bool:
    """Whether an override may replace a default: the same sort of value (lists and tuples alike)."""
    if given.name in _SEQUENCES and default.name in _SEQUENCES:
        return True
    return fits(given, default) or (given.name == default.name)


def bad_item(given: Kind, default: Kind) -> Kind | None:
    """For a list or tuple override of a list or tuple parameter: the kind of an item that does
    not fit the default's items, if any (lists and tuples alike at every depth: Python gives
    `[[1, 2], [3]]` back as tuples of tuples)."""
    if given.name not in _SEQUENCES or default.name not in _SEQUENCES:
        return None
    wanted = element(default)
    items = given.args if given.name == "tuple" else given.args[:1]
    return next((item for item in items if not _fits_loosely(item, wanted)), None)


def _fits_loosely(item: Kind, wanted: Kind) -> bool:
    """Whether a value of kind ``item`` may stand where the default has one of kind ``wanted``:
    where the default has a list, a tuple or a list of fitting items; where it has a tuple (a
    cell), a tuple of its length whose items fit in turn; otherwise as ``fits`` says."""
    if wanted.name == "tuple" and wanted.args and item.name == "tuple":
        # A tuple of unknown length: a list's tuples of different lengths, joined, or ().
        return len(item.args) == len(wanted.args) and all(map(_fits_loosely, item.args, wanted.args))
    if fits(item, wanted):
        return True
    if item.name == wanted.name == "map" and item.args and wanted.args:  # its keys and values in turn
        return all(map(_fits_loosely, item.args, wanted.args))
    return item.name in _SEQUENCES and wanted.name == "list" and bad_item(item, wanted) is None


def reshaped(given: Kind, default: Kind) -> Kind:
    """The kind of a parameter given a value of kind `given` in place of a default of kind
    `default` (which it fits, `override_fits`): a list where the default has one, at every
    depth (Python gives lists back as tuples, in maps too), the items' kinds from the value
    given where it says more; otherwise the value's own kind."""
    if given.name in _SEQUENCES and default.name == "list":
        item, wanted = element(given), element(default)
        return Kind("list", (wanted if item.name == "any" else reshaped(item, wanted),))
    if given.name == default.name == "map" and given.args and default.args:
        return Kind("map", tuple(map(reshaped, given.args, default.args)))
    if given.name == "tuple" and default.name == "tuple" and given.args:
        if len(given.args) == len(default.args):  # item by item, as `_fits_loosely` checked them
            return Kind("tuple", tuple(map(reshaped, given.args, default.args)))
        wanted = element(default)
        return Kind("tuple", tuple(reshaped(item, wanted) for item in given.args))
    return given


def declaration_for(program: ast.Program, name: str) -> ast.Node | None:
    """Where a mistake in the value given for parameter `name` is shown: its `param` line or,
    for a name the game does not declare, the game's first `param` line; nowhere in a game
    without parameters (its title line would look like the mistake)."""
    params = [d for d in program.declarations if isinstance(d, ast.Param)]
    named = [param for param in params if param.name == name]
    return next(iter(named or params), None)


def located(error: GdlParamError, source: Source, program: ast.Program, name: str) -> GdlParamError:
    """`error`, about the value given for parameter `name`, located in the file (the value itself
    comes from the command line or from Python, which have no lines to show)."""
    node = declaration_for(program, name)
    if error.line is not None:
        return error
    if node is None:  # no line to show: the file's name still
        return error if error.file is not None else GdlParamError(error.message, file=source.name)
    return source.error(GdlParamError, error.message, node.line, node.column)  # type: ignore[return-value]


def override_expr(value: object, symbols: frozenset[str]) -> ast.Expr:
    """A parameter override as an expression: a node (parsed from the command line by
    `parse_value`) as it is, any other value through `value_to_expr`."""
    if isinstance(value, ast.Node):
        if ast.too_deep(value, MAX_NESTING) is not None:
            raise GdlParamError(f"a parameter value may nest at most {MAX_NESTING} levels deep")
        return value  # type: ignore[return-value]
    return value_to_expr(value, symbols)


def value_to_expr(value: object, symbols: frozenset[str] = frozenset()) -> ast.Expr:
    """A Python value given as a parameter (`rows=5`, `piles=(3, 4)`), as a literal expression.

    The value is copied into plain built-in values first: a subclass of int, str, tuple... keeps
    its number, text or items and loses its methods, so nothing of it (`__repr__`, `__eq__`,
    `__iter__`) runs later. Sizes are checked as the language checks them in a file.
    """
    return _literal(value, symbols, 0)


_TOO_MANY_DIGITS = 10 ** MAX_DIGITS
_AT = {"line": 1, "column": 1}


def _literal(value: object, symbols: frozenset[str], depth: int) -> ast.Expr:
    if depth > MAX_NESTING:
        raise GdlParamError(f"a parameter value may nest at most {MAX_NESTING} levels deep")
    if isinstance(value, bool):
        return ast.Boolean(value is True, **_AT)
    if isinstance(value, int):
        return ast.Number(_plain_int(value), **_AT)
    if isinstance(value, Fraction):
        return ast.Number(_plain_fraction(value), **_AT)
    if isinstance(value, float):
        number = float.__float__(value)
        if not math.isfinite(number):
            raise GdlParamError(f"a parameter must be a finite number, not {number}")
        return ast.Number(Fraction(number).limit_denominator(10**9), **_AT)
    if isinstance(value, str):
        text = _sized(str.__str__(value), str.__len__(value))
        return ast.Name(text, **_AT) if text in symbols else ast.String(text, **_AT)
    if isinstance(value, tuple):
        return ast.TupleExpr(_items(tuple.__iter__(value), tuple.__len__(value), symbols, depth), **_AT)
    if isinstance(value, list):
        return ast.ListExpr(_items(list.__iter__(value), list.__len__(value), symbols, depth), **_AT)
    if isinstance(value, dict):
        _sized(value, dict.__len__(value))
        pairs = tuple((_literal(k, symbols, depth + 1), _literal(v, symbols, depth + 1)) for k, v in dict.items(value))
        return ast.MapExpr(pairs, **_AT)
    # Nothing of an unknown value runs, not even its repr: only its type is named.
    shown = "None" if value is None else f"of type {type(value).__name__}"
    raise GdlParamError(f"a parameter cannot be set to the Python value {shown}")


def _plain_int(value: int) -> int:
    number = int.__int__(value)
    if not -_TOO_MANY_DIGITS < number < _TOO_MANY_DIGITS:
        raise GdlParamError(f"a number given as a parameter may have at most {MAX_DIGITS} digits")
    return number


def _plain_fraction(value: Fraction) -> Fraction:
    parts = (Fraction.numerator.fget(value), Fraction.denominator.fget(value))  # type: ignore[attr-defined]
    if not all(isinstance(part, int) for part in parts) or parts[1] == 0:
        raise GdlParamError("a fraction given as a parameter must have integer parts and a denominator other than 0")
    return Fraction(_plain_int(parts[0]), _plain_int(parts[1]))


def _items(items: Iterator[object], size: int, symbols: frozenset[str], depth: int) -> tuple[ast.Expr, ...]:
    _sized(items, size)
    return tuple(_literal(item, symbols, depth + 1) for item in items)


_Sized = TypeVar("_Sized")


def _sized(value: _Sized, size: int) -> _Sized:
    if size > MAX_ITEMS:
        raise GdlParamError(f"a parameter value may have at most {MAX_ITEMS:,} items")
    return value
