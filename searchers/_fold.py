"""Specialise a function for facts known before it runs, by folding them into its code.

The search driver is written once, with a test for every refinement at every node (is there a
table? an orderer? a trace? cut-offs?). For one search those answers never change, yet a test
costs time at every node. ``specialised(function, facts)`` compiles the function again with
each test on a known fact replaced by its answer and the branch it rules out removed: a
minimax without a table runs no table code at all, while the source stays one piece of code,
checked by mypy and by the tests. Line numbers are kept, so tracebacks point at the source.

A fact is a name of the function (a local or closure variable that never changes once set)
with what is known of it: ``True``/``False`` (its truth) or ``None``/``SOMETHING`` (whether
it is None). Only these forms of a test are folded: the name itself, ``name is None``,
``name is not None``, ``not TEST``, and ``and``/``or`` whose first operand folds; so the code
states a flag first where it should fold: ``if table is not None and ...``.

Folding leaves work behind that nothing needs, and two more steps remove it, repeated until
nothing changes: a local set once, to ``True``, ``False`` or ``None``, becomes a fact of its
function (``chance = is_chance is not None and ...`` folds to ``chance = False``, and then
``if chance:`` goes); and a store to a local that nothing reads any more is dropped (the
table's key, the window kept for the table), when what it stores costs nothing to leave out:
a constant, a name, a tuple of those, or a name indexed by a constant (assumed not to fail).
"""

from __future__ import annotations

import __future__
import ast
import copy
import inspect
import textwrap
from collections import Counter
from collections.abc import Callable, Iterator, Mapping
from functools import lru_cache
from typing import Any, TypeVar

F = TypeVar("F", bound=Callable[..., Any])

SOMETHING = object()
"""What a fact says of a name that is never None (an object whose truth is not known)."""

Fact = bool | object  # True, False, None or SOMETHING


class _Folder(ast.NodeTransformer):
    """Replaces tests on known facts by constants and drops the branches they rule out."""

    def __init__(self, facts: Mapping[str, Fact]) -> None:
        self.facts = facts
        self.changed = False  # whether a test was decided (and so replaced)

    def known(self, test: ast.expr) -> bool | None:
        """The truth of ``test`` if the facts decide it, else None."""
        truth = self._truth(test)
        self.changed = self.changed or truth is not None
        return truth

    def _truth(self, test: ast.expr) -> bool | None:
        if isinstance(test, ast.Constant) and isinstance(test.value, bool):
            return test.value
        if isinstance(test, ast.Name) and test.id in self.facts:
            fact = self.facts[test.id]
            return fact if isinstance(fact, bool) else None if fact is SOMETHING else False
        if (isinstance(test, ast.Compare) and len(test.ops) == 1 and isinstance(test.ops[0], (ast.Is, ast.IsNot))
                and isinstance(test.left, ast.Name) and test.left.id in self.facts
                and isinstance(test.comparators[0], ast.Constant) and test.comparators[0].value is None):
            fact = self.facts[test.left.id]
            if fact is None or fact is SOMETHING:
                return (fact is None) == isinstance(test.ops[0], ast.Is)
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self.known(test.operand)
            return None if inner is None else not inner
        return None

    def visit_BoolOp(self, node: ast.BoolOp) -> ast.expr:
        node = self.generic_visit(node)  # type: ignore[assignment]
        # Only leading operands are folded: they are evaluated first, so dropping one that is
        # known changes neither the value nor what else is evaluated.
        decisive = isinstance(node.op, ast.Or)  # the truth that ends an `or`
        while node.values:
            first = self.known(node.values[0])
            if first is None:
                break
            if first == decisive:
                return ast.copy_location(ast.Constant(decisive), node)
            node.values.pop(0)
        if not node.values:
            return ast.copy_location(ast.Constant(not decisive), node)
        if len(node.values) == 1:
            return node.values[0]
        return node

    def visit_UnaryOp(self, node: ast.UnaryOp) -> ast.expr:
        node = self.generic_visit(node)  # type: ignore[assignment]
        truth = self.known(node)
        return node if truth is None else ast.copy_location(ast.Constant(truth), node)

    def visit_Compare(self, node: ast.Compare) -> ast.expr:
        truth = self.known(node)
        return self.generic_visit(node) if truth is None else ast.copy_location(ast.Constant(truth), node)  # type: ignore[return-value]

    def visit_IfExp(self, node: ast.IfExp) -> ast.expr:
        node = self.generic_visit(node)  # type: ignore[assignment]
        truth = self.known(node.test)
        return node if truth is None else node.body if truth else node.orelse

    def visit_If(self, node: ast.If) -> Any:
        node = self.generic_visit(node)  # type: ignore[assignment]
        truth = self.known(node.test)
        if truth is None:
            return node
        kept = node.body if truth else node.orelse
        return kept or None  # an empty branch leaves nothing behind


