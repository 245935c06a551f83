"""solve: exact solves from the initial state by `gdl solve` with the command line's own
defaults, and the same solves by each peer library in the same run: OpenSpiel's
`alpha_beta_search` on its C++ games, easyAI's Negamax with its transposition table (on its
bundled games, and on connect four also on a lean one), aima3's `alphabeta_search` (see
`benchmarks.peers`). Values are compared as win, draw or loss for the
first player, whatever each library's scale. A peer that is not installed says so in its row."""

from __future__ import annotations

import argparse
import contextlib
import io
from collections.abc import Callable

from benchmarks import ROOT
from benchmarks.harness import Case, Contender, Outcome, Target
from benchmarks.peers import Peer, Work, aima, easyai, installed, not_installed, openspiel, sign
from gdl.cli import build_parser
from gdl.cli.common import load_game
from gdl.cli.solve import run_search

TITLE = "exact solves: gdl solve's defaults vs the peers"

PEERS: tuple[Peer, ...] = (openspiel.PEER, easyai.PEER, easyai.LEAN, aima.PEER)

# (work, game file, its -p parameters, the first player's known result: 1 win, 0 draw, -1 loss
# or None when the contenders need only agree, quick)
WORKS: list[tuple[Work, str, list[str], int | None, bool]] = [
    (Work("tic-tac-toe", "tictactoe"), "games/tictactoe.gdl", [], 0, True),
    (Work("Nim (3, 4, 5)", "nim", piles=(3, 4, 5)), "games/nim.gdl", ["piles=(3, 4, 5)"], 1, True),  # nim-sum 2
    (Work("connect four 4x4", "connect", rows=4, cols=4), "games/connect.gdl", ["rows=4", "cols=4", "k=4"], 0, False),
    (Work("connect four 5x4", "connect", rows=5, cols=4), "games/connect.gdl", ["rows=5", "cols=4", "k=4"], None, False),
    (Work("connect four 4x5", "connect", rows=4, cols=5), "games/connect.gdl", ["rows=4", "cols=5", "k=4"], None, False),
]

# The targets: gdl's defaults at least 10x faster on 4x5 than OpenSpiel and easyAI (both styles).
TARGETS = {("connect four 4x5", peer.name): Target(">=", 10) for peer in (openspiel.PEER, easyai.PEER, easyai.LEAN)}


def gdl_solver(path: str, params: list[str]) -> Callable[[], Outcome]:
    """`gdl solve PATH -p ...` as the command line runs it (its parser gives the defaults:
    alpha-beta with the table, move ordering and the game's symmetries), without loading
    the file in the timing and without the progress line."""
    arguments = ["solve", str(ROOT / path)]
    for param in params:
        arguments += ["-p", param]
    args: argparse.Namespace = build_parser().parse_args(arguments)
    game = load_game(args)

    def run() -> Outcome:
        with contextlib.redirect_stderr(io.StringIO()):  # not a terminal: no progress line
            result = run_search(game, args)
        if result.interrupted:  # the searchers turn Ctrl-C into a result; the run must stop
            raise KeyboardInterrupt
        if not result.exact:
            raise RuntimeError(f"gdl solve gave an inexact value: {result.inexact_reason}")
        return Outcome(sign(result.value), result.stats.nodes)

    return run


def peer_contender(peer: Peer, work: Work) -> Contender:
    """The peer's row: its solver, or why it has none."""
    target = TARGETS.get((work.name, peer.name))
    if not installed(peer.module):
        return Contender(peer.name, None, not_installed(peer.module), target)
    run, value_of = peer.solver(work)
    return Contender(peer.name, run, peer.note, target, value_of)


def cases(quick: bool) -> list[Case]:
    """One case per solve; ``quick`` keeps tic-tac-toe and Nim."""
    return [
        Case("solve", work.name,
             [Contender("gdl solve (command-line defaults)", gdl_solver(path, params)),
              *(peer_contender(peer, work) for peer in PEERS if work.game in peer.games)],
             expected=expected)
        for work, path, params, expected, is_quick in WORKS
        if is_quick or not quick
    ]
