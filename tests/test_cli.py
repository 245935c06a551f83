"""The `gdl` command, run as a real process: check, perft and solve, `-p` overrides, help, and
errors that never end in a Python traceback."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor
from importlib.metadata import entry_points
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
GAMES = sorted(str(p.relative_to(ROOT)) for p in (ROOT / "games").rglob("*.gdl"))


def gdl_script() -> str:
    """The installed `gdl` console script: on the PATH, or next to this Python."""
    found = shutil.which("gdl") or shutil.which("gdl", path=str(Path(sys.executable).parent))
    assert found is not None, "the gdl console script is not installed"
    return found


def gdl(*args: str, timeout: float = 120) -> subprocess.CompletedProcess[str]:
    """Run `gdl ARGS...` from the project root."""
    env = {k: v for k, v in os.environ.items() if k != "GDL_DEBUG"}
    return subprocess.run(
        [gdl_script(), *args], cwd=ROOT, capture_output=True, text=True, timeout=timeout, env=env
    )


def no_traceback(run: subprocess.CompletedProcess[str]) -> None:
    assert "Traceback" not in run.stdout + run.stderr
    assert "internal error" not in run.stderr


# ---- the entry point ---------------------------------------------------------------------------


def test_the_gdl_script_is_installed_and_runs() -> None:
    script = gdl_script()
    assert Path(script).name == "gdl"
    scripts = {e.name: e.value for e in entry_points(group="console_scripts")}
    assert scripts.get("gdl") == "gdl.cli:main"
    run = subprocess.run([sys.executable, "-c", "from gdl.cli import main; print(callable(main))"], capture_output=True, text=True)
    assert run.returncode == 0 and run.stdout == "True\n"


def test_a_ctrl_c_while_gdl_loads_stops_it_quietly(capsys: pytest.CaptureFixture[str],
                                                   monkeypatch: pytest.MonkeyPatch) -> None:
    """The `gdl` script starts by `from gdl.cli import main`, which loads neither Lark nor the
    searchers (a Ctrl-C there, a quarter of a second, printed a Python traceback); they load
    inside `main`, where a Ctrl-C ends the command quietly with exit status 130."""
    run = subprocess.run([sys.executable, "-c", "import sys; from gdl.cli import main; "
                          "print(sorted(m for m in ('lark', 'searchers', 'interpreter', 'gdl.parser') if m in sys.modules))"],
                         capture_output=True, text=True)
    assert run.stdout == "[]\n", run.stderr
    import gdl
    import gdl.cli

    assert {"parse", "parse_value", "Tablebase", "build_tablebase", "load"} <= set(dir(gdl))

    def interrupted(name: str) -> None:
        raise KeyboardInterrupt

    monkeypatch.setattr(gdl.cli, "import_module", interrupted)
    assert gdl.cli.main(["check", "games/subtraction.gdl"]) == 130
    assert capsys.readouterr() == ("", "")


def test_python_m_gdl_is_the_same_command() -> None:
    run = subprocess.run([sys.executable, "-m", "gdl", "check", "games/subtraction.gdl"], cwd=ROOT, capture_output=True, text=True)
    assert run.returncode == 0
    assert run.stdout.startswith("games/subtraction.gdl: ok: Subtraction")


# ---- gdl check ---------------------------------------------------------------------------------


def test_check_accepts_every_bundled_game() -> None:
    assert {"games/tictactoe.gdl", "games/nim.gdl", "games/subtraction.gdl", "games/textbook/aima.gdl"} <= set(GAMES)
    with ThreadPoolExecutor(max_workers=2) as pool:
        runs = dict(zip(GAMES, pool.map(lambda path: gdl("check", path), GAMES)))
    for path, run in runs.items():
        assert run.returncode == 0, f"{path}: {run.stderr}"
        assert run.stdout.startswith(f"{path}: ok: "), run.stdout
        assert run.stderr == ""


def test_check_says_what_it_found() -> None:
    run = gdl("check", "games/nim.gdl")
    assert run.stdout == "games/nim.gdl: ok: Nim: 2 players (First, Second); parameters piles=(3, 4, 5), misere=false\n"


BROKEN = """game "Broken"
players A, B
state:
    n = 0
to_move = A
moves = [1, 2]
result(m):
    n += mm
