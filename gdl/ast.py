"""The abstract syntax tree of a game file: frozen dataclasses, each with its source position."""

from __future__ import annotations

from dataclasses import dataclass, field
from fractions import Fraction
from typing import Iterator, Union


@dataclass(frozen=True)
class Node:
    """Base of every node: where it starts in the source (1-based line and column)."""

    line: int = field(kw_only=True, compare=False)
    column: int = field(kw_only=True, compare=False)


# ---- expressions -------------------------------------------------------------


@dataclass(frozen=True)
class Number(Node):
    """An integer literal, or a decimal literal kept as an exact fraction."""

    value: int | Fraction


@dataclass(frozen=True)
class String(Node):
    """A string literal."""

    value: str


@dataclass(frozen=True)
class Boolean(Node):
    """`true` or `false`."""

    value: bool


@dataclass(frozen=True)
class Name(Node):
    """A reference to a name: a field, parameter, definition, symbol, player or local."""

    id: str


@dataclass(frozen=True)
class TupleExpr(Node):
    """A tuple `(a, b)`: fixed length, items of any kinds."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class ListExpr(Node):
    """A list `[a, b]`: items of one kind."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class SetExpr(Node):
    """A set `{a, b}`: items of one kind, membership in constant time."""

    items: tuple[Expr, ...]


@dataclass(frozen=True)
class MapExpr(Node):
    """A map `{key: value, ...}`."""

    items: tuple[tuple[Expr, Expr], ...]


@dataclass(frozen=True)
class ForClause(Node):
    """`for TARGET in ITERABLE` inside a comprehension."""

    target: Target
    iterable: Expr


@dataclass(frozen=True)
class IfClause(Node):
    """`if CONDITION` inside a comprehension."""

    condition: Expr


@dataclass(frozen=True)
class Comprehension(Node):
    """`[e for ...]` (kind "list"), `{e for ...}` ("set"), `{k: v for ...}` ("map") or
    `f(e for ...)` ("generator")."""

    kind: str
    element: Expr
    key: Expr | None
    clauses: tuple[ForClause | IfClause, ...]


@dataclass(frozen=True)
class Unary(Node):
    """`-x` (op "-") or `not x` (op "not")."""

    op: str
    operand: Expr


@dataclass(frozen=True)
class Binary(Node):
    """Arithmetic `+ - * / // % **` and the short-circuit `and`, `or`."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True)
class Compare(Node):
    """A comparison chain `a < b <= c`; ops are `== != < <= > >= in not in`."""

    first: Expr
    ops: tuple[str, ...]
    rest: tuple[Expr, ...]


@dataclass(frozen=True)
class Conditional(Node):
    """`THEN if CONDITION else OTHERWISE`."""

    condition: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True)
class Index(Node):
    """`target[index]`; `board[r, c]` has a tuple index."""

    target: Expr
    index: Expr


@dataclass(frozen=True)
class Slice(Node):
    """`target[start:stop]`; either bound may be left out."""

    target: Expr
    start: Expr | None
    stop: Expr | None


@dataclass(frozen=True)
class Call(Node):
    """A call of a built-in or of a function defined with `def`."""

    function: str
    args: tuple[Expr, ...]


Expr = Union[
    Number, String, Boolean, Name, TupleExpr, ListExpr, SetExpr, MapExpr, Comprehension,
    Unary, Binary, Compare, Conditional, Index, Slice, Call,
]


# ---- targets and statements ---------------------------------------------------


@dataclass(frozen=True)
class NameTarget(Node):
    """A name bound by `let`, `for`, a comprehension or a parameter."""

    id: str


@dataclass(frozen=True)
class TupleTarget(Node):
    """A tuple pattern `(a, b)` that unpacks a tuple of the same length."""

    items: tuple[Target, ...]


Target = Union[NameTarget, TupleTarget]


@dataclass(frozen=True)
class Place(Node):
    """What an assignment changes: a field or local, or a cell of one (`board[c]`)."""

    name: str
    indexes: tuple[Expr, ...]


@dataclass(frozen=True)
class Let(Node):
    """`let TARGET = VALUE`: a new local name."""

    target: Target
    value: Expr


@dataclass(frozen=True)
class Assign(Node):
    """`PLACE = VALUE`, or `PLACE += VALUE` with op "+" (op is None for plain `=`)."""

    place: Place
    op: str | None
    value: Expr


@dataclass(frozen=True)
class Return(Node):
    """`return VALUE` in a block-bodied function."""

    value: Expr


@dataclass(frozen=True)
class If(Node):
    """`if`/`elif` branches, each a condition and a block, and an optional `else` block."""

    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None


@dataclass(frozen=True)
class For(Node):
    """`for TARGET in ITERABLE:` over a finite collection."""

    target: Target
    iterable: Expr
    body: Block


@dataclass(frozen=True)
class While(Node):
    """`while CONDITION:`, bounded at run time by a fixed number of iterations."""

    condition: Expr
    body: Block


Statement = Union[Let, Assign, Return, If, For, While]


@dataclass(frozen=True)
class Block(Node):
    """An indented list of statements."""

    statements: tuple[Statement, ...]


# ---- declarations ---------------------------------------------------------------


@dataclass(frozen=True)
class GameName(Node):
    """`game "Title"`."""

    title: str


@dataclass(frozen=True)
class Players(Node):
    """`players X, O`: the players in turn order."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class Symbols(Node):
    """`symbols red, black`: symbolic constants."""

    names: tuple[str, ...]


