"""The special names as a whole: `to_move` gives players, outcomes have numbers for
probabilities, a misspelled special name is found where it is, parameters use only the
parameters above them."""

from __future__ import annotations

from fractions import Fraction
from pathlib import Path

import pytest

import gdl
from gdl.errors import GdlCheckError, GdlParamError, GdlRuntimeError
from interpreter import Game
from searchers import alphabeta

# A valid game; line 6 is `to_move`, the cases change lines.
GAME = """game "Specials"
players A, B
symbols nobody
state:
    n = 0
to_move = A if n % 2 == 0 else B
moves = [1, 2]
result(m):
    n += m
terminal = n >= 3
utility = 1 if n == 3 else -1
"""


def check_errors(text: str) -> list[tuple[str, int, int]]:
    with pytest.raises(GdlCheckError) as caught:
        gdl.loads(text)
    return [(e.message, e.line or 0, e.column or 0) for e in caught.value.errors]


# ---- to_move ---------------------------------------------------------------------------------


@pytest.mark.parametrize("to_move", ["nobody", "A if n == 0 else nobody", "nobody if n == 1 else A if n == 0 else B"])
def test_to_move_giving_a_symbol_that_is_no_player_is_a_check_error(to_move: str) -> None:
    line = f"to_move = {to_move}"
    text = GAME.replace("to_move = A if n % 2 == 0 else B", line)
    column = line.index("nobody") + 1
    assert check_errors(text) == [("`to_move` gives `nobody`, which is not a player (the players: A, B)", 6, column)]


def test_to_move_giving_chance_needs_outcomes() -> None:
    text = GAME.replace("to_move = A if n % 2 == 0 else B", "to_move = chance if n == 1 else A")
    assert check_errors(text) == [("`to_move` gives `chance`, but the game has no `outcomes` saying what chance does", 6, 11)]


def test_to_move_whose_kind_the_checker_cannot_tell_is_checked_as_the_game_runs() -> None:
    # A list of a player and a symbol: its items are symbols, any of which may be a player.
    text = GAME.replace("to_move = A if n % 2 == 0 else B", "to_move = [A, B, nobody][n]")
    game = gdl.loads(text)
    state = game.initial_state()
    assert game.to_move(state) == "A"
    state = game.result(game.result(state, 1), 1)  # n = 2
    with pytest.raises(GdlRuntimeError) as caught:
        game.to_move(state)
    error = caught.value
    assert error.message == "`to_move` gave nobody, which is not a player (the players: A, B)"
    assert (error.line, error.column, error.source_line) == (6, 1, "to_move = [A, B, nobody][n]")
    with pytest.raises(GdlRuntimeError):
        alphabeta(game)  # the searchers meet it too, instead of taking nobody for B


@pytest.mark.parametrize("path", sorted(str(p) for p in Path("games").glob("*.gdl")))
def test_the_bundled_games_to_move_is_proven_so_it_is_not_wrapped(path: str) -> None:
    game = gdl.load(path)
    assert isinstance(game, Game) and game.checked.to_move_proven
    assert game._to_move is game._names["d_to_move"]  # the compiled rule itself: no cost per node


# ---- outcomes --------------------------------------------------------------------------------

CHANCE_GAME = """game "Coin"
players A, B
state:
    n = 0
    tossing = true
to_move = chance if tossing else A
outcomes = {outcomes}
moves = [0]
result(m):
    n += m
    tossing = false
terminal = not tossing
utility = n
{extra}"""


def test_a_boolean_probability_is_a_check_error() -> None:
    text = CHANCE_GAME.format(outcomes="[(1, true), (0, false)]", extra="")
    assert check_errors(text) == [("each probability in `outcomes` must be a number, got a boolean", 7, 12)]


def test_a_boolean_probability_the_checker_cannot_see_is_a_rule_error() -> None:
    # `chances` mixes a boolean and a number: its items are of no one kind.  Dice that read no
    # state are checked as the game loads.
    text = CHANCE_GAME.format(outcomes="[(1, chances[0]), (0, chances[1])]", extra="chances = [true, 0]\n")
    with pytest.raises(GdlRuntimeError) as caught:
        gdl.loads(text)
    assert caught.value.message == "the probability of the outcome 1 must be a number, not true"
    assert caught.value.line == 7


