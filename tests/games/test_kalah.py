"""games/kalah.gdl against a plain Python implementation of the same rules."""

from __future__ import annotations

from collections import deque
from functools import cache
from pathlib import Path
from typing import NamedTuple

import pytest

import gdl
from searchers import alphabeta
from searchers.perft import perft

KALAH = Path(__file__).resolve().parents[2] / "games" / "kalah.gdl"
SOUTH, NORTH = "South", "North"


class Position(NamedTuple):
    """A Kalah position: each side's pits, from its owner's left, and stores."""

    pits: dict[str, tuple[int, ...]]
    stores: dict[str, int]
    mover: str

    def key(self) -> tuple:
        return (self.pits[SOUTH], self.pits[NORTH], self.stores[SOUTH], self.stores[NORTH], self.mover)


def other(player: str) -> str:
    return NORTH if player == SOUTH else SOUTH


def start(pits: int, seeds: int) -> Position:
    return Position({SOUTH: (seeds,) * pits, NORTH: (seeds,) * pits}, {SOUTH: 0, NORTH: 0}, SOUTH)


def is_over(position: Position) -> bool:
    return not any(position.pits[SOUTH]) or not any(position.pits[NORTH])


def legal_moves(position: Position) -> list[int]:
    """Pit numbers 1..pits from the mover's left, of the mover's non-empty pits."""
    if is_over(position):
        return []
    return [i + 1 for i, n in enumerate(position.pits[position.mover]) if n > 0]


def note(events: set[str] | None, event: str) -> None:
    if events is not None:
        events.add(event)


def play(position: Position, move: int, events: set[str] | None = None) -> Position:
    """The position after the mover empties pit `move` and sows its seeds."""
    me, you = position.mover, other(position.mover)
    pits = {p: list(position.pits[p]) for p in (SOUTH, NORTH)}
    stores = dict(position.stores)
    size = len(pits[me])
    # The places a seed can go to, in sowing order, starting after my pit 0:
    # my pits, my store, your pits (never your store).
    places = [(me, i) for i in range(size)] + [(me, None)] + [(you, i) for i in range(size)]
    at = move - 1
    hand, pits[me][at] = pits[me][at], 0
    if hand >= len(places):
        note(events, "lap")
    for _ in range(hand):
        at = (at + 1) % len(places)
        side, i = places[at]
        if i is None:
            stores[side] += 1
        else:
            pits[side][i] += 1
    side, i = places[at]
    if i is None:
        note(events, "again")
        mover = me
    else:
        mover = you
        facing = size - 1 - i
        if side == me and pits[me][i] == 1 and pits[you][facing] > 0:
            note(events, "capture")
            stores[me] += 1 + pits[you][facing]
            pits[me][i] = pits[you][facing] = 0
    if not any(pits[SOUTH]) or not any(pits[NORTH]):
        if any(pits[SOUTH]) or any(pits[NORTH]):
            note(events, "sweep")
        for p in (SOUTH, NORTH):
            stores[p] += sum(pits[p])
            pits[p] = [0] * size
    return Position({p: tuple(pits[p]) for p in pits}, stores, mover)


def score(position: Position) -> int:
    return position.stores[SOUTH] - position.stores[NORTH]


def solve(pits: int, seeds: int) -> int:
    """South's store minus North's with perfect play, by plain memoised minimax."""
    @cache
    def value(key: tuple) -> int:
        south, north, south_store, north_store, mover = key
        position = Position({SOUTH: south, NORTH: north}, {SOUTH: south_store, NORTH: north_store}, mover)
        if is_over(position):
            return score(position)
        values = [value(play(position, m).key()) for m in legal_moves(position)]
        return max(values) if mover == SOUTH else min(values)

    return value(start(pits, seeds).key())


def python_perft(position: Position, depth: int) -> int:
    if depth == 0:
        return 1
    if is_over(position):
        return 0
    return sum(python_perft(play(position, m), depth - 1) for m in legal_moves(position))


def from_file(state) -> Position:
    """The file's ring (South's pits, South's store, North's pits, North's store) as a Position."""
    board = list(state.board)
    size = (len(board) - 2) // 2
    return Position(
        {SOUTH: tuple(board[:size]), NORTH: tuple(board[size + 1:2 * size + 1])},
        {SOUTH: board[size], NORTH: board[2 * size + 1]},
        str(state.mover),
    )


