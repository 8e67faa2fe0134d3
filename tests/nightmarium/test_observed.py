"""Observed mode: the referee beside a real game sees the table but not the hands or the deck (issue 2)."""
import pytest

from companion.games.nightmarium import (CannotPerform, Card, Discard, DiscardDraw, DiscardRevealed, Draw, Game,
                                         IllegalMove, Place, Play, Reveal, Target)

from .helpers import HEAD, LEGS, TORSO, event_types, position


def face(legion, parts, ability=None):
    return Card.face(legion, parts.split("/"), ability)


def observed_game(players=2, **kwargs):
    return Game.new([f"P{i}" for i in range(players)], observed=True, **kwargs)


def test_hidden_hands_and_deck_are_counts():
    game = observed_game(4)
    assert [p.hand for p in game.players] == [[None] * 5] * 4
    assert game.deck_size == 108 - 20
    game.push(Draw())
    assert len(game.players[0].hand) == 6 and game.deck_size == 87


def test_played_faces_are_validated_for_placement_and_same_legion():
    """RULES.md 1.5, 1.6 apply to what the camera sees."""
    game = observed_game()
    with pytest.raises(IllegalMove) as error:
        game.push(Play(face("red", "torso"), None, TORSO))
    assert error.value.rule == "placement.needs-creature"
    game.push(Play(face("red", "legs"), None, LEGS))
    with pytest.raises(IllegalMove) as error:
        game.push(Play(face("blue", "legs"), None, LEGS))
    assert error.value.rule == "same-legion"
    creature = game.players[0].creatures[0].id
    game.push(Play(face("red", "torso/head"), creature, TORSO))
    assert len(game.players[0].hand) == 3 and game.active == 1   # two actions taken: the turn passed


def test_a_player_with_no_cards_cannot_play():
    game = position([("A", [], []), ("B", [None], [])], observed=True, deck=[None] * 10)
    with pytest.raises(IllegalMove) as error:
        game.push(Play(face("red", "legs"), None, LEGS))
    assert error.value.rule == "hand.not-held"


def test_discard_and_draw_counts_in_observed_mode():
    game = observed_game(edition="pl2017")
    game.push(DiscardDraw((face("red", "legs"), face("blue", "head"), face("green", "torso"))))
    assert len(game.players[0].hand) == 5 - 3 + 2 and len(game.discard) == 3


def test_herald_asks_what_was_revealed_and_validates_it():
    """RULES.md 1.8 Herald in observed mode: the camera (or the players) report the revealed faces."""
    legs, torso = face("red", "legs"), face("green", "torso")
    head = face("blue", "head", "herald")
    game = position([("A", [None, None], [[(legs, LEGS), (torso, TORSO)]]), ("B", [None], [])],
                    deck=[None] * 10, observed=True)
    game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert game.prompt.kind == "reveal" and game.prompt.count == 2
    with pytest.raises(IllegalMove) as error:
        game.push(Reveal((face("red", "legs"),)))
    assert error.value.rule == "herald.reveal-two"
    game.push(Reveal((face("red", "legs"), face("brown", "head"))))
    assert game.prompt.kind == "herald" and game.deck_size == 8
    with pytest.raises(IllegalMove):
        game.push(Place(face("brown", "head"), None, LEGS))
    game.push(Place(face("red", "legs"), None, LEGS))
    assert game.prompt.kind == "herald"
    events = game.push(DiscardRevealed(face("brown", "head")))   # the new creature has legs only: no head slot
    assert "herald_discard" in event_types(events) and game.prompt is None


def test_jester_with_hidden_hand_can_be_declared_impossible():
    legs, torso = face("red", "legs"), face("green", "torso")
    game = position([("A", [None, None], [[(legs, LEGS), (torso, TORSO)]]), ("B", [], [])],
                    deck=[None] * 10, observed=True)
    game.push(Play(face("blue", "head", "jester"), game.players[0].creatures[0].id, HEAD))
    assert game.prompt.kind == "jester"
    events = game.push(CannotPerform())
    assert [e["type"] for e in events if e["type"] == "ability_failed"] == ["ability_failed"]


def test_jester_played_card_is_checked():
    legs, torso = face("red", "legs"), face("green", "torso")
    game = position([("A", [None, None], [[(legs, LEGS), (torso, TORSO)]]), ("B", [], [])],
                    deck=[None] * 10, observed=True)
    game.push(Play(face("blue", "head", "jester"), game.players[0].creatures[0].id, HEAD))
    with pytest.raises(IllegalMove) as error:
        game.push(Place(face("red", "head"), None, HEAD))
    assert error.value.rule == "placement.needs-creature"
    game.push(Place(face("red", "legs"), None, LEGS))
    assert len(game.players[0].creatures) == 2


def test_pure_legion_penalty_discards_are_checked_as_far_as_visible():
    """RULES.md 1.7 step 2: one card of the legion, or two cards; one card of another legion is refused."""
    body = [(face("blue", "legs"), LEGS), (face("blue", "torso"), TORSO)]
    game = position([("A", [None], [body]), ("B", [None, None, None], [])], deck=[None] * 10, observed=True)
    game.push(Play(face("blue", "head"), game.players[0].creatures[0].id, HEAD))
    assert game.prompt.kind == "penalty" and game.prompt.legion.value == "blue"
    with pytest.raises(IllegalMove) as error:
        game.push(Discard(1, (face("red", "legs"),)))
    assert error.value.rule == "penalty.two-cards"
    game.push(Discard(1, (face("red", "legs"), face("green", "head"))))
    assert len(game.players[1].hand) == 1 and len(game.discard) == 2


def test_executioner_puts_a_known_card_in_hand_that_must_be_used_when_forced():
    """A card taken by the Executioner is visible: the engine then knows part of the hand."""
    taken_head = face("green", "head")
    game = position([("A", [], [[(face("red", "legs"), LEGS), (face("red", "torso"), TORSO)]]),
                     ("B", [], [[(face("green", "legs"), LEGS), (face("blue", "torso"), TORSO), (taken_head, HEAD)]])],
                    deck=[None] * 10, observed=True, actions_left=1)
    game.players[0].hand = [None]
    game.push(Play(face("red", "head", "executioner"), game.players[0].creatures[0].id, HEAD))
    events = game.push(Target(game.players[1].creatures[0].id))
    assert game.players[0].hand == [taken_head] and "take" in event_types(events)


def test_win_is_detected_in_observed_mode():
    """RULES.md 1.11 PL: the game ends the moment the target is reached."""
    complete = [(face("green", "legs"), LEGS), (face("blue", "torso"), TORSO), (face("red", "head"), HEAD)]
    game = position([("A", [None], [complete] * 4 + [[(face("red", "legs"), LEGS), (face("red", "torso"), TORSO)]]),
                     ("B", [], [])], deck=[None] * 10, observed=True, edition="pl2017")
    game.push(Play(face("blue", "head"), game.players[0].creatures[4].id, HEAD))
    assert game.winner == 0


def test_observed_game_round_trips_through_json():
    game = observed_game()
    game.push(Play(face("red", "legs", "mourner"), None, LEGS))
    game.push(Draw())
    assert Game.from_json(game.to_json()).to_json() == game.to_json()
