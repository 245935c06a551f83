"""The errors of gdl: one tree rooted at `GdlError`, each carrying file, line, column and message."""

from __future__ import annotations

from typing import Iterable


class GdlError(Exception):
    """A mistake in a game file or in its use, with where it happened."""

    def __init__(
        self,
        message: str,
        *,
        file: str | None = None,
        line: int | None = None,
        column: int | None = None,
        source_line: str | None = None,
    ) -> None:
        super().__init__(message)
        self.message = message
        self.file = file
        self.line = line
        self.column = column
        self.source_line = source_line

    def __str__(self) -> str:
        return self.format()

    def location(self) -> str:
        """`FILE:LINE:COL` (as much of it as is known)."""
        parts = [self.file or "<game>"]
        if self.line is not None:
            parts.append(str(self.line))
            if self.column is not None:
                parts.append(str(self.column))
        return ":".join(parts)

    def format(self) -> str:
        """The message as `FILE:LINE:COL: error: MESSAGE`, then the source line and a caret."""
        text = f"{self.location()}: error: {self.message}"
        if self.source_line is not None and self.column is not None:
            line = self.source_line.rstrip("\r\n").expandtabs(8)
            # The caret goes under the column's character, tabs expanded as in the line.
            at = len(self.source_line[: self.column - 1].expandtabs(8))
            line, at = _around(line, at)
            text += f"\n    {line}\n    {' ' * at}^"
        return text


# Characters of a long source line shown around the column (a line of a minified or binary
# file may run to thousands).
_SHOWN = 120


def _around(line: str, at: int) -> tuple[str, int]:
    """A long ``line`` cut to ``_SHOWN`` characters around the place ``at``, with ``...`` for
    what was cut, and the place in what is shown."""
    if len(line) <= _SHOWN + 6:  # the marks of two cuts would make it no shorter
        return line, at
    start = min(max(0, at - _SHOWN // 2), len(line) - _SHOWN)
    end = start + _SHOWN
    head = "..." if start else ""
    return head + line[start:end] + ("..." if end < len(line) else ""), at - start + len(head)


class GdlSyntaxError(GdlError):
    """The file does not follow the grammar."""


class GdlCheckError(GdlError):
    """The file parses but breaks the rules of the language; `errors` lists every mistake found."""

    def __init__(self, errors: Iterable[GdlError]) -> None:
        self.errors = sorted(errors, key=lambda e: (e.line or 0, e.column or 0))
        first = self.errors[0]
        super().__init__(
            first.message,
            file=first.file,
            line=first.line,
            column=first.column,
            source_line=first.source_line,
        )

    def format(self) -> str:
        """Every mistake, each in the `FILE:LINE:COL: error: MESSAGE` form."""
        return "\n".join(GdlError.format(e) for e in self.errors)


class GdlParamError(GdlError):
    """A parameter given on the command line or from Python is unknown or of the wrong kind."""


class GdlRuntimeError(GdlError):
    """A rule of the game failed while the game was running (off the board, division by zero...)."""

    def __init__(self, message: str, *, state_text: str | None = None, other_state_text: str | None = None,
                 names_text: str | None = None, **where: object) -> None:
        super().__init__(message, **where)  # type: ignore[arg-type]
        self.state_text = state_text
        self.other_state_text = other_state_text  # a second state the message is about
        self.names_text = names_text  # the values of the local names the failing line reads, `m = 3` a line

    def format(self) -> str:
        """The located message, then the values of the names the failing line reads, and the
        state in which the rule failed (and the other)."""
        text = super().format()
        for heading, state_text in (("where", self.names_text), ("in the state", self.state_text),
                                    ("and the state", self.other_state_text)):
            if state_text:
                shown = "\n".join("    " + line for line in state_text.splitlines())
                text += f"\n{heading}:\n{shown}"
        return text


BYTE_ORDER_MARK = "\ufeff"
"""What some editors write at the start of a UTF-8 file; it is not part of the game."""


class Source:
    """A game file's name and text, to quote lines in messages.

    Lines are counted as the parser counts them: only `\n` ends a line (a form feed, U+2028 and
    the like do not), and a byte-order mark at the start is dropped.
    """

    def __init__(self, name: str, text: str) -> None:
        self.name = name
        self.text = text.removeprefix(BYTE_ORDER_MARK)
        self.lines = self.text.split("\n")
        if self.lines[-1] == "":
            self.lines.pop()  # the text ends with a newline: no line follows it

    def line(self, number: int) -> str | None:
        """The text of a 1-based line, or None past the end."""
        if 1 <= number <= len(self.lines):
            return self.lines[number - 1]
        return None

    def error(self, cls: type[GdlError], message: str, line: int, column: int) -> GdlError:
        """An error of class `cls` located in this source."""
        return cls(message, file=self.name, line=line, column=column, source_line=self.line(line))
