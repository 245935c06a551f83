"""Regressions: copies of states keep working, `== []` only short-cuts lists, evaluations must be
numbers, huge number literals are syntax errors, and a chance node at the root is reported as one."""

from __future__ import annotations

import copy
import pickle

import pytest

import gdl
from gdl.cli import main
from interpreter import symbol

GAME = """players A, B
state:
    n = 0
m = {1: 0, 2: [5]}
to_move = A
moves = [1] if m[1] == [] else [2]
result(x):
    n = 1
terminal = n == 1
utility = 0
evaluation = EVALUATION
"""


def test_copied_and_pickled_symbols_are_the_interned_ones() -> None:
    game = gdl.load("games/tictactoe.gdl")
    state = copy.deepcopy(game.initial_state())
    assert len(game.actions(state)) == 9 and not game.is_terminal(state)
    assert pickle.loads(pickle.dumps(symbol("X"))) is symbol("X")
    assert copy.copy(symbol("X")) is symbol("X")


def test_comparing_a_non_list_with_the_empty_list_is_false() -> None:
    game = gdl.loads(GAME.replace("EVALUATION", "0"))
    assert game.actions(game.initial_state()) == (2,)  # m[1] is 0, not []


def test_an_evaluation_that_is_not_a_number_is_a_rule_error() -> None:
    game = gdl.loads(GAME.replace("EVALUATION", 'get({1: "a"}, 1, 0)'))
    with pytest.raises(gdl.GdlRuntimeError) as caught:
        game.evaluate(game.initial_state(), "A")
    assert caught.value.message == "`evaluation` must be a number, got a"


def test_a_number_of_more_than_4000_digits_is_a_syntax_error() -> None:
    with pytest.raises(gdl.GdlSyntaxError) as caught:
        gdl.loads("players A, B\nx = " + "9" * 5000 + "\n")
    assert (caught.value.message, caught.value.line, caught.value.column) == ("this number has more than 4000 digits", 2, 5)


def test_a_chance_node_at_the_root_lists_its_outcomes(tmp_path: object, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "roll.gdl"  # type: ignore[operator]
    path.write_text("""players A, B
state:
    rolled = 0
to_move = chance if rolled == 0 else A
outcomes = [(1, 1/2), (2, 1/2)]
moves = [] if rolled > 0 else []
result(x):
    rolled = x
terminal = rolled > 0
utility = 1 if rolled == 2 else -1
""")
    assert main(["solve", str(path)]) == 0
    out = capsys.readouterr().out
    assert "expected value 0 for A" in out
    assert "the initial state is a chance node; the value of each outcome:\n  1  -1\n  2  1" in out


def test_a_plain_win_is_named_for_two_players_and_for_one() -> None:
    """A value at the game's win score names the winner; of a game of one player (from
    Python), a loss is "the opponent"'s win (it was an IndexError); a margin names nobody."""
    from types import SimpleNamespace

    from gdl.cli.common import plain_winner
    from gdl.cli.solve import verdict

    two = SimpleNamespace(players=("A", "B"), utility_bounds=(-1, 1))
    assert (plain_winner(two, 1), plain_winner(two, -1), plain_winner(two, 0)) == ("A", "B", None)
    one = SimpleNamespace(players=("A",), utility_bounds=(-1, 1), has_chance=False)
    assert verdict(one, -1, True) == "the opponent wins (value -1)"
    assert verdict(one, 1, True) == "A wins (value 1)"
    margin = SimpleNamespace(players=("A", "B"), utility_bounds=(-5, 5), has_chance=False)
    assert plain_winner(margin, 2) is None and verdict(margin, 2, True) == "value 2 for A, in A's favour"
