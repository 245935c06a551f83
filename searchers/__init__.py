"""Game-tree searchers over the game protocol: minimax, alpha-beta, expectiminimax, perft;
for any number of players, max^n, paranoid and Monte Carlo tree search; and the strong solver
(``solve_strong``: every position, optionally into a tablebase).

They work on any object with the protocol described in ``searchers.protocol``:
a game loaded from a .gdl file or a hand-written Python class.
"""

from ._common import Progress
from .alphabeta import alphabeta
from .expectiminimax import expectiminimax
from .maxn import maxn
from .mcts import mcts
from .minimax import minimax
from .paranoid import CoalitionView, paranoid
from .perft import perft
from .protocol import require_searchable
from .results import ChanceCycleMet, GameError, SearchError, SearchResult, SearchStats, TraceNode
from .strong import StrongResult, solve_strong

__all__ = [
    "ChanceCycleMet",
    "CoalitionView",
    "GameError",
    "Progress",
    "SearchError",
    "SearchResult",
    "SearchStats",
    "StrongResult",
    "TraceNode",
    "alphabeta",
    "expectiminimax",
    "maxn",
    "mcts",
    "minimax",
    "paranoid",
    "perft",
    "require_searchable",
    "solve_strong",
]
