"""What the camera hands to the referee: the cards it sees, grouped by seat and creature.

This is the contract between the vision pipeline (which produces `TableState`s once they are stable) and the
referee (which turns the difference between two stable states into engine moves). Plain data, JSON-friendly.
"""
from __future__ import annotations

from dataclasses import dataclass, field

LEGIONS = ("blue", "red", "brown", "green")
PARTS = ("legs", "torso", "head")
ABILITIES = ("herald", "mourner", "jester", "executioner", "scavenger", "devourer")


@dataclass(frozen=True)
class SeenCard:
    """One card as recognised: its printed facts, where it lies, and how sure the recogniser is."""

    legion: str
    parts: tuple[str, ...]
    ability: str | None
    corners: tuple[tuple[float, float], ...] = ()
    confidence: float = 1.0
    seat: int | None = None
    creature: int | None = None  # index of the creature within its seat, in the seat's left-to-right order
    slot: str | None = None  # "legs" | "torso" | "head": the position the card occupies in its creature

    def to_json(self) -> dict:
        data = {
            "legion": self.legion,
            "parts": list(self.parts),
            "ability": self.ability,
            "corners": [list(point) for point in self.corners],
            "confidence": round(float(self.confidence), 4),
        }
        if self.seat is not None:
            data.update(seat=self.seat, creature=self.creature, slot=self.slot)
        return data

    @classmethod
    def from_json(cls, data: dict) -> "SeenCard":
        return cls(
            legion=data["legion"],
            parts=tuple(data["parts"]),
            ability=data.get("ability"),
            corners=tuple(tuple(point) for point in data.get("corners", ())),
            confidence=float(data.get("confidence", 1.0)),
            seat=data.get("seat"),
            creature=data.get("creature"),
            slot=data.get("slot"),
        )


@dataclass(frozen=True)
class TableState:
    """A stable view of the table: for each seat, its creatures as columns of cards, legs first."""

    seats: dict[int, tuple[tuple[SeenCard, ...], ...]] = field(default_factory=dict)
    discard_top: SeenCard | None = None
    uncertain: tuple[SeenCard, ...] = ()  # cards seen but not trusted (partly hidden, low confidence)

    def creatures(self, seat: int) -> tuple[tuple[SeenCard, ...], ...]:
        return self.seats.get(seat, ())

    def to_json(self) -> dict:
        return {
            "seats": {str(seat): [[card.to_json() for card in column] for column in columns]
                      for seat, columns in self.seats.items()},
            "discard_top": self.discard_top.to_json() if self.discard_top else None,
            "uncertain": [card.to_json() for card in self.uncertain],
        }

    @classmethod
    def from_json(cls, data: dict) -> "TableState":
        return cls(
            seats={int(seat): tuple(tuple(SeenCard.from_json(card) for card in column) for column in columns)
                   for seat, columns in data.get("seats", {}).items()},
            discard_top=SeenCard.from_json(data["discard_top"]) if data.get("discard_top") else None,
            uncertain=tuple(SeenCard.from_json(card) for card in data.get("uncertain", ())),
        )
