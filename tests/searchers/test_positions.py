"""The transposition table stores a game's positions, not its states, where the game says what a
position is (`position = ...`): states that differ only in a field kept to speed up the rules
share one entry, the values stay the same, and a `position` that merges states of different
play is caught."""

from __future__ import annotations

from pathlib import Path
from random import Random
from typing import Any

import pytest

import gdl
import searchers.driver as driver
import searchers.protocol as protocol
from gdl.errors import GdlError
from searchers import SearchError, alphabeta, expectiminimax, maxn, minimax, paranoid
from searchers.strong import solve_strong

ROOT = Path(__file__).resolve().parents[2]
CONNECT = (ROOT / "games" / "connect.gdl").read_text()
POSITION_LINE = "position = (board, mover)\n"


def played(game: Any, *moves: int) -> Any:
    """The state after ``moves`` from the start."""
    state = game.initial_state()
    for move in moves:
        state = game.result(state, move)
    return state


# The position as connect.gdl writes it (a tuple of fields: the symmetries turn it alone), and
# the same through a function (the symmetries turn the states, and the rule is called).
POSITION_FORMS = [POSITION_LINE, "def identity() = (board, mover)\nposition = identity()\n"]


@pytest.mark.parametrize("form", POSITION_FORMS, ids=["fields", "rule"])
def test_two_move_orders_to_one_board_share_a_key_and_so_do_their_mirror_images(form: str) -> None:
    """Connect 4x4: columns 0, 1, 2 and 2, 1, 0 make the same board, but the last disc (X's)
    lands in column 2 in one and column 0 in the other, so the states differ (`last`); the
    boards, the movers and so the keys agree, and the mirrored order 3, 2, 1 has the key too;
    a fourth board, after 0, 1, 3, has another key."""
    game = gdl.loads(CONNECT.replace(POSITION_LINE, form), rows=4, cols=4)
    first, second, mirrored = played(game, 0, 1, 2), played(game, 2, 1, 0), played(game, 3, 2, 1)
    assert first != second and first.board == second.board  # type: ignore[attr-defined]
    assert game.canonical(first) == game.canonical(second) == game.canonical(mirrored) != game.canonical(played(game, 0, 1, 3))
    assert game.position(first) == game.position(second) != game.position(mirrored)


@pytest.mark.parametrize("symmetry", [False, True])
def test_keying_positions_saves_nodes_and_keeps_the_value(symmetry: bool) -> None:
    """Connect 4x4 (a draw, value 0, as the file's header says) searched with the table, by
    positions and, with the `position` line taken out of the file, by states: the same value,
    and fewer nodes by positions (a board comes back with its last disc elsewhere)."""
    assert POSITION_LINE in CONNECT
    by_positions = gdl.loads(CONNECT, rows=4, cols=4)
    by_states = gdl.loads(CONNECT.replace(POSITION_LINE, ""), rows=4, cols=4)
    assert not by_states.has_position
    searched = [alphabeta(game, table=True, ordering=True, symmetry=symmetry) for game in (by_positions, by_states)]
    assert [result.value for result in searched] == [0, 0]
    assert all(result.exact for result in searched)
    assert searched[0].stats.nodes < searched[1].stats.nodes


def test_a_position_that_forgets_the_player_to_move_is_caught_by_the_table() -> None:
    """Nim (3, 4, 5) with `position = heaps`: (1, 4, 5) comes after one move (take 2) or two
    (take 1, take 1), with the other player to move; the table meets both under one key."""
    game = gdl.loads((ROOT / "games" / "nim.gdl").read_text() + "position = heaps\n")
    with pytest.raises(GdlError, match="one position, but another player moves"):
        alphabeta(game, table=True)


TALLY = """
game "Tally"
players First, Second
state:
    pile = 6
    mover = First
    taken = 0       # the stones First has taken
to_move = mover
moves = [n for n in (1, 2) if n <= pile]
result(n):
    pile -= n
    taken += n if mover == First else 0
    mover = other(mover)
terminal = pile == 0
utility = taken - (6 - taken)
"""


