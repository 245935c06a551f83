"""games/rolit.gdl: Rolit for two to four players plays as the hand-written game, and its
stated perft counts and first moves hold."""

from __future__ import annotations

import random

import pytest

import gdl
from gdl.errors import GdlParamError
from searchers import maxn, mcts
from searchers.perft import perft
from tests.pyrolit import Rolit

PATH = "games/rolit.gdl"


@pytest.mark.parametrize("players, counts", [(4, [3, 24, 146, 1415]), (3, [3, 24, 146, 685]), (2, [3, 24, 114, 649])])
def test_perft_stated_in_the_header_is_the_hand_written_games(players: int, counts: list[int]) -> None:
    reference = Rolit(players)
    assert [perft(reference, depth) for depth in range(1, 5)] == counts
    game = gdl.load(PATH, players=players)
    assert [perft(game, depth) for depth in range(1, 4)] == counts[:3]
    header = " ".join(open(PATH).read().split("\ngame ")[0].replace("#", "").split())
    assert ", ".join(map(str, counts)) in header


@pytest.mark.parametrize("players", [2, 3, 4])
@pytest.mark.parametrize("size", [4, 6])
def test_the_file_plays_as_the_hand_written_game(players: int, size: int) -> None:
    file, reference = gdl.load(PATH, players=players, size=size), Rolit(players, size)
    assert file.players == reference.players
    rng = random.Random(players * 10 + size)
    for _ in range(4):
        state, expected = file.initial_state(), reference.initial_state()
        while True:
            assert file.is_terminal(state) == reference.is_terminal(expected)
            if reference.is_terminal(expected):
                assert [file.utility(state, p) for p in file.players] == [reference.utility(expected, p) for p in reference.players]
                break
            assert list(file.actions(state)) == reference.actions(expected)
            assert file.to_move(state) == reference.to_move(expected)
            move = rng.choice(reference.actions(expected))
            state, expected = file.result(state, move), reference.result(expected, move)


@pytest.mark.parametrize("size, names", [(8, ["f4", "d6", "f6"]), (4, ["d2", "b4", "d4"])])
def test_the_first_player_has_three_flipping_first_moves(size: int, names: list[str]) -> None:
    game = gdl.load(PATH, size=size)
    moves = game.actions(game.initial_state())
    assert [game.format_move(m) for m in moves] == names
    assert all(Rolit(4, size)._flipped(Rolit(4, size).initial_state()[0], m, "Red") for m in moves)


@pytest.mark.parametrize("players", [1, 5])
def test_two_to_four_players(players: int) -> None:
    with pytest.raises(GdlParamError, match="2 to 4"):
        gdl.load(PATH, players=players)


def test_the_searchers_give_every_players_payoff() -> None:
    game = gdl.load(PATH, size=4, players=3)
    result = mcts(game, iterations=200, seed=3)
    assert set(result.value) == {"Red", "Green", "Yellow"} and result.move in game.actions(game.initial_state())
    estimate = maxn(game, depth=2)
    assert set(estimate.value) == {"Red", "Green", "Yellow"} and not estimate.exact
