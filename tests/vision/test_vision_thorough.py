"""The thorough recogniser (`[camera] thorough`, `--thorough`) also lays cards from the corners straight edges make;
the default one does not (issue 3's time target: that search took about a seventh of a middle frame for about one
card in a thousand on plain tables; docs/vision-history.md, stop 46). And the judgement of bare table
(`_featureless`), made once per place a scan: a place turned half round samples the same points."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from vision import pipeline
from vision.pipeline import _FeaturelessPlaces, _featureless, _inner_sample
from vision.placements import rolled


def test_only_the_thorough_recogniser_looks_along_straight_edges(recogniser, thorough_recogniser, monkeypatch):
    from vision.cards import scans_available, training_cards
    from vision.synthetic import SceneGenerator

    looked = []

    def segment_corners(gray, around, depth):
        looked.append(around)
        return []

    monkeypatch.setattr(pipeline, "segment_corners", segment_corners)
    generator = SceneGenerator(5, card_ids=[card.id for card in training_cards()], use_scans=scans_available())
    scenes = [generator.random_scene() for _ in range(4)]  # hands, decks and arms leave outlines no card explains
    for scene in scenes:
        recogniser.scan(scene.frame)
    assert looked == []
    for scene in scenes:
        thorough_recogniser.scan(scene.frame)
    assert looked, "no region was looked along in four scenes"


@settings(max_examples=200, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(60, 200), st.floats(-np.pi, np.pi), st.floats(180, 420),
       st.floats(130, 330), st.booleans())
def test_a_place_turned_half_round_samples_the_same_pixels(turned_card, seed, width, angle, x, y, smooth):
    """The sample of a place turned half round is the sample turned, but for OpenCV's fixed-point rounding of a
    sampling point now and then (about one place in twenty, one grey level in one pixel): so `_FeaturelessPlaces`
    answers for both with the first one asked, whose spread lies within a few hundredths of the other's."""
    import cv2

    rng = np.random.default_rng(seed)
    image = rng.integers(0, 256, (480, 640, 3), dtype=np.uint8)
    if smooth:
        image = cv2.GaussianBlur(image, (0, 0), 3)
    card = turned_card((x, y), width, angle)
    sample = _inner_sample(image, card).astype(int)
    turned = _inner_sample(image, rolled(card, 2))[::-1, ::-1].astype(int)
    assert np.abs(turned - sample).max() <= 1
    assert np.count_nonzero(turned != sample) <= 2


def test_each_place_is_judged_once_a_scan_whichever_corner_it_starts_from(turned_card, monkeypatch):
    image = np.full((480, 640, 3), 120, np.uint8)
    image[200:260, 300:400] = 30  # something on the table: not featureless
    judged = []
    monkeypatch.setattr(pipeline, "_featureless",
                        lambda image, corners, dim_spread=None: judged.append(corners) or _featureless(
                            image, corners, dim_spread))
    featureless = _FeaturelessPlaces(image)
    bare, covered = turned_card((150, 150), 100, 0.3), turned_card((350, 230), 100, 0.1)
    answers = [featureless(place) for place in (bare, rolled(bare, 2), covered, bare, rolled(covered, 1))]
    assert answers == [True, True, False, True, False]
    assert len(judged) == 2
    assert featureless(bare, pipeline.DIM_CARD_SPREAD) is True and len(judged) == 3  # another question
