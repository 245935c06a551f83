"""`gdl solve`: search a game with minimax, alpha-beta, expectiminimax, max^n, paranoid search or
Monte Carlo tree search and report the result; or, with `--strong`, solve every reachable position
(optionally into a tablebase)."""

from __future__ import annotations

import argparse
import errno
import gc
import os
import shlex
import sqlite3
import sys
from collections.abc import Callable
from functools import partial
from time import perf_counter
from typing import Any

from gdl import build
from gdl.cli.common import (
    INTERRUPTED, TERMINATED, StrongProgressLine, Subcommands, Terminated, UsageError, add_command,
    add_searcher_options, by_move_name, check_search_limits, check_start_names, choose_searcher, clear_status, counted,
    dice_searched_to_the_end, ends_in, fraction_text, is_two_player_zero_sum, json_number, json_text,
    json_value, load_game, memory_size, move_table, move_text, move_value_fractions, number_text, outcome_texts,
    parse_params, plain_winner, refused, run_searcher, say, show_status, size_text, terminate_as_interrupt,
    value_column, value_text, whatever_the_others_do, win_score, within_text,
)
from gdl.errors import GdlError, GdlRuntimeError
from gdl.tablebase import describe_game
from searchers import ChanceCycleMet, SearchError, SearchResult
from searchers.protocol import game_name, has_chance, position_of
from searchers.strong import (
    DEFAULT_TOLERANCE, WORKERS_A_CORE, IncompleteTablebase, StrongProgress, StrongResult, TablebaseError,
    TablebaseReader, being_written, check_game, check_replaceable, file_identity, has_tiers, outcome_counts,
    settings_refused, solve_strong,
)
from searchers.table import DEFAULT_MEMORY, FEWEST_ENTRIES

# The principal variation printed for people stops after this many moves (JSON has it whole).
PV_SHOWN = 40

# A histogram of values is shown in full up to this many distinct values.
_HISTOGRAM_ROWS = 12


def register(commands: Subcommands) -> argparse.ArgumentParser:
    """Add `gdl solve` and its options."""
    solve = add_command(commands,
                "solve", help="solve a game, or search it to a depth or for a time",
        description="Search a game from its initial state. Without --depth or --time the search "
        "goes to the end of the game and the value is exact; with them it stops early and scores "
        "the states where it stopped with the game's `evaluation` (a game without one is searched "
        "by Monte Carlo tree search under --time). Where positions repeat through the dice, a search can "
        "only score them by the game's repetition rule: in a two-player zero-sum game, every position is then "
        "solved instead, as with --strong (unless --algorithm, --depth, --time or --iterations asks for a "
        "search). With more than two players the value is each player's payoff (max^n), or the payoff one "
        "player is sure of (paranoid). Ctrl-C stops the search: the best result found so far is printed (a "
        "solve of every position has none), and the exit status is 130. With --strong, "
        "Ctrl-C (or SIGTERM, exit status 143) stops the solve and its workers; a game with a `tier` leaves the --out "
        "tablebase marked incomplete, refused until it is solved again; one without writes it at the end only, so that "
        "a stop before leaves the file as it was.",
        epilog="examples:\n  gdl solve games/tictactoe.gdl\n  gdl solve games/subtraction.gdl -p stones=5 --json\n"
        "  gdl solve games/connect.gdl --depth 6 --algorithm alphabeta\n"
        "  gdl solve games/connect.gdl -p rows=4 -p cols=4 --strong --workers 2 --out c44.sqlite\n"
        "  gdl solve games/pig.gdl -p goal=10 --strong\n"
        "  gdl solve games/textbook/three_players.gdl --json      (max^n: each player's payoff)\n"
        "  gdl solve games/ends.gdl --algorithm paranoid          (the player to move against the others)\n"
        "  gdl solve games/hex.gdl --time 5                       (no evaluation: Monte Carlo tree search)\n"
        "  gdl solve games/rolit.gdl -p players=3 --algorithm mcts --iterations 2000 --seed 1",
    )
    add_searcher_options(solve)
    solve.add_argument("--depth", type=int, metavar="N", help="stop N moves ahead and use the evaluation there")
    solve.add_argument("--time", type=float, metavar="SECONDS", help="deepen iteratively until the time is up")
    solve.add_argument("--no-table", action="store_true", help="search without a transposition table")
    solve.add_argument("--memory", type=memory_size, metavar="SIZE",
                       help=f"the most memory the transposition table may use, e.g. 512M or 4G (default {DEFAULT_MEMORY >> 30}G); "
                       "when it is full, the positions cheapest to search again are dropped; where every position is "
                       "solved (--strong, or positions that repeat through the dice), the most a game without a `tier` "
                       "may take, all its positions held at once (default: half the memory of the machine, or of its "
                       "container or service where less)")
    solve.add_argument("--json", action="store_true", help="print one JSON object")
    add_strong_options(solve)
    return solve


