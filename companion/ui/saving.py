"""Where the app keeps games: the Pi engineer's SaveStore (SQLite, power-cut proof) or, when it cannot be opened,
a MemorySaves with the same methods so the game goes on (and the screen says saving is off).

Both offer: new_game(kind, title, state) -> id, record(id, move, state, events), undo_last(id, state),
finish(id, result), unfinished(), history().
"""
from __future__ import annotations

import copy
import logging
from datetime import datetime, timezone

from companion.storage.saves import SavedGame, SaveError, SaveStore

log = logging.getLogger(__name__)


def _now() -> str:
    return datetime.now(timezone.utc).isoformat(timespec="seconds")


class MemorySaves:
    """SaveStore's interface kept in memory: for screenshots, tests, and a disk that refuses writes."""

    def __init__(self):
        self._games: dict[int, dict] = {}

    def new_game(self, kind: str, title: str, state: dict) -> int:
        game_id = len(self._games) + 1
        now = _now()
        self._games[game_id] = {"kind": kind, "title": title, "state": copy.deepcopy(state), "moves": [],
                                "created": now, "updated": now, "finished": None, "result": None}
        return game_id

    def _game(self, game_id: int, in_progress: bool = True) -> dict:
        game = self._games.get(game_id)
        if game is None:
            raise SaveError(f"there is no saved game number {game_id}")
        if in_progress and game["finished"] is not None:
            raise SaveError(f"game {game_id} is already finished")
        return game

    def record(self, game_id: int, move: dict | None, state: dict, events: list[dict]) -> None:
        game = self._game(game_id)
        game["moves"].append({"move": copy.deepcopy(move), "events": copy.deepcopy(list(events)), "undone": False})
        game["state"], game["updated"] = copy.deepcopy(state), _now()

    def undo_last(self, game_id: int, state: dict) -> None:
        game = self._game(game_id)
        live = [move for move in game["moves"] if not move["undone"]]
        if not live:
            raise SaveError(f"game {game_id} has no move to undo")
        live[-1]["undone"] = True
        game["state"], game["updated"] = copy.deepcopy(state), _now()

    def finish(self, game_id: int, result: dict) -> None:
        game = self._game(game_id)
        game["finished"], game["result"], game["updated"] = _now(), copy.deepcopy(result), _now()

    def load(self, game_id: int) -> SavedGame:
        game = self._game(game_id, in_progress=False)
        live = [move for move in game["moves"] if not move["undone"]]
        return SavedGame(id=game_id, kind=game["kind"], title=game["title"], state=copy.deepcopy(game["state"]),
                         events=[event for move in live for event in move["events"]], created=game["created"],
                         updated=game["updated"], finished=game["finished"], result=copy.deepcopy(game["result"]),
                         moves=len(live))

    def unfinished(self) -> list[SavedGame]:
        games = [self.load(i) for i, game in self._games.items() if game["finished"] is None]
        return sorted(games, key=lambda game: (game.updated, game.id), reverse=True)

    def history(self) -> list[SavedGame]:
        games = [self.load(i) for i, game in self._games.items() if game["finished"] is not None]
        return sorted(games, key=lambda game: (game.finished, game.id), reverse=True)


def open_store(path=None):
    """The SQLite store at `path` (default: from the configuration), or MemorySaves and the reason it is used."""
    try:
        if path is None:
            from companion.config import load_config

            path = load_config().storage.path
        return SaveStore(path), None
    except Exception as error:  # a corrupt config or an unwritable disk: play on, unsaved, and say so
        log.warning("saves kept in memory only: %s", error)
        return MemorySaves(), f"games are not saved: {error}"
