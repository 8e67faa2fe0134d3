"""Moves: the player's actions, and the answers to the engine's prompts. Immutable and JSON-friendly."""
from __future__ import annotations

from dataclasses import dataclass, fields

from .cards import Card, Part, card_from_json


@dataclass(frozen=True, slots=True)
class Move:
    kind = "move"
    is_action = False

    def to_json(self) -> dict:
        data = {"kind": self.kind}
        for field in fields(self):
            value = getattr(self, field.name)
            if isinstance(value, Card):
                value = value.to_json()
            elif isinstance(value, tuple):
                value = [card.to_json() for card in value]
            elif isinstance(value, Part):
                value = value.value
            data[field.name] = value
        return data


# --- the three actions of a turn (A draw, B discard-and-draw, C play; a seal is a play in the RU advanced rules)

@dataclass(frozen=True, slots=True)
class Draw(Move):
    kind = "draw"
    is_action = True


@dataclass(frozen=True, slots=True)
class DiscardDraw(Move):
    cards: tuple[Card, ...]
    kind = "discard_draw"
    is_action = True


@dataclass(frozen=True, slots=True)
class Play(Move):
    """Play a card from hand; creature_id None starts a new creature (the card must be legs)."""

    card: Card
    creature_id: int | None
    part: Part
    kind = "play"
    is_action = True


@dataclass(frozen=True, slots=True)
class PlaySeal(Move):
    card: Card
    creature_id: int
    kind = "play_seal"
    is_action = True


# --- answers to prompts

@dataclass(frozen=True, slots=True)
class Discard(Move):
    """An opponent's pure-legion penalty discard."""

    player: int
    cards: tuple[Card, ...]
    kind = "discard"


@dataclass(frozen=True, slots=True)
class Place(Move):
    """Jester (a card from hand) or Herald (a revealed card) places a card by the placement rules."""

    card: Card
    creature_id: int | None
    part: Part
    kind = "place"


@dataclass(frozen=True, slots=True)
class PlaceSeal(Move):
    card: Card
    creature_id: int
    kind = "place_seal"


@dataclass(frozen=True, slots=True)
class DiscardRevealed(Move):
    """Herald: a revealed card with no legal position goes to the discard pile."""

    card: Card
    kind = "discard_revealed"


@dataclass(frozen=True, slots=True)
class Target(Move):
    """Executioner, Scavenger or Devourer: the creature it acts on."""

    creature_id: int
    kind = "target"


@dataclass(frozen=True, slots=True)
class Order(Move):
    """Two creatures were completed at once (by Herald): this one resolves first."""

    creature_id: int
    kind = "order"


@dataclass(frozen=True, slots=True)
class Reveal(Move):
    """Observed mode: the faces of the cards Herald turned over."""

    cards: tuple[Card, ...]
    kind = "reveal"


@dataclass(frozen=True, slots=True)
class CannotPerform(Move):
    """Observed mode: the players declare that the Jester has no card it can play (their hands are hidden)."""

    kind = "cannot_perform"


@dataclass(frozen=True, slots=True)
class Replay(Move):
    """RU advanced rules: after sealing, whether to replay the abilities of the seal's legion ("вы можете")."""

    accept: bool
    kind = "replay"


MOVE_TYPES = {cls.kind: cls for cls in (Draw, DiscardDraw, Play, PlaySeal, Discard, Place, PlaceSeal,
                                        DiscardRevealed, Target, Order, Reveal, CannotPerform, Replay)}


def move_from_json(data: dict) -> Move:
    cls = MOVE_TYPES[data["kind"]]
    values = {}
    for field in fields(cls):
        value = data[field.name]
        if field.name == "card":
            value = card_from_json(value)
        elif field.name == "cards":
            value = tuple(card_from_json(card) for card in value)
        elif field.name == "part":
            value = Part(value)
        values[field.name] = value
    return cls(**values)
