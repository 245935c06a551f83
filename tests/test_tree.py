"""`gdl tree`: the searched tree as the textbooks draw it."""

from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

from gdl.cli import main
from tests.strong.test_plain_solve import COIN as COIN_FOR_TWO


def tree(capsys: object, *args: str) -> str:
    """The standard output of `gdl tree ARGS`."""
    assert main(["tree", *args]) == 0
    return capsys.readouterr().out  # type: ignore[attr-defined]


def leaf_values(text: str) -> list[int]:
    """The leaf values of a text tree, in the order the search evaluated them."""
    found = re.findall(r"= (-?\d+)  leaf #(\d+)", text)
    return [int(value) for value, _ in sorted(found, key=lambda pair: int(pair[1]))]


def test_aima_alphabeta_prunes_c2_and_c3(capsys: object) -> None:
    text = tree(capsys, "games/textbook/aima.gdl", "--algorithm", "alphabeta")
    assert leaf_values(text) == [3, 12, 8, 2, 14, 5, 2]
    assert re.findall(r"(\w+)  (?:= -?\d+  )?pruned", text) == ["C2", "C3"]
    # The figures show the pruned leaves' values, which the search itself never read.
    assert "C2  = 4  pruned" in text and "C3  = 6  pruned" in text
    assert "C  MIN <= 2  [alpha 3, beta +inf]" in text
    assert "value 3, best move B; 7 leaves evaluated" in text


def test_pruning_tree_prunes_e2_and_all_of_g(capsys: object) -> None:
    text = tree(capsys, "games/textbook/pruning.gdl")
    assert leaf_values(text) == [2, 3, 5, 0, 1]
    assert re.findall(r"(\w+)  (?:= -?\d+  )?pruned", text) == ["E2", "G"]
    assert "E2  = 9  pruned" in text and "G  pruned" in text


def test_minimax_prunes_nothing(capsys: object) -> None:
    text = tree(capsys, "games/textbook/aima.gdl", "--algorithm", "minimax")
    assert "pruned" not in text
    assert leaf_values(text) == [3, 12, 8, 2, 4, 6, 14, 5, 2]


def test_dot_marks_max_min_leaves_and_pruned_branches(capsys: object) -> None:
    text = tree(capsys, "games/textbook/aima.gdl", "--format", "dot")
    assert text.startswith("digraph search {")
    assert text.count("shape=triangle") == 1      # A, the MAX root
    assert text.count("shape=invtriangle") == 3   # B, C, D
    assert text.count("shape=box, style=dashed") == 2  # C2 and C3, pruned
    assert text.count("shape=box, label") == 7         # the evaluated leaves
    assert 'label="4\\npruned"' in text and 'label="6\\npruned"' in text


def test_svg_is_written_to_a_file(tmp_path: Path) -> None:
    out = tmp_path / "aima.svg"
    done = subprocess.run(
        [sys.executable, "-m", "gdl", "tree", "games/textbook/aima.gdl", "--format", "svg", "-o", str(out)],
        capture_output=True, text=True, timeout=60,
    )
    assert done.returncode == 0, done.stderr
    picture = out.read_text()
    assert "<svg" in picture and "</svg>" in picture
    assert picture.count("pruned") == 2


def test_an_output_file_gdl_cannot_write_is_refused(tmp_path: Path, capsys: object) -> None:
    """`-o a.png` wrote text into a.png; `-o` into a folder that does not exist was an internal
    error.  Both are refused in words (status 2, nothing written); `.svg` and `.txt` name their
    formats."""
    aima = "games/textbook/aima.gdl"
    assert main(["tree", aima, "-o", str(tmp_path / "a.png")]) == 2
    assert capsys.readouterr().err.startswith(  # type: ignore[attr-defined]
        "gdl tree: error: gdl tree writes text, Graphviz dot or SVG, not .png")
    assert main(["tree", aima, "-o", str(tmp_path / "none" / "a.svg")]) == 2
    assert capsys.readouterr().err == (  # type: ignore[attr-defined]
        f"gdl tree: error: cannot write {tmp_path / 'none' / 'a.svg'}: No such file or directory\n")
    assert sorted(path.name for path in tmp_path.iterdir()) == []
    assert main(["tree", aima, "-o", str(tmp_path / "a.svg")]) == 0
    assert main(["tree", aima, "-o", str(tmp_path / "a.txt")]) == 0
    assert main(["tree", aima, "-o", str(tmp_path / ".drawing")]) == 0  # a dotfile: no extension, text
    assert leaf_values((tmp_path / ".drawing").read_text()) == [3, 12, 8, 2, 14, 5, 2]
    assert (tmp_path / "a.svg").read_text().startswith("<svg")
    assert leaf_values((tmp_path / "a.txt").read_text()) == [3, 12, 8, 2, 14, 5, 2]


