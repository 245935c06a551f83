"""Games written as explicit tree tables (`tree:`), as in the textbook figures."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from gdl import _hot
from gdl.ast import LeafValue
from gdl.model import CheckedGame
from gdl.values import symbol
from interpreter.game import BaseGame, Number, State

if TYPE_CHECKING:  # mypy sees typeguard's own decorator and checks the function
    from typeguard import typeguard_ignore
else:  # at run time typeguard is not needed: this stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore


class TreeGame(BaseGame):
    """A game tree given node by node: players alternate by depth, the first at the root.

    A state is the 1-tuple of a node's name; a move is the name of the child it leads to.
    Leaves named in the file keep their names; the others are named after their parent and
    position (`B1`, `B2`, ...). A leaf's value is one number, the first player's utility
    (zero-sum), or a payoff vector, each player's utility in player order; then the game
    declares `payoff_bounds` (the lowest and highest payoff of any leaf) and, when every
    leaf's payoffs add up to the same, `payoff_sum`, which max^n prunes with.
    """

    def __init__(self, checked: CheckedGame) -> None:
        assert checked.tree is not None
        self.checked = checked
        self.title = checked.title
        self.source = checked.source
        self.params: dict[str, Any] = {}
        self.players = tuple(symbol(p) for p in checked.players)
        self.children: dict[str, tuple[str, ...]] = {}
        self.values: dict[str, LeafValue] = {}
        children_of_all: set[str] = set()
        for row in checked.tree.rows:
            names = []
            for position, child in enumerate(row.children, start=1):
                named = child.name if child.name is not None else f"{row.parent}{position}"
                if child.value is not None:
                    self.values[named] = child.value
                names.append(named)
                children_of_all.add(named)
            self.children[row.parent] = tuple(names)
        root = next(name for name in self.children if name not in children_of_all)
        self.depth = {root: 0}
        pending = [root]
        while pending:
            node = pending.pop()
            for below in self.children.get(node, ()):
                self.depth[below] = self.depth[node] + 1
                pending.append(below)
        self._initial = (root,)
        self.zero_sum = checked.payoffs == "number"
        vectors = [v for v in self.values.values() if isinstance(v, tuple)]
        if vectors:
            self.payoff_bounds = (min(min(v) for v in vectors), max(max(v) for v in vectors))
            sums = {sum(v) for v in vectors}
            self.payoff_sum = sums.pop() if len(sums) == 1 else None

    def initial_state(self) -> State:
        """The root node."""
        return self._initial

    @typeguard_ignore
    def to_move(self, state: State) -> str:
        """The player at this depth: the first player at even depths."""
        return self.players[self.depth[state[0]] % len(self.players)]

    @typeguard_ignore
    def actions(self, state: State) -> tuple[Any, ...]:
        """The children of the node, left to right."""
        return self.children.get(state[0], ())

    @typeguard_ignore
    def result(self, state: State, move: Any) -> State:
        """The child the move names."""
        return (move,)

    @typeguard_ignore
    def is_terminal(self, state: State) -> bool:
        """Whether the node is a leaf."""
        return state[0] in self.values

    @typeguard_ignore
    def utility(self, state: State, player: str) -> Number:
        """The leaf's payoff for `player`: from its vector, or the leaf's number for the first
        player and its negation for the second."""
        value = self.values[state[0]]
        if isinstance(value, tuple):
            payoff: Number = value[self.players.index(player)]
            return payoff
        return value if player == self.players[0] else -value

    def display(self, state: State) -> str:
        """The node's name (and value, at a leaf)."""
        node: str = state[0]
        if node not in self.values:
            return node
        value = self.values[node]
        shown = "(" + ", ".join(map(str, value)) + ")" if isinstance(value, tuple) else str(value)
        return f"{node} = {shown}"
