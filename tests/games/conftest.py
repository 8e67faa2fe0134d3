"""Headless test set-up for the issue-5 games (Attic Monster, Nemesis: Nightmares, Cthulhu: Pocket Madness)."""
import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
