"""What a syntax error says the parser expected: every terminal of the grammar in words or as it
is typed, never as the regular expression that reads it."""

from __future__ import annotations

import re

import pytest
from lark.lexer import PatternRE

import gdl
from gdl.parser import _parser
from gdl.syntax_errors import describe_expected

# The names Lark gives the tokens its indenter and end of input make, which are no terminals of
# the grammar but appear in expected lists all the same.
MADE_BY_THE_PARSER = {"_INDENT", "_DEDENT", "$END"}


def all_terminals() -> list[str]:
    return sorted({terminal.name for terminal in _parser().terminals} | MADE_BY_THE_PARSER)


def typed_as_one_token(text: str) -> bool:
    """Whether some terminal of the grammar reads `text`, all of it, as one token."""
    return any(re.fullmatch(terminal.pattern.to_regexp(), text) for terminal in _parser().terminals)


def is_words(text: str) -> bool:
    return re.fullmatch(r"(a|an|the) [a-z ]+", text) is not None


@pytest.mark.parametrize("name", all_terminals())
def test_no_expected_list_shows_a_regular_expression(name: str) -> None:
    shown = describe_expected({name}, _parser())
    try:
        pattern = _parser().get_terminal(name).pattern
    except KeyError:
        pattern = None
    if isinstance(pattern, PatternRE):
        assert pattern.value not in shown
    # Each item is words ("a name") or something one can type, in backquotes, that a terminal
    # reads as one token.
    for item in shown.split(", "):
        if item.startswith("`"):
            assert item.endswith("`") and typed_as_one_token(item[1:-1]), (name, shown)
        elif name.startswith("__IGNORE"):
            assert item.replace(" ", "").isalnum(), (name, shown)  # skipped text, never expected
        else:
            assert is_words(item), (name, shown)


def test_an_expected_augmented_assignment_is_shown_as_typed() -> None:
    with pytest.raises(gdl.GdlSyntaxError) as caught:
        gdl.parse("result(m):\n    n\n")
    assert caught.value.message == "unexpected end of the line; expected `+=`, `-=`, `*=`, `=`, `[`"
    for operator in ("+=", "-=", "*="):
        gdl.parse(f"result(m):\n    n {operator} 1\n")  # what the message offers is accepted
