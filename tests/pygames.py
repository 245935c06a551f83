"""Hand-written Python games implementing the game protocol the searchers use.

They are the reference implementations the tests and benchmarks compare
against: tic-tac-toe, connect-k, subtraction, Nim, explicit game trees (with the
four textbook trees), a game on a graph (cycles allowed), subtraction with
passing (positions repeat) and a dice race (chance nodes).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from fractions import Fraction
from itertools import product

Number = int | float | Fraction

EMPTY = "."


def _other(players: tuple[str, str], player: str) -> str:
    return players[1] if player == players[0] else players[0]


# --------------------------------------------------------------------------- tic-tac-toe

TTTState = tuple[tuple[str, ...], str]  # nine cells in row-major order, then the mover
_TTT_CELLS = [(row, col) for row in range(3) for col in range(3)]
_TTT_LINES = (
    [(3 * r, 3 * r + 1, 3 * r + 2) for r in range(3)]
    + [(c, c + 3, c + 6) for c in range(3)]
    + [(0, 4, 8), (2, 4, 6)]
)


def _grid_symmetries(size: int) -> list[tuple[int, ...]]:
    """The 8 symmetries of a size x size grid, as permutations of row-major cells."""
    def index(r: int, c: int) -> int:
        return r * size + c

    last = size - 1
    maps = [
        lambda r, c: (r, c), lambda r, c: (c, last - r),
        lambda r, c: (last - r, last - c), lambda r, c: (last - c, r),
        lambda r, c: (r, last - c), lambda r, c: (last - r, c),
        lambda r, c: (c, r), lambda r, c: (last - c, last - r),
    ]
    return [
        tuple(index(*f(i // size, i % size)) for i in range(size * size)) for f in maps
    ]


_TTT_SYMMETRIES = _grid_symmetries(3)


def _ttt_winner(board: tuple[str, ...]) -> str | None:
    for a, b, c in _TTT_LINES:
        mark = board[a]
        if mark != EMPTY and mark == board[b] and mark == board[c]:
            return mark
    return None


class TicTacToe:
    """Tic-tac-toe: X moves first and is MAX; moves are (row, col) in row-major order.

    Utility is +10/-10/0 for a win/loss/draw of the player asked about.  The
    evaluation is the lecture's: lines still open for the player minus lines
    still open for the opponent (a line is open for a player while the opponent
    has no mark in it).  ``canonical`` folds the 8 symmetries of the board.
    """

    name = "tic-tac-toe"
    players = ("X", "O")

    def initial_state(self) -> TTTState:
        """The empty board, X to move."""
        return ((EMPTY,) * 9, "X")

    def to_move(self, state: TTTState) -> str:
        """The player whose turn it is."""
        return state[1]

    def actions(self, state: TTTState) -> list[tuple[int, int]]:
        """The empty cells, in row-major order."""
        board = state[0]
        return [_TTT_CELLS[i] for i in range(9) if board[i] == EMPTY]

    def result(self, state: TTTState, move: tuple[int, int]) -> TTTState:
        """The mover marks the cell ``move``."""
        board, mover = state
        i = 3 * move[0] + move[1]
        if board[i] != EMPTY:
            raise ValueError(f"cell {move} is taken")
        return (board[:i] + (mover,) + board[i + 1:], "O" if mover == "X" else "X")

    def is_terminal(self, state: TTTState) -> bool:
        """A line is complete or the board is full."""
        board = state[0]
        return _ttt_winner(board) is not None or EMPTY not in board

    def utility(self, state: TTTState, player: str) -> int:
        """+10 if ``player`` has a line, -10 if the opponent has, else 0 (a win is worth
        more than any evaluation, which counts at most 8 lines)."""
        winner = _ttt_winner(state[0])
        return 0 if winner is None else 10 if winner == player else -10

    def evaluate(self, state: TTTState, player: str) -> int:
        """Lines open for ``player`` minus lines open for the opponent; a won board scores
        +-10, beyond any count of lines, so the evaluation orders terminal states as the
        utility does."""
        board = state[0]
        winner = _ttt_winner(board)
        if winner is not None:
            return 10 if winner == player else -10
        open_x = sum(1 for line in _TTT_LINES if all(board[i] != "O" for i in line))
        open_o = sum(1 for line in _TTT_LINES if all(board[i] != "X" for i in line))
        return open_x - open_o if player == "X" else open_o - open_x

    def canonical(self, state: TTTState) -> TTTState:
        """The same key for the 8 rotations and reflections of a position."""
        board, mover = state
        return (min(tuple(board[i] for i in perm) for perm in _TTT_SYMMETRIES), mover)


# --------------------------------------------------------------------------- connect-k

ConnectState = tuple[tuple[str, ...], str, str | None]  # cells (row 0 at the bottom), mover, winner


class ConnectK:
    """Connect-k with gravity on a rows x cols board: moves are column numbers.

    X moves first.  The evaluation counts the windows of k cells still open for
    each side (no opposing piece in them): the player's minus the opponent's.
    ``canonical`` folds the left-right mirror image.
    """

    players = ("X", "O")

    def __init__(self, rows: int = 6, cols: int = 7, k: int = 4) -> None:
        """A rows x cols board where k in a row wins."""
        self.rows, self.cols, self.k = rows, cols, k
        self.name = f"connect-{k} {rows}x{cols}"
        self._windows = [
            tuple((r + i * dr) * cols + c + i * dc for i in range(k))
            for r in range(rows) for c in range(cols)
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1))
            if 0 <= r + (k - 1) * dr < rows and 0 <= c + (k - 1) * dc < cols
        ]
        self._mirror = tuple(r * cols + cols - 1 - c for r in range(rows) for c in range(cols))

    def initial_state(self) -> ConnectState:
        """The empty board, X to move."""
        return ((EMPTY,) * (self.rows * self.cols), "X", None)

    def to_move(self, state: ConnectState) -> str:
        """The player whose turn it is."""
        return state[1]

    def actions(self, state: ConnectState) -> list[int]:
        """The columns that are not full, left to right."""
        board, top = state[0], (self.rows - 1) * self.cols
        return [c for c in range(self.cols) if board[top + c] == EMPTY]

    def result(self, state: ConnectState, move: int) -> ConnectState:
        """The mover drops a piece in column ``move``."""
        board, mover, _ = state
        cols = self.cols
        for row in range(self.rows):
            i = row * cols + move
            if board[i] == EMPTY:
                break
        else:
            raise ValueError(f"column {move} is full")
        board = board[:i] + (mover,) + board[i + 1:]
        winner = mover if self._completes_line(board, row, move, mover) else None
        return (board, "O" if mover == "X" else "X", winner)

    def _completes_line(self, board: tuple[str, ...], row: int, col: int, mark: str) -> bool:
        rows, cols = self.rows, self.cols
        for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
            run = 1
            for sign in (1, -1):
                r, c = row + sign * dr, col + sign * dc
                while 0 <= r < rows and 0 <= c < cols and board[r * cols + c] == mark:
                    run += 1
                    r, c = r + sign * dr, c + sign * dc
            if run >= self.k:
                return True
        return False

    def is_terminal(self, state: ConnectState) -> bool:
        """Someone has k in a row or the board is full."""
        return state[2] is not None or EMPTY not in state[0]

    def utility(self, state: ConnectState, player: str) -> int:
        """+1 if ``player`` has k in a row, -1 if the opponent has, else 0."""
        winner = state[2]
        return 0 if winner is None else 1 if winner == player else -1

    def evaluate(self, state: ConnectState, player: str) -> int:
        """Windows open for ``player`` minus windows open for the opponent, over 100 so that
        it stays below a win's utility of 1; a won position scores its utility."""
        if state[2] is not None:
            return 1 if state[2] == player else -1
        board = state[0]
        open_x = open_o = 0
        for window in self._windows:
            marks = {board[i] for i in window}
            open_x += "O" not in marks
            open_o += "X" not in marks
        return Fraction(open_x - open_o if player == "X" else open_o - open_x, 100)

    def canonical(self, state: ConnectState) -> ConnectState:
        """The same key for a position and its mirror image."""
        board, mover, winner = state
        mirrored = tuple(board[i] for i in self._mirror)
        return (min(board, mirrored), mover, winner)


