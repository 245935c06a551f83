"""`gdl play`: play a game in the terminal against the searchers, or watch them play."""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from typing import Any, Callable, TextIO

from gdl.cli.common import (
    EXACT_FIRST_SECONDS, StrongProgressLine, Subcommands, UsageError, add_command, add_searcher_options,
    check_search_limits, choose_searcher, dice_searched_to_the_end, exact_searcher, is_two_player_zero_sum, load_game,
    move_text, number_text, plain_winner, refused, run_searcher, say, value_text, whatever_the_others_do, within_text,
)
from gdl.tablebase import Tablebase
from searchers import Progress, SearchError, require_searchable
from searchers.protocol import limits_need_evaluation, position_of
from searchers.strong import SolvedTable, StrongProgress, solve_strong

HELP = """\
Type a move's name, or its number in the list of legal moves (when the moves are named by
numbers, a number is always a name); or one of:
  hint   what the searcher would play here, and its value
  undo   take back your last move (and the replies to it)
  quit   stop the game
  help   this text"""


def register(commands: Subcommands) -> argparse.ArgumentParser:
    """Add `gdl play` and its options."""
    play = add_command(commands,
                "play", help="play a game in the terminal against the searchers",
        description="Play a game against the searchers, or watch them play each other (--as none). "
        "Type a move's number or its name; `hint`, `undo`, `quit` and `help` also work. "
        f"A game of two players with dice, given no searcher or limit, is solved whole first where that takes "
        f"at most {SOLVE_FIRST_SECONDS:g} s, and played perfectly.",
        epilog="examples:\n  gdl play games/tictactoe.gdl\n  gdl play games/connect.gdl --as O --depth 6\n"
        "  gdl play games/nim.gdl --as none\n  gdl play games/tictactoe.gdl --tablebase ttt.sqlite\n"
        "  gdl play games/hex.gdl --time 3            (no evaluation: Monte Carlo tree search plays)\n"
        "  gdl play games/rolit.gdl -p players=3 -p size=6 --as Green\n"
        "  gdl play games/ends.gdl --as none --algorithm paranoid",
    )
    play.add_argument("--as", dest="human", metavar="PLAYER", help="the player you play (default: the first); `none` to watch")
    limits = play.add_mutually_exclusive_group()
    limits.add_argument("--depth", type=int, metavar="N", help="the searcher looks N moves ahead")
    limits.add_argument("--time", type=float, metavar="SECONDS", help="the searcher thinks this long a move")
    add_searcher_options(play, seed=False, playouts="as many as --time allows, or 2 s, a move")
    play.add_argument("--seed", type=int, help="seed for the dice of chance games, and for mcts's random playouts")
    play.add_argument("--tablebase", metavar="DB", help="play perfectly at once from a tablebase of this game "
                      "(written by gdl solve FILE --strong --out DB)")
    return play


class _OutOfTime(Exception):
    """An exact search, or a solve of every position, that did not finish in the time it was
    given."""


# Seconds `gdl play` spends before the first move solving every position of a game of two
# players with dice, when no searcher or limit is named: searched move by move instead, such a
# game is played from estimates where its positions repeat through the dice (Pig), and a game
# that is a little too big to search to the end at each move is still small enough to solve
# once (Hog: 3,870 positions in 0.3 s).
SOLVE_FIRST_SECONDS = 5.0

# Positions of a solve in memory, at most, before play turns to searching (about a kilobyte
# each, as `gdl solve` counts them): the time alone bounds them on any machine but a slow one.
_SOLVE_FIRST_POSITIONS = 2_000_000


class SolvedInMemory:
    """Every position of the game, solved before the first move: read as a tablebase is."""

    def __init__(self, game: Any, table: SolvedTable, has_chance: bool, residual: float) -> None:
        """The answers of ``table``, a strong solve of ``game`` held in memory, each value
        within ``residual`` of the game's."""
        self.game, self.table, self.has_chance, self.residual = game, table, has_chance, residual

    def value(self, state: Any) -> Any:
        """The value of ``state`` for the first player."""
        return self.table.value(state)

    def remoteness(self, state: Any) -> int | None:
        """Plies to the end under perfect play (None: no end, or dice decide)."""
        return self.table.remoteness(state)

    def best_move(self, state: Any) -> Any:
        """The best move at ``state`` (None at an end or where the dice move)."""
        return self.table.best_move(self.game, state, self.residual)


