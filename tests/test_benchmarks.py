"""The benchmark command keeps working: `python -m benchmarks --quick` runs every suite and
writes the JSON the docs describe, the harness interleaves its runs, catches a wrong value and
computes ratios as the table says, and the peers' rows say "not installed" without the `bench`
extra. (No timing is asserted: times are only checked to be consistent with each other.)"""

from __future__ import annotations

import json
import statistics
from pathlib import Path

import pytest

from benchmarks.__main__ import main
from benchmarks.harness import Case, Contender, Measurement, Outcome, measure, ratio
from benchmarks.suites import SUITES

ROW_KEYS = {
    "suite", "case", "name", "base", "status", "note", "error", "value", "nodes", "repeats", "seconds",
    "median_seconds", "min_seconds", "max_seconds", "per_node", "microseconds_per_node", "ratio", "target",
}


def run_quick(tmp_path: Path, *options: str) -> tuple[int, dict]:
    """Run the command with --quick --repeat 1 (and ``options``); its status and JSON."""
    output = tmp_path / "results.json"
    status = main(["--quick", "--repeat", "1", "--json", str(output), *options])
    return status, json.loads(output.read_text())


@pytest.fixture(scope="module")
def quick_run(tmp_path_factory: pytest.TempPathFactory) -> tuple[int, dict]:
    return run_quick(tmp_path_factory.mktemp("bench"))


def test_a_quick_run_of_every_suite_succeeds_and_records_its_environment(quick_run: tuple[int, dict]) -> None:
    status, document = quick_run
    assert status == 0
    assert {row["suite"] for row in document["rows"]} == set(SUITES)
    environment = document["environment"]
    assert {"python", "machine", "date", "finished", "git_commit", "load_average_start", "peers"} <= set(environment)
    assert document["options"] == {"suites": list(SUITES), "case": None, "quick": True, "repeat": 1}
    assert document["failures"] == []


def test_every_row_has_the_documented_keys_and_consistent_statistics(quick_run: tuple[int, dict]) -> None:
    for row in quick_run[1]["rows"]:
        assert set(row) == ROW_KEYS
        assert row["status"] in ("ok", "unavailable"), row
        if row["status"] == "ok":
            assert row["repeats"] == len(row["seconds"]) == 1
            assert row["min_seconds"] == row["median_seconds"] == row["max_seconds"] == row["seconds"][0]
        else:
            assert row["seconds"] == [] and row["note"]


def test_ratios_are_each_rows_median_cost_over_its_cases_first_row(quick_run: tuple[int, dict]) -> None:
    rows = [row for row in quick_run[1]["rows"] if row["status"] == "ok"]
    checked = 0
    for row in rows:
        base = next(r for r in quick_run[1]["rows"] if r["case"] == row["case"] and r["base"])
        if row["base"] or base["status"] != "ok":  # no ratio to a base that could not run here
            assert row["ratio"] is None
            continue
        cost, base_cost = row["median_seconds"], base["median_seconds"]
        if row["per_node"]:
            cost, base_cost = cost / row["nodes"], base_cost / base["nodes"]
        assert row["ratio"]["median"] == pytest.approx(cost / base_cost)
        checked += 1
    assert checked >= 6  # the file-vs-hand-written cases of walk and search, at least


def test_the_quick_solves_agree_with_the_known_results(quick_run: tuple[int, dict]) -> None:
    solves = {(row["case"], row["name"]): row for row in quick_run[1]["rows"] if row["suite"] == "solve"}
    nim_sum = 3 ^ 4 ^ 5  # Bouton: the first player wins Nim exactly when the nim-sum is not 0
    for (case, _), row in solves.items():
        if row["status"] == "ok":
            assert row["value"] == {"tic-tac-toe": 0, "Nim (3, 4, 5)": 1 if nim_sum else -1}[case]


