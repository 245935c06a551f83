"""The benchmark suites, by the name `--suite` takes, in the order a full run goes.

A suite is a module with a docstring saying what it measures, ``TITLE`` (one line) and
``cases(quick: bool) -> list[benchmarks.harness.Case]`` (``quick``: a few small cases, for
smoke tests). Adding a suite is writing its module and adding its line here.
"""

from __future__ import annotations

from types import ModuleType

from benchmarks.suites import chess_perft, driver, load, mcts, search, solve, strong, times, walk

SUITES: dict[str, ModuleType] = {
    "walk": walk,
    "search": search,
    "driver": driver,
    "mcts": mcts,
    "solve": solve,
    "times": times,
    "load": load,
    "chess_perft": chess_perft,
    "strong": strong,
}
