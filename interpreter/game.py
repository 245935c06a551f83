"""The game object: a checked game file, compiled once, behind the game protocol."""

from __future__ import annotations

import itertools
import operator
import sys
from collections.abc import Sequence
from fractions import Fraction
from functools import cached_property
from types import CodeType, TracebackType
from typing import TYPE_CHECKING, Any, Callable, cast

from gdl import _hot, model
from gdl.errors import GdlError, GdlParamError, GdlRuntimeError, GdlSyntaxError
from gdl.kinds import ANY, CELL, Kind, element, join
from gdl.limits import room_for_nesting
from gdl.model import CheckedGame
from gdl.payoffs import outcome_range
from gdl.specials import SPECIAL_DEFINITIONS
from gdl.values import CHANCE, Grid, Map, RuleError, state_class, symbol, to_text
from interpreter import runtime
from interpreter.failures import explain, failed_at, local_kinds, names_read, value_shown
from interpreter.passes import Passes
from interpreter.program import Program
from interpreter.writer import Span

if TYPE_CHECKING:  # mypy sees typeguard's own decorator and checks the function
    from typeguard import typeguard_ignore
else:  # at run time typeguard is not needed: this stand-in changes nothing
    typeguard_ignore = _hot.typeguard_ignore

State = tuple[Any, ...]
"""A state: an immutable, hashable tuple of field values (with a property per field)."""

Number = int | Fraction

Rule = Callable[[State], Any]
"""A compiled rule: a function of the state."""

_serial = itertools.count()


class BaseGame:
    """What every loaded game shares: players, printing and reading moves, rule errors."""

    players: tuple[str, ...]
    title: str
    params: dict[str, Any]
    has_evaluation: bool = False
    has_chance: bool = False
    has_symmetries: bool = False

    @property
    def name(self) -> str:
        """The game's title, for messages."""
        return self.title

    def format_move(self, move: Any) -> str:
        """The move as the game prints it."""
        return to_text(move)

    def display(self, state: State) -> str:
        """The state drawn as text."""
        return to_text(state)

    def parse_move(self, state: State, text: str) -> Any:
        """The legal move in `state` that prints as `text` (spaces, brackets and case aside)."""
        return self._named(text, self.actions(state), "a legal move here; the legal moves are")

    def parse_outcome(self, state: State, text: str) -> Any:
        """The outcome of the dice at chance node `state` that prints as `text` (spaces,
        brackets and case aside, as for a move)."""
        outcomes = [outcome for outcome, _ in self.chance_outcomes(state)]
        return self._named(text, outcomes, "an outcome of the dice here; they are")

    def shared_names(self, moves: Sequence[Any]) -> list[list[str]]:
        """The names of `moves` that read the same when typed (spaces, brackets and case
        aside), in groups of two or more: a `move_name` that does not tell the moves apart.  A
        move listed twice counts once."""
        groups: dict[str, list[str]] = {}
        for move in dict.fromkeys(moves):
            name = self.format_move(move)
            groups.setdefault(_normal(name), []).append(name)
        return [names for names in groups.values() if len(names) > 1]

    def moves_named(self, text: str, moves: Sequence[Any]) -> list[Any]:
        """Those of `moves` that print as `text` (spaces, brackets and case aside; of several,
        the one printed exactly so, if one is), each once: one move, none, or several whose
        names read the same when typed."""
        wanted = _normal(text)
        found = [move for move in dict.fromkeys(moves) if _normal(self.format_move(move)) == wanted]
        exact = [move for move in found if self.format_move(move) == text.strip()]
        return exact if len(found) > 1 and len(exact) == 1 else found

    def _named(self, text: str, moves: Sequence[Any], what: str) -> Any:
        """The one of `moves` that prints as `text` (see `moves_named`); else an error saying
        it is not `what`, or which it could be."""
        found = self.moves_named(text, moves)
        if len(found) == 1:
            return found[0]
        if found:
            names = ", ".join(f"`{self.format_move(move)}`" for move in found)
            raise GdlError(f"`{text}` could be any of {len(found)} moves here ({names}): their names read the same "
                           "when typed, so the game's `move_name` must tell them apart")
        raise GdlError(f"`{text}` is not {what}: {', '.join(self.format_move(m) for m in moves)}")

    def actions(self, state: State) -> tuple[Any, ...]:  # pragma: no cover - overridden
        """The legal moves in `state`, in a stable order."""
        raise NotImplementedError

    def chance_outcomes(self, state: State) -> tuple[tuple[Any, Number], ...]:  # pragma: no cover - overridden
        """The outcomes of the dice at chance node `state`, each with its probability."""
        raise NotImplementedError