def test_a_position_that_forgets_a_field_of_the_score_is_caught_along_a_line_of_play() -> None:
    """A pile of 6, take 1 or 2; First scores the stones it took minus Second's. Without
    `taken` in the position, states of one position play the same moves to the same positions
    and differ only in the score at the end: the check plays a line from both to find it."""
    right = gdl.loads(TALLY + "position = (pile, mover, taken)\n")
    assert alphabeta(right, table=True).value == brute_force_tally(6, True, 0)
    wrong = gdl.loads(TALLY + "position = (pile, mover)\n")
    with pytest.raises(GdlError, match="one position, but they score differently"):
        alphabeta(wrong, table=True)


ORDER = """
game "Order"
players First, Second
state:
    pile = 8
    mover = First
    flipped = false     # a 3 taken an odd number of times: the moves are listed the other way
to_move = mover
moves = [n for n in ([1, 2, 3] if flipped else [3, 2, 1]) if n <= pile]
result(n):
    pile -= n
    flipped = flipped != (n == 3)
    mover = other(mover)
terminal = pile == 0
utility = -1 if mover == First else 1
position = (pile, mover)
"""


def test_a_position_whose_states_list_their_moves_in_another_order_is_caught_so() -> None:
    """3 then 1, or 2 then 2, leave 4 stones with First to move, the moves listed the other way
    round: a best move is known by its place among the moves, so the position is wrong, and
    the error says how (it said "they have different moves")."""
    with pytest.raises(GdlError, match="one position, but they list the same moves in another order"):
        alphabeta(gdl.loads(ORDER), table=True)


def brute_force_tally(pile: int, first_moves: bool, taken: int) -> int:
    """The tally game's value by plain minimax, written out here."""
    if pile == 0:
        return taken - (6 - taken)
    values = [brute_force_tally(pile - n, not first_moves, taken + (n if first_moves else 0))
              for n in (1, 2) if n <= pile]
    return max(values) if first_moves else min(values)


def test_paranoid_search_checks_the_positions_it_merges_too() -> None:
    """Paranoid search sees the game through a two-sided view, which keys its table by the
    game's position as alpha-beta does, and so checks the merges as alpha-beta does."""
    right = gdl.loads(TALLY + "position = (pile, mover, taken)\n")
    assert paranoid(right, player="First", table=True).value == brute_force_tally(6, True, 0)
    wrong = gdl.loads(TALLY + "position = (pile, mover)\n")
    with pytest.raises(GdlError, match="one position, but they score differently"):
        paranoid(wrong, player="First", table=True)


