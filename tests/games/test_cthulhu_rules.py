"""Cthulhu: Pocket Madness scorekeeping (seed 002 = rulebook "Ктулху: карманное безумие", RULES.md section 2)."""
import pytest

from companion.games.common.engine import IllegalMove
from companion.games.cthulhu.engine import CthulhuScores
from companion.games.cthulhu.portals import PORTALS
from companion.ui.i18n import table

A, B, C = 0, 1, 2


def three_players(**kwargs):
    return CthulhuScores.new(["Ann", "Bob", "Cy"], **kwargs)


def test_acceptance_c1_escalation_across_players_and_empty_hand_by_publication():
    """RULES.md 2.9 acceptance test C-1 / seed 002 "Опубликовать" and "Игрок сыграл все свои карты": the k-th
    sequence of the round gives each opponent k, whoever published before; a hand emptied by publishing pays
    the publication first, then the round end; the game ends at 10 and the least mad wins."""
    game = three_players()
    game.publish(A)
    assert game.state["madness"] == [0, 1, 1]
    game.publish(B, 2)
    assert game.state["madness"] == [5, 1, 6]
    result = game.publish(C, 1, empties_hand=True)
    assert result["gains"] == [4, 4, 0]
    assert result["round_end"]["discarded"] == 3
    assert game.state["madness"] == [10, 6, 3]
    assert game.state["phase"] == "over" and game.state["winners"] == [C]


def test_escalation_resets_each_round():
    """Seed 002: the counter counts sequences "в один раунд"; a new round starts again at 1."""
    game = three_players()
    game.publish(A, 2)
    game.empty_hand(B)
    game.choose_first_player(A)
    game.publish(B)
    assert game.state["publications"] == 1
    assert game.events[-1]["gains"] == [1, 0, 1]


@pytest.mark.parametrize("madness, kept", [(7, 3), (6, 3), (1, 0), (0, 0), (9, 4)])
def test_empty_hand_discards_half_rounded_up(madness, kept):
    """Seed 002: "сбрасывает половину своих фишек Безумия (округляя вверх)" - 7 keeps 3, 1 keeps 0."""
    game = three_players()
    game.state["madness"] = [madness, 0, 0]
    result = game.empty_hand(A)
    assert game.state["madness"] == [kept, 1, 1]
    assert result["round_end"]["discarded"] == madness - kept


def test_deck_runs_out_each_player_takes_distinct_location_types():
    """Seed 002 "Колода пуста": +1 per different location left in hand (RULES.md C1): 3xInnsmouth + Dunwich
    + Lomar gives 3."""
    game = three_players()
    game.deck_ran_out([3, 0, 7], last_taker=B)
    assert game.state["madness"] == [3, 0, 7]
    assert game.state["round_ends"][-1]["how"] == "deck"
    with pytest.raises(IllegalMove):
        game.deck_ran_out([1, 1, 1], last_taker=A)  # the round is already over


def test_deck_counts_are_checked():
    """RULES.md 2.1: seven location types, so a hand holds 0-7 different ones; every player needs a count."""
    game = three_players()
    with pytest.raises(IllegalMove):
        game.deck_ran_out([1, 2], last_taker=A)
    with pytest.raises(IllegalMove):
        game.deck_ran_out([8, 0, 0], last_taker=A)
    assert game.state["madness"] == [0, 0, 0] and game.events == []


def test_game_ends_only_at_round_end_and_can_be_saved_by_an_empty_hand():
    """Seed 002 "Конец игры": checked at the end of a round; RULES.md 2.8: above 10 during a round is fine,
    and halving can bring a player back under 10 before the check."""
    game = three_players()
    game.state["madness"] = [12, 0, 0]
    game.publish(B)
    assert game.state["phase"] == "playing"
    game.empty_hand(A)  # A: 13 -> 6, B and C +1
    assert game.state["phase"] == "choose_first"
    assert game.state["madness"] == [6, 1, 2]


def test_ties_share_the_win():
    """Seed 002 "Конец игры": "В случае ничьи победа достается обоим игрокам"."""
    game = three_players()
    game.state["madness"] = [9, 2, 2]
    game.deck_ran_out([1, 0, 0], last_taker=A)
    assert game.state["winners"] == [B, C]


def test_most_mad_player_chooses_the_next_first_player():
    """Seed 002 "Начало нового раунда": the player with the most madness names the first player, may be
    themself."""
    game = three_players()
    game.deck_ran_out([2, 5, 1], last_taker=A)
    assert game.state["chooser"] == B
    game.choose_first_player(B)
    assert game.state["current"] == B and game.state["round"] == 2


