"""A column's cards are read the likelier way up first (`vision.pipeline._likelier_way_up_first`, stop 38): players
sit around the table and a card's head points away from its owner, towards the middle of the frame. Only the order
of the readings depends on it: a column whose first way up reads unmistakably as cards is not read the other way."""
import numpy as np
import pytest

import vision.features
import vision.pipeline
from vision.cards import all_cards
from vision.pipeline import _likelier_way_up_first
from vision.synthetic import Conditions, SceneGenerator

MIDDLE = np.array([820.0, 616.0])  # of a 1640x1232 frame


def test_a_card_whose_top_faces_the_middle_is_read_unturned_first():
    below_the_middle = np.array([[700.0, 900], [900, 900], [900, 1030], [700, 1030]])  # TL, TR, BR, BL: upright
    assert _likelier_way_up_first(below_the_middle, MIDDLE) == (False, True)
    assert _likelier_way_up_first(np.roll(below_the_middle, 2, axis=0), MIDDLE) == (True, False)
    left_of_the_middle = np.array([[300.0, 500], [300, 700], [170, 700], [170, 500]])  # its top points right
    assert _likelier_way_up_first(left_of_the_middle, MIDDLE) == (False, True)
    assert _likelier_way_up_first(np.roll(left_of_the_middle, 2, axis=0), MIDDLE) == (True, False)


@pytest.mark.parametrize("seed", [1, 2, 3])
def test_every_card_of_a_generated_table_lies_the_predicted_way_up(seed):
    """The premise, on the scene generator's tables: seat 0 at the bottom, 1 left, 2 top, 3 right, perspective and
    jitter included."""
    ids = [c.id for c in all_cards()]
    generator = SceneGenerator(seed, card_ids=ids, use_scans=False)
    scene = generator.random_scene()
    middle = np.array([scene.frame.shape[1], scene.frame.shape[0]]) / 2
    assert any(truth.seat is not None for truth in scene.cards)
    for truth in scene.cards:
        if truth.seat is not None:
            assert _likelier_way_up_first(truth.corners, middle) == (False, True), truth


def test_reading_the_likelier_way_up_first_reads_less_and_the_same(recogniser, monkeypatch):
    ids = [c.id for c in all_cards()][:6]
    generator = SceneGenerator(4, card_ids=ids, use_scans=False)
    # Columns at the seats other than the bottom one, whose cards an unturned split may read upside down first.
    scene = generator.render({1: [ids[:2]], 2: [ids[2:4]], 3: [[ids[4]], [ids[5]]]},
                             Conditions(card_width_px=200, table="wood", noise=2))
    fits = []
    real_fit = vision.features.badge_fit
    monkeypatch.setattr(vision.features, "badge_fit", lambda frame, corners: fits.append(1) or real_fit(frame, corners))

    predicted = recogniser.scan(scene.frame)
    predicted_fits = len(fits)
    fits.clear()
    monkeypatch.setattr(vision.pipeline, "_likelier_way_up_first", lambda card, middle: (False, True))
    unturned_first = recogniser.scan(scene.frame)

    assert predicted.error is None and len(predicted.cards) >= 5
    assert [card.to_json() for card in predicted.cards] == [card.to_json() for card in unturned_first.cards]
    assert predicted_fits < len(fits)
