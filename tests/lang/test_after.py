"""`after(move, x)`: a rule evaluated on the state after a move (chess legality: the moves that
do not leave one's king attacked), proven against the same rules written directly in Python."""

from __future__ import annotations

import pytest

import gdl
from searchers.perft import perft
from tests.lang.harness import game_text

# Nim where a move may not leave a total of stones that is a positive multiple of three: the
# legality of a move is read from the state after it.
PILES = """\
game "Piles"
players A, B
param start = (4, 5, 6)
state:
    piles = list(start)
    mover = A
total = sum(piles)
def leaves_bad(m) = after(m, total % 3 == 0 and total > 0)
candidates = [(i, n) for i in range(len(piles)) for n in range(1, piles[i] + 1)]
to_move = mover
moves = [m for m in candidates if not leaves_bad(m)]
result((i, n)):
    piles[i] -= n
    mover = other(mover)
terminal = moves == []
utility = 1 if mover == B else -1
"""


def legal_moves(piles: tuple[int, ...]) -> list[tuple[int, int]]:
    """The moves of PILES, by arithmetic on the pile sizes."""
    total = sum(piles)
    return [(i, n) for i, size in enumerate(piles) for n in range(1, size + 1) if (total - n) % 3 or total == n]


def count_lines(piles: tuple[int, ...], depth: int) -> int:
    """Perft of PILES by brute force: sequences of `depth` moves (the game ends with no moves)."""
    moves = legal_moves(piles)
    if depth == 1:
        return len(moves)
    return sum(count_lines(piles[:i] + (piles[i] - n,) + piles[i + 1:], depth - 1) for i, n in moves)


def test_the_moves_are_filtered_by_a_rule_read_after_each_move() -> None:
    game = gdl.loads(PILES)
    assert list(game.actions(game.initial_state())) == legal_moves((4, 5, 6))


@pytest.mark.parametrize("start", [(4, 5, 6), (1, 2, 3), (7,)])
def test_perft_agrees_with_the_rules_written_in_python(start: tuple[int, ...]) -> None:
    game = gdl.loads(PILES, start=start)
    assert [perft(game, depth) for depth in (1, 2, 3)] == [count_lines(start, depth) for depth in (1, 2, 3)]


def test_result_gives_the_state_after_made_once() -> None:
    game = gdl.loads(PILES)
    state = game.initial_state()
    move = game.actions(state)[0]
    made = game.result(state, move)
    assert made is game.result(state, move)  # the state `after` made, not a copy
    assert tuple(made.piles) == (3, 5, 6) and made.mover == "B"


def test_local_names_keep_their_values_while_fields_definitions_and_functions_read_the_state_after() -> None:
    decls = (
        "doubled = out * 2\n"
        "def plus(n) = out + n\n"
        "def seen(m, p) = after(m, [p, mover, str(out), str(doubled), str(plus(1))])\n"
        "display = join(\" \", seen(0, mover))\n"
    )
    game = gdl.loads(game_text(decls=decls, fields="out = 0\nmover = A", body="out += 5\nmover = B"))
    # `p` is the mover before the move; everything else is read after it (out = 5).
    assert game.display(game.initial_state()) == "A B 5 10 6"


@pytest.mark.parametrize("decls, fields", [("param p = after(0, 1)", "out = 0"), ("", "out = after(0, 1)")])
def test_after_needs_a_state(decls: str, fields: str) -> None:
    with pytest.raises(gdl.GdlCheckError) as caught:
        gdl.loads(game_text(decls=decls, fields=fields))
    assert [e.message for e in caught.value.errors] == [
        "`after` reads the state after a move; it cannot be used here, before the game starts"
    ]


def test_a_file_with_its_own_function_named_after_keeps_it() -> None:
    game = gdl.loads(game_text(decls="def after(x) = x + 1\n", fields="out = after(41)"))
    assert game.initial_state().out == 42