# A tier is kept as a signed 64-bit integer (in the strong solver's arrays and the tablebase).
_TIER_LEAST, _TIER_MOST = -(1 << 63), (1 << 63) - 1


def _tier_problem(tier: Any) -> str:
    """What is wrong with a value `tier` gave: not an integer, or one too large to keep."""
    if type(tier) is not int:
        return f"`tier` must be an integer ({SPECIAL_DEFINITIONS['tier'][1]}), got {value_shown(tier)}"
    return f"`tier` must lie between -2**63 and 2**63 - 1 (it is kept in 64 bits), got {tier}"


def _normal(text: str) -> str:
    """A move's name as typed, spaces, brackets and case aside, and the comma that ends a
    whole name of one item: `(2,)`, `[2]`, `2,` and `2` read the same (`((1,), 2)` and
    `(1, 2)` do not)."""
    typed = text.lower().replace(" ", "")
    if typed.endswith(","):
        typed = typed[:-1]
    elif typed.endswith((",)", ",]")) and _closes_at_end(typed):
        typed = typed[:-2] + typed[-1]
    return "".join(ch for ch in typed if ch not in "()[]")


def _closes_at_end(text: str) -> bool:
    """Whether the bracket that opens ``text`` is the one that closes it."""
    depth = 0
    for index, ch in enumerate(text):
        depth += (ch in "([") - (ch in ")]")
        if depth == 0:
            return index == len(text) - 1
    return False


