"""How the observed table differs from the engine's position, creature by creature.

The camera reports each seat's creatures left to right, the engine keeps them in the order they were started; a
creature is therefore matched by its cards, not by its position: identical columns first, then the columns that
share the most cards from the legs up (a card added or taken on top). Columns left over are new creatures (on the
table only) or removed ones (in the engine only).
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.games.nightmarium import Card, Game
from companion.referee.table_view import creature_faces, face_of
from vision.table_state import TableState


@dataclass(frozen=True)
class CreatureChange:
    player: int
    creature_id: int | None  # None: a new creature on the table
    removed: int  # cards gone from the top (all of them: the creature left the table)
    added: tuple[Card, ...]  # cards now on top, bottom-up
    whole: bool = False  # the whole creature is gone


def common_prefix(first: tuple[Card, ...], second: tuple[Card, ...]) -> int:
    length = 0
    for a, b in zip(first, second):
        if not a.same_face(b):
            break
        length += 1
    return length


def same_column(first: tuple[Card, ...], second: tuple[Card, ...]) -> bool:
    return len(first) == len(second) and common_prefix(first, second) == len(first)


def differences(game: Game, table: TableState, player_of_seat: dict[int, int]) -> list[CreatureChange]:
    changes: list[CreatureChange] = []
    for seat, player_index in sorted(player_of_seat.items(), key=lambda item: item[1]):
        if player_index >= len(game.players):
            continue
        engine = [(creature.id, creature_faces(creature)) for creature in game.players[player_index].creatures]
        observed = [tuple(face_of(card) for card in column) for column in table.creatures(seat) if column]
        unmatched_engine = list(engine)
        unmatched_observed = []
        for column in observed:
            twin = next((item for item in unmatched_engine if same_column(item[1], column)), None)
            if twin is not None:
                unmatched_engine.remove(twin)
            else:
                unmatched_observed.append(column)
        for column in unmatched_observed:
            best = max(unmatched_engine, key=lambda item: common_prefix(item[1], column), default=None)
            if best is not None and common_prefix(best[1], column) > 0:
                unmatched_engine.remove(best)
                shared = common_prefix(best[1], column)
                changes.append(CreatureChange(player_index, best[0], len(best[1]) - shared, column[shared:]))
            else:
                changes.append(CreatureChange(player_index, None, 0, column))
        for creature_id, cards in unmatched_engine:
            changes.append(CreatureChange(player_index, creature_id, len(cards), (), whole=True))
    return changes
