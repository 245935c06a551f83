"""The static checks: names, arity, duplicates, required parts, parameters and kinds.

`check` walks the whole program once, collects every mistake it finds (not just the first)
and returns a `CheckedGame`, the resolved model the interpreter compiles. It never runs the game.
"""

from __future__ import annotations

import re
from contextlib import contextmanager
from fractions import Fraction
from typing import Iterator, Mapping

from gdl import ast, model
from gdl.builtins import BUILTIN_SYMBOLS, BUILTINS
from gdl.errors import GdlCheckError, GdlParamError, Source
from gdl.kinds import ANY, INT, NUMBER, Kind, describe, element, fits, join
from gdl.params import bad_item, located, override_expr, override_fits, reshaped
from gdl.payoffs import PAYOFF_RULES, PayoffForm, payoff_form, tree_leaf_mistakes
from gdl.resolve import RESERVED, STATE, Resolver, Scope, Where, count_of
from gdl.specials import REQUIRED, SPECIAL_DEFINITIONS, SPECIAL_FUNCTIONS, Movers, missing_specials, probability_mistake, rule_mistakes
from gdl.tree_table import tree_mistakes
from gdl.values import cut_short, source_text as written_as

KEYWORDS = frozenset(
    "game players symbols param state def result tree let if elif else for in while return "
    "and or not true false".split()
)

_ONCE = {ast.GameName: "game", ast.Players: "players", ast.StateDecl: "state", ast.Result: "result", ast.Tree: "tree"}


