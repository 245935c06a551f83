"""Solving tier by tier: the same tablebase from the whole graph in memory, from one process,
from worker processes and from Ray tasks; a move into a lower tier is an error at `tier`."""

from __future__ import annotations

import contextlib
import json
import os
import re
import signal
import sqlite3
import sys
import time
from collections import Counter
from collections.abc import Callable
from functools import partial
from itertools import chain
from pathlib import Path
from typing import Any

import pytest

import gdl
from gdl.cli import main
from searchers.strong import TablebaseError, TablebaseReader, solve_strong
from searchers.strong.tablebase import TablebaseWriter
from searchers.strong.tiergraph import TierGraph
from searchers.strong.scratch import Scratch
from searchers.protocol import position_of
from tests.pygames import ConnectK
from tests.strong.games import brute_remoteness, reachable

ROOT = Path(__file__).resolve().parents[2]
CONNECT = str(ROOT / "games" / "connect.gdl")
SMALL_CONNECT = {"rows": 3, "cols": 4, "k": 3}
TINY_CONNECT = {"rows": 3, "cols": 3, "k": 3}


def table(path: Path) -> list[tuple[Any, ...]]:
    """Every row of a tablebase, in key order."""
    return sqlite3.connect(path).execute("SELECT * FROM positions ORDER BY key").fetchall()


def solve_to(path: Path, **options: Any) -> Any:
    """Solve connect on the 3x3 board (k = 3) into ``path`` with these options."""
    game = gdl.load(CONNECT, **TINY_CONNECT)
    return solve_strong(game, out=path, factory=partial(gdl.load, CONNECT, **TINY_CONNECT), **options)


