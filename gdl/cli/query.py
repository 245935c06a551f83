"""`gdl query`: a position of a solved game, from its tablebase alone."""

from __future__ import annotations

import argparse
from typing import Any

from gdl import build
from gdl.cli.common import (
    Subcommands, by_move_name, ends_in, fraction_text, json_number, json_text, move_table, move_text, move_value_fractions,
    number_text, parse_params, say, UsageError, within_text,
)
from gdl.resolve import Resolver
from gdl.tablebase import GdlTablebaseError, Tablebase, check_same_game


def register(commands: Subcommands) -> argparse.ArgumentParser:
    """Add `gdl query` and its options."""
    query = commands.add_parser(
        "query", help="look a position up in a tablebase written by solve --strong --out",
        description="Play the moves from the start of the game a tablebase solves, and print the "
        "position's value, remoteness (plies to the end with perfect play) and best move, and the "
        "value and remoteness of every legal move. The tablebase holds the game, so no game file "
        "is needed. Moves are written as the game prints them; where dice are thrown, the outcome "
        "is the move.",
        epilog="examples:\n  gdl solve games/tictactoe.gdl --strong --out ttt.sqlite\n"
        "  gdl query ttt.sqlite\n  gdl query ttt.sqlite '(1, 1)' '(0, 0)' --json -p size=3\n"
        "  gdl query pig.sqlite roll 4 hold       (Pig: roll, the die shows 4, hold)",
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    query.add_argument("file", metavar="DB", help="the tablebase (.sqlite)")
    query.add_argument("moves", nargs="*", default=[], metavar="MOVE", help="moves from the start, as the game prints them")
    query.add_argument(
        "-p", "--param", action="append", default=[], metavar="NAME=VALUE",
        help="a parameter the tablebase must have been solved with (repeatable; the others are not "
        "checked): -p size=3",
    )
    query.add_argument("--json", action="store_true", help="print one JSON object")
    return query


def play_moves(base: Tablebase, moves: list[str]) -> tuple[Any, list[str]]:
    """The state after ``moves`` (names as the game prints them, spaces, brackets and case
    aside) from the start, and the moves as the game prints them."""
    game = base.game
    state = game.initial_state()
    played = []
    for number, text in enumerate(moves, start=1):
        if game.is_terminal(state):
            raise GdlTablebaseError(f"move {number} (`{text}`): the game is already over", file=str(base.path))
        chance = getattr(game, "has_chance", False) and game.is_chance(state)
        try:
            move = game.parse_outcome(state, text) if chance else game.parse_move(state, text)
        except GdlTablebaseError:
            raise
        except Exception as error:
            raise GdlTablebaseError(f"move {number}: {getattr(error, 'message', error)}", file=str(base.path)) from None
        played.append(move_text(game, move))
        state = game.result(state, move)
    return state, played


def answers(base: Tablebase, state: Any) -> dict[str, Any]:
    """The position's answer and every move's, for people and for JSON."""
    game = base.game
    terminal = game.is_terminal(state)
    chance = not terminal and getattr(game, "has_chance", False) and game.is_chance(state)
    outcomes = game.chance_outcomes(state) if chance else []
    if terminal:
        moves: list[Any] = []
    elif chance:
        moves = [outcome for outcome, _ in outcomes]
    else:
        moves = list(game.actions(state))
    children = by_move_name(game, ((m, game.result(state, m)) for m in moves))
    best = base.best_move(state)
    return {
        "to_move": None if terminal or chance else str(game.to_move(state)),
        # At a chance node, each outcome's probability; None elsewhere.
        "move_probabilities": by_move_name(game, outcomes) if chance else None,
        "terminal": terminal,
        "value": base.value(state),
        "remoteness": base.remoteness(state),
        "best_move": None if best is None else move_text(game, best),
        "move_values": {name: base.value(child) for name, child in children.items()},
        "move_remoteness": {name: base.remoteness(child) for name, child in children.items()},
    }


def run(args: argparse.Namespace) -> int:
    """Print the answers for the position after the moves."""
    if not args.file:  # Path("") is the current folder
        raise UsageError("DB needs a file name")
    base = Tablebase(args.file)
    if args.param:  # the ones given are checked; the others are the tablebase's
        given = parse_params(args.param, args.file, game_file=False)
        unknown = [name for name in given if name not in base.game.params]
        if unknown:  # said of the tablebase: its game file may be elsewhere, or nowhere, here
            known = ", ".join(base.game.params) or "none"
            raise GdlTablebaseError(f"the tablebase's game has no parameter `{unknown[0]}`"
                                    f"{Resolver.suggest(unknown[0], base.game.params)} (its parameters: {known})",
                                    file=str(base.path))
        params = {**base.game.params, **given}
        check_same_game(base.meta, build(base.meta["game_text"], base.meta["file"], params), base.path)
    state, played = play_moves(base, args.moves)
    found = answers(base, state)
    if args.json:
        say(json_text({
            "game": base.game.title, "moves": played, "exact": base.exact, "inexact_reason": base.inexact_reason,
            "residual": base.meta.get("residual"),  # every value is within it (null: no bound known, or not kept)
            **found, "value": json_number(found["value"]),
            "value_fraction": fraction_text(found["value"]),
            "move_values": {m: json_number(v) for m, v in found["move_values"].items()},
            "move_value_fractions": move_value_fractions(found["move_values"]),
            "move_probabilities": None if found["move_probabilities"] is None else
            {m: json_number(p) for m, p in found["move_probabilities"].items()},
        }))
        return 0
    game = base.game
    after = "the start" if not played else "after " + ", ".join(played)
    say(f"{game.title}, {after}:")
    say(game.display(state))
    residual = base.meta.get("residual")
    exact = "" if base.exact else " (not exact" + (
        f", {within_text(residual)}: " if isinstance(residual, (int, float)) and residual > 0 else ": ") \
        + f"{base.inexact_reason})"
    # Without dice, no remoteness means no end: the value is the score of a play that never ends.
    endless = found["remoteness"] is None and not found["terminal"] and not base.has_chance
    if found["terminal"]:
        say(f"value {number_text(found['value'])} for {game.players[0]}: the game is over")
        return 0
    say(f"value {number_text(found['value'])} for {game.players[0]}{exact}" + _remoteness_text(found["remoteness"])
        + (", the `repetition` score: the game never ends with perfect play" if endless else ""))
    if found["best_move"] is not None:
        say(f"best move for {found['to_move']}: {found['best_move']}")
    chances = found["move_probabilities"]
    rows = [(name, value, found["move_remoteness"][name], None if chances is None else chances[name])
            for name, value in found["move_values"].items()]
    for line in move_table(game.players[0], rows, dice=chances is not None, remoteness=not base.has_chance):
        say(line)
    return 0


def _remoteness_text(remoteness: int | None) -> str:
    if remoteness is None:
        return ""
    return f", {ends_in(remoteness)}"
