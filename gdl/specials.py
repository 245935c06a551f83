"""The special names of a game (`to_move`, `moves`, ...): what each must be, and the checks that
look at them as a whole: one that is missing or misspelled, the players `to_move` can give."""

from __future__ import annotations

import difflib
from typing import Collection, Iterator, Mapping

from gdl import ast, model
from gdl.kinds import ANY, BOOL, CELL, INT, LIST, NUMBER, PLAYER, STRING, SYMBOL, Kind, describe, element, fits, list_of, map_of

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
"""Definitions with a meaning to the game: the kind each must have, and what it means."""

SPECIAL_FUNCTIONS: dict[str, tuple[int, Kind, str]] = {"move_name": (1, STRING, "how a move is printed")}
"""Functions with a meaning to the game: their number of arguments, kind and meaning."""

REQUIRED = ("to_move", "moves", "terminal", "utility")
"""The special definitions every game (but a `tree:` table) must have."""

# How close a name must be to a special one to be taken for its misspelling: when a required
# name is missing the game is wrong anyway and any likely candidate helps; when an optional one
# is, only a near-certain typo is reported (the game would be valid without the hint).
_HINT_CUTOFF = 0.6
_TYPO_CUTOFF = 0.85


def misspelling(name: str, defined: Mapping[str, ast.Node], used: Collection[str]) -> ast.Node | None:
    """The declaration, never used, whose name is a close misspelling of the special `name`."""
    unused = [n for n in defined if n not in used and n not in SPECIAL_DEFINITIONS and n not in SPECIAL_FUNCTIONS]
    cutoff = _HINT_CUTOFF if name in REQUIRED else _TYPO_CUTOFF
    close = difflib.get_close_matches(name, unused, n=1, cutoff=cutoff)
    return defined[close[0]] if close else None


def missing_specials(
    definitions: Mapping[str, ast.Definition], functions: Mapping[str, ast.Function], used: Collection[str]
) -> Iterator[tuple[ast.Node | None, str]]:
    """Each special name that is misspelled (where) or required and missing (None), with what
    to say about it."""
    for name, (_, what) in SPECIAL_DEFINITIONS.items():
        if name in definitions or name in functions:
            continue  # a function of a definition's name is reported with the kinds
        typo = misspelling(name, definitions, used)
        needed = f"a game needs `{name} = ...`: {what}" if name in REQUIRED else what
        if typo is not None:
            yield typo, f"`{_name_of(typo)}` is never used; did you mean `{name}`? ({needed})"
        elif name in REQUIRED:
            yield None, needed
    for name, (_, _, what) in SPECIAL_FUNCTIONS.items():
        typo = None if name in functions or name in definitions else misspelling(name, functions, used)
        if typo is not None:
            yield typo, f"`{_name_of(typo)}` is never used; did you mean `{name}`? ({what})"


def _name_of(node: ast.Node) -> str:
    assert isinstance(node, (ast.Definition, ast.Function))
    return node.name


class Movers:
    """What the checker can tell of the players `to_move` gives, following `A if C else B` to
    each value it can come from."""

    def __init__(self, players: tuple[str, ...], has_outcomes: bool) -> None:
        self.players = players
        self.has_outcomes = has_outcomes
        self.proven = True  # every value is known to be a player, or `chance` with outcomes

    def mistakes(self, value: model.Expr) -> Iterator[tuple[model.Node, str]]:
        """Each value that is a symbol but no player, with what to say about it."""
        pending = [value]
        while pending:
            source = pending.pop()
            name = source.name if isinstance(source, model.SymbolRef) else None
            if isinstance(source, model.Conditional):
                pending += [source.otherwise, source.then]
            elif name == "chance" and not self.has_outcomes:
                yield source, "`to_move` gives `chance`, but the game has no `outcomes` saying what chance does"
            elif name is not None and name != "chance" and name not in self.players:
                yield source, f"`to_move` gives `{name}`, which is not a player (the players: {', '.join(self.players)})"
            elif name is None and source.kind != PLAYER:
                self.proven = False


def probability_mistake(outcomes: Kind) -> str | None:
    """What is wrong with the kind of `outcomes` when its probabilities are not numbers."""
    pair = element(outcomes)
    if pair.name == "tuple" and len(pair.args) == 2 and not fits(pair.args[1], NUMBER):
        return f"each probability in `outcomes` must be a number, got {describe(pair.args[1])}"
    return None


_CELL_MAPS = list_of(map_of(CELL, CELL))


def rule_mistakes(
    definitions: Mapping[str, model.Definition], functions: Mapping[str, model.Function], fields: tuple[model.Field, ...]
) -> Iterator[tuple[ast.Node, str]]:
    """What is wrong with the special rules that must not read the state: `move_name` names a
    move on its own, and `symmetries` are the board's, the same in every state; the symmetries'
    cell maps must be maps from cell to cell and, where the sizes can be told before the game
    runs, of the size of every board."""
    move_name = functions.get("move_name")
    if move_name is not None and move_name.reads_state:
        yield move_name.node, "`move_name` must not read the state: it names a move on its own"
    symmetries = definitions.get("symmetries")
    if symmetries is None:
        return
    node = symmetries.node
    if symmetries.reads_state:
        yield node, "`symmetries` must not depend on the state"
    elif fits(symmetries.kind, LIST) and not fits(symmetries.kind, _CELL_MAPS):
        yield node, "each symmetry must be a map from cell to cell"
    else:
        maps = _board_size(symmetries.value)
        for item in fields:
            board = _board_size(item.initial)
            if maps is not None and board is not None and item.kind.name == "grid" and maps != board:
                yield node, f"a symmetry must map the {board[0]}x{board[1]} board's cells onto themselves"


def _board_size(value: model.Expr) -> tuple[int, int] | None:
    """The size of the board that `grid(rows, cols, ...)`, `dihedral(n)` or `mirror(rows, cols)`
    is for, when its arguments are numbers and parameters."""
    if not isinstance(value, model.BuiltinCall) or value.builtin.name not in ("grid", "dihedral", "mirror"):
        return None
    sizes = [_whole_number(arg) for arg in value.args[:2]]
    if value.builtin.name == "dihedral":
        sizes = sizes[:1] * 2
    rows, cols = sizes
    return (rows, cols) if rows is not None and cols is not None else None


def _whole_number(value: model.Expr) -> int | None:
    """The integer an expression of numbers and parameters gives, if it is that simple."""
    if isinstance(value, model.ParamRef):
        return _whole_number(value.param.value)
    if isinstance(value, model.Constant) and type(value.value) is int:
        return value.value
    return None