def solve_first(game: Any, seconds: float = SOLVE_FIRST_SECONDS) -> tuple[SolvedInMemory | None, str]:
    """Every position of ``game`` solved in memory if that takes at most ``seconds``, and what
    to tell the player in either case (a live line on a terminal meanwhile)."""
    line = StrongProgressLine(draw=sys.stderr.isatty())

    def within_budget(step: StrongProgress) -> None:
        line(step)
        if step.seconds > seconds or step.positions > _SOLVE_FIRST_POSITIONS:
            raise _OutOfTime

    try:
        result = solve_strong(game, progress=within_budget, tiers=False)
    except _OutOfTime:
        return None, (f"solving every position of {game.title} takes more than {seconds:g} s or "
                      f"{_SOLVE_FIRST_POSITIONS:,} positions, so the searcher plays move by move; a tablebase "
                      "plays perfectly: `gdl solve FILE --strong --out DB` (with the same parameters), then "
                      "`gdl play FILE --tablebase DB`")
    finally:
        line.clear()
    assert result.table is not None  # solved in memory
    how = "" if result.exact or not result.residual else f" ({within_text(result.residual)})"
    return (SolvedInMemory(game, result.table, result.has_chance, result.residual),
            f"every position of {game.title} solved first, {result.positions:,} in {result.stats.seconds:.1f} s: "
            f"the computer plays perfectly{how}")


# Times one position may come back through the dice before play stops: a game can go round for
# ever that way (rolling again while every face comes back), and the dice bring a position back
# that often by luck with a vanishing chance.
_RETURNS_KEPT = 100


def _named_by_a_number(game: Any, move: Any, name: str, count: int) -> bool:
    """Whether a number from 1 to ``count`` names ``move`` (printed ``name``) when typed."""
    digits = "".join(ch for ch in name if ch.isdigit())
    return bool(digits) and 1 <= int(digits) <= count and game.moves_named(digits, [move]) == [move]


def _not_interrupted(result: Any) -> Any:
    """A search's result, unless Ctrl-C stopped the search: the searchers then return the best
    found so far, but a player who presses Ctrl-C during the computer's turn wants to quit,
    as while the game waits for a move."""
    if result.interrupted:
        raise KeyboardInterrupt
    return result