# --------------------------------------------------------------------------- subtraction and Nim

PileState = tuple[int, str]  # stones left, mover


class Subtraction:
    """Take 1..``take`` stones from one pile; whoever takes the last stone wins.

    The player to move loses exactly when the stones are a multiple of take + 1.
    There is no evaluation function.
    """

    players = ("A", "B")

    def __init__(self, stones: int = 15, take: int = 2) -> None:
        """A pile of ``stones``, at most ``take`` taken per move."""
        self.stones, self.take = stones, take
        self.name = f"subtraction {stones}/{take}"

    def initial_state(self) -> PileState:
        """The full pile, A to move."""
        return (self.stones, "A")

    def to_move(self, state: PileState) -> str:
        """The player whose turn it is."""
        return state[1]

    def actions(self, state: PileState) -> list[int]:
        """How many stones may be taken: 1 up to ``take``."""
        return list(range(1, min(self.take, state[0]) + 1))

    def result(self, state: PileState, move: int) -> PileState:
        """Take ``move`` stones."""
        return (state[0] - move, _other(self.players, state[1]))

    def is_terminal(self, state: PileState) -> bool:
        """The pile is empty."""
        return state[0] == 0

    def utility(self, state: PileState, player: str) -> int:
        """The player left to move at the empty pile has lost."""
        return -1 if player == state[1] else 1


