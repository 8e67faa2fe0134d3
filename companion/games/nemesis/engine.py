"""The Nemesis: Nightmares intruder bag and madness tracks (seed 004, RULES.md section 4) as a pure engine.

Tokens are strings so the state stays plain JSON: "blank", "nightmare:<id>" (id indexes the data file's
token numbers) and "madness:<colour>". The bag is kept sorted so a seeded draw does not depend on history.
"""
from __future__ import annotations

from .data_file import NIGHTMARE_TYPES, NightmaresData, load_nightmares_data
from companion.games.common.engine import IllegalMove, Journal, JournaledEngine, saved_state

BLANK = "blank"
DRAW_KINDS = ("encounter", "event", "other")
STATUSES = ("alive", "dead", "hibernating", "escaped")
MIN_PLAYERS, MAX_PLAYERS = 1, 5  # RULES.md 4.2 table
LAIRS = 3
STATE_KEYS = ("data", "order", "bag", "supply", "removed", "characters", "on_board", "lairs_destroyed",
              "oppressive_gone", "last_draw")


def nightmare_token(token_id: int) -> str:
    return f"nightmare:{token_id}"


def madness_token(colour: str) -> str:
    return f"madness:{colour}"


def token_kind(token: str) -> str:
    return token.split(":", 1)[0]


def token_detail(token: str) -> str:
    return token.split(":", 1)[1]


