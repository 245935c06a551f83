"""Tablebases from Python: `gdl.build_tablebase(game, path)` solves every position of a game
into one, and `gdl.Tablebase(path)` answers for any position of it.

    gdl.build_tablebase(gdl.load("games/connect.gdl", rows=4, cols=4), "connect44.sqlite")
    tb = gdl.Tablebase("connect44.sqlite")     # or one written by `gdl solve FILE --strong --out`
    s = tb.game.initial_state()
    tb.value(s), tb.remoteness(s), tb.best_move(s)

The tablebase holds the game file's text and parameters, so `tb.game` is built from the
database alone; `describe_game` is what a build records about the game, and `check_same_game`
refuses a tablebase built from another file or with other parameters.
"""

from __future__ import annotations

import hashlib
import shlex
from collections.abc import Callable
from functools import partial
from pathlib import Path
from typing import TYPE_CHECKING, Any

from gdl.errors import GdlError
from gdl.values import cut_short, source_text

if TYPE_CHECKING:
    from searchers.protocol import Game
    from searchers.strong import StrongProgress, StrongResult


class GdlTablebaseError(GdlError):
    """A tablebase that cannot answer: missing, unfinished, damaged, or of another game."""


def gdl_version() -> str:
    """The installed gdl's version."""
    from importlib.metadata import PackageNotFoundError, version

    try:
        return version("gdl")
    except PackageNotFoundError:
        return "(not installed)"


def param_texts(game: Any) -> dict[str, str]:
    """Each parameter's value in use, written as the language writes it, with the kind the
    checks gave it (a list in brackets): given back, the same value of the same kind."""
    params = getattr(getattr(game, "checked", None), "params", {})
    return {name: source_text(value, params[name].kind if name in params else None)
            for name, value in game.params.items()}


def text_hash(text: str) -> str:
    """The SHA-256 of a game file's text, as a tablebase records it (``game_sha256``)."""
    return hashlib.sha256(text.encode("utf-8")).hexdigest()


def describe_game(game: Any) -> dict[str, Any]:
    """What a tablebase records about the game it solves: title, file, text, its SHA-256, the
    value of every parameter, and the gdl version."""
    text = game.source.text
    return {
        "title": game.title,
        "file": game.source.name,
        "game_text": text,
        "game_sha256": text_hash(text),
        "params": param_texts(game),
        "gdl_version": gdl_version(),
    }


def check_same_game(meta: dict[str, Any], game: Any, path: str | Path) -> None:
    """Raise GdlTablebaseError unless the tablebase with ``meta`` was built from ``game``'s file
    text and parameters."""
    described = describe_game(game)
    stored_hash = meta.get("game_sha256")
    if stored_hash is None and isinstance(meta.get("game_text"), str):  # a tablebase written without it
        stored_hash = text_hash(meta["game_text"])
    if stored_hash != described["game_sha256"]:
        name = Path(described["file"]).name
        same_title = meta.get("title") == described["title"]
        edited = same_title and Path(str(meta.get("file"))).name == name
        source = (f"another text of {name} (the file has changed since, or is another version of it)" if edited
                  else f"another file of \"{meta.get('title')}\" ({meta.get('file')}), whose text differs from this "
                  "one's" if same_title
                  else f"another game file ({meta.get('file')}, \"{meta.get('title')}\"), not from this one")
        raise GdlTablebaseError(
            f"the tablebase was built from {source}; solve this file with "
            "`gdl solve FILE --strong --out DB` to make its own",
            file=str(path),
        )
    if meta.get("params") != described["params"] and not _same_values(meta.get("params"), game):
        built_with = meta.get("params") or {}
        stored = ", ".join(f"{n}={v}" for n, v in built_with.items()) or "none"
        given = ", ".join(f"{n}={v}" for n, v in described["params"].items()) or "none"
        differ = [shlex.quote(f"{n}={v}") for n, v in built_with.items() if described["params"].get(n) != v]
        hint = f"; give {' '.join(f'-p {each}' for each in differ)} to use it" if differ else ""
        raise GdlTablebaseError(
            f"the tablebase was built with other parameters ({stored}), not these ({given}){hint}",
            file=str(path),
        )


