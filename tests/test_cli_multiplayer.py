"""The command line with more than two players, and on games with no evaluation: max^n,
paranoid and Monte Carlo tree search from `gdl solve`, `gdl play` and `gdl tree`."""

from __future__ import annotations

import json
from pathlib import Path

from tests.multiplayer_games import AIMA_THREE_PLAYER_TREE
from tests.searchers.test_maxn import brute_maxn
from tests.test_cli import gdl, no_traceback


def test_three_player_json_gives_each_players_payoff_as_an_object() -> None:
    run = gdl("solve", "games/textbook/three_players.gdl", "--json")
    no_traceback(run)
    assert run.returncode == 0
    report = json.loads(run.stdout)
    # The book's tree, backed up by the brute force of the max^n tests.
    expected = dict(zip("ABC", brute_maxn(AIMA_THREE_PLAYER_TREE, "a")))
    assert report["value"] == expected and report["exact"] is True
    assert report["algorithm"] == "maxn" and report["best_move"] == "b1" and report["to_move"] == "A"
    assert report["principal_variation"] == ["b1", "c1", "c11"]
    assert report["move_values"] == {"b1": expected, "b2": dict(zip("ABC", brute_maxn(AIMA_THREE_PLAYER_TREE, "b2", 1)))}
    assert {"nodes", "seconds"} <= set(report["stats"])


def test_paranoid_json_names_the_player_its_number_is_for() -> None:
    run = gdl("solve", "games/textbook/three_players.gdl", "--algorithm", "paranoid", "--json")
    report = json.loads(run.stdout)
    # A against B and C: min over c1 (1, 4), c2 (6, 7) is 1; over c3 (5, 1), c4 (7, 5) is 1.
    assert report["value"] == {"A": 1}
    assert report["move_values"]["b1"] == {"A": 1}


def test_two_player_json_keeps_one_number() -> None:
    for options in (["--algorithm", "maxn"], ["--algorithm", "mcts", "--seed", "1"]):
        run = gdl("solve", "games/subtraction.gdl", "-p", "stones=5", *options, "--json")
        report = json.loads(run.stdout)
        assert isinstance(report["value"], (int, float))
        assert all(isinstance(v, (int, float)) for v in report["move_values"].values())


def test_a_time_limit_on_a_game_without_an_evaluation_uses_mcts_and_says_so() -> None:
    run = gdl("solve", "games/hex.gdl", "-p", "size=3", "--time", "0.5", "--json")
    no_traceback(run)
    assert run.returncode == 0
    report = json.loads(run.stdout)
    assert report["algorithm"] == "mcts"
    assert "Hex has no evaluation" in run.stderr and "Monte Carlo tree search estimates its value" in run.stderr
    assert sum(report["visits"].values()) <= report["stats"]["iterations"]


def test_the_same_seed_gives_the_same_search_from_the_command_line() -> None:
    runs = [json.loads(gdl("solve", "games/tictactoe.gdl", "--algorithm", "mcts", "--iterations", "500",
                           "--seed", "7", "--json").stdout) for _ in range(2)]
    assert runs[0]["visits"] == runs[1]["visits"] and runs[0]["best_move"] == runs[1]["best_move"]
    assert runs[0]["stats"]["iterations"] == 500


def test_options_for_another_searcher_are_usage_errors() -> None:
    run = gdl("solve", "games/tictactoe.gdl", "--algorithm", "alphabeta", "--iterations", "10")
    assert run.returncode == 2 and "--iterations is for --algorithm mcts" in run.stderr
    run = gdl("solve", "games/tictactoe.gdl", "--seed", "3")
    assert run.returncode == 2 and "--seed is for --algorithm mcts" in run.stderr
    run = gdl("solve", "games/textbook/three_players.gdl", "--algorithm", "alphabeta")
    assert run.returncode == 2 and "use maxn, paranoid or mcts" in run.stderr
    no_traceback(run)


def test_play_without_an_evaluation_uses_mcts_and_says_so() -> None:
    run = gdl("play", "games/hex.gdl", "-p", "size=2", "--as", "none", "--iterations", "200", "--seed", "1")
    no_traceback(run)
    assert run.returncode == 0
    assert "Hex has no evaluation" in run.stdout and "Monte Carlo tree search plays" in run.stdout
    assert "Game over: Red wins" in run.stdout  # 2x2: the first player wins, and MCTS proves it