terminal = n >= "three"
utility = 0
"""


def test_check_reports_every_mistake_with_its_line_and_a_caret(tmp_path: Path) -> None:
    path = tmp_path / "broken.gdl"
    path.write_text(BROKEN)
    run = gdl("check", str(path))
    assert run.returncode == 1
    assert run.stdout == ""
    assert run.stderr.splitlines() == [
        f"{path}:8:10: error: unknown name `mm`; did you mean `m`?",
        "        n += mm",
        "             ^",
        f"{path}:9:12: error: `>=` compares numbers (or strings), not an integer and a string",
        '    terminal = n >= "three"',
        "               ^",
    ]
    no_traceback(run)


def test_check_reports_a_syntax_error(tmp_path: Path) -> None:
    path = tmp_path / "syntax.gdl"
    path.write_text(BROKEN.replace("utility = 0", "utility = 'zero'"))
    run = gdl("check", str(path))
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        f'{path}:10:11: error: strings are written in double quotes: "like this"',
        "    utility = 'zero'",
        "              ^",
    ]
    no_traceback(run)


def test_check_of_a_missing_file(tmp_path: Path) -> None:
    path = tmp_path / "missing.gdl"
    run = gdl("check", str(path))
    assert run.returncode == 1
    assert run.stderr == f"{path}: error: cannot read the game file: No such file or directory\n"
    no_traceback(run)


def test_a_rule_that_fails_while_running_is_reported_with_the_state(tmp_path: Path) -> None:
    path = tmp_path / "failing.gdl"
    path.write_text(BROKEN.replace("n += mm", "n += 1 / (m - 2)").replace('n >= "three"', "n >= 3 or n <= -3"))
    assert gdl("check", str(path)).returncode == 0  # nothing is wrong before the game runs
    # perft plays the moves in order: 1 from the start (fine), then 2 from the start.
    run = gdl("perft", str(path), "--depth", "2")
    assert run.returncode == 1
    assert run.stderr.splitlines() == [
        f"{path}:8:10: error: division by zero",  # at the division
        "        n += 1 / (m - 2)",
        "             ^",
        "where:",  # the move the rule was given: the local names the line reads
        "    m = 2",
        "in the state:",
        "    n = 0",
    ]
    assert json.loads(gdl("perft", str(path), "--depth", "1", "--json").stdout)["nodes"] == 2
    no_traceback(run)
    run = gdl("solve", str(path))
    assert run.returncode == 1
    assert run.stderr.splitlines()[:6] == [
        f"{path}:8:10: error: division by zero",  # at the division
        "        n += 1 / (m - 2)",
        "             ^",
        "where:",
        "    m = 2",
        "in the state:",
    ]
    no_traceback(run)


# ---- parameters on the command line ------------------------------------------------------------


def test_p_overrides_a_parameter() -> None:
    run = gdl("check", "games/nim.gdl", "-p", "piles=(1, 2)", "-p", "misere=true")
    assert run.returncode == 0
    assert run.stdout == "games/nim.gdl: ok: Nim: 2 players (First, Second); parameters piles=(1, 2), misere=true\n"
    run = gdl("perft", "games/nim.gdl", "-p", "piles=(1, 2)", "--depth", "1", "--json")
    assert json.loads(run.stdout)["nodes"] == 3
    run = gdl("perft", "games/tictactoe.gdl", "--param", "size=4", "--depth", "2", "--json")
    assert json.loads(run.stdout)["nodes"] == 240


@pytest.mark.parametrize(
    ("option", "status", "message"),
    [
        ("pile=3", 1, "games/nim.gdl:18:7: error: the game has no parameter `pile`; did you mean `piles`? (its parameters: piles, misere)"),
        ("piles=3", 1, "games/nim.gdl:18:7: error: parameter `piles` is a tuple (default (3, 4, 5)), but an integer (3) was given"),
        ("misere=1", 1, "games/nim.gdl:19:7: error: parameter `misere` is a boolean (default false), but an integer (1) was given"),
        ('piles=(1, "a")', 1, "games/nim.gdl:18:7: error: each item of parameter `piles` must be an integer (default (3, 4, 5)), but one given is a string"),
        ("piles=(1,", 1, "games/nim.gdl:18:7: error: -p piles: `(1,` is not a value written as in the language (e.g. 5, true, (3, 4, 5))"),
        ("piles=__import__('os')", 1, "games/nim.gdl:18:7: error: -p piles: `__import__('os')` is not a value written as in the language (e.g. 5, true, (3, 4, 5))"),
        ("piles=zz", 1, "games/nim.gdl:18:7: error: the value given for parameter `piles` is not valid: unknown name `zz`"),
        ("piles=(1, 1 // 0)", 1, "games/nim.gdl:18:7: error: the value given for parameter `piles` fails: division by zero"),
        ("piles", 2, "gdl check: error: -p expects NAME=VALUE (e.g. -p rows=5), got `piles`"),
        ("=3", 2, "gdl check: error: -p expects NAME=VALUE (e.g. -p rows=5), got `=3`"),
    ],
)
def test_a_bad_p_option_is_shown_at_the_parameter_declaration(option: str, status: int, message: str) -> None:
    """A mistake in a -p value is located at the `param` line it is about (or, for a name the
    game lacks, at its first `param`), with the line and a caret under the name."""
    run = gdl("check", "games/nim.gdl", "-p", option)
    assert run.returncode == status
    assert run.stdout == ""
    first, *rest = run.stderr.splitlines()
    assert first == message
    if status == 1:
        line = int(message.split(":")[1])
        declared = Path("games/nim.gdl").read_text().splitlines()[line - 1]
        assert declared.startswith("param ")
        assert rest == [f"    {declared}", "    " + " " * 6 + "^"]
    no_traceback(run)


# ---- gdl perft and gdl solve -------------------------------------------------------------------


def test_perft_of_tictactoe_at_depth_nine() -> None:
    run = gdl("perft", "games/tictactoe.gdl", "--depth", "9", "--json")
    assert run.returncode == 0
    result = json.loads(run.stdout)
    assert (result["depth"], result["nodes"]) == (9, 127872)


def test_perft_in_words() -> None:
    run = gdl("perft", "games/textbook/aima.gdl", "--depth", "2")
    assert run.returncode == 0
    assert run.stdout.startswith("perft(2) = 9  (")


def test_a_perft_deeper_than_any_search_is_refused_as_a_misuse() -> None:
    """A depth of 100,000 moves or more is no count anyone waits for: a misuse of --depth (exit
    2), not the game's fault (it was "does the game ever end?", before that an internal error);
    99,999 on tic-tac-toe counts 0, every game being over by 9 moves."""
    run = gdl("perft", "games/tictactoe.gdl", "--depth", "100000")
    assert (run.returncode, run.stderr) == (2, "gdl perft: error: perft depth must be below 100,000 moves, not 100,000\n")
    run = gdl("perft", "games/tictactoe.gdl", "--depth", "99999", "--json")
    assert run.returncode == 0 and json.loads(run.stdout)["nodes"] == 0


def test_solve_tictactoe() -> None:
    run = gdl("solve", "games/tictactoe.gdl", "--json")
    assert run.returncode == 0
    result = json.loads(run.stdout)
    assert result["value"] == 0 and result["exact"] is True
    assert result["to_move"] == "X"
    cells = {f"({r}, {c})" for r in range(3) for c in range(3)}
    assert result["best_move"] in cells
    assert set(result["move_values"]) == cells
    assert len(result["principal_variation"]) == 9 and result["principal_variation"][0] == result["best_move"]
    assert result["stats"]["nodes"] > 0 and result["stats"]["seconds"] >= 0


def test_solve_subtraction_of_five() -> None:
    run = gdl("solve", "games/subtraction.gdl", "-p", "stones=5", "--json")
    assert run.returncode == 0
    result = json.loads(run.stdout)
    assert (result["value"], result["exact"], result["best_move"], result["to_move"]) == (1, True, "2", "First")
    assert result["move_values"]["2"] == 1


def test_solve_subtraction_in_words() -> None:
    run = gdl("solve", "games/subtraction.gdl", "-p", "stones=6")
    assert run.returncode == 0
    assert run.stdout.startswith("Subtraction: Second wins (value -1)\n")


def test_a_win_is_the_top_score_of_a_game_whose_scores_run_from_minus_it_to_it(tmp_path: Path) -> None:
    """A value is called a win only where the game's scores are known to run from -w to w
    (win, draw, loss) and the value is w or -w.  Two ply's leaves run from -4 to 5: its value
    1 (MAX takes E, MIN then F, MAX -1 or 1: 1) is in MAX's favour, not a win (it said "MAX
    wins").  A game scored 5, 0 or -5 whose first player takes the last of 2 stones: "A wins
    (value 5)" (it said "in A's favour").  Tic-tac-toe's positions by value, scored 10, 0 and
    -10: wins, draws and losses, 2,936, 1,068 and 1,474 (its known counts, docs/games.md)."""
    run = gdl("solve", "games/textbook/two_ply.gdl")
    assert run.stdout.startswith("Two ply: value 1 for MAX, in MAX's favour\n"), run.stdout
    five = tmp_path / "five.gdl"
    five.write_text('game "Five"\nplayers A, B\nstate:\n    left = 2\n    mover = A\nto_move = mover\n'
                    "moves = [m for m in [1, 2] if m <= left]\nresult(m):\n    left -= m\n    mover = other(mover)\n"
                    "terminal = left == 0\nutility = -5 if mover == A else 5\n")
    run = gdl("solve", str(five))
    assert run.stdout.startswith("Five: A wins (value 5)\n"), run.stdout
    run = gdl("solve", "games/tictactoe.gdl", "--strong")
    assert "\nby value: X wins 2,936, draws 1,068, O wins 1,474\n" in run.stdout, run.stdout


def test_what_a_search_finds_wrong_with_the_game_is_an_error_of_its_file(tmp_path: Path) -> None:
    """A game that never ends (a total counted up, never over): `gdl solve` and `gdl tree` search
    100,000 moves deep and say so as an error of the game file, exit status 1, as `gdl check`
    says a mistake (it was exit status 2, a misuse of the command); a searcher that cannot
    search the game is still a misuse (exit 2)."""
    endless = tmp_path / "endless.gdl"
    endless.write_text('game "Count up"\nplayers A, B\nstate:\n    total = 0\n    mover = A\nto_move = mover\n'
                       "moves = [1, 2]\nresult(m):\n    total += m\n    mover = other(mover)\n"
                       "terminal = total < 0\nutility = 1 if mover == B else -1\n")
    for command in ("solve", "tree"):
        run = gdl(command, str(endless))
        assert run.returncode == 1, run.stderr
        assert run.stderr == (f"{endless}: error: the search went 100,000 moves deep without the game ending or a "
                              "position repeating: does the game ever end?\n")
    run = gdl("solve", "games/pig.gdl", "--algorithm", "alphabeta")
    assert run.returncode == 2 and run.stderr.startswith("gdl solve: error: alphabeta cannot search Pig")


def test_solve_a_textbook_tree_with_minimax() -> None:
    run = gdl("solve", "games/textbook/aima.gdl", "--algorithm", "minimax", "--json")
    result = json.loads(run.stdout)
    assert (result["value"], result["best_move"], result["move_values"]) == (3, "B", {"B": 3, "C": 2, "D": 2})


# ---- help --------------------------------------------------------------------------------------


def subcommands() -> list[str]:
    from gdl.cli import build_parser

    parser = build_parser()
    action = next(a for a in parser._actions if a.dest == "command")
    return sorted(action.choices)


def test_help_lists_every_command_with_examples() -> None:
    run = gdl("--help")
    assert run.returncode == 0
    assert "examples:" in run.stdout
    assert {"check", "perft", "solve"} <= set(subcommands())
    for command in subcommands():
        assert f"\n    {command} " in run.stdout
    for command in ("check", "perft", "solve"):
        assert f"\n  gdl {command} games/" in run.stdout


@pytest.mark.parametrize("command", subcommands())
def test_each_command_has_help_with_an_example(command: str) -> None:
    run = gdl(command, "--help")
    assert run.returncode == 0
    assert "example" in run.stdout
    # Every command names a game file, but query, which reads a tablebase.
    assert f"  gdl {command} " + ("ttt.sqlite" if command == "query" else "games/") in run.stdout
    assert "-p NAME=VALUE" in run.stdout


@pytest.mark.parametrize("args, message", [
    (["solve", "games/tictactoe.gdl", "--depth", "0"], "--depth must be 1 or more (the moves to look ahead), not 0"),
    (["play", "games/tictactoe.gdl", "--depth", "0", "--as", "none"], "--depth must be 1 or more"),
    (["tree", "games/tictactoe.gdl", "--depth", "-1"], "--depth must be 1 or more (the moves to look ahead), not -1"),
    (["solve", "games/tictactoe.gdl", "--time", "nan"], "--time must be a positive number of seconds, not nan"),
    (["play", "games/tictactoe.gdl", "--time", "0"], "--time must be a positive number of seconds, not 0"),
    (["check", "--deep", "--max-moves", "-1", "games/nim.gdl"], "--max-moves must be 1 or more, not -1"),
    (["check", "--deep", "--games", "0", "games/nim.gdl"], "--games must be 1 or more, not 0"),
    (["check", "--games", "5", "games/nim.gdl"], "--games needs --deep (it sets how the random games are played)"),
    (["solve", "games/nim.gdl", "-p", "misere=true", "-p", " misere = false"],
     "-p misere is given twice (`misere=true`, then ` misere = false`): give each parameter once"),
])
def test_a_limit_no_search_can_use_is_refused(args: list[str], message: str) -> None:
    """A search 0 moves deep has no move to choose: `play` applied the move None (an error
    blamed on the game file) and `solve` said the start was terminal; a time of nan reached
    the searcher; `check --deep` reported a game over "-1 moves" as a problem, and took
    `--games` without `--deep` in silence.  Each is refused, with the option's name."""
    run = gdl(*args)
    assert run.returncode == 2
    assert f"gdl {args[0]}: error: {message}" in run.stderr
    assert run.stdout == ""
    no_traceback(run)