# (pits, seeds) -> (reachable states, South's store minus North's with perfect play)
SMALL_BOARDS = {(2, 2): (25, -2), (3, 2): (3426, 4), (3, 3): (27104, 2)}
# whether some reachable position has a pit to sow all round the board
LAPS = {(2, 2): False, (3, 2): True, (3, 3): True}


@pytest.mark.parametrize("pits, seeds", sorted(SMALL_BOARDS))
def test_every_reachable_state_follows_the_rules(pits: int, seeds: int) -> None:
    game = gdl.load(KALAH, pits=pits, seeds=seeds)
    start_state = game.initial_state()
    assert from_file(start_state) == start(pits, seeds)
    seen = {start_state}
    queue = deque([start_state])
    events: set[str] = set()
    while queue:
        state = queue.popleft()
        position = from_file(state)
        assert game.is_terminal(state) == is_over(position), position
        if is_over(position):
            assert game.utility(state, SOUTH) == score(position)
            assert game.utility(state, NORTH) == -score(position)
            assert not any(position.pits[SOUTH]) and not any(position.pits[NORTH])
            continue
        assert str(game.to_move(state)) == position.mover
        assert list(game.actions(state)) == legal_moves(position), position
        for move in game.actions(state):
            child = game.result(state, move)
            assert from_file(child) == play(position, move, events), (position, move)
            if child not in seen:
                seen.add(child)
                queue.append(child)
    assert len(seen) == SMALL_BOARDS[pits, seeds][0]
    # Every rule was put to the test: moving again, capturing, the last sweep,
    # and on the larger boards a sowing that passes the emptied pit again.
    assert events == {"again", "capture", "sweep", "lap"} - (set() if LAPS[pits, seeds] else {"lap"})


@pytest.mark.parametrize("pits, seeds", sorted(SMALL_BOARDS))
def test_solved_values_of_small_boards(pits: int, seeds: int) -> None:
    value = SMALL_BOARDS[pits, seeds][1]
    assert solve(pits, seeds) == value
    result = alphabeta(gdl.load(KALAH, pits=pits, seeds=seeds), table=True)
    assert result.value == value and result.exact


def test_perft_of_the_standard_board() -> None:
    game = gdl.load(KALAH)
    assert [perft(game, depth) for depth in range(1, 5)] == [6, 35, 185, 942]
    assert [python_perft(start(6, 4), depth) for depth in range(1, 5)] == [6, 35, 185, 942]


def test_a_move_into_the_store_moves_again() -> None:
    game = gdl.load(KALAH)
    state = game.result(game.initial_state(), 3)        # 4 seeds from pit 3: the last in the store
    assert list(state.board) == [4, 4, 0, 5, 5, 5, 1] + [4] * 6 + [0]
    assert game.to_move(state) == SOUTH and game.actions(state) == (1, 2, 4, 5, 6)


def test_moves_are_pit_numbers_from_the_movers_left() -> None:
    game = gdl.load(KALAH)
    state = game.result(game.result(game.initial_state(), 3), 6)
    assert game.to_move(state) == NORTH
    assert [game.format_move(m) for m in game.actions(state)] == ["1", "2", "3", "4", "5", "6"]
    assert game.parse_move(state, "1") == 1
    # North's pit 1 is the one farthest from North's store: opposite South's pit 6.
    after = game.result(state, 1)
    assert list(after.board) == [4, 4, 0, 5, 5, 0, 2, 0, 6, 6, 6, 5, 5, 0]


def test_display_draws_both_rows_and_the_stores() -> None:
    game = gdl.load(KALAH)
    state = game.result(game.result(game.initial_state(), 3), 6)
    assert game.display(state) == "\n".join([
        "        6   5   4   3   2   1   North",
        "      ( 4)( 4)( 5)( 5)( 5)( 5)",
        "[  0]                         [  2]",
        "      ( 4)( 4)( 0)( 5)( 5)( 0)",
        "        1   2   3   4   5   6   South",
        "North to move",
    ])


def test_evaluation_is_the_store_difference() -> None:
    game = gdl.load(KALAH)
    state = game.result(game.result(game.initial_state(), 3), 6)
    assert game.evaluate(state, SOUTH) == 2 and game.evaluate(state, NORTH) == -2