def test_max_nodes_keeps_big_trees_readable(capsys: object) -> None:
    text = tree(capsys, "games/tictactoe.gdl", "--depth", "2", "--max-nodes", "5")
    assert "more nodes not shown (raise --max-nodes)" in text
    assert text.startswith("root  MAX = 1")


NAMED_MOVES = r'''game "Names"
players A, B
state:
    done = false
to_move = A
moves = [1, 2, 3, 4]
def move_name(m) = ["back\\slash", "say \"hi\"", "\\N and \\G", "two\nlines"][m - 1]
result(m):
    done = true
terminal = done
utility = 0
'''


def dot_edge_labels(text: str) -> list[str]:
    """The edge labels of dot source as Graphviz draws them: the quoted string read as the dot
    language reads it, then as a label (`\\\\` a backslash, `\\n` a line break); any other
    escape (`\\N` the node's name...) would draw something else, and fails here."""
    labels = []
    for quoted in re.findall(r'-> n\d+ \[label="((?:[^"\\]|\\.)*)"', text):
        drawn, i = [], 0
        while i < len(quoted):
            if quoted[i] == "\\":
                drawn.append({"\\": "\\", '"': '"', "n": "\n"}[quoted[i + 1]])
                i += 2
            else:
                drawn.append(quoted[i])
                i += 1
        labels.append("".join(drawn))
    return labels


def test_dot_labels_show_backslashes_quotes_and_line_breaks_as_written(tmp_path: Path, capsys: object) -> None:
    path = tmp_path / "names.gdl"
    path.write_text(NAMED_MOVES)
    text = tree(capsys, str(path), "--format", "dot")
    assert dot_edge_labels(text) == ["back\\slash", 'say "hi"', "\\N and \\G", "two\nlines"]


COIN = """game "Coin"
players A, B
state:
    stage = 0
    score = 0
to_move = chance if stage == 0 else B
moves = [] if stage == 0 else [2, -1]
outcomes = [(1, 1 / 3), (0, 2 / 3)]
result(m):
    if stage == 0:
        stage = 2 if m == 1 else 1
        score = m
    else:
        score = m
        stage = 2
terminal = stage == 2
utility = score
"""


def test_a_game_with_dice_is_drawn_by_expectiminimax(tmp_path: Path, capsys: object) -> None:
    """A coin falls 1 (A scores 1) a third of the time, else B picks 2 or -1 (-1, of course):
    the value is 1/3 * 1 + 2/3 * -1 = -1/3.  `gdl tree` draws it with expectiminimax, the
    searcher `gdl solve` takes for a game with dice (it named expectiminimax in its error, but
    refused it as an --algorithm), each outcome with its probability."""
    coin = tmp_path / "coin.gdl"
    coin.write_text(COIN)
    text = tree(capsys, str(coin))
    assert "root  CHANCE = -1/3 (~-0.3333)" in text
    assert "1 (p=1/3)  = 1  leaf #1" in text
    assert "0 (p=2/3)  MIN = -1" in text
    assert "value -1/3 (~-0.3333), best move none; 3 leaves evaluated" in text
    assert tree(capsys, str(coin), "--algorithm", "expectiminimax") == text
    assert main(["tree", str(coin), "--algorithm", "alphabeta"]) == 2
    assert "use expectiminimax (gdl tree draws the searches of minimax, alphabeta, expectiminimax, maxn)" in (
        capsys.readouterr().err)  # type: ignore[attr-defined]


