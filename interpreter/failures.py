"""A rule that failed, told in the game's words: what the Python exception means
(``explain``), where in the file it happened (``failed_at``) and the values of the names the
failing line reads (``names_read``)."""

from __future__ import annotations

import re
from types import FrameType, TracebackType
from typing import Any

from gdl import model
from gdl.kinds import Kind
from gdl.model import CheckedGame
from gdl.values import RuleError, Symbol, TextBudget, cut_short, to_text
from interpreter.writer import Span, innermost


def explain(error: BaseException) -> str:
    """What a Python exception raised by compiled rules means, in the game's words."""
    if isinstance(error, RuleError):
        return str(error)
    if isinstance(error, ZeroDivisionError):
        return "division by zero"
    if isinstance(error, IndexError):
        return "an index is out of range"
    if isinstance(error, RecursionError):
        return "functions called each other too deeply (is a recursion missing its base case?)"
    if isinstance(error, ValueError) and "unpack" in str(error):
        return f"a pattern does not fit the value it unpacks ({error})"
    if isinstance(error, TypeError):
        words = _kind_mistake(str(error))
        if words is not None:
            return words
    if isinstance(error, (TypeError, ValueError, KeyError, AttributeError)):
        return f"a value of the wrong kind was used ({error})"
    return f"the rule failed ({type(error).__name__}: {error})"


# Python's words for the usual mistakes of kind, and the same in the language's words (the
# kinds named by `_KINDS`): what a person who wrote the game, not Python, can act on.
_KIND_MISTAKES = [
    (re.compile(r"'(\S+)' not supported between instances of '(\w+)' and '(\w+)'"),
     "{1} and {2} cannot be compared (`{0}`)"),
    (re.compile(r"unsupported operand type\(s\) for (\S+?): '(\w+)' and '(\w+)'"),
     "`{0}` cannot take {1} and {2}"),
    (re.compile(r'can only concatenate (\w+) \(not "(\w+)"\) to \w+'), "`+` cannot join {0} and {1}"),
    (re.compile(r"bad operand type for unary (\S+): '(\w+)'"), "`{0}` cannot take {1}"),
    (re.compile(r"cannot unpack non-iterable (\w+) object"), "a pattern does not fit the value it unpacks: {0} holds no items"),
    (re.compile(r"'(\w+)' object is not iterable"), "{0} holds no items to go through"),
    (re.compile(r"'(\w+)' object is not subscriptable"), "{0} has no items to index"),
    (re.compile(r"object of type '(\w+)' has no len\(\)"), "{0} has no length"),
]
_KINDS = {"int": "an integer", "bool": "a boolean", "str": "a string", "Symbol": "a symbol",
          "Fraction": "a fraction", "float": "a number", "tuple": "a list or tuple", "list": "a list",
          "Map": "a map", "dict": "a map", "Set": "a set", "frozenset": "a set", "NoneType": "nothing"}


def _kind_mistake(text: str) -> str | None:
    """A TypeError's message in the language's words, or None if it is not one of the usual."""
    for pattern, words in _KIND_MISTAKES:
        found = pattern.fullmatch(text)
        if found is not None:
            return words.format(*(_KINDS.get(part, "a grid" if part.startswith("Grid") else part)
                                  for part in found.groups()))
    return None


_WORD = re.compile(r"[A-Za-z_][A-Za-z_0-9]*")
_STRING = re.compile(r'"(?:[^"\\]|\\.)*"')
_BOUND = re.compile(r"\bfor\s+([A-Za-z_0-9,\s()]+?)\s+in\b")  # a comprehension's (or a loop's) names
_SHOWN = 200  # characters of a value shown in a message at most


def value_shown(value: Any, kind: Kind | None = None) -> str:
    """A value as a message shows a local name's: as the game prints it (a list in brackets,
    given its ``kind``), a string in quotes (a symbol without), cut to ``_SHOWN`` characters
    (a long one never printed whole)."""
    try:
        text = to_text(value, TextBudget(50 * _SHOWN, "a value shown"), kind)
    except RuleError:
        return f"(a value of {len(value):,} items, too long to show)" if hasattr(value, "__len__") \
            else "(a value too long to show)"
    if isinstance(value, str) and not isinstance(value, Symbol):
        text = '"' + text + '"'
    return cut_short(text, _SHOWN)


def local_kinds(checked: CheckedGame) -> dict[str, Kind]:
    """The kind of each local name of the file that has one kind wherever it is used."""
    roots: list[model.Node | model.Block] = [d.value for d in checked.definitions.values()]
    roots += [f.body for f in checked.functions.values()]
    if checked.result is not None:
        roots.append(checked.result.body)
    kinds: dict[str, set[Kind]] = {}
    for node in (n for root in roots for n in model.walk(root)):
        if isinstance(node, model.LocalRef):
            kinds.setdefault(node.local.name, set()).add(node.local.kind)
    return {name: next(iter(found)) for name, found in kinds.items() if len(found) == 1}


def failed_at(trace: TracebackType, spans: dict[int, list[Span]], positions: dict[int, tuple[int, int]]
              ) -> tuple[int, int]:
    """The file's position of the expression that failed on the generated line of ``trace``
    (the innermost of its ``spans`` around the part of the line Python ran last), or its
    statement's (``positions``: each generated line's)."""
    line_number = trace.tb_lineno
    code_positions = list(trace.tb_frame.f_code.co_positions())
    index = trace.tb_lasti // 2
    if 0 <= index < len(code_positions):
        first, last, start, end = code_positions[index]
        if first == last == line_number and start is not None and end is not None:
            span = innermost(spans.get(line_number, []), start, end)
            if span is not None:
                return span.line, span.column
    return positions[line_number]


def names_read(frame: FrameType, line: str, checked: CheckedGame, kinds: dict[str, Kind]) -> str | None:
    """The values of the local names (a move, a function's arguments, a loop's variable) that
    the failing ``line`` of the file reads, one a line, each shown as its kind in ``kinds``;
    the state's fields are shown with the state.  The compiled rules name a name `x` of the
    file `v_x`.  Words in strings are not names; nor, unless the rule failed inside the
    comprehension itself (its own frame, before Python 3.12), are the names a comprehension
    on the line binds: a local of the same name outside it would be shown for them."""
    code = _STRING.sub('""', line)
    read = set(_WORD.findall(code)) - {field.name for field in checked.fields}
    if not frame.f_code.co_name.startswith("<"):
        for bound in _BOUND.findall(code):
            read -= set(_WORD.findall(bound))
    shown = [f"{name[2:]} = {value_shown(value, kinds.get(name[2:]))}" for name, value in frame.f_locals.items()
             if name.startswith("v_") and name[2:] in read]
    return "\n".join(shown) or None