_Function = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda


def _own_nodes(function: _Function) -> Iterator[ast.AST]:
    """The nodes of ``function``'s body, not those of the functions inside it."""
    pending: list[ast.AST] = list(function.body) if isinstance(function.body, list) else [function.body]
    while pending:
        node = pending.pop()
        yield node
        if not isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            pending.extend(ast.iter_child_nodes(node))


def _bound_names(node: ast.AST) -> list[str]:
    """The names ``node`` binds or unbinds, whatever the form."""
    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        return [node.id]
    if isinstance(node, ast.arg):
        return [node.arg]
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return [node.name]
    if isinstance(node, ast.ExceptHandler) and node.name:
        return [node.name]
    if isinstance(node, ast.alias):
        return [(node.asname or node.name).split(".")[0]]
    if isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
        return [node.name]
    if isinstance(node, ast.MatchMapping) and node.rest:
        return [node.rest]
    return []


class _Names:
    """What each function of a tree does with names (its inner functions included), in one
    walk: how often it binds each name, and which names it reads."""

    def __init__(self, tree: ast.AST) -> None:
        self.bound: dict[ast.AST, Counter[str]] = {}
        self.read: dict[ast.AST, set[str]] = {}
        self._visit(tree, [])

    def _visit(self, node: ast.AST, enclosing: list[ast.AST]) -> None:
        bound, read = _bound_names(node), []
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Store):
            read = [node.id]
        elif isinstance(node, (ast.Nonlocal, ast.Global)):
            # Stores to them are seen outside: kept (as if read), and never folded (as if bound twice).
            read, bound = node.names, node.names * 2
        for function in enclosing:
            self.bound[function].update(bound)
            self.read[function].update(read)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
            self.bound[node], self.read[node] = Counter(), set()
            enclosing = [*enclosing, node]
        for child in ast.iter_child_nodes(node):
            self._visit(child, enclosing)


def _constant_locals(function: _Function, names: _Names) -> dict[str, Fact]:
    """The locals of ``function`` set once, to True, False or None, and never bound otherwise
    (as a parameter, a loop variable, an inner function, ...), so that every read after the
    one store sees that value: a read before it, an error in the original, is folded too."""
    constants: dict[str, Fact] = {}
    for node in _own_nodes(function):
        if (isinstance(node, ast.Assign) and len(node.targets) == 1 and isinstance(node.targets[0], ast.Name)
                and isinstance(node.value, ast.Constant) and node.value.value in (True, False, None)):
            constants[node.targets[0].id] = node.value.value
    bound = names.bound.get(function, Counter())
    return {name: value for name, value in constants.items() if bound[name] == 1}


def _costs_nothing(value: ast.expr) -> bool:
    """Whether leaving ``value`` unevaluated changes nothing."""
    if isinstance(value, (ast.Constant, ast.Name)):
        return True
    if isinstance(value, ast.Tuple):
        return all(_costs_nothing(item) for item in value.elts)
    return (isinstance(value, ast.Subscript) and isinstance(value.value, ast.Name)
            and isinstance(value.slice, ast.Constant))


