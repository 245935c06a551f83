"""Game-tree searchers over the game protocol: minimax, alpha-beta, expectiminimax, perft, and
the strong solver (``solve_strong``: every position, optionally into a tablebase).

They work on any object with the protocol described in ``searchers.protocol``:
a game loaded from a .gdl file or a hand-written Python class.
"""

from ._common import Progress
from .alphabeta import alphabeta
from .expectiminimax import expectiminimax
from .minimax import minimax
from .perft import perft
from .results import SearchError, SearchResult, SearchStats, TraceNode
from .strong import StrongResult, solve_strong

__all__ = [
    "Progress",
    "SearchError",
    "SearchResult",
    "SearchStats",
    "StrongResult",
    "TraceNode",
    "alphabeta",
    "expectiminimax",
    "minimax",
    "perft",
    "solve_strong",
]
