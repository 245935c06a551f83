"""What every `gdl` command shares: its file and `-p` options, loading the game, writing
numbers and moves for people, and the one way text reaches the terminal."""

from __future__ import annotations

import argparse
import json
import math
import os
import re
import signal
import sys
import threading
import unicodedata
from collections.abc import Iterable, Iterator
from contextlib import contextmanager
from decimal import Decimal
from fractions import Fraction
from typing import TYPE_CHECKING, Any, Protocol, Sequence, TextIO, TypeVar

import searchers
from gdl import load, locate_param
from gdl.errors import GdlCheckError, GdlError, GdlParamError
from gdl.parser import parse_value
from searchers import GameError, SearchError
from searchers.mcts import DEFAULT_ITERATIONS
from searchers.protocol import utility_bounds

if TYPE_CHECKING:
    from searchers.strong import StrongProgress


class Command(Protocol):
    """A command module: `register` adds its subcommand to the parser, `run` carries it out."""

    def register(self, commands: Subcommands) -> argparse.ArgumentParser:
        """Add the subcommand and its options; return its parser."""

    def run(self, args: argparse.Namespace) -> int:
        """Carry out the command; return the exit status."""


def refused(error: SearchError, more: str = "") -> Exception:
    """A searcher's error as the command raises it: what the search found wrong with the game
    itself (GameError) as it is, an error of the game file (exit status 1); any other as a
    misuse of the command (exit status 2), with ``more`` words after it."""
    return error if isinstance(error, GameError) else UsageError(f"{error}{more}")


class UsageError(Exception):
    """A command-line mistake (not a mistake in a game file)."""


# The exit status of a command stopped by Ctrl-C, as shells report it (128 + SIGINT), also
# when it still prints what it found before the interruption.
INTERRUPTED = 130

# The exit status of a command stopped by SIGTERM (`kill`, `timeout`) that cleaned up first.
TERMINATED = 143


class Terminated(KeyboardInterrupt):
    """SIGTERM, raised where Ctrl-C would be (``terminate_as_interrupt``), so that whatever
    cleans up after Ctrl-C (worker processes, scratch files) cleans up after it too."""


@contextmanager
def terminate_as_interrupt() -> Iterator[None]:
    """Within it, SIGTERM raises Terminated in the main thread (elsewhere a signal handler
    cannot be set, and SIGTERM ends the process at once, as it does by default)."""
    if threading.current_thread() is not threading.main_thread():
        yield
        return

    def stop(signum: int, frame: Any) -> None:
        raise Terminated

    previous = signal.signal(signal.SIGTERM, stop)
    try:
        yield
    finally:  # None: a handler set outside Python, which cannot be set back from here
        signal.signal(signal.SIGTERM, signal.SIG_DFL if previous is None else previous)


# ---- the terminal ----------------------------------------------------------------------------

# C0 controls but tab and newline, DEL, C1 controls, and lone surrogates (which no terminal
# encoding can write): anything a game file's text could use to move the cursor, recolour or
# clear the screen, or break the output.
_UNSAFE = re.compile(r"[\x00-\x08\x0b-\x1f\x7f-\x9f\ud800-\udfff]")
_CLEAR_TO_END_OF_LINE = "\x1b[K"


def _visible_escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code <= 0xFF else f"\\u{code:04x}"


def terminal_safe(text: str) -> str:
    """`text` with every control character but newline and tab (and every lone surrogate)
    written as a visible escape such as `\\x1b`, so that it shows as text on a terminal."""
    return _UNSAFE.sub(_visible_escape, text)


def say(text: str = "", *, to: TextIO | None = None, end: str = "\n") -> None:
    """Write text for people (to standard output unless `to` names another stream), safe for a
    terminal; every line the command line prints goes through here."""
    stream = sys.stdout if to is None else to
    stream.write(terminal_safe(text) + end)
    stream.flush()


def show_status(text: str) -> None:
    """Draw `text` as the live status line on standard error, over the previous one, cut to
    the terminal's width: a line that wrapped would leave its first rows on the screen, since
    only the last row is drawn over."""
    line = terminal_safe(text).replace("\n", "\\n").replace("\t", " ")  # one line, whatever a move's name holds
    try:
        columns = os.get_terminal_size(sys.stderr.fileno()).columns
    except (OSError, ValueError, AttributeError):  # not a terminal after all, or no file at all
        columns = 0
    if columns > 1:  # 0: the width is unknown
        line = _within_columns(line, columns - 1)
    sys.stderr.write("\r" + line + _CLEAR_TO_END_OF_LINE)
    sys.stderr.flush()


