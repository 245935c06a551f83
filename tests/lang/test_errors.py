"""Every syntax error of the parser and every mistake the checker reports: message, line, column.

Each case is a broken game and what `gdl.loads` must say about it, exactly where. A file with
several mistakes reports all of them (`GdlCheckError.errors`), in the order of the file.
"""

from __future__ import annotations

import pytest

import gdl
from gdl.errors import GdlCheckError, GdlError, GdlSyntaxError
from gdl.syntax_errors import EXAMPLES

# A valid game of ten lines; the cases add or change lines.
BASE = """game "t"
players A, B
state:
    n = 0
to_move = A
moves = [1]
result(m):
    n += m
terminal = n >= 2
utility = 0
"""

TABS = ("; the file indents some lines with tabs and others with spaces, which may look alike here (a tab counts as 8 "
        "spaces): indent with one or the other")
PLUS_PLUS = "`++` is not in the language: to add one, write `x += 1`; lists are joined by one `+`"


def with_result(body: str) -> str:
    """BASE with another result block (its statements start on line 8)."""
    return BASE.replace("    n += m\n", body)


def load_error(source: str) -> GdlError:
    with pytest.raises(GdlError) as caught:
        gdl.loads(source)
    return caught.value


# ---- syntax errors --------------------------------------------------------------------------

