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
"""

from __future__ import annotations

import __future__
import ast
import copy
import inspect
import textwrap
from collections.abc import Callable, Mapping
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

    def known(self, test: ast.expr) -> bool | None:
        """The truth of ``test`` if the facts decide it, else None."""
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
    _fill_empty_bodies(folded)
    ast.fix_missing_locations(folded)
    made: dict[str, Any] = {}
    # Annotations stay unevaluated, as in the modules this is used for.
    code = compile(folded, filename, "exec", flags=__future__.annotations.compiler_flag, dont_inherit=True)
    exec(code, function.__globals__, made)
    result: F = made[function.__name__]
    return result