class PassingSubtraction(Subtraction):
    """Subtraction where a player may also "pass", so positions repeat.

    A position repeated on the line of play scores ``repetition_score`` for A
    (and its negation for B).  With take=2: 1 or 2 stones are a win for the
    mover; from 3 stones on, neither side can force a win without the other's
    help, so the value is the repetition score (0, a draw, by default).
    """

    def __init__(self, stones: int = 5, take: int = 2, repetition_score: int = 0) -> None:
        """A pile of ``stones``; a repeated position scores ``repetition_score`` for A."""
        super().__init__(stones, take)
        self.repetition_score = repetition_score
        self.name = f"subtraction with passing {stones}/{take}"

    def actions(self, state: PileState) -> list[int | str]:
        """Take 1 up to ``take`` stones, or "pass"."""
        return [*super().actions(state), "pass"]

    def result(self, state: PileState, move: int | str) -> PileState:
        """Take ``move`` stones, or leave the pile as it is."""
        return super().result(state, 0 if move == "pass" else move)

    def repetition_utility(self, state: PileState, player: str) -> int:
        """The score of a repeated position for ``player``."""
        return self.repetition_score if player == "A" else -self.repetition_score


NimState = tuple[tuple[int, ...], str]  # pile sizes, mover


class Nim:
    """Nim: take any number of stones from one pile; moves are (pile_index, count).

    Normal play: whoever takes the last stone wins; misère: whoever takes it
    loses.  ``canonical`` ignores the order of the piles.
    """

    players = ("A", "B")

    def __init__(self, piles: Sequence[int] = (3, 4, 5), misere: bool = False) -> None:
        """Piles of the given sizes; ``misere`` reverses who wins."""
        self.piles, self.misere = tuple(piles), misere
        self.name = f"{'misère ' if misere else ''}Nim {self.piles}"

    def initial_state(self) -> NimState:
        """All piles full, A to move."""
        return (self.piles, "A")

    def to_move(self, state: NimState) -> str:
        """The player whose turn it is."""
        return state[1]

    def actions(self, state: NimState) -> list[tuple[int, int]]:
        """Every (pile, count) with 1 <= count <= the pile's size."""
        return [(i, n) for i, size in enumerate(state[0]) for n in range(1, size + 1)]

    def result(self, state: NimState, move: tuple[int, int]) -> NimState:
        """Take ``count`` stones from pile ``pile_index``."""
        piles, mover = state
        i, n = move
        return (piles[:i] + (piles[i] - n,) + piles[i + 1:], _other(self.players, mover))

    def is_terminal(self, state: NimState) -> bool:
        """No stones are left."""
        return not any(state[0])

    def utility(self, state: NimState, player: str) -> int:
        """The player to move at the end has lost (normal play) or won (misère)."""
        mover_wins = self.misere
        return 1 if (player == state[1]) == mover_wins else -1

    def canonical(self, state: NimState) -> NimState:
        """The piles sorted: their order does not matter."""
        return (tuple(sorted(state[0])), state[1])


