import atexit
import os
import shutil
import tempfile

# Headless pygame, and Settings written to a throw-away folder instead of the user's home, removed when the run ends
# (each run used to leave one behind in /tmp).
os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
os.environ["COMPANION_HOME"] = tempfile.mkdtemp(prefix="companion-ui-tests-")
atexit.register(shutil.rmtree, os.environ["COMPANION_HOME"], ignore_errors=True)
