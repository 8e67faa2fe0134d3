"""Every ability icon is printed white: a card read with an icon where its place holds no white print has none
(issue 3: ability accuracy; a card with no ability that the model never saw was read with one, all its nearest
prototypes voting so). Read as having none, and not trusted: the place may be under a hand."""
import numpy as np
import pytest

from vision.bench import CONFIDENT, match
from vision.features import icon_print_share
from vision.layout import ICON_BOX
from vision.pipeline import NO_PRINT_SHARE, UNFAMILIAR_CONFIDENCE, _no_icon_printed


def _face_scene(card_id: int, use_scans: bool, seed: int = 5):
    from vision.synthetic import Conditions, SceneGenerator

    generator = SceneGenerator(seed, card_ids=[card_id], use_scans=use_scans)
    return generator.render({0: [[card_id]]}, Conditions(card_width_px=260, table="wood", noise=2))


def _icon_place_painted(frame: np.ndarray, corners: np.ndarray, bgr) -> np.ndarray:
    """The frame with the card's icon place (ICON_BOX) filled with one colour, as art with no print would be."""
    import cv2

    from vision.cards import CARD_HEIGHT, CARD_WIDTH

    card_to_frame = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [CARD_WIDTH, 0], [CARD_WIDTH, CARD_HEIGHT], [0, CARD_HEIGHT]]), np.float32(corners))
    x0, y0, x1, y1 = ICON_BOX
    box = cv2.perspectiveTransform(np.float32([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]]), card_to_frame)
    painted = frame.copy()
    cv2.fillConvexPoly(painted, box.reshape(-1, 2).astype(np.int32), bgr)
    return painted


@pytest.mark.parametrize("card_id", [1, 5, 10])  # stand-ins: scavenger, mourner, devourer
def test_a_printed_icon_is_white_print_and_art_with_none_is_not(card_id):
    from vision.cards import card_by_id

    assert card_by_id(card_id).ability not in (None, "jester")
    scene = _face_scene(card_id, use_scans=False)
    corners = scene.cards[0].corners
    assert icon_print_share(scene.frame, corners) > 3 * NO_PRINT_SHARE
    dark_art = _icon_place_painted(scene.frame, corners, (40, 60, 70))
    assert icon_print_share(dark_art, corners) < NO_PRINT_SHARE


def test_a_flat_badge_gives_no_print_share_rather_than_a_guess():
    flat = np.full((300, 400, 3), 128, np.uint8)
    assert np.isnan(icon_print_share(flat, np.array([[50, 50], [350, 50], [350, 243], [50, 243]], np.float64)))


def test_which_readings_no_print_overrules():
    measured = []

    def share(value):
        def measure():
            measured.append(value)
            return value
        return measure

    assert _no_icon_printed("herald", share(0.0))
    assert _no_icon_printed("devourer", share(NO_PRINT_SHARE / 2))
    assert not _no_icon_printed("devourer", share(NO_PRINT_SHARE))
    assert not _no_icon_printed("herald", share(float("nan")))  # a badge with no white to compare with
    assert len(measured) == 4
    assert not _no_icon_printed(None, share(0.0))  # read as having none already
    assert not _no_icon_printed("jester", share(0.0))  # its thin smile can leave almost no white at this level
    assert len(measured) == 4, "the print is measured only for the abilities the rule concerns"


def test_an_icon_read_where_no_print_is_becomes_no_ability_and_untrusted(recogniser, needs_scans):
    from vision.cards import card_by_id
    from vision.pipeline import BADGE_OFFSET, FEATURES

    card_id = 65  # a herald, read surely
    scene = _face_scene(card_id, use_scans=True)
    truth = scene.cards[0]
    [(seen, _)] = [pair for pair in match(recogniser.scan(scene.frame).cards, scene.cards) if pair[1] is not None]
    assert seen.ability == card_by_id(card_id).ability and seen.confidence >= CONFIDENT

    [probabilities] = recogniser._read(scene.frame, [truth.corners])
    assert FEATURES in probabilities and BADGE_OFFSET in probabilities
    badge = probabilities[BADGE_OFFSET]
    assert icon_print_share(scene.frame, truth.corners, badge) == icon_print_share(scene.frame, truth.corners)
    as_printed, = recogniser._by_exemplars([seen], [probabilities],
                                           lambda i: icon_print_share(scene.frame, [truth.corners][i]))
    assert as_printed.ability == "herald"
    unprinted, = recogniser._by_exemplars([seen], [probabilities], lambda i: 0.0)
    assert unprinted.ability is None and unprinted.confidence <= UNFAMILIAR_CONFIDENCE
    assert (unprinted.legion, unprinted.parts) == (as_printed.legion, as_printed.parts)
