"""`gdl tree`: the searched game tree as the textbooks draw it (text, Graphviz dot, or SVG)."""

from __future__ import annotations

import argparse
import os
import shutil
import subprocess
from dataclasses import dataclass, field
from html import escape
from typing import Any, Iterator

import searchers
from gdl.cli.common import (
    Subcommands, UsageError, add_command, check_search_limits, exact_searcher, is_two_player_zero_sum, load_game,
    move_text, number_text, refused, say, terminal_safe, value_text,
)
from searchers import ChanceCycleMet, SearchError

SHAPES = {"max": "triangle", "min": "invtriangle", "chance": "circle", "leaf": "box"}

# The searchers whose searched tree can be drawn (a trace), by name.
_SEARCHERS = ("minimax", "alphabeta", "expectiminimax", "maxn")


def register(commands: Subcommands) -> argparse.ArgumentParser:
    """Add `gdl tree` and its options."""
    tree = add_command(commands,
                "tree", help="draw the searched game tree, with values, alpha-beta windows and pruning",
        description="Search the game and draw the tree the search explored: MAX and MIN nodes, each "
        "node's backed-up value and the alpha and beta it was searched with, the leaves numbered in "
        "the order they were evaluated, and the branches alpha-beta pruned. With more than two players, "
        "the max^n tree: each node's payoff vector, and the player who picks it.",
        epilog="examples:\n  gdl tree games/textbook/aima.gdl --algorithm alphabeta\n"
        "  gdl tree games/textbook/pruning.gdl --format dot > pruning.dot\n"
        "  gdl tree games/textbook/aima.gdl --format svg -o aima.svg\n"
        "  gdl tree games/tictactoe.gdl --depth 2 --max-nodes 40\n"
        "  gdl tree games/textbook/three_players.gdl      (max^n: each node's payoff vector)",
    )
    tree.add_argument("--algorithm", choices=_SEARCHERS,
                      help="the searcher (default: alphabeta; expectiminimax for a game with dice, whose chance "
                      "nodes average their outcomes; maxn for more than two players, whose tree shows every "
                      "player's payoff at each node and the player who chose it)")
    tree.add_argument("--depth", type=int, metavar="N",
                      help="search N moves ahead and evaluate there (needed, where the game has an evaluation, for a "
                      "game whose positions repeat through the dice)")
    tree.add_argument("--format", choices=("text", "dot", "svg"),
                      help="text, Graphviz dot, or an SVG picture (default: from the -o file's extension: .svg, .dot or "
                      ".gv, and text for .txt, no extension or no -o; another extension is refused)")
    tree.add_argument("--max-nodes", type=int, default=300, metavar="N", help="draw at most N nodes (default 300)")
    tree.add_argument("-o", "--output", metavar="FILE", help="write to FILE instead of the standard output")
    return tree


@dataclass
class Drawn:
    """A node as drawn: its label, value text, window, and children (pruned moves included)."""

    label: str
    kind: str
    value: str
    window: str
    order: int | None = None
    pruned: bool = False
    children: list[Drawn] = field(default_factory=list)
    mover: str = ""  # the player choosing at a max^n node (its value is every player's payoff)
    note: str = ""  # how a leaf not evaluated got its value, shown where a leaf's number goes


def _bound_text(value: Any) -> str:
    if value == float("inf"):
        return "+inf"
    if value == float("-inf"):
        return "-inf"
    return number_text(value)


# How a leaf that was not evaluated got its value: shown beside it, in place of a number.
_NOT_EVALUATED = {"repetition": "a repetition", "table": "from the table"}


def _value_text(node: Any) -> str:
    sign = {"upper": "<=", "lower": ">="}.get(node.bound, "=")
    return f"{sign} {value_text(node.value)}"


