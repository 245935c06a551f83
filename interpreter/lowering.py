"""Cells of boards of known size read by their flat position (the `flat_cells` pass).

A grid is a tuple of its cells, row by row; `board[c]` looks the cell `c` up in the board's
table of positions, hashing the pair (row, col). When the game has loaded, the size of every
board that `result` only changes cell by cell is known, and so are the constants: a cell that
is a constant, and the cells a loop takes from a constant (`for c in line`, `for line in
lines`), become positions, computed once: the loop goes over positions, and `board[c]` reads
one item of the tuple. A cell `(r, c)` whose row and column are known to be on the board
becomes `r * cols + c`. A cell that is not on the board is left as it is, so that the game
reports it as it always did.
"""

from __future__ import annotations

import functools
from collections import defaultdict
from dataclasses import dataclass
from typing import Any, Callable, Iterable

from gdl import model
from gdl.kinds import BOOL, INT
from interpreter.lowered import Loaded, Position, rewrite

Size = tuple[int, int]
_MAX_WIDTH = 8  # the longest line whose `all`/`any` is written out cell by cell
_MAX_LINES = 16  # the most lines, known at load, whose `any`/`all` is written out line by line
ValueOf = Callable[[model.Expr], tuple[bool, Any]]
"""The value of an expression known at load: (True, value), or (False, None)."""
Store = Callable[[Any, model.Expr], Loaded]
"""Keeps a value made at load; the node that reads it, standing where `model.Expr` stood."""


@dataclass
class _Loop:
    """A loop that binds one local name: its iterable, and the values it may take."""

    local: model.Local
    iterable: model.Expr
    collections: list[tuple[Any, ...]] | None  # each collection it may go over; None: unknown