def _same_values(stored: Any, game: Any) -> bool:
    """Whether parameters recorded otherwise than ``param_texts`` writes them now (an earlier
    gdl wrote a string as JSON: `"caf\\u00e9"`) give ``game``'s file the values it has."""
    from gdl import build
    from gdl.parser import parse_value

    if not isinstance(stored, dict) or set(stored) != set(game.params):
        return False
    try:
        again = build(game.source.text, game.source.name, {name: parse_value(text) for name, text in stored.items()})
    except GdlError:
        return False
    return bool(again.params == game.params)


def build_tablebase(game: Any, path: str | Path, *, workers: int = 1, ray: str | None = None,
                    tolerance: float | None = None,
                    progress: Callable[[StrongProgress], None] | None = None) -> StrongResult:
    """Solve every position of ``game`` (loaded with ``gdl.load`` or ``gdl.loads``) into a
    tablebase at ``path`` that ``Tablebase``, `gdl query` and `gdl play --tablebase` read, as
    `gdl solve FILE --strong --out` does; the start's answers and the figures.  ``workers`` and
    ``ray`` are as in ``searchers.strong.solve_strong``: each worker builds the game from its
    text and parameters."""
    from gdl import build
    from searchers.results import SearchError
    from searchers.strong import DEFAULT_TOLERANCE, TablebaseError, check_settings, solve_strong

    if not hasattr(game, "source") or not hasattr(game, "params"):
        raise GdlError("gdl.build_tablebase takes a game loaded by gdl.load or gdl.loads; for another object "
                       "of the game protocol, searchers.strong.solve_strong(game, out=PATH) writes a tablebase "
                       "that its TablebaseReader reads")
    tolerance = DEFAULT_TOLERANCE if tolerance is None else tolerance
    try:
        check_settings(tolerance, workers)
    except SearchError as error:  # a mistake of the call, not of the game file
        raise GdlError(str(error), file="gdl.build_tablebase") from None
    try:
        result: StrongResult = solve_strong(
            game, out=path, meta=describe_game(game), workers=workers, ray=ray, progress=progress,
            tolerance=tolerance,
            factory=partial(build, game.source.text, game.source.name, dict(game.params)),
        )
    except TablebaseError as error:
        raise GdlTablebaseError(str(error), file=str(path)) from None
    except SearchError as error:  # the game's rules' own errors are GdlErrors already
        raise GdlError(str(error), file=game.source.name) from None
    return result


