"""chess_perft: perft from the start position of chess, by python-chess (the base) and by
games/chess.gdl once that file exists. Both count as `gdl perft` does: the moves at the last
ply are counted, not played. Perft 4 is 197,281 (perft 2, in quick runs, 400)."""

from __future__ import annotations

from typing import Any

from benchmarks import ROOT
from benchmarks.harness import Case, Contender, Outcome, Target
from benchmarks.peers import installed, not_installed

TITLE = "chess perft from the start: games/chess.gdl vs python-chess"

PERFT = {2: 400, 4: 197_281}  # the known counts from the start position
CHESS_FILE = "games/chess.gdl"


def python_chess(depth: int) -> Contender:
    """python-chess's move generator, by the usual perft loop."""
    if not installed("chess"):
        return Contender("python-chess", None, not_installed("chess"))
    import chess

    def count(board: Any, depth: int) -> int:
        if depth == 1:
            return board.legal_moves.count()
        total = 0
        for move in board.legal_moves:
            board.push(move)
            total += count(board, depth - 1)
            board.pop()
        return total

    return Contender("python-chess", lambda: Outcome(count(chess.Board(), depth)))


def game_file(depth: int) -> Contender:
    """games/chess.gdl under `searchers.perft`; "not available" until the file exists."""
    name, target = f"game file ({CHESS_FILE})", Target("<=", 5)
    if not (ROOT / CHESS_FILE).exists():
        return Contender(name, None, f"not available: {CHESS_FILE} does not exist yet", target)
    import gdl
    from searchers import perft

    try:
        game = gdl.load(ROOT / CHESS_FILE)
    except gdl.GdlError as error:
        return Contender(name, None, f"not available: {error}", target)
    return Contender(name, lambda: Outcome(perft(game, depth)), target=target)


def cases(quick: bool) -> list[Case]:
    """Perft 4, or perft 2 in a quick run."""
    depth = 2 if quick else 4
    return [Case("chess_perft", f"chess perft {depth} from the start", [python_chess(depth), game_file(depth)],
                 expected=PERFT[depth])]