def run_search(game: Any, args: argparse.Namespace, stop_at_chance_cycle: bool = False) -> Any:
    """Run the searcher the options ask for (saying why, when it was chosen for the user);
    expectiminimax raises ChanceCycleMet at a cycle through the dice if `stop_at_chance_cycle`."""
    check_search_limits(args)
    algorithm, reason = choose_searcher(game, args, limited=args.time is not None)
    if args.seed is not None and algorithm != "mcts":
        raise UsageError("--seed is for --algorithm mcts, whose playouts are random")
    if reason is not None:
        say(f"gdl solve: {reason}", to=sys.stderr)
    progress = ProgressLine(game) if sys.stderr.isatty() else None
    try:
        return run_searcher(game, algorithm, args, time=args.time, table=not args.no_table, memory=table_memory(args),
                            seed=args.seed, progress=progress, stop_at_chance_cycle=stop_at_chance_cycle)
    finally:
        if progress is not None:
            progress.clear()


class ProgressLine:
    """A live line on the terminal: nodes, nodes per second, depth and best move so far."""

    def __init__(self, game: Any) -> None:
        self.game = game
        self.shown = False

    def __call__(self, progress: Any) -> None:
        rate = progress.nodes / progress.seconds if progress.seconds else 0
        parts = [f"{progress.nodes:,} nodes", f"{rate:,.0f}/s", f"{progress.seconds:.0f} s"]
        if progress.depth is not None:
            parts.append(f"depth {progress.depth}")
        if progress.best_move is not None:
            parts.append(f"best so far {move_text(self.game, progress.best_move)}")
        show_status("  searching: " + ", ".join(parts) + " (Ctrl-C stops) ")
        self.shown = True

    def clear(self) -> None:
        """Remove the line once the search is over."""
        if self.shown:
            clear_status()


def verdict(game: Any, value: Any, exact: bool, chance: bool | None = None) -> str:
    """The value in words: from the first player's view, or every player's payoff; an
    expected value where the game has dice (``chance``; by default, where it declares them)."""
    if isinstance(value, dict):
        return f"{'payoffs' if exact else 'estimated payoffs'} {value_text(value)}"
    first, second = game.players[0], game.players[1] if len(game.players) > 1 else "the opponent"
    if _has_chance(game) if chance is None else chance:
        return f"expected value {number_text(value)} for {first}"
    if not exact:
        leaning = first if value > 0 else second if value < 0 else "neither player"
        return f"estimate {number_text(value)}, favouring {leaning}"
    if value == 0:
        return "draw (value 0)"
    winner = plain_winner(game, value)
    if winner is not None:
        return f"{winner} wins (value {number_text(value)})"
    # Scores (a margin, a payoff) rather than a plain win or loss.
    return f"value {number_text(value)} for {first}, in {first if value > 0 else second}'s favour"


def whose_value(game: Any, result: Any) -> str | None:
    """The player a paranoid search's one number belongs to in a game of more players (or not
    zero-sum), where every other searcher gives each player's payoff; None otherwise."""
    if result.algorithm.startswith("paranoid") and not is_two_player_zero_sum(game):
        return result.to_move or str(game.players[0])
    return None


def result_json(game: Any, result: Any) -> dict[str, Any]:
    """The brief's JSON object for a search result: with more than two players, `value` and each
    of `move_values` are objects from player to payoff."""
    stats = result.stats
    player = whose_value(game, result)

    def shown(value: Any) -> Any:
        return {str(player): json_number(value)} if player is not None else json_value(value)

    move_values = by_move_name(game, result.move_values.items())
    report = {
        "game": getattr(game, "title", None),
        "algorithm": result.algorithm,
        "value": shown(result.value),
        # The exact value when it is a fraction (chance games), which a float only approximates.
        "value_fraction": fraction_text(result.value),
        "exact": result.exact,
        "to_move": result.to_move,
        "best_move": None if result.move is None else move_text(game, result.move),
        "principal_variation": [move_text(game, m) for m in result.pv],
        "move_values": {name: shown(value) for name, value in move_values.items()},
        "move_value_fractions": move_value_fractions(move_values),
        "move_bounds": by_move_name(game, result.move_bounds.items()),
        "inexact_reason": result.inexact_reason,
        "repetition": result.repetition,
        "interrupted": result.interrupted,
        "stats": {
            "nodes": stats.nodes, "leaves": stats.leaves, "cutoffs": stats.cutoffs,
            "table_hits": stats.table_hits, "depth": stats.depth, "repetitions": stats.repetitions,
            "chance_repetitions": stats.chance_repetitions,
            "table_entries": stats.table_entries, "table_capacity": stats.table_capacity,
            "table_evictions": stats.table_evictions, "seconds": round(stats.seconds, 4),
        },
    }
    if result.visits is not None:  # Monte Carlo tree search
        report["visits"] = {move_text(game, m): n for m, n in result.visits.items()}
        report["mean_payoffs"] = {move_text(game, m): shown(v) for m, v in (result.mean_payoffs or {}).items()}
        report["stats"]["iterations"] = stats.iterations
    return report


