"""What a benchmark run prints and keeps: one table for people, one JSON document for comparing
runs, both with the environment the numbers were measured in."""

from __future__ import annotations

import datetime
import json
import math
import os
import platform
import subprocess
from collections.abc import Sequence
from fractions import Fraction
from pathlib import Path
from typing import Any

from benchmarks import ROOT
from benchmarks.harness import Measurement, Ratio, ratio
from benchmarks.peers import versions

HEADINGS = ("suite", "case", "implementation", "value", "nodes", "median s", "spread s", "µs/node", "ratio", "note")
# Columns of numbers, aligned to the right.
NUMERIC = {"value", "nodes", "median s", "spread s", "µs/node"}


def started() -> dict[str, Any]:
    """What is known when a run starts: its date and the machine's load."""
    return {
        "date": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "load_average_start": list(os.getloadavg()),
    }


def environment(start: dict[str, Any]) -> dict[str, Any]:
    """Where and when the numbers were measured: Python, machine, the run's start and end,
    commit and load (``start`` is `started()`'s answer)."""
    return {
        "python": platform.python_version(),
        "implementation": platform.python_implementation(),
        "machine": platform.machine(),
        "platform": platform.platform(),
        "cpus": os.cpu_count(),
        "date": start["date"],
        "finished": datetime.datetime.now(datetime.timezone.utc).isoformat(timespec="seconds"),
        "git_commit": _git("rev-parse", "HEAD"),
        # Uncommitted changes to tracked files make the commit only an approximate label.
        "git_dirty": bool(_git("status", "--porcelain", "--untracked-files=no")),
        "load_average_start": start["load_average_start"],
        "load_average_end": list(os.getloadavg()),
        "peers": versions(),
    }


def _git(*arguments: str) -> str | None:
    try:
        done = subprocess.run(["git", *arguments], cwd=ROOT, capture_output=True, text=True, check=True)
    except (OSError, subprocess.CalledProcessError):
        return None
    return done.stdout.strip()


def _base_of(measurements: Sequence[Measurement]) -> dict[int, Measurement]:
    """Each measurement's base: the first contender of its case (by id of the case)."""
    bases: dict[int, Measurement] = {}
    for measurement in measurements:
        bases.setdefault(id(measurement.case), measurement)
    return bases


def _ratio_of(measurement: Measurement, base: Measurement) -> Ratio | None:
    return None if measurement is base else ratio(measurement, base)


# ---- the table ---------------------------------------------------------------------------------


def table(measurements: Sequence[Measurement], env: dict[str, Any], repeat: int) -> str:
    """The run as one aligned table, after a header saying where and how it was measured."""
    bases = _base_of(measurements)
    rows, last_suite, last_case = [], None, None
    for measurement in measurements:
        case = measurement.case
        row = _cells(measurement, bases[id(case)])
        row[0] = case.suite if case.suite != last_suite else ""
        row[1] = case.name if id(case) != last_case else ""
        last_suite, last_case = case.suite, id(case)
        rows.append(row)
    widths = [max(len(heading), *(len(row[i]) for row in rows)) for i, heading in enumerate(HEADINGS)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.rjust(width) if heading in NUMERIC else cell.ljust(width)
            for cell, width, heading in zip(cells, widths, HEADINGS)
        ).rstrip()

    body = [line(HEADINGS), line(["-" * width for width in widths])]
    for row in rows:
        if row[0]:
            if len(body) > 2:
                body.append("")
        body.append(line(row))
    return "\n".join([*_header(env, repeat), "", *body])


def _header(env: dict[str, Any], repeat: int) -> list[str]:
    commit = (env["git_commit"] or "unknown")[:10] + (" with uncommitted changes" if env["git_dirty"] else "")
    start, end = env["load_average_start"], env["load_average_end"]
    return [
        f"gdl benchmarks, {env['date']} to {env['finished']}, commit {commit}",
        f"Python {env['python']} ({env['implementation']}) on {env['platform']}, {env['cpus']} CPUs, "
        f"load average {start[0]:.2f} at the start, {end[0]:.2f} at the end",
        f"CPU seconds of each run (process time), the contenders of a case interleaved, {repeat} run{'s' * (repeat != 1)} each:",
        "median s = the median run, spread s = fastest-slowest run; ratio = the median over the case's "
        "first row (per node where marked /node), in brackets the range of the ratios of runs made side by side.",
    ]