def test_the_peers_say_not_installed_without_the_bench_extra(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr("benchmarks.suites.solve.installed", lambda module: False)
    status, document = run_quick(tmp_path, "--suite", "solve")
    assert status == 0
    peers = [row for row in document["rows"] if row["name"] != "gdl solve (command-line defaults)"]
    assert peers and all(row["status"] == "unavailable" and "not installed" in row["note"] for row in peers)
    assert all(row["status"] == "ok" for row in document["rows"] if row not in peers)


def test_contenders_run_interleaved_and_a_wrong_value_is_reported() -> None:
    order: list[str] = []

    def contender(name: str, value: int) -> Contender:
        def run() -> Outcome:
            order.append(name)
            return Outcome(value)
        return Contender(name, run)

    case = Case("test", "interleaving", [contender("A", 1), contender("B", 1), contender("C", 2)], expected=1)
    measurements = measure(case, 3)
    assert order == ["A", "B", "C", "A", "B", "A", "B"]  # C stops at its wrong value
    assert [m.status for m in measurements] == ["ok", "ok", "wrong"]


def test_a_ratio_is_of_the_medians_with_the_range_of_side_by_side_runs() -> None:
    case = Case("test", "ratio", [Contender("base", None), Contender("other", None)])
    base = Measurement(case, Contender("base", lambda: Outcome(0)), seconds=[1.0, 2.0, 4.0])
    other = Measurement(case, Contender("other", lambda: Outcome(0)), seconds=[3.0, 3.0, 6.0])
    found = ratio(other, base)
    assert found is not None
    assert found.median == statistics.median([3.0, 3.0, 6.0]) / statistics.median([1.0, 2.0, 4.0])
    assert (found.low, found.high) == (1.5, 3.0)


def test_the_ordering_table_solves_each_game_alike_with_every_refinement(
    monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    """`python -m benchmarks.ordering` on tic-tac-toe and Nim (3, 4, 5): a row per game with a
    cell per refinement, each a count of nodes; the values (0, and 1 by Bouton's nim-sum 2) must
    agree across the refinements or the script stops."""
    import benchmarks.ordering as ordering

    monkeypatch.setattr(ordering, "GAMES", ordering.GAMES[:2])
    assert ordering.main(["--repeat", "1"]) == 0
    rows = [line for line in capsys.readouterr().out.splitlines() if line.startswith("| tic") or line.startswith("| Nim")]
    assert len(rows) == 2 and all(row.count(" s)") == 6 for row in rows)
    assert ordering.measure("games/tictactoe.gdl", {}, {"ordering": True}, 1)[0] == 0
    assert ordering.measure("games/nim.gdl", {}, {"killers": True}, 1)[0] == 1


def test_a_rows_memory_is_its_own_not_the_peak_of_the_process_that_started_it() -> None:
    """A row runs in a process started by the benchmark command, which may be large by then:
    the growth of the row's peak memory is measured from its own start.  Here a parent holding
    300 MiB starts a child that allocates 64 MiB: the child sees at least 60 MiB of growth."""
    import subprocess
    import sys

    child = ("from benchmarks.strong import peak_memory; before = peak_memory(); "
             "block = bytearray(64 << 20); block[::4096] = b'x' * len(block[::4096]); "
             "print(peak_memory() - before)")
    parent = ("import subprocess, sys; big = bytearray(300 << 20); big[::4096] = b'x' * len(big[::4096]); "
              f"print(subprocess.run([sys.executable, '-c', {child!r}], capture_output=True, text=True, check=True).stdout)")
    done = subprocess.run([sys.executable, "-c", parent], capture_output=True, text=True, check=True,
                          cwd=Path(__file__).resolve().parent.parent)
    assert int(done.stdout) >= 60 << 20


def test_the_floor_times_each_part_over_every_position_of_the_game() -> None:
    """`python -m benchmarks.strong_floor` runs each part over every position: tic-tac-toe has
    5,478 reachable from the start, 958 of them finished (the known counts), and the 4,520
    others have 16,167 moves among them (counted by a walk of the game's states, depth first)."""
    import gdl
    from benchmarks import strong_floor

    game = gdl.load(Path(__file__).resolve().parent.parent / "games/tictactoe.gdl")
    states, moves = strong_floor.every_position(game)
    assert len(states) == 5478
    assert len({state for state, _ in moves}) == 4520 and len(moves) == 16167
    positions, figures = strong_floor.parts(game)
    assert positions == 5478
    assert len(figures) == 7 and all(seconds > 0 for seconds in figures.values())
    pig = gdl.load(Path(__file__).resolve().parent.parent / "games/pig.gdl", goal=10)
    assert len(strong_floor.every_position(pig)[0]) == 1476  # the dice's outcomes followed too (docs/games.md)
