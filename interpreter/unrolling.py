"""`any`, `all`, `count` and `sum` of a generator, in the value a rule returns, written as loops.

A generator is a Python frame resumed for every item; a loop is not. `return any(...)` becomes a
loop that returns as soon as the answer is known, and so does a condition made of them with
`and`, `or` and `not`, in either polarity; `return count(...)` and `return sum(...)` become
loops that add up, and so do the tallies inside a returned arithmetic (`count(...) - 1`), each
into a local first, where computing them first cannot change which error a rule reports.

A decision is written with two continuations, what to do when the condition holds and when it
does not. Each continuation is an exit (a `return`, `break` or `continue` valid where it is
written), so that nothing falls through from one branch into the next.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Callable

from gdl import model
from gdl.kinds import BOOL, INT
from interpreter.lowered import Computed, Hoisted, Loaded, rewrite

if TYPE_CHECKING:
    from interpreter.compiler import Emitter

Exit = Callable[[], None]
"""Writes statements that leave: `return`, or `break` / `continue` of the loop they are in."""

_MAX_LINES = 200  # a decision written longer than this (and/or repeat continuations) is not unrolled
_MAX_DEPTH = 12   # nor one nested deeper: Python allows 20 nested blocks in a function
_CANNOT_FAIL = (model.Constant, model.SymbolRef, model.ParamRef, model.LocalRef, model.FieldRef, Loaded, Hoisted)


class Unroller:
    """Writes the quantifiers and tallies of returned values as loops, for an `Emitter`."""

    def __init__(self, emitter: Emitter) -> None:
        self.emitter = emitter

    def emit_return(self, node: model.Expr) -> bool:
        """Write `return node` as loops, if it is worth it and small enough; whether it was."""
        if node.kind == BOOL and self.has_quantifier(node):
            returning = self.emitter.returning
            write: Exit = lambda: self.decide(node, self.exit(returning("True")), self.exit(returning("False")))
        elif self.tally(node) is not None:
            write = lambda: self.emit_tally(node)
        elif tallies := self.operand_tallies(node):
            write = lambda: self.emit_with_tallies(node, tallies)
        else:
            return False
        return self.attempt(write, node)

    def attempt(self, write: Exit, node: model.Expr) -> bool:
        """Write with `write` into a writer of its own; keep it if it is small and shallow."""
        emitter = self.emitter
        outer = emitter.writer
        scratch = type(outer)(outer.depth)
        emitter.writer = scratch
        try:
            write()
        finally:
            emitter.writer = outer
        if len(scratch.lines) > _MAX_LINES or scratch.deepest - outer.depth > _MAX_DEPTH:
            return False
        outer.extend(scratch)
        return True

    def exit(self, text: str) -> Exit:
        """The exit that writes `text`."""
        return lambda: self.emitter.writer.emit(text)

    # ---- recognising the calls
    @staticmethod
    def generator_call(node: model.Expr, names: tuple[str, ...]) -> tuple[str, model.Comprehension] | None:
        """(the built-in, its generator) when node calls one of `names` on one generator."""
        if (
            isinstance(node, model.BuiltinCall) and node.builtin.name in names and len(node.args) == 1
            and isinstance(node.args[0], model.Comprehension) and node.args[0].form == "generator"
        ):
            return node.builtin.name, node.args[0]
        return None

    def quantifier(self, node: model.Expr) -> tuple[str, model.Comprehension] | None:
        """(`any` or `all`, its generator) when node is such a call."""
        return self.generator_call(node, ("any", "all"))

    def tally(self, node: model.Expr) -> tuple[str, model.Comprehension] | None:
        """(`count` or `sum`, its generator) when node is such a call."""
        return self.generator_call(node, ("count", "sum"))

    def has_quantifier(self, node: model.Expr) -> bool:
        """Whether node is a quantifier, or made of some with `and`, `or`, `not`."""
        if self.quantifier(node) is not None:
            return True
        if isinstance(node, model.Binary) and node.op in ("and", "or"):
            return self.has_quantifier(node.left) or self.has_quantifier(node.right)
        if isinstance(node, model.Unary) and node.op == "not":
            return self.has_quantifier(node.operand)
        return False

    # ---- decisions
    def decide(self, node: model.Expr, holds: Exit, fails: Exit) -> None:
        """Write code that takes `holds` when the boolean `node` is true, else `fails`."""
        found = self.quantifier(node)
        if not self.has_quantifier(node):
            self.emitter.writer.emit(f"if {self.emitter.expr(node)}:", node)
            self.emitter.writer.indent()
            holds()
            self.emitter.writer.dedent()
            fails()
        elif isinstance(node, model.Unary) and node.op == "not":
            self.decide(node.operand, fails, holds)
        elif isinstance(node, model.Binary) and node.op == "and":
            self.decide(node.left, lambda: self.decide(node.right, holds, fails), fails)
        elif isinstance(node, model.Binary) and node.op == "or":
            self.decide(node.left, holds, lambda: self.decide(node.right, holds, fails))
        else:
            assert found is not None
            name, generator = found
            # any: an item that holds ends the search (broken), none ends it (exhausted);
            # all: an item that fails ends it.
            element = generator.element
            if name == "any":
                self.search(generator, lambda found_, next_: self.decide(element, found_, next_), fails, holds)
            else:
                self.search(generator, lambda found_, next_: self.decide(element, next_, found_), holds, fails)

    def search(self, generator: model.Comprehension, test: Callable[[Exit, Exit], None], exhausted: Exit, broken: Exit) -> None:
        """Loop over the generator's items; `test(stop, go_on)` writes each item's test. The
        search ends with `exhausted` when no item stopped it, else with `broken`."""
        w = self.emitter.writer

        def after_loop(outermost: bool) -> None:
            if not outermost:  # an inner loop broken breaks the one around it too
                w.emit("else:")
                w.indent()
                w.emit("continue")
                w.dedent()
                w.emit("break")

        self.loops(generator, lambda: test(self.exit("break"), self.exit("continue")), after_loop)
        w.emit("else:")
        w.indent()
        exhausted()
        w.dedent()
        broken()

    def loops(self, generator: model.Comprehension, innermost: Exit, after_loop: Callable[[bool], None]) -> None:
        """The generator's `for` and `if` clauses as nested statements, `innermost` inside them
        all; `after_loop(outermost)` is written after each loop."""
        w = self.emitter.writer
        emitter = self.emitter

        def clauses(position: int, outermost: bool) -> None:
            if position == len(generator.clauses):
                innermost()
                return
            clause = generator.clauses[position]
            if isinstance(clause, model.IfClause):
                self.decide(clause.condition, lambda: clauses(position + 1, outermost), self.exit("continue"))
                return
            w.emit(f"for {emitter.target(clause.target)} in {emitter.expr(clause.iterable)}:", clause)
            w.indent()
            clauses(position + 1, False)
            w.dedent()
            after_loop(outermost)

        clauses(0, True)

    def operand_tallies(self, node: model.Expr) -> list[model.Expr]:
        """The tallies in `node` that may be computed before the rest of it, in the order Python
        computes them: those met, in that order, before anything that may fail or be skipped,
        going down through arithmetic, comparisons and built-in calls. Moving them first then
        changes neither a value nor which error a rule reports."""
        found: list[model.Expr] = []
        clean = True  # nothing that may fail computed so far

        def visit(item: model.Expr) -> None:
            nonlocal clean
            if self.tally(item) is not None:
                if clean:
                    found.append(item)
                else:
                    return
            elif isinstance(item, _CANNOT_FAIL):
                return
            elif isinstance(item, model.Binary) and item.op not in ("and", "or"):
                visit(item.left)
                visit(item.right)
                clean = clean and item.op in ("+", "-", "*") and {item.left.kind, item.right.kind} <= {INT}
            elif isinstance(item, model.Compare) and len(item.ops) == 1:
                visit(item.first)
                visit(item.rest[0])
                clean = clean and item.ops[0] in ("==", "!=")
            elif isinstance(item, model.Unary):
                visit(item.operand)
                clean = clean and item.operand.kind in (INT, BOOL)
            elif isinstance(item, model.BuiltinCall):
                for argument in item.args:
                    visit(argument)
                clean = False
            else:  # computed as a whole (a call, a conditional): it may fail, or skip a part
                clean = False

        visit(node)
        return found

    # ---- tallies
    def emit_tally(self, node: model.Expr) -> None:
        """`return count(E for ...)` / `sum(...)` as a loop that adds up, without generators."""
        self.emitter.writer.emit(self.emitter.returning(self.write_tally(node)), node)

    def emit_with_tallies(self, node: model.Expr, tallies: list[model.Expr]) -> None:
        """`return count(...) - 1` and the like: each of `tallies` (`operand_tallies(node)`) a
        loop into a local, then the rest."""
        totals = {id(tally): Computed(self.write_tally(tally), tally, kind=tally.kind, line=tally.line,
                                      column=tally.column)
                  for tally in tallies}
        rest = rewrite(node, lambda item: totals.get(id(item)))
        self.emitter.writer.emit(self.emitter.returning(self.emitter.expr(rest)), node)

    def write_tally(self, node: model.Expr) -> str:
        """Loops that add up the tally `node` into a fresh local; its name."""
        found = self.tally(node)
        assert found is not None
        name, generator = found
        w = self.emitter.writer
        total = self.emitter.fresh("total")
        w.emit(f"{total} = 0", node)

        def add() -> None:
            element = generator.element
            if name == "count" and not isinstance(element, _CANNOT_FAIL):
                w.emit(self.emitter.expr(element), element)  # `count` computes each item, which may fail
            step = "1" if name == "count" else self.emitter.expr(element)
            w.emit(f"{total} += {step}", element)
            w.emit("continue")

        self.loops(generator, add, lambda outermost: None)
        return total
