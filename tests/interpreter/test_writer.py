"""The generated lines' marks: each expression's code carries its place in the file, and the
writer keeps where it lies in its line, in the bytes Python counts columns in."""

from __future__ import annotations

from pathlib import Path

from gdl import ast
from interpreter.writer import Span, Writer, innermost, marked, unmarked


def at(line: int, column: int) -> ast.Node:
    return ast.Node(line=line, column=column)


def test_nested_marks_give_each_expression_its_bytes_and_place() -> None:
    index = marked("xs[" + marked("n", at(3, 12)) + "]", at(3, 9))
    whole = marked("'é' + " + index, at(3, 5))
    code, spans = unmarked(whole)
    assert code == "'é' + xs[n]"
    # 'é' is two bytes in UTF-8: `xs[n]` starts at byte 7 (character 6).
    assert sorted(spans) == [Span(0, 12, 3, 5), Span(7, 12, 3, 9), Span(10, 11, 3, 12)]
    assert code.encode()[7:12] == b"xs[n]"
    assert innermost(spans, 7, 12) == Span(7, 12, 3, 9)
    assert innermost(spans, 10, 11) == Span(10, 11, 3, 12)
    assert innermost(spans, 0, 12) == Span(0, 12, 3, 5)
    assert innermost(spans, 0, 13) is None


def test_text_without_marks_is_left_alone() -> None:
    assert unmarked("a = 'b'") == ("a = 'b'", [])


def test_a_written_line_loses_its_marks_and_keeps_its_spans_past_its_indent() -> None:
    writer = Writer(1)
    writer.emit("return " + marked("1 / x", at(4, 7)), at(4, 1))
    writer.shift()  # wrapped in a block: one level deeper
    assert writer.lines == ["        return 1 / x"]
    assert writer.line_positions() == {1: (4, 1)}
    assert writer.line_spans() == {1: [Span(15, 20, 4, 7)]}
    outer = Writer()
    outer.emit("def f(x):")
    outer.extend(writer)
    assert outer.line_spans() == {2: [Span(15, 20, 4, 7)]}


def test_control_characters_of_a_comment_copied_into_the_code_are_not_taken_for_marks() -> None:
    import gdl
    from searchers.perft import perft

    text = Path("games/nim.gdl").read_text()
    odd = text.replace("\nto_move = mover\n", "\nto_move = mover  # odd \x01 chars \x03 here \x012,3\x02\n", 1)
    assert odd != text
    game, plain = gdl.loads(odd), gdl.loads(text)
    assert "\x01" not in game.generated_source and "\x03" not in game.generated_source
    # Nim (3, 4, 5): 12 first moves, the same game as without the comment.
    assert perft(game, 1) == perft(plain, 1) == 12
    assert perft(game, 3) == perft(plain, 3)
