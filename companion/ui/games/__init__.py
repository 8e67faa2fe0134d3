"""Screens of the games that plug into the launcher: Attic Monster, Nemesis: Nightmares, Cthulhu: Pocket Madness."""
