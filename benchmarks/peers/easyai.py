"""easyAI: its `Negamax` with alpha-beta and its `TranspositionTable`, on games written the
easyAI way: a mutable game object with `possible_moves`, `make_move`, optionally
`unmake_move` (without it Negamax copies the game at every move), and the `ttentry` the table
needs.

Tic-tac-toe and Nim are easyAI's bundled games, given a `ttentry` (tic-tac-toe) and normal play
(the bundled Nim is misère). Connect four comes in two styles, two rows of the table, because
the result depends on it: easyAI's bundled `ConnectFour` (numpy board, no `unmake_move`, the
whole board scanned for a line), generalised from 6x7 to any board and given a `ttentry`; and a
lean one (a flat list, `unmake_move`, only the lines through the last disc checked). Negamax
searches to the game's full length with a fresh table every run; it counts no nodes.
"""

from __future__ import annotations

from typing import Any

from benchmarks.harness import Outcome
from benchmarks.peers import Peer, Solver, Work, sign

LOSS = -100  # easyAI's customary score of a lost position, from the mover's view
DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def bundled_game(work: Work) -> Any:
    """easyAI's bundled tic-tac-toe or Nim, fitted for the table and normal play, at the start."""
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

    return TableTicTacToe(None) if work.game == "tictactoe" else NormalNim(None, piles=work.piles)


def bundled_connect_four(rows: int, cols: int) -> Any:
    """easyAI's bundled `ConnectFour` for a rows x cols board, at the start: its code with the
    board's size in place of 6 and 7, and a `ttentry`."""
    import numpy as np
    from easyAI import TwoPlayerGame

    starts = [((r, c), d) for r in range(rows) for c in range(cols) for d in DIRECTIONS
              if not (0 <= r - d[0] < rows and 0 <= c - d[1] < cols)]  # where each line begins
    pos_dir = np.array([[start, direction] for start, direction in starts])

    class ConnectFour(TwoPlayerGame):
        """easyAI's connect four: a numpy board, row 0 at the bottom."""

        def __init__(self) -> None:
            self.players = None
            self.board = np.zeros((rows, cols), dtype=int)
            self.current_player = 1

        def possible_moves(self) -> list[int]:
            return [i for i in range(cols) if self.board[:, i].min() == 0]

        def make_move(self, column: int) -> None:
            line = np.argmin(self.board[:, column] != 0)
            self.board[line, column] = self.current_player

        def lose(self) -> bool:
            for pos, direction in pos_dir:
                streak = 0
                while 0 <= pos[0] < rows and 0 <= pos[1] < cols:
                    if self.board[pos[0], pos[1]] == self.opponent_index:
                        streak += 1
                        if streak == 4:
                            return True
                    else:
                        streak = 0
                    pos = pos + direction
            return False

        def is_over(self) -> bool:
            return bool(self.board.min() > 0) or self.lose()

        def scoring(self) -> int:
            return LOSS if self.lose() else 0

        def ttentry(self) -> bytes:
            return self.board.tobytes()

    return ConnectFour()


def lean_connect_four(rows: int, cols: int) -> Any:
    """Connect four on rows x cols as a programmer tuning it for easyAI would write it, at the
    start."""
    from easyAI import TwoPlayerGame

    class ConnectFour(TwoPlayerGame):
        """A flat board (row 0 at the bottom), the height of each column, the discs played."""

        def __init__(self) -> None:
            self.players = None
            self.board = [0] * (rows * cols)
            self.heights = [0] * cols
            self.played: list[int] = []
            self.current_player = 1

        def possible_moves(self) -> list[int]:
            return [c for c in range(cols) if self.heights[c] < rows]

        def make_move(self, column: int) -> None:
            cell = self.heights[column] * cols + column
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
            row, col, mark = cell // cols, cell % cols, self.board[cell]
            for dr, dc in DIRECTIONS:
                run = 1
                for step in (1, -1):
                    r, c = row + step * dr, col + step * dc
                    while 0 <= r < rows and 0 <= c < cols and self.board[r * cols + c] == mark:
                        run += 1
                        r, c = r + step * dr, c + step * dc
                if run >= 4:
                    return True
            return False

        def is_over(self) -> bool:
            return len(self.played) == rows * cols or self.lose()

        def scoring(self) -> int:
            return LOSS if self.lose() else 0

        def ttentry(self) -> tuple[int, ...]:
            return tuple(self.board)

    return ConnectFour()


def negamax(work: Work, new_game: Any) -> Solver:
    """Solve ``work`` on a fresh ``new_game()`` with Negamax to the game's full length and a
    fresh table."""
    from easyAI import Negamax, TranspositionTable

    def run() -> Outcome:
        search = Negamax(work.longest, tt=TranspositionTable())
        search(new_game())
        return Outcome(sign(search.alpha))  # the value for the player to move: the first

    return run, None


def bundled_solver(work: Work) -> Solver:
    """The bundled games: tic-tac-toe, Nim, and connect four generalised to any board."""
    if work.game == "connect":
        return negamax(work, lambda: bundled_connect_four(work.rows, work.cols))
    return negamax(work, lambda: bundled_game(work))


PEER = Peer("easyAI Negamax + table", "easyAI",
            "easyAI's bundled games (connect four generalised from 6x7); a fresh table each run",
            frozenset({"tictactoe", "nim", "connect"}), bundled_solver)
LEAN = Peer("easyAI Negamax + table, lean game", "easyAI",
            "connect four written lean: unmake_move, lines through the last disc only",
            frozenset({"connect"}), lambda work: negamax(work, lambda: lean_connect_four(work.rows, work.cols)))