class Game(BaseGame):
    """A game compiled from a file; implements the game protocol for the searchers."""

    _cell_fields: tuple[int, ...]
    """The fields (or, with `_keep`, the places in the position) that hold a cell, turned with the boards."""
    _cell_maps: tuple[dict[Any, Any], ...]

    def __init__(self, checked: CheckedGame, passes: Passes = Passes()) -> None:
        self.checked = checked
        self.title = checked.title
        self.source = checked.source
        players = tuple(symbol(p) for p in checked.players)
        self.players = players
        self._filename = f"<gdl {next(_serial)} {checked.source.name}>"
        self.State = state_class("State", [f.name for f in checked.fields])
        names = runtime.namespace(players)
        names.update({"s_" + s: symbol(s) for s in checked.symbols})
        names.update({"State": self.State})
        self._names = names
        self._positions: dict[int, tuple[int, int]] = {}
        self._spans: dict[int, list[Span]] = {}
        with room_for_nesting():
            program = Program(checked, passes)
            self._exec(program, program.load_source())
        self.params = {name: self._load_param(name) for name in checked.params}
        for name in checked.constant_order:
            self._load_value(f"_constant_{name}", "d_" + name)
        initial = tuple(self._load_value(f"_initial_{f.name}", None) for f in checked.fields)
        for name in program.loaded_names():
            try:
                names[name] = names[f"_load{name}"]()
            except Exception:  # the rule computes it where it is used, and fails there if it must
                pass
        self._initial: State = tuple.__new__(self.State, initial)
        names["_failed"] = self._failed
        names["_no_moves"] = self._no_moves
        with room_for_nesting():
            self._exec(program, program.rules_source(names, initial))
        self.generated_source = program.writer.text()
        """The Python the game became (`gdl compile` prints it)."""
        self.generated_values = {**program.emitter.constants, **program.extra}
        """The values made at load that `generated_source` uses by name (data, not text)."""
        self._to_move = self._required("to_move")
        if not checked.to_move_proven:
            self._to_move = self._players_only(self._to_move)
        self._moves = self._required("moves")
        self._terminal = self._required("terminal")
        self._utility = self._required("utility")
        self._evaluation = self._definition("evaluation")
        self._display = self._definition("display")
        self._outcomes = self._definition("outcomes")
        # Dice that are the same in every state (Pig's die) are checked and merged once.
        self._outcomes_fixed = self._outcomes is not None and not checked.definitions["outcomes"].reads_state
        self._fixed_outcomes: tuple[tuple[Any, Number], ...] | None = None
        self._repetition = self._definition("repetition")
        self._tier = self._definition("tier")
        self._position = self._definition("position")
        self._move_name = names.get("f_move_name")
        self._move_kind = _move_kind(checked)
        self._result = names["result"]
        if program.uses_after:
            successors = runtime.Successors(self._result)
            names["_successor"] = successors.successor
            self._result = successors.result
        # The compiled rules that report their own failures (`Program.guards`) are handed out
        # in place of the methods that would wrap them: a call less at every node of a search.
        setattr(self, "result", self._result)
        if "d_terminal" in program.guards:
            setattr(self, "is_terminal", names["d_terminal"])
        if "d_to_move" in program.guards and checked.to_move_proven:
            setattr(self, "to_move", names["d_to_move"])
        if "actions" in names:
            setattr(self, "actions", names["actions"])
        self.has_evaluation = self._evaluation is not None
        self._player_index: dict[str, int] = {p: i for i, p in enumerate(players)}
        # Two players giving one number play a zero-sum game; payoffs given for each player
        # are each player's own, which need not add up to zero.
        self.zero_sum = checked.payoffs == "number"
        self.utility_bounds = outcome_range(checked.definitions) if self.zero_sum else None
        """The lowest and highest payoff of a finished game or a repetition, when the file
        writes every one as a number (alpha-beta searching to the end starts from it)."""
        self._utility_of = self._payoff("utility", self._utility)
        self._evaluation_of = None if self._evaluation is None else self._payoff("evaluation", self._evaluation)
        # The payoff functions are handed out in place of the methods that call them.
        setattr(self, "utility", self._utility_of)
        if self._evaluation_of is not None:
            setattr(self, "evaluate", self._evaluation_of)
        self._repetition_of = self._payoff("repetition", self._repetition)
        self.has_chance = self._outcomes is not None
        self.has_tiers = self._tier is not None
        self.has_position = self._position is not None
        self._symmetries = self._load_symmetries()
        self.has_symmetries = bool(self._symmetries)
        # Each symmetry's cell permutations as C-level getters: `canonical` runs at every node
        # of a search with symmetry, and a Python loop over the cells costs most of it.
        self._turns = tuple(
            (tuple((position, _cells_in_order(order)) for position, order in permutations), cell_map)
            for permutations, cell_map in zip(self._symmetries, self._cell_maps)
        ) if self._symmetries else ()
        # A position made of fields is turned itself: `_turns` and `_cell_fields` then count
        # places in the position, and `canonical` neither turns the other fields nor calls the rule.
        kept = self._position_fields()
        self._keep: Callable[[State], tuple[Any, ...]] | None = None
        if kept is not None:
            place = {field: i for i, field in enumerate(kept)}
            self._turns = tuple(
                (tuple((place[field], turn) for field, turn in turns if field in place), cell_map)
                for turns, cell_map in self._turns
            )
            self._cell_fields = tuple(place[field] for field in self._cell_fields if field in place)
            self._keep = (lambda state: (state[kept[0]],)) if len(kept) == 1 else operator.itemgetter(*kept)
        if self._outcomes_fixed:  # the same dice everywhere: checked now, so that `gdl check` finds their mistakes
            self.chance_outcomes(self._initial)

    # ---- loading
    def _exec(self, program: Program, source: str) -> None:
        """Run one part of the program's source, with the values it brings (data, not text)."""
        self._positions = program.writer.line_positions()
        self._spans = program.writer.line_spans()
        code = self._python_code(source)
        self._names.update(program.emitter.constants)
        self._names.update(program.extra)
        exec(code, self._names)

    def _load_param(self, name: str) -> Any:
        """A parameter's value; one given for it (not its default) that fails is said at the
        parameter's declaration, as the checks say a value given of the wrong kind (its own
        positions are in the text given, not in the file)."""
        param = self.checked.params[name]
        if param.source is param.node.default:
            return self._load_value(f"_param_{name}", "p_" + name)
        try:
            return self._load_value(f"_param_{name}", "p_" + name)
        except GdlRuntimeError as error:
            raise self.source.error(GdlParamError, f"the value given for parameter `{name}` fails: {error.message}",
                                    param.node.line, param.node.column) from None

    def _load_value(self, function: str, store_as: str | None) -> Any:
        try:
            value = self._names[function]()
        except Exception as error:
            raise self._rule_error(error, None) from None
        if store_as is not None:
            self._names[store_as] = value
        return value

    def _python_code(self, source: str) -> CodeType:
        """The generated source compiled by Python, whose own limits (brackets nested 200 deep,
        blocks 100 deep, 20 nested loops) are errors at the rule that meets them."""
        try:
            return compile(source, self._filename, "exec")
        except (SyntaxError, RecursionError, MemoryError) as error:
            lines = [n for n in self._positions if n <= (getattr(error, "lineno", None) or 0)]
            line, column = self._positions[max(lines)] if lines else (1, 1)
            reason = getattr(error, "msg", None) or str(error) or type(error).__name__
            raise self.source.error(
                GdlSyntaxError,
                f"this rule nests too deeply for Python, which runs the translated rules ({reason}): "
                f"give parts of it names of their own",
                line, column,
            ) from None

    def _players_only(self, to_move: Rule) -> Rule:
        """`to_move` checked, at each call, to give a player (or `chance` in a game with
        `outcomes`): for when the checker could not tell."""
        allowed = {id(p) for p in self.players}
        if "outcomes" in self.checked.definitions:
            allowed.add(id(CHANCE))
        players = ", ".join(self.players)

        @typeguard_ignore
        def players_only(state: State) -> Any:
            mover = to_move(state)
            if id(mover) not in allowed:  # symbols are interned: one object each
                raise RuleError(f"`to_move` gave {to_text(mover)}, which is not a player (the players: {players})")
            return mover

        return players_only

    def _definition(self, name: str) -> Rule | None:
        """The compiled special definition `name`, a function of the state (None without it)."""
        if name not in self.checked.definitions:
            return None
        if self.checked.definitions[name].reads_state:
            rule: Rule = self._names["d_" + name]
            return rule
        value = self._names["d_" + name]
        return lambda state: value

    def _required(self, name: str) -> Rule:
        """The compiled special definition `name`, which every game has."""
        rule = self._definition(name)
        assert rule is not None, name
        return rule

    def _load_symmetries(self) -> list[tuple[tuple[int, tuple[int, ...]], ...]] | None:
        """Each symmetry as the cell permutation of every grid field: (field position, order).
        (The checker has made sure they do not read the state, and of their kind and size what
        can be known before the game loads.)"""
        if "symmetries" not in self.checked.definitions:
            return None
        definition = self.checked.definitions["symmetries"].node
        maps = self._names["d_symmetries"]
        grids = [(i, v) for i, v in enumerate(self._initial) if isinstance(v, Grid)]
        # Fields that hold a cell (row, col), such as the last move, turn with the boards.
        self._cell_fields = tuple(
            i for i, f in enumerate(self.checked.fields)
            if f.kind == CELL
        )
        self._cell_maps = tuple(dict(m) for m in maps if isinstance(m, Map))
        symmetries = []
        for cell_map in maps:
            permutations = []
            if not isinstance(cell_map, Map):
                raise self.checked.source.error(GdlError, "each symmetry must be a map from cell to cell", definition.line, definition.column)
            for position, board in grids:
                if set(cell_map) != set(board.index) or set(cell_map.values()) != set(board.index):
                    raise self.checked.source.error(GdlError, f"a symmetry must map the {board.rows}x{board.cols} board's cells onto themselves", definition.line, definition.column)
                # new_cells[index[target]] = cells[index[source]]
                order = [0] * len(board)
                for source_cell, target_cell in cell_map.items():
                    order[board.index[target_cell]] = board.index[source_cell]
                permutations.append((position, tuple(order)))
            symmetries.append(tuple(permutations))
        return symmetries

    # ---- errors
    def _failed(self, state: State, rule: str) -> None:
        """In an `except:` of a compiled rule: its failure raised as the game's error (an
        interruption, or an exit, raised again as it is)."""
        runtime.go_on()
        error = sys.exc_info()[1]
        assert error is not None
        raise self._rule_error(error, state, rule or None) from None

    def _rule_error(self, error: BaseException, state: State | None, rule: str | None = None) -> GdlError:
        if isinstance(error, GdlError):
            return error
        failed: TracebackType | None = None  # the innermost entry in the file's rules
        trace = error.__traceback__
        while trace is not None:
            if trace.tb_frame.f_code.co_filename == self._filename and trace.tb_lineno in self._positions:
                failed = trace
            trace = trace.tb_next
        frame = None if failed is None else failed.tb_frame
        if failed is not None:
            line, column = failed_at(failed, self._spans, self._positions)
        elif rule is not None and rule in self.checked.definitions:
            node = self.checked.definitions[rule].node
            line, column = node.line, node.column
        else:
            line, column = 1, 1
        return GdlRuntimeError(
            explain(error),
            file=self.source.name, line=line, column=column, source_line=self.source.line(line),
            state_text=self._describe(state) if state is not None else None,
            names_text=None if frame is None else names_read(frame, self.source.line(line) or "", self.checked,
                                                             self._local_kinds),
        )

    @cached_property
    def _local_kinds(self) -> dict[str, Kind]:
        """The kind of each local name of the file that has one kind wherever it is used."""
        return local_kinds(self.checked)

    def _describe(self, state: State) -> str:
        if self._display is not None:
            try:
                return str(self._display(state))
            except Exception:  # the state is shown even when `display` itself fails
                pass
        return self._fields_text(state)

    def _fields_text(self, state: State) -> str:
        """The state's fields, one a line (a grid on lines of its own)."""
        return "\n".join(
            f"{f.name}:\n{to_text(v)}" if isinstance(v, Grid) else f"{f.name} = {to_text(v, kind=f.kind)}"
            for f, v in zip(self.checked.fields, state)
        )

    def _rule_failure(self, message: str, rule: str, state: State | None) -> GdlError:
        node = self.checked.definitions[rule].node
        return GdlRuntimeError(
            message, file=self.source.name, line=node.line, column=node.column,
            source_line=self.source.line(node.line), state_text=None if state is None else self._describe(state),
        )

    # ---- the protocol
    def initial_state(self) -> State:
        """The state the game starts in."""
        return self._initial

    @typeguard_ignore
    def to_move(self, state: State) -> str:
        """The player whose turn it is (the symbol `chance` at a chance node)."""
        try:
            mover: str = self._to_move(state)
            return mover
        except Exception as error:
            raise self._rule_error(error, state, "to_move") from None

    @typeguard_ignore
    def actions(self, state: State) -> tuple[Any, ...]:
        """The legal moves, in the order the file lists them."""
        try:
            moves: tuple[Any, ...] = self._moves(state)
        except Exception as error:
            raise self._rule_error(error, state, "moves") from None
        return moves if moves else self._no_moves(state, moves)

    @typeguard_ignore
    def _no_moves(self, state: State, moves: tuple[Any, ...]) -> tuple[Any, ...]:
        """No moves: right at the end of the game or where dice decide, a mistake elsewhere."""
        if not self.is_terminal(state) and not self.is_chance(state):
            raise self._rule_failure("this state is not terminal, yet it has no moves (add a pass move, or end the game here)", "moves", state)
        return moves

    @typeguard_ignore
    def result(self, state: State, move: Any) -> State:
        """The state after `move` (or after a chance outcome)."""
        try:
            made: State = self._result(state, move)
            return made
        except Exception as error:
            raise self._rule_error(error, state) from None

    @typeguard_ignore
    def is_terminal(self, state: State) -> bool:
        """Whether the game is over."""
        try:
            over: bool = self._terminal(state)
            return over
        except Exception as error:
            raise self._rule_error(error, state, "terminal") from None

    @typeguard_ignore
    def utility(self, state: State, player: str) -> Number:
        """The score of a terminal state for `player`: the file's number for the first player
        (negated for the second), or `player`'s own payoff where the file gives each one."""
        return self._utility_of(state, player)

    @typeguard_ignore
    def evaluate(self, state: State, player: str) -> Number:
        """The heuristic score of a state for `player`, from the file's `evaluation` (in the
        form of `utility`)."""
        if self._evaluation_of is None:
            raise GdlError(f"{self.source.name}: the game has no `evaluation`, so a search cannot stop before the end")
        return self._evaluation_of(state, player)

    @typeguard_ignore
    def is_chance(self, state: State) -> bool:
        """Whether dice decide in this state."""
        return self.has_chance and self.to_move(state) is CHANCE

    @typeguard_ignore
    def chance_outcomes(self, state: State) -> tuple[tuple[Any, Number], ...]:
        """The outcomes of a chance node and their probabilities (equal outcomes merged)."""
        if self._fixed_outcomes is not None:
            return self._fixed_outcomes
        if self._outcomes is None:
            raise GdlError(f"{self.source.name}: the game has no `outcomes`")
        shown = None if self._outcomes_fixed else state  # dice that read no state fail alike in every state
        try:
            pairs = self._outcomes(state)
            merged: dict[Any, Number] = {}
            for pair in pairs:
                if type(pair) is not tuple or len(pair) != 2:
                    raise RuleError(f"`outcomes` lists pairs (outcome, probability), such as (6, 1/6); "
                                    f"one of its items is {to_text(pair)}")
                outcome, probability = pair
                if type(probability) not in (int, Fraction):
                    raise RuleError(f"the probability of the outcome {to_text(outcome)} must be a number, not {to_text(probability)}")
                merged[outcome] = merged.get(outcome, 0) + probability
        except Exception as error:
            raise self._rule_error(error, shown, "outcomes") from None
        for outcome, probability in merged.items():
            if probability < 0:
                raise self._rule_failure(f"the probability of the outcome {to_text(outcome)} is negative: {to_text(probability)}", "outcomes", shown)
        if sum(merged.values()) != 1:
            total = to_text(sum(merged.values()))
            raise self._rule_failure(f"the probabilities of the outcomes must add up to 1, not {total}", "outcomes", shown)
        outcomes = tuple(merged.items())
        if self._outcomes_fixed:
            self._fixed_outcomes = outcomes
        return outcomes

    def _position_fields(self) -> list[int] | None:
        """The places of the fields a `position` written as a tuple of distinct fields keeps
        (`(board, mover)`: [0, 1]), in a game with symmetries; None otherwise."""
        definition = self.checked.definitions.get("position")
        if not self._symmetries or definition is None or not isinstance(definition.value, model.TupleExpr):
            return None
        items = definition.value.items
        if not items or not all(isinstance(item, model.FieldRef) for item in items):
            return None
        kept = [cast(model.FieldRef, item).field.position for item in items]
        return kept if len(set(kept)) == len(kept) else None  # a field named twice: the general way

    @typeguard_ignore
    def canonical(self, state: State) -> Any:
        """One key shared by all the states the game's `symmetries` make equivalent and, when
        the file says its `position`, by all the states of one position: their positions'
        images, the one with the least hash."""
        if not self._symmetries:
            return self.position(state)
        keep = self._keep
        key = state if keep is None else keep(state)
        variants = [key]
        for turns, cell_map in self._turns:
            # A symmetry turns every board of the state, and every cell it holds, at once.
            fields = list(key)
            for position, cells_in_order in turns:
                board = fields[position]
                fields[position] = tuple.__new__(type(board), cells_in_order(board))
            for position in self._cell_fields:
                fields[position] = cell_map.get(fields[position], fields[position])
            variants.append(tuple.__new__(type(key), fields))
        if keep is None and self._position is not None:
            return min(map(self.position, variants), key=hash)
        return min(variants, key=hash)

    @typeguard_ignore
    def repetition_utility(self, state: State, player: str) -> Number:
        """The score of a position that repeats, from the file's `repetition` (a draw without it)."""
        return self._repetition_of(state, player)

    # ---- payoffs
    def _payoff(self, name: str, rule: Rule | None) -> Callable[[State, str], Number]:
        """The payoff rule `name` as a function of the state and a player: one number for the
        first player, negated for the second, or each player's own from a tuple or a map."""
        if rule is None:  # only `repetition` may be left out: a draw
            return lambda state, player: 0
        if self.checked.payoffs == "number":
            first = self.players[0]

            @typeguard_ignore
            def from_one_number(state: State, player: str) -> Number:
                try:  # not `_payoff_value`: a call less at every end of a search
                    value = rule(state)
                except Exception as error:
                    raise self._rule_error(error, state, name) from None
                if type(value) not in (int, Fraction):
                    raise self._rule_failure(f"`{name}` must be a number, got {to_text(value)}", name, state)
                payoff: Number = value if player == first else -value
                return payoff

            return from_one_number
        index = self._player_index
        # A searcher asks for every player's payoff of one state in turn: the rule runs once.
        last: list[Any] = [None, ()]

        @typeguard_ignore
        def from_each_payoff(state: State, player: str) -> Number:
            if state is not last[0]:
                last[1] = self._payoff_vector(name, self._payoff_value(name, rule, state), state)
                last[0] = state
            position = index.get(player)
            if position is None:
                raise GdlError(f"{self.source.name}: {player!r} is not a player (the players: {', '.join(self.players)})")
            payoff: Number = last[1][position]
            return payoff

        return from_each_payoff

    def _payoff_value(self, name: str, rule: Rule, state: State) -> Any:
        try:
            return rule(state)
        except Exception as error:
            raise self._rule_error(error, state, name) from None

    def _payoff_vector(self, name: str, value: Any, state: State) -> tuple[Number, ...]:
        """Each player's payoff, in player order, from a tuple or a map the rule gave."""
        players = self.players
        if isinstance(value, Map):
            unknown = [key for key in value if key not in self._player_index]
            if unknown:
                raise self._rule_failure(f"`{name}` gives a payoff to {to_text(unknown[0])}, which is not a player "
                                         f"(the players: {', '.join(players)})", name, state)
            missing = [p for p in players if p not in value]
            if missing:
                raise self._rule_failure(f"`{name}` gives no payoff to {', '.join(missing)}", name, state)
            payoffs = tuple(value[p] for p in players)
        elif type(value) is tuple:
            if len(value) != len(players):
                raise self._rule_failure(f"`{name}` gives {len(value)} payoffs, but the game has {len(players)} "
                                         f"players ({', '.join(players)})", name, state)
            payoffs = value
        else:
            raise self._rule_failure(f"`{name}` must give each player's payoff (a tuple in player order, or a map "
                                     f"from player to payoff), got {to_text(value)}", name, state)
        for payoff in payoffs:
            if type(payoff) not in (int, Fraction):
                raise self._rule_failure(f"each payoff of `{name}` must be a number, got {to_text(payoff)}", name, state)
        return payoffs

    @typeguard_ignore
    def tier(self, state: State) -> int:
        """The state's tier, from the file's `tier` (0 without it): no move lowers it."""
        if self._tier is None:
            return 0
        try:
            tier: int = self._tier(state)
        except Exception as error:
            raise self._rule_error(error, state, "tier") from None
        if type(tier) is not int or not _TIER_LEAST <= tier <= _TIER_MOST:
            raise self._rule_failure(_tier_problem(tier), "tier", state)
        return tier

    def tier_error(self, state: State, move: Any, child: State) -> GdlError:
        """The error for a move that goes down a tier, located at `tier`."""
        what, which = ("the outcome of the dice", "outcome") if self.is_chance(state) else ("the move", "move")
        return self._rule_failure(
            f"{what} {self.format_move(move)} goes from tier {self.tier(state)} down to tier "
            f"{self.tier(child)}: no {which} may lower `tier`", "tier", state)

    @typeguard_ignore
    def position(self, state: State) -> Any:
        """What identifies the state's position, from the file's `position` (the state itself
        without it): states with the same position are one position to the strong solver and to
        the transposition table."""
        if self._position is None:
            return state
        try:
            return self._position(state)
        except Exception as error:
            raise self._rule_error(error, state, "position") from None

    def position_error(self, state: State, other: State, what: str) -> GdlError:
        """The error for two states that `position` makes one position though they differ in
        play, located at `position`, with both states."""
        node = self.checked.definitions["position"].node
        shown = self._describe(state), self._describe(other)
        if shown[0] == shown[1]:  # `display` leaves out where they differ: their fields show it
            shown = self._fields_text(state), self._fields_text(other)
        return GdlRuntimeError(
            f"`position` makes these two states one position, but {what}: "
            "`position` must keep every field that matters to the play",
            file=self.source.name, line=node.line, column=node.column,
            source_line=self.source.line(node.line), state_text=shown[0], other_state_text=shown[1],
        )

    def display(self, state: State) -> str:
        """The state drawn by the file's `display`, or its fields one a line."""
        if self._display is None:
            return self._describe(state)
        try:
            return str(self._display(state))
        except Exception as error:
            raise self._rule_error(error, state, "display") from None

    def format_move(self, move: Any) -> str:
        """The move as the file's `move_name` prints it, or as a plain value (a list in
        brackets, as the file writes it)."""
        if self._move_name is None:
            return to_text(move, kind=self._move_kind)
        try:
            return str(self._move_name(move))
        except Exception as error:
            raise self._rule_error(error, None) from None


def _move_kind(checked: CheckedGame) -> Kind:
    """The kind of the game's moves and of its dice's outcomes, as far as the file tells (the
    two are printed by one `format_move`: where they differ, nothing is known)."""
    kinds = []
    moves = checked.definitions.get("moves")
    if moves is not None:
        kinds.append(element(moves.kind))
    outcomes = checked.definitions.get("outcomes")
    if outcomes is not None:
        pair = element(outcomes.kind)
        kinds.append(pair.args[0] if pair.name == "tuple" and len(pair.args) == 2 else ANY)
    kind = kinds[0] if kinds else ANY
    for other in kinds[1:]:
        kind = join(kind, other)
    return kind


def _cells_in_order(order: tuple[int, ...]) -> Callable[[tuple[Any, ...]], tuple[Any, ...]]:
    """A function giving a board's cells in `order` (positions in the board), as a tuple."""
    if len(order) == 1:  # `itemgetter` of one position gives the item, not a tuple
        only = order[0]
        return lambda board: (board[only],)
    return operator.itemgetter(*order)
