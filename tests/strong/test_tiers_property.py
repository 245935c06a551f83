"""Solving by tiers against solving the whole graph, on random small games with tiers: moves
that stay in their tier (cycles among them), moves that skip tiers, dice, repetition scores;
with the solver's sizes (chunks, slices, answers kept, rows a commit, graphs and frontiers
held in memory) at their defaults and shrunk to a node or two, so that a game of a few nodes
goes through every path a large one takes."""

from __future__ import annotations

import sqlite3
from contextlib import closing
from fractions import Fraction
from pathlib import Path
from tempfile import TemporaryDirectory
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings, strategies as st

import searchers.strong.parallel as parallel
import searchers.strong.scratch as scratch
import searchers.strong.tiers as tiers
from searchers.strong import solve_strong
from tests.strong.games import TieredGraph

KINDS = ["A", "B"]
REPETITION = [Fraction(-1), Fraction(-1, 2), Fraction(0), Fraction(1, 2), Fraction(1)]

# The solver's sizes, each shrunk so that a game of a few nodes crosses every bound.
TINY = [
    (tiers, "_SOLVE_CHUNK", 2), (tiers, "_SOLVE_CHUNK_LEAST", 1), (scratch, "_FRONTIER_KEPT", 1),
    (scratch, "_GRAPHS_HELD", 0), (tiers, "_COMMIT_ROWS", 1), (tiers, "_ANSWERS_KEPT", 1),
    (tiers, "_LOOK_SLICE", 1), (tiers, "_FOUND_PER_QUEUED", 0), (parallel, "_CHUNK", 1),
    (parallel, "_CLOSURE_LIMIT", 2),
]


@st.composite
def tiered_graphs(draw: Any, dice: bool) -> TieredGraph:
    """Up to ten nodes in up to five tiers, node 0 in the lowest; each node not an end moves to
    one to three nodes of its tier or higher ones, with the dice at random odds if ``dice``;
    the repetition scores drawn, or none (a draw).  Half the games have no cycle (a move inside
    a tier goes to a node numbered higher): most positions of a game with cycles are drawn for
    ever, and their remoteness is no number."""
    size = draw(st.integers(2, 10))
    node_tiers = (0, *draw(st.lists(st.integers(0, 4), min_size=size - 1, max_size=size - 1)))
    cycles = draw(st.booleans())
    kinds, arcs, weights, ends = [], [], [], []
    for node in range(size):
        reachable = [other for other in range(size) if node_tiers[other] > node_tiers[node] or (
            node_tiers[other] == node_tiers[node] and (cycles or other > node))]
        end = not reachable or (node > 0 and draw(st.integers(0, 3)) == 0)
        kind = "end" if end else draw(st.sampled_from(KINDS + ["dice"] * dice))
        children = () if end else tuple(draw(st.lists(st.sampled_from(reachable), min_size=1, max_size=3, unique=True)))
        kinds.append(kind)
        arcs.append(children)
        weights.append(tuple(draw(st.integers(1, 3)) for _ in children) if kind == "dice" else ())
        ends.append(draw(st.integers(-2, 2)) if end else 0)
    repetition = draw(st.none() | st.tuples(*[st.sampled_from(REPETITION)] * size))
    return TieredGraph(tuple(kinds), tuple(arcs), tuple(weights), tuple(ends), node_tiers, repetition)


def rows(path: Path) -> list[tuple[Any, ...]]:
    """Every row of a tablebase, in key order."""
    with closing(sqlite3.connect(path)) as connection:
        return connection.execute("SELECT * FROM positions ORDER BY key").fetchall()


