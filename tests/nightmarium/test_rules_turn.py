"""Turn structure, actions, placement and the same-legion rule (RULES.md 1.3-1.6, 1.9, 1.11, 1.12)."""
import pytest

from companion.games.nightmarium import (DECK, Card, DiscardDraw, Draw, Game, IllegalMove, Play, PlaySeal)

from .helpers import HEAD, LEGS, TORSO, CardBox, event_types, position


def two_players(hand, creatures=(), deck=None, **kwargs):
    cards = CardBox()
    for card in list(hand) + [c for cr in creatures for c, _ in cr]:
        if card.id is not None:
            cards.used.add(card.id)
    return position([("Ann", hand, creatures), ("Bob", cards.filler(3), [])],
                    deck=deck if deck is not None else cards.filler(10, "green"), **kwargs)


def test_setup_deals_five_and_keeps_108_cards():
    """RULES.md 1.3: 5 cards each, the rest is the deck (with the 12 seals in RU advanced play)."""
    game = Game.new(["A", "B", "C"], seed=3)
    assert [len(p.hand) for p in game.players] == [5, 5, 5]
    assert game.deck_size == 108 - 15
    sealed = Game.new(["A", "B"], seals=True, seed=3)
    assert sealed.deck_size + 10 == 120


def test_same_seed_same_deal_and_different_seed_differs():
    """Seeded randomness: a game is reproducible from its seed."""
    first, again, other = Game.new(["A", "B"], seed=5), Game.new(["A", "B"], seed=5), Game.new(["A", "B"], seed=6)
    assert first.players[0].hand == again.players[0].hand and first.deck == again.deck
    assert first.deck != other.deck


def test_two_actions_then_the_turn_passes():
    """RULES.md 1.4: exactly 2 actions per turn, then the next player clockwise."""
    game = Game.new(["A", "B", "C"], seed=1)
    game.push(Draw())
    assert game.active == 0 and game.actions_left == 1
    events = game.push(Draw())
    assert game.active == 1 and game.actions_left == 2
    assert event_types(events)[-2:] == ["turn_end", "turn_start"]
    assert len(game.players[0].hand) == 7


@pytest.mark.parametrize("edition, expected", [("ru2014", [0, 1, 2, 2, 3]), ("pl2017", [1, 1, 2, 3, 3])])
def test_discard_and_draw_rounding(edition, expected):
    """RULES.md 1.12 row 1 / 1.16: discarding n in {1, 2, 4, 5, 6} draws n/2, RU rounded down, PL rounded up."""
    results = []
    for n in (1, 2, 4, 5, 6):
        cards = CardBox()
        hand = cards.filler(6, "red")
        game = position([("Ann", hand, []), ("Bob", [], [])], deck=cards.filler(10, "green"), edition=edition)
        game.push(DiscardDraw(tuple(hand[:n])))
        results.append(len(game.players[0].hand) - (6 - n))
    assert results == expected


def test_discard_and_draw_needs_at_least_one_card():
    """RULES.md N5: discarding nothing would be a pass, which the rules do not offer."""
    cards = CardBox()
    game = two_players(cards.filler(2, "red"))
    with pytest.raises(IllegalMove) as error:
        game.push(DiscardDraw(()))
    assert error.value.rule == "discard_draw.at-least-one"


def test_placement_bottom_up():
    """RULES.md 1.5: legs start a creature; a torso needs legs alone; a head needs legs and torso."""
    cards = CardBox()
    legs, torso, head = cards("red", "legs"), cards("red", "torso"), cards("red", "head")
    game = two_players([legs, torso, head])
    for card, target, part, rule in [(torso, None, TORSO, "placement.needs-creature"),
                                     (head, None, HEAD, "placement.needs-creature"),
                                     (legs, None, TORSO, "placement.part-not-on-card")]:
        with pytest.raises(IllegalMove) as error:
            game.push(Play(card, target, part))
        assert error.value.rule == rule
    game.push(Play(legs, None, LEGS))
    creature = game.players[0].creatures[0].id
    with pytest.raises(IllegalMove) as error:
        game.push(Play(head, creature, HEAD))
    assert error.value.rule == "placement.head-needs-torso"
    game.push(Play(torso, creature, TORSO))
    assert [part for _, part in game.players[0].creatures[0].cards] == [LEGS, TORSO]


def test_multi_part_card_takes_the_chosen_part():
    """RULES.md 1.5: a card with several positions takes the one the player chooses; then it is fixed."""
    cards = CardBox()
    wild = next(c for c in DECK if len(c.parts) == 3)
    legs = cards("red", "legs")
    game = two_players([wild, legs])
    game.push(Play(wild, None, LEGS))
    assert game.players[0].creatures[0].cards[0][1] is LEGS


def test_cards_go_only_on_your_own_creatures():
    """RULES.md 1.5: cards are only ever placed on your own creatures."""
    cards = CardBox()
    torso = cards("red", "torso")
    bob_legs = cards("green", "legs")
    game = position([("Ann", [torso], []), ("Bob", [], [[(bob_legs, LEGS)]])], deck=cards.filler(4))
    with pytest.raises(IllegalMove) as error:
        game.push(Play(torso, game.players[1].creatures[0].id, TORSO))
    assert error.value.rule == "placement.own-creatures-only"


