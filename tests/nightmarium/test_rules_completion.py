"""Completion: the pure-legion penalty, the ability chain, the six abilities and winning (RULES.md 1.7, 1.8, 1.11,
1.13, 1.16 and the open questions N1-N12)."""
import pytest

from companion.games.nightmarium import (Discard, DiscardRevealed, Draw, IllegalMove, Order, Place, PlaceSeal, Play,
                                         PlaySeal, Replay, Target)

from .helpers import HEAD, LEGS, TORSO, CardBox, event_types, position


def body(cards, legion_legs="red", legion_torso="green", legs_ability=None, torso_ability=None):
    return [(cards(legion_legs, "legs", legs_ability), LEGS), (cards(legion_torso, "torso", torso_ability), TORSO)]


def test_pure_legion_penalty_each_opponent_case():
    """RULES.md 1.7 step 2 / 1.16: matching -> 1 of the legion; none -> 2 any; 1 card -> that card; 0 -> nothing."""
    cards = CardBox()
    head = cards("blue", "head")
    matching, other = cards("blue", "legs"), cards("red", "legs")
    two_a, two_b = cards("red", "torso"), cards("green", "legs")
    single = cards("green", "head")
    game = position([("Ann", [head], [[(cards("blue", "legs"), LEGS), (cards("blue", "torso"), TORSO)]]),
                     ("Bob", [matching, other], []), ("Cid", [two_a, two_b, cards("red", "legs")], []),
                     ("Dan", [single], []), ("Eve", [], [])], deck=cards.filler(5))
    events = game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert event_types(events)[-2:] == ["completion", "pure_legion"]
    assert game.prompt.kind == "penalty" and game.prompt.player == 1 and game.prompt.legion.value == "blue"
    with pytest.raises(IllegalMove) as error:   # Bob holds a blue card: he may not discard two others instead
        game.push(Discard(1, (other,)))
    assert error.value.rule == "penalty.discard-legion"
    assert {move for move in game.legal_moves()} == {Discard(1, (matching,))}
    game.push(Discard(1, (matching,)))
    with pytest.raises(IllegalMove) as error:   # Cid holds no blue card: exactly two
        game.push(Discard(2, (two_a,)))
    assert error.value.rule == "penalty.two-cards"
    game.push(Discard(2, (two_a, two_b)))
    assert game.prompt.player == 3 and list(game.legal_moves()) == [Discard(3, (single,))]
    events = game.push(Discard(3, (single,)))
    assert {"type": "penalty_discard", "player": 4, "legion": "blue", "cards": []} in events
    assert [len(p.hand) for p in game.players[1:]] == [1, 1, 0, 0]


def test_penalty_comes_before_the_abilities():
    """RULES.md 1.7: the pure-legion check happens before any ability."""
    cards = CardBox()
    head = cards("blue", "head", "mourner")
    game = position([("Ann", [head], [body(cards, "blue", "blue")]), ("Bob", cards.filler(2), [])],
                    deck=cards.filler(6))
    game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert game.prompt.kind == "penalty" and len(game.players[0].hand) == 0   # Mourner has not drawn yet
    events = game.push(Discard(1, tuple(game.players[1].hand)))
    assert event_types(events)[:3] == ["penalty_discard", "ability", "draw"]


def test_chain_resolves_head_then_torso_then_legs():
    """RULES.md 1.7 step 3: head, torso, legs; a card without an ability is skipped, not a failure."""
    cards = CardBox()
    head = cards("blue", "head", "mourner")
    game = position([("Ann", [head], [body(cards, legs_ability="mourner", torso_ability=None)]),
                     ("Bob", [], [])], deck=cards.filler(8))
    events = game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert [(e["part"], e["ability"]) for e in events if e["type"] == "ability"] == [("head", "mourner"),
                                                                                    ("legs", "mourner")]
    assert len(game.players[0].hand) == 4 and "ability_failed" not in event_types(events)


