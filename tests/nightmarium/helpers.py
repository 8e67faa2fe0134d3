"""Building Nightmarium positions for rules tests from real cards picked by their printed facts."""
from __future__ import annotations

from companion.games.nightmarium import DECK, SEALS, Ability, Card, Game, Legion, Part

LEGS, TORSO, HEAD = Part.LEGS, Part.TORSO, Part.HEAD


class CardBox:
    """Hands out distinct cards by legion, parts and ability: a real deck card when one exists, else a face."""

    def __init__(self):
        self.used: set[int] = set()

    def __call__(self, legion: str, parts: str, ability: str | None = None) -> Card:
        wanted_parts = {Part(p) for p in parts.split("/")}
        wanted_ability = Ability(ability) if ability else None
        for card in DECK:
            if (card.id not in self.used and card.legion is Legion(legion) and set(card.parts) == wanted_parts
                    and card.ability is wanted_ability):
                self.used.add(card.id)
                return card
        return Card.face(legion, [p.value for p in wanted_parts], ability)

    def seal(self, legion: str) -> Card:
        for card in SEALS:
            if card.id not in self.used and card.legion is Legion(legion):
                self.used.add(card.id)
                return card
        raise LookupError(f"no {legion} seal left")

    def filler(self, count: int, legion: str = "brown") -> list[Card]:
        """Plain cards with no ability, for hands and decks whose contents do not matter."""
        return [self(legion, "legs") for _ in range(count)]


def position(players, deck=(), discard=(), active=0, edition="ru2014", target=5, seals=False, observed=False,
             actions_left=2) -> Game:
    """players: list of (name, hand, creatures) where creatures are lists of (card, part) bottom-up."""
    specs = [{"name": name, "hand": list(hand), "creatures": [list(c) for c in creatures]}
             for name, hand, creatures in players]
    return Game.from_position(specs, deck_top_first=list(deck), discard=list(discard), active=active,
                              edition=edition, win_target=target, seals=seals, observed=observed,
                              actions_left=actions_left)


def creature_ids(game: Game, player: int) -> list[int]:
    return [c.id for c in game.players[player].creatures]


def event_types(events) -> list[str]:
    return [event["type"] for event in events]