def test_number_probabilities_still_work() -> None:
    game = gdl.loads(CHANCE_GAME.format(outcomes="[(1, 1/4), (0, 3/4)]", extra=""))
    assert game.chance_outcomes(game.initial_state()) == ((1, Fraction(1, 4)), (0, Fraction(3, 4)))


# ---- misspelled special names ----------------------------------------------------------------

MISSPELLED = [
    # (the line as written, the special name it stands for, what the message adds)
    ("termnial = n >= 3", "terminal", "a game needs `terminal = ...`: whether the game is over"),
    ("utilty = 1 if n == 3 else -1", "utility", "a game needs `utility = ...`: the first player's score in a terminal state"),
    ("move = [1, 2]", "moves", "a game needs `moves = ...`: the list of legal moves"),
    ("tomove = A if n % 2 == 0 else B", "to_move", "a game needs `to_move = ...`: the player whose turn it is"),
]


@pytest.mark.parametrize(("line", "special", "needed"), MISSPELLED, ids=[m[1] for m in MISSPELLED])
def test_a_misspelled_required_definition_is_reported_where_it_is(line: str, special: str, needed: str) -> None:
    original = next(l for l in GAME.split("\n") if l.startswith(special + " = "))
    text = GAME.replace(original, line)
    number = text.split("\n").index(line) + 1
    wrong = line.split(" = ")[0]
    assert check_errors(text) == [(f"`{wrong}` is never used; did you mean `{special}`? ({needed})", number, 1)]


OPTIONAL = [
    ("evalution = 0", "evaluation", "the first player's heuristic score"),
    ("displya = str(n)", "display", "the state drawn as text"),
    ("symetries = []", "symmetries", "the list of cell maps under which the game is unchanged"),
    ("repitition = 0", "repetition", "the first player's score when a position repeats"),
    ("outcome = [(1, 1)]", "outcomes", "the list of (outcome, probability) pairs of a chance node"),
    ("def move_nmae(m) = str(m)", "move_name", "how a move is printed"),
]


@pytest.mark.parametrize(("line", "special", "meaning"), OPTIONAL, ids=[m[1] for m in OPTIONAL])
def test_a_misspelled_optional_special_name_never_used_is_reported_where_it_is(line: str, special: str, meaning: str) -> None:
    text = GAME + line + "\n"
    wrong = line.removeprefix("def ").split(" = ")[0].split("(")[0]
    column = 5 if line.startswith("def ") else 1
    assert check_errors(text) == [(f"`{wrong}` is never used; did you mean `{special}`? ({meaning})", 12, column)]


@pytest.mark.parametrize(
    "extra",
    [
        "evalution = 0\nscore = evalution + 1",  # close, but used
        "display_row = str(n)",  # not close enough to be a typo
        "evalution = 0\nevaluation = 1",  # the special name is there too
        "mover = A",  # close to `moves`, which is defined
    ],
)
def test_names_that_are_no_misspelling_are_left_alone(extra: str) -> None:
    game = gdl.loads(GAME + extra + "\n")
    assert game.actions(game.initial_state()) == (1, 2)


def test_without_a_close_name_a_missing_definition_is_reported_at_the_start() -> None:
    text = GAME.replace("terminal = n >= 3\n", "")
    assert check_errors(text) == [("a game needs `terminal = ...`: whether the game is over", 1, 1)]


# ---- parameters in the order of the file -----------------------------------------------------


def test_a_parameter_that_uses_one_declared_below_it_is_a_check_error() -> None:
    text = "param total = rows * 2\nparam rows = 3\n" + GAME
    assert check_errors(text) == [
        ("parameter `rows` is declared below `total` (line 2); a parameter's value can use only the parameters above it", 1, 15),
    ]


def test_a_parameter_that_uses_itself_is_a_check_error() -> None:
    assert check_errors("param k = k + 1\n" + GAME) == [("the value of parameter `k` cannot use `k` itself", 1, 11)]


