"""Alpha-beta search (AIMA's ALPHA-BETA-SEARCH) and its opt-in refinements.

The refinements (transposition table, move ordering, killer moves, history
heuristic, symmetry) change how many nodes are searched, never the value, with
one exception where the value is an estimate anyway: at a depth limit, in a game
whose positions repeat, the table may reuse a position's entry, cut off by the
depth below it, on a line where a position below it is on the line, a repetition
there rather than an evaluation (the graph history interaction of transposition
tables; iterative deepening stops reusing such entries once it has met a
repetition). Iterative deepening (``time``/``max_nodes``) and the beam trade
exactness for time, and say so in the result.
"""

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
    require_evaluation,
    require_searchable,
)
from .results import SearchResult


def alphabeta(
    game: Game,
    state: State | None = None,
    *,
    depth: int | None = None,
    table: bool = False,
    memory: int | None = None,
    ordering: bool = False,
    ordering_plies: int | None = None,
    killers: bool = False,
    history: bool = False,
    time: float | None = None,
    max_nodes: int | None = None,
    beam: int | None = None,
    symmetry: bool = False,
    trace: bool = False,
    progress: Callable[[Progress], None] | None = None,
) -> SearchResult:
    """Minimax value and best move of ``state`` by alpha-beta search.

    ``depth`` cuts the search off and evaluates; ``time``/``max_nodes`` deepen
    iteratively within that budget; ``table``, ``ordering``, ``killers``,
    ``history`` and ``symmetry`` (table keys by ``game.canonical``) only speed it
    up (``ordering_plies=N`` ranks moves by evaluation only at the first N plies); ``beam=N``
    searches only the N best moves by evaluation at each node. Where the game has a
    ``position``, the table keys positions, not states (checked on a sample of the merges).
    The table keeps at most ``memory`` bytes of entries (default
    ``searchers.table.DEFAULT_MEMORY``, 1 GiB), dropping the cheapest to find again.

    ``progress`` is called with a ``Progress`` about four times a second once the search
    has run for a second; Ctrl-C returns the best result found so far, marked
    ``interrupted`` and not exact.
    """
    require_searchable(game, "alphabeta")
    check_limits(depth=depth, time=time, max_nodes=max_nodes, beam=beam)
    check_memory(memory)
    limits_need_evaluation(game, "alphabeta", depth, time, max_nodes)
    if beam is not None:
        require_evaluation(game, "alphabeta with a beam (it ranks moves by evaluation)")
    config = SearchConfig(
        "alphabeta", prune=True, table=table, memory=memory, ordering=ordering,
        ordering_plies=ordering_plies, killers=killers, history=history, beam=beam, symmetry=symmetry,
    )
    return search_game(
        game, state, config,
        depth=depth, time=time, max_nodes=max_nodes, trace=trace, progress=progress,
    )
