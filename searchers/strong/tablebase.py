"""Tablebases: the answers of a strong solve in an SQLite file (Python's own ``sqlite3``).

Two tables:

- ``positions(key, value, remoteness, best)``: one row a position.  ``key`` is the position's
  stable key (``keys.stable_key``); ``value`` the first player's value, an integer, a float, or
  a fraction as the text ``"n/d"``; ``remoteness`` the plies to the end under perfect play
  (NULL where the end can be put off for ever or dice decide); ``best`` the best move as its
  index in ``actions(state)`` (NULL at an end or a chance node).
- ``meta(name, value)``: what was solved and how, each value as JSON: the caller's
  description of the game (its title, file text and SHA-256, parameters), the counts and how
  the values were found, and ``complete``.

A build writes ``complete`` false first and true only in its last transaction, after every
position is in and synced to the disk, so a build stopped by Ctrl-C, a crash or a full disk
leaves a file that readers refuse (``open_tablebase`` raises ``IncompleteTablebase``) rather
than one that answers wrongly.
"""

from __future__ import annotations

import json
import os
import re
import sqlite3
from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager, suppress
from fractions import Fraction
from operator import itemgetter
from pathlib import Path
from typing import Any

from ..protocol import Value
from .solution import NEVER, NO_MOVE

try:
    import fcntl
except ImportError:  # Windows
    fcntl = None  # type: ignore[assignment]

FORMAT = 3
"""The layout of the tables and of the keys, stored as ``format`` in ``meta`` (2: boards
written by palette; 3: a whole number reached as a fraction written as the integer it equals,
in the keys and in the parameters' text; see ``keys``)."""

Row = tuple[bytes, Any, int | None, int | None]

# The page cache of each part file read while the workers write it, at most, and of all of them,
# in KiB (SQLite's notation: negative): a solve by tiers reads back answers from all of them.
_PART_CACHE = -65536
_PART_CACHES = -262144


class TablebaseError(Exception):
    """A file that is not a tablebase this code can read."""


class IncompleteTablebase(TablebaseError):
    """A tablebase whose build did not finish."""


def stored_value(value: Value) -> int | float | str:
    """A value as SQLite keeps it: integers as integers (as text past 64 bits), fractions as
    ``"n/d"``, floats as floats."""
    if isinstance(value, Fraction):
        if value.denominator == 1:
            return stored_value(value.numerator)
        return f"{value.numerator}/{value.denominator}"
    if isinstance(value, int):
        return int(value) if -(1 << 63) <= value < (1 << 63) else str(int(value))
    return float(value)


def read_value(stored: int | float | str) -> Value:
    """The value ``stored_value`` wrote."""
    if isinstance(stored, str):
        return Fraction(stored) if "/" in stored else int(stored)
    return stored


def _count_or_none(stored: Any) -> bool:
    """Whether a stored remoteness or move index is one: None, or an integer 0 or more."""
    return stored is None or (type(stored) is int and stored >= 0)


def read_only_uri(path: str | Path) -> str:
    """The SQLite URI that opens ``path`` read-only: the path percent-encoded, so that a file
    name with `?`, `#` or `%` in it names that file."""
    return Path(path).absolute().as_uri() + "?mode=ro"


def rows_of(keys: list[bytes], values: list[Value], remoteness: Sequence[int], best: Sequence[int]) -> list[Row]:
    """The rows of positions (``NEVER`` and ``NO_MOVE`` become NULL), in key order."""
    small_ints = set(map(type, values)) <= {int} and -(1 << 63) <= min(values, default=0) <= max(values, default=0) < (1 << 63)
    stored = values if small_ints else [stored_value(v) for v in values]
    return sorted(zip(keys, stored, [None if r == NEVER else r for r in remoteness],
                      [None if b == NO_MOVE else b for b in best]), key=itemgetter(0))  # keys differ: half the time


