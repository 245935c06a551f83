"""Strong solving: every position reachable from the start, its value, remoteness and best move.

``solve_strong(game)`` works on the game protocol alone, like the other searchers; with
``out`` it writes the answers to an SQLite tablebase (``tablebase``).  A game with tiers is
solved tier by tier, its rules run in worker processes or Ray tasks (``tiers``, ``parallel``).
"""

from .keys import UnkeyableValue, stable_key
from .solver import (
    DEFAULT_TOLERANCE, SolvedTable, StrongProgress, StrongResult, StrongStats, outcome_counts, value_text,
)
from .solve import solve_strong
from .tiers import has_tiers
from .tablebase import IncompleteTablebase, TablebaseError, TablebaseReader

__all__ = [
    "DEFAULT_TOLERANCE", "SolvedTable", "StrongProgress", "StrongResult", "StrongStats",
    "IncompleteTablebase", "TablebaseError", "TablebaseReader", "UnkeyableValue", "outcome_counts",
    "has_tiers", "solve_strong", "stable_key", "value_text",
]
