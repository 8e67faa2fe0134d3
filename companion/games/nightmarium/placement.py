"""Where a card may go (RULES.md 1.5 placement, 1.13 seals). Every refusal names its rule."""
from __future__ import annotations

from .cards import Card, Part
from companion.games.errors import IllegalMove
from .state import Creature, Player


def placement_error(player: Player, card: Card, creature_id: int | None, part: Part,
                    win_target: int) -> IllegalMove | None:
    """Why `card` may not become `part` of the player's creature (None: it may). Creatures are built bottom-up."""
    if card.is_seal:
        return IllegalMove("seal.not-a-body-part",
                           "A seal is not a body part: it goes onto one of your complete creatures.")
    if part not in card.parts:
        allowed = " or ".join(p.value for p in card.parts)
        return IllegalMove("placement.part-not-on-card", f"This card can only be {allowed}, not {part.value}.")
    if part is Part.LEGS:
        if creature_id is not None:
            return IllegalMove("placement.legs-start-creature", "Legs always start a new creature.")
        if len(player.creatures) >= win_target:
            return IllegalMove("placement.creature-limit",
                               f"{player.name} already has {len(player.creatures)} creatures: no more than the "
                               f"win target ({win_target}) may be on the table.")
        return None
    if creature_id is None:
        return IllegalMove("placement.needs-creature", f"A {part.value} goes onto one of your creatures.")
    creature = find_creature(player, creature_id)
    if creature is None:
        return IllegalMove("placement.own-creatures-only", "Cards are placed only on your own creatures.")
    if part is Part.TORSO and len(creature.cards) != 1:
        return IllegalMove("placement.torso-needs-legs",
                           "A torso goes only onto a creature that has legs and nothing else.")
    if part is Part.HEAD and len(creature.cards) != 2:
        return IllegalMove("placement.head-needs-torso",
                           "A head goes only onto a creature that has legs and a torso but no head.")
    return None


def seal_error(player: Player, card: Card, creature_id: int, seals_enabled: bool) -> IllegalMove | None:
    """Why the seal may not go onto that creature (RULES.md 1.13: own complete creature, one seal per creature)."""
    if not card.is_seal:
        return IllegalMove("seal.not-a-seal", "Only a seal can embody a creature.")
    if not seals_enabled:
        return IllegalMove("seal.not-in-play", "Seals are not in play in this game.")
    creature = find_creature(player, creature_id)
    if creature is None:
        return IllegalMove("seal.own-creatures-only", "A seal goes only onto one of your own creatures.")
    if not creature.complete:
        return IllegalMove("seal.needs-complete-creature", "A seal goes only onto a complete creature.")
    if creature.embodied:
        return IllegalMove("seal.one-per-creature", "This creature already carries a seal: one per creature.")
    return None


def legal_placements(player: Player, card: Card, win_target: int, seals_enabled: bool):
    """Every (creature_id, part) a card may take, or (creature_id, None) for a seal."""
    if card.is_seal:
        if seals_enabled:
            for creature in player.creatures:
                if creature.complete and not creature.embodied:
                    yield creature.id, None
        return
    for part in card.parts:
        if part is Part.LEGS:
            if len(player.creatures) < win_target:
                yield None, part
        else:
            height = part.height
            for creature in player.creatures:
                if len(creature.cards) == height:
                    yield creature.id, part


def has_open_position(player: Player, win_target: int, seals_enabled: bool) -> bool:
    """Could any card at all be placed? (Used when the hand itself is hidden.)"""
    if len(player.creatures) < win_target:
        return True
    return any(not creature.complete or (seals_enabled and not creature.embodied) for creature in player.creatures)


def find_creature(player: Player, creature_id: int) -> Creature | None:
    for creature in player.creatures:
        if creature.id == creature_id:
            return creature
    return None
