"""Chess (games/chess.gdl): the perft counts of the Chess Programming Wiki, moves named in UCI,
castling, en passant and promotion by the rules, the end of a game, and FEN mistakes."""

from __future__ import annotations

import subprocess
import sys
from functools import cache
from pathlib import Path
from typing import Any

import pytest

import gdl
from benchmarks.suites.chess_perft import known_counts
from gdl.checker import check
from gdl.errors import Source
from interpreter import build as build_game
from searchers.perft import perft

ROOT = Path(__file__).resolve().parents[2]
CHESS = ROOT / "games" / "chess.gdl"

# The positions of tests/games/chess_perft.epd (the counts of the Chess Programming Wiki), in order.
POSITIONS = list(known_counts().items())
START, KIWIPETE, POSITION_3, POSITION_4, POSITION_4_MIRRORED, POSITION_5 = (fen for fen, _ in POSITIONS)
# The depths proven here (a few seconds in all); the deeper counts are for the benchmark.
DEPTHS = {START: 4, KIWIPETE: 3, POSITION_3: 3, POSITION_4: 3, POSITION_4_MIRRORED: 3, POSITION_5: 3}


@cache
def parsed() -> tuple[Source, Any]:
    """The file parsed once: a position is a parameter, and parsing the same text again is slow."""
    source = Source(str(CHESS), CHESS.read_text())
    return source, gdl.parse(source.text, source.name)


@cache
def chess(fen: str = START) -> Any:
    """The game from the position of the FEN (as `gdl.load(CHESS, fen=fen)`, parsed once)."""
    source, program = parsed()
    return build_game(check(program, source, {"fen": fen}))


def names(fen: str, state: Any = None) -> set[str]:
    """The legal moves, in UCI, at the position of the FEN or at a state of its game."""
    game = chess(fen)
    return {game.format_move(m) for m in game.actions(game.initial_state() if state is None else state)}


def play(fen: str, *moves: str) -> Any:
    """The state after the moves, typed as UCI."""
    game = chess(fen)
    state = game.initial_state()
    for move in moves:
        state = game.result(state, game.parse_move(state, move))
    return state


@pytest.mark.parametrize(("fen", "depth"), [(fen, d) for fen, counts in POSITIONS for d in counts if d <= DEPTHS[fen]])
def test_perft_counts_of_the_chess_programming_wiki(fen: str, depth: int) -> None:
    counts = dict(POSITIONS)[fen]
    assert perft(chess(fen), depth) == counts[depth]


def test_the_default_start_is_the_standard_position() -> None:
    assert gdl.load(CHESS).initial_state() == chess(START).initial_state()


def test_moves_are_named_in_uci() -> None:
    # The twenty first moves, written out by hand: each pawn one or two squares, each knight two ways.
    pawns = {f"{f}2{f}{r}" for f in "abcdefgh" for r in "34"}
    knights = {"b1a3", "b1c3", "g1f3", "g1h3"}
    assert names(START) == pawns | knights
    game = chess(START)
    state = game.initial_state()
    assert game.format_move(game.parse_move(state, "e2e4")) == "e2e4"


def test_a_pawn_on_the_last_rank_promotes_to_any_piece() -> None:
    # Position 5: the pawn on d7 takes the bishop on c8 and becomes any of four pieces.
    assert {"d7c8q", "d7c8r", "d7c8b", "d7c8n"} <= names(POSITION_5)
    assert "d7c8" not in names(POSITION_5)
    assert chess(POSITION_5).display(play(POSITION_5, "d7c8n")).splitlines()[0] == "8 r n N q . k . r"


def test_castling_is_neither_out_of_nor_through_nor_into_check() -> None:
    free = "r3k2r/8/8/8/8/8/8/R3K2R w KQkq - 0 1"
    assert {"e1g1", "e1c1"} <= names(free)
    # After a1a2 White keeps only the short castling; a black rook then comes to the e, f or g file.
    assert "e1g1" not in names(free, play(free, "a1a2", "e8d7", "a2a3", "h8e8"))     # out of check
    assert "e1g1" not in names(free, play(free, "a1a2", "h8f8"))     # through f1
    assert "e1g1" not in names(free, play(free, "a1a2", "h8g8"))     # into g1
    assert "e1g1" in names(free, play(free, "a1a2", "h8h7"))
    # After h1h2 only the long one: the king passes d1 to c1, and b1 may be attacked.
    assert "e1c1" in names(free, play(free, "h1h2", "a8b8"))
    assert "e1c1" not in names(free, play(free, "h1h2", "a8d8"))
    assert "e1c1" not in names(free, play(free, "a1a2", "a8a7"))     # the rook moved: no right
    # Castling moves the rook; a rook that moved and came back has lost the right.
    assert chess(free).display(play(free, "e1g1")).splitlines()[7] == "1 R . . . . R K ."
    back = play(free, "e1g1", "h8h7", "a1b1", "h7h8", "b1b2")
    assert "e8g8" not in names(free, back) and "e8c8" in names(free, back)


