"""`gdl play`, driven through its standard input as a person would type."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path


def play(*args: str, typed: str) -> subprocess.CompletedProcess[str]:
    """Run `gdl play` with the given arguments and typed lines."""
    return subprocess.run(
        [sys.executable, "-m", "gdl", "play", *args],
        input=typed, capture_output=True, text=True, timeout=120,
    )


def test_a_human_plays_tictactoe_to_the_end_against_a_perfect_opponent() -> None:
    # "1" always takes the first legal move; the searcher never loses, so O wins or it is a draw.
    done = play("games/tictactoe.gdl", typed="1\n" * 5)
    assert done.returncode == 0
    assert "Traceback" not in done.stderr
    assert "legal moves: 1) (0, 0)  2) (0, 1)" in done.stdout
    assert "O plays" in done.stdout
    assert "Game over: O wins" in done.stdout


def test_illegal_input_is_refused_with_the_legal_moves_and_asked_again() -> None:
    done = play("games/tictactoe.gdl", typed="zz\n(1, 1)\nquit\n")
    assert "`zz` is not a legal move here. Legal moves: (0, 0), (0, 1), (0, 2), (1, 0), (1, 1)" in done.stdout
    assert "X to move> (1, 1)" in done.stdout  # typed by name, echoed
    assert "bye." in done.stdout
    assert done.returncode == 0


def test_hint_and_undo() -> None:
    done = play("games/tictactoe.gdl", typed="hint\n5\nundo\nquit\n")
    assert "hint: (1, 1) (value 0 for X, exact)" in done.stdout
    assert "O plays (0, 0)" in done.stdout
    assert "undone." in done.stdout
    # After the undo the empty board is shown again with all nine moves.
    assert done.stdout.count("legal moves: 1) (0, 0)  2) (0, 1)  3) (0, 2)") == 2


def test_the_searchers_play_each_other_with_as_none() -> None:
    done = play("games/nim.gdl", "-p", "piles=(1, 2)", "--as", "none", typed="")
    assert done.returncode == 0
    assert "First plays take 1 from pile 1" in done.stdout
    assert "Game over: First wins (First scores 1)." in done.stdout


def test_playing_the_second_player() -> None:
    done = play("games/subtraction.gdl", "-p", "stones=3", "--as", "Second", typed="2\n")
    # 3 stones, take 1..2: the first player loses whatever it takes; here it takes 1, we take 2.
    assert "First plays 1  (value -1 for First, exact)" in done.stdout
    assert "legal moves: 1  2" in done.stdout  # the moves are numbers: no list numbers beside them
    assert "Second to move> 2" in done.stdout
    assert "Game over: Second wins (First scores -1)." in done.stdout


def test_an_unknown_player_is_a_usage_error() -> None:
    done = play("games/nim.gdl", "--as", "Nobody", typed="")
    assert done.returncode == 2
    assert "--as takes a player (First, Second) or none, not `Nobody`" in done.stderr
    assert "Traceback" not in done.stderr


def test_a_depth_or_time_limit_on_a_game_without_an_evaluation_is_refused_before_the_first_move() -> None:
    """Hex has no evaluation: alpha-beta cannot stop at a depth or a time; `gdl play` says so at
    once and exits 2, as `gdl solve` does, rather than fail at its first move."""
    for options in (["--depth", "2"], ["--algorithm", "alphabeta", "--time", "1"]):
        done = play("games/hex.gdl", "--as", "none", *options, typed="quit\n")
        assert done.returncode == 2, done.stderr
        assert done.stdout == ""  # no board shown: refused before the game begins
        limit = "a depth limit" if options[0] == "--depth" else "a time or node limit"
        assert done.stderr.startswith(f"gdl play: error: alphabeta with {limit}")
        assert "needs an evaluation function, and Hex has none" in done.stderr


def test_when_moves_are_numbers_a_typed_number_is_always_a_move_name() -> None:
    # Connect-k moves are column numbers: typing 1 drops a disc in column 1, never "the first
    # move of the list", even when column 0 is the first legal move.
    done = play("games/connect.gdl", "-p", "rows=2", "-p", "cols=3", "-p", "k=2", typed="1\n")
    assert "legal moves: 0  1  2" in done.stdout
    assert "X to move> 1\n\n. . .\n. X ." in done.stdout


PASS_OR_TAKE = """\
game "Pass or take"
players First, Second
state:
    pile = 4
    mover = First
    passes = 0
