"""Games whose positions repeat: searches terminate and score repetitions."""

from __future__ import annotations

from typing import Any

import pytest

from searchers import alphabeta, expectiminimax, minimax, paranoid
from tests.pygames import GraphGame, PassingSubtraction
from tests.searchers.random_games import reference_value

SEARCHES = [
    ("minimax", lambda game: minimax(game)),
    ("alphabeta", lambda game: alphabeta(game)),
    ("alphabeta+table", lambda game: alphabeta(game, table=True, ordering=True)),
    ("alphabeta+all", lambda game: alphabeta(game, table=True, ordering=True, killers=True,
                                             history=True)),
    ("deepening", lambda game: alphabeta(Evaluated(game), max_nodes=10**6, table=True)),
    ("expectiminimax", lambda game: expectiminimax(game)),
    ("expectiminimax+table", lambda game: expectiminimax(game, table=True)),
]

class Evaluated:
    """``game`` with an evaluation that knows nothing (0), so that it can deepen iteratively."""

    has_evaluation = True

    def __init__(self, game: object) -> None:
        self.game = game

    def __getattr__(self, name: str) -> object:
        return getattr(self.game, name)

    def evaluate(self, state: object, player: str) -> int:
        return 0


# a <-> b: MAX at a may end the game at x (-1) or move to b; MIN at b may end it
# at y (+1) or move back to a, repeating the start: a draw, the best MIN can do.
SHUTTLE = GraphGame({"a": ["x", "b"], "b": ["y", "a"]}, {"x": -1, "y": 1}, start="a")


@pytest.mark.parametrize("name, search", SEARCHES, ids=[name for name, _ in SEARCHES])
def test_shuttle_is_a_draw_by_repetition(name: str, search) -> None:
    result = search(SHUTTLE)
    assert (result.value, result.move, result.exact) == (0, "b", True)
    assert result.repetition and result.stats.repetitions >= 1
    assert result.move_values["x"] == -1


@pytest.mark.parametrize("name, search", SEARCHES, ids=[name for name, _ in SEARCHES])
@pytest.mark.parametrize("stones", range(0, 6))
@pytest.mark.parametrize("score", [-1, 0, 1])
def test_passing_subtraction_values(name: str, search, stones: int, score: int) -> None:
    game = PassingSubtraction(stones=stones, take=2, repetition_score=score)
    expected = reference_value(game)
    assert search(game).value == expected
    if 1 <= stones <= 2:
        assert expected == 1  # take them all
    elif stones == 0:
        assert expected == -1
    elif score <= 0:
        assert expected == score  # A cannot force a win; either side can pass


# Found by random search: storing the value of a position whose subtree was cut
# short by a repetition, and reusing it where that line does not repeat, gives 0
# for these games instead of -2.
POISONERS = [
    GraphGame({"v0": ["v1", "v3", "v0"], "v1": ["v1", "t2"], "v3": ["v0", "t1", "v3"]},
              {"t1": -3, "t2": -2}, start="v0"),
    GraphGame({"v0": ["v1"], "v1": ["v1", "v2"], "v2": ["t0", "v2", "t2"]},
              {"t0": -2, "t2": -3}, start="v0"),
]


@pytest.mark.parametrize("game", POISONERS)
def test_values_that_depend_on_a_repetition_stay_out_of_the_table(game: GraphGame) -> None:
    assert reference_value(game) == -2
    for options in ({"table": True}, {"table": True, "ordering": True, "killers": True}):
        assert alphabeta(game, **options).value == -2
    assert expectiminimax(game, table=True).value == -2


def test_repeated_positions_are_traced_as_leaves() -> None:
    result = alphabeta(SHUTTLE, trace=True)
    def walk(node):
        yield node
        for child in node.children:
            yield from walk(child)
    repeated = [n for n in walk(result.tree) if n.scored_by == "repetition"]
    assert [(n.state, n.value, n.kind) for n in repeated] == [(("a", 0), 0, "leaf")]
    assert (("a", 0), 0) not in result.leaves  # only utility and evaluation scores


def test_repetition_is_not_reported_for_acyclic_games() -> None:
    game = PassingSubtraction(stones=0)
    assert not minimax(game).repetition


# Games of a token on numbered nodes, each node's mover given: `succ` its moves, `who` its
# mover, `ends` the finished nodes; `evaluation` where the search is cut off.
NODES = """\
game "Nodes"
players A, B
state:
    node = 0
succ = SUCC
who = WHO
to_move = who[node]
moves = succ[node]
result(m):
    node = m
terminal = node in ENDS
utility = UTILITY
evaluation = EVALUATION
def move_name(m) = str(m)
"""


