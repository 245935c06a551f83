"""The checked, resolved model of a game: what the checker hands to the interpreter.

Each expression node carries its kind and the declaration or built-in each name refers to
(a field with its position, a parameter, a definition, a function, a local name, a symbol or
player, a built-in), and can tell whether it reads the state. The declarations are built first
and filled in as the checker resolves their bodies, so that references can be recursive (a
function that calls itself refers to its own declaration); nothing changes them afterwards.
"""

from __future__ import annotations

from dataclasses import dataclass, field, fields
from fractions import Fraction
from functools import cached_property
from typing import TYPE_CHECKING, Iterator, Union

from gdl import _hot, ast
from gdl.builtins import Builtin
from gdl.errors import Source
from gdl.kinds import Kind

if TYPE_CHECKING:  # mypy sees typeguard's own decorator and checks the function
    from typeguard import typeguard_ignore
else:  # at run time typeguard is not needed: this stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore

# ---- declarations -------------------------------------------------------------------------------


@dataclass(eq=False)
class Local:
    """A local name: a function's parameter, or a name bound by `let`, `for` or a comprehension."""

    name: str
    kind: Kind
    line: int
    column: int


@dataclass(eq=False)
class Param:
    """A parameter, with the value in use (the default, or the value given for it)."""

    name: str
    node: ast.Param
    kind: Kind = field(init=False)
    value: Expr = field(init=False)
    source: ast.Expr = field(init=False)
    """The expression the value comes from: the default, or the one given for the parameter."""


@dataclass(eq=False)
class Field:
    """A state field: its position in the state tuple, its kind and initial value."""

    name: str
    position: int
    node: ast.Field
    kind: Kind = field(init=False)
    initial: Expr = field(init=False)


@dataclass(eq=False)
class Definition:
    """`NAME = EXPR`: a constant when it does not read the state, else a rule of the state."""

    name: str
    node: ast.Definition
    kind: Kind = field(init=False)
    value: Expr = field(init=False)
    reads_state: bool = False


@dataclass(eq=False)
class Function:
    """`def NAME(PARAMS) = EXPR` or a block-bodied `def`."""

    name: str
    node: ast.Function
    params: tuple[Local, ...] = ()
    kind: Kind = field(init=False)
    body: Expr | Block = field(init=False)
    reads_state: bool = False


# ---- nodes ----------------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Node:
    """Base of every node of a rule: where it starts in the source."""

    line: int = field(kw_only=True)
    column: int = field(kw_only=True)

    @typeguard_ignore  # called for every node, each time a pass looks at a rule
    def children(self) -> Iterator[Node]:
        """The nodes directly below this one, in the order of its fields."""
        for item in fields(self):
            value = getattr(self, item.name)
            for part in value if isinstance(value, tuple) else (value,):
                if isinstance(part, Node):
                    yield part
                elif isinstance(part, tuple):  # a map's (key, value) pairs, an if's branches
                    yield from (p for p in part if isinstance(p, Node))

    @cached_property
    def reads_state(self) -> bool:
        """Whether the value of this node depends on the state."""
        return any(child.reads_state for child in self.children())

    @cached_property
    def locals_used(self) -> frozenset[Local]:
        """The local names this node reads that are bound outside it."""
        used: frozenset[Local] = frozenset().union(*(child.locals_used for child in self.children()))
        return used - self.locals_bound

    @property
    def locals_bound(self) -> frozenset[Local]:
        """The local names this node binds for its own children (a comprehension's targets)."""
        return frozenset()


@dataclass(frozen=True, eq=False)
class Expr(Node):
    """An expression and its kind."""

    kind: Kind = field(kw_only=True)


@dataclass(frozen=True, eq=False)
class Constant(Expr):
    """A number, string or boolean written in the file."""

    value: int | Fraction | str | bool


@dataclass(frozen=True, eq=False)
class SymbolRef(Expr):
    """A symbol or player (`empty`, `X`)."""

    name: str


@dataclass(frozen=True, eq=False)
class FieldRef(Expr):
    """A state field read."""

    field: Field

    @cached_property
    def reads_state(self) -> bool:
        """A field is the state."""
        return True