class Tablebase:
    """A complete tablebase: its game and every reachable position's answer."""

    def __init__(self, path: str | Path) -> None:
        """Open the tablebase at ``path`` and build its game from the text it holds."""
        from gdl import build
        from gdl.parser import parse_value
        from searchers.protocol import position_of
        from searchers.strong import TablebaseError, TablebaseReader

        self.path = Path(path)
        try:
            self.reader = TablebaseReader(self.path)
        except TablebaseError as error:
            raise GdlTablebaseError(str(error), file=str(self.path)) from None
        self.meta = self.reader.meta
        try:  # the reader closed if the game cannot be built
            if "game_text" not in self.meta:
                raise GdlTablebaseError(
                    "this tablebase does not hold its game's text and parameters (written by "
                    "searchers.strong.solve_strong without meta=): gdl reads the tablebases that "
                    "`gdl solve FILE --strong --out` or gdl.build_tablebase wrote; "
                    "searchers.strong.TablebaseReader reads its rows", file=str(self.path))
            written = self.meta.get("params"), self.meta["game_text"], self.meta.get("file")
            if not isinstance(written[0], dict) or not all(isinstance(text, str) for text in written[0].values()) \
                    or not isinstance(written[1], str) or not isinstance(written[2], str):
                raise GdlTablebaseError("the tablebase is damaged: its metadata does not hold its game's "
                                        "file name, text and parameters as gdl writes them", file=str(self.path))
            stored_hash = self.meta.get("game_sha256")  # written by every gdl that wrote the text (describe_game)
            if stored_hash is not None and text_hash(written[1]) != stored_hash:
                raise GdlTablebaseError("the tablebase is damaged: the game text it holds is not the text it was "
                                        "built from (their SHA-256 differ); solve the game again to rebuild it",
                                        file=str(self.path))
            params = {name: parse_value(text, f"parameter {name}") for name, text in self.meta["params"].items()}
            # Any loaded game: the searchers' protocol, whose rules a game sets up as it loads.
            self.game: Game = build(self.meta["game_text"], self.meta["file"], params)
        except BaseException:
            self.reader.close()
            raise
        self._position = position_of(self.game)

    @property
    def has_chance(self) -> bool:
        """Whether the solve met a chance node (a game may declare dice it never throws);
        older tablebases do not say: whether the game declares dice."""
        return bool(self.meta.get("has_chance", getattr(self.game, "has_chance", False)))

    @property
    def exact(self) -> bool:
        """Whether every value is the game's exactly; if not, each is within ``residual`` of it
        (value iteration's floats, for one) and ``inexact_reason`` says why."""
        return self.meta.get("exact") is True

    @property
    def residual(self) -> float:
        """How far any value may be from the game's: 0 where ``exact``."""
        return float(self.meta.get("residual") or 0)

    @property
    def inexact_reason(self) -> str | None:
        """Why the values are not exact, in words (None where they are)."""
        if self.exact:
            return None
        reason = self.meta.get("inexact_reason")
        # Tablebases written before the reason was kept were inexact by value iteration alone.
        return reason if isinstance(reason, str) and reason else "value iteration stops within the tolerance"

    def _row(self, state: Any) -> tuple[Any, int | None, int | None]:
        from searchers.strong import TablebaseError, stable_key

        fields = len(self.game.initial_state())  # the start is made once, when the game loads
        if not isinstance(state, tuple) or len(state) != fields:  # not for the tablebase to be blamed
            raise TypeError(f"a state of {self.game.title} is wanted (a tuple of its {fields} "
                            f"field{'s' if fields != 1 else ''}, as "
                            f"game.initial_state() and game.result() give), not {cut_short(repr(state), 60)}")
        try:
            found = self.reader.get(stable_key(state if self._position is None else self._position(state)))
        except TablebaseError as error:
            raise GdlTablebaseError(str(error), file=str(self.path)) from None
        if found is None:
            raise GdlTablebaseError(
                "this position is not in the tablebase: every position reached from the start by legal moves "
                "is, so either this one cannot be reached, or the tablebase is damaged (rows lost)",
                file=str(self.path),
            )
        return found

    def value(self, state: Any) -> Any:
        """The value of ``state`` for the first player under perfect play.

        ``state`` is a state of this tablebase's game (``game``): it is looked up by its stable
        key, so a state of the same file loaded with other parameters that looks the same gets
        this game's answers (``check_game`` tells such a game apart); so do ``remoteness`` and
        ``best_move``."""
        return self._row(state)[0]

    def remoteness(self, state: Any) -> int | None:
        """Plies to the end under perfect play (the favoured side hurries, the other delays);
        None where the end can be put off for ever, or where dice decide."""
        return self._row(state)[1]

    def best_move(self, state: Any) -> Any:
        """The best move in ``state`` (None in a finished game or at a chance node): the move at
        the place the tablebase keeps, or, where an equal state lists its moves in another order,
        a move that keeps the value, as fast as the remoteness says (``kept_move``)."""
        from searchers.strong import kept_move
        from searchers.strong.solution import NEVER, NO_MOVE

        def answer(position: Any) -> tuple[Any, int, int]:
            value, remoteness, best = self._row(position)
            return value, NEVER if remoteness is None else remoteness, NO_MOVE if best is None else best

        value, remoteness, best = answer(state)
        if best == NO_MOVE:
            return None
        moves = self.game.actions(state)
        if best >= len(moves):
            raise GdlTablebaseError(f"the tablebase is damaged: it gives move {best + 1} as the best of a "
                                    f"position with {len(moves)} moves", file=str(self.path))
        return kept_move(self.game, state, moves, best, answer, value, remoteness, self.meta.get("residual") or 0)

    def check_game(self, game: Any) -> None:
        """Raise GdlTablebaseError unless this tablebase solves ``game`` (same file, same parameters)."""
        check_same_game(self.meta, game, self.path)

    def close(self) -> None:
        """Close the database."""
        self.reader.close()

    def __enter__(self) -> Tablebase:
        return self

    def __exit__(self, *exc_info: object) -> None:
        self.close()