def nodes_game(succ: str, who: str, ends: str, utility: str, evaluation: str) -> Any:
    """A game of ``NODES`` with these rules, each written in the language."""
    import gdl

    text = NODES
    for name, rule in (("SUCC", succ), ("WHO", who), ("ENDS", ends), ("UTILITY", utility),
                       ("EVALUATION", evaluation)):
        text = text.replace(name, rule)
    return gdl.loads(text)


def cut_off_value(game: Any, depth: int) -> object:
    """The value of the start searched ``depth`` moves deep, by plain recursion: a finished
    game scores its utility, a node already on the line the repetition score, a node at the
    depth limit its evaluation (written apart from the searchers, as the rules say)."""
    first = game.players[0]

    def value(state: object, left: int, line: tuple[object, ...]) -> object:
        if game.is_terminal(state):
            return game.utility(state, first)
        if state in line:
            return game.repetition_utility(state, first)
        if left == 0:
            return game.evaluate(state, first)
        values = [value(game.result(state, m), left - 1, (*line, state))
                  for m in game.actions(state)]
        return max(values) if game.to_move(state) == first else min(values)

    return value(game.initial_state(), depth, ())


# Node 3 (B to move: 1 or the end at 4, worth 2) searched one move deep under 0, 2, 3 is
# worth 1 (node 1 evaluated); under 0, 1, 3 node 1 is on the line, a repetition worth 0.
GRAPH_HISTORY = ("[[1, 2], [3, 0], [3, 0], [1, 4], []]", "[B, A, A, B, A]", "[4]",
                 "2 if node == 4 else 0", "[0, 1, -1, 1, 0][node]")


def test_a_table_entry_cut_off_below_is_not_reused_on_another_line_where_positions_repeat() -> None:
    """At a depth limit, once the search has met a repetition, an entry cut off below is not
    reused: node 3's entry (searched under 0, 2, 3) was reused under 0, 1, 3, where node 1 below
    it is on the line (depth 3: 1 with the table, 0 without, as plain recursion says). Here the
    line 0, 1, 0 repeats first; a search that reuses such an entry before its first repetition
    may still differ (alphabeta's docstring)."""
    game = nodes_game(*GRAPH_HISTORY)
    assert cut_off_value(game, 3) == 0
    for options in ({}, {"table": True}, {"table": True, "ordering": True}):
        result = alphabeta(game, depth=3, **options)
        assert (result.value, result.exact) == (0, False)
    assert minimax(game, depth=3).value == 0


def test_deepening_with_the_table_ends_exact_in_a_small_game_whose_positions_repeat() -> None:
    """No line of play from the start is longer than three moves: deepening within a budget
    finds the exact value, -2 (B ends the game at once), with the table as without it (with
    it, entries cut off below were answered again one move deeper at each iteration, and the
    search never ended until the budget did, tens of thousands of moves deep)."""
    game = nodes_game("[[1, 2, 3], [3], [], [0, 1]]", "[B, B, A, A]", "[2]", "-2 if node == 2 else 0",
                      "1 if node == 1 else 0")
    assert cut_off_value(game, 4) == cut_off_value(game, 8) == -2
    for options in ({}, {"table": True}, {"table": True, "ordering": True},
                    {"table": True, "ordering": True, "killers": True, "history": True}):
        result = alphabeta(game, max_nodes=10**5, **options)
        assert (result.value, result.exact) == (-2, True) and result.stats.depth <= 4


def test_a_beam_below_a_table_entry_leaves_the_value_inexact() -> None:
    """A beam of 2 drops B's move to 8 (worth -1) below node 1 at depth 3; node 1's entry,
    not cut off by the depth, answered at depth 4 as if complete: the search said 1, exact.
    The game's value is 0 (plain recursion to the end); with the beam it is not exact."""
    game = nodes_game("[[1, 2], [3, 4, 5], [9], [6], [7], [8], [], [], [], [10], [11], []]",
                      "[A, B, B, A, A, A, A, A, A, A, B, A]", "[6, 7, 8, 11]",
                      "[0, 0, 0, 0, 0, 0, 1, 1, -1, 0, 0, 0][node]", "1 if node == 5 else 0")
    assert cut_off_value(game, 5) == 0
    for limit in ({"max_nodes": 10**5}, {"time": 5.0}):
        result = alphabeta(game, beam=2, table=True, **limit)
        assert not result.exact and "beam" in (result.inexact_reason or "")
        result = paranoid(game, beam=2, table=True, **limit)
        assert not result.exact
