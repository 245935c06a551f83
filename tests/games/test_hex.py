"""games/hex.gdl: Hex with no evaluation -- the same game as the hand-written one, its winning
first moves proven by an exact solver written here, and Monte Carlo tree search finding one."""

from __future__ import annotations

import random
from functools import cache

import pytest

import gdl
from searchers import SearchError, alphabeta, mcts
from searchers.perft import perft
from tests.pyhex import Hex

PATH = "games/hex.gdl"


def winning_first_moves(size: int) -> set[tuple[int, int]]:
    """The first moves with which Red wins, by an exact AND-OR search over bit boards.

    A chain is found by spreading a side's stones over the board with shifts; a player who
    can join its sides at once wins, one facing two such threats loses, one facing a single
    threat must block it.  Positions are remembered up to the half turn of the board, which
    maps each player's sides onto themselves.
    """
    cells = [(r, c) for r in range(size) for c in range(size)]
    bit = {cell: 1 << (cell[0] * size + cell[1]) for cell in cells}
    full = (1 << size * size) - 1
    left = sum(bit[(r, 0)] for r in range(size))
    right = sum(bit[(r, size - 1)] for r in range(size))
    top = sum(bit[(0, c)] for c in range(size))
    bottom = sum(bit[(size - 1, c)] for c in range(size))
    sides = {True: (top, bottom), False: (left, right)}  # Red's, Blue's

    def spread(group: int) -> int:
        """The group and every cell touching it: (r, c+-1), (r-+1, c), (r-1, c+1), (r+1, c-1)."""
        return (group | (group << 1 & ~left) | (group >> 1 & ~right) | group << size
                | group >> size | (group >> (size - 1) & ~left) | (group << (size - 1) & ~right)) & full

    def joined(stones: int, red: bool) -> bool:
        start, goal = sides[red]
        group = stones & start
        while not group & goal:
            grown = spread(group) & stones
            if grown == group:
                return False
            group = grown
        return True

    centre = (size - 1) / 2
    order = [bit[c] for c in sorted(cells, key=lambda rc: abs(rc[0] - centre) + abs(rc[1] - centre))]
    width = f"0{size * size}b"

    def turned(stones: int) -> int:
        return int(format(stones, width)[::-1], 2)

    def mover_wins(mine: int, theirs: int, red: bool) -> bool:
        return solved(*min((mine, theirs), (turned(mine), turned(theirs))), red)

    @cache
    def solved(mine: int, theirs: int, red: bool) -> bool:
        empty = [b for b in order if not (mine | theirs) & b]
        if any(joined(mine | b, red) for b in empty):
            return True
        threats = [b for b in empty if joined(theirs | b, not red)]
        if len(threats) > 1:
            return False
        return any(not mover_wins(theirs, mine | b, not red) for b in threats or empty)

    return {cell for cell in cells if not mover_wins(0, bit[cell], False)}


@cache
def winners(size: int) -> set[tuple[int, int]]:
    return winning_first_moves(size)


def name(game: object, cells: set[tuple[int, int]]) -> set[str]:
    return {game.format_move(cell) for cell in cells}


@pytest.mark.parametrize("size, moves", [
    (2, {"b1", "a2"}),
    (3, {"b2", "c1", "a3", "a2", "c2"}),
    (4, {"d1", "c2", "b3", "a4"}),
])
def test_the_winning_first_moves_stated_in_the_header(size: int, moves: set[str]) -> None:
    game = gdl.load(PATH, size=size)
    assert name(game, winners(size)) == moves
    header = open(PATH).read().split("\ngame ")[0]
    assert all(move in header for move in moves)


@pytest.mark.parametrize("size", [2, 3])
def test_exact_alphabeta_on_the_file_agrees_with_the_solver(size: int) -> None:
    game = gdl.load(PATH, size=size)
    start = game.initial_state()
    assert alphabeta(game, table=True).value == 1  # the first player wins
    for cell in game.actions(start):
        value = alphabeta(game, game.result(start, cell), table=True).value
        assert value == (1 if cell in winners(size) else -1)


def test_perft_counts_every_sequence_until_a_game_can_end() -> None:
    game = gdl.load(PATH)
    # No chain of four can be complete before the seventh stone.
    assert [perft(game, depth) for depth in (1, 2, 3, 4)] == [16, 16 * 15, 16 * 15 * 14, 16 * 15 * 14 * 13]


@pytest.mark.parametrize("size", [3, 4, 5])
def test_the_file_plays_as_the_hand_written_game(size: int) -> None:
    file, reference = gdl.load(PATH, size=size), Hex(size)
    rng = random.Random(size)
    for _ in range(30):
        state, expected = file.initial_state(), reference.initial_state()
        while True:
            assert file.is_terminal(state) == reference.is_terminal(expected)
            if reference.is_terminal(expected):
                assert file.utility(state, "Red") == reference.utility(expected, "Red")
                break
            assert list(file.actions(state)) == reference.actions(expected)
            assert file.to_move(state) == reference.to_move(expected)
            move = rng.choice(reference.actions(expected))
            state, expected = file.result(state, move), reference.result(expected, move)


def test_there_is_no_evaluation_to_search_with_a_depth_limit() -> None:
    with pytest.raises(SearchError, match="needs an evaluation function"):
        alphabeta(gdl.load(PATH), depth=2)


def test_mcts_picks_a_winning_first_move_on_4x4_without_an_evaluation() -> None:
    # Only 4 of the 16 first moves win.
    result = mcts(gdl.load(PATH), iterations=10_000, seed=0)
    assert result.move in winners(4) and not result.exact
