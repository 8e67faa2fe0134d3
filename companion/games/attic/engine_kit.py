"""What every board-game engine of issue 5 shares: an event log with undo, rule errors, editable data files.

The three engines (Attic Monster, Nemesis: Nightmares, Cthulhu: Pocket Madness) keep their whole state as a
JSON-friendly dict. Undo stores the state as it was before each move, so `pop()` restores it exactly and the
history survives a save and a restart along with the state.
"""
from __future__ import annotations

import copy
import os
import tomllib
from pathlib import Path
from typing import Any

# A user who owns the physical game can correct a data file by dropping an edited copy here.
DATA_DIR_ENV = "COMPANION_GAME_DATA_DIR"


class IllegalMove(ValueError):
    """A move the rules forbid in the current state. The message is written for the players."""


class DataFileError(ValueError):
    """An editable data file is missing, unreadable or inconsistent. The message names the file and the fix."""


class Journal:
    """The event log of one game and, for each event, the state just before it (the undo stack)."""

    def __init__(self, events: list[dict] | None = None, before: list[dict] | None = None):
        self.events: list[dict] = list(events or [])
        self._before: list[dict] = list(before or [])
        if len(self.events) != len(self._before):
            raise DataFileError("saved game: the event log and the undo history have different lengths")

    def record(self, state_before: dict, event: dict) -> dict:
        self._before.append(copy.deepcopy(state_before))
        self.events.append(copy.deepcopy(event))
        return event

    def pop(self) -> tuple[dict, dict]:
        if not self.events:
            raise IllegalMove("Nothing to undo.")
        return self._before.pop(), self.events.pop()

    def __len__(self) -> int:
        return len(self.events)

    def to_json(self) -> dict:
        return {"events": copy.deepcopy(self.events), "before": copy.deepcopy(self._before)}

    @classmethod
    def from_json(cls, data: dict | None) -> "Journal":
        data = data or {}
        return cls(data.get("events", []), data.get("before", []))


class JournaledEngine:
    """Base for an engine whose rule state is a dict in `self.state`; moves go through `_apply`."""

    def __init__(self, state: dict, journal: Journal | None = None):
        self.state = state
        self.journal = journal or Journal()

    @property
    def events(self) -> list[dict]:
        return self.journal.events

    def _apply(self, event: dict, change) -> dict:
        """Run `change(state)` on a copy; commit it and log `event` only if no rule error was raised."""
        draft = copy.deepcopy(self.state)
        outcome = change(draft)
        if outcome:
            event = {**event, **outcome}
        self.journal.record(self.state, event)
        self.state = draft
        return event

    def pop(self) -> dict:
        """Undo the last move; returns the event that was undone."""
        before, event = self.journal.pop()
        self.state = before
        return event

    def to_json(self) -> dict:
        return {"state": copy.deepcopy(self.state), "journal": self.journal.to_json()}


def read_data_file(package_dir: Path, name: str) -> tuple[dict[str, Any], Path]:
    """Load a TOML data file: the user's edited copy in $COMPANION_GAME_DATA_DIR if present, else the default."""
    override_dir = os.environ.get(DATA_DIR_ENV)
    path = package_dir / "data" / name
    if override_dir and (Path(override_dir) / name).is_file():
        path = Path(override_dir) / name
    try:
        with path.open("rb") as handle:
            return tomllib.load(handle), path
    except FileNotFoundError:
        raise DataFileError(f"{path}: data file not found") from None
    except (tomllib.TOMLDecodeError, UnicodeDecodeError) as error:
        raise DataFileError(f"{path}: not valid TOML ({error}); fix the file or delete your edited copy") from None
