"""times: how long `gdl solve` takes on each solved size of the bundled games: the table of
docs/games.md. Each row runs the real command (`python -m gdl solve FILE -p ... --json`), so
its CPU time includes starting Python and loading the file."""

from __future__ import annotations

import json
import subprocess
import sys

from benchmarks import ROOT
from benchmarks.harness import Case, Contender, Outcome

TITLE = "gdl solve on each solved size of the bundled games (the command, start-up included)"

# (file, parameters, known value, quick)
ROWS: list[tuple[str, list[str], int | None, bool]] = [
    ("games/tictactoe.gdl", [], 0, True),
    ("games/subtraction.gdl", [], -1, True),
    ("games/subtraction.gdl", ["stones=5"], 1, False),
    ("games/nim.gdl", [], 1, False),
    ("games/nim.gdl", ["misere=true"], 1, False),
    ("games/textbook/aima.gdl", [], 3, True),
    ("games/connect.gdl", ["rows=3", "cols=3", "k=3"], 0, False),
    ("games/connect.gdl", ["rows=4", "cols=4", "k=3"], 1, False),
    ("games/connect.gdl", ["rows=4", "cols=4", "k=4"], 0, False),
    ("games/kalah.gdl", ["pits=2", "seeds=2"], -2, False),
    ("games/kalah.gdl", ["pits=3", "seeds=2"], 4, False),
    ("games/kalah.gdl", ["pits=3", "seeds=3"], 2, False),
    ("games/kalah.gdl", ["pits=4", "seeds=3"], 6, False),
    ("games/othello.gdl", ["size=4"], -8, False),
    ("games/hog.gdl", ["goal=10", "dice=2"], None, False),
    ("games/hog.gdl", [], None, False),
]


def command_solver(path: str, params: list[str]) -> Contender:
    """The `gdl solve --json` command on ``path``: its value and nodes."""
    command = [sys.executable, "-m", "gdl", "solve", path, "--json"]
    for param in params:
        command += ["-p", param]

    def run() -> Outcome:
        done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
        answer = json.loads(done.stdout)
        return Outcome(answer["value"], answer["stats"]["nodes"])

    return Contender("gdl solve (the command)", run)


def cases(quick: bool) -> list[Case]:
    """One case per row; ``quick`` keeps the three smallest."""
    return [
        Case("times", f"{path} {' '.join(params) or 'defaults'}", [command_solver(path, params)], expected=value,
             rate_shown=False)
        for path, params, value, is_quick in ROWS
        if is_quick or not quick
    ]
