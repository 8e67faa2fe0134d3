"""The printed editions as rule variants (in the manner of python-chess's variants).

Each edition is a small subclass that states how its rulebook differs; the engine asks the edition, never the
edition's name. See the README's table of differences.
"""
from __future__ import annotations


class Edition:
    key = "base"
    title = "Nightmarium"
    #: Discard-and-draw: you draw half the number discarded, rounded this way.
    discard_draw_rounding = "down"
    #: When a player with enough complete creatures wins: "end_of_turn" or "immediate".
    win_timing = "end_of_turn"
    #: Whether the advanced seal rules exist in this edition.
    has_seals = False
    #: "on_demand": the discard pile is reshuffled when a card is needed and the deck is empty;
    #: "when_empty": as soon as a draw takes the deck's last card.
    reshuffle = "on_demand"

    @classmethod
    def cards_for_discard(cls, discarded: int) -> int:
        if cls.discard_draw_rounding == "up":
            return (discarded + 1) // 2
        return discarded // 2


class Russian2014(Edition):
    """Кошмариум, Magellan 2014: round down (5 -> 2), win checked at the end of the turn, seals as advanced rules."""

    key = "ru2014"
    title = "Кошмариум (RU 2014)"
    discard_draw_rounding = "down"
    win_timing = "end_of_turn"
    has_seals = True
    reshuffle = "on_demand"


class Polish2017(Edition):
    """Koszmarium, Foxgames 2017: round up (5 -> 3), the win is immediate, reshuffle as the last tile is drawn."""

    key = "pl2017"
    title = "Koszmarium (PL 2017)"
    discard_draw_rounding = "up"
    win_timing = "immediate"
    has_seals = False
    reshuffle = "when_empty"


EDITIONS: dict[str, type[Edition]] = {edition.key: edition for edition in (Russian2014, Polish2017)}
WIN_TARGETS = (5, 6, 7)
