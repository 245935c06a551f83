"""Each pass of the compiler on its own: what it changes in the generated code, and that the
game gives the same answers without it (and the known ones with it).

A game is loaded with every pass, and with every pass but one; both are walked in step through
the states a few moves deep, and every answer of the protocol is compared.
"""

from __future__ import annotations

import functools
import re
from pathlib import Path
from typing import Any

import pytest

import gdl
from interpreter import Game, Passes
from searchers.perft import perft
from tests.lang.harness import game_text

ROOT = Path(__file__).resolve().parent.parent.parent
GAMES = {path.stem: path for path in (ROOT / "games").glob("*.gdl")}


@functools.lru_cache(maxsize=None)
def checked(name: str, size: int | None = None) -> Any:
    """A bundled game, checked (an Othello board of `size`)."""
    return gdl.check_text(GAMES[name].read_text(), str(GAMES[name]), {} if size is None else {"size": size})


@functools.lru_cache(maxsize=None)
def load(name: str, passes: Passes = Passes(), size: int | None = None) -> Game:
    """A bundled game, compiled with these passes."""
    return Game(checked(name, size), passes)


def rules(game: Game) -> str:
    """The generated source of the rules (after what is computed at load)."""
    return game.generated_source.split("# ---- the rules")[1]


def answers(game: Game, state: Any) -> tuple[Any, ...]:
    """Everything the protocol says of a state."""
    terminal = game.is_terminal(state)
    found: list[Any] = [terminal, game.to_move(state), game.display(state), game.canonical(state)]
    if terminal:
        found.append(game.utility(state, game.players[0]))
    elif game.is_chance(state):
        found.append(game.chance_outcomes(state))
    else:
        found.append(tuple(game.actions(state)))
        found.append([game.format_move(m) for m in game.actions(state)])
    if game.has_evaluation:
        found.append(game.evaluate(state, game.players[0]))
    return tuple(found)


def agree(one: Game, other: Game, states: int = 400) -> int:
    """Walk both games in step, breadth first, through up to `states` states; every answer must
    be the same. The number of states compared."""
    pending = [(one.initial_state(), other.initial_state())]
    seen = 0
    while pending and seen < states:
        a, b = pending.pop(0)
        assert a == b
        assert answers(one, a) == answers(other, b)
        seen += 1
        if one.is_terminal(a):
            continue
        moves = [o for o, _ in one.chance_outcomes(a)] if one.is_chance(a) else list(one.actions(a))
        pending.extend((one.result(a, m), other.result(b, m)) for m in moves)
    return seen


# Each pass: a bundled game where it matters, and what it changes in the code of the rules:
# a pattern found with the pass and not without it, and one found without it and not with it.
EFFECTS: dict[str, tuple[str, str, str]] = {
    # x_won = won(X): the function's loop in the definition, comparing with X by identity.
    "inline_calls": ("tictactoe", r"def d_x_won\(S\):(?:\n .*)*\n .*is s_X", r"_last_x_won = \(S, f_won\(S, s_X\)\)"),
    # cells(size, size) in `moves`: computed once, at load.
    "load_values": ("tictactoe", r"def d_moves\(S\):(?:\n .*)*_l\d+", r"b_cells\(p_size, p_size\)"),
    # board[c] for c in a line of a constant: one item of the board's tuple.
    "flat_cells": ("tictactoe", r"_s0\[v_line\[0\]\]", r"_s0\[_K\d+\[v_c\]\]"),
    # other(p) inside the loop of open_for: computed once, when the function starts.
    "hoist_invariants": ("connect", r"try:\n\s+_h\d+ = b_other\(v_p\)", r"def f_open_for\(S, v_p\):\n(?:(?!def ).*\n)*?.*is not b_other\(v_p\)"),
    # any(all(...)) returned: loops that stop at the first answer, no generators.
    "unroll": ("connect", r"def d_won\(S\):(?:\n .*)*\n\s+for v_line in", r"b_any\("),
    # x_won = any(all(board[c] == X ...) for line in lines), eight lines of three: one expression
    # of constant positions, no loop.
    "unroll_lines": ("tictactoe", r"\(_s0\[0\] is s_X\) and \(_s0\[1\] is s_X\)", r"for v_line in _l\d+:\n\s+if \(\(_s0\[v_line\[0\]\] is s_X\)"),
    # board[c] = mover: the board's class and cell table known, no dispatch on the kind.
    "typed_updates": ("tictactoe", r"_cells = \[\*v_board\]; _cells\[_K\d+\[v_c\]\] = v_mover", r"_put\(v_board, v_c, v_mover\)"),
    # landing(col) called from result before any field is assigned: given S, no state made.
    "result_helpers": ("connect", r"v_last = \(f_landing\(S, v_col\)", r"f_landing\(State\(\("),
    # (open_for(X) - open_for(O)) / 100: two integers, a fraction only when not whole.
    "integer_division": ("connect", r"_divide_integers\(", r"_divide\("),
    # terminal = x_won or o_won or moves == []: x_won computed in place and kept, not called.
    "inline_definitions": ("tictactoe", r"\(_last_x_won := \(S, \(\(\(_s0\[0\] is s_X\)",
                           r"def d_terminal\(S\):\n(?:(?!def ).*\n)*?.*else d_x_won\(S\)\)"),
}


