"""Colours and fonts shared by every screen.

The font must cover Cyrillic and Polish letters: DejaVu Sans (Debian/Raspberry Pi OS package fonts-dejavu-core) is
preferred; pygame's bundled FreeSans Bold (GNU FreeFont, GPL with font exception) also covers both and is the
fallback, so no font file is shipped with the package. COMPANION_FONT overrides the choice.
"""
from __future__ import annotations

import os
from functools import lru_cache
from pathlib import Path

BACKGROUND = (24, 22, 30)
PANEL = (40, 37, 50)
PANEL_LIGHT = (58, 54, 72)
TEXT = (236, 232, 224)
TEXT_DIM = (160, 154, 170)
ACCENT = (232, 176, 64)
BUTTON = (72, 66, 92)
BUTTON_PRESSED = (104, 96, 132)
BUTTON_DISABLED = (48, 45, 58)
BUTTON_PRIMARY = (156, 92, 36)
WARNING = (214, 78, 60)
GOOD = (92, 176, 96)
FOCUS = (250, 214, 120)

LEGION_COLOURS = {
    "blue": (58, 110, 196),
    "red": (196, 56, 56),
    "brown": (138, 94, 52),
    "green": (70, 150, 72),
}
SEAL_RIM = (230, 200, 90)

FONT_CANDIDATES = (
    "/usr/share/fonts/truetype/dejavu/DejaVuSans{bold}.ttf",
    "/usr/share/fonts/dejavu/DejaVuSans{bold}.ttf",
)


@lru_cache(maxsize=None)
def font_path(bold: bool = False) -> str | None:
    """The TTF to use, or None for pygame's bundled font."""
    override = os.environ.get("COMPANION_FONT")
    if override and Path(override).is_file():
        return override
    suffix = "-Bold" if bold else ""
    for candidate in FONT_CANDIDATES:
        path = Path(candidate.format(bold=suffix))
        if path.is_file():
            return str(path)
    return None


_fonts: dict = {}


def font(size: int, bold: bool = False):
    """A cached Font; the cache is emptied when pygame quits (its fonts die with it)."""
    import pygame

    if not _fonts:
        pygame.register_quit(_fonts.clear)  # once per filling of the cache
    if not pygame.font.get_init():
        pygame.font.init()
    key = (max(8, int(size)), bold)
    if key not in _fonts:
        _fonts[key] = pygame.font.Font(font_path(bold), key[0])
    return _fonts[key]
