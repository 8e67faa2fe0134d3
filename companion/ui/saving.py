"""The app's view of saved games: record every action, resume the unfinished game, list finished ones.

The real store is the Pi engineer's `companion.storage.saves.SaveStore` (SQLite, power-cut proof); `open_store()`
wraps it when it exists. `MemorySaves` keeps the same promises in memory for screenshots, tests and machines
where the store cannot be opened.
"""
from __future__ import annotations

import copy
import logging
import time

log = logging.getLogger(__name__)


class MemorySaves:
    def __init__(self):
        self.games: dict[str, dict] = {}  # game_id -> {"game": key, "actions": [...], "state": {...}, ...}

    def record(self, game_key: str, game_id: str, action: dict, state: dict, finished: bool = False) -> None:
        entry = self.games.setdefault(game_id, {"game": game_key, "id": game_id, "actions": [],
                                                "started": time.time()})
        entry["actions"].append(copy.deepcopy(action))
        entry["state"] = copy.deepcopy(state)
        entry["finished"] = finished
        entry["updated"] = time.time()

    def resume(self, game_key: str) -> tuple[str, dict] | None:
        unfinished = [entry for entry in self.games.values() if entry["game"] == game_key and not entry["finished"]]
        if not unfinished:
            return None
        latest = max(unfinished, key=lambda entry: entry["updated"])
        return latest["id"], copy.deepcopy(latest["state"])

    def finished_games(self) -> list[dict]:
        done = [entry for entry in self.games.values() if entry["finished"]]
        return [{"game": entry["game"], "id": entry["id"], "when": entry["updated"], "state": entry["state"]}
                for entry in sorted(done, key=lambda entry: -entry["updated"])]


def open_store():
    """The persistent store when the storage module is available and usable, else memory (with a log line)."""
    try:
        from companion.ui.storage_adapter import SaveStoreAdapter
        return SaveStoreAdapter.open_default()
    except Exception as error:  # no store module yet, unwritable disk...: keep playing, say so in the log
        log.warning("saves kept in memory only: %s", error)
        return MemorySaves()
