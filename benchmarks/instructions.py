"""Machine instructions a node, counted by valgrind: the search driver against the separate
searches it replaced, on the cases of the `driver` suite.

    python -m benchmarks.instructions [--case NAME ...]

Timings on a shared machine move by several percent from run to run, as much as the searches
differ. The number of instructions a search executes does not move: each case runs under
valgrind (`--tool=cachegrind --cache-sim=no`), once with the search and once without, after
the same warm-up (a small search with the same options, so that the driver's one-time
specialising of its code falls outside the difference); the difference over the nodes is the
cost of a node, the game's code and the searcher's together. Needs valgrind and git (the old
searches are read from the repository's history, as the `driver` suite does).
"""

from __future__ import annotations

import argparse
import re
import shutil
import subprocess
import sys
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

CASES = ("minimax", "alphabeta", "table", "expectiminimax")
"""Tic-tac-toe minimax after the centre; alpha-beta from the start; 6x7 connect four
alpha-beta to depth 6 with table and ordering; a dice race to 6 by expectiminimax."""

_COUNTED = re.compile(r"I\s+refs:\s+([\d,]+)")


def run_case(which: str, case: str, searches: int) -> int:
    """Run ``case`` with the ``which`` searchers ("before" or "driver"), the search done
    ``searches`` times after the warm-up; print the nodes of the last search (to stderr) and
    return them."""
    from benchmarks.suites import driver
    from searchers._common import on_roomy_stack
    from tests.pygames import ConnectK, DiceRace, TicTacToe

    if which == "before":
        package, why = driver._old_searchers()
        if package is None:
            raise SystemExit(why)
    else:
        import searchers as package
    tictactoe, connect, dice = TicTacToe(), ConnectK(6, 7, 4), DiceRace(goal=6)
    centre = tictactoe.result(tictactoe.initial_state(), (1, 1))
    near_end = centre
    for move in [(0, 0), (0, 1), (0, 2), (2, 0), (2, 2), (1, 0)]:
        near_end = tictactoe.result(near_end, move)
    table = {"table": True, "ordering": True}
    name, game, state, options, warm_up = {
        "minimax": ("minimax", tictactoe, centre, {}, (tictactoe, near_end, {})),
        "alphabeta": ("alphabeta", tictactoe, tictactoe.initial_state(), {}, (tictactoe, near_end, {})),
        "table": ("alphabeta", connect, connect.initial_state(), {**table, "depth": 6},
                  (connect, connect.initial_state(), {**table, "depth": 1})),
        "expectiminimax": ("expectiminimax", dice, dice.initial_state(), {},
                           (DiceRace(goal=2), DiceRace(goal=2).initial_state(), {})),
    }[case]
    search = getattr(package, name)
    on_roomy_stack(search, warm_up[0], warm_up[1], **warm_up[2])
    nodes = 0
    for _ in range(searches):
        nodes = on_roomy_stack(search, game, state, **options).stats.nodes
    print(nodes, file=sys.stderr)
    return nodes


def instructions(which: str, case: str, searches: int) -> tuple[int, int]:
    """(instructions executed, nodes of the search) of one run of this module under valgrind."""
    command = ["valgrind", "--tool=cachegrind", "--cache-sim=no", "--cachegrind-out-file=/dev/null",
               sys.executable, "-m", "benchmarks.instructions", "--run", which, case, str(searches)]
    done = subprocess.run(command, cwd=ROOT, capture_output=True, text=True, check=True)
    counted = _COUNTED.search(done.stderr)
    if counted is None:
        raise SystemExit(f"valgrind printed no instruction count:\n{done.stderr}")
    nodes = [line for line in done.stderr.splitlines() if line.strip().isdigit()]
    return int(counted.group(1).replace(",", "")), int(nodes[-1]) if nodes else 0


def main(argv: list[str] | None = None) -> int:
    """Print the instructions a node for each case, before the driver and through it."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--case", action="append", choices=CASES, help="a case to count (default: all)")
    parser.add_argument("--run", nargs=3, metavar=("WHICH", "CASE", "SEARCHES"), help=argparse.SUPPRESS)
    args = parser.parse_args(argv)
    if args.run:
        run_case(args.run[0], args.run[1], int(args.run[2]))
        return 0
    if shutil.which("valgrind") is None:
        print("valgrind is not installed: nothing counted", file=sys.stderr)
        return 1
    print(f"{'case':16} {'nodes':>8} {'before the driver':>18} {'through the driver':>19} {'ratio':>6}")
    for case in args.case or CASES:
        per_node = {}
        for which in ("before", "driver"):
            base, _ = instructions(which, case, 0)
            total, nodes = instructions(which, case, 1)
            per_node[which] = (total - base) / nodes
        ratio = per_node["driver"] / per_node["before"]
        print(f"{case:16} {nodes:>8,} {per_node['before']:>18,.0f} {per_node['driver']:>19,.0f} {ratio:>6.3f}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
