"""`gdl check --deep`: what random games reveal."""

from __future__ import annotations

from pathlib import Path

import pytest

from gdl.cli import main

GAME = """\
game "Lint"
players A, B
state:
    n = 0
    mover = A
to_move = mover
moves = MOVES
result(m):
    n += m
    mover = other(mover)
terminal = TERMINAL
utility = 1 if mover == B else -1
evaluation = EVALUATION
"""


def lint(tmp_path: Path, capsys: pytest.CaptureFixture[str], moves: str = "[1, 2]", terminal: str = "n >= 4", evaluation: str = "0") -> tuple[int, str]:
    path = tmp_path / "lint.gdl"
    path.write_text(GAME.replace("MOVES", moves).replace("TERMINAL", terminal).replace("EVALUATION", evaluation))
    status = main(["check", "--deep", "--games", "50", "--max-moves", "50", str(path)])
    return status, capsys.readouterr().err


def test_a_sound_game_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    assert lint(tmp_path, capsys) == (0, "")


def test_moves_listed_twice_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = lint(tmp_path, capsys, moves="[1, 1]")
    assert status == 1
    assert "a state lists the same move more than once (1): moves must be distinct [met 200 times; the first shown]" in err


def test_a_dead_end_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = lint(tmp_path, capsys, moves="[1] if n < 2 else []")
    assert status == 1
    assert "this state is not terminal, yet it has no moves" in err
    assert "lint.gdl:7:1: error" in err


def test_a_game_that_never_ends_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = lint(tmp_path, capsys, terminal="n < 0")
    assert status == 1
    # Said at `terminal`, the rule that never holds (it was said after the file's name alone).
    assert "lint.gdl:11:1: error: a random game did not end within 50 moves" in err
    assert "\n    terminal = n < 0\n    ^\n" in err


@pytest.mark.parametrize("position, problem", [
    ("n", "another player moves"),
    ("(n, mover)", None),
])
def test_a_position_that_merges_states_of_different_play_is_reported(
        tmp_path: Path, capsys: pytest.CaptureFixture[str], position: str, problem: str | None) -> None:
    """`position = n` leaves out the player to move, and the random games reach n = 2 with
    either player to move (1 then 1, or 2): two states the position makes one, reported at
    `position` with both (a strong solve stopped at them only if its sample of states met
    both); `(n, mover)` passes."""
    path = tmp_path / "lint.gdl"
    path.write_text(GAME.replace("MOVES", "[1, 2]").replace("TERMINAL", "n >= 4").replace("EVALUATION", "0")
                    + f"position = {position}\n")
    status = main(["check", "--deep", "--games", "50", "--max-moves", "50", str(path)])
    err = capsys.readouterr().err
    if problem is None:
        assert (status, err) == (0, "")
        return
    assert status == 1
    assert (f"lint.gdl:14:1: error: `position` makes these two states one position, but {problem}: "
            "`position` must keep every field that matters to the play") in err
    assert "mover = A" in err and "mover = B" in err


def test_moves_whose_names_read_the_same_are_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A `move_name` that prints 1 as `x` and 2 as `X` (the same when typed, case aside), or
    both as `x`: every state with both moves is reported, with the names; a move listed twice
    is reported as such, not as two names; naming them `x1` and `x2` passes."""
    path = tmp_path / "lint.gdl"
    game = GAME.replace("MOVES", "[1, 2]").replace("TERMINAL", "n >= 4").replace("EVALUATION", "0")
    for name, names in (('"x" if m == 1 else "X"', "`x` and `X`"), ('"x"', "`x` 2 times")):
        path.write_text(game + f"def move_name(m) = {name}\n")
        assert main(["check", "--deep", "--games", "50", "--max-moves", "50", str(path)]) == 1
        # Said at `move_name`, the function that must tell the moves apart (line 14).
        assert (f"lint.gdl:14:5: error: moves of one state have names that read the same when typed, spaces, "
                f"brackets and case aside ({names}): `move_name` must tell them apart [met ") in capsys.readouterr().err
    path.write_text(game + 'def move_name(m) = "x" + str(m)\n')
    assert main(["check", "--deep", "--games", "50", "--max-moves", "50", str(path)]) == 0
    capsys.readouterr()
    path.write_text(GAME.replace("MOVES", "[1, 1]").replace("TERMINAL", "n >= 4").replace("EVALUATION", "0"))
    assert main(["check", "--deep", "--games", "50", "--max-moves", "50", str(path)]) == 1
    err = capsys.readouterr().err
    assert "a state lists the same move more than once (1)" in err and "read the same" not in err


def test_outcomes_of_the_dice_whose_names_read_the_same_are_reported(tmp_path: Path,
                                                                      capsys: pytest.CaptureFixture[str]) -> None:
    """The dice's outcomes are typed as moves are (`gdl play`, `gdl query`): two named alike
    are reported too."""
    path = tmp_path / "coin.gdl"
    path.write_text("""game "Coin"
