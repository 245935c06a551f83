"""`python -m benchmarks`: run the benchmark suites, print one table, write the JSON.

    python -m benchmarks                          # every suite, 3 interleaved runs of each case
    python -m benchmarks --suite walk --suite search --repeat 5
    python -m benchmarks --quick                  # small cases, a smoke test of the harness
    python -m benchmarks --suite solve --case 4x5 --json benchmarks/results/before.json

Run it from the repository's root. With the `bench` extra installed (pip install -e
'.[bench]'), the peers (OpenSpiel, easyAI, aima3, python-chess) are timed on the same work in
the same run; without it their rows say "not installed". The exit status is 1 when an
implementation failed or computed a wrong value, 0 otherwise (a missed target is not a failure).
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Sequence
from pathlib import Path

from benchmarks import ROOT
from benchmarks.harness import Measurement, measure
from benchmarks.report import document, environment, started, table, write
from benchmarks.suites import SUITES

DEFAULT_JSON = ROOT / "benchmarks" / "results" / "latest.json"


def parser() -> argparse.ArgumentParser:
    """The command's options."""
    command = argparse.ArgumentParser(
        prog="python -m benchmarks",
        description="Time gdl against hand-written Python and against other libraries: one table, "
        "and JSON to compare runs. CPU time, contenders interleaved, medians of the runs.",
        epilog="suites: " + "; ".join(f"{name}: {suite.TITLE}" for name, suite in SUITES.items()),
    )
    command.add_argument("--suite", action="append", choices=list(SUITES), metavar="NAME",
                         help="run this suite (repeatable; default: all, in the order listed below)")
    command.add_argument("--case", metavar="TEXT", help="run only the cases whose name contains TEXT")
    command.add_argument("--quick", action="store_true", help="small cases only: a quick check that everything runs")
    command.add_argument("--repeat", type=positive, default=3, metavar="N", help="runs of each contender (default 3)")
    command.add_argument("--json", type=Path, default=DEFAULT_JSON, metavar="FILE",
                         help=f"where to write the results (default {DEFAULT_JSON.relative_to(ROOT)})")
    return command


def positive(text: str) -> int:
    """A whole number of runs, at least 1."""
    number = int(text)
    if number < 1:
        raise argparse.ArgumentTypeError("must be 1 or more")
    return number


def progress(message: str) -> None:
    """Say on standard error what is running: a full run takes many minutes."""
    print(f"  {message}", file=sys.stderr, flush=True)


def run_suite(name: str, args: argparse.Namespace, measurements: list[Measurement], failures: list[str]) -> None:
    """Measure the suite's cases that the options select, adding them to ``measurements`` as
    each is done; a suite that cannot even set up is added to ``failures``."""
    suite = SUITES[name]
    progress(f"{name}: {suite.TITLE}")
    try:
        cases = suite.cases(args.quick)
    except Exception as error:
        failures.append(f"suite {name} could not set up: {type(error).__name__}: {error}")
        progress(failures[-1])
        return
    for case in cases:
        if args.case is None or args.case in case.name:
            measurements += measure(case, args.repeat, progress)


def main(argv: Sequence[str] | None = None) -> int:
    """Run the chosen suites; print the table, write the JSON; the exit status."""
    args = parser().parse_args(argv)
    start = started()
    measurements: list[Measurement] = []
    failures: list[str] = []
    try:
        for name in args.suite or list(SUITES):
            run_suite(name, args, measurements, failures)
    except KeyboardInterrupt:  # a long run stopped by hand still reports the cases it finished
        failures.append("interrupted: the cases after the last row were not measured")
    env = environment(start)
    print(table(measurements, env, args.repeat))
    for failure in failures:
        print(f"FAILED: {failure}")
    options = {"suites": args.suite or list(SUITES), "case": args.case, "quick": args.quick, "repeat": args.repeat}
    write(document(measurements, env, options, failures), args.json)
    print(f"\nresults written to {args.json}")
    broken = failures or [m for m in measurements if m.status in ("error", "wrong")]
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