to_move = mover
moves = [n for n in [1, 2] if n <= pile] + ["pass"]
result(n):
    if n == "pass":
        passes += 1
    else:
        pile -= n
    mover = other(mover)
terminal = pile == 0
utility = 1 if mover == Second else -1
position = (pile, mover)
"""


def test_a_repeated_position_ends_the_game_by_the_repetition_rule(tmp_path) -> None:
    """Take 1 or 2 from 4, or pass, the passes counted apart from the position: by hand, a
    player facing 3 stones passes (taking 1 or 2 leaves the other the rest to take), so once
    First takes 1 both pass, and play went on for ever. The position (3, Second) comes back
    after two passes: the game ends there, a draw by the `repetition` rule (0, as no
    `repetition` is written), watched with the searchers and with the tablebase."""
    path = tmp_path / "pass.gdl"
    path.write_text(PASS_OR_TAKE)
    watched = play(str(path), "--as", "none", typed="")
    db = tmp_path / "pass.sqlite"
    solved = subprocess.run([sys.executable, "-m", "gdl", "solve", str(path), "--strong", "--out", str(db)],
                            capture_output=True, text=True, timeout=120)
    assert solved.returncode == 0, solved.stderr
    perfect = play(str(path), "--as", "none", "--tablebase", str(db), typed="")
    for done in (watched, perfect):
        assert done.returncode == 0, done.stderr
        assert done.stdout.count(" plays pass") == 2
        assert done.stdout.endswith("The position repeats: the game ends by its `repetition` rule.\n"
                                    "Game over: a draw (First scores 0).\n")
    assert "plays pass  (no end with perfect play: the `repetition` score, 0 for First, from the tablebase)" \
        in perfect.stdout


STALL = """game "Stall"
players Ann, Bob
symbols roll, stop
state:
    rolling = false
    over = false
to_move = chance if rolling else Ann
moves = [] if rolling else [roll, stop]
outcomes = [(1, 1 / 2), (2, 1 / 2)]
result(m):
    if rolling:
        rolling = false
    elif m == roll:
        rolling = true
    else:
        over = true