def test_play_without_an_evaluation_plays_a_small_game_exactly() -> None:
    """Nim (1, 2, 3) is lost for the first player (its piles' xor is 0): a position solved
    within the first seconds is played by the exact search, not by random playouts, so the
    computer, as Second, wins every line."""
    run = gdl("play", "games/nim.gdl", "-p", "piles=(1, 2, 3)", "--as", "none", "--seed", "1")
    no_traceback(run)
    assert run.returncode == 0
    assert "a position solved exactly within 2 s is played exactly" in run.stdout
    moves = [line for line in run.stdout.splitlines() if " plays " in line]
    assert moves and all(line.endswith("(value -1 for First, exact)") for line in moves)
    assert "random playouts" not in run.stdout
    assert "Game over: Second wins" in run.stdout


def test_play_announces_every_players_payoff_at_the_end() -> None:
    run = gdl("play", "games/ends.gdl", "-p", "cards=(1, 5, 2, 4)", "--as", "none")
    no_traceback(run)
    # max^n: A takes 1 or 4 ... the whole line checked by the brute force of the game's tests.
    from tests.games.test_ends import brute_maxn as ends_maxn
    vector, _ = ends_maxn((1, 5, 2, 4))
    assert f"payoffs (A {vector[0]}, B {vector[1]}, C {vector[2]}))." in run.stdout


def test_tree_draws_the_max_n_tree_with_a_payoff_vector_at_each_node() -> None:
    run = gdl("tree", "games/textbook/three_players.gdl")
    no_traceback(run)
    lines = run.stdout.splitlines()
    assert lines[0] == "a  A picks = (A 1, B 2, C 6)"
    assert "│   └── c2  C picks = (A 6, B 1, C 2)" in lines
    assert "        └── c42  = (A 5, B 4, C 5)  leaf #8" in lines
    assert lines[-1] == "value (A 1, B 2, C 6), best move b1; 8 leaves evaluated, 15 nodes"


THREE_DICE = """game "Three dice"
players A, B, C
symbols roll
state:
    turn = 0
    rolling = false
    scores = {A: 0, B: 0, C: 0}
    mover = A
to_move = chance if rolling else mover
moves = [roll]
outcomes = [(1, 1/3), (2, 1/3), (3, 1/3)]
result(m):
    if rolling:
        scores[mover] = scores[mover] + m
        mover = next(mover)
        turn += 1
        rolling = false
    else:
        rolling = true
terminal = turn == 3
utility = {A: scores[A] * 1/7, B: scores[B], C: scores[C]}
"""


def test_three_player_json_gives_each_payoff_that_is_a_fraction_exactly(tmp_path: Path) -> None:
    path = tmp_path / "three.gdl"
    path.write_text(THREE_DICE)
    report = json.loads(gdl("solve", str(path), "--json").stdout)
    # Each player rolls one die once, 2 on average: A's payoff is a seventh of it.
    assert report["value"] == {"A": 2 / 7, "B": 2, "C": 2} and report["exact"] is True
    assert report["value_fraction"] == {"A": "2/7", "B": None, "C": None}
    assert report["move_value_fractions"] == {"roll": {"A": "2/7", "B": None, "C": None}}
    report = json.loads(gdl("solve", "games/textbook/three_players.gdl", "--json").stdout)
    assert report["value_fraction"] is None  # whole payoffs: the value says them exactly
    assert report["move_value_fractions"] is None


def test_paranoid_in_a_game_of_two_says_the_other_player(tmp_path: Path) -> None:
    path = tmp_path / "two.gdl"
    path.write_text("""game "Two payoffs"
players A, B
state:
    taken = 0
to_move = A
moves = [1, 2]
result(m):
    taken = m
terminal = taken > 0
utility = (taken, 3 - taken)
""")
    run = gdl("solve", str(path), "--algorithm", "paranoid")
    # A takes 2 and is sure of 2: B never moves.
    assert run.stdout.startswith("Two payoffs: A is sure of 2 whatever the other does (paranoid)\n")
