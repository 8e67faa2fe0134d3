"""Where the recogniser keeps what was made on this machine for its user: the taught recogniser, the lens measured,
the pictures kept. Each under ~/.local/share/tabletop-companion unless its own environment variable names a place."""
from __future__ import annotations

import os
from pathlib import Path


def user_path(name: str, variable: str) -> Path:
    """$`variable` where set, else `name` in the user's tabletop-companion data folder."""
    override = os.environ.get(variable)
    return Path(override) if override else Path.home() / ".local" / "share" / "tabletop-companion" / name
