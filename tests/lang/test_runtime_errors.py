"""Rules that fail while the game runs: a GdlRuntimeError naming the file, the line and column
of what failed (the expression, or the statement), and the state it failed in; and failures while a game loads."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any, Callable

import pytest

import gdl
from gdl.errors import GdlError, GdlRuntimeError
from interpreter import symbol
from searchers import alphabeta
from searchers.perft import perft

A = symbol("A")

# A game of two fields; each case replaces one rule. Line numbers:
#  1 game, 2 players, 3 state:, 4 n, 5 board, 6 to_move, 7 moves, 8 result(m):, 9 the
#  result's first statement, then terminal and utility right after the result block.
GAME = """game "Failing"
players A, B
state:
    n = 0
    board = grid(2, 2, empty)
to_move = A
moves = {moves}
result(m):
{body}
terminal = {terminal}
utility = {utility}
{extra}"""

STATE_TEXT = "n = 0\nboard:\n. .\n. ."


def build(
    *, moves: str = "[0, 1]", body: str = "    n += 1", terminal: str = "n >= 3", utility: str = "0", extra: str = ""
) -> Any:
    return gdl.loads(GAME.format(moves=moves, body=body, terminal=terminal, utility=utility, extra=extra))


def start(game: Any) -> Any:
    return game.initial_state()


def run_error(game: Any, action: Callable[[Any], object]) -> GdlRuntimeError:
    with pytest.raises(GdlRuntimeError) as caught:
        action(game)
    return caught.value


def play(move: Any) -> Callable[[Any], object]:
    return lambda game: game.result(game.initial_state(), move)


CASES = [
    # (id, game, action, message, line, column, source line)
    (
        "cell off the board",
        dict(body="    board[m, 5] = A"),
        play(0),
        "cell (0, 5) is not on the 2x2 board", 9, 5, "    board[m, 5] = A",
    ),
    (
        "cell off the board, read",
        dict(terminal="board[2, 0] == empty"),
        lambda g: g.is_terminal(start(g)),
        "cell (2, 0) is not on the 2x2 board", 10, 12, "terminal = board[2, 0] == empty",
    ),
    (
        "division by zero",
        dict(body="    n = 1 / m"),
        play(0),
        "division by zero", 9, 9, "    n = 1 / m",
    ),
    (
        "floor division by zero",
        dict(body="    n = 7 // m"),
        play(0),
        "division by zero", 9, 9, "    n = 7 // m",
    ),
    (
        "modulo zero",
        dict(body="    n = 7 % m"),
        play(0),
        "division by zero", 9, 9, "    n = 7 % m",
    ),
    (
        "division by zero in the evaluation",
        dict(extra="evaluation = 1 / n\n"),
        lambda g: g.evaluate(start(g), "A"),
        "division by zero", 12, 14, "evaluation = 1 / n",
    ),
    (
        "no moves in a state that is not terminal",
        dict(moves="[]"),
        lambda g: g.actions(start(g)),
        "this state is not terminal, yet it has no moves (add a pass move, or end the game here)", 7, 1, "moves = []",
    ),
    (
        "utility that is a string",
        dict(terminal="true", utility='[1, "draw"][n + 1]'),
        lambda g: g.utility(start(g), "A"),
        "`utility` must be a number, got draw", 11, 1, 'utility = [1, "draw"][n + 1]',
    ),
    (
        "utility that is a boolean",
        dict(terminal="true", utility="[1, true][n + 1]"),
        lambda g: g.utility(start(g), "B"),
        "`utility` must be a number, got true", 11, 1, "utility = [1, true][n + 1]",
    ),
    (
        "while loop over the limit",
        dict(body="    while n >= 0:\n        n += 1"),
        play(0),
        "a `while` loop ran more than 100000 times", 9, 5, "    while n >= 0:",
    ),
    (
        "unbounded recursion",
        dict(body="    n = down(m)", extra="def down(k) = down(k + 1) - 1\n"),
        play(0),
        "functions called each other too deeply (is a recursion missing its base case?)", 12, 15,
        "def down(k) = down(k + 1) - 1",
    ),
    (
        "missing map key",
        dict(body="    n = {1: 10, 2: 20}[m]"),
        play(0),
        "the map has no key 0", 9, 9, "    n = {1: 10, 2: 20}[m]",
    ),
    (
        "list index out of range",
        dict(body="    n = [10, 20][m + 5]"),
        play(0),
        "an index is out of range", 9, 9, "    n = [10, 20][m + 5]",
    ),
    (
        "get without a default",
        dict(body="    n = get({1: 10}, m)"),
        play(0),
        "get() found nothing at 0; give a default: get(x, key, default)", 9, 9, "    n = get({1: 10}, m)",
    ),
    (
        "index of a missing item",
        dict(body="    n = index([5, 6], m)"),
        play(0),
        "0 is not in (5, 6)", 9, 9, "    n = index([5, 6], m)",
    ),
    (
        "min of an empty list",
        dict(body="    n = min([k for k in [m] if k > 5])"),
        play(0),
        "min() of an empty list", 9, 9, "    n = min([k for k in [m] if k > 5])",
    ),
    (
        "range with step zero",
        dict(body="    n = len(range(0, 5, m))"),
        play(0),
        "range() step must not be zero", 9, 13, "    n = len(range(0, 5, m))",
    ),
    (
        "directions other than 4 or 8",
        dict(body="    n = len(directions(m + 5))"),
        play(0),
        "directions() takes 4 or 8, got 5", 9, 13, "    n = len(directions(m + 5))",
    ),
    (
        "an exponent too large",
        dict(body="    n = 2 ** (m + 20000)"),
        play(0),
        "an exponent may be at most 10,000, not 20000", 9, 9, "    n = 2 ** (m + 20000)",
    ),
    (
        "too many tuples",
        dict(body="    n = len(product(range(10), m + 7))"),
        play(0),
        "product() would make 70,000,000 items, more than the 1,000,000 one value may have", 9, 13, "    n = len(product(range(10), m + 7))",
    ),
    (
        "a grid of no rows, at run time",
        dict(body="    board = grid(m, 2, empty)"),
        play(0),
        "a grid needs positive numbers of rows and columns, got 0 x 2", 9, 13, "    board = grid(m, 2, empty)",
    ),
    (
        "error() with the game's own message",
        dict(body='    n = m if m < 1 else error("move " + str(m) + " is not allowed here")'),
        play(1),
        "move 1 is not allowed here", 9, 25, '    n = m if m < 1 else error("move " + str(m) + " is not allowed here")',
    ),
    (
        "split() with an empty separator",
        dict(body='    n = len(split("ab", ""))'),
        play(0),
        "split() needs a separator of at least one character", 9, 13, '    n = len(split("ab", ""))',
    ),
    (
        "a pattern that does not fit",
        dict(moves="[(1, 2, 3), (1, 2)]", body="    let (a, b) = m\n    n = a + b"),
        play((1, 2, 3)),
        "a pattern does not fit the value it unpacks (too many values to unpack (expected 2))", 9, 5,
        "    let (a, b) = m",
    ),
    (
        "a value of the wrong kind",
        dict(body='    n = [1, "x"][m + 1] + 1'),
        play(0),
        "`+` cannot join a string and an integer", 9, 9,
        '    n = [1, "x"][m + 1] + 1',
    ),
    # Python's words for a mistake of kind, said in the language's (Python's were "'<' not
    # supported between instances of 'str' and 'int'" and the like)
    (
        "values of two kinds compared",
        dict(body='    n = min(m, "three")'),
        play(0),
        "a string and an integer cannot be compared (`<`)", 9, 9, '    n = min(m, "three")',
    ),
    (
        "an operator that does not take the kind",
        dict(body='    n = [1, "x"][m + 1] - 1'),
        play(0),
        "`-` cannot take a string and an integer", 9, 9, '    n = [1, "x"][m + 1] - 1',
    ),
    (
        "a loop over an integer",
        dict(body='    n = count(x for x in [1, "x"][m])'),
        play(0),
        "an integer holds no items to go through", 9, 15, '    n = count(x for x in [1, "x"][m])',
    ),
    (
        "a pattern over an integer",
        dict(body='    let (a, b) = [1, "x"][m]\n    n = a + b'),
        play(0),
        "a pattern does not fit the value it unpacks: an integer holds no items", 9, 5, '    let (a, b) = [1, "x"][m]',
    ),
]


@pytest.mark.parametrize(("game", "action", "message", "line", "column", "source_line"), [c[1:] for c in CASES], ids=[c[0] for c in CASES])
def test_rule_failure(game: dict[str, str], action: Callable[[Any], object], message: str, line: int, column: int, source_line: str) -> None:
    error = run_error(build(**game), action)
    assert (error.message, error.line, error.column) == (message, line, column)
    assert error.file == "<string>"
    assert error.source_line == source_line
    assert error.state_text == STATE_TEXT
    assert "Traceback" not in error.format()


# Rules that fail in one part of a line, and that part: the caret points at it (its place found
# here by its text in the line), not at the start of the statement.
FAILING_PARTS = [
    ("an index inside a sum", dict(body="    n = n + [10, 20][m + 5] * 2"), play(0), 9, "[10, 20][m + 5]"),
    ("after letters beyond ASCII", dict(body='    n = len("ééé") + [1][m + 5]'), play(0), 9, "[1][m + 5]"),
    ("in a function the rule calls", dict(body="    n = 2 + half(m)", extra="def half(x) = 3 + 1 / (x - 1)\n"),
     play(1), 12, "1 / (x - 1)"),
    ("in a comprehension", dict(moves="[k for k in [0, 1] if 10 // (k - n) > 0]"), lambda g: g.actions(start(g)), 7,
     "10 // (k - n)"),
    ("in a branch of a conditional", dict(terminal="n > 5 if n > 0 else [1][n + 3] == 1"),
     lambda g: g.is_terminal(start(g)), 10, "[1][n + 3]"),
    ("a call inside a call", dict(body="    n = len(range(0, 5, m)) + 1"), play(0), 9, "range(0, 5, m)"),
    ("a call computed once for a whole comprehension", dict(moves="[k for k in [0, 1] if k < get({1: 2}, n)]"),
     lambda g: g.actions(start(g)), 7, "get({1: 2}, n)"),
]


@pytest.mark.parametrize(("game", "action", "line", "part"), [c[1:] for c in FAILING_PARTS],
                         ids=[c[0] for c in FAILING_PARTS])
def test_the_caret_points_at_the_part_of_the_line_that_failed(game: dict[str, str], action: Callable[[Any], object],
                                                              line: int, part: str) -> None:
    error = run_error(build(**game), action)
    assert error.line == line and error.source_line is not None
    assert error.column == error.source_line.index(part) + 1
    assert error.format().splitlines()[2] == " " * (4 + error.source_line.index(part)) + "^"


def test_the_message_shows_where_and_in_which_state() -> None:
    error = run_error(build(body="    n += 1\n    board[n, n + 1] = A"), play(0))
    assert error.format() == (
        "<string>:10:5: error: cell (1, 2) is not on the 2x2 board\n"
        "        board[n, n + 1] = A\n"
        "        ^\n"
        "in the state:\n"
        "    n = 0\n"
        "    board:\n"
        "    . .\n"
        "    . ."
    )


def test_the_message_shows_the_local_names_the_failing_line_reads() -> None:
    """The move a result was given, a function's argument and a loop's variable, each with the
    value it had when the line failed; the state's fields (shown with the state) and names the
    line does not read are left out, and a long value is cut."""
    error = run_error(build(body="    let k = m + 1\n    n = [10, 20][m + n + 5]"), play(0))
    assert (error.message, error.names_text) == ("an index is out of range", "m = 0")
    # The caret points at the expression that failed (the indexing), not at the statement.
    assert error.format().startswith("<string>:10:9: error: an index is out of range\n"
                                     "        n = [10, 20][m + n + 5]\n            ^\nwhere:\n    m = 0\nin the state:\n")
    error = run_error(build(body="    n = half(m)", extra="def half(x) = 1 / (x - 1)\n"), play(1))
    assert (error.message, error.line, error.names_text) == ("division by zero", 12, "x = 1")
    error = run_error(build(moves="[10 // (i - 2 + n) for i in range(3)]"), lambda g: g.actions(start(g)))
    # From Python 3.12 on a list comprehension runs in its function's frame, and its variable is
    # gone from it once the error has left the comprehension.
    assert (error.message, error.names_text) == ("division by zero", "i = 2" if sys.version_info < (3, 12) else None)
    # A comprehension's `x` is not the `x` a loop before it left (2); `k` in a string is no
    # name; a string is shown in quotes.
    error = run_error(build(body='    for x in range(3):\n        n += x\n    let k = "ab"\n'
                                 '    n = [x * 2 for x in range(2)][len("k") + m + 5]'), play(0))
    assert (error.line, error.names_text) == (12, "m = 0")
    error = run_error(build(body='    let k = "ab"\n    n = [1][len(k) + m + 4]'), play(0))
    assert error.names_text == 'm = 0\nk = "ab"'
    error = run_error(build(body="    let t = range(1000000)\n    n = t[m + 2000000]"), play(0))
    assert error.names_text == "m = 0\nt = (a value of 1,000,000 items, too long to show)"  # never printed whole
    error = run_error(build(body="    let t = range(1000)\n    n = [1][m + 5]"), play(0))
    assert error.names_text == "m = 0"  # `t` is local too, but not on the failing line
    error = run_error(build(body="    let t = range(1000)\n    n = t[m + 2000]"), play(0))
    assert error.names_text is not None
    moved, long = error.names_text.split("\n")
    assert moved == "m = 0" and long.startswith("t = [0, 1, 2, ") and long.endswith("...") and len(long) == 4 + 200
    error = run_error(build(terminal="[1][n + 1] == 1"), lambda g: g.is_terminal(start(g)))
    assert error.names_text is None  # `n` is a field: shown with the state


def test_the_state_is_shown_with_the_game_display() -> None:
    game = build(body="    n = 1 / m", extra='display = "n is " + str(n)\n')
    error = run_error(game, play(0))
    assert error.state_text == "n is 0"
    assert error.format().endswith("in the state:\n    n is 0")


def test_the_state_is_shown_even_when_display_fails() -> None:
    game = build(body="    n = 1 / m", extra='display = str(1 / n)\n')
    error = run_error(game, play(0))
    assert error.state_text == STATE_TEXT


def test_a_failing_display_is_a_rule_error() -> None:
    game = build(extra="display = str(1 / n)\n")
    error = run_error(game, lambda g: g.display(start(g)))
    assert (error.message, error.line, error.column) == ("division by zero", 12, 15)  # at `1 / n`


def test_a_failing_to_move_is_a_rule_error() -> None:
    game = gdl.loads(GAME.format(moves="[0]", body="    n += 1", terminal="false", utility="0", extra="").replace("to_move = A", "to_move = [A][n]"))
    state = game.result(start(game), 0)
    error = run_error(game, lambda g: g.to_move(state))
    assert (error.message, error.line, error.column) == ("an index is out of range", 6, 11)
    assert error.state_text == "n = 1\nboard:\n. .\n. ."


def test_a_failing_move_name_is_a_rule_error() -> None:
    game = build(extra='def move_name(m) = "abc"[m + 5]\n')
    error = run_error(game, lambda g: g.format_move(0))
    assert (error.message, error.line, error.column) == ("an index is out of range", 12, 20)
    assert error.state_text is None


def test_rule_errors_reach_the_searchers_unchanged() -> None:
    game = build(body="    n += 1\n    board[n, 0] = A", terminal="n >= 5")
    with pytest.raises(GdlRuntimeError) as caught:
        perft(game, 3)
    assert (caught.value.message, caught.value.line) == ("cell (2, 0) is not on the 2x2 board", 10)
    assert caught.value.state_text == "n = 1\nboard:\n. .\nA ."  # the state the move was made in
    with pytest.raises(GdlRuntimeError):
        alphabeta(game)


def test_a_file_names_itself_in_rule_errors(tmp_path: Path) -> None:
    path = tmp_path / "failing.gdl"
    path.write_text(GAME.format(moves="[0]", body="    n = 1 / m", terminal="false", utility="0", extra=""))
    game = gdl.load(path)
    error = run_error(game, play(0))
    assert error.file == str(path)
    assert error.format().startswith(f"{path}:9:9: error: division by zero\n")


def test_asking_for_what_the_game_lacks() -> None:
    game = build()
    with pytest.raises(GdlError) as caught:
        game.evaluate(start(game), "A")
    assert caught.value.message == "<string>: the game has no `evaluation`, so a search cannot stop before the end"
    with pytest.raises(GdlError) as caught:
        game.chance_outcomes(start(game))
    assert caught.value.message == "<string>: the game has no `outcomes`"
    assert not game.has_evaluation and not game.has_chance and not game.is_chance(start(game))


# ---- failures while loading ------------------------------------------------------------------

LOAD = [
    (
        "a grid of no rows",
        GAME.format(moves="[0]", body="    n += 1", terminal="true", utility="0", extra="").replace("grid(2, 2, empty)", "grid(0, 3, empty)"),
        "a grid needs positive numbers of rows and columns, got 0 x 3", 5, 13,
    ),
    (
        "a grid of a negative size from a parameter",
        'param size = -1\n' + GAME.format(moves="[0]", body="    n += 1", terminal="true", utility="0", extra="").replace("grid(2, 2, empty)", "grid(size, size, empty)"),
        "a grid needs positive numbers of rows and columns, got -1 x -1", 6, 13,
    ),
    (
        "a failing constant",
        GAME.format(moves="[0]", body="    n += 1", terminal="true", utility="0", extra="table = [1, 2, 3][3]\n"),
        "an index is out of range", 12, 9,
    ),
    (
        "a failing parameter default",
        "param p = 1 // 0\n" + GAME.format(moves="[0]", body="    n += 1", terminal="true", utility="0", extra=""),
        "division by zero", 1, 11,
    ),
]


@pytest.mark.parametrize(("source", "message", "line", "column"), [c[1:] for c in LOAD], ids=[c[0] for c in LOAD])
def test_load_failure(source: str, message: str, line: int, column: int) -> None:
    with pytest.raises(GdlRuntimeError) as caught:
        gdl.loads(source)
    error = caught.value
    assert (error.message, error.line, error.column) == (message, line, column)
    assert error.source_line == source.splitlines()[line - 1]
    assert error.state_text is None  # no state exists yet
    assert "in the state" not in error.format()


def test_a_tictactoe_of_size_zero_fails_to_load() -> None:
    with pytest.raises(GdlRuntimeError) as caught:
        gdl.load("games/tictactoe.gdl", size=0)
    error = caught.value
    assert error.message == "a grid needs positive numbers of rows and columns, got 0 x 0"
    line = next(i for i, text in enumerate(open("games/tictactoe.gdl").read().splitlines(), 1) if "board = grid(" in text)
    assert (error.file, error.line, error.column) == ("games/tictactoe.gdl", line, 13)
    assert error.source_line == "    board = grid(size, size, empty)"


SPECIALS = [
    (
        "move_name reading the state",
        'def move_name(m) = str(m) + str(n)\n',
        "`move_name` must not read the state: it names a move on its own", 12, 5,
    ),
    (
        "symmetries reading the state",
        "symmetries = dihedral(2) if n == 0 else []\n",
        "`symmetries` must not depend on the state", 12, 1,
    ),
    (
        "symmetries that are not maps",
        "symmetries = [1, 2]\n",
        "each symmetry must be a map from cell to cell", 12, 1,
    ),
    (
        "symmetries of another board size",
        "symmetries = dihedral(3)\n",
        "a symmetry must map the 2x2 board's cells onto themselves", 12, 1,
    ),
    (
        "symmetries that are no permutation",
        "symmetries = [{(0, 0): (0, 0), (0, 1): (0, 0), (1, 0): (1, 0), (1, 1): (1, 1)}]\n",
        "a symmetry must map the 2x2 board's cells onto themselves", 12, 1,
    ),
]


@pytest.mark.parametrize(("extra", "message", "line", "column"), [c[1:] for c in SPECIALS], ids=[c[0] for c in SPECIALS])
def test_load_rejects_special_definitions_that_cannot_work(extra: str, message: str, line: int, column: int) -> None:
    with pytest.raises(GdlError) as caught:
        build(extra=extra)
    error = caught.value
    assert (error.message, error.line, error.column) == (message, line, column)
    assert error.file == "<string>"


def test_local_names_and_fields_that_hold_lists_are_shown_in_brackets() -> None:
    error = run_error(build(moves="[[1, 2]]", body="    let xs = [n, n + 1]\n    n = xs[m[0] + 5]"), play((1, 2)))
    assert error.names_text == "m = [1, 2]\nxs = [0, 1]"
    # A tuple stays a tuple: the cell a loop gives.
    error = run_error(build(body="    for c in [(0, 0)]:\n        n = 1 // (c[0] * m)"), play(0))
    assert error.names_text == "m = 0\nc = (0, 0)"
