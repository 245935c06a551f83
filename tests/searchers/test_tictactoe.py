"""Tic-tac-toe: the game value, node counts, and the lecture's depth-limited values."""

from __future__ import annotations

from searchers import alphabeta, expectiminimax, minimax, perft
from tests.pygames import TicTacToe

CENTRE, CORNERS, EDGES = (1, 1), [(0, 0), (0, 2), (2, 0), (2, 2)], [(0, 1), (1, 0), (1, 2), (2, 1)]
GAME_TREE_NODES = 549_946  # positions in the full game tree, the empty board included
FINISHED_GAMES = 255_168


def test_plain_minimax_visits_the_whole_game_tree() -> None:
    result = minimax(TicTacToe())
    assert (result.value, result.exact) == (0, True)
    assert result.stats.nodes == GAME_TREE_NODES
    assert result.stats.leaves == FINISHED_GAMES
    assert result.stats.depth == 9
    assert set(result.move_values.values()) == {0}


def test_alphabeta_refinements_each_cut_nodes_further() -> None:
    game = TicTacToe()
    plain = alphabeta(game)
    with_table = alphabeta(game, table=True)
    with_symmetry = alphabeta(game, table=True, symmetry=True)
    assert plain.value == with_table.value == with_symmetry.value == 0
    assert GAME_TREE_NODES > plain.stats.nodes > with_table.stats.nodes > with_symmetry.stats.nodes
    assert with_table.stats.table_hits > 0
    assert all(r.exact for r in (plain, with_table, with_symmetry))


def test_principal_variation_is_a_drawn_game() -> None:
    game = TicTacToe()
    for result in (alphabeta(game), alphabeta(game, table=True, ordering=True, symmetry=True)):
        state = game.initial_state()
        for move in result.pv:
            state = game.result(state, move)
        assert len(result.pv) == 9 and game.is_terminal(state)
        assert game.utility(state, "X") == 0


def test_depth_one_evaluation_prefers_centre_then_corners() -> None:
    for search in (minimax, alphabeta, expectiminimax):
        result = search(TicTacToe(), depth=1)
        assert result.move_values == {move: 4 if move == CENTRE else 3 if move in CORNERS else 2
                                      for move in TicTacToe().actions(TicTacToe().initial_state())}
        assert (result.value, result.move, result.exact) == (4, CENTRE, False)


def test_depth_two_minimax_values() -> None:
    result = minimax(TicTacToe(), depth=2)
    assert result.move_values[CENTRE] == 1
    assert all(result.move_values[move] == -1 for move in CORNERS)
    assert all(result.move_values[move] == -2 for move in EDGES)
    assert (result.value, result.move, result.stats.depth) == (1, CENTRE, 2)
    pruned = alphabeta(TicTacToe(), depth=2, table=True, ordering=True)
    assert (pruned.value, pruned.move) == (1, CENTRE)
    assert pruned.move_bounds[CENTRE] == "estimate"  # minimax's value at depth 2, not cut: the evaluation's
    assert {pruned.move_bounds[move] for move in CORNERS + EDGES} <= {"estimate", "upper"}
    assert pruned.stats.nodes < result.stats.nodes


def test_search_from_a_given_state_and_root_move_bounds() -> None:
    game = TicTacToe()
    state = game.initial_state()
    for move in [(0, 0), (1, 1), (2, 2)]:  # X, O, X: O must answer on an edge
        state = game.result(state, move)
    exact = minimax(game, state)
    assert exact.to_move == "O" and exact.value == 0
    # A corner lets X fork and win: +1 from X's view.
    assert exact.move_values == {move: 10 if move in CORNERS else 0 for move in exact.move_values}
    pruned = alphabeta(game, state)
    assert (pruned.value, pruned.move) == (0, (0, 1))
    for move, value in pruned.move_values.items():
        bound = pruned.move_bounds[move]
        true = exact.move_values[move]
        # O minimises: a refuted move is only shown to be no better than 0 for O.
        assert bound == "exact" and value == true or bound == "lower" and true >= value >= 0
    assert pruned.move_bounds[(0, 2)] == "lower"


# Move sequences of each length that do not pass through a finished game.
TIC_TAC_TOE_PERFT = [1, 9, 72, 504, 3024, 15120, 54720, 148176, 200448, 127872]


def test_perft_counts_sequences_and_adds_up_to_the_game_tree() -> None:
    counts = [perft(TicTacToe(), depth) for depth in range(10)]
    assert counts == TIC_TAC_TOE_PERFT
    assert sum(counts) == GAME_TREE_NODES and perft(TicTacToe(), 10) == 0


def test_depth_zero_evaluates_the_root() -> None:
    for search in (minimax, alphabeta, expectiminimax):
        result = search(TicTacToe(), depth=0)
        assert (result.value, result.move, result.pv, result.exact) == (0, None, [], False)
        assert result.stats.nodes == 1 and result.stats.leaves == 1


class _EvaluationsByMarks(TicTacToe):
    """Tic-tac-toe that records how many marks each evaluated board has."""

    def __init__(self) -> None:
        self.marks_evaluated: set[int] = set()

    def evaluate(self, state: tuple[tuple[str, ...], str], player: str) -> int:
        self.marks_evaluated.add(sum(cell != "." for cell in state[0]))
        return super().evaluate(state, player)


def test_evaluation_ordering_limited_to_the_first_plies_evaluates_only_there() -> None:
    # ordering_plies=2 ranks the moves of the root and of its children: the boards evaluated
    # have 1 or 2 marks; the value is the game's, a draw, as with no ordering at all.
    game = _EvaluationsByMarks()
    limited = alphabeta(game, table=True, ordering=True, ordering_plies=2)
    assert game.marks_evaluated == {1, 2}
    everywhere = _EvaluationsByMarks()
    full = alphabeta(everywhere, table=True, ordering=True)
    assert max(everywhere.marks_evaluated) > 2
    assert limited.value == full.value == alphabeta(TicTacToe()).value == 0
