"""The Nightmarium game: a board you `push` moves onto and `pop` to undo.

Rules live where a reader looks for them: placement in placement.py, the abilities in abilities.py, edition
differences in variants.py; this module runs turns, actions and the completion chain (RULES.md 1.4-1.11).

Two kinds of knowledge share one engine. In full knowledge (simulation, tests, a digital game) every card is known.
In observed mode (the referee beside a real game) hands and deck hold `None` for cards nobody at the table can
see: a draw adds a hidden card, a played card is the face the camera saw, and choices that depend on hidden cards
are accepted when they are consistent with everything visible.
"""
from __future__ import annotations

import itertools
import random
from dataclasses import replace

from . import abilities
from .cards import DECK, SEALS, Ability, Card, Legion, Part, card_from_json
from companion.games.errors import IllegalMove
from .moves import (CannotPerform, Discard, DiscardDraw, DiscardRevealed, Draw, Move, Order, Place, PlaceSeal, Play,
                    PlaySeal, Replay, Reveal, Target, move_from_json)
from .placement import find_creature, legal_placements, placement_error, seal_error
from .state import ChainFrame, Creature, OrderChoice, Player, Prompt, task_from_json
from .variants import EDITIONS, WIN_TARGETS, Edition

HAND_SIZE = 5
ACTIONS_PER_TURN = 2
SAVE_FORMAT = 1