SYNTAX = [
    # a block must start on a new, indented line after `:`
    ("state:\nx = 1\n", "a block must start on a new, indented line after `:`", 2, 1),
    (BASE + "def f(x):\nreturn x\n", "a block must start on a new, indented line after `:`", 12, 1),
    (with_result("n = 1\n"), "a block must start on a new, indented line after `:`", 8, 1),
    ('game "t"\nplayers A, B\ntree:\nA -> 1\n', "a block must start on a new, indented line after `:`", 4, 1),
    # missing `:`
    (BASE.replace("state:", "state"), "missing `:` at the end of this line", 3, 6),
    (BASE.replace("result(m):", "result(m)"), "missing `:` at the end of this line", 7, 10),
    (BASE + "def f(x)\n    return x\n", "missing `:` at the end of this line", 11, 9),
    (with_result("    if n > 0\n        n = 1\n"), "missing `:` at the end of this line", 8, 13),
    (with_result("    for k in [1]\n        n = k\n"), "missing `:` at the end of this line", 8, 17),
    (with_result("    while n < 3\n        n += 1\n"), "missing `:` at the end of this line", 8, 16),
    # indentation
    (BASE + "x = 1\n    y = 2\n", "this line is indented more than the one before it, but only the lines after a `:` start a block (an expression may run on over several lines only inside brackets)", 12, 5),
    (with_result("    n = 1\n        n = 2\n"), "this line is indented more than the one before it, but only the lines after a `:` start a block (an expression may run on over several lines only inside brackets)", 9, 9),
    (BASE.replace("    n = 0\n", "    n = 0\n  k = 1\n"), "this line's indentation matches no enclosing block", 5, 3),
    (with_result("    if n > 0:\n        n = 1\n      n = 2\n"), "this line's indentation matches no enclosing block", 10, 7),
    # tabs among spaces: a tab counts as 8 spaces, which the eye does not see
    (BASE.replace("    n = 0\n", "    n = 0\n\tk = 1\n"), "this line is indented more than the one before it, but only the lines after a `:` start a block (an expression may run on over several lines only inside brackets)" + TABS, 5, 2),
    (BASE.replace("    n = 0\n", "\t\tn = 0\n\t k = 1\n"), "this line's indentation matches no enclosing block" + TABS, 5, 10),
    # a tab inside brackets is no indentation: no note
    (BASE.replace("moves = [1]", 'moves = [(1,\n\t"(", 2)][0:1]').replace("    n += m\n", "    n += 1\n  n += 2\n"), "this line's indentation matches no enclosing block", 10, 3),
    # missing expressions
    (BASE + "x = \n", "an expression is missing here", 11, 5),
    (BASE + "x = 1 +\n", "an expression is missing here", 11, 8),
    (BASE + "x = [1,,2]\n", "an expression is missing here", 11, 8),
    (BASE + "x = max(1,,2)\n", "an expression is missing here", 11, 11),
    (with_result("    n = \n"), "an expression is missing here", 8, 9),
    # `=` for `==`
    (BASE + "x = 1 if n = 2 else 3\n", "`=` gives a value; to compare, write `==`", 11, 12),
    (BASE + "x = [c for c in [1] if c = 1]\n", "`=` gives a value; to compare, write `==`", 11, 26),
    (with_result("    if n = 1:\n        n = 2\n"), "`=` gives a value; to compare, write `==`", 8, 10),
    (BASE + "state = 1\n", "`=` gives a value; to compare, write `==`", 11, 7),  # `state` is a keyword
    # `if` without `else`
    (BASE + "x = 1 if true\n", "an `if` expression needs an `else`: write `A if CONDITION else B`", 11, 14),
    (BASE + "x = max(1 if true)\n", "an `if` expression needs an `else`: write `A if CONDITION else B`", 11, 18),
    # brackets never closed: the caret is under the bracket
    (BASE + "x = (1, 2\n", "this bracket is never closed", 11, 5),
    (BASE + "x = [1, 2\n", "this bracket is never closed", 11, 5),
    (BASE + "x = max(1\n", "this bracket is never closed", 11, 8),
    (BASE + "x = {1: 2\n", "this bracket is never closed", 11, 5),
    (BASE + "x = max((1, 2\n", "this bracket is never closed", 11, 9),
    (BASE + 'x = "(" + [1, # (\n  2\n', "this bracket is never closed", 11, 11),
    # ... the last line of the file, whose inner brackets are closed: the outer one (the end of
    # the file was taken for the last token, `]`, so the brackets before it were counted)
    (BASE + "x = max(1, [2, 3]", "this bracket is never closed", 11, 8),
    (BASE + "x = [1, (2, 3)\n", "this bracket is never closed", 11, 5),
    # two expressions in a row
    (BASE + "x = 1 2\n", "two expressions in a row: is an operator or a comma missing?", 11, 7),
    (BASE + "x = n n\n", "two expressions in a row: is an operator or a comma missing?", 11, 7),
    (BASE + "x = [1 2]\n", "two expressions in a row: is an operator or a comma missing?", 11, 8),
    (BASE + "x = max(n 2)\n", "two expressions in a row: is an operator or a comma missing?", 11, 11),
    # a name is needed
    (BASE.replace("players A, B", "players"), "expected a name here", 2, 8),
    (BASE + "def (x) = 1\n", "expected a name here", 11, 5),
    (BASE + "param = 1\n", "expected a name here", 11, 7),
    # characters and strings
    (BASE + "x = 'a'\n", 'strings are written in double quotes: "like this"', 11, 5),
    (BASE + "x = 1 $ 2\n", "unexpected character `$`", 11, 7),
    (BASE + "x = n.y\n", "unexpected character `.`", 11, 6),
    (BASE + "x = n;\n", "`;` is not in the language: write one statement a line, a line ending each", 11, 6),
    # what other languages write with a character, this one writes as a word
    (BASE + "x = n > 0 && n < 2\n", "`&` is not in the language: conditions are joined by the word `and` (`A and B`)", 11, 11),
    (BASE + "x = n > 0 || n < 2\n", "`|` is not in the language: conditions are joined by the word `or` (`A or B`), sets by `+`", 11, 11),
    (BASE + "x = !(n > 0)\n", "`!` is not in the language: a condition is negated by the word `not` (`not A`; `!=` is not equal)", 11, 5),
    (BASE.replace("    n += m\n", "    n++\n"), PLUS_PLUS, 8, 6),
    (BASE.replace("    n += m\n", "    n = n++ + 1\n"), PLUS_PLUS, 8, 11),
    (BASE + "x = [1, 2] ++ [3]\n", PLUS_PLUS, 11, 13),
    (BASE.replace("    n += m\n", "    n--\n"), "`--` is not in the language: to take one away, write `x -= 1`", 8, 6),
    (BASE + "x = 1 if n => 2 else 0\n", "`=>` is not in the language: write `>=`", 11, 12),
    (BASE.replace("terminal = n >= 2", "terminal = n =< 2"), "`=<` is not in the language: write `<=`", 9, 14),
    # ... but a tree row's arrow written otherwise wants `->`, and a name wants a name
    ('game "t"\nplayers A, B\ntree:\n    A --> B, 1\n    B -> 2\n', "unexpected `-`; expected `->`", 4, 7),
    ('game "t"\nplayers A, B\ntree:\n    A => B, 1\n    B -> 2\n', "unexpected `=`; expected `->`", 4, 7),
    (BASE + "param => 1\n", "expected a name here", 11, 7),
    (BASE + "x = n + + 1\n", "unexpected `+`; expected a number, `false`, `{`, `(`, `[`, `-`, a name, a string, `true`", 11, 9),
    (BASE.replace("    n += m\n", "    if m == 1:\n        n += 1\n    else if m == 2:\n        n += 2\n"),
     "another branch of an `if` is written `elif CONDITION:` (not `else if`)", 10, 10),
    (BASE + 'x = "abc\n', "this string is never closed: a string ends on the line it starts on", 11, 5),
    # anything else: what was found, and what was expected
    (BASE + "x = )\n", "unexpected `)`; expected a number, `false`, `{`, `(`, `[`, `-`, a name, `not`, a string, `true`", 11, 5),
    (BASE.replace("players A, B", "players A,"), "unexpected end of the line; expected a name", 2, 11),
]