def test_under_symmetry_the_merges_checked_are_of_one_position_not_mirror_images(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """Connect 4x4 with its mirror symmetry: table hits of mirror images are looked at but not
    checked (their moves differ by right), and do not use up the checks of positions. (The
    first mirror image comes after some 800 checks: the budgets are raised to meet it.)"""
    checked: list[bool] = []
    monkeypatch.setattr(driver, "_MERGE_CHECKS", 1_000)
    monkeypatch.setattr(driver, "_MERGE_LOOKS", 2_000)

    def counted(*args: object) -> bool:
        done = protocol.check_merge(*args)  # type: ignore[arg-type]
        checked.append(done)
        return done

    monkeypatch.setattr(driver, "check_merge", counted)
    alphabeta(gdl.loads(CONNECT, rows=4, cols=4), table=True, ordering=True, symmetry=True)
    assert checked.count(True) == 1_000
    assert False in checked  # mirror images were met, and passed over


def test_a_cell_field_kept_in_the_position_is_turned_with_the_board() -> None:
    """With `position = (board, mover, last)` the symmetries turn `last` with the board: a
    state and its mirror image share a key; the same board with the last disc elsewhere has
    another key (as it is another position)."""
    game = gdl.loads(CONNECT.replace(POSITION_LINE, "position = (board, mover, last)\n"), rows=4, cols=4)
    assert game.canonical(played(game, 0, 1, 2)) == game.canonical(played(game, 3, 2, 1))
    assert game.canonical(played(game, 0, 1, 2)) != game.canonical(played(game, 2, 1, 0))


# The shuttle of test_repetition, written with a count of the moves made that the position
# leaves out: A at a may end the game at x (-1) or move to b; B at b may end it at y (+1) or
# move back to a, repeating the start: a draw (0), the best B can do.
COUNTED_SHUTTLE = """
game "Counted shuttle"
players A, B
state:
    at = "a"
    mover = A
    plies = 0
to_move = mover
moves = ["x", "b"] if at == "a" else ["y", "a"]
result(m):
    at = m
    mover = other(mover)
    plies += 1
terminal = at == "x" or at == "y"
utility = -1 if at == "x" else 1
"""

# Three players around a ring, each may stop the game, which costs the one who stops 1: everyone
# goes on, and the ring repeats: the repetition scores 0 for each player.
COUNTED_RING = """
game "Counted ring"
players A, B, C
state:
    at = 0
    stopped = false
    plies = 0
to_move = [A, B, C][at]
moves = ["stop", "go"]
result(m):
    stopped = m == "stop"
    at = at if stopped else (at + 1) % 3
    plies += 1
terminal = stopped
utility = {p: (-1 if p == [A, B, C][at] else 0) for p in [A, B, C]}
"""


@pytest.mark.parametrize("search", [
    lambda game: alphabeta(game),
    lambda game: alphabeta(game, table=True, ordering=True),
    lambda game: minimax(game),
    lambda game: expectiminimax(game, table=True),
], ids=["alphabeta", "alphabeta+table", "minimax", "expectiminimax+table"])
def test_a_position_repeats_on_the_line_when_its_position_does(search) -> None:
    """With `position = (at, mover)`, the shuttle's start comes back after two moves though
    the move count differs: a draw by repetition, as by hand (see COUNTED_SHUTTLE). Keyed by
    the whole state, the line never repeats and the search gives up 100,000 moves deep."""
    result = search(gdl.loads(COUNTED_SHUTTLE + "position = (at, mover)\n"))
    assert (result.value, result.move, result.exact) == (0, "b", True)
    assert result.stats.repetitions >= 1
    assert result.move_values["x"] == -1
    with pytest.raises(SearchError, match="100,000 moves deep"):
        search(gdl.loads(COUNTED_SHUTTLE))


@pytest.mark.parametrize("search", [maxn, paranoid], ids=["maxn", "paranoid"])
def test_three_players_repeat_by_position_too(search) -> None:
    """Stopping costs the mover 1 and going on nothing: by hand, each player goes on, the ring
    comes back to A with another move count, and the repetition scores 0 for all."""
    result = search(gdl.loads(COUNTED_RING + "position = (at, stopped)\n"))
    assert result.move == "go" and result.exact
    values = result.move_values  # max^n gives each player's payoff, paranoid A's
    assert [values["stop"], values["go"]] in ([{"A": -1, "B": 0, "C": 0}, {"A": 0, "B": 0, "C": 0}], [-1, 0])
    assert result.stats.repetitions >= 1
    with pytest.raises(SearchError, match="100,000 moves deep"):
        search(gdl.loads(COUNTED_RING))


# One move, `flip`, for ever: the token goes from side to side, the flips counted apart from
# the position; the play never ends, and the repetition scores 1 for A.
FLIP = """
game "Flip"
players A, B
state:
    side = 0
    mover = A
    flips = 0
to_move = mover
moves = ["flip"]
result(m):
    side = 1 - side
    mover = other(mover)
    flips += 1
terminal = false
utility = 0
repetition = 1
"""


def test_monte_carlo_tree_search_finds_a_repetition_by_position_too() -> None:
    """By hand: after two flips the position (side 0, A to move) is back, scored 1 for A, which
    MCTS proves (as alpha-beta gives). Keyed by the whole state, a random game never repeats and
    gives up after 100,000 moves."""
    from searchers import mcts

    result = mcts(gdl.loads(FLIP + "position = (side, mover)\n"), iterations=50, seed=0)
    assert (result.value, result.exact) == (1, True) and result.stats.repetitions >= 1
    with pytest.raises(SearchError, match="100,000 moves without ending"):
        mcts(gdl.loads(FLIP), iterations=3, seed=0)


class Stuck:
    """Two moves to one position (``n``, leaving out whether a jump was made), then a state
    that is not finished but has no moves: a broken game (gdl's own games stop at such a state
    themselves), which the check of the merged states meets first."""

    players = ("A", "B")

    def initial_state(self) -> tuple[int, bool]:
        """No moves made, no jump."""
        return 0, False

    def to_move(self, state: tuple[int, bool]) -> str:
        """A, then B, in turn."""
        return "AB"[state[0] % 2]

    def actions(self, state: tuple[int, bool]) -> list[str]:
        """Go or jump, twice; then nothing, though the game is not over."""
        return ["go", "jump"] if state[0] < 2 else []

    def result(self, state: tuple[int, bool], move: str) -> tuple[int, bool]:
        """One step on, remembering a jump."""
        return state[0] + 1, state[1] or move == "jump"

    def is_terminal(self, state: tuple[int, bool]) -> bool:
        """Never reached: over after five steps."""
        return state[0] > 5

    def utility(self, state: tuple[int, bool], player: str) -> int:
        """A draw."""
        return 0

    def position(self, state: tuple[int, bool]) -> int:
        """The steps made alone."""
        return state[0]


def test_the_check_of_merged_states_names_a_state_without_moves() -> None:
    """Following the two states of one position down a line of play, the check meets a state
    that is not finished but has no moves: it says so, as the searchers do (it raised
    IndexError from an empty choice), and so does the strong solver, which checks them."""
    game = Stuck()
    first, second = game.result(game.initial_state(), "go"), game.result(game.initial_state(), "jump")
    with pytest.raises(SearchError, match="is not terminal but has no legal moves"):
        protocol.check_merge(game, first, second, Random(0))  # type: ignore[arg-type]
    with pytest.raises(SearchError, match="is not terminal but has no legal moves"):
        solve_strong(game)  # type: ignore[arg-type]


LOADED = """
game "Loaded"
players P, Q
symbols loaded, fair
state:
    hidden = 0          # left out of the position: set by the first move, read by the dice
    rolling = false
    mover = P
    n = 0
    won = 0
to_move = chance if rolling else mover
moves = [loaded, fair] if n == 0 else [fair]
result(m):
    if rolling:
        rolling = false
        won = 1 if m >= 1 else -1
    else:
        if m == loaded:
            hidden = 1
        n += 1
        mover = other(mover)
        rolling = n == 2
terminal = won != 0
utility = won
position = (rolling, mover, n, won)
"""


@pytest.mark.parametrize("outcomes, said", [
    ("[(1, 9/10), (0, 1/10)] if hidden == 1 else [(1, 1/10), (0, 9/10)]", "the dice fall with different odds"),
    ("[(1, 1/2), (0, 1/2)] if hidden == 1 else [(2, 1/2), (0, 1/2)]", "the dice have different outcomes"),
])
def test_states_of_one_position_whose_dice_differ_are_caught_so(outcomes: str, said: str) -> None:
    """P's first move, loaded or fair, sets a field the position leaves out, and the dice read
    it: after loaded then fair, and fair then fair, the states are one position whose dice
    differ, in their odds or in their outcomes; the strong solver says which (it said "the
    same move leads to different positions", of dice whose every outcome leads to the same)."""
    game = gdl.loads(LOADED + f"outcomes = {outcomes}\n")
    first, second = played(game, "loaded", "fair"), played(game, "fair", "fair")
    assert game.position(first) == game.position(second) and first != second
    with pytest.raises(GdlError, match=f"one position, but {said}:"):
        protocol.check_same_position(game, first, second, game.position)
    with pytest.raises(GdlError, match=f"one position, but {said}:"):
        solve_strong(game)


def test_states_of_one_position_whose_dice_list_their_outcomes_in_another_order_are_one() -> None:
    """The dice's outcomes listed the other way round after loaded than after fair: their value
    is their average whatever the order, so the states are rightly one position, and the
    strong solve gives the value by hand: P and Q choose nothing that counts, the dice give
    +1 or -1 with 1/2 each, 0."""
    game = gdl.loads(LOADED + "outcomes = [(1, 1/2), (0, 1/2)] if hidden == 1 else [(0, 1/2), (1, 1/2)]\n")
    first, second = played(game, "loaded", "fair"), played(game, "fair", "fair")
    assert game.position(first) == game.position(second) and first != second
    protocol.check_same_position(game, first, second, game.position)
    result = solve_strong(game)
    assert result.value == 0 and result.exact
