"""The referee: stable table states from the camera become engine moves in observed mode.

`observe(table)` looks for a short sequence of legal moves that turns the engine's position into what the camera
sees (a card placed, a card taken, a creature discarded, Herald's revealed cards), trying the candidates each
difference suggests and backtracking with the engine's own push/pop. If no legal sequence explains the table, the
engine is left untouched and the outcome carries a warning that names the rule (the engine's IllegalMove id).
Draws, discard-and-draw and other hidden-hand facts are button presses: `press(move)`.
"""
from __future__ import annotations

from dataclasses import dataclass, field, replace

from companion.games.nightmarium import (Card, DiscardRevealed, Game, IllegalMove, Order, Part, Place,
                                         PlaceSeal, Play, PlaySeal, Reveal, Target)
from companion.referee.diff import CreatureChange, differences
from companion.referee.table_view import face_of, table_of
from vision.table_state import TableState

PARTS_BY_HEIGHT = (Part.LEGS, Part.TORSO, Part.HEAD)
MAX_DEPTH = 12
MAX_NODES = 4000


@dataclass(frozen=True)
class RuleWarning:
    rule: str  # a short rule id, e.g. "placement.torso-needs-legs"
    message: str  # one plain sentence for the players

    def to_json(self) -> dict:
        return {"rule": self.rule, "message": self.message}


@dataclass
class Outcome:
    moves: list = field(default_factory=list)
    events: list[dict] = field(default_factory=list)
    warning: RuleWarning | None = None

    @property
    def changed(self) -> bool:
        return bool(self.moves)


class Referee:
    def __init__(self, game: Game, player_of_seat: dict[int, int] | None = None):
        self.game = game
        self.player_of_seat = player_of_seat or {index: index for index in range(len(game.players))}
        self.warning: RuleWarning | None = None
        self._last_observation = (0, 0, 0)  # (moves before, moves after, events before) of the last observe()
        self._events_before_last = 0

    @property
    def seat_of_player(self) -> dict[int, int]:
        return {player: seat for seat, player in self.player_of_seat.items()}

    def expected_table(self) -> TableState:
        return table_of(self.game, self.seat_of_player)

    # -- the camera ----------------------------------------------------------------------------------------
    def observe(self, table: TableState) -> Outcome:
        if self.game.over:
            return Outcome()
        search = _Search(self.game, table, self.player_of_seat)
        moves = search.run()
        if moves == []:
            self.warning = None
            return Outcome()
        start = len(self.game.events)
        if moves is None:
            moves = self._reinterpret_last_observation(table)
            if moves is None:
                self.warning = search.explain()
                return Outcome(warning=self.warning)
            start = min(start, self._events_before_last)
        for move in moves:
            self.game.push(move)
        moves = moves + self._apply_forced()
        self.warning = None
        self._last_observation = (len(self.game.moves) - len(moves), len(self.game.moves), start)
        return Outcome(moves=moves, events=self.game.events[start:])

    def _reinterpret_last_observation(self, table: TableState) -> list | None:
        """A stable picture can be ambiguous: after Herald, "one card placed, the other still in hand" looks
        exactly like "the other discarded onto a same-looking card, then this one placed" (the order matters: a
        card may be discarded only while it fits nowhere). When the next picture cannot follow from the reading
        chosen, the previous observation's moves are taken back and both pictures are explained together."""
        first, last, self._events_before_last = getattr(self, "_last_observation", (0, 0, 0))
        prompt = self.game.prompt
        if last != len(self.game.moves) or first >= last or prompt is None or prompt.kind != "herald":
            return None
        taken_back = [self.game.pop() for _ in range(last - first)][::-1]
        moves = _Search(self.game, table, self.player_of_seat).run()
        if moves:
            return moves
        for move in taken_back:
            self.game.push(move)
        return None

    def _apply_forced(self) -> list:
        """Moves the rules leave no choice about: a card Herald revealed that fits nowhere is discarded (RULES.md
        1.8 Herald). The camera may not catch the card on its way to the discard pile."""
        forced = []
        while self.game.prompt is not None and self.game.prompt.kind == "herald":
            answers = list(self.game.legal_moves())
            if not answers or not all(isinstance(move, DiscardRevealed) for move in answers):
                break
            self.game.push(answers[0])
            forced.append(answers[0])
        return forced

    # -- buttons and manual entry ---------------------------------------------------------------------------
    def press(self, move) -> Outcome:
        """A move the camera cannot see (draw, discard-and-draw, penalty discard, ...) or one entered by hand."""
        start = len(self.game.events)
        error = self.game.check(move)
        settled = []
        if error is not None and (move.is_action or error.rule == "prompt.wrong-answer"):
            settled = self._settle_herald()
            if settled:
                start = min(start, self._events_before_last)
                error = self.game.check(move)
        if error is not None:
            for _ in settled:
                self.game.pop()
            if settled:
                for old in self._taken_back:
                    self.game.push(old)
            return Outcome(warning=RuleWarning(error.rule, str(error)))
        self.game.push(move)
        moves = settled + [move] + self._apply_forced()
        return Outcome(moves=moves, events=self.game.events[start:])

    def _settle_herald(self) -> list:
        """The players moved on (an action button, or the answer to a later prompt such as the next Herald's
        reveal) while the engine still waits for Herald's last card: the last picture must have been "that card
        discarded first, then the other placed". Re-read it so."""
        prompt = self.game.prompt
        first, last, self._events_before_last = self._last_observation
        if prompt is None or prompt.kind != "herald" or last != len(self.game.moves) or first >= last:
            return []
        table = self.expected_table()
        self._taken_back = [self.game.pop() for _ in range(last - first)][::-1]
        search = _Search(self.game, table, self.player_of_seat)
        search.require_settled = True
        moves = search.run()
        if not moves:
            for old in self._taken_back:
                self.game.push(old)
            return []
        for new in moves:
            self.game.push(new)
        return moves

    def undo(self):
        try:
            return self.game.pop()
        except IllegalMove:
            return None

    def correct_card(self, creature_id: int, height: int, face: Card) -> Outcome:
        """Manual correction: the card at `height` of a creature was recognised wrongly; replay with `face`.

        The moves since that card was placed are undone, the placing move is rebuilt with the corrected face and
        everything is replayed; if the correction makes a later move illegal, nothing changes and a warning says
        which rule stops it.
        """
        game = self.game
        undone = []
        while game.moves and self._card_at(creature_id, height) is not None:
            undone.append(game.pop())
        if not undone or not hasattr(undone[-1], "card"):
            for move in reversed(undone):
                game.push(move)
            return Outcome(warning=RuleWarning("correction.not-found", "That card was not placed by a move."))
        replay = [replace(undone[-1], card=face)] + list(reversed(undone[:-1]))
        done = []
        for move in replay:
            try:
                game.push(move)
                done.append(move)
            except IllegalMove as error:
                for _ in done:
                    game.pop()
                for move_back in reversed(undone):
                    game.push(move_back)
                return Outcome(warning=RuleWarning(error.rule, str(error)))
        return Outcome(moves=[replay[0]])

    def _card_at(self, creature_id: int, height: int):
        creature = self.game.creature(creature_id)
        if creature is None or len(creature.cards) <= height:
            return None
        return creature.cards[height][0]


