"""The per-node game methods skip typeguard's run-time checks for speed (they run at every node
of a search); this test checks their annotations by hand, on random games of every bundled game."""

from __future__ import annotations

import inspect
import random
from pathlib import Path

import pytest
from typeguard import check_type

import gdl

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(str(p.relative_to(ROOT)) for p in ROOT.glob("games/**/*.gdl"))


def returns(game: object, method: str) -> object:
    """The annotated return type of a method of the game's class (read directly, as written:
    the compiled rules a game hands out in their place return what the method promises)."""
    return inspect.get_annotations(getattr(type(game), method), eval_str=True)["return"]


@pytest.mark.parametrize("path", GAMES)
def test_per_node_methods_return_what_they_are_annotated_to(path: str) -> None:
    game = gdl.load(ROOT / path)
    dice = random.Random(1)
    checked = 0
    for _ in range(5):
        state = game.initial_state()
        for _ in range(40):
            player = game.players[0]
            check_type(game.is_terminal(state), returns(game, "is_terminal"))
            if game.is_terminal(state):
                check_type(game.utility(state, player), returns(game, "utility"))
                break
            if getattr(game, "has_chance", False) and game.is_chance(state):
                outcomes = game.chance_outcomes(state)
                check_type(outcomes, returns(game, "chance_outcomes"))
                state = game.result(state, outcomes[dice.randrange(len(outcomes))][0])
                continue
            check_type(game.to_move(state), returns(game, "to_move"))
            moves = game.actions(state)
            check_type(moves, returns(game, "actions"))
            if game.has_evaluation:
                check_type(game.evaluate(state, player), returns(game, "evaluate"))
            if hasattr(game, "canonical"):
                hash(game.canonical(state))
            child = game.result(state, dice.choice(moves))
            check_type(child, returns(game, "result"))
            state = child
            checked += 1
    assert checked > 0
