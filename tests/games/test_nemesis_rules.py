"""Nemesis: Nightmares bag and madness rules (seed 004 = rulebook "Немезида: Кошмары", RULES.md section 4)."""
import random

import pytest

from companion.games.common.engine import IllegalMove
from companion.games.nemesis.data_file import load_nightmares_data
from companion.games.nemesis.engine import BLANK, NemesisBag, madness_token, nightmare_token, token_kind


class Scripted(random.Random):
    """A seeded RNG whose `choice` from the bag returns the token a test names, to replay disputed cases."""

    def __init__(self, picks, seed=0):
        super().__init__(seed)
        self.picks = list(picks)

    def choice(self, options):
        if self.picks and isinstance(options[0], str):
            wanted = self.picks.pop(0)
            assert wanted in options, f"{wanted} not in {options}"
            return wanted
        return super().choice(options)


def bag_with(colours=("red", "blue"), picks=(), seed=0):
    game = NemesisBag.new(list(colours), Scripted([], seed))
    game.rng.picks = list(picks)
    return game


def first_nightmare(game):
    return next(token for token in game.state["bag"] if token_kind(token) == "nightmare")


@pytest.mark.parametrize("players", [1, 2, 3, 4, 5])
def test_setup_bag_and_supply_by_player_count(players):
    """Seed 004 setup steps 10 and 18 (RULES.md 4.2 table): 1 blank + (2+N) nightmares + N madness tokens;
    the other 14-N nightmare tokens are the supply."""
    colours = list(load_nightmares_data().colours[:players])
    game = NemesisBag.new(colours, random.Random(players))
    bag = game.state["bag"]
    assert bag.count(BLANK) == 1
    assert sum(token_kind(t) == "nightmare" for t in bag) == 2 + players
    assert sorted(t for t in bag if token_kind(t) == "madness") == sorted(madness_token(c) for c in colours)
    assert len(game.state["supply"]) == 14 - players
    assert len(bag) == 3 + 2 * players
    assert all(c["madness"] == 1 for c in game.state["characters"].values())


def test_setup_rejects_repeated_or_unknown_colours_and_six_players():
    """Seed 004: one madness token per character colour; RULES.md 4.2: 1 to 5 players."""
    with pytest.raises(IllegalMove):
        NemesisBag.new(["red", "red"], random.Random(0))
    with pytest.raises(IllegalMove):
        NemesisBag.new(["mauve"], random.Random(0))
    with pytest.raises(IllegalMove):
        NemesisBag.new(list(load_nightmares_data().colours[:6]), random.Random(0))


def test_encounter_nightmare_spawns_by_madness_level_and_goes_to_supply():
    """Seed 004 "Жетон кошмара" A and В: the type comes from the encountering character's madness level;
    the token goes to the supply."""
    game = bag_with()
    token = first_nightmare(game)
    game.rng.picks = [token]
    game.state["characters"]["red"]["madness"] = 4
    result = game.draw_encounter("red")
    assert result["spawn"] == game.data.spawn_by_level[4]
    assert token not in game.state["bag"]
    assert int(token.split(":")[1]) in game.state["supply"]
    assert game.state["on_board"][result["spawn"]] == 1


@pytest.mark.parametrize("hand, surprise", [(0, True), (2, True), (3, False), (5, False)])
def test_surprise_attack_only_when_hand_is_smaller_than_token_number(hand, surprise):
    """Seed 004 "Жетон кошмара" Б: surprise attack if the hand holds FEWER cards than the token's number
    (here a token numbered 3); equal is not fewer."""
    game = bag_with()
    token_id = game.data.token_numbers.index(3)
    token = nightmare_token(token_id)
    if token_id in game.state["supply"]:
        game.state["supply"].remove(token_id)
        game.state["bag"] = sorted(game.state["bag"] + [token])
    game.rng.picks = [token]
    assert game.draw_encounter("blue", hand)["surprise"] is surprise


def test_encounter_without_hand_size_leaves_the_comparison_to_the_players():
    """RULES.md M8: the hand is counted at step 2; if the app was not told it, it reports the threshold."""
    game = bag_with()
    token = first_nightmare(game)
    game.rng.picks = [token]
    result = game.draw_encounter("red")
    assert result["surprise"] is None and result["number"] == game.token_number(token)


def test_missing_figure_falls_back_to_previous_level():
    """Seed 004: no stalking figure left -> place a whispering one (the rulebook's own example); further
    down the ranks when needed; nothing at all when every lower rank is gone (RULES.md M3)."""
    game = bag_with()
    level = next(lv for lv, kind in game.data.spawn_by_level.items() if kind == "stalking")
    game.state["characters"]["red"]["madness"] = level
    game.state["on_board"]["stalking"] = game.data.figures["stalking"]
    assert game.spawn_type(level) == "whispering"
    game.state["on_board"]["whispering"] = game.data.figures["whispering"]
    assert game.spawn_type(level) == "lurking"
    game.state["on_board"]["lurking"] = game.data.figures["lurking"]
    assert game.spawn_type(level) is None
    token = first_nightmare(game)
    game.rng.picks = [token]
    result = game.draw_encounter("red", 0)
    assert result["spawn"] is None and result["surprise"] is True and result["to"] == "supply"


