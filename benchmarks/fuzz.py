"""Many more mutated game files than the test suite has time for (see tests/lang/mutations.py).

    python -m benchmarks.fuzz [--cases N] [--seed S] [--check-every K]

Each case mutates a bundled game file one to three times and loads it from Python; every K-th
case also runs `gdl check` on it.  Prints how the cases ended (a game that played 40 random
moves, or a positioned error) by mutation, and the first failure in full with the seed that
reproduces it.  Exit status 1 if any case ended otherwise.
"""

from __future__ import annotations

import argparse
import random
import sys
import time
import traceback
from collections import Counter
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
if str(ROOT) not in sys.path:
    sys.path.insert(0, str(ROOT))

from tests.lang.mutations import SOURCES, check_mutant, load_mutant, mutant  # noqa: E402


def main(argv: list[str] | None = None) -> int:
    """Run the cases and print the tally."""
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--cases", type=int, default=20_000)
    parser.add_argument("--seed", type=int, default=None, help="first seed (default: random)")
    parser.add_argument("--check-every", type=int, default=10, metavar="K")
    args = parser.parse_args(argv)
    first = random.SystemRandom().randrange(2**32) if args.seed is None else args.seed
    names = sorted(SOURCES)
    outcomes: Counter[tuple[str, str]] = Counter()
    failures = 0
    started = time.process_time()
    for case in range(args.cases):
        seed = first + case
        pick = random.Random(seed)
        name, changes = pick.choice(names), pick.randint(1, 3)
        data, kinds = mutant(name, seed, changes)
        try:
            ended = load_mutant(data, seed)
            if case % args.check_every == 0:
                check_mutant(data)
        except Exception:  # noqa: BLE001 - every other outcome is what this run looks for
            failures += 1
            ended = "FAILED"
            if failures == 1:
                print(f"FAILED: mutant({name!r}, {seed}, {changes}) after {kinds}", file=sys.stderr)
                traceback.print_exc(limit=3)
        for kind in kinds:
            outcomes[(kind, ended)] += 1
    seconds = time.process_time() - started
    print(f"{args.cases:,} mutants from seed {first} in {seconds:.0f} s CPU; {failures} failed")
    print(f"{'mutation':24} {'game':>8} {'error':>8} {'FAILED':>8}")
    for kind in sorted({kind for kind, _ in outcomes}):
        row = [outcomes[(kind, end)] for end in ("game", "error", "FAILED")]
        print(f"{kind:24} {row[0]:>8,} {row[1]:>8,} {row[2]:>8,}")
    return 1 if failures else 0


if __name__ == "__main__":
    sys.exit(main())