def result_text(game: Any, result: Any) -> str:
    """A short summary for people."""
    note = "  [interrupted: the best found so far]" if result.interrupted else "" if result.exact else "  [not exact]"
    player = whose_value(game, result)
    if player is not None:
        kind = "is sure of" if result.exact else "is estimated to be sure of"
        lines = [f"{game.title}: {player} {kind} {number_text(result.value)} {whatever_the_others_do(game)} (paranoid){note}"]
    else:
        lines = [f"{game.title}: {verdict(game, result.value, result.exact)}{note}"]
    if not result.exact and not result.interrupted and result.inexact_reason:
        lines.append(f"not exact: {result.inexact_reason}")
        if result.stats.chance_repetitions and is_two_player_zero_sum(game):  # the strong solver's games
            lines.append("  `gdl solve FILE --strong` solves every position and gives the true value")
    if result.move is None and result.to_move is None and result.move_values:
        lines.append("the initial state is a chance node; the value of each outcome:")
        for outcome, value in result.move_values.items():
            lines.append(f"  {move_text(game, outcome)}  {value_text(value)}")
    elif result.move is None:
        lines.append("the initial state is terminal: no move to make")
    else:
        lines.append(f"best move for {result.to_move}: {move_text(game, result.move)}")
        lines.append("principal variation: " + line_text(game, result.pv)
                     + line_end(game, result.pv, "then the search looked no further"))
        whose = (f"for {player}" if player is not None else "each player's payoff" if isinstance(result.value, dict)
                 else f"for {game.players[0]}")
        lines.append(f"value of each move ({whose}):")
        names = {m: move_text(game, m) for m in result.move_values}
        width = max(len(n) for n in names.values())
        values = dict(zip(result.move_values, value_column(list(result.move_values.values()))))
        signs = {move: {"upper": "<= ", "lower": ">= "}.get(result.move_bounds.get(move, "exact"), "") for move in values}
        bounded = any(signs.values())
        for move, text in values.items():
            sign = signs[move] or ("   " if bounded else "")  # the values in one column, bounds or not
            tried = "" if result.visits is None else f"  ({result.visits.get(move, 0):,} playouts)"
            lines.append(f"  {names[move].ljust(width)}  {sign}{text}{tried}")
        if bounded:
            estimated = "estimate" in result.move_bounds.values()  # the values rest on estimates
            lines.append("  (<= and >= are bounds: the search proved only that these moves are no better"
                         + (" than the estimate of the best)" if estimated else ")"))
    stats = result.stats
    playouts = f", {stats.iterations:,} playouts" if result.visits is not None else ""
    lines.append(
        f"{result.algorithm}: {counted(stats.nodes, 'node')}{playouts}, depth {stats.depth}, {stats.seconds:.2f} s"
        + (f", {counted(stats.repetitions, 'repeated position')} scored by the repetition rule"
           if stats.repetitions else "")
    )
    if stats.table_evictions:
        within = ("the fewest a table holds, whatever --memory says" if stats.table_capacity <= FEWEST_ENTRIES
                  else "to stay within --memory")
        lines.append(f"table: full at {stats.table_capacity:,} positions; {stats.table_evictions:,} were dropped, "
                     f"{within} (more memory may search fewer nodes)")
    return "\n".join(lines)


def line_text(game: Any, moves: list[Any]) -> str:
    """A line of play for people: its first PV_SHOWN moves, and how long it is when longer."""
    shown = ", ".join(move_text(game, m) for m in moves[:PV_SHOWN])
    if len(moves) > PV_SHOWN:
        shown += f", ... ({len(moves):,} moves in all; --json lists them)"
    return shown


def run(args: argparse.Namespace) -> int:
    """Search the game and print the result; an interrupted search prints the best result so
    far and exits with the status of an interrupted command."""
    check_strong_options(args)
    if args.strong:
        return run_strong(args)
    game = load_game(args)
    if args.json:
        check_start_names(game)
    try:
        result = search_until_chance_cycle(game, args) if dice_searched_to_the_end(game, args) else run_search(game, args)
        if isinstance(result, float):  # the seconds searched before a cycle through the dice
            return solve_strongly_instead(game, args, result)
    except SearchError as error:
        raise refused(error) from None
    except KeyboardInterrupt:
        say("gdl solve: interrupted (a search stopped before finishing its first move has nothing to show; "
            "--time SECONDS always has an answer)", to=sys.stderr)
        return INTERRUPTED
    say(json_text(result_json(game, result)) if args.json else result_text(game, result))
    return INTERRUPTED if result.interrupted else 0


# ---- --strong: every position ------------------------------------------------------------------


