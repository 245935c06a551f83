"""Parameters set from outside the file: Python values (`rows=5`) and the rules for overriding
a parameter's default."""

from __future__ import annotations

from fractions import Fraction

from gdl import ast
from gdl.errors import GdlParamError
from gdl.kinds import Kind, element, fits


def override_fits(given: Kind, default: Kind) -> bool:
    """Whether an override may replace a default: the same sort of value (lists and tuples alike)."""
    sequences = {"list", "tuple"}
    if given.name in sequences and default.name in sequences:
        return True
    return fits(given, default) or (given.name == default.name)


def bad_item(given: Kind, default: Kind) -> Kind | None:
    """For a list or tuple override of a list or tuple parameter: the kind of an item that does
    not fit the default's items, if any."""
    sequences = {"list", "tuple"}
    if given.name not in sequences or default.name not in sequences:
        return None
    wanted = element(default)
    items = given.args if given.name == "tuple" else given.args[:1]
    return next((item for item in items if not fits(item, wanted)), None)


def value_to_expr(value: object, symbols: frozenset[str] = frozenset()) -> ast.Expr:
    """A Python value given as a parameter (`rows=5`, `piles=(3, 4)`), as a literal expression."""
    at = {"line": 1, "column": 1}
    if isinstance(value, bool):
        return ast.Boolean(value, **at)
    if isinstance(value, (int, Fraction)):
        return ast.Number(value, **at)
    if isinstance(value, float):
        return ast.Number(Fraction(value).limit_denominator(10**9), **at)
    if isinstance(value, str):
        return ast.Name(value, **at) if value in symbols else ast.String(value, **at)
    if isinstance(value, tuple):
        return ast.TupleExpr(tuple(value_to_expr(v, symbols) for v in value), **at)
    if isinstance(value, list):
        return ast.ListExpr(tuple(value_to_expr(v, symbols) for v in value), **at)
    if isinstance(value, dict):
        return ast.MapExpr(tuple((value_to_expr(k, symbols), value_to_expr(v, symbols)) for k, v in value.items()), **at)
    raise GdlParamError(f"a parameter cannot be set to the Python value {value!r}")
