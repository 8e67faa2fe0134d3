"""Property tests for the three issue-5 engines: undo restores exactly, JSON round-trips, invariants hold."""
import json
import random

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.attic.engine import AtticGame
from companion.games.common.engine import IllegalMove
from companion.games.cthulhu.engine import CthulhuScores
from companion.games.nemesis.data_file import NIGHTMARE_TYPES
from companion.games.nemesis.engine import NemesisBag, token_kind

SETTINGS = settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])


def attic_moves(game, choice):
    return [game.roll, lambda: game.end_round(choice % 2 == 0, choice % 3 == 0), game.collect_crystal,
            game.collect_key, game.attic_key_found, game.another_attempt]


def nemesis_moves(game, choice):
    colours = game.state["order"]
    colour = colours[choice % len(colours)]
    kind = NIGHTMARE_TYPES[choice % len(NIGHTMARE_TYPES)]
    return [lambda: game.draw_encounter(colour, choice % 6), game.draw_event, game.draw_other,
            lambda: game.kill_nightmare(kind), lambda: game.dispel([kind]), game.destroy_lair,
            lambda: game.increase_madness(colour), lambda: game.decrease_madness(colour),
            lambda: game.reduce_to_three(colour), lambda: game.infected(colour),
            lambda: game.panic(colour, choice % 6, choice % 4 != 0, choice % 5 == 0),
            lambda: game.set_status(colour, ("alive", "dead", "hibernating")[choice % 3]), game.peek]


def cthulhu_moves(game, choice):
    n = game.players
    player = choice % n
    return [lambda: game.publish(player, 1 + choice % 3, choice % 7 == 0),
            lambda: game.open_sets(player, [6 + choice % 7], choice % 11 == 0),
            lambda: game.close_portal(player, 6 + choice % 7), game.end_turn,
            lambda: game.empty_hand(player),
            lambda: game.deck_ran_out([(choice + p) % 4 for p in range(n)], player),
            lambda: game.choose_first_player(player)]


def drive(game, moves_for, script):
    """Play a scripted sequence; illegal moves must leave the state untouched."""
    for move, choice in script:
        before = json.dumps(game.to_json(), sort_keys=True)
        moves = moves_for(game, choice)
        try:
            moves[move % len(moves)]()
        except IllegalMove:
            assert json.dumps(game.to_json(), sort_keys=True) == before


scripts = st.lists(st.tuples(st.integers(0, 20), st.integers(0, 1000)), max_size=40)


def check_undo_and_json(make, restore, moves_for, script):
    game = make()
    snapshots = []
    for step in script:
        snapshots.append((len(game.events), json.dumps(game.state, sort_keys=True)))
        drive(game, moves_for, [step])
    saved = json.loads(json.dumps(game.to_json()))
    resumed = restore(saved)
    assert resumed.to_json() == game.to_json()
    # Undo everything, one event at a time, and land on each earlier state exactly.
    for count, state in reversed(snapshots):
        while len(resumed.events) > count:
            resumed.pop()
        assert json.dumps(resumed.state, sort_keys=True) == state
    return game


@SETTINGS
@given(players=st.integers(2, 4), seed=st.integers(0, 10**6), hard=st.booleans(),
       retry=st.sampled_from(["lose", "continue", "reset"]), script=scripts)
def test_attic_undo_json_and_invariants(players, seed, hard, retry, script):
    game = check_undo_and_json(lambda: AtticGame.new(players, random.Random(seed), hard_mode=hard,
                                                     fight_retry=retry),
                               lambda data: AtticGame.from_json(data, random.Random(seed)), attic_moves, script)
    state = game.state
    assert 0 <= state["rolls_this_round"] <= players
    assert 0 <= state["crystals"] <= 9 and len(state["attic"]) == state["round"] - 1 - sum(
        1 for e in game.events if e["type"] == "end_round" and not e["tile"])
    if state["fight"]:
        assert 0 <= state["fight"]["points"] <= state["fight"]["start_points"]


