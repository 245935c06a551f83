"""Stable keys: the same bytes for the same position in every process and on every machine.

A tablebase finds a position by the bytes of its key, so the key cannot come from Python's
``hash`` (salted per process for strings) nor from ``pickle`` (whose output changes between
versions).  ``stable_key`` writes a value as a tag byte and its contents:

- ``None``, ``True`` and ``False`` as one tag byte each;
- an integer as its decimal digits, a fraction as ``numerator/denominator``, a float by ``repr``;
- a string (a symbol too) as its UTF-8 bytes;
- a tuple (a state, a board) or a list as its items in order;
- a dict (a map) as its items sorted by the encoded key, so that insertion order does not count;
- a set or frozenset as its items sorted by their encoding.

Every variable-length part carries its length first, so no two values share an encoding.
"""

from __future__ import annotations

from fractions import Fraction
from typing import Any, no_type_check as typeguard_ignore


class UnkeyableValue(TypeError):
    """A position holds a value with no stable encoding."""


def stable_key(value: Any) -> bytes:
    """The stable bytes of ``value`` (see the module's docstring)."""
    out = bytearray()
    _encode(value, out)
    return bytes(out)


def _length(n: int, out: bytearray) -> None:
    # A varint: seven bits a byte, the high bit set on all bytes but the last.
    while n >= 0x80:
        out.append((n & 0x7F) | 0x80)
        n >>= 7
    out.append(n)


@typeguard_ignore
def _encode(value, out):
    kind = type(value)
    if kind is bool or value is None:
        out += b"T" if value is True else b"F" if value is False else b"N"
    elif isinstance(value, bool):
        out += b"T" if value else b"F"
    elif isinstance(value, int):
        if 0 <= value < 0x80:
            out += b"i"
            out.append(value)
        else:
            digits = str(int(value)).encode()
            out += b"I"
            _length(len(digits), out)
            out += digits
    elif isinstance(value, str):
        data = str.__str__(value).encode("utf-8", "surrogatepass")
        out += b"s"
        _length(len(data), out)
        out += data
    elif isinstance(value, (tuple, list)):
        out += b"t" if isinstance(value, tuple) else b"l"
        _length(len(value), out)
        for item in value:
            _encode(item, out)
    elif isinstance(value, dict):
        items = sorted((stable_key(k), stable_key(v)) for k, v in value.items())
        out += b"d"
        _length(len(items), out)
        for k, v in items:
            out += k
            out += v
    elif isinstance(value, (set, frozenset)):
        items = sorted(stable_key(item) for item in value)
        out += b"e"
        _length(len(items), out)
        for item in items:
            out += item
    elif isinstance(value, Fraction):
        digits = f"{value.numerator}/{value.denominator}".encode()
        out += b"q"
        _length(len(digits), out)
        out += digits
    elif isinstance(value, float):
        digits = repr(value).encode()
        out += b"f"
        _length(len(digits), out)
        out += digits
    else:
        raise UnkeyableValue(f"a position holds {value!r} ({type(value).__name__}), which has no stable key")
