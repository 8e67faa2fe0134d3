"""The six abilities (RULES.md 1.8): when each cannot be performed, and what each may target.

The effects themselves are applied by the Game (they move cards between zones); this module holds the rules that
decide legality, so that a reader finds each ability's conditions in one place.
"""
from __future__ import annotations

from typing import TYPE_CHECKING

from .cards import Ability
from .placement import has_open_position, legal_placements
from .state import ChainFrame, Creature

if TYPE_CHECKING:
    from .game import Game

#: Abilities that wait for the player to pick a creature.
TARGETED = (Ability.EXECUTIONER, Ability.SCAVENGER, Ability.DEVOURER)


def targets(game: "Game", frame: ChainFrame, ability: Ability) -> list[Creature]:
    """The creatures the ability may act on. Embodied (sealed) creatures are never affected by any ability."""
    owner = frame.owner
    if ability is Ability.EXECUTIONER:
        # Top card of any creature of another player, complete or not.
        return [c for i, p in enumerate(game.players) if i != owner for c in p.creatures
                if c.cards and not c.embodied]
    if ability is Ability.SCAVENGER:
        # All cards of one incomplete creature of another player (legs-only counts as incomplete).
        return [c for i, p in enumerate(game.players) if i != owner for c in p.creatures
                if not c.complete and not c.embodied]
    if ability is Ability.DEVOURER:
        # Top card of one of your own creatures other than the one resolving.
        return [c for c in game.players[owner].creatures if c.id != frame.creature_id and not c.embodied]
    return []


def cannot_perform(game: "Game", frame: ChainFrame, ability: Ability) -> str | None:
    """Why the ability cannot be performed (which stops the chain), or None when it can."""
    owner = game.players[frame.owner]
    if ability in (Ability.HERALD, Ability.MOURNER):
        # RULES.md N3, N12: they fail only when no card at all can be drawn or revealed.
        if not game.deck and not game.discard:
            return "the deck and the discard pile are both empty"
        return None
    if ability is Ability.JESTER:
        if not owner.hand:
            return f"{owner.name} has no cards in hand"
        if not has_open_position(owner, game.win_target, game.seals):
            return f"{owner.name}'s creatures have no free position for any card"
        if None in owner.hand:
            return None  # hidden cards: the players will say whether one fits
        if not any(any(True for _ in legal_placements(owner, card, game.win_target, game.seals))
                   for card in owner.hand):
            return f"no card in {owner.name}'s hand has a legal position"
        return None
    if ability is Ability.EXECUTIONER and not targets(game, frame, ability):
        return "no other player has a creature it can reach"
    if ability is Ability.SCAVENGER and not targets(game, frame, ability):
        return "no other player has an incomplete creature"
    if ability is Ability.DEVOURER and not targets(game, frame, ability):
        return f"{owner.name} has no other creature it can reach"
    return None


DESCRIPTIONS = {
    Ability.HERALD: "reveal the top 2 cards of the deck and place each on your creatures; discard what cannot go",
    Ability.MOURNER: "draw 2 cards",
    Ability.JESTER: "play 1 card from your hand onto your creatures (any legion)",
    Ability.EXECUTIONER: "take the top card of another player's creature into your hand",
    Ability.SCAVENGER: "discard all cards of another player's incomplete creature",
    Ability.DEVOURER: "discard the top card of another of your own creatures",
}