def build_drawing(game: Any, result: Any, max_nodes: int) -> tuple[Drawn, int]:
    """The traced search as a tree of Drawn nodes, at most max_nodes of them; and how many were left out."""
    leaf_numbers: dict[int, int] = {}
    counter = iter(range(1, 1 << 62))
    budget = [max_nodes]
    left_out = [0]

    def number_leaves(node: Any) -> None:
        # The leaves evaluated (by the utility or the evaluation), in the order the search did.
        if node.kind == "leaf" and node.scored_by not in _NOT_EVALUATED:
            leaf_numbers[id(node)] = next(counter)
        for child in node.children:
            number_leaves(child)

    number_leaves(result.tree)

    # Labels are the game's own text: made safe here, once, for every picture drawn of them.
    def label(node: Any, root: bool) -> str:
        if root:
            state = node.state
            if isinstance(state, tuple) and len(state) == 1 and isinstance(state[0], str):
                return terminal_safe(state[0])  # a tree table's root node
            return "root"
        probability = getattr(node, "probability", None)  # an outcome of the dice: how likely
        chance = "" if probability is None else f" (p={probability})"
        return terminal_safe(move_text(game, node.move)) + chance

    def draw(node: Any, root: bool = False) -> Drawn:
        budget[0] -= 1
        window = "" if node.alpha is None else f"alpha {_bound_text(node.alpha)}, beta {_bound_text(node.beta)}"
        drawn = Drawn(label(node, root), node.kind, _value_text(node), window, leaf_numbers.get(id(node)))
        if node.kind == "leaf":
            drawn.note = _NOT_EVALUATED.get(node.scored_by, "")
        if isinstance(node.value, dict) and node.kind not in ("leaf", "chance"):  # the dice pick no payoff
            drawn.mover = terminal_safe(str(node.player))
        hidden = 0
        for child in node.children:
            if budget[0] <= 0:
                hidden += _size(child)
                continue
            drawn.children.append(draw(child))
        for move in list(node.pruned) + list(getattr(node, "dropped", [])):
            drawn.children.append(Drawn(terminal_safe(move_text(game, move)), "pruned", _pruned_value(game, node.state, move), "", pruned=True))
        if hidden:
            left_out[0] += hidden
            drawn.children.append(Drawn(f"... {hidden} more node{'s' if hidden != 1 else ''} not shown", "more", "", ""))
        return drawn

    return draw(result.tree, root=True), left_out[0]


def _pruned_value(game: Any, state: Any, move: Any) -> str:
    """A pruned move's value when it leads straight to the end of the game (a textbook leaf),
    as the figures show it; empty otherwise (the search never looked)."""
    try:
        child = game.result(state, move)
        if game.is_terminal(child):
            if not is_two_player_zero_sum(game):
                return value_text({p: game.utility(child, p) for p in game.players})
            return number_text(game.utility(child, game.players[0]))
    except Exception:  # drawing a pruned branch must never break the picture
        pass
    return ""


def _size(node: Any) -> int:
    return 1 + sum(_size(child) for child in node.children)


# ---- text -------------------------------------------------------------------------------


def render_text(root: Drawn, left_out: int) -> str:
    """An indented tree with box-drawing branches."""
    lines: list[str] = []

    def line_for(node: Drawn) -> str:
        if node.kind == "more":
            return node.label
        if node.pruned:
            return f"{node.label}  = {node.value}  pruned" if node.value else f"{node.label}  pruned"
        if node.kind == "leaf":
            order = f"  leaf #{node.order}" if node.order is not None else f" ({node.note})" if node.note else ""
            window = f"  [{node.window}]" if node.window else ""
            return f"{node.label}  {node.value}{order}{window}"
        window = f"  [{node.window}]" if node.window else ""
        chooser = f"{node.mover} picks" if node.mover else node.kind.upper()
        return f"{node.label}  {chooser} {node.value}{window}"

    def walk(node: Drawn, prefix: str, last: bool, root: bool) -> None:
        if root:
            lines.append(line_for(node))
            child_prefix = ""
        else:
            lines.append(prefix + ("└── " if last else "├── ") + line_for(node))
            child_prefix = prefix + ("    " if last else "│   ")
        for i, child in enumerate(node.children):
            walk(child, child_prefix, i == len(node.children) - 1, False)

    walk(root, "", True, True)
    if left_out:
        lines.append(f"... {left_out} more nodes not shown (raise --max-nodes)")
    return "\n".join(lines) + "\n"


# ---- dot ----------------------------------------------------------------------------------


def _nodes(root: Drawn) -> Iterator[tuple[int, Drawn, int | None]]:
    """(id, node, parent id) in drawing order."""
    counter = [0]

    def walk(node: Drawn, parent: int | None) -> Iterator[tuple[int, Drawn, int | None]]:
        number = counter[0]
        counter[0] += 1
        yield number, node, parent
        for child in node.children:
            yield from walk(child, number)

    yield from walk(root, None)


