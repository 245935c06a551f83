"""Folding known facts into a function: the same answers, and the code of a refinement that
is off gone from the search that runs."""

from __future__ import annotations

from types import CodeType
from typing import Any

from searchers._fold import SOMETHING, specialised
from searchers.driver import SearchConfig, _depth_first, _facts, _specialised_depth_first
from tests.pygames import DiceRace, TicTacToe


def sample(table: Any, flag: bool, n: int) -> list[str]:
    """A function with every form of test the folder knows."""
    seen = []
    if table is not None and n > 1:
        seen.append("table")
    if not flag:
        seen.append("no flag")
    elif table is None or n > 5:
        seen.append("flag")
    label = "on" if flag else "off"
    both = flag and n
    either = table is not None or n
    return [*seen, label, str(both), str(either)]


def names_in(code: CodeType) -> set[str]:
    """The global, attribute and closure names that ``code`` and the functions inside it use."""
    names = {*code.co_names, *code.co_freevars, *code.co_cellvars}
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            names |= names_in(constant)
    return names


def leftovers(table: Any, n: int) -> list[Any]:
    """A function whose folding leaves a local known to be False and stores nothing reads."""
    chance = table is not None and n > 3
    key = hint = None
    if table is not None:
        key = n * 2
    calls: list[int] = []
    size = len(calls)  # a call, which the folder does not drop even where nothing reads it
    kept, dropped = n, table
    if chance:
        return [key, table.get(key), kept, dropped, size]
    return [kept, calls]


def code_named(code: CodeType, name: str) -> CodeType:
    """The code of the function ``name`` defined in ``code`` (at any depth)."""
    for constant in code.co_consts:
        if isinstance(constant, CodeType):
            if constant.co_name == name:
                return constant
            try:
                return code_named(constant, name)
            except LookupError:
                pass
    raise LookupError(name)


def test_folded_functions_answer_as_the_original_for_every_case_of_the_facts() -> None:
    for table in (None, {}):
        for flag in (False, True):
            facts = {"table": None if table is None else SOMETHING, "flag": flag}
            folded = specialised(sample, facts)
            assert folded is not sample
            for n in (0, 1, 2, 7):
                assert folded(table, flag, n) == sample(table, flag, n), (facts, n)


def test_a_local_folded_to_a_constant_is_folded_in_turn_and_stores_nothing_reads_go() -> None:
    for table in (None, {}):
        folded = specialised(leftovers, {"table": None if table is None else SOMETHING})
        for n in (0, 5):
            assert folded(table, n) == leftovers(table, n), (table, n)
    plain = specialised(leftovers, {"table": None}).__code__
    assert "get" not in plain.co_names  # `chance` is False, so `if chance:` is gone
    assert not {"chance", "key", "hint", "dropped"} & set(plain.co_varnames)
    assert {"kept", "size"} <= set(plain.co_varnames)
    with_table = set(specialised(leftovers, {"table": SOMETHING}).__code__.co_varnames)
    assert {"chance", "key", "dropped"} <= with_table and "hint" not in with_table  # read by nothing


def caught(n: int) -> str:
    """A local set once to None and bound again by an ``except ... as``."""
    error = None
    try:
        1 // n
    except ZeroDivisionError as error:
        return "caught" if error else "none"
    return "fine" if error is None else "?"


def test_a_local_bound_again_otherwise_than_by_an_assignment_is_no_constant() -> None:
    folded = specialised(caught, {})
    assert folded is not caught
    assert (folded(0), folded(1)) == ("caught", "fine")


def test_a_plain_minimax_node_keeps_nothing_for_the_refinements_that_are_off() -> None:
    """The locals a node sets for the table, the orderer and dice are not set at all."""
    for_refinements = {"hint", "key", "alpha0", "beta0", "next_child", "later", "skipped", "best_move", "chance"}
    plain = _specialised_depth_first(_facts(TicTacToe(), SearchConfig("minimax"), trace=False))
    assert not for_refinements & set(code_named(plain.__code__, "search").co_varnames)
    full = _specialised_depth_first(_facts(DiceRace(), SearchConfig("alphabeta", prune=True, table=True, ordering=True), trace=True))
    assert for_refinements <= set(code_named(full.__code__, "search").co_varnames)


def test_a_name_without_a_fact_is_left_alone() -> None:
    folded = specialised(sample, {"flag": True})
    assert folded({}, True, 2) == ["table", "on", "2", "True"]
    assert folded(None, True, 2) == ["flag", "on", "2", "2"]


def test_folding_keeps_the_line_numbers_of_the_source() -> None:
    folded = specialised(sample, {"flag": False})
    assert folded.__code__.co_firstlineno == sample.__code__.co_firstlineno
    assert folded.__code__.co_filename == sample.__code__.co_filename


def test_a_minimax_without_a_table_or_ordering_runs_none_of_their_code() -> None:
    """The table's, the orderer's and the trace's methods are not in the code of the search."""
    plain = _specialised_depth_first(_facts(TicTacToe(), SearchConfig("minimax"), trace=False))
    assert not names_in(plain.__code__) & {"make_room", "order", "reward", "leaf", "close", "hint_first"}
    full = _specialised_depth_first(_facts(TicTacToe(), SearchConfig("alphabeta", prune=True, table=True, ordering=True), trace=True))
    assert {"make_room", "order", "reward", "leaf", "close", "hint_first"} <= names_in(full.__code__)
    assert names_in(_depth_first.__code__) >= names_in(full.__code__) - {"__code__"}


def test_only_a_game_with_dice_asks_at_every_node_whether_dice_decide() -> None:
    with_dice = _specialised_depth_first(_facts(DiceRace(), SearchConfig("expectiminimax"), trace=False))
    without = _specialised_depth_first(_facts(TicTacToe(), SearchConfig("expectiminimax"), trace=False))
    # A name the closures share is a cell of the outer function: no closure reads is_chance.
    assert "is_chance" in with_dice.__code__.co_cellvars
    assert "is_chance" not in without.__code__.co_cellvars


def test_a_search_runs_above_a_frame_that_opens_a_chunk_of_over_64_kib() -> None:
    """on_roomy_stack hands back what the call returns, from above a frame of over 64 KiB
    (8 bytes a local), which makes the interpreter open a 128 KiB chunk for it."""
    from searchers._common import _roomy, on_roomy_stack

    assert _roomy.__code__.co_nlocals * 8 > 64 * 1024
    assert on_roomy_stack(lambda a, b=0: (a, b), 1, b=2) == (1, 2)
