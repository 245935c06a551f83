"""Strong solving measured: positions per second on one core and with two workers, and bytes
per position on disk and in memory.

    python benchmarks/strong.py                 # connect 4x4 and 5x4, Kalah 4x3, Pig to 30
    python benchmarks/strong.py --pig 100       # Pig to its full goal (Neller and Presser: 53.06%)
    python benchmarks/strong.py --five          # also connect-4 on the 5x5 board
    python benchmarks/strong.py --only pig      # only the rows of games/pig.gdl (any of the above)

The same rows, interleaved and repeated, are the `strong` suite of `python -m benchmarks`.
Each row runs in a fresh process (so that its peak memory is its own) through the Python API:
the game loaded, then solved into a tablebase in a temporary directory.  "memory/pos" is the
growth of the process's peak resident memory over the solve, per position: the whole graph for
a solve in memory ("tiers: no"), the largest tier and the frontier otherwise (worker processes
not counted).  Times are wall times of the solve, whatever else the machine is running.
"""

from __future__ import annotations

import json
import os
import resource
import subprocess
import sys
import tempfile
import time
from functools import partial
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

Expected = float | tuple[float, float] | None
"""A row's known value: exactly, to within a margin (value, margin), or not known."""

# (file, parameters, expected value, how: "memory" for the whole graph in one process, else a
# number of workers for the solve by tiers)
ROWS: list[tuple[str, dict[str, Any], Expected, object]] = [
    ("games/tictactoe.gdl", {}, 0, "memory"),
    ("games/connect.gdl", {"rows": 4, "cols": 4}, 0, "memory"),
    ("games/connect.gdl", {"rows": 4, "cols": 4}, 0, 1),
    ("games/connect.gdl", {"rows": 4, "cols": 4}, 0, 2),
    ("games/connect.gdl", {"rows": 5, "cols": 4}, None, "memory"),
    ("games/connect.gdl", {"rows": 5, "cols": 4}, None, 1),
    ("games/connect.gdl", {"rows": 5, "cols": 4}, None, 2),
    ("games/kalah.gdl", {"pits": 4, "seeds": 3}, 6, "memory"),
    ("games/kalah.gdl", {"pits": 4, "seeds": 3}, 6, 1),
    ("games/kalah.gdl", {"pits": 4, "seeds": 3}, 6, 2),
]


def peak_memory() -> int:
    """This process's peak resident memory, in bytes: on Linux its ``VmHWM`` (there
    ``ru_maxrss`` starts at the peak of the process that started this one, kept across fork and
    exec, so that a row run from a large benchmark process showed no growth at all); elsewhere
    ``ru_maxrss`` (bytes on macOS, kilobytes on the other systems)."""
    try:
        with open("/proc/self/status") as status:
            for line in status:
                if line.startswith("VmHWM:"):
                    return int(line.split()[1]) * 1024
    except OSError:
        pass
    peak = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    return peak if sys.platform == "darwin" else peak * 1024


def one(spec: dict[str, Any]) -> dict[str, Any]:
    """Solve one row in this process; its figures."""
    import gdl
    from gdl.tablebase import describe_game
    from searchers.strong import solve_strong

    path = str(ROOT / spec["file"])
    game = gdl.load(path, **spec["params"])
    before = peak_memory()
    with tempfile.TemporaryDirectory() as directory:
        out = Path(directory) / "tb.sqlite"
        how = spec["how"]
        started, processor = time.perf_counter(), time.process_time()
        result = solve_strong(
            game, out=out, meta=describe_game(game), tiers=how != "memory",
            workers=1 if how == "memory" else how, factory=partial(gdl.load, path, **spec["params"]),
        )
        seconds, processor = time.perf_counter() - started, time.process_time() - processor
        disk = os.path.getsize(out)
    peak = peak_memory()
    return {
        "value": str(result.value), "float": float(result.value), "exact": result.exact,
        "positions": result.positions, "seconds": seconds, "rate": result.positions / seconds,
        "processor_seconds": processor,
        "disk": disk / result.positions, "memory": (peak - before) / result.positions,
        "tiers": result.stats.tiers, "remoteness": result.remoteness,
    }


def run_row(file: str, params: dict[str, Any], how: object) -> dict[str, Any]:
    """One row, in a fresh process."""
    spec = json.dumps({"file": file, "params": params, "how": how})
    done = subprocess.run([sys.executable, "-m", "benchmarks.strong", "--one", spec], cwd=ROOT,
                          capture_output=True, text=True, check=True)
    figures: dict[str, Any] = json.loads(done.stdout)
    return figures


# Pig to 100: the first player wins 53.06% of games with optimal play (Neller and Presser 2004, to
# the hundredth of a percent), a value of 2 * 0.5306 - 1 for First, to within 0.0001.
PIG_100 = (2 * 0.5306 - 1, 0.0001)


def how_text(how: object, tiers: int | str = "") -> str:
    """How a row solves: in memory, or by tiers with so many workers."""
    return "in memory" if how == "memory" else f"{tiers}{' ' if tiers != '' else ''}tiers, {how} worker{'s' if how != 1 else ''}"


def main() -> None:
    """Print the table."""
    if "--one" in sys.argv:
        print(json.dumps(one(json.loads(sys.argv[sys.argv.index("--one") + 1]))))
        return
    rows = list(ROWS)
    goal = int(sys.argv[sys.argv.index("--pig") + 1]) if "--pig" in sys.argv else 30
    pig_value = PIG_100 if goal == 100 else None
    rows += [("games/pig.gdl", {"goal": goal}, pig_value, 1), ("games/pig.gdl", {"goal": goal}, pig_value, 2)]
    if "--five" in sys.argv:
        rows.append(("games/connect.gdl", {"rows": 5, "cols": 5}, None, 1))
    if "--only" in sys.argv:
        wanted = sys.argv[sys.argv.index("--only") + 1]
        rows = [row for row in rows if wanted in row[0]]
    print("| game | parameters | how | positions | value | seconds | positions/s | disk bytes/pos | memory bytes/pos |")
    print("|---|---|---|---|---|---|---|---|---|")
    for file, params, expected, how in rows:
        figures = run_row(file, params, how)
        known, within = expected if isinstance(expected, tuple) else (expected, 0.0)
        if known is not None and abs(figures["float"] - known) > within:
            raise SystemExit(f"{file} {params}: value {figures['value']}, expected {known}"
                             + (f" to within {within}" if within else ""))
        shown = figures["value"] if "/" not in figures["value"] else f"{figures['float']:.4f}"
        if not figures["exact"]:
            shown = f"~{figures['float']:.6f}"
        text = " ".join(f"{k}={v}" for k, v in params.items())
        print(f"| `{file}` | {text} | {how_text(how, figures['tiers'])} | {figures['positions']:,} | {shown} | "
              f"{figures['seconds']:.1f} | {figures['rate']:,.0f} | {figures['disk']:.0f} | {figures['memory']:.0f} |",
              flush=True)


if __name__ == "__main__":
    main()
