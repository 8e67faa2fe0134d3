"""Games in progress and finished games, with their event logs, in one SQLite file that survives a power cut.

Every write is one transaction committed (and, with synchronous=FULL, on disk) before the method returns,
so the app may acknowledge a move on screen as soon as `record()` returns. WAL mode keeps a reader (the
History screen) from blocking the writer and makes a cut mid-write roll back to the last commit.
"""
from __future__ import annotations

import json
import logging
import os
import sqlite3
from dataclasses import dataclass
from datetime import datetime, timezone
from pathlib import Path
from typing import Any, Callable

log = logging.getLogger(__name__)

#: Written into the SQLite header (PRAGMA application_id) so a foreign database is recognised: "TBLC".
APPLICATION_ID = 0x54424C43
SCHEMA_VERSION = 1

_SCHEMA = """
CREATE TABLE games (
    id       INTEGER PRIMARY KEY,
    kind     TEXT NOT NULL,
    title    TEXT NOT NULL,
    state    TEXT NOT NULL,
    created  TEXT NOT NULL,
    updated  TEXT NOT NULL,
    finished TEXT,
    result   TEXT
);
CREATE TABLE moves (
    id       INTEGER PRIMARY KEY,
    game_id  INTEGER NOT NULL REFERENCES games(id),
    move     TEXT,
    events   TEXT NOT NULL,
    recorded TEXT NOT NULL,
    undone   TEXT
);
CREATE INDEX moves_by_game ON moves(game_id, id);
"""


class SaveError(Exception):
    """A saved-games operation that cannot be done; the message can be shown as it is."""


@dataclass(frozen=True)
class SavedGame:
    id: int
    kind: str
    title: str
    state: dict
    #: The event log of every move not undone, oldest first.
    events: list[dict]
    created: str
    updated: str
    #: When the game was finished (ISO 8601, UTC), or None while it is in progress.
    finished: str | None
    result: dict | None
    moves: int = 0


def _utc_now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _to_json(value: Any, what: str) -> str:
    try:
        return json.dumps(value, ensure_ascii=False, sort_keys=True, allow_nan=False)
    except (TypeError, ValueError) as error:
        raise SaveError(f"cannot save the {what}: it is not plain JSON data ({error})") from None