class _Search:
    """Depth-first search for legal moves that make the engine's table equal the observed one."""

    def __init__(self, game: Game, table: TableState, player_of_seat: dict[int, int]):
        self.game = game
        self.table = table
        self.player_of_seat = player_of_seat
        self.nodes = 0
        self.first_error: IllegalMove | None = None
        self.first_changes: list[CreatureChange] = differences(game, table, player_of_seat)
        self.require_settled = False  # the explanation must leave no Herald card pending

    def run(self) -> list | None:
        """Moves that explain the creatures and the discard pile's top; failing that, the creatures alone (the
        discard pile also changes through button presses whose faces nobody entered). The engine is left as it was
        found: the caller replays the moves."""
        for self.strict in (True, False):
            self.nodes = 0
            found = self._search([], 0)
            if found is not None:
                return found
        return None

    def _discard_matches(self) -> bool:
        seen = self.table.discard_top
        if seen is None:
            return True
        discard = self.game.discard
        return bool(discard) and discard[-1].same_face(face_of(seen))

    def _search(self, path: list, depth: int) -> list | None:
        changes = differences(self.game, self.table, self.player_of_seat)
        settled = not (self.require_settled and self.game.prompt is not None and self.game.prompt.kind == "herald")
        if not changes and (not self.strict or self._discard_matches()) and settled:
            return list(path)
        if depth >= MAX_DEPTH or self.nodes >= MAX_NODES or self.game.over:
            return None
        for move in self._candidates(changes):
            self.nodes += 1
            try:
                self.game.push(move)
            except IllegalMove as error:
                if self.first_error is None:
                    self.first_error = error
                continue
            path.append(move)
            found = self._search(path, depth + 1)
            path.pop()
            self.game.pop()
            if found is not None:
                return found
        return None

    def _candidates(self, changes: list[CreatureChange]):
        game = self.game
        prompt = game.prompt
        kind = prompt.kind if prompt else None
        additions = [change for change in changes if change.added and change.removed == 0]
        removals = [change for change in changes if change.removed and not change.added]
        replaced = [change for change in changes if change.removed and change.added]
        if kind is None:
            for change in additions:
                if change.player == game.active:
                    yield self._placement(change, Play, PlaySeal)
        elif kind == "jester":
            for change in additions:
                if change.player == prompt.player:
                    yield self._placement(change, Place, PlaceSeal)
        elif kind == "reveal":
            yield from self._reveals(additions, prompt.count)
        elif kind == "herald":
            for change in additions:
                if change.player == prompt.player:
                    yield self._placement(change, Place, PlaceSeal)
            for card in dict.fromkeys(game.revealed):
                yield DiscardRevealed(card)
            # Last: a card placed where the camera never saw it, because the chain took it away again (Devourer
            # eats the creature Herald's card has just started) before the table was still.
            for move in game.legal_moves():
                if isinstance(move, (Place, PlaceSeal)):
                    yield move
        elif kind in ("executioner", "devourer"):
            for change in removals + replaced:
                if change.creature_id is not None:
                    yield Target(change.creature_id)
        elif kind == "scavenger":
            for change in removals:
                if change.whole:
                    yield Target(change.creature_id)
        elif kind == "completion_order":
            for _, creature_id in game.stack[-1].due:
                yield Order(creature_id)

    def _placement(self, change: CreatureChange, play, play_seal):
        card = change.added[0]
        if card.is_seal and change.creature_id is not None:
            return play_seal(card, change.creature_id)
        creature = self.game.creature(change.creature_id) if change.creature_id is not None else None
        height = len(creature.cards) if creature is not None else 0
        return play(card, change.creature_id, PARTS_BY_HEIGHT[min(height, 2)])

    def _reveals(self, additions: list[CreatureChange], count: int):
        """Herald's two cards: those placed on the owner's creatures, then the new top of the discard pile."""
        owner = self.game.prompt.player
        faces = [card for change in additions if change.player == owner for card in change.added]
        discard_top = face_of(self.table.discard_top) if self.table.discard_top else None
        if discard_top is not None and len(faces) < count:
            faces.append(discard_top)
        if len(faces) >= count and count:
            yield Reveal(tuple(faces[:count]))
            if count == 2 and len(faces) >= 2:
                yield Reveal((faces[1], faces[0]))

    def explain(self) -> RuleWarning:
        """The warning for a table no legal move explains."""
        game, changes = self.game, self.first_changes
        prompt = game.prompt
        names = [player.name for player in game.players]
        if self.first_error is not None:
            return RuleWarning(self.first_error.rule, str(self.first_error))
        if prompt is not None and prompt.kind == "penalty":
            return RuleWarning("penalty.pending", f"First: {prompt.message} Use the buttons, then change the table.")
        if prompt is not None and prompt.kind in ("completion_order",):
            return RuleWarning("order.pending", prompt.message)
        active = game.active if prompt is None else prompt.player
        for change in changes:
            if change.player != active and change.added and (
                    prompt is None or prompt.kind in ("jester", "herald", "reveal")):
                return RuleWarning("turn.not-your-turn",
                                   f"Cards changed in front of {names[change.player]}, but it is {names[active]}'s "
                                   "turn: put them back.")
        for change in changes:
            if change.removed and prompt is None:
                return RuleWarning("table.card-removed",
                                   f"A card left {names[change.player]}'s creature, but no ability takes one now: "
                                   "put it back.")
            if change.removed and prompt is not None and prompt.kind == "scavenger" and not change.whole:
                return RuleWarning("scavenger.whole-creature",
                                   "The Scavenger discards a whole incomplete creature, not just its top card.")
            if change.removed > 1 and prompt is not None and prompt.kind in ("executioner", "devourer"):
                return RuleWarning(f"{prompt.kind}.top-card-only",
                                   f"The {prompt.kind.capitalize()} takes only the top card of one creature.")
        if prompt is not None:
            return RuleWarning(f"{prompt.kind}.unexpected", f"That does not answer what is pending. {prompt.message}")
        return RuleWarning("table.unexplained", "No legal move explains this change: please fix the table.")
