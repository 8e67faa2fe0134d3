"""Translations between the engine's cards/creatures and the camera's SeenCard/TableState."""
from __future__ import annotations

from companion.games.nightmarium import Card, Game
from vision.table_state import SeenCard, TableState

SEAL_SLOT = "seal"


def face_of(seen: SeenCard) -> Card:
    """The engine card a camera observation stands for. A card with no body part printed is a seal."""
    return Card.face(seen.legion, seen.parts, seen.ability, is_seal=not seen.parts)


def seen_of(card: Card, seat: int | None = None, creature: int | None = None, slot: str | None = None) -> SeenCard:
    return SeenCard(legion=card.legion.value, parts=tuple(part.value for part in card.parts),
                    ability=card.ability.value if card.ability else None, seat=seat, creature=creature, slot=slot)


def creature_faces(creature) -> tuple[Card, ...]:
    """A creature's cards bottom-up as faces, with its seal (if any) on top."""
    faces = tuple(card.as_face() for card, _ in creature.cards)
    return faces + ((creature.seal.as_face(),) if creature.seal is not None else ())


def table_of(game: Game, seat_of_player: dict[int, int] | None = None) -> TableState:
    """The table as the camera should see it if it matches the engine: seats -> creatures -> cards."""
    seats = {}
    for index, player in enumerate(game.players):
        seat = seat_of_player.get(index, index) if seat_of_player else index
        columns = []
        for position, creature in enumerate(player.creatures):
            column = [seen_of(card, seat, position, part.value) for card, part in creature.cards]
            if creature.seal is not None:
                column.append(seen_of(creature.seal, seat, position, SEAL_SLOT))
            columns.append(tuple(column))
        seats[seat] = tuple(columns)
    top = game.discard[-1] if game.discard else None
    return TableState(seats=seats, discard_top=seen_of(top) if top is not None else None)