def test_parameters_above_are_used_with_their_overridden_values() -> None:
    text = "param rows = 3\nparam total = rows * 2\n" + GAME.replace("n >= 3", "n >= total")
    assert gdl.loads(text, rows=5).params == {"rows": 5, "total": 10}
    with pytest.raises(GdlParamError) as caught:
        gdl.loads(text, rows=gdl.parse_value("total"))
    assert caught.value.message == (
        "the value given for parameter `rows` is not valid: parameter `total` is declared below `rows` (line 2); "
        "a parameter's value can use only the parameters above it"
    )


# ---- rules that must not read the state ----------------------------------------------------------


def test_special_rules_that_read_the_state_are_check_errors_reported_with_the_others() -> None:
    text = GAME + "def move_name(m) = str(m + n)\nsymmetries = dihedral(2) if n == 0 else []\nz = unknown\n"
    assert check_errors(text) == [
        ("`move_name` must not read the state: it names a move on its own", 12, 5),
        ("`symmetries` must not depend on the state", 13, 1),
        ("unknown name `unknown`", 14, 5),
    ]


def test_symmetries_for_another_board_size_are_a_check_error_when_the_sizes_are_parameters() -> None:
    text = GAME.replace("    n = 0\n", "    n = 0\n    board = grid(size, size, empty)\n") + "param size = 3\nsymmetries = SYMMETRIES\n"
    for other in ("dihedral(4)", "mirror(size, 2)"):
        assert check_errors(text.replace("SYMMETRIES", other)) == [
            ("a symmetry must map the 3x3 board's cells onto themselves", 14, 1),
        ]
    game = gdl.loads(text.replace("SYMMETRIES", "dihedral(size)"), size=5)  # the same size: fine
    assert game.has_symmetries


# ---- payoffs of every player ---------------------------------------------------------------------

# A valid three-player game; line 12 is `utility`, the cases change it.
THREE = """game "Payoffs"
players A, B, C
symbols nobody
state:
    n = 0
    mover = A
to_move = mover
moves = [1, 2]
result(m):
    n += m
    mover = next(mover)
utility = (1, 0, 0)
terminal = n >= 4
"""


def three(utility: str, extra: str = "") -> str:
    return THREE.replace("utility = (1, 0, 0)", utility) + extra


def located(text: str, snippet: str, line: int = 12) -> tuple[int, int]:
    return line, text.splitlines()[line - 1].index(snippet) + 1


@pytest.mark.parametrize("utility, snippet, message", [
    ("utility = (1, 0, 0) if n == 4 else {A: 0, B: 1, C: 0}", "{A: 0",
     "`utility` gives a map of payoffs here, but it gives a tuple of payoffs at line 12, column 11: give every payoff the same way"),
    ("utility = {A: 1, B: 0, C: 0} if n == 4 else 2", "2",
     "with 3 players, `utility` gives each player's payoff: a tuple in player order such as (1, 0, 0) or a map such as {A: 1, B: 0, C: 0}, not one number"),
    ("utility = (1, 0)", "(1, 0)", "a tuple of payoffs has one number for each player (A, B, C): 3 items, not 2"),
    ("utility = {A: 1, B: 0, nobody: 0}", "{A", "`nobody` is not a player (the players: A, B, C)"),
    ("utility = {A: 1, B: 0}", "{A", "the map of payoffs gives no payoff to C: give every player a payoff"),
    ("utility = (1, true, 0)", "(1", "each payoff in the tuple must be a number, got a boolean"),
])
def test_payoffs_of_the_wrong_form_are_check_errors_where_they_are(utility: str, snippet: str, message: str) -> None:
    text = three(utility)
    assert check_errors(text) == [(message, *located(text, snippet))]


def test_the_evaluation_must_give_payoffs_as_the_utility_does() -> None:
    text = three("utility = (1, 0, 0)", "evaluation = {A: 0, B: 0, C: 0}\n")
    assert check_errors(text) == [(
        "`evaluation` gives a map of payoffs here, but `utility` gives a tuple of payoffs at line 12, column 11: "
        "give every payoff the same way", 14, 14)]


@pytest.mark.parametrize("utility", ["utility = (n, 0, 4 - n)", "utility = {A: n, B: 0, C: 4 - n}",
                                     "utility = {p: n if p == A else 0 for p in [A, B, C]}"])