def test_en_passant_only_at_once_and_never_exposing_the_king() -> None:
    opening = play(START, "e2e4", "d7d5", "e4e5", "f7f5")
    assert "e5f6" in names(START, opening)
    assert "e5d6" not in names(START, opening)          # d5 was not the last move
    rank_5 = chess(START).display(play(START, "e2e4", "d7d5", "e4e5", "f7f5", "e5f6")).splitlines()[3]
    assert rank_5 == "5 . . . p . . . ."                 # the pawn on f5 is taken
    assert "e5f6" not in names(START, play(START, "e2e4", "d7d5", "e4e5", "f7f5", "b1c3", "a7a6"))
    # Position 3: taking en passant would empty the fifth rank between the king on a5
    # and the rook on h5; with the king on a4 it is legal.
    assert "b5c6" not in names(POSITION_3, play(POSITION_3, "b4b1", "c7c5"))
    assert "b5c6" in names(POSITION_3, play(POSITION_3, "a5a4", "c7c5"))


def test_checkmate_is_a_loss_and_stalemate_a_draw() -> None:
    game = chess(START)
    fools_mate = play(START, "f2f3", "e7e5", "g2g4", "d8h4")
    assert game.is_terminal(fools_mate) and game.utility(fools_mate, game.players[0]) == -10000
    # Sam Loyd's ten-move stalemate: 1. e3 a5 2. Qh5 Ra6 3. Qxa5 h5 4. h4 Rah6 5. Qxc7 f6
    # 6. Qxd7+ Kf7 7. Qxb7 Qd3 8. Qxb8 Qh7 9. Qxc8 Kg6 10. Qe6, Black to move.
    stalemate = play(START, "e2e3", "a7a5", "d1h5", "a8a6", "h5a5", "h7h5", "h2h4", "a6h6", "a5c7", "f7f6",
                     "c7d7", "e8f7", "d7b7", "d8d3", "b7b8", "d3h7", "b8c8", "f7g6", "c8e6")
    assert list(game.actions(stalemate)) == []
    assert game.is_terminal(stalemate) and game.utility(stalemate, game.players[0]) == 0


def test_a_hundred_quiet_half_moves_draw_unless_the_last_one_mates() -> None:
    fen = "7k/8/6K1/8/8/8/1P6/R7 w - - 99 80"
    game = chess(fen)
    quiet = play(fen, "a1a2")
    assert game.is_terminal(quiet) and game.utility(quiet, game.players[0]) == 0
    mate = play(fen, "a1a8")
    assert game.is_terminal(mate) and game.utility(mate, game.players[0]) == 10000
    assert not game.is_terminal(play(fen, "b2b3"))       # a pawn move starts the count again


def test_the_evaluation_of_the_symmetric_start_is_zero() -> None:
    game = chess(START)
    assert game.evaluate(game.initial_state(), game.players[0]) == 0


@pytest.mark.parametrize(("fen", "why"), [
    ("8/8/8/8/8/8/8/8 w - - 0 1", "each side needs exactly one king"),
    ("rnbqkbnr/pppppppp/9/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1", "`9` in rank 6 is neither a piece letter nor a digit 1-8"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN w KQkq - 0 1", "rank 1 has 7 squares, not 8"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR x KQkq - 0 1", "the side to move must be `w` or `b`"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KX - 0 1", "castling rights are `-` or some of `KQkq`"),
    ("rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq e9 0 1", "the en passant square `e9` is no square a pawn"),
    ("4k3/8/8/8/8/8/8/r3K3 b - - 0 1", "the side not to move is in check"),
])
def test_a_bad_fen_is_an_error_at_the_rule_that_reads_it(fen: str, why: str) -> None:
    with pytest.raises(gdl.GdlError) as caught:
        gdl.load(CHESS, fen=fen)
    error = caught.value
    assert f'bad FEN "{fen}": ' in error.message and why in error.message
    line = CHESS.read_text().splitlines()[error.line - 1]
    assert "bad_fen" in line or "fen" in line


def test_a_bad_fen_on_the_command_line_is_one_located_message() -> None:
    run = subprocess.run([sys.executable, "-m", "gdl", "perft", str(CHESS), "--depth", "1", "-p", 'fen="8/8/8/8/8/8/8/8 w - - 0 1"'],
                         capture_output=True, text=True)
    assert run.returncode == 1
    first = run.stderr.splitlines()[0]
    assert first.startswith(f"{CHESS}:") and ": error: bad FEN" in first and "Traceback" not in run.stderr
