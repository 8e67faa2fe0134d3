"""Nightmarium screens: setup, live table, ability chain, win."""
