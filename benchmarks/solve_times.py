"""How long `gdl solve` takes on each solved size of the bundled games (the table of docs/games.md).

    python benchmarks/solve_times.py            # every row
    python benchmarks/solve_times.py --quick    # the rows under a few seconds

Each row runs the real command (`python -m gdl solve ... --json`) and reports the value, the
nodes searched and the wall time, load included.
"""

from __future__ import annotations

import json
import subprocess
import sys
import time
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent

# (file, parameters, expected value, slow)
ROWS = [
    ("games/tictactoe.gdl", [], 0, False),
    ("games/subtraction.gdl", [], -1, False),
    ("games/subtraction.gdl", ["stones=5"], 1, False),
    ("games/nim.gdl", [], 1, False),
    ("games/nim.gdl", ["misere=true"], 1, False),
    ("games/textbook/aima.gdl", [], 3, False),
    ("games/connect.gdl", ["rows=3", "cols=3", "k=3"], 0, False),
    ("games/connect.gdl", ["rows=4", "cols=4", "k=3"], 1, False),
    ("games/connect.gdl", ["rows=4", "cols=4", "k=4"], 0, True),
    ("games/kalah.gdl", ["pits=2", "seeds=2"], -2, False),
    ("games/kalah.gdl", ["pits=3", "seeds=2"], 4, False),
    ("games/kalah.gdl", ["pits=3", "seeds=3"], 2, False),
    ("games/kalah.gdl", ["pits=4", "seeds=3"], 6, True),
    ("games/othello.gdl", ["size=4"], -8, False),
    ("games/hog.gdl", ["goal=10", "dice=2"], None, False),
    ("games/hog.gdl", [], None, False),
]


def solve(path: str, params: list[str]) -> tuple[dict, float]:
    """Run `gdl solve --json`; its result and the wall time."""
    command = [sys.executable, "-m", "gdl", "solve", path, "--json"]
    for param in params:
        command += ["-p", param]
    start = time.perf_counter()
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    return json.loads(done.stdout), time.perf_counter() - start


def main() -> None:
    """Print the table."""
    quick = "--quick" in sys.argv
    print("| game | parameters | value | nodes | seconds |")
    print("|---|---|---|---|---|")
    for path, params, expected, slow in ROWS:
        if quick and slow:
            continue
        result, seconds = solve(path, params)
        value = result["value"]
        if expected is not None and value != expected:
            raise SystemExit(f"{path} {params}: value {value}, expected {expected}")
        shown = f"{value:.4f}" if isinstance(value, float) else str(value)
        print(f"| `{path}` | {' '.join(params) or 'defaults'} | {shown} | {result['stats']['nodes']:,} | {seconds:.1f} |")


if __name__ == "__main__":
    main()