class Match:
    """One game in progress: the states so far and who is human."""

    def __init__(self, game: Any, human: str | None, args: argparse.Namespace, output: TextIO) -> None:
        self.game = game
        self.human = human
        self.args = args
        self.out = output
        self.history = [game.initial_state()]
        self.dice = random.Random(args.seed)
        self.echo = False  # whether to repeat typed lines (input from a file or pipe)
        self.numbered = True  # whether the legal moves are listed with numbers to type
        # Perfect play from a solved game: a tablebase given, or every position solved first.
        self.tablebase: Tablebase | SolvedInMemory | None = None
        self.met: Counter[Any] = Counter()  # how often each position came on this line of play
        self.algorithm, self.reason = choose_searcher(game, args, limited=True, playing=True)
        self.solving_first = False  # whether to solve every position before the first move

    @property
    def state(self) -> Any:
        """The current state."""
        return self.history[-1]

    def say(self, text: str = "", end: str = "\n") -> None:
        """Print a line for the player."""
        say(text, to=self.out, end=end)

    def search(self) -> Any:
        """The searcher's result for the current state."""
        game, args = self.game, self.args
        time = args.time
        if self.reason is not None and time is None and args.iterations is None:
            exact = self.solve_within(EXACT_FIRST_SECONDS)
            if exact is not None:
                return exact
        if time is None and args.depth is None and args.iterations is None and (
                getattr(game, "has_evaluation", False) or self.algorithm == "mcts"):
            time = 2.0  # without a limit, a big game would never answer
        return _not_interrupted(run_searcher(game, self.algorithm, args, state=self.state, time=time, seed=args.seed))

    def solve_within(self, seconds: float) -> Any:
        """The exact result for the current state if a search to the end finds it within
        `seconds`, else None."""
        def give_up(progress: Progress) -> None:
            if progress.seconds >= seconds:
                raise _OutOfTime

        try:
            result = _not_interrupted(run_searcher(self.game, exact_searcher(self.game), self.args, state=self.state,
                                                   progress=give_up))
        except _OutOfTime:
            return None
        return result if result.exact else None

    def value_words(self, result: Any) -> str:
        """A result's value for people, and whose it is."""
        if isinstance(result.value, dict):
            return f"payoffs {value_text(result.value)}"
        if not is_two_player_zero_sum(self.game):  # paranoid: the mover's own payoff
            return f"{number_text(result.value)} for {result.to_move}, {whatever_the_others_do(self.game)}"
        expected = "expected " if getattr(self.game, "has_chance", False) else ""  # as the tablebase says it
        return f"{expected}value {number_text(result.value)} for {self.game.players[0]}"

    def show_state(self) -> None:
        """Draw the board and say whose turn it is."""
        self.say()
        self.say(self.game.display(self.state))

    def position(self, state: Any) -> Any:
        """The position of ``state`` (the game's `position`, else the state itself)."""
        position = position_of(self.game)
        return state if position is None else position(state)

    def repeated(self) -> bool:
        """Whether the position came before on this line of play with no dice rolled since:
        the game ends there, scored by its `repetition` rule, as the searchers score it (a
        position met again through the dice is luck, not a cycle of the players' choosing)."""
        game = self.game
        here = self.position(self.state)
        for earlier in reversed(self.history[:-1]):
            if getattr(game, "has_chance", False) and game.is_chance(earlier):
                return False
            if self.position(earlier) == here:
                return True
        return False

    def endless(self) -> bool:
        """Whether the position has come back ``_RETURNS_KEPT`` times, each through the dice:
        play stops and says so (perfect play may be to roll for ever, as the strong solver
        scores it, by the `repetition` rule)."""
        here = self.position(self.state)
        self.met[here] += 1
        if self.met[here] <= _RETURNS_KEPT:
            return False
        self.say(f"The position has come back {_RETURNS_KEPT} times through the dice: with these moves the game "
                 "may never end, so play stops here, scored by its `repetition` rule.")
        return True

    def finish(self, repeated: bool = False, said: bool = False) -> None:
        """Announce the result of a terminal state, or of a position ``repeated`` (the reason
        ``said`` already, or to say)."""
        players = self.game.players
        score = self.game.repetition_utility if repeated else self.game.utility
        if repeated and not said:
            self.say("The position repeats: the game ends by its `repetition` rule.")
        if not is_two_player_zero_sum(self.game):
            payoffs = {p: score(self.state, p) for p in players}
            best = max(payoffs.values())
            ahead = [str(p) for p in players if payoffs[p] == best]
            words = f"{ahead[0]} wins" if len(ahead) == 1 else f"{' and '.join(ahead)} share the lead"
            self.say(f"Game over: {words} (payoffs {value_text(payoffs)}).")
            return
        value = score(self.state, players[0])
        if value > 0:
            words = f"{players[0]} wins"
        elif value < 0:
            words = f"{players[1]} wins"
        else:
            words = "a draw"
        self.say(f"Game over: {words} ({players[0]} scores {number_text(value)}).")

    def roll(self) -> None:
        """Let the dice decide at a chance node."""
        outcomes = self.game.chance_outcomes(self.state)
        pick = self.dice.random()
        for outcome, probability in outcomes:
            pick -= float(probability)
            if pick < 0:
                break
        self.say(f"chance: {move_text(self.game, outcome)}")
        self.history.append(self.game.result(self.state, outcome))

    def perfect_play(self) -> tuple[Any, str]:
        """The tablebase's best move here, and what it promises, in words."""
        base, game = self.tablebase, self.game
        assert base is not None
        value, remoteness = base.value(self.state), base.remoteness(self.state)
        first, second = game.players[0], game.players[1]
        winner = plain_winner(game, value)
        if base.has_chance:
            words = f"expected value {number_text(value)} for {first}"
        elif remoteness is None:
            words = f"no end with perfect play: the `repetition` score, {number_text(value)} for {first}"
        elif value == 0:
            words = f"a draw, over in {remoteness}"
        elif winner is not None:
            words = f"{winner} wins in {remoteness} (value {number_text(value)} for {first})"
        else:  # scores (a margin, a tree's leaves) rather than a plain win or loss, as gdl solve says them
            favoured = first if value > 0 else second
            words = f"value {number_text(value)} for {first}, in {favoured}'s favour, over in {remoteness}"
        source = "from the tablebase" if isinstance(base, Tablebase) else "every position solved"
        return base.best_move(self.state), f"{words}, {source}"

    def computer_moves(self) -> None:
        """The searcher (or the tablebase) picks and plays a move."""
        if self.tablebase is not None:
            move, words = self.perfect_play()
            self.say(f"{self.game.to_move(self.state)} plays {move_text(self.game, move)}  ({words})")
            self.history.append(self.game.result(self.state, move))
            return
        result = self.search()
        mover = self.game.to_move(self.state)
        depth = result.stats.depth
        if result.exact:
            how = ", exact"
        elif result.visits is not None:
            how = f", an estimate from {result.stats.iterations:,} random playouts"
        else:
            how = f", an estimate {depth} move{'s' if depth != 1 else ''} ahead"
        detail = self.value_words(result) + how
        self.say(f"{mover} plays {move_text(self.game, result.move)}  ({detail})")
        self.history.append(self.game.result(self.state, result.move))

    def ask_human(self, read: Callable[[], str]) -> bool:
        """Ask for a move until a legal one (or a command) is given; False to stop."""
        moves = list(self.game.actions(self.state))
        mover = self.game.to_move(self.state)
        names = [move_text(self.game, m) for m in moves]
        # When a number names a move (`2` names the move printed `[2]` too), a number is a name,
        # never a place in the list.
        self.numbered = not any(_named_by_a_number(self.game, move, name, len(moves)) for move, name in zip(moves, names))
        if self.numbered:
            listing = "  ".join(f"{i}) {name}" for i, name in enumerate(names, start=1))
        else:
            listing = "  ".join(names)
        self.say(f"legal moves: {listing}")
        while True:
            self.say(f"{mover} to move> ", end="")
            line = read()
            if self.echo and line:
                self.say(line.rstrip("\r\n"))
            if not line:
                self.say()
                self.say("no more input: stopping.")
                return False
            text = line.strip()
            if not text:
                continue
            command = text.lower()
            if command in ("quit", "exit", "q"):
                self.say("bye.")
                return False
            if command in ("help", "?"):
                self.say(HELP)
                continue
            if command == "hint" and self.tablebase is not None:
                move, words = self.perfect_play()
                self.say(f"hint: {move_text(self.game, move)} ({words})")
                continue
            if command == "hint":
                result = self.search()
                kind = "exact" if result.exact else "an estimate"
                self.say(f"hint: {move_text(self.game, result.move)} ({self.value_words(result)}, {kind})")
                continue
            if command == "undo":
                if self.undo():
                    return True
                self.say("nothing to undo yet.")
                continue
            named = self.pick(moves, text)
            if len(named) == 1:
                self.history.append(self.game.result(self.state, named[0]))
                return True
            numbers = f" (or its number, 1 to {len(moves)})" if self.numbered and len(moves) > 1 else ""
            if named:
                places = ", ".join(str(moves.index(move) + 1) for move in named)
                self.say(f"`{text}` could be any of {len(named)} moves here, whose names read the same: type its "
                         f"number ({places})" if self.numbered else
                         f"`{text}` could be any of {len(named)} moves here, whose names read the same, and the "
                         "game's `move_name` cannot tell them apart")
                continue
            self.say(f"`{text}` is not a legal move here. Legal moves: {', '.join(names)}{numbers}.")

    def pick(self, moves: list[Any], text: str) -> list[Any]:
        """The moves the text names: by their printed name first (one, or several whose names
        read the same), else the move of that number in the list."""
        named: list[Any] = self.game.moves_named(text, moves)
        if not named and self.numbered and text.isdigit() and 1 <= int(text) <= len(moves):
            return [moves[int(text) - 1]]
        return named

    def undo(self) -> bool:
        """Go back to the human's previous turn; False when there is none."""
        for back in range(len(self.history) - 2, -1, -1):
            earlier = self.history[back]
            if not self.game.is_terminal(earlier) and self.is_human_turn(earlier):
                del self.history[back:]
                self.met = Counter(map(self.position, self.history))  # the loop counts ``earlier`` again
                self.history.append(earlier)
                self.say("undone.")
                return True
        return False

    def is_human_turn(self, state: Any) -> bool:
        """Whether the human moves in this state."""
        if getattr(self.game, "has_chance", False) and self.game.is_chance(state):
            return False
        return self.human is not None and self.game.to_move(state) == self.human

    def run(self, read: Callable[[], str]) -> int:
        """Play to the end (or until the human quits)."""
        game = self.game
        if self.human:
            self.say(f"{game.title}: you play {self.human}. Type `help` for the commands.")
        else:
            self.say(f"{game.title}: the searchers play each other.")
        if self.tablebase is None and self.solving_first:
            self.tablebase, words = solve_first(game)
            self.say(f"({words}.)")
        if self.reason is not None and self.tablebase is None:
            self.say(f"({self.reason}.)")
        while True:
            self.show_state()
            if game.is_terminal(self.state):
                self.finish()
                return 0
            if self.repeated():
                self.finish(repeated=True)
                return 0
            if self.endless():
                self.finish(repeated=True, said=True)
                return 0
            if getattr(game, "has_chance", False) and game.is_chance(self.state):
                self.roll()
            elif self.is_human_turn(self.state):
                if not self.ask_human(read):
                    return 0
            else:
                self.computer_moves()


