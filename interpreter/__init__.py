"""The interpreter: turns a checked game file into a fast object implementing the game protocol."""

from __future__ import annotations

from gdl.model import CheckedGame
from interpreter.game import BaseGame, Game, State
from interpreter.passes import Passes
from interpreter.tree import TreeGame
from gdl.values import Grid, Map, Set, Symbol, symbol, to_text

__all__ = ["BaseGame", "Game", "Grid", "Map", "Passes", "Set", "State", "Symbol", "TreeGame", "build", "symbol", "to_text"]


def build(checked: CheckedGame) -> BaseGame:
    """The game object for a checked game: compiled rules, or a tree table."""
    if checked.tree is not None:
        return TreeGame(checked)
    return Game(checked)