@dataclass(frozen=True)
class Param(Node):
    """`param NAME = DEFAULT`: a constant the command line or Python can override."""

    name: str
    default: Expr


@dataclass(frozen=True)
class Field(Node):
    """One state field and its initial value."""

    name: str
    initial: Expr


@dataclass(frozen=True)
class StateDecl(Node):
    """The `state:` block."""

    fields: tuple[Field, ...]


@dataclass(frozen=True)
class Definition(Node):
    """`NAME = EXPR`: a constant, or a value of the current state."""

    name: str
    value: Expr


@dataclass(frozen=True)
class Function(Node):
    """`def NAME(PARAMS) = EXPR` or a block-bodied `def NAME(PARAMS):`."""

    name: str
    params: tuple[str, ...]
    body: Expr | Block


@dataclass(frozen=True)
class Result(Node):
    """`result(MOVE):` the block that makes the next state from the current one."""

    target: Target
    body: Block


LeafValue = Union[int, Fraction, tuple[Union[int, Fraction], ...]]
"""A tree leaf's value: one number, or each player's payoff in player order."""


@dataclass(frozen=True)
class TreeChild(Node):
    """A child in a tree row: an inner node's name, or a leaf value (with an optional name)."""

    name: str | None
    value: LeafValue | None


@dataclass(frozen=True)
class TreeRow(Node):
    """`PARENT -> CHILD, CHILD, ...`."""

    parent: str
    children: tuple[TreeChild, ...]


@dataclass(frozen=True)
class Tree(Node):
    """The `tree:` table of an explicit game tree."""

    rows: tuple[TreeRow, ...]


Declaration = Union[
    GameName, Players, Symbols, Param, StateDecl, Definition, Function, Result, Tree,
]


@dataclass(frozen=True)
class Program(Node):
    """A whole game file."""

    declarations: tuple[Declaration, ...]


# ---- walking the tree -------------------------------------------------------------


def children(node: Node) -> list[Node]:
    """The nodes directly below `node`, in the order of its fields."""
    found: list[Node] = []
    pending: list[object] = [getattr(node, name) for name in reversed(node.__dataclass_fields__) if name not in ("line", "column")]
    while pending:
        value = pending.pop()
        if isinstance(value, Node):
            found.append(value)
        elif isinstance(value, tuple):
            pending.extend(reversed(value))
    return found


def walk(node: Node) -> list[Node]:
    """`node` and every node below it, parents before their children (without recursion, so
    that any depth of nesting can be walked)."""
    nodes: list[Node] = []
    pending = [node]
    while pending:
        current = pending.pop()
        nodes.append(current)
        pending.extend(reversed(children(current)))
    return nodes


def _with_depths(node: Node) -> Iterator[tuple[Node, int]]:
    """Every node below `node` and how deep it is, parents first (without recursion)."""
    pending = [(node, 0)]
    while pending:
        current, depth = pending.pop()
        yield current, depth
        pending.extend((child, depth + 1) for child in reversed(children(current)))


def too_deep(node: Node, limit: int) -> Node | None:
    """The first node nested more than `limit` levels below `node`, or None."""
    return next((found for found, depth in _with_depths(node) if depth > limit), None)


def deepest(node: Node) -> Node:
    """The node nested deepest below `node` (the first of them)."""
    return max(_with_depths(node), key=lambda pair: pair[1])[0]
