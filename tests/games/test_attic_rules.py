"""Attic Monster rules (seed 003 = rulebook "Чердачный монстр", RULES.md section 3)."""
import random

import pytest

from companion.games.attic.dice import MISS, SYMBOLS, hits, load_dice
from companion.games.attic.engine import AtticGame
from companion.games.common.engine import IllegalMove


class FixedDice:
    """A stand-in for the RNG that returns chosen faces, so a worked example can be replayed exactly."""

    def __init__(self, faces):
        self.faces = list(faces)

    def choice(self, options):
        face = self.faces.pop(0)
        assert face in options
        return face


def play_search_round(game, tile=True, double=False):
    for _ in range(game.state["players"]):
        game.roll()
    game.end_round(tile, double)


def test_default_dice_use_every_symbol_and_nothing_else():
    """RULES.md 3.5 / A2: two dice, five symbols; the default gives each symbol at least one face."""
    dice = load_dice()
    assert len(dice) == 2
    for faces in dice:
        assert set(faces) == set(SYMBOLS)
        assert len(faces) == 6


def test_a_roll_is_two_faces_for_the_player_whose_turn_it_is():
    """Rulebook 003 "Ход игрока" 1: each turn the player rolls 2 dice, clockwise from the first player."""
    game = AtticGame.new(3, random.Random(4))
    players = [game.roll()["player"] for _ in range(3)]
    assert players == [0, 1, 2]
    assert all(len(event["faces"]) == 2 for event in game.events)


def test_round_end_gives_the_monster_a_tile_before_anyone_rolls_again():
    """Rulebook 003 "Окончание раунда" 1-2: after everyone's turn the Monster gets one tile; the same
    first player starts the next round."""
    game = AtticGame.new(2, random.Random(1))
    game.roll()
    with pytest.raises(IllegalMove):
        game.end_round(True)  # one player has not had a turn yet
    game.roll()
    with pytest.raises(IllegalMove, match="give the Monster"):
        game.roll()
    game.end_round(True)
    assert len(game.state["attic"]) == 1
    assert game.state["round"] == 2
    assert game.roll()["player"] == 0


def test_no_qualifying_tile_means_the_monster_gains_nothing():
    """Rulebook 003 "Окончание раунда": if no face-up tile without ghosts exists, no tile this round."""
    game = AtticGame.new(2, random.Random(1))
    play_search_round(game, tile=False)
    assert game.state["attic"] == [] and game.state["round"] == 2


def test_attic_key_ends_search_at_once_without_a_tile():
    """Rulebook 003: the phase ends as soon as the attic key is found; remaining turns are lost and the
    Monster gets no tile for that round."""
    game = AtticGame.new(4, random.Random(2))
    play_search_round(game)
    play_search_round(game)
    game.roll()
    game.attic_key_found()
    assert game.phase == "fight"
    assert len(game.state["attic"]) == 2
    assert game.state["fight"]["points"] == 2
    assert game.next_roller() == 0


def test_fight_worked_example_from_rules_digest():
    """RULES.md 3.9 example: 7 tiles, 2 crystals -> S=5; rolls [x,Step] [Flip,FlipAny] [x,x] -> S=2, fails."""
    faces = ["cross", "step", "flip", "flip_any", "cross", "cross"]
    game = AtticGame.new(3, FixedDice(["flip"] * 42 + faces))
    for _ in range(7):
        play_search_round(game)
    game.collect_crystal()
    game.collect_crystal()
    game.attic_key_found()
    assert game.state["fight"]["points"] == 5
    results = [game.roll() for _ in range(3)]
    assert [r["hits"] for r in results] == [1, 2, 0]
    assert results[-1]["strength"] == 2
    assert results[-1]["verdict"] == "failed"
    assert game.phase == "lost"  # RULES.md A1 default: fightRetry = "lose"