def render_dot(root: Drawn, left_out: int) -> str:
    """Graphviz source: MAX as up-triangles, MIN as down-triangles, leaves as boxes, pruned dashed."""
    out = ["digraph search {", '  node [fontname="Helvetica", fontsize=11];', '  edge [fontname="Helvetica", fontsize=10];']
    for number, node, parent in _nodes(root):
        if node.kind == "more":
            out.append(f'  n{number} [shape=plaintext, label={_dot_label(node.label)}];')
            out.append(f'  n{parent} -> n{number} [style=dotted];')
            continue
        if node.pruned:
            shown = _dot_label(node.value, "pruned") if node.value else _dot_label("pruned")
            out.append(f'  n{number} [shape=box, style=dashed, color=gray, label={shown}, fontcolor=gray];')
        else:
            shown = node.value if node.kind != "leaf" else node.value.lstrip("= ")
            lines = [shown + (f" ({node.note})" if node.note else "")]
            if node.mover:
                lines.insert(0, f"{node.mover} picks")
            if parent is None:
                lines.insert(0, node.label)
            if node.order is not None:
                lines.append(f"#{node.order}")
            if node.window:
                lines.append(node.window.replace("alpha", "α").replace("beta", "β"))
            out.append(f'  n{number} [shape={SHAPES.get(node.kind, "ellipse")}, label={_dot_label(*lines)}];')
        if parent is not None:
            style = ", style=dashed, color=gray, fontcolor=gray" if node.pruned else ""
            out.append(f'  n{parent} -> n{number} [label={_dot_label(node.label)}{style}];')
    if left_out:
        out.append(f'  more [shape=plaintext, label={_dot_label(f"{left_out} more nodes not shown")}];')
    out.append("}")
    return "\n".join(out) + "\n"


def _dot_label(*lines: str) -> str:
    """A quoted Graphviz label showing each line as written, one under the other. In a label a
    backslash starts an escape (`\\n` a line break, `\\N` the node's name), so a backslash of the
    text is doubled; a quote would end the string; a line break of the text is drawn as one."""
    escaped = (line.replace("\\", "\\\\").replace('"', '\\"').replace("\n", "\\n") for line in lines)
    return '"' + "\\n".join(escaped) + '"'


# ---- svg ------------------------------------------------------------------------------------


def render_svg(root: Drawn, left_out: int) -> str:
    """An SVG picture: Graphviz's when `dot` is installed, else a simple drawing of our own."""
    dot = shutil.which("dot")
    if dot is not None:
        done = subprocess.run([dot, "-Tsvg"], input=render_dot(root, left_out), capture_output=True, text=True)
        if done.returncode == 0:
            return done.stdout
    return _own_svg(root, left_out)


def _own_svg(root: Drawn, left_out: int) -> str:
    x_step, y_step, margin = 96, 90, 50
    positions: dict[int, tuple[float, float]] = {}
    next_leaf = [0]

    def place(node: Drawn, depth: int) -> float:
        x: float
        if not node.children:
            x = margin + next_leaf[0] * x_step
            next_leaf[0] += 1
        else:
            xs = [place(child, depth + 1) for child in node.children]
            x = (xs[0] + xs[-1]) / 2
        positions[id(node)] = (x, margin + depth * y_step)
        return x

    place(root, 0)
    width = margin * 2 + max(next_leaf[0] - 1, 0) * x_step + 70  # room for the last window label
    height = max(y for _, y in positions.values()) + margin
    parts = [f'<svg xmlns="http://www.w3.org/2000/svg" width="{width:.0f}" height="{height:.0f}" font-family="Helvetica" font-size="11">']

    def edges(node: Drawn) -> None:
        x, y = positions[id(node)]
        for child in node.children:
            cx, cy = positions[id(child)]
            dash = ' stroke-dasharray="4 3" stroke="gray"' if child.pruned or child.kind == "more" else ' stroke="black"'
            parts.append(f'<line x1="{x:.0f}" y1="{y + 14:.0f}" x2="{cx:.0f}" y2="{cy - 14:.0f}"{dash}/>')
            if child.kind != "more":
                parts.append(f'<text x="{(x + cx) / 2 + 4:.0f}" y="{(y + cy) / 2:.0f}" fill="{"gray" if child.pruned else "#444"}">{escape(child.label)}</text>')
            edges(child)

    def shapes(node: Drawn) -> None:
        x, y = positions[id(node)]
        if node.kind == "more":
            parts.append(f'<text x="{x:.0f}" y="{y + 4:.0f}" text-anchor="middle">{escape(node.label)}</text>')
        elif node.pruned:
            parts.append(f'<rect x="{x - 14:.0f}" y="{y - 12:.0f}" width="28" height="24" fill="white" stroke="gray" stroke-dasharray="3 2"/>')
            parts.append(f'<text x="{x:.0f}" y="{y + 4:.0f}" text-anchor="middle" fill="gray">{escape(node.value)}</text>')
            parts.append(f'<text x="{x:.0f}" y="{y + 28:.0f}" text-anchor="middle" fill="gray">pruned</text>')
        elif node.kind == "max":
            parts.append(f'<polygon points="{x:.0f},{y - 14:.0f} {x - 16:.0f},{y + 12:.0f} {x + 16:.0f},{y + 12:.0f}" fill="white" stroke="black"/>')
        elif node.kind == "min":
            parts.append(f'<polygon points="{x:.0f},{y + 14:.0f} {x - 16:.0f},{y - 12:.0f} {x + 16:.0f},{y - 12:.0f}" fill="white" stroke="black"/>')
        elif node.kind == "chance":
            parts.append(f'<circle cx="{x:.0f}" cy="{y:.0f}" r="13" fill="white" stroke="black"/>')
        else:
            parts.append(f'<rect x="{x - 14:.0f}" y="{y - 12:.0f}" width="28" height="24" fill="white" stroke="black"/>')
        if not node.pruned and node.kind != "more":
            if node.kind == "leaf":
                parts.append(f'<text x="{x:.0f}" y="{y + 4:.0f}" text-anchor="middle">{escape(node.value.lstrip("= "))}</text>')
                if node.note:  # below the box, where an evaluated leaf has its number
                    parts.append(f'<text x="{x:.0f}" y="{y + 28:.0f}" text-anchor="middle" fill="#888" '
                                 f'font-size="9">{escape(node.note)}</text>')
            else:
                parts.append(f'<text x="{x + 20:.0f}" y="{y + 4:.0f}">{escape(node.value)}</text>')
            if node is root:
                parts.append(f'<text x="{x:.0f}" y="{y - 18:.0f}" text-anchor="middle" font-weight="bold">{escape(node.label)}</text>')
            if node.order is not None:
                parts.append(f'<text x="{x:.0f}" y="{y + 28:.0f}" text-anchor="middle" fill="#06c">#{node.order}</text>')
            if node.window:
                window = node.window.replace("alpha", "α").replace("beta", "β")
                parts.append(f'<text x="{x + 20:.0f}" y="{y + 17:.0f}" fill="#888" font-size="9">{escape(window)}</text>')
        for child in node.children:
            shapes(child)

    edges(root)
    shapes(root)
    if left_out:
        parts.append(f'<text x="{margin}" y="{height - 8:.0f}">{left_out} more nodes not shown</text>')
    parts.append("</svg>")
    return "\n".join(parts) + "\n"