class Lowering:
    """The pass over one rule's body."""

    def __init__(self, boards: dict[model.Field, Size], value_of: ValueOf, store: Store, unroll_lines: bool = True) -> None:
        self.boards = boards
        self.unroll_lines = unroll_lines
        self.value_of = value_of
        self.store = store
        self.loops: dict[model.Local, _Loop] = {}
        self.uses: dict[model.Local, list[tuple[str, Any]]] = defaultdict(list)
        self.flat: dict[model.Local, Size] = {}
        self.lines: dict[model.Local, Size] = {}
        self.paired: dict[model.Local, tuple[Size, model.Local]] = {}
        self.iterables: dict[model.Local, model.Expr] = {}  # each lowered loop's new iterable
        self.widths: dict[model.Local, int] = {}  # lines loops whose lines all have this length
        self.cell_tables: dict[Size, Loaded] = {}  # each board size's cells, by position

    def __call__(self, body: model.Node) -> model.Node:
        """`body` with its cells lowered."""
        self.find_loops(body)
        self.find_uses(body)
        for loop in self.loops.values():
            self.choose(loop)
        return rewrite(body, self.change)

    # ---- what is known
    def find_loops(self, body: model.Node) -> None:
        """Every loop of the body that binds one name, with the values it may take."""
        for node in model.walk(body):
            if isinstance(node, (model.ForClause, model.For)) and isinstance(node.target, model.NamePattern):
                local = node.target.local
                self.loops[local] = _Loop(local, node.iterable, self.collections(node.iterable))

    def collections(self, iterable: model.Expr) -> list[tuple[Any, ...]] | None:
        """Every collection `iterable` may be, when that is known at load."""
        known, value = self.value_of(iterable)
        if known:
            return [tuple(value)] if isinstance(value, (tuple, frozenset, dict)) else None
        if isinstance(iterable, model.Index) and not isinstance(iterable.index, Position):
            known, container = self.value_of(iterable.target)
            if known and isinstance(container, dict):
                return [tuple(v) for v in container.values() if isinstance(v, tuple)] or None
            if known and isinstance(container, tuple):
                return [tuple(v) for v in container if isinstance(v, tuple)] or None
        if isinstance(iterable, model.LocalRef) and iterable.local in self.loops:
            outer = self.loops[iterable.local].collections
            if outer is not None and all(isinstance(item, tuple) for c in outer for item in c):
                return [item for c in outer for item in c]
        return None

    def find_uses(self, body: model.Node) -> None:
        """Each use of a loop's local: as a cell of a board, as the collection of another loop
        (with that loop's local), or anything else. (The items `count` counts are no use: it
        counts them whatever they are.)"""
        counted = {node.args[0].element for node in model.walk(body)
                   if isinstance(node, model.BuiltinCall) and node.builtin.name == "count" and len(node.args) == 1
                   and isinstance(node.args[0], model.Comprehension)}
        for node in model.walk(body):
            for child, role in self.roles(node):
                if isinstance(child, model.LocalRef) and child.local in self.loops and child not in counted:
                    self.uses[child.local].append(role)

    def roles(self, node: model.Node) -> Iterable[tuple[model.Node, tuple[str, Any]]]:
        """Each child of `node` and how `node` uses it: ("cell", board size), ("lines", the
        local of the loop over it), or ("other", None)."""
        if isinstance(node, model.Index):
            size = self.board_size(node.target)
            yield node.index, ("cell", size) if size is not None else ("other", None)
            yield node.target, ("other", None)
        elif isinstance(node, model.Place):
            size = self.boards.get(node.root) if isinstance(node.root, model.Field) and len(node.indexes) == 1 else None
            for index in node.indexes:
                yield index, ("cell", size) if size is not None else ("other", None)
        elif isinstance(node, (model.ForClause, model.For)):
            inner = node.target.local if isinstance(node.target, model.NamePattern) else None
            yield node.iterable, ("lines", inner) if inner is not None else ("other", None)
            yield from ((child, ("other", None)) for child in node.children() if child is not node.iterable)
        else:
            yield from ((child, ("other", None)) for child in node.children())

    def board_size(self, target: model.Expr) -> Size | None:
        """The size of the board `target` is, when it is a board field of known size."""
        if isinstance(target, model.FieldRef):
            return self.boards.get(target.field)
        return None

    # ---- what becomes of each loop
    def choose(self, loop: _Loop) -> None:
        """Decide what the loop goes over: positions (its cells used only on one board), positions
        and a table of cells (used otherwise too), lines of positions, or what it did."""
        uses = self.uses.get(loop.local, [])
        if loop.collections is None or not uses or loop.local in self.flat or loop.local in self.lines:
            return
        sizes = {size for role, size in uses if role == "cell"}
        others = [role for role, _ in uses if role == "other"]
        inner = [local for role, local in uses if role == "lines"]
        if len(sizes) == 1 and not inner and not isinstance(loop.iterable, model.LocalRef):
            size = sizes.pop()
            positions = [_positions(c, size) for c in loop.collections]
            if any(p is None for p in positions):
                return
            if not others:
                self.flat[loop.local] = size
                self.iterables[loop.local] = self.lowered(loop, lambda items: _positions(items, size))
            elif isinstance(loop.iterable, (Loaded, model.DefinitionRef, model.ParamRef)):
                # The loop goes over positions; the cell, where it is used otherwise, is read
                # from a table of the cells by position.
                partner = model.Local("__" + loop.local.name, INT, loop.local.line, loop.local.column)
                self.paired[loop.local] = (size, partner)
                self.iterables[loop.local] = self.lowered(loop, lambda items: _positions(items, size))
                if size not in self.cell_tables:
                    table = tuple((p // size[1], p % size[1]) for p in range(size[0] * size[1]))
                    self.cell_tables[size] = self.store(table, loop.iterable)
        elif not sizes and not others and inner and not isinstance(loop.iterable, model.LocalRef):
            self.lines_loop(loop, inner)

    def lines_loop(self, loop: _Loop, inner: list[model.Local]) -> None:
        """A loop over lines of cells whose every use is a loop over a line's cells, each cell
        used only on one board: both loops go over positions."""
        sizes = set()
        for local in inner:
            uses = self.uses.get(local, [])
            if not uses or any(role != "cell" for role, _ in uses):
                return
            sizes |= {size for _, size in uses}
        if len(sizes) != 1:
            return
        size = sizes.pop()
        assert loop.collections is not None
        lowered_lines: list[tuple[tuple[int, ...], ...]] = []
        for collection in loop.collections:
            lines = [_positions(line, size) for line in collection]
            if any(line is None for line in lines):
                return
            lowered_lines.append(tuple(line for line in lines if line is not None))
        self.lines[loop.local] = size
        lengths = {len(line) for lines in lowered_lines for line in lines}
        if len(lengths) == 1 and 0 < min(lengths) <= _MAX_WIDTH:
            self.widths[loop.local] = lengths.pop()
        for local in inner:
            self.flat[local] = size
        self.iterables[loop.local] = self.lowered(loop, lambda items: tuple(_positions(line, size) for line in items))

    def lowered(self, loop: _Loop, lower: Callable[[tuple[Any, ...]], Any]) -> model.Expr:
        """The loop's iterable, its cells made positions at load."""
        known, value = self.value_of(loop.iterable)
        if known:
            return self.store(lower(tuple(value)), loop.iterable)
        assert isinstance(loop.iterable, model.Index)
        _, container = self.value_of(loop.iterable.target)
        if isinstance(container, dict):
            made: Any = type(container)({k: lower(v) for k, v in container.items()})
        else:
            made = tuple(lower(v) for v in container)
        target = self.store(made, loop.iterable.target)
        return model.Index(target, loop.iterable.index, kind=loop.iterable.kind, line=loop.iterable.line, column=loop.iterable.column)

    # ---- the rewriting
    def change(self, node: model.Node) -> model.Node | None:
        """The node lowered, or None to look at its children (see `rewrite`)."""
        if isinstance(node, model.BuiltinCall):
            return (self.unroll_lines and self.across_lines(node)) or self.across_line(node)
        if isinstance(node, model.LocalRef) and node.local in self.paired:
            size, partner = self.paired[node.local]
            at = {"line": node.line, "column": node.column}
            return model.Index(self.cell_tables[size], model.LocalRef(partner, kind=INT, **at), kind=node.kind, **at)
        if isinstance(node, model.Index):
            board = self.board_size(node.target)
            position = self.position(node.index, board) if board is not None else None
            if position is not None:
                return model.Index(rewrite(node.target, self.change), position, kind=node.kind, line=node.line, column=node.column)
        elif isinstance(node, model.Place) and isinstance(node.root, model.Field) and len(node.indexes) == 1:
            board = self.boards.get(node.root)
            position = self.position(node.indexes[0], board) if board is not None else None
            if position is not None:
                return model.Place(node.root, (position,), node.kinds, line=node.line, column=node.column)
        elif isinstance(node, (model.ForClause, model.For)) and isinstance(node.target, model.NamePattern):
            return self.loop(node)
        return None

    def across_lines(self, node: model.BuiltinCall) -> model.Node | None:
        """`any(E(line) for line in LINES)` (or `all`) over a few lines known at load, each cell
        of each line a position: `E(LINES[0]) or ... or E(LINES[n - 1])`, every cell a constant
        position, without a loop."""
        clause = _single_loop(node)
        if clause is None or not isinstance(clause.target, model.NamePattern):
            return None
        local = clause.target.local
        if local not in self.lines or local not in self.widths:
            return None
        known, value = self.value_of(clause.iterable)
        if not known or not isinstance(value, tuple) or not 0 < len(value) <= _MAX_LINES:
            return None
        size = self.lines[local]
        generator = node.args[0]
        assert isinstance(generator, model.Comprehension)
        element = rewrite(generator.element, self.change)
        terms = []
        for line in value:
            positions = _positions(line, size)
            if positions is None:
                return None
            term = rewrite(element, functools.partial(_cell_of_line, line=local, cells=positions))
            if any(isinstance(n, model.LocalRef) and n.local is local for n in model.walk(term)):
                return None  # the line is used otherwise than cell by cell
            terms.append(term)
        return _chain("or" if node.builtin.name == "any" else "and", terms, node)

    def across_line(self, node: model.BuiltinCall) -> model.Node | None:
        """`all(E(c) for c in line)` (or `any`) over a line of k cells, every line of the same
        length: `E(line[0]) and ... and E(line[k - 1])`, without a loop."""
        if node.builtin.name not in ("any", "all") or len(node.args) != 1:
            return None
        generator = node.args[0]
        if not (isinstance(generator, model.Comprehension) and generator.form == "generator" and len(generator.clauses) == 1):
            return None
        clause = generator.clauses[0]
        if not (isinstance(clause, model.ForClause) and isinstance(clause.target, model.NamePattern)
                and isinstance(clause.iterable, model.LocalRef) and clause.iterable.local in self.widths
                and generator.element.kind == BOOL):
            return None
        cell, line = clause.target.local, clause.iterable
        element = rewrite(generator.element, self.change)
        at = {"line": node.line, "column": node.column}
        terms = []
        for i in range(self.widths[line.local]):
            item = model.Index(line, model.Constant(i, kind=INT, **at), kind=INT, **at)
            terms.append(rewrite(element, lambda n: item if isinstance(n, model.LocalRef) and n.local is cell else None))
        chained = terms[0]
        for term in terms[1:]:
            chained = model.Binary("and" if node.builtin.name == "all" else "or", chained, term, kind=BOOL, **at)
        return chained

    def loop(self, node: model.ForClause | model.For) -> model.Node | None:
        """A loop over what `choose` decided for it."""
        assert isinstance(node.target, model.NamePattern)
        local = node.target.local
        if local not in self.iterables:
            return None
        target: model.Pattern = node.target
        if local in self.paired:
            target = model.NamePattern(self.paired[local][1], line=node.target.line, column=node.target.column)
        iterable = self.iterables[local]
        if isinstance(node, model.ForClause):
            return model.ForClause(target, iterable, line=node.line, column=node.column)
        return model.For(target, iterable, rewrite(node.body, self.change), line=node.line, column=node.column)

    def position(self, index: model.Expr, size: Size) -> Position | None:
        """The flat position of the cell `index`, when it is known to be on the board."""
        if isinstance(index, model.LocalRef) and self.flat.get(index.local) == size:
            return Position.of(index)
        if isinstance(index, model.LocalRef) and index.local in self.paired and self.paired[index.local][0] == size:
            partner = self.paired[index.local][1]
            return Position.of(model.LocalRef(partner, kind=INT, line=index.line, column=index.column))
        known, value = self.value_of(index)
        if known:
            found = _position(value, size)
            return None if found is None else Position.of(model.Constant(found, kind=INT, line=index.line, column=index.column))
        if isinstance(index, model.TupleExpr) and len(index.items) == 2:
            row, col = index.items
            if self.within(row, size[0]) and self.within(col, size[1]):
                return Position.of(_flat(row, col, size[1]))
        return None

    def within(self, value: model.Expr, bound: int) -> bool:
        """Whether the integer `value` is known to be in range(bound)."""
        known, number = self.value_of(value)
        if known:
            return type(number) is int and 0 <= number < bound
        if isinstance(value, model.LocalRef) and value.local in self.loops and value.local not in self.paired:
            collections = self.loops[value.local].collections
            return collections is not None and all(type(n) is int and 0 <= n < bound for c in collections for n in c)
        return False


def _position(cell: Any, size: Size) -> int | None:
    """The flat position of `cell` on a board of `size`, or None when it is no cell of it."""
    if type(cell) is not tuple or len(cell) != 2 or not all(type(n) is int for n in cell):
        return None
    row, col = cell
    return row * size[1] + col if 0 <= row < size[0] and 0 <= col < size[1] else None


def _positions(cells: Iterable[Any], size: Size) -> tuple[int, ...] | None:
    found = tuple(_position(cell, size) for cell in cells)
    return None if any(p is None for p in found) else found  # type: ignore[return-value]


def _flat(row: model.Expr, col: model.Expr, cols: int) -> model.Expr:
    """`row * cols + col`, folded where the row or the column is a number."""
    at = {"line": row.line, "column": row.column}
    if isinstance(row, model.Constant) and isinstance(row.value, int):
        offset = row.value * cols
        if offset == 0:
            return col
        return model.Binary("+", col, model.Constant(offset, kind=INT, **at), kind=INT, **at)
    scaled = model.Binary("*", row, model.Constant(cols, kind=INT, **at), kind=INT, **at)
    return model.Binary("+", scaled, col, kind=INT, **at)


def _single_loop(node: model.BuiltinCall) -> model.ForClause | None:
    """The one `for` clause of `any(E for x in xs)` or `all(...)` with a boolean E, or None."""
    if node.builtin.name not in ("any", "all") or len(node.args) != 1:
        return None
    generator = node.args[0]
    if not (isinstance(generator, model.Comprehension) and generator.form == "generator"
            and len(generator.clauses) == 1 and generator.element.kind == BOOL):
        return None
    clause = generator.clauses[0]
    return clause if isinstance(clause, model.ForClause) else None


def _cell_of_line(node: model.Node, line: model.Local, cells: tuple[int, ...]) -> model.Node | None:
    """`line[i]`, for the line `line` whose cells are `cells`: the constant position."""
    if (isinstance(node, model.Index) and isinstance(node.target, model.LocalRef) and node.target.local is line
            and isinstance(node.index, model.Constant) and type(node.index.value) is int):
        return model.Constant(cells[node.index.value], kind=INT, line=node.line, column=node.column)
    return None


def _chain(op: str, terms: list[model.Expr], at: model.Node) -> model.Expr:
    """`terms` joined by `and` or `or`, left to right."""
    chained = terms[0]
    for term in terms[1:]:
        chained = model.Binary(op, chained, term, kind=BOOL, line=at.line, column=at.column)
    return chained
