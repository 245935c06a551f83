"""Expectiminimax search (AIMA's EXPECTIMINIMAX) for games with chance nodes."""

from __future__ import annotations

from collections.abc import Callable

from ._common import Progress
from .driver import SearchConfig, search_game
from .protocol import (
    Game,
    State,
    check_limits,
    check_memory,
    limits_need_evaluation,
    require_searchable,
)
from .results import SearchResult


def expectiminimax(
    game: Game,
    state: State | None = None,
    *,
    depth: int | None = None,
    table: bool = False,
    memory: int | None = None,
    trace: bool = False,
    time: float | None = None,
    max_nodes: int | None = None,
    progress: Callable[[Progress], None] | None = None,
    stop_at_chance_cycle: bool = False,
) -> SearchResult:
    """Expected minimax value and best move of ``state``, averaging over chance nodes.

    Chance outcomes count as moves for ``depth``.  On a game without chance
    nodes this is minimax.  Exact probabilities (Fractions) give exact values.
    ``table`` reuses the values of states reached again by another route, keeping
    at most ``memory`` bytes of them (default ``searchers.table.DEFAULT_MEMORY``).

    A position that repeats on a cycle through chance nodes is scored by the game's
    repetition rule, though the game really goes on there: such a result is not exact,
    and ``inexact_reason`` says so; ``stop_at_chance_cycle`` raises ``ChanceCycleMet`` at the
    first such position instead (for a caller that would rather solve the game strongly there).

    ``progress`` is called with a ``Progress`` about four times a second once the search
    has run for a second; Ctrl-C returns the best result found so far, marked
    ``interrupted`` and not exact.
    """
    require_searchable(game, "expectiminimax")
    check_limits(depth=depth, time=time, max_nodes=max_nodes)
    check_memory(memory)
    limits_need_evaluation(game, "expectiminimax", depth, time, max_nodes)
    config = SearchConfig("expectiminimax", table=table, memory=memory, stop_at_chance_cycle=stop_at_chance_cycle)
    return search_game(
        game, state, config,
        depth=depth, time=time, max_nodes=max_nodes, trace=trace, progress=progress,
    )