def add_strong_options(parser: argparse.ArgumentParser) -> None:
    """The options of a strong solve, on `gdl solve`'s parser."""
    group = parser.add_argument_group(
        "strong solving (every position)", "--out, --workers, --ray and --tolerance ask for --strong by themselves")
    group.add_argument("--strong", action="store_true",
                       help="solve every position reachable from the start: value, remoteness and best move")
    group.add_argument("--out", metavar="DB", help="write every position to this SQLite tablebase (for gdl query and gdl play --tablebase)")
    group.add_argument("--workers", type=int, metavar="N",
                       help=f"expand positions in N processes (for a game that declares a `tier`; at most {WORKERS_A_CORE} "
                       "a core; default 1, this process alone)")
    group.add_argument("--ray", metavar="ADDRESS", help="expand positions as Ray tasks on the cluster at ADDRESS, "
                       "or `auto` for a local Ray runtime (pip install 'gdl[ray]'; for a game that declares a `tier`)")
    group.add_argument("--tolerance", type=float, metavar="X",
                       help=f"where dice repeat positions, iterate values until each cycle's are known within X (default {DEFAULT_TOLERANCE:g})")


def check_strong_options(args: argparse.Namespace) -> None:
    """Turn --strong on where an option of a strong solve alone (--out, --workers, --ray,
    --tolerance) asks for one, given at all, and refuse options that make no sense with it;
    --workers and --tolerance not given take their defaults here."""
    if args.out is not None and not args.out.strip():
        raise UsageError("--out needs a file name")
    # Given at all, even as its default (`--workers 1`), an option of a strong solve asks for one.
    strong_only = [option for option, value in (
        ("--out", args.out), ("--workers", args.workers), ("--ray", args.ray), ("--tolerance", args.tolerance))
        if value is not None]
    args.workers = 1 if args.workers is None else args.workers
    args.tolerance = DEFAULT_TOLERANCE if args.tolerance is None else args.tolerance
    if args.strong:
        asked = "--strong solves every position to the end"
    elif not strong_only:
        return
    else:
        args.strong = True
        asked = f"{strong_only[0]} is for a solve of every position to the end (as --strong)"
    for option, given in (("--depth", args.depth is not None), ("--time", args.time is not None),
                          ("--algorithm", args.algorithm is not None), ("--iterations", args.iterations is not None),
                          ("--seed", args.seed is not None), ("--no-table", args.no_table)):
        if given:
            raise UsageError(f"{asked}; it takes no {option}")
    refused = settings_refused(args.tolerance, args.workers, "--")
    if refused is not None:
        raise UsageError(refused)


def say_unused_options(args: argparse.Namespace, game: Any) -> None:
    """Say on stderr which options the game leaves without use (the solve goes on): workers
    beyond the cores, workers or Ray without tiers, a tolerance without dice."""
    cores = os.cpu_count() or 1
    tiers = has_tiers(game)
    if args.workers > cores and args.ray is None and tiers:
        say(f"gdl solve: --workers {args.workers} on a machine with {cores} core{'s' if cores != 1 else ''}: "
            f"the workers take turns on them, no quicker than {cores}", to=sys.stderr)
    if args.ray is not None and args.workers != 1 and tiers:
        say("gdl solve: --workers ignored: with --ray the chunks are Ray tasks, as many at once as the cluster has "
            "CPUs", to=sys.stderr)
    ignored = [option for option, given in (("--workers", args.workers != 1), ("--ray", args.ray is not None)) if given]
    if ignored and not tiers:
        say(f"gdl solve: {' and '.join(ignored)} ignored: {game_name(game)} declares no `tier` to split its "
            "positions by, so it is solved in one process, in memory", to=sys.stderr)
    if args.memory is not None and tiers:
        say(f"gdl solve: --memory ignored: {game_name(game)} declares a `tier`, and is solved a tier at a time",
            to=sys.stderr)
    if args.tolerance != DEFAULT_TOLERANCE and not has_chance(game):
        say(f"gdl solve: --tolerance ignored: {game_name(game)} has no dice, so its values are found exactly, "
            "not by value iteration", to=sys.stderr)


# ---- a cycle through the dice: every position solved instead ------------------------------------

# Bytes of memory a position of a strong solve in memory takes, about (Pig without its tiers:
# 570 to 700); with --memory, the most positions a plain solve holds to solve a game without
# tiers whose positions repeat through the dice (a million by default): beyond, it searches.
_BYTES_A_POSITION = 1_000


class _TooMany(Exception):
    """A strong solve held in memory (asked for with --strong, or made in place of a search)
    has found more positions than --memory allows it."""


def table_memory(args: argparse.Namespace) -> int:
    """The memory --memory gives a search's transposition table (by default DEFAULT_MEMORY)."""
    return DEFAULT_MEMORY if args.memory is None else int(args.memory)


def _held_to(memory: int | None, line: StrongProgressLine) -> Callable[[StrongProgress], None]:
    """A strong solve's progress callback: the live ``line``, and _TooMany past the positions
    ``memory`` holds (None: no bound)."""
    most = None if memory is None else memory // _BYTES_A_POSITION

    def progress(step: StrongProgress) -> None:
        line(step)
        if most is not None and step.positions > most:
            raise _TooMany

    return progress


