"""Rolit written by hand in Python, the reference for ``games/rolit.gdl``.

The board is a tuple of squares, row by row; the four centre squares start red (top
left), yellow (top right), green (bottom right) and blue (bottom left). The players are
the first 2, 3 or 4 of Red, Green, Yellow, Blue, moving in that order. A move places a
disc next to one already on the board; it must flip (as in Othello) when the mover can
flip anything. The game ends when the board is full; the players with the most discs
share a payoff of 1.
"""

from __future__ import annotations

from fractions import Fraction

COLOURS = ("Red", "Green", "Yellow", "Blue")
STEPS = [(dr, dc) for dr in (-1, 0, 1) for dc in (-1, 0, 1) if (dr, dc) != (0, 0)]

RolitState = tuple[tuple[str | None, ...], int]  # the squares, the index of the player to move


class Rolit:
    """Rolit for ``players`` players on a ``size`` x ``size`` board."""

    def __init__(self, players: int = 4, size: int = 8) -> None:
        """The start: the four centre discs, Red to move."""
        self.players = COLOURS[:players]
        self.size = size
        self.name = f"Rolit {size}x{size}, {players} players"

    def initial_state(self) -> RolitState:
        """The four centre discs, Red to move."""
        n, h = self.size, self.size // 2
        board: list[str | None] = [None] * (n * n)
        for (r, c), colour in {(h - 1, h - 1): "Red", (h - 1, h): "Yellow", (h, h): "Green", (h, h - 1): "Blue"}.items():
            board[r * n + c] = colour
        return (tuple(board), 0)

    def to_move(self, state: RolitState) -> str:
        """The player whose turn it is."""
        return self.players[state[1]]

    def _flipped(self, board: tuple[str | None, ...], square: int, colour: str) -> list[int]:
        n = self.size
        r0, c0 = divmod(square, n)
        turned: list[int] = []
        for dr, dc in STEPS:
            line, r, c = [], r0 + dr, c0 + dc
            while 0 <= r < n and 0 <= c < n and board[r * n + c] not in (None, colour):
                line.append(r * n + c)
                r, c = r + dr, c + dc
            if line and 0 <= r < n and 0 <= c < n and board[r * n + c] == colour:
                turned += line
        return turned

    def actions(self, state: RolitState) -> list[int]:
        """The empty squares next to a disc, in board order; only those that flip, if any do."""
        board, n = state[0], self.size
        open_squares = [
            s for s in range(n * n) if board[s] is None and any(
                0 <= s // n + dr < n and 0 <= s % n + dc < n and board[(s // n + dr) * n + s % n + dc] is not None
                for dr, dc in STEPS)
        ]
        colour = self.to_move(state)
        flipping = [s for s in open_squares if self._flipped(board, s, colour)]
        return flipping or open_squares

    def result(self, state: RolitState, move: int) -> RolitState:
        """Place the mover's disc on ``move`` and flip."""
        board, mover = state
        colour = self.players[mover]
        new = list(board)
        for s in self._flipped(board, move, colour) + [move]:
            new[s] = colour
        return (tuple(new), (mover + 1) % len(self.players))

    def is_terminal(self, state: RolitState) -> bool:
        """The board is full."""
        return None not in state[0]

    def utility(self, state: RolitState, player: str) -> int | Fraction:
        """A share of 1 for each player with the most discs, 0 for the others."""
        counts = {p: state[0].count(p) for p in self.players}
        most = max(counts.values())
        winners = [p for p in self.players if counts[p] == most]
        return Fraction(1, len(winners)) if player in winners else 0
