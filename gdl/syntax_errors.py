"""Syntax errors said as a person would: what Lark's parser reports, turned into a message
about the usual mistakes (a missing `:`, `=` for `==`, a bracket never closed), placed where the
mistake is."""

from __future__ import annotations

import re
from typing import Any

from lark import Lark, Token
from lark.exceptions import UnexpectedCharacters, UnexpectedEOF, UnexpectedInput
from lark.lexer import PatternStr

from gdl.errors import GdlError, GdlSyntaxError, Source

_NEVER_CLOSED = "this bracket is never closed"

# Characters other languages use where this one writes a word, or nothing.
_WORDS_FOR = {
    "&": "`&` is not in the language: conditions are joined by the word `and` (`A and B`)",
    "|": "`|` is not in the language: conditions are joined by the word `or` (`A or B`), sets by `+`",
    "!": "`!` is not in the language: a condition is negated by the word `not` (`not A`; `!=` is not equal)",
    ";": "`;` is not in the language: write one statement a line, a line ending each",
}

# What to say about the usual mistakes, each with broken snippets that make it: an error that
# fails where a snippet fails (same parser state, same token) gets the snippet's message.
EXAMPLES: dict[str, list[str]] = {
    "a block must start on a new, indented line after `:`": [
        "state:\nx = 1\n",
        "result(m):\nx = 1\n",
        "def f(x):\nreturn x\n",
        "tree:\nA -> 1\n",
    ],
    "missing `:` at the end of this line": [
        "state\n    x = 1\n",
        "result(m)\n    x = 1\n",
        "def f(x)\n    return x\n",
        "result(m):\n    if x\n        x = 1\n",
        "result(m):\n    for x in y\n        x = 1\n",
    ],
    "this line is indented more than the one before it, but only the lines after a `:` start a block (an expression may run on over several lines only inside brackets)": [
        "x = 1\n    y = 2\n",
        "result(m):\n    x = 1\n        y = 2\n",
    ],
    "an expression is missing here": [
        "x = \n",
        "x = 1 +\n",
        "x = (1, )\ny = [1,,2]\n",
        "x = f(1,,2)\n",
        "result(m):\n    x = \n",
    ],
    "`=` gives a value; to compare, write `==`": [
        "x = 1 if a = 2 else 3\n",
        "x = [c for c in y if c = 1]\n",
        "result(m):\n    if x = 1:\n        y = 2\n",
    ],
    "an `if` expression needs an `else`: write `A if CONDITION else B`": [
        "x = 1 if y\n",
        "x = f(1 if y)\n",
    ],
    _NEVER_CLOSED: [
        "x = (1, 2\n",
        "x = [1, 2\n",
        "x = f(1\n",
    ],
    "two expressions in a row: is an operator or a comma missing?": [
        "x = 1 2\n",
        "x = a b\n",
        "x = [1 2]\n",
        "x = f(a b)\n",
    ],
    "another branch of an `if` is written `elif CONDITION:` (not `else if`)": [
        "result(m):\n    if x:\n        y = 1\n    else if z:\n        y = 2\n",
    ],
    "expected a name here": [
        "players\n",
        "def (x) = 1\n",
        "param = 1\n",
    ],
}


_BRACKETS = re.compile(r'"(?:[^"\\\n]|\\.)*"|#[^\n]*|[()\[\]{}]')


def _unclosed_bracket(text: str) -> tuple[int, int] | None:
    """The line and column of the last bracket that is opened and never closed (strings and
    comments aside), or None."""
    opened: list[int] = []
    for match in _BRACKETS.finditer(text):
        found = match.group()
        if found in "([{":
            opened.append(match.start())
        elif found in ")]}" and opened:
            opened.pop()
    if not opened:
        return None
    offset = opened[-1]
    line_start = text.rfind("\n", 0, offset) + 1
    return text.count("\n", 0, offset) + 1, offset - line_start + 1


def _automaton_state(error: UnexpectedInput) -> Any:
    """The LALR state the parser failed in. (Lark's ParserState also compares the depth of its
    stack, which differs between the first declaration of a file and the others.)"""
    state = getattr(error, "state", None)
    return getattr(state, "position", state)