@pytest.mark.parametrize(("source", "message", "line", "column"), SYNTAX, ids=[f"{m[:40]}-{l}:{c}" for _, m, l, c in SYNTAX])
def test_syntax_error(source: str, message: str, line: int, column: int) -> None:
    error = load_error(source)
    assert isinstance(error, GdlSyntaxError)
    assert message in error.message
    assert (error.line, error.column) == (line, column)
    assert error.file == "<string>"
    assert error.source_line == source.splitlines()[line - 1]


def test_every_example_label_of_the_parser_has_a_case() -> None:
    labels = {message for _, message, _, _ in SYNTAX}
    assert set(EXAMPLES) <= labels


def test_the_parser_examples_give_their_own_label() -> None:
    for label, snippets in EXAMPLES.items():
        for snippet in snippets:
            error = load_error(snippet)
            assert isinstance(error, GdlSyntaxError) and error.message == label, snippet


def test_a_bad_parameter_value_is_a_syntax_error() -> None:
    with pytest.raises(GdlSyntaxError) as caught:
        gdl.parse_value("(1,")
    assert caught.value.message == "`(1,` is not a value written as in the language (e.g. 5, true, (3, 4, 5))"
    assert gdl.parse_value("-2") is not None


# ---- check errors: one mistake each ---------------------------------------------------------

TREE_HEAD = 'game "t"\nplayers A, B\ntree:\n'

