"""Translate a checked game into Python source, once, at load time.

Every definition becomes a Python function of the state (a tuple of field values), every
constant a value computed once. Names from the file are prefixed (`v_`, `d_`, `f_`, `p_`,
`s_`, `b_`) so that no name in a game file can reach anything but its own rules and the
built-ins of `interpreter.runtime`. Only values that are exactly `int`, `bool` or `str` are
written as literals (with `repr`); any other value (a fraction, a subclass from Python) enters
the code as data, through the constants table, never as text. The compiled code runs with an
empty `__builtins__`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any

from gdl import ast
from gdl.errors import GdlError
from gdl.model import CheckedGame
from gdl.kinds import Kind


@dataclass
class Compiled:
    """Generated Python source, and the source position each generated line came from.

    `hoisted` names the load-time values (`_h0`, ...) the rules use; each is computed by the
    zero-argument function `_hoist_h0` after the parameters and constants.
    """

    source: str
    positions: dict[int, tuple[int, int]]
    constants: dict[str, Any] = field(default_factory=dict)
    hoisted: tuple[str, ...] = ()


class _Writer:
    """Collects generated lines, remembering which game-file position each one stands for."""

    def __init__(self) -> None:
        self.lines: list[str] = []
        self.positions: dict[int, tuple[int, int]] = {}
        self.depth = 0

    def emit(self, text: str, node: ast.Node | None = None) -> None:
        self.lines.append("    " * self.depth + text)
        if node is not None:
            self.positions[len(self.lines)] = (node.line, node.column)

    def indent(self) -> None:
        self.depth += 1

    def dedent(self) -> None:
        self.depth -= 1


# Built-ins whose value, for constant arguments, is worth computing once at load time.
_HOISTABLE = frozenset({
    "cells", "rows", "columns", "diagonals", "windows", "directions", "range", "dihedral",
    "mirror", "product", "other", "next",
})


# What the compiler writes into the code from the tree besides literals: names (checked
# against the grammar's NAME) and operators (checked against the grammar's).
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NAME_FIELDS = frozenset({"id", "function", "name", "params", "names", "parent"})
_OPERATORS: dict[tuple[type, str], frozenset[str | None]] = {
    (ast.Unary, "op"): frozenset({"-", "not"}),
    (ast.Binary, "op"): frozenset({"+", "-", "*", "/", "//", "%", "**", "and", "or"}),
    (ast.Assign, "op"): frozenset({"+", "-", "*", None}),
    (ast.Compare, "ops"): frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in"}),
    (ast.Comprehension, "kind"): frozenset({"list", "map", "generator"}),
}

# Operators whose chains `a + b - c` Python reads from the left as the file does: written
# without inner brackets, so a long chain does not meet Python's limit on nested brackets.
_CHAINS = {"+": "sum", "-": "sum", "*": "product", "//": "product", "%": "product", "and": "and", "or": "or"}
_NUMERIC = frozenset({"int", "number"})


def _checked_text(game: CheckedGame) -> None:
    """Refuse a tree whose names or operators are not the grammar's (a tree made by hand in
    Python): they are written into the code as text."""
    roots: list[ast.Node] = [game.program, *game.params.values()]
    for node in (n for root in roots for n in ast.walk(root)):
        for name in node.__dataclass_fields__:
            value = getattr(node, name)
            texts = value if isinstance(value, tuple) else (value,)
            if name in _NAME_FIELDS:
                bad = [t for t in texts if type(t) is not str or not _NAME.fullmatch(t)]
            elif (type(node), name) in _OPERATORS:
                bad = [t for t in texts if not (t is None or type(t) is str) or t not in _OPERATORS[type(node), name]]
            else:
                continue
            if bad:
                raise game.source.error(GdlError, f"{bad[0]!r} is not a name or operator of the language", node.line, node.column)


class _Compiler:
    def __init__(self, game: CheckedGame) -> None:
        self.game = game
        self.writer = _Writer()
        self.field_positions = {f.name: i for i, f in enumerate(game.fields)}
        self.constants: dict[str, Any] = {}
        self.hoisted: list[tuple[str, ast.Expr]] = []
        self.in_result = False
        self.hoisting = True
        self.grid_fields: set[str] = set()
        self.cached: set[str] = set()  # definitions whose last answer is remembered
        self.hoistable: dict[int, bool] = {}
        self.counter = 0

    # ---- names
    def constant(self, value: Any) -> str:
        """A name for a value that is not written as a literal: it is data, not text."""
        name = f"_k{len(self.constants)}"
        self.constants[name] = value
        return name

    def fresh(self, stem: str) -> str:
        self.counter += 1
        return f"_{stem}{self.counter}"

    def uses_state(self, name: str) -> bool:
        return name in self.game.state_dependent

    # ---- hoisting: constant parts of state-dependent rules are computed once, at load
    def is_constant(self, node: ast.Expr) -> bool:
        if isinstance(node, (ast.Number, ast.String, ast.Boolean)):
            return True
        if isinstance(node, ast.Name):
            refers = self.game.refers[id(node)]
            return refers in ("symbol", "param") or (refers == "definition" and not self.uses_state(node.id))
        return self.is_hoistable(node)

    def is_hoistable(self, node: ast.Expr) -> bool:
        # Asked again of each operand of a long chain `a + b + c`: remembered per node.
        found = self.hoistable.get(id(node))
        if found is None:
            found = self.hoistable[id(node)] = self.is_hoistable_now(node)
        return found

    def is_hoistable_now(self, node: ast.Expr) -> bool:
        if isinstance(node, ast.Call):
            return (
                self.game.refers.get(id(node)) == "builtin"
                and node.function in _HOISTABLE
                and all(self.is_constant(arg) for arg in node.args)
            )
        if isinstance(node, (ast.TupleExpr, ast.ListExpr)):
            return all(self.is_constant(i) for i in node.items) and any(self.is_hoistable(i) for i in node.items)
        if isinstance(node, ast.Binary) and node.op == "+":
            return self.is_constant(node.left) and self.is_constant(node.right) and (
                self.is_hoistable(node.left) or self.is_hoistable(node.right)
            )
        return False

    # ---- expressions
    def expr(self, node: ast.Expr) -> str:
        if self.hoists(node):
            name = f"_h{len(self.hoisted)}"
            self.hoisted.append((name, node))
            return name
        method = getattr(self, "expr_" + type(node).__name__)
        return method(node)

    def literal(self, value: Any) -> str:
        """A literal value in the code: `repr` for exactly an int, bool or str (whose `repr` is
        Python's own), the constants table for anything else."""
        if type(value) in (int, bool, str):
            return repr(value)
        return self.constant(value)

    def expr_Number(self, node: ast.Number | ast.String | ast.Boolean) -> str:
        return self.literal(node.value)

    expr_String = expr_Number
    expr_Boolean = expr_Number

    def expr_Name(self, node: ast.Name) -> str:
        refers = self.game.refers[id(node)]
        name = node.id
        if refers == "local":
            return "v_" + name
        if refers == "symbol":
            return "s_" + name
        if refers == "param":
            return "p_" + name
        if refers == "field":
            if self.in_result:
                return "v_" + name
            if name in self.grid_fields:
                return f"_g{self.field_positions[name]}"
            return f"S[{self.field_positions[name]}]"
        if refers == "definition":
            if not self.uses_state(name):
                return "d_" + name
            if self.in_result and name in self.cached:
                # A state made inside result is seen once: keep the remembered answer for S.
                return f"_uncached_{name}({self.state_now()})"
            return f"d_{name}({self.state_now()})"
        raise AssertionError(refers)

    def expr_TupleExpr(self, node: ast.TupleExpr | ast.ListExpr) -> str:
        items = [self.expr(item) for item in node.items]
        if len(items) == 1:
            return f"({items[0]},)"
        return "(" + ", ".join(items) + ")"

    expr_ListExpr = expr_TupleExpr

    def expr_MapExpr(self, node: ast.MapExpr) -> str:
        items = ", ".join(f"{self.expr(k)}: {self.expr(v)}" for k, v in node.items)
        return "_Map({" + items + "})"

    def clauses(self, node: ast.Comprehension) -> str:
        parts = []
        for clause in node.clauses:
            if isinstance(clause, ast.ForClause):
                parts.append(f"for {self.target(clause.target)} in {self.expr(clause.iterable)}")
            else:
                parts.append(f"if {self.expr(clause.condition)}")
        return " ".join(parts)

    def expr_Comprehension(self, node: ast.Comprehension) -> str:
        element = self.expr(node.element)
        if node.kind == "map":
            assert node.key is not None
            return f"_Map({{{self.expr(node.key)}: {element} {self.clauses(node)}}})"
        if node.kind == "generator":
            return f"({element} {self.clauses(node)})"
        return f"_tuple([{element} {self.clauses(node)}])"

    def expr_Unary(self, node: ast.Unary) -> str:
        operand = self.expr(node.operand)
        return f"(not {operand})" if node.op == "not" else f"(-{operand})"

    def expr_Binary(self, node: ast.Binary) -> str:
        if node.op in ("/", "**"):
            helper = "_divide" if node.op == "/" else "_power"
            return f"{helper}({self.expr(node.left)}, {self.expr(node.right)})"
        if node.op == "+" and self.may_grow(node):
            # Strings, lists and tuples joined by a chain of `+`: one call that bounds the size.
            parts = self.left_chain(node, lambda n: n.op == "+" and self.may_grow(n))
            return "_concat(" + ", ".join(parts) + ")"
        if node.op == "*" and self.may_grow(node):
            return f"_repeat({self.expr(node.left)}, {self.expr(node.right)})"
        group = _CHAINS[node.op]
        parts = self.left_chain(node, lambda n: _CHAINS.get(n.op) == group and not self.may_grow(n))
        return "(" + "".join(parts) + ")"

    def may_grow(self, node: ast.Binary) -> bool:
        """Whether `+` or `*` may build a string or list (bounded by `_concat`, `_repeat`), as
        far as the checker knows the kinds: not `+` with a number on either side (a number
        joins nothing), nor `*` of two numbers."""
        return may_grow(node.op, self.game.kind_of(node.left), self.game.kind_of(node.right))

    def left_chain(self, node: ast.Binary, joins: Any) -> list[str]:
        """The operands of the chain `a + b + c` that ends at `node`, as code: the binary nodes
        down the left side for which `joins` holds are one chain (without recursion). For
        `_concat` the parts are the operands; otherwise operators and operands in turn."""
        spine = [node]
        while isinstance(spine[-1].left, ast.Binary) and joins(spine[-1].left) and not self.hoists(spine[-1].left):
            spine.append(spine[-1].left)
        concat = node.op == "+" and self.may_grow(node)
        parts = [self.expr(spine[-1].left)]
        for link in reversed(spine):
            parts.append(self.expr(link.right) if concat else f" {link.op} {self.expr(link.right)}")
        return parts

    def hoists(self, node: ast.Expr) -> bool:
        """Whether `expr(node)` names a value computed once at load."""
        return self.hoisting and self.is_hoistable(node)

    def expr_Compare(self, node: ast.Compare) -> str:
        if (
            len(node.ops) == 1 and node.ops[0] in ("==", "!=") and _is_empty_list(node.rest[0])
            and self.game.kind_of(node.first).name in ("list", "tuple")
        ):
            return f"({'not ' if node.ops[0] == '==' else ''}{self.expr(node.first)})"
        parts = [self.expr(node.first)]
        left_kind = self.game.kind_of(node.first)
        for op, right in zip(node.ops, node.rest):
            right_kind = self.game.kind_of(right)
            if op in ("==", "!=") and _symbolic(left_kind) and _symbolic(right_kind):
                op = "is" if op == "==" else "is not"  # symbols are interned
            parts.append(op)
            parts.append(self.expr(right))
            left_kind = right_kind
        return "(" + " ".join(parts) + ")"

    def expr_Conditional(self, node: ast.Conditional) -> str:
        # `a if c else b if d else e`: Python reads an `else` chain as the file does, so the
        # chain is written without inner brackets (and without recursion).
        parts = []
        current: ast.Expr = node
        while isinstance(current, ast.Conditional):
            parts.append(f"{self.expr(current.then)} if {self.expr(current.condition)} else ")
            current = current.otherwise
        return "(" + "".join(parts) + self.expr(current) + ")"

    def expr_Index(self, node: ast.Index) -> str:
        target_kind = self.game.kind_of(node.target).name
        target = self.expr(node.target)
        index = self.expr(node.index)
        if target_kind == "grid":
            if target.startswith("_g") and target[2:].isdigit():
                return f"{target}[_i{target[2:]}[{index}]]"
            if _is_simple(target):
                return f"{target}[{target}.index[{index}]]"
            return f"_index({target}, {index})"
        if target_kind in ("list", "tuple", "map", "string"):
            return f"{target}[{index}]"
        return f"_index({target}, {index})"

    def expr_Call(self, node: ast.Call) -> str:
        args = [self.expr(arg) for arg in node.args]
        if self.game.refers[id(node)] == "function":
            if self.uses_state(node.function):
                args.insert(0, self.state_now())
            return f"f_{node.function}({', '.join(args)})"
        return f"b_{node.function}({', '.join(args)})"

    def state_now(self) -> str:
        """The state a rule reads: inside `result`, the fields as assigned so far."""
        if not self.in_result:
            return "S"
        return "_new_state(State, (" + "".join(f"v_{f.name}, " for f in self.game.fields) + "))"

    def target(self, target: ast.Target) -> str:
        if isinstance(target, ast.NameTarget):
            return "v_" + target.id
        return "(" + ", ".join(self.target(t) for t in target.items) + ",)"

    # ---- statements
    def block(self, block: ast.Block) -> None:
        for statement in block.statements:
            self.statement(statement)

    def statement(self, node: ast.Statement) -> None:
        w = self.writer
        if isinstance(node, ast.Let):
            w.emit(f"{self.target(node.target)} = {self.expr(node.value)}", node)
        elif isinstance(node, ast.Assign):
            w.emit(self.assignment(node), node)
        elif isinstance(node, ast.Return):
            self.emit_return(node.value)
        elif isinstance(node, ast.If):
            for number, (condition, body) in enumerate(node.branches):
                keyword = "if" if number == 0 else "elif"
                w.emit(f"{keyword} {self.expr(condition)}:", condition)
                self.nested(body)
            if node.otherwise is not None:
                w.emit("else:")
                self.nested(node.otherwise)
        elif isinstance(node, ast.For):
            w.emit(f"for {self.target(node.target)} in {self.expr(node.iterable)}:", node)
            self.nested(node.body)
        elif isinstance(node, ast.While):
            counter = self.fresh("loop")
            w.emit(f"{counter} = 0")
            w.emit(f"while {self.expr(node.condition)}:", node)
            w.indent()
            w.emit(f"{counter} += 1")
            w.emit(f"if {counter} > _LOOP_LIMIT: _loop_limit()", node)
            w.dedent()
            self.nested(node.body)

    # ---- quantifiers in return position become loops that return early
    def generator_call(self, node: ast.Expr, functions: tuple[str, ...]) -> tuple[str, ast.Comprehension] | None:
        """(the built-in, its generator) when node calls one of `functions` on a generator."""
        if (
            isinstance(node, ast.Call)
            and node.function in functions
            and self.game.refers.get(id(node)) == "builtin"
            and len(node.args) == 1
            and isinstance(node.args[0], ast.Comprehension)
            and node.args[0].kind == "generator"
        ):
            return node.function, node.args[0]
        return None

    def quantifier(self, node: ast.Expr) -> tuple[str, ast.Comprehension] | None:
        """(`any` or `all`, its generator) when node is such a call."""
        return self.generator_call(node, ("any", "all"))

    def has_quantifier(self, node: ast.Expr) -> bool:
        if self.quantifier(node) is not None:
            return True
        if isinstance(node, ast.Binary) and node.op in ("and", "or"):
            return self.has_quantifier(node.left) or self.has_quantifier(node.right)
        if isinstance(node, ast.Unary) and node.op == "not":
            return self.has_quantifier(node.operand)
        return False

    def emit_return(self, node: ast.Expr) -> None:
        """`return EXPR`; a boolean made of any/all, and, or, not is unrolled into loops, which
        return as soon as the answer is known, without making generators."""
        if self.has_quantifier(node):
            self.emit_when(node, True, "return True")
            self.writer.emit("return False", node)
        elif self.tally(node) is not None:
            self.emit_tally(node)
        else:
            self.writer.emit(f"return {self.expr(node)}", node)

    # ---- count(...) and sum(...) in return position become counting loops
    def tally(self, node: ast.Expr) -> ast.Comprehension | None:
        """The generator of `count(g)` or `sum(g)`, when node is such a call."""
        found = self.generator_call(node, ("count", "sum"))
        return None if found is None else found[1]

    def emit_tally(self, node: ast.Expr) -> None:
        """`return count(E for ...)` / `sum(...)` as a loop that adds up, without generators."""
        generator = self.tally(node)
        assert isinstance(node, ast.Call) and generator is not None
        total = self.fresh("total")
        self.writer.emit(f"{total} = 0", node)
        step = "1" if node.function == "count" else None
        self.emit_clauses(list(generator.clauses), generator, total, step)
        self.writer.emit(f"return {total}", node)

    def emit_clauses(self, clauses: list[ast.ForClause | ast.IfClause], generator: ast.Comprehension, total: str, step: str | None) -> None:
        w = self.writer
        if not clauses:
            w.emit(f"{total} += {step if step is not None else self.expr(generator.element)}", generator.element)
            return
        clause, rest = clauses[0], clauses[1:]
        if isinstance(clause, ast.ForClause):
            w.emit(f"for {self.target(clause.target)} in {self.expr(clause.iterable)}:", clause)
        else:
            found = self.quantifier(clause.condition)
            single = found is not None and len(found[1].clauses) == 1 and found[0] == "all"
            if not single:
                w.emit(f"if {self.expr(clause.condition)}:", clause)
            else:
                # all(...) holds when its loop ends without a break: the rest goes in `else`.
                assert found is not None
                inner = found[1]
                loop = inner.clauses[0]
                assert isinstance(loop, ast.ForClause)
                w.emit(f"for {self.target(loop.target)} in {self.expr(loop.iterable)}:", loop)
                w.indent()
                w.emit(f"if not {self.expr(inner.element)}: break", inner.element)
                w.dedent()
                w.emit("else:")
        w.indent()
        self.emit_clauses(rest, generator, total, step)
        w.dedent()

    def open_loops(self, generator: ast.Comprehension) -> int:
        """Emit the generator's for/if clauses as nested statements; return how many levels."""
        for clause in generator.clauses:
            if isinstance(clause, ast.ForClause):
                self.writer.emit(f"for {self.target(clause.target)} in {self.expr(clause.iterable)}:", clause)
            else:
                self.writer.emit(f"if {self.expr(clause.condition)}:", clause)
            self.writer.indent()
        return len(generator.clauses)

    def emit_when(self, node: ast.Expr, want: bool, action: str) -> None:
        """Emit statements that run `action` (a return) exactly when bool(node) == want."""
        w = self.writer
        found = self.quantifier(node)
        if isinstance(node, ast.Unary) and node.op == "not":
            self.emit_when(node.operand, not want, action)
        elif isinstance(node, ast.Binary) and node.op == ("or" if want else "and"):
            self.emit_when(node.left, want, action)
            self.emit_when(node.right, want, action)
        elif found is not None and (found[0] == "any") == want:
            # any(...) is true / all(...) is false as soon as one item says so.
            levels = self.open_loops(found[1])
            self.emit_when(found[1].element, want, action)
            for _ in range(levels):
                w.dedent()
        elif found is not None and sum(isinstance(c, ast.ForClause) for c in found[1].clauses) == 1:
            # all(...) is true / any(...) is false when the loop ends without a break.
            levels = self.open_loops(found[1])
            test = self.expr(found[1].element)
            w.emit(f"if {'not ' if found[0] == 'all' else ''}{test}: break", found[1].element)
            for _ in range(levels):
                w.dedent()
            w.emit("else:")
            w.indent()
            w.emit(action)
            w.dedent()
        else:
            test = self.expr(node)
            w.emit(f"if {test}: {action}" if want else f"if not {test}: {action}", node)

    def nested(self, block: ast.Block) -> None:
        self.writer.indent()
        self.block(block)
        self.writer.dedent()

    def assignment(self, node: ast.Assign) -> str:
        place = node.place
        name = "v_" + place.name
        value = self.expr(node.value)
        grows = node.op is not None and may_grow(node.op, self.game.kind_of(place), self.game.kind_of(node.value))
        if not place.indexes:
            if node.op is not None:
                return f"{name} = {self.combine(name, node.op, value, grows)}"
            return f"{name} = {value}"
        # Rebuild from the innermost cell outwards: containers are immutable.
        holders = [name]
        indexes = [self.expr(i) for i in place.indexes]
        for index in indexes[:-1]:
            holders.append(f"_index({holders[-1]}, {index})")
        if node.op is not None:
            value = self.combine(f"_index({holders[-1]}, {indexes[-1]})", node.op, value, grows)
        for holder, index in zip(reversed(holders), reversed(indexes)):
            value = f"_put({holder}, {index}, {value})"
        return f"{name} = {value}"

    @staticmethod
    def combine(current: str, op: str, value: str, grows: bool) -> str:
        """`current op value` for `op=`; `+=` and `*=` on what may be a string or list are
        bounded like `+` and `*`."""
        if grows:
            return f"{'_concat' if op == '+' else '_repeat'}({current}, {value})"
        return f"({current} {op} {value})"

    # ---- declarations
    def state_prologue(self, body: ast.Node) -> None:
        """Bind each grid field the body reads, and its cell index, to locals once per call."""
        self.grid_fields = set()
        for node in ast.walk(body):
            if isinstance(node, ast.Name) and self.game.refers.get(id(node)) == "field":
                if self.game.kind_of(node).name == "grid":
                    self.grid_fields.add(node.id)
        for name in sorted(self.grid_fields):
            position = self.field_positions[name]
            self.writer.emit(f"_g{position} = S[{position}]; _i{position} = _g{position}.index")

    def compile(self) -> Compiled:
        w = self.writer
        game = self.game
        _checked_text(game)
        referenced = {n.id for n in ast.walk(game.program) if isinstance(n, ast.Name) and game.refers.get(id(n)) == "definition"}
        self.cached = referenced
        for name, definition in game.definitions.items():
            if not self.uses_state(name):
                continue
            if name in referenced:
                # Rules that read a definition (terminal reading moves) often ask about the
                # state just asked about: remember the last answer.
                w.emit(f"_last_{name} = (None, None)")
                w.emit(f"def d_{name}(S):")
                w.indent()
                w.emit(f"global _last_{name}")
                w.emit(f"if _last_{name}[0] is S: return _last_{name}[1]")
                w.emit(f"_last_{name} = (S, _uncached_{name}(S))")
                w.emit(f"return _last_{name}[1]")
                w.dedent()
                # `_uncached_` (no `d_`): no name from the file can become it.
                w.emit(f"def _uncached_{name}(S):")
            else:
                w.emit(f"def d_{name}(S):")
            w.indent()
            self.state_prologue(definition.value)
            self.emit_return(definition.value)
            w.dedent()
        for name, function in game.functions.items():
            params = ["v_" + p for p in function.params]
            if self.uses_state(name):
                params.insert(0, "S")
            w.emit(f"def f_{name}({', '.join(params)}):", function)
            w.indent()
            # A function that does not read the state may be called while the constants are
            # computed, before any hoisted value exists: only state-reading ones hoist.
            self.hoisting = self.uses_state(name)
            if self.uses_state(name):
                self.state_prologue(function.body)
            if isinstance(function.body, ast.Block):
                self.block(function.body)
            else:
                self.emit_return(function.body)
            w.dedent()
        self.hoisting = True
        self.grid_fields = set()
        if game.result is not None:
            self.compile_result(game.result)
        for name, expr in game.params.items():
            self.expression_function(f"_param_{name}", expr)
        for name in game.constant_order:
            self.expression_function(f"_constant_{name}", game.definitions[name].value)
        for item in game.fields:
            self.expression_function(f"_initial_{item.name}", item.initial)
        hoisted = list(self.hoisted)
        for name, node in hoisted:
            self.expression_function(f"_hoist{name}", node)
        return Compiled("\n".join(w.lines) + "\n", w.positions, self.constants, tuple(n for n, _ in hoisted))

    def compile_result(self, result: ast.Result) -> None:
        w = self.writer
        fields = ", ".join("v_" + f.name for f in self.game.fields)
        w.emit("def result(S, _move):", result)
        w.indent()
        w.emit(f"{fields}, = S")
        w.emit(f"{self.target(result.target)} = _move", result.target)
        self.in_result = True
        self.block(result.body)
        self.in_result = False
        w.emit(f"return _new_state(State, ({fields},))")
        w.dedent()

    def expression_function(self, name: str, node: ast.Expr) -> None:
        """`def NAME(): return EXPR` for a constant, computed at load in dependency order."""
        w = self.writer
        w.emit(f"def {name}():")
        w.indent()
        self.hoisting = False
        method = getattr(self, "expr_" + type(node).__name__)
        w.emit(f"return {method(node)}", node)
        self.hoisting = True
        w.dedent()


def may_grow(op: str, left: Kind, right: Kind) -> bool:
    """Whether `left op right` may build a string, list or tuple, for operands of these kinds."""
    if op == "+":
        return left.name not in _NUMERIC and right.name not in _NUMERIC
    return op == "*" and not (left.name in _NUMERIC and right.name in _NUMERIC)


def _is_empty_list(node: ast.Expr) -> bool:
    return isinstance(node, (ast.ListExpr, ast.TupleExpr)) and not node.items


def _symbolic(kind: Kind) -> bool:
    return kind.name in ("symbol", "player")


def _is_simple(code: str) -> bool:
    return code.replace("_", "a").replace("[", "").replace("]", "").isalnum()


def compile_game(game: CheckedGame) -> Compiled:
    """Python source for the game: a function for every state-dependent definition, every
    function and the result block, and a zero-argument function for each parameter, constant
    and initial field value, which the interpreter calls once, in dependency order."""
    return _Compiler(game).compile()
