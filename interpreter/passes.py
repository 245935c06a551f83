"""The compiler's passes: which are on, and the two that move work out of the rules.

Each pass makes the generated code faster without changing a value a game gives; each can be
turned off (`Passes`), which the tests use to show what a pass changes in the code and that
the answers stay the same.

- `inline_calls`: a definition that is one call of a function with constant arguments
  (`x_won = won(X)`) becomes the function's body with those arguments in place.
- `load_values`: the parts of rules that do not depend on the state nor on local names
  (`cells(size, size)`, a list of lines) are computed once, when the game loads.
- `flat_cells` (`interpreter.lowering`): cells of boards of known size read by flat position.
- `hoist_invariants`: a pure call inside a loop whose arguments do not change while the rule
  runs (`other(p)`) is computed once, when the rule starts.
- `unroll` (`interpreter.unrolling`): `any`, `all`, `count`, `sum` of generators as loops
  (a tally inside a returned arithmetic too: `count(...) - 1`).
- `unroll_lines` (`interpreter.lowering`): `any`/`all` over a few lines of cells known at load
  (`any(all(board[c] == p for c in line) for line in lines)`) written out line by line, each
  cell a constant position: no loop at all.
- `typed_updates`: `board[c] = x` written for the kind of `board` (grid, list, map); a board
  whose size never changes read and changed through its cell table, a constant.
- `result_helpers`: a rule called from `result` gets the state it was called with, not a state
  made of the fields, when it reads no field assigned so far.
- `integer_division`: `/` of two integers makes a fraction only when the quotient is not whole.
- `inline_definitions`: a rule the game calls directly (`terminal`, `moves`, `to_move`) computes
  the remembered definitions it reads (`x_won`, `moves`) in place, keeping their answers as
  their own functions do, instead of calling them: a call less for each at every node. Its
  failures are reported by a plain copy of the rule, run again, so they are shown where the
  file wrote what failed.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass, fields
from typing import Iterator, TypeVar

from gdl import model
from interpreter.lowered import Hoisted, Loaded, loaded, rewrite


@dataclass(frozen=True)
class Passes:
    """Which passes the compiler runs (all of them unless told otherwise)."""

    inline_calls: bool = True
    load_values: bool = True
    flat_cells: bool = True
    hoist_invariants: bool = True
    unroll: bool = True
    unroll_lines: bool = True
    typed_updates: bool = True
    result_helpers: bool = True
    integer_division: bool = True
    inline_definitions: bool = True

    @classmethod
    def names(cls) -> tuple[str, ...]:
        """The name of every pass."""
        return tuple(f.name for f in fields(cls))

    def without(self, name: str) -> Passes:
        """These passes but `name`."""
        return Passes(**{n: getattr(self, n) and n != name for n in self.names()})


# ---- calls with constant arguments written out -------------------------------------------------

_CONSTANT_ARGUMENTS = (model.Constant, model.SymbolRef, model.ParamRef)


def inline_call(value: model.Expr) -> model.Expr:
    """`f(X)`, for a function `f` of one expression whose arguments are all numbers, strings,
    symbols or parameters: `f`'s expression with its parameters replaced by the arguments
    (whose kinds are then known: a player, not any value). Anything else as it is."""
    if not (isinstance(value, model.FunctionCall) and isinstance(value.function.body, model.Expr)
            and all(isinstance(arg, _CONSTANT_ARGUMENTS) for arg in value.args)):
        return value
    arguments = dict(zip(value.function.params, value.args))
    return rewrite(value.function.body, lambda node: _argument(node, arguments))


def _argument(node: model.Node, arguments: dict[model.Local, model.Expr]) -> model.Node | None:
    if isinstance(node, model.LocalRef) and node.local in arguments:
        return dataclasses.replace(arguments[node.local], line=node.line, column=node.column)
    return None


# ---- values computed at load ----------------------------------------------------------------

# Nodes that are names already (or literals Python folds itself): nothing to gain by loading them.
_LEAVES = (model.Constant, model.SymbolRef, model.ParamRef, model.DefinitionRef, model.LocalRef)


class LoadValues:
    """Finds the largest parts of rules that depend neither on the state nor on local names,
    and replaces each with a value computed at load (`Loaded`)."""

    def __init__(self) -> None:
        self.found: list[Loaded] = []

    def __call__(self, node: model.Node) -> model.Node | None:
        if isinstance(node, model.Expr) and self.worth_loading(node):
            made = loaded(f"_l{len(self.found)}", node)
            self.found.append(made)
            return made
        return None

    @staticmethod
    def worth_loading(node: model.Expr) -> bool:
        """Whether `node` is constant, pure, and more than a name or literal Python folds."""
        if node.reads_state or node.locals_used:
            return False
        if isinstance(node, model.Comprehension) and node.form == "generator":
            return False  # a generator is used up once read: it is made where it is used
        if isinstance(node, (model.TupleExpr, model.ListExpr, model.SetExpr, model.MapExpr)) and not node.items:
            return False
        parts = list(model.walk(node))
        if any(isinstance(part, (model.FunctionCall, model.After, Loaded)) for part in parts):
            return False  # a function of the file may be slow: it is called where it is used
        if any(isinstance(part, model.BuiltinCall) and not part.builtin.pure for part in parts):
            return False
        return not all(isinstance(part, (*_LEAVES, model.Unary, model.TupleExpr)) for part in parts)


def load_values(body: model.Node, found: LoadValues) -> model.Node:
    """`body` with its constant parts loaded (added to `found`)."""
    return rewrite(body, found)


# ---- pure calls out of loops ---------------------------------------------------------------------


_Node = TypeVar("_Node", bound=model.Node)


def hoist_invariants(body: model.Node, params: frozenset[model.Local]) -> model.Node:
    """`body` (of a rule that does not change the state) with each pure built-in call that is
    inside a loop, and whose arguments read nothing but the state, the constants and `params`,
    replaced by a `Hoisted` call, computed once when the rule starts."""

    def change(node: model.Node) -> model.Node | None:
        if isinstance(node, model.After):
            return node  # its body is a rule of its own, of another state
        if isinstance(node, model.Comprehension):
            first, *rest = node.clauses
            assert isinstance(first, model.ForClause)
            inner = tuple(_in_loop(clause, params) for clause in rest)
            element = _in_loop(node.element, params)
            key = None if node.key is None else _in_loop(node.key, params)
            return model.Comprehension(
                node.form, element, key, (first, *inner), kind=node.kind, line=node.line, column=node.column,
            )
        if isinstance(node, (model.For, model.While)):
            return _in_loop(node, params)
        return None

    return rewrite(body, change)


def _in_loop(body: _Node, params: frozenset[model.Local]) -> _Node:
    """`body`, which runs at every round of a loop, with its invariant pure calls hoisted."""

    def change(node: model.Node) -> model.Node | None:
        if isinstance(node, model.After):
            return node
        if isinstance(node, model.BuiltinCall) and _invariant(node, params):
            return Hoisted(node, kind=node.kind, line=node.line, column=node.column)
        return None

    return rewrite(body, change)


def _invariant(call: model.BuiltinCall, params: frozenset[model.Local]) -> bool:
    if not call.builtin.pure or call.builtin.implementation is None or not call.locals_used <= params:
        return False
    return not any(isinstance(part, (model.Comprehension, model.After, model.FunctionCall)) for part in model.walk(call))


def hoisted_calls(body: model.Node) -> Iterator[Hoisted]:
    """The hoisted calls of a rule's body."""
    return (node for node in model.walk(body) if isinstance(node, Hoisted))
