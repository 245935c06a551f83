"""Strong solving: every position reachable from the start, its value, remoteness and best move.

``solve_strong(game)`` works on the game protocol alone, like the other searchers; with
``out`` it writes the answers to an SQLite tablebase (``tablebase``).  A game with tiers is
solved tier by tier, its rules run in worker processes or Ray tasks (``tiers``, ``parallel``).
"""

from __future__ import annotations

import sqlite3
from collections.abc import Callable
from contextlib import ExitStack
from pathlib import Path
from typing import Any

from .._common import without_collections
from ..protocol import Game, game_name
from ..results import GameError
from .graph import ONE_POSITION_TWO_TIERS
from .keys import UnkeyableValue, stable_key
from .parallel import Factory, stops_deferred
from .solver import (
    DEFAULT_TOLERANCE, WORKERS_A_CORE, SolvedTable, StrongProgress, StrongResult, StrongStats, check_game,
    check_settings, kept_move, outcome_counts, settings_refused, solve_whole, value_text,
)
from .tablebase import (
    IncompleteTablebase, TablebaseError, TablebaseReader, being_written, check_replaceable, file_identity,
    held_for_writing, put_in_place, remove_leftovers, remove_sqlite_file, written_at,
)
from .tiers import has_tiers, solve_by_tiers

__all__ = [
    "DEFAULT_TOLERANCE", "WORKERS_A_CORE", "SolvedTable", "StrongProgress", "StrongResult", "StrongStats",
    "IncompleteTablebase", "TablebaseError", "TablebaseReader", "UnkeyableValue", "being_written", "check_game",
    "check_replaceable", "check_settings", "file_identity",
    "kept_move", "outcome_counts",
    "has_tiers", "solve_strong", "stable_key", "settings_refused", "value_text",
]


def solve_strong(
    game: Game,
    *,
    tolerance: float = DEFAULT_TOLERANCE,
    progress: Callable[[StrongProgress], None] | None = None,
    out: str | Path | None = None,
    meta: dict[str, Any] | None = None,
    workers: int = 1,
    ray: str | None = None,
    factory: Factory | None = None,
    tiers: bool | None = None,
) -> StrongResult:
    """Solve every position reachable from the start of ``game``: its value (the first
    player's view), remoteness and best move.

    A game with a ``tier`` is solved tier by tier (``tiers=False`` forces the whole graph in
    memory, ``tiers=True`` insists on tiers), its positions expanded by ``workers`` processes
    or by Ray tasks (``ray``: a cluster's address, or ``auto``), each building its own copy of
    the game with ``factory``, a picklable function without arguments; without tiers the whole
    graph is solved in this process's memory.  With ``out`` every position is written to an
    SQLite tablebase there, with ``meta`` (the caller's description of the game) among its
    metadata; a file at ``out`` that is not a tablebase is refused (TablebaseError) before any
    work, and a complete tablebase there (of this game with other parameters, say) is replaced
    only by a complete one: the new one is written beside it, at ``out.new``, until then.
    ``progress`` is called about four times a second with a ``StrongProgress``; Ctrl-C
    (KeyboardInterrupt) stops the solve, and a tablebase left unfinished says so; a solve that
    fails deletes the tablebase it began writing.
    """
    check_settings(tolerance, workers)  # a mistake of the call, whether the game has tiers or not
    with ExitStack() as held, without_collections():
        if out is None:
            return _solve(game, tolerance, progress, None, meta, workers, ray, factory, tiers)
        held.enter_context(held_for_writing(out))  # first: another solve may be writing it
        check_replaceable(out, (meta or {}).get("title") or getattr(game, "title", None) or game_name(game))
        remove_leftovers(Path(out))
        written = written_at(Path(out))
        if written != Path(out):  # a solve into that name would delete this one's files
            held.enter_context(held_for_writing(written))
        before = file_identity(written)
        try:
            return _solve(game, tolerance, progress, written, meta, workers, ray, factory, tiers)
        except Exception:
            # A solve that failed (the game's error, a full disk, a worker gone) leaves nothing
            # to resume nor to read in the file it began: deleted; a file it had not begun yet
            # (a runner that could not start, a solve in memory that had not come to write)
            # is left as it was.  A stop (KeyboardInterrupt, not an Exception) leaves its
            # tablebase, which says it is incomplete.
            if file_identity(written) != before:
                remove_sqlite_file(written)
            raise
        finally:
            # Complete or not as the file says: a stop held back while the solve cleaned up
            # comes after its tablebase was finished.
            with stops_deferred():
                put_in_place(written, Path(out))


def _solve(game: Game, tolerance: float, progress: Callable[[StrongProgress], None] | None, out: Path | None,
           meta: dict[str, Any] | None, workers: int, ray: str | None, factory: Factory | None,
           tiers: bool | None) -> StrongResult:
    """``solve_strong`` once its tablebase's file is settled: ``out`` (see there)."""
    if tiers if tiers is not None else has_tiers(game):
        try:
            return solve_by_tiers(game, factory=factory, workers=workers, ray=ray, out=out, meta=meta,
                                  tolerance=tolerance, progress=progress)
        except sqlite3.IntegrityError:  # a key written twice: by two tiers
            raise GameError(ONE_POSITION_TWO_TIERS) from None
    return solve_whole(game, tolerance=tolerance, progress=progress, out=out, meta=meta)