# Where Linux says which control groups this process is in, and where it mounts them.
CGROUP_FILE = "/proc/self/cgroup"
CGROUP_ROOT = "/sys/fs/cgroup"


def available_memory() -> int | None:
    """The memory this process may have in bytes: the machine's (POSIX), or less where its
    control group or one above it is limited to less (a container's or a service's limit
    kills the process long before the machine's memory is taken); None where the system
    does not say."""
    try:
        found = [int(os.sysconf("SC_PAGE_SIZE")) * int(os.sysconf("SC_PHYS_PAGES"))]
    except (AttributeError, ValueError, OSError):
        found = []
    for path in _cgroup_limit_files():
        try:
            with open(path, encoding="ascii") as file:
                text = file.read().strip()
        except (OSError, ValueError):
            continue
        if text.isdigit():  # version 2 says "max" for no limit, version 1 a huge number
            found.append(int(text))
    return min(found, default=None)


def _cgroup_limit_files() -> list[str]:
    """The files of the memory limits of this process's control groups (version 2's
    ``memory.max``, version 1's ``memory.limit_in_bytes``) and of the groups above them, up
    to the root of the mount (a container's own group, where it mounts only its own)."""
    try:
        with open(CGROUP_FILE, encoding="utf-8") as file:
            lines = file.read().splitlines()
    except (OSError, ValueError):
        return []
    files = []
    for line in lines:
        fields = line.split(":", 2)  # hierarchy, controllers, path
        if len(fields) != 3:
            continue
        controllers, path = fields[1], fields[2]
        if controllers == "":
            mount, name = CGROUP_ROOT, "memory.max"
        elif "memory" in controllers.split(","):
            mount, name = os.path.join(CGROUP_ROOT, "memory"), "memory.limit_in_bytes"
        else:
            continue
        parts = [part for part in path.split("/") if part]
        files += [os.path.join(mount, *parts[:depth], name) for depth in range(len(parts), -1, -1)]
    return files


def _too_many(memory: int | None, out: str | None = None) -> str:
    """Why a solve of every position of a game without tiers stopped at ``memory`` bytes (into
    the tablebase ``out``, if one was asked for)."""
    most = (memory or 0) // _BYTES_A_POSITION
    held = f"more than {most:,} position{'s' if most != 1 else ''}, as many as" if most else "more positions than"
    written = "" if out is None else f"; nothing was written to {out}"
    return (f"{held} {size_text(memory or 0)} holds (--memory; about {_BYTES_A_POSITION:,} bytes each) for a game "
            f"without a `tier`, which is solved in memory{written}. Declare a `tier` to solve it tier by tier, or "
            "allow more with --memory; "
            "if the positions never stop growing, the game may never end (`gdl check --deep` looks for such a line "
            "of play)")


def strong_memory(args: argparse.Namespace) -> int | None:
    """The most memory a strong solve of a game without tiers may take, all its positions at
    once: --memory, or half the memory this process may have (a game whose positions never
    stop growing would otherwise take it all, and the system would kill the process, or
    another one)."""
    if args.memory is not None:
        return int(args.memory)
    found = available_memory()
    return None if found is None else found // 2


def search_until_chance_cycle(game: Any, args: argparse.Namespace) -> SearchResult | float:
    """The search's result, or, if it met a position repeating through the dice, the seconds
    it took to: its table is then freed before anything else runs (its closures make cycles
    that only the collector frees, and a strong solve turns the collector off)."""
    started = perf_counter()
    try:
        result: SearchResult = run_search(game, args, stop_at_chance_cycle=True)
        return result
    except ChanceCycleMet:
        pass
    gc.collect()
    return perf_counter() - started


def solve_strongly_instead(game: Any, args: argparse.Namespace, searched: float) -> int:
    """Solve every position of a game whose positions repeat through the dice (a search can
    only score such a repetition by the game's rule, where the game goes on), after
    ``searched`` seconds of a search that met one, and print the result as `gdl solve
    --strong` does, with the search's JSON keys too; the exit status.  A game without tiers
    with more positions than --memory holds is refused, in words: the search it would fall
    back to meets the cycles again and again, and may never end (Pig to 10 without its tiers,
    1,476 positions, did not end in 24 minutes)."""
    say(f"gdl solve: positions of {game.title} repeat through the dice, where a search from the start could only "
        "score them by the game's repetition rule; every position is solved instead, as --strong does "
        "(`--algorithm expectiminimax` searches all the same)", to=sys.stderr)
    memory = None if has_tiers(game) else strong_memory(args)
    line = StrongProgressLine(draw=sys.stderr.isatty())
    try:
        result = solve_reporting_stops(
            game, line, progress=_held_to(memory, line),
            after_stop="; a solve of every position has no value to show before its end (`--algorithm "
            "expectiminimax` searches, and has its best so far when stopped)")
    except _TooMany:
        raise UsageError(_too_many(memory) + "; `--algorithm expectiminimax` searches instead, though a search goes "
                         "round the cycles through the dice again and again, may take very long, and scores them by "
                         "the repetition rule (not exact)") from None
    if isinstance(result, int):
        return result
    say(json_text(strong_search_json(game, result, searched)) if args.json else strong_text(game, result, None))
    return 0