def _within_columns(text: str, columns: int) -> str:
    """The start of `text` that a terminal shows in `columns` columns (a wide character, as in
    Chinese or Japanese, takes two)."""
    used = 0
    for place, character in enumerate(text):
        used += 2 if unicodedata.east_asian_width(character) in "WF" else 1
        if used > columns:
            return text[:place]
    return text


def clear_status() -> None:
    """Remove the live status line."""
    sys.stderr.write("\r" + _CLEAR_TO_END_OF_LINE)
    sys.stderr.flush()


def error_text(error: GdlError) -> str:
    """The error as `FILE:LINE:COL: error: MESSAGE` with its source line and caret, safe for a
    terminal, the caret still under the character it marks when the line needed escapes."""
    return terminal_safe(_with_escaped_quote(error).format())


def _with_escaped_quote(error: GdlError) -> GdlError:
    """A copy of `error` that quotes its source line escaped, with its column counted in the
    escaped line (escapes are wider than the characters they show) so that the caret lands
    right. The copy carries its location as text, `FILE:LINE:COL` in its file and no line of its
    own, so that the message still names the column in the file."""
    copy = type(error).__new__(type(error))  # not __init__: each error class takes other arguments
    copy.__dict__.update(error.__dict__)
    copy.args = error.args
    if isinstance(copy, GdlCheckError):
        copy.errors = [_with_escaped_quote(each) for each in copy.errors]
    if error.source_line is not None and error.column is not None:
        copy.file, copy.line = error.location(), None
        copy.column = len(terminal_safe(error.source_line[: error.column - 1])) + 1
        copy.source_line = terminal_safe(error.source_line)
    return copy


class ArgumentParser(argparse.ArgumentParser):
    """argparse's parser, whose messages (which quote what was typed) are safe for a terminal."""

    def _print_message(self, message: str, file: Any = None) -> None:
        super()._print_message(terminal_safe(message), file)


if TYPE_CHECKING:
    Subcommands = argparse._SubParsersAction[ArgumentParser]
else:  # not subscriptable at run time
    Subcommands = argparse._SubParsersAction


# ---- options and the game ----------------------------------------------------------------------


