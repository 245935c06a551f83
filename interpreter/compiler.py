"""Translate a checked game's model into Python source, once, at load time.

The source comes in two parts. The first computes what does not depend on the state: the
parameters, the constants, the initial values and the constant parts of the rules (see
`interpreter.passes`). The second, written once those values are known, is the rules: a
function of the state (a tuple of field values) for every definition and function that reads
it, and `result`. Between the two, the passes rewrite the rules' model with what the values
tell (`interpreter.lowering`: cells as flat positions on boards of known size).

Names from the file are prefixed (`v_`, `d_`, `f_`, `p_`, `s_`, `b_`) so that no name in a game
file can reach anything but its own rules and the functions of `interpreter.runtime`. Only
values that are exactly `int`, `bool` or `str` are written as literals (with `repr`); any other
value (a fraction, a subclass from Python) enters the code as data, through the constants
table, never as text. The compiled code runs with an empty `__builtins__`.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any, Callable, Iterator

from gdl import ast, model
from gdl.errors import GdlError
from gdl.kinds import Kind
from interpreter.lowered import Computed, Hoisted, Loaded, Position
from interpreter.passes import Passes
from interpreter.unrolling import Unroller
from interpreter.writer import Writer, marked, unmarked

# What the compiler writes into the code from the tree besides literals: names (checked
# against the grammar's NAME) and operators (checked against the grammar's).
_NAME = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
_NAME_FIELDS = frozenset({"id", "function", "name", "params", "names", "parent"})
_OPERATORS: dict[tuple[type, str], frozenset[str | None]] = {
    (ast.Unary, "op"): frozenset({"-", "not"}),
    (ast.Binary, "op"): frozenset({"+", "-", "*", "/", "//", "%", "**", "and", "or"}),
    (ast.Assign, "op"): frozenset({"+", "-", "*", None}),
    (ast.Compare, "ops"): frozenset({"==", "!=", "<", "<=", ">", ">=", "in", "not in"}),
    (ast.Comprehension, "kind"): frozenset({"list", "map", "set", "generator"}),
}

# Operators whose chains `a + b - c` Python reads from the left as the file does: written
# without inner brackets, so a long chain does not meet Python's limit on nested brackets.
_CHAINS = {"+": "sum", "-": "sum", "*": "product", "//": "product", "%": "product", "and": "and", "or": "or"}
_NUMERIC = frozenset({"int", "number"})


def checked_text(game: model.CheckedGame) -> None:
    """Refuse a tree whose names or operators are not the grammar's (a tree made by hand in
    Python): they are written into the code as text."""
    roots: list[ast.Node] = [game.program, *(p.source for p in game.params.values())]
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


@dataclass
class RuleNeeds:
    """What the rule being written turned out to need above its body, and where it is."""

    fields: set[int] = field(default_factory=set)          # fields read, by position
    indexes: set[int] = field(default_factory=set)         # grid fields whose cell table is used
    hoisted: dict[str, str] = field(default_factory=dict)  # code of a hoisted call -> its name
    in_result: bool = False
    remember: str | None = None                            # the global keeping its last answer
    assigned: set[str] = field(default_factory=set)        # in result: fields assigned so far
    inline: bool = False                                   # remembered definitions computed in place
    globals: set[str] = field(default_factory=set)         # the `_last_` globals it assigns so
    in_comprehension: int = 0                              # comprehensions (Python scopes) it is in


class Emitter:
    """Writes Python for the nodes of a game's model (and those the passes put into it)."""

    def __init__(self, game: model.CheckedGame, passes: Passes) -> None:
        self.game = game
        self.passes = passes
        self.writer = Writer()
        self.constants: dict[str, Any] = {}
        self.counter = 0
        self.function = RuleNeeds()
        self.afters: list[tuple[str, model.After]] = []
        self.field_reads: Callable[[model.Node], frozenset[str]] = lambda node: frozenset()
        self.remembered: set[str] = set()
        """The definitions whose last state and answer are kept (in `_last_NAME`)."""
        self.inlinable: dict[str, model.Expr] = {}
        """The remembered definitions a rule may compute in place, with their bodies."""
        self.boards: dict[model.Field, tuple[str, str]] = {}
        """The grid fields whose size never changes: the names of their class and cell table."""
        self.unroller = Unroller(self)

    # ---- names
    def constant(self, value: Any) -> str:
        """A name for a value that is not written as a literal: it is data, not text."""
        name = f"_k{len(self.constants)}"
        self.constants[name] = value
        return name

    def fresh(self, stem: str) -> str:
        """A name of the generated code no file can use (file names never start with `_`)."""
        self.counter += 1
        return f"_{stem}{self.counter}"

    def literal(self, value: Any) -> str:
        """A literal value in the code: `repr` for exactly an int, bool or str (whose `repr` is
        Python's own), the constants table for anything else."""
        if type(value) in (int, bool, str):
            return repr(value)
        return self.constant(value)

    # ---- expressions
    def expr(self, node: model.Expr) -> str:
        """The Python expression for `node`, marked with its position in the file (the writer
        keeps where it lies in its line, for the errors of a rule that fails there)."""
        method: Callable[[Any], str] = getattr(self, "_expr_" + type(node).__name__)
        return marked(method(node), node)

    def _expr_Constant(self, node: model.Constant) -> str:
        return self.literal(node.value)

    def _expr_SymbolRef(self, node: model.SymbolRef) -> str:
        return "s_" + node.name

    def _expr_ParamRef(self, node: model.ParamRef) -> str:
        return "p_" + node.param.name

    def _expr_LocalRef(self, node: model.LocalRef) -> str:
        return "v_" + node.local.name

    def _expr_Loaded(self, node: Loaded) -> str:
        return node.name

    def _expr_Computed(self, node: Computed) -> str:
        return node.name

    def _expr_Hoisted(self, node: Hoisted) -> str:
        code, _ = unmarked(self.expr(node.value))  # the same call, wherever it stands, computed once
        return self.function.hoisted.setdefault(code, self.fresh("h"))

    def _expr_FieldRef(self, node: model.FieldRef) -> str:
        item = node.field
        if self.function.in_result:
            return "v_" + item.name
        self.function.fields.add(item.position)
        return f"_s{item.position}"

    def _expr_DefinitionRef(self, node: model.DefinitionRef) -> str:
        name = node.definition.name
        if not node.definition.reads_state:
            return "d_" + name
        return self.definition_value(name, self.state_for(node.definition.value))

    def definition_value(self, name: str, state: str) -> str:
        """The value of the definition `name` (one that reads the state) for `state`: for S,
        the answer kept for it when there is one, without a call."""
        if name in self.remembered and state == "S":
            body = self.inlinable.get(name) if self.function.inline and not self.function.in_comprehension else None
            if body is not None:  # computed in place and kept, without a call (see `Passes`)
                self.function.globals.add(f"_last_{name}")
                return f"(_last_{name}[1] if _last_{name}[0] is S else (_last_{name} := (S, {self.expr(body)}))[1])"
            return f"(_last_{name}[1] if _last_{name}[0] is S else d_{name}(S))"
        return f"d_{name}({state})"

    def _expr_FunctionCall(self, node: model.FunctionCall) -> str:
        args = [self.expr(arg) for arg in node.args]
        if node.function.reads_state:
            args.insert(0, self.state_for(node.function.body))
        return f"f_{node.function.name}({', '.join(args)})"

    def _expr_BuiltinCall(self, node: model.BuiltinCall) -> str:
        args = [self.expr(arg) for arg in node.args]
        prints = node.builtin.prints
        printed = None if prints is None else prints(tuple(arg.kind for arg in node.args))
        if printed is not None and _holds_a_list(printed):  # else it prints the same without
            args.append(self.constant(printed))
        return f"b_{node.builtin.name}({', '.join(args)})"

    def _expr_After(self, node: model.After) -> str:
        name = self.fresh("after")
        self.afters.append((name, node))
        args = "".join(f", v_{local.name}" for local in ordered(node.body.locals_used))
        return f"{name}(_successor({self.state_for(None)}, {self.expr(node.move)}){args})"

    def state_for(self, rule: model.Node | None) -> str:
        """The state a rule reads (`rule` is its body, None for all fields): inside `result`,
        the fields as assigned so far, made into a state only when the rule reads a field
        already assigned."""
        if not self.function.in_result:
            return "S"
        if self.passes.result_helpers and rule is not None and not (self.field_reads(rule) & self.function.assigned):
            return "S"
        return "State((" + "".join(f"v_{f.name}, " for f in self.game.fields) + "))"

    def _expr_TupleExpr(self, node: model.TupleExpr | model.ListExpr) -> str:
        items = [self.expr(item) for item in node.items]
        if len(items) == 1:
            return f"({items[0]},)"
        return "(" + ", ".join(items) + ")"

    _expr_ListExpr = _expr_TupleExpr

    def _expr_SetExpr(self, node: model.SetExpr) -> str:
        return "_Set((" + "".join(self.expr(item) + ", " for item in node.items) + "))"

    def _expr_MapExpr(self, node: model.MapExpr) -> str:
        items = ", ".join(f"{self.expr(k)}: {self.expr(v)}" for k, v in node.items)
        return "_Map({" + items + "})"

    def target(self, target: model.Pattern) -> str:
        """A pattern as a Python assignment target."""
        if isinstance(target, model.NamePattern):
            return "v_" + target.local.name
        return "(" + ", ".join(self.target(t) for t in target.items) + ",)"

    def clauses(self, node: model.Comprehension) -> str:
        """The `for` and `if` clauses of a comprehension, as Python's."""
        parts = []
        for clause in node.clauses:
            if isinstance(clause, model.ForClause):
                parts.append(f"for {self.target(clause.target)} in {self.expr(clause.iterable)}")
            else:
                parts.append(f"if {self.expr(clause.condition)}")
        return " ".join(parts)

    def _expr_Comprehension(self, node: model.Comprehension) -> str:
        # A comprehension is a Python scope of its own, where `global` does not reach.
        self.function.in_comprehension += 1
        try:
            return self._comprehension(node)
        finally:
            self.function.in_comprehension -= 1

    def _comprehension(self, node: model.Comprehension) -> str:
        element = self.expr(node.element)
        if node.form == "map":
            assert node.key is not None
            return f"_Map({{{self.expr(node.key)}: {element} {self.clauses(node)}}})"
        if node.form == "generator":
            return f"({element} {self.clauses(node)})"
        if node.form == "set":
            return f"_Set([{element} {self.clauses(node)}])"
        return f"_tuple([{element} {self.clauses(node)}])"

    def _expr_Unary(self, node: model.Unary) -> str:
        operand = self.expr(node.operand)
        return f"(not {operand})" if node.op == "not" else f"(-{operand})"

    def _expr_Binary(self, node: model.Binary) -> str:
        if node.op == "/":
            integers = self.passes.integer_division and node.left.kind.name == node.right.kind.name == "int"
            return f"{'_divide_integers' if integers else '_divide'}({self.expr(node.left)}, {self.expr(node.right)})"
        if node.op == "**":
            return f"_power({self.expr(node.left)}, {self.expr(node.right)})"
        if node.op == "+" and may_grow(node):
            # Strings, lists and tuples joined by a chain of `+`: one call that bounds the size.
            parts = self.left_chain(node, lambda n: n.op == "+" and may_grow(n))
            return "_concat(" + ", ".join(parts) + ")"
        if node.op == "*" and may_grow(node):
            return f"_repeat({self.expr(node.left)}, {self.expr(node.right)})"
        group = _CHAINS[node.op]
        parts = self.left_chain(node, lambda n: _CHAINS.get(n.op) == group and not may_grow(n))
        return "(" + "".join(parts) + ")"

    def left_chain(self, node: model.Binary, joins: Callable[[model.Binary], bool]) -> list[str]:
        """The operands of the chain `a + b + c` that ends at `node`, as code: the binary nodes
        down the left side for which `joins` holds are one chain (without recursion). For
        `_concat` the parts are the operands; otherwise operators and operands in turn."""
        spine = [node]
        while isinstance(spine[-1].left, model.Binary) and joins(spine[-1].left):
            spine.append(spine[-1].left)
        concat = node.op == "+" and may_grow(node)
        parts = [self.expr(spine[-1].left)]
        for link in reversed(spine):
            parts.append(self.expr(link.right) if concat else f" {link.op} {self.expr(link.right)}")
        return parts

    def _expr_Compare(self, node: model.Compare) -> str:
        if (
            len(node.ops) == 1 and node.ops[0] in ("==", "!=") and _is_empty(node.rest[0])
            and node.first.kind.name in ("list", "tuple")
        ):
            return f"({'not ' if node.ops[0] == '==' else ''}{self.expr(node.first)})"
        parts = [self.expr(node.first)]
        left_kind = node.first.kind
        for op, right in zip(node.ops, node.rest):
            if op in ("==", "!=") and _symbolic(left_kind) and _symbolic(right.kind):
                op = "is" if op == "==" else "is not"  # symbols are interned
            parts.append(op)
            parts.append(self.expr(right))
            left_kind = right.kind
        return "(" + " ".join(parts) + ")"

    def _expr_Conditional(self, node: model.Conditional) -> str:
        # `a if c else b if d else e`: Python reads an `else` chain as the file does, so the
        # chain is written without inner brackets (and without recursion).
        parts = []
        current: model.Expr = node
        while isinstance(current, model.Conditional):
            parts.append(f"{self.expr(current.then)} if {self.expr(current.condition)} else ")
            current = current.otherwise
        return "(" + "".join(parts) + self.expr(current) + ")"

    def _expr_Index(self, node: model.Index) -> str:
        target = self.expr(node.target)
        if isinstance(node.index, Position):
            return f"{target}[{self.expr(node.index.position)}]"
        index = self.expr(node.index)
        kind = node.target.kind.name
        if kind == "grid":
            if isinstance(node.target, model.FieldRef) and node.target.field in self.boards:
                return f"{target}[{self.boards[node.target.field][1]}[{index}]]"
            if isinstance(node.target, model.FieldRef) and not self.function.in_result:
                self.function.indexes.add(node.target.field.position)
                return f"{target}[_i{node.target.field.position}[{index}]]"
            if isinstance(node.target, (model.LocalRef, model.FieldRef)):  # a name: read twice
                return f"{target}[{target}.index[{index}]]"
            return f"_index({target}, {index})"
        if kind in ("list", "tuple", "map", "string"):
            return f"{target}[{index}]"
        return f"_index({target}, {index})"

    def _expr_Slice(self, node: model.Slice) -> str:
        bounds = ["" if b is None else self.expr(b) for b in (node.start, node.stop)]
        return f"{self.expr(node.target)}[{bounds[0]}:{bounds[1]}]"

    # ---- statements
    def block(self, block: model.Block) -> None:
        """The block's statements."""
        for statement in block.statements:
            self.statement(statement)

    def nested(self, block: model.Block) -> None:
        """The block, one level deeper."""
        self.writer.indent()
        self.block(block)
        self.writer.dedent()

    def statement(self, node: model.Statement) -> None:
        """One statement."""
        w = self.writer
        if isinstance(node, model.Let):
            w.emit(f"{self.target(node.target)} = {self.expr(node.value)}", node)
        elif isinstance(node, model.Assign):
            w.emit(self.assignment(node), node)
            if isinstance(node.place.root, model.Field):
                self.function.assigned.add(node.place.root.name)
        elif isinstance(node, model.Return):
            self.emit_return(node.value)
        elif isinstance(node, model.If):
            self.statement_if(node)
        elif isinstance(node, model.For):
            self.mark_assigned(node.body)  # a later round sees what the rounds before assigned
            w.emit(f"for {self.target(node.target)} in {self.expr(node.iterable)}:", node)
            self.nested(node.body)
        else:
            counter = self.fresh("loop")
            self.mark_assigned(node.body)
            w.emit(f"{counter} = 0")
            w.emit(f"while {self.expr(node.condition)}:", node)
            w.indent()
            w.emit(f"{counter} += 1")
            w.emit(f"if {counter} > _LOOP_LIMIT: _loop_limit()", node)
            w.dedent()
            self.nested(node.body)

    def statement_if(self, node: model.If) -> None:
        """`if`, `elif`, `else`."""
        for number, (condition, body) in enumerate(node.branches):
            keyword = "if" if number == 0 else "elif"
            self.writer.emit(f"{keyword} {self.expr(condition)}:", condition)
            self.nested(body)
        if node.otherwise is not None:
            self.writer.emit("else:")
            self.nested(node.otherwise)

    def mark_assigned(self, body: model.Block) -> None:
        """In result: count the fields a loop's body assigns as assigned from its start on."""
        for node in model.walk(body):
            if isinstance(node, model.Place) and isinstance(node.root, model.Field):
                self.function.assigned.add(node.root.name)

    def emit_return(self, node: model.Expr) -> None:
        """`return EXPR`, unrolled into loops where that saves making generators."""
        if not (self.passes.unroll and self.unroller.emit_return(node)):
            self.writer.emit(self.returning(self.expr(node)), node)

    def returning(self, value: str) -> str:
        """The statement that returns `value` from the rule being written (keeping it first, in a
        rule whose last answer is remembered)."""
        remember = self.function.remember
        if remember is None:
            return f"return {value}"
        return f"{remember} = (S, {value}); return {remember}[1]"

    def assignment(self, node: model.Assign) -> str:
        """The Python statement(s), on one line, of an assignment to a field, a local or an item."""
        place = node.place
        name = "v_" + place.root.name
        value = self.expr(node.value)
        grows = node.op is not None and may_grow_kinds(node.op, place.kind, node.value.kind)
        if not place.indexes:
            if node.op is not None:
                return f"{name} = {self.combine(name, node.op, value, grows)}"
            return f"{name} = {value}"
        board = self.boards.get(place.root) if isinstance(place.root, model.Field) and self.passes.typed_updates else None
        if board is not None and len(place.indexes) == 1:
            # A board whose size never changes: its class and cell table are known.
            cell = place.indexes[0]
            at = self.expr(cell.position) if isinstance(cell, Position) else f"{board[1]}[{self.expr(cell)}]"
            if node.op is not None:
                value = self.combine(f"{name}[{at}]", node.op, value, grows)
            # Calling the grid class (a tuple subclass with no constructor of its own) makes the
            # same tuple as tuple.__new__, a little faster.
            return f"_cells = [*{name}]; _cells[{at}] = {value}; {name} = {board[0]}(_cells)"
        # Rebuild from the innermost item outwards: containers are immutable.
        holders = [name]
        indexes = [(self.expr(i.position), True) if isinstance(i, Position) else (self.expr(i), False) for i in place.indexes]
        for index, kind in zip(indexes[:-1], place.kinds[:-2]):
            holders.append(self.item(holders[-1], index, kind))
        if node.op is not None:
            value = self.combine(self.item(holders[-1], indexes[-1], place.kinds[-2]), node.op, value, grows)
        for holder, index, kind in zip(reversed(holders), reversed(indexes), reversed(place.kinds[:-1])):
            value = self.put(holder, index, value, kind)
        return f"{name} = {value}"

    def item(self, holder: str, indexed: tuple[str, bool], kind: Kind) -> str:
        """`holder[index]` for a container of this kind; `indexed`: the index's code, and whether
        it is a flat position on a board."""
        index, position = indexed
        if position:
            return f"{holder}[{index}]"
        if not self.passes.typed_updates:
            return f"_index({holder}, {index})"
        if kind.name == "grid":
            return f"_index({holder}, {index})"
        if kind.name in ("list", "tuple", "map"):
            return f"{holder}[{index}]"
        return f"_index({holder}, {index})"

    def put(self, holder: str, indexed: tuple[str, bool], value: str, kind: Kind) -> str:
        """A copy of `holder` with the item at the index set to `value` (see `item`)."""
        index, position = indexed
        if position:
            return f"_put_position({holder}, {index}, {value})"
        if self.passes.typed_updates:
            helper = {"grid": "_put_cell", "list": "_put_item", "tuple": "_put_item", "map": "_put_key"}.get(kind.name)
            if helper is not None:
                return f"{helper}({holder}, {index}, {value})"
        return f"_put({holder}, {index}, {value})"

    @staticmethod
    def combine(current: str, op: str, value: str, grows: bool) -> str:
        """`current op value` for `op=`; `+=` and `*=` on what may be a string or list are
        bounded like `+` and `*`."""
        if grows:
            return f"{'_concat' if op == '+' else '_repeat'}({current}, {value})"
        return f"({current} {op} {value})"