def strong_search_json(game: Any, result: StrongResult, searched: float) -> dict[str, Any]:
    """A strong solve made for `gdl solve` without --strong, after ``searched`` seconds of the
    search that met a cycle through the dice: the strong solve's JSON object, as a search's
    (`stats.seconds` counts the search too, `stats.search_seconds` it alone)."""
    report = strong_json(game, result, None)
    report["interrupted"] = False
    report["stats"].update(seconds=round(result.stats.seconds + searched, 4), search_seconds=round(searched, 4))
    return report


# ---- --strong: every position ------------------------------------------------------------------


def solve_reporting_stops(game: Any, line: StrongProgressLine, after_stop: str = "", **options: Any) -> StrongResult | int:
    """``solve_strong(game, **options)`` (the progress callback ``line`` unless given), its
    failures as usage errors, and a stop (Ctrl-C or SIGTERM) said in words, ``after_stop``
    last: the result, or the exit status of the stop."""
    out = options.get("out")
    before = None if out is None else file_identity(out)
    options.setdefault("progress", line)
    try:
        with terminate_as_interrupt():
            return solve_strong(game, **options)
    except SearchError as error:  # a worker process gone, say: what became of the tablebase, if anything did
        left = _left_behind(out, before) if out is not None and file_identity(out) != before else ""
        raise refused(error, left) from None
    except TablebaseError as error:
        raise UsageError(str(error)) from None
    except (sqlite3.Error, OSError) as error:
        left = "" if out is None else _left_behind(out, before)
        if left.endswith("is as it was before") and _disk_full(error):  # a complete one: replaced from beside it
            left += (f" (the new tablebase is written beside it, as {out}.new, until it is complete: where there is "
                     "no room for both, remove the old one first)")
        raise UsageError(f"cannot write the tablebase: {error}{left}") from None
    except KeyboardInterrupt as stop:  # Ctrl-C, or SIGTERM
        line.clear()
        left = "" if out is None else _left_behind(out, before)
        terminated = isinstance(stop, Terminated)
        say(f"gdl solve: {'terminated' if terminated else 'interrupted'}{left}{line.stop_words()}{after_stop}",
            to=sys.stderr)
        return TERMINATED if terminated else INTERRUPTED
    finally:
        line.clear()


def run_strong(args: argparse.Namespace) -> int:
    """Solve every position and print the figures (and write the tablebase, with --out)."""
    game = load_game(args)
    try:
        check_game(game, args.tolerance)  # a game refused is refused before any word on the options
    except SearchError as error:
        raise refused(error) from None
    if args.json or args.out is not None:
        try:
            check_start_names(game)
        except GdlRuntimeError:  # a rule of the start that fails: the game's error, as the solve would raise it
            raise
        except GdlError as error:  # names that clash: JSON cannot list the moves; a tablebase still serves Python
            if args.json:
                raise
            say(f"gdl solve: note: {error.message}; `gdl query` will refuse such a position (`gdl play` asks "
                "for the move's number there)", to=sys.stderr)
    say_unused_options(args, game)
    if args.out is not None:
        _say_if_unfinished(args.out)
    memory = None if has_tiers(game) else strong_memory(args)  # tiers hold one tier at a time
    line = StrongProgressLine(draw=sys.stderr.isatty())
    try:
        result = solve_reporting_stops(game, line, progress=_held_to(memory, line), tolerance=args.tolerance,
                                       out=args.out, meta=describe_game(game), workers=args.workers, ray=args.ray,
                                       factory=partial(build, game.source.text, game.source.name,
                                                       parse_params(args.param, args.file)))
    except _TooMany:
        raise UsageError(_too_many(memory, args.out)) from None
    if isinstance(result, int):
        return result
    say(json_text(strong_json(game, result, args.out)) if args.json else strong_text(game, result, args.out))
    return 0


def _say_if_unfinished(out: str) -> None:
    """Say, before a solve into ``out``, that the tablebase there is one whose build did not
    finish (stopped, killed, or short of disk), which the solve does not resume but begins again."""
    if not os.path.isfile(out) or being_written(out):  # another solve's: refused by the solve, in its words
        return
    try:
        TablebaseReader(out).close()
    except IncompleteTablebase:
        say(f"gdl solve: note: {out} is a tablebase whose build did not finish; a solve does not resume it, but "
            "begins again", to=sys.stderr)
    except TablebaseError:  # nothing of a tablebase, or a complete one: the solve says what it does with it
        pass


