"""easyAI: its `Negamax` with alpha-beta and its `TranspositionTable`, on games written the
easyAI way (a mutable game with `make_move`, `unmake_move` and `ttentry`).

Tic-tac-toe and Nim are easyAI's own bundled games, given the `ttentry` the table needs
(tic-tac-toe) and normal play (easyAI's Nim is misère); its bundled connect four is fixed at
6x7 and uses numpy, so connect four is written here as easyAI's documentation shows, for any
board. Negamax searches to the game's full length with a fresh table every run; it counts no
nodes.
"""

from __future__ import annotations

from typing import Any

from benchmarks.harness import Outcome
from benchmarks.peers import Solver, Work, sign

NAME = "easyAI Negamax + table"
MODULE = "easyAI"
NOTE = "a fresh table each run"

LOSS = -100  # easyAI's customary score of a lost position, from the mover's view


def game_class(work: Work) -> Any:
    """The easyAI game class for ``work``, made on first use (easyAI is imported only then)."""
    from easyAI import TwoPlayerGame
    from easyAI.games.Nim import Nim
    from easyAI.games.TicTacToe import TicTacToe

    class TableTicTacToe(TicTacToe):
        """easyAI's tic-tac-toe, keyed for the transposition table."""

        def ttentry(self) -> tuple[int, ...]:
            return tuple(self.board)

        def scoring(self) -> int:
            return LOSS if self.lose() else 0

    class NormalNim(Nim):
        """easyAI's Nim in normal play: the player left to move at the empty piles has lost."""

        def scoring(self) -> int:
            return LOSS if self.win() else 0

    class ConnectFour(TwoPlayerGame):
        """Connect four on rows x cols: a flat board, a column's height, lines checked
        through the last disc."""

        def __init__(self, players: Any, rows: int, cols: int) -> None:
            self.players, self.rows, self.cols = players, rows, cols
            self.board = [0] * (rows * cols)  # row 0 at the bottom
            self.heights = [0] * cols
            self.played: list[int] = []
            self.current_player = 1

        def possible_moves(self) -> list[int]:
            return [c for c in range(self.cols) if self.heights[c] < self.rows]

        def make_move(self, column: int) -> None:
            cell = self.heights[column] * self.cols + column
            self.board[cell] = self.current_player
            self.heights[column] += 1
            self.played.append(cell)

        def unmake_move(self, column: int) -> None:
            self.heights[column] -= 1
            self.board[self.played.pop()] = 0

        def lose(self) -> bool:
            """Whether the opponent's last disc made four in a row."""
            if not self.played:
                return False
            cell = self.played[-1]
            row, col, mark = cell // self.cols, cell % self.cols, self.board[cell]
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                run = 1
                for step in (1, -1):
                    r, c = row + step * dr, col + step * dc
                    while 0 <= r < self.rows and 0 <= c < self.cols and self.board[r * self.cols + c] == mark:
                        run += 1
                        r, c = r + step * dr, c + step * dc
                if run >= 4:
                    return True
            return False

        def is_over(self) -> bool:
            return len(self.played) == self.rows * self.cols or self.lose()

        def scoring(self) -> int:
            return LOSS if self.lose() else 0

        def ttentry(self) -> tuple[int, ...]:
            return tuple(self.board)

    return {"tictactoe": TableTicTacToe, "nim": NormalNim, "connect": ConnectFour}[work.game]


def new_game(work: Work) -> Any:
    """A fresh game at its initial state."""
    cls = game_class(work)
    if work.game == "tictactoe":
        return cls(None)
    if work.game == "nim":
        return cls(None, piles=work.piles)
    return cls(None, work.rows, work.cols)


def solver(work: Work) -> Solver:
    """Solve ``work`` with Negamax to the game's full length, with a fresh table."""
    from easyAI import Negamax, TranspositionTable

    def run() -> Outcome:
        game = new_game(work)
        search = Negamax(work.longest, tt=TranspositionTable())
        search(game)
        return Outcome(sign(search.alpha))  # the value for the player to move: the first

    return run, None