CHECK = [
    # names declared twice or reserved
    (BASE + "n = 1\n", "`n` is defined twice: it is already a state field (line 4)", 11, 1),
    (BASE + "def A(x) = x\n", "`A` is defined twice: it is already a player (line 2)", 11, 5),
    (BASE + "symbols empty\n", "`empty` is a built-in symbol; choose another name", 11, 1),
    (BASE + "param chance = 1\n", "`chance` is a built-in symbol; choose another name", 11, 7),
    (BASE + "def len(x) = 1\n", "`len` is a built-in function; choose another name", 11, 5),
    (BASE + "__x = 1\n", "`__x`: names starting with `__` are reserved; choose another name", 11, 1),
    (BASE.replace("    n = 0\n", "    n = 0\n    __class__ = 1\n"), "`__class__`: names starting with `__` are reserved; choose another name", 5, 5),
    (with_result("    let __k = m\n    n += __k\n"), "`__k`: names starting with `__` are reserved; choose another name", 8, 9),
    (BASE + 'game "u"\n', "`game` is given twice (first at line 1)", 11, 1),
    (BASE + "players C, D\n", "`players` is given twice (first at line 2)", 11, 1),
    (BASE + "state:\n    k = 0\n", "`state` is given twice (first at line 3)", 11, 1),
    (BASE + "result(m):\n    n = 1\n", "`result` is given twice (first at line 7)", 11, 1),
    (TREE_HEAD + "    R -> 1\ntree:\n    S -> 2\n", "`tree` is given twice (first at line 3)", 5, 1),
    # required parts
    (BASE.replace("players A, B\n", "").replace("to_move = A", "to_move = chance"), "a game needs its players: add a line such as `players X, O`", 1, 1),
    ('game "t"\nplayers A, B\nto_move = A\nmoves = [1]\nterminal = true\nutility = 0\nresult(m):\n    let k = m\n', "a game needs a `state:` block listing its fields and their initial values", 1, 1),
    (BASE.replace("result(m):\n    n += m\n", ""), "a game needs a `result(move):` block saying how a move changes the state", 1, 1),
    (BASE.replace("to_move = A\n", ""), "a game needs `to_move = ...`: the player whose turn it is", 1, 1),
    (BASE.replace("moves = [1]\n", ""), "a game needs `moves = ...`: the list of legal moves", 1, 1),
    (BASE.replace("terminal = n >= 2\n", ""), "a game needs `terminal = ...`: whether the game is over", 1, 1),
    (BASE.replace("utility = 0\n", ""), "a game needs `utility = ...`: the first player's score in a terminal state", 1, 1),
    (BASE.replace("utility = 0\n", "def utility() = 0\n"), "`utility` must be a definition (`utility = ...`), not a function", 10, 5),
    (BASE + "def evaluation() = 0\n", "`evaluation` must be a definition (`evaluation = ...`), not a function", 11, 5),
    # tree tables
    (TREE_HEAD + "    R -> 1\nstate:\n    n = 0\n", "a game given as a `tree:` table defines its own `state`; remove this one", 5, 1),
    (TREE_HEAD + "    R -> 1\nmoves = [1]\n", "a game given as a `tree:` table defines its own `moves`; remove this one", 5, 1),
    (TREE_HEAD + "    R -> 1\nresult(m):\n    let k = m\n", "a game given as a `tree:` table defines its own `result`; remove this one", 5, 1),
    (TREE_HEAD + "    R -> X, 1\n    X -> 1\n    X -> Y\n    Y -> 2\n", "node `X` has two rows (first at line 5)", 6, 5),
    (TREE_HEAD + "    R -> X, Y\n    Y -> X, 3\n    X -> 1\n", "node `X` appears twice as a child; each node has one parent", 5, 10),
    (TREE_HEAD + "    R -> X, 1\n", "node `X` has no row of its own: give it children (`X -> ...`) or a value", 4, 10),
    (TREE_HEAD + "    R -> 1\n    S -> 2\n", "a tree needs exactly one root (a node that is nobody's child); found 2: R, S", 3, 1),
    (TREE_HEAD + "    R -> S\n    S -> R\n", "a tree needs a root, a node that is nobody's child, but every node of "
     "this one is a child: its rows form a cycle (R -> S -> R)", 3, 1),
    # the cycle found by going up from a node below it (X's row has only leaves)
    (TREE_HEAD + "    X -> 3, 4\n    A -> B, 3\n    B -> C, X\n    C -> A, 2\n", "a tree needs a root, a node that is "
     "nobody's child, but every node of this one is a child: its rows form a cycle (B -> C -> A -> B)", 3, 1),
    (TREE_HEAD + "    R -> 5, X\n    X -> R1: 3, 4\n",
     "two nodes are called `R1` (a leaf without a name is called after its parent and position); rename the other node", 5, 10),
    (TREE_HEAD + "    R -> X, 5\n    X -> 1, R2: 3\n",
     "two nodes are called `R2` (a leaf without a name is called after its parent and position); rename the other node", 5, 13),
    (TREE_HEAD + "    R -> X: 3\n    X -> 1\n", "node `X` is a leaf but also has a row of its own; a node has children or a value, not both", 4, 10),
    # ... the same by a leaf's automatic name, said once (R1 was also said to be unreachable, on a cycle)
    (TREE_HEAD + "    R -> 1, 2\n    R1 -> 3\n", "node `R1` is a leaf (a leaf without a name is called after its parent and "
     "position) but also has a row of its own; a node has children or a value, not both", 4, 10),
    # special definitions and functions
    (BASE.replace("terminal = n >= 2", "terminal = n"), "`terminal` must be a boolean (whether the game is over), got an integer", 9, 12),
    (BASE.replace("utility = 0", "utility = A"), "`utility` must be a number (the first player's score in a terminal state), got a player", 10, 11),
    (BASE.replace("moves = [1]", "moves = 1"), "`moves` must be a list (the list of legal moves), got an integer", 6, 9),
    (BASE.replace("to_move = A", "to_move = 1"), "`to_move` must be a symbol (the player whose turn it is), got an integer", 5, 11),
    (BASE + "evaluation = true\n", "`evaluation` must be a number (the first player's heuristic score), got a boolean", 11, 14),
    (BASE + "display = 1\n", "`display` must be a string (the state drawn as text), got an integer", 11, 11),
    (BASE + "tier = n / 2\n", "`tier` must be an integer (an integer no move decreases, to solve the game tier by "
     "tier), got a number; `/` may leave a fraction, `//` divides to a whole number", 11, 8),
    (BASE + "tier = n * 1.5\n", "`tier` must be an integer (an integer no move decreases, to solve the game tier by "
     "tier), got a number", 11, 8),
    (BASE + "outcomes = 1\n", "`outcomes` must be a list (the list of (outcome, probability) pairs of a chance node), got an integer", 11, 12),
    (BASE + "symmetries = 1\n", "`symmetries` must be a list (the list of cell maps under which the game is unchanged), got an integer", 11, 14),
    (BASE + 'repetition = "draw"\n', "`repetition` must be a number (the first player's score when a position repeats), got a string", 11, 14),
    (BASE + 'move_name = "x"\n', "`move_name` must be a function of the move: `def move_name(m) = ...`", 11, 1),
    (BASE + 'def move_name(a, b) = "x"\n', "`move_name` takes 1 argument (the move), not 2", 11, 5),
    (BASE + "def move_name(m) = 1\n", "`move_name` must give a string, got an integer", 11, 5),
    # functions and statements
    (BASE + "def f(x):\n    if x > 0:\n        return 1\n", "function `f` can reach its end without a `return`", 11, 5),
    (with_result("    n += m\n    return 1\n"), "`return` belongs in a function; the result block changes the state instead", 9, 5),
    (BASE + "def f(x):\n    n = x\n    return x\n", "only the `result` block can change the state field `n`", 12, 5),
    (BASE + 'def f(x):\n    let s = "a"\n    s -= "b"\n    return s\n', "`-=` needs a number, but `s` holds a string", 13, 5),
    (BASE + 'def f(x):\n    let s = "a"\n    s += 1\n    return s\n', "the value added must be a string, got an integer", 13, 10),
    (with_result("    n -= (m, m)\n"), "the value taken away must be a number, got a tuple", 8, 10),
    (with_result("    n *= [m]\n"), "the factor must be a number, got a list", 8, 10),
    (with_result("    n = true\n"), "`n` holds an integer, but this is a boolean", 8, 9),
    (with_result("    utility = 1\n"), "`utility` is a definition and cannot be assigned; only state fields and `let` names can", 8, 5),
    (with_result("    A = 1\n"), "`A` is a player and cannot be assigned; only state fields and `let` names can", 8, 5),
    (with_result("    nn = 1\n"), "unknown name `nn`; did you mean `n`?", 8, 5),
    (with_result("    let n = 1\n"), "`n` is already a state field; choose another name for this local", 8, 9),
    (with_result("    let empty = 1\n    n += empty\n"), "`empty` is already a built-in symbol; choose another name for this local", 8, 9),
    (with_result("    let k = 1\n    let k = 2\n"), "`k` is already a local name here; choose another name", 9, 9),
    (BASE + "def f(x, x) = x\n", "`x` is already a local name here; choose another name", 11, 5),
    (with_result("    let (a, b) = (1, 2, 3)\n"), "this pattern has 2 names, but the tuple has 3 items", 8, 9),
    (with_result("    let (a, b) = 5\n"), "a pattern `(a, b)` unpacks a tuple, but this is an integer", 8, 9),
    (BASE.replace("result(m):\n    n += m", "result((a, b)):\n    n += a"), "a pattern `(a, b)` unpacks a tuple, but this is an integer", 7, 8),
    # kinds of conditions and operands
    (with_result("    if 1:\n        n = 1\n"), "an `if` condition must be a boolean, got an integer", 8, 8),
    (with_result("    while 1:\n        n = 1\n"), "a `while` condition must be a boolean, got an integer", 8, 11),
    (BASE + "x = 1 if 2 else 3\n", "an `if` condition must be a boolean, got an integer", 11, 10),
    (BASE + "x = [c for c in [1] if 1]\n", "a comprehension's `if` condition must be a boolean, got an integer", 11, 24),
    (BASE + 'x = -"a"\n', "the operand of `-` must be a number, got a string", 11, 6),
    (BASE + "x = not 1\n", "the operand of `not` must be a boolean, got an integer", 11, 9),
    (BASE + "x = 1 and true\n", "each side of `and` must be a boolean, got an integer", 11, 5),
    (BASE + "x = true or 1\n", "each side of `or` must be a boolean, got an integer", 11, 13),
    (BASE + 'x = "a" - 1\n', "`-` cannot combine a string and an integer", 11, 5),
    (BASE + "x = A + 1\n", "`+` cannot combine a player and an integer", 11, 5),
    (BASE + "x = true * 2\n", "`*` cannot combine a boolean and an integer", 11, 5),
    # comparisons
    (BASE + 'x = 1 == "a"\n', "comparing an integer with a string: `==` would always be false", 11, 5),
    (BASE + 'x = 1 != "a"\n', "comparing an integer with a string: `!=` would always be true", 11, 5),
    (BASE + "x = A == 1\n", "comparing a player with an integer: `==` would always be false", 11, 5),
    (BASE + "x = 1 in 5\n", "`in` needs a list, tuple, map or string on its right, got an integer", 11, 10),
    (BASE + "x = 1 not in true\n", "`not in` needs a list, tuple, map or string on its right, got a boolean", 11, 14),
    (BASE + 'x = "a" < 1\n', "`<` compares numbers (or strings), not a string and an integer", 11, 5),
    (BASE + "x = A >= B\n", "`>=` compares numbers (or strings), not a player and a player", 11, 5),
    # loops
    (BASE + "g = grid(2, 2, 0)\nx = [c for c in g]\n",
     "a grid is not a list: loop over `cells(board)` for its cells, or `list(board)` for its contents", 12, 17),
    (BASE + "x = [c for c in 5]\n", "cannot loop over an integer; a loop needs a list, tuple, map or string", 11, 17),
    (with_result("    for k in 3:\n        n = k\n"), "cannot loop over an integer; a loop needs a list, tuple, map or string", 8, 14),
    # indexing
    (BASE + "x = grid(2, 2, 0)[1]\n", "a grid is indexed by a cell (row, col), not by an integer", 11, 19),
    (BASE + 'x = [1, 2]["a"]\n', "a list index must be an integer, got a string", 11, 12),
    (BASE + "x = [1][0.5]\n", "a list index must be an integer, got a number", 11, 9),
    (BASE + 'x = (1, 2)["a"]\n', "a tuple index must be an integer, got a string", 11, 12),
    (BASE + "x = (1, 2)[5]\n", "this tuple has 2 items; index 5 is out of range", 11, 12),
    (BASE + 'x = {1: 2}["a"]\n', "this map's keys are integers, not strings", 11, 12),
    (BASE + 'x = "ab"["a"]\n', "a string index must be an integer, got a string", 11, 10),
    (BASE + "x = 5[0]\n", "an integer cannot be indexed with [...]", 11, 5),
    (BASE + "x = true[0]\n", "a boolean cannot be indexed with [...]", 11, 5),
    # names
    (BASE.replace("    n = 0\n", "    n = 0\n    k = n\n"), "`n` is a state field; it cannot be read here, before the game starts", 5, 9),
    (BASE + "param p = n\n", "`n` is a state field; it cannot be read here, before the game starts", 11, 11),
    (BASE + "d = 1\nparam p = d\n", "a parameter's default can only use numbers, symbols and other parameters, not `d`", 12, 11),
    (BASE + "def f(a) = a\nparam p = f(1)\n", "a parameter's default can only use numbers, symbols and other parameters, not `f`", 12, 11),
    (BASE + "x = len\n", "`len` is a function: call it, as in `len(...)`", 11, 5),
    (BASE + "def f(a) = a\nx = f\n", "`f` is a function: call it, as in `f(...)`", 12, 5),
    (BASE + "x = nn + 1\n", "unknown name `nn`; did you mean `n`?", 11, 5),
    (BASE + "x = zebra\n", "unknown name `zebra`", 11, 5),
    # calls
    (BASE + "def f(a) = a\nx = f(1, 2)\n", "`f` takes 1 argument, but 2 were given", 12, 5),
    (BASE + "def f(a, b) = a\nx = f(1)\n", "`f` takes 2 arguments, but 1 was given", 12, 5),
    (BASE + "x = len(1, 2)\n", "`len` takes 1 argument, but 2 were given: len(x)", 11, 5),
    (BASE + "x = grid(1)\n", "`grid` takes 3 arguments, but 1 was given: grid(rows, cols, fill)", 11, 5),
    (BASE + "x = range()\n", "`range` takes 1 to 3 arguments, but 0 were given: range(n), range(a, b) or range(a, b, step)", 11, 5),
    (BASE + "x = min()\n", "`min` takes at least 1 argument, but 0 were given: min(xs) or min(a, b, ...)", 11, 5),
    (BASE + 'x = range("a")\n', "argument 1 of `range` must be an integer, got a string: range(n), range(a, b) or range(a, b, step)", 11, 11),
    (BASE + "x = other(1)\n", "argument 1 of `other` must be a symbol, got an integer: other(p)", 11, 11),
    (BASE + "x = n(1)\n", "`n` is a state field, not a function", 11, 5),
    (BASE + "x = A(1)\n", "`A` is a player, not a function", 11, 5),
    (BASE + "x = lenn([1])\n", "unknown function `lenn`; did you mean `len`?", 11, 5),
    (BASE + "x = frobnicate(1)\n", "unknown function `frobnicate`", 11, 5),
    (BASE + "x = n == True\n", "unknown name `True`; the language writes `true`", 11, 10),
    (BASE + "x = None\n", "unknown name `None`; the language has no `None`: declare a symbol for it (`symbols none`)", 11, 5),
    # other() of a game that has not two players: found by the checker (it was found where it ran)
    (BASE.replace("players A, B", "players A, B, C").replace("utility = 0", "utility = (0, 0, 0)") + "x = other(A)\n",
     "other() is for two-player games; use next()", 11, 5),
    # dependencies
    (BASE + "a = b\nb = a\n", "`a` is defined in terms of itself: a -> b -> a", 11, 1),
    (BASE + "a = a + 1\n", "`a` is defined in terms of itself: a -> a", 11, 1),
    (BASE.replace("    n = 0\n", "    n = 0\n    k = d\n") + "d = n + 1\n", "the initial value of `k` reads the state (through `d`); use constants and parameters", 5, 5),
]