def _cells(measurement: Measurement, base: Measurement) -> list[str]:
    """One row of the table, the suite and case cells left for the caller."""
    contender, seconds = measurement.contender, measurement.seconds
    median = measurement.median
    cells = ["", "", contender.name, "", "", "", "", "", "", ""]
    notes = [text for text in (contender.note, measurement.figures) if text]
    if measurement.error:
        notes.insert(0, ("WRONG: " if measurement.wrong else "FAILED: ") + measurement.error)
    if seconds and median is not None:
        decimals = _decimals(median)
        cells[3] = value_text(measurement.value)
        cells[4] = f"{measurement.nodes:,}" if measurement.nodes is not None else "n/a"
        cells[5] = f"{median:.{decimals}f}"
        cells[6] = f"{min(seconds):.{decimals}f}-{max(seconds):.{decimals}f}"
        if measurement.nodes and measurement.case.rate_shown:
            cells[7] = f"{median / measurement.nodes * 1e6:.2f}"
    found = _ratio_of(measurement, base)
    per_node = "/node" if measurement.case.per_node else ""
    if measurement is base and seconds and len(measurement.case.contenders) > 1:
        cells[8] = "1 (base)"
    elif found is not None:
        cells[8] = f"{found.median:.2f}x{per_node} ({found.low:.2f}-{found.high:.2f})"
    target = contender.target
    if target is not None:
        verdict = "not measured" if found is None else "met" if target.met(found.median) else "MISSED"
        notes.insert(0, f"target {target.text()}: {verdict}")
    cells[9] = "; ".join(notes)
    return cells


def value_text(value: Any) -> str:
    """A computed value for the table: integers with thousands separators, fractions as
    decimals."""
    if isinstance(value, bool) or value is None:
        return str(value)
    if isinstance(value, int):
        return f"{value:,}"
    if isinstance(value, (float, Fraction)):
        return f"{float(value):.4g}"
    return str(value)


def _decimals(seconds: float) -> int:
    """The decimals that show ``seconds`` to three significant digits (a whole row of times is
    printed with the decimals of its median)."""
    if seconds <= 0:
        return 3
    return max(0, 2 - math.floor(math.log10(seconds)))


# ---- the JSON document -------------------------------------------------------------------------


def document(measurements: Sequence[Measurement], env: dict[str, Any], options: dict[str, Any],
             failures: Sequence[str]) -> dict[str, Any]:
    """The run as JSON: the environment, the options and one object per row of the table."""
    bases = _base_of(measurements)
    return {
        "environment": env,
        "options": options,
        "failures": list(failures),
        "rows": [_row(measurement, bases[id(measurement.case)]) for measurement in measurements],
    }


def _row(measurement: Measurement, base: Measurement) -> dict[str, Any]:
    contender, seconds = measurement.contender, measurement.seconds
    found = _ratio_of(measurement, base)
    target = contender.target
    median = measurement.median
    return {
        "suite": measurement.case.suite,
        "case": measurement.case.name,
        "name": contender.name,
        "base": measurement is base,
        "status": measurement.status,
        "note": "; ".join(text for text in (contender.note, measurement.figures) if text),
        "error": measurement.error,
        "value": json_value(measurement.value),
        "nodes": measurement.nodes,
        "repeats": len(seconds),
        "seconds": seconds,
        "median_seconds": median,
        "min_seconds": min(seconds) if seconds else None,
        "max_seconds": max(seconds) if seconds else None,
        "per_node": measurement.case.per_node,
        "microseconds_per_node": (median / measurement.nodes * 1e6
                                  if median is not None and measurement.nodes and measurement.case.rate_shown else None),
        "ratio": None if found is None else {"median": found.median, "min": found.low, "max": found.high},
        "target": None if target is None else {
            "comparison": target.comparison, "ratio": target.ratio,
            "met": None if found is None else target.met(found.median),
        },
    }


def json_value(value: Any) -> Any:
    """A computed value as JSON can hold it: numbers and strings as they are, fractions as
    floats, anything else as its text."""
    if value is None or isinstance(value, (bool, int, float, str)):
        return value
    if isinstance(value, Fraction):
        return float(value)
    return str(value)


def write(document: dict[str, Any], path: Path) -> None:
    """Save the JSON document, making its folder if need be."""
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(document, indent=2, ensure_ascii=False) + "\n")