def check_replaceable(path: str | Path, title: str | None = None) -> None:
    """Raise TablebaseError unless a new tablebase may be written at ``path``: where there is
    nothing yet, an empty file or a tablebase (complete or not, to rebuild), never over another
    file (a game file given as the tablebase by mistake), nor over the complete tablebase of a
    game of another ``title`` (hours of solving lost to a wrong file name; the same game with
    other parameters or an edited file is rebuilt)."""
    path = Path(path)
    if not os.path.lexists(path) or (path.is_file() and path.stat().st_size == 0):
        return
    if path.is_dir():
        raise TablebaseError(f"{path} is a folder; name a tablebase file (in it, say: {path / 'game.sqlite'})")
    if path.is_file():
        try:
            connection = sqlite3.connect(read_only_uri(path), uri=True)
        except sqlite3.Error as error:  # a file this user may not read: it might be anything
            raise TablebaseError(f"{path} cannot be read ({error}), so nothing is written over it; "
                                 "name a new file, or let this user read that one") from None
        try:
            meta = dict(connection.execute(
                "SELECT name, value FROM meta WHERE name IN ('format', 'title', 'complete')"))
            tables = _tables(connection)
        except sqlite3.Error:
            meta, tables = {}, set()
        finally:
            connection.close()
        # Marked: a tablebase, or a build killed while SQLite wrote, with no journal (to rebuild).
        if marked_as_tablebase(path) or _before_the_mark(meta.keys(), tables):
            _check_same_title(path, meta, title)
            return
    raise TablebaseError(f"{path} is not a tablebase, so a tablebase is not written over it; "
                         "name a new file (or a tablebase to rebuild), or remove that one first")


_TABLES = {"meta", "positions"}  # a tablebase's tables: a file with others is another program's


def _before_the_mark(meta: Iterable[str], tables: set[str]) -> bool:
    """Whether a file of these ``tables`` and ``meta`` rows (their names) is a tablebase written
    by a gdl from before the mark in the header: every one wrote its format and whether it is
    complete first, in tables of its own alone."""
    return {"format", "complete"} <= set(meta) and tables <= _TABLES


