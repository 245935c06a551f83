"""Errors that teach: each file in tests/broken has one mistake; `gdl` names it, points at it,
says what would be right, exits with status 1, and prints no Python traceback."""

from __future__ import annotations

from pathlib import Path

import pytest

from gdl.cli import main

BROKEN = Path(__file__).parent / "broken"

# (file, command, line, column, message, exit status)
CASES = [
    ('arity_builtin', 'check', 10, 9, '`rows` takes 1 or 2 arguments, but 0 were given: rows(n) or rows(rows, cols)', 1),
    ('arity_move_name', 'check', 14, 5, '`move_name` takes 1 argument (the move), not 2', 1),
    ('arity_user_function', 'check', 18, 12, '`won` takes 1 argument, but 2 were given', 1),
    ('cycle_definitions', 'check', 14, 1, '`a` is defined in terms of itself: a -> b -> a', 1),
    ('function_without_return', 'check', 11, 5, 'function `pick` can reach its end without a `return`', 1),
    ('kind_compare_symbol_number', 'check', 14, 42, 'comparing a symbol with an integer: `==` would always be false', 1),
    ('kind_condition_integer', 'check', 19, 16, 'an `if` condition must be a boolean, got an integer', 1),
    ('kind_field_wrong_kind', 'check', 17, 13, '`mover` holds a player, but this is an integer', 1),
    ('kind_grid_indexed_by_number', 'check', 14, 48, 'a grid is indexed by a cell (row, col), not by an integer', 1),
    ('kind_loop_over_grid', 'check', 11, 34, 'a grid is not a list: loop over `cells(board)` for its cells, or `list(board)` for its contents', 1),
    ('kind_moves_not_list', 'check', 14, 9, '`moves` must be a list (the list of legal moves), got an integer', 1),
    ('kind_not_number', 'check', 18, 16, 'the operand of `not` must be a boolean, got an integer', 1),
    ('kind_param_default_grid_index', 'check', 10, 14, '`*` cannot combine an integer and a boolean', 1),
    ('kind_pattern_length', 'check', 15, 8, 'this pattern has 3 names, but the tuple has 2 items', 1),
    ('kind_symbol_arithmetic', 'check', 17, 13, '`+` cannot combine a player and an integer', 1),
    ('kind_terminal_not_boolean', 'check', 18, 12, '`terminal` must be a boolean (whether the game is over), got an integer', 1),
    ('kind_utility_symbol', 'check', 19, 11, "`utility` must be a number (the first player's score in a terminal state), got a player", 1),
    ('missing_moves', 'check', 1, 1, 'a game needs `moves = ...`: the list of legal moves', 1),
    ('missing_players', 'check', 1, 1, 'a game needs its players: add a line such as `players X, O`', 1),
    ('missing_result', 'check', 1, 1, 'a game needs a `result(move):` block saying how a move changes the state', 1),
    ('missing_state', 'check', 1, 1, 'a game needs a `state:` block listing its fields and their initial values', 1),
    ('missing_utility', 'check', 1, 1, "a game needs `utility = ...`: the first player's score in a terminal state", 1),
    ('name_assign_parameter', 'check', 16, 5, '`size` is a parameter and cannot be assigned; only state fields and `let` names can', 1),
    ('name_assign_unknown', 'check', 17, 5, 'unknown name `movr`; did you mean `mover`?', 1),
    ('name_builtin_redefined', 'check', 11, 5, '`len` is a built-in function; choose another name', 1),
    ('name_defined_twice', 'check', 15, 1, '`moves` is defined twice: it is already a definition (line 14)', 1),
    ('name_field_called', 'check', 19, 16, '`board` is a state field, not a function', 1),
    ('name_field_in_param_default', 'check', 4, 18, '`board` is a state field; it cannot be read here, before the game starts', 1),
    ('name_function_as_value', 'check', 18, 12, '`won` is a function: call it, as in `won(...)`', 1),
    ('name_function_typo', 'check', 18, 12, 'unknown function `wn`; did you mean `won`?', 1),
    ('name_local_hides_field', 'check', 16, 9, '`board` is already a state field; choose another name for this local', 1),
    ('name_state_in_function_block', 'check', 12, 5, 'only the `result` block can change the state field `mover`', 1),
    ('name_typo', 'check', 14, 42, 'unknown name `bord`; did you mean `board`?', 1),
    ('return_in_result', 'check', 18, 5, '`return` belongs in a function; the result block changes the state instead', 1),
    ('run_dead_end', 'solve', 14, 1, 'this state is not terminal, yet it has no moves (add a pass move, or end the game here)', 1),
    ('run_division_by_zero', 'solve', 19, 11, 'division by zero', 1),
    ('run_endless_loop', 'solve', 19, 5, 'a `while` loop ran more than 100000 times', 1),
    ('run_endless_recursion', 'solve', 11, 15, 'functions called each other too deeply (is a recursion missing its base case?)', 1),
    ('run_missing_key', 'solve', 13, 11, 'the map has no key O', 1),
    ('run_off_board', 'solve', 16, 5, 'cell (3, 0) is not on the 3x3 board', 1),
    ('syntax_assign_for_compare', 'check', 18, 38, '`=` gives a value; to compare, write `==`', 1),
    ('syntax_bad_dedent', 'check', 17, 3, "this line's indentation matches no enclosing block", 1),
    ('syntax_block_not_indented', 'check', 16, 1, 'a block must start on a new, indented line after `:`', 1),
    ('syntax_if_without_else', 'check', 19, 40, 'an `if` expression needs an `else`: write `A if CONDITION else B`', 1),
    ('syntax_missing_colon', 'check', 6, 6, 'missing `:` at the end of this line', 1),
    ('syntax_missing_operator', 'check', 10, 20, 'two expressions in a row: is an operator or a comma missing?', 1),
    ('syntax_single_quotes', 'check', 2, 6, 'strings are written in double quotes: "like this"', 1),
    ('syntax_stray_character', 'check', 13, 11, 'unexpected character `$`: names are made of letters, digits and `_`', 1),
    ('syntax_unclosed_bracket', 'check', 14, 9, 'this bracket is never closed', 1),
    ('syntax_unexpected_indent', 'check', 13, 5, 'this line is indented more than the one before it, but only the lines after a `:` start a block (an expression may run on over several lines only inside brackets)', 1),
    ('tree_two_roots', 'check', 5, 1, "a tree needs exactly one root (a node that is nobody's child); found 2: A, C", 1),
    ('name_keyword', 'check', 10, 1, '`true` is a keyword of the language; choose another name', 1),
    ('tree_unreachable_cycle', 'check', 8, 5, 'node `C` cannot be reached from the root `A` (its rows form a cycle)', 1),
    ('run_irrational_power', 'solve', 19, 11, 'an exponent must be an integer, not 1/2: powers stay exact', 1),
    ('run_huge_range', 'solve', 11, 8, 'range() would make 3,486,784,401 items, more than the 1,000,000 one value may have', 1),
    ('run_string_repetition', 'check', 10, 10, '`*` would make 3,486,784,401 items, more than the 1,000,000 one value may have', 1),
    ('syntax_bad_escape', 'check', 2, 14, '`\\N` is not an escape; a string knows \\" \\\\ \\n \\t \\r \\xHH \\uHHHH \\UHHHHHHHH (`\\\\` for a backslash)', 1),
    ('syntax_control_character_in_string', 'check', 10, 11, 'a string cannot hold the control character U+0000; write it as an escape (`\\x00`)', 1),
    ('syntax_nested_too_deep', 'check', 10, 507, 'this is nested more than 500 levels deep (each operator, call, list, tuple and block is one level): give parts of it names of their own', 1),
    ('name_misspelled_terminal', 'check', 18, 1, '`termnial` is never used; did you mean `terminal`? (a game needs `terminal = ...`: whether the game is over)', 1),
    ('name_param_declared_below', 'check', 4, 21, "parameter `size` is declared below `cells_count` (line 5); a parameter's value can use only the parameters above it", 1),
    ('kind_to_move_not_a_player', 'check', 14, 11, '`to_move` gives `nobody`, which is not a player (the players: X, O)', 1),
]


