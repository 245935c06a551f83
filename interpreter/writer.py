"""Lines of generated Python, and the game-file position each one stands for.

An expression's code comes marked with the position of the file's expression it stands for
(``marked``); a line loses its marks when it is written, and the writer keeps, for each line,
where each marked expression lies in it (``Span``): a rule that fails at run time is reported
at the expression that failed (Python tells which part of a line it ran last), not only at the
start of its statement.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from gdl.model import Located

# The marks around an expression's code: `OPEN line,column MIDDLE code CLOSE`.  Control
# characters, which never stand in generated code (`repr` escapes them in strings).
_OPEN, _MIDDLE, _CLOSE = "\x01", "\x02", "\x03"
_MARKS = re.compile(f"({_OPEN}[0-9]+,[0-9]+{_MIDDLE}|{_CLOSE})")


class Span(NamedTuple):
    """Where a file's expression lies in a generated line: from byte ``start`` to ``end`` (as
    Python counts columns, in UTF-8), standing for the file's ``line`` and ``column``."""

    start: int
    end: int
    line: int
    column: int


def marked(code: str, where: Located) -> str:
    """``code``, the Python for the file's expression at ``where``, marked with its position."""
    return f"{_OPEN}{where.line},{where.column}{_MIDDLE}{code}{_CLOSE}"


def unmarked(text: str) -> tuple[str, list[Span]]:
    """``text`` without its marks, and the spans they marked (byte offsets in the text
    returned)."""
    if _OPEN not in text:
        return text, []
    size = len if text.isascii() else (lambda piece: len(piece.encode()))
    code: list[str] = []
    spans: list[Span] = []
    open_marks: list[tuple[int, int, int]] = []  # (start, line, column) of the marks not closed yet
    at = 0  # bytes of code so far
    for number, piece in enumerate(_MARKS.split(text)):
        if number % 2 == 0:  # code between marks
            code.append(piece)
            at += size(piece)
        elif piece == _CLOSE:
            start, line, column = open_marks.pop()
            spans.append(Span(start, at, line, column))
        else:
            line_text, column_text = piece[1:-1].split(",")
            open_marks.append((at, int(line_text), int(column_text)))
    return "".join(code), spans


def innermost(spans: list[Span], start: int, end: int) -> Span | None:
    """The smallest of ``spans`` that holds the bytes ``start`` to ``end``, if any."""
    holding = [span for span in spans if span.start <= start and end <= span.end]
    return min(holding, key=lambda span: span.end - span.start, default=None)


class Writer:
    """Collects generated lines, remembering which game-file position each one stands for.

    A rule is written into a writer of its own first, so that what it turned out to need (the
    fields it reads, the calls it hoists) can be written above it; `extend` then adds it.
    """

    def __init__(self, depth: int = 0) -> None:
        self.lines: list[str] = []
        self.positions: dict[int, tuple[int, int]] = {}  # index in `lines` -> (line, column)
        self.spans: dict[int, list[Span]] = {}  # index in `lines` -> its marked expressions
        self.depth = depth
        self.deepest = depth

    def emit(self, text: str, node: Located | None = None) -> None:
        """One line at the current depth, standing for `node`'s position if given (its marked
        expressions for theirs)."""
        code, spans = unmarked(text)
        indent = "    " * self.depth
        self.lines.append(indent + code)
        if spans:
            shift = len(indent)
            self.spans[len(self.lines) - 1] = [span._replace(start=span.start + shift, end=span.end + shift)
                                               for span in spans]
        if node is not None:
            self.positions[len(self.lines) - 1] = (node.line, node.column)

    def indent(self) -> None:
        """The lines that follow are one level deeper."""
        self.depth += 1
        self.deepest = max(self.deepest, self.depth)

    def dedent(self) -> None:
        """The lines that follow are one level less deep."""
        self.depth -= 1

    def shift(self) -> None:
        """Put every line written so far one level deeper (a body wrapped in a block)."""
        self.lines = ["    " + line for line in self.lines]
        self.spans = {index: [span._replace(start=span.start + 4, end=span.end + 4) for span in spans]
                      for index, spans in self.spans.items()}

    def extend(self, other: Writer) -> None:
        """Add the lines of `other` (already indented as they should be) after these."""
        offset = len(self.lines)
        self.lines.extend(other.lines)
        self.positions.update({offset + index: where for index, where in other.positions.items()})
        self.spans.update({offset + index: spans for index, spans in other.spans.items()})
        self.deepest = max(self.deepest, other.deepest)

    def text(self, start: int = 0) -> str:
        """The lines from `start` on, as source text."""
        return "".join(line + "\n" for line in self.lines[start:])

    def line_positions(self) -> dict[int, tuple[int, int]]:
        """Each 1-based generated line number that stands for a game-file position."""
        return {index + 1: where for index, where in self.positions.items()}

    def line_spans(self) -> dict[int, list[Span]]:
        """Each 1-based generated line number's marked expressions."""
        return {index + 1: spans for index, spans in self.spans.items()}
