"""The editable Nemesis: Nightmares data (token numbers, spawn table, figures, colours), checked on load."""
from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from companion.games.common.engine import DataFileError, read_data_file

# Seed 004 "Фигурки"/RULES.md 4.1: the fallback order when a figure is missing (rank 1 lowest).
NIGHTMARE_TYPES = ("lurking", "whispering", "stalking", "oppressive")
NIGHTMARE_TOKENS = 16  # seed 004 components: 17 intruder tokens = 1 blank + 16 nightmares
MADNESS_LEVELS = (1, 2, 3, 4, 5)


@dataclass(frozen=True)
class NightmaresData:
    token_numbers: tuple[int, ...]
    spawn_by_level: dict[int, str]
    figures: dict[str, int]
    colours: tuple[str, ...]

    def to_json(self) -> dict:
        return {"token_numbers": list(self.token_numbers),
                "spawn_by_level": {str(level): kind for level, kind in self.spawn_by_level.items()},
                "figures": dict(self.figures), "colours": list(self.colours)}

    @classmethod
    def from_json(cls, data: dict) -> "NightmaresData":
        return cls(tuple(data["token_numbers"]), {int(k): v for k, v in data["spawn_by_level"].items()},
                   dict(data["figures"]), tuple(data["colours"]))


def load_nightmares_data(package_dir: Path | None = None) -> NightmaresData:
    data, path = read_data_file(package_dir or Path(__file__).parent, "nightmares.toml")
    numbers = data.get("token_numbers")
    if (not isinstance(numbers, list) or len(numbers) != NIGHTMARE_TOKENS
            or not all(isinstance(n, int) and not isinstance(n, bool) and n >= 0 for n in numbers)):
        raise DataFileError(f"{path}: token_numbers must list {NIGHTMARE_TOKENS} whole numbers >= 0")
    spawn = data.get("spawn_by_level", {})
    try:
        spawn_by_level = {int(level): kind for level, kind in spawn.items()}
    except (AttributeError, ValueError):
        raise DataFileError(f"{path}: spawn_by_level keys must be the levels 1 to 5") from None
    if sorted(spawn_by_level) != list(MADNESS_LEVELS) or not set(spawn_by_level.values()) <= set(NIGHTMARE_TYPES):
        raise DataFileError(f"{path}: spawn_by_level needs levels 1-5, each one of {list(NIGHTMARE_TYPES)}")
    figures = data.get("figures", {})
    if (not isinstance(figures, dict) or sorted(figures) != sorted(NIGHTMARE_TYPES)
            or not all(isinstance(n, int) and n >= 0 for n in figures.values())):
        raise DataFileError(f"{path}: [figures] needs a count >= 0 for each of {list(NIGHTMARE_TYPES)}")
    colours = data.get("colours", {}).get("names")
    if not isinstance(colours, list) or not colours or len(set(colours)) != len(colours):
        raise DataFileError(f"{path}: [colours] names must be a list of distinct colour names")
    return NightmaresData(tuple(numbers), spawn_by_level, dict(figures), tuple(colours))