def test_a_value_that_is_not_exact_says_why(capsys: object) -> None:
    """A tree cut off by --depth ends in estimates, and says so under its value."""
    text = tree(capsys, "games/connect.gdl", "-p", "rows=3", "-p", "cols=3", "-p", "k=3", "--depth", "1")
    assert text.endswith("not exact: the search stopped 1 move ahead and estimated the positions there with the "
                         "evaluation\n")


def test_positions_that_repeat_through_the_dice_are_drawn_to_a_depth_only(capsys: object) -> None:
    """Pig's positions repeat through the dice (two 1s in a row): a search to the end goes round
    them again and again, and `gdl tree` ran on past 2 GB; it stops at the first such repetition
    and asks for --depth, with which it draws (Pig has an evaluation).  Max^n, which also
    searches dice, stops there too (it ran on for ever)."""
    for algorithm in ([], ["--algorithm", "maxn"]):
        assert main(["tree", "games/pig.gdl", "--max-nodes", "20", *algorithm]) == 2
        err = capsys.readouterr().err  # type: ignore[attr-defined]
        assert err == ("gdl tree: error: positions of Pig repeat through the dice: a search to the end searches them "
                       "again each time round, which may take very long (Pig to 100 ran past 2 GB); give --depth N "
                       "to draw it N moves deep, estimated there by the game's evaluation (a game without one is "
                       "drawn to the end)\n")
    text = tree(capsys, "games/pig.gdl", "--depth", "2", "--max-nodes", "8")
    assert text.startswith("root  MAX") and "roll  CHANCE" in text


# The coin game of tests/strong/test_plain_solve.py, for three: the turn passes on at tails.
COIN_FOR_THREE = (
    COIN_FOR_TWO.replace('game "Coin"', 'game "Coin for three"').replace("players A, B", "players A, B, C")
    .replace("other(mover)", "next(mover)")
    .replace("utility = 1 if mover == A else -1", "utility = (1, 0, 0) if mover == A else (0, 1, 0) if mover == B else (0, 0, 1)")
)


def test_a_game_without_an_evaluation_is_drawn_to_the_end_though_its_positions_repeat_through_the_dice(
        capsys: object, tmp_path: Path) -> None:
    """A depth needs an evaluation: where the game has none, the search to the end is drawn,
    the repetition scored by the rule and said to be not exact (it was refused, and --depth
    was refused in turn).  Each player flips in turn, heads wins; A's tails, B's, C's and A's
    again: the repetition, scored 0 for all.  So A gets 1/2, B 1/4, C 1/8 (by hand: A wins at
    once half the time, else B is where A was, one flip down)."""
    game = tmp_path / "coin3.gdl"
    game.write_text(COIN_FOR_THREE)
    text = tree(capsys, str(game))
    assert text.startswith("root  A picks = (A 1/2, B 1/4, C 1/8)\n└── flip  CHANCE = (A 1/2, B 1/4, C 1/8)\n")
    # The repetition is said to be one, and not numbered among the leaves evaluated (it was #4 of "3").
    assert "C picks = (A 0, B 0, C 1/2)" in text and "tails (p=1/2)  = (A 0, B 0, C 0) (a repetition)\n" in text
    assert "leaf #3" in text and "leaf #4" not in text
    # In a picture the mark goes below the leaf's box, where a number goes: the box holds the value.
    svg = tree(capsys, str(game), "--format", "svg")
    assert 'text-anchor="middle">(A 0, B 0, C 0)</text>' in svg and 'font-size="9">a repetition</text>' in svg
    assert text.endswith("value (A 1/2, B 1/4, C 1/8), best move flip; 3 leaves evaluated, 10 nodes\nnot exact: "
                         "positions repeat through chance nodes (1 time): there the game goes on, but a depth-first "
                         "search can only score the repetition by the game's repetition rule\n")
