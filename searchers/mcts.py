"""Monte Carlo tree search: UCT with random playouts (Kocsis and Szepesvári 2006; AIMA's
MONTE-CARLO-TREE-SEARCH), proven values backed up (the MCTS-solver of Winands, Björnsson
and Saito 2008), chance nodes, and any number of players.

Each iteration walks down the tree from the root, at each node taking the child with the
highest upper confidence bound (UCB1) for the player to move there, until it reaches a
node with a move not yet tried; it adds that move's child, plays at random from there to
the end of the game (or, with ``playout_depth``, for that many moves and then asks the
evaluation), and adds every player's payoff to the statistics of each node on the way
down.  A node's statistics are thus the payoffs of the game after the move into it; the
player who made that move reads its own.  At a chance node the outcome is drawn by its
probability.  Payoffs are scaled to 0..1 for the bound by the game's ``payoff_bounds``,
or else by the lowest and highest payoff seen so far.

Proofs.  A terminal state is proven, with its utility; so is a position repeated on its
line (scored by the game's repetition rule) unless the cycle passes through chance
nodes.  A node is proven when all its children are, with max^n's choice among them (the
mover's best payoff; of equals, the first in move order) or, at a chance node, their
average.  It is proven at once when one proven child gives the mover the highest payoff
and that settles the others' payoffs (``PayoffReader.decisive``: two players with a
constant sum, or more with every other at the lowest): the MCTS-solver's "a winning move
wins"; when it does not settle them, once the moves before that child are proven too
(max^n takes the first of equals).  A game that declares no ``payoff_bounds`` is proven
only by its whole subtree, which random sampling rarely completes beyond small games.
Proven children are not searched again: their value counts as certain.  Evaluations never
prove anything.  The search stops early once the root is proven.
"""

from __future__ import annotations

import math
import random
from collections.abc import Callable, Hashable, Sequence
from time import perf_counter
from typing import TYPE_CHECKING, cast

from . import _hot
from ._common import (
    FLOATS_AVERAGED, MAX_PLIES, Budget, Progress, Stop, chance_cycle_words, holds_float, root_player, strongly_solvable,
)
from .payoffs import PayoffReader, PayoffVector
from .protocol import (
    Game, Move, State, Value, check_limits, game_name, no_moves_error, position_of, require_evaluation, rules_of,
)
from .results import Bound, GameError, SearchError, SearchResult, SearchStats, SearchValue

if TYPE_CHECKING:  # mypy checks per-node code with typeguard's own decorator
    from typeguard import typeguard_ignore
else:  # typeguard recognises that name; at run time the stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore

DEFAULT_ITERATIONS = 10_000
"""The iterations of a search given neither ``iterations`` nor ``time``."""
EXPLORATION = math.sqrt(2)
"""UCB1's exploration constant, for payoffs scaled to 0..1."""
CHANCE = -1  # the mover of a chance node


class _Node:
    """One position of the tree and the payoffs of the playouts through it."""

    __slots__ = ("state", "position", "mover", "moves", "children", "untried", "visits", "totals",
                 "proven", "fixed", "probabilities")

    @typeguard_ignore
    def __init__(self, state: State, position: Hashable, players: int) -> None:
        self.state = state
        self.position = position  # the state as a line of play compares it (the game's ``position``)
        self.mover: int | None = None  # the index of the player to move, CHANCE, or None at a leaf
        self.moves: list[Move] = []  # the moves, or a chance node's outcomes
        self.children: list[_Node | None] = []  # a child per move (None until it is added)
        self.untried: list[int] = []  # the indices of the moves not yet added
        self.visits = 0
        self.totals = [0.0] * players  # the sum of each player's payoffs over the visits
        self.proven: PayoffVector | None = None  # the exact payoffs, once proven
        self.fixed: PayoffVector | None = None  # a repetition through chance: scored, not proven
        self.probabilities: list[Value] = []


