"""A synthetic table that plays a real game: the engine in full knowledge with RandomPlayer at every seat.

Each step plays one move and reports what a camera and the players would report to the referee: the new stable
table (as a TableState) when cards moved, and button presses for what the camera cannot see (draws, discards from
hands, Herald's revealed faces, a Jester that cannot be performed, the order of two completions, whether a seal's
abilities are replayed).
"""
from __future__ import annotations

from dataclasses import dataclass

from companion.games.nightmarium import (CannotPerform, Discard, DiscardDraw, Draw, Game, Order, Replay, Reveal)
from companion.games.nightmarium.simulate import RandomPlayer
from companion.referee.table_view import table_of

# Choices the camera cannot see: the players press them (a seal's optional replay is a yes/no question).
INVISIBLE = (Draw, DiscardDraw, Discard, Order, Replay)


@dataclass(frozen=True)
class Happening:
    kind: str  # "table" (payload: TableState) | "press" (payload: an observed-mode move)
    payload: object
    # for Order: the cards of the chosen creature, which is how the players point at it (the referee's creature
    # ids may differ from the simulation's when two creatures look the same)
    detail: tuple = ()


def observed_version(move):
    """The same move as the players report it: the cards' faces instead of their identities."""
    if isinstance(move, DiscardDraw):
        return DiscardDraw(tuple(card.as_face() for card in move.cards))
    if isinstance(move, Discard):
        return Discard(move.player, tuple(card.as_face() for card in move.cards))
    return move


class SimulatedTable:
    def __init__(self, players: list[str], seed: int = 0, edition: str = "ru2014", win_target: int = 5,
                 seals: bool = False, max_moves: int = 5000):
        self.game = Game.new(players, edition=edition, win_target=win_target, seals=seals, seed=seed)
        self.game.keep_history = False
        self.player = RandomPlayer(seed)
        self.moves_left = max_moves

    @property
    def over(self) -> bool:
        return self.game.over or self.moves_left <= 0

    def table(self):
        return table_of(self.game)

    def layout(self, seats: int = 4) -> dict[int, list[list[int]]]:
        """Seat -> creatures -> card ids (legs first), for drawing the table (vision.synthetic has four seats)."""
        return {seat: [[card.id for card, _ in creature.cards] for creature in player.creatures]
                for seat, player in enumerate(self.game.players[:seats]) if player.creatures}

    def step(self) -> list[Happening]:
        if self.over:
            return []
        self.moves_left -= 1
        game = self.game
        before = table_of(game)
        start = len(game.events)
        move = self.player.choose(game)
        game.push(move)
        happenings = []
        if isinstance(move, Order):
            chosen = game.creature(move.creature_id)
            faces = tuple(card.as_face() for card, _ in chosen.cards) if chosen is not None else ()
            happenings.append(Happening("press", move, faces))
        elif isinstance(move, INVISIBLE):
            happenings.append(Happening("press", observed_version(move)))
        after = table_of(game)
        if after != before:
            happenings.append(Happening("table", after))
        for event in game.events[start:]:
            if event["type"] == "ability_failed" and event["ability"] == "jester":
                happenings.append(Happening("press", CannotPerform()))
            elif event["type"] == "reveal":
                faces = tuple(card.as_face() for card in game.revealed) if game.revealed else ()
                happenings.append(Happening("press", Reveal(faces or self._revealed_from(event))))
        return happenings

    @staticmethod
    def _revealed_from(event: dict):
        from companion.games.nightmarium import card_from_json

        return tuple(card_from_json(card).as_face() for card in event.get("cards", ()))


def feed(referee, happening: Happening):
    """Give one happening to a referee, as the players at a real table would.

    A Jester that cannot be performed is declared only when the referee asks (it may already know, e.g. from an
    empty hand).
    """
    if happening.kind == "table":
        return referee.observe(happening.payload)
    prompt = referee.game.prompt
    if isinstance(happening.payload, CannotPerform) and (prompt is None or prompt.kind != "jester"):
        from companion.referee.referee import Outcome

        return Outcome()
    move = happening.payload
    if isinstance(move, Order) and happening.detail:
        # Always by the cards pointed at: the referee's creature with the same id may be another one (two creatures
        # that looked alike when a card went onto one of them).
        move = _same_looking_order(referee.game, happening.detail) or move
    return referee.press(move)


def _same_looking_order(game: Game, faces: tuple):
    """The due creature (in the referee's game) that shows the cards the players pointed at."""
    for candidate in game.legal_moves():
        creature = game.creature(getattr(candidate, "creature_id", None) or -1) if isinstance(candidate, Order) \
            else None
        if creature is not None and len(creature.cards) == len(faces) and all(
                card.same_face(face) for (card, _), face in zip(creature.cards, faces)):
            return candidate
    return None