def _left_behind(out: str, before: tuple[int, int, int] | None) -> str:
    """What a stopped solve left at ``out``, for its last words, given the file there before
    it (``file_identity``): a solve in memory writes the tablebase only at its end, so before
    that nothing is there, or the tablebase of an earlier solve, whole; a stop that comes as a
    solve ends may leave its tablebase whole."""
    try:
        TablebaseReader(out).close()
    except IncompleteTablebase:
        return f"; {out} is left incomplete and will be refused until solved again"
    except TablebaseError as error:  # no file at all (or one that never became a tablebase)
        if os.path.lexists(out) and file_identity(out) != before:
            try:  # solving again writes over what a solve began, where it can tell
                check_replaceable(out)
            except TablebaseError:
                return f"; {out} is left unreadable ({error}): remove it before solving again"
            return f"; {out} is left unreadable ({error}); solving again writes over it"
        if not os.path.lexists(out) and before is not None:  # a failed solve deletes its tablebase
            return f"; {out} is deleted: a solve that fails leaves no tablebase"
        return f"; nothing was written to {out}"
    if file_identity(out) != before:
        return f"; {out} is complete all the same: the solve had written it when it was stopped"
    return f"; {out} is as it was before"


def _disk_full(error: Exception) -> bool:
    """Whether ``error`` says the disk is full (the system's or SQLite's words)."""
    return getattr(error, "errno", None) == errno.ENOSPC or getattr(error, "sqlite_errorcode", None) == sqlite3.SQLITE_FULL


def strong_json(game: Any, result: StrongResult, out: str | None) -> dict[str, Any]:
    """The brief's JSON object for a strong solve, with the keys of a search's that it can give
    (`stats.nodes` counts the positions)."""
    value = result.value
    stats = result.stats
    move_values = by_move_name(game, result.move_values.items())
    return {
        "game": game.title,
        "algorithm": "strong",
        "value": json_number(value),
        "value_fraction": fraction_text(value),
        "exact": result.exact,
        "method": result.method,
        "inexact_reason": result.inexact_reason,
        "tolerance": result.tolerance if has_chance(game) else None,  # no dice: no value iteration to stop
        "residual": result.residual,
        "positions": result.positions,
        "terminal": result.terminal,
        "outcomes": outcome_counts(result),
        "to_move": result.to_move,
        "best_move": None if result.best_move is None else move_text(game, result.best_move),
        "principal_variation": [move_text(game, move) for move in result.principal_variation],
        # Lines stop at the strong solver's length limit, where a game goes on for longer.
        "principal_variation_cut": line_stop(game, result.principal_variation) == "cut",
        "remoteness": result.remoteness,
        "max_remoteness": result.max_remoteness,
        "move_values": {name: json_number(value) for name, value in move_values.items()},
        "move_value_fractions": move_value_fractions(move_values),
        "move_remoteness": by_move_name(game, result.move_remoteness.items()),
        "tablebase": out,
        "stats": {
            "nodes": result.positions,
            "seconds": round(stats.seconds, 4),
            "positions_per_second": round(stats.positions_per_second, 1),
            "discover_seconds": round(stats.discover_seconds, 4),
            "solve_seconds": round(stats.solve_seconds, 4),
            "write_seconds": None if stats.write_seconds is None else round(stats.write_seconds, 4),
            "workers": stats.workers,
            "tiers": stats.tiers,
            "start_seconds": round(stats.start_seconds, 4),
        },
    }


_START_SHOWN = 0.5  # seconds to start the workers or Ray past which the solve's line says so