def mcts(
    game: Game,
    state: State | None = None,
    *,
    iterations: int | None = None,
    time: float | None = None,
    seed: int | None = None,
    exploration: float = EXPLORATION,
    playout_depth: int | None = None,
    progress: Callable[[Progress], None] | None = None,
) -> SearchResult:
    """Monte Carlo tree search from ``state`` (default: the initial state), for any number of
    players, with or without an evaluation.

    The search runs ``iterations`` playouts or for ``time`` seconds, whichever ends first
    (with neither, DEFAULT_ITERATIONS), and stops early when it proves the root's value.
    ``seed`` makes a run repeat exactly (the search draws from its own random generator,
    never the global one); without it every run differs.  ``exploration`` is UCB1's
    constant.  ``playout_depth=N`` ends each playout after N random moves and scores its
    position by the evaluation (0: evaluate the new node itself); by default playouts
    run to the end of the game.

    The best move is the one proven best, or else the most visited (of equal visits, the
    higher mean, then the first in move order), never a move proven worse than another.
    ``value`` is the proven value, or else the best move's mean payoff; ``visits`` gives
    each root move's visit count (0 for a move never tried), ``mean_payoffs`` the mean
    payoff of each move tried, ``move_values`` the proven value of a proven move and the
    mean of any other (``move_bounds`` "exact" or "estimate").  Values are one number
    from the first player's view in a two-player zero-sum game, else a dict player ->
    payoff.  ``exact`` is True only when the root's value is proven.  ``stats.nodes``
    counts the positions visited: each node of the tree on the way down, every iteration,
    and each position of a playout; ``stats.depth`` is the deepest node of the tree,
    ``stats.iterations`` the iterations (an iteration that reaches a proven node backs up
    its value and plays out nothing).

    ``progress`` is called with a ``Progress`` about four times a second once the search
    has run for a second; Ctrl-C returns the best result found so far, marked
    ``interrupted`` and not exact.
    """
    check_limits(time=time)
    if iterations is not None and (isinstance(iterations, bool) or iterations < 1):
        raise SearchError(f"iterations must be a positive count, not {iterations!r}")
    if playout_depth is not None:
        if isinstance(playout_depth, bool) or playout_depth < 0:
            raise SearchError(f"playout_depth must be a number of moves (0 or more), not {playout_depth!r}")
        require_evaluation(game, "mcts with a playout depth")
    if not exploration >= 0:
        raise SearchError(f"exploration must be a number 0 or more, not {exploration!r}")
    if iterations is None and time is None:
        iterations = DEFAULT_ITERATIONS
    search = _Uct(game, random.Random(seed), exploration, playout_depth)
    root = game.initial_state() if state is None else state
    return search.run(root, iterations, Budget(time, None, progress))