@pytest.mark.parametrize("target", [5, 6, 7])
def test_creature_limit_equals_win_target(target):
    """RULES.md 1.5 / 1.16: no more creatures on the table than the win target."""
    cards = CardBox()
    creatures = [[(cards("green", "legs"), LEGS)] for _ in range(target)]
    legs = cards("green", "legs")
    game = two_players([legs], creatures, target=target)
    with pytest.raises(IllegalMove) as error:
        game.push(Play(legs, None, LEGS))
    assert error.value.rule == "placement.creature-limit"
    assert Play(legs, None, LEGS) not in list(game.legal_moves())


def test_same_legion_rule_for_two_play_actions():
    """RULES.md 1.6 / 1.16: after Play(red), a second Play(blue) is illegal; Play(red) is fine."""
    cards = CardBox()
    red1, red2, blue = cards("red", "legs"), cards("red", "legs"), cards("blue", "legs")
    game = two_players([red1, red2, blue])
    game.push(Play(red1, None, LEGS))
    with pytest.raises(IllegalMove) as error:
        game.push(Play(blue, None, LEGS))
    assert error.value.rule == "same-legion"
    assert all(move.card.legion.value == "red" for move in game.legal_moves() if isinstance(move, Play))
    game.push(Play(red2, None, LEGS))
    assert len(game.players[0].creatures) == 2


def test_same_legion_rule_does_not_apply_after_a_draw():
    """RULES.md 1.6: only two Play actions are compared."""
    cards = CardBox()
    blue = cards("blue", "legs")
    game = two_players([blue])
    game.push(Draw())
    game.push(Play(blue, None, LEGS))
    assert game.active == 1


def test_refused_move_changes_nothing():
    """Every refused move raises IllegalMove naming its rule and leaves the state exactly as it was."""
    game = Game.new(["A", "B"], seed=2)
    before = game.to_json()
    foreign = next(card for card in DECK if card not in game.players[0].hand)
    with pytest.raises(IllegalMove) as error:
        game.push(Play(foreign, None, LEGS))
    assert error.value.rule in ("hand.not-held", "placement.part-not-on-card")
    assert game.to_json() == before


def test_draw_reshuffles_the_discard_pile_on_demand_ru():
    """RULES.md 1.9: RU reshuffles when a card is needed and the deck is empty."""
    cards = CardBox()
    game = position([("Ann", [], []), ("Bob", [], [])], deck=cards.filler(1), discard=cards.filler(3, "red"))
    game.push(Draw())
    assert game.deck_size == 0 and len(game.discard) == 3   # the last card went; nothing needed yet
    events = game.push(Draw())
    assert "reshuffle" in event_types(events) and game.deck_size == 2 and game.discard == []


def test_draw_reshuffles_immediately_when_empty_pl():
    """RULES.md 1.9: PL reshuffles as soon as action A takes the last tile."""
    cards = CardBox()
    game = position([("Ann", [], []), ("Bob", [], [])], deck=cards.filler(1), discard=cards.filler(3, "red"),
                    edition="pl2017")
    events = game.push(Draw())
    assert "reshuffle" in event_types(events) and game.deck_size == 3 and game.discard == []


def test_draw_with_deck_and_discard_empty_draws_nothing():
    """RULES.md N12: the draw does nothing."""
    game = position([("Ann", [], []), ("Bob", [], [])])
    events = game.push(Draw())
    assert events[0] == {"type": "draw", "player": 0, "count": 0, "cards": []}


def test_seal_is_a_play_action_onto_own_complete_creature():
    """RULES.md 1.13.3-5: a seal goes onto your own complete, unsealed creature; it counts for the same-legion rule."""
    cards = CardBox()
    complete = [(cards("red", "legs"), LEGS), (cards("red", "torso"), TORSO), (cards("green", "head"), HEAD)]
    partial = [(cards("red", "legs"), LEGS)]
    seal, other_seal, blue = cards.seal("red"), cards.seal("blue"), cards("blue", "legs")
    game = two_players([seal, other_seal, blue], [complete, partial], seals=True)
    done, half = [c.id for c in game.players[0].creatures]
    with pytest.raises(IllegalMove) as error:
        game.push(PlaySeal(seal, half))
    assert error.value.rule == "seal.needs-complete-creature"
    game.push(PlaySeal(seal, done))
    assert game.creature(done).embodied
    with pytest.raises(IllegalMove) as error:
        game.push(Play(blue, None, LEGS))
    assert error.value.rule == "same-legion"


def test_seals_only_in_an_edition_that_has_them():
    """RULES.md 1.12 row 3: the PL edition has no seals."""
    with pytest.raises(ValueError):
        Game.new(["A", "B"], edition="pl2017", seals=True)
    cards = CardBox()
    complete = [(cards("red", "legs"), LEGS), (cards("red", "torso"), TORSO), (cards("green", "head"), HEAD)]
    seal = cards.seal("red")
    game = two_players([seal], [complete], seals=False)
    with pytest.raises(IllegalMove) as error:
        game.push(PlaySeal(seal, game.players[0].creatures[0].id))
    assert error.value.rule == "seal.not-in-play"


def test_bad_setup_is_refused_with_a_clear_message():
    for kwargs in ({"edition": "de2020"}, {"win_target": 4}):
        with pytest.raises(ValueError, match="edition|target"):
            Game.new(["A", "B"], **kwargs)
    with pytest.raises(ValueError, match="2 to 5"):
        Game.new(["A"])
    assert isinstance(Card.face("red", ["legs"]), Card)
