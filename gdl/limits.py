"""The limits of the language: how big a value, a number or a file's nesting may grow.

Each limit is a promise of docs/language.md ("Limits"): a game that goes past one gets a
positioned error instead of exhausting memory, time or Python's own limits.
"""

from __future__ import annotations

import sys
from contextlib import contextmanager
from types import FrameType
from typing import Iterator

MAX_ITEMS = 1_000_000
"""The most items one value may be made of, counted as what is built: a range or list of n
numbers is n items, a grid or `cells(rows, cols)` rows * cols, `rows(n)` n * n cells, a string
its characters, `product(xs, n)` its tuples times n."""

MAX_NESTING = 500
"""The deepest an expression or block may nest in a file: each operator, call, list, tuple and
block is one level (`a + b + c` is two; parentheses that only group are none)."""

MAX_DIGITS = 4_000
"""The most digits of a number written in a file or given as a parameter."""

MAX_EXPONENT = 10_000
"""The largest exponent of a power, `x ** n`."""

MAX_POWER_BITS = 1_000_000
"""The most bits of the numerator or denominator of a power's result (about 301,000 digits)."""

LOOP_LIMIT = 100_000
"""A `while` loop that runs more often than this is a rule error, not a hang."""


_FRAMES_PER_LEVEL = 10
"""Python calls the checker and the compiler make, at most, for one level of nesting."""


@contextmanager
def room_for_nesting() -> Iterator[None]:
    """Python's recursion limit raised, while a file is checked or compiled, to what
    MAX_NESTING levels need (the checker and the compiler walk the tree recursively)."""
    frame: FrameType | None = sys._getframe()
    depth = 0
    while frame is not None:
        frame, depth = frame.f_back, depth + 1
    before = sys.getrecursionlimit()
    needed = depth + _FRAMES_PER_LEVEL * MAX_NESTING + 100
    if needed > before:
        sys.setrecursionlimit(needed)
    try:
        yield
    finally:
        if needed > before:
            sys.setrecursionlimit(before)
