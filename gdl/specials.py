"""The special names of a game (`to_move`, `moves`, ...): what each must be, and the checks that
look at them as a whole: one that is missing or misspelled, the players `to_move` can give."""

from __future__ import annotations

import difflib
from typing import Collection, Iterator, Mapping

from gdl import ast
from gdl.kinds import ANY, BOOL, INT, LIST, NUMBER, PLAYER, STRING, SYMBOL, Kind, describe, element, fits

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

    def __init__(self, players: tuple[str, ...], has_outcomes: bool, symbols: Mapping[int, str], kinds: Mapping[int, Kind]) -> None:
        self.players = players
        self.has_outcomes = has_outcomes
        self.symbols = symbols  # the nodes that name a symbol: id(node) -> its name
        self.kinds = kinds
        self.proven = True  # every value is known to be a player, or `chance` with outcomes

    def mistakes(self, value: ast.Expr) -> Iterator[tuple[ast.Node, str]]:
        """Each value that is a symbol but no player, with what to say about it."""
        pending = [value]
        while pending:
            source = pending.pop()
            name = self.symbols.get(id(source))
            if isinstance(source, ast.Conditional):
                pending += [source.otherwise, source.then]
            elif name == "chance" and not self.has_outcomes:
                yield source, "`to_move` gives `chance`, but the game has no `outcomes` saying what chance does"
            elif name is not None and name != "chance" and name not in self.players:
                yield source, f"`to_move` gives `{name}`, which is not a player (the players: {', '.join(self.players)})"
            elif name is None and self.kinds.get(id(source)) != PLAYER:
                self.proven = False


def probability_mistake(outcomes: Kind) -> str | None:
    """What is wrong with the kind of `outcomes` when its probabilities are not numbers."""
    pair = element(outcomes)
    if pair.name == "tuple" and len(pair.args) == 2 and not fits(pair.args[1], NUMBER):
        return f"each probability in `outcomes` must be a number, got {describe(pair.args[1])}"
    return None
