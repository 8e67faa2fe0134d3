"""What the players chose in Settings and setup: language, default edition, camera, player names.

The GPIO pins belong to the box's configuration (companion.config, edited by whoever wires the box); Settings
only shows them and lets the players test the buttons.

Kept as a small JSON file in the companion's data folder (COMPANION_HOME, default ~/.local/share/companion). A
corrupt or half-written file gives the defaults and a message instead of a crash; writes go through a temporary
file and os.replace so a power cut leaves either the old or the new file.
"""
from __future__ import annotations

import json
import os
from dataclasses import asdict, dataclass, field, fields
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

    @classmethod
    def path(cls) -> Path:
        return data_home() / "ui.json"

    @classmethod
    def load(cls, path: Path | None = None) -> "Preferences":
        path = path or cls.path()
        try:
            data = json.loads(path.read_text(encoding="utf-8"))
        except FileNotFoundError:
            return cls()
        except (OSError, ValueError) as error:
            return cls(problem=f"settings file {path} is unreadable ({error}); defaults are used")
        known = {f.name for f in fields(cls)} - {"problem"}
        preferences = cls(**{key: value for key, value in data.items() if key in known})
        return preferences.sanitised()

    def sanitised(self) -> "Preferences":
        defaults = Preferences()
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
        data = asdict(self)
        data.pop("problem")
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(data, ensure_ascii=False, indent=1), encoding="utf-8")
        os.replace(temporary, path)
