"""walk: a full walk of the tic-tac-toe tree (every node: moves, result, terminal test, and
the utility of every terminal state), by games/tictactoe.gdl and by the same game written by
hand in Python (`tests.pygames.TicTacToe`: a tuple of nine cells, lines checked in a loop),
with no searcher in between. The ratio is the cost of writing the game in the language."""

from __future__ import annotations

from typing import Any

from benchmarks import games
from benchmarks.harness import Case, Outcome, Target

TITLE = "full walk of the tic-tac-toe tree: game file vs hand-written Python"

TREE_NODES = 549_946  # the whole tree, the root included (games/tictactoe.gdl's header)


def walk(game: Any, state: Any) -> Outcome:
    """Visit every node below ``state``: the nodes, and the sum of the first player's
    utilities at the terminal states (a check that both games score alike)."""
    actions, result, is_terminal, utility = game.actions, game.result, game.is_terminal, game.utility
    first = game.players[0]

    def visit(state: Any) -> tuple[int, int]:
        if is_terminal(state):
            return 1, utility(state, first)
        nodes, total = 1, 0
        for move in actions(state):
            n, t = visit(result(state, move))
            nodes += n
            total += t
        return nodes, total

    nodes, total = visit(state)
    return Outcome(total, nodes)


def cases(quick: bool) -> list[Case]:
    """The full walk; with ``quick``, the walk below the centre and a corner (7! leaves at
    most)."""
    if quick:
        twins = games.tictactoe(after=(4, 0))
        return [Case("walk", "tic-tac-toe walk after 2 moves", twins.contenders(walk))]
    twins = games.tictactoe()
    return [Case("walk", "tic-tac-toe full walk", twins.contenders(walk, Target("<=", 1.3)), nodes=TREE_NODES)]