def run(args: argparse.Namespace) -> int:
    """Play the game named on the command line."""
    if args.tablebase is None:  # with one, any --depth or --time is refused below
        check_search_limits(args)
    game = load_game(args)
    human: str | None = game.players[0]
    if args.human is not None:
        if args.human.lower() == "none":
            human = None
        else:
            matches = [p for p in game.players if p.lower() == args.human.lower()]
            if not matches:
                raise UsageError(f"--as takes a player ({', '.join(game.players)}) or none, not `{args.human}`")
            human = matches[0]
    match = Match(game, human, args, sys.stdout)
    if args.tablebase is not None:
        for option, given in (("--algorithm", args.algorithm), ("--iterations", args.iterations),
                              ("--depth", args.depth), ("--time", args.time)):
            if given is not None:
                raise UsageError(f"--tablebase plays perfectly at once; it takes no {option}")
        if not args.tablebase:  # Path("") is the current folder
            raise UsageError("--tablebase needs a file name")
        match.tablebase = Tablebase(args.tablebase)
        match.tablebase.check_game(game)
    else:  # refused before the first move, as `gdl solve` refuses it
        match.solving_first = dice_searched_to_the_end(game, args)
        try:
            require_searchable(game, match.algorithm)
            if match.algorithm != "mcts":
                limits_need_evaluation(game, match.algorithm, args.depth, args.time, None)
        except SearchError as error:
            raise refused(error) from None
    match.echo = not sys.stdin.isatty()
    try:
        return match.run(sys.stdin.readline)
    except SearchError as error:  # a search met what the game does wrong (a game that never ends)
        raise refused(error) from None
