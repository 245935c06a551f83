"""The transposition table: positions already searched, bounded in memory.

An entry is the tuple ``(value, bound, draft, gaps, move, state, work)``:

- ``value`` and ``bound``: the value found, exact or only an upper/lower bound
  (alpha-beta fails high or low outside its window);
- ``draft``: the depth that was left to search below the position;
- ``gaps``: what the search below left out, ``CUT_OFF_BELOW`` (a state cut off by the
  depth limit) and ``DROPPED_BELOW`` (a move the beam skipped) or'ed; 0 where nothing
  was, so that the value holds for any larger draft too;
- ``move``: the best move found (tried first when the position comes back);
- ``state``: the state searched (under symmetry the key is shared by mirror images);
- ``work``: the number of nodes the search of the position visited, the cost of
  finding the entry again.

When the table is full, the half of the entries that were cheapest to find are
dropped: they are the quickest to search again.
"""

from __future__ import annotations

import sys
from collections.abc import Hashable
from typing import Any

from .protocol import Move, State, Value

Entry = tuple[Value, str, int, int, Move | None, State, int]

CUT_OFF_BELOW = 1
"""An entry's ``gaps``: some state below was cut off by the depth limit and evaluated."""
DROPPED_BELOW = 2
"""An entry's ``gaps``: the beam skipped some move below."""

DEFAULT_MEMORY = 1 << 30
"""The table's default size limit in bytes (1 GiB): well under a working machine's memory."""

# What an entry costs besides the states it keeps alive: the dict's slot and its share of
# the dict's spare room, the entry tuple, and the numbers in it.
_ENTRY_OVERHEAD = 260


def state_bytes(state: Any, seen: set[int] | None = None) -> int:
    """An estimate of the memory a state keeps alive: its containers, not shared atoms.

    Small integers, booleans and short strings (symbols) are shared by every state, so they
    are not counted; tuples, dicts and long numbers are.
    """
    seen = set() if seen is None else seen
    if id(state) in seen:
        return 0
    seen.add(id(state))
    if isinstance(state, tuple):
        return sys.getsizeof(state) + sum(state_bytes(item, seen) for item in state)
    if isinstance(state, dict):
        return sys.getsizeof(state) + sum(
            state_bytes(k, seen) + state_bytes(v, seen) for k, v in state.items()
        )
    if isinstance(state, int) and -5 <= state <= 256:
        return 0
    if isinstance(state, str) and len(state) <= 16:
        return 0
    return sys.getsizeof(state)


FEWEST_ENTRIES = 16  # a table smaller than this would drop what the search is about to read


def capacity_for(memory: int, sample_state: State, symmetry: bool) -> int:
    """How many entries fit in ``memory`` bytes, judging a state's size by ``sample_state``.

    Under symmetry the key is a separate state (the canonical image), so an entry keeps two.
    """
    per_entry = _ENTRY_OVERHEAD + state_bytes(sample_state) * (2 if symmetry else 1)
    return max(FEWEST_ENTRIES, memory // per_entry)


class TranspositionTable(dict[Hashable, Entry]):
    """A dict of entries that never holds more than ``capacity`` of them.

    The searchers store with ``table[key] = entry`` and then call ``make_room()`` when
    ``len(table) > table.capacity``: the check is inline on the hot path, the eviction is not.
    """

    def __init__(self, capacity: int) -> None:
        """An empty table for at most ``capacity`` entries."""
        super().__init__()
        if capacity < 1:
            raise ValueError(f"a table needs room for at least one entry, not {capacity}")
        self.capacity = capacity
        self.evictions = 0  # entries dropped to make room

    def make_room(self) -> None:
        """Drop the cheapest half of the entries (by the work it took to find them)."""
        keep = self.capacity // 2
        if len(self) <= keep:
            return
        works = sorted(entry[6] for entry in self.values())
        threshold = works[len(works) - keep - 1]
        # Entries cheaper than the threshold go; ties with it go until enough room is made.
        extra_ties = len(works) - keep - sum(1 for w in works if w < threshold)
        doomed = []
        for key, entry in self.items():
            work = entry[6]
            if work < threshold:
                doomed.append(key)
            elif work == threshold and extra_ties > 0:
                doomed.append(key)
                extra_ties -= 1
        for key in doomed:
            del self[key]
        self.evictions += len(doomed)