def add_command(commands: Subcommands, name: str, *, help: str, description: str, epilog: str) -> argparse.ArgumentParser:
    """A `gdl NAME` subcommand taking the game file and `-p NAME=VALUE` options, as all of them do."""
    parser = commands.add_parser(
        name, help=help, description=description, epilog=epilog,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    parser.add_argument("file", help="the game file (.gdl)")
    parser.add_argument(
        "-p", "--param", action="append", default=[], metavar="NAME=VALUE",
        help="set a parameter, VALUE written as in the language (repeatable): -p rows=5 -p 'piles=(3,4,5)'",
    )
    return parser


def parse_params(assignments: Sequence[str], file: str | None = None, game_file: bool = True) -> dict[str, Any]:
    """`-p NAME=VALUE` options as parameter overrides; VALUE is written as in the language.  A
    mistake is said of ``file``, at the parameter's line where it is the ``game_file``."""
    params: dict[str, Any] = {}
    for assignment in assignments:
        name, sep, text = assignment.partition("=")
        name = name.strip()
        if not sep or not name.isidentifier():
            raise UsageError(f"-p expects NAME=VALUE (e.g. -p rows=5), got `{assignment}`")
        if name in params:  # which one was meant?
            earlier = next(a for a in assignments if a.partition("=")[0].strip() == name)
            raise UsageError(f"-p {name} is given twice (`{earlier}`, then `{assignment}`): give each parameter once")
        try:
            params[name] = parse_value(text, f"-p {name}")
        except GdlError as error:
            mistake = GdlParamError(f"-p {name}: {error.message}", file=file)
            raise mistake if file is None or not game_file else locate_param(mistake, file, name) from None
    return params


def load_game(args: argparse.Namespace) -> Any:
    """The game named on the command line, with its `-p` overrides."""
    return load(args.file, **parse_params(args.param, args.file))


# ---- numbers and moves -----------------------------------------------------------------------


# Characters of a fraction written out at most in text for people (JSON gives every digit).
_FRACTION_SHOWN = 24


def number_text(value: Any) -> str:
    """A value for people: integers as they are, fractions also as decimals (a fraction too
    long to read, Hog's of 84 digits, as a decimal alone, said to be exact)."""
    if isinstance(value, int) and not isinstance(value, bool) and len(str(value)) > _FRACTION_SHOWN:
        return f"~{_decimal(Fraction(value))} (exactly an integer of {counted(len(str(abs(value))), 'digit')})"
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return number_text(value.numerator)
        if len(str(value)) > _FRACTION_SHOWN:
            digits = (counted(len(str(abs(part))), "digit") for part in (value.numerator, value.denominator))
            return f"~{_decimal(value)} (exactly a fraction: {' over '.join(digits)})"
        return f"{value} (~{_decimal(value)})"
    if isinstance(value, float):
        if math.isfinite(value) and abs(value) >= 2**53:  # its digits past the floats' integers: by its size
            return f"~{_decimal(Fraction(value))}"
        text = f"{value:.4f}".rstrip("0").rstrip(".")
        return "0" if text == "-0" else text  # a float a hair below 0 (or -0.0) is no loss
    return str(value)


def _written_out(value: Any) -> str:
    """A value with every digit: a number as Python writes it, each player's payoff likewise."""
    if isinstance(value, dict):
        return "(" + ", ".join(f"{player} {payoff}" for player, payoff in value.items()) + ")"
    return str(value)


def outcome_texts(texts: Iterable[str]) -> list[str]:
    """Values as a strong solve's `outcomes` write them (exactly: `"4591/10961"`), for people:
    a number too long to read as ``number_text`` shows it, unless two would then read the same
    (then every one as written)."""
    texts = list(texts)
    shown = [number_text(Fraction(text)) if len(text) > _FRACTION_SHOWN and _NUMBER.fullmatch(text) else text
             for text in texts]
    return shown if len(set(shown)) == len(set(texts)) else texts


_NUMBER = re.compile(r"-?\d+(/\d+)?")  # an integer or a fraction, as `outcomes` writes them


_SMALLEST_PLACES = Fraction(1, 1000)  # the least value shown with four places (exactly: 0.001 is no float)


def _decimal(value: Fraction) -> str:
    """A fraction as a decimal of four places, or of four digits after the first where it is
    that large or that small (a hundred digits over one: 1.2346e+99, not a hundred digits)."""
    if value and not _SMALLEST_PLACES <= abs(value) < 10**6:
        sign, value = ("-" if value < 0 else ""), abs(value)
        power = len(str(value.numerator)) - len(str(value.denominator))  # within one of the exponent
        power -= value < Fraction(10) ** power
        digits = str(round(value / Fraction(10) ** power * 10_000))  # five digits, or six where it rounds up to 10
        power += len(digits) - 5
        return f"{sign}{digits[0]}.{digits[1:5]}e{power:+03d}"
    return f"{float(value):.4f}"


def within_text(residual: float) -> str:
    """What the bound ``residual`` of an inexact solve says of its values, in words."""
    if math.isinf(residual):
        return "no bound known: it grew past the floats' range"
    return f"every value within {residual:.2g}"


def json_text(report: dict[str, Any]) -> str:
    """A command's JSON object as one line of text.  A float past the floats' range (a bound
    that grew past it: `residual`) is null, no bound known: JSON has no infinity, and
    Python's ``Infinity`` would stop every other reader of the line."""
    return json.dumps(_finite(report))


def _finite(value: Any) -> Any:
    if isinstance(value, float):
        return value if math.isfinite(value) else None
    if isinstance(value, dict):
        return {key: _finite(item) for key, item in value.items()}
    if isinstance(value, (list, tuple)):
        return [_finite(item) for item in value]
    return value


def json_number(value: Any) -> int | float:
    """A value for JSON: ints stay ints, fractions become floats (past the floats' range, the
    nearest integer: JSON has no infinity, and an integer of any size is a JSON number)."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return value.numerator
        try:
            return float(value)
        except OverflowError:
            return round(value)
    if isinstance(value, bool):
        return int(value)
    number: int | float = value
    return number


def counted(number: int, thing: str, things: str | None = None) -> str:
    """``number`` things, the noun in the singular for one: "1 ply", "3 plies", "2 tiers"."""
    return f"{number:,} {thing if number == 1 else things or thing + 's'}"


def ends_in(remoteness: int) -> str:
    """A remoteness in words: "the game ends in 3 plies with perfect play"."""
    return f"the game ends in {counted(remoteness, 'ply', 'plies')} with perfect play"


def fraction_text(value: Any) -> str | dict[str, str | None] | None:
    """A value that is a fraction a float only approximates, as text (`"65/93"`, for JSON's
    `value_fraction`); for each player's payoffs, an object of those texts where any payoff is
    such a fraction; None for any other value."""
    if isinstance(value, dict):
        texts = {str(player): _one_fraction_text(payoff) for player, payoff in value.items()}
        return texts if any(texts.values()) else None
    return _one_fraction_text(value)


def move_value_fractions(values: dict[str, Any]) -> dict[str, Any] | None:
    """JSON's `move_value_fractions`: each move's value (``values``, by the move's name) as
    `value_fraction` gives a value, where some move's value is a fraction a float only
    approximates; else None."""
    texts = {name: fraction_text(value) for name, value in values.items()}
    return texts if any(texts.values()) else None


def _one_fraction_text(value: Any) -> str | None:
    return str(value) if isinstance(value, Fraction) and value.denominator != 1 else None


def whatever_the_others_do(game: Any) -> str:
    """What a paranoid value holds against, in words: the other player, or the others."""
    return "whatever the other does" if len(game.players) == 2 else "whatever the others do"


def move_text(game: Any, move: Any) -> str:
    """The move as the game prints it."""
    formatter = getattr(game, "format_move", None)
    return formatter(move) if formatter is not None else str(move)


Item = TypeVar("Item")


def by_move_name(game: Any, pairs: Iterable[tuple[Any, Item]]) -> dict[str, Item]:
    """Each move's item, under the move's name as the game prints it (for JSON's `move_values`,
    a list of moves); an error if the game prints two moves the same, which would keep one."""
    named: dict[str, Item] = {}
    moves: dict[str, Any] = {}
    for move, item in pairs:
        name = move_text(game, move)
        if name in named:
            if moves[name] == move:  # no name can tell a move from itself
                raise rule_error(game, "moves", f"a position lists the move `{name}` twice: `moves` must list each "
                                 "move once (`gdl check --deep` finds such positions)")
            raise rule_error(game, "move_name", f"two moves of one position print as `{name}`: the game's "
                             "`move_name` must tell them apart (`gdl check --deep` finds such positions)")
        named[name], moves[name] = item, move
    return named


def rule_error(game: Any, rule: str, message: str) -> GdlError:
    """An error about one rule of a game loaded from a file (`moves`, `move_name`), at that
    rule's line (`FILE:LINE:COL`, the line and a caret); after the file's name alone where the
    game has no such rule, or is not a game file's."""
    source = getattr(game, "source", None)
    checked = getattr(game, "checked", None)
    definitions = {**getattr(checked, "functions", {}), **getattr(checked, "definitions", {})}
    definition = definitions.get(rule)
    if source is None or definition is None:
        return GdlError(message, file=getattr(source, "name", None))
    node = definition.node
    return GdlError(message, file=source.name, line=node.line, column=node.column, source_line=source.line(node.line))


def move_table(first: str, rows: Sequence[tuple[str, Any, int | None, Any]], dice: bool, remoteness: bool) -> list[str]:
    """The lines that list every move of a position solved (``rows``: each move's name, value
    for the ``first`` player, remoteness and, where the ``dice`` move, probability), as `gdl
    query` and `gdl solve --strong` print them; a column of remoteness where the game has one
    (``remoteness``: none with dice, where only a finished game has one), in which a move after
    which perfect play never ends says so."""
    if dice:
        lines = [f"every outcome of the dice (its probability, the value for {first}):"]
    else:
        lines = [f"every move (value for {first}{', remoteness' if remoteness else ''}):"]
    width = max(len(name) for name, *_ in rows)
    values = value_column([value for _, value, _, _ in rows])
    chances = [number_text(probability) if dice else "" for *_, probability in rows]
    chance_width = max(map(len, chances))
    for (name, _, steps, _), value, chance in zip(rows, values, chances):
        chance = f"{chance.ljust(chance_width)}  " if dice else ""
        ends = "" if not remoteness else "  never ends" if steps is None else f"  in {steps}"
        lines.append(f"  {name.ljust(width)}  {chance}{value}{ends}")
    return lines


def value_column(values: Sequence[Any]) -> list[str]:
    """Values as text for a column of a table, one under the other: as ``value_text`` gives
    them (a number too long to read, by its size), but in full where two values would then read
    the same; numbers right-aligned, so that their last digits stand in a column (-1 over  1,
    10 over  0); where one is told in words (its size) or a value is no number (each player's
    payoff), only a place for the minus sign is kept (~-1.0000e+40 over  ~1.0000e+40)."""
    texts = [value_text(value) for value in values]
    first: dict[str, Any] = {}
    if any(first.setdefault(text, value) != value for text, value in zip(texts, values)):
        texts = [_written_out(value) if "~" in text else text for text, value in zip(texts, values)]
    if all(isinstance(value, (int, float, Fraction)) and " " not in text for value, text in zip(values, texts)):
        width = max(map(len, texts), default=0)
        return [text.rjust(width) for text in texts]
    negative = [text.lstrip("~").startswith("-") for text in texts]
    if not any(negative):
        return texts
    return [text if below else f" {text}" for text, below in zip(texts, negative)]


def check_start_names(game: Any) -> None:
    """``by_move_name``'s error for the start's moves (or its dice's outcomes), raised before a
    search whose JSON lists them by name rather than after it: a strong solve would have
    written its tablebase first."""
    start = game.initial_state()
    if game.is_terminal(start):
        return
    if getattr(game, "has_chance", False) and game.is_chance(start):
        moves = [outcome for outcome, _ in game.chance_outcomes(start)]
    else:
        moves = game.actions(start)
    by_move_name(game, ((move, None) for move in moves))


_SIZE_UNITS = {"": 1, "K": 1 << 10, "M": 1 << 20, "G": 1 << 30, "T": 1 << 40}


def memory_size(text: str) -> int:
    """A size in bytes from `--memory`: a number of bytes, or with K, M, G or T (`512M`, `2G`)."""
    match = re.fullmatch(r"\s*(\d+(?:\.\d+)?)\s*([KMGT]?)(?:i?B)?\s*", text, re.IGNORECASE)
    if match is None:
        raise argparse.ArgumentTypeError(f"`{text}` is not a size: write e.g. 512M or 2G")
    # Decimal, not float: a number of hundreds of digits is a size too large, not an overflow.
    size = int(Decimal(match.group(1)) * _SIZE_UNITS[match.group(2).upper()])
    if size < 1:
        raise argparse.ArgumentTypeError(f"`{text}` is less than a byte: write e.g. 512M or 2G")
    return size


def size_text(size: int) -> str:
    """A size in bytes as `--memory` takes one: `300K`, `1.5G`."""
    unit = max((u for u in _SIZE_UNITS if _SIZE_UNITS[u] <= size), key=_SIZE_UNITS.__getitem__, default="")
    return f"{round(size / _SIZE_UNITS[unit], 2):g}{unit}"


def value_text(value: Any) -> str:
    """A searcher's value for people: one number, or each player's payoff `(A 1, B 2, C 6)`."""
    if isinstance(value, dict):  # a fraction as it is, without number_text's decimals: one line stays short
        return "(" + ", ".join(f"{player} {payoff if isinstance(payoff, Fraction) else number_text(payoff)}"
                               for player, payoff in value.items()) + ")"
    return number_text(value)


def json_value(value: Any) -> Any:
    """A searcher's value for JSON: a number, or an object from each player to its payoff."""
    if isinstance(value, dict):
        return {str(player): json_number(payoff) for player, payoff in value.items()}
    return json_number(value)


# ---- choosing the searcher ---------------------------------------------------------------------

SEARCHERS = ("minimax", "alphabeta", "expectiminimax", "maxn", "paranoid", "mcts")
"""The searchers `--algorithm` names."""


def add_searcher_options(parser: argparse.ArgumentParser, *, seed: bool = True,
                         playouts: str = f"{DEFAULT_ITERATIONS}, or as many as --time allows") -> None:
    """`--algorithm`, `--iterations` (and `--seed`, unless the command has its own);
    ``playouts``: how many mcts makes without --iterations."""
    parser.add_argument(
        "--algorithm", choices=SEARCHERS,
        help="the searcher (default: alphabeta for two players, expectiminimax with chance, maxn for more "
        "players; mcts for a game with no evaluation under a time limit)")
    parser.add_argument("--iterations", type=int, metavar="N",
                        help=f"mcts: the playouts to make (default {playouts})")
    if seed:
        parser.add_argument("--seed", type=int, metavar="N", help="mcts: seed its random playouts, to repeat a run exactly")


# How long `gdl play` tries to solve a position exactly before a game with no evaluation falls
# back on Monte Carlo tree search: small games (Nim) are then still played perfectly.
EXACT_FIRST_SECONDS = 2.0


def win_score(game: Any) -> Any:
    """The score of a win for the first player (its negation, for the second): the highest
    score of a game whose scores are known to run from minus that to it (a win, a draw, a
    loss, as 1, 0 and -1); None where the game does not say (a tree's leaves are only numbers:
    1 where they reach 5 is no win)."""
    bounds = utility_bounds(game)
    if bounds is None or not 0 < bounds[1] == -bounds[0]:
        return None
    return bounds[1]


def plain_winner(game: Any, value: Any) -> Any:
    """The player who wins outright where ``value`` (the first player's) is the game's win
    score or its negation ("the opponent" of a game of one player); None for a draw, a margin
    or a payoff (a number the game does not call a win)."""
    win = win_score(game)
    if win is None or value not in (win, -win):
        return None
    players = tuple(game.players)
    return players[0] if value > 0 else players[1] if len(players) > 1 else "the opponent"


def is_two_player_zero_sum(game: Any) -> bool:
    """Whether the game is the textbook's two-player zero-sum game (one number for the first player)."""
    players = len(tuple(game.players))
    return players == 2 and bool(getattr(game, "zero_sum", True))


def check_search_limits(args: argparse.Namespace) -> None:
    """Refuse a --depth or --time no search can use: a search 0 moves deep has no move to
    choose, and a time must be a number of seconds."""
    depth, time = getattr(args, "depth", None), getattr(args, "time", None)
    if depth is not None and depth < 1:
        raise UsageError(f"--depth must be 1 or more (the moves to look ahead), not {depth}")
    if time is not None and not (math.isfinite(time) and time > 0):
        raise UsageError(f"--time must be a positive number of seconds, not {time:g}")


def choose_searcher(game: Any, args: argparse.Namespace, *, limited: bool, playing: bool = False
                    ) -> tuple[str, str | None]:
    """The searcher the options ask for, and, when it was chosen for the user, why in words.

    `limited` says the search must stop before the end (a time limit, or a game played
    move by move): a game without an evaluation is then searched by Monte Carlo tree search,
    which needs none.  `playing`: for `gdl play`, which plays the game rather than estimating
    its value."""
    named = args.algorithm
    if args.iterations is not None and named not in (None, "mcts"):
        raise UsageError("--iterations is for --algorithm mcts")
    if named is not None:
        return named, None
    if limited and args.depth is None and not getattr(game, "has_evaluation", False):
        return "mcts", (f"{game.title} has no evaluation to score a position before the end, so Monte Carlo "
                        f"tree search {'plays' if playing else 'estimates its value'}: random games to the end from "
                        "each move, the best-scoring tried most"
                        + ("" if args.time is not None or args.iterations is not None else
                           f"; a position solved exactly within {EXACT_FIRST_SECONDS:g} s is played exactly"))
    if args.iterations is not None:
        return "mcts", None
    return exact_searcher(game), None


def exact_searcher(game: Any) -> str:
    """The searcher that solves `game` to the end by default: max^n for more than two players
    (or payoffs that do not sum to zero), expectiminimax with dice, else alpha-beta."""
    if not is_two_player_zero_sum(game):
        return "maxn"
    return "expectiminimax" if getattr(game, "has_chance", False) else "alphabeta"


def dice_searched_to_the_end(game: Any, args: argparse.Namespace) -> bool:
    """Whether the options leave a two-player zero-sum game of dice to its default searcher
    (expectiminimax) with no limit: then a plain solve stops its search at the first cycle
    through the dice to solve every position instead, and `gdl play` solves every position
    before the first move if that is quick; a searcher named with --algorithm, or limited by
    --depth, --time or --iterations, searches as asked."""
    return (args.algorithm is None and args.depth is None and args.time is None and args.iterations is None
            and exact_searcher(game) == "expectiminimax")


# Seconds of a strong solve before its live line is drawn (a phase may begin sooner).
_QUIET_SECONDS = 1.0


class StrongProgressLine:
    """The live line while a strong solve runs (on a terminal): phase, positions, rate and
    time; elsewhere only the phase and positions, kept for a word on where a stop came."""

    def __init__(self, draw: bool = True) -> None:
        self.draw = draw
        self.shown = False
        self.phase = ""
        self.phase_began = 0.0  # when the phase at work began, in the solve's seconds
        self.last = 0.0  # when the line was last drawn
        self.positions = 0  # found so far

    def __call__(self, progress: StrongProgress) -> None:
        if progress.phase != self.phase:  # it began after the last line of the phase before
            self.phase, self.phase_began = progress.phase, self.last
        self.last = progress.seconds
        self.positions = progress.positions
        if not self.draw or progress.seconds < _QUIET_SECONDS:  # a quick solve draws no line
            return
        spent = progress.seconds - self.phase_began
        rate = progress.done / spent if spent > 0 else 0  # ``done`` counts this phase's work alone
        tier = "" if progress.tier is None else f" tier {progress.tier},"
        if progress.phase == "discovering":
            detail = f"{progress.positions:,} positions found, {progress.done:,} expanded"
        else:
            detail = f"{progress.done:,} of {progress.positions:,} positions"
        show_status(f"  {progress.phase}:{tier} {detail}, {rate:,.0f}/s, {progress.seconds:.0f} s (Ctrl-C stops) ")
        self.shown = True

    def clear(self) -> None:
        """Remove the line once the solve is over."""
        if self.shown:
            clear_status()
            self.shown = False

    def stop_words(self) -> str:
        """What to say of a solve stopped while it still found positions: how many, and, in
        case the count never stopped growing, that a game whose positions have no bound is
        never done finding them (most stops are of games merely large)."""
        if self.phase != "discovering":
            return ""
        found = f"; it was still finding positions ({self.positions:,} so far)"
        if self.last - self.phase_began < _ENDLESS_HINT_SECONDS:  # stopped early: a game merely large, most likely
            return found
        return (f"{found}. If their count grows for ever (a count or a total with no bound), the game cannot be "
                "solved strongly; `gdl check --deep` looks for a line of play that never ends")


_ENDLESS_HINT_SECONDS = 10.0  # the least time spent finding positions before a stop says what a game without end is


def run_searcher(game: Any, algorithm: str, args: argparse.Namespace, *, state: Any = None, time: float | None = None,
                 table: bool = True, memory: int | None = None, seed: int | None = None, progress: Any = None,
                 stop_at_chance_cycle: bool = False) -> Any:
    """Search `state` (default: the start) with the named searcher, `args.depth` and `time`
    (expectiminimax raising ChanceCycleMet at a cycle through the dice, if `stop_at_chance_cycle`)."""
    depth = args.depth
    if algorithm == "mcts":
        if depth is not None:
            raise UsageError("--depth is not for mcts, whose playouts go to the end: give --time or --iterations")
        return searchers.mcts(game, state, iterations=args.iterations, time=time, seed=seed, progress=progress)
    if algorithm == "maxn":
        return searchers.maxn(game, state, depth=depth, time=time, progress=progress)
    if algorithm == "minimax":
        return searchers.minimax(game, state, depth=depth, time=time, progress=progress)
    options: dict[str, Any] = {"depth": depth, "time": time, "table": table, "progress": progress}
    if memory is not None:
        options["memory"] = memory
    if algorithm == "expectiminimax":
        return searchers.expectiminimax(game, state, stop_at_chance_cycle=stop_at_chance_cycle, **options)
    if not getattr(game, "has_chance", False):  # expectiminimax, under paranoid too, takes none of these
        # Chosen by measuring the bundled games (docs/performance.md, "Move ordering"): the
        # table's move first, the others ranked by evaluation at every ply, the symmetries
        # folded; killers and the history heuristic cost more nodes than they save there.
        options.update(ordering=True, symmetry=table and bool(getattr(game, "has_symmetries", False)))
    if algorithm == "alphabeta":
        return searchers.alphabeta(game, state, **options)
    if is_two_player_zero_sum(game):  # the first player's view, as every value of two players is given
        options["player"] = game.players[0]
    return searchers.paranoid(game, state, **options)
