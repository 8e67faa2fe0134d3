"""Registries: named screens (for `companion screenshot` and the tests) and the games the launcher lists.

`register_screen(name, factory)`: factory(app) -> Scene, built with representative state.
`register_game(key, title_key, start_factory)`: the launcher shows the game under t(title_key) and opens
start_factory(app) when touched. A game with no start factory yet is listed as "coming soon".
"""
from __future__ import annotations

import importlib
import logging
import pkgutil
from dataclasses import dataclass
from typing import Callable

log = logging.getLogger(__name__)

# The launcher's order; the games' own modules fill in the factories.
GAME_ORDER = ("nightmarium", "attic-monster", "nemesis-nightmares", "cthulhu-pocket-madness")


@dataclass(frozen=True)
class GameEntry:
    key: str
    title_key: str
    start_factory: Callable | None


_SCREENS: dict[str, Callable] = {}
_GAMES: dict[str, GameEntry] = {key: GameEntry(key, f"game.{key}", None) for key in GAME_ORDER}
_loaded = False

# Modules that register screens; the other games' package is discovered below.
SCREEN_MODULES = (
    "companion.ui.launcher",
    "companion.ui.settings",
    "companion.ui.calibration",
    "companion.ui.lens",
    "companion.ui.history",
    "companion.ui.nightmarium",
)


def register_screen(name: str, factory: Callable) -> None:
    _SCREENS[name] = factory


def register_game(key: str, title_key: str, start_factory: Callable | None) -> None:
    _GAMES[key] = GameEntry(key, title_key, start_factory)


def load_all() -> None:
    """Import every module that registers screens (once)."""
    global _loaded
    if _loaded:
        return
    _loaded = True
    for name in SCREEN_MODULES:
        importlib.import_module(name)
    try:
        games_package = importlib.import_module("companion.ui.games")
    except ModuleNotFoundError:
        return
    for module in pkgutil.walk_packages(games_package.__path__, "companion.ui.games."):
        try:
            importlib.import_module(module.name)
        except Exception as error:  # one game's broken screen must not take the launcher down
            log.error("could not load %s: %s", module.name, error)


def screen_names() -> list[str]:
    load_all()
    return sorted(_SCREENS)


def screen_factory(name: str) -> Callable:
    load_all()
    return _SCREENS[name]


def games() -> list[GameEntry]:
    load_all()
    ordered = [_GAMES[key] for key in GAME_ORDER if key in _GAMES]
    return ordered + [entry for key, entry in _GAMES.items() if key not in GAME_ORDER]
