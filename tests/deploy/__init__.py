"""Tests of the Pi side (issue 6): configuration, saved games, hardware, systemd, wiring, install."""
