"""Card corners from straight edges (issue 3: "card localisation that works for ... any rotation ... and any table
surface"): where a card's outline is lost (a pale card on a pale cloth) its edges are still straight lines meeting
square, and vision.segments finds the corners they make."""
import numpy as np
import pytest
from hypothesis import example, given, settings, strategies as st

from vision.cards import CARD_ASPECT


def _card_on_cloth(corners: np.ndarray, card_grey: int, cloth_grey: int, seed: int) -> np.ndarray:
    import cv2

    rng = np.random.default_rng(seed)
    frame = np.clip(rng.normal(cloth_grey, 4.0, (700, 900)), 0, 255).astype(np.uint8)
    cv2.fillConvexPoly(frame, np.round(corners * 16).astype(np.int32), card_grey, cv2.LINE_AA, 4)
    return cv2.GaussianBlur(frame, (3, 3), 0)


def _angle(u: np.ndarray, v: np.ndarray) -> float:
    return float(np.degrees(np.arccos(np.clip(abs(float(u @ v)), 0.0, 1.0))))


@settings(max_examples=40, deadline=None)
@given(st.floats(150, 300), st.floats(-np.pi, np.pi), st.floats(-40, 40), st.floats(-40, 40),
       st.sampled_from([(230, 200), (60, 90), (140, 100)]), st.integers(0, 1000))
@example(width=273.0, angle=0.0, dx=0.1875, dy=1.0, greys=(140, 100), seed=315)  # a side in pieces (stop 42)
def test_each_corner_of_a_card_on_a_plain_cloth_is_found_with_its_sides(turned_card, width, angle, dx, dy, greys,
                                                                         seed):
    """A card with faint edges (its grey 30-40 levels from the cloth's, as a pale card on a pale cloth) turned any
    way: each of its four corners is found within 3 px, its two sides along the card's within 3 degrees."""
    from vision.segments import segment_corners

    card = turned_card((450 + dx, 350 + dy), width, angle)
    frame = _card_on_cloth(card, *greys, seed)
    found = segment_corners(frame, card.mean(axis=0), width / CARD_ASPECT)
    for i, point in enumerate(card):
        sides = [(card[(i + 1) % 4] - point), (card[i - 1] - point)]
        sides = [side / np.linalg.norm(side) for side in sides]
        assert any(np.linalg.norm(corner.point - point) < 3.0
                   and all(min(_angle(along, side) for side in sides) < 3.0 for along in corner.along)
                   for corner in found), f"corner {i} at {point.round(1)} not found"


def test_nothing_is_found_on_a_bare_cloth_or_a_tiny_frame():
    """No straight edges, no corners: a bare noisy cloth, and a frame too small to hold a segment."""
    from vision.segments import segment_corners

    cloth = np.clip(np.random.default_rng(3).normal(120, 6.0, (400, 400)), 0, 255).astype(np.uint8)
    assert segment_corners(cloth, np.array([200.0, 200.0]), 150.0) == []
    assert segment_corners(np.zeros((3, 3), np.uint8), np.array([1.0, 1.0]), 150.0) == []


def test_a_corner_s_sides_are_as_long_as_the_edges_reaching_from_it(turned_card):
    """The sides of a found corner run the card's edges' length (the side-sized cards take them as a card's width)."""
    from vision.segments import segment_corners

    width = 240.0
    card = turned_card((450, 350), width, 0.3)
    found = segment_corners(_card_on_cloth(card, 220, 90, 7), card.mean(axis=0), width / CARD_ASPECT)
    corner = min(found, key=lambda each: float(np.linalg.norm(each.point - card[0])))
    assert sorted(corner.lengths) == [pytest.approx(width / CARD_ASPECT, rel=0.05), pytest.approx(width, rel=0.05)]


def test_pieces_of_one_edge_are_joined_and_other_lines_kept_apart():
    """The detector can break a faint edge into pieces too short to be a card's side (MIN_SEGMENT): pieces on one line
    with small gaps between them become one segment from end to end, whichever way each runs; a parallel line a few
    pixels aside, or a piece farther along than the gap, stays as it was."""
    from vision.segments import _joined

    pieces = np.array([[[312.1, 264.2], [312.2, 309.3]], [[312.0, 354.3], [312.3, 311.7]],
                       [[312.1, 356.7], [312.0, 436.8]]])
    aside = np.array([[[318.0, 264.0], [318.0, 430.0]]])  # 6 px to the side
    beyond = np.array([[[312.0, 480.0], [312.0, 560.0]]])  # 43 px past the last piece's end
    joined = _joined(np.concatenate([pieces, aside, beyond]), gap=21.0)
    assert len(joined) == 3
    whole = joined[0]
    assert np.allclose(sorted(whole[:, 1]), [264.2, 436.8])
    assert np.allclose(joined[1], aside[0]) and np.allclose(joined[2], beyond[0])
