"""OpenSpiel: its C++ games driven from Python by its Python `alpha_beta_search`.

`pyspiel`'s connect_four takes `rows` and `columns` (and `x_in_row`), and its `nim` takes the
pile sizes and normal or misère play, so every `Work` is OpenSpiel's own game. The search keeps
no table and counts no nodes.
"""

from __future__ import annotations

from typing import Any

from benchmarks.harness import Outcome
from benchmarks.peers import Peer, Solver, Work, sign


def load(work: Work) -> Any:
    """OpenSpiel's game for ``work``."""
    import pyspiel

    if work.game == "tictactoe":
        return pyspiel.load_game("tic_tac_toe")
    if work.game == "nim":
        return pyspiel.load_game("nim", {"pile_sizes": ";".join(map(str, work.piles)), "is_misere": False})
    return pyspiel.load_game("connect_four", {"rows": work.rows, "columns": work.cols, "x_in_row": 4})


def solver(work: Work) -> Solver:
    """Solve ``work`` with OpenSpiel's alpha-beta; the value is player 0's (the first mover's)."""
    from open_spiel.python.algorithms.minimax import alpha_beta_search

    game = load(work)

    def run() -> Outcome:
        value, _ = alpha_beta_search(game, maximum_depth=work.longest, maximizing_player_id=0)
        return Outcome(sign(value))

    return run, None


PEER = Peer("OpenSpiel alpha_beta_search", "pyspiel",
            "C++ games, Python search, no table",
            frozenset({"tictactoe", "nim", "connect"}), solver)
