"""The nodes the compiler's passes put into a game's model, and the rewriting they share.

A pass takes the resolved model of a rule (`gdl.model`) and gives it back with some of its
nodes replaced by these: a value computed once when the game loads (`Loaded`), a cell given by
its flat position on the board (`Position`), a pure call computed once when a rule starts
rather than at every round of a loop (`Hoisted`), or a value computed by loops written before
the expression that uses it (`Computed`).
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import TYPE_CHECKING, Any, Callable, Iterator, TypeVar

from gdl import _hot, model
from gdl.kinds import INT

if TYPE_CHECKING:  # mypy sees typeguard's own decorator and checks the function
    from typeguard import typeguard_ignore
else:  # at run time typeguard is not needed: this stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore


@dataclass(frozen=True, eq=False)
class Loaded(model.Expr):
    """A value computed once, when the game loads, kept under `name`; `value` is the expression
    it was computed from."""

    name: str
    value: model.Expr

    def children(self) -> Iterator[model.Node]:
        """None: what it was computed from is no longer part of the rule."""
        return iter(())


@dataclass(frozen=True, eq=False)
class Position(model.Expr):
    """The flat position of a cell on a board of known size (row * cols + col), as an index of
    that board: `board[Position(...)]` reads one item of the board's tuple."""

    position: model.Expr

    @classmethod
    def of(cls, position: model.Expr) -> Position:
        """The position computed by `position` (an integer expression)."""
        return cls(position, kind=INT, line=position.line, column=position.column)


@dataclass(frozen=True, eq=False)
class Hoisted(model.Expr):
    """A pure call whose arguments do not change while a rule runs, computed once when the
    rule starts."""

    value: model.Expr


@dataclass(frozen=True, eq=False)
class Computed(model.Expr):
    """A value computed by statements written just before the expression that reads it, kept
    in the local `name`; `value` is the expression it was computed from."""

    name: str
    value: model.Expr

    def children(self) -> Iterator[model.Node]:
        """None: the statements before compute it."""
        return iter(())


def loaded(name: str, value: model.Expr) -> Loaded:
    """`value`, computed at load under `name`."""
    return Loaded(name, value, kind=value.kind, line=value.line, column=value.column)


_Node = TypeVar("_Node", bound=model.Node)
Rewrite = Callable[[model.Node], "model.Node | None"]


@typeguard_ignore  # called for every node of every rule, with a function: checked by mypy
def rewrite(node: _Node, change: Rewrite) -> _Node:
    """`node` with each node below it, top down, replaced by what `change` gives for it (None:
    keep it, and rewrite its children). Unchanged parts are shared, not copied."""
    replaced = change(node)
    if replaced is not None:
        return replaced  # type: ignore[return-value]
    if isinstance(node, Loaded):
        return node
    updates: dict[str, Any] = {}
    for item in dataclasses.fields(node):
        value = getattr(node, item.name)
        new = _rewrite_value(value, change)
        if new is not value:
            updates[item.name] = new
    return dataclasses.replace(node, **updates) if updates else node


@typeguard_ignore
def _rewrite_value(value: Any, change: Rewrite) -> Any:
    if isinstance(value, model.Node):
        return rewrite(value, change)
    if isinstance(value, tuple):
        items = tuple(_rewrite_value(item, change) for item in value)
        return value if all(a is b for a, b in zip(items, value)) else items
    return value
