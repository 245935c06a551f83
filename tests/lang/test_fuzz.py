"""Mutated game files: each ends in a playable game or a positioned error, never anything else.

Every bundled game file is mutated (see tests/lang/mutations.py): lines and tokens deleted,
duplicated and swapped, stray and non-UTF-8 bytes, deep nesting, long lines, huge numbers.
`python -m benchmarks.fuzz` runs many more mutants than the suite has time for.
"""

from __future__ import annotations

import random

import pytest
from hypothesis import HealthCheck, Phase, given, settings
from hypothesis import strategies as st

from tests.lang.mutations import MUTATIONS, SOURCES, check_mutant, load_mutant, mutant

# Derandomized, so that the suite tries the same mutants every run; not shrunk, since a
# mutant is already small to read (its seed reproduces it: `mutant(name, seed, changes)`).
PHASES = [Phase.explicit, Phase.reuse, Phase.generate]
CASES = settings(
    max_examples=500, deadline=None, derandomize=True, phases=PHASES,
    suppress_health_check=[HealthCheck.too_slow],
)


@CASES
@given(st.sampled_from(sorted(SOURCES)), st.integers(0, 2**32 - 1), st.integers(1, 3))
def test_a_mutated_game_loads_and_plays_or_fails_where_it_says(name: str, seed: int, changes: int) -> None:
    data, _ = mutant(name, seed, changes)
    load_mutant(data, seed)


@settings(max_examples=150, deadline=None, derandomize=True, phases=PHASES,
          suppress_health_check=[HealthCheck.too_slow])
@given(st.sampled_from(sorted(SOURCES)), st.integers(0, 2**32 - 1), st.integers(1, 3))
def test_gdl_check_on_a_mutated_game_exits_0_or_with_a_positioned_error(
    name: str, seed: int, changes: int
) -> None:
    data, _ = mutant(name, seed, changes)
    check_mutant(data)


@pytest.mark.parametrize("kind", sorted(MUTATIONS))
def test_every_kind_of_mutation_is_tried_on_every_game(kind: str) -> None:
    # Each mutation alone, once on each bundled file.
    table = MUTATIONS

    for seed, (name, source) in enumerate(sorted(SOURCES.items())):
        data = table[kind](source, random.Random(seed))
        load_mutant(data, seed)


def test_unmutated_games_load_and_play() -> None:
    for name, source in sorted(SOURCES.items()):
        if name.endswith("_typo.gdl"):  # the tutorial's file with a deliberate mistake
            assert load_mutant(source, 0) == "error"
        else:
            assert load_mutant(source, 0) == "game", name


def test_thousands_more_mutants_end_as_a_game_or_a_positioned_error() -> None:
    # The same checks on 2,500 more mutants, in a process of their own: without the run-time
    # type checks of this suite, loading is several times faster.
    import subprocess
    import sys

    from tests.lang.mutations import ROOT

    run = subprocess.run(
        [sys.executable, "-m", "benchmarks.fuzz", "--cases", "2500", "--seed", "0", "--check-every", "10"],
        cwd=ROOT, capture_output=True, text=True, timeout=1200,
    )
    assert run.returncode == 0, run.stdout + run.stderr[-3000:]
    assert run.stdout.startswith("2,500 mutants from seed 0"), run.stdout