@pytest.fixture(scope="module")
def whole_graph(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """The small connect game solved in memory, without its tiers."""
    path = tmp_path_factory.mktemp("tiers") / "whole.sqlite"
    result = solve_to(path, tiers=False)
    assert result.stats.tiers == 0
    return path


def test_tiers_in_one_process_write_the_table_of_the_whole_graph(whole_graph: Path, tmp_path: Path) -> None:
    """Connect 3x3 (k = 3) by its 10 tiers (discs on the board): the same 694 rows (positions:
    board and player to move), values, remoteness and best moves, as solving the whole graph in
    memory."""
    result = solve_to(tmp_path / "tiers.sqlite")
    assert result.stats.tiers == 10 and result.positions == 694
    assert table(tmp_path / "tiers.sqlite") == table(whole_graph)


@pytest.mark.parametrize("workers", [2, 11])
def test_worker_processes_write_the_same_table(whole_graph: Path, tmp_path: Path, workers: int,
                                               monkeypatch: pytest.MonkeyPatch) -> None:
    """Two worker processes expanding the positions, and writing the rows of the tiers they
    solve to files of their own, give the very same rows; so do eleven (more part files than
    SQLite attaches to one connection), as on a machine of three cores (at most four a core)."""
    monkeypatch.setattr(os, "cpu_count", lambda: 3)
    result = solve_to(tmp_path / "workers.sqlite", workers=workers)
    assert result.stats.workers == workers and result.stats.where == f"{workers} worker processes"
    assert table(tmp_path / "workers.sqlite") == table(whole_graph)
    assert not list(tmp_path.glob("workers.sqlite.part*"))  # each worker's rows, copied in and deleted


def test_two_workers_write_every_row_as_a_recursion_written_here_finds_it(tmp_path: Path) -> None:
    """Connect-3 on a 3x4 board solved by tiers with two worker processes: each of its 7,157
    positions (board and player to move) has in the tablebase the value and the remoteness
    that a memoized recursion over the hand-written game gives, and a best move that keeps
    both; the start is a first-player win (1)."""
    game = gdl.load(ROOT / "games" / "connect.gdl", rows=3, cols=4, k=3)
    result = gdl.build_tablebase(game, tmp_path / "c.sqlite", workers=2)
    hand = ConnectK(rows=3, cols=4, k=3)
    brute = brute_remoteness(hand)
    position = position_of(game)
    assert position is not None
    checked = 0
    with gdl.Tablebase(tmp_path / "c.sqlite") as base:
        start = (base.game.initial_state(), hand.initial_state())
        seen, frontier = {position(start[0])}, [start]
        while frontier:  # the file's game and the hand-written one, walked by the same columns
            state, mine = frontier.pop()
            value, remoteness = brute(mine)
            assert (base.value(state), base.remoteness(state)) == (value, remoteness), state
            checked += 1
            if hand.is_terminal(mine):
                assert base.game.is_terminal(state) and base.best_move(state) is None
                continue
            assert brute(hand.result(mine, base.best_move(state))) == (value, remoteness - 1), state
            for move in hand.actions(mine):
                child = base.game.result(state, move)
                if position(child) not in seen:
                    seen.add(position(child))
                    frontier.append((child, hand.result(mine, move)))
    assert checked == result.positions == 7157 and result.value == brute(hand.initial_state())[0] == 1
    assert result.stats.workers == 2


def test_a_worker_slow_to_read_a_graph_still_finds_its_file(whole_graph: Path, tmp_path: Path,
                                                           monkeypatch: pytest.MonkeyPatch) -> None:
    """Workers read each tier's graph from its scratch file, told to while they solve the tier
    above.  A tier of one chunk is solved by the first worker alone: the file must stay until
    the second worker has read it too (it has once it answers the commit at the tier's start).
    Here the second worker takes a tenth of a second to read a graph; the table is still the
    whole graph's.  Deleting the file as soon as the workers are told of it fails here."""
    import time
    import searchers.strong.workers as workers_module

    answer, read_bytes = workers_module._answer, Path.read_bytes
    slow: list[int] = []  # in a worker process (forked with these): its number, if it is the second

    def noting(receive: Any, game: Any, number: int, *args: Any) -> None:
        slow.extend([number] if number == 1 else [])
        answer(receive, game, number, *args)

    def read_slowly(path: Path) -> bytes:
        if slow and ".tier" in path.name:
            time.sleep(0.1)
        return read_bytes(path)

    monkeypatch.setattr(workers_module, "_answer", noting)
    monkeypatch.setattr(Path, "read_bytes", read_slowly)
    solve_to(tmp_path / "workers.sqlite", workers=2)
    assert table(tmp_path / "workers.sqlite") == table(whole_graph)


@pytest.mark.parametrize("main_rows", [3, 500])
def test_part_files_are_taken_in_whole(tmp_path: Path, main_rows: int) -> None:
    """At the end of a solve with workers the tablebase takes in their part files: the one with
    the most rows, if it has more than the tablebase, takes the tablebase's rows and its place
    (``main_rows`` 3: the part of 400 rows does; 500: neither part does).  Either way the
    table holds every row written, once, the count of rows is theirs, and the tablebase reads
    back complete once finished, its metadata the tablebase's own."""
    from searchers.strong.tablebase import TablebaseWriter

    rows = [(bytes([n // 256, n % 256]), n % 3 - 1, n % 7, n % 4) for n in range(main_rows + 600)]
    where = {"main": rows[:main_rows], "part0": rows[main_rows:main_rows + 200],
             "part1": rows[main_rows + 200:]}  # 400 rows
    writers = {name: TablebaseWriter(tmp_path / name) for name in where}
    for name, writer in writers.items():
        writer.add(sorted(where[name]))
    for name in ("part0", "part1"):
        writers[name].close()
    writers["main"].attach([str(tmp_path / "part0"), str(tmp_path / "part1")])
    main_writer = writers["main"]
    main_writer.absorb([(str(tmp_path / "part0"), 200), (str(tmp_path / "part1"), 400)])
    assert main_writer.rows == len(rows) == main_rows + 600
    assert (tmp_path / "part1").exists() == (main_rows > 400) and (tmp_path / "part0").exists()
    main_writer.finish({"game": "made up"})
    assert table(tmp_path / "main") == sorted(rows)
    reader = TablebaseReader(tmp_path / "main")
    assert (reader.meta["game"], reader.meta["positions"], reader.meta["complete"]) == ("made up", main_rows + 600, True)


def test_a_worker_slow_to_start_still_has_its_part_file_read(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each worker makes its part file as it starts; the main process reads them once the
    positions are found.  On a small game, where the second worker is given no position to
    expand, that can come first: here it takes a fifth of a second to make its file (reading
    it before failed: "unable to open database file").  Nim (1, 2): the first player wins (1
    xor 2 is not 0), and the rows are those of one process."""
    import time
    import searchers.strong.workers as workers_module

    class SlowWriter(workers_module.TablebaseWriter):  # type: ignore[misc, name-defined]
        def __init__(self, path: Any, *args: Any, **kwargs: Any) -> None:
            if str(path).endswith("part1"):
                time.sleep(0.2)
            super().__init__(path, *args, **kwargs)

    nim = str(ROOT / "games" / "nim.gdl")
    factory = partial(gdl.load, nim, piles=(1, 2))
    alone = solve_strong(factory(), out=tmp_path / "one.sqlite")
    monkeypatch.setattr(workers_module, "TablebaseWriter", SlowWriter)  # the workers are forked with it
    shared = solve_strong(factory(), out=tmp_path / "two.sqlite", workers=2, factory=factory)
    assert alone.value == shared.value == 1
    assert table(tmp_path / "two.sqlite") == table(tmp_path / "one.sqlite")


WHOLE = """game "Whole"
players A, B
symbols half, one
state:
    score = 0
    steps = 0
    mover = A
to_move = mover
moves = [half, one]
result(m):
    score += 1 / 2 * 2 if m == half else 1
    steps += 1
    mover = other(mover)
terminal = steps == 6
utility = 1 if score % 2 == 0 else -1
tier = steps
"""


@pytest.mark.parametrize("workers", [1, 2])
def test_a_whole_number_reached_as_a_fraction_and_as_an_integer_is_one_position(workers: int,
                                                                               tmp_path: Path) -> None:
    """Either move adds 1 to the score, one as ``1/2 * 2`` (a fraction to Python, equal to 1):
    the score reached both ways is one position, so there are 7 (steps 0 to 6, found here by a
    walk that merges equal states), and A wins (6 is even) in every one.  Keyed apart, one
    process stopped on a key it had not made, and workers split the position in two."""
    path = tmp_path / "whole.gdl"
    path.write_text(WHOLE)
    game = gdl.load(path)
    assert len(reachable(game)) == 7
    result = solve_strong(game, out=tmp_path / "whole.sqlite", workers=workers, factory=partial(gdl.load, path))
    assert (result.positions, result.value, result.outcome_counts) == (7, 1, {"1": 7})


def test_workers_part_files_are_read_under_a_name_with_uri_characters(whole_graph: Path, tmp_path: Path) -> None:
    """A tablebase named with `#`, `?` and `%` (which a URI would read otherwise) gets the same
    rows from two workers, and opens for reading."""
    out = tmp_path / "a#b?c%20.sqlite"
    solve_to(out, workers=2)
    assert table(out) == table(whole_graph)
    assert TablebaseReader(out).meta["positions"] == len(table(whole_graph))


def test_two_workers_share_the_expansions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The start is held by one worker, yet both expand about half of the positions: a worker
    holding more than its share of a tier hands the surplus to the other. Connect on the 3x4
    board (k = 3) has 7,157 positions by a walk in this test; each worker is made to note what
    it expands in a file of its own."""
    import os

    import searchers.strong.workers as workers_module

    expand = workers_module.expand_states

    def noting(game: Any, sampler: Any, tier: int, states: list[Any], pickled: bool = False, closure: Any = None) -> Any:
        answer = expand(game, sampler, tier, states, pickled, closure)
        with open(tmp_path / f"expanded-{os.getpid()}", "a") as notes:
            notes.write(f"{len(answer[0])}\n")  # the positions expanded
        return answer

    monkeypatch.setattr(workers_module, "expand_states", noting)  # the workers are forked with it
    game = gdl.load(CONNECT, **SMALL_CONNECT)
    solve_strong(game, workers=2, factory=partial(gdl.load, CONNECT, **SMALL_CONNECT))
    shares = [sum(map(int, path.read_text().split())) for path in tmp_path.glob("expanded-*")]
    assert sum(shares) == len(reachable(game, game.position)) == 7_157
    assert len(shares) == 2 and min(shares) > 0.4 * sum(shares)


def test_a_worker_done_with_its_chunks_takes_those_the_other_has_not_begun(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Worker 0 is made slow (2 ms a chunk of 8 positions): worker 1, done with its own chunks
    of a tier, takes the last ones of worker 0's share, handed over, and expands more than 55%
    of the 7,157 positions of connect 3x4 (k = 3), where shares equal in number gave it about
    half, whatever the time each took; the table is the whole graph's."""
    import time

    import searchers.strong.parallel as parallel_module
    import searchers.strong.workers as workers_module

    expand = workers_module._expand_and_keep

    def noting(game: Any, sampler: Any, number: int, tier: int, keys: list[bytes], *rest: Any) -> Any:
        if number == 0:
            time.sleep(0.002)
        answer = expand(game, sampler, number, tier, keys, *rest)
        with open(tmp_path / f"expanded-{number}", "a") as notes:
            notes.write(f"{len(answer[0])}\n")
        return answer

    game = gdl.load(CONNECT, **SMALL_CONNECT)
    solve_strong(game, out=tmp_path / "whole.sqlite", tiers=False)
    monkeypatch.setattr(workers_module, "_expand_and_keep", noting)  # the workers are forked with it
    monkeypatch.setattr(parallel_module, "_CHUNK", 8)
    solve_strong(game, out=tmp_path / "tiers.sqlite", workers=2, factory=partial(gdl.load, CONNECT, **SMALL_CONNECT))
    assert table(tmp_path / "tiers.sqlite") == table(tmp_path / "whole.sqlite")
    shares = {path.name: sum(map(int, path.read_text().split())) for path in tmp_path.glob("expanded-*")}
    assert sum(shares.values()) == 7_157 and shares["expanded-1"] > 0.55 * 7_157, shares


def test_states_are_handed_over_at_once_only_if_the_worker_holds_them_all() -> None:
    """A request to hand over positions (``_hand_over``) is answered by the receiving thread
    at once, with its number and the states pickled in order, and the states let go; if one of
    the positions is not held yet (an adoption still waiting its turn), or a state cannot be
    pickled, nothing is taken and the request waits its turn."""
    import pickle

    from searchers.strong.workers import _hand_over

    kept: dict[int, dict[bytes, Any]] = {3: {b"p": "state of p", b"q": "state of q", b"r": "state of r"}}
    replies: list[Any] = []
    assert not _hand_over(kept, 3, [b"q", b"s"], 7, replies.append)
    assert not replies and len(kept[3]) == 3
    assert _hand_over(kept, 3, [b"r", b"p"], 8, replies.append)
    assert kept == {3: {b"q": "state of q"}}
    (status, (number, states)), = replies
    assert (status, number, pickle.loads(states)) == ("handed", 8, ["state of r", "state of p"])
    assert not _hand_over(kept, 4, [b"q"], 9, replies.append) and len(replies) == 1
    kept[3][b"s"] = lambda: None  # no pickle for it: left to the worker's turn, whose error is answered
    assert not _hand_over(kept, 3, [b"q", b"s"], 10, replies.append)
    assert len(replies) == 1 and len(kept[3]) == 2


@pytest.mark.parametrize("when", ["expanding", "reading a graph"])
def test_a_worker_that_dies_stops_the_solve_with_a_clear_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                               when: str) -> None:
    """A worker process killed mid-solve cannot say why: the solve stops with an error that
    says a worker stopped, not a broken pipe, and leaves no part files behind.  Here a worker
    exits as it expands its first positions (the main process waits for its answer), or as it
    reads the first graph of the backward pass (the main process goes on sending it work)."""
    import os
    import searchers.strong.workers as workers_module
    from searchers.results import SearchError
    from searchers.strong.tiergraph import TierGraph

    main, read = os.getpid(), TierGraph.from_bytes

    def dying(*args: Any, **options: Any) -> Any:
        os._exit(3)

    def read_or_die(cls: type[TierGraph], data: bytes) -> TierGraph:
        return read(data) if os.getpid() == main else dying()

    if when == "expanding":  # the workers are forked with these
        monkeypatch.setattr(workers_module, "expand_states", dying)
    else:
        monkeypatch.setattr(TierGraph, "from_bytes", classmethod(read_or_die))
    with pytest.raises(SearchError, match="a worker process stopped unexpectedly"):
        solve_to(tmp_path / "workers.sqlite", workers=2)
    assert not list(tmp_path.glob("workers.sqlite.part*"))


_SOLVE_AND_TELL = """
import os, sys
from functools import partial
import gdl
from searchers.strong import solve_strong
told = []
def progress(report):
    if not told:  # the worker processes' ids, once they are at work
        me = os.getpid()
        print(open(f"/proc/{me}/task/{me}/children").read().strip(), flush=True)
        told.append(me)
make = partial(gdl.load, sys.argv[1], rows=5, cols=4)
solve_strong(make(), workers=2, factory=make, out=sys.argv[2], progress=progress)
"""


def _running(pid: int) -> bool:
    """Whether process ``pid`` is alive (not gone, not a zombie left for its parent)."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except OSError:
        return False


@pytest.mark.skipif(not Path("/proc/self/task").exists(), reason="finds the workers in /proc (Linux)")
def test_the_workers_end_when_the_main_process_is_killed(tmp_path: Path) -> None:
    """A main process killed outright (kill -9, or the system out of memory) leaves no worker
    behind: each sees its pipe closed and ends within seconds, though busy expanding connect
    5x4 (it holds none of the main process's ends of the pipes)."""
    import os
    import signal
    import subprocess
    import sys
    import time

    solve = subprocess.Popen([sys.executable, "-c", _SOLVE_AND_TELL, CONNECT, str(tmp_path / "tb.sqlite")],
                             stdout=subprocess.PIPE, text=True)
    assert solve.stdout is not None
    workers = [int(pid) for pid in solve.stdout.readline().split()]
    try:
        assert len(workers) == 2 and all(map(_running, workers))
        solve.kill()
        solve.wait()
        deadline = time.monotonic() + 20
        while any(map(_running, workers)) and time.monotonic() < deadline:
            time.sleep(0.05)
        assert not any(map(_running, workers))
    finally:  # none left behind if the test fails
        for pid in filter(_running, workers):
            os.kill(pid, signal.SIGKILL)
    # The files the kill left are known as a solve's by the next solve into the same file.
    left = {path.name for path in tmp_path.iterdir()}
    assert {"tb.sqlite.part0", "tb.sqlite.part1", "tb.sqlite.scratch"} <= left
    solve_strong(gdl.load(CONNECT, **TINY_CONNECT), out=tmp_path / "tb.sqlite", workers=2,
                 factory=partial(gdl.load, CONNECT, **TINY_CONNECT))
    assert {path.name for path in tmp_path.iterdir()} <= {"tb.sqlite", "tb.sqlite.lock"}


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("held", [0, 2_000, 1 << 30])
def test_graphs_held_in_memory_or_in_files_give_the_same_table(whole_graph: Path, tmp_path: Path, workers: int,
                                                                held: int, monkeypatch: pytest.MonkeyPatch) -> None:
    """Each tier's graph waits for the backward pass in memory while they fit in ``held``
    bytes, else in a file: all in files, some of each, or all in memory, without workers, the
    solve writes the very same rows as the whole graph solved in memory, and one process holding
    them all writes no graph file at all; worker processes read every graph from its file."""
    from searchers.strong import scratch

    monkeypatch.setattr(scratch, "_GRAPHS_HELD", held)
    written: list[str] = []
    write_bytes = Path.write_bytes

    def noting(path: Path, data: bytes) -> int:
        written.append(path.name)
        return write_bytes(path, data)

    monkeypatch.setattr(Path, "write_bytes", noting)
    solve_to(tmp_path / "held.sqlite", workers=workers)
    assert table(tmp_path / "held.sqlite") == table(whole_graph)
    graph_files = [name for name in written if ".tier" in name]
    if held == 0 or workers > 1:  # the workers read every graph (connect 3x3's are all solved in chunks)
        assert len(graph_files) == 10  # connect 3x3's tiers, a file each
    elif held == 2_000:
        assert 0 < len(graph_files) < 10
    else:
        assert graph_files == []
    assert {path.name for path in tmp_path.iterdir()} <= {"held.sqlite", "held.sqlite.lock"}


def test_a_graph_held_in_memory_moves_to_its_file_counted_once(tmp_path: Path) -> None:
    """A graph held in memory and then asked for in a file (for processes that read it there)
    leaves memory as it goes to its file: the bytes held come back to nought, the file holds
    the graph, and dropping it deletes the file."""
    from array import array

    scratch = Scratch(tmp_path / "s.scratch")
    graph = TierGraph(3)
    graph.keys, graph.kind = [b"a", b"b"], bytearray([0, 0])
    graph.first = array("q", [0, 0, 0])
    scratch.keep_graph(graph)
    assert scratch.held_bytes == len(graph.to_bytes()) > 0 and not scratch.graph_file(3).exists()
    path = scratch.graph_in_file(3)
    assert (scratch.held_bytes, scratch.held) == (0, {}) and path.read_bytes() == graph.to_bytes()
    assert scratch.graph_bytes(3) == graph.to_bytes() and scratch.graph_in_file(3) == path
    scratch.drop_graph(3)
    assert not path.exists() and scratch.graphs == set()
    scratch.close()


def test_the_tiers_known_are_counted_as_they_come_and_go(monkeypatch: pytest.MonkeyPatch) -> None:
    """The answers of the tiers solved last are kept up to ``_ANSWERS_KEPT`` positions, the
    oldest forgotten first and the last one never, each found by its tier's number."""
    from array import array

    from searchers.strong import tiers
    from searchers.strong.solution import Solution

    monkeypatch.setattr(tiers, "_ANSWERS_KEPT", 10)
    known = tiers._KnownTiers()
    assert known.latest is None
    for tier, size in [(7, 4), (6, 3), (5, 2)]:
        known.make_room(size)
        known.add(tiers._Known(tier, [bytes([tier, n]) for n in range(size)], Solution([], array("q"), array("q"))))
    assert (known.positions, list(known.by_tier), known.latest.tier) == (9, [7, 6, 5], 5)
    known.make_room(4)  # 9 + 4 > 10: tier 7 goes, then 5 + 4 fits
    assert (known.positions, list(known.by_tier), [k.tier for k in known.order]) == (5, [6, 5], [6, 5])
    known.make_room(100)  # never the last one
    assert (known.positions, list(known.by_tier), known.latest.tier) == (2, [5], 5)


@pytest.mark.parametrize("workers", [1, 2])
def test_a_frontier_written_to_disk_gives_the_same_table(whole_graph: Path, tmp_path: Path, workers: int,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """With at most 50 states of later tiers held in memory (connect 3x3 has tiers of up to 150
    positions), the rest written to the scratch file and read back a batch at a time, the
    solve writes the very same rows as the whole graph solved in memory."""
    from searchers.strong import scratch

    monkeypatch.setattr(scratch, "_FRONTIER_KEPT", 50)
    spilled: list[int] = []
    spill = Scratch.spill_if_full

    def counting(files: Any) -> None:
        before = len(files.spilled)
        spill(files)
        spilled.append(len(files.spilled) - before)

    monkeypatch.setattr(Scratch, "spill_if_full", counting)
    solve_to(tmp_path / "spilled.sqlite", workers=workers)
    assert sum(spilled) > 0  # the frontier did go to disk
    assert table(tmp_path / "spilled.sqlite") == table(whole_graph)


def test_a_ray_address_where_nothing_answers_is_refused_at_once(capsys: pytest.CaptureFixture[str],
                                                                 monkeypatch: pytest.MonkeyPatch) -> None:
    """A HOST:PORT where nothing listens (a port just closed, a name that resolves to nothing)
    is refused in words before Ray is asked (it logged for about 20 s before it gave up); an
    address where something listens, `auto` and forms Ray parses itself are left to Ray."""
    import socket

    import ray

    from searchers.strong.parallel import _unreachable

    with socket.socket() as listening:
        listening.bind(("127.0.0.1", 0))
        listening.listen()
        port = listening.getsockname()[1]
        assert _unreachable(f"127.0.0.1:{port}") is None and _unreachable(f"ray://127.0.0.1:{port}") is None
    assert _unreachable(f"127.0.0.1:{port}") == "Connection refused"
    assert _unreachable("nothing.invalid:6379") is not None
    assert [_unreachable(form) for form in ("auto", "localhost", "host:port", ":6379", "h:70000")] == [None] * 5
    monkeypatch.setattr(ray, "is_initialized", lambda: False)  # as in a process that has not joined one
    assert main(["solve", str(ROOT / "games" / "nim.gdl"), "--strong", "--ray", f"127.0.0.1:{port}"]) == 2  # as any bad option
    assert capsys.readouterr().err == (f"gdl solve: error: cannot join the Ray cluster at 127.0.0.1:{port}: "
                                       "nothing answers there (Connection refused)\n")


@pytest.mark.parametrize("stop", ["Ctrl-C", "SIGTERM"])
def test_a_stop_while_ray_starts_stops_the_solve_and_ray(capsys: pytest.CaptureFixture[str],
                                                          monkeypatch: pytest.MonkeyPatch, stop: str) -> None:
    """Ray takes seconds to start: a Ctrl-C meanwhile was dropped at times (raised in a handler
    Python runs at a fork) and the solve went on, and its SIGTERM handler (an exit at once)
    replaced the solve's, which cleans up and says so.  Here a stand-in for Ray's start meets
    the stop: the solve stops as a stop says (exit status 130 or 143, in words), the Ray
    started is shut down, and the solve's own SIGTERM handler is back."""
    import ray

    shut: list[bool] = []

    def starting(**_: Any) -> None:
        if stop == "Ctrl-C":
            signal.raise_signal(signal.SIGINT)  # recorded: it comes once Ray has started
            return
        signal.signal(signal.SIGTERM, lambda number, _: sys.exit(number))  # as Ray's own handler does
        signal.raise_signal(signal.SIGTERM)

    monkeypatch.setattr(ray, "is_initialized", lambda: False)
    monkeypatch.setattr(ray, "init", starting)
    monkeypatch.setattr(ray, "shutdown", lambda: shut.append(True))
    before = signal.getsignal(signal.SIGTERM)
    status = main(["solve", str(ROOT / "games" / "nim.gdl"), "--strong", "--ray", "auto"])
    said = "interrupted" if stop == "Ctrl-C" else "terminated"
    assert (status, capsys.readouterr().err) == (130 if stop == "Ctrl-C" else 143, f"gdl solve: {said}\n")
    assert shut == [True] and signal.getsignal(signal.SIGTERM) == before


def test_ray_tasks_write_the_same_table(whole_graph: Path, tmp_path: Path, ray_runtime: Any) -> None:
    """Ray tasks on a local two-CPU runtime write the very same rows, for flat tiers (connect),
    for tiers solved a level at a time (Kalah) and for tiers with cycles solved in groups (Pig,
    exact values by policy iteration)."""
    result = solve_to(tmp_path / "ray.sqlite", ray="auto")
    assert result.stats.workers == 2 and result.stats.where == "Ray tasks on 2 CPUs"
    assert TablebaseReader(tmp_path / "ray.sqlite").meta["where"] == result.stats.where
    assert table(tmp_path / "ray.sqlite") == table(whole_graph)
    kalah = partial(gdl.load, ROOT / "games" / "kalah.gdl", pits=3, seeds=2)
    solve_strong(kalah(), out=tmp_path / "kalah-ray.sqlite", ray="auto", factory=kalah)
    solve_strong(kalah(), out=tmp_path / "kalah-whole.sqlite", tiers=False)
    assert table(tmp_path / "kalah-ray.sqlite") == table(tmp_path / "kalah-whole.sqlite")
    pig = partial(gdl.load, ROOT / "games" / "pig.gdl", goal=8)
    solve_strong(pig(), out=tmp_path / "pig-ray.sqlite", ray="auto", factory=pig)
    solve_strong(pig(), out=tmp_path / "pig-whole.sqlite", tiers=False)
    assert table(tmp_path / "pig-ray.sqlite") == table(tmp_path / "pig-whole.sqlite")


FALLING = """\
game "Falling"
players A, B
state:
    pile = 5
    mover = A
to_move = mover
moves = [1, 2]
result(n):
    pile -= n
    mover = other(mover)
terminal = pile <= 0
utility = 1 if mover == B else -1
tier = pile
"""


@pytest.mark.parametrize("workers", [1, 2])
def test_a_move_into_a_lower_tier_is_an_error_at_tier(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                      workers: int) -> None:
    """`tier = pile` falls with every move: the solve stops at the `tier` line, with the state,
    whether the move was made here or in a worker, and leaves no tablebase (it left one
    refused as incomplete, and said nothing of it)."""
    path = tmp_path / "falling.gdl"
    path.write_text(FALLING)
    out = tmp_path / "falling.sqlite"
    assert main(["solve", str(path), "--strong", "--workers", str(workers), "--out", str(out)]) == 1
    err = capsys.readouterr().err
    assert f"{path}:13:1: error: the move 1 goes from tier 5 down to tier 4: no move may lower `tier`" in err
    assert "    tier = pile\n    ^\nin the state:\n    pile = 5\n    mover = A" in err
    assert sorted(tmp_path.iterdir()) == [path]


DICE_FALLING = """\
game "DiceFalling"
players A, B
state:
    n = 5
    mover = A
    rolled = false
to_move = chance if not rolled else mover
outcomes = [(-1, 1/2), (1, 1/2)]
moves = [0]
result(m):
    if not rolled:
        n += m
        rolled = true
    else:
        rolled = false
        mover = other(mover)
terminal = n > 7
utility = 1
tier = n
"""


def test_an_outcome_of_the_dice_into_a_lower_tier_is_called_so(tmp_path: Path,
                                                               capsys: pytest.CaptureFixture[str]) -> None:
    """A throw of -1 lowers `tier = n`: the error names an outcome of the dice, not a move."""
    path = tmp_path / "dice_falling.gdl"
    path.write_text(DICE_FALLING)
    assert main(["solve", str(path), "--strong"]) == 1
    assert (f"{path}:19:1: error: the outcome of the dice -1 goes from tier 5 down to tier 4: no outcome may "
            "lower `tier`") in capsys.readouterr().err


@pytest.mark.parametrize("tier, shown", [
    ('"late" if pile < 3 else 5 - pile', 'got "late"'),
    ("(1, 2) if pile < 3 else 5 - pile", "got (1, 2)"),
    ("2**63 + 5 - pile", "must lie between -2**63 and 2**63 - 1 (it is kept in 64 bits), got 92233720368547758"),
])
@pytest.mark.parametrize("command", [["solve", "--strong"], ["check", "--deep"]])
def test_a_tier_that_is_no_integer_of_64_bits_is_an_error_at_tier(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], tier: str, shown: str, command: list[str]) -> None:
    """A `tier` the checker lets through (its kind may be an integer) that gives a string, a
    tuple or an integer past 64 bits at run time stops the solve, and `gdl check --deep`, at the
    `tier` line, quoting the value (it was an internal error)."""
    path = tmp_path / "falling.gdl"
    path.write_text(FALLING.replace("tier = pile", f"tier = {tier}"))
    assert main([command[0], str(path), command[1]]) == 1
    err = capsys.readouterr().err
    assert f"{path}:13:1: error: `tier` must " in err and shown in err
    assert "internal error" not in err


def test_nim_of_no_piles_has_an_integer_tier(capsys: pytest.CaptureFixture[str]) -> None:
    """The sum of an empty tuple, whose items have no kind the checker knows, is not taken
    for a fraction at `tier` (it was "`tier` must be an integer ..., got a number"): the game
    checks, and its one position is terminal, a loss for the player to move, First, whom the
    strong solve names as `to_move` as the plain one does (it gave null), with no best move."""
    nim = [str(ROOT / "games" / "nim.gdl"), "-p", "piles=()"]
    assert main(["check", *nim]) == 0
    capsys.readouterr()
    assert main(["solve", *nim, "--strong", "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["positions"] == report["terminal"] == 1 and report["value"] == -1
    assert report["to_move"] == "First" and report["best_move"] is None
    assert main(["solve", *nim, "--json"]) == 0
    plain = json.loads(capsys.readouterr().out)
    assert (plain["value"], plain["to_move"], plain["best_move"]) == (-1, "First", None)


def test_without_tiers_the_solve_says_it_ran_in_memory(capsys: pytest.CaptureFixture[str]) -> None:
    """A game without `tier` is solved in one process, in memory, and the output says so."""
    assert main(["solve", str(ROOT / "games" / "subtraction.gdl"), "--strong", "--workers", "2"]) == 0
    assert "in one process, in memory (the game declares no `tier`" in capsys.readouterr().out


def test_one_tier_and_one_ply_are_said_in_the_singular(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A game of one move, all in one tier: "1 ply" and "1 tier", not "1 plies" and "1 tiers"."""
    path = tmp_path / "one.gdl"
    path.write_text('game "One"\nplayers A, B\nstate:\n    done = false\n    mover = A\nto_move = mover\n'
                    "moves = [1]\nresult(m):\n    done = true\n    mover = other(mover)\nterminal = done\n"
                    "utility = 1 if mover == B else -1\ntier = 0\n")
    assert main(["solve", str(path), "--strong"]) == 0
    out = capsys.readouterr().out
    assert "best move for A: 1 (the game ends in 1 ply with perfect play)" in out
    assert "\nprincipal variation: 1\n" in out
    assert "longest perfect-play end: 1 ply (the largest remoteness)" in out and ", in 1 tier, in one process" in out


def positions_by_walk(game: Any) -> set[Any]:
    """The (board, player to move) pairs reachable from the start, by a walk written here."""
    start = game.initial_state()
    seen, frontier, found = {start}, [start], set()
    while frontier:
        state = frontier.pop()
        found.add((state.board, state.mover))
        if game.is_terminal(state):
            continue
        for child in (game.result(state, m) for m in game.actions(state)):
            if child not in seen:
                seen.add(child)
                frontier.append(child)
    return found


def test_connect_counts_boards_and_movers_not_states() -> None:
    """connect.gdl's `last` field (kept to speed up `won`) does not split positions: the solver
    counts board and player to move, as the literature does."""
    game = gdl.load(CONNECT, **SMALL_CONNECT)
    assert solve_strong(game, tiers=False).positions == len(positions_by_walk(game)) == 7157


def test_a_position_that_merges_states_of_different_play_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    """Nim with `position = heaps` forgets whose turn it is: (1, 4, 5) comes after one move
    (take 2) or two (take 1, take 1). The solve stops at `position`, showing both states."""
    text = (ROOT / "games" / "nim.gdl").read_text()
    path = tmp_path / "nim.gdl"
    path.write_text(text + "position = heaps\n")
    line = len(text.splitlines()) + 1
    assert main(["solve", str(path), "--strong"]) == 1
    err = capsys.readouterr().err
    assert f"{path}:{line}:1: error: `position` makes these two states one position, but another player moves" in err
    # Nim's `display` shows the piles alone, the same for both: their fields show the mover.
    shown = err.rstrip("\n").split("in the state:\n")[1].split("\nand the state:\n")
    assert shown[0] != shown[1] and "mover = " in shown[0] and "mover = " in shown[1]
    assert shown[0].replace("First", "Second") == shown[1] or shown[0].replace("Second", "First") == shown[1]


TAKE_AWAY = """game "Take"
players A, B
param n = 40
state:
    pile = n
    mover = A
    last = 0
to_move = mover
moves = [k for k in [1, 3, 4] if k <= pile]
result(k):
    pile -= k
    mover = other(mover)
    last = k
terminal = pile == 0
utility = 1 if mover == B else -1
tier = n - pile
position = POSITION
"""


@pytest.mark.parametrize("workers", [0, 1, 2])  # 0: without the tiers, in memory
@pytest.mark.parametrize("n, position", [(40, "pile"), (400, "(pile, mover) if pile > 6 else pile")])
def test_a_position_merging_states_met_in_other_tiers_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: int, n: int, position: str
) -> None:
    """A take-away game (1, 3 or 4 from a pile of n) whose `position` forgets the mover: a tier
    holds one pile, so the two states of a pile come from chunks of other tiers (pile 36 after
    A took 4, or after A took 1 and B took 3).  Left unchecked, the solve said B wins, exactly.
    With n = 400 it forgets the mover only in the last tiers (a pile of 6 or less), after
    hundreds of states that differ only in `last` (which `position` rightly leaves out) have
    been compared.  By tiers (one process, two workers) or in memory alike; without `position`,
    it says A wins, as a count from an empty pile up does."""
    path = tmp_path / "take.gdl"
    text = TAKE_AWAY if workers else TAKE_AWAY.replace("tier = n - pile\n", "")
    how = ["--workers", str(workers)] if workers else []
    path.write_text(text.replace("POSITION", position))
    assert main(["solve", str(path), "--strong", *how, "-p", f"n={n}"]) == 1
    err = capsys.readouterr().err
    line = 17 if workers else 16
    assert f"{path}:{line}:1: error: `position` makes these two states one position, but another player moves" in err
    path.write_text(text.replace("position = POSITION\n", ""))
    assert main(["solve", str(path), "--strong", *how, "-p", f"n={n}", "--json"]) == 0
    wins = [False]  # wins[p]: the player to move with p left wins (with none left, the other took the last)
    for pile in range(1, n + 1):
        wins.append(any(not wins[pile - k] for k in (1, 3, 4) if k <= pile))
    assert json.loads(capsys.readouterr().out)["value"] == (1 if wins[n] else -1) == 1


RING = """game "Ring"
players A, B
symbols step
param stones = 7
state:
    pile = stones
    token = 0
    mover = A
    last = empty
to_move = mover
moves = [n for n in [1, 2] if n <= pile] + [step]
result(m):
    if m == step:
        token = (token + 1) % 4
    else:
        pile -= m
        last = mover
    mover = other(mover)
terminal = pile == 0
utility = (token + 1) if last == A else -(token + 1)
tier = stones - pile
position = (pile, mover)
"""


@pytest.mark.parametrize("workers", [0, 1, 2])  # 0: without the tiers, in memory
def test_a_position_that_leaves_out_a_field_only_the_score_reads_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], workers: int
) -> None:
    """Take 1 or 2 from 7 stones, or step a token round a ring of 4; whoever takes the last
    stone wins the token's place + 1.  `position` leaves the token out: two states of one
    position have the same moves, to the same positions, and score differently only at the
    end.  Left unchecked, the tablebase said 2 where the token stood at 0 (worth 1).  Without
    `position`, every state has the value reasoned here: with 1 or 2 stones left the mover
    takes them all (stepping first would hand them to the other side); with 3 or more, taking
    leaves the other side 1 or 2 or 3 or more, so both sides step for ever: a draw, 0."""
    path = tmp_path / "ring.gdl"
    text = RING if workers else RING.replace("tier = stones - pile\n", "")
    how = ["--workers", str(workers)] if workers else []
    path.write_text(text)
    assert main(["solve", str(path), "--strong", *how]) == 1
    err = capsys.readouterr().err
    line = text.splitlines().index("position = (pile, mover)") + 1
    assert f"{path}:{line}:1: error: `position` makes these two states one position, but they score differently" in err
    path.write_text(text.replace("position = (pile, mover)\n", ""))
    out = tmp_path / "ring.sqlite"
    assert main(["solve", str(path), "--strong", *how, "--out", str(out), "--json"]) == 0
    solved = json.loads(capsys.readouterr().out)
    table = gdl.Tablebase(out)
    game = table.game
    states, frontier = {game.initial_state()}, [game.initial_state()]
    while frontier:
        state = frontier.pop()
        if game.is_terminal(state):
            continue
        sign = 1 if state.mover == "A" else -1
        assert table.value(state) == (0 if state.pile >= 3 else sign * (state.token + 1)), state
        for child in (game.result(state, move) for move in game.actions(state)):
            if child not in states:
                states.add(child)
                frontier.append(child)
    assert solved["positions"] == len(states) == 100 and solved["value"] == 0
    table.close()


CHASE = """game "Chase"
players A, B
symbols nobody, grab
param ring = 5
state:
    pos = {A: 0, B: 2}
    coins = {A: 0, B: 0}
    mover = A
    winner = nobody
to_move = mover
moves = [1, 2] + ([grab] if pos[mover] == 0 and coins[mover] < 2 else [])
result(m):
    if m == grab:
        coins[mover] += 1
        if coins[mover] == 2:
            winner = mover
    else:
        pos[mover] = (pos[mover] + m) % ring
    mover = other(mover)
terminal = winner != nobody
utility = 1 if winner == A else -1
tier = coins[A] + coins[B]
position = (pos, mover, winner)
"""


@pytest.mark.parametrize("workers", [1, 2])
@pytest.mark.parametrize("ring", [5, 6])
def test_a_position_that_leaves_out_what_the_tier_counts_is_an_error(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, workers: int, ring: int
) -> None:
    """Two tokens chase round a ring, grabbing coins at node 0; the tier counts the coins, which
    `position` leaves out, so one position lies in several tiers (it failed on SQLite's unique
    key, or, on a ring of 6, passed with 77 positions where there are 82).  The sample of states
    shows two of them at `position`; without it, the solve still stops, saying what is wrong."""
    path = tmp_path / "chase.gdl"
    path.write_text(CHASE)
    assert main(["solve", str(path), "--strong", "-p", f"ring={ring}", "--workers", str(workers)]) == 1
    err = capsys.readouterr().err
    assert (f"{path}:23:1: error: `position` makes these two states one position, but they lie in different "
            "tiers") in err
    from searchers.results import SearchError
    from searchers.strong.graph import PositionSampler

    monkeypatch.setattr(PositionSampler, "see", lambda self, key, state: None)  # the workers are forked with it
    game = gdl.load(path, ring=ring)
    with pytest.raises(SearchError, match="one position was found in two tiers: the game's `position` makes "
                                          "states of different tiers one position"):
        solve_strong(game, workers=workers, factory=partial(gdl.load, path, ring=ring))


class TwoRoutes:
    """From the start (tier 0), A moves to a or b (tier 1); from a, B moves to x in tier 2, from
    b to x in tier 3: one `position`, "x", in two tiers, met from two chunks of tier 1.  With
    ``inside``, b comes first and a may also move to c, a finished game in tier 1 that A wins:
    the chunk of a is added move by move."""

    name = "two routes"
    players = ("A", "B")
    has_chance = False
    TIERS = {"start": 0, "a": 1, "b": 1, "c": 1}

    def __init__(self, inside: bool) -> None:
        self.NEXT = {"start": ["b", "a"], "a": ["x2", "c"], "b": ["x3"]} if inside else \
            {"start": ["a", "b"], "a": ["x2"], "b": ["x3"]}

    def initial_state(self) -> str:
        return "start"

    def to_move(self, state: str) -> str:
        return "A" if state == "start" else "B"

    def actions(self, state: str) -> list[str]:
        return self.NEXT[state]

    def result(self, state: str, move: str) -> str:
        return move

    def is_terminal(self, state: str) -> bool:
        return state not in self.NEXT

    def utility(self, state: str, player: str) -> int:
        return 1 if (state in ("x2", "c")) == (player == "A") else -1

    def tier(self, state: str) -> int:
        return int(state[1]) if state.startswith("x") else self.TIERS[state]

    def position(self, state: str) -> str:
        return state[0]


@pytest.mark.parametrize("inside", [False, True])
def test_one_position_met_in_two_tiers_from_two_chunks_is_an_error(monkeypatch: pytest.MonkeyPatch,
                                                                   inside: bool) -> None:
    """Without the sample of states, a key given one tier by one chunk and another by the next
    stops the solve in words (it was merged into the first tier without a word); with
    `position` the whole state, the two routes solve: A wins by a, as by hand."""
    solved = _solved_once_its_position_is_the_state(TwoRoutes(inside), monkeypatch)
    assert (solved.value, solved.best_move, solved.positions) == (1, "a", 6 if inside else 5)


def _solved_once_its_position_is_the_state(game: Any, monkeypatch: pytest.MonkeyPatch) -> Any:
    """Solve ``game`` by tiers without the sample of states, which must stop in words, then
    again with its ``position`` the whole state: the solve's result."""
    from searchers.results import SearchError
    from searchers.strong.graph import PositionSampler

    monkeypatch.setattr(PositionSampler, "see", lambda self, key, state: None)
    with pytest.raises(SearchError, match="one position was found in two tiers"):
        solve_strong(game, tiers=True)
    monkeypatch.setattr(type(game), "position", lambda self, state: state)
    return solve_strong(game, tiers=True)


class OneChunkTwoTiers:
    """From the start (tier 0), A moves to "p" (tier ``low``, 0 or 1, where B must move to "z")
    and to "P" (tier 2, finished): one `position`, "p", in two tiers, met by the moves of one
    position, in the order ``first`` gives; with ``low`` 1, both moves leave the start's tier."""

    name = "one chunk, two tiers"
    players = ("A", "B")
    has_chance = False

    def __init__(self, first: str, low: int = 0) -> None:
        self.first, self.low = first, low

    def initial_state(self) -> str:
        return "start"

    def to_move(self, state: str) -> str:
        return "A" if state == "start" else "B"

    def actions(self, state: str) -> list[str]:
        if state == "start":
            return ["p", "P"] if self.first == "p" else ["P", "p"]
        return ["z"]

    def result(self, state: str, move: str) -> str:
        return move

    def is_terminal(self, state: str) -> bool:
        return state in ("P", "z")

    def utility(self, state: str, player: str) -> int:
        return 1 if player == "A" else -1

    def tier(self, state: str) -> int:
        return {"start": 0, "p": self.low, "P": 2, "z": 2}[state]

    def position(self, state: str) -> str:
        return state.lower()


@pytest.mark.parametrize("low", [0, 1])
@pytest.mark.parametrize("first", ["p", "P"])
def test_one_position_met_in_two_tiers_by_one_chunk_is_an_error(monkeypatch: pytest.MonkeyPatch, first: str,
                                                                low: int) -> None:
    """A key met inside the tier and outside it by the moves of one chunk (``low`` 0), or in two
    higher tiers (``low`` 1), in either order, stops the solve in words (not on a missing
    state); with `position` the whole state the game solves: 4 positions, A wins."""
    solved = _solved_once_its_position_is_the_state(OneChunkTwoTiers(first, low), monkeypatch)
    assert (solved.value, solved.positions) == (1, 4)


@pytest.mark.parametrize("how", ["ctrl-c", "sigterm"])
def test_a_stopped_solve_stops_its_workers_and_leaves_a_refused_tablebase(tmp_path: Path, how: str) -> None:
    """Ctrl-C (SIGINT to the terminal's process group), or SIGTERM to the solve alone (as `kill
    PID` and `timeout` send it), during a solve with two workers: exit status 130 or 143, one
    line on standard error, no process left, no scratch or part file left, and the tablebase
    refused as incomplete."""
    import os
    import signal
    import subprocess
    import sys
    import time

    from tests.terminal import ctrl_c_as_in_a_terminal

    ctrl_c = how == "ctrl-c"
    out = tmp_path / "stopped.sqlite"
    solve = subprocess.Popen(
        [sys.executable, "-m", "gdl", "solve", CONNECT, "-p", "rows=4", "-p", "cols=4", "--strong",
         "--workers", "2", "--out", str(out)],
        stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        preexec_fn=ctrl_c_as_in_a_terminal if ctrl_c else None,
    )
    deadline = time.monotonic() + 60
    while not Path(f"{out}.scratch").exists() and time.monotonic() < deadline:
        time.sleep(0.1)
    time.sleep(0.5)
    if ctrl_c:
        os.killpg(solve.pid, signal.SIGINT)
    else:
        os.kill(solve.pid, signal.SIGTERM)
    _, err = solve.communicate(timeout=60)
    assert solve.returncode == (130 if ctrl_c else 143)
    stopped = "interrupted" if ctrl_c else "terminated"
    said = f"gdl solve: {stopped}; {out} is left incomplete and will be refused until solved again"
    # Half a second after the scratch file is made, connect 4x4 is still finding positions.
    assert err.startswith(said + "; it was still finding positions (") and err.count("\n") == 1
    with pytest.raises(ProcessLookupError):
        os.killpg(solve.pid, 0)  # no worker outlived the solve
    assert [path.name for path in tmp_path.iterdir()] == ["stopped.sqlite"]  # no part or scratch file
    with pytest.raises(gdl.GdlTablebaseError, match="incomplete"):
        gdl.Tablebase(out)


def test_sigterm_as_the_workers_start_is_not_lost(tmp_path: Path) -> None:
    """SIGTERM to the process group as soon as the first worker process exists (a Python handler
    run inside fork's own bookkeeping had its exception dropped, and the solve went on to the
    end): the solve stops all the same, exit status 143, no process left."""
    import os
    import signal
    import subprocess
    import sys
    import time

    for attempt in range(3):
        out = tmp_path / f"early{attempt}.sqlite"
        solve = subprocess.Popen(
            [sys.executable, "-m", "gdl", "solve", CONNECT, "-p", "rows=4", "-p", "cols=4", "--strong",
             "--workers", "2", "--out", str(out)],
            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True,
        )
        children = Path(f"/proc/{solve.pid}/task/{solve.pid}/children")
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline and not (children.exists() and children.read_text().split()):
            pass
        os.killpg(solve.pid, signal.SIGTERM)
        _, err = solve.communicate(timeout=60)
        assert solve.returncode == 143, err
        with pytest.raises(ProcessLookupError):
            os.killpg(solve.pid, 0)


def test_worker_processes_start_with_the_stop_signals_unblocked_and_leave_the_main_process_so() -> None:
    """The stop signals are held back only while the workers start: neither the main process
    nor a worker keeps SIGINT or SIGTERM blocked (read from /proc: SigBlk)."""
    import signal

    from searchers.strong.workers import WorkerRunner

    def blocked(pid: int | str) -> set[int]:
        for line in Path(f"/proc/{pid}/status").read_text().splitlines():
            if line.startswith("SigBlk:"):
                mask = int(line.split()[1], 16)
                return {number for number in (signal.SIGINT, signal.SIGTERM) if mask >> (number - 1) & 1}
        raise AssertionError("no SigBlk line")

    runner = WorkerRunner(partial(gdl.load, CONNECT, **TINY_CONNECT), 2)
    try:
        runner.commit()  # each worker has answered: it is at work, past its start
        assert blocked("self") == set()
        assert [blocked(process.pid) for process in runner.processes] == [set(), set()]
    finally:
        runner.close()


def test_workers_are_asked_to_stop_all_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Closing the workers asks every one to stop before waiting for any, and gives them one
    second in all (a second each, in turn, made a stop with six workers at work take six)."""
    from searchers.strong import workers

    runner = workers.WorkerRunner(partial(gdl.load, CONNECT, **TINY_CONNECT), 2)
    seen: list[tuple[str, int, float | None]] = []

    class Watched:
        """A worker's process or pipe, its stops and waits noted."""

        def __init__(self, inner: Any, number: int) -> None:
            self.inner, self.number = inner, number

        def send(self, message: Any) -> None:
            seen.append(("ask", self.number, None))
            self.inner.send(message)

        def join(self, timeout: float | None = None) -> None:
            seen.append(("wait", self.number, timeout))
            self.inner.join(timeout)

        def __getattr__(self, name: str) -> Any:
            return getattr(self.inner, name)

    monkeypatch.setattr(workers, "_STOP_SECONDS", 30.0)  # the workers are idle: they stop well within
    runner.commit()
    runner.connections = [Watched(each, n) for n, each in enumerate(runner.connections)]
    runner.processes = [Watched(each, n) for n, each in enumerate(runner.processes)]
    runner.close()
    assert [(what, number) for what, number, _ in seen] == [("ask", 0), ("ask", 1), ("wait", 0), ("wait", 1)]
    waits = [timeout for what, _, timeout in seen if what == "wait"]
    assert 29 < waits[0] <= 30 and waits[1] <= waits[0]  # one second (here thirty) for all


def make_leftovers(folder: Path, but: str = "") -> None:
    """The files a solve by tiers into ``again.sqlite`` makes beside it, as a kill leaves them
    (``but`` the one named so): two part files (one empty, one a tablebase never finished, with
    a journal), the scratch file (and a journal) and two tiers' graphs; and the new tablebase,
    a part file and a graph of a solve that was to replace the one at ``again.sqlite``."""
    made: dict[str, Callable[[Path], Any]] = {
        "again.sqlite.part0": lambda path: path.write_bytes(b""),
        "again.sqlite.part3": lambda path: TablebaseWriter(path).close(),
        "again.sqlite.scratch": lambda path: Scratch(path).connection.close(),
        "again.sqlite.part3-journal": lambda path: path.write_bytes(b"journal"),
        "again.sqlite.scratch-journal": lambda path: path.write_bytes(b"journal"),
        "again.sqlite.scratch.tier12": lambda path: path.write_bytes(TierGraph(12).to_bytes()),
        "again.sqlite.scratch.tier-1": lambda path: path.write_bytes(TierGraph(-1).to_bytes()),
        # a solve that was to replace the complete tablebase at again.sqlite writes beside it
        "again.sqlite.new": lambda path: TablebaseWriter(path).close(),
        "again.sqlite.new.part1": lambda path: TablebaseWriter(path).close(),
        "again.sqlite.new.scratch.tier3": lambda path: path.write_bytes(TierGraph(3).to_bytes()),
    }
    for name, make in made.items():
        if name != but:
            make(folder / name)


def test_files_left_by_a_solve_killed_outright_are_deleted_by_the_next(whole_graph: Path, tmp_path: Path) -> None:
    """A solve killed at once (SIGKILL) leaves its part and scratch files: the next solve into
    the same tablebase deletes them, and nothing else."""
    out = tmp_path / "again.sqlite"
    kept = ["again.sqlite.partial.txt", "again.sqlite.scratch.tier12.bak", "other.sqlite.part0"]
    for name in kept:
        (tmp_path / name).write_bytes(b"left behind")
    make_leftovers(tmp_path)
    solve_to(out, workers=2)
    assert sorted(path.name for path in tmp_path.iterdir()) == sorted(["again.sqlite"] + kept)
    assert table(out) == table(whole_graph)


@pytest.mark.parametrize("name", ["again.sqlite.part1", "again.sqlite.scratch", "again.sqlite.scratch.tier4",
                                  "again.sqlite.new"])
@pytest.mark.parametrize("content", ["a complete tablebase", "a folder", "a tablebase another solve is writing"])
def test_a_tablebase_in_the_way_of_a_solve_is_kept_and_said(tmp_path: Path, name: str, content: str) -> None:
    """A complete tablebase with the name of a file a solve writes beside its own (saved as
    ``again.sqlite.part1``: hours of solving), one another solve is writing, or a folder, is
    neither deleted nor written over: the solve is refused, naming it, and deletes none of the
    leftovers either."""
    from searchers.strong.tablebase import held_for_writing

    with contextlib.ExitStack() as held:
        if content == "a folder":
            (tmp_path / name).mkdir()
        elif content == "a complete tablebase":
            solve_to(tmp_path / name)
        else:
            held.enter_context(held_for_writing(tmp_path / name))
            held.callback(TablebaseWriter(tmp_path / name).close)
        make_leftovers(tmp_path, but=name)
        before = {path.name: path.is_dir() or path.read_bytes() for path in tmp_path.iterdir()}
        with pytest.raises(TablebaseError, match=rf"{re.escape(str(tmp_path / name))} is in the way: .* and that one "
                                                  f"is {content}; move it, or name another tablebase"):
            solve_to(tmp_path / "again.sqlite", workers=2)
        after = {path.name: path.is_dir() or path.read_bytes() for path in tmp_path.iterdir()}
    assert {name: made for name, made in after.items() if name != "again.sqlite.lock"} == before


def own_database(path: Path) -> None:
    """An SQLite file of a person's own (no solve's mark, no tablebase's metadata)."""
    with sqlite3.connect(path) as connection:
        connection.executescript("CREATE TABLE notes (line TEXT); INSERT INTO notes VALUES ('the next version');")
    connection.close()


@pytest.mark.parametrize("make", [
    lambda path: path.write_text("notes on the next version\n"),
    own_database,
    lambda path: path.write_bytes(bytes(16) + b"notes after a blank start\n"),
], ids=["text", "sqlite", "zeros then text"])
def test_a_file_of_ones_own_named_as_the_new_tablebase_is_kept(tmp_path: Path, make: Callable[[Path], None]) -> None:
    """``again.sqlite.new`` is a name a person may give a file of their own: where no solve
    marked it as its own (nor is it empty, or zeros), the solve is refused, naming it, and
    deletes none of the leftovers; a journal of that name is a solve's all the same."""
    make(tmp_path / "again.sqlite.new")
    make_leftovers(tmp_path, but="again.sqlite.new")
    (tmp_path / "again.sqlite.new-journal").write_bytes(b"\xd9\xd5\x05\xf9 not a tablebase either")
    before = {path.name: path.read_bytes() for path in tmp_path.iterdir()}
    with pytest.raises(TablebaseError, match=rf"{re.escape(str(tmp_path / 'again.sqlite.new'))} is in the way: a "
                                              "solve into again.sqlite writes the tablebase that is to replace it to "
                                              "a file of that name, and that one is not a tablebase; move it"):
        solve_to(tmp_path / "again.sqlite", workers=2)
    after = {path.name: path.read_bytes() for path in tmp_path.iterdir() if path.name != "again.sqlite.lock"}
    assert after == before


def test_a_tablebase_of_a_gdl_before_the_mark_is_a_leftover_still(whole_graph: Path, tmp_path: Path) -> None:
    """An incomplete tablebase at ``again.sqlite.new`` written before tablebases carried their
    mark (SQLite's application_id) is known by its metadata, and deleted as a leftover."""
    TablebaseWriter(tmp_path / "again.sqlite.new").close()
    with sqlite3.connect(tmp_path / "again.sqlite.new") as connection:
        connection.execute("PRAGMA application_id = 0")
    connection.close()
    solve_to(tmp_path / "again.sqlite", workers=2)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["again.sqlite"]
    assert table(tmp_path / "again.sqlite") == table(whole_graph)


def test_damaged_leftovers_are_deleted_too(whole_graph: Path, tmp_path: Path) -> None:
    """A leftover damaged by the kill (a tier's graph cut short, a part file cut in half or
    zeroed by a crash of the machine) is still a solve's: the next solve deletes it."""
    make_leftovers(tmp_path)
    graph = tmp_path / "again.sqlite.scratch.tier12"
    graph.write_bytes(graph.read_bytes()[:5])
    part = tmp_path / "again.sqlite.part3"
    part.write_bytes(part.read_bytes()[: part.stat().st_size // 2])
    (tmp_path / "again.sqlite.part5").write_bytes(bytes(4096))
    (tmp_path / "again.sqlite.new").write_bytes(bytes(4096))
    (tmp_path / "again.sqlite.new-journal").write_bytes(b"\xd9\xd5\x05\xf9 cut short")
    solve_to(tmp_path / "again.sqlite", workers=2)
    assert sorted(path.name for path in tmp_path.iterdir()) == ["again.sqlite"]
    assert table(tmp_path / "again.sqlite") == table(whole_graph)


@pytest.mark.parametrize("name, params", [
    ("kalah.gdl", {"pits": 3, "seeds": 2}), ("nim.gdl", {}), ("pig.gdl", {"goal": 5}),
])
def test_the_bundled_tiers_hold_and_give_the_same_table(name: str, params: dict, tmp_path: Path) -> None:
    """Each bundled game's `tier` never falls (a move that lowered it would stop the solve),
    and solving by tiers writes the table of the whole graph in memory."""
    game = gdl.load(ROOT / "games" / name, **params)
    by_tiers = solve_strong(game, out=tmp_path / "tiers.sqlite")
    whole = solve_strong(game, out=tmp_path / "whole.sqlite", tiers=False)
    assert by_tiers.stats.tiers > 1 and whole.stats.tiers == 0
    assert table(tmp_path / "tiers.sqlite") == table(tmp_path / "whole.sqlite")


def test_kalah_tiers_solved_in_levels_by_workers_give_the_same_table(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """Kalah's tiers (seeds in the stores) have moves inside them but no cycle: two workers
    solve them a level at a time, small chunks here, each worker learning the answers of the
    levels below that the other found, and write the table of the whole graph solved in
    memory.  Made to expand the positions their moves find inside the tier (Kalah's tiers have
    too few of those for it to pay), the chunks of the two workers find some of the same ones:
    each is kept once."""
    import searchers.strong.tiers as tiers_module
    from searchers.strong.workers import WorkerRunner

    levelled = []
    learned = []  # the parts of the other worker's answers each chunk carried
    twice = []  # the positions expanded again, by another chunk
    solve_tier, send_range, expanded_once = tiers_module.solve_tier, WorkerRunner._send_range, tiers_module._expanded_once

    def counting(chunk_keys: list[bytes], answer: Any, done: set[bytes]) -> Any:
        twice.extend(key for key in answer[8] if key in done)
        return expanded_once(chunk_keys, answer, done)

    def noting(tier_graph: Any, *args: Any) -> Any:
        levelled.append(len(tier_graph.levels) - 1)
        return solve_tier(tier_graph, *args)

    def sending(runner: WorkerRunner, number: int, *args: Any) -> None:
        learned.append(len(runner.unseen[number]))
        send_range(runner, number, *args)

    monkeypatch.setattr(tiers_module, "solve_tier", noting)
    monkeypatch.setattr(tiers_module, "_SOLVE_CHUNK_LEAST", 1)
    monkeypatch.setattr(WorkerRunner, "_send_range", sending)
    monkeypatch.setattr(tiers_module, "_expanded_once", counting)
    monkeypatch.setattr(tiers_module, "_FOUND_PER_QUEUED", 0)
    params = {"pits": 3, "seeds": 2}
    game = gdl.load(ROOT / "games" / "kalah.gdl", **params)
    by_workers = solve_strong(game, out=tmp_path / "workers.sqlite", workers=2,
                              factory=partial(gdl.load, ROOT / "games" / "kalah.gdl", **params))
    solve_strong(game, out=tmp_path / "whole.sqlite", tiers=False)
    assert by_workers.stats.workers == 2 and max(levelled) > 2
    assert sum(learned) > 100 and twice
    assert table(tmp_path / "workers.sqlite") == table(tmp_path / "whole.sqlite")


def test_pig_tiers_solved_in_groups_by_workers_give_the_same_table(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """Pig's tiers (points banked) have cycles, through the dice, that fall apart into groups,
    one for each pair of scores: two workers solve them in chunks of whole groups, by value
    iteration (to 20 points, 13,376 positions: too many for exact values), and write, to the
    last bit, the table one process writes.  The first tier's positions are found in 12 rounds
    (a roll at a time); after it, each chunk goes on to the positions it finds inside the tier,
    and a tier takes one round, up to tier 32 (the later ones have few positions, fewer than 4
    for each one queued, and may take a few rounds)."""
    import searchers.strong.tiers as tiers_module

    from searchers.strong.workers import WorkerRunner

    groups: dict[int, int] = {}  # by tier
    rounds: Counter[int] = Counter()  # by tier, the rounds of expansion sent to the workers
    solve_tier, expand = tiers_module.solve_tier, WorkerRunner.expand

    def noting(tier_graph: Any, *args: Any) -> Any:
        groups[tier_graph.tier] = len(tier_graph.groups) - 1
        return solve_tier(tier_graph, *args)

    def counting(runner: WorkerRunner, tier: int, *args: Any) -> Any:
        rounds[tier] += 1
        return expand(runner, tier, *args)

    monkeypatch.setattr(tiers_module, "solve_tier", noting)
    monkeypatch.setattr(WorkerRunner, "expand", counting)
    pig = ROOT / "games" / "pig.gdl"
    game = gdl.load(pig, goal=20)
    by_workers = solve_strong(game, out=tmp_path / "workers.sqlite", workers=2, factory=partial(gdl.load, pig, goal=20))
    one = solve_strong(game, out=tmp_path / "one.sqlite")
    assert by_workers.positions == one.positions == 13_376 and not by_workers.exact
    assert by_workers.stats.workers == 2
    # 19 points banked: every pair of scores a group, but for (1, 18) and (18, 1), since a
    # turn banks 2 points or more.
    assert groups[19] == 18
    assert table(tmp_path / "workers.sqlite") == table(tmp_path / "one.sqlite")
    assert rounds[0] == 12 and all(rounds[tier] == 1 for tier in range(2, 33))


def test_a_position_two_chunks_expanded_is_kept_once_with_the_states_its_moves_gave() -> None:
    """A chunk's own position p and the position q it expanded past it (found inside the tier),
    which another chunk expanded before: q is dropped, and its move to r, which gave r's state
    (the move from p gave None, the chunk having sent the state already), gives it to p's."""
    from array import array

    import searchers.strong.tiers as tiers_module

    answer = (bytearray([1, 1]), array("q", [2, 1]), {}, {}, [None, None],
              [b"q", b"r", b"r"], array("q", [3, 4, 4]), [None, None, "state of r"], [b"q"])
    done = {b"q"}
    keys, kept = tiers_module._expanded_once([b"p"], answer, done)
    assert keys == [b"p"] and done == {b"p", b"q"}
    assert (kept[0], list(kept[1]), kept[5], list(kept[6]), kept[7], kept[8]) == (
        bytearray([1]), [2], [b"q", b"r"], [3, 4], [None, "state of r"], [])


def test_a_few_queued_positions_are_not_worth_a_move_without_a_closure() -> None:
    """Two queued positions held by one worker, without a closure: a difference of two is not
    worth a move (64 is); with a least of 0 one goes to the other worker."""
    runner, sent = _noting_runner()
    held: list[list[bytes]] = [[b"p", b"q"], []]
    runner._balance(3, held, 64)
    assert held == [[b"p", b"q"], []] and not sent
    runner._balance(3, held, 0)
    assert held == [[b"p"], [b"q"]] and sent == [("give", [b"q"]), ("adopt", [b"q"])]


def test_with_a_closure_the_queued_positions_are_dealt_out_by_turns_in_key_order() -> None:
    """With a closure each queued position carries the work of the positions it finds, which
    varies (in Pig, with how far behind the player to move is): the positions are dealt out to
    the workers by turns in key order, whoever found them; each worker gives the others
    theirs."""
    runner, sent = _noting_runner()
    held: list[list[bytes]] = [[b"d", b"a", b"e"], [b"c", b"b"]]
    runner._interleave(3, held)
    assert held == [[b"a", b"c", b"e"], [b"b", b"d"]]
    assert sent == [("give", [b"d"]), ("adopt", [b"d"]), ("give", [b"c"]), ("adopt", [b"c"])]
    sent.clear()
    runner._interleave(4, held)  # dealt out already: nothing moves
    assert held == [[b"a", b"c", b"e"], [b"b", b"d"]] and not sent


def _noting_runner() -> tuple[Any, list[tuple[str, list[bytes]]]]:
    """A runner of two workers without processes, and the requests it sends them (the
    request's name and the keys it moves)."""
    from searchers.strong.workers import WorkerRunner

    runner = WorkerRunner.__new__(WorkerRunner)
    runner.workers = 2
    sent: list[tuple[str, list[bytes]]] = []
    runner._send = lambda connection, message: sent.append((message[0], message[2]))  # type: ignore[method-assign]
    runner._received = lambda connection: b"the states"  # type: ignore[method-assign]
    runner.connections = [object(), object()]  # type: ignore[list-item]
    return runner, sent


def test_a_tier_of_few_chunks_is_cut_into_as_many_for_each_worker_and_even() -> None:
    """At least 256 positions a chunk to solve (or fewer, to give each worker as many), at
    most 8,000, four a worker if there are enough: Pig to 30's tier of 745 positions goes to
    two workers as four chunks of 187 and 186 (as three, 256, 256 and 233, it kept one worker
    busy twice as long as the other), and as four ranges of whole groups (here seven of 100 and
    one of 45); 300 positions as 150 and 150, not 256 and 44; 1,300 as six chunks, 217 and 216;
    10 as one; 100,000 as 13, none past 8,000 (four of 7,693, then 7,692); one worker, 745 in
    three.  With no least (the chunks of a worker's own positions, and Ray's): four a worker, to
    a chunk of one item, so 9 items to two workers go as 8 chunks, 4 to three workers as 4."""
    from searchers.strong.parallel import chunked
    from searchers.strong.tiers import _whole_groups

    def sizes(count: int, workers: int, least: int = 256) -> list[int]:
        return [len(chunk) for chunk in chunked(range(count), workers, largest=8_000, least=least)]

    assert sizes(745, 2) == [187, 186, 186, 186] and sizes(300, 2) == [150, 150]
    assert sizes(1_300, 2) == [217] * 4 + [216] * 2 and sizes(10, 2) == [10] and sizes(0, 2) == []
    assert sizes(100_000, 2) == [7_693] * 4 + [7_692] * 9 and sizes(745, 1) == [249, 248, 248]
    assert sizes(9, 2, least=1) == [2] + [1] * 7 and sizes(4, 3, least=1) == [1] * 4
    assert list(chain.from_iterable(chunked(range(100_000), 2, largest=8_000, least=256))) == list(range(100_000))
    groups = [0, 100, 200, 300, 400, 500, 600, 700, 745]
    assert _whole_groups(groups, 2) == [range(0, 200), range(200, 400), range(400, 600), range(600, 745)]


def test_pig_positions_are_expanded_in_equal_shares_by_two_workers(tmp_path: Path, monkeypatch: pytest.MonkeyPatch
                                                                     ) -> None:
    """Pig to 20 (13,376 positions) by two workers: each expands the positions of its share
    of the queued ones and those they find inside their tier, counted here in each worker (the
    count goes to a file of its own): 6,688 each, to 2% (dealt out as they were found, one
    worker expanded 8,289 and the other 5,087)."""
    import searchers.strong.workers as workers_module

    expand = workers_module._expand_and_keep

    def counting(game: Any, sampler: Any, number: int, tier: int, keys: list[bytes], *rest: Any) -> Any:
        answer = expand(game, sampler, number, tier, keys, *rest)
        with open(tmp_path / f"expanded.{number}", "a") as counts:  # a line a chunk
            counts.write(f"{len(keys) + len(answer[8])}\n")
        return answer

    monkeypatch.setattr(workers_module, "_expand_and_keep", counting)  # forked workers have it too
    pig = ROOT / "games" / "pig.gdl"
    result = solve_strong(gdl.load(pig, goal=20), out=tmp_path / "pig.sqlite", workers=2,
                          factory=partial(gdl.load, pig, goal=20))
    shares = [sum(map(int, (tmp_path / f"expanded.{number}").read_text().split())) for number in range(2)]
    assert result.positions == sum(shares) == 13_376  # the game as the table above
    assert abs(shares[0] - shares[1]) <= 0.02 * sum(shares)


GROUPS = """\
game "Groups"
players A, B
param dice = 0
state:
    chosen = false
    group = 0
    turns = 0
    done = false
    rolling = false
    mover = A
to_move = chance if rolling else mover
# The first move picks a group (or passes, a cycle of its own); in every fifth group a cycle
# (by a die, with dice), in the others a move to the end only.
moves = [] if rolling else ([-1] + list(range(30)) if not chosen else ([0, 1] if group % 5 == 0 else [1]))
outcomes = [(1, 1 / 2), (2, 1 / 2)]
result(m):
    if rolling:
        rolling = false
        if m == 1:
            turns = (turns + 1) % 3
        mover = other(mover)
    elif not chosen:
        mover = other(mover)
        if m >= 0:
            chosen = true
            group = m
    elif m == 0:
        if dice == 1:
            rolling = true
        else:
            turns = (turns + 1) % 3
            mover = other(mover)
    else:
        done = true
terminal = done
utility = ((group + turns) % 3) - 1
tier = 1 if chosen else 0
"""


@pytest.mark.parametrize("dice", [0, 1])
def test_groups_with_and_without_cycles_give_one_table_and_one_method(tmp_path: Path, dice: int) -> None:
    """A tier of groups, some with a cycle (by retrograde analysis, or by policy iteration with
    dice) and most without: in memory, by tiers in one process and with two workers, the same
    rows and the same methods named, in the result and in the tablebase."""
    path = tmp_path / "groups.gdl"
    path.write_text(GROUPS)
    game = gdl.load(path, dice=dice)
    runs = {"whole": {"tiers": False}, "one": {}, "workers": {"workers": 2, "factory": partial(gdl.load, path, dice=dice)}}
    methods = {name: solve_strong(game, out=tmp_path / f"{name}.sqlite", **options).method
               for name, options in runs.items()}
    named = "backward induction + retrograde analysis" + (" + policy iteration" if dice else "")  # passing: a cycle
    assert set(methods.values()) == {named}
    assert {TablebaseReader(tmp_path / f"{name}.sqlite").meta["method"] for name in runs} == {named}
    assert table(tmp_path / "one.sqlite") == table(tmp_path / "whole.sqlite") == table(tmp_path / "workers.sqlite")


def test_answers_of_tiers_forgotten_are_read_back_from_the_tablebase(tmp_path: Path,
                                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A Kalah capture skips tiers: the answers it needs come from memory or, for tiers whose
    answers were let go, from the tablebase, never for the tier just above the one whose answers
    are sought.  The more answers kept, the fewer the backward pass reads back; with all kept,
    none (the result's own look-ups, of the start and its principal variation, come after it).
    The table is the same every time."""
    import searchers.strong.tiers as tiers_module
    from searchers.strong.keys import stable_key
    from searchers.strong.tablebase import TablebaseWriter

    game = gdl.load(ROOT / "games" / "kalah.gdl", pits=3, seeds=2)
    tier_of = {stable_key(state): game.tier(state) for state in reachable(game)}  # a walk of its own
    seeking: list[int] = []  # the tiers whose answers were sought so far, while the backward pass goes on
    read: list[int] = []  # each solve's number of keys read back
    distances: list[int] = []  # tiers between a key read back in the backward pass and the one seeking it
    lookup, read_ahead, solve_backward = TablebaseWriter.lookup, tiers_module._read_ahead, tiers_module._solve_backward

    backward_pass = [False]  # whether the backward pass is at work (the result's own look-ups follow it)

    def counting(writer: TablebaseWriter, keys: list[bytes]) -> Any:
        if backward_pass[0]:
            read[-1] += len(keys)
            distances.extend(tier_of[key] - seeking[-1] for key in keys if seeking)
        return lookup(writer, keys)

    def noting(scratch: Any, tier: int, *args: Any) -> Any:
        seeking.append(tier)
        return read_ahead(scratch, tier, *args)

    def backward(*args: Any) -> None:
        backward_pass[0] = True
        solve_backward(*args)
        backward_pass[0] = False
        seeking.clear()

    monkeypatch.setattr(TablebaseWriter, "lookup", counting)
    monkeypatch.setattr(tiers_module, "_read_ahead", noting)
    monkeypatch.setattr(tiers_module, "_solve_backward", backward)
    solve_strong(game, out=tmp_path / "whole.sqlite", tiers=False)
    for kept in [0, 1000, 10 ** 9]:  # the last tier's only, some tiers' (of 3,426 positions), all
        monkeypatch.setattr(tiers_module, "_ANSWERS_KEPT", kept)
        read.append(0)
        solve_strong(game, out=tmp_path / f"kept{kept}.sqlite")
        assert table(tmp_path / f"kept{kept}.sqlite") == table(tmp_path / "whole.sqlite")
    assert distances and min(distances) >= 2
    assert read[0] > read[1] > read[2] == 0


def test_part_files_read_while_the_workers_write_are_never_locked(tmp_path: Path,
                                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """While the workers solve a tier, keeping its rows uncommitted, the main process reads the
    answers of tiers forgotten from their part files.  Rows that outgrow a worker's page cache
    would be written out early, the file locked until the commit; a worker holds them in memory
    instead.  Here the part files have a one-page cache, no answers are kept in memory, and the
    next tier's answers are sought five keys at a time between the chunks: Kalah 3x2 still gets
    the table of the whole graph (with the rows written out early, it stopped with "database
    is locked")."""
    import searchers.strong.tiers as tiers_module
    import searchers.strong.workers as workers_module
    from searchers.strong.tablebase import TablebaseWriter

    class SmallCache(TablebaseWriter):
        """A part file whose page cache holds one page: a tier whose rows outgrow 256 MiB."""

        def __init__(self, path: str | Path) -> None:
            super().__init__(path)
            self.connection.execute("PRAGMA cache_size = 1")

    monkeypatch.setattr(workers_module, "TablebaseWriter", SmallCache)
    monkeypatch.setattr(tiers_module, "_ANSWERS_KEPT", 0)
    monkeypatch.setattr(tiers_module, "_SOLVE_CHUNK_LEAST", 1)
    monkeypatch.setattr(tiers_module, "_LOOK_SLICE", 5)
    load = partial(gdl.load, ROOT / "games" / "kalah.gdl", pits=3, seeds=2)
    solve_strong(load(), out=tmp_path / "workers.sqlite", workers=2, factory=load)
    solve_strong(load(), out=tmp_path / "whole.sqlite", tiers=False)
    assert table(tmp_path / "workers.sqlite") == table(tmp_path / "whole.sqlite")


def test_the_backward_pass_reports_its_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """Each chunk solved moves the progress on (shown four times a second at most): the
    positions solved so far rise with every report, to all 3,426 of Kalah 3x2."""
    from searchers.strong.solver import Reporter

    reports: list[tuple[str, int]] = []
    report = Reporter.__call__

    def noting(reporter: Reporter, phase: str, done: int) -> None:
        reports.append((phase, reporter.offset + done))
        report(reporter, phase, done)

    monkeypatch.setattr(Reporter, "__call__", noting)
    result = solve_strong(gdl.load(ROOT / "games" / "kalah.gdl", pits=3, seeds=2))
    solved = [done for phase, done in reports if phase == "solving"]
    assert len(solved) > 10 and solved == sorted(solved) and solved[-1] == result.positions == 3426


@pytest.mark.usefixtures("sigint_interrupts")
def test_a_second_interrupt_while_a_stopped_solve_cleans_up_leaves_no_file(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C during a solve with two workers, and a second one while the workers are shut
    down (a terminal's second Ctrl-C; `timeout -s INT` signals the solve, then its process
    group): the second comes after the cleaning up, which leaves the tablebase alone, refused
    as incomplete, and no part or scratch file (the second once cut it short, about one stop
    in fifteen)."""
    import multiprocessing.process
    import os
    import signal

    from searchers.strong import tiers

    keep_in_order = tiers._keep_in_order
    kept: list[int] = []

    def stopped_at_the_third_tier(*args: object) -> None:
        keep_in_order(*args)  # type: ignore[arg-type]
        kept.append(1)
        if len(kept) == 3:
            raise KeyboardInterrupt

    join = multiprocessing.process.BaseProcess.join
    joined: list[int] = []

    def join_after_a_second_interrupt(process: multiprocessing.process.BaseProcess, timeout: float | None = None
                                      ) -> None:
        if not joined:
            os.kill(os.getpid(), signal.SIGINT)
        joined.append(1)
        join(process, timeout)

    monkeypatch.setattr(tiers, "_keep_in_order", stopped_at_the_third_tier)
    monkeypatch.setattr(multiprocessing.process.BaseProcess, "join", join_after_a_second_interrupt)
    out = tmp_path / "stopped.sqlite"
    with pytest.raises(KeyboardInterrupt):
        gdl.build_tablebase(gdl.load(CONNECT, **TINY_CONNECT), out, workers=2)
    assert len(joined) >= 2  # each worker shut down (a slow one joined twice), the second stop at the first
    assert [path.name for path in tmp_path.iterdir()] == ["stopped.sqlite"]
    with pytest.raises(gdl.GdlTablebaseError, match="incomplete"):
        gdl.Tablebase(out)


@pytest.mark.usefixtures("sigint_interrupts")
@pytest.mark.parametrize("stopped_after", [1, 2])
def test_a_stop_while_the_workers_start_leaves_no_part_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
                                                            stopped_after: int) -> None:
    """Ctrl-C as the first or the second worker starts, before the solve has a runner to close:
    held back until both are started, then both are shut down and their part files removed;
    in a process of one thread the tablebase at --out is never opened.  Where other threads
    run (Ray's, left by an earlier test), one of them may be handed the signal and run its
    handler only once the workers are started and the tablebase begun (2 runs in 2,200 here,
    beside a Ray runtime): the solve stops all the same, and what it leaves is the tablebase
    alone, refused as incomplete, or complete."""
    import multiprocessing.process
    import os
    import signal

    start = multiprocessing.process.BaseProcess.start
    started: list[int] = []

    def start_then_stop(process: multiprocessing.process.BaseProcess) -> None:
        start(process)
        started.append(1)
        if len(started) == stopped_after:
            os.kill(os.getpid(), signal.SIGINT)

    monkeypatch.setattr(multiprocessing.process.BaseProcess, "start", start_then_stop)
    out = tmp_path / "stopped.sqlite"
    with pytest.raises(KeyboardInterrupt):
        gdl.build_tablebase(gdl.load(CONNECT, **TINY_CONNECT), out, workers=2)
    assert len(started) == 2
    assert multiprocessing.active_children() == []  # every worker shut down, none left to write its part file
    left = list(tmp_path.iterdir())
    one_thread = os.path.isdir("/proc/self/task") and len(os.listdir("/proc/self/task")) == 1  # the system's threads
    if one_thread:
        assert left == []
    else:
        assert set(left) <= {out}
        if left:
            try:
                gdl.Tablebase(out).close()  # complete: the stop came after the last row
            except gdl.GdlTablebaseError as error:
                assert "incomplete" in str(error)


@pytest.mark.usefixtures("sigint_interrupts")
def test_stops_wait_for_the_end_of_the_cleaning_up_but_a_third_ends_it() -> None:
    """Within `stops_deferred` two Ctrl-Cs do not interrupt the block; the first is handled
    after it (KeyboardInterrupt), and the handlers are as before; a third ends the block at once."""
    import os
    import signal

    from searchers.strong.parallel import stops_deferred

    before = signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)
    finished = []
    with pytest.raises(KeyboardInterrupt):
        with stops_deferred():
            os.kill(os.getpid(), signal.SIGINT)
            os.kill(os.getpid(), signal.SIGINT)
            finished.append("the block")
    assert finished == ["the block"]
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before
    with pytest.raises(KeyboardInterrupt):
        with stops_deferred():
            for _ in range(3):
                os.kill(os.getpid(), signal.SIGINT)
            finished.append("a block stopped three times")
    assert finished == ["the block"]
    assert (signal.getsignal(signal.SIGINT), signal.getsignal(signal.SIGTERM)) == before


TAKE_OR_PASS = """game "Take"
players First, Second
symbols pass
param stones = 4
state:
    pile = stones
    mover = First
to_move = mover
moves = [n for n in [1, 2] if n <= pile] + [pass]
result(m):
    if m != pass:
        pile -= m
    mover = other(mover)
terminal = pile == 0
utility = 1 if mover == Second else -1
repetition = 1
tier = stones - pile
"""


@pytest.mark.parametrize("workers", [0, 1, 2])  # 0: without the tiers, in memory
def test_the_positions_that_never_end_are_counted_apart(tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                                        workers: int) -> None:
    """Take 1 or 2 of 4 stones, or pass; endless play scores 1 for First.  With 1 or 2 stones
    the mover takes them and wins; with 3, a take leaves the other side 1 or 2, so each side
    passes, for ever; with 4, taking 1 leaves 3 (endless), 2 leaves the other side 2, and a
    pass leaves the other side 4: endless too.  So 4 of the 10 positions never end (3 or 4
    stones, either side to move), worth 1 like First's 3 wins (1 or 2 stones, and First having
    taken the last): the text counts them apart."""
    path = tmp_path / "take.gdl"
    path.write_text(TAKE_OR_PASS if workers else TAKE_OR_PASS.replace("tier = stones - pile\n", ""))
    how = ["--workers", str(workers)] if workers else []
    assert main(["solve", str(path), "--strong", *how]) == 0
    lines = capsys.readouterr().out.splitlines()
    assert lines[2:10] == [
        "principal variation: pass, pass (then a position comes back)",
        "every move (value for First, remoteness):",  # by hand: 1 leaves 3 (endless), 2 leaves 2 to take
        "  1      1  never ends",
        "  2     -1  in 1",
        "  pass   1  never ends",
        "positions: 10 reachable from the start, 2 of them terminal",
        "by value: First wins 7, Second wins 3",
        "never ending with perfect play: 4 positions, worth the `repetition` score and counted by it above",
    ]


def test_more_workers_than_cores_are_started_with_a_word(monkeypatch: pytest.MonkeyPatch,
                                                         capsys: pytest.CaptureFixture[str]) -> None:
    """Two workers on a machine of one core: the solve goes on (Nim 1-2-3 is Second's win:
    1 ^ 2 ^ 3 = 0, Bouton's rule), and says the workers take turns on the core; one worker
    says nothing."""
    monkeypatch.setattr(os, "cpu_count", lambda: 1)
    nim = ["solve", str(ROOT / "games" / "nim.gdl"), "--strong", "-p", "piles=(1, 2, 3)"]
    assert main([*nim, "--workers", "2"]) == 0
    out, err = capsys.readouterr()
    assert "--workers 2 on a machine with 1 core: the workers take turns on them, no quicker than 1" in err
    assert "Nim: Second wins (value -1)" in out and "by 2 worker processes" in out
    assert main([*nim, "--workers", "1"]) == 0
    assert capsys.readouterr().err == ""


def test_many_more_workers_than_cores_are_refused(monkeypatch: pytest.MonkeyPatch,
                                                  capsys: pytest.CaptureFixture[str]) -> None:
    """Four workers a core at most: nine on a machine of two cores are refused before any
    process starts (a thousand took half a minute to start and stop); eight are taken."""
    monkeypatch.setattr(os, "cpu_count", lambda: 2)
    nim = ["solve", str(ROOT / "games" / "nim.gdl"), "--strong", "-p", "piles=(1, 2)"]
    assert main([*nim, "--workers", "9"]) == 2
    assert capsys.readouterr().err == (
        "gdl solve: error: --workers 9 on a machine with 2 cores: at most 8 (4 a core); more would only take "
        "turns on the cores, each a process with its own copy of the game\n")
    assert main([*nim, "--workers", "8"]) == 0
    assert "Nim: First wins (value 1)" in capsys.readouterr().out


def test_options_a_game_has_no_use_for_are_ignored_with_a_word(capsys: pytest.CaptureFixture[str]) -> None:
    """The subtraction game declares no `tier`: --workers and --ray are ignored, and the solve
    says so, then solves in one process (15 stones, 1 or 2 a take: a multiple of 3, so the
    player to move, First, loses); it has no dice: --tolerance is ignored too (`--json` gives
    no tolerance, where it gave the one ignored; Pig's is the one given).  A game the solver
    refuses gets its error alone."""
    subtraction = ["solve", str(ROOT / "games" / "subtraction.gdl"), "--strong"]
    assert main([*subtraction, "--workers", "2", "--ray", "auto"]) == 0
    out, err = capsys.readouterr()
    assert err == ("gdl solve: --workers and --ray ignored: Subtraction declares no `tier` to split its positions "
                   "by, so it is solved in one process, in memory\n")
    assert "Subtraction: Second wins (value -1)" in out and "in one process, in memory" in out
    assert main([*subtraction, "--workers", "2"]) == 0
    assert capsys.readouterr().err.startswith("gdl solve: --workers ignored: Subtraction declares no `tier`")
    assert main([*subtraction, "--tolerance", "1e-6"]) == 0
    assert capsys.readouterr().err == ("gdl solve: --tolerance ignored: Subtraction has no dice, so its values are "
                                       "found exactly, not by value iteration\n")
    assert main([*subtraction, "--tolerance", "1e-6", "--json"]) == 0
    out, err = capsys.readouterr()
    assert err.startswith("gdl solve: --tolerance ignored") and json.loads(out)["tolerance"] is None
    assert main(["solve", str(ROOT / "games" / "pig.gdl"), "-p", "goal=3", "--strong", "--tolerance", "1e-6",
                 "--json"]) == 0
    assert json.loads(capsys.readouterr().out)["tolerance"] == 1e-6
    # A game the strong solver refuses is refused with no word on the options first.
    three = ["solve", str(ROOT / "games" / "textbook" / "three_players.gdl"), "--strong", "--workers", "2"]
    assert main([*three, "--tolerance", "1e-3"]) == 2
    assert capsys.readouterr().err.startswith("gdl solve: error: the strong solver needs a two-player game")


@pytest.mark.parametrize("workers", [1, 2])
def test_the_cyclic_collector_is_off_while_a_strong_solve_runs(monkeypatch: pytest.MonkeyPatch, workers: int) -> None:
    """A strong solve makes no reference cycles, and the collector's passes over its graph and
    tables cost a seventh of connect four 5x4's solve: the collector is off in the main process
    and in each worker while the solve runs (each expansion checks, and a check that fails
    fails the solve), and on again after; Nim (1, 2) is still a first-player win."""
    import gc

    import searchers.strong.parallel as parallel_module
    import searchers.strong.workers as workers_module

    expand = parallel_module.expand_states

    def checked(*args: Any, **kwargs: Any) -> Any:
        if gc.isenabled():
            raise RuntimeError("the cyclic collector runs during the solve")
        return expand(*args, **kwargs)

    monkeypatch.setattr(parallel_module, "expand_states", checked)
    monkeypatch.setattr(workers_module, "expand_states", checked)  # the workers are forked with it
    factory = partial(gdl.load, str(ROOT / "games" / "nim.gdl"), piles=(1, 2))
    assert gc.isenabled()
    assert solve_strong(factory(), tiers=True, workers=workers, factory=factory).value == 1
    assert gc.isenabled()


def test_a_worker_gone_is_said_with_the_tablebase_left(capsys: pytest.CaptureFixture[str], tmp_path: Path,
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A worker process that dies (killed, out of memory) stops `gdl solve` with a word why
    (exit status 2), and leaves no tablebase (it left one refused until solved again); one
    whose build had not finished, there before, is deleted, and said to be."""
    import searchers.strong.workers as workers_module

    monkeypatch.setattr(workers_module, "expand_states", lambda *args, **options: os._exit(9))  # the workers are forked
    out = tmp_path / "gone.sqlite"
    status = main(["solve", CONNECT, *[f"-p{name}={value}" for name, value in TINY_CONNECT.items()], "--strong",
                   "--workers", "2", "--out", str(out)])
    assert (status, capsys.readouterr().err) == (
        2, "gdl solve: error: a worker process stopped unexpectedly: killed, out of memory (try fewer workers), or by "
           "an error of its own, printed above\n")
    assert not out.exists()
    TablebaseWriter(out).close()  # a tablebase whose build had not finished
    status = main(["solve", CONNECT, *[f"-p{name}={value}" for name, value in TINY_CONNECT.items()], "--strong",
                   "--workers", "2", "--out", str(out)])
    assert (status, capsys.readouterr().err) == (
        2, f"gdl solve: note: {out} is a tablebase whose build did not finish; a solve does not resume it, but begins "
           "again\ngdl solve: error: a worker process stopped unexpectedly: killed, out of memory (try fewer workers), "
           f"or by an error of its own, printed above; {out} is deleted: a solve that fails leaves no tablebase\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == []


def test_a_game_the_workers_cannot_build_is_said_once(tmp_path: Path, capfd: pytest.CaptureFixture[str]) -> None:
    """A factory that fails in the workers (a parameter refused there) stops the solve with the
    game's own error, raised in the main process, rather than a traceback from each worker and
    "a worker process stopped unexpectedly"."""
    game = gdl.load(CONNECT, **TINY_CONNECT)
    with pytest.raises(gdl.GdlError, match="parameter `rows` is an integer .* but a string \\(\"3\"\\) was given"):
        solve_strong(game, out=tmp_path / "tb.sqlite", workers=2, factory=partial(gdl.load, CONNECT, rows="3"))
    assert "Traceback" not in capfd.readouterr().err


def test_the_time_to_start_the_workers_is_told_apart(capsys: pytest.CaptureFixture[str],
                                                       monkeypatch: pytest.MonkeyPatch) -> None:
    """A local Ray runtime takes seconds to start, which the solve's time and rate count: the
    text says how much of it went to starting them, past half a second (a start held back 0.7
    s here), and `--json` gives it as `stats.start_seconds`; a solve in one process that
    started at once says nothing of it (Nim: First wins)."""
    from searchers.strong import tiers

    make_runner = tiers.make_runner

    def slow_runner(*args: Any, **options: Any) -> Any:
        time.sleep(0.7)
        return make_runner(*args, **options)

    nim = ["solve", str(ROOT / "games" / "nim.gdl"), "--strong"]
    assert main([*nim, "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)["stats"]
    assert 0 <= stats["start_seconds"] < 0.5
    assert main(nim) == 0
    assert "to start them" not in capsys.readouterr().out
    monkeypatch.setattr(tiers, "make_runner", slow_runner)
    assert main([*nim, "--workers", "2", "--json"]) == 0
    stats = json.loads(capsys.readouterr().out)["stats"]
    assert 0.7 <= stats["start_seconds"] <= stats["discover_seconds"] <= stats["seconds"]
    assert main([*nim, "--workers", "2"]) == 0
    out = capsys.readouterr().out
    assert "Nim: First wins (value 1)" in out
    assert re.search(r" s, [\d,]+ positions/s, in \d+ tiers, by 2 worker processes "
                     r"\(\d+\.\d s of it to start them\)\n", out)