@SETTINGS
@given(players=st.integers(1, 5), seed=st.integers(0, 10**6), script=scripts)
def test_nemesis_undo_json_and_invariants(players, seed, script):
    colours = ["red", "blue", "green", "yellow", "purple"][:players]
    game = check_undo_and_json(lambda: NemesisBag.new(colours, random.Random(seed)),
                               lambda data: NemesisBag.from_json(data, random.Random(seed)), nemesis_moves, script)
    state = game.state
    nightmares_in_bag = [int(t.split(":")[1]) for t in state["bag"] if token_kind(t) == "nightmare"]
    # Every one of the 16 nightmare tokens is in exactly one place: the bag or the supply.
    assert sorted(nightmares_in_bag + state["supply"]) == list(range(16))
    assert state["bag"].count("blank") == 1
    madness = [t for t in state["bag"] if token_kind(t) == "madness"]
    assert sorted(madness + state["removed"]) == sorted(f"madness:{c}" for c in colours)
    for character in state["characters"].values():
        assert 1 <= character["madness"] <= 5
        if character["reached3"]:
            assert character["madness"] >= 3
    for kind in NIGHTMARE_TYPES:
        assert 0 <= state["on_board"][kind] <= game.data.figures[kind]


@SETTINGS
@given(players=st.integers(2, 4), script=scripts)
def test_cthulhu_undo_json_and_invariants(players, script):
    names = ["Ann", "Bob", "Cy", "Di"][:players]
    game = check_undo_and_json(lambda: CthulhuScores.new(names), CthulhuScores.from_json, cthulhu_moves, script)
    state = game.state
    assert all(m >= 0 for m in state["madness"])
    assert all(holder is None or 0 <= holder < players for holder in state["portals"].values())
    if state["phase"] == "over":
        assert max(state["madness"]) >= 10
        assert all(state["madness"][w] == min(state["madness"]) for w in state["winners"])
    else:
        assert all(max(row) < 10 for row in state["history"])


@SETTINGS
@given(script=st.lists(st.integers(1, 3), min_size=1, max_size=12))
def test_cthulhu_publication_total_is_triangular(script):
    """Seed 002: the k-th sequence of a round gives k to each opponent, so after K sequences the opponents of
    all publishers together received sum over sequences of k * (players - 1) = K(K+1)/2 * (players - 1)."""
    game = CthulhuScores.new(["Ann", "Bob", "Cy"])
    for index, count in enumerate(script):
        game.publish(index % 3, count)
    total = sum(script)
    assert sum(game.state["madness"]) == total * (total + 1) // 2 * 2


def test_half_written_saves_are_refused_with_a_reason():
    """Team standard: a half-written save file gets a clear message, never a KeyError deep in a move."""
    from companion.games.common.engine import SavedGameError

    attic = AtticGame.new(2, random.Random(1)).to_json()
    nemesis = NemesisBag.new(["red"], random.Random(1)).to_json()
    cthulhu = CthulhuScores.new(["A", "B"]).to_json()
    for saved, restore in ((attic, lambda d: AtticGame.from_json(d, random.Random(1))),
                           (nemesis, lambda d: NemesisBag.from_json(d, random.Random(1))),
                           (cthulhu, CthulhuScores.from_json)):
        for damaged in ({}, {"state": None}, {"state": {k: v for k, v in list(saved["state"].items())[1:]}}):
            with pytest.raises(SavedGameError):
                restore(damaged)
        with pytest.raises(SavedGameError):
            restore({"state": saved["state"], "journal": {"events": [], "before": [{}]}})


def test_undo_reaches_back_a_bounded_number_of_moves():
    """The saved journal stays small: only the last UNDO_DEPTH moves can be undone, the log keeps them all."""
    from companion.games.common.engine import IllegalMove, Journal

    game = CthulhuScores.new(["Ann", "Bob"])
    moves = Journal.UNDO_DEPTH + 7
    for _ in range(moves):
        game.end_turn()
    assert len(game.events) == moves
    for _ in range(Journal.UNDO_DEPTH):
        game.pop()
    assert game.state["turn"] == 7 and len(game.events) == 7
    with pytest.raises(IllegalMove, match=str(Journal.UNDO_DEPTH)):
        game.pop()
    assert len(CthulhuScores.from_json(game.to_json()).events) == 7
