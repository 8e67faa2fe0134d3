"""The pipeline snaps an outline's quad onto the full-resolution frame only when it reads it (stop 54): a quad whose
centre lies deeper in a card found already than snapping can move it is skipped unsnapped, as it would have been
skipped snapped. The same cards are read either way, to the last bit (docs/vision-history.md, "Stop 54")."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from vision.cards import scans_available
from vision.detect import refine_at_full_resolution
from vision.placements import deep_inside_any, inside_any


@settings(max_examples=200, deadline=None)
@given(st.floats(100, 400), st.floats(0, 2 * np.pi), st.floats(-1.2, 1.2), st.floats(-1.2, 1.2),
       st.floats(1, 60))
def test_a_point_deep_inside_a_card_has_every_point_that_near_inside_it(turned_card, width, angle, along, down,
                                                                          depth):
    card = turned_card((800.0, 600.0), width, angle)
    point = card.mean(axis=0) + along * (card[1] - card[0]) / 2 + down * (card[3] - card[0]) / 2
    if deep_inside_any(point, [card], depth):
        circle = np.linspace(0, 2 * np.pi, 24, endpoint=False)
        near = point + depth * np.stack([np.cos(circle), np.sin(circle)], axis=1)
        assert all(inside_any(each, [card]) for each in near)


def test_how_deep_a_point_lies_is_its_distance_to_the_nearest_side(turned_card):
    card = turned_card((800.0, 600.0), 300.0, 0.3)  # 300 x 192 px: the middle lies 96 px from the long sides
    assert deep_inside_any(card.mean(axis=0), [card], 90.0)
    assert not deep_inside_any(card.mean(axis=0), [card], 100.0)
    assert not deep_inside_any(card[0] - 5.0, [card], 0.0)  # outside
    assert deep_inside_any(card.mean(axis=0), [card + 500.0, card], 90.0)  # any of the cards


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**31 - 1), st.floats(1.0, 12.0), st.floats(-25, 25), st.floats(-25, 25))
def test_snapping_moves_no_corner_more_than_twice_its_reach(turned_card, seed, reach, dx, dy):
    """The bound the pipeline's skipping rests on: each corner, and so the centre, moves at most twice the reach."""
    import cv2

    rng = np.random.default_rng(seed)
    gray = rng.integers(60, 120, (480, 640), dtype=np.uint8)
    card = turned_card((320.0, 240.0), 220.0, float(rng.uniform(0, np.pi)))
    cv2.fillConvexPoly(gray, np.int32(np.round(card + (dx, dy))), 230)  # an edge near each side, or beyond reach
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    snapped = refine_at_full_resolution(gray, card, reach)
    assert np.linalg.norm(snapped - card, axis=1).max() <= 2 * reach + 1e-9


def test_cards_are_read_the_same_with_every_outline_snapped_at_once(monkeypatch):
    """Three benchmark scenes read with `find_outlines` snapping every quad itself, as before stop 54, and with the
    pipeline snapping only the quads it reads: the same cards, corners and confidences; and quads were skipped."""
    import vision.detect
    import vision.pipeline
    from vision.pipeline import Recogniser
    from vision.synthetic import SceneGenerator

    generator = SceneGenerator(2024, use_scans=scans_available())
    frames = [generator.random_scene().frame for _ in range(3)]
    recogniser = Recogniser()
    lazily = [recogniser.scan(frame).cards for frame in frames]

    skipped = []
    deep_inside = vision.pipeline.deep_inside_any
    monkeypatch.setattr(vision.pipeline, "deep_inside_any",
                        lambda *args: skipped.append(deep_inside(*args)) or skipped[-1])
    assert [recogniser.scan(frame).cards for frame in frames] == lazily
    assert any(skipped)

    find_outlines = vision.detect.find_outlines
    monkeypatch.setattr(vision.detect, "find_outlines",
                        lambda frame, full_gray=None, snapped=True, channels=None:
                        find_outlines(frame, full_gray, channels=channels))
    at_once = [recogniser.scan(frame).cards for frame in frames]
    assert sum(map(len, at_once)) >= 6
    assert at_once == lazily


@pytest.mark.parametrize("snapped", [True, False])
def test_outlines_say_how_far_their_quads_are_still_to_be_snapped(snapped):
    from vision.detect import find_outlines
    from vision.synthetic import SceneGenerator

    frame = SceneGenerator(7, use_scans=False).random_scene().frame  # 1640 px wide: found on a 640 px copy
    outlines = find_outlines(frame, snapped=snapped)
    assert outlines.quads
    assert outlines.snap_reach == (0.0 if snapped else pytest.approx(1.5 * 1640 / 640, rel=0.01))
    if not snapped:
        import cv2

        gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        each_snapped = [refine_at_full_resolution(gray, quad, outlines.snap_reach) for quad in outlines.quads]
        assert all(np.array_equal(a, b) for a, b in zip(each_snapped, find_outlines(frame).quads))
