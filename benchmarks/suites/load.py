"""load: how long loading each bundled game file takes (parse, check, compile), the price a
user pays before any search."""

from __future__ import annotations

import gdl
from benchmarks import ROOT
from benchmarks.harness import Case, Contender, Outcome

TITLE = "loading each bundled game file (parse, check, compile)"

QUICK = ("games/tictactoe.gdl", "games/connect.gdl")


def loader(path: str) -> Contender:
    """`gdl.load` on ``path``; the value is the game's title."""
    def run() -> Outcome:
        return Outcome(gdl.load(ROOT / path).title)
    return Contender("gdl.load", run)


def cases(quick: bool) -> list[Case]:
    """One case per file under games/; ``quick`` keeps tic-tac-toe and connect-k."""
    paths = sorted(str(path.relative_to(ROOT)) for path in ROOT.glob("games/**/*.gdl"))
    return [Case("load", path, [loader(path)]) for path in paths if path in QUICK or not quick]