@dataclass(frozen=True, eq=False)
class ParamRef(Expr):
    """A parameter read."""

    param: Param


@dataclass(frozen=True, eq=False)
class DefinitionRef(Expr):
    """A definition read."""

    definition: Definition

    @cached_property
    def reads_state(self) -> bool:
        """Whether the definition reads the state."""
        return self.definition.reads_state


@dataclass(frozen=True, eq=False)
class LocalRef(Expr):
    """A local name read."""

    local: Local

    @cached_property
    def locals_used(self) -> frozenset[Local]:
        """This local."""
        return frozenset((self.local,))


@dataclass(frozen=True, eq=False)
class TupleExpr(Expr):
    """`(a, b)`."""

    items: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class ListExpr(Expr):
    """`[a, b]`."""

    items: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class SetExpr(Expr):
    """`{a, b}`."""

    items: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class MapExpr(Expr):
    """`{key: value, ...}`."""

    items: tuple[tuple[Expr, Expr], ...]


@dataclass(frozen=True, eq=False)
class NamePattern(Node):
    """A local name bound by a pattern."""

    local: Local


@dataclass(frozen=True, eq=False)
class TuplePattern(Node):
    """A tuple pattern `(a, b)`."""

    items: tuple[Pattern, ...]


Pattern = Union[NamePattern, TuplePattern]


def pattern_locals(pattern: Pattern) -> Iterator[Local]:
    """The locals a pattern binds, left to right."""
    if isinstance(pattern, NamePattern):
        yield pattern.local
    else:
        for item in pattern.items:
            yield from pattern_locals(item)


@dataclass(frozen=True, eq=False)
class ForClause(Node):
    """`for TARGET in ITERABLE` in a comprehension."""

    target: Pattern
    iterable: Expr


@dataclass(frozen=True, eq=False)
class IfClause(Node):
    """`if CONDITION` in a comprehension."""

    condition: Expr


@dataclass(frozen=True, eq=False)
class Comprehension(Expr):
    """`[e for ...]` (form "list"), `{e for ...}` ("set"), `{k: v for ...}` ("map") or
    `f(e for ...)` ("generator")."""

    form: str
    element: Expr
    key: Expr | None
    clauses: tuple[ForClause | IfClause, ...]

    @property
    def locals_bound(self) -> frozenset[Local]:
        """The names its `for` clauses bind."""
        return frozenset(local for c in self.clauses if isinstance(c, ForClause) for local in pattern_locals(c.target))


@dataclass(frozen=True, eq=False)
class Unary(Expr):
    """`-x` or `not x`."""

    op: str
    operand: Expr


@dataclass(frozen=True, eq=False)
class Binary(Expr):
    """Arithmetic `+ - * / // % **` and the short-circuit `and`, `or`."""

    op: str
    left: Expr
    right: Expr


@dataclass(frozen=True, eq=False)
class Compare(Expr):
    """A comparison chain `a < b <= c`."""

    first: Expr
    ops: tuple[str, ...]
    rest: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class Conditional(Expr):
    """`THEN if CONDITION else OTHERWISE`."""

    condition: Expr
    then: Expr
    otherwise: Expr


@dataclass(frozen=True, eq=False)
class Index(Expr):
    """`target[index]`; `board[r, c]` has a tuple index."""

    target: Expr
    index: Expr


@dataclass(frozen=True, eq=False)
class Slice(Expr):
    """`target[start:stop]`, either bound left out."""

    target: Expr
    start: Expr | None
    stop: Expr | None


@dataclass(frozen=True, eq=False)
class BuiltinCall(Expr):
    """A call of a built-in function."""

    builtin: Builtin
    args: tuple[Expr, ...]


@dataclass(frozen=True, eq=False)
class FunctionCall(Expr):
    """A call of a function of the file."""

    function: Function
    args: tuple[Expr, ...]

    @cached_property
    def reads_state(self) -> bool:
        """Whether the function or an argument reads the state."""
        return self.function.reads_state or any(arg.reads_state for arg in self.args)


