import atexit
import math
import os
import shutil
import tempfile

import pytest
from hypothesis import settings

# The property tests draw the same examples on every run (`make test`, CI): a red run is then a change's doing, never
# a new random draw's (stop 42's CI met a cloth-noise case of the straight-edge test that earlier runs never drew).
# `pytest --hypothesis-profile=explore` draws fresh examples, to look for new failures.
settings.register_profile("repeatable", derandomize=True)
settings.register_profile("explore", derandomize=False)
settings.load_profile("repeatable")

# No display or sound card on CI machines: every pygame test runs headless.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")

# No test may read or write the real user's settings, saved games, configuration or taught vision model:
# everything that defaults to a place under the home directory goes to a fresh temporary one.
os.environ["HOME"] = tempfile.mkdtemp(prefix="companion-tests-home-")
atexit.register(shutil.rmtree, os.environ["HOME"], ignore_errors=True)  # one per run would pile up in /tmp
for variable in ("XDG_CONFIG_HOME", "XDG_DATA_HOME", "XDG_STATE_HOME", "STATE_DIRECTORY", "COMPANION_CONFIG",
                 "COMPANION_HOME", "COMPANION_VISION_PARAMS", "COMPANION_LENS", "COMPANION_PHOTOS",
                 "COMPANION_GAME_DATA_DIR", "NOTIFY_SOCKET"):
    os.environ.pop(variable, None)


@pytest.fixture
def card_of_length():
    """Makes a card as the recogniser reports it (a SeenCard), `length` px long, landscape in the scans' proportions,
    its top-left corner at (x, y), turned `angle` degrees: the cards' size in a picture, for vision.framing's users."""
    from vision.table_state import SeenCard

    def make(length: float, x: float = 500.0, y: float = 400.0, angle: float = 0.0) -> SeenCard:
        depth = length / 1.557
        c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
        corners = tuple((x + px * c - py * s, y + px * s + py * c)
                        for px, py in ((0, 0), (length, 0), (length, depth), (0, depth)))
        return SeenCard(legion="blue", parts=("torso",), ability=None, corners=corners, confidence=0.97)

    return make
