"""Lines of generated Python, and the game-file position each one stands for."""

from __future__ import annotations

from gdl.model import Located


class Writer:
    """Collects generated lines, remembering which game-file position each one stands for.

    A rule is written into a writer of its own first, so that what it turned out to need (the
    fields it reads, the calls it hoists) can be written above it; `extend` then adds it.
    """

    def __init__(self, depth: int = 0) -> None:
        self.lines: list[str] = []
        self.positions: dict[int, tuple[int, int]] = {}  # index in `lines` -> (line, column)
        self.depth = depth
        self.deepest = depth

    def emit(self, text: str, node: Located | None = None) -> None:
        """One line at the current depth, standing for `node`'s position if given."""
        self.lines.append("    " * self.depth + text)
        if node is not None:
            self.positions[len(self.lines) - 1] = (node.line, node.column)

    def indent(self) -> None:
        """The lines that follow are one level deeper."""
        self.depth += 1
        self.deepest = max(self.deepest, self.depth)

    def dedent(self) -> None:
        """The lines that follow are one level less deep."""
        self.depth -= 1

    def extend(self, other: Writer) -> None:
        """Add the lines of `other` (already indented as they should be) after these."""
        offset = len(self.lines)
        self.lines.extend(other.lines)
        self.positions.update({offset + index: where for index, where in other.positions.items()})
        self.deepest = max(self.deepest, other.deepest)

    def text(self, start: int = 0) -> str:
        """The lines from `start` on, as source text."""
        return "".join(line + "\n" for line in self.lines[start:])

    def line_positions(self) -> dict[int, tuple[int, int]]:
        """Each 1-based generated line number that stands for a game-file position."""
        return {index + 1: where for index, where in self.positions.items()}