class _Checker(Resolver):
    def __init__(self, program: ast.Program, source: Source, overrides: Mapping[str, object]) -> None:
        super().__init__(source)
        self.program = program
        self.raw_overrides = dict(overrides)
        self.title = ""
        self.result_node: ast.Result | None = None
        self.result: model.Result | None = None
        self.tree: ast.Tree | None = None
        self.state_decl: ast.StateDecl | None = None
        self.in_progress: set[str] = set()

    # ---- pass 1: what is declared where
    def declare(self, name: str, what: str, node: ast.Node) -> bool:
        if name in self.top:
            first_what, first = self.top[name]
            self.error(node, f"`{name}` is defined twice: it is already a {first_what} (line {first.line})")
            return False
        if name in BUILTIN_SYMBOLS:
            self.error(node, f"`{name}` is a built-in symbol; choose another name")
            return False
        if name.startswith("__"):
            self.error(node, RESERVED.format(name=name))
            return False
        if name in KEYWORDS and not (name == "players" and what == "parameter"):
            self.error(node, f"`{name}` is a keyword of the language; choose another name")
            return False
        if what == "function" and name in BUILTINS and BUILTINS[name].reserved:
            self.error(node, f"`{name}` is a built-in function; choose another name")
            return False
        self.top[name] = (what, node)
        return True

    def collect(self) -> None:
        seen_once: dict[type, ast.Node] = {}
        for declaration in self.program.declarations:
            kind = type(declaration)
            if kind in _ONCE:
                if kind in seen_once:
                    self.error(declaration, f"`{_ONCE[kind]}` is given twice (first at line {seen_once[kind].line})")
                    continue
                seen_once[kind] = declaration
            self.collect_one(declaration)

    def collect_one(self, declaration: ast.Declaration) -> None:
        if isinstance(declaration, ast.GameName):
            self.title = declaration.title
        elif isinstance(declaration, ast.Players):
            names = []
            for name in declaration.names:
                if self.declare(name, "player", declaration):
                    names.append(name)
                    self.symbols[name] = declaration
            self.players = tuple(names)
            if len(declaration.names) < 2:
                self.error(declaration, "a game needs two or more players: `players X, O`, or `players A, B, C` for three")
        elif isinstance(declaration, ast.Symbols):
            for name in declaration.names:
                if self.declare(name, "symbol", declaration):
                    self.symbols[name] = declaration
        elif isinstance(declaration, ast.Param):
            if self.declare(declaration.name, "parameter", declaration):
                self.params[declaration.name] = model.Param(declaration.name, declaration)
        elif isinstance(declaration, ast.StateDecl):
            self.state_decl = declaration
            for item in declaration.fields:
                if self.declare(item.name, "state field", item):
                    self.fields[item.name] = model.Field(item.name, len(self.fields), item)
        elif isinstance(declaration, ast.Definition):
            if self.declare(declaration.name, "definition", declaration):
                self.definitions[declaration.name] = model.Definition(declaration.name, declaration)
        elif isinstance(declaration, ast.Function):
            if self.declare(declaration.name, "function", declaration):
                self.functions[declaration.name] = model.Function(declaration.name, declaration)
        elif isinstance(declaration, ast.Result):
            self.result_node = declaration
        elif isinstance(declaration, ast.Tree):
            self.tree = declaration

    def require(self) -> None:
        start = ast.Name("", line=1, column=1)
        if not self.players:
            self.error(start, "a game needs its players: add a line such as `players X, O`")
        if self.tree is not None:
            for name in ("state", *REQUIRED):
                node = self.state_decl if name == "state" else self.definitions[name].node if name in self.definitions else None
                if node is not None:
                    self.error(node, f"a game given as a `tree:` table defines its own `{name}`; remove this one")
            if self.result_node is not None:
                self.error(self.result_node, "a game given as a `tree:` table defines its own `result`; remove this one")
            return
        if self.state_decl is None:
            self.error(start, "a game needs a `state:` block listing its fields and their initial values")
        if self.result_node is None:
            self.error(start, "a game needs a `result(move):` block saying how a move changes the state")

    def check_missing(self) -> None:
        """Special names missing or misspelled (once every use of a name is known)."""
        if self.tree is not None:
            return
        used = set().union(*self.deps.values())
        definitions = {name: d.node for name, d in self.definitions.items()}
        functions = {name: f.node for name, f in self.functions.items()}
        for node, message in missing_specials(definitions, functions, used):
            self.error(node if node is not None else ast.Name("", line=1, column=1), message)

    def check_to_move(self) -> bool:
        """Report the symbols `to_move` gives that are no player; whether every value it gives
        is known to be a player (or `chance`)."""
        definition = self.definitions.get("to_move")
        if definition is None or not self.players:
            return True  # reported as missing
        movers = Movers(self.players, "outcomes" in self.definitions)
        for node, message in movers.mistakes(definition.value):
            self.error(node, message)
        return movers.proven

    # ---- parameters and their overrides
    def check_params(self) -> None:
        overrides: dict[str, ast.Expr] = {}
        for name, value in self.raw_overrides.items():
            with self.param_errors_located(name):
                overrides[name] = override_expr(value, frozenset(self.symbols))
                if name not in self.params:
                    known = f"its parameters: {', '.join(self.params)}" if self.params else "it declares none"
                    raise GdlParamError(
                        f"the game has no parameter `{name}`{self.suggest(name, list(self.params))} ({known})",
                        file=self.source.name,
                    )
        for name, param in self.params.items():
            where = Where(owner=name, state=False)
            default = param.source = param.node.default
            param.value = self.resolve(default, Scope(), where)
            param.kind = param.value.kind
            if name in overrides:
                with self.param_errors_located(name):
                    param.value = self.override(name, overrides[name], param.kind, default, where)
                param.kind = reshaped(param.value.kind, param.kind)
                param.source = overrides[name]

    def check_player_count(self) -> None:
        """`param players = N`: the game is played by the first N players of the `players` line
        (2 or more); the others' names stay symbols, for the pieces of a colour no one plays."""
        param = self.params.get("players")
        if param is None or not hasattr(param, "value") or not self.players:
            return
        value = param.value.value if isinstance(param.value, model.Constant) else None
        if type(value) is int and 2 <= value <= len(self.players):
            self.players = self.players[:value]
            return
        message = (f"parameter `players` is the number of players, 2 to {len(self.players)} (the players line "
                   f"lists {', '.join(self.players)}), not {self.source_text(param.source) if param.source is param.node.default else value}")
        if param.source is not param.node.default:
            with self.param_errors_located("players"):
                raise GdlParamError(message, file=self.source.name)
        self.error(param.node.default, message)

    @contextmanager
    def param_errors_located(self, name: str) -> Iterator[None]:
        """Mistakes in the value given for parameter `name`, shown at its declaration."""
        try:
            yield
        except GdlParamError as error:
            raise located(error, self.source, self.program, name) from None

    def override(self, name: str, given: ast.Expr, kind: Kind, default: ast.Expr, where: Where) -> model.Expr:
        """The value given for a parameter, resolved, if it may replace the default."""
        known_errors = len(self.errors)
        value = self.resolve(given, Scope(), where)
        if len(self.errors) > known_errors:
            # The value comes from the command line, not from the file: no line to show.
            problem = self.errors[known_errors].message
            del self.errors[known_errors:]
            raise GdlParamError(f"the value given for parameter `{name}` is not valid: {problem}", file=self.source.name)
        wrong = bad_item(value.kind, kind)
        if wrong is not None:
            wanted = element(kind)
            found = describe(wrong)
            if wrong.name == wanted.name == "tuple" and len(wrong.args) != len(wanted.args):
                # The kinds alone would read the same; a list's tuples of different lengths join
                # into one of no known length.
                found = f"a tuple of {len(wrong.args)} items" if wrong.args else "a tuple of another length"
            raise GdlParamError(
                f"each item of parameter `{name}` must be {describe(wanted)} "
                + (f"of {len(wanted.args)} items " if wanted.name == "tuple" and wanted.args else "")
                + f"(default {self.source_text(default)}), but one given is {found}",
                file=self.source.name,
            )
        if not override_fits(value.kind, kind):
            # An integer default makes an integer parameter (the rules may count with it): say
            # how to let it take fractions too.
            fraction = kind.name == "int" and value.kind.name == "number"
            written = self.source_text(default)
            decimal = f"`param {name} = {written}.0`" if re.fullmatch(r"-?\d+", written) else f"`{written} + 0.0`"
            shown = f" ({_given_text(value.value)})" if isinstance(value, model.Constant) else ""
            raise GdlParamError(
                f"parameter `{name}` is {describe(kind)} (default {written}), "
                f"but {'a decimal or a fraction' if fraction else describe(value.kind)}{shown} was given"
                + (f"; write its default as a decimal ({decimal}) for it to take fractions" if fraction else ""),
                file=self.source.name,
            )
        return value

    def check_param_order(self, use: ast.Name, owner: str) -> None:
        """Parameters are set one after the other, in the order of the file: a default (or a
        value given for one) can use only the parameters above it."""
        order = list(self.params)
        if order.index(use.id) < order.index(owner):
            return
        if use.id == owner:
            self.error(use, f"the value of parameter `{owner}` cannot use `{owner}` itself")
        else:
            below = self.params[use.id].node.line
            self.error(use, f"parameter `{use.id}` is declared below `{owner}` (line {below}); a parameter's value can use only the parameters above it")

    def source_text(self, node: ast.Node) -> str:
        line = self.source.line(node.line) or ""
        return line[node.column - 1:].strip() or "?"

    # ---- the declarations' bodies
    def check_fields(self) -> None:
        for name, item in self.fields.items():
            item.initial = self.resolve(item.node.initial, Scope(), Where(owner=name, state=False))
            item.kind = item.initial.kind

    def definition_kind(self, name: str) -> Kind:
        definition = self.definitions[name]
        if hasattr(definition, "kind"):
            return definition.kind
        if name in self.in_progress:
            return ANY  # a cycle, reported by the dependency check
        self.in_progress.add(name)
        definition.value = self.resolve(definition.node.value, Scope(), Where(owner=name, state=True))
        self.in_progress.discard(name)
        definition.kind = definition.value.kind
        return definition.kind

    def function_kind(self, name: str) -> Kind:
        function = self.functions[name]
        if hasattr(function, "kind"):
            return function.kind
        if name in self.in_progress:
            return ANY  # recursion: the kind is whatever the other branches say
        self.in_progress.add(name)
        node = function.node
        scope = Scope()
        function.params = tuple(self.bind_name(param, ANY, scope, node) for param in node.params)
        where = Where(owner=name, state=True, in_function=True)
        if isinstance(node.body, ast.Block):
            returns: list[Kind] = []
            function.body = self.resolve_block(node.body, scope, where, returns)
            if not _always_returns(node.body):
                self.error(node, f"function `{name}` can reach its end without a `return`")
            kind = returns[0] if returns else ANY
            for other in returns[1:]:
                kind = join(kind, other)
        else:
            function.body = self.resolve(node.body, scope, where)
            kind = function.body.kind
        self.in_progress.discard(name)
        function.kind = kind
        return kind

    def check_specials(self) -> None:
        for name, (expected, what) in SPECIAL_DEFINITIONS.items():
            if name in self.functions and name not in self.definitions:
                self.error(self.functions[name].node, f"`{name}` must be a definition (`{name} = ...`), not a function")
            if name not in self.definitions:
                continue
            kind = self.definition_kind(name)
            if name in PAYOFF_RULES:
                continue  # a number or each player's payoff: see `check_payoffs`
            value = self.definitions[name].node.value
            if not fits(kind, expected):
                # `/` divides exactly: a whole number where it is one, else a fraction.
                divides = any(isinstance(node, ast.Binary) and node.op == "/" for node in ast.walk(value))
                hint = "; `/` may leave a fraction, `//` divides to a whole number" if (
                    expected == INT and kind == NUMBER and divides) else ""
                self.error(value, f"`{name}` must be {describe(expected)} ({what}), got {describe(kind)}{hint}")
            elif name == "outcomes" and probability_mistake(kind):
                self.error(value, probability_mistake(kind) or "")
        for name, (arity, expected, _) in SPECIAL_FUNCTIONS.items():
            if name in self.definitions:
                self.error(self.definitions[name].node, f"`{name}` must be a function of the move: `def {name}(m) = ...`")
            function = self.functions.get(name)
            if function is None:
                continue
            if len(function.node.params) != arity:
                self.error(function.node, f"`{name}` takes {count_of(arity, 'argument')} (the move), not {len(function.node.params)}")
            kind = self.function_kind(name)
            if not fits(kind, expected):
                self.error(function.node, f"`{name}` must give {describe(expected)}, got {describe(kind)}")

    def check_result(self) -> None:
        node = self.result_node
        if node is None:
            return
        scope = Scope()
        # A move is one of the items of `moves` (or a chance outcome, whose kind is not known).
        move = element(self.definition_kind("moves")) if "moves" in self.definitions else ANY
        if "outcomes" in self.definitions:
            move = ANY
        target = self.bind_target(node.target, move, scope)
        body = self.resolve_block(node.body, scope, Where(owner="result", state=True, in_result=True), [])
        self.result = model.Result(node, target, body)

    # ---- dependencies: what reads the state, and definitions made of themselves
    def dependencies(self) -> tuple[str, ...]:
        """Mark each definition and function that reads the state; report definitions made of
        themselves and initial values that read the state; the constants in an order to compute."""
        names = list(self.definitions) + list(self.functions)
        state_dependent: set[str] = set()
        changed = True
        while changed:
            changed = False
            for name in names:
                if name in state_dependent:
                    continue
                if any(d == STATE or d in state_dependent for d in self.deps.get(name, ())):
                    state_dependent.add(name)
                    changed = True
        for name, definition in self.definitions.items():
            definition.reads_state = name in state_dependent
        for name, function in self.functions.items():
            function.reads_state = name in state_dependent
        order: list[str] = []
        visiting: list[str] = []
        done: set[str] = set()

        def visit(name: str) -> None:
            if name in done:
                return
            if name in visiting:
                cycle = visiting[visiting.index(name):] + [name]
                if any(n in self.definitions for n in cycle) and name in self.definitions:
                    self.error(self.definitions[name].node, f"`{name}` is defined in terms of itself: {' -> '.join(cycle)}")
                return
            visiting.append(name)
            for dep in sorted(self.deps.get(name, ())):
                if dep in self.definitions or dep in self.functions:
                    visit(dep)
            visiting.pop()
            done.add(name)
            if name in self.definitions and name not in state_dependent:
                order.append(name)

        for name in self.definitions:
            visit(name)
        for name, item in self.fields.items():
            for dep in self.deps.get(name, ()):
                if dep in state_dependent:
                    self.error(item.node, f"the initial value of `{name}` reads the state (through `{dep}`); use constants and parameters")
        return tuple(order)

    def check_payoffs(self) -> PayoffForm | None:
        """The form of the game's payoffs, once the payoff rules' mistakes are reported."""
        if len(self.players) < 2:
            return "number"  # too few players, reported already
        if self.tree is not None:
            form, tree_errors = tree_leaf_mistakes(self.tree, self.players)
            for leaf, message in tree_errors:
                self.error(leaf, message)
            return form
        found, mistakes = payoff_form(self.definitions, self.players)
        for node, message in mistakes:
            self.error(node, message)
        # A two-player game whose payoffs the checker cannot see gives one number, as ever.
        return found if found is not None or len(self.players) != 2 else "number"

    def check_tree(self) -> None:
        if self.tree is not None:
            for node, message in tree_mistakes(self.tree):
                self.error(node, message)

    def run(self) -> model.CheckedGame:
        self.collect()
        self.require()
        self.check_params()
        self.check_player_count()
        self.check_fields()
        for name in self.definitions:
            self.definition_kind(name)
        for name in self.functions:
            self.function_kind(name)
        self.check_specials()
        self.check_result()
        self.check_tree()
        payoffs = self.check_payoffs()
        to_move_proven = self.check_to_move()
        order = self.dependencies()
        self.check_missing()
        for node, message in rule_mistakes(self.definitions, self.functions, tuple(self.fields.values())):
            self.error(node, message)
        if self.errors:
            raise GdlCheckError(self.errors)
        return model.CheckedGame(
            source=self.source, program=self.program, title=self.title or self.source.name,
            players=self.players, symbols=tuple(self.symbols), params=self.params,
            fields=tuple(self.fields.values()), definitions=self.definitions, functions=self.functions,
            result=self.result, tree=self.tree, constant_order=order, to_move_proven=to_move_proven,
            payoffs=payoffs,
        )


