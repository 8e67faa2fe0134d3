"""A card read surely, but laid a tenth of a card or more off its place (issue 3: "a confidence per card"; ability and
parts accuracy). Stop 76: three held-out cards were reported with a wrong ability or part at 0.62-0.83, their places
reading 0.92-0.96 as cards where their true places read 0.99-1.0. Such a card (below AGAIN_SURE, its place below
AGAIN_PLACE_DOUBT as a card) is read again laid on its sides, as a card read doubtfully is; one whose place reads
surely as a card is left as it was."""
import dataclasses

import numpy as np
import pytest

from vision.pipeline import AGAIN_BELOW, AGAIN_PLACE_DOUBT, AGAIN_SURE
from vision.table_plane import CardSizes

HELD_OUT_2024 = 263843294879837360010514471918415607657  # the PCG64 increment of the bench's held-out seed 2024


def _reported(recogniser, scene, card_id: int):
    """The card reported where the scene's card `card_id` lies."""
    from vision.bench import match

    [seen] = [seen for seen, truth in match(recogniser.scan(scene.frame).cards, scene.cards)
              if truth is not None and truth.card_id == card_id and seen is not None]
    return seen


@pytest.mark.parametrize("state, has_uint32, uinteger, touching, card_id, ability_read_before", [
    # The usual bench's scene 170: red torso card 47 (mourner), 147 px long on dim wood, found with one end a fifth of
    # a card out, read as a devourer at 0.62.
    pytest.param(251130075752774256466458668671092638984, 1, 2277196875, False, 47, "devourer", id="usual-170"),
    # The crowded bench's scene 200: red torso card 32 (jester) on a dark table, split off its column a fifth of a
    # card along, read as having no ability at 0.83.
    pytest.param(241375734990650725967095459620208514522, 0, 4181173723, True, 32, None, id="crowded-200"),
])
def test_a_card_read_surely_where_it_reads_doubtfully_as_a_card_is_read_again_on_its_sides(
        recogniser, needs_scans, bench_scene_at, monkeypatch, state, has_uint32, uinteger, touching, card_id,
        ability_read_before):
    """Held-out scenes (`companion vision bench`, seed 2024; checked, not tuned on): the card is reported with its own
    facts, at the confidence it was found with (still the stabiliser's "sure"); without the rule, with the ability it
    was read with where it was found."""
    import vision.pipeline
    from vision.cards import card_by_id

    scene = bench_scene_at(True, state, HELD_OUT_2024, has_uint32, uinteger, touching=touching)
    card = card_by_id(card_id)
    seen = _reported(recogniser, scene, card_id)
    assert (seen.legion, tuple(seen.parts), seen.ability) == (card.legion, tuple(card.parts), card.ability)
    assert AGAIN_BELOW <= seen.confidence < AGAIN_SURE
    monkeypatch.setattr(vision.pipeline, "AGAIN_SURE", AGAIN_BELOW)
    before = _reported(recogniser, scene, card_id)
    assert (before.legion, tuple(before.parts), before.ability) == (card.legion, tuple(card.parts), ability_read_before)
    assert before.confidence == seen.confidence


def _sure_reading_at(recogniser, scene, confidence: float, card_probability: float):
    """The scene's card read at its true corners, reported at `confidence`, and its place's probabilities with
    `card_probability` as a card."""
    [probabilities] = recogniser._read(scene.frame, [scene.cards[0].corners])
    [seen] = recogniser._by_exemplars([recogniser._card(scene.frame, scene.cards[0].corners, probabilities, 1.0)],
                                      [probabilities])
    place = probabilities | {"card": np.array([card_probability, 1.0 - card_probability])}
    return dataclasses.replace(seen, confidence=confidence), place


@pytest.mark.parametrize("confidence, card_probability, read_again", [
    (0.7, AGAIN_PLACE_DOUBT, False),  # its place reads surely as a card: left as it is
    (0.7, AGAIN_PLACE_DOUBT - 0.02, True),
    (AGAIN_SURE, AGAIN_PLACE_DOUBT - 0.02, False),  # read surely enough wherever it lies
    (AGAIN_BELOW - 0.05, 1.0, True),  # read doubtfully: read again however surely its place reads as a card
])
def test_which_cards_are_read_again_on_their_sides(recogniser, lone_card_scene, monkeypatch, confidence,
                                                   card_probability, read_again):
    import cv2

    scene = lone_card_scene(65, table="felt")
    seen, place = _sure_reading_at(recogniser, scene, confidence, card_probability)
    places_read = []
    read = recogniser._read
    monkeypatch.setattr(recogniser, "_read", lambda image, places, *args, **kwargs:
                        places_read.append(len(places)) or read(image, places, *args, **kwargs))
    gray = cv2.cvtColor(scene.frame, cv2.COLOR_BGR2GRAY)
    again = recogniser._read_again_on_sides(scene.frame, gray, [seen], [scene.cards[0].corners], [place], 1.0,
                                            CardSizes(scene.frame.shape))
    assert bool(places_read) == read_again
    if not read_again:
        assert again == [seen]