class Game:
    def __init__(self, names: list[str], edition: str = "ru2014", win_target: int = 5, seals: bool = False,
                 seed: int = 0, observed: bool = False):
        if edition not in EDITIONS:
            raise ValueError(f"unknown edition {edition!r}: choose one of {', '.join(EDITIONS)}")
        if win_target not in WIN_TARGETS:
            raise ValueError(f"the win target must be one of {WIN_TARGETS}, not {win_target!r}")
        if not 2 <= len(names) <= 5:
            raise ValueError(f"Nightmarium is played by 2 to 5 players, not {len(names)}")
        self.edition: type[Edition] = EDITIONS[edition]
        if seals and not self.edition.has_seals:
            raise ValueError(f"the {self.edition.title} edition has no seals")
        self.win_target = win_target
        self.seals = seals
        self.seed = seed
        self.observed = observed
        self.players = [Player(name) for name in names]
        self.deck: list[Card | None] = []  # the top card is the last element
        self.discard: list[Card] = []      # the top card is the last element
        self.revealed: list[Card] = []     # Herald's cards waiting to be placed or discarded
        self.herald_due: tuple[tuple[str, int], ...] = ()  # resolutions caused by the Herald in progress
        self.stack: tuple = ()             # ChainFrame / OrderChoice, innermost last
        self.active = 0
        self.actions_left = ACTIONS_PER_TURN
        self.turn = 1
        self.first_play_legion: Legion | None = None
        self.winner: int | None = None
        self.next_creature_id = 1
        self.shuffles = 0
        self.events: list[dict] = []
        self.moves: list[Move] = []
        self._history: list[tuple] = []
        self.keep_history = True  # the simulator turns undo off for speed
        self._initial: dict | None = None

    # ------------------------------------------------------------------ construction

    @classmethod
    def new(cls, players: list[str], edition: str = "ru2014", win_target: int = 5, seals: bool = False,
            seed: int = 0, observed: bool = False) -> "Game":
        """A game set up as the rules say: shuffled deck (with the seals in advanced play), 5 cards dealt each."""
        game = cls(players, edition, win_target, seals, seed, observed)
        cards = list(DECK + (SEALS if seals else ()))
        if observed:
            game.deck = [None] * (len(cards) - HAND_SIZE * len(players))
            for player in game.players:
                player.hand = [None] * HAND_SIZE
        else:
            random.Random(f"{seed}:setup").shuffle(cards)
            game.deck = cards
            for _ in range(HAND_SIZE):
                for player in game.players:
                    player.hand.append(game.deck.pop())
        game._log("turn_start", player=0, turn=1)
        game._initial = game._position_json()
        return game

    @classmethod
    def from_position(cls, players: list[dict], deck_top_first: list = (), discard: list = (), active: int = 0,
                      edition: str = "ru2014", win_target: int = 5, seals: bool = False, seed: int = 0,
                      observed: bool = False, actions_left: int = ACTIONS_PER_TURN) -> "Game":
        """A game in a given position (tests, worked examples, a referee joining a game in progress).

        Each player is {"name": str, "hand": [Card|None], "creatures": [[(Card, Part), ...], ...]}.
        """
        game = cls([p["name"] for p in players], edition, win_target, seals, seed, observed)
        for index, (player, spec) in enumerate(zip(game.players, players)):
            player.hand = list(spec.get("hand", ()))
            for cards in spec.get("creatures", ()):
                player.creatures.append(Creature(game._new_creature_id(), index, tuple(cards)))
        game.deck = list(reversed(list(deck_top_first)))
        game.discard = list(discard)
        game.active = active
        game.actions_left = actions_left
        game._log("turn_start", player=active, turn=1)
        game._initial = game._position_json()
        return game

    # ------------------------------------------------------------------ what the UI reads

    @property
    def over(self) -> bool:
        return self.winner is not None

    @property
    def deck_size(self) -> int:
        return len(self.deck)

    @property
    def chain(self) -> tuple[ChainFrame, ...]:
        return tuple(task for task in self.stack if isinstance(task, ChainFrame))

    def creature(self, creature_id: int) -> Creature | None:
        for player in self.players:
            found = find_creature(player, creature_id)
            if found is not None:
                return found
        return None

    @property
    def prompt(self) -> Prompt | None:
        if self.winner is not None or not self.stack:
            return None
        task = self.stack[-1]
        if isinstance(task, OrderChoice):
            return Prompt("completion_order", task.owner,
                          f"{self._name(task.owner)}: choose which creature resolves first.")
        frame: ChainFrame = task
        if frame.awaiting_replay:
            legion = self.creature(frame.creature_id).seal.legion.value
            return Prompt("seal_replay", frame.owner,
                          f"{self._name(frame.owner)} may replay the {legion} abilities of creature "
                          f"{frame.creature_id}, head to legs. Replay them?", creature_id=frame.creature_id)
        if frame.penalty_due:
            victim = frame.penalty_due[0]
            legion = frame.penalty_legion
            return Prompt("penalty", victim,
                          f"{self._name(victim)} discards 1 {legion.value} card, or 2 cards if they hold none.",
                          creature_id=frame.creature_id, legion=legion,
                          count=min(2, len(self.players[victim].hand)))
        part, ability = frame.current
        owner = self._name(frame.owner)
        where = f"{owner}'s {ability.value} ({part.value} of creature {frame.creature_id})"
        if ability is Ability.HERALD:
            if not frame.in_progress:
                count = min(2, len(self.deck) + len(self.discard))
                return Prompt("reveal", frame.owner, f"{where}: turn over the top {count} card(s) of the deck.",
                              ability, frame.creature_id, count=count)
            return Prompt("herald", frame.owner,
                          f"{where}: place each revealed card on your creatures; discard a card only if it fits "
                          "nowhere.", ability, frame.creature_id, count=len(self.revealed))
        return Prompt(ability.value, frame.owner, f"{where}: {abilities.DESCRIPTIONS[ability]}.", ability,
                      frame.creature_id)

    # ------------------------------------------------------------------ push / pop

    def push(self, move: Move) -> list[dict]:
        """Apply a move; returns the events it caused. A refused move raises IllegalMove and changes nothing."""
        snapshot = self._snapshot()
        start = len(self.events)
        try:
            self._apply(move)
            self._advance()
        except IllegalMove:
            self._restore(snapshot)
            raise
        if self.keep_history:
            self._history.append(snapshot)
        self.moves.append(move)
        return self.events[start:]

    def pop(self) -> Move:
        """Undo the last move, restoring the exact previous state."""
        if not self._history:
            raise IllegalMove("undo.nothing", "There is nothing to undo.")
        self._restore(self._history.pop())
        return self.moves.pop()

    def check(self, move: Move) -> IllegalMove | None:
        """The error the move would raise, or None if it is legal. Changes nothing."""
        snapshot = self._snapshot()
        try:
            self._apply(move)
            self._advance()
        except IllegalMove as error:
            return error
        finally:
            self._restore(snapshot)
        return None

    def is_legal(self, move: Move) -> bool:
        return self.check(move) is None

    def _snapshot(self) -> tuple:
        return ([(p.hand[:], p.creatures[:]) for p in self.players], self.deck[:], self.discard[:],
                self.revealed[:], self.herald_due, self.stack, self.active, self.actions_left, self.turn,
                self.first_play_legion, self.winner, self.next_creature_id, self.shuffles, len(self.events))

    def _restore(self, snapshot: tuple) -> None:
        (zones, self.deck, self.discard, self.revealed, self.herald_due, self.stack, self.active,
         self.actions_left, self.turn, self.first_play_legion, self.winner, self.next_creature_id, self.shuffles,
         events) = snapshot
        for player, (hand, creatures) in zip(self.players, zones):
            player.hand, player.creatures = hand, creatures
        del self.events[events:]

    # ------------------------------------------------------------------ legal moves

    def legal_moves(self):
        """Every legal move now: actions when nothing is pending, else the answers to the prompt.

        In observed mode, choices that depend on hidden cards cannot be listed; use check() for those.
        """
        if self.winner is not None:
            return
        if not self.stack:
            yield from self._legal_actions()
            return
        prompt = self.prompt
        player = self.players[prompt.player]
        if prompt.kind == "completion_order":
            for _, creature_id in self.stack[-1].due:
                yield Order(creature_id)
        elif prompt.kind == "seal_replay":
            yield Replay(True)
            yield Replay(False)
        elif prompt.kind == "penalty":
            if self.observed:
                return
            matching = [card for card in player.hand if card.legion is prompt.legion]
            if matching:
                for card in matching:
                    yield Discard(prompt.player, (card,))
            else:
                for pair in itertools.combinations(player.hand, min(2, len(player.hand))):
                    yield Discard(prompt.player, pair)
        elif prompt.kind == "herald":
            for card in dict.fromkeys(self.revealed):
                yield from self._placements(player, card, Place, PlaceSeal, fallback=DiscardRevealed(card))
        elif prompt.kind == "jester":
            if self.observed and None in player.hand:
                return
            for card in dict.fromkeys(player.hand):
                yield from self._placements(player, card, Place, PlaceSeal)
        elif prompt.kind in ("executioner", "scavenger", "devourer"):
            for creature in abilities.targets(self, self.stack[-1], prompt.ability):
                yield Target(creature.id)

    def _placements(self, player: Player, card: Card, place, place_seal, fallback: Move | None = None):
        found = False
        for creature_id, part in legal_placements(player, card, self.win_target, self.seals):
            found = True
            yield place_seal(card, creature_id) if part is None else place(card, creature_id, part)
        if not found and fallback is not None:
            yield fallback

    def legal_plays(self):
        """The Play (and PlaySeal) actions open now: the interesting part of legal_moves() for a player or a bot."""
        if self.winner is not None or self.stack or self.observed:
            return
        player = self.players[self.active]
        for card in dict.fromkeys(player.hand):
            if self.first_play_legion is not None and card.legion is not self.first_play_legion:
                continue
            yield from self._placements(player, card, Play, PlaySeal)

    def _legal_actions(self):
        player = self.players[self.active]
        yield Draw()
        if self.observed:
            return
        yield from self.legal_plays()
        for size in range(1, len(player.hand) + 1):
            for cards in itertools.combinations(player.hand, size):
                yield DiscardDraw(cards)

    # ------------------------------------------------------------------ applying moves

    def _apply(self, move: Move) -> None:
        if self.winner is not None:
            raise IllegalMove("game.over", f"The game is over: {self._name(self.winner)} won.")
        if move.is_action:
            if self.stack:
                raise IllegalMove("turn.prompt-pending", f"First: {self.prompt.message}")
            self.actions_left -= 1
            {Draw: self._action_draw, DiscardDraw: self._action_discard_draw, Play: self._action_play,
             PlaySeal: self._action_play}[type(move)](move)
            return
        prompt = self.prompt
        if prompt is None:
            raise IllegalMove("prompt.none", "Nothing is waiting for an answer: it is time for an action.")
        handler = {
            ("completion_order", Order): self._answer_order,
            ("seal_replay", Replay): self._answer_replay,
            ("penalty", Discard): self._answer_penalty,
            ("reveal", Reveal): self._answer_reveal,
            ("herald", Place): self._answer_herald_place,
            ("herald", PlaceSeal): self._answer_herald_place,
            ("herald", DiscardRevealed): self._answer_herald_discard,
            ("jester", Place): self._answer_jester_place,
            ("jester", PlaceSeal): self._answer_jester_place,
            ("jester", CannotPerform): self._answer_jester_cannot,
            ("executioner", Target): self._answer_executioner,
            ("scavenger", Target): self._answer_scavenger,
            ("devourer", Target): self._answer_devourer,
        }.get((prompt.kind, type(move)))
        if handler is None:
            raise IllegalMove("prompt.wrong-answer", f"That does not answer what is pending. {prompt.message}")
        handler(move)

    # --- actions (RULES.md 1.4)

    def _action_draw(self, move: Draw) -> None:
        drawn = self._draw(self.active, 1)
        self._log("draw", player=self.active, count=drawn, cards=self._visible(self.players[self.active].hand[-drawn:]
                                                                              if drawn else []))

    def _action_discard_draw(self, move: DiscardDraw) -> None:
        if not move.cards:
            # RULES.md N5: at least one card, otherwise it would be a pass, which the rules do not offer.
            raise IllegalMove("discard_draw.at-least-one", "Discard at least one card to draw (or simply draw).")
        for card in move.cards:
            self.discard.append(self._take_from_hand(self.active, card))
        wanted = self.edition.cards_for_discard(len(move.cards))
        drawn = self._draw(self.active, wanted)
        self._log("discard_draw", player=self.active, discarded=[c.to_json() for c in move.cards], drew=drawn,
                  rounding=self.edition.discard_draw_rounding)

    def _same_legion_check(self, card: Card) -> None:
        """RULES.md 1.6: the card of a second Play action must share the legion of the first."""
        if self.first_play_legion is None:
            self.first_play_legion = card.legion
        elif card.legion is not self.first_play_legion:
            raise IllegalMove("same-legion", f"The second card played this turn must be {self.first_play_legion.value} "
                                             f"like the first, not {card.legion.value}.")

    def _action_play(self, move: Play | PlaySeal) -> None:
        self._same_legion_check(move.card)
        self._push_due(self.active, self._placed(self.active, move, self._hand_of(self.active), "play"))

    def _placed(self, owner: int, move, take, by: str) -> list[tuple[str, int]]:
        """Validate a placement (a card as a body part, or a seal), take the card from where it is (`take`) and
        put it down; returns the resolutions it causes."""
        player = self.players[owner]
        sealing = isinstance(move, (PlaySeal, PlaceSeal))
        if sealing:
            error = seal_error(player, move.card, move.creature_id, self.seals)
        else:
            error = placement_error(player, move.card, move.creature_id, move.part, self.win_target)
        if error:
            raise error
        card = take(move.card)
        if sealing:
            return self._place_seal(owner, card, move.creature_id, by)
        return self._place(owner, card, move.creature_id, move.part, by)

    def _hand_of(self, owner: int):
        return lambda card: self._take_from_hand(owner, card)

    # --- answers

    def _answer_order(self, move: Order) -> None:
        task: OrderChoice = self.stack[-1]
        chosen = [item for item in task.due if item[1] == move.creature_id]
        if not chosen:
            raise IllegalMove("order.not-due", "That creature is not waiting to resolve.")
        rest = [item for item in task.due if item[1] != move.creature_id]
        self.stack = self.stack[:-1]
        for kind, creature_id in reversed(rest):
            self.stack += (ChainFrame(creature_id, task.owner, kind),)
        self.stack += (ChainFrame(move.creature_id, task.owner, chosen[0][0]),)
        self._log("order", player=task.owner, first=move.creature_id)

    def _answer_replay(self, move: Replay) -> None:
        frame: ChainFrame = self.stack[-1]
        self._log("seal_replay", player=frame.owner, creature=frame.creature_id, accepted=move.accept)
        if move.accept:
            self.stack = self.stack[:-1] + (replace(frame, awaiting_replay=False),)
        else:
            self.stack = self.stack[:-1]

    def _answer_penalty(self, move: Discard) -> None:
        """RULES.md 1.7 step 2: one card of the legion if held, else two cards, else what they have."""
        frame: ChainFrame = self.stack[-1]
        victim = frame.penalty_due[0]
        if move.player != victim:
            raise IllegalMove("penalty.wrong-player", f"It is {self._name(victim)} who must discard now.")
        legion = frame.penalty_legion
        hand = self.players[victim].hand
        cards = move.cards
        if len(cards) == 1 and cards[0].legion is legion:
            pass
        elif any(card is not None and card.legion is legion for card in hand):
            raise IllegalMove("penalty.discard-legion",
                              f"{self._name(victim)} holds a {legion.value} card: discard exactly one {legion.value} card.")
        elif len(cards) != min(2, len(hand)):
            raise IllegalMove("penalty.two-cards",
                              f"Without a {legion.value} card, {self._name(victim)} discards {min(2, len(hand))} "
                              "card(s) of their choice.")
        for card in cards:
            self.discard.append(self._take_from_hand(victim, card))
        self._log("penalty_discard", player=victim, legion=legion.value, cards=[c.to_json() for c in cards])
        self.stack = self.stack[:-1] + (replace(frame, penalty_due=frame.penalty_due[1:]),)

    def _answer_reveal(self, move: Reveal) -> None:
        if not self.observed:
            raise IllegalMove("reveal.full-knowledge", "The engine turns the cards over itself in this game.")
        expected = min(2, len(self.deck) + len(self.discard))
        if len(move.cards) != expected:
            raise IllegalMove("herald.reveal-two", f"Herald turns over {expected} card(s), not {len(move.cards)}.")
        for card in move.cards:
            self._deck_take()
            self.revealed.append(card)
        self._begin_herald()

    def _begin_herald(self) -> None:
        frame: ChainFrame = self.stack[-1]
        self.stack = self.stack[:-1] + (replace(frame, in_progress=True),)
        self._log("reveal", player=frame.owner, cards=[c.to_json() for c in self.revealed])

    def _take_revealed(self, card: Card) -> Card:
        for index, candidate in enumerate(self.revealed):
            if candidate == card or (card.id is None and candidate.same_face(card)):
                return self.revealed.pop(index)
        raise IllegalMove("herald.not-revealed", "That card is not one of the cards Herald revealed.")

    def _answer_herald_place(self, move: Place | PlaceSeal) -> None:
        # RULES.md N9: a revealed seal follows the rules of a played card and goes onto an eligible creature.
        owner = self.stack[-1].owner
        self.herald_due += tuple(self._placed(owner, move, self._take_revealed, "herald"))
        self._after_herald_card()

    def _answer_herald_discard(self, move: DiscardRevealed) -> None:
        owner = self.stack[-1].owner
        card = self._take_revealed(move.card)
        player = self.players[owner]
        if self._fits(player, card) and not any(self._placing_blocks(player, other, card) for other in self.revealed):
            raise IllegalMove("herald.must-place", "That card has a legal position: Herald must place it.")
        self.discard.append(card)
        self._log("herald_discard", player=owner, card=card.to_json())
        self._after_herald_card()

    def _fits(self, player: Player, card: Card) -> bool:
        return any(True for _ in legal_placements(player, card, self.win_target, self.seals))

    def _placing_blocks(self, player: Player, other: Card, card: Card) -> bool:
        """Could the other revealed card be placed so that this one fits nowhere? The RU example discards the
        unsuitable card first and then places the other, so the pair is judged together."""
        for creature_id, part in legal_placements(player, other, self.win_target, self.seals):
            creatures = list(player.creatures)
            if creature_id is None:
                creatures.append(Creature(0, -1, ((other, part),)))
            else:
                index = next(i for i, c in enumerate(creatures) if c.id == creature_id)
                old = creatures[index]
                creatures[index] = replace(old, seal=other) if part is None else old.with_card(other, part)
            if not self._fits(Player(player.name, [], creatures), card):
                return True
        return False

    def _after_herald_card(self) -> None:
        # RULES.md N1: both revealed cards are handled before any completion they caused resolves.
        if not self.revealed:
            due, self.herald_due = self.herald_due, ()
            self._finish_ability(list(due))

    def _answer_jester_place(self, move: Place | PlaceSeal) -> None:
        owner = self.stack[-1].owner
        self._finish_ability(self._placed(owner, move, self._hand_of(owner), "jester"))

    def _answer_jester_cannot(self, move: CannotPerform) -> None:
        frame: ChainFrame = self.stack[-1]
        if None not in self.players[frame.owner].hand:
            raise IllegalMove("jester.must-play", "A card in hand has a legal position: the Jester must play one.")
        self._stop_chain(frame, f"{self._name(frame.owner)} has no card in hand with a legal position (declared)")

    def _target(self, move: Target) -> Creature:
        frame: ChainFrame = self.stack[-1]
        ability = frame.current[1]
        for creature in abilities.targets(self, frame, ability):
            if creature.id == move.creature_id:
                return creature
        creature = self.creature(move.creature_id)
        if creature is not None and creature.embodied:
            raise IllegalMove("seal.embodied-untouchable", "An embodied creature cannot be affected by any ability.")
        rule = {Ability.EXECUTIONER: ("executioner.other-players", "The Executioner takes from another player's creature."),
                Ability.SCAVENGER: ("scavenger.incomplete-only", "The Scavenger discards another player's incomplete creature."),
                Ability.DEVOURER: ("devourer.own-other-creature", "The Devourer eats from another of your own creatures.")}
        raise IllegalMove(*rule[ability])

    def _answer_executioner(self, move: Target) -> None:
        creature = self._target(move)
        owner = self.stack[-1].owner
        card = creature.top
        self._set_creature(creature.without_top())
        self.players[owner].hand.append(card)
        self._log("take", player=owner, victim=creature.owner, creature=creature.id, card=card.to_json())
        self._finish_ability([])

    def _answer_scavenger(self, move: Target) -> None:
        creature = self._target(move)
        self.discard.extend(card for card, _ in creature.cards)
        self._set_creature(replace(creature, cards=()))
        self._log("scavenge", player=self.stack[-1].owner, victim=creature.owner, creature=creature.id,
                  cards=[card.to_json() for card, _ in creature.cards])
        self._finish_ability([])

    def _answer_devourer(self, move: Target) -> None:
        creature = self._target(move)
        card = creature.top
        self.discard.append(card)
        self._set_creature(creature.without_top())
        self._log("devour", player=creature.owner, creature=creature.id, card=card.to_json())
        self._finish_ability([])

    # ------------------------------------------------------------------ the chain (RULES.md 1.7)

    def _advance(self) -> None:
        """Run everything that needs no decision, until a prompt waits, the turn passes or the game ends."""
        while self.winner is None:
            if not self.stack:
                if self.actions_left > 0:
                    return
                self._end_turn()
                return
            task = self.stack[-1]
            if isinstance(task, OrderChoice):
                return
            frame: ChainFrame = task
            if not frame.started:
                self._start_frame(frame)
                continue
            if frame.awaiting_replay:
                return
            if frame.penalty_due:
                victim = frame.penalty_due[0]
                if self.players[victim].hand:
                    return
                self._log("penalty_discard", player=victim, legion=frame.penalty_legion.value, cards=[])
                self.stack = self.stack[:-1] + (replace(frame, penalty_due=frame.penalty_due[1:]),)
                continue
            if frame.in_progress:
                return
            current = frame.current
            if current is None:
                self.stack = self.stack[:-1]
                self._log("chain_end", creature=frame.creature_id)
                continue
            part, ability = current
            reason = abilities.cannot_perform(self, frame, ability)
            if reason:
                self._stop_chain(frame, reason)
                continue
            self._log("ability", player=frame.owner, creature=frame.creature_id, part=part.value,
                      ability=ability.value)
            if ability is Ability.MOURNER:
                drawn = self._draw(frame.owner, 2)
                self._log("draw", player=frame.owner, count=drawn, by="mourner")
                self._finish_ability([])
                continue
            if ability is Ability.HERALD and not self.observed:
                for _ in range(2):
                    card = self._deck_take()
                    if card is None:
                        break
                    self.revealed.append(card)
                self._begin_herald()
            return

    def _start_frame(self, frame: ChainFrame) -> None:
        creature = self.creature(frame.creature_id)
        self.stack = self.stack[:-1]
        if frame.kind == "completion":
            if creature is None or not creature.complete:
                # RULES.md N2: a creature that is no longer complete when its turn comes is skipped.
                self._log("completion_skipped", creature=frame.creature_id)
                return
            self._log("completion", player=frame.owner, creature=creature.id)
            legion = creature.pure_legion
            due: tuple[int, ...] = ()
            if legion is not None:
                count = len(self.players)
                due = tuple((frame.owner + step) % count for step in range(1, count))
                self._log("pure_legion", player=frame.owner, creature=creature.id, legion=legion.value)
            self.stack += (replace(frame, started=True, abilities=creature.abilities_top_down(),
                                   penalty_legion=legion, penalty_due=due),)
        else:
            # RU 2014 advanced rules: "you may replay its abilities, top down", only those of the seal's legion.
            replayable = creature.abilities_top_down(creature.seal.legion)
            self._log("seal_resolution", player=frame.owner, creature=creature.id, legion=creature.seal.legion.value,
                      abilities=[[part.value, ability.value] for part, ability in replayable])
            if replayable:
                self.stack += (replace(frame, started=True, abilities=replayable, awaiting_replay=True),)

    def _finish_ability(self, due: list[tuple[str, int]]) -> None:
        """The current ability is done. A completion (or seal) it caused interrupts the chain for good."""
        if self.winner is not None:
            return
        frame: ChainFrame = self.stack[-1]
        if not due:
            self.stack = self.stack[:-1] + (replace(frame, next_index=frame.next_index + 1, in_progress=False),)
            return
        lost = frame.remaining[1:]
        self._log("chain_interrupted", creature=frame.creature_id,
                  lost=[[part.value, ability.value] for part, ability in lost])
        self.stack = self.stack[:-1]
        self._push_due(frame.owner, due)

    def _push_due(self, owner: int, due: list[tuple[str, int]]) -> None:
        if self.winner is not None:
            return
        if len(due) > 1:
            self.stack += (OrderChoice(owner, tuple(due)),)
        elif due:
            kind, creature_id = due[0]
            self.stack += (ChainFrame(creature_id, owner, kind),)

    def _stop_chain(self, frame: ChainFrame, reason: str) -> None:
        part, ability = frame.current
        self._log("ability_failed", player=frame.owner, creature=frame.creature_id, part=part.value,
                  ability=ability.value, reason=reason,
                  lost=[[p.value, a.value] for p, a in frame.remaining[1:]])
        self.stack = self.stack[:-1]

    def _end_turn(self) -> None:
        active = self.active
        self._log("turn_end", player=active)
        if (self.edition.win_timing == "end_of_turn"
                and self.players[active].complete_count >= self.win_target):
            self._declare_winner(active)
            return
        self.active = (active + 1) % len(self.players)
        self.actions_left = ACTIONS_PER_TURN
        self.first_play_legion = None
        self.turn += 1
        self._log("turn_start", player=self.active, turn=self.turn)

    def _declare_winner(self, player: int) -> None:
        self.winner = player
        self.stack = ()
        self._log("win", player=player, complete=self.players[player].complete_count)

    # ------------------------------------------------------------------ card movement

    def _place(self, owner: int, card: Card, creature_id: int | None, part: Part, by: str) -> list[tuple[str, int]]:
        """Put a card on the owner's creature (already validated); returns the completion it causes, if any."""
        player = self.players[owner]
        if creature_id is None:
            creature = Creature(self._new_creature_id(), owner, ((card, part),))
            player.creatures.append(creature)
        else:
            creature = find_creature(player, creature_id).with_card(card, part)
            self._set_creature(creature)
        self._log("play" if by == "play" else "place", player=owner, creature=creature.id, card=card.to_json(),
                  part=part.value, by=by)
        if not creature.complete:
            return []
        if self.edition.win_timing == "immediate" and player.complete_count >= self.win_target:
            self._declare_winner(owner)  # RULES.md 1.11: the PL edition ends the game at once
            return []
        return [("completion", creature.id)]

    def _place_seal(self, owner: int, card: Card, creature_id: int, by: str) -> list[tuple[str, int]]:
        creature = replace(find_creature(self.players[owner], creature_id), seal=card)
        self._set_creature(creature)
        self._log("seal", player=owner, creature=creature_id, card=card.to_json(), by=by)
        return [("seal", creature_id)]

    def _set_creature(self, creature: Creature) -> None:
        creatures = self.players[creature.owner].creatures
        for index, old in enumerate(creatures):
            if old.id == creature.id:
                if creature.cards:
                    creatures[index] = creature
                else:
                    del creatures[index]
                    if creature.seal is not None:
                        self.discard.append(creature.seal)
                return
        raise AssertionError(f"creature {creature.id} is not on the table")

    def _take_from_hand(self, player_index: int, card: Card) -> Card:
        hand = self.players[player_index].hand
        for index, held in enumerate(hand):
            if held is not None and (held == card or (card.id is None and held.same_face(card))):
                return hand.pop(index)
        if self.observed and None in hand:
            hand.remove(None)
            return card
        raise IllegalMove("hand.not-held", f"{self._name(player_index)} does not hold {card.describe()}.")

    def _deck_take(self) -> Card | None:
        """The top card of the deck, reshuffling the discard pile as the edition says (RULES.md 1.9)."""
        if not self.deck:
            self._reshuffle()
            if not self.deck:
                return None
        card = self.deck.pop()
        if not self.deck and self.edition.reshuffle == "when_empty":
            self._reshuffle()
        return card

    def _draw(self, player_index: int, count: int) -> int:
        hand = self.players[player_index].hand
        drawn = 0
        for _ in range(count):
            if not self.deck and not self.discard:
                break
            hand.append(self._deck_take())
            drawn += 1
        return drawn

    def _reshuffle(self) -> None:
        if not self.discard:
            return
        cards, self.discard = self.discard, []
        if self.observed:
            self.deck = [None] * len(cards) + self.deck
        else:
            random.Random(f"{self.seed}:shuffle:{self.shuffles}").shuffle(cards)
            self.deck = cards + self.deck
        self.shuffles += 1
        self._log("reshuffle", cards=len(cards))

    def _new_creature_id(self) -> int:
        self.next_creature_id += 1
        return self.next_creature_id - 1

    def _visible(self, cards) -> list:
        return [] if self.observed else [c.to_json() for c in cards]

    def _name(self, index: int) -> str:
        return self.players[index].name

    def _log(self, kind: str, **data) -> None:
        data["type"] = kind
        self.events.append(data)

    # ------------------------------------------------------------------ JSON

    def _position_json(self) -> dict:
        def cards(seq):
            return [None if card is None else card.to_json() for card in seq]
        return {
            "players": [{"name": p.name, "hand": cards(p.hand), "creatures": [c.to_json() for c in p.creatures]}
                        for p in self.players],
            "deck": cards(self.deck), "discard": cards(self.discard), "revealed": cards(self.revealed),
            "herald_due": [list(item) for item in self.herald_due],
            "stack": [task.to_json() for task in self.stack],
            "active": self.active, "actions_left": self.actions_left, "turn": self.turn,
            "first_play_legion": self.first_play_legion.value if self.first_play_legion else None,
            "winner": self.winner, "next_creature_id": self.next_creature_id, "shuffles": self.shuffles,
            "events": len(self.events),
        }

    def _load_position(self, data: dict, events: list[dict]) -> None:
        def cards(seq):
            return [card_from_json(card) for card in seq]
        for player, spec in zip(self.players, data["players"]):
            player.hand = cards(spec["hand"])
            player.creatures = [
                Creature(c["id"], c["owner"], tuple((card_from_json(card), Part(part)) for card, part in c["cards"]),
                         card_from_json(c["seal"]) if c.get("seal") is not None else None)
                for c in spec["creatures"]]
        self.deck, self.discard, self.revealed = cards(data["deck"]), cards(data["discard"]), cards(data["revealed"])
        self.herald_due = tuple((kind, cid) for kind, cid in data["herald_due"])
        self.stack = tuple(task_from_json(task) for task in data["stack"])
        self.active, self.actions_left, self.turn = data["active"], data["actions_left"], data["turn"]
        self.first_play_legion = Legion(data["first_play_legion"]) if data["first_play_legion"] else None
        self.winner, self.next_creature_id, self.shuffles = data["winner"], data["next_creature_id"], data["shuffles"]
        self.events = [dict(event) for event in events[:data["events"]]]

    def to_json(self) -> dict:
        """Everything needed to resume, including undo: the initial position and the moves since."""
        return {
            "game": "nightmarium", "format": SAVE_FORMAT,
            "setup": {"players": [p.name for p in self.players], "edition": self.edition.key,
                      "win_target": self.win_target, "seals": self.seals, "seed": self.seed,
                      "observed": self.observed},
            "initial": self._initial,
            "moves": [move.to_json() for move in self.moves],
            "state": self._position_json(),
            "events": self.events,
        }

    @classmethod
    def from_json(cls, data: dict) -> "Game":
        """Rebuild a saved game by replaying its moves from the initial position, so undo keeps working."""
        if data.get("game") != "nightmarium" or data.get("format") != SAVE_FORMAT:
            raise ValueError("this is not a saved Nightmarium game of a format this version reads")
        setup = data["setup"]
        game = cls(setup["players"], setup["edition"], setup["win_target"], setup["seals"], setup["seed"],
                   setup["observed"])
        game._initial = data["initial"]
        game._load_position(data["initial"], data["events"])
        for move in data["moves"]:
            game.push(move_from_json(move))
        if game._position_json() != data["state"]:
            raise ValueError("the saved moves do not lead to the saved position: the save is inconsistent")
        return game