def _always_returns(block: ast.Block) -> bool:
    if not block.statements:
        return False
    last = block.statements[-1]
    if isinstance(last, ast.Return):
        return True
    if isinstance(last, ast.If) and last.otherwise is not None:
        return all(_always_returns(body) for _, body in last.branches) and _always_returns(last.otherwise)
    return False


def check(program: ast.Program, source: Source, overrides: Mapping[str, object] | None = None) -> model.CheckedGame:
    """Check a parsed program; raise GdlCheckError listing every mistake, or GdlParamError.

    `overrides` set parameters: Python values (`rows=5`) or expressions parsed from the command line.
    """
    return _Checker(program, source, overrides or {}).run()


def _given_text(value: object) -> str:
    """A parameter's given value as the language writes it, cut short where long; a decimal as
    a decimal (`3.5`, `3.0`: its point is what made it the wrong kind), not as the fraction
    it is kept as."""
    text = (_decimal_text(value) if isinstance(value, Fraction) else None) or written_as(value)
    return cut_short(text, _GIVEN_SHOWN)


_GIVEN_SHOWN = 40  # characters of a given value an error quotes


def _decimal_text(value: Fraction) -> str | None:
    """``value`` written with a decimal point, where a finite decimal is it (its denominator
    has no prime factor but 2 and 5); else None."""
    rest, powers = value.denominator, {2: 0, 5: 0}
    for prime in powers:
        while rest % prime == 0:
            rest //= prime
            powers[prime] += 1
    places = max(powers.values())
    if rest != 1 or places > _GIVEN_SHOWN:
        return None
    digits = str(abs(value.numerator) * 10 ** places // value.denominator).rjust(places + 1, "0")
    whole, point = digits[:len(digits) - places], digits[len(digits) - places:] or "0"
    return ("-" if value < 0 else "") + whole + "." + point