def test_chain_stops_at_the_first_ability_that_cannot_be_performed():
    """RULES.md 1.7 / 1.16: Devourer with no other creature cannot be performed; the rest of the chain is lost."""
    cards = CardBox()
    head = cards("blue", "head", "devourer")
    game = position([("Ann", [head], [body(cards, legs_ability="mourner", torso_ability="mourner")]),
                     ("Bob", [], [])], deck=cards.filler(8))
    events = game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    failed = [e for e in events if e["type"] == "ability_failed"]
    assert len(failed) == 1 and failed[0]["ability"] == "devourer"
    assert failed[0]["lost"] == [["torso", "mourner"], ["legs", "mourner"]]
    assert len(game.players[0].hand) == 0 and game.prompt is None


def test_effects_before_a_failure_stand():
    """RULES.md 1.7: effects that already resolved stand when a later ability fails."""
    cards = CardBox()
    head = cards("blue", "head", "mourner")
    game = position([("Ann", [head], [body(cards, torso_ability="devourer")]), ("Bob", [], [])],
                    deck=cards.filler(8))
    events = game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert len(game.players[0].hand) == 2 and "ability_failed" in event_types(events)


def test_mourner_draws_what_exists_and_fails_on_nothing():
    """RULES.md 1.8 Mourner, N12: with 1 card anywhere it draws it; with none it cannot be performed."""
    cards = CardBox()
    head = cards("blue", "head", "mourner")
    one = position([("Ann", [head], [body(cards)]), ("Bob", [], [])], deck=cards.filler(1))
    events = one.push(Play(head, one.players[0].creatures[0].id, HEAD))
    assert len(one.players[0].hand) == 1 and "ability_failed" not in event_types(events)
    cards = CardBox()
    head = cards("blue", "head", "mourner")
    none = position([("Ann", [head], [body(cards)]), ("Bob", [], [])])
    events = none.push(Play(head, none.players[0].creatures[0].id, HEAD))
    assert [e["ability"] for e in events if e["type"] == "ability_failed"] == ["mourner"]


def test_jester_must_play_and_ignores_the_same_legion_rule():
    """RULES.md 1.8 Jester, 1.6: a legal play is mandatory; the card need not match the turn's legion."""
    cards = CardBox()
    head = cards("red", "head", "jester")
    blue_legs, red_head = cards("blue", "legs"), cards("red", "head")
    game = position([("Ann", [head, blue_legs, red_head], [body(cards)]), ("Bob", [], [])], deck=cards.filler(4))
    game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert game.prompt.kind == "jester"
    assert set(game.legal_moves()) == {Place(blue_legs, None, LEGS)}   # red_head has no free head slot
    game.push(Place(blue_legs, None, LEGS))
    assert len(game.players[0].creatures) == 2 and game.first_play_legion.value == "red"


def test_jester_cannot_be_performed_without_a_playable_card():
    """RULES.md 1.8 Jester: no card in hand with a legal position (an empty hand included) stops the chain."""
    cards = CardBox()
    head = cards("red", "head", "jester")
    stuck = cards("red", "torso")   # no legs-only creature to take it
    game = position([("Ann", [head, stuck], [body(cards)]), ("Bob", [], [])], deck=cards.filler(4))
    events = game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert [e["ability"] for e in events if e["type"] == "ability_failed"] == ["jester"]


def test_executioner_takes_a_head_and_the_victim_loses_a_complete_creature():
    """RULES.md 1.8 Executioner / 1.16: the top card goes to the active player's hand."""
    cards = CardBox()
    head = cards("red", "head", "executioner")
    victim_head = cards("green", "head")
    victim = [(cards("green", "legs"), LEGS), (cards("blue", "torso"), TORSO), (victim_head, HEAD)]
    game = position([("Ann", [head], [body(cards)]), ("Bob", [], [victim])], deck=cards.filler(4))
    game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert game.players[1].complete_count == 1 and game.prompt.kind == "executioner"
    game.push(Target(game.players[1].creatures[0].id))
    assert game.players[1].complete_count == 0 and victim_head in game.players[0].hand


def test_executioner_on_legs_only_removes_the_creature_and_cannot_target_own():
    """RULES.md 1.8 Executioner: legs taken means the creature is gone; only other players' creatures."""
    cards = CardBox()
    head = cards("red", "head", "executioner")
    game = position([("Ann", [head], [body(cards), [(cards("red", "legs"), LEGS)]]),
                     ("Bob", [], [[(cards("green", "legs"), LEGS)]])], deck=cards.filler(4))
    own_other = game.players[0].creatures[1].id
    game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    with pytest.raises(IllegalMove) as error:
        game.push(Target(own_other))
    assert error.value.rule == "executioner.other-players"
    game.push(Target(game.players[1].creatures[0].id))
    assert game.players[1].creatures == []