def test_every_pass_has_its_test() -> None:
    assert set(EFFECTS) == set(Passes.names())


@pytest.mark.parametrize("name", sorted(EFFECTS))
def test_a_pass_changes_the_code_and_not_the_answers(name: str) -> None:
    game_name, with_pass, without_pass = EFFECTS[name]
    full = load(game_name)
    reduced = load(game_name, Passes().without(name))
    assert re.search(with_pass, rules(full)) and not re.search(with_pass, rules(reduced))
    assert re.search(without_pass, rules(reduced)) and not re.search(without_pass, rules(full))
    assert agree(full, reduced, states=150) == 150


@pytest.mark.parametrize("name", sorted(EFFECTS))
def test_without_a_pass_tictactoe_keeps_its_known_perft(name: str) -> None:
    # perft 1-4 of tic-tac-toe, from its header (9, 72, 504, 3024: 9 * 8 * 7 * 6 sequences).
    game = load("tictactoe", Passes().without(name))
    assert [perft(game, depth) for depth in (1, 2, 3, 4)] == [9, 9 * 8, 9 * 8 * 7, 9 * 8 * 7 * 6]


@pytest.mark.parametrize("name", sorted(GAMES))
def test_every_bundled_game_gives_the_same_answers_with_no_pass(name: str) -> None:
    none = Passes(**{n: False for n in Passes.names()})
    size = 4 if name == "othello" else None
    assert agree(load(name, size=size), load(name, none, size=size), states=60) > 1


# ---- what a pass must not change: failures happen where the rule is written ----------------


def test_a_hoisted_call_that_fails_fails_only_where_the_rule_would_call_it() -> None:
    # other(7) fails; in a loop that never runs the rule gives [] as written.
    decls = "def twice(p, xs) = [other(p) for x in xs if out >= 0]\n"
    game = gdl.loads(game_text(decls=decls + "display = str(twice(7, []))\n"))
    assert re.search(r"_h\d+ = b_other\(v_p\)", game.generated_source)
    assert game.display(game.initial_state()) == "[]"
    failing = gdl.loads(game_text(decls=decls + "display = str(twice(7, [1]))\n"))
    with pytest.raises(gdl.GdlRuntimeError) as caught:
        failing.display(failing.initial_state())
    assert caught.value.message == "7 is not a player"
    assert caught.value.source_line == "def twice(p, xs) = [other(p) for x in xs if out >= 0]"


def test_a_constant_part_that_fails_at_load_stays_in_its_rule() -> None:
    # 1 // 0 is constant, but in a branch not taken at the start: the game loads and plays, and
    # fails where the rule is written once the branch is taken.
    text = game_text(decls='display = str(1 // 0) if out > 5 else "fine"\n', body="out += m", moves="[9]")
    game = gdl.loads(text)
    assert game.display(game.initial_state()) == "fine"
    with pytest.raises(gdl.GdlRuntimeError) as caught:
        game.display(game.result(game.initial_state(), 9))
    assert caught.value.message == "division by zero"
    assert caught.value.source_line == 'display = str(1 // 0) if out > 5 else "fine"'


def test_a_constant_cell_off_the_board_is_reported_as_it_always_was() -> None:
    text = game_text(fields="out = 0\nboard = grid(3, 3, 0)", decls="display = str(board[(5, 5)])\n")
    game = gdl.loads(text)
    with pytest.raises(gdl.GdlRuntimeError) as caught:
        game.display(game.initial_state())
    assert caught.value.message == "cell (5, 5) is not on the 3x3 board"


INLINED = """\
game "Inline"
players A, B
state:
    out = 0
to_move = A
moves = [1]
result(m):
    out += m
broken = 10 // (2 - out)
terminal = out > 5 or broken > 100
utility = broken
"""


