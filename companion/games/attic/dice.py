"""The two Attic Monster dice: their symbols, their faces (an editable data file) and a fair roll."""
from __future__ import annotations

from pathlib import Path

from companion.games.common.engine import DataFileError, read_data_file

# Rulebook 003 "Символы на кубиках": five symbols. Only the cross does nothing; in the fight it is the miss.
SYMBOLS = ("cross", "flip", "step_or_flip", "flip_any", "step")
MISS = "cross"
# Symbols that can carry a ghost into the mansion (rulebook 003, "Как попасть в особняк"; RULES.md 3.5).
MOVEMENT_SYMBOLS = ("step", "step_or_flip")

Dice = tuple[tuple[str, ...], ...]


def load_dice(package_dir: Path | None = None) -> Dice:
    """The faces of each die from dice.toml, checked so a typo cannot silently change the odds."""
    data, path = read_data_file(package_dir or Path(__file__).parent, "dice.toml")
    dice = data.get("die")
    if not isinstance(dice, list) or len(dice) != 2:
        raise DataFileError(f"{path}: expected exactly two [[die]] tables, one per die")
    checked = []
    for number, die in enumerate(dice, start=1):
        faces = die.get("faces") if isinstance(die, dict) else None
        if not isinstance(faces, list) or not faces:
            raise DataFileError(f"{path}: die {number} needs a non-empty 'faces' list")
        unknown = sorted({face for face in faces if face not in SYMBOLS})
        if unknown:
            raise DataFileError(f"{path}: die {number} has unknown symbols {unknown}; use {list(SYMBOLS)}")
        checked.append(tuple(faces))
    return tuple(checked)


def roll(dice: Dice, rng) -> tuple[str, ...]:
    """One face per die, each face equally likely (the physical die has no favourite side)."""
    return tuple(rng.choice(faces) for faces in dice)


def hits(faces) -> int:
    """Rulebook 003, fight step 3: every die that does not show the cross removes one point of strength."""
    return sum(1 for face in faces if face != MISS)
