"""The pieces of a game's state that the engine, the UI and the referee share: creatures, players, the chain."""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from .cards import Ability, Card, Legion, Part


@dataclass(frozen=True, slots=True)
class Creature:
    """A column of one to three cards, legs first. Immutable: the engine replaces a creature when it changes."""

    id: int
    owner: int
    cards: tuple[tuple[Card, Part], ...]
    seal: Card | None = None

    @property
    def complete(self) -> bool:
        return len(self.cards) == 3

    @property
    def embodied(self) -> bool:
        """Sealed (RU advanced rules): no ability can affect it any more."""
        return self.seal is not None

    @property
    def top(self) -> Card | None:
        return self.cards[-1][0] if self.cards else None

    @property
    def pure_legion(self) -> Legion | None:
        if not self.complete:
            return None
        legions = {card.legion for card, _ in self.cards}
        return legions.pop() if len(legions) == 1 else None

    def abilities_top_down(self, legion: Legion | None = None) -> tuple[tuple[Part, Ability], ...]:
        """Abilities in resolution order (head, torso, legs); with `legion`, only cards of that legion (a seal)."""
        return tuple((part, card.ability) for card, part in reversed(self.cards)
                     if card.ability is not None and (legion is None or card.legion == legion))

    def with_card(self, card: Card, part: Part) -> "Creature":
        return replace(self, cards=self.cards + ((card, part),))

    def without_top(self) -> "Creature":
        return replace(self, cards=self.cards[:-1])

    def to_json(self) -> dict:
        data = {"id": self.id, "owner": self.owner,
                "cards": [[card.to_json(), part.value] for card, part in self.cards]}
        if self.seal is not None:
            data["seal"] = self.seal.to_json()
        return data


@dataclass(slots=True)
class Player:
    name: str
    hand: list[Card | None] = field(default_factory=list)
    creatures: list[Creature] = field(default_factory=list)

    @property
    def complete_count(self) -> int:
        return sum(1 for creature in self.creatures if creature.complete)


@dataclass(frozen=True, slots=True)
class ChainFrame:
    """One creature's resolution on the chain stack: a completion (penalty, then abilities) or a seal's replay."""

    creature_id: int
    owner: int
    kind: str  # "completion" | "seal"
    abilities: tuple[tuple[Part, Ability], ...] = ()
    next_index: int = 0
    started: bool = False
    penalty_legion: Legion | None = None
    penalty_due: tuple[int, ...] = ()  # opponents who still owe a pure-legion discard, in seat order
    in_progress: bool = False  # the current ability has begun and waits for answers (Herald's revealed cards)
    awaiting_replay: bool = False  # a seal's replay waits for the player to say whether to replay (it is optional)

    @property
    def current(self) -> tuple[Part, Ability] | None:
        return self.abilities[self.next_index] if self.next_index < len(self.abilities) else None

    @property
    def remaining(self) -> tuple[tuple[Part, Ability], ...]:
        return self.abilities[self.next_index:]

    def to_json(self) -> dict:
        return {"type": "chain", "creature_id": self.creature_id, "owner": self.owner, "kind": self.kind,
                "abilities": [[part.value, ability.value] for part, ability in self.abilities],
                "next_index": self.next_index, "started": self.started,
                "penalty_legion": self.penalty_legion.value if self.penalty_legion else None,
                "penalty_due": list(self.penalty_due), "in_progress": self.in_progress,
                "awaiting_replay": self.awaiting_replay}

    @classmethod
    def from_json(cls, data: dict) -> "ChainFrame":
        return cls(data["creature_id"], data["owner"], data["kind"],
                   tuple((Part(p), Ability(a)) for p, a in data["abilities"]), data["next_index"],
                   data["started"], Legion(data["penalty_legion"]) if data["penalty_legion"] else None,
                   tuple(data["penalty_due"]), data["in_progress"], data["awaiting_replay"])


@dataclass(frozen=True, slots=True)
class OrderChoice:
    """Several resolutions became due at once (Herald placed two cards): the player picks which goes first."""

    owner: int
    due: tuple[tuple[str, int], ...]  # (kind, creature_id): "completion" or "seal"

    def to_json(self) -> dict:
        return {"type": "order", "owner": self.owner, "due": [list(item) for item in self.due]}

    @classmethod
    def from_json(cls, data: dict) -> "OrderChoice":
        return cls(data["owner"], tuple((kind, cid) for kind, cid in data["due"]))


def task_from_json(data: dict):
    return ChainFrame.from_json(data) if data["type"] == "chain" else OrderChoice.from_json(data)


@dataclass(frozen=True, slots=True)
class Prompt:
    """A choice the engine waits for. `player` answers it; the legal answers come from Game.legal_moves()."""

    kind: str  # penalty | herald | jester | executioner | scavenger | devourer | completion_order | reveal |
    #            seal_replay
    player: int
    message: str
    ability: Ability | None = None
    creature_id: int | None = None
    legion: Legion | None = None
    count: int = 0