class SaveStore:
    """The saved-games database at `path` (created with its folder when missing)."""

    def __init__(self, path: str | os.PathLike, now: Callable[[], str] = _utc_now):
        self.path = Path(path)
        self._now = now
        #: Set when an unusable file was moved aside on opening; the app shows it once.
        self.recovery_message: str | None = None
        try:
            self.path.parent.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise SaveError(f"cannot create the folder for saved games {self.path.parent}: {error}") from None
        problem = self._problem_with_existing_file()
        if problem:
            self._move_aside(problem)
        self._db = self._connect()

    # --- opening -----------------------------------------------------------------------------------------

    def _problem_with_existing_file(self) -> str | None:
        """Why the file at self.path cannot be used as our database, or None if it can (or is absent)."""
        if not self.path.exists() or self.path.stat().st_size == 0:
            return None
        try:
            probe = sqlite3.connect(f"file:{self.path}?mode=rw", uri=True)
        except sqlite3.Error as error:
            return f"it cannot be opened ({error})"
        try:
            application_id = probe.execute("PRAGMA application_id").fetchone()[0]
            tables = {row[0] for row in probe.execute("SELECT name FROM sqlite_master WHERE type = 'table'")}
            if application_id != APPLICATION_ID:
                if not tables:
                    return None  # an empty SQLite file: safe to initialise in place
                return "it is another program's database"
            check = probe.execute("PRAGMA quick_check").fetchone()[0]
            if check != "ok":
                return f"it is damaged ({check})"
            if not {"games", "moves"} <= tables:
                return "its tables are missing"
        except sqlite3.DatabaseError as error:
            return f"it is not a readable saved-games database ({error})"
        finally:
            probe.close()
        return None

    def _move_aside(self, problem: str) -> None:
        stamp = datetime.now(timezone.utc).strftime("%Y%m%dT%H%M%SZ")
        target = self.path.with_name(f"{self.path.name}.unusable-{stamp}")
        counter = 1
        while target.exists():
            counter += 1
            target = self.path.with_name(f"{self.path.name}.unusable-{stamp}-{counter}")
        try:
            self.path.rename(target)
            for suffix in ("-wal", "-shm"):
                companion_file = self.path.with_name(self.path.name + suffix)
                if companion_file.exists():
                    companion_file.rename(target.with_name(target.name + suffix))
        except OSError as error:
            raise SaveError(f"the saved-games file {self.path} cannot be used because {problem}, and it could "
                            f"not be moved aside ({error}); move it away by hand") from None
        self.recovery_message = (f"The saved-games file could not be used because {problem}. It was kept as "
                                 f"{target} and a new one was started.")
        log.warning("%s", self.recovery_message)

    def _connect(self) -> sqlite3.Connection:
        try:
            db = sqlite3.connect(self.path, isolation_level=None)
            db.execute("PRAGMA journal_mode = WAL")
            # FULL: a commit is on disk before record() returns, even across a power cut in WAL mode.
            db.execute("PRAGMA synchronous = FULL")
            db.execute("PRAGMA foreign_keys = ON")
            if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                with _transaction(db):
                    for statement in _SCHEMA.split(";"):
                        if statement.strip():
                            db.execute(statement)
                    db.execute(f"PRAGMA application_id = {APPLICATION_ID}")
                    db.execute(f"PRAGMA user_version = {SCHEMA_VERSION}")
        except sqlite3.Error as error:
            raise SaveError(f"cannot open the saved-games file {self.path}: {error}") from None
        return db

    # --- writing -----------------------------------------------------------------------------------------

    def new_game(self, kind: str, title: str, state: dict) -> int:
        if not kind or not isinstance(kind, str):
            raise SaveError("a saved game needs a kind, such as \"nightmarium\"")
        state_json = _to_json(state, "game state")
        now = self._now()
        with self._writing():
            cursor = self._db.execute(
                "INSERT INTO games (kind, title, state, created, updated) VALUES (?, ?, ?, ?, ?)",
                (kind, title, state_json, now, now))
        log.info("new %s game %d: %s", kind, cursor.lastrowid, title)
        return int(cursor.lastrowid)

    def record(self, game_id: int, move: dict | None, state: dict, events: list[dict]) -> None:
        """Store one move (None for a move-less change), the state after it and the events it caused."""
        move_json = None if move is None else _to_json(move, "move")
        state_json = _to_json(state, "game state")
        events_json = _to_json(list(events), "event log")
        now = self._now()
        with self._writing():
            self._require_in_progress(game_id)
            self._db.execute("INSERT INTO moves (game_id, move, events, recorded) VALUES (?, ?, ?, ?)",
                             (game_id, move_json, events_json, now))
            self._db.execute("UPDATE games SET state = ?, updated = ? WHERE id = ?", (state_json, now, game_id))

    def undo_last(self, game_id: int, state: dict) -> None:
        """Mark the last move undone (it is kept, flagged) and store the state the engine returned to."""
        state_json = _to_json(state, "game state")
        now = self._now()
        with self._writing():
            self._require_in_progress(game_id)
            row = self._db.execute("SELECT id FROM moves WHERE game_id = ? AND undone IS NULL "
                                   "ORDER BY id DESC LIMIT 1", (game_id,)).fetchone()
            if row is None:
                raise SaveError(f"game {game_id} has no move to undo")
            self._db.execute("UPDATE moves SET undone = ? WHERE id = ?", (now, row[0]))
            self._db.execute("UPDATE games SET state = ?, updated = ? WHERE id = ?", (state_json, now, game_id))

    def finish(self, game_id: int, result: dict) -> None:
        result_json = _to_json(result, "result")
        now = self._now()
        with self._writing():
            self._require_in_progress(game_id)
            self._db.execute("UPDATE games SET finished = ?, result = ?, updated = ? WHERE id = ?",
                             (now, result_json, now, game_id))
        log.info("game %d finished: %s", game_id, result_json)

    # --- reading -----------------------------------------------------------------------------------------

    def load(self, game_id: int) -> SavedGame:
        row = self._db.execute("SELECT id, kind, title, state, created, updated, finished, result FROM games "
                               "WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise SaveError(f"there is no saved game number {game_id}")
        moves = self._db.execute("SELECT events FROM moves WHERE game_id = ? AND undone IS NULL ORDER BY id",
                                 (game_id,)).fetchall()
        events = [event for (events_json,) in moves for event in json.loads(events_json)]
        return SavedGame(id=row[0], kind=row[1], title=row[2], state=json.loads(row[3]), events=events,
                         created=row[4], updated=row[5], finished=row[6],
                         result=None if row[7] is None else json.loads(row[7]), moves=len(moves))

    def unfinished(self) -> list[SavedGame]:
        """Games in progress, the most recently played first."""
        return self._games("finished IS NULL")

    def history(self) -> list[SavedGame]:
        """Finished games, newest first."""
        return self._games("finished IS NOT NULL", order="finished DESC, id DESC")

    def _games(self, condition: str, order: str = "updated DESC, id DESC") -> list[SavedGame]:
        ids = self._db.execute(f"SELECT id FROM games WHERE {condition} ORDER BY {order}").fetchall()
        return [self.load(game_id) for (game_id,) in ids]

    def integrity(self) -> str:
        """SQLite's own full check: "ok" or the first problem it found."""
        return self._db.execute("PRAGMA integrity_check").fetchone()[0]

    def close(self) -> None:
        self._db.close()

    def __enter__(self) -> "SaveStore":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- helpers -----------------------------------------------------------------------------------------

    def _require_in_progress(self, game_id: int) -> None:
        row = self._db.execute("SELECT finished FROM games WHERE id = ?", (game_id,)).fetchone()
        if row is None:
            raise SaveError(f"there is no saved game number {game_id}")
        if row[0] is not None:
            raise SaveError(f"game {game_id} is already finished; it can no longer change")

    def _writing(self):
        return _transaction(self._db)


class _transaction:
    """BEGIN IMMEDIATE ... COMMIT, rolled back on any error; sqlite3 errors become SaveError."""

    def __init__(self, db: sqlite3.Connection):
        self._db = db

    def __enter__(self) -> None:
        try:
            self._db.execute("BEGIN IMMEDIATE")
        except sqlite3.Error as error:
            raise SaveError(f"cannot write the saved games: {error}") from None

    def __exit__(self, exc_type, exc, traceback) -> bool:
        if exc_type is None:
            try:
                self._db.execute("COMMIT")
                return False
            except sqlite3.Error as error:
                exc = error
        try:
            self._db.execute("ROLLBACK")
        except sqlite3.Error:
            pass
        if isinstance(exc, sqlite3.Error):
            raise SaveError(f"cannot write the saved games: {exc}") from None
        return False