def test_executioner_fails_when_no_other_player_has_a_creature():
    """RULES.md 1.8 Executioner: cannot be performed when no other player has a creature."""
    cards = CardBox()
    head = cards("red", "head", "executioner")
    game = position([("Ann", [head], [body(cards)]), ("Bob", [], [])], deck=cards.filler(4))
    events = game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert [e["ability"] for e in events if e["type"] == "ability_failed"] == ["executioner"]


def test_scavenger_discards_an_incomplete_creature_never_a_complete_one():
    """RULES.md 1.8 Scavenger: legs-only is a valid target, complete creatures never are; cards go to discard."""
    cards = CardBox()
    head = cards("red", "head", "scavenger")
    complete = [(cards("green", "legs"), LEGS), (cards("blue", "torso"), TORSO), (cards("blue", "head"), HEAD)]
    game = position([("Ann", [head], [body(cards)]),
                     ("Bob", [], [complete, [(cards("green", "legs"), LEGS)]])], deck=cards.filler(4))
    complete_id, legs_id = [c.id for c in game.players[1].creatures]
    game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert set(game.legal_moves()) == {Target(legs_id)}
    with pytest.raises(IllegalMove) as error:
        game.push(Target(complete_id))
    assert error.value.rule == "scavenger.incomplete-only"
    discard_before = len(game.discard)
    game.push(Target(legs_id))
    assert [c.id for c in game.players[1].creatures] == [complete_id] and len(game.discard) == discard_before + 1


def test_devourer_targets_another_own_creature_never_the_resolving_one():
    """RULES.md 1.8 Devourer: the top card of one of your own other creatures (a complete one becomes incomplete)."""
    cards = CardBox()
    head = cards("red", "head", "devourer")
    other = [(cards("green", "legs"), LEGS), (cards("blue", "torso"), TORSO), (cards("blue", "head"), HEAD)]
    game = position([("Ann", [head], [body(cards), other]), ("Bob", [], [])], deck=cards.filler(4))
    resolving, other_id = [c.id for c in game.players[0].creatures]
    game.push(Play(head, resolving, HEAD))
    with pytest.raises(IllegalMove) as error:
        game.push(Target(resolving))
    assert error.value.rule == "devourer.own-other-creature"
    game.push(Target(other_id))
    assert not game.creature(other_id).complete and game.creature(resolving).complete


def test_herald_places_both_cards_before_resolving_and_must_place_what_fits():
    """RULES.md 1.8 Herald, N1, N3: a placeable card may not be discarded; completions wait for both cards."""
    cards = CardBox()
    head = cards("red", "head", "herald")
    top_head, top_torso = cards("green", "head", "mourner"), cards("green", "torso")
    game = position([("Ann", [head], [body(cards), body(cards)]), ("Bob", [], [])],
                    deck=[top_head, top_torso] + cards.filler(4))
    first, second = [c.id for c in game.players[0].creatures]
    game.push(Play(head, first, HEAD))
    assert game.prompt.kind == "herald" and game.revealed == [top_head, top_torso]
    with pytest.raises(IllegalMove) as error:
        game.push(DiscardRevealed(top_head))
    assert error.value.rule == "herald.must-place"
    events = game.push(Place(top_head, second, HEAD))
    assert "completion" not in event_types(events) and game.prompt.kind == "herald"
    events = game.push(DiscardRevealed(top_torso))   # no legs-only creature: it fits nowhere
    assert event_types(events)[:3] == ["herald_discard", "chain_interrupted", "completion"]


def test_herald_may_discard_first_the_card_the_other_will_displace():
    """RU 2014 example (L185, L193): "one does not fit and Аня discards it; the second, a head, goes on №2" - the
    discarded head would have fitted before the other head took the only slot, so the pair is judged together."""
    cards = CardBox()
    head = cards("red", "head", "herald")
    wanted, spare = cards("green", "head", "mourner"), cards("brown", "head")
    game = position([("Ann", [head], [body(cards), body(cards)]), ("Bob", [], [])],
                    deck=[spare, wanted] + cards.filler(4))
    first, second = [c.id for c in game.players[0].creatures]
    game.push(Play(head, first, HEAD))
    game.push(DiscardRevealed(spare))
    with pytest.raises(IllegalMove) as error:   # now the other head must take the slot
        game.push(DiscardRevealed(wanted))
    assert error.value.rule == "herald.must-place"
    game.push(Place(wanted, second, HEAD))
    assert game.creature(second).complete