@dataclass(frozen=True, eq=False)
class After(Expr):
    """`after(move, body)`: body read in the state after the move."""

    move: Expr
    body: Expr

    @cached_property
    def reads_state(self) -> bool:
        """The state after a move comes from the state."""
        return True


# ---- statements ---------------------------------------------------------------------------------


@dataclass(frozen=True, eq=False)
class Place(Node):
    """What an assignment changes: a field or local, or an item of it. `kinds[i]` is the kind of
    the container that `indexes[i]` indexes (kinds[0] is the field's or local's own)."""

    root: Field | Local
    indexes: tuple[Expr, ...]
    kinds: tuple[Kind, ...]

    @property
    def kind(self) -> Kind:
        """The kind of what is assigned."""
        return self.kinds[-1]

    @cached_property
    def locals_used(self) -> frozenset[Local]:
        """The local assigned, and those its indexes read."""
        used = super().locals_used
        return used | {self.root} if isinstance(self.root, Local) else used


@dataclass(frozen=True, eq=False)
class Let(Node):
    """`let TARGET = VALUE`."""

    target: Pattern
    value: Expr


@dataclass(frozen=True, eq=False)
class Assign(Node):
    """`PLACE = VALUE`, or `PLACE op= VALUE`."""

    place: Place
    op: str | None
    value: Expr


@dataclass(frozen=True, eq=False)
class Return(Node):
    """`return VALUE`."""

    value: Expr


@dataclass(frozen=True, eq=False)
class Block(Node):
    """Statements in order."""

    statements: tuple[Statement, ...]

    @property
    def locals_bound(self) -> frozenset[Local]:
        """The names its `let` statements bind."""
        return frozenset(local for s in self.statements if isinstance(s, Let) for local in pattern_locals(s.target))


@dataclass(frozen=True, eq=False)
class If(Node):
    """`if`/`elif` branches and an optional `else`."""

    branches: tuple[tuple[Expr, Block], ...]
    otherwise: Block | None


@dataclass(frozen=True, eq=False)
class For(Node):
    """`for TARGET in ITERABLE:`."""

    target: Pattern
    iterable: Expr
    body: Block

    @property
    def locals_bound(self) -> frozenset[Local]:
        """The names its target binds (for its body)."""
        return frozenset(pattern_locals(self.target))


@dataclass(frozen=True, eq=False)
class While(Node):
    """`while CONDITION:`."""

    condition: Expr
    body: Block


Statement = Union[Let, Assign, Return, If, For, While]


@dataclass(eq=False)
class Result:
    """`result(MOVE):`, the block that makes the next state."""

    node: ast.Result
    target: Pattern
    body: Block


Located = Union[ast.Node, Node]
"""A node of the file's tree or of the model: both know their line and column."""


@typeguard_ignore
def walk(node: Node) -> Iterator[Node]:
    """`node` and every node below it, parents first (without recursion)."""
    pending = [node]
    while pending:
        current = pending.pop()
        yield current
        pending.extend(reversed(list(current.children())))


# ---- the game -----------------------------------------------------------------------------------


@dataclass
class CheckedGame:
    """A program that passed every check, resolved."""

    source: Source
    program: ast.Program
    title: str
    players: tuple[str, ...]
    symbols: tuple[str, ...]
    params: dict[str, Param]
    fields: tuple[Field, ...]
    definitions: dict[str, Definition]
    functions: dict[str, Function]
    result: Result | None
    tree: ast.Tree | None
    constant_order: tuple[str, ...]
    """The definitions that do not read the state, each after those it uses."""
    to_move_proven: bool = False
    """Whether the checker knows every value of `to_move` to be a player (or `chance`); when
    not, the interpreter checks each value as the game runs."""
    payoffs: str | None = "number"
    """How `utility` (and `evaluation`, `repetition`) gives payoffs (`gdl.payoffs.PayoffForm`):
    "number", one number from the first player's view; "tuple", each player's in player order;
    "map", from player to payoff; None when only the running game can tell (a tuple or a map)."""

    @property
    def state_dependent(self) -> frozenset[str]:
        """The definitions and functions that read the state."""
        return frozenset(
            [name for name, d in self.definitions.items() if d.reads_state]
            + [name for name, f in self.functions.items() if f.reads_state]
        )