def _tables(connection: sqlite3.Connection) -> set[str]:
    """The names of the tables of the SQLite file open on ``connection``, but SQLite's own
    (``sqlite_stat1``, which ``ANALYZE`` makes)."""
    return {name for (name,) in connection.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite\\_%' ESCAPE '\\'")}


# Written in the header of every file a solve makes (SQLite's ``application_id``), which a
# kill in the middle of a commit leaves whole: the header is one write of the first page, while
# the rows go in without a journal (``TablebaseWriter._opened``) and may be left torn.
APPLICATION_ID = int.from_bytes(b"gdlT", "big")
_APPLICATION_ID_AT = 68  # its place in the header
_SQLITE_HEADER = b"SQLite format 3\0"  # how every SQLite file begins


def marked_as_tablebase(path: str | Path) -> bool:
    """Whether the file at ``path`` is an SQLite file that a solve made (a tablebase, complete
    or not, or a part of one), readable or not."""
    try:
        with open(path, "rb") as file:
            header = file.read(_APPLICATION_ID_AT + 4)
    except OSError:
        return False
    return (len(header) == _APPLICATION_ID_AT + 4 and header.startswith(_SQLITE_HEADER)
            and int.from_bytes(header[_APPLICATION_ID_AT:], "big") == APPLICATION_ID)


def _check_same_title(path: Path, meta: dict[str, str], title: str | None) -> None:
    """Raise TablebaseError if the tablebase at ``path`` (its ``meta`` rows, as stored) is the
    complete one of a game of another title than ``title``."""
    try:
        complete, old_title = json.loads(meta.get("complete", "false")), json.loads(meta.get("title", "null"))
    except (ValueError, TypeError):  # unreadable metadata, or not text: a tablebase no one can use, to rebuild
        return
    if title is not None and complete is True and old_title is not None and old_title != title:
        raise TablebaseError(f"{path} holds the tablebase of another game, \"{old_title}\", so it is not "
                             "written over; name a new file, or remove that one first")


@contextmanager
def held_for_writing(path: str | Path) -> Iterator[None]:
    """Hold the lock of the tablebase at ``path`` (the file ``{path}.lock`` beside it, locked
    with ``flock``, which the system lets go if the process dies) while a solve writes it:
    a second solve into the same file, which would delete the first's scratch files and
    rebuild the table under it, is refused (TablebaseError), and so is a folder where no file
    can be made, saying why.  Where ``flock`` is missing (Windows) or the file system keeps no
    locks, nothing is locked."""
    if fcntl is None:
        yield
        return
    lock = Path(f"{path}.lock")
    while True:
        try:
            handle = os.open(lock, os.O_RDWR | os.O_CREAT, 0o644)
        except IsADirectoryError:
            raise TablebaseError(f"cannot write {path}: {lock} is a folder, where a solve keeps its lock file; "
                                 "move it, or name another tablebase") from None
        except OSError as error:
            raise TablebaseError(f"cannot write {path}: {error.strerror} ({lock.parent})") from None
        try:
            fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
        except BlockingIOError:
            os.close(handle)
            raise TablebaseError(f"another solve is writing {path}: let it end, or name another file") from None
        except OSError:  # a file system that keeps no locks (some network ones): as on Windows
            os.close(handle)
            with suppress(OSError):
                os.remove(lock)
            yield
            return
        try:  # the lock of a solve that has just ended, and deleted its file, locks nothing
            if os.stat(lock).st_ino == os.fstat(handle).st_ino:
                break
        except FileNotFoundError:
            pass
        os.close(handle)
    try:
        yield
    finally:
        with suppress(OSError):
            os.remove(lock)
        os.close(handle)


def being_written(path: str | Path) -> bool:
    """Whether a solve holds the lock of the tablebase at ``path`` (``held_for_writing``) now."""
    if fcntl is None:
        return False
    try:
        handle = os.open(f"{path}.lock", os.O_RDONLY)
    except OSError:  # no lock file: no solve at work (or one that could not make it)
        return False
    try:
        fcntl.flock(handle, fcntl.LOCK_SH | fcntl.LOCK_NB)
    except BlockingIOError:
        return True
    except OSError:
        return False
    finally:
        os.close(handle)
    return False


# The files SQLite keeps beside a database at PATH: PATH-journal, and so on.
_SIDE_FILES = ("-journal", "-wal", "-shm")


def file_identity(path: str | Path) -> tuple[int, int, int] | None:
    """The file at ``path`` as its inode, size and time of change (another file, or the same
    written again, differs), or None where there is none."""
    try:
        found = os.stat(path)
    except OSError:
        return None
    return found.st_ino, found.st_size, found.st_mtime_ns


def remove_sqlite_file(path: str | Path, side_files_only: bool = False) -> None:
    """Remove the SQLite file at ``path`` (unless ``side_files_only``) and the files SQLite
    keeps beside it, where they are: a tablebase, a part file of a worker, the scratch file of
    a solve by tiers."""
    for stale in (*([] if side_files_only else [Path(path)]), *(Path(f"{path}{suffix}") for suffix in _SIDE_FILES)):
        if stale.exists():
            os.remove(stale)


# The files a solve into NAME makes beside it, which one killed outright leaves: the new
# tablebase that is to replace a complete one (NAME.new, see ``written_at``) and, of a solve
# by tiers, its workers' part files (NAME.part0, ...), its scratch file (NAME.scratch) and its
# tiers' graphs (NAME.scratch.tier3, ...), those of NAME.new too, and the journals of the
# SQLite ones.
_LEFTOVER = r"\.(?:new\.)?(?P<kind>new|part\d+|scratch|scratch\.tier-?\d+)(?P<journal>-journal)?"
_LEFT_BY = {"new": "the tablebase that is to replace it", "part": "a worker's rows",
            "scratch": "the positions waiting", "tier": "a tier's graph"}


def written_at(out: Path) -> Path:
    """Where a solve into ``out`` writes its tablebase: ``out`` itself, unless a complete
    tablebase is there (of the same game with other parameters, or from an edited file: one
    of another game is refused before, ``check_replaceable``), which a mistaken `-p` or a stop
    would otherwise lose, hours of solving: then the file ``out.new`` beside it, which takes
    its place once complete (``put_in_place``)."""
    return Path(f"{out}.new") if _complete_tablebase(out) else out


def put_in_place(written: Path, out: Path) -> None:
    """After a solve into ``out`` that wrote ``written`` (``written_at``): the new tablebase,
    if it is complete, takes the place of the one at ``out`` (and of any file SQLite kept
    beside that one, which would be read with it); else it is deleted, and the one at ``out``
    stays as it was."""
    if written == out:
        return
    if _complete_tablebase(written):
        remove_sqlite_file(out, side_files_only=True)
        os.replace(written, out)  # at once: the one or the other is there, whatever stops the solve
    else:
        remove_sqlite_file(written)


def remove_leftovers(out: Path) -> None:
    """Delete the files a solve into ``out`` that was killed outright (no cleaning up) left
    beside it, and which the next solve writes again, damaged or not; raise TablebaseError,
    deleting nothing, if one of their names holds a complete tablebase (``out.part0`` saved as
    a tablebase of its own, say: hours of solving), one another solve is writing, or a folder."""
    if not out.parent.is_dir():  # no folder: the tablebase itself cannot be written, and says so
        return
    pattern = re.compile(re.escape(out.name) + _LEFTOVER)
    found = [(out.parent / name, match) for name in sorted(os.listdir(out.parent))
             if (match := pattern.fullmatch(name))]
    for path, match in found:
        what = ("a folder" if path.is_dir() else "a tablebase another solve is writing" if being_written(path)
                else "a complete tablebase" if _complete_tablebase(path)
                else "not a tablebase" if match["kind"] == "new" and not match["journal"] and not _made_by_a_solve(path)
                else None)
        if what is not None:
            written = _LEFT_BY[match["kind"].split(".")[-1].rstrip("-0123456789")]
            raise TablebaseError(
                f"{path} is in the way: a solve into {out.name} writes {written} to a file of that name, and that "
                f"one is {what}; move it, or name another tablebase")
    for path, _ in found:
        os.remove(path)


def _made_by_a_solve(path: Path) -> bool:
    """Whether the file at ``path`` may be a solve's own: marked so in its header (or a
    tablebase of a gdl from before the mark), or holding nothing yet (a solve killed before its
    first write, or a crash that left zeros). ``NAME.new`` is a name a person may give a file
    of theirs, which is kept."""
    with open(path, "rb") as file:
        start = file.read(_BLANK_LOOKED_AT)
    return not start.strip(b"\0") or marked_as_tablebase(path) or _unmarked_tablebase(path)


_BLANK_LOOKED_AT = 1 << 16  # the bytes read of a file that may be blank: a file of zeros is only read this far


def _unmarked_tablebase(path: Path) -> bool:
    """Whether the file at ``path`` is a tablebase of a gdl from before the mark: its format
    in its metadata, and no table but a tablebase's."""
    try:
        connection = sqlite3.connect(read_only_uri(path) + "&immutable=1", uri=True)
        try:
            names = [name for (name,) in connection.execute(
                "SELECT name FROM meta WHERE name IN ('format', 'complete')")]
            return _before_the_mark(names, _tables(connection))
        finally:
            connection.close()
    except sqlite3.Error:
        return False


def _complete_tablebase(path: Path) -> bool:
    """Whether the file at ``path`` is a complete tablebase (a solve's part file never is)."""
    return _meta_text(path, "complete") == "true"


def _meta_text(path: Path, name: str) -> str | None:
    """The metadata ``name`` of the tablebase at ``path`` as stored; None where the file has no
    such row, or is no tablebase (not SQLite, damaged, or without a meta table)."""
    try:
        # Immutable: a journal left beside it is not read (nor rolled back, which read-only
        # it could not be).
        connection = sqlite3.connect(read_only_uri(path) + "&immutable=1", uri=True)
        try:
            found: tuple[str] | None = connection.execute("SELECT value FROM meta WHERE name = ?", (name,)).fetchone()
        finally:
            connection.close()
    except sqlite3.Error:
        return None
    return None if found is None else str(found[0])


class TablebaseWriter:
    """Writes a tablebase: ``add`` rows, then ``finish`` with the metadata."""

    def __init__(self, path: str | Path) -> None:
        """Start a new tablebase at ``path``, replacing any file there."""
        self.path = Path(path)
        remove_sqlite_file(self.path)
        self.connection = self._opened(self.path)
        self.connection.executescript(
            f"""
            PRAGMA page_size = 16384;
            PRAGMA application_id = {APPLICATION_ID};
            CREATE TABLE meta (name TEXT PRIMARY KEY, value TEXT NOT NULL);
            CREATE TABLE positions (
                key BLOB PRIMARY KEY, value NOT NULL, remoteness INTEGER, best INTEGER
            ) WITHOUT ROWID;
            """
        )
        self._set({"format": FORMAT, "complete": False})
        self.connection.commit()
        self.rows = 0
        self.uncommitted = 0  # rows added since the last commit
        self.parts: dict[str, sqlite3.Connection] = {}  # the part files attached, read by connections of their own

    @staticmethod
    def _opened(path: Path) -> sqlite3.Connection:
        """A connection writing the file at ``path``, by URI (so that part files can be attached
        read-only by theirs), without a journal and without waiting for the disk (a table that
        is rebuilt if anything goes wrong: see ``finish``)."""
        connection = sqlite3.connect(path.absolute().as_uri(), uri=True)
        connection.executescript("PRAGMA journal_mode = OFF; PRAGMA synchronous = OFF; PRAGMA cache_size = -262144;")
        return connection

    def _set(self, meta: dict[str, Any]) -> None:
        self.connection.executemany(
            "INSERT OR REPLACE INTO meta VALUES (?, ?)",
            [(name, json.dumps(value)) for name, value in meta.items()],
        )

    def add(self, rows: Iterable[Row], commit: bool = True) -> None:
        """Write rows (best sorted by key: the table is a B-tree on it), and commit them unless
        told not to (a commit writes out every page changed: a few large ones are quicker)."""
        before = self.connection.total_changes
        self.connection.executemany("INSERT INTO positions VALUES (?, ?, ?, ?)", rows)
        added = self.connection.total_changes - before
        self.rows += added
        self.uncommitted += added
        if commit:
            self.commit()

    def commit(self) -> None:
        """Commit the rows added, for other connections to read."""
        self.connection.commit()
        self.uncommitted = 0

    def hold_until_commit(self) -> None:
        """Keep the pages of the rows added in memory until the commit, however many, for a
        file another process reads meanwhile: SQLite would otherwise write them out once they
        outgrow the page cache, and lock the file against readers until the commit."""
        self.connection.execute("PRAGMA cache_spill = OFF")

    def lookup(self, keys: list[bytes]) -> dict[bytes, tuple[Any, int, int]]:
        """The rows already written for ``keys`` (a solve by tiers reads later tiers back),
        here or in the part files attached."""
        found: dict[bytes, tuple[Any, int, int]] = {}
        # The part files first: with workers, they hold the rows of most tiers.
        for connection in [*self.parts.values(), self.connection]:
            missing = [key for key in keys if key not in found]
            for start in range(0, len(missing), 500):
                chunk = missing[start:start + 500]
                marks = ",".join("?" * len(chunk))
                for key, value, remoteness, best in connection.execute(
                    f"SELECT key, value, remoteness, best FROM positions WHERE key IN ({marks})", chunk
                ):
                    found[key] = (read_value(value), NEVER if remoteness is None else remoteness,
                                  NO_MOVE if best is None else best)
        return found

    def attach(self, paths: list[str]) -> None:
        """Read the rows of the part files at ``paths`` (tablebases other processes write) as
        if written here, until ``absorb`` takes them in.  Each is read through a connection of
        its own (SQLite attaches at most ten files to one, and a solve may have more workers),
        the page caches sharing ``_PART_CACHES``."""
        cache = max(_PART_CACHE, _PART_CACHES // max(1, len(paths)))
        for path in paths:
            part = self.parts[path] = sqlite3.connect(read_only_uri(path), uri=True)
            part.execute(f"PRAGMA cache_size = {cache}")  # SQLite's 2 MiB is soon outgrown

    def absorb(self, part_files: list[tuple[str, int]]) -> None:
        """Take in the rows of ``part_files`` (each a path and its number of rows), which their
        writers have closed, and let them go; before ``finish``, which writes the metadata
        but the format (a part file has it too).  The part file holding the most rows, if it
        holds more than this file, takes this file's rows and its place (its own rows stay
        where they are: a row copied costs about as much as a row written); the others' rows
        are copied in."""
        self.commit()  # the rows added here: this connection may be closed below
        for connection in self.parts.values():
            connection.close()
        self.parts = {}
        part_files = sorted(part_files, key=lambda part: part[1])
        if part_files and part_files[-1][1] > self.rows:
            base, rows = part_files.pop()
            self.connection.close()
            self.connection = self._opened(Path(base))
            self._copy_rows(self.path)  # counted in ``rows`` already
            self.rows += rows
            self.connection.close()
            os.replace(base, self.path)  # an incomplete tablebase either way, until ``finish``
            self.connection = self._opened(self.path)
        for path, _ in part_files:
            self.rows += self._copy_rows(Path(path))

    def _copy_rows(self, path: Path) -> int:
        """Copy the rows of the tablebase at ``path`` into the file written; how many."""
        self.connection.execute("ATTACH DATABASE ? AS part", (read_only_uri(path),))
        before = self.connection.total_changes
        self.connection.execute("INSERT INTO positions SELECT key, value, remoteness, best FROM part.positions")
        copied = self.connection.total_changes - before
        self.connection.commit()
        self.connection.execute("DETACH DATABASE part")
        return copied

    def finish(self, meta: dict[str, Any]) -> None:
        """Write the metadata, then mark the tablebase complete in one last transaction.

        The rows go in without a journal and without waiting for the disk (a table that is
        rebuilt if anything goes wrong); before ``complete`` is set they are made durable
        (``synchronous = FULL`` syncs the file at the commit), so that no crash of the machine
        can leave the mark on disk without the rows it vouches for."""
        self.commit()  # the rows added: SQLite changes the safety level between transactions only
        self.connection.execute("PRAGMA synchronous = FULL")
        self._set({**meta, "positions": self.rows})
        self.connection.commit()
        self._set({"complete": True})
        self.connection.commit()
        self.connection.close()

    def close(self) -> None:
        """Close the file, complete or not, and the part files still attached."""
        for connection in [*self.parts.values(), self.connection]:
            try:
                connection.close()
            except sqlite3.Error:
                pass
        self.parts = {}


_BEING_WRITTEN = "a solve is writing this tablebase now: read it once the solve has ended"


def _torn(error: Exception) -> bool:
    """Whether SQLite's ``error`` says the file is not sound (malformed, or no database at
    all), as a kill in the middle of a commit without a journal may leave it; not a lock."""
    code = getattr(error, "sqlite_errorcode", None)
    return code is not None and code & 0xFF in (sqlite3.SQLITE_CORRUPT, sqlite3.SQLITE_NOTADB)  # the primary code


_INCOMPLETE = ("this tablebase is incomplete: its build stopped or failed before the end; "
               "solve the game again to rebuild it")


class TablebaseReader:
    """Reads a complete tablebase: its metadata and its rows by key."""

    def __init__(self, path: str | Path) -> None:
        """Open the tablebase at ``path``; raise TablebaseError if it cannot be read, or
        IncompleteTablebase if its build did not finish."""
        self.path = Path(path)
        if self.path.is_dir():
            raise TablebaseError("this is a folder, not a tablebase file")
        if not self.path.exists():
            raise TablebaseError("no such tablebase file")
        if not self.path.is_file():  # a device, a pipe: SQLite would wait on a pipe
            raise TablebaseError("this is not a file, so not a tablebase")
        try:
            self.connection = sqlite3.connect(read_only_uri(self.path), uri=True)
        except sqlite3.Error as error:  # a file this user may not read
            raise TablebaseError(f"the tablebase cannot be read ({error})") from None
        try:
            self.meta = self._checked_meta()
        except TablebaseError:
            self.connection.close()
            raise

    def _checked_meta(self) -> dict[str, Any]:
        """The metadata, once the file is known to be a complete tablebase of this format."""
        try:
            meta = {name: json.loads(value) for name, value in self.connection.execute("SELECT name, value FROM meta")}
        except TypeError:  # a value stored as a number, not JSON text: no gdl wrote it
            raise TablebaseError("not a gdl tablebase (its metadata is not text)") from None
        except (sqlite3.Error, ValueError) as error:
            if being_written(self.path):  # locked by the solve, or read between its writes
                raise IncompleteTablebase(_BEING_WRITTEN) from None
            if _torn(error) and marked_as_tablebase(self.path):
                raise IncompleteTablebase(
                    f"a tablebase left damaged ({error}): its build was killed while it wrote, most likely; "
                    "solve the game into it again to rebuild it") from None
            raise TablebaseError(f"not a gdl tablebase ({error})") from None
        if "format" not in meta and marked_as_tablebase(self.path):  # begun, its first metadata not yet in
            raise IncompleteTablebase(_BEING_WRITTEN if being_written(self.path) else _INCOMPLETE)
        if meta.get("format") != FORMAT:
            raise TablebaseError(
                f"a tablebase of format {meta.get('format')!r}, which this gdl cannot read (it reads "
                f"format {FORMAT}); solve the game again with this gdl to rebuild it")
        if meta.get("complete") is not True:
            if being_written(self.path):
                raise IncompleteTablebase(_BEING_WRITTEN)
            raise IncompleteTablebase(_INCOMPLETE)
        return meta

    def get(self, key: bytes) -> tuple[Value, int | None, int | None] | None:
        """The value, remoteness and best move index stored for ``key``, or None."""
        try:
            found = self.connection.execute(
                "SELECT value, remoteness, best FROM positions WHERE key = ?", (key,)
            ).fetchone()
        except sqlite3.Error as error:
            raise TablebaseError(f"the tablebase cannot be read ({error})") from None
        if found is None:
            return None
        stored, remoteness, best = found
        try:
            value = read_value(stored) if type(stored) in (int, float, str) else None
        except (ValueError, ZeroDivisionError):
            value = None
        if value is None or not _count_or_none(remoteness) or not _count_or_none(best):
            raise TablebaseError(f"the tablebase is damaged: the row of key {key.hex()} holds value {stored!r}, "
                                 f"remoteness {remoteness!r}, best move {best!r}")
        return value, remoteness, best

    def close(self) -> None:
        """Close the file."""
        self.connection.close()