def test_herald_completing_two_creatures_lets_the_player_order_them():
    """RULES.md N2: the player orders two completions; neither interrupts the other."""
    cards = CardBox()
    head = cards("red", "head", "herald")
    head_a, head_b = cards("green", "head", "mourner"), cards("brown", "head", "mourner")
    game = position([("Ann", [head], [body(cards), body(cards), body(cards)]), ("Bob", [], [])],
                    deck=[head_a, head_b] + cards.filler(6))
    resolving, a, b = [c.id for c in game.players[0].creatures]
    game.push(Play(head, resolving, HEAD))
    game.push(Place(head_a, a, HEAD))
    game.push(Place(head_b, b, HEAD))
    assert game.prompt.kind == "completion_order" and set(game.legal_moves()) == {Order(a), Order(b)}
    events = game.push(Order(b))
    completions = [e["creature"] for e in events if e["type"] == "completion"]
    assert completions == [b, a] and len(game.players[0].hand) == 4


def test_herald_fails_only_when_nothing_can_be_revealed():
    """RULES.md N3 / N12."""
    cards = CardBox()
    head = cards("red", "head", "herald")
    game = position([("Ann", [head], [body(cards)]), ("Bob", [], [])])
    events = game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert [e["ability"] for e in events if e["type"] == "ability_failed"] == ["herald"]


def test_herald_cannot_start_a_sixth_creature():
    """RULES.md 1.16: at the creature limit a revealed legs card must be discarded."""
    cards = CardBox()
    head = cards("red", "head", "herald")
    legs = [[(cards("green", "legs"), LEGS)] for _ in range(4)]
    revealed = [cards("blue", "legs"), cards("blue", "legs")]
    game = position([("Ann", [head], [body(cards)] + legs), ("Bob", [], [])], deck=revealed + cards.filler(2))
    game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert set(game.legal_moves()) == {DiscardRevealed(revealed[0]), DiscardRevealed(revealed[1])}


def test_devourer_on_the_fifth_completion_ru_no_win_pl_immediate_win():
    """RULES.md 1.11: PL wins before the Devourer resolves; RU must eat its own creature and ends with 4."""
    for edition in ("ru2014", "pl2017"):
        cards = CardBox()
        head = cards("red", "head", "devourer")
        complete = [[(cards("green", "legs"), LEGS), (cards("blue", "torso"), TORSO), (cards("blue", "head"), HEAD)]
                    for _ in range(4)]
        game = position([("Ann", [head], complete + [body(cards)]), ("Bob", [], [])], deck=cards.filler(4),
                        edition=edition, actions_left=1)
        game.push(Play(head, game.players[0].creatures[4].id, HEAD))
        if edition == "pl2017":
            assert game.winner == 0 and game.prompt is None
        else:
            assert game.winner is None and game.prompt.kind == "devourer"
            game.push(Target(game.players[0].creatures[0].id))
            assert game.winner is None and game.players[0].complete_count == 4 and game.active == 1


def test_ru_win_at_end_of_turn_after_the_second_action():
    """RULES.md 1.11 RU: with the target reached, the win comes at the end of the turn, not before."""
    cards = CardBox()
    head = cards("red", "head")
    complete = [[(cards("green", "legs"), LEGS), (cards("blue", "torso"), TORSO), (cards("blue", "head"), HEAD)]
                for _ in range(4)]
    game = position([("Ann", [head], complete + [body(cards)]), ("Bob", [], [])], deck=cards.filler(4))
    game.push(Play(head, game.players[0].creatures[4].id, HEAD))
    assert game.winner is None and game.actions_left == 1
    events = game.push(Draw())
    assert game.winner == 0 and event_types(events)[-1] == "win"
    with pytest.raises(IllegalMove) as error:
        game.push(Draw())
    assert error.value.rule == "game.over"