def test_tie_for_most_madness_next_player_in_turn_chooses():
    """Seed 002: on a tie "тот игрок, который должен был бы ходить" chooses: the one after the last turn
    (RULES.md C8, literal reading: even if not tied)."""
    game = three_players()
    game.deck_ran_out([4, 1, 4], last_taker=A)
    assert game.state["chooser"] == B


def test_tie_chooser_variant_takes_the_next_tied_player():
    """RULES.md C8 variant tieChooser = nextTiedInOrder."""
    game = three_players(tie_chooser="next_tied_in_order")
    game.deck_ran_out([4, 1, 4], last_taker=A)
    assert game.state["chooser"] == C


def test_sets_claim_and_steal_portals_and_closing_returns_them():
    """Seed 002 "Открыть портал" / "Закрыть портал": a set claims its portal from the middle or from its
    holder; closing uses the power and returns it to the middle."""
    game = three_players()
    game.open_sets(A, [9, 12])
    assert game.holder(9) == A and game.holder(12) == A
    result = game.open_sets(B, [9])
    assert result["claimed"] == [{"portal": 9, "from": A}]
    game.open_sets(B, [9])
    assert game.events[-1]["claimed"] == []  # already held: nothing happens
    with pytest.raises(IllegalMove):
        game.close_portal(A, 9)
    game.close_portal(B, 9)
    assert game.holder(9) is None


def test_one_portal_per_turn_and_gug_not_on_the_turn_claimed():
    """Seed 002: "Ты можешь использовать только один Портал за ход"; Gug "не может быть сыгран сразу же в
    этот ход"."""
    game = three_players()
    game.open_sets(A, [12, 7])
    with pytest.raises(IllegalMove, match="Gug"):
        game.close_portal(A, 12)
    game.close_portal(A, 7)
    with pytest.raises(IllegalMove, match="one portal"):
        game.close_portal(A, 12)
    for _ in range(3):
        game.end_turn()
    game.close_portal(A, 12)
    assert game.holder(12) is None


def test_dagon_extra_turn_allows_another_portal():
    """Seed 002 Dagon: "сыграть еще полный круг ... можешь также дополнительно Закрыть портал"."""
    game = three_players()
    game.open_sets(A, [9, 8])
    game.close_portal(A, 9)
    game.close_portal(A, 8)
    assert game.holder(8) is None


def test_shoggoth_lasts_until_its_owners_next_turn():
    """Seed 002 Shoggoth: "До твоего следующего хода" (RULES.md C6: even across a round boundary)."""
    game = three_players()
    game.open_sets(A, [11])
    game.close_portal(A, 11)
    game.end_turn()
    assert game.state["shoggoth_owner"] == A
    game.end_turn()
    game.end_turn()
    assert game.state["shoggoth_owner"] is None


def test_publish_and_sets_are_one_to_three_per_action():
    """Seed 002: "Вскрой 1, 2 или 3" sets or sequences."""
    game = three_players()
    for bad in (0, 4):
        with pytest.raises(IllegalMove):
            game.publish(A, bad)
    with pytest.raises(IllegalMove):
        game.open_sets(A, [6, 7, 8, 9])
    with pytest.raises(IllegalMove):
        game.open_sets(A, [5])


def test_no_moves_while_the_first_player_is_being_chosen():
    """Seed 002: the new round starts once the first player is named."""
    game = three_players()
    game.empty_hand(A)
    with pytest.raises(IllegalMove):
        game.publish(B)
    with pytest.raises(IllegalMove):
        game.choose_first_player(7)


def test_history_keeps_each_rounds_madness_for_the_chart():
    """Issue 5: a chart of each player's madness round by round."""
    game = three_players()
    game.deck_ran_out([1, 2, 0], last_taker=A)
    game.choose_first_player(B)
    game.deck_ran_out([2, 0, 1], last_taker=C)
    assert game.state["history"] == [[1, 2, 0], [3, 2, 1]]


def test_seven_portal_powers_are_described():
    """Seed 002 "Карты порталов": seven portals numbered 6 to 12, each with its power."""
    assert sorted(PORTALS) == list(range(6, 13))
    for key, _location in PORTALS.values():
        entry = table()[f"cthulhu.power.{key}"]
        assert all(entry[lang].strip() for lang in ("en", "ru", "pl"))


def test_setup_checks_players():
    """RULES.md C9: 2-4 players by default, each with a distinct name."""
    with pytest.raises(IllegalMove):
        CthulhuScores.new(["Solo"])
    with pytest.raises(IllegalMove):
        CthulhuScores.new(["A", "A"])
    with pytest.raises(IllegalMove):
        CthulhuScores.new(["A", "B", "C", "D", "E"])