class _DeadStores(ast.NodeTransformer):
    """Drops the stores of one function to locals that nothing reads."""

    def __init__(self, function: _Function, names: _Names) -> None:
        self.function = function
        self.read = names.read.get(function, set())
        self.changed = False

    def dead(self, target: ast.expr) -> bool:
        return isinstance(target, ast.Name) and target.id not in self.read

    def visit_FunctionDef(self, node: ast.FunctionDef) -> ast.AST:
        return node if node is not self.function else self.generic_visit(node)

    visit_AsyncFunctionDef = visit_FunctionDef  # type: ignore[assignment]

    def visit_Lambda(self, node: ast.Lambda) -> ast.AST:
        return node

    def visit_AnnAssign(self, node: ast.AnnAssign) -> ast.AST | None:
        if node.value is not None and self.dead(node.target) and _costs_nothing(node.value):
            self.changed = True
            return None
        return node

    def visit_Assign(self, node: ast.Assign) -> ast.AST | None:
        if not _costs_nothing(node.value):
            return node
        targets = [target for target in node.targets if not self.dead(target)]
        if len(node.targets) == 1 and isinstance(node.targets[0], ast.Tuple) and isinstance(node.value, ast.Tuple) \
                and len(node.targets[0].elts) == len(node.value.elts):
            pairs = [(t, v) for t, v in zip(node.targets[0].elts, node.value.elts) if not self.dead(t)]
            if len(pairs) == len(node.value.elts):
                return node
            self.changed = True
            if not pairs:
                return None
            if len(pairs) == 1:
                return ast.copy_location(ast.Assign(targets=[pairs[0][0]], value=pairs[0][1]), node)
            return ast.copy_location(ast.Assign(
                targets=[ast.Tuple([t for t, _ in pairs], ast.Store())], value=ast.Tuple([v for _, v in pairs], ast.Load())), node)
        if len(targets) == len(node.targets):
            return node
        self.changed = True
        if not targets:
            return None
        node.targets = targets
        return node


def _clear_leftovers(tree: ast.AST) -> None:
    """Fold the locals that folding made constant and drop the stores nothing reads, in
    every function of ``tree``, until nothing changes."""
    functions = [node for node in ast.walk(tree) if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))]
    changed = True
    while changed:
        changed = False
        names = _Names(tree)  # counted before the round: what the round removes only keeps more
        for function in functions:
            constants = _constant_locals(function, names)
            if constants:
                folder = _Folder(constants)
                folder.visit(function)
                changed = changed or folder.changed
            _fill_empty_bodies(function)
            cleaner = _DeadStores(function, names)
            cleaner.visit(function)
            changed = changed or cleaner.changed


def _fill_empty_bodies(tree: ast.AST) -> None:
    """Give every block emptied by folding a ``pass``."""
    for node in ast.walk(tree):
        block = getattr(node, "body", None)
        if isinstance(block, list) and not block:
            block.append(ast.copy_location(ast.Pass(), node))


@lru_cache(maxsize=None)
def _source(function: Callable[..., Any]) -> tuple[ast.Module, str]:
    lines, first = inspect.getsourcelines(function)
    tree = ast.parse(textwrap.dedent("".join(lines)))
    ast.increment_lineno(tree, first - 1)
    return tree, inspect.getsourcefile(function) or "<specialised>"


def specialised(function: F, facts: Mapping[str, Fact]) -> F:
    """``function`` compiled again with ``facts`` folded in (the function itself if its
    source cannot be read: the result is the same, only slower). It must be a plain function
    of a module, without decorators; it keeps its module's globals."""
    try:
        tree, filename = _source(function)
    except (OSError, TypeError):
        return function
    folded = _Folder(facts).visit(copy.deepcopy(tree))  # folding changes nodes in place
    _clear_leftovers(folded)
    _fill_empty_bodies(folded)
    ast.fix_missing_locations(folded)
    made: dict[str, Any] = {}
    # Annotations stay unevaluated, as in the modules this is used for.
    code = compile(folded, filename, "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)
    exec(code, function.__globals__, made)
    result: F = made[function.__name__]
    return result

