"""Minimax search (AIMA's MINIMAX-SEARCH and H-MINIMAX)."""

from __future__ import annotations

from collections.abc import Callable

from ._common import Progress
from .driver import SearchConfig, search_game
from .protocol import (
    Game,
    State,
    check_limits,
    limits_need_evaluation,
    require_searchable,
)
from .results import SearchResult


def minimax(
    game: Game,
    state: State | None = None,
    *,
    depth: int | None = None,
    time: float | None = None,
    max_nodes: int | None = None,
    trace: bool = False,
    progress: Callable[[Progress], None] | None = None,
) -> SearchResult:
    """Minimax value and best move of ``state`` (default: the initial state).

    With ``depth=d`` non-terminal states ``d`` moves below the root are scored by
    ``game.evaluate``; with ``time`` or ``max_nodes`` the search deepens one move
    at a time and returns the deepest iteration it completed.

    ``progress`` is called with a ``Progress`` about four times a second once the search
    has run for a second; Ctrl-C returns the best result found so far, marked
    ``interrupted`` and not exact.
    """
    require_searchable(game, "minimax")
    check_limits(depth=depth, time=time, max_nodes=max_nodes)
    limits_need_evaluation(game, "minimax", depth, time, max_nodes)
    return search_game(
        game, state, SearchConfig("minimax"),
        depth=depth, time=time, max_nodes=max_nodes, trace=trace, progress=progress,
    )
