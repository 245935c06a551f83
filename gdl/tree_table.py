"""The checks of a game given as a `tree:` table: one row a node, one root, every node reached."""

from __future__ import annotations

from typing import Iterator

from gdl import ast


def _named_children(row: ast.TreeRow) -> Iterator[tuple[ast.TreeChild, str]]:
    """Each child of ``row`` with its name: its own, or for a leaf without one, its parent's
    followed by its position from 1 (A's second child is A2)."""
    for position, child in enumerate(row.children, start=1):
        yield child, child.name if child.name is not None else f"{row.parent}{position}"


def tree_mistakes(tree: ast.Tree) -> Iterator[tuple[ast.Node, str]]:
    """Each mistake of the table, where it is: a node with two rows or two parents, a child
    with neither a row nor a value (or with both), not exactly one root, rows not reached."""
    parents: dict[str, ast.TreeRow] = {}
    children: dict[str, bool] = {}  # each child's name -> whether it was named automatically
    automatic = "a leaf without a name is called after its parent and position"
    for row in tree.rows:
        if row.parent in parents:
            yield row, f"node `{row.parent}` has two rows (first at line {parents[row.parent].line})"
        parents[row.parent] = row
        for child, name in _named_children(row):
            if name in children:
                if child.name is None or children[name]:
                    yield child, f"two nodes are called `{name}` ({automatic}); rename the other node"
                else:
                    yield child, f"node `{name}` appears twice as a child; each node has one parent"
            children[name] = child.name is None
    for row in tree.rows:
        for child, name in _named_children(row):
            if child.value is None and child.name not in parents:
                yield child, f"node `{child.name}` has no row of its own: give it children (`{child.name} -> ...`) or a value"
            elif child.value is not None:
                if name in parents:
                    also = f" ({automatic})" if child.name is None else ""
                    yield child, f"node `{name}` is a leaf{also} but also has a row of its own; a node has children or a value, not both"
    roots = [name for name in parents if name not in children]
    if not roots and parents:  # every node has a parent: following the rows goes round
        yield tree, ("a tree needs a root, a node that is nobody's child, but every node of this one is a child: "
                     f"its rows form a cycle ({' -> '.join(_a_cycle(parents))})")
        return
    if len(roots) != 1:
        yield tree, f"a tree needs exactly one root (a node that is nobody's child); found {len(roots)}: {', '.join(roots) or 'none'}"
        return
    reached, pending = set(roots), list(roots)
    while pending:
        below = parents.get(pending.pop())
        for _, name in _named_children(below) if below is not None else ():
            if name not in reached:
                reached.add(name)
                pending.append(name)
    for name, row in parents.items():
        if name not in reached:
            yield row, f"node `{name}` cannot be reached from the root `{roots[0]}` (its rows form a cycle)"


def _a_cycle(parents: dict[str, ast.TreeRow]) -> list[str]:
    """A cycle of rows, as the nodes met going down it and the first again (``parents``: each
    row by its node, every one of them some row's child: so going up from child to parent goes
    on for ever, and must come round)."""
    # Leaves without a name count too: their automatic name may also be a row's node.
    parent_of = {name: node for node, row in parents.items() for _, name in _named_children(row)}
    line: list[str] = []
    node = next(iter(parents))
    while node not in line:
        line.append(node)
        node = parent_of[node]
    up = line[line.index(node):] + [node]
    return up[::-1]