class _Uct:
    """One Monte Carlo tree search: the tree, the counters and the random generator."""

    def __init__(self, game: Game, rng: random.Random, exploration: float,
                 playout_depth: int | None) -> None:
        self.game, self.rng, self.exploration = game, rng, exploration
        self.playout_depth = playout_depth
        self.payoffs = PayoffReader(game)
        self.players = len(self.payoffs.players)
        self.rules = rules_of(game)
        # A position repeats on a line when its ``position`` does (a move count left out of it
        # must not hide a repetition), as in the depth-first searches.
        self.position = position_of(game)
        self.is_chance = self.rules.is_chance
        # Only a game with chance nodes lists outcomes, and a playout depth needs an evaluation
        # (checked before the search starts).
        self.chance_outcomes = cast(Callable[[State], Sequence[tuple[Move, Value]]], self.rules.chance_outcomes)
        self.evaluation = cast(Callable[[State], PayoffVector], self.payoffs.evaluation)
        self.decisive = self.payoffs.decisive()
        bounds = self.payoffs.bounds
        self.highest: Value | None = None if bounds is None else bounds[1]
        self.declared_scale = bounds is not None
        # The payoffs' range for scaling: declared, or the lowest and highest seen so far.
        self.low, self.high = self.floats(bounds) if bounds else (math.inf, -math.inf)
        self.nodes = self.leaves = self.repetitions = self.deepest = self.iterations = 0
        self.chance_repetitions = 0  # of the repetitions, those the dice brought back

    def run(self, root_state: State, iterations: int | None, budget: Budget) -> SearchResult:
        """Search until the iterations or the budget are spent, or the root is proven."""
        budget.armed = budget.deadline is not None
        root = self.make_node(root_state, {}, 0)
        self.nodes = 1
        interrupted = False
        check_at = budget.next_check(self.nodes)
        try:
            while root.proven is None and root.fixed is None and (
                iterations is None or self.iterations < iterations
            ):
                if self.nodes >= check_at:
                    budget.best_move = self.root_move(root)
                    check_at = budget.check(self.nodes)
                self.iteration(root)
        except Stop:
            pass
        except KeyboardInterrupt:
            if root.visits == 0:
                raise
            interrupted = True
        return self.outcome(root, root_state, budget.started, interrupted)

    @typeguard_ignore
    def make_node(self, state: State, line: dict[Hashable, int], chance_depth: int) -> _Node:
        """A new node for ``state``, classified: terminal, repeated on ``line``, chance or not.

        ``line`` maps the positions above it to the number of chance nodes above each."""
        here = state if self.position is None else self.position(state)
        node = _Node(state, here, self.players)
        rules, payoffs = self.rules, self.payoffs
        if rules.is_terminal(state):
            self.leaves += 1
            node.proven = payoffs.utility(state)
        elif here in line:
            self.leaves += 1
            self.repetitions += 1
            value = payoffs.repetition(state)
            if chance_depth > line[here]:
                node.fixed = value  # the dice brought it back: the game really goes on
                self.chance_repetitions += 1
            else:
                node.proven = value
        elif self.is_chance is not None and self.is_chance(state):
            node.mover = CHANCE
            outcomes = self.chance_outcomes(state)
            if not outcomes:
                raise GameError(f"chance node {state!r} has no outcomes")
            node.moves = [outcome for outcome, _ in outcomes]
            node.probabilities = [probability for _, probability in outcomes]
            node.children = [None] * len(outcomes)
        else:
            node.mover = self.payoffs.index[rules.to_move(state)]
            node.moves = list(rules.actions(state))
            if not node.moves:
                raise no_moves_error(self.game, state)
            node.children = [None] * len(node.moves)
            node.untried = list(range(len(node.moves)))
        return node

    @typeguard_ignore
    def iteration(self, root: _Node) -> None:
        """Select, expand, play out, back up and prove, once."""
        result, rng = self.rules.result, self.rng
        path = [root]
        line: dict[Hashable, int] = {root.position: 0}
        chance_depth = 0
        node = root
        payoff: PayoffVector
        while True:
            if node.proven is not None:
                payoff = node.proven
                break
            if node.fixed is not None:
                payoff = node.fixed
                break
            if node.mover == CHANCE:
                k = _draw(node.probabilities, rng.random())
                chance_depth += 1
            elif node.untried:
                k = node.untried.pop(rng.randrange(len(node.untried)))
            else:
                k = -1
            known = node.children[k] if k >= 0 else self.select(node)
            if known is None:
                child = self.make_node(result(node.state, node.moves[k]), line, chance_depth)
                node.children[k] = child
                path.append(child)
                if child.proven is not None:
                    payoff = child.proven
                elif child.fixed is not None:
                    payoff = child.fixed
                else:
                    line[child.position] = chance_depth
                    payoff = self.playout(child.state, line, chance_depth)
                break
            node = known
            path.append(node)
            line.setdefault(node.position, chance_depth)
        # Every node on the way down counts as visited, so that the budget is looked at even
        # when the iterations reach only proven nodes and make no new ones.
        self.nodes += len(path)
        if len(path) - 1 > self.deepest:
            self.deepest = len(path) - 1
        self.iterations += 1
        self.back_up(path, payoff)

    @typeguard_ignore
    def select(self, node: _Node) -> _Node:
        """The child with the highest upper confidence bound for the player to move; a proven
        child counts with its proven payoff and no exploration bonus."""
        me, low, high, sqrt = cast(int, node.mover), self.low, self.high, math.sqrt
        scale = 1.0 / (high - low) if high > low else 0.0
        bonus = self.exploration * sqrt(math.log(node.visits))
        best, best_score = cast(_Node, node.children[0]), -math.inf
        # Every child has been added and visited once: a node is selected from only then.
        for child in cast(list[_Node], node.children):
            proven = child.proven
            if proven is None:
                visits = child.visits
                score = (child.totals[me] / visits - low) * scale + bonus / sqrt(visits)
            else:
                score = (float(proven[me]) - low) * scale
            if score > best_score:
                best, best_score = child, score
        return best

    @typeguard_ignore
    def playout(self, state: State, line: dict[Hashable, int], chance_depth: int) -> PayoffVector:
        """The payoffs at the end of a random game from ``state`` (on ``line``, below
        ``chance_depth`` chance nodes), or the evaluation ``playout_depth`` moves on."""
        rng, payoffs = self.rng, self.payoffs
        actions, result, is_terminal = self.rules.actions, self.rules.result, self.rules.is_terminal
        is_chance, chance_outcomes, cutoff = self.is_chance, self.chance_outcomes, self.playout_depth
        position = self.position
        moves_made = 0
        while True:
            if moves_made == cutoff:
                self.leaves += 1
                return self.evaluation(state)
            move: Move
            if is_chance is not None and is_chance(state):
                outcomes = chance_outcomes(state)
                move = outcomes[_draw([p for _, p in outcomes], rng.random())][0]
                chance_depth += 1
            else:
                moves = actions(state)
                if not moves:
                    raise no_moves_error(self.game, state)
                move = moves[rng.randrange(len(moves))]
            state = result(state, move)
            self.nodes += 1
            moves_made += 1
            if is_terminal(state):
                self.leaves += 1
                return payoffs.utility(state)
            here = state if position is None else position(state)
            if here in line:
                self.leaves += 1
                self.repetitions += 1
                if chance_depth > line[here]:
                    self.chance_repetitions += 1
                return payoffs.repetition(state)
            line[here] = chance_depth
            if moves_made >= MAX_PLIES:
                raise GameError(
                    f"a random game of {game_name(self.game)} went {MAX_PLIES:,} moves without "
                    "ending or a position repeating: does the game ever end?"
                )

    @typeguard_ignore
    def floats(self, scores: Sequence[Value]) -> list[float]:
        """``scores`` as the floats the search averages, or SearchError, in words, for a score
        past their range (a game may score 10**400: an integer the language allows)."""
        try:
            return [float(x) for x in scores]
        except OverflowError:
            raise SearchError(f"Monte Carlo tree search averages scores as floats, and {game_name(self.game)} can "
                              "end with a score past their range (about 1.8e308): give the game smaller scores"
                              ) from None

    @typeguard_ignore
    def back_up(self, path: list[_Node], payoff: PayoffVector) -> None:
        """Add ``payoff`` to every node on ``path``, then prove what the last node's proof proves."""
        scores = self.floats(payoff)
        if not self.declared_scale:
            self.low = min(self.low, *scores)
            self.high = max(self.high, *scores)
        players = range(self.players)
        for node in path:
            node.visits += 1
            totals = node.totals
            for i in players:
                totals[i] += scores[i]
        k = len(path) - 1
        while k > 0 and self.prove(path[k - 1], path[k]):
            k -= 1

    @typeguard_ignore
    def prove(self, node: _Node, child: _Node) -> bool:
        """Prove ``node`` if its ``child`` is proven and its other children allow; say whether
        it did."""
        settled = child.proven
        if settled is None or node.proven is not None:
            return False
        children = node.children
        values = [None if c is None else c.proven for c in children]
        if node.mover == CHANCE:
            known = [v for v in values if v is not None]
            if len(known) < len(values):
                return False
            node.proven = tuple(
                sum(p * v[i] for p, v in zip(node.probabilities, known)) for i in range(self.players)
            )
            return True
        me = cast(int, node.mover)
        if self.decisive is not None and settled[me] >= self.decisive:
            node.proven = settled
            return True
        if self.highest is not None:
            # No move gives the mover more than the highest payoff; of those giving it that
            # much, the first in move order is max^n's choice, once every move before it is
            # proven.
            for value in values:
                if value is None:
                    break
                if value[me] >= self.highest:
                    node.proven = value
                    return True
        proven = [v for v in values if v is not None]
        if len(proven) < len(values):
            return False
        node.proven = max(proven, key=lambda v: v[me])  # the first of equals
        return True

    @typeguard_ignore
    def choose(self, node: _Node) -> int:
        """The index of the move to play at ``node``: the proven best, or the most visited of
        those not proven worse than another (then the higher mean, then the first); -1 if
        no move was tried."""
        me = cast(int, node.mover)
        tried = {k: child for k, child in enumerate(node.children) if child is not None}
        if node.proven is not None:
            for k, child in tried.items():
                if child.proven is not None and child.proven[me] == node.proven[me]:
                    return k
        proven = [child.proven[me] for child in tried.values() if child.proven is not None]
        floor = max(proven) if proven else None
        lowest = self.low

        def refuted(child: _Node) -> bool:
            value = child.proven
            return value is not None and floor is not None and (
                value[me] < floor or (value[me] <= lowest and value[me] < self.high))

        candidates = [k for k, child in tried.items() if not refuted(child)] or list(tried)
        if not candidates:
            return -1
        return max(candidates, key=lambda k: (tried[k].visits, self.mean(tried[k])[me], -k))

    def mean(self, node: _Node) -> PayoffVector:
        """The node's mean payoffs (its proven payoffs once proven)."""
        if node.proven is not None:
            return tuple(node.proven)
        return tuple(total / node.visits for total in node.totals)

    def root_move(self, root: _Node) -> Move | None:
        """The move the search would play now, if any."""
        if root.mover is None or root.mover == CHANCE:
            return None
        k = self.choose(root)
        return None if k < 0 else root.moves[k]

    def principal_variation(self, root: _Node) -> list[Move]:
        """The moves the search would play from the root on, up to a chance node or a leaf of
        the tree."""
        pv, node = [], root
        while node.mover is not None and node.mover != CHANCE:
            k = self.choose(node)
            if k < 0:
                break
            pv.append(node.moves[k])
            node = cast(_Node, node.children[k])
        return pv

    def outcome(self, root: _Node, root_state: State, started: float, interrupted: bool) -> SearchResult:
        """The search's result."""
        show = self.payoffs.show
        leaf_value = root.proven if root.proven is not None else root.fixed
        value: SearchValue
        move_values: dict[Hashable, SearchValue] = {}
        visits: dict[Hashable, int] = {}
        means: dict[Hashable, SearchValue] = {}
        bounds: dict[Hashable, Bound] = {}
        tried: list[tuple[Move, _Node]] = []
        if leaf_value is not None and root.mover is None:  # a finished game or a repetition
            value, move, pv = show(leaf_value), None, list[Move]()
        else:
            pv = self.principal_variation(root)
            move = pv[0] if pv else None
            visits = {m: (0 if c is None else c.visits) for m, c in zip(root.moves, root.children)}
            tried = [(m, c) for m, c in zip(root.moves, root.children) if c is not None]
            means = {m: show(tuple(t / c.visits for t in c.totals)) for m, c in tried}
            move_values = {m: show(self.mean(c)) for m, c in tried}
            bounds = {m: "exact" if c.proven is not None else "estimate" for m, c in tried}
            if root.proven is not None:
                value = show(root.proven)
            elif move is not None:
                value = move_values[move]
            else:
                value = show(self.mean(root))
        exact = root.proven is not None
        reason = None
        if interrupted:
            reason = "the search was interrupted: this is the best found so far"
        elif exact and self.is_chance is not None and holds_float(
                [root.proven, *(c.proven for _, c in tried if c.proven is not None)]):
            exact, reason = False, FLOATS_AVERAGED
        elif not exact:
            cut = ("" if self.playout_depth is None
                   else f", each cut off after {self.playout_depth} random moves and evaluated")
            reason = (f"Monte Carlo tree search estimated the values from {self.iterations:,} "
                      f"random playouts{cut}; it did not prove them")
            if self.chance_repetitions:
                count = self.chance_repetitions
                reason += (f"; and positions repeat through chance nodes ({count:,} time{'s' if count != 1 else ''}): "
                           + chance_cycle_words("Monte Carlo tree search", strongly_solvable(self.game)))
        stats = SearchStats(
            nodes=self.nodes, leaves=self.leaves, cutoffs=0, table_hits=0, depth=self.deepest,
            seconds=perf_counter() - started, repetitions=self.repetitions,
            iterations=self.iterations, chance_repetitions=self.chance_repetitions,
        )
        return SearchResult(
            value=value, move=move, pv=pv, move_values=move_values, move_bounds=bounds,
            exact=exact, to_move=root_player(self.game, root_state),
            repetition=self.repetitions > 0, stats=stats, algorithm="mcts",
            interrupted=interrupted, inexact_reason=reason, visits=visits, mean_payoffs=means,
        )


@typeguard_ignore
def _draw(probabilities: Sequence[Value], x: float) -> int:
    """The index of the outcome that ``x`` (drawn uniformly from 0..1) falls on."""
    for k, probability in enumerate(probabilities):
        x -= probability
        if x < 0:
            return k
    return len(probabilities) - 1
