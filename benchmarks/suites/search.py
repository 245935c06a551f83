"""search: the cost per node of the same searcher on a game file and on the same game written
by hand (`tests.pygames`): minimax and alpha-beta solving tic-tac-toe, depth-limited searches
of 6x7 connect four (the evaluation counts open windows in both); and the searchers' own
overhead: `searchers.minimax` against a lean inline minimax on the hand-written tic-tac-toe."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from benchmarks import games
from benchmarks.harness import Case, Contender, Outcome, Target
from searchers import SearchResult, alphabeta, minimax
from tests.pygames import TicTacToe

TITLE = "per-node cost under the same searcher: game file vs hand-written Python"

CONNECT_TARGET = Target("<=", 1.5)


def searching(search: Callable[[Any, Any], SearchResult]) -> Callable[[Any, Any], Outcome]:
    """A search as work: its value and the nodes it visited."""
    def work(game: Any, state: Any) -> Outcome:
        result = search(game, state)
        if result.interrupted:  # the searchers turn Ctrl-C into a result; the run must stop
            raise KeyboardInterrupt
        return Outcome(result.value, result.stats.nodes)
    return work


def inline_minimax(game: Any, state: Any) -> Outcome:
    """Textbook minimax as a lean recursive function: the value and the nodes visited."""
    first = game.players[0]
    to_move, actions, result = game.to_move, game.actions, game.result
    is_terminal, utility = game.is_terminal, game.utility
    nodes = 0

    def value(state: Any) -> Any:
        nonlocal nodes
        nodes += 1
        if is_terminal(state):
            return utility(state, first)
        values = [value(result(state, move)) for move in actions(state)]
        return max(values) if to_move(state) == first else min(values)

    return Outcome(value(state), nodes)


def cases(quick: bool) -> list[Case]:
    """The cases; ``quick`` starts tic-tac-toe after two moves and searches connect four
    less deep."""
    after = (4, 0) if quick else ()
    where = "after 2 moves" if quick else "full"
    tictactoe, connect = games.tictactoe(after), games.connect_four()
    depths = (2, 3, 3) if quick else (4, 5, 6)
    hand = TicTacToe()
    start = tictactoe.start(hand)
    return [
        Case("search", f"tic-tac-toe minimax, {where}", tictactoe.contenders(searching(lambda g, s: minimax(g, s))), per_node=True),
        Case("search", f"tic-tac-toe alphabeta, {where}", tictactoe.contenders(searching(lambda g, s: alphabeta(g, s))), per_node=True),
        Case("search", f"connect four 6x7 minimax depth {depths[0]}",
             connect.contenders(searching(lambda g, s: minimax(g, s, depth=depths[0])), CONNECT_TARGET), per_node=True),
        Case("search", f"connect four 6x7 alphabeta depth {depths[1]}",
             connect.contenders(searching(lambda g, s: alphabeta(g, s, depth=depths[1])), CONNECT_TARGET), per_node=True),
        Case("search", f"connect four 6x7 alphabeta depth {depths[2]}, table + ordering",
             connect.contenders(searching(lambda g, s: alphabeta(g, s, depth=depths[2], table=True, ordering=True)),
                                CONNECT_TARGET), per_node=True),
        Case("search", f"searchers' overhead: tic-tac-toe minimax, {where}", [
            Contender("inline minimax (hand-written game)", lambda: inline_minimax(hand, start)),
            Contender("searchers.minimax (hand-written game)", lambda: searching(lambda g, s: minimax(g, s))(hand, start)),
        ], per_node=True),
    ]