def test_there_are_at_least_forty_broken_files_and_each_is_in_the_table() -> None:
    files = sorted(p.stem for p in BROKEN.glob("*.gdl"))
    assert len(files) >= 40
    assert files == sorted(case[0] for case in CASES)


@pytest.mark.parametrize("name, command, line, column, message, status", CASES, ids=[c[0] for c in CASES])
def test_the_message_names_the_mistake_and_points_at_it(
    name: str, command: str, line: int, column: int, message: str, status: int, capsys: pytest.CaptureFixture[str]
) -> None:
    path = BROKEN / f"{name}.gdl"
    assert main([command, str(path)]) == status
    captured = capsys.readouterr()
    lines = captured.err.splitlines()
    assert lines[0] == f"{path}:{line}:{column}: error: {message}"
    source_line = path.read_text().split("\n")[line - 1]
    if len(source_line) <= 120:
        assert lines[1] == "    " + source_line.replace("\x00", "\\x00")  # a NUL is shown as an escape
        assert lines[2] == "    " + " " * (column - 1) + "^"
    else:  # shown around the column, `...` for what was cut, the caret under the column's character
        assert lines[1].startswith("    ") and lines[1].endswith("...") and len(lines[1]) <= 4 + 3 + 120 + 3
        assert lines[2] == " " * (len(lines[2]) - 1) + "^"
        assert lines[1][len(lines[2]) - 1] == source_line[column - 1]
    assert "Traceback" not in captured.err + captured.out
