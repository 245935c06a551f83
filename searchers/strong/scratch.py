"""The scratch files of a solve by tiers: the states queued for higher tiers that do not fit in
memory, and each tier's graph between the forward and the backward pass (``tiers``)."""

from __future__ import annotations

import os
import pickle
import sqlite3
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from .parallel import Seeds
from .tablebase import remove_sqlite_file
from .tiergraph import TierGraph

# States of higher tiers held in memory at most; more go to the scratch file.
_FRONTIER_KEPT = 1_000_000

# Bytes of tiers' graphs held in memory between the passes at most; the others are in files.
_GRAPHS_HELD = 64 << 20


class Scratch:
    """The scratch files of a solve by tiers: the frontier states that do not fit in memory (in
    an SQLite file), and each tier's graph between the two passes (in a file a tier, but for
    small ones held in memory, up to ``_GRAPHS_HELD`` bytes in all: a game of thousands of
    tiers of a few positions would spend most of its time making and deleting files).

    The frontier is a dict a tier, key -> state (as the runner packs it), so each position is
    queued once; past ``kept`` states it is written out a batch at a time (one pickle of many
    states), and read back, the duplicates dropped, when its tier comes."""

    def __init__(self, path: Path, kept: int | None = None, graphs_held: int | None = None) -> None:
        """A new scratch file at ``path``, holding at most ``kept`` (by default
        ``_FRONTIER_KEPT``) frontier states and ``graphs_held`` bytes of graphs (by default
        ``_GRAPHS_HELD``) in memory."""
        self.path = path
        if path.exists():
            os.remove(path)
        self.connection = sqlite3.connect(path)
        self.connection.executescript(
            """
            PRAGMA journal_mode = OFF;
            PRAGMA synchronous = OFF;
            CREATE TABLE frontier (tier INTEGER NOT NULL, batch BLOB NOT NULL);
            CREATE INDEX frontier_tier ON frontier (tier);
            """
        )
        self.frontier: dict[int, dict[bytes, Any]] = {}
        self.spilled: set[int] = set()
        self.graphs: set[int] = set()  # the tiers whose graphs are kept in files
        self.held: dict[int, bytes] = {}  # the graphs kept in memory
        self.held_bytes = 0
        self.kept = _FRONTIER_KEPT if kept is None else kept
        self.graphs_held = _GRAPHS_HELD if graphs_held is None else graphs_held

    def tier(self, tier: int) -> dict[bytes, Any]:
        """The frontier of ``tier`` held in memory, to add (key, state) to."""
        found = self.frontier.get(tier)
        if found is None:
            found = self.frontier[tier] = {}
        return found

    def spill_if_full(self) -> None:
        """Write the frontier out if it holds more than ``kept`` states."""
        if sum(map(len, self.frontier.values())) <= self.kept:
            return
        self.connection.executemany(
            "INSERT INTO frontier VALUES (?, ?)",
            [(tier, pickle.dumps(list(states.items()), pickle.HIGHEST_PROTOCOL))
             for tier, states in self.frontier.items() if states],
        )
        self.spilled.update(tier for tier, states in self.frontier.items() if states)
        self.frontier = {}

    def next_tier(self) -> int | None:
        """The lowest tier with positions queued."""
        return min((tier for tier, states in self.frontier.items() if states), default=None) if not self.spilled \
            else min([tier for tier, states in self.frontier.items() if states] + list(self.spilled))

    def take_frontier(self, tier: int) -> Iterator[Seeds]:
        """The queued positions of ``tier``, a batch at a time (so that the states of a large
        tier are never all in memory), in the order they were queued; a position queued in
        several batches comes with the first."""
        held = self.frontier.pop(tier, {})
        if tier not in self.spilled:
            if held:
                yield list(held.items())
            return
        self.spilled.discard(tier)
        rowids = [rowid for (rowid,) in self.connection.execute(
            "SELECT rowid FROM frontier WHERE tier = ? ORDER BY rowid", (tier,))]
        seen: set[bytes] = set()
        for rowid in rowids:
            (batch,) = self.connection.execute("SELECT batch FROM frontier WHERE rowid = ?", (rowid,)).fetchone()
            self.connection.execute("DELETE FROM frontier WHERE rowid = ?", (rowid,))
            fresh = [(key, state) for key, state in pickle.loads(batch) if key not in seen]
            seen.update(key for key, _ in fresh)
            yield fresh
        yield [(key, state) for key, state in held.items() if key not in seen]

    def graph_file(self, tier: int) -> Path:
        """The file that holds ``tier``'s graph between the passes."""
        return Path(f"{self.path}.tier{tier}")

    def keep_graph(self, graph: TierGraph) -> None:
        """Store a tier's graph until the backward pass: in memory while there is room, else in
        a file of its own (quicker than a row of the scratch file)."""
        data = graph.to_bytes()
        if self.held_bytes + len(data) <= self.graphs_held:
            self.held[graph.tier] = data
            self.held_bytes += len(data)
        else:
            self._write_graph(graph.tier, data)

    def _write_graph(self, tier: int, data: bytes) -> None:
        self.graphs.add(tier)  # first: ``close`` deletes a file left half written too
        self.graph_file(tier).write_bytes(data)

    def graph_bytes(self, tier: int) -> bytes:
        """The graph of ``tier`` kept, as ``TierGraph.to_bytes`` wrote it."""
        data = self.held.get(tier)
        return self.graph_file(tier).read_bytes() if data is None else data

    def graph_in_file(self, tier: int) -> Path:
        """The file of ``tier``'s graph, for other processes to read: written now if the graph
        was held in memory."""
        if tier not in self.graphs:  # held in memory: moved to its file, counted once
            data = self.held.pop(tier)
            self.held_bytes -= len(data)
            self._write_graph(tier, data)
        return self.graph_file(tier)

    def drop_graph(self, tier: int) -> None:
        """Let a tier's graph go, read back by all who need it."""
        data = self.held.pop(tier, None)
        if data is not None:
            self.held_bytes -= len(data)
        if tier in self.graphs:
            os.remove(self.graph_file(tier))
            self.graphs.remove(tier)

    def close(self) -> None:
        """Close and delete the scratch files."""
        self.connection.close()
        remove_sqlite_file(self.path)
        for path in map(self.graph_file, self.graphs):
            if path.exists():
                os.remove(path)
