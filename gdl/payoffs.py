"""How a game gives its players' payoffs, and the checks of it.

A two-player game gives one number from the first player's view (zero-sum: the second
player's payoff is its negation). A game may instead give each player's own payoff: a tuple
in the order of `players`, `(1, 0, 0)`, or a map from player to payoff, `{A: 1, B: 0, C: 0}`;
a game of more than two players must. One game gives all its payoffs one way: `utility`,
`evaluation` and `repetition` alike, and every branch of each; a `tree:` table's leaves too.
"""

from __future__ import annotations

from dataclasses import dataclass
from fractions import Fraction
from typing import Iterator, Literal, Mapping

from gdl import ast, model
from gdl.kinds import NUMBER, Kind, describe, fits

PayoffForm = Literal["number", "tuple", "map"]
"""One number from the first player's view, a tuple in player order, or a map from player."""

PAYOFF_RULES: dict[str, str] = {
    "utility": "score in a terminal state",
    "evaluation": "heuristic score",
    "repetition": "score when a position repeats",
}
"""The special definitions that give payoffs, and what each payoff means."""

_FORM_WORDS = {"number": "one number", "tuple": "a tuple of payoffs", "map": "a map of payoffs"}


def meaning(rule: str, players: int) -> str:
    """What a payoff rule gives, in words, for a game of this many players."""
    whose = "the first player's" if players == 2 else "each player's"
    return f"{whose} {PAYOFF_RULES[rule]}"


def vector_example(players: tuple[str, ...]) -> str:
    """The payoffs written both ways for these players, to show in a message."""
    numbers = ["1"] + ["0"] * (len(players) - 1)
    pairs = ", ".join(f"{p}: {n}" for p, n in zip(players, numbers))
    return f"a tuple in player order such as ({', '.join(numbers)}) or a map such as {{{pairs}}}"


@dataclass(frozen=True)
class Leaf:
    """One value a payoff rule can give (a branch of its `if`s), where it is, and its form."""

    rule: str
    node: model.Expr
    form: PayoffForm | None  # None: not known before the game runs, or no payoff at all


def _form_of(kind: Kind) -> PayoffForm | None:
    if kind.name in ("int", "number"):
        return "number"
    if kind.name in ("tuple", "map"):
        return kind.name  # type: ignore[return-value]
    return None


def leaves(rule: str, value: model.Expr) -> Iterator[Leaf]:
    """Each value the rule can give, following `A if C else B`, definitions and functions of
    one expression to the values they are made of."""
    pending, seen = [value], set()
    while pending:
        source = pending.pop()
        if isinstance(source, model.Conditional):
            pending += [source.otherwise, source.then]
        elif isinstance(source, model.DefinitionRef) and id(source.definition) not in seen:
            seen.add(id(source.definition))
            pending.append(source.definition.value)
        elif (isinstance(source, model.FunctionCall) and isinstance(source.function.body, model.Expr)
              and id(source.function) not in seen):
            seen.add(id(source.function))
            pending.append(source.function.body)
        else:
            yield Leaf(rule, source, _form_of(source.kind))


Range = tuple[int | Fraction, int | Fraction]
"""The lowest and highest of some numbers."""


def outcome_range(definitions: Mapping[str, model.Definition]) -> Range | None:
    """The lowest and highest payoff (one number, the first player's) that `utility` and
    `repetition` can give, when every value they can give (see `leaves`) is a number written in
    the file or a negation of such (a game without `repetition` scores a repetition 0); None
    otherwise."""
    ranges: list[Range] = [] if "repetition" in definitions else [(0, 0)]
    for rule in ("utility", "repetition"):
        if rule in definitions:
            found = _number_range(definitions[rule].value)
            if found is None:
                return None
            ranges.append(found)
    if not ranges:
        return None
    return min(low for low, _ in ranges), max(high for _, high in ranges)


def _number_range(node: model.Expr, depth: int = 0) -> Range | None:
    """The lowest and highest number ``node`` can be, when each value it can give (`leaves`)
    is a number written in the file or the negation of such values; None otherwise."""
    lows, highs = [], []
    for leaf in leaves("", node):
        value = leaf.node
        if isinstance(value, model.Constant) and type(value.value) in (int, Fraction):
            found: Range | None = (value.value, value.value)  # type: ignore[assignment]
        elif isinstance(value, model.Unary) and value.op == "-" and depth < _DEEPEST_NEGATION:
            inner = _number_range(value.operand, depth + 1)
            found = None if inner is None else (-inner[1], -inner[0])
        else:
            found = None
        if found is None:
            return None
        lows.append(found[0])
        highs.append(found[1])
    return (min(lows), max(highs)) if lows else None


# Negations inside negations followed at most this deep (a definition cannot refer to itself,
# but a bound keeps the walk finite whatever the model holds).
_DEEPEST_NEGATION = 32


