"""Nightmarium (RU Кошмариум, PL Koszmarium): cards, editions and the rules engine."""
from .cards import CARDS_BY_ID, DECK, SEALS, Ability, Card, Legion, Part, card_from_json
from companion.games.errors import IllegalMove
from .game import Game
from .moves import (CannotPerform, Discard, DiscardDraw, DiscardRevealed, Draw, Move, Order, Place, PlaceSeal, Play,
                    PlaySeal, Replay, Reveal, Target, move_from_json)
from .state import ChainFrame, Creature, OrderChoice, Player, Prompt
from .variants import EDITIONS, WIN_TARGETS, Edition, Polish2017, Russian2014

__all__ = [
    "CARDS_BY_ID", "DECK", "SEALS", "Ability", "Card", "Legion", "Part", "card_from_json", "IllegalMove", "Game",
    "CannotPerform", "Discard", "DiscardDraw", "DiscardRevealed", "Draw", "Move", "Order", "Place", "PlaceSeal",
    "Play", "PlaySeal", "Replay", "Reveal", "Target", "move_from_json", "ChainFrame", "Creature", "OrderChoice", "Player",
    "Prompt", "EDITIONS", "WIN_TARGETS", "Edition", "Polish2017", "Russian2014",
]
