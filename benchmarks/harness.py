"""How a benchmark measures: the same work done by several implementations, timed in CPU
seconds, interleaved round by round, summarised by medians with their spread.

A `Case` is one piece of work (walk the tic-tac-toe tree, solve connect four 4x5) and the
`Contender`s that do it (the game file, the hand-written game, a peer library). `measure` runs
the contenders one after the other in each round (A, B, C, A, B, C, ...), so that a change in
the machine's load falls on all of them alike, and checks that every run computed the case's
value. The first contender is the base: the others' ratios are their time over the base's.
"""

from __future__ import annotations

import gc
import math
import numbers
import resource
import statistics
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any, Literal


@dataclass(frozen=True)
class Outcome:
    """What one run computed: the value the case checks, and the nodes visited if known.

    ``seconds``, when given, is the run's own time of its work, measured where it ran (a
    child process timing a parallel solve by the wall clock); it replaces the CPU seconds the
    harness counts.  ``figures`` are other measured figures, printed in the row's note."""

    value: Any
    nodes: int | None = None
    seconds: float | None = None
    figures: str = ""


@dataclass(frozen=True)
class Target:
    """A goal for a contender's ratio to the base, e.g. at most 1.3 or at least 10."""

    comparison: Literal["<=", ">="]
    ratio: float

    def met(self, ratio: float) -> bool:
        """Whether ``ratio`` reaches the goal."""
        return ratio <= self.ratio if self.comparison == "<=" else ratio >= self.ratio

    def text(self) -> str:
        """The goal as the table prints it."""
        return f"{'≤' if self.comparison == '<=' else '≥'}{self.ratio:g}x"


@dataclass(frozen=True)
class Contender:
    """One implementation of a case's work.

    ``run`` does the work once and returns its outcome; None when the implementation cannot
    run here, and ``note`` then says why ("not installed ..."). ``value_of`` turns a run's
    value into the value the case checks, outside the timing: a peer that returns only a
    best move is checked by playing its moves to the end.
    """

    name: str
    run: Callable[[], Outcome] | None
    note: str = ""
    target: Target | None = None
    value_of: Callable[[Any], Any] | None = None


def values_agree(a: Any, b: Any) -> bool:
    """Equal, or for numbers equal within rounding (a file may score 3/100 exactly where a
    hand-written game scores 0.03)."""
    if isinstance(a, numbers.Real) and isinstance(b, numbers.Real):
        return math.isclose(float(a), float(b), rel_tol=1e-9, abs_tol=1e-12)
    return bool(a == b)


@dataclass(frozen=True)
class Case:
    """One piece of work and the contenders that do it; the first contender is the base.

    ``expected`` is the value every contender must compute (None: they must agree with the
    first one that ran) and ``nodes`` the nodes every contender that counts them must visit;
    ``per_node`` compares time per node instead of time; ``rate_shown`` is False when the time
    covers more than the nodes counted (a whole command, start-up included).
    """

    suite: str
    name: str
    contenders: Sequence[Contender]
    expected: Any = None
    nodes: int | None = None
    per_node: bool = False
    rate_shown: bool = True
    same: Callable[[Any, Any], bool] = values_agree


@dataclass
class Measurement:
    """A contender's runs on a case: the CPU seconds of each round, and what it computed."""

    case: Case
    contender: Contender
    seconds: list[float] = field(default_factory=list)
    value: Any = None
    nodes: int | None = None
    error: str | None = None  # why the runs stopped: an exception, or a wrong value
    wrong: bool = False
    figures: str = ""  # the last run's other figures

    @property
    def status(self) -> str:
        """"ok", "unavailable" (the contender cannot run here), "error" or "wrong" (a value
        that is not the case's)."""
        if self.contender.run is None:
            return "unavailable"
        if self.error is not None:
            return "wrong" if self.wrong else "error"
        return "ok"

    @property
    def median(self) -> float | None:
        """The median CPU seconds of the rounds."""
        return statistics.median(self.seconds) if self.seconds else None

    def cost(self, seconds: float) -> float:
        """What ratios compare: seconds, or seconds per node in a per-node case."""
        if self.case.per_node:
            return seconds / self.nodes if self.nodes else math.nan
        return seconds


def cpu_seconds() -> float:
    """CPU time of this process and of the child processes it has waited for (a suite may run
    the `gdl` command itself)."""
    children = resource.getrusage(resource.RUSAGE_CHILDREN)
    return time.process_time() + children.ru_utime + children.ru_stime


def measure(case: Case, repeat: int, progress: Callable[[str], None] | None = None) -> list[Measurement]:
    """Run every available contender of ``case`` ``repeat`` times, interleaved, and check
    each run's value. A contender that fails or computes a wrong value stops running; the
    others go on. ``progress`` hears of each run before it starts."""
    measurements = [Measurement(case, contender) for contender in case.contenders]
    expected = case.expected
    for round_number in range(1, repeat + 1):
        for measurement in measurements:
            if measurement.status != "ok":
                continue
            if progress is not None:
                progress(f"{case.name}: {measurement.contender.name}, run {round_number} of {repeat}")
            expected = _run_once(measurement, expected)
    return measurements


def _run_once(measurement: Measurement, expected: Any) -> Any:
    """One timed run of one contender; returns the value later runs must compute."""
    contender = measurement.contender
    assert contender.run is not None
    gc.collect()  # garbage left by the previous run is not this run's cost
    try:
        started = cpu_seconds()
        outcome = contender.run()
        seconds = cpu_seconds() - started if outcome.seconds is None else outcome.seconds
        value = contender.value_of(outcome.value) if contender.value_of else outcome.value
    except Exception as error:  # a failing implementation is reported in its row, not fatal
        measurement.error = f"{type(error).__name__}: {error}"
        return expected
    measurement.seconds.append(seconds)
    measurement.value, measurement.nodes, measurement.figures = value, outcome.nodes, outcome.figures
    case = measurement.case
    if expected is not None and not case.same(value, expected):
        measurement.error = f"wrong value {value!r}, expected {expected!r}"
    elif case.nodes is not None and outcome.nodes is not None and outcome.nodes != case.nodes:
        measurement.error = f"wrong count: {outcome.nodes:,} nodes, expected {case.nodes:,}"
    else:
        return value
    measurement.wrong = True
    return expected


@dataclass(frozen=True)
class Ratio:
    """A contender's cost over the base's: of the medians, and the range of the per-round
    ratios (each round's runs are neighbours in time, so their ratio shows the noise)."""

    median: float
    low: float
    high: float


def ratio(measurement: Measurement, base: Measurement) -> Ratio | None:
    """``measurement``'s cost relative to ``base``'s; None when either has no runs."""
    if measurement.status != "ok" or base.status != "ok" or not measurement.seconds or not base.seconds:
        return None
    per_round = [measurement.cost(a) / base.cost(b) for a, b in zip(measurement.seconds, base.seconds)]
    middle = measurement.cost(statistics.median(measurement.seconds)) / base.cost(statistics.median(base.seconds))
    return Ratio(middle, min(per_round), max(per_round))