def _format_of(output: str | None) -> str:
    """The drawing's format named by the -o file's extension: text without a file or for
    `.txt` and no extension; an extension gdl cannot write (`.png`) is refused, not filled
    with text."""
    if output is None:
        return "text"
    extension = os.path.splitext(output)[1].lstrip(".").lower()  # none for `.hidden`
    chosen = {"svg": "svg", "dot": "dot", "gv": "dot", "txt": "text", "": "text"}.get(extension)
    if chosen is None:
        raise UsageError(f"gdl tree writes text, Graphviz dot or SVG, not .{extension} (`{output}`): name the file "
                         ".txt, .dot or .svg, or give --format")
    return chosen


def run(args: argparse.Namespace) -> int:
    """Search with a trace and draw it."""
    check_search_limits(args)
    chosen = args.format or _format_of(args.output)
    game = load_game(args)
    if args.max_nodes < 1:
        raise UsageError("--max-nodes must be at least 1")
    algorithm = args.algorithm or exact_searcher(game)
    search = getattr(searchers, algorithm)
    # A search to the end through positions that repeat through the dice goes round them again
    # and again, drawing more with each turn: it stops at the first and asks for a depth, where
    # the game can estimate positions there; one that cannot is searched to the end as asked.
    stop = algorithm in ("expectiminimax", "maxn") and args.depth is None and getattr(game, "has_evaluation", False)
    options = {"stop_at_chance_cycle": True} if stop else {}
    try:
        result = search(game, depth=args.depth, trace=True, **options)
    except ChanceCycleMet:
        raise UsageError(f"positions of {game.title} repeat through the dice: a search to the end searches them again "
                         "each time round, which may take very long (Pig to 100 ran past 2 GB); give --depth N to "
                         "draw it N moves deep, estimated there by the game's evaluation (a game without one is "
                         "drawn to the end)") from None
    except SearchError as error:
        raise refused(error, f" (gdl tree draws the searches of {', '.join(_SEARCHERS)})") from None
    root, left_out = build_drawing(game, result, args.max_nodes)
    render = {"text": render_text, "dot": render_dot, "svg": render_svg}[chosen]
    text = render(root, left_out)
    if args.output:
        try:
            with open(args.output, "w", encoding="utf-8") as file:
                say(text, to=file, end="")
        except OSError as error:
            raise UsageError(f"cannot write {args.output}: {error.strerror or error}") from None
    else:
        say(text, end="")
        if chosen == "text":
            say(f"value {value_text(result.value)}, best move {move_text(game, result.move) if result.move is not None else 'none'}; "
                f"{len(result.leaves or [])} leaves evaluated, {result.stats.nodes} nodes")
            if not result.exact and result.inexact_reason:
                say(f"not exact: {result.inexact_reason}")
    return 0