@pytest.mark.parametrize(("source", "message", "line", "column"), CHECK, ids=[f"{m[:40]}-{l}:{c}" for _, m, l, c in CHECK])
def test_check_error(source: str, message: str, line: int, column: int) -> None:
    error = load_error(source)
    assert isinstance(error, GdlCheckError), error
    assert [(e.message, e.line, e.column) for e in error.errors] == [(message, line, column)]
    assert (error.message, error.line, error.column) == (message, line, column)
    assert error.file == "<string>"
    assert error.source_line == source.splitlines()[line - 1]


# ---- several mistakes at once ---------------------------------------------------------------

SEVERAL = """game "Many mistakes"
players A, B
state:
    n = 0
to_move = A
moves = [1]
result(m):
    n += mm
terminal = n >= "two"
utility = 0
def f(x) = x
y = f(1, 2)
z = lenn(n)
n = 3
"""


def test_a_file_with_several_mistakes_reports_all_of_them_in_order() -> None:
    error = load_error(SEVERAL)
    assert isinstance(error, GdlCheckError)
    assert [(e.message, e.line, e.column) for e in error.errors] == [
        ("unknown name `mm`; did you mean `m`?", 8, 10),
        ("`>=` compares numbers (or strings), not an integer and a string", 9, 12),
        ("`f` takes 1 argument, but 2 were given", 12, 5),
        ("unknown function `lenn`; did you mean `len`?", 13, 5),
        ("`n` is defined twice: it is already a state field (line 4)", 14, 1),
    ]
    assert all(e.file == "<string>" for e in error.errors)
    assert (error.line, error.column) == (8, 10)  # the exception itself is the first mistake


