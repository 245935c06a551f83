"""Stable keys: the same bytes for the same position in every process and on every machine.

A tablebase finds a position by the bytes of its key, so the key cannot come from Python's
``hash`` (salted per process for strings) nor from ``pickle`` (whose output changes between
versions).  ``stable_key`` writes a value as a tag byte and its contents:

- ``None``, ``True`` and ``False`` as one tag byte each;
- an integer as its decimal digits, a fraction as ``numerator/denominator``, a float by ``repr``;
  a fraction equal to a whole number (``1/2 * 2``, which Python keeps as ``Fraction(1, 1)``)
  as that integer, since it is equal to it, in a state as in a dict's key;
- a string (a symbol too) as its UTF-8 bytes;
- a tuple (a state, a board) or a list as its items in order, except that a tuple or a list
  of integers and strings alone, at most 36 different ones (a board), is written by palette:
  its different items, sorted by their encodings, then each item's place in that palette, all
  as one number in base (the palette's size) in a fixed number of bytes: a connect-4 board
  of 25 cells takes 21 bytes instead of about 130;
- a dict (a map) as its items sorted by the encoded key, so that insertion order does not count;
- a set or frozenset as its items sorted by their encoding.

Every variable-length part carries its length first, so no two values share an encoding.
Tablebases store the keys, so a change here is a change of the tablebase format
(``tablebase.FORMAT``).
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, no_type_check as typeguard_ignore


class UnkeyableValue(TypeError):
    """A position holds a value with no stable encoding."""


def stable_key(value: Any) -> bytes:
    """The stable bytes of ``value`` (see the module's docstring)."""
    key: bytes = _encode(value)
    return key


def _length(n: int) -> bytes:
    # A varint: seven bits a byte, the high bit set on all bytes but the last.
    out = bytearray()
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)
    return bytes(out)


# The encodings of the integers and strings met so far: positions repeat the same few.
_leaves: dict[Any, bytes] = {}
_LEAVES_KEPT = 1 << 16
_SHORT = [bytes([n]) for n in range(0x80)]

# The types met so far that encode as a leaf (int, str and their subclasses, never bool: True
# is 1 to a dict), that do not, and that encode as a tuple.  A set of types tells at C speed
# that a whole board is leaves, or that a state holding a board is not.
_leaf_types: set[type] = set()
_other_types: set[type] = set()
_tuple_types: set[type] = set()


@typeguard_ignore
def _encode(value):
    kind = type(value)
    if kind in _leaf_types:
        found = _leaves.get(value)
        if found is None:
            found = _leaf(value)
            if len(_leaves) < _LEAVES_KEPT:
                _leaves[value] = found
        return found
    if kind in _tuple_types:
        return _sequence(b"t", value)
    if kind is not bool and (issubclass(kind, int) or issubclass(kind, str)):
        _leaf_types.add(kind)
        return _encode(value)
    if isinstance(value, tuple):
        _tuple_types.add(kind)
        return _sequence(b"t", value)
    if kind is bool or value is None:
        return b"T" if value is True else b"F" if value is False else b"N"
    if isinstance(value, list):
        return _sequence(b"l", value)
    if isinstance(value, dict):
        items = sorted(_encode(k) + _encode(v) for k, v in value.items())
        return b"d" + _length(len(items)) + b"".join(items)
    if isinstance(value, (set, frozenset)):
        items = sorted(_encode(item) for item in value)
        return b"e" + _length(len(items)) + b"".join(items)
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return _encode(int(value.numerator))
        digits = f"{value.numerator}/{value.denominator}".encode()
        return b"q" + _length(len(digits)) + digits
    if isinstance(value, float):
        digits = repr(value).encode()
        return b"f" + _length(len(digits)) + digits
    raise UnkeyableValue(f"a position holds {value!r} ({type(value).__name__}), which has no stable key")


# The palettes of the sequences met so far (see ``_palette``), by their sets of items.
_palettes: dict[frozenset[Any], tuple[bytes, int, dict[Any, str]] | None] = {}
_PALETTES_KEPT = 1 << 12
_DIGITS = "0123456789abcdefghijklmnopqrstuvwxyz"  # what ``int(text, base)`` reads
_PALETTE_TAGS = {b"t": b"u", b"l": b"v"}
_packed_sizes: dict[tuple[int, int], int] = {}


@typeguard_ignore
def _sequence(tag, values):
    """``tag``, the length and the encodings of ``values`` one after the other; or, for a
    sequence of leaves with a palette, the palette's tag, the length, the palette and the
    items' places in it as one number."""
    size = len(values)
    kinds = set(map(type, values))
    if size and (kinds <= _leaf_types or (kinds.isdisjoint(_other_types) and _all_leaves(kinds))):
        distinct = frozenset(values)
        palette = _palettes.get(distinct, False)
        if palette is False:
            palette = _palette(distinct)
        if palette is not None:
            encodings, base, digits = palette
            head = _PALETTE_TAGS[tag] + (_SHORT[size] if size < 0x80 else _length(size)) + encodings
            if base == 1:
                return head
            number = int("".join(map(digits.__getitem__, values)), base)
            return head + number.to_bytes(_packed_size(base, size), "big")
    if Fraction in kinds:  # whole numbers among them key as the integers they equal, in a palette too
        whole = [int(v.numerator) if type(v) is Fraction and v.denominator == 1 else v for v in values]
        if Fraction not in set(map(type, whole)):
            return _sequence(tag, whole)
    head = tag + (_SHORT[size] if size < 0x80 else _length(size))
    return head + b"".join(map(_encode, values))


def _all_leaves(kinds: set[type]) -> bool:
    """Whether every one of the types of a sequence's items is an integer or a string type (not
    bool); each type is remembered as one or not."""
    leaves = {kind for kind in kinds if kind is not bool and issubclass(kind, (int, str))}
    _leaf_types.update(leaves)
    _other_types.update(kinds - leaves)
    return len(leaves) == len(kinds)


def _palette(distinct: frozenset[Any]) -> tuple[bytes, int, dict[Any, str]] | None:
    """The palette of a sequence whose items are ``distinct`` (integers and strings): its size
    and the items' encodings in order, the size, and each item's digit; None past 36 items."""
    found = None
    if len(distinct) <= len(_DIGITS):
        ordered = sorted((_encode(item), item) for item in distinct)  # encodings differ: items never compared
        encodings = _length(len(ordered)) + b"".join(encoding for encoding, _ in ordered)
        found = (encodings, len(ordered), {item: _DIGITS[place] for place, (_, item) in enumerate(ordered)})
    if len(_palettes) < _PALETTES_KEPT:
        _palettes[distinct] = found
    return found


def _packed_size(base: int, size: int) -> int:
    """The bytes that hold every number of ``size`` digits in ``base``."""
    found = _packed_sizes.get((base, size))
    if found is None:
        found = _packed_sizes[(base, size)] = ((base ** size - 1).bit_length() + 7) // 8
    return found


def _leaf(value: int | str) -> bytes:
    """The encoding of an integer or a string."""
    if isinstance(value, str):
        data = str.__str__(value).encode("utf-8", "surrogatepass")
        return b"s" + _length(len(data)) + data
    if 0 <= value < 0x80:
        return b"i" + _SHORT[value]
    digits = str(int(value)).encode()
    return b"I" + _length(len(digits)) + digits
