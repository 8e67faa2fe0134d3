import os
import tempfile

# Headless pygame, and Settings written to a throw-away folder instead of the user's home.
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["COMPANION_HOME"] = tempfile.mkdtemp(prefix="companion-ui-tests-")
