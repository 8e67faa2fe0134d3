"""The two rulebooks' worked examples, replayed step by step (RULES.md 1.14 RU "Аня...", 1.15 PL "potwór nr 1-4")."""
from companion.games.nightmarium import DiscardRevealed, Discard, Place, Play, Target

from .helpers import HEAD, LEGS, TORSO, CardBox, event_types, position


def build_ru_example():
    cards = CardBox()
    c1 = [(cards("red", "legs", "jester"), LEGS), (cards("green", "torso", "jester"), TORSO)]
    c2 = [(cards("red", "legs", "devourer"), LEGS), (cards("green", "torso", "herald"), TORSO),
          (cards("brown", "head"), HEAD)]
    c3 = [(cards("blue", "legs"), LEGS)]
    c4 = [(cards("green", "legs", "herald"), LEGS)]
    h1 = cards("blue", "head", "jester")          # keeps №1 mixed
    h2 = cards("red", "torso", "mourner")
    h3 = cards("brown", "head", "devourer")       # keeps №4 mixed
    h4 = cards("blue", "torso", "scavenger")      # NEC
    d1, d2 = cards("red", "legs"), cards("red", "legs", "jester")
    r1 = cards("red", "head")                     # head-only, unplaceable once r2 is placed
    r2 = cards("red", "head", "jester")           # keeps №2 mixed
    r3 = cards("green", "torso")                  # torso-only, unplaceable
    r4 = cards("blue", "head", "scavenger")       # NEC
    borya_nec, borya_other = cards("blue", "legs", "mourner"), cards("green", "legs")
    vova_green, vova_red = cards("green", "head"), cards("red", "torso")
    g1 = [(cards("red", "legs", "executioner"), LEGS)]
    game = position(
        [("Аня", [h1, h2, h3, h4], [c1, c2, c3, c4]),
         ("Боря", [borya_nec, borya_other], []),
         ("Вова", [vova_green, vova_red], []),
         ("Гена", [], [g1])],
        deck=[d1, d2, r1, r2, r3, r4] + cards.filler(4),
        edition="ru2014", actions_left=1)  # her first action was a Draw (fixture)
    return game, locals()


def test_russian_example_anya_borya_vova_gena():
    """RULES.md 1.14 (RU 2014 rulebook example), steps 0-14."""
    game, k = build_ru_example()
    anya = game.players[0]
    n1, n2, n3, n4 = [c.id for c in anya.creatures]
    g1 = game.players[3].creatures[0].id
    deck0, discard0 = game.deck_size, len(game.discard)
    hand0 = len(anya.hand)

    # Step 0-1: h1 completes №1; it is mixed, so no penalty; its head Jester waits.
    events = game.push(Play(k["h1"], n1, HEAD))
    assert "pure_legion" not in event_types(events)
    assert game.creature(n1).complete
    assert game.prompt.kind == "jester" and game.prompt.creature_id == n1
    # Step 2: head Jester: h2 becomes the torso of №4.
    game.push(Place(k["h2"], n4, TORSO))
    assert len(game.creature(n4).cards) == 2
    # Step 3: torso Jester: h3 completes №4; №1's chain is interrupted and its legs' Jester is lost.
    events = game.push(Place(k["h3"], n4, HEAD))
    interrupted = [e for e in events if e["type"] == "chain_interrupted"]
    assert interrupted == [{"type": "chain_interrupted", "creature": n1, "lost": [["legs", "jester"]]}]
    # Step 4-5: №4 is mixed; its head Devourer eats the head of №2.
    assert game.prompt.kind == "devourer" and game.prompt.creature_id == n4
    events = game.push(Target(n2))
    assert not game.creature(n2).complete and len(game.creature(n2).cards) == 2
    # Step 6: the torso Mourner drew d1, d2; Step 7: the legs Herald revealed r1, r2.
    assert k["d1"] in anya.hand and k["d2"] in anya.hand
    assert game.prompt.kind == "herald" and game.revealed == [k["r1"], k["r2"]]
    # The RU text narrates the discard first: r1 is judged together with r2, which will take the only head slot.
    game.push(DiscardRevealed(k["r1"]))
    assert game.prompt.kind == "herald"  # r2 still waits: both cards are handled before the completion
    game.push(Place(k["r2"], n2, HEAD))
    assert game.creature(n2).complete and game.creature(n2).top == k["r2"]
    # Step 8-9: №2 is mixed; its new head's Jester puts h4 as the torso of №3.
    assert game.prompt.kind == "jester" and game.prompt.creature_id == n2
    game.push(Place(k["h4"], n3, TORSO))
    # Step 10: №2's torso Herald reveals r3, r4: r3 fits nowhere, r4 completes №3; №2's legs Devourer is lost.
    assert game.prompt.kind == "herald" and game.revealed == [k["r3"], k["r4"]]
    game.push(DiscardRevealed(k["r3"]))
    events = game.push(Place(k["r4"], n3, HEAD))
    assert {"type": "chain_interrupted", "creature": n2, "lost": [["legs", "devourer"]]} in events
    assert {"type": "pure_legion", "player": 0, "creature": n3, "legion": "blue"} in events
    # Step 11: Боря discards his one NEC card; Вова has none and discards two; Гена has nothing to discard.
    assert game.prompt.kind == "penalty" and game.prompt.player == 1
    game.push(Discard(1, (k["borya_nec"],)))
    assert game.prompt.kind == "penalty" and game.prompt.player == 2
    events = game.push(Discard(2, (k["vova_green"], k["vova_red"])))
    assert {"type": "penalty_discard", "player": 3, "legion": "blue", "cards": []} in events
    # Step 12: №3's head Scavenger discards Гена's G1.
    assert game.prompt.kind == "scavenger"
    events = game.push(Target(g1))
    # Step 13: the torso Scavenger has no target: the chain stops. Step 14: end of turn, no win, Боря's turn.
    failed = [e for e in events if e["type"] == "ability_failed"]
    assert len(failed) == 1 and failed[0]["ability"] == "scavenger" and failed[0]["part"] == "torso"
    assert game.winner is None and game.active == 1 and game.prompt is None

    # Final-state assertions of RULES.md 1.14.
    assert len(anya.creatures) == 4 and all(c.complete for c in anya.creatures)
    assert len(anya.hand) == hand0 - 2
    assert game.deck_size == deck0 - 6
    assert len(game.discard) == discard0 + 6 + 1
    assert len(game.players[1].hand) == 1 and len(game.players[2].hand) == 0
    assert game.players[3].creatures == []