players A, B
state:
    n = 0
    mover = A
    rolling = true
to_move = chance if rolling else mover
moves = [] if rolling else [0]
outcomes = [(1, 1 / 2), (2, 1 / 2)]
result(m):
    if rolling:
        n += m
        rolling = false
    else:
        rolling = true
        mover = other(mover)
terminal = n >= 4
utility = 1 if mover == B else -1
def move_name(m) = "pass" if m == 0 else "one" if m == 1 else "ONE"
""")
    assert main(["check", "--deep", "--games", "20", str(path)]) == 1
    assert "read the same when typed, spaces, brackets and case aside (`one` and `ONE`)" in capsys.readouterr().err


def test_a_wrong_position_does_not_hide_the_other_findings(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """The random games go on past two states of one position that play differently: a move
    listed twice is reported beside the wrong `position`, and every game ends."""
    path = tmp_path / "lint.gdl"
    path.write_text(GAME.replace("MOVES", "[1, 2, 2]").replace("TERMINAL", "n >= 4").replace("EVALUATION", "0")
                    + "position = n\n")
    assert main(["check", "--deep", "--games", "50", "--max-moves", "50", str(path)]) == 1
    err = capsys.readouterr().err
    assert "a state lists the same move more than once (2): moves must be distinct" in err
    assert "`position` makes these two states one position, but another player moves" in err
    assert "in the state:\n    n = 2\n    mover = " in err and "\nand the state:\n    n = 2\n    mover = " in err
    assert "in 50 random games" in err and "50 ended" in err


def test_a_move_into_a_lower_tier_is_reported_once(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """`tier = 4 - n` falls with every move (n only grows): every random game stops at its first
    move, reported as one problem located at `tier`, however many tiers the moves join; the
    right tier passes."""
    path = tmp_path / "tiers.gdl"
    path.write_text(GAME.replace("MOVES", "[1, 2]").replace("TERMINAL", "n >= 4").replace("EVALUATION", "0")
                    + "tier = 4 - n\n")
    assert main(["check", "--deep", "--games", "50", str(path)]) == 1
    err = capsys.readouterr().err
    assert "tiers.gdl:14:1: error: the move 1 goes from tier 4 down to tier 3: no move may lower `tier`" in err \
        or "tiers.gdl:14:1: error: the move 2 goes from tier 4 down to tier 2: no move may lower `tier`" in err
    assert "[met 50 times; the first shown]" in err and "1 problem found in 50 random games" in err
    path.write_text(path.read_text().replace("tier = 4 - n", "tier = n"))
    assert main(["check", "--deep", "--games", "50", str(path)]) == 0


def test_an_evaluation_that_misorders_terminal_states_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = lint(tmp_path, capsys, evaluation="1 if mover == A else -1")
    assert status == 1
    assert ("lint.gdl:13:1: error: the evaluation ranks a terminal state worth -1 to A (evaluation 1) above one "
            "worth 1 (evaluation -1)") in err


def test_an_evaluation_beyond_the_utilities_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = lint(tmp_path, capsys, evaluation="5 * n if not terminal else 0")
    assert status == 1
    assert "lint.gdl:13:1: error: the evaluation gives" in err
    assert "beyond the utilities of the finished games seen (-1 to 1 for A); a depth-limited search would prefer it to a win" in err


def test_an_evaluation_below_the_utilities_is_reported_as_worse_than_a_loss(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    status, err = lint(tmp_path, capsys, evaluation="-5 if not terminal else 0")
    assert status == 1
    assert ("the evaluation gives -5 to an unfinished state, beyond the utilities of the finished games seen "
            "(-1 to 1 for A); a depth-limited search would shun it more than a loss") in err


def test_a_to_move_that_gives_no_player_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "mover.gdl"
    path.write_text(GAME.replace("MOVES", "[1]").replace("TERMINAL", "n >= 4").replace("EVALUATION", "0")
                    .replace("to_move = mover", "symbols nobody\nto_move = mover if n < 2 else [nobody][0]"))
    assert main(["check", str(path)]) == 0  # nothing shows before the game runs
    assert main(["check", "--deep", "--games", "5", str(path)]) == 1
    err = capsys.readouterr().err
    # Each game reaches n = 2 in two moves: `to_move` names no player there.
    assert "mover.gdl:7:1: error: `to_move` gave nobody, which is not a player (the players: A, B) [met 5 times" in err
    assert "5 cut short by a problem), 10 moves, 0 ended" in err


def test_a_display_that_fails_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "display.gdl"
    path.write_text(GAME.replace("MOVES", "[1]").replace("TERMINAL", "n >= 4").replace("EVALUATION", "0")
                    + "display = str(10 // (n - 4))\n")
    assert main(["check", "--deep", "--games", "5", str(path)]) == 1
    err = capsys.readouterr().err
    # Drawn at the end of each game at least, where n = 4.
    assert "display.gdl:14:15: error: division by zero [met 5 times; the first shown]" in err


@pytest.mark.parametrize("path", ["games/nim.gdl", "games/subtraction.gdl", "games/connect.gdl", "games/tictactoe.gdl", "games/othello.gdl", "games/textbook/aima.gdl"])
def test_bundled_games_pass_the_deep_check(path: str, capsys: pytest.CaptureFixture[str]) -> None:
    assert main(["check", "--deep", "--games", "100", path]) == 0
    assert "deep check ok: 100 random games" in capsys.readouterr().out


# Every turn the mover plays a move and then a die is rolled; three rounds make a game, so each
# random game plays exactly 3 moves and draws exactly 3 chance outcomes.
ROUNDS = """\
game "Rounds"
players A, B
state:
    round = 0
    rolling = false
