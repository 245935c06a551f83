"""mcts: Monte Carlo tree search. Its speed in iterations (playouts) a second from the start of
tic-tac-toe and connect four 6x7, on the game file and on the same game written by hand; and,
in the full run only, its strength: MCTS at one second a move (random playouts to the end)
against alpha-beta at depth 4 with the file's evaluation (table, ordering) over 20 games of
connect four, each side first in half of them; the value is MCTS's (won, drawn, lost)."""

from __future__ import annotations

from typing import Any

from benchmarks import games
from benchmarks.harness import Case, Contender, Outcome
from searchers import alphabeta, mcts

TITLE = "Monte Carlo tree search: iterations a second, and games against alpha-beta"

MATCH_GAMES = 20
MATCH_SECONDS = 1.0
MATCH_DEPTH = 4


def playouts(iterations: int) -> Any:
    """A seeded search of ``iterations`` from the work's start; the value is the iterations
    made (the searches of the two contenders differ once their random draws do), the nodes
    counted as iterations so that the table's rate is iterations a second."""
    def work(game: Any, state: Any) -> Outcome:
        result = mcts(game, state, iterations=iterations, seed=1)
        if result.interrupted:  # the searchers turn Ctrl-C into a result; the run must stop
            raise KeyboardInterrupt
        return Outcome(result.stats.iterations, result.stats.iterations)
    return work


def play_one(game: Any, mcts_first: bool, seed: int) -> Any:
    """One game of MCTS against alpha-beta; MCTS's utility at the end."""
    mcts_player = game.players[0 if mcts_first else 1]
    state, turn = game.initial_state(), 0
    while not game.is_terminal(state):
        if game.to_move(state) == mcts_player:
            move = mcts(game, state, time=MATCH_SECONDS, seed=seed * 1_000 + turn).move
        else:
            move = alphabeta(game, state, depth=MATCH_DEPTH, table=True, ordering=True).move
        state, turn = game.result(state, move), turn + 1
    return game.utility(state, mcts_player)


def match(game: Any) -> Outcome:
    """MATCH_GAMES games, MCTS first in the even ones: (won, drawn, lost) for MCTS."""
    outcomes = [play_one(game, number % 2 == 0, number) for number in range(MATCH_GAMES)]
    tally = (sum(1 for u in outcomes if u > 0), sum(1 for u in outcomes if u == 0), sum(1 for u in outcomes if u < 0))
    return Outcome(tally)


def cases(quick: bool) -> list[Case]:
    """Iterations a second on each game (fewer iterations when ``quick``); the match only in a
    full run."""
    tictactoe, connect = games.tictactoe(), games.connect_four()
    small, large = (200, 50) if quick else (5_000, 1_000)
    chosen = [
        Case("mcts", f"tic-tac-toe, {small:,} iterations from the start", tictactoe.contenders(playouts(small)),
             expected=small),
        Case("mcts", f"connect four 6x7, {large:,} iterations from the start", connect.contenders(playouts(large)),
             expected=large),
    ]
    if not quick:
        file = connect.file
        chosen.append(Case(
            "mcts", f"connect four 6x7: MCTS {MATCH_SECONDS:g} s a move vs alpha-beta depth {MATCH_DEPTH}, "
            f"{MATCH_GAMES} games (won, drawn, lost)",
            [Contender(f"game file ({connect.path})", lambda: match(file))],
            rate_shown=False, same=lambda a, b: True,  # each run's games differ with the machine's speed
        ))
    return chosen
