"""Nightmarium's cards: legions, body parts, abilities, and the deck shipped as data."""
from __future__ import annotations

import json
from dataclasses import dataclass
from enum import Enum
from importlib import resources


class Legion(str, Enum):
    BLUE = "blue"    # Necronauts / Nekronauci / некромункулы
    RED = "red"      # Homunculi / Homunkulusy
    BROWN = "brown"  # Insektoids / Insektoidy
    GREEN = "green"  # Chimeridae / Chimery / химериды

    def __str__(self) -> str:
        return self.value


class Part(str, Enum):
    """Body positions, in the bottom-up order a creature is built."""

    LEGS = "legs"
    TORSO = "torso"
    HEAD = "head"

    def __str__(self) -> str:
        return self.value

    @property
    def height(self) -> int:
        """How many cards a creature holds below this position."""
        return _HEIGHT[self]


_HEIGHT = {Part.LEGS: 0, Part.TORSO: 1, Part.HEAD: 2}
PARTS_BOTTOM_UP = (Part.LEGS, Part.TORSO, Part.HEAD)


class Ability(str, Enum):
    HERALD = "herald"            # RU Певчий, PL Posłaniec
    MOURNER = "mourner"          # RU Плакальщик, PL Żałobnik
    JESTER = "jester"            # RU Пересмешник, PL Błazen
    EXECUTIONER = "executioner"  # RU Палач, PL Siepacz
    SCAVENGER = "scavenger"      # RU Падальщик, PL Szabrownik
    DEVOURER = "devourer"        # RU Пожиратель, PL Kąsacz

    def __str__(self) -> str:
        return self.value


@dataclass(frozen=True, slots=True)
class Card:
    """A fear card or a seal. `id` is None for a card known only by its face (what the camera saw)."""

    id: int | None
    legion: Legion
    parts: tuple[Part, ...] = ()
    ability: Ability | None = None
    is_seal: bool = False
    verified: bool = True

    @classmethod
    def face(cls, legion: str, parts=(), ability: str | None = None, is_seal: bool = False) -> "Card":
        ordered = tuple(part for part in PARTS_BOTTOM_UP if part in {Part(p) for p in parts})
        return cls(None, Legion(legion), ordered, Ability(ability) if ability else None, is_seal)

    def same_face(self, other: "Card") -> bool:
        return (self.legion, self.parts, self.ability, self.is_seal) == (
            other.legion, other.parts, other.ability, other.is_seal)

    def as_face(self) -> "Card":
        return Card(None, self.legion, self.parts, self.ability, self.is_seal)

    def to_json(self):
        if self.id is not None:
            return self.id
        data = {"legion": self.legion.value, "parts": [p.value for p in self.parts],
                "ability": self.ability.value if self.ability else None}
        if self.is_seal:
            data["seal"] = True
        return data

    def describe(self) -> str:
        if self.is_seal:
            return f"{self.legion} seal"
        parts = "/".join(p.value for p in self.parts)
        ability = f" {self.ability}" if self.ability else ""
        number = f"#{self.id} " if self.id is not None else ""
        return f"{number}{self.legion} {parts}{ability}"

    def __repr__(self) -> str:
        return f"Card({self.describe()})"


def _load() -> tuple[tuple[Card, ...], tuple[Card, ...]]:
    data = json.loads(resources.files(__package__).joinpath("data/cards.json").read_text(encoding="utf-8"))
    fear = tuple(
        Card(entry["id"], Legion(entry["legion"]), tuple(Part(p) for p in PARTS_BOTTOM_UP if p in entry["parts"]),
             Ability(entry["ability"]) if entry["ability"] else None, False, entry.get("verified", True))
        for entry in data["cards"])
    seals = tuple(Card(entry["id"], Legion(entry["legion"]), (), None, True) for entry in data["seals"])
    return fear, seals


DECK, SEALS = _load()
CARDS_BY_ID: dict[int, Card] = {card.id: card for card in DECK + SEALS}


def card_from_json(data) -> Card | None:
    """Inverse of Card.to_json; None stands for a hidden card."""
    if data is None:
        return None
    if isinstance(data, int):
        return CARDS_BY_ID[data]
    return Card.face(data["legion"], data.get("parts", ()), data.get("ability"), bool(data.get("seal")))