# ------------------------------------------------------------------ explicit trees and graphs

Tree = Mapping[str, Sequence["str | Number"]]


class TreeGame:
    """A game tree written as a table, as in the textbook figures.

    ``tree`` maps each inner node to its children: a child is the name of another
    inner node or a number, a leaf valued from MAX's view and named after its
    parent and 1-based position ("B1", "B2", ...).  The first key is the root,
    where MAX moves; the players alternate by depth; a move is named by the child
    it leads to.  A child may be shared (a transposition) if it is always at the
    same depth.  ``estimates`` (MAX's view) gives an evaluation function.
    """

    def __init__(
        self,
        tree: Tree,
        *,
        players: tuple[str, str] = ("MAX", "MIN"),
        estimates: Mapping[str, Number] | None = None,
        name: str = "game tree",
    ) -> None:
        """Check ``tree`` and index its nodes."""
        self.players, self.name = players, name
        self.root = next(iter(tree))
        self.children: dict[str, tuple[str, ...]] = {}
        self.values: dict[str, Number] = {}
        self.depth: dict[str, int] = {self.root: 0}
        self._estimates = estimates
        self._index(tree)

    def _index(self, tree: Tree) -> None:
        pending = [self.root]
        while pending:
            node = pending.pop()
            names = []
            for position, child in enumerate(tree[node], start=1):
                if isinstance(child, str):
                    if child not in tree:
                        raise ValueError(f"node {child!r} has neither children nor a value")
                    name = child
                    if name not in self.children:
                        pending.append(name)
                else:
                    name = f"{node}{position}"
                    self.values[name] = child
                if self.depth.setdefault(name, self.depth[node] + 1) != self.depth[node] + 1:
                    raise ValueError(f"node {name!r} is reached at two different depths")
                names.append(name)
            self.children[node] = tuple(names)

    @property
    def has_evaluation(self) -> bool:
        """Whether estimates were given."""
        return self._estimates is not None

    def initial_state(self) -> str:
        """The root node."""
        return self.root

    def to_move(self, state: str) -> str:
        """MAX at even depths, MIN at odd ones."""
        return self.players[self.depth[state] % 2]

    def actions(self, state: str) -> list[str]:
        """The children's names."""
        return list(self.children.get(state, ()))

    def result(self, state: str, move: str) -> str:
        """The child named ``move``."""
        if move not in self.children.get(state, ()):
            raise ValueError(f"{move!r} is not a child of {state!r}")
        return move

    def is_terminal(self, state: str) -> bool:
        """Leaves are terminal."""
        return state in self.values

    def utility(self, state: str, player: str) -> Number:
        """The leaf's value, negated for MIN."""
        value = self.values[state]
        return value if player == self.players[0] else -value

    def evaluate(self, state: str, player: str) -> Number:
        """The node's estimate, negated for MIN."""
        if self._estimates is None:
            raise ValueError("this tree has no estimates")
        value = self._estimates[state]
        return value if player == self.players[0] else -value