@pytest.mark.parametrize("passes", [Passes(), Passes().without("inline_definitions")], ids=["with", "without"])
def test_a_definition_computed_in_place_fails_where_it_is_written(passes: Passes) -> None:
    # `broken` divides by zero once out is 2: computed inside `terminal` or called from it, the
    # failure is shown at its own line, not at `terminal`'s.
    game = Game(gdl.check_text(INLINED, "inline.gdl", {}), passes)
    assert ("_last_broken := (S, " in game.generated_source) == passes.inline_definitions
    state = game.result(game.result(game.initial_state(), 1), 1)
    assert game.is_terminal(game.result(game.initial_state(), 1)) is False
    with pytest.raises(gdl.GdlRuntimeError) as caught:
        game.is_terminal(state)
    assert caught.value.message == "division by zero"
    assert caught.value.source_line == "broken = 10 // (2 - out)"
    assert game.utility(game.result(game.initial_state(), 1), "A") == 10  # the answer terminal kept for this state


def test_tallies_in_an_arithmetic_are_loops_computed_first() -> None:
    # sum of squares below 4 (14) less the even numbers below 5 (3): two loops, no generator.
    text = game_text(decls="display = str(sum(x * x for x in range(4 + out)) - count(x for x in range(5 + out) if x % 2 == 0))\n")
    game = gdl.loads(text)
    source = game.generated_source.split("def d_display")[1].split("\ndef ")[0]
    assert source.count("for v_x in") == 2 and "b_sum(" not in source and "b_count(" not in source
    assert game.display(game.initial_state()) == str(sum(x * x for x in range(4)) - len([0, 2, 4]))


def test_a_tally_beside_a_call_stays_in_its_expression() -> None:
    # A call may fail: the tally is not moved before it, and Python computes both in order.
    decls = "def twice(n) = 2 * n\ndisplay = str(twice(out) + count(x for x in range(3) if x > 0))\n"
    game = gdl.loads(game_text(decls=decls))
    assert "b_count((v_x for v_x in" in game.generated_source
    assert game.display(game.initial_state()) == "2"


def test_a_tally_that_fails_in_an_arithmetic_fails_where_it_is_written() -> None:
    line = "display = str(count(x for x in range(1, 3) if 6 // (x - out) > 0) - 1)"
    game = gdl.loads(game_text(decls=line + "\n", body="out += m", moves="[1]"))
    assert "_total" in game.generated_source.split("def d_display")[1].split("\ndef ")[0]
    assert game.display(game.initial_state()) == "1"  # 6 // 1 and 6 // 2 are both positive: 2 - 1
    with pytest.raises(gdl.GdlRuntimeError) as caught:  # out = 1: 6 // (1 - 1)
        game.display(game.result(game.initial_state(), 1))
    assert caught.value.message == "division by zero"
    assert caught.value.source_line == line


@pytest.mark.parametrize("passes", [Passes(), Passes().without("unroll")], ids=["with", "without"])
def test_counted_items_that_fail_fail_as_a_loop_too(passes: Passes) -> None:
    # `count` computes each item: 6 // 0 fails whether the count is a loop or a generator.
    line = "display = str(count(6 // x for x in range(3 + out)) - 1)"
    game = Game(gdl.check_text(game_text(decls=line + "\n"), "count.gdl", {}), passes)
    assert ("_total" in game.generated_source) == passes.unroll
    with pytest.raises(gdl.GdlRuntimeError) as caught:
        game.display(game.initial_state())
    assert caught.value.message == "division by zero"
    assert caught.value.source_line == line


MIXED = ("def mixed(n) = not any(x > n for x in range(4 + out)) or "
         "(all(x >= 0 for x in range(n)) and not all(x < 2 + out for x in range(n)))\n"
         "display = join(\"\", [\"1\" if mixed(n) else \"0\" for n in range(-1, 7)])\n")


def mixed_by_hand(n: int, out: int) -> bool:
    """`mixed` written in Python, for the test below."""
    return not any(x > n for x in range(4 + out)) or (
        all(x >= 0 for x in range(n)) and not all(x < 2 + out for x in range(n)))


@pytest.mark.parametrize("passes", [Passes(), Passes().without("unroll")], ids=["with", "without"])
def test_quantifiers_under_and_or_not_in_both_polarities_decide_as_python_does(passes: Passes) -> None:
    # `not any`, `all ... and not all` under `or`: written as loops with the pass (no call of
    # the built-ins left in `mixed`), and the same answers as Python's own any and all.
    game = Game(gdl.check_text(game_text(decls=MIXED, body="out += m", moves="[1]"), "mixed.gdl", {}), passes)
    mixed = game.generated_source.split("def f_mixed")[1].split("\ndef ")[0]
    assert ("b_any(" not in mixed and "b_all(" not in mixed) == passes.unroll
    state = game.initial_state()
    for out in range(4):
        assert game.display(state) == "".join("1" if mixed_by_hand(n, out) else "0" for n in range(-1, 7))
        state = game.result(state, 1)