def test_polish_example_potwory_1_to_4():
    """RULES.md 1.15 (PL 2017 rulebook example), steps 0-15, with the immediate win check's counts."""
    cards = CardBox()
    nr1 = [(cards("red", "legs", "jester"), LEGS), (cards("green", "torso"), TORSO)]
    nr2 = [(cards("red", "legs", "devourer"), LEGS), (cards("green", "torso", "herald"), TORSO),
           (cards("brown", "head"), HEAD)]
    nr3 = [(cards("blue", "legs"), LEGS)]
    nr4 = [(cards("green", "legs", "herald"), LEGS)]
    h1, h2 = cards("blue", "head", "jester"), cards("red", "torso", "mourner")
    h3, h4 = cards("brown", "head", "devourer"), cards("blue", "torso", "scavenger")
    d1, d2, r1 = cards("red", "legs"), cards("red", "legs", "jester"), cards("red", "head")
    r2, r3, r4 = cards("red", "head", "jester"), cards("green", "torso"), cards("blue", "head", "scavenger")
    opponent_blue, opponent_other = cards("blue", "legs", "mourner"), cards("green", "legs")
    lonely = [(cards("red", "legs", "executioner"), LEGS)]
    game = position(
        [("P", [h1, h2, h3, h4], [nr1, nr2, nr3, nr4]),
         ("Q", [opponent_blue, opponent_other], [lonely])],
        deck=[d1, d2, r1, r2, r3, r4] + cards.filler(4), edition="pl2017", actions_left=1)
    p = game.players[0]
    n1, n2, n3, n4 = [c.id for c in p.creatures]

    def complete():
        return p.complete_count

    game.push(Play(h1, n1, HEAD))                        # step 0: nr 1 summoned
    assert complete() == 2 and game.prompt.kind == "jester"
    game.push(Place(h2, n4, TORSO))                      # step 2: head Jester
    assert game.prompt.kind == "jester"                  # step 3: the torso has no ability: skipped, not a failure
    events = game.push(Place(h3, n4, HEAD))              # step 4: legs Jester summons nr 4; nothing is lost
    assert {"type": "chain_interrupted", "creature": n1, "lost": []} in events and complete() == 3
    game.push(Target(n2))                                # step 6: Devourer eats nr 2's head
    assert complete() == 2 and d1 in p.hand and d2 in p.hand   # step 7: Mourner drew 2
    game.push(Place(r2, n2, HEAD))                       # step 8: Herald: r2 summons nr 2 ...
    game.push(DiscardRevealed(r1))                       # ... and r1 is discarded
    assert complete() == 3 and game.prompt.kind == "jester"
    game.push(Place(h4, n3, TORSO))                      # step 10
    game.push(Place(r4, n3, HEAD))                       # step 11: r4 summons nr 3, then r3 is discarded
    events = game.push(DiscardRevealed(r3))
    assert complete() == 4
    assert {"type": "chain_interrupted", "creature": n2, "lost": [["legs", "devourer"]]} in events  # step 12
    assert game.prompt.kind == "penalty" and game.prompt.legion.value == "blue"   # step 13
    game.push(Discard(1, (opponent_blue,)))
    events = game.push(Target(game.players[1].creatures[0].id))   # step 14: the single incomplete monster
    assert game.players[1].creatures == []
    assert [e["ability"] for e in events if e["type"] == "ability_failed"] == ["scavenger"]   # step 15
    assert game.winner is None and complete() == 4 and game.active == 1
