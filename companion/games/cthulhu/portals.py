"""The seven portals of Cthulhu: Pocket Madness (seed 002 "Карты порталов", RULES.md 2.5)."""
from __future__ import annotations

# number -> (key for strings/screens, the location whose set claims it; RULES.md 2.1, linked by number)
PORTALS = {
    12: ("gug", "other_world"),
    11: ("shoggoth", "dunwich"),
    10: ("nyarlathotep", "valley_of_kings"),
    9: ("dagon", "innsmouth"),
    8: ("shub_niggurath", "lomar"),
    7: ("azathoth", "arkham"),
    6: ("cthulhu", "rlyeh"),
}
GUG, SHOGGOTH, DAGON = 12, 11, 9

POWERS_EN = {
    12: "Skip your turn. Not on the turn you claimed it.",
    11: "Until your next turn, every opponent may only research exactly 1 card.",
    10: "Take any one card from the line, wherever it lies, even face down.",
    9: "Take another complete turn at once: one main action, and you may close another portal.",
    8: "Look at one opponent's hand and take any one card from it.",
    7: "Discard 1 random card from each opponent's hand, face up.",
    6: "Give away 1 or 2 cards: 1 to one opponent, 1 to each of two, or 2 to one.",
}