def same_tables(game: TieredGraph, tiny: bool, **options: Any) -> None:
    """Solve ``game`` whole and by tiers (with the sizes shrunk if ``tiny``): the same rows,
    value, exactness and counts."""
    with TemporaryDirectory() as folder:
        whole = solve_strong(game, out=Path(folder) / "whole.sqlite", tiers=False)
        with pytest.MonkeyPatch.context() as patch:
            for module, name, size in TINY if tiny else []:
                patch.setattr(module, name, size)
            by_tiers = solve_strong(game, out=Path(folder) / "tiers.sqlite", **options)
        assert rows(Path(folder) / "tiers.sqlite") == rows(Path(folder) / "whole.sqlite")
    assert (by_tiers.value, by_tiers.exact, by_tiers.positions, by_tiers.terminal, by_tiers.outcomes) == (
        whole.value, whole.exact, whole.positions, whole.terminal, whole.outcomes)
    assert (by_tiers.remoteness, by_tiers.max_remoteness, by_tiers.best_move) == (
        whole.remoteness, whole.max_remoteness, whole.best_move)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiered_graphs(dice=False), st.booleans())
def test_tiers_without_dice_write_the_table_of_the_whole_graph(game: TieredGraph, tiny: bool) -> None:
    """Deterministic games, cycles inside tiers among them: retrograde analysis tier by tier
    writes the rows (value, remoteness, best move) of the whole graph's."""
    same_tables(game, tiny)


@settings(max_examples=150, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiered_graphs(dice=True), st.booleans())
def test_tiers_with_dice_write_the_table_of_the_whole_graph(game: TieredGraph, tiny: bool) -> None:
    """Games with dice, cycles through them inside tiers among them: the same rows as the
    whole graph's (exact fractions where the cycles are solved by policy iteration)."""
    same_tables(game, tiny)


@settings(max_examples=25, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(tiered_graphs(dice=True))
def test_two_workers_write_the_table_of_the_whole_graph(game: TieredGraph) -> None:
    """Two worker processes, the sizes shrunk (the workers are forked with them): the same
    rows as the whole graph's."""
    same_tables(game, True, workers=2, factory=game.factory())


def test_a_tie_in_a_cycle_through_the_dice_is_broken_by_the_order_of_the_moves() -> None:
    """Node 3 (A's, tier 1) may stay or go to the dice at node 5, which bring it back a third of
    the time and stay the rest; no end can be reached, so every play scores the repetition
    value, -1, and both of node 3's moves keep it.  Value iteration's guesses of the two
    differed in their last bits with the order of its sweep (-1 against -0.9999999999999991
    in the whole graph, -0.9999999999999999 by tiers), and the first best move followed them:
    the stay in the whole graph, the dice by tiers.  Now the first of the moves within value
    iteration's margin is taken in both: the stay (move 0)."""
    game = TieredGraph(kinds=("A", "A", "end", "A", "A", "dice"), arcs=((4,), (), (), (3, 5), (5,), (3, 5)),
                       weights=((), (), (), (), (), (1, 2)), ends=(0,) * 6, tiers=(0, 0, 0, 1, 0, 1),
                       repetition=(Fraction(-1),) * 6)
    same_tables(game, False)
    with TemporaryDirectory() as folder:
        solve_strong(game, out=Path(folder) / "tiers.sqlite")
        assert rows(Path(folder) / "tiers.sqlite")[1] == (b"i\x03", -1, None, 0)


def test_value_iteration_gives_the_whole_graph_and_the_tiers_the_same_bits() -> None:
    """A's node 2 (tier 1) may stay, scoring -1/2 for ever, or throw the dice, which bring it
    back; node 0 (tier 0, repetition -1) may stay or go there.  The cycle's repetition scores
    differ (-1/2 at node 2, -1 at the dice), so its values come from value iteration, in floats:
    node 0 was worth -0.49999999999999933 solved whole and -0.5 by tiers, the cycle's positions
    swept in another order (and node 2's best move was the throw whole, the stay by tiers).
    Both now sweep them in key order."""
    repetition = (Fraction(-1), Fraction(-1), Fraction(-1, 2), Fraction(-1), Fraction(-1))
    game = TieredGraph(kinds=("A", "end", "A", "end", "dice"), arcs=((0, 4), (), (2, 4), (), (2,)),
                       weights=((), (), (), (), (1,)), ends=(0,) * 5, tiers=(0, 0, 1, 0, 1), repetition=repetition)
    assert not solve_strong(game).exact
    same_tables(game, False)
    same_tables(game, True, workers=2, factory=game.factory())
