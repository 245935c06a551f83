"""Stable keys are one-to-one: a decoder written here from the format's description reads every
key back to the value it was made from."""

from __future__ import annotations

from fractions import Fraction
from typing import Any

from hypothesis import given, settings, strategies as st

import gdl
from searchers.strong import stable_key
from searchers.protocol import position_of


def _varint(data: bytes, at: int) -> tuple[int, int]:
    """A length written seven bits a byte, and where the next part starts."""
    n, shift = 0, 0
    while True:
        byte = data[at]
        at += 1
        n |= (byte & 0x7F) << shift
        shift += 7
        if byte < 0x80:
            return n, at


def _decode(data: bytes, at: int) -> tuple[Any, int]:
    """The value whose encoding starts at ``at``, and where it ends."""
    tag, at = chr(data[at]), at + 1
    if tag in "NTF":
        return {"N": None, "T": True, "F": False}[tag], at
    if tag == "i":
        return data[at], at + 1
    if tag in "Isqf":
        size, at = _varint(data, at)
        text = data[at:at + size].decode()
        kind = {"I": int, "s": str, "q": Fraction, "f": float}[tag]
        return kind(text), at + size
    size, at = _varint(data, at)
    if tag in "tl":
        items = []
        for _ in range(size):
            item, at = _decode(data, at)
            items.append(item)
        return (tuple(items) if tag == "t" else items), at
    if tag in "uv":
        palette_size, at = _varint(data, at)
        palette = []
        for _ in range(palette_size):
            item, at = _decode(data, at)
            palette.append(item)
        places = [0] * size
        if palette_size > 1:
            width = ((palette_size ** size - 1).bit_length() + 7) // 8
            number = int.from_bytes(data[at:at + width], "big")
            at += width
            for place in reversed(range(size)):
                number, places[place] = divmod(number, palette_size)
        items = [palette[place] for place in places]
        return (tuple(items) if tag == "u" else items), at
    if tag == "d":
        found = {}
        for _ in range(size):
            key, at = _decode(data, at)
            found[key], at = _decode(data, at)
        return found, at
    assert tag == "e", f"unknown tag {tag!r}"
    members = set()
    for _ in range(size):
        item, at = _decode(data, at)
        members.add(item)
    return frozenset(members), at


def decode(key: bytes) -> Any:
    """The value of a whole key."""
    value, end = _decode(key, 0)
    assert end == len(key), "bytes left over after the value"
    return value


def typed(value: Any) -> Any:
    """The value with every item's kind beside it: 1, True and 1.0 differ, as do (1,) and [1];
    a fraction equal to a whole number is that integer (one number, however computed)."""
    if isinstance(value, Fraction) and value.denominator == 1:
        return ("int", int(value))
    if isinstance(value, (tuple, list)):
        return (type(value) is list, tuple(typed(item) for item in value))
    if isinstance(value, dict):
        return ("dict", frozenset((typed(k), typed(v)) for k, v in value.items()))
    if isinstance(value, (set, frozenset)):
        return ("set", frozenset(typed(item) for item in value))
    return (type(value).__name__, value)


leaves = st.one_of(st.integers(-300, 300), st.integers(), st.sampled_from(["", "X", "O", "empty", "é"]),
                   st.text(max_size=3), st.booleans(), st.none(), st.fractions(max_denominator=9),
                   st.floats(allow_nan=False))
values = st.recursive(
    leaves,
    lambda inner: st.one_of(
        st.lists(inner, max_size=8), st.lists(inner, max_size=8).map(tuple),
        st.lists(st.sampled_from([0, 1, 2, "X", "O", "empty"]), max_size=40).map(tuple),
        st.lists(st.integers(0, 40), max_size=60),
        st.dictionaries(st.text(max_size=2), inner, max_size=4),
        st.frozensets(st.integers(-5, 5), max_size=4),
    ),
    max_leaves=40,
)


@settings(max_examples=400, deadline=None)
@given(values)
def test_every_key_reads_back_as_its_value(value: Any) -> None:
    """Keys are one-to-one: each decodes to the value it encodes, kinds included."""
    assert typed(decode(stable_key(value))) == typed(value)


def test_a_board_is_written_by_palette() -> None:
    """Connect-4 on 5x5 after five discs: the board's 25 cells take 5 bytes of places after a
    palette of three symbols (``O``, ``X``, ``empty``), 26 bytes in all with the player to move."""
    game = gdl.load("games/connect.gdl", rows=5, cols=5)
    state = game.initial_state()
    for move in (0, 1, 2, 2, 3):
        state = game.result(state, move)
    position = position_of(game)(state)  # type: ignore[misc]
    key = stable_key(position)
    assert key.startswith(b"t\x02u\x19\x03s\x01Os\x01Xs\x05empty") and len(key) == 2 + 3 + 13 + 5 + 3
    assert decode(key) == (tuple(position[0]), "O")


def test_mixed_kinds_that_compare_equal_are_kept_apart() -> None:
    """1 == True == 1.0 in Python, but a position holding one is not a position holding another."""
    keys = {stable_key(v) for v in ((1, True), (1, 1), (1, 1.0), (True, True), [1, True], [1, 1])}
    assert len(keys) == 6
    assert typed(decode(stable_key((1, True, 2)))) == typed((1, True, 2))


def test_a_whole_number_computed_as_a_fraction_keys_as_the_integer() -> None:
    """``1/2 * 2`` is ``Fraction(1, 1)`` to Python, equal to 1 and hashed alike: a position
    holding it is the position holding 1, alone, in a board (written by palette) and in a
    dict alike; a fraction that is not whole keeps its own key."""
    assert stable_key(Fraction(2, 1)) == stable_key(2) == b"i\x02"
    assert stable_key(Fraction(-7, 1)) == stable_key(-7) and stable_key(Fraction(10**30)) == stable_key(10**30)
    assert stable_key((Fraction(1, 1), 1, "B")) == stable_key((1, 1, "B"))
    assert stable_key((Fraction(1, 1), 1, "B")).startswith(b"u\x03")  # the palette of the integers' tuple
    assert stable_key([Fraction(3, 1), (Fraction(0), "X")]) == stable_key([3, (0, "X")])
    assert stable_key({"s": Fraction(4, 2)}) == stable_key({"s": 2})
    assert stable_key(Fraction(3, 2)) == b"q\x033/2"  # not whole: a fraction still