def test_oppressive_cannot_appear_after_the_last_lair():
    """Seed 004 "Уничтожение логова": when all 3 lairs are destroyed the oppressive nightmare is destroyed
    and cannot appear again; a spawn falls back to stalking."""
    game = bag_with()
    for _ in range(3):
        game.destroy_lair()
    assert game.state["oppressive_gone"]
    assert game.spawn_type(5) != "oppressive"
    with pytest.raises(IllegalMove):
        game.destroy_lair()


def test_last_lair_removes_oppressive_figure_and_adds_a_token():
    """Seed 004: the oppressive figure leaves at once; RULES.md M5: a destroyed nightmare adds a token."""
    game = bag_with()
    game.state["on_board"]["oppressive"] = 1
    game.destroy_lair()
    game.destroy_lair()
    bag_before = len(game.state["bag"])
    result = game.destroy_lair()
    assert result["oppressive_removed"] and game.state["on_board"]["oppressive"] == 0
    assert len(game.state["bag"]) == bag_before + 1


@pytest.mark.parametrize("colour_drawn", ["red", "blue"])
def test_encounter_madness_token_colour_does_not_matter(colour_drawn):
    """Seed 004 "Жетон безумия персонажа" (encounter): noise, the ENCOUNTERING character resolves a panic
    card whatever the colour, and the token goes back."""
    game = bag_with()
    game.rng.picks = [madness_token(colour_drawn)]
    result = game.draw_encounter("red")
    assert result["panic"] == "red" and result["noise"] and madness_token(colour_drawn) in game.state["bag"]


def test_encounter_blank_makes_noise_and_returns():
    """Seed 004 "Пустой жетон" (encounter): noise in every corridor; the blank goes back into the bag."""
    game = bag_with(picks=[BLANK])
    before = list(game.state["bag"])
    result = game.draw_encounter("blue")
    assert result["noise"] and game.state["bag"] == before


def test_event_nightmare_goes_back_and_everyone_rolls_noise():
    """Seed 004 event step 10 "Кошмар": the token goes back into the bag, then noise rolls."""
    game = bag_with()
    token = first_nightmare(game)
    game.rng.picks = [token]
    before = list(game.state["bag"])
    result = game.draw_event()
    assert result["noise_rolls"] and game.state["bag"] == before


def test_event_madness_token_makes_that_colour_panic():
    """Seed 004 event step 10 "Безумие персонажа": that colour's character resolves a panic card."""
    game = bag_with(picks=[madness_token("blue")])
    assert game.draw_event()["panic"] == "blue"
    assert madness_token("blue") in game.state["bag"]


@pytest.mark.parametrize("status", ["dead", "hibernating", "escaped"])
def test_event_removes_absent_characters_madness_token_and_draws_again(status):
    """Seed 004 event step 10: a dead / hibernating / escaped character's token leaves the bag for good
    and another token is drawn."""
    game = bag_with(picks=[madness_token("red"), BLANK])
    game.set_status("red", status)
    result = game.draw_event()
    assert result["purged"] == [madness_token("red")]
    assert result["token"] == BLANK
    assert madness_token("red") not in game.state["bag"]
    assert game.state["removed"] == [madness_token("red")]


def test_dead_characters_token_drawn_in_an_encounter_stays():
    """RULES.md M9: only event-phase draws purge; in an encounter the colour is irrelevant."""
    game = bag_with(picks=[madness_token("red")])
    game.set_status("red", "dead")
    game.draw_encounter("blue")
    assert madness_token("red") in game.state["bag"]


def test_event_blank_moves_a_supply_token_into_the_bag():
    """Seed 004 event step 10 "Пустой жетон": one random nightmare token from the supply into the bag."""
    game = bag_with(picks=[BLANK])
    supply, bag = len(game.state["supply"]), len(game.state["bag"])
    result = game.draw_event()
    assert result["added"] is not None
    assert len(game.state["supply"]) == supply - 1 and len(game.state["bag"]) == bag + 1


def test_event_blank_with_an_empty_supply_does_nothing():
    """Seed 004: "Если все жетоны кошмаров уже в мешке, ничего не происходит" - the blank just goes back."""
    game = bag_with(picks=[BLANK])
    game.state["bag"] = sorted(game.state["bag"] + [nightmare_token(i) for i in game.state["supply"]])
    game.state["supply"] = []
    before = list(game.state["bag"])
    result = game.draw_event()
    assert result["added"] is None and game.state["bag"] == before


def test_dispel_adds_one_token_per_removed_figure():
    """Seed 004 event step 9 "Развеивание" 3: remove the figures, one supply token per figure removed."""
    game = bag_with()
    game.state["on_board"].update(lurking=2, whispering=1)
    bag = len(game.state["bag"])
    game.dispel(["lurking", "lurking", "whispering"])
    assert game.state["on_board"]["lurking"] == 0 and game.state["on_board"]["whispering"] == 0
    assert len(game.state["bag"]) == bag + 3
    with pytest.raises(IllegalMove):
        game.dispel(["stalking"])


