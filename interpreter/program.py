"""A game's Python program, written in two parts around the values computed at load.

`Program.load_source()` is the first part: the parameters, the functions that do not read the
state, the constants, the initial values and the constant parts of the rules, each a function
of no argument that the game calls once, in order. `Program.rules_source(values)` is the second,
written once those values are known: the rules, each a Python function of the state.

Each rule starts with a comment naming the line of the file it comes from, so that the source
(`gdl compile` prints it) reads alongside the game file.
"""

from __future__ import annotations

from typing import Any, Mapping

from gdl import model
from gdl.kinds import BOOL
from gdl.values import Grid
from interpreter.compiler import Emitter, RuleNeeds, checked_text, ordered
from interpreter.lowered import Loaded, loaded, rewrite
from interpreter.lowering import Lowering, Size
from interpreter.writer import Writer
from interpreter.passes import LoadValues, Passes, hoist_invariants, hoisted_calls, inline_call, load_values

Body = model.Expr | model.Block


class Program:
    """The generated source of one game."""

    def __init__(self, game: model.CheckedGame, passes: Passes = Passes()) -> None:
        checked_text(game)
        self.game = game
        self.passes = passes
        self.emitter = Emitter(game, passes)
        self.writer = self.emitter.writer
        self.loads = LoadValues()
        self.rules = self.collect_rules()
        self.uses_after = False
        self.loadable: list[str] = []
        self.guards: dict[str, str] = {"result": ""}
        """The functions the game calls directly, by name, with the rule each stands for."""
        for rule in ("terminal", "to_move", "moves"):
            if rule in game.definitions and game.definitions[rule].reads_state:
                self.guards["d_" + rule] = rule
        self.extra: dict[str, Any] = {}  # values made at load by the passes (lowered cells)
        self.field_reads = _FieldReads(game)
        self.emitter.field_reads = self.field_reads

    # ---- the rules
    def collect_rules(self) -> dict[str, Body]:
        """The body of every rule that reads the state, by the name of its Python function,
        with the values known at load taken out."""
        game = self.game
        rules: dict[str, Body] = {}
        for name, definition in game.definitions.items():
            if definition.reads_state:
                rules["d_" + name] = inline_call(definition.value) if self.passes.inline_calls else definition.value
        for name, function in game.functions.items():
            if function.reads_state:
                rules["f_" + name] = function.body
        if game.result is not None:
            rules["result"] = game.result.body
        if self.passes.load_values:
            rules = {name: load_values(body, self.loads) for name, body in rules.items()}  # type: ignore[misc]
        return rules

    # ---- part one: what is computed at load
    def load_source(self) -> str:
        """The functions that compute the parameters, constants, initial values and constant
        parts of the rules."""
        game, emitter, w = self.game, self.emitter, self.writer
        self.heading("parameters, constants and initial values: computed once, when the game loads")
        for name, function in game.functions.items():
            if not function.reads_state:
                self.rule(f"f_{name}", ["v_" + p.name for p in function.params], function.body, function.node, state=False)
        for name, param in game.params.items():
            self.value_function(f"_param_{name}", param.value, param.node)
        for name in game.constant_order:
            definition = game.definitions[name]
            self.value_function(f"_constant_{name}", definition.value, definition.node)
        for item in game.fields:
            self.value_function(f"_initial_{item.name}", item.initial, item.node)
        self.loadable = []
        for value in self.loads.found:
            # One that Python cannot compile (nested too deeply) stays in its rule, which
            # then reports it where it is.
            if self.value_function(f"_load{value.name}", value.value, value.value, alone=True):
                self.loadable.append(value.name)
        emitter.afters.clear()
        return w.text()

    def value_function(self, name: str, value: model.Expr, node: Any, alone: bool = False) -> bool:
        """`def NAME(): return VALUE`, for a value computed at load; `alone`: only if Python
        compiles it on its own (whether it did)."""
        outer = self.writer
        w = self.emitter.writer = type(outer)()
        w.emit(f"def {name}():", node)
        w.indent()
        self.emitter.function = RuleNeeds()
        w.emit(f"return {self.emitter.expr(value)}", value)
        self.emitter.writer = outer
        if alone:
            try:
                compile(w.text(), "<load>", "exec")
            except (SyntaxError, RecursionError, MemoryError):
                return False
        outer.extend(w)
        return True

    def loaded_names(self) -> list[str]:
        """The names of the constant parts of rules, in the order to compute them."""
        return list(self.loadable)

    # ---- part two: the rules
    def rules_source(self, values: Mapping[str, Any], initial: tuple[Any, ...]) -> str:
        """The rules, written with what is known once the values of `load_source` are."""
        start = len(self.writer.lines)
        # A constant part of a rule that failed at load stays in its rule: computed there, it
        # fails (or not, in a branch never taken) as the rule is written.
        rules = {name: rewrite(body, lambda node: node.value if isinstance(node, Loaded) and node.name not in values else None)
                 for name, body in self.rules.items()}
        boards = self.boards(initial)
        if self.passes.typed_updates:
            for board in boards:
                grid = initial[board.position]
                self.emitter.boards[board] = (self.keep(type(grid), "_G"), self.keep(grid.index, "_K"))
        if self.passes.flat_cells:
            lowering_values = _Values(values, self.extra)
            rules = {name: Lowering(boards, lowering_values.value_of, self.store, self.passes.unroll_lines)(body) for name, body in rules.items()}  # type: ignore[misc]
        self.heading("the rules: functions of the state S, a tuple of the fields")
        referenced = {n.definition.name for body in rules.values() for n in model.walk(body)
                      if isinstance(n, model.DefinitionRef) and n.definition.reads_state}
        self.emitter.remembered = referenced
        if self.passes.inline_definitions:
            self.emitter.inlinable = {name: body for name in referenced
                                      if isinstance(body := rules["d_" + name], model.Expr) and self.inlinable(body)}
        game = self.game
        for name, definition in game.definitions.items():
            if definition.reads_state:
                self.definition(name, rules["d_" + name], definition.node, name in referenced)
        for name, function in game.functions.items():
            if function.reads_state:
                self.rule(f"f_{name}", ["S"] + ["v_" + p.name for p in function.params], rules["f_" + name], function.node,
                          fixed=frozenset(function.params))
        if game.result is not None:
            self.result(rules["result"], game.result)
        if "d_moves" in self.guards:
            self.actions()
        self.write_afters()
        return "\n" * start + self.writer.text(start)

    def boards(self, initial: tuple[Any, ...]) -> dict[model.Field, Size]:
        """The grid fields whose size never changes (`result` sets their cells, never the whole
        grid), with that size."""
        whole = {n.root.name for n in model.walk(self.rules["result"]) if isinstance(n, model.Place)
                 and isinstance(n.root, model.Field) and not n.indexes} if "result" in self.rules else set()
        return {f: (v.rows, v.cols) for f, v in zip(self.game.fields, initial)
                if isinstance(v, Grid) and f.kind.name == "grid" and f.name not in whole}

    def store(self, value: Any, node: model.Expr) -> Loaded:
        """A value made at load by a pass, named for the code."""
        return loaded(self.keep(value, "_l"), node)

    def keep(self, value: Any, stem: str) -> str:
        """A name for a value the code uses, made at load: data, not text."""
        name = f"{stem}{len(self.loads.found) + len(self.extra)}"
        self.extra[name] = value
        return name

    def definition(self, name: str, body: Body, node: Any, cached: bool) -> None:
        """A definition of the state; the last answer remembered when other rules read it."""
        if cached:
            # Rules that read a definition (terminal reading moves) often ask about the state
            # just asked about: remember the last answer.
            self.comment(node)
            self.writer.emit(f"_last_{name} = (None, None)")
        self.rule(f"d_{name}", ["S"], body, node, comment=not cached, remember=f"_last_{name}" if cached else None)

    def rule(self, name: str, params: list[str], body: Body, node: Any, *, state: bool = True,
             fixed: frozenset[model.Local] = frozenset(), comment: bool = True, remember: str | None = None) -> None:
        """A rule as a Python function. With calls hoisted (those whose arguments read only the
        state, the constants and the `fixed` parameters), a plain copy comes with it, to fall
        back on when computing them beforehand fails: the rule then fails, or not, as written.
        `remember`: the global that keeps its last state and answer."""
        if comment:
            self.comment(node)
        hoisted = body
        if state and self.passes.hoist_invariants:
            hoisted = hoist_invariants(body, fixed - _assigned_locals(body))  # type: ignore[assignment]
        plain = f"_plain_{name.lstrip('_')}"
        inline = name in self.guards and self.computes_in_place(body)
        if inline or (hoisted is not body and any(True for _ in hoisted_calls(hoisted))):
            if inline:  # its failures are found again by the plain copy, which reports them
                self.guards[plain] = self.guards[name]
            self.function(name, params, hoisted, node, fallback=plain, remember=remember, inline=inline)
            self.function(plain, params, body, node)
        else:
            self.function(name, params, body, node, remember=remember)

    def inlinable(self, body: model.Expr) -> bool:
        """Whether a remembered definition may be computed in place in the rules the game calls:
        an expression written as it is (not unrolled into loops, no calls to hoist, no `after`)."""
        unroller = self.emitter.unroller
        if any(isinstance(n, model.After) for n in model.walk(body)):
            return False
        if self.passes.unroll and ((body.kind == BOOL and unroller.has_quantifier(body)) or unroller.tally(body) is not None):
            return False
        return not (self.passes.hoist_invariants and any(True for _ in hoisted_calls(hoist_invariants(body, frozenset()))))

    def computes_in_place(self, body: Body) -> bool:
        """Whether a rule reads a remembered definition it may compute in place."""
        inlinable = self.emitter.inlinable
        return any(isinstance(n, model.DefinitionRef) and n.definition.name in inlinable for n in model.walk(body))

    def function(self, name: str, params: list[str], body: Body, node: Any, fallback: str | None = None,
                 remember: str | None = None, inline: bool = False) -> None:
        """`def NAME(PARAMS):` with the fields it reads bound first, then its hoisted calls;
        `remember`: the global that keeps the last state and answer (of a rule of the state)."""
        emitter, outer = self.emitter, self.writer
        emitter.function = RuleNeeds(remember=remember, inline=inline)
        inner = emitter.writer = type(outer)(1)
        if isinstance(body, model.Block):
            emitter.block(body)
        else:
            emitter.emit_return(body)
        emitter.writer = outer
        needs = emitter.function
        head = type(outer)(1)
        for position in sorted(needs.fields):
            index = f"; _i{position} = _s{position}.index" if position in needs.indexes else ""
            head.emit(f"_s{position} = S[{position}]{index}")
        if needs.hoisted and fallback is not None:
            head.emit("try:")
            head.indent()
            for code, hoisted in needs.hoisted.items():
                head.emit(f"{hoisted} = {code}")
            head.dedent()
            head.emit("except:")  # the compiled code knows no names of Python's: see `_go_on`
            head.indent()
            head.emit("_go_on()")
            head.emit(f"return {fallback}({', '.join(params)})")
            head.dedent()
        head.extend(inner)
        outer.emit(f"def {name}({', '.join(params)}):", node)
        outer.indent()
        assigned = sorted(needs.globals | ({remember} if remember is not None else set()))
        if assigned:
            outer.emit(f"global {', '.join(assigned)}")
        if remember is not None:
            outer.emit(f"if {remember}[0] is S: return {remember}[1]")
        again = f"{fallback}({', '.join(params)})" if needs.globals and fallback is not None else None
        self.guarded_body(head, self.guards.get(name), again)
        outer.dedent()

    def guarded_body(self, body: Writer, rule: str | None, again: str | None = None) -> None:
        """The body of a function; for one the game calls directly (`rule`), inside a `try`
        that reports a failure as the game's error, so that no wrapper is needed around it.
        `again`: the call of the plain copy of a rule that computes definitions in place, which
        fails where the file wrote what failed, and so reports it there."""
        outer = self.writer
        if rule is None:
            outer.extend(body)
            return
        outer.emit("try:")
        body.shift()
        outer.extend(body)
        outer.emit("except:")
        if again is None:
            outer.emit(f"    _failed(S, {rule!r})")
        else:
            outer.emit("    _go_on()")
            outer.emit(f"    return {again}")

    def result(self, body: Body, result: model.Result) -> None:
        """`def result(S, _move)`: the fields as locals, the block, the new state."""
        emitter, w = self.emitter, self.writer
        fields = ", ".join("v_" + f.name for f in self.game.fields)
        self.comment(result.node)
        w.emit("def result(S, _move):", result.node)
        w.indent()
        emitter.function = RuleNeeds(in_result=True)
        assert isinstance(body, model.Block)
        block = emitter.writer = type(w)(1)
        block.emit(f"{fields}, = S")
        block.emit(f"{emitter.target(result.target)} = _move", result.target)
        emitter.block(body)
        block.emit(f"return State(({fields},))")
        emitter.writer = w
        self.guarded_body(block, self.guards.get("result"))
        w.dedent()

    def actions(self) -> None:
        """`def actions(S)`: the moves, the answer `terminal` just computed for the same state
        taken without a call; no moves where the game is not over is `_no_moves`'s to judge."""
        w = self.writer
        self.emitter.function = RuleNeeds()
        w.emit("def actions(S):", self.game.definitions["moves"].node)
        w.indent()
        w.emit(f"_m = {self.emitter.definition_value('moves', 'S')}")
        w.emit("return _m if _m else _no_moves(S, _m)")
        w.dedent()

    def write_afters(self) -> None:
        """The functions of the states after moves that `after` calls (which may call more)."""
        emitter = self.emitter
        while emitter.afters:
            name, node = emitter.afters.pop(0)
            self.uses_after = True
            params = ["S"] + ["v_" + local.name for local in ordered(node.body.locals_used)]
            self.writer.emit(f"# after(...) of line {node.line}: the state after the move is S")
            self.function(name, params, node.body, node)

    # ---- reading
    def heading(self, text: str) -> None:
        """A comment that heads a part of the source."""
        self.writer.emit(f"# ---- {text}")

    def comment(self, node: Any) -> None:
        """`# FILE line N: the line's text`, above the code of a rule."""
        line = self.game.source.line(node.line) or ""
        text = f"# {self.game.source.name} line {node.line}: {line.strip()}"[:160]
        # Control characters of the file (a comment may hold any) stay out of the code, whose
        # expressions are marked with some of them (`writer.marked`).
        self.writer.emit("".join(ch if ch.isprintable() else "?" for ch in text))