to_move = chance if rolling else A
moves = [] if rolling else [1]
outcomes = [(1, 1/2), (2, 1/2)]
result(m):
    if rolling:
        round += 1
    rolling = not rolling
terminal = round == 3
utility = 0
"""

# Only the dice play: exactly 3 chance outcomes a game, and no move.
DICE = """\
game "Dice"
players A, B
state:
    round = 0
to_move = chance
moves = []
outcomes = [(1, 1/2), (2, 1/2)]
result(m):
    round += 1
terminal = round == 3
utility = 0
"""


@pytest.mark.parametrize(("game", "summary"), [
    (ROUNDS, "50 random games, 150 moves and 150 chance outcomes, 50 ended"),
    (DICE, "50 random games, 0 moves and 150 chance outcomes, 50 ended"),
])
def test_the_summary_counts_chance_outcomes_as_well_as_moves(tmp_path: Path, capsys: pytest.CaptureFixture[str], game: str, summary: str) -> None:
    path = tmp_path / "dice.gdl"
    path.write_text(game)
    assert main(["check", "--deep", "--games", "50", str(path)]) == 0
    assert f"deep check ok: {summary}\n" in capsys.readouterr().out


# Move 0 can be played forever, each time to a new state; move 1 ends the game. Random games
# end after two moves on average, but a search that tries move 0 never comes back.
ENDLESS = """\
game "Endless"
players A, B
state:
    n = 0
    done = false
to_move = A
moves = [0, 1]
result(m):
    if m == 1:
        done = true
    else:
        n += 1