terminal = over
utility = -1 / 2
repetition = 1
"""


def test_a_position_that_comes_back_through_the_dice_for_ever_stops_play(tmp_path) -> None:
    """Ann may stop (-1/2) or roll, and either face brings the same position back: rolling
    for ever is worth the `repetition` score, 1, so perfect play rolls, and play went on for
    ever.  It stops once the position has come back 100 times, scored by that rule."""
    path = tmp_path / "stall.gdl"
    path.write_text(STALL)
    db = tmp_path / "stall.sqlite"
    solved = subprocess.run([sys.executable, "-m", "gdl", "solve", str(path), "--strong", "--out", str(db)],
                            capture_output=True, text=True, timeout=120)
    assert solved.returncode == 0 and "Stall: expected value 1 for Ann" in solved.stdout, solved.stderr
    done = play(str(path), "--as", "none", "--tablebase", str(db), typed="")
    assert done.returncode == 0, done.stderr
    assert done.stdout.count("Ann plays roll") == 100 and "plays stop" not in done.stdout
    assert done.stdout.endswith("The position has come back 100 times through the dice: with these moves the game "
                                "may never end, so play stops here, scored by its `repetition` rule.\n"
                                "Game over: Ann wins (Ann scores 1).\n")


def test_a_position_met_again_through_the_dice_does_not_end_the_game() -> None:
    """Pig to 3: a player who rolls a 1 passes the turn with the scores unchanged, so positions
    come back through the dice; the game still plays to a winner."""
    done = play("games/pig.gdl", "-p", "goal=3", "--as", "none", "--seed", "3", "--depth", "4", typed="")
    assert done.returncode == 0, done.stderr
    assert "repetition" not in done.stdout and "Game over: " in done.stdout and " wins" in done.stdout
    assert "First plays roll  (expected value " in done.stdout  # with dice, as a tablebase says it too
    assert "solved first" not in done.stdout  # a --depth asks for a search


def test_a_small_game_of_dice_is_solved_first_and_played_perfectly() -> None:
    """Pig to 10: searched move by move, play rested on estimates (0.349 a depth ahead) where
    rolls bring positions back; every position is solved first instead (1,476 of them), and
    the computer plays from the true value, 4591/10961 (proven by value iteration in
    tests/strong/test_pig.py), which a search to a depth does not give."""
    done = play("games/pig.gdl", "-p", "goal=10", "--as", "none", "--seed", "3", typed="")
    assert done.returncode == 0, done.stderr
    assert "(every position of Pig solved first, 1,476 in " in done.stdout
    assert "s: the computer plays perfectly.)" in done.stdout
    assert "First plays roll  (expected value 4591/10961 (~0.4188) for First, every position solved)" in done.stdout
    assert "Game over: " in done.stdout


def test_hints_and_moves_of_a_game_of_dice_come_from_every_position_solved() -> None:
    """Hog to 21 with up to 3 dice: the best first move is 3 dice, worth about 0.2352 for
    First (the game's header; proven in tests/games/test_hog.py by a dynamic programme)."""
    done = play("games/hog.gdl", "--as", "Second", "--seed", "1", typed="quit\n")
    assert "(every position of Hog solved first, 3,870 in " in done.stdout
    assert "First plays 3  (expected value " in done.stdout
    assert "~0.2352 (exactly a fraction: 84 digits over 84 digits) for First, every position solved)" in done.stdout
    done = play("games/hog.gdl", typed="hint\nquit\n")
    assert "hint: 3 (expected value ~0.2352 (exactly a fraction: 84 digits over 84 digits) for First, every position solved)" \
        in done.stdout


def test_a_game_of_dice_too_big_to_solve_first_is_searched_and_says_so() -> None:
    """Pig to 100 takes minutes to solve: past the time given, play searches move by move."""
    from gdl import load
    from gdl.cli.play import solve_first

    solved, words = solve_first(load("games/pig.gdl"), seconds=0.5)
    assert solved is None
    assert words == ("solving every position of Pig takes more than 0.5 s or 2,000,000 positions, so the searcher "
                     "plays move by move; a tablebase plays perfectly: `gdl solve FILE --strong --out DB` (with the "
                     "same parameters), then `gdl play FILE --tablebase DB`")


def test_a_searcher_that_cannot_search_the_game_is_refused_before_the_first_move() -> None:
    """Pig has dice, which alpha-beta and minimax cannot search; ends.gdl has three players,
    which no two-player searcher takes: refused at once (exit 2, no board shown), as `gdl
    solve` refuses them, rather than an internal error at the computer's first turn."""
    cases = [("games/pig.gdl", "alphabeta", "alphabeta cannot search Pig: it has chance nodes"),
             ("games/pig.gdl", "minimax", "minimax cannot search Pig: it has chance nodes"),
             ("games/ends.gdl", "expectiminimax", "expectiminimax needs a two-player game")]
    for file, algorithm, words in cases:
        done = play(file, "--algorithm", algorithm, typed="hint\n1\n")
        assert done.returncode == 2, (algorithm, done.stderr)
        assert done.stdout == ""
        assert done.stderr.startswith(f"gdl play: error: {words}"), done.stderr


def test_a_game_that_never_ends_stops_the_play_with_an_error_not_an_internal_error(tmp_path: Path) -> None:
    """Monte Carlo tree search plays a game with no evaluation; its random games of a game that
    never ends give up after 100,000 moves, which `gdl play` says as `gdl solve` does: an error of
    the game file (exit status 1)."""
    endless = tmp_path / "endless.gdl"
    endless.write_text(
        'game "Count up"\nplayers A, B\nstate:\n    total = 0\n    mover = A\nto_move = mover\n'
        "moves = [1, 2]\nresult(m):\n    total += m\n    mover = other(mover)\nterminal = total < 0\n"
        "utility = 1 if mover == B else -1\n")
    done = play(str(endless), "--as", "none", "--iterations", "5", typed="")
    assert done.returncode == 1, done.stderr
    assert done.stderr.startswith(f"{endless}: error: a random game of Count up went 100,000 moves without ending")
    assert "internal error" not in done.stderr


def test_paranoid_plays_with_values_for_the_first_player_in_a_game_of_two() -> None:
    """In a game of two, every value `gdl play` prints is the first player's: paranoid search
    playing the second player prints First's value, as alpha-beta does (it printed the
    second player's own payoff under First's name: 1 where First loses).  Subtraction with 3
    stones: First loses whatever it takes (value -1 for First)."""
    for algorithm in ("alphabeta", "paranoid"):
        done = play("games/subtraction.gdl", "-p", "stones=3", "--algorithm", algorithm, typed="1\n")
        assert "Second plays 2  (value -1 for First, exact)" in done.stdout, (algorithm, done.stdout)
        assert "Game over: Second wins (First scores -1)." in done.stdout


def test_a_name_that_several_moves_print_asks_for_the_number(tmp_path: Path) -> None:
    """Every move prints as `x`: typing `x` names the moves 1 and 2, not none of them (it was
    "`x` is not a legal move here. Legal moves: x, x, x"); a number picks one."""
    dup = tmp_path / "dup.gdl"
    dup.write_text('game "Dup"\nplayers A, B\nstate:\n    n = 3\n    mover = A\nto_move = mover\n'
                   "moves = [1, 2] if n >= 2 else [1]\nresult(m):\n    n -= m\n    mover = other(mover)\n"
                   'terminal = n <= 0\nutility = 1 if mover == B else -1\ndef move_name(m) = "x"\n')
    done = play(str(dup), typed="x\n2\n")
    assert "`x` could be any of 2 moves here, whose names read the same: type its number (1, 2)" in done.stdout
    assert "A to move> 2\n\nn = 1\nmover = B" in done.stdout
    assert done.returncode == 0


# Nim where a move takes one counter from one heap or from two: moves of one item and of two,
# written in the file as lists and printed as tuples.
LIST_MOVES = """players First, Second
param piles = (2, 2)
state:
    heaps = list(piles)
    mover = First
to_move = mover
nonempty = [i for i in range(len(heaps)) if heaps[i] > 0]
moves = [[i] for i in nonempty] + [[i, j] for i in nonempty for j in nonempty if i < j]
result(m):
    for i in m:
        heaps[i] -= 1
    mover = other(mover)
terminal = nonempty == []
utility = 1 if mover == Second else -1
"""


def test_a_move_of_one_item_is_typed_and_printed_as_the_file_writes_it(tmp_path: Path) -> None:
    import gdl

    path = tmp_path / "lists.gdl"
    path.write_text(LIST_MOVES)
    game = gdl.load(path, piles=(0, 1, 3))
    state = game.initial_state()
    assert game.actions(state) == ((1,), (2,), (1, 2))
    for typed in ("(2,)", "2,", "[2]", "2", " [ 2 ] "):
        assert game.parse_move(state, typed) == (2,)
    assert game.parse_move(state, "[1,2]") == (1, 2)
    # Only the comma that ends the whole name: a tuple of one inside another still counts.
    assert game.shared_names([((1,), 2), (1, 2)]) == []
    assert game.shared_names([(2,), 2]) == [["[2]", "2"]]
    # `2` names the move (2,): the moves are not numbered, so that `2` is never the second one.
    # Lists are printed as the file writes them, in brackets: the moves and the field `heaps`.
    assert [game.format_move(move) for move in game.actions(state)] == ["[1]", "[2]", "[1, 2]"]
    done = play(str(path), "-p", "piles=(1, 2, 3)", "--algorithm", "alphabeta", typed="(0, 1)\n2\n")
    assert "heaps = [1, 2, 3]\nmover = First\nlegal moves: [0]  [1]  [2]  [0, 1]  [0, 2]  [1, 2]\n" in done.stdout
    assert "First to move> (0, 1)\n\nheaps = [0, 1, 3]" in done.stdout
    assert "Second plays [1, 2]" in done.stdout  # the only move that wins: heaps [0, 0, 2]
    assert "First to move> 2\n\nheaps = [0, 0, 1]" in done.stdout
    assert done.returncode == 0 and "Traceback" not in done.stderr