AIMA_TREE: Tree = {"A": ["B", "C", "D"], "B": [3, 12, 8], "C": [2, 4, 6], "D": [14, 5, 2]}
FOUR_LEAVES_TREE: Tree = {
    "A": ["B", "C"], "B": ["D", "E"], "C": ["F", "G"],
    "D": [-1, 4], "E": [2, 6], "F": [-3, -5], "G": [0, 7],
}
PRUNING_TREE: Tree = {
    "A": ["B", "C"], "B": ["D", "E"], "C": ["F", "G"],
    "D": [2, 3], "E": [5, 9], "F": [0, 1], "G": [7, 5],
}
TWO_PLY_TREE: Tree = {
    "A": ["B", "E"], "B": ["C", "D"], "E": ["F", "G"],
    "C": [-1, 5], "D": [-2, -4], "F": [1, -1], "G": [2, 4],
}
TEXTBOOK_TREES: dict[str, Tree] = {
    "aima": AIMA_TREE,
    "four_leaves": FOUR_LEAVES_TREE,
    "pruning": PRUNING_TREE,
    "two_ply": TWO_PLY_TREE,
}

GraphState = tuple[str, int]  # node, index of the player to move


class GraphGame:
    """Two players alternately move one token along the arcs of a directed graph.

    ``arcs`` maps a node to its successors; ``values`` gives the terminal nodes'
    values from the first player's view.  Cycles are allowed, so positions (node
    and mover) may repeat; the game has no repetition rule of its own.  A node
    may also be reached after different numbers of moves: a transposition
    between depths.  ``estimates`` (first player's view) gives an evaluation.
    """

    def __init__(
        self,
        arcs: Mapping[str, Sequence[str]],
        values: Mapping[str, Number],
        start: str,
        players: tuple[str, str] = ("MAX", "MIN"),
        estimates: Mapping[str, Number] | None = None,
    ) -> None:
        """The token starts on ``start`` with the first player to move."""
        self.arcs, self.values, self.start, self.players = arcs, values, start, players
        self.name = "graph game"
        self._estimates = estimates

    @property
    def has_evaluation(self) -> bool:
        """Whether estimates were given."""
        return self._estimates is not None

    def initial_state(self) -> GraphState:
        """The token on the start node, first player to move."""
        return (self.start, 0)

    def to_move(self, state: GraphState) -> str:
        """The player whose turn it is."""
        return self.players[state[1]]

    def actions(self, state: GraphState) -> list[str]:
        """The successors of the token's node."""
        return list(self.arcs.get(state[0], ()))

    def result(self, state: GraphState, move: str) -> GraphState:
        """The token moves to ``move``; the other player is to move."""
        return (move, 1 - state[1])

    def is_terminal(self, state: GraphState) -> bool:
        """The token is on a valued node."""
        return state[0] in self.values

    def utility(self, state: GraphState, player: str) -> Number:
        """The node's value, negated for the second player."""
        value = self.values[state[0]]
        return value if player == self.players[0] else -value

    def evaluate(self, state: GraphState, player: str) -> Number:
        """The node's estimate, negated for the second player."""
        if self._estimates is None:
            raise ValueError("this graph has no estimates")
        value = self._estimates[state[0]]
        return value if player == self.players[0] else -value


# --------------------------------------------------------------------------- a dice game

DiceState = tuple[tuple[int, int], str, int]  # scores (A, B), mover, dice thrown (0: none)