class NemesisBag(JournaledEngine):
    """The bag, the supply beside it, the nightmare figures and each character's madness track."""

    def __init__(self, state: dict, rng, journal: Journal | None = None):
        super().__init__(state, journal)
        self.rng = rng
        self.data = NightmaresData.from_json(state["data"])

    @classmethod
    def new(cls, colours: list[str], rng, data: NightmaresData | None = None) -> "NemesisBag":
        """Seed 004 setup steps 10 and 18: blank + (2 + players) random nightmares + one madness per colour."""
        data = data or load_nightmares_data()
        if not MIN_PLAYERS <= len(colours) <= MAX_PLAYERS:
            raise IllegalMove(f"Nemesis is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {len(colours)}.")
        if len(set(colours)) != len(colours):
            raise IllegalMove("Each player needs a different colour.")
        unknown = [colour for colour in colours if colour not in data.colours]
        if unknown:
            raise IllegalMove(f"Unknown colour(s) {unknown}; the tokens are {list(data.colours)}.")
        all_ids = list(range(len(data.token_numbers)))
        in_bag = sorted(rng.sample(all_ids, 2 + len(colours)))
        state = {
            "data": data.to_json(),
            "order": list(colours),
            "bag": sorted([BLANK] + [nightmare_token(i) for i in in_bag] + [madness_token(c) for c in colours]),
            "supply": [i for i in all_ids if i not in in_bag],
            "removed": [],
            "characters": {c: {"madness": 1, "reached3": False, "status": "alive"} for c in colours},
            "on_board": {kind: 0 for kind in NIGHTMARE_TYPES},
            "lairs_destroyed": 0,
            "oppressive_gone": False,
            "last_draw": None,
        }
        return cls(state, rng)

    @classmethod
    def from_json(cls, data: dict, rng) -> "NemesisBag":
        return cls(saved_state(data, STATE_KEYS), rng, Journal.from_json(data.get("journal")))

    # --- reading the state -------------------------------------------------------------------------------
    def token_number(self, token: str) -> int | None:
        return self.data.token_numbers[int(token_detail(token))] if token_kind(token) == "nightmare" else None

    def bag_size(self) -> int:
        return len(self.state["bag"])

    def odds(self) -> dict[str, float]:
        """Chance of each token type on the next draw: blank, nightmare, and madness per colour."""
        bag = self.state["bag"]
        total = len(bag) or 1
        chances = {"blank": 0.0, "nightmare": 0.0}
        for colour in self.state["order"]:
            chances[madness_token(colour)] = 0.0
        for token in bag:
            key = token if token_kind(token) == "madness" else token_kind(token)
            chances[key] = chances.get(key, 0.0) + 1 / total
        return chances

    def figures_available(self, kind: str, state: dict | None = None) -> int:
        state = state or self.state
        if kind == "oppressive" and state["oppressive_gone"]:
            return 0  # seed 004: once the last lair falls it "can no longer appear"
        return self.data.figures[kind] - state["on_board"][kind]

    def spawn_type(self, level: int, state: dict | None = None) -> str | None:
        """Seed 004 "Жетон кошмара" A + the missing-figure rule: step down the ranks; None if none is left."""
        rank = NIGHTMARE_TYPES.index(self.data.spawn_by_level[level])
        for kind in reversed(NIGHTMARE_TYPES[: rank + 1]):
            if self.figures_available(kind, state) > 0:
                return kind
        return None  # RULES.md open question M3: nothing spawns

    def _character(self, state: dict, colour: str) -> dict:
        if colour not in state["characters"]:
            raise IllegalMove(f"No character plays {colour}.")
        return state["characters"][colour]

    def _living(self, state: dict, colour: str) -> dict:
        character = self._character(state, colour)
        if character["status"] != "alive":
            raise IllegalMove(f"The {colour} character is {character['status']}.")
        return character

    # --- the DRAW button ---------------------------------------------------------------------------------
    def draw(self, kind: str, colour: str | None = None, hand_size: int | None = None) -> dict:
        if kind == "encounter":
            if colour is None:
                raise IllegalMove("An encounter needs the colour of the character who caused it.")
            return self.draw_encounter(colour, hand_size)
        if kind == "event":
            return self.draw_event()
        if kind == "other":
            return self.draw_other()
        raise IllegalMove(f"Unknown kind of draw {kind!r}; use one of {DRAW_KINDS}.")

    def _pick(self, bag: list[str]) -> str:
        if not bag:
            raise IllegalMove("The bag is empty.")
        return self.rng.choice(sorted(bag))

    def draw_encounter(self, colour: str, hand_size: int | None = None) -> dict:
        """Seed 004 "Столкновение" step 2; surprise attack only when the hand size is known (RULES.md M8)."""
        if hand_size is not None and hand_size < 0:
            raise IllegalMove("A hand cannot hold fewer than 0 cards.")
        self._living(self.state, colour)
        token = self._pick(self.state["bag"])

        def change(state):
            character = state["characters"][colour]
            result = {"token": token, "kind": token_kind(token), "colour": colour}
            if token_kind(token) == "nightmare":
                number = self.token_number(token)
                spawn = self.spawn_type(character["madness"], state)
                if spawn:
                    state["on_board"][spawn] += 1
                state["bag"].remove(token)
                state["supply"] = sorted(state["supply"] + [int(token_detail(token))])
                result.update(number=number, spawn=spawn, level=character["madness"],
                              wanted=self.data.spawn_by_level[character["madness"]], to="supply",
                              surprise=None if hand_size is None else hand_size < number)
            elif token_kind(token) == "madness":
                # The colour does not matter here: the encountering character resolves the panic card.
                result.update(noise=True, panic=colour, to="bag")
            else:
                result.update(noise=True, to="bag")
            state["last_draw"] = result
            return result

        return self._apply({"type": "draw", "draw": "encounter", "hand_size": hand_size}, change)

    def draw_event(self) -> dict:
        """Event phase step 10: a madness token of a dead/hibernating/escaped character leaves and we redraw."""
        def change(state):
            purged = []
            while True:
                token = self._pick(state["bag"])
                if token_kind(token) != "madness":
                    break
                owner = state["characters"].get(token_detail(token))
                if owner is not None and owner["status"] == "alive":
                    break
                state["bag"].remove(token)
                state["removed"].append(token)
                purged.append(token)
            result = {"token": token, "kind": token_kind(token), "purged": purged, "to": "bag"}
            if token_kind(token) == "nightmare":
                result.update(number=self.token_number(token), noise_rolls=True)
            elif token_kind(token) == "madness":
                result.update(panic=token_detail(token))
            else:
                result["added"] = self._add_from_supply(state)
            state["last_draw"] = result
            return result

        return self._apply({"type": "draw", "draw": "event"}, change)

    def draw_other(self) -> dict:
        """A draw some card asks for: reveal a token and put it back; the card says what it means."""
        token = self._pick(self.state["bag"])

        def change(state):
            result = {"token": token, "kind": token_kind(token), "number": self.token_number(token), "to": "bag"}
            state["last_draw"] = result
            return result

        return self._apply({"type": "draw", "draw": "other"}, change)

    def _add_from_supply(self, state: dict) -> str | None:
        """One random nightmare token from the supply into the bag; nothing if the supply is empty (4.3)."""
        if not state["supply"]:
            return None
        token_id = self.rng.choice(state["supply"])
        state["supply"].remove(token_id)
        state["bag"] = sorted(state["bag"] + [nightmare_token(token_id)])
        return nightmare_token(token_id)

    def peek(self) -> dict:
        """A deliberate look into the hidden bag to settle a dispute; logged so everyone knows it happened."""
        contents = sorted(self.state["bag"])
        return self._apply({"type": "peek"}, lambda state: {"bag": contents})

    # --- figures and lairs -------------------------------------------------------------------------------
    def kill_nightmare(self, kind: str) -> dict:
        """Seed 004 "Важное замечание": a killed nightmare leaves no carcass and adds a token to the bag."""
        if kind not in NIGHTMARE_TYPES:
            raise IllegalMove(f"Unknown nightmare {kind!r}.")
        if kind == "oppressive":
            raise IllegalMove("The oppressive nightmare cannot be damaged: destroy all three lairs instead.")
        if self.state["on_board"][kind] < 1:
            raise IllegalMove(f"No {kind} nightmare is on the board.")

        def change(state):
            state["on_board"][kind] -= 1
            return {"added": self._add_from_supply(state)}

        return self._apply({"type": "kill", "nightmare": kind}, change)

    def dispel(self, kinds: list[str]) -> dict:
        """Event step 9: remove these figures; one random supply token into the bag per figure removed."""
        wanted = {kind: kinds.count(kind) for kind in set(kinds)}
        for kind, count in wanted.items():
            if kind not in NIGHTMARE_TYPES:
                raise IllegalMove(f"Unknown nightmare {kind!r}.")
            if self.state["on_board"][kind] < count:
                raise IllegalMove(f"Only {self.state['on_board'][kind]} {kind} nightmare(s) are on the board.")

        def change(state):
            added = []
            for kind in kinds:
                state["on_board"][kind] -= 1
                added.append(self._add_from_supply(state))
            return {"added": added}

        return self._apply({"type": "dispel", "nightmares": list(kinds)}, change)

    def destroy_lair(self) -> dict:
        """Seed 004 "Уничтожение логова": the third destroyed lair destroys the oppressive nightmare for good."""
        if self.state["lairs_destroyed"] >= LAIRS:
            raise IllegalMove("All three lairs are already destroyed.")

        def change(state):
            state["lairs_destroyed"] += 1
            result = {"lairs_destroyed": state["lairs_destroyed"], "oppressive_removed": False, "added": None}
            if state["lairs_destroyed"] == LAIRS:
                state["oppressive_gone"] = True
                if state["on_board"]["oppressive"]:
                    # RULES.md M5: a destroyed nightmare on the board adds a token like any other.
                    state["on_board"]["oppressive"] = 0
                    result.update(oppressive_removed=True, added=self._add_from_supply(state))
            return result

        return self._apply({"type": "lair"}, change)

    # --- madness tracks ----------------------------------------------------------------------------------
    def increase_madness(self, colour: str, reason: str = "effect") -> dict:
        """Seed 004 "Трек безумия": +1; a character at 5 who must go up dies at once."""
        self._living(self.state, colour)

        def change(state):
            return _raise_madness(state["characters"][colour])

        return self._apply({"type": "madness_up", "colour": colour, "reason": reason}, change)

    def decrease_madness(self, colour: str, reason: str = "rest") -> dict:
        """Rest card, Shower, Canteen: -1, but never from 3 to 2 once 3 was reached (RULES.md M1 floorAt3)."""
        character = self._living(self.state, colour)
        if character["madness"] <= 1:
            raise IllegalMove(f"{colour} is already at madness 1.")
        if character["reached3"] and character["madness"] <= 3:
            raise IllegalMove(f"{colour} has reached madness 3: it can no longer go back below 3.")

        def change(state):
            state["characters"][colour]["madness"] -= 1
            return {"level": state["characters"][colour]["madness"]}

        return self._apply({"type": "madness_down", "colour": colour, "reason": reason}, change)

    def reduce_to_three(self, colour: str, reason: str = "surgery") -> dict:
        """Surgery or Antidote: madness down to 3; no effect at 3 or below (RULES.md M7)."""
        character = self._living(self.state, colour)
        if character["madness"] <= 3:
            raise IllegalMove(f"{colour} is at madness {character['madness']}: {reason} changes nothing.")

        def change(state):
            state["characters"][colour]["madness"] = 3
            return {"level": 3}

        return self._apply({"type": "madness_to_3", "colour": colour, "reason": reason}, change)

    def infected(self, colour: str) -> dict:
        """An INFECTED scan sets madness to 5; at 5 nothing happens and nobody dies (seed 004)."""
        self._living(self.state, colour)

        def change(state):
            character = state["characters"][colour]
            character.update(madness=5, reached3=True)
            return {"level": 5}

        return self._apply({"type": "infected", "colour": colour}, change)

    def contamination(self, colour: str, infection_cards: int) -> dict:
        """Contamination check step A: +1 per infection card, capped at 5, no death; skipped at 5."""
        self._living(self.state, colour)
        if infection_cards < 0:
            raise IllegalMove("The number of infection cards cannot be negative.")

        def change(state):
            character = state["characters"][colour]
            character["madness"] = min(5, character["madness"] + infection_cards)
            character["reached3"] = character["reached3"] or character["madness"] >= 3
            return {"level": character["madness"], "check_b": character["madness"] == 5}

        return self._apply({"type": "contamination", "colour": colour, "cards": infection_cards}, change)

    def panic(self, colour: str, card_value: int, applicable: bool = True, interrupted: bool = False) -> dict:
        """Seed 004 "Карты паники": +1 madness if the level is below the card's value or the effect
        cannot apply; otherwise the effect applies unless another character interrupts it."""
        self._living(self.state, colour)

        def change(state):
            character = state["characters"][colour]
            if character["madness"] < card_value or not applicable:
                return {"outcome": "madness", **_raise_madness(character)}
            return {"outcome": "cancelled" if interrupted else "effect"}

        return self._apply({"type": "panic", "colour": colour, "value": card_value,
                            "applicable": applicable, "interrupted": interrupted}, change)

    def set_status(self, colour: str, status: str) -> dict:
        """Dead, in hibernation or in an escape pod: its madness token leaves at the next event draw."""
        if status not in STATUSES:
            raise IllegalMove(f"Unknown status {status!r}; use one of {STATUSES}.")
        if self._character(self.state, colour)["status"] == status:
            raise IllegalMove(f"{colour} is already {status}.")

        def change(state):
            state["characters"][colour]["status"] = status

        return self._apply({"type": "status", "colour": colour, "status": status}, change)


def _raise_madness(character: dict) -> dict:
    if character["madness"] >= 5:
        character["status"] = "dead"
        return {"level": 5, "died": True}
    character["madness"] += 1
    character["reached3"] = character["reached3"] or character["madness"] >= 3
    return {"level": character["madness"], "died": False}