def test_tuples_and_maps_give_each_players_own_payoff(utility: str) -> None:
    game = gdl.loads(three(utility))
    state = game.result(game.result(game.initial_state(), 2), 2)
    assert game.is_terminal(state) and not game.zero_sum
    assert game.utility(state, "A") == 4 and game.utility(state, "B") == 0
    assert game.utility(state, "C") == 0


def test_a_map_the_checker_cannot_see_is_checked_as_the_game_runs() -> None:
    game = gdl.loads(three("utility = {p: 1 for p in [A, B, C] if p != mover}"))
    state = game.result(game.result(game.initial_state(), 2), 2)
    with pytest.raises(GdlRuntimeError, match="`utility` gives no payoff to C"):
        game.utility(state, "A")


def test_two_players_may_give_each_players_payoff_and_the_game_is_then_not_zero_sum() -> None:
    game = gdl.loads(GAME.replace("utility = 1 if n == 3 else -1", "utility = (1, 1) if n == 3 else (0, 2)"))
    state = game.result(game.initial_state(), 2)
    state = game.result(state, 1)
    assert not game.zero_sum and (game.utility(state, "A"), game.utility(state, "B")) == (1, 1)
    with pytest.raises(Exception, match="needs a zero-sum game"):
        alphabeta(game)


def test_one_player_is_too_few() -> None:
    text = GAME.replace("players A, B", "players A").replace("to_move = A if n % 2 == 0 else B", "to_move = A")
    assert ("a game needs two or more players: `players X, O`, or `players A, B, C` for three", 2, 1) in check_errors(text)


@pytest.mark.parametrize("rows, message, line, column", [
    ("    a -> (1, 2, 3), 4\n", "with 3 players, a leaf gives each player's payoff in player order, such as (1, 0, 0), not one number", 5, 21),
    ("    a -> (1, 2, 3), (4, 5)\n", "a leaf's payoffs are one number for each player (A, B, C): 3, not 2", 5, 21),
])
def test_tree_leaves_give_every_players_payoff(rows: str, message: str, line: int, column: int) -> None:
    text = 'game "T"\nplayers A, B, C\n\ntree:\n' + rows
    assert check_errors(text) == [(message, line, column)]


def test_two_player_tree_leaves_are_all_numbers_or_all_vectors() -> None:
    text = 'game "T"\nplayers A, B\n\ntree:\n    a -> (1, 2), 4\n'
    assert check_errors(text) == [(
        "this leaf is one number, but the leaf at line 5 is a payoff vector: give every leaf the same way", 5, 18)]


# ---- the range of the payoffs at the end -------------------------------------------------------


@pytest.mark.parametrize("rules, bounds", [
    ("utility = 1 if n == 3 else -1", (-1, 1)),
    ("utility = 1 if n == 3 else -1\nrepetition = 5", (-1, 5)),
    ("utility = 2 if n == 3 else 1", (0, 2)),  # a repetition's draw, 0, is in the range too
    ("def win() = 7\nutility = -win() if n == 3 else 3", (-7, 3)),
    ("utility = n", None),
    ("utility = 1 if n == 3 else -1\nrepetition = n", None),
])
def test_the_range_of_the_payoffs_at_the_end_is_known_when_each_is_written_as_a_number(
        rules: str, bounds: tuple[int, int] | None) -> None:
    game = gdl.loads(GAME.replace("utility = 1 if n == 3 else -1", rules))
    assert game.utility_bounds == bounds


@pytest.mark.parametrize("path, bounds", [
    ("games/connect.gdl", (-1, 1)), ("games/tictactoe.gdl", (-10, 10)), ("games/nim.gdl", (-1, 1)),
    ("games/kalah.gdl", None), ("games/othello.gdl", None),
])
def test_the_bundled_games_payoff_ranges(path: str, bounds: tuple[int, int] | None) -> None:
    """connect: 1 or -1 for a line, 0 for a full board; tic-tac-toe 10, -10, 0; Nim the taker's
    win or loss, negated in misère; Kalah and Othello count seeds and discs."""
    assert gdl.load(path).utility_bounds == bounds
