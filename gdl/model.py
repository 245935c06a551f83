"""The checked model of a game: what the checker hands to the interpreter."""

from __future__ import annotations

from dataclasses import dataclass, field

from gdl import ast
from gdl.errors import Source
from gdl.kinds import ANY, Kind


@dataclass
class CheckedGame:
    """A program that passed every check, with what the checks learned about it."""

    source: Source
    program: ast.Program
    title: str
    players: tuple[str, ...]
    symbols: tuple[str, ...]
    params: dict[str, ast.Expr]
    fields: tuple[ast.Field, ...]
    definitions: dict[str, ast.Definition]
    functions: dict[str, ast.Function]
    result: ast.Result | None
    tree: ast.Tree | None
    state_dependent: frozenset[str]
    constant_order: tuple[str, ...]
    kinds: dict[int, Kind] = field(repr=False)
    refers: dict[int, str] = field(repr=False)
    to_move_proven: bool = False
    """Whether the checker knows every value of `to_move` to be a player (or `chance`); when
    not, the interpreter checks each value as the game runs."""

    def kind_of(self, node: ast.Node) -> Kind:
        """The kind the checker inferred for an expression."""
        return self.kinds.get(id(node), ANY)