def test_missing_parts_are_all_reported() -> None:
    error = load_error('game "Nothing"\n')
    assert isinstance(error, GdlCheckError)
    assert [e.message for e in error.errors] == [
        "a game needs its players: add a line such as `players X, O`",
        "a game needs a `state:` block listing its fields and their initial values",
        "a game needs a `result(move):` block saying how a move changes the state",
        "a game needs `to_move = ...`: the player whose turn it is",
        "a game needs `moves = ...`: the list of legal moves",
        "a game needs `terminal = ...`: whether the game is over",
        "a game needs `utility = ...`: the first player's score in a terminal state",
    ]
    assert {(e.line, e.column) for e in error.errors} == {(1, 1)}


def test_one_mistake_is_reported_once() -> None:
    error = load_error(BASE.replace("to_move = A\n", "def to_move() = A\n"))
    assert isinstance(error, GdlCheckError)
    assert [(e.message, e.line, e.column) for e in error.errors] == [
        ("`to_move` must be a definition (`to_move = ...`), not a function", 5, 5),
    ]


def test_a_leaf_named_after_its_parent_that_also_has_a_row_closes_a_cycle() -> None:
    # A's second child, the leaf 3, is called A2; A2's row makes A its child: A -> A2 -> A.
    error = load_error(TREE_HEAD + "    A -> B, 3\n    B -> 1, 2\n    A2 -> A, 5\n")
    assert isinstance(error, GdlCheckError)
    assert [(e.message, e.line, e.column) for e in error.errors] == [
        ("a tree needs a root, a node that is nobody's child, but every node of this one is a child: "
         "its rows form a cycle (A -> A2 -> A)", 3, 1),
        ("node `A2` is a leaf (a leaf without a name is called after its parent and position) but also "
         "has a row of its own; a node has children or a value, not both", 4, 13),
    ]