def strong_text(game: Any, result: StrongResult, out: str | None) -> str:
    """The figures of a strong solve for people."""
    note = "" if result.exact else "  [not exact]" if not result.residual else (
        f"  [not exact: {within_text(result.residual)}]")
    if result.remoteness is None and result.best_move is not None and not result.has_chance:
        # No end to reach: the value is the score the game gives a play that never ends.
        headline = (f"never ends with perfect play: the `repetition` score, {number_text(result.value)} "
                    f"for {game.players[0]}")
    else:  # a value of dice is an expected value, exact or not
        headline = verdict(game, result.value, result.exact or result.has_chance, result.has_chance)
    lines = [f"{game.title}: {headline}{note}"]
    if not result.exact:
        lines.append(f"not exact: {result.inexact_reason}")
    if result.best_move is not None:
        lines.append(f"best move for {result.to_move}: {move_text(game, result.best_move)}" + _plies(result.remoteness))
        line = line_text(game, list(result.principal_variation))
        end = line_end(game, result.principal_variation,
                       f"the line is cut there, after {len(result.principal_variation):,} moves; the game goes on")
        lines.append(f"principal variation: {line}{end}")
    elif result.to_move is None and result.move_values:
        lines.append("the initial state is a chance node")
    else:
        lines.append("the initial state is terminal: no move to make")
    lines.extend(_start_moves(game, result))
    lines.append(f"positions: {result.positions:,} reachable from the start, {result.terminal:,} of them terminal")
    lines.extend(_outcome_lines(game, result))
    if result.endless:
        lines.append(f"never ending with perfect play: {counted(result.endless, 'position')}, worth the `repetition` "
                     "score and counted by it above")
    if result.max_remoteness is not None:
        lines.append(f"longest perfect-play end: {counted(result.max_remoteness, 'ply', 'plies')} (the largest remoteness)")
    stats = result.stats
    where = (f"in {counted(stats.tiers, 'tier')}, " + ("in one process" if stats.workers == 1 else f"by {stats.where}")
             if stats.tiers else "in one process, in memory (the game declares no `tier` to split it by)")
    if stats.where != "one process" and stats.start_seconds >= _START_SHOWN:  # Ray's start takes seconds at times
        where += f" ({stats.start_seconds:.1f} s of it to start them)"
    lines.append(f"{result.method}: {stats.seconds:.2f} s, {stats.positions_per_second:,.0f} positions/s, {where}")
    if out is not None:
        size = os.path.getsize(out)
        # A small game's file is mostly SQLite's own pages: a size a position would mislead.
        each = f", {size / result.positions:.0f} bytes a position" if result.positions >= _SIZED_POSITIONS else ""
        lines.append(f"tablebase: {out} ({size / 1e6:.1f} MB{each}); `gdl query {shlex.quote(out)}` reads it")
    return "\n".join(lines)


_SIZED_POSITIONS = 1_000  # the fewest positions whose tablebase's size is given a position


def _has_chance(game: Any) -> bool:
    return bool(getattr(game, "has_chance", False))


def _start_moves(game: Any, result: StrongResult) -> list[str]:
    """The value of each of the start's moves (or of its dice's outcomes, with their
    probabilities), as `gdl query` lists them."""
    if not result.move_values:
        return []
    dice = result.to_move is None
    chances = dict(game.chance_outcomes(game.initial_state())) if dice else {}
    rows = [(move_text(game, move), value, result.move_remoteness[move], chances.get(move))
            for move, value in result.move_values.items()]
    lines = move_table(game.players[0], rows[:_MOVES_SHOWN], dice=dice, remoteness=not result.has_chance)
    if len(rows) > _MOVES_SHOWN:
        lines.append(f"  ... ({len(rows):,} in all; --json lists them)")
    return lines


_MOVES_SHOWN = 30  # the most of the start's moves listed in the text


def line_end(game: Any, line: list[Any] | tuple[Any, ...], cut: str) -> str:
    """Where a principal variation stops, if not at the end of the game: where the dice move,
    where a position comes back, else (``cut``) where the search looked no further."""
    stop = line_stop(game, line)
    return {"end": "", "dice": " (then the dice)", "repetition": " (then a position comes back)"}.get(stop, f" ({cut})")


def line_stop(game: Any, line: list[Any] | tuple[Any, ...]) -> str:
    """Why a line of play from the start stops: "end" (the game is over), "dice" (they move
    next), "repetition" (a position met before comes back), or "cut" (the game goes on)."""
    position = position_of(game) or (lambda state: state)
    state = game.initial_state()
    met = {position(state)}
    for move in line:
        state = game.result(state, move)
        met.add(position(state))
    if game.is_terminal(state):
        return "end"
    if _has_chance(game) and game.is_chance(state):
        return "dice"
    if len(met) <= len(line):  # the last position is one met before
        return "repetition"
    return "cut"


def _plies(remoteness: int | None) -> str:
    if remoteness is None:
        return ""
    return f" ({ends_in(remoteness)})"


def _outcome_lines(game: Any, result: StrongResult) -> list[str]:
    """Positions counted by value: wins, draws and losses, or a histogram of the values."""
    counts = outcome_counts(result)
    first, second = game.players[0], game.players[1]
    win = win_score(game)
    if win is not None and set(result.outcomes) <= {win, 0, -win}:
        names = {win: f"{first} wins", 0: "draws", -win: f"{second} wins"}
        return ["by value: " + ", ".join(f"{names[v]} {n:,}" for v, n in sorted(
            result.outcomes.items(), key=lambda item: -item[0]))]
    ahead = sum(n for v, n in result.outcomes.items() if v > 0)
    level = sum(n for v, n in result.outcomes.items() if v == 0)
    behind = sum(n for v, n in result.outcomes.items() if v < 0)
    lines = [f"by value: {first} ahead {ahead:,}, level {level:,}, {second} ahead {behind:,}"]
    if len(counts) <= _HISTOGRAM_ROWS:
        shown = outcome_texts(counts)
        width = max(map(len, shown))
        lines.extend(f"  {v.rjust(width)}  {n:,}" for v, n in zip(shown, counts.values()))
    else:
        lines.append(f"  ({len(counts):,} distinct values; --json lists them)")
    return lines

