"""Attic Monster (rulebook 003, RULES.md section 3): the search-phase rounds and the fight, as a pure engine.

The companion does not model the board: players move their ghosts by hand. It rolls the dice, counts rounds,
remembers what the Monster holds (attic tiles) and what the team holds (crystals, keys), and runs the fight.
"""
from __future__ import annotations

from .dice import Dice, hits, load_dice, roll
from companion.games.common.engine import IllegalMove, Journal, JournaledEngine, saved_state

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # RULES.md 3.2: four ghosts, setup notes for 2 and 3 players
CRYSTALS_IN_BOX = 9  # rulebook 003 "Состав игры": 9 power crystals
KEYS_IN_BOX = 4
# RULES.md open question A1: what "Попробуйте ещё раз!" means after a failed fight.
FIGHT_RETRY_MODES = ("lose", "continue", "reset")
STATE_KEYS = ("players", "hard_mode", "fight_retry", "dice", "phase", "round", "rolls_this_round", "attic",
              "crystals", "keys", "last_roll", "fight")


class AtticGame(JournaledEngine):
    """One game of Attic Monster. `rng` is any object with `choice`; the app passes random.SystemRandom()."""

    def __init__(self, state: dict, rng, journal: Journal | None = None):
        super().__init__(state, journal)
        self.rng = rng

    @classmethod
    def new(cls, players: int, rng, *, hard_mode: bool = False, fight_retry: str = "lose",
            dice: Dice | None = None) -> "AtticGame":
        if not MIN_PLAYERS <= players <= MAX_PLAYERS:
            raise IllegalMove(f"Attic Monster is for {MIN_PLAYERS} to {MAX_PLAYERS} players, not {players}.")
        if fight_retry not in FIGHT_RETRY_MODES:
            raise IllegalMove(f"fight_retry must be one of {FIGHT_RETRY_MODES}, not {fight_retry!r}.")
        state = {
            "players": players,
            "hard_mode": hard_mode,
            "fight_retry": fight_retry,
            "dice": [list(faces) for faces in (dice or load_dice())],
            "phase": "search",
            "round": 1,
            "rolls_this_round": 0,
            "attic": [],
            "crystals": 0,
            "keys": 0,
            "last_roll": None,
            "fight": None,
        }
        return cls(state, rng)

    @classmethod
    def from_json(cls, data: dict, rng) -> "AtticGame":
        return cls(saved_state(data, STATE_KEYS), rng, Journal.from_json(data.get("journal")))

    # --- reading the state -------------------------------------------------------------------------------
    @property
    def phase(self) -> str:
        return self.state["phase"]

    @property
    def round_over(self) -> bool:
        """Everyone has taken a turn: the Monster takes its tile before anyone rolls again (rulebook 003)."""
        return self.phase == "search" and self.state["rolls_this_round"] >= self.state["players"]

    def next_roller(self) -> int | None:
        """Seat index (0 = first player) of whoever rolls next, or None when nobody should."""
        if self.phase == "search":
            return None if self.round_over else self.state["rolls_this_round"]
        fight = self.state["fight"]
        if self.phase == "fight" and fight["verdict"] is None:
            return fight["roller"]
        return None

    def attic_points(self, state: dict | None = None) -> int:
        """Monster strength before crystals: one point per tile, two for a marked tile in hard mode (3.10)."""
        state = state or self.state
        per_tile = (2 if state["hard_mode"] and tile["double"] else 1 for tile in state["attic"])
        return sum(per_tile)

    # --- search phase ------------------------------------------------------------------------------------
    def roll(self) -> dict:
        """The ROLL button: both dice for whoever's turn it is, in either phase."""
        if self.phase == "fight":
            return self._fight_roll()
        if self.phase != "search":
            raise IllegalMove("The game is over: start a new game to roll again.")
        if self.round_over:
            raise IllegalMove(f"Round {self.state['round']} is over: give the Monster a face-up tile "
                              "(or confirm that none qualifies) before rolling.")
        faces = list(roll(self.state["dice"], self.rng))

        def change(state):
            player = state["rolls_this_round"]
            state["rolls_this_round"] += 1
            state["last_roll"] = {"player": player, "faces": faces}
            return {"player": player, "round": state["round"]}

        return self._apply({"type": "roll", "phase": "search", "faces": faces}, change)

    def end_round(self, tile_to_attic: bool, double: bool = False) -> dict:
        """Rulebook 003 "Окончание раунда": the team moves one face-up, ghost-free tile to the attic.

        `tile_to_attic=False` records that no tile qualified, so the Monster gains nothing this round.
        `double` marks a tile bearing the hard-mode symbol.
        """
        if self.phase != "search":
            raise IllegalMove("Rounds only end during the search phase.")
        if not self.round_over:
            waiting = self.state["players"] - self.state["rolls_this_round"]
            raise IllegalMove(f"The round is not over: {waiting} player(s) still have to take their turn.")

        def change(state):
            if tile_to_attic:
                state["attic"].append({"double": bool(double)})
            state["round"] += 1
            state["rolls_this_round"] = 0
            state["last_roll"] = None
            return {"attic_tiles": len(state["attic"])}

        return self._apply({"type": "end_round", "round": self.state["round"], "tile": tile_to_attic,
                            "double": bool(double) and tile_to_attic}, change)

    def collect_crystal(self) -> dict:
        """A ghost stopped on a Power tile and picked up its crystal (rulebook 003, "Сила")."""
        if self.phase != "search":
            raise IllegalMove("Crystals are collected during the search phase.")
        if self.state["crystals"] >= CRYSTALS_IN_BOX:
            raise IllegalMove(f"The box has only {CRYSTALS_IN_BOX} crystals.")

        def change(state):
            state["crystals"] += 1
            return {"crystals": state["crystals"]}

        return self._apply({"type": "crystal"}, change)

    def collect_key(self) -> dict:
        """A room key was picked up; it belongs to the whole team at once (rulebook 003, "Ключ")."""
        if self.phase != "search":
            raise IllegalMove("Keys are collected during the search phase.")
        if self.state["keys"] >= KEYS_IN_BOX:
            raise IllegalMove(f"The box has only {KEYS_IN_BOX} room keys.")

        def change(state):
            state["keys"] += 1
            return {"keys": state["keys"]}

        return self._apply({"type": "key"}, change)

    def attic_key_found(self) -> dict:
        """The attic key ends the search at once: no tile for the Monster, remaining turns are lost (003)."""
        if self.phase != "search":
            raise IllegalMove("The attic key can only be found during the search phase.")

        def change(state):
            state["phase"] = "fight"
            state["fight"] = _new_attempt(1, max(0, self.attic_points(state) - state["crystals"]))
            return {"strength": state["fight"]["points"], "attic_tiles": len(state["attic"])}

        return self._apply({"type": "attic_key"}, change)

    # --- fight phase -------------------------------------------------------------------------------------
    def _fight_roll(self) -> dict:
        fight = self.state["fight"]
        if fight["verdict"] is not None:
            raise IllegalMove("Every player has rolled in this attempt; see the verdict.")
        faces = list(roll(self.state["dice"], self.rng))

        def change(state):
            fight = state["fight"]
            player = fight["roller"]
            removed = min(hits(faces), fight["points"])
            fight["points"] -= removed
            fight["rolls"].append({"player": player, "faces": faces, "hits": hits(faces)})
            fight["roller"] += 1
            state["last_roll"] = {"player": player, "faces": faces}
            outcome = {"player": player, "hits": hits(faces), "strength": fight["points"]}
            # Rulebook 003 fight steps 4-5: the verdict comes only after every player has rolled once.
            if fight["roller"] >= state["players"]:
                fight["verdict"] = "won" if fight["points"] == 0 else "failed"
                if fight["verdict"] == "won":
                    state["phase"] = "won"
                elif state["fight_retry"] == "lose":
                    state["phase"] = "lost"
                outcome["verdict"] = fight["verdict"]
            return outcome

        return self._apply({"type": "roll", "phase": "fight", "faces": faces,
                            "attempt": fight["attempt"]}, change)

    def another_attempt(self) -> dict:
        """After a failed attempt: roll again from the remaining ("continue") or first ("reset") strength."""
        fight = self.state["fight"]
        if self.phase != "fight" or fight is None or fight["verdict"] != "failed":
            raise IllegalMove("Another attempt is only possible after a failed fight (and not in 'lose' mode).")

        def change(state):
            old = state["fight"]
            if state["fight_retry"] == "reset":
                points = old["first_points"]
            else:
                points = old["points"]
            state["fight"] = _new_attempt(old["attempt"] + 1, points, first_points=old["first_points"])
            return {"strength": points}

        return self._apply({"type": "another_attempt"}, change)


def _new_attempt(number: int, points: int, first_points: int | None = None) -> dict:
    return {"attempt": number, "points": points, "start_points": points,
            "first_points": points if first_points is None else first_points,
            "roller": 0, "rolls": [], "verdict": None}
