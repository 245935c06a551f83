"""driver: the cost per node of the one depth-first search behind minimax, alpha-beta and
expectiminimax (`searchers/driver.py`) against the three separate searches it replaced
(the `searchers` package of commit `BEFORE`, read from this repository's history with git),
on games written by hand in Python (`tests.pygames`), so that only the searchers differ.

The driver also bounds the table, extends principal variations to the end and marks values
that depend on a cycle through chance; the old searches did less, so a ratio above 1 is what
those cost. Both run on a roomy frame stack, so that neither pays for the interpreter's frame
chunks at a depth where the other does not. Without git, or outside a clone, the suite says so and measures nothing.

Times per node differ by a few percent from run to run on a shared machine, as much as the
searches differ; so each row's note also gives a count that does not vary: the bytecodes a
node runs in the searchers' own code (not the game's), counted once, outside the timing, on
the small version of the case (`--quick`'s)."""

from __future__ import annotations

import atexit
import importlib
import io
import shutil
import subprocess
import sys
import tarfile
import tempfile
from collections.abc import Callable
from pathlib import Path
from types import ModuleType
from typing import Any

import searchers
from searchers._common import on_roomy_stack
from benchmarks import ROOT
from benchmarks.harness import Case, Contender, Outcome
from tests.pygames import ConnectK, DiceRace, TicTacToe

TITLE = "per-node cost of the shared search driver against the separate searches it replaced"

BEFORE = "9bd67a0^"  # the last commit with a minimax, an alpha-beta and an expectiminimax of their own
_PACKAGE = "searchers_before_driver"


def _old_searchers() -> tuple[ModuleType | None, str]:
    """The `searchers` package of ``BEFORE``, imported under another name; or None and why."""
    if _PACKAGE in sys.modules:
        return sys.modules[_PACKAGE], ""
    try:
        archive = subprocess.run(["git", "-C", str(ROOT), "archive", BEFORE, "searchers"],
                                 capture_output=True, check=True).stdout
    except (OSError, subprocess.CalledProcessError) as error:
        return None, f"the searchers of {BEFORE} could not be read with git ({error})"
    where = Path(tempfile.mkdtemp(prefix="gdl-bench-"))
    # Deleted when the process ends, not now: the package may import its modules lazily.
    atexit.register(shutil.rmtree, where, ignore_errors=True)
    with tarfile.open(fileobj=io.BytesIO(archive)) as tar:
        tar.extractall(where, filter="data")
    shutil.move(where / "searchers", where / _PACKAGE)
    sys.path.insert(0, str(where))  # its imports are relative, so the new name holds
    try:
        return importlib.import_module(_PACKAGE), ""
    finally:
        sys.path.remove(str(where))


def _counted(search: Callable[..., Any], game: Any, state: Any, **options: Any) -> Outcome:
    # Both on a roomy frame stack (searchers._common.on_roomy_stack): where the old searches
    # thrash the interpreter's frame chunks at some depth, they would seem slower for it.
    result = on_roomy_stack(search, game, state, **options)
    if result.interrupted:
        raise KeyboardInterrupt
    return Outcome(result.value, result.stats.nodes)


def own_bytecodes(search: Callable[..., Any], game: Any, state: Any, **options: Any) -> float:
    """The bytecodes run per node in the code of the searchers package ``search`` is from
    (the game's code, and the one-time compiling of `searchers._fold`, not counted)."""
    package = f"/{search.__module__.split('.')[0]}/"
    executed = [0]  # bytecodes, counted by the tracer below

    def count(frame: Any, event: str, arg: Any) -> Any:
        if event == "opcode":
            executed[0] += 1
        return count

    def enter(frame: Any, event: str, arg: Any) -> Any:
        filename = frame.f_code.co_filename
        if package not in filename or filename.endswith("_fold.py"):
            return None
        frame.f_trace_lines, frame.f_trace_opcodes = False, True
        return count

    sys.settrace(enter)
    try:
        result = search(game, state, **options)
    finally:
        sys.settrace(None)
    return executed[0] / result.stats.nodes


def _pair(old: ModuleType | None, why: str, name: str, game: Any, state: Any, small: tuple[Any, Any],
          **options: Any) -> list[Contender]:
    """The separate search of ``BEFORE`` (the base) and the driver, doing the same search;
    ``small`` is the (game, state) of the case's small version, whose bytecodes are counted."""
    new_search = getattr(searchers, name)
    before = None if old is None else (lambda: _counted(getattr(old, name), game, state, **options))
    small_options = {**options, "depth": min(options["depth"], 4)} if "depth" in options else options
    bytecodes = [f"{own_bytecodes(search, *small, **small_options):.1f} bytecodes a node in the searchers' code"
                 for search in ((getattr(old, name),) if old is not None else ()) + (new_search,)]
    return [
        Contender(f"{name}, before the driver ({BEFORE})", before, note=why or bytecodes[0]),
        Contender(f"{name} through the driver", lambda: _counted(new_search, game, state, **options), note=bytecodes[-1]),
    ]


def cases(quick: bool) -> list[Case]:
    """Minimax and alpha-beta on tic-tac-toe, alpha-beta with table and ordering on 6x7
    connect four, expectiminimax on a dice race; ``quick``: smaller versions of each."""
    old, why = _old_searchers()
    tictactoe, connect = TicTacToe(), ConnectK(6, 7, 4)
    dice, small_dice = DiceRace(goal=5 if quick else 8), DiceRace(goal=5)
    small_start = tictactoe.result(tictactoe.result(tictactoe.initial_state(), (1, 1)), (0, 0))
    start = small_start if quick else tictactoe.initial_state()
    depth = 4 if quick else 7
    return [
        Case("driver", "tic-tac-toe minimax, to the end",
             _pair(old, why, "minimax", tictactoe, start, (tictactoe, small_start)), per_node=True),
        Case("driver", "tic-tac-toe alphabeta, to the end",
             _pair(old, why, "alphabeta", tictactoe, start, (tictactoe, small_start)), per_node=True),
        Case("driver", f"connect four 6x7 alphabeta depth {depth}, table + ordering",
             _pair(old, why, "alphabeta", connect, connect.initial_state(), (connect, connect.initial_state()),
                   depth=depth, table=True, ordering=True),
             per_node=True),
        Case("driver", f"dice race to {dice.goal} expectiminimax, to the end",
             _pair(old, why, "expectiminimax", dice, dice.initial_state(), (small_dice, small_dice.initial_state())),
             per_node=True),
    ]
