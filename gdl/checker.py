"""The static checks: names, arity, duplicates, required parts, parameters and kinds.

`check` walks the whole program once, collects every mistake it finds (not just the first)
and returns a `CheckedGame`, the model the interpreter compiles. It never runs the game.
"""

from __future__ import annotations

import difflib
from dataclasses import dataclass
from typing import Iterator, Mapping

from gdl import ast
from gdl.builtins import BUILTIN_SYMBOLS, BUILTINS
from gdl.model import CheckedGame
from gdl.params import bad_item, override_fits, value_to_expr
from gdl.errors import GdlCheckError, GdlError, GdlParamError, Source
from gdl.kinds import (
    ANY, BOOL, INT, LIST, NUMBER, PLAYER, STRING, SYMBOL, TUPLE, Kind,
    comparable, describe, element, fits, is_known, join, list_of, map_of, tuple_of,
)

# Definitions with a meaning to the game, and the kind each must have.
SPECIAL_DEFINITIONS: dict[str, tuple[Kind, str]] = {
    "to_move": (SYMBOL, "the player whose turn it is"),
    "moves": (LIST, "the list of legal moves"),
    "terminal": (BOOL, "whether the game is over"),
    "utility": (NUMBER, "the first player's score in a terminal state"),
    "evaluation": (NUMBER, "the first player's heuristic score"),
    "display": (STRING, "the state drawn as text"),
    "outcomes": (LIST, "the list of (outcome, probability) pairs of a chance node"),
    "symmetries": (LIST, "the list of cell maps under which the game is unchanged"),
    "repetition": (NUMBER, "the first player's score when a position repeats"),
    "tier": (INT, "an integer no move decreases, to solve the game tier by tier"),
    "position": (ANY, "the fields that identify a position, for the strong solver"),
}
SPECIAL_FUNCTIONS: dict[str, tuple[int, Kind]] = {"move_name": (1, STRING)}
REQUIRED = ("to_move", "moves", "terminal", "utility")
KEYWORDS = frozenset(
    "game players symbols param state def result tree let if elif else for in while return "
    "and or not true false".split()
)

_STATE = "$state"  # the dependency of a name that reads a state field
_RESERVED = "`{name}`: names starting with `__` are reserved; choose another name"


class _Scope:
    """Local names (parameters, `let`, loop variables) and their kinds, innermost last."""

    def __init__(self, parent: _Scope | None = None) -> None:
        self.parent = parent
        self.names: dict[str, Kind] = {}

    def lookup(self, name: str) -> Kind | None:
        scope: _Scope | None = self
        while scope is not None:
            if name in scope.names:
                return scope.names[name]
            scope = scope.parent
        return None

    def all_names(self) -> Iterator[str]:
        scope: _Scope | None = self
        while scope is not None:
            yield from scope.names
            scope = scope.parent


@dataclass
class _Where:
    """The context of the expression being checked."""

    owner: str | None          # the top-level name whose body this is, for dependencies
    state: bool                # whether state fields may be read
    in_result: bool = False    # inside the result block: fields are assignable
    in_function: bool = False  # inside a block-bodied function: `return` allowed


