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

from companion.games.errors import IllegalMove  # noqa: F401  (re-exported for the engines)

# A user who owns the physical game can correct a data file by dropping an edited copy here.
DATA_DIR_ENV = "COMPANION_GAME_DATA_DIR"



class DataFileError(ValueError):
    """An editable data file is missing, unreadable or inconsistent. The message names the file and the fix."""


class SavedGameError(ValueError):
    """A saved game that cannot be resumed (half-written, from another version, edited by hand)."""


def saved_state(data, required: tuple[str, ...]) -> dict:
    """The rule state inside a saved game, checked for every key the engine needs before it is trusted."""
    state = data.get("state") if isinstance(data, dict) else None
    if not isinstance(state, dict):
        raise SavedGameError("the saved game has no state")
    missing = [key for key in required if key not in state]
    if missing:
        raise SavedGameError(f"the saved game lacks {', '.join(missing)}")
    return state


class Journal:
    """The event log of one game and, for the most recent events, the state just before each (the undo stack).

    Only the last UNDO_DEPTH states are kept: the whole journal is saved after every move, and a long game
    must not write ever-growing snapshots to the Pi's SD card. The event log itself is kept whole.
    """

    UNDO_DEPTH = 50

    def __init__(self, events: list[dict] | None = None, before: list[dict] | None = None):
        self.events: list[dict] = list(events or [])
        self._before: list[dict] = list(before or [])
        if len(self._before) > len(self.events):
            raise SavedGameError("the saved game's undo history is longer than its event log")

    def record(self, state_before: dict, event: dict) -> dict:
        self._before.append(copy.deepcopy(state_before))
        del self._before[:-self.UNDO_DEPTH]
        self.events.append(copy.deepcopy(event))
        return event

    def pop(self) -> tuple[dict, dict]:
        if not self.events:
            raise IllegalMove("Nothing to undo.")
        if not self._before:
            raise IllegalMove(f"Only the last {self.UNDO_DEPTH} moves can be undone.")
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