def test_bounds_on_estimates_are_called_so() -> None:
    """At a depth limit alpha-beta's bounds are bounds on estimates, not on the game's value
    (the words said "the search proved only that these moves are no better"); to the end, the
    words are as before."""
    limited = gdl("solve", "games/connect.gdl", "-p", "rows=4", "-p", "cols=4", "--depth", "2")
    assert limited.returncode == 0
    assert ("  (<= and >= are bounds: the search proved only that these moves are no better than the estimate "
            "of the best)\n") in limited.stdout
    whole = gdl("solve", "games/tictactoe.gdl")
    assert "  (<= and >= are bounds: the search proved only that these moves are no better)\n" in whole.stdout
    # The exact value stands in the bounds' column: the centre is worth 0, every other move at most 0.
    assert "\n  (1, 0)  <= 0\n  (1, 1)     0\n  (1, 2)  <= 0\n" in whole.stdout


def test_no_command_is_a_usage_error() -> None:
    run = gdl()
    assert run.returncode == 2
    assert "usage: gdl" in run.stderr
    no_traceback(run)


def test_a_full_table_says_whether_it_kept_to_memory_or_to_its_fewest_entries(capsys: pytest.CaptureFixture[str]) -> None:
    """Under 16 positions' worth of --memory the table keeps 16 all the same: it said it kept
    within --memory.  Connect 4x4 in 300K fills a table of a few hundred positions and says
    it kept within it.  The value is the same either way."""
    from gdl.cli import main
    from searchers.table import FEWEST_ENTRIES

    assert main(["solve", "games/nim.gdl", "--memory", "100"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Nim: First wins (value 1)")
    assert f"\ntable: full at {FEWEST_ENTRIES} positions; " in out
    assert " were dropped, the fewest a table holds, whatever --memory says (more memory" in out
    assert main(["solve", "games/connect.gdl", "-p", "rows=4", "-p", "cols=4", "--memory", "300K"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("Connect-k: draw (value 0)") and " were dropped, to stay within --memory (more memory" in out


def test_a_principal_variation_says_where_it_stops_short_of_the_end(tmp_path: Path) -> None:
    """Hog to 10 with up to 2 dice: after the first choice (2 dice, as the game's header says)
    the dice move; take-away with a pass: from 3 stones both pass, and the line ends where the
    position comes back; from 4, where a repetition scores 1 for First, alpha-beta meets one
    repeated position, said in the singular."""
    hog = gdl("solve", "games/hog.gdl", "-p", "goal=10", "-p", "dice=2")
    assert hog.returncode == 0 and "\nprincipal variation: 2 (then the dice)\n" in hog.stdout  # the header's best
    def take_or_pass(stones: int, repetition: int) -> Path:
        path = tmp_path / f"take{stones}.gdl"
        path.write_text(f'game "Take"\nplayers First, Second\nstate:\n    pile = {stones}\n    mover = First\n'
                        'to_move = mover\nmoves = [n for n in [1, 2] if n <= pile] + ["pass"]\nresult(n):\n'
                        '    pile -= 0 if n == "pass" else n\n    mover = other(mover)\nterminal = pile == 0\n'
                        f"utility = 1 if mover == Second else -1\nrepetition = {repetition}\n")
        return path

    # From 3 stones a take leaves the other side the rest: both pass, and the position repeats.
    done = gdl("solve", str(take_or_pass(3, 0)))
    assert done.returncode == 0, done.stderr
    assert "Take: draw (value 0)\nbest move for First: pass\nprincipal variation: pass, pass (then a position " \
           "comes back)\n" in done.stdout
    done = gdl("solve", str(take_or_pass(4, 1)))
    assert done.returncode == 0, done.stderr  # the count's words named a local, and were an internal error
    assert done.stdout.endswith(", 1 repeated position scored by the repetition rule\n")


def test_each_command_says_how_many_playouts_mcts_makes_by_default() -> None:
    # gdl solve: searchers.mcts's own default; gdl play: the 2 s a move it gives a game without a limit.
    assert "(default 10000, or as many as --time allows)" in " ".join(gdl("solve", "--help").stdout.split())
    assert "(default as many as --time allows, or 2 s, a move)" in " ".join(gdl("play", "--help").stdout.split())