# ---- the format of messages -----------------------------------------------------------------


def test_format_gives_file_line_column_message_then_the_line_and_a_caret() -> None:
    error = load_error(BASE + "x = 1 + zebra\n")
    assert error.format() == (
        "<string>:11:9: error: unknown name `zebra`\n"
        "    x = 1 + zebra\n"
        "            ^"
    )
    assert str(error) == error.format()


def test_format_of_a_syntax_error() -> None:
    error = load_error(BASE + "x = 1 + 'a'\n")
    assert error.format() == '<string>:11:9: error: strings are written in double quotes: "like this"\n    x = 1 + \'a\'\n            ^'


def test_format_of_several_mistakes_lists_each_with_its_caret() -> None:
    error = load_error(SEVERAL)
    lines = error.format().splitlines()
    assert len(lines) == 15
    assert lines[0] == "<string>:8:10: error: unknown name `mm`; did you mean `m`?"
    assert lines[1:3] == ["        n += mm", "             ^"]
    assert lines[12:] == [
        "<string>:14:1: error: `n` is defined twice: it is already a state field (line 4)",
        "    n = 3",
        "    ^",
    ]


def test_a_caret_under_a_tab_indented_line_lines_up() -> None:
    error = load_error(BASE.replace("    n += m\n", "\tn += zz\n"))
    assert (error.line, error.column) == (8, 7)  # columns count characters: the tab is one
    assert error.format().splitlines()[1:] == [
        "    " + " " * 8 + "n += zz",
        "    " + " " * 8 + "     ^",
    ]