terminal = done
utility = 0
"""


def test_a_line_of_play_that_never_ends_is_reported_though_random_games_end(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "endless.gdl"
    path.write_text(ENDLESS)
    assert main(["check", "--deep", "--games", "50", "--max-moves", "50", str(path)]) == 1
    err = capsys.readouterr().err
    assert "a line of play goes 50 moves without ending or repeating a position, though the random games all ended" in err
    assert "    n = 50\n    done = false" in err  # fifty times move 0
    assert "1 problem found in 50 random games" in err and "50 ended" in err


def test_a_game_that_goes_on_only_by_repeating_states_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Move 0 goes back and forth between two states: a search scores the repetition and stops.
    path = tmp_path / "repeats.gdl"
    path.write_text(ENDLESS.replace("        n += 1", "        n = 1 - n"))
    assert main(["check", "--deep", "--games", "50", "--max-moves", "50", str(path)]) == 0


def test_a_game_that_goes_on_only_by_repeating_positions_passes(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Move 0 counts up a field the `position` leaves out: the position repeats at once, which
    a search scores by the repetition rule, so no line goes on for ever (it was reported as one).
    Without `position`, the same game is reported."""
    path = tmp_path / "counts.gdl"
    path.write_text(ENDLESS + "position = done\n")
    assert main(["check", "--deep", "--games", "50", "--max-moves", "50", str(path)]) == 0
    path.write_text(ENDLESS)
    assert main(["check", "--deep", "--games", "50", "--max-moves", "50", str(path)]) == 1


def test_an_endless_line_is_not_said_to_be_one_random_games_all_ended_when_they_did_not(
        tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """Move 0 of the endless game also lowers a `tier`: random games stop at that error, not at
    an end, and the endless line is reported without "though the random games all ended"."""
    path = tmp_path / "endless.gdl"
    path.write_text(ENDLESS + "tier = 0 - n\n")
    assert main(["check", "--deep", "--games", "50", "--max-moves", "50", str(path)]) == 1
    err = capsys.readouterr().err
    assert "goes from tier 0 down to tier -1" in err
    assert "a line of play goes 50 moves without ending or repeating a position: a search would follow it" in err
    assert "all ended" not in err and "in 50 random games (23 cut short by a problem), 27 moves, 27 ended" in err  # 23 stopped at the tier


THREE = """\
game "Lint for three"
players A, B, C
state:
    n = 0
    mover = A
to_move = mover
moves = [1, 2]
result(m):
    n += m
    mover = next(mover)
terminal = n >= 4
scored = [A, B] if n == 5 else [A, B, C]
utility = {p: 1 if p == mover else 0 for p in scored}
evaluation = EVALUATION
"""


def lint_three(tmp_path: Path, capsys: pytest.CaptureFixture[str], evaluation: str) -> tuple[int, str]:
    path = tmp_path / "three.gdl"
    path.write_text(THREE.replace("EVALUATION", evaluation))
    status = main(["check", "--deep", "--games", "50", str(path)])
    return status, capsys.readouterr().err


def test_every_players_payoff_is_read_at_terminal_states(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    # Only the games that end on 5 leave C out of the map: the checker cannot see it.
    status, err = lint_three(tmp_path, capsys, evaluation="{A: 0, B: 0, C: 0}")
    assert status == 1
    assert "`utility` gives no payoff to C" in err
    assert "three.gdl:13:1: error" in err


def test_an_evaluation_misordering_a_later_players_payoffs_is_reported(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    path = tmp_path / "three.gdl"
    # A's evaluation follows its utility; B's says the opposite of its own.
    text = THREE.replace("scored = [A, B] if n == 5 else [A, B, C]", "scored = [A, B, C]")
    path.write_text(text.replace("EVALUATION", "{A: 1 if mover == A else 0, B: 0 if mover == B else 1, C: 1 if mover == C else 0}"))
    status = main(["check", "--deep", "--games", "50", str(path)])
    err = capsys.readouterr().err
    assert status == 1
    assert "the evaluation ranks a terminal state worth 0 to B (evaluation 1) above one worth 1 (evaluation 0)" in err
    assert "to A" not in err and "to C" not in err


def test_a_rule_that_fails_in_every_game_is_counted_once_a_game(tmp_path: Path, capsys: pytest.CaptureFixture[str]) -> None:
    """A rule that fails at the start fails in each of the 50 random games, and again in the
    search for a line that never ends: met 50 times, as many as the games (it said 51)."""
    status, err = lint(tmp_path, capsys, moves="[1, n // 0]")
    assert status == 1
    assert "error: division by zero [met 50 times; the first shown]" in err, err
    assert "1 problem found in 50 random games (50 cut short by a problem)" in err
