"""Cthulhu: Pocket Madness scorekeeper (seed 002, RULES.md section 2) as a pure engine.

The players handle the cards; the companion keeps madness, the round's publication counter, who holds which
portal, how each round ended, the first-player choice and the final verdict.
"""
from __future__ import annotations

from .portals import DAGON, GUG, PORTALS, SHOGGOTH
from companion.games.common.engine import IllegalMove, Journal, JournaledEngine, saved_state

MIN_PLAYERS, MAX_PLAYERS = 2, 4  # RULES.md C9: not in the text; 2-4 as sold
GAME_END_MADNESS = 10  # seed 002 "Конец игры": 10 or more at the end of a round
MAX_SETS_PER_ACTION = 3  # 1 to 3 sets or sequences per action
TIE_CHOOSERS = ("next_in_order", "next_tied_in_order")  # RULES.md 2.7 / C8
STATE_KEYS = ("names", "madness", "round", "phase", "first_player", "current", "turn", "publications", "portals",
              "claimed_on_turn", "portal_closed_on_turn", "shoggoth_owner", "history", "round_ends", "chooser",
              "winners", "tie_chooser")


class CthulhuScores(JournaledEngine):
    """Madness tokens, rounds and portals for 2-4 players seated in the given order."""

    @classmethod
    def new(cls, names: list[str], first_player: int = 0, tie_chooser: str = "next_in_order") -> "CthulhuScores":
        names = [name.strip() for name in names]
        if not MIN_PLAYERS <= len(names) <= MAX_PLAYERS:
            raise IllegalMove(f"Pocket Madness is kept here for {MIN_PLAYERS} to {MAX_PLAYERS} players.")
        if any(not name for name in names) or len(set(names)) != len(names):
            raise IllegalMove("Every player needs a distinct, non-empty name.")
        if not 0 <= first_player < len(names):
            raise IllegalMove("The first player must be one of the players.")
        if tie_chooser not in TIE_CHOOSERS:
            raise IllegalMove(f"tie_chooser must be one of {TIE_CHOOSERS}.")
        state = {
            "names": names,
            "madness": [0] * len(names),
            "round": 1,
            "phase": "playing",           # playing | choose_first | over
            "first_player": first_player,
            "current": first_player,
            "turn": 0,                    # counts turns in the whole game; Gug's "not this turn"
            "publications": 0,            # sequences published this round, by anyone
            "portals": {str(number): None for number in PORTALS},
            "claimed_on_turn": {},
            "portal_closed_on_turn": None,
            "shoggoth_owner": None,
            "history": [],                # madness of every player at the end of each round (the chart)
            "round_ends": [],
            "chooser": None,
            "winners": [],
            "tie_chooser": tie_chooser,
        }
        return cls(state)

    @classmethod
    def from_json(cls, data: dict) -> "CthulhuScores":
        return cls(saved_state(data, STATE_KEYS), Journal.from_json(data.get("journal")))

    # --- reading the state -------------------------------------------------------------------------------
    @property
    def players(self) -> int:
        return len(self.state["names"])

    def holder(self, portal: int) -> int | None:
        return self.state["portals"][str(portal)]

    def _player(self, player: int) -> None:
        if not 0 <= player < self.players:
            raise IllegalMove(f"There is no player {player}.")

    def _playing(self) -> None:
        if self.state["phase"] == "choose_first":
            raise IllegalMove("The round is over: the most mad player first names the next first player.")
        if self.state["phase"] == "over":
            raise IllegalMove("The game is over.")

    # --- turns -------------------------------------------------------------------------------------------
    def end_turn(self) -> dict:
        """Pass play clockwise; Shoggoth's lock ends when its owner's next turn starts (RULES.md C6)."""
        self._playing()

        def change(state):
            state["current"] = (state["current"] + 1) % self.players
            state["turn"] += 1
            if state["shoggoth_owner"] == state["current"]:
                state["shoggoth_owner"] = None
            return {"current": state["current"]}

        return self._apply({"type": "end_turn", "player": self.state["current"]}, change)

    # --- main actions ------------------------------------------------------------------------------------
    def publish(self, player: int, sequences: int = 1, empties_hand: bool = False) -> dict:
        """Seed 002 "Опубликовать": the k-th sequence of the round gives every opponent k tokens, whoever
        published the earlier ones. If this empties the hand, the publication pays before the round end."""
        self._playing()
        self._player(player)
        if not 1 <= sequences <= MAX_SETS_PER_ACTION:
            raise IllegalMove(f"Publish 1 to {MAX_SETS_PER_ACTION} sequences, not {sequences}.")

        def change(state):
            gains = [0] * self.players
            for _ in range(sequences):
                state["publications"] += 1
                for other in range(self.players):
                    if other != player:
                        gains[other] += state["publications"]
            _add(state, gains)
            result = {"gains": gains, "publications": state["publications"]}
            if empties_hand:
                result["round_end"] = self._end_by_empty_hand(state, player)
            return result

        return self._apply({"type": "publish", "player": player, "sequences": sequences,
                            "empties_hand": empties_hand}, change)

    def open_sets(self, player: int, portals: list[int], empties_hand: bool = False) -> dict:
        """Seed 002 "Открыть портал": each set of 3+ identical locations claims (or steals) its portal."""
        self._playing()
        self._player(player)
        if not 1 <= len(portals) <= MAX_SETS_PER_ACTION:
            raise IllegalMove(f"Lay 1 to {MAX_SETS_PER_ACTION} sets, not {len(portals)}.")
        unknown = [number for number in portals if number not in PORTALS]
        if unknown:
            raise IllegalMove(f"Portals are numbered 6 to 12; {unknown} is not one.")

        def change(state):
            claimed = []
            for number in dict.fromkeys(portals):  # RULES.md C7: two sets of one location claim it once
                previous = state["portals"][str(number)]
                if previous != player:
                    state["portals"][str(number)] = player
                    state["claimed_on_turn"][str(number)] = state["turn"]
                    claimed.append({"portal": number, "from": previous})
            result = {"claimed": claimed}
            if empties_hand:
                result["round_end"] = self._end_by_empty_hand(state, player)
            return result

        return self._apply({"type": "open_sets", "player": player, "portals": list(portals),
                            "empties_hand": empties_hand}, change)

    def close_portal(self, player: int, portal: int) -> dict:
        """Seed 002 "Закрыть портал": use a held portal's power and return it; one per turn (Dagon adds one)."""
        self._playing()
        self._player(player)
        state = self.state
        if portal not in PORTALS:
            raise IllegalMove(f"Portals are numbered 6 to 12, not {portal}.")
        if state["portals"][str(portal)] != player:
            raise IllegalMove(f"{state['names'][player]} does not hold portal {portal}.")
        if state["portal_closed_on_turn"] == state["turn"]:
            raise IllegalMove("Only one portal can be closed per turn.")
        if portal == GUG and state["claimed_on_turn"].get(str(portal)) == state["turn"]:
            raise IllegalMove("Gug cannot be used on the turn it was claimed.")

        def change(state):
            state["portals"][str(portal)] = None
            state["portal_closed_on_turn"] = state["turn"]
            if portal == SHOGGOTH:
                state["shoggoth_owner"] = player
            if portal == DAGON:
                # Dagon's extra turn is a turn of its own, with its own Close Portal (RULES.md C5).
                state["turn"] += 1
            return {"power": PORTALS[portal][0]}

        return self._apply({"type": "close_portal", "player": player, "portal": portal}, change)

    # --- round ends --------------------------------------------------------------------------------------
    def empty_hand(self, player: int) -> dict:
        """A hand emptied in any other way (RULES.md C4): the round ends as type B."""
        self._playing()
        self._player(player)
        return self._apply({"type": "empty_hand", "player": player},
                           lambda state: {"round_end": self._end_by_empty_hand(state, player)})

    def deck_ran_out(self, distinct_in_hand: list[int], last_taker: int) -> dict:
        """Seed 002 "Колода пуста": after the final reveals each player takes 1 token per different location
        type left in hand (RULES.md C1). `last_taker` took the last card; the tie rule needs it."""
        self._playing()
        self._player(last_taker)
        if len(distinct_in_hand) != self.players:
            raise IllegalMove("Enter a count for every player.")
        if any(not 0 <= count <= len(PORTALS) for count in distinct_in_hand):
            raise IllegalMove(f"A hand holds 0 to {len(PORTALS)} different location types.")

        def change(state):
            _add(state, list(distinct_in_hand))
            return {"round_end": self._finish_round(state, "deck", last_taker, list(distinct_in_hand))}

        return self._apply({"type": "deck_ran_out", "distinct": list(distinct_in_hand),
                            "last_taker": last_taker}, change)

    def _end_by_empty_hand(self, state: dict, player: int) -> dict:
        """Seed 002 "Игрок сыграл все свои карты": discard half rounded up, each opponent +1."""
        discarded = (state["madness"][player] + 1) // 2
        state["madness"][player] -= discarded
        _add(state, [0 if other == player else 1 for other in range(self.players)])
        return {**self._finish_round(state, "empty_hand", player, None), "discarded": discarded}

    def _finish_round(self, state: dict, how: str, last_actor: int, distinct: list[int] | None) -> dict:
        state["history"].append(list(state["madness"]))
        state["round_ends"].append({"round": state["round"], "how": how, "player": last_actor})
        if max(state["madness"]) >= GAME_END_MADNESS:
            least = min(state["madness"])
            state["winners"] = [p for p, m in enumerate(state["madness"]) if m == least]
            state["phase"] = "over"
            return {"how": how, "game_over": True, "winners": state["winners"]}
        state["phase"] = "choose_first"
        state["chooser"] = self._chooser(state, last_actor)
        return {"how": how, "game_over": False, "chooser": state["chooser"]}

    def _chooser(self, state: dict, last_actor: int) -> int:
        """Seed 002 "Начало нового раунда": the most mad names the first player; on a tie, the player who
        would have taken the next turn (optionally the next tied one, RULES.md C8)."""
        most = max(state["madness"])
        tied = [p for p, m in enumerate(state["madness"]) if m == most]
        if len(tied) == 1:
            return tied[0]
        next_player = (last_actor + 1) % self.players
        if state["tie_chooser"] == "next_in_order":
            return next_player
        return min(tied, key=lambda p: (p - next_player) % self.players)

    def choose_first_player(self, first: int) -> dict:
        """The chooser's decision starts the next round; portals and madness carry over."""
        if self.state["phase"] != "choose_first":
            raise IllegalMove("The first player is chosen only between rounds.")
        self._player(first)

        def change(state):
            state.update(round=state["round"] + 1, phase="playing", first_player=first, current=first,
                         publications=0, chooser=None, turn=state["turn"] + 1)
            if state["shoggoth_owner"] == first:
                state["shoggoth_owner"] = None
            return {"round": state["round"]}

        return self._apply({"type": "first_player", "chooser": self.state["chooser"], "first": first}, change)


def _add(state: dict, gains: list[int]) -> None:
    state["madness"] = [have + gain for have, gain in zip(state["madness"], gains)]