def _match_examples(error: UnexpectedInput, parser: Lark) -> str | None:
    """The label of the example that fails in the same parser state, expecting the same
    terminals, on a token of the same type."""
    token = getattr(error, "token", None)
    for label, snippets in EXAMPLES.items():
        for snippet in snippets:
            try:
                parser.parse(snippet, start="start")
            except UnexpectedInput as example:
                if _automaton_state(example) != _automaton_state(error):
                    continue
                accepts = getattr(example, "accepts", None)
                if accepts is not None and accepts != getattr(error, "accepts", accepts):
                    continue
                found = getattr(example, "token", None)
                if found is not None and token is not None and found.type == token.type:
                    return label
    return None


# The terminals a literal cannot show: each said in words. A terminal written as a regular
# expression must be here, or its regular expression would reach the message.
_IN_WORDS = {
    "NAME": "a name", "NUMBER": "a number", "DECIMAL": "a number", "STRING": "a string",
    "AUG_OP": "`+=`, `-=`, `*=`", "COMMENT": "a comment",
    "_NL": "the end of the line", "_INDENT": "an indented block", "_DEDENT": "the end of the block",
    "$END": "the end of the file",
}


def describe_terminal(name: str, parser: Lark) -> str:
    """A terminal of the grammar as a message shows it: a keyword or operator as written
    (`` `while` ``), anything else in words (a name, the end of the line)."""
    if name in _IN_WORDS:
        return _IN_WORDS[name]
    try:
        pattern = parser.get_terminal(name).pattern
    except KeyError:
        pattern = None
    if isinstance(pattern, PatternStr):
        return f"`{pattern.value}`"
    # A terminal that only Lark itself makes (a space skipped between tokens, say).
    return name.strip("_").lower().replace("_", " ")


def describe_expected(names: set[str], parser: Lark) -> str:
    """The terminals the parser would have accepted, as a list for a message."""
    return ", ".join(dict.fromkeys(describe_terminal(name, parser) for name in sorted(names)))


def _describe_token(token: Token) -> str:
    if token.type == "_NL":
        return "end of the line"
    if token.type == "_INDENT":
        return "indented line"
    if token.type == "_DEDENT":
        return "end of the block"
    if token.type == "$END":
        return "end of the file"
    return f"`{token}`"


def _expected(error: UnexpectedInput) -> set[str]:
    """The names of the terminals the parser would have accepted where it failed."""
    return set(getattr(error, "accepts", None) or getattr(error, "expected", None) or ())


def _wants_arrow(error: UnexpectedInput, parser: Lark) -> bool:
    """Whether the parser wanted a tree row's `->` where it failed."""
    return any(parser.get_terminal(name).pattern.value == "->" for name in _expected(error)
               if not name.startswith("$"))


def _syntax_message(error: UnexpectedInput, text: str, parser: Lark) -> str:
    if isinstance(error, UnexpectedCharacters):
        position = error.pos_in_stream or 0
        char = text[position] if position < len(text) else ""
        if char == "'":
            return "strings are written in double quotes: \"like this\""
        if char == '"':
            return "this string is never closed: a string ends on the line it starts on"
        if char in _WORDS_FOR:
            return _WORDS_FOR[char]
        if char in "$@!?&`~^|;\\":
            return f"unexpected character `{char}`: names are made of letters, digits and `_`"
        return f"unexpected character `{char}`"
    token = getattr(error, "token", None)
    if token is not None and token.type == "EQUAL" and token.start_pos is not None:
        written = text[token.start_pos:token.start_pos + 2]
        # `a => b` fails at its `=`, where a comparison could come (not where a name or a
        # tree row's `->` must).
        if written in _REVERSED_COMPARISONS and "MORETHAN" in _expected(error):
            return f"`{written}` is not in the language: write `{_REVERSED_COMPARISONS[written]}`"
    label = _match_examples(error, parser)
    if label:
        return label
    if token is not None and token.type == "$END" and _unclosed_bracket(text) is not None:
        return _NEVER_CLOSED
    if token is not None and token.type == "EQUAL" and not _wants_arrow(error, parser):  # `A = B` in a tree: no compare
        return "`=` gives a value; to compare, write `==`"
    if isinstance(error, UnexpectedEOF):
        return "the file ends in the middle of a declaration"
    expected = _expected(error)
    return _guess(token, expected, text) or (
        f"unexpected {_describe_token(token) if token is not None else 'this'}; "
        f"expected {describe_expected(expected, parser)}"
    )


_REVERSED_COMPARISONS = {"=>": ">=", "=<": "<="}
_LINE_ENDS = {"_NL", "$END", "RPAR", "RSQB", "RBRACE", "COMMA", "COLON"}
_STARTS_EXPRESSION = {"NAME", "NUMBER", "DECIMAL", "STRING", "LPAR", "LSQB", "LBRACE"}


