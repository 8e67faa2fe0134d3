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

# The powers themselves are text for the players: companion/ui/strings/attic_nemesis_cthulhu.json
# ("cthulhu.power.<key>", en/ru/pl), shown by the portal-powers help screen.