def payoff_form(
    definitions: Mapping[str, model.Definition], players: tuple[str, ...]
) -> tuple[PayoffForm | None, list[tuple[model.Node, str]]]:
    """The form the game's payoffs take (None when no rule shows it before the game runs), and
    each mistake: a payoff of the wrong kind, a mix of forms, a tuple of the wrong length, a
    map naming no player or leaving one out."""
    mistakes: list[tuple[model.Node, str]] = []
    first: Leaf | None = None
    for rule in PAYOFF_RULES:
        if rule not in definitions:
            continue
        for leaf in leaves(rule, definitions[rule].value):
            wrong = _leaf_mistake(leaf, players)
            if wrong is not None:
                mistakes.append((leaf.node, wrong))
            elif leaf.form is not None and first is None:
                first = leaf
            elif leaf.form is not None and first is not None and first.form is not None and leaf.form != first.form:
                there = "it" if first.rule == leaf.rule else f"`{first.rule}`"
                mistakes.append((leaf.node, (
                    f"`{leaf.rule}` gives {_FORM_WORDS[leaf.form]} here, but {there} gives "
                    f"{_FORM_WORDS[first.form]} at line {first.node.line}, column {first.node.column}: "
                    "give every payoff the same way")))
    return (first.form if first is not None else None), mistakes


def _leaf_mistake(leaf: Leaf, players: tuple[str, ...]) -> str | None:
    """What is wrong with one value a payoff rule gives, or None."""
    kind = leaf.node.kind
    if leaf.form is None:
        if kind.name == "any":
            return None  # checked as the game runs
        if len(players) == 2:
            return f"`{leaf.rule}` must be a number ({meaning(leaf.rule, 2)}), got {describe(kind)}"
        return (f"`{leaf.rule}` must give each player's payoff ({vector_example(players)}), "
                f"got {describe(kind)}")
    if leaf.form == "number":
        if len(players) != 2:
            return (f"with {len(players)} players, `{leaf.rule}` gives each player's payoff: "
                    f"{vector_example(players)}, not one number")
        return None
    if leaf.form == "tuple":
        if kind.args and len(kind.args) != len(players):
            return (f"a tuple of payoffs has one number for each player ({', '.join(players)}): "
                    f"{len(players)} items, not {len(kind.args)}")
        wrong = next((item for item in kind.args if not fits(item, NUMBER)), None)
        if wrong is not None:
            return f"each payoff in the tuple must be a number, got {describe(wrong)}"
        return None
    if len(kind.args) == 2 and not fits(kind.args[1], NUMBER):
        return f"each payoff in the map must be a number, got {describe(kind.args[1])}"
    if isinstance(leaf.node, model.MapExpr):
        return _map_mistake(leaf.node, players)
    return None


def _map_mistake(value: model.MapExpr, players: tuple[str, ...]) -> str | None:
    """A key of a map of payoffs that is no player, or a player it leaves out (when its keys
    are all written as names)."""
    named = [key.name for key, _ in value.items if isinstance(key, model.SymbolRef)]
    for name in named:
        if name not in players:
            return f"`{name}` is not a player (the players: {', '.join(players)})"
    if len(named) == len(value.items):
        left_out = [p for p in players if p not in named]
        if left_out:
            return f"the map of payoffs gives no payoff to {', '.join(left_out)}: give every player a payoff"
    return None


def tree_leaf_mistakes(tree: ast.Tree, players: tuple[str, ...]) -> tuple[PayoffForm, list[tuple[ast.Node, str]]]:
    """The form of a `tree:` table's leaves ("number" or "tuple"), and each leaf that breaks
    it: a vector of the wrong length, a mix of numbers and vectors, one number with more than
    two players."""
    mistakes: list[tuple[ast.Node, str]] = []
    first: ast.TreeChild | None = None
    for row in tree.rows:
        for child in row.children:
            if child.value is None:
                continue
            vector = isinstance(child.value, tuple)
            if vector and len(child.value) != len(players):  # type: ignore[arg-type]
                mistakes.append((child, (
                    f"a leaf's payoffs are one number for each player ({', '.join(players)}): "
                    f"{len(players)}, not {len(child.value)}")))  # type: ignore[arg-type]
            elif not vector and len(players) != 2:
                mistakes.append((child, (
                    f"with {len(players)} players, a leaf gives each player's payoff in player order, "
                    f"such as ({', '.join(['1'] + ['0'] * (len(players) - 1))}), not one number")))
            elif first is None:
                first = child
            elif vector != isinstance(first.value, tuple):
                mistakes.append((child, (
                    f"this leaf is {'a payoff vector' if vector else 'one number'}, but the leaf at line "
                    f"{first.line} is {'a payoff vector' if not vector else 'one number'}: "
                    "give every leaf the same way")))
    form: PayoffForm = "tuple" if first is not None and isinstance(first.value, tuple) else "number"
    if first is None and len(players) != 2:
        form = "tuple"
    return form, mistakes