def test_a_long_line_is_shown_around_its_caret() -> None:
    """A line of hundreds of characters (a binary file given as a game printed 64 KB) is cut
    to 120 around the column, `...` marking each cut, the caret still under its character."""
    line = "x = " + "1 + " * 200 + "zz" + " + 1" * 200 + "\n"
    error = load_error(BASE + line)
    shown, caret = error.format().splitlines()[1:]
    assert shown.startswith("    ...") and shown.endswith("...")
    assert len(shown) == 4 + 3 + 120 + 3
    assert caret == " " * (len(caret) - 1) + "^"
    assert shown[len(caret) - 1:len(caret) + 1] == "zz"
    start = load_error(BASE + "x = zz" + " + 1" * 200 + "\n").format().splitlines()[1:]
    assert start == ["    x = zz" + (" + 1" * 200)[:114] + "...", "        ^"]


def test_errors_of_a_file_name_the_file(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "broken.gdl"
    path.write_text(BASE + "x = zebra\n")
    with pytest.raises(GdlCheckError) as caught:
        gdl.load(path)
    assert caught.value.file == str(path)
    assert caught.value.format().startswith(f"{path}:11:5: error: unknown name `zebra`\n")


def test_a_missing_file_is_a_gdl_error(tmp_path: object) -> None:
    from pathlib import Path

    path = Path(str(tmp_path)) / "nowhere.gdl"
    with pytest.raises(GdlError) as caught:
        gdl.load(path)
    assert caught.value.message == "cannot read the game file: No such file or directory"
    assert caught.value.format() == f"{path}: error: cannot read the game file: No such file or directory"


def test_every_error_is_a_gdl_error() -> None:
    for cls in (gdl.GdlSyntaxError, gdl.GdlCheckError, gdl.GdlParamError, gdl.GdlRuntimeError):
        assert issubclass(cls, gdl.GdlError)