def test_seal_replays_only_matching_abilities_without_penalty():
    """RULES.md 1.13.6-7: only abilities on cards of the seal's legion replay; sealing is no completion.
    The RU rulebook says the player *may* replay ("Вы можете разыграть снова"), so the replay is offered, not forced
    (RULES.md 1.13.10 / N8 recommend mandatory; the rulebook wins)."""
    cards = CardBox()
    creature = [(cards("red", "legs", "mourner"), LEGS), (cards("blue", "torso", "mourner"), TORSO),
                (cards("red", "head"), HEAD)]
    seal = cards.seal("red")
    game = position([("Ann", [seal], [creature]), ("Bob", cards.filler(2), [])], deck=cards.filler(6), seals=True)
    events = game.push(PlaySeal(seal, game.players[0].creatures[0].id))
    assert "pure_legion" not in event_types(events) and "completion" not in event_types(events)
    assert game.prompt.kind == "seal_replay" and set(game.legal_moves()) == {Replay(True), Replay(False)}
    events = game.push(Replay(True))
    assert [(e["part"], e["ability"]) for e in events if e["type"] == "ability"] == [("legs", "mourner")]
    assert len(game.players[0].hand) == 2


def test_seal_replay_may_be_declined_and_the_creature_stays_embodied():
    """RU 2014 advanced rules: the replay is optional; the protection is not."""
    cards = CardBox()
    creature = [(cards("red", "legs", "mourner"), LEGS), (cards("blue", "torso"), TORSO), (cards("red", "head"), HEAD)]
    seal = cards.seal("red")
    game = position([("Ann", [seal], [creature]), ("Bob", [], [])], deck=cards.filler(6), seals=True)
    game.push(PlaySeal(seal, game.players[0].creatures[0].id))
    events = game.push(Replay(False))
    assert "ability" not in event_types(events) and game.players[0].creatures[0].embodied
    assert game.actions_left == 1 and game.prompt is None


def test_embodied_creature_is_untouchable():
    """RULES.md 1.13.6.2 / 1.16: Executioner with only embodied targets cannot be performed."""
    cards = CardBox()
    head = cards("red", "head", "executioner")
    sealed = [(cards("green", "legs"), LEGS), (cards("blue", "torso"), TORSO), (cards("blue", "head"), HEAD)]
    seal = cards.seal("green")
    game = position([("Ann", [head], [body(cards)]), ("Bob", [seal], [sealed])], deck=cards.filler(4), seals=True,
                    active=1)
    game.push(PlaySeal(seal, game.players[1].creatures[0].id))
    game.push(Draw())
    events = game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert [e["ability"] for e in events if e["type"] == "ability_failed"] == ["executioner"]
    assert game.players[1].complete_count == 1


def test_seal_played_by_jester_truncates_the_chain():
    """RULES.md 1.13.9 / 1.16: a seal placed by Jester stops the current chain; the embodied creature replays."""
    cards = CardBox()
    head = cards("red", "head", "jester")
    sealed = [(cards("green", "legs", "mourner"), LEGS), (cards("blue", "torso"), TORSO), (cards("blue", "head"), HEAD)]
    seal = cards.seal("green")
    game = position([("Ann", [head, seal], [body(cards, legs_ability="mourner"), sealed]), ("Bob", [], [])],
                    deck=cards.filler(6), seals=True)
    resolving, target = [c.id for c in game.players[0].creatures]
    game.push(Play(head, resolving, HEAD))
    events = game.push(PlaceSeal(seal, target))
    assert {"type": "chain_interrupted", "creature": resolving, "lost": [["legs", "mourner"]]} in events
    events = game.push(Replay(True))
    assert [e["creature"] for e in events if e["type"] == "ability"] == [target]


def test_a_seal_of_the_legion_satisfies_the_penalty():
    """RULES.md 1.13.8: a seal of legion L counts as a card of L for the pure-legion discard."""
    cards = CardBox()
    head = cards("blue", "head")
    seal, plain = cards.seal("blue"), cards("red", "legs")
    game = position([("Ann", [head], [body(cards, "blue", "blue")]), ("Bob", [seal, plain], [])],
                    deck=cards.filler(4), seals=True)
    game.push(Play(head, game.players[0].creatures[0].id, HEAD))
    assert set(game.legal_moves()) == {Discard(1, (seal,))}
