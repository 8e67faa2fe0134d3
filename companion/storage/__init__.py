"""Saved games and the history of finished ones, in SQLite."""
