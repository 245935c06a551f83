"""Hex written by hand in Python, the reference for ``games/hex.gdl``.

The board is a size x size rhombus of cells (row, col); a cell touches (r, c-1),
(r, c+1), (r-1, c), (r-1, c+1), (r+1, c-1) and (r+1, c).  Red moves first and joins
the top row to the bottom row; Blue joins the left column to the right column.  Moves
are cells in row-major order.  There is no evaluation: Hex is a test of searching
without one.
"""

from __future__ import annotations

HexState = tuple[int, int, str, str | None]  # Red's cells, Blue's cells (bit sets), mover, winner

STEPS = ((0, -1), (0, 1), (-1, 0), (-1, 1), (1, -1), (1, 0))


class Hex:
    """Hex on a size x size board, Red (first, MAX) against Blue; utility +1/-1."""

    players = ("Red", "Blue")

    def __init__(self, size: int = 4) -> None:
        """An empty size x size board."""
        self.size = size
        self.name = f"Hex {size}x{size}"
        self.cells = [(r, c) for r in range(size) for c in range(size)]
        self.neighbours = [
            sum(1 << ((r + dr) * size + c + dc) for dr, dc in STEPS
                if 0 <= r + dr < size and 0 <= c + dc < size)
            for r, c in self.cells
        ]
        row = (1 << size) - 1
        column = sum(1 << (r * size) for r in range(size))
        # The two sides each player joins.
        self.sides = {
            "Red": (row, row << (size * (size - 1))),
            "Blue": (column, column << (size - 1)),
        }

    def initial_state(self) -> HexState:
        """The empty board, Red to move."""
        return (0, 0, "Red", None)

    def to_move(self, state: HexState) -> str:
        """The player whose turn it is."""
        return state[2]

    def actions(self, state: HexState) -> list[tuple[int, int]]:
        """The empty cells, row by row."""
        taken = state[0] | state[1]
        return [cell for i, cell in enumerate(self.cells) if not taken >> i & 1]

    def result(self, state: HexState, move: tuple[int, int]) -> HexState:
        """The mover takes the cell ``move``."""
        red, blue, mover, _ = state
        bit = 1 << (move[0] * self.size + move[1])
        if (red | blue) & bit:
            raise ValueError(f"cell {move} is taken")
        if mover == "Red":
            red |= bit
            return (red, blue, "Blue", "Red" if self.joins(red, bit, "Red") else None)
        blue |= bit
        return (red, blue, "Red", "Blue" if self.joins(blue, bit, "Blue") else None)

    def joins(self, stones: int, start: int, player: str) -> bool:
        """Whether the group of ``stones`` holding the cell ``start`` touches both of the
        player's sides."""
        group, frontier = start, start
        while frontier:
            low = frontier & -frontier
            frontier ^= low
            grown = self.neighbours[low.bit_length() - 1] & stones & ~group
            group |= grown
            frontier |= grown
        first, second = self.sides[player]
        return bool(group & first) and bool(group & second)

    def is_terminal(self, state: HexState) -> bool:
        """Someone has joined their sides (a full board always has a winner)."""
        return state[3] is not None

    def utility(self, state: HexState, player: str) -> int:
        """+1 for the winner, -1 for the loser."""
        return 1 if state[3] == player else -1
