"""Hypothesis strategies for random games, and a reference search to check searchers against."""

from __future__ import annotations

from collections.abc import Hashable
from typing import Any

from hypothesis import strategies as st

from tests.pygames import GraphGame, Nim, TreeGame

VALUES = st.integers(-6, 6)  # small, so that ties are common


def tree_table(draw: st.DrawFn, max_depth: int, max_branching: int) -> tuple[dict, dict]:
    """A random tree as TreeGame's table, with an estimate for every inner node.

    Inner nodes are named by their path of letters ("r", "ra", "rab"), so they
    never clash with TreeGame's leaf names (parent + digit).
    """
    tree: dict[str, list] = {}
    estimates: dict[str, int] = {}

    def grow(name: str, depth: int) -> None:
        estimates[name] = draw(VALUES)
        width = draw(st.integers(1, max_branching))
        children: list = []
        for i in range(width):
            if depth + 1 < max_depth and draw(st.booleans()):
                child = name + "abcdefgh"[i]
                grow(child, depth + 1)
                children.append(child)
            else:
                children.append(draw(VALUES))
        tree[name] = children

    grow("r", 0)
    return {"r": tree.pop("r"), **tree}, estimates


@st.composite
def random_trees(draw: st.DrawFn, max_depth: int = 4, max_branching: int = 3) -> TreeGame:
    """A random game tree with estimates (so depth limits and ordering apply)."""
    tree, estimates = tree_table(draw, max_depth, max_branching)
    return TreeGame(tree, estimates=estimates, name="random tree")


@st.composite
def random_dags(draw: st.DrawFn, layers: int = 4, width: int = 3) -> TreeGame:
    """A random layered game graph where nodes are shared: transpositions abound."""
    names = [["r"]] + [[f"n{depth}_{i}" for i in range(width)] for depth in range(1, layers)]
    tree: dict[str, list] = {}
    estimates: dict[str, int] = {}
    used = {"r"}
    for depth, layer in enumerate(names):
        for name in layer:
            if name not in used:
                continue
            estimates[name] = draw(VALUES)
            following = names[depth + 1] if depth + 1 < layers else []
            children: list = []
            for _ in range(draw(st.integers(1, 3))):
                options = [n for n in following if n not in children]
                if options and draw(st.booleans()):
                    child = draw(st.sampled_from(options))
                    used.add(child)
                    children.append(child)
                else:
                    children.append(draw(VALUES))
            tree[name] = children
    return TreeGame(tree, estimates=estimates, name="random dag")


class MirroredGame:
    """Every position of ``base`` in two orientations that share a canonical key.

    A move is (base move, orientation); moves made in one orientation are not
    legal in the other, so a table move found through a mirror image must be
    checked before use, as real symmetries (rotated boards) require.
    """

    def __init__(self, base: TreeGame) -> None:
        """Wrap ``base``."""
        self.base = base
        self.players = base.players
        self.has_evaluation = base.has_evaluation

    def _flips(self, move: Hashable) -> int:
        return sum(map(ord, str(move))) % 2

    def initial_state(self) -> tuple[Any, int]:
        """The base's initial state, first orientation."""
        return (self.base.initial_state(), 0)

    def to_move(self, state: tuple[Any, int]) -> str:
        """As in the base game."""
        return self.base.to_move(state[0])

    def actions(self, state: tuple[Any, int]) -> list[tuple[Any, int]]:
        """The base's moves, listed in reverse in the second orientation."""
        moves = [(move, state[1]) for move in self.base.actions(state[0])]
        return moves[::-1] if state[1] else moves

    def result(self, state: tuple[Any, int], move: tuple[Any, int]) -> tuple[Any, int]:
        """The base's result; some moves flip the orientation."""
        if move[1] != state[1]:
            raise ValueError(f"{move!r} is not legal in orientation {state[1]}")
        return (self.base.result(state[0], move[0]), state[1] ^ self._flips(move[0]))

    def is_terminal(self, state: tuple[Any, int]) -> bool:
        """As in the base game."""
        return self.base.is_terminal(state[0])

    def utility(self, state: tuple[Any, int], player: str) -> Any:
        """As in the base game."""
        return self.base.utility(state[0], player)

    def evaluate(self, state: tuple[Any, int], player: str) -> Any:
        """As in the base game."""
        return self.base.evaluate(state[0], player)

    def canonical(self, state: tuple[Any, int]) -> Any:
        """Both orientations of a position share a key."""
        return state[0]


@st.composite
def random_graphs(draw: st.DrawFn, max_size: int = 5) -> GraphGame:
    """A random game on a directed graph with cycles; some nodes are terminal."""
    nodes = [f"v{i}" for i in range(draw(st.integers(2, max_size)))]
    values = {f"t{i}": draw(VALUES) for i in range(3)}
    arcs = {}
    for node in nodes:
        targets = draw(st.lists(st.sampled_from(nodes + list(values)), min_size=1, max_size=3,
                                unique=True))
        arcs[node] = targets
    return GraphGame(arcs, values, start="v0")


@st.composite
def random_acyclic_graphs(draw: st.DrawFn, max_size: int = 7) -> GraphGame:
    """A random game on a graph without cycles, with estimates.

    Arcs lead only to later nodes, so a node can be reached after different
    numbers of moves: transpositions between depths.
    """
    size = draw(st.integers(2, max_size))
    nodes = [f"v{i}" for i in range(size)]
    values = {f"t{i}": draw(VALUES) for i in range(3)}
    arcs = {node: draw(st.lists(st.sampled_from(nodes[i + 1:] + list(values)),
                                min_size=1, max_size=3, unique=True))
            for i, node in enumerate(nodes)}
    estimates = {node: draw(VALUES) for node in nodes}
    return GraphGame(arcs, values, start="v0", estimates=estimates)


def reference_value(game: Any, state: Any = None, line: tuple = ()) -> Any:
    """Minimax value by exhaustive search, scoring a position repeated on the line as a draw.

    Written independently of the searchers to check them; exponential, so for
    small games only.
    """
    state = game.initial_state() if state is None else state
    first = game.players[0]
    if game.is_terminal(state):
        return game.utility(state, first)
    if state in line:
        score = getattr(game, "repetition_utility", None)
        return score(state, first) if score else 0
    values = [reference_value(game, game.result(state, a), line + (state,))
              for a in game.actions(state)]
    return max(values) if game.to_move(state) == first else min(values)


@st.composite
def random_nims(draw: st.DrawFn) -> Nim:
    """Nim with one to three piles of one to four stones (eight at most), normal or misere play.

    Taking 1 and then 1 leads where taking 2 does: a position comes back after different
    numbers of moves, on many lines at once.
    """
    piles = draw(st.lists(st.integers(1, 4), min_size=1, max_size=3).filter(lambda p: sum(p) <= 8))
    return Nim(tuple(piles), misere=draw(st.booleans()))