def may_grow(node: model.Binary) -> bool:
    """Whether `+` or `*` may build a string or list (bounded by `_concat`, `_repeat`), as far
    as the kinds are known: not `+` with a number on either side, nor `*` of two numbers."""
    return may_grow_kinds(node.op, node.left.kind, node.right.kind)


def may_grow_kinds(op: str, left: Kind, right: Kind) -> bool:
    """Whether `left op right` may build a string, list or tuple, for operands of these kinds."""
    if op == "+":
        return left.name not in _NUMERIC and right.name not in _NUMERIC
    return op == "*" and not (left.name in _NUMERIC and right.name in _NUMERIC)


def _is_empty(node: model.Expr) -> bool:
    return isinstance(node, (model.ListExpr, model.TupleExpr)) and not node.items


def _holds_a_list(kind: Kind) -> bool:
    """Whether a value of ``kind`` is, or holds, a list (printed in brackets, where a tuple is in
    parentheses)."""
    return kind.name == "list" or any(map(_holds_a_list, kind.args))


def _symbolic(kind: Kind) -> bool:
    return kind.name in ("symbol", "player")


def ordered(locals_: frozenset[model.Local]) -> Iterator[model.Local]:
    """Locals in the order they were bound in the file (a stable order for parameters)."""
    return iter(sorted(locals_, key=lambda local: (local.line, local.column, local.name)))
