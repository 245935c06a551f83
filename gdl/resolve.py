"""Expressions and statements resolved: each name to what it refers to, each expression to its
kind, every mistake that can be seen before the game runs reported on the way.

`Resolver` is the half of the checker that works inside rules; `gdl.checker` adds the
declarations (what the names are) and the checks of the game as a whole.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterable, Iterator

from gdl import ast, model
from gdl.builtins import BUILTIN_SYMBOLS, BUILTINS
from gdl.errors import GdlError, Source
from gdl.library import OTHER_NEEDS_TWO_PLAYERS
from gdl.kinds import (
    ANY, BOOL, INT, NUMBER, PLAYER, STRING, SYMBOL, TUPLE, Kind,
    comparable, describe, element, fits, is_known, join, list_of, map_of, set_of, tuple_of,
)

STATE = "$state"
"""The dependency of a name that reads a state field."""

RESERVED = "`{name}`: names starting with `__` are reserved; choose another name"

_NUMERIC = frozenset({"int", "number"})
_COUNT_TRUE = (
    "`count` counts every item, true and false alike: to count the items for which a condition "
    "holds, write the condition as a filter: `count(x for x in xs if CONDITION)`"
)


# Names other languages have that this one writes otherwise, and how.
_OTHER_LANGUAGES = {
    "True": "; the language writes `true`",
    "False": "; the language writes `false`",
    "None": "; the language has no `None`: declare a symbol for it (`symbols none`)",
    "null": "; the language has no `null`: declare a symbol for it (`symbols none`)",
}


class Scope:
    """Local names (parameters, `let`, loop variables), innermost last."""

    def __init__(self, parent: Scope | None = None) -> None:
        self.parent = parent
        self.names: dict[str, model.Local] = {}

    def lookup(self, name: str) -> model.Local | None:
        """The local of this name in scope, if any."""
        scope: Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def all_names(self) -> Iterator[str]:
        """Every local name in scope."""
        scope: Scope | None = self
        while scope is not None:
            yield from scope.names
            scope = scope.parent


@dataclass
class Where:
    """The context of the expression being resolved."""

    owner: str | None          # the top-level name whose body this is, for dependencies
    state: bool                # whether state fields may be read
    in_result: bool = False    # inside the result block: fields are assignable
    in_function: bool = False  # inside a block-bodied function: `return` allowed


class Resolver:
    """Resolves the expressions and statements of rules; the declarations come from `gdl.checker`."""

    def __init__(self, source: Source) -> None:
        self.source = source
        self.errors: list[GdlError] = []
        self.top: dict[str, tuple[str, ast.Node]] = {}
        self.players: tuple[str, ...] = ()
        self.symbols: dict[str, ast.Node | None] = {s: None for s in BUILTIN_SYMBOLS}
        self.params: dict[str, model.Param] = {}
        self.fields: dict[str, model.Field] = {}
        self.definitions: dict[str, model.Definition] = {}
        self.functions: dict[str, model.Function] = {}
        self.deps: dict[str, set[str]] = {}

    # ---- what the declarations provide (see gdl.checker)
    def definition_kind(self, name: str) -> Kind:  # pragma: no cover - provided by the checker
        """The kind of a definition, resolving it first if need be."""
        raise NotImplementedError

    def function_kind(self, name: str) -> Kind:  # pragma: no cover - provided by the checker
        """The kind of a function's value, resolving it first if need be."""
        raise NotImplementedError

    def check_param_order(self, use: ast.Name, owner: str) -> None:  # pragma: no cover - provided by the checker
        """Report a parameter used above its declaration."""
        raise NotImplementedError

    # ---- reporting
    def error(self, node: model.Located, message: str) -> None:
        """Record a mistake at `node`."""
        self.errors.append(self.source.error(GdlError, message, node.line, node.column))

    @staticmethod
    def suggest(name: str, candidates: Iterable[str]) -> str:
        """`; did you mean ...?` for the closest candidate, if any is close."""
        close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
        return f"; did you mean `{close[0]}`?" if close else ""

    def depend(self, where: Where, name: str) -> None:
        """Record that the rule being resolved uses `name` (or the state)."""
        if where.owner is not None:
            self.deps.setdefault(where.owner, set()).add(name)

    @staticmethod
    def invalid(node: ast.Node) -> model.Expr:
        """What stands for an expression that is a mistake (the game is not compiled)."""
        return model.Constant(0, kind=ANY, line=node.line, column=node.column)

    # ---- names bound by let, for, comprehensions and parameters
    def bind_name(self, name: str, kind: Kind, scope: Scope, node: ast.Node) -> model.Local:
        """A new local in `scope`, with the mistakes of its name reported."""
        if name.startswith("__"):
            self.error(node, RESERVED.format(name=name))
        elif name in self.top or name in BUILTIN_SYMBOLS:
            what = self.top[name][0] if name in self.top else "built-in symbol"
            self.error(node, f"`{name}` is already a {what}; choose another name for this local")
        elif scope.lookup(name) is not None:
            self.error(node, f"`{name}` is already a local name here; choose another name")
        local = scope.names[name] = model.Local(name, kind, node.line, node.column)
        return local

    def bind_target(self, target: ast.Target, kind: Kind, scope: Scope) -> model.Pattern:
        """The pattern `target` binding values of `kind` in `scope`."""
        at = {"line": target.line, "column": target.column}
        if isinstance(target, ast.NameTarget):
            return model.NamePattern(self.bind_name(target.id, kind, scope, target), **at)
        if kind.name == "tuple" and kind.args and len(kind.args) != len(target.items):
            self.error(target, f"this pattern has {len(target.items)} names, but the tuple has {len(kind.args)} items")
        elif is_known(kind) and kind.name not in ("tuple", "list"):
            self.error(target, f"a pattern `(a, b)` unpacks a tuple, but this is {describe(kind)}")
        items = []
        for position, item in enumerate(target.items):
            if kind.name == "tuple" and len(kind.args) == len(target.items):
                item_kind = kind.args[position]
            elif kind.name == "list":
                item_kind = kind.args[0]
            else:
                item_kind = ANY
            items.append(self.bind_target(item, item_kind, scope))
        return model.TuplePattern(tuple(items), **at)

    # ---- statements
    def resolve_block(self, block: ast.Block, scope: Scope, where: Where, returns: list[Kind]) -> model.Block:
        """The block's statements, in a scope of their own."""
        inner = Scope(scope)
        statements = tuple(self.resolve_statement(s, inner, where, returns) for s in block.statements)
        return model.Block(statements, line=block.line, column=block.column)

    def resolve_statement(self, statement: ast.Statement, scope: Scope, where: Where, returns: list[Kind]) -> model.Statement:
        """One statement; the kinds of the values it returns are added to `returns`."""
        at = {"line": statement.line, "column": statement.column}
        if isinstance(statement, ast.Let):
            value = self.resolve(statement.value, scope, where)
            return model.Let(self.bind_target(statement.target, value.kind, scope), value, **at)
        if isinstance(statement, ast.Assign):
            return self.resolve_assign(statement, scope, where)
        if isinstance(statement, ast.Return):
            value = self.resolve(statement.value, scope, where)
            if not where.in_function:
                self.error(statement, "`return` belongs in a function; the result block changes the state instead")
            returns.append(value.kind)
            return model.Return(value, **at)
        if isinstance(statement, ast.If):
            branches = tuple(
                (self.expect(condition, BOOL, scope, where, "an `if` condition"), self.resolve_block(body, scope, where, returns))
                for condition, body in statement.branches
            )
            otherwise = None if statement.otherwise is None else self.resolve_block(statement.otherwise, scope, where, returns)
            return model.If(branches, otherwise, **at)
        if isinstance(statement, ast.For):
            iterable, item = self.iterable(statement.iterable, scope, where)
            inner = Scope(scope)
            target = self.bind_target(statement.target, item, inner)
            return model.For(target, iterable, self.resolve_block(statement.body, inner, where, returns), **at)
        condition = self.expect(statement.condition, BOOL, scope, where, "a `while` condition")
        return model.While(condition, self.resolve_block(statement.body, scope, where, returns), **at)

    def resolve_assign(self, statement: ast.Assign, scope: Scope, where: Where) -> model.Statement:
        """`place = value` or `place op= value`, with the kinds of both sides checked."""
        place = statement.place
        value = self.resolve(statement.value, scope, where)
        assigned = model.Assign(self.invalid_place(place), statement.op, value, line=statement.line, column=statement.column)
        root: model.Field | model.Local
        local = scope.lookup(place.name)
        if local is not None:
            root = local
        elif place.name in self.fields:
            if not where.in_result:
                self.error(place, f"only the `result` block can change the state field `{place.name}`")
                return assigned
            root = self.fields[place.name]
        else:
            self.error(place, self.not_assignable(place.name, scope))
            return assigned
        kinds = [root.kind]
        indexes = []
        for index in place.indexes:
            resolved = self.resolve(index, scope, where)
            indexes.append(resolved)
            kinds.append(self.index_kind(kinds[-1], resolved.kind, index, place))
        kind = kinds[-1]
        assigned = model.Assign(model.Place(root, tuple(indexes), tuple(kinds), line=place.line, column=place.column),
                                statement.op, value, line=statement.line, column=statement.column)
        if statement.op is not None:
            if statement.op == "+" and kind.name in ("string", "list", "tuple"):
                pass
            elif is_known(kind) and kind.name not in _NUMERIC:
                self.error(statement, f"`{statement.op}=` needs a number, but `{place.name}` holds {describe(kind)}")
                return assigned
            what = {"+": "the value added", "-": "the value taken away", "*": "the factor"}.get(statement.op, "the value")
            self.expect_kind(statement.value, value.kind, NUMBER if kind.name in _NUMERIC else kind, what)
            return assigned
        if is_known(kind) and not fits(value.kind, kind) and not fits(kind, value.kind):
            self.error(statement.value, f"`{place.name}` holds {describe(kind)}, but this is {describe(value.kind)}")
        return assigned

    @staticmethod
    def invalid_place(place: ast.Place) -> model.Place:
        """What stands for a place that is a mistake."""
        local = model.Local(place.name, ANY, place.line, place.column)
        return model.Place(local, (), (ANY,), line=place.line, column=place.column)

    def not_assignable(self, name: str, scope: Scope) -> str:
        """Why `name` cannot be assigned."""
        if name in self.top:
            what = self.top[name][0]
            return f"`{name}` is a {what} and cannot be assigned; only state fields and `let` names can"
        candidates = list(self.fields) + list(scope.all_names())
        suggestion = self.suggest(name, candidates)
        if suggestion:
            return f"unknown name `{name}`{suggestion}"
        return f"`{name}` is neither a state field nor a local name: add it under `state:`, or make a local with `let {name} = ...`"

    # ---- expressions
    def expect(self, expr: ast.Expr, expected: Kind, scope: Scope, where: Where, what: str) -> model.Expr:
        """The expression, reported unless its kind fits `expected`."""
        resolved = self.resolve(expr, scope, where)
        self.expect_kind(expr, resolved.kind, expected, what)
        return resolved

    def expect_kind(self, node: ast.Node, kind: Kind, expected: Kind, what: str) -> None:
        """Report `what` unless `kind` fits `expected`."""
        if not fits(kind, expected):
            self.error(node, f"{what} must be {describe(expected)}, got {describe(kind)}")

    def iterable(self, expr: ast.Expr, scope: Scope, where: Where) -> tuple[model.Expr, Kind]:
        """What a loop goes over, and the kind of its items."""
        resolved = self.resolve(expr, scope, where)
        kind = resolved.kind
        if kind.name == "grid":
            self.error(expr, "a grid is not a list: loop over `cells(board)` for its cells, or `list(board)` for its contents")
            return resolved, ANY
        if is_known(kind) and kind.name not in ("list", "tuple", "map", "set", "string"):
            self.error(expr, f"cannot loop over {describe(kind)}; a loop needs a list, tuple, map or string")
            return resolved, ANY
        return resolved, element(kind)

    def resolve(self, expr: ast.Expr, scope: Scope, where: Where) -> model.Expr:
        """The resolved expression, with its kind."""
        at = {"line": expr.line, "column": expr.column}
        if isinstance(expr, ast.Number):
            return model.Constant(expr.value, kind=INT if isinstance(expr.value, int) else NUMBER, **at)
        if isinstance(expr, ast.String):
            return model.Constant(expr.value, kind=STRING, **at)
        if isinstance(expr, ast.Boolean):
            return model.Constant(expr.value, kind=BOOL, **at)
        if isinstance(expr, ast.Name):
            return self.resolve_name(expr, scope, where)
        if isinstance(expr, ast.TupleExpr):
            items = tuple(self.resolve(item, scope, where) for item in expr.items)
            return model.TupleExpr(items, kind=tuple_of(tuple(i.kind for i in items)), **at)
        if isinstance(expr, (ast.ListExpr, ast.SetExpr)):
            items = tuple(self.resolve(item, scope, where) for item in expr.items)
            kind = _join_all(i.kind for i in items)
            if isinstance(expr, ast.SetExpr):
                return model.SetExpr(items, kind=set_of(kind), **at)
            return model.ListExpr(items, kind=list_of(kind), **at)
        if isinstance(expr, ast.MapExpr):
            pairs = tuple((self.resolve(k, scope, where), self.resolve(v, scope, where)) for k, v in expr.items)
            kind = map_of(_join_all(k.kind for k, _ in pairs), _join_all(v.kind for _, v in pairs))
            return model.MapExpr(pairs, kind=kind, **at)
        if isinstance(expr, ast.Comprehension):
            return self.resolve_comprehension(expr, scope, where)
        if isinstance(expr, ast.Unary):
            return self.resolve_unary(expr, scope, where)
        if isinstance(expr, ast.Binary):
            return self.resolve_binary(expr, scope, where)
        if isinstance(expr, ast.Compare):
            return self.resolve_compare(expr, scope, where)
        if isinstance(expr, ast.Conditional):
            condition = self.expect(expr.condition, BOOL, scope, where, "an `if` condition")
            then, otherwise = self.resolve(expr.then, scope, where), self.resolve(expr.otherwise, scope, where)
            return model.Conditional(condition, then, otherwise, kind=join(then.kind, otherwise.kind), **at)
        if isinstance(expr, ast.Index):
            target, index = self.resolve(expr.target, scope, where), self.resolve(expr.index, scope, where)
            return model.Index(target, index, kind=self.index_kind(target.kind, index.kind, expr.index, expr), **at)
        if isinstance(expr, ast.Slice):
            return self.resolve_slice(expr, scope, where)
        if isinstance(expr, ast.Call):
            return self.resolve_call(expr, scope, where)
        raise AssertionError(f"unknown expression {expr!r}")

    def resolve_name(self, expr: ast.Name, scope: Scope, where: Where) -> model.Expr:
        """A name: a local, symbol, field, parameter or definition."""
        name = expr.id
        at = {"line": expr.line, "column": expr.column}
        local = scope.lookup(name)
        if local is not None:
            return model.LocalRef(local, kind=local.kind, **at)
        if name in self.symbols:
            return model.SymbolRef(name, kind=PLAYER if name in self.players else SYMBOL, **at)
        what = self.top.get(name, ("", None))[0]
        if what == "state field":
            self.depend(where, STATE)
            if not where.state:
                self.error(expr, f"`{name}` is a state field; it cannot be read here, before the game starts")
            declared = self.fields[name]
            return model.FieldRef(declared, kind=getattr(declared, "kind", ANY), **at)
        if what == "parameter":
            self.depend(where, name)
            if where.owner in self.params:
                self.check_param_order(expr, where.owner)
            param = self.params[name]
            return model.ParamRef(param, kind=getattr(param, "kind", ANY), **at)
        if what == "definition":
            self.depend(where, name)
            if not where.state and where.owner in self.params:
                self.error(expr, f"a parameter's default can only use numbers, symbols and other parameters, not `{name}`")
            kind = self.definition_kind(name)
            return model.DefinitionRef(self.definitions[name], kind=kind, **at)
        if what == "function" or name in BUILTINS:
            self.error(expr, f"`{name}` is a function: call it, as in `{name}(...)`")
            return self.invalid(expr)
        candidates = list(self.top) + list(scope.all_names()) + list(BUILTIN_SYMBOLS)
        hint = _OTHER_LANGUAGES.get(name) or self.suggest(name, candidates)
        self.error(expr, f"unknown name `{name}`{hint}")
        return self.invalid(expr)

    def resolve_comprehension(self, expr: ast.Comprehension, scope: Scope, where: Where) -> model.Expr:
        """A list, set or map comprehension, or a generator argument."""
        inner = Scope(scope)
        clauses: list[model.ForClause | model.IfClause] = []
        for clause in expr.clauses:
            at = {"line": clause.line, "column": clause.column}
            if isinstance(clause, ast.ForClause):
                iterable, item = self.iterable(clause.iterable, inner, where)
                inner = Scope(inner)
                clauses.append(model.ForClause(self.bind_target(clause.target, item, inner), iterable, **at))
            else:
                condition = self.expect(clause.condition, BOOL, inner, where, "a comprehension's `if` condition")
                clauses.append(model.IfClause(condition, **at))
        value = self.resolve(expr.element, inner, where)
        key = None
        if expr.kind == "map":
            assert expr.key is not None
            key = self.resolve(expr.key, inner, where)
            kind = map_of(key.kind, value.kind)
        else:
            kind = set_of(value.kind) if expr.kind == "set" else list_of(value.kind)
        return model.Comprehension(expr.kind, value, key, tuple(clauses), kind=kind, line=expr.line, column=expr.column)

    def resolve_unary(self, expr: ast.Unary, scope: Scope, where: Where) -> model.Expr:
        """`not x` or `-x`."""
        at = {"line": expr.line, "column": expr.column}
        if expr.op == "not":
            operand = self.expect(expr.operand, BOOL, scope, where, "the operand of `not`")
            return model.Unary("not", operand, kind=BOOL, **at)
        operand = self.expect(expr.operand, NUMBER, scope, where, "the operand of `-`")
        kind = operand.kind if operand.kind.name in _NUMERIC else NUMBER
        return model.Unary("-", operand, kind=kind, **at)

    def resolve_binary(self, expr: ast.Binary, scope: Scope, where: Where) -> model.Expr:
        """Arithmetic, joining, and the short-circuit `and`, `or`."""
        op = expr.op
        at = {"line": expr.line, "column": expr.column}
        if op in ("and", "or"):
            left = self.expect(expr.left, BOOL, scope, where, f"each side of `{op}`")
            right = self.expect(expr.right, BOOL, scope, where, f"each side of `{op}`")
            return model.Binary(op, left, right, kind=BOOL, **at)
        left, right = self.resolve(expr.left, scope, where), self.resolve(expr.right, scope, where)
        return model.Binary(op, left, right, kind=self.binary_kind(expr, left.kind, right.kind), **at)

    def binary_kind(self, expr: ast.Binary, left: Kind, right: Kind) -> Kind:
        """The kind of `left op right`, reported when the operator cannot combine them."""
        op = expr.op
        names = {left.name, right.name}
        if op == "+" and left.name == right.name and left.name in ("string", "list", "tuple", "set"):
            return join(left, right) if left.name != "tuple" else TUPLE
        if op == "-" and left.name == right.name == "set":
            return left
        if op == "*" and left.name in ("string", "list") and right.name == "int":
            return left
        if not is_known(left) or not is_known(right):
            if names <= _NUMERIC | {"any"}:
                return INT if op in ("//", "%") and "number" not in names else (ANY if op != "/" else NUMBER)
            return ANY
        if names <= _NUMERIC:
            if op == "/" or "number" in names:
                return NUMBER
            return INT
        hint = "; `str(x)` turns a value into text" if op == "+" and "string" in names else ""
        self.error(expr, f"`{op}` cannot combine {describe(left)} and {describe(right)}{hint}")
        return ANY

    def resolve_compare(self, expr: ast.Compare, scope: Scope, where: Where) -> model.Expr:
        """A comparison chain, reported where its sides can never compare as written."""
        first = self.resolve(expr.first, scope, where)
        rest = []
        left = first.kind
        for op, right_expr in zip(expr.ops, expr.rest):
            resolved = self.resolve(right_expr, scope, where)
            rest.append(resolved)
            right = resolved.kind
            if op in ("==", "!="):
                if not comparable(left, right):
                    self.error(expr, f"comparing {describe(left)} with {describe(right)}: `{op}` would always be {'false' if op == '==' else 'true'}")
            elif op in ("in", "not in"):
                if is_known(right) and right.name not in ("list", "tuple", "map", "set", "string"):
                    self.error(right_expr, f"`{op}` needs a list, tuple, map or string on its right, got {describe(right)}")
            else:
                both_known = is_known(left) and is_known(right)
                if both_known and not ({left.name, right.name} <= _NUMERIC or left.name == right.name == "string"):
                    self.error(expr, f"`{op}` compares numbers (or strings), not {describe(left)} and {describe(right)}")
            left = right
        return model.Compare(first, expr.ops, tuple(rest), kind=BOOL, line=expr.line, column=expr.column)

    def index_kind(self, target: Kind, index: Kind, index_node: ast.Node, node: ast.Node) -> Kind:
        """The kind of `target[index]`, reported when it cannot be indexed so."""
        name = target.name
        if name == "grid":
            if is_known(index) and index.name != "tuple":
                self.error(index_node, f"a grid is indexed by a cell (row, col), not by {describe(index)}")
            return target.args[0]
        if name == "list":
            self.expect_kind(index_node, index, INT, "a list index")
            return target.args[0]
        if name == "tuple":
            self.expect_kind(index_node, index, INT, "a tuple index")
            if isinstance(index_node, ast.Number) and target.args:
                position = index_node.value
                if isinstance(position, int) and 0 <= position < len(target.args):
                    return target.args[position]
                self.error(index_node, f"this tuple has {len(target.args)} items; index {position} is out of range")
            return element(target)
        if name == "map":
            if not fits(index, target.args[0]) and not fits(target.args[0], index):
                self.error(index_node, f"this map's keys are {describe(target.args[0])}s, not {describe(index)}s".replace("an ", "").replace("a ", "", 1))
            return target.args[1]
        if name == "string":
            self.expect_kind(index_node, index, INT, "a string index")
            return STRING
        if name == "any":
            return ANY
        hint = "; `x in s` asks whether it holds x" if name == "set" else ""
        self.error(node, f"{describe(target)} cannot be indexed with [...]{hint}")
        return ANY

    def resolve_slice(self, expr: ast.Slice, scope: Scope, where: Where) -> model.Expr:
        """`xs[a:b]` of a list, tuple or string."""
        target = self.resolve(expr.target, scope, where)
        bounds = [None if b is None else self.expect(b, INT, scope, where, "a slice bound") for b in (expr.start, expr.stop)]
        kind = target.kind
        if is_known(kind) and kind.name not in ("list", "tuple", "string"):
            self.error(expr, f"only a list, tuple or string can be sliced with [a:b], not {describe(kind)}")
            kind = ANY
        elif kind.name == "tuple":
            kind = TUPLE  # how many items are left depends on the bounds
        return model.Slice(target, bounds[0], bounds[1], kind=kind, line=expr.line, column=expr.column)

    def resolve_call(self, expr: ast.Call, scope: Scope, where: Where) -> model.Expr:
        """A call of a function of the file (first) or of a built-in."""
        name = expr.function
        at = {"line": expr.line, "column": expr.column}
        if name == "after" and name not in self.functions:
            return self.resolve_after(expr, scope, where)
        args = tuple(self.resolve(arg, scope, where) for arg in expr.args)
        kinds = tuple(a.kind for a in args)
        if name in self.functions:
            self.depend(where, name)
            function = self.functions[name]
            if len(args) != len(function.node.params):
                self.error(expr, f"`{name}` takes {count_of(len(function.node.params), 'argument')}, but {len(args)} {'was' if len(args) == 1 else 'were'} given")
            if not where.state and where.owner in self.params:
                self.error(expr, f"a parameter's default can only use numbers, symbols and other parameters, not `{name}`")
            return model.FunctionCall(function, args, kind=self.function_kind(name), **at)
        if name in BUILTINS:
            builtin = BUILTINS[name]
            if len(args) < builtin.min_args or (builtin.max_args is not None and len(args) > builtin.max_args):
                self.error(expr, f"`{name}` takes {_arity(builtin.min_args, builtin.max_args)}, but {len(args)} {'was' if len(args) == 1 else 'were'} given: {builtin.usage}")
                return self.invalid(expr)
            for position, (arg, expected) in enumerate(zip(kinds, builtin.args)):
                if not fits(arg, expected):
                    self.error(expr.args[position], f"argument {position + 1} of `{name}` must be {describe(expected)}, got {describe(arg)}: {builtin.usage}")
            if name == "count" and len(args) == 1 and element(kinds[0]) == BOOL and not _filtered(args[0]):
                self.error(expr, _COUNT_TRUE)
            if name == "other" and self.players and len(self.players) != 2:
                self.error(expr, OTHER_NEEDS_TWO_PLAYERS)
            return model.BuiltinCall(builtin, args, kind=builtin.result(kinds), **at)
        if name in self.top:
            self.error(expr, f"`{name}` is a {self.top[name][0]}, not a function")
            return self.invalid(expr)
        candidates = list(self.functions) + list(BUILTINS)
        self.error(expr, f"unknown function `{name}`{self.suggest(name, candidates)}")
        return self.invalid(expr)

    def resolve_after(self, expr: ast.Call, scope: Scope, where: Where) -> model.Expr:
        """`after(move, x)`: x is read in the state after the move, so it reads the state."""
        self.depend(where, STATE)
        if len(expr.args) != 2:
            self.error(expr, f"`after` takes 2 arguments, but {len(expr.args)} {'was' if len(expr.args) == 1 else 'were'} given: {BUILTINS['after'].usage}")
            return self.invalid(expr)
        if not where.state:
            self.error(expr, "`after` reads the state after a move; it cannot be used here, before the game starts")
        move = self.resolve(expr.args[0], scope, where)
        body = self.resolve(expr.args[1], scope, Where(where.owner, True, in_function=where.in_function))
        return model.After(move, body, kind=body.kind, line=expr.line, column=expr.column)


def _filtered(items: model.Expr) -> bool:
    """Whether `items` is a generator with an `if` filter (`count(b for b in bs if b)` counts
    the true ones already)."""
    return isinstance(items, model.Comprehension) and any(isinstance(c, model.IfClause) for c in items.clauses)


def _join_all(kinds: Iterable[Kind]) -> Kind:
    result: Kind | None = None
    for kind in kinds:
        result = kind if result is None else join(result, kind)
    return result if result is not None else ANY


def count_of(n: int, noun: str) -> str:
    """`1 argument`, `2 arguments`."""
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _arity(low: int, high: int | None) -> str:
    if high is None:
        return f"at least {count_of(low, 'argument')}"
    if low == high:
        return count_of(low, "argument")
    if high == low + 1:
        return f"{low} or {high} arguments"
    return f"{low} to {high} arguments"