class _Checker:
    def __init__(self, program: ast.Program, source: Source, overrides: Mapping[str, object]) -> None:
        self.program = program
        self.source = source
        self.raw_overrides = dict(overrides)
        self.overrides: dict[str, ast.Expr] = {}
        self.errors: list[GdlError] = []
        self.title = ""
        self.players: tuple[str, ...] = ()
        self.symbols: dict[str, ast.Node | None] = {s: None for s in BUILTIN_SYMBOLS}
        self.params: dict[str, ast.Param] = {}
        self.fields: dict[str, ast.Field] = {}
        self.definitions: dict[str, ast.Definition] = {}
        self.functions: dict[str, ast.Function] = {}
        self.result: ast.Result | None = None
        self.tree: ast.Tree | None = None
        self.state_decl: ast.StateDecl | None = None
        self.top: dict[str, tuple[str, ast.Node]] = {}
        self.kinds: dict[int, Kind] = {}
        self.refers: dict[int, str] = {}
        self.deps: dict[str, set[str]] = {}
        self.field_kinds: dict[str, Kind] = {}
        self.param_kinds: dict[str, Kind] = {}
        self.definition_kinds: dict[str, Kind] = {}
        self.function_kinds: dict[str, Kind] = {}
        self.in_progress: set[str] = set()

    # ---- reporting
    def error(self, node: ast.Node, message: str) -> None:
        self.errors.append(self.source.error(GdlError, message, node.line, node.column))

    def suggest(self, name: str, candidates: Iterator[str] | list[str]) -> str:
        close = difflib.get_close_matches(name, list(candidates), n=1, cutoff=0.6)
        return f"; did you mean `{close[0]}`?" if close else ""

    # ---- pass 1: what is declared where
    def declare(self, name: str, what: str, node: ast.Node) -> bool:
        if name in self.top:
            first_what, first = self.top[name]
            self.error(node, f"`{name}` is defined twice: it is already a {first_what} (line {first.line})")
            return False
        if name in BUILTIN_SYMBOLS:
            self.error(node, f"`{name}` is a built-in symbol; choose another name")
            return False
        if name.startswith("__"):
            self.error(node, _RESERVED.format(name=name))
            return False
        if name in KEYWORDS:
            self.error(node, f"`{name}` is a keyword of the language; choose another name")
            return False
        if what == "function" and name in BUILTINS:
            self.error(node, f"`{name}` is a built-in function; choose another name")
            return False
        self.top[name] = (what, node)
        return True

    def collect(self) -> None:
        seen_once: dict[type, ast.Node] = {}
        for declaration in self.program.declarations:
            kind = type(declaration)
            if kind in (ast.GameName, ast.Players, ast.StateDecl, ast.Result, ast.Tree):
                if kind in seen_once:
                    label = {ast.GameName: "game", ast.Players: "players", ast.StateDecl: "state",
                             ast.Result: "result", ast.Tree: "tree"}[kind]
                    self.error(declaration, f"`{label}` is given twice (first at line {seen_once[kind].line})")
                    continue
                seen_once[kind] = declaration
            self.collect_one(declaration)

    def collect_one(self, declaration: ast.Declaration) -> None:
        if isinstance(declaration, ast.GameName):
            self.title = declaration.title
        elif isinstance(declaration, ast.Players):
            names = []
            for name in declaration.names:
                if self.declare(name, "player", declaration):
                    names.append(name)
                    self.symbols[name] = declaration
            self.players = tuple(names)
        elif isinstance(declaration, ast.Symbols):
            for name in declaration.names:
                if self.declare(name, "symbol", declaration):
                    self.symbols[name] = declaration
        elif isinstance(declaration, ast.Param):
            if self.declare(declaration.name, "parameter", declaration):
                self.params[declaration.name] = declaration
        elif isinstance(declaration, ast.StateDecl):
            self.state_decl = declaration
            for item in declaration.fields:
                if self.declare(item.name, "state field", item):
                    self.fields[item.name] = item
        elif isinstance(declaration, ast.Definition):
            if self.declare(declaration.name, "definition", declaration):
                self.definitions[declaration.name] = declaration
        elif isinstance(declaration, ast.Function):
            if self.declare(declaration.name, "function", declaration):
                self.functions[declaration.name] = declaration
        elif isinstance(declaration, ast.Result):
            self.result = declaration
        elif isinstance(declaration, ast.Tree):
            self.tree = declaration

    def require(self) -> None:
        start = ast.Name("", line=1, column=1)
        if not self.players:
            self.error(start, "a game needs its players: add a line such as `players X, O`")
        if self.tree is not None:
            for name in ("state", *REQUIRED):
                node = self.state_decl if name == "state" else self.definitions.get(name)
                if node is not None:
                    self.error(node, f"a game given as a `tree:` table defines its own `{name}`; remove this one")
            if self.result is not None:
                self.error(self.result, "a game given as a `tree:` table defines its own `result`; remove this one")
            return
        if self.state_decl is None:
            self.error(start, "a game needs a `state:` block listing its fields and their initial values")
        if self.result is None:
            self.error(start, "a game needs a `result(move):` block saying how a move changes the state")
        for name in REQUIRED:
            # A function of that name is reported by check_specials.
            if name not in self.definitions and name not in self.functions:
                self.error(start, f"a game needs `{name} = ...`: {SPECIAL_DEFINITIONS[name][1]}")

    # ---- parameters and their overrides
    def check_params(self) -> dict[str, ast.Expr]:
        values: dict[str, ast.Expr] = {}
        for name, value in self.raw_overrides.items():
            if isinstance(value, ast.Node):
                self.overrides[name] = value  # type: ignore[assignment]
            else:
                self.overrides[name] = value_to_expr(value, frozenset(self.symbols))
            if name not in self.params:
                known = ", ".join(self.params) or "none"
                raise GdlParamError(
                    f"the game has no parameter `{name}`{self.suggest(name, list(self.params))} "
                    f"(its parameters: {known})",
                    file=self.source.name,
                )
        for name, param in self.params.items():
            where = _Where(owner=name, state=False)
            kind = self.infer(param.default, _Scope(), where)
            if name in self.overrides:
                given = self.overrides[name]
                known_errors = len(self.errors)
                given_kind = self.infer(given, _Scope(), where)
                if len(self.errors) > known_errors:
                    # The value comes from the command line, not from the file: no line to show.
                    problem = self.errors[known_errors].message
                    del self.errors[known_errors:]
                    raise GdlParamError(f"the value given for parameter `{name}` is not valid: {problem}", file=self.source.name)
                wrong = bad_item(given_kind, kind)
                if wrong is not None:
                    raise GdlParamError(
                        f"each item of parameter `{name}` must be {describe(element(kind))} "
                        f"(default {self.source_text(param.default)}), but one given is {describe(wrong)}",
                        file=self.source.name,
                    )
                if not override_fits(given_kind, kind):
                    raise GdlParamError(
                        f"parameter `{name}` is {describe(kind)} (default {self.source_text(param.default)}), "
                        f"but {describe(given_kind)} was given",
                        file=self.source.name,
                    )
                values[name] = given
                kind = given_kind
            else:
                values[name] = param.default
            self.param_kinds[name] = kind
        return values

    def source_text(self, node: ast.Node) -> str:
        line = self.source.line(node.line) or ""
        return line[node.column - 1:].strip() or "?"

    # ---- the declarations' bodies
    def check_fields(self) -> None:
        for name, item in self.fields.items():
            self.field_kinds[name] = self.infer(item.initial, _Scope(), _Where(owner=name, state=False))

    def definition_kind(self, name: str) -> Kind:
        if name in self.definition_kinds:
            return self.definition_kinds[name]
        if name in self.in_progress:
            return ANY  # a cycle, reported by the dependency check
        self.in_progress.add(name)
        definition = self.definitions[name]
        kind = self.infer(definition.value, _Scope(), _Where(owner=name, state=True))
        self.in_progress.discard(name)
        self.definition_kinds[name] = kind
        return kind

    def function_kind(self, name: str) -> Kind:
        if name in self.function_kinds:
            return self.function_kinds[name]
        if name in self.in_progress:
            return ANY  # recursion: the kind is whatever the other branches say
        self.in_progress.add(name)
        function = self.functions[name]
        scope = _Scope()
        for param in function.params:
            self.bind_name(param, ANY, scope, function)
        where = _Where(owner=name, state=True, in_function=True)
        if isinstance(function.body, ast.Block):
            returns: list[Kind] = []
            self.check_block(function.body, scope, where, returns)
            if not _always_returns(function.body):
                self.error(function, f"function `{name}` can reach its end without a `return`")
            kind = returns[0] if returns else ANY
            for other in returns[1:]:
                kind = join(kind, other)
        else:
            kind = self.infer(function.body, scope, where)
        self.in_progress.discard(name)
        self.function_kinds[name] = kind
        return kind

    def check_specials(self) -> None:
        for name, (expected, what) in SPECIAL_DEFINITIONS.items():
            if name in self.functions and name not in self.definitions:
                self.error(self.functions[name], f"`{name}` must be a definition (`{name} = ...`), not a function")
            if name not in self.definitions:
                continue
            kind = self.definition_kind(name)
            if not fits(kind, expected):
                self.error(
                    self.definitions[name].value,
                    f"`{name}` must be {describe(expected)} ({what}), got {describe(kind)}",
                )
        for name, (arity, expected) in SPECIAL_FUNCTIONS.items():
            if name in self.definitions:
                self.error(self.definitions[name], f"`{name}` must be a function of the move: `def {name}(m) = ...`")
            function = self.functions.get(name)
            if function is None:
                continue
            if len(function.params) != arity:
                self.error(function, f"`{name}` takes {arity} argument (the move), not {len(function.params)}")
            kind = self.function_kind(name)
            if not fits(kind, expected):
                self.error(function, f"`{name}` must give {describe(expected)}, got {describe(kind)}")

    def check_result(self) -> None:
        if self.result is None:
            return
        scope = _Scope()
        # A move is one of the items of `moves` (or a chance outcome, whose kind is not known).
        move = element(self.definition_kind("moves")) if "moves" in self.definitions else ANY
        if "outcomes" in self.definitions:
            move = ANY
        self.bind_target(self.result.target, move, scope)
        self.check_block(self.result.body, scope, _Where(owner="result", state=True, in_result=True), [])

    # ---- statements
    def check_block(self, block: ast.Block, scope: _Scope, where: _Where, returns: list[Kind]) -> None:
        inner = _Scope(scope)
        for statement in block.statements:
            self.check_statement(statement, inner, where, returns)

    def check_statement(self, statement: ast.Statement, scope: _Scope, where: _Where, returns: list[Kind]) -> None:
        if isinstance(statement, ast.Let):
            kind = self.infer(statement.value, scope, where)
            self.bind_target(statement.target, kind, scope)
        elif isinstance(statement, ast.Assign):
            self.check_assign(statement, scope, where)
        elif isinstance(statement, ast.Return):
            kind = self.infer(statement.value, scope, where)
            if not where.in_function:
                self.error(statement, "`return` belongs in a function; the result block changes the state instead")
            returns.append(kind)
        elif isinstance(statement, ast.If):
            for condition, body in statement.branches:
                self.expect(condition, BOOL, scope, where, "an `if` condition")
                self.check_block(body, scope, where, returns)
            if statement.otherwise is not None:
                self.check_block(statement.otherwise, scope, where, returns)
        elif isinstance(statement, ast.For):
            kind = self.iterable(statement.iterable, scope, where)
            inner = _Scope(scope)
            self.bind_target(statement.target, kind, inner)
            self.check_block(statement.body, inner, where, returns)
        elif isinstance(statement, ast.While):
            self.expect(statement.condition, BOOL, scope, where, "a `while` condition")
            self.check_block(statement.body, scope, where, returns)

    def check_assign(self, statement: ast.Assign, scope: _Scope, where: _Where) -> None:
        place = statement.place
        value = self.infer(statement.value, scope, where)
        local = scope.lookup(place.name)
        if local is not None:
            kind = local
        elif place.name in self.fields:
            if not where.in_result:
                self.error(place, f"only the `result` block can change the state field `{place.name}`")
                return
            kind = self.field_kinds.get(place.name, ANY)
        else:
            self.error(place, self.not_assignable(place.name, scope))
            return
        for index in place.indexes:
            index_kind = self.infer(index, scope, where)
            kind = self.index_kind(kind, index_kind, index, place)
        if statement.op is not None:
            if statement.op == "+" and kind.name in ("string", "list", "tuple"):
                pass
            elif is_known(kind) and kind.name not in ("int", "number"):
                self.error(statement, f"`{statement.op}=` needs a number, but `{place.name}` holds {describe(kind)}")
                return
            self.expect_kind(statement.value, value, NUMBER if kind.name in ("int", "number") else kind, "the added value")
            return
        if is_known(kind) and not fits(value, kind) and not fits(kind, value):
            self.error(statement.value, f"`{place.name}` holds {describe(kind)}, but this is {describe(value)}")

    def not_assignable(self, name: str, scope: _Scope) -> str:
        if name in self.top:
            what = self.top[name][0]
            return f"`{name}` is a {what} and cannot be assigned; only state fields and `let` names can"
        candidates = list(self.fields) + list(scope.all_names())
        suggestion = self.suggest(name, candidates)
        if suggestion:
            return f"unknown name `{name}`{suggestion}"
        return f"`{name}` is neither a state field nor a local name: add it under `state:`, or make a local with `let {name} = ...`"

    # ---- names bound by let, for, comprehensions and parameters
    def bind_name(self, name: str, kind: Kind, scope: _Scope, node: ast.Node) -> None:
        if name.startswith("__"):
            self.error(node, _RESERVED.format(name=name))
        elif name in self.top or name in BUILTIN_SYMBOLS:
            what = self.top[name][0] if name in self.top else "built-in symbol"
            self.error(node, f"`{name}` is already a {what}; choose another name for this local")
        elif scope.lookup(name) is not None:
            self.error(node, f"`{name}` is already a local name here; choose another name")
        scope.names[name] = kind

    def bind_target(self, target: ast.Target, kind: Kind, scope: _Scope) -> None:
        if isinstance(target, ast.NameTarget):
            self.bind_name(target.id, kind, scope, target)
            return
        if kind.name == "tuple" and kind.args and len(kind.args) != len(target.items):
            self.error(target, f"this pattern has {len(target.items)} names, but the tuple has {len(kind.args)} items")
        elif is_known(kind) and kind.name not in ("tuple", "list"):
            self.error(target, f"a pattern `(a, b)` unpacks a tuple, but this is {describe(kind)}")
        for position, item in enumerate(target.items):
            if kind.name == "tuple" and len(kind.args) == len(target.items):
                item_kind = kind.args[position]
            elif kind.name == "list":
                item_kind = kind.args[0]
            else:
                item_kind = ANY
            self.bind_target(item, item_kind, scope)

    # ---- expressions
    def expect(self, expr: ast.Expr, expected: Kind, scope: _Scope, where: _Where, what: str) -> Kind:
        kind = self.infer(expr, scope, where)
        self.expect_kind(expr, kind, expected, what)
        return kind

    def expect_kind(self, node: ast.Node, kind: Kind, expected: Kind, what: str) -> None:
        if not fits(kind, expected):
            self.error(node, f"{what} must be {describe(expected)}, got {describe(kind)}")

    def iterable(self, expr: ast.Expr, scope: _Scope, where: _Where) -> Kind:
        kind = self.infer(expr, scope, where)
        if kind.name == "grid":
            self.error(expr, "a grid is not a list: loop over `cells(board)` for its cells, or `list(board)` for its contents")
            return ANY
        if is_known(kind) and kind.name not in ("list", "tuple", "map", "string"):
            self.error(expr, f"cannot loop over {describe(kind)}; a loop needs a list, tuple, map or string")
            return ANY
        return element(kind)

    def infer(self, expr: ast.Expr, scope: _Scope, where: _Where) -> Kind:
        kind = self.infer_uncached(expr, scope, where)
        self.kinds[id(expr)] = kind
        return kind

    def infer_uncached(self, expr: ast.Expr, scope: _Scope, where: _Where) -> Kind:
        if isinstance(expr, ast.Number):
            return INT if isinstance(expr.value, int) else NUMBER
        if isinstance(expr, ast.String):
            return STRING
        if isinstance(expr, ast.Boolean):
            return BOOL
        if isinstance(expr, ast.Name):
            return self.infer_name(expr, scope, where)
        if isinstance(expr, ast.TupleExpr):
            return tuple_of(tuple(self.infer(item, scope, where) for item in expr.items))
        if isinstance(expr, ast.ListExpr):
            return list_of(self.join_all(self.infer(item, scope, where) for item in expr.items))
        if isinstance(expr, ast.MapExpr):
            keys = self.join_all(self.infer(k, scope, where) for k, _ in expr.items)
            values = self.join_all(self.infer(v, scope, where) for _, v in expr.items)
            return map_of(keys, values)
        if isinstance(expr, ast.Comprehension):
            return self.infer_comprehension(expr, scope, where)
        if isinstance(expr, ast.Unary):
            return self.infer_unary(expr, scope, where)
        if isinstance(expr, ast.Binary):
            return self.infer_binary(expr, scope, where)
        if isinstance(expr, ast.Compare):
            return self.infer_compare(expr, scope, where)
        if isinstance(expr, ast.Conditional):
            self.expect(expr.condition, BOOL, scope, where, "an `if` condition")
            return join(self.infer(expr.then, scope, where), self.infer(expr.otherwise, scope, where))
        if isinstance(expr, ast.Index):
            target = self.infer(expr.target, scope, where)
            index = self.infer(expr.index, scope, where)
            return self.index_kind(target, index, expr.index, expr)
        if isinstance(expr, ast.Call):
            return self.infer_call(expr, scope, where)
        raise AssertionError(f"unknown expression {expr!r}")

    @staticmethod
    def join_all(kinds: Iterator[Kind]) -> Kind:
        result: Kind | None = None
        for kind in kinds:
            result = kind if result is None else join(result, kind)
        return result if result is not None else ANY

    def depend(self, where: _Where, name: str) -> None:
        if where.owner is not None:
            self.deps.setdefault(where.owner, set()).add(name)

    def infer_name(self, expr: ast.Name, scope: _Scope, where: _Where) -> Kind:
        name = expr.id
        local = scope.lookup(name)
        if local is not None:
            self.refers[id(expr)] = "local"
            return local
        if name in self.symbols:
            self.refers[id(expr)] = "symbol"
            return PLAYER if name in self.players else SYMBOL
        what = self.top.get(name, ("", None))[0]
        if what == "state field":
            self.refers[id(expr)] = "field"
            self.depend(where, _STATE)
            if not where.state:
                self.error(expr, f"`{name}` is a state field; it cannot be read here, before the game starts")
            return self.field_kinds.get(name, ANY)
        if what == "parameter":
            self.refers[id(expr)] = "param"
            self.depend(where, name)
            return self.param_kinds.get(name, ANY)
        if what == "definition":
            self.refers[id(expr)] = "definition"
            self.depend(where, name)
            if not where.state and where.owner in self.params:
                self.error(expr, f"a parameter's default can only use numbers, symbols and other parameters, not `{name}`")
            return self.definition_kind(name)
        if what == "function" or name in BUILTINS:
            self.error(expr, f"`{name}` is a function: call it, as in `{name}(...)`")
            return ANY
        candidates = list(self.top) + list(scope.all_names()) + list(BUILTIN_SYMBOLS)
        self.error(expr, f"unknown name `{name}`{self.suggest(name, candidates)}")
        return ANY

    def infer_comprehension(self, expr: ast.Comprehension, scope: _Scope, where: _Where) -> Kind:
        inner = _Scope(scope)
        for clause in expr.clauses:
            if isinstance(clause, ast.ForClause):
                item = self.iterable(clause.iterable, inner, where)
                inner = _Scope(inner)
                self.bind_target(clause.target, item, inner)
            else:
                self.expect(clause.condition, BOOL, inner, where, "a comprehension's `if` condition")
        value = self.infer(expr.element, inner, where)
        if expr.kind == "map":
            assert expr.key is not None
            return map_of(self.infer(expr.key, inner, where), value)
        return list_of(value)

    def infer_unary(self, expr: ast.Unary, scope: _Scope, where: _Where) -> Kind:
        if expr.op == "not":
            self.expect(expr.operand, BOOL, scope, where, "the operand of `not`")
            return BOOL
        kind = self.expect(expr.operand, NUMBER, scope, where, "the operand of `-`")
        return kind if kind.name in ("int", "number") else NUMBER

    def infer_binary(self, expr: ast.Binary, scope: _Scope, where: _Where) -> Kind:
        op = expr.op
        if op in ("and", "or"):
            self.expect(expr.left, BOOL, scope, where, f"each side of `{op}`")
            self.expect(expr.right, BOOL, scope, where, f"each side of `{op}`")
            return BOOL
        left = self.infer(expr.left, scope, where)
        right = self.infer(expr.right, scope, where)
        names = {left.name, right.name}
        numeric = {"int", "number"}
        if op == "+" and left.name == right.name and left.name in ("string", "list", "tuple"):
            return join(left, right) if left.name != "tuple" else TUPLE
        if op == "*" and left.name in ("string", "list") and right.name == "int":
            return left
        if not is_known(left) or not is_known(right):
            if names <= numeric | {"any"}:
                return INT if op in ("//", "%") and "number" not in names else (ANY if op != "/" else NUMBER)
            return ANY
        if names <= numeric:
            if op == "/" or "number" in names:
                return NUMBER
            return INT
        hint = "; `str(x)` turns a value into text" if op == "+" and "string" in names else ""
        self.error(expr, f"`{op}` cannot combine {describe(left)} and {describe(right)}{hint}")
        return ANY

    def infer_compare(self, expr: ast.Compare, scope: _Scope, where: _Where) -> Kind:
        left = self.infer(expr.first, scope, where)
        for op, right_expr in zip(expr.ops, expr.rest):
            right = self.infer(right_expr, scope, where)
            if op in ("==", "!="):
                if not comparable(left, right):
                    self.error(expr, f"comparing {describe(left)} with {describe(right)}: `{op}` would always be {'false' if op == '==' else 'true'}")
            elif op in ("in", "not in"):
                if is_known(right) and right.name not in ("list", "tuple", "map", "string"):
                    self.error(right_expr, f"`{op}` needs a list, tuple, map or string on its right, got {describe(right)}")
            else:
                ordered = {"int", "number"}
                both_known = is_known(left) and is_known(right)
                if both_known and not ({left.name, right.name} <= ordered or left.name == right.name == "string"):
                    self.error(expr, f"`{op}` compares numbers (or strings), not {describe(left)} and {describe(right)}")
            left = right
        return BOOL

    def index_kind(self, target: Kind, index: Kind, index_node: ast.Node, node: ast.Node) -> Kind:
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
        self.error(node, f"{describe(target)} cannot be indexed with [...]")
        return ANY

    def infer_call(self, expr: ast.Call, scope: _Scope, where: _Where) -> Kind:
        name = expr.function
        args = tuple(self.infer(arg, scope, where) for arg in expr.args)
        if name in self.functions:
            self.refers[id(expr)] = "function"
            self.depend(where, name)
            function = self.functions[name]
            if len(args) != len(function.params):
                self.error(expr, f"`{name}` takes {_count(len(function.params), 'argument')}, but {len(args)} {'was' if len(args) == 1 else 'were'} given")
            if not where.state and where.owner in self.params:
                self.error(expr, f"a parameter's default can only use numbers, symbols and other parameters, not `{name}`")
            return self.function_kind(name)
        if name in BUILTINS:
            self.refers[id(expr)] = "builtin"
            builtin = BUILTINS[name]
            if len(args) < builtin.min_args or (builtin.max_args is not None and len(args) > builtin.max_args):
                self.error(expr, f"`{name}` takes {_arity(builtin.min_args, builtin.max_args)}, but {len(args)} {'was' if len(args) == 1 else 'were'} given: {builtin.usage}")
                return ANY
            for position, (arg, expected) in enumerate(zip(args, builtin.args)):
                if not fits(arg, expected):
                    self.error(expr.args[position], f"argument {position + 1} of `{name}` must be {describe(expected)}, got {describe(arg)}: {builtin.usage}")
            return builtin.result(args)
        if name in self.top:
            self.error(expr, f"`{name}` is a {self.top[name][0]}, not a function")
            return ANY
        candidates = list(self.functions) + list(BUILTINS)
        self.error(expr, f"unknown function `{name}`{self.suggest(name, candidates)}")
        return ANY

    # ---- dependencies: what reads the state, and definitions made of themselves
    def dependencies(self) -> tuple[frozenset[str], tuple[str, ...]]:
        names = list(self.definitions) + list(self.functions)
        state_dependent: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name in names:
                if name in state_dependent:
                    continue
                if any(d == _STATE or d in state_dependent for d in self.deps.get(name, ())):
                    state_dependent.add(name)
                    changed = True
        order: list[str] = []
        visiting: list[str] = []
        done: set[str] = set()

        def visit(name: str) -> None:
            if name in done:
                return
            if name in visiting:
                cycle = visiting[visiting.index(name):] + [name]
                if any(n in self.definitions for n in cycle) and name in self.definitions:
                    node = self.definitions[name]
                    self.error(node, f"`{name}` is defined in terms of itself: {' -> '.join(cycle)}")
                return
            visiting.append(name)
            for dep in sorted(self.deps.get(name, ())):
                if dep in self.definitions or dep in self.functions:
                    visit(dep)
            visiting.pop()
            done.add(name)
            if name in self.definitions and name not in state_dependent:
                order.append(name)

        for name in self.definitions:
            visit(name)
        for name, item in self.fields.items():
            for dep in self.deps.get(name, ()):
                if dep in state_dependent:
                    self.error(item, f"the initial value of `{name}` reads the state (through `{dep}`); use constants and parameters")
        return frozenset(state_dependent), tuple(order)

    def check_tree(self) -> None:
        if self.tree is None:
            return
        parents: dict[str, ast.TreeRow] = {}
        children: dict[str, bool] = {}  # each child's name -> whether it was named automatically
        automatic = "a leaf without a name is called after its parent and position"
        for row in self.tree.rows:
            if row.parent in parents:
                self.error(row, f"node `{row.parent}` has two rows (first at line {parents[row.parent].line})")
            parents[row.parent] = row
            for position, child in enumerate(row.children, start=1):
                name = child.name if child.name is not None else f"{row.parent}{position}"
                if name in children:
                    if child.name is None or children[name]:
                        self.error(child, f"two nodes are called `{name}` ({automatic}); rename the other node")
                    else:
                        self.error(child, f"node `{name}` appears twice as a child; each node has one parent")
                children[name] = child.name is None
        for row in self.tree.rows:
            for position, child in enumerate(row.children, start=1):
                if child.value is None and child.name not in parents:
                    self.error(child, f"node `{child.name}` has no row of its own: give it children (`{child.name} -> ...`) or a value")
                elif child.value is not None:
                    name = child.name if child.name is not None else f"{row.parent}{position}"
                    if name in parents:
                        also = f" ({automatic})" if child.name is None else ""
                        self.error(child, f"node `{name}` is a leaf{also} but also has a row of its own; a node has children or a value, not both")
        roots = [name for name in parents if name not in children]
        if len(roots) != 1:
            self.error(self.tree, f"a tree needs exactly one root (a node that is nobody's child); found {len(roots)}: {', '.join(roots) or 'none'}")
            return
        reached, pending = set(roots), list(roots)
        while pending:
            row = parents.get(pending.pop())
            for child in row.children if row is not None else ():
                if child.name is not None and child.name not in reached:
                    reached.add(child.name)
                    pending.append(child.name)
        for name, row in parents.items():
            if name not in reached:
                self.error(row, f"node `{name}` cannot be reached from the root `{roots[0]}` (its rows form a cycle)")

    def run(self) -> CheckedGame:
        self.collect()
        self.require()
        params = self.check_params()
        self.check_fields()
        for name in self.definitions:
            self.definition_kind(name)
        for name in self.functions:
            self.function_kind(name)
        self.check_specials()
        self.check_result()
        self.check_tree()
        state_dependent, order = self.dependencies()
        if self.errors:
            raise GdlCheckError(self.errors)
        return CheckedGame(
            source=self.source, program=self.program, title=self.title or self.source.name,
            players=self.players, symbols=tuple(self.symbols), params=params,
            fields=tuple(self.fields.values()), definitions=self.definitions, functions=self.functions,
            result=self.result, tree=self.tree, state_dependent=state_dependent,
            constant_order=order, kinds=self.kinds, refers=self.refers,
        )


def _always_returns(block: ast.Block) -> bool:
    if not block.statements:
        return False
    last = block.statements[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If) and last.otherwise is not None:
        return all(_always_returns(body) for _, body in last.branches) and _always_returns(last.otherwise)
    return False


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" if n == 1 else f"{n} {noun}s"


def _arity(low: int, high: int | None) -> str:
    if high is None:
        return f"at least {_count(low, 'argument')}"
    if low == high:
        return _count(low, "argument")
    if high == low + 1:
        return f"{low} or {high} arguments"
    return f"{low} to {high} arguments"


def check(program: ast.Program, source: Source, overrides: Mapping[str, object] | None = None) -> CheckedGame:
    """Check a parsed program; raise GdlCheckError listing every mistake, or GdlParamError.

    `overrides` set parameters: Python values (`rows=5`) or expressions parsed from the command line.
    """
    return _Checker(program, source, overrides or {}).run()