class _Values:
    """What a pass may know of an expression once the game has loaded."""

    def __init__(self, names: Mapping[str, Any], extra: Mapping[str, Any]) -> None:
        self.names = names
        self.extra = extra

    def value_of(self, node: model.Expr) -> tuple[bool, Any]:
        """(True, the value) of a constant expression that is a name or a literal, else (False, None)."""
        if isinstance(node, Loaded):
            source = self.extra if node.name in self.extra else self.names
            return (True, source[node.name]) if node.name in source else (False, None)
        if isinstance(node, model.Constant):
            return True, node.value
        if isinstance(node, model.DefinitionRef) and not node.definition.reads_state:
            return self.named("d_" + node.definition.name)
        if isinstance(node, model.ParamRef):
            return self.named("p_" + node.param.name)
        if isinstance(node, model.Unary) and node.op == "-":
            known, value = self.value_of(node.operand)
            return (True, -value) if known and type(value) is int else (False, None)
        if isinstance(node, model.TupleExpr):
            items = [self.value_of(item) for item in node.items]
            return (True, tuple(v for _, v in items)) if all(k for k, _ in items) else (False, None)
        return False, None

    def named(self, name: str) -> tuple[bool, Any]:
        return (True, self.names[name]) if name in self.names else (False, None)


class _FieldReads:
    """The fields a rule reads, directly or through the definitions and functions it uses."""

    def __init__(self, game: model.CheckedGame) -> None:
        self.game = game

    def __call__(self, body: model.Node) -> frozenset[str]:
        reads: set[str] = set()
        seen: set[model.Node] = set()
        pending: list[model.Node] = [body]
        while pending:
            node = pending.pop()
            if node in seen:
                continue
            seen.add(node)
            for part in model.walk(node):
                if isinstance(part, model.FieldRef):
                    reads.add(part.field.name)
                elif isinstance(part, model.After):
                    reads.update(f.name for f in self.game.fields)
                elif isinstance(part, model.DefinitionRef) and part.definition.reads_state:
                    pending.append(part.definition.value)
                elif isinstance(part, model.FunctionCall) and part.function.reads_state:
                    pending.append(part.function.body)
        return frozenset(reads)


def _assigned_locals(body: model.Node) -> frozenset[model.Local]:
    """The locals a block assigns (a function's parameter assigned is no longer fixed)."""
    return frozenset(n.root for n in model.walk(body) if isinstance(n, model.Place) and isinstance(n.root, model.Local))