def test_dispel_stops_adding_when_the_supply_runs_dry():
    """RULES.md 4.3: an empty supply adds nothing (mirrors the blank-token rule)."""
    game = bag_with()
    game.state["supply"] = game.state["supply"][:1]
    game.state["on_board"]["lurking"] = 3
    result = game.dispel(["lurking"] * 3)
    assert result["added"][0] is not None and result["added"][1:] == [None, None]


def test_killed_nightmare_adds_a_token_and_oppressive_cannot_be_killed():
    """Seed 004: any nightmare killed adds a random token; the oppressive one dies only via the lairs."""
    game = bag_with()
    game.state["on_board"].update(whispering=1, oppressive=1)
    bag = len(game.state["bag"])
    game.kill_nightmare("whispering")
    assert len(game.state["bag"]) == bag + 1
    with pytest.raises(IllegalMove):
        game.kill_nightmare("oppressive")
    with pytest.raises(IllegalMove):
        game.kill_nightmare("whispering")


def test_madness_goes_up_to_five_and_the_next_increase_kills():
    """Seed 004 "Трек безумия": never above 5; at 5 an increase kills at once."""
    game = bag_with()
    for level in (2, 3, 4, 5):
        assert game.increase_madness("red")["level"] == level
    assert game.increase_madness("red")["died"]
    assert game.state["characters"]["red"]["status"] == "dead"
    with pytest.raises(IllegalMove):
        game.increase_madness("red")


def test_no_way_back_below_three_once_reached():
    """Seed 004 reference card: "Нельзя уменьшить уровень безумия с 3 до 2" (RULES.md M1 floorAt3)."""
    game = bag_with()
    game.increase_madness("red")
    game.decrease_madness("red")  # 2 -> 1 is fine before 3 was ever reached
    for _ in range(3):
        game.increase_madness("red")
    game.decrease_madness("red")  # 4 -> 3 allowed
    assert game.state["characters"]["red"]["madness"] == 3
    with pytest.raises(IllegalMove, match="below 3"):
        game.decrease_madness("red")
    with pytest.raises(IllegalMove):
        game.decrease_madness("blue")  # already at 1


def test_surgery_reduces_to_three_and_does_nothing_at_three():
    """Seed 004 "Хирургическая" / "Антидот": reduce madness to 3; RULES.md M7: no effect at 3 or below."""
    game = bag_with()
    game.infected("red")
    game.reduce_to_three("red")
    assert game.state["characters"]["red"]["madness"] == 3
    with pytest.raises(IllegalMove):
        game.reduce_to_three("red")


def test_infected_sets_five_without_killing():
    """Seed 004: an INFECTED scan sets madness to 5; already at 5 nothing happens (no death)."""
    game = bag_with()
    game.infected("blue")
    game.infected("blue")
    assert game.state["characters"]["blue"] == {"madness": 5, "reached3": True, "status": "alive"}


def test_contamination_step_a_caps_at_five_without_death():
    """Seed 004 contamination check A: +1 per infection card, never above 5, no death at this step."""
    game = bag_with()
    result = game.contamination("red", 7)
    assert result["level"] == 5 and result["check_b"]
    assert game.state["characters"]["red"]["status"] == "alive"


@pytest.mark.parametrize("level, value, applicable, interrupted, outcome, new_level", [
    (1, 2, True, False, "madness", 2),   # level below the card's value
    (2, 2, True, False, "effect", 2),    # equal is not below: the effect applies
    (3, 1, False, False, "madness", 4),  # effect cannot apply
    (2, 1, True, True, "cancelled", 2),  # Interruption cancels it and no madness is gained
])
def test_panic_card(level, value, applicable, interrupted, outcome, new_level):
    """Seed 004 "Карты паники": +1 madness if the level is below the card's value or the effect cannot be
    applied; otherwise the effect, which another character's "Вмешательство" can cancel."""
    game = bag_with()
    game.state["characters"]["red"]["madness"] = level
    assert game.panic("red", value, applicable, interrupted)["outcome"] == outcome
    assert game.state["characters"]["red"]["madness"] == new_level


def test_panic_at_five_kills():
    """Seed 004: a panic card that raises madness at level 5 kills the character."""
    game = bag_with()
    game.infected("red")
    assert game.panic("red", 6)["died"]


def test_odds_sum_to_one_and_follow_the_bag():
    """RULES.md 4.11: draws are uniform over the bag, so each type's chance is its share of the tokens."""
    game = bag_with(("red", "blue", "green"))
    odds = game.odds()
    assert abs(sum(odds.values()) - 1) < 1e-9
    assert odds["blank"] == pytest.approx(1 / 9)
    assert odds["nightmare"] == pytest.approx(5 / 9)
    assert odds[madness_token("green")] == pytest.approx(1 / 9)


def test_peek_is_logged_and_changes_nothing():
    """Issue 5: a deliberate peek for disputes, recorded in the log."""
    game = bag_with()
    before = dict(game.state)
    result = game.peek()
    assert result["bag"] == before["bag"] and game.events[-1]["type"] == "peek"
    assert game.state == before
