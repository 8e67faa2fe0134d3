"""Finding the badge inside a card (issue 3: parts and ability are read from a badge about 30 scan pixels per body
part, while scans are cut up to 25 pixels differently and detected corners are often 10-35 pixels off)."""
import numpy as np
import pytest

from vision.cards import heldout_cards
from vision.features import BADGE_TEMPLATE, _card_to_image, _shifted, badge_offset
from vision.synthetic import Conditions, SceneGenerator


def _scene_with_one_card(card, seed):
    generator = SceneGenerator(seed, card_ids=[card.id])
    return generator.render({0: [[card.id]]}, Conditions(card_width_px=260, tilt_deg=8, noise=2))


@pytest.mark.parametrize("error", [(0, 0), (24, -18), (-30, 10), (12, 30)])
def test_the_badge_is_found_where_it_lies_when_the_corners_are_off(needs_scans, error):
    assert BADGE_TEMPLATE is not None, "vision/params/silhouette.json has no badge template"
    for index, card in enumerate(heldout_cards()[:4]):
        scene = _scene_with_one_card(card, index)
        true_map = _card_to_image(np.asarray(scene.cards[0].corners, np.float64))
        printed = badge_offset(scene.frame, true_map)  # where this scan's badge sits in its own card
        # Corners that put every point of the card `error` scan pixels away from where it really is.
        wrong_map = _shifted(true_map, -np.asarray(error, np.float64))
        found = badge_offset(scene.frame, wrong_map)
        assert np.abs(found - (printed + error)).max() < 6, (card.scan, found, printed, error)


def test_a_frame_with_no_badge_leaves_the_card_where_its_corners_put_it():
    corners = np.float64([[100, 100], [360, 100], [360, 267], [100, 267]])
    rng = np.random.default_rng(3)
    for frame in (np.zeros((400, 500, 3), np.uint8), np.full((400, 500, 3), 200, np.uint8),
                  rng.integers(0, 256, (400, 500, 3), dtype=np.uint8)):
        offset = badge_offset(frame, _card_to_image(corners))
        assert offset.shape == (2,) and np.all(np.isfinite(offset))
        if frame.std() == 0:
            assert not offset.any()
