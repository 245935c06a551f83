"""chess_perft: perft of chess positions by python-chess (the base) and by games/chess.gdl.

Both count as `gdl perft` does: the moves at the last ply are counted, not played. The cases
are perft 4 from the start (197,281) and perft 3 from "Kiwipete" (97,862); in quick runs, perft
2 and 1. The positions and their counts are read from tests/games/chess_perft.epd, which names
their source (the Chess Programming Wiki, "Perft Results")."""

from __future__ import annotations

from typing import Any

from benchmarks import ROOT
from benchmarks.harness import Case, Contender, Outcome, Target
from benchmarks.peers import installed, not_installed

TITLE = "chess perft: games/chess.gdl vs python-chess"

CHESS_FILE = "games/chess.gdl"
PERFT_DATA = ROOT / "tests" / "games" / "chess_perft.epd"
START = "rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBNR w KQkq - 0 1"
KIWIPETE = "r3k2r/p1ppqpb1/bn2pnp1/3PN3/1p2P3/2N2Q1p/PPPBBPPP/R3K2R w KQkq - 0 1"
# (name, FEN, depth, depth in a quick run)
POSITIONS = [("the start", START, 4, 2), ("Kiwipete", KIWIPETE, 3, 1)]


def known_counts() -> dict[str, dict[int, int]]:
    """The perft counts of tests/games/chess_perft.epd: FEN -> depth -> count."""
    counts = {}
    for line in PERFT_DATA.read_text().splitlines():
        if line.startswith("#") or not line.strip():
            continue
        fen, *fields = line.split(" ;")
        counts[fen] = {int(depth[1:]): int(nodes) for depth, nodes in (field.split() for field in fields)}
    return counts


def python_chess(fen: str, depth: int) -> Contender:
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

    return Contender("python-chess", lambda: Outcome(count(chess.Board(fen), depth)))


def game_file(fen: str, depth: int) -> Contender:
    """games/chess.gdl from the FEN, under `searchers.perft` (loaded before the timing)."""
    name, target = f"game file ({CHESS_FILE})", Target("<=", 5)
    import gdl
    from searchers import perft

    try:
        game = gdl.load(ROOT / CHESS_FILE, fen=fen)
    except gdl.GdlError as error:
        return Contender(name, None, f"not available: {error}", target)
    return Contender(name, lambda: Outcome(perft(game, depth)), target=target)


def cases(quick: bool) -> list[Case]:
    """Perft 4 from the start and 3 from Kiwipete, or 2 and 1 in a quick run."""
    counts = known_counts()
    found = []
    for title, fen, depth, quick_depth in POSITIONS:
        depth = quick_depth if quick else depth
        found.append(Case("chess_perft", f"chess perft {depth} from {title}", [python_chess(fen, depth), game_file(fen, depth)],
                          expected=counts[fen][depth]))
    return found
