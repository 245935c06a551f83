"""Games whose positions repeat: searches terminate and score repetitions."""

from __future__ import annotations

import pytest

from searchers import alphabeta, expectiminimax, minimax
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