def tabs_and_spaces(text: str) -> str:
    """A note for a mistake of indentation in a file that indents some lines with tabs and
    others with spaces, which may look alike; else nothing."""
    indents = []
    depth = 0  # brackets open: the lines inside them are not indented, they go on
    for line in text.splitlines():
        code = line.lstrip(" \t")
        if depth == 0 and code and not code.startswith("#"):
            indents.append(line[:len(line) - len(code)])
        depth = max(0, depth + _bracket_change(code))
    if any("\t" in indent for indent in indents) and any(" " in indent for indent in indents):
        return ("; the file indents some lines with tabs and others with spaces, which may look alike here "
                "(a tab counts as 8 spaces): indent with one or the other")
    return ""


def _bracket_change(code: str) -> int:
    """Brackets a line opens less those it closes, outside its strings and its comment."""
    change = 0
    quoted = escaped = False
    for ch in code:
        if quoted:
            escaped, quoted = (not escaped and ch == "\\"), quoted and (escaped or ch != '"')
        elif ch == '"':
            quoted = True
        elif ch == "#":
            break
        else:
            change += (ch in "([{") - (ch in ")]}")
    return change


def _guess(token: Token | None, expected: set[str], text: str) -> str | None:
    """A message for the usual mistakes, told apart by what the parser expected to see."""
    if token is None:
        return None
    kind = token.type
    if kind in ("_NL", "$END") and "COLON" in expected:
        return "missing `:` at the end of this line"
    if "ELSE" in expected and kind in _LINE_ENDS:
        return "an `if` expression needs an `else`: write `A if CONDITION else B`"
    if "_INDENT" in expected and kind != "_INDENT":
        return "a block must start on a new, indented line after `:`"
    # `n++` fails at its first `+`, `n++ + 1` and `[1] ++ [2]` at their second: look both ways.
    if kind == "PLUS" and token.start_pos is not None and "++" in text[max(0, token.start_pos - 1):token.start_pos + 2]:
        return "`++` is not in the language: to add one, write `x += 1`; lists are joined by one `+`"
    # `n--` as a statement fails at its first `-`, where `=` or `-=` could come (`n - -1` is
    # an expression, and parses; a tree row's `A --> B` wants `->`).
    if kind == "MINUS" and "AUG_OP" in expected and text[token.start_pos or 0:(token.start_pos or 0) + 2] == "--":
        return "`--` is not in the language: to take one away, write `x -= 1`"
    if kind == "_INDENT":
        return ("this line is indented more than the one before it, but only the lines after a `:` start a block "
                "(an expression may run on over several lines only inside brackets)" + tabs_and_spaces(text))
    before = text[: token.start_pos] if token.start_pos is not None else text
    if _unclosed_bracket(before) is not None and before.rstrip(" \t").endswith("\n"):
        return _NEVER_CLOSED
    if kind in _STARTS_EXPRESSION and expected & {"PLUS", "STAR", "OR", "AND"}:
        return "two expressions in a row: is an operator or a comma missing?"
    return None


def _error_position(error: UnexpectedInput, source: Source) -> tuple[int, int]:
    line, column = error.line, error.column
    token = getattr(error, "token", None)
    if token is not None and token.type == "_INDENT" and token.end_line is not None:
        # An unexpected indent: point at the first character of the indented line.
        line, column = token.end_line, token.end_column
    elif token is not None and token.type in ("_NL", "_DEDENT"):
        # A newline token starts at the end of the previous line: point there.
        line, column = token.line, token.column
    if line is None or line < 1:
        line = max(1, len(source.lines))
        column = len(source.line(line) or "") + 1
    return line, max(1, column or 1)


def syntax_error(error: UnexpectedInput, text: str, source: Source, parser: Lark) -> GdlError:
    """The GdlSyntaxError to raise for Lark's `error` in parsing `text` (the file's text as
    parsed) with `parser`: a friendly message, placed where the mistake is."""
    line, column = _error_position(error, source)
    message = _syntax_message(error, text, parser)
    if message == _NEVER_CLOSED:
        token = getattr(error, "token", None)
        # Lark places the end of the file at the last token: the brackets to count are all.
        end = None if token is None or token.type == "$END" else token.start_pos
        upto = text if end is None else text[:end]
        line, column = _unclosed_bracket(upto) or (line, column)
    return source.error(GdlSyntaxError, message, line, column)
