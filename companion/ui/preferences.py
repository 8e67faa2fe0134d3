"""What the players chose in Settings and setup: language, default edition, camera, player names.

The GPIO pins belong to the box's configuration (companion.config, edited by whoever wires the box); Settings
only shows them and lets the players test the buttons.

Kept as a small JSON file in the companion's data folder (COMPANION_HOME, default ~/.local/share/companion). A
corrupt or half-written file gives the defaults and a message instead of a crash; writes go through a temporary
file and os.replace so a power cut leaves either the old or the new file.

The defaults come from the configuration's [game] section (`Preferences.from_config`), so an admin's
/etc/companion/config.toml decides the first start; ui.json holds only what the players chose themselves (a value
read from it, or one that differs from the defaults), so a later change to the configuration still reaches every
setting the players never touched.
"""
from __future__ import annotations

import copy
import json
import os
from dataclasses import dataclass, field
from pathlib import Path

LANGUAGES = ("en", "ru", "pl")
EDITION_KEYS = ("ru2014", "pl2017")


def data_home() -> Path:
    return Path(os.environ.get("COMPANION_HOME") or Path.home() / ".local" / "share" / "companion")


@dataclass
class Preferences:
    lang: str = "en"
    edition: str = "ru2014"
    camera: bool = True
    seals: bool = False
    win_target: int = 5
    players: list[str] = field(default_factory=lambda: ["Ann", "Bob", "Cleo"])
    problem: str | None = field(default=None, compare=False)  # why the file could not be read
    # The values ui.json does not override (the configuration's), and the keys the players did choose.
    defaults: "Preferences | None" = field(default=None, compare=False, repr=False)
    chosen: frozenset = field(default=frozenset(), compare=False, repr=False)

    SAVED = ("lang", "edition", "camera", "seals", "win_target", "players")

    @classmethod
    def path(cls) -> Path:
        return data_home() / "ui.json"

    @classmethod
    def from_config(cls, config) -> "Preferences":
        """The defaults an admin set in the configuration's [game] section."""
        game = config.game
        return cls(lang=game.language, edition=game.nightmarium_edition, win_target=game.win_target,
                   seals=game.seals).sanitised()

    @classmethod
    def load(cls, path: Path | None = None, defaults: "Preferences | None" = None) -> "Preferences":
        """ui.json over `defaults` (the configuration's, else the built-in ones)."""
        path = path or cls.path()
        defaults = defaults if defaults is not None else cls()
        base = {key: copy.deepcopy(getattr(defaults, key)) for key in cls.SAVED}
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
            if not isinstance(data, dict):
                raise ValueError("it does not hold a JSON object")
        except FileNotFoundError:
            return cls(**base, defaults=defaults)
        except (OSError, ValueError) as error:
            return cls(**base, defaults=defaults,
                       problem=f"settings file {path} is unreadable ({error}); defaults are used")
        chosen = {key: value for key, value in data.items() if key in cls.SAVED}
        preferences = cls(**{**base, **chosen}, defaults=defaults, chosen=frozenset(chosen))
        return preferences.sanitised()

    def sanitised(self) -> "Preferences":
        defaults = self.defaults if self.defaults is not None else Preferences()
        if self.lang not in LANGUAGES:
            self.lang = defaults.lang
        if self.edition not in EDITION_KEYS:
            self.edition = defaults.edition
        if self.win_target not in (5, 6, 7):
            self.win_target = defaults.win_target
        if not (isinstance(self.players, list) and 2 <= len(self.players) <= 5
                and all(isinstance(name, str) for name in self.players)):
            self.players = defaults.players
        self.camera, self.seals = bool(self.camera), bool(self.seals)
        return self

    def save(self, path: Path | None = None) -> None:
        path = path or self.path()
        path.parent.mkdir(parents=True, exist_ok=True)
        defaults = self.defaults if self.defaults is not None else Preferences()
        data = {key: getattr(self, key) for key in self.SAVED
                if key in self.chosen or getattr(self, key) != getattr(defaults, key)}
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(temporary, path)
        self.chosen = frozenset(data)