def test_crystals_cannot_push_strength_below_zero_and_verdict_waits_for_everyone():
    """Rulebook 003 fight steps 2 and 4: strength minus crystals; the verdict comes after every player rolled."""
    game = AtticGame.new(2, FixedDice(["step"] * 6 + ["cross"] * 4))
    play_search_round(game)
    for _ in range(3):
        game.collect_crystal()
    game.roll()  # the second player's turn, then the key is found
    game.attic_key_found()
    assert game.state["fight"]["points"] == 0
    first = game.roll()
    assert "verdict" not in first
    assert game.roll()["verdict"] == "won"
    assert game.phase == "won"


def test_a_hit_never_takes_strength_below_zero():
    """Rulebook 003 fight step 3: each non-cross die removes one tile; there is nothing below none."""
    game = AtticGame.new(2, FixedDice(["step"] * 4 + ["step", "step", "flip", "flip"]))
    play_search_round(game)
    game.attic_key_found()
    assert game.roll()["strength"] == 0
    assert game.roll()["strength"] == 0


def test_hard_mode_marked_tile_counts_twice_and_needs_two_hits():
    """Rulebook 003 "Усложнённый режим": a tile with the symbol counts as two; removing it takes two
    successful dice (RULES.md 3.10 points model)."""
    game = AtticGame.new(2, FixedDice(["step"] * 8 + ["step", "cross", "cross", "cross"]), hard_mode=True)
    play_search_round(game, double=True)
    play_search_round(game, double=False)
    game.attic_key_found()
    assert game.state["fight"]["points"] == 3
    game.roll()
    last = game.roll()
    assert last["strength"] == 2 and last["verdict"] == "failed"


def test_marked_tile_counts_once_outside_hard_mode():
    """Rulebook 003: the double count is a hard-mode rule only."""
    game = AtticGame.new(2, random.Random(3))
    play_search_round(game, double=True)
    game.attic_key_found()
    assert game.state["fight"]["points"] == 1


@pytest.mark.parametrize("mode, expected", [("continue", 1), ("reset", 2)])
def test_another_attempt_after_a_failed_fight(mode, expected):
    """Rulebook 003 fight step 5 "Попробуйте ещё раз!" (RULES.md A1 variants continue/reset)."""
    game = AtticGame.new(2, FixedDice(["step"] * 8 + ["step", "cross", "cross", "cross"]), fight_retry=mode)
    play_search_round(game)
    play_search_round(game)
    game.attic_key_found()
    game.roll()
    assert game.roll()["verdict"] == "failed"
    assert game.phase == "fight"
    game.another_attempt()
    assert game.state["fight"]["attempt"] == 2
    assert game.state["fight"]["points"] == expected
    assert game.next_roller() == 0


def test_lose_mode_offers_no_second_attempt():
    """RULES.md A1 default "lose": the failed verdict is final."""
    game = AtticGame.new(2, FixedDice(["step"] * 4 + ["cross"] * 4))
    play_search_round(game)
    game.attic_key_found()
    game.roll()
    game.roll()
    with pytest.raises(IllegalMove):
        game.another_attempt()
    with pytest.raises(IllegalMove):
        game.roll()


def test_crystal_and_key_supply_is_bounded_by_the_box():
    """Rulebook 003 "Состав игры": 9 power crystals and 4 key tokens."""
    game = AtticGame.new(2, random.Random(0))
    for _ in range(9):
        game.collect_crystal()
    for _ in range(4):
        game.collect_key()
    with pytest.raises(IllegalMove):
        game.collect_crystal()
    with pytest.raises(IllegalMove):
        game.collect_key()


def test_player_count_is_two_to_four():
    """RULES.md 3.2: four ghosts; setup notes for 2, 3 and 4 players."""
    for bad in (1, 5):
        with pytest.raises(IllegalMove):
            AtticGame.new(bad, random.Random(0))


def test_hits_count_every_face_except_the_cross():
    """Rulebook 003 fight step 3: the cross is a miss, any other face removes a tile."""
    for first in SYMBOLS:
        for second in SYMBOLS:
            assert hits((first, second)) == (first != MISS) + (second != MISS)
