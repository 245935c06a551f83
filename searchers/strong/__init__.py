"""Strong solving: every position reachable from the start, its value, remoteness and best move.

``solve_strong(game)`` works on the game protocol alone, like the other searchers; with
``out`` it writes the answers to an SQLite tablebase (``tablebase``).
"""

from .keys import UnkeyableValue, stable_key
from .solver import DEFAULT_TOLERANCE, SolvedTable, StrongProgress, StrongResult, StrongStats, solve_in_memory

solve_strong = solve_in_memory

__all__ = [
    "DEFAULT_TOLERANCE", "SolvedTable", "StrongProgress", "StrongResult", "StrongStats",
    "UnkeyableValue", "solve_strong", "stable_key",
]