class DiceRace:
    """A race to ``goal`` points: each turn the mover chooses to throw 1..max_dice dice.

    The dice have ``sides`` faces; a turn scores their sum, or just 1 if any die
    shows a 1.  Scores only grow, so there are no cycles.  Utility is +1 for the
    first to reach the goal and -1 for the other; the evaluation is the score
    difference as a fraction of the goal.  Probabilities are exact Fractions.
    """

    players = ("A", "B")
    has_chance = True

    def __init__(self, goal: int = 10, sides: int = 3, max_dice: int = 2) -> None:
        """The goal, the dice and the most dice that may be thrown at once."""
        self.goal, self.sides, self.max_dice = goal, sides, max_dice
        self.name = f"dice race to {goal}"
        self.distributions = {n: self.points_distribution(n) for n in range(1, max_dice + 1)}

    def points_distribution(self, dice: int) -> list[tuple[int, Fraction]]:
        """The points scored by throwing ``dice`` dice, with their probabilities."""
        counts: dict[int, int] = {}
        throws = list(product(range(1, self.sides + 1), repeat=dice))
        for throw in throws:
            points = 1 if 1 in throw else sum(throw)
            counts[points] = counts.get(points, 0) + 1
        return [(points, Fraction(n, len(throws))) for points, n in sorted(counts.items())]

    def initial_state(self) -> DiceState:
        """No points yet, A to move."""
        return ((0, 0), "A", 0)

    def to_move(self, state: DiceState) -> str:
        """The player whose turn it is (whose dice are rolling, at a chance node)."""
        return state[1]

    def is_chance(self, state: DiceState) -> bool:
        """Dice have been thrown and not yet read."""
        return state[2] > 0

    def chance_outcomes(self, state: DiceState) -> list[tuple[int, Fraction]]:
        """The points the thrown dice may score, with probabilities."""
        return self.distributions[state[2]]

    def actions(self, state: DiceState) -> list[int]:
        """How many dice to throw."""
        return list(range(1, self.max_dice + 1))

    def result(self, state: DiceState, move: int) -> DiceState:
        """Throw ``move`` dice, or (at a chance node) score ``move`` points."""
        scores, mover, dice = state
        if not dice:
            return (scores, mover, move)
        mine = 0 if mover == "A" else 1
        scores = tuple(s + move if i == mine else s for i, s in enumerate(scores))
        return (scores, "B" if mover == "A" else "A", 0)

    def is_terminal(self, state: DiceState) -> bool:
        """Someone has reached the goal."""
        return max(state[0]) >= self.goal

    def utility(self, state: DiceState, player: str) -> int:
        """+1 for the player who reached the goal, -1 for the other."""
        a_won = state[0][0] >= self.goal
        return 1 if a_won == (player == "A") else -1

    def evaluate(self, state: DiceState, player: str) -> Fraction:
        """The lead of ``player`` as a fraction of the goal."""
        a, b = state[0]
        lead = Fraction(a - b, self.goal)
        return lead if player == "A" else -lead


class FloatDice:
    """A throw at even odds for 0.1 or 0.7 to A (``floats``: as floats, else as fractions), or,
    with ``float_odds``, at odds 0.25 and 0.75 given as floats for 1 and -1."""

    players = ("A", "B")
    has_chance = True

    def __init__(self, floats: bool = True, float_odds: bool = False) -> None:
        """The scores as floats or not; the odds as floats or not."""
        self.floats, self.float_odds = floats, float_odds

    def tier(self, state: int) -> int:
        """The throw, then its outcome (a solve by tiers)."""
        return 0 if state == 0 else 1

    def initial_state(self) -> int:
        """The throw in the air."""
        return 0

    def to_move(self, state: int) -> str:
        """No one moves: only the throw."""
        return "A"

    def is_chance(self, state: int) -> bool:
        """Before the throw."""
        return state == 0

    def chance_outcomes(self, state: int) -> list[tuple[int, Fraction | float]]:
        """1 or 2, at the odds chosen."""
        return [(1, 0.25), (2, 0.75)] if self.float_odds else [(1, Fraction(1, 2)), (2, Fraction(1, 2))]

    def actions(self, state: int) -> list[int]:
        """None: the throw ends the game."""
        return []

    def result(self, state: int, move: int) -> int:
        """The throw's outcome."""
        return move

    def is_terminal(self, state: int) -> bool:
        """After the throw."""
        return state != 0

    def utility(self, state: int, player: str) -> Fraction | float | int:
        """A's score for the outcome, the opposite to B."""
        if self.float_odds:
            score: Fraction | float | int = 1 if state == 1 else -1
        else:
            score = (0.1 if state == 1 else 0.7) if self.floats else (Fraction(1, 10) if state == 1 else Fraction(7, 10))
        return score if player == "A" else -score
