"""Cards that stand out from the table only in part (issue 3: "any table surface", "hands moving over them"): the
detector's outline holds part of a card (dark art lost in a dark cloth, a white border in a pale one), or one region
holds a card and the neighbour or arm it touches by a corner. A card of the nearby cards' size laid over such an
outline (from its squarest corners, then snapped onto the edges nearby) is read; an icon whose place lay outside the
outline is no evidence that the card has none."""
import numpy as np
import pytest

from vision.bench import CONFIDENT, match
from vision.cards import CARD_ASPECT, CARD_HEIGHT, CARD_WIDTH, card_by_id
from vision.layout import ICON_BOX

WIDTH = 240.0
DEPTH = WIDTH / CARD_ASPECT


def _card_at(left: float, top: float) -> np.ndarray:
    return np.array([[left, top], [left + WIDTH, top], [left + WIDTH, top + DEPTH], [left, top + DEPTH]])


def _same_card(a: np.ndarray, b: np.ndarray, tolerance: float = 1.0) -> bool:
    """Whether two corner arrays are the same card, whichever corner either starts from."""
    return any(np.abs(np.roll(a, shift, axis=0) - b).max() < tolerance for shift in range(4))


def test_cards_laid_over_part_of_a_card_from_its_square_corners_include_that_card():
    import cv2

    from vision.placements import cards_over_outline

    card = _card_at(100, 80)
    # Its right half or so: the left of the card lost in the table, where the art's edge cuts across it aslant.
    outline = card.copy()
    outline[0, 0], outline[3, 0] = 100 + 0.45 * WIDTH, 100 + 0.35 * WIDTH
    cards = cards_over_outline(outline, (WIDTH, DEPTH))
    assert any(_same_card(each, card) for each in cards)
    for each in cards:
        # Laid from one of the outline's two right-angled corners (not the slanted ones where the art cuts across).
        assert sum(np.linalg.norm(each - corner, axis=1).min() < 1e-6 for corner in outline[[1, 2]]) >= 1
        assert not any(np.linalg.norm(each - corner, axis=1).min() < 1e-6 for corner in outline[[0, 3]])
        # Clockwise in the image, as a card's own corners are.
        assert cv2.contourArea(each.astype(np.float32), oriented=True) > 0
    # An outline longer than a card both ways holds none; one deeper than a card but narrower holds only cards
    # turned a quarter round.
    assert not cards_over_outline(np.array([[0, 0], [1.5 * WIDTH, 0], [1.5 * WIDTH, 1.5 * WIDTH], [0, 1.5 * WIDTH]]),
                                  (WIDTH, DEPTH))
    upright = cards_over_outline(np.array([[0, 0], [0.5 * DEPTH, 0], [0.5 * DEPTH, 0.9 * WIDTH], [0, 0.9 * WIDTH]]),
                                 (WIDTH, DEPTH))
    assert upright and all(abs(np.ptp(each[:, 1]) - WIDTH) < 1 for each in upright)


def test_the_icon_centre_is_where_the_layout_prints_it_however_the_card_lies():
    import cv2

    from vision.placements import icon_centre

    expected = np.array([(ICON_BOX[0] + ICON_BOX[2]) / 2, (ICON_BOX[1] + ICON_BOX[3]) / 2])
    scan = np.array([[0, 0], [CARD_WIDTH, 0], [CARD_WIDTH, CARD_HEIGHT], [0, CARD_HEIGHT]], np.float64)
    assert np.allclose(icon_centre(scan), expected)
    # Turned a quarter round and moved: the card's own top-right corner is now at the image's bottom-right.
    rotation = cv2.getRotationMatrix2D((0, 0), -90, 0.3)
    turned = scan @ rotation[:, :2].T + rotation[:, 2] + [500, 100]
    assert np.allclose(icon_centre(turned), expected @ rotation[:, :2].T + rotation[:, 2] + [500, 100])


def test_a_card_touching_another_region_by_a_corner_is_split_off_it_on_a_textured_table():
    import cv2

    from vision.detect import _off_table_quads
    from vision.synthetic import table_texture

    frame = table_texture("wood", (640, 480), np.random.default_rng(3))
    card = _card_at(120, 150) * 0.6
    other = np.array([[card[2][0] + 1, card[2][1] + 1], [card[2][0] + 150, card[2][1] - 30],
                      [card[2][0] + 170, card[2][1] + 90], [card[2][0] + 20, card[2][1] + 120]])
    for shape in (card, other):
        cv2.fillPoly(frame, [shape.round().astype(np.int32)], (60, 150, 40))
    everywhere = np.full(frame.shape[:2], 255, np.uint8)  # edge support is not what is tested here
    quads = [quad for _, quad in _off_table_quads(frame, (2000.0, 0.5 * 640 * 480, 28.0), everywhere)[0]]
    assert any(np.abs(quad - card).max() < 6 for quad in quads), quads


def test_a_card_whose_dark_art_merges_into_a_dark_cloth_is_found_from_its_lit_part(recogniser, needs_scans):
    from vision.synthetic import Conditions, SceneGenerator

    # Held-out card 13 (its art dark on the left) beside card 60, whose size is the frame's card size.
    generator = SceneGenerator(1, card_ids=[13, 60], use_scans=True)
    scene = generator.render({0: [[13]], 2: [[60]]}, Conditions(card_width_px=230, table="dark", brightness=0.6,
                                                                 noise=3))
    found = {truth.card_id: seen for seen, truth in match(recogniser.scan(scene.frame).cards, scene.cards)
             if truth is not None}
    assert set(found) == {13, 60}
    card = card_by_id(13)
    assert (found[13].legion, found[13].parts, found[13].ability) == (card.legion, card.parts, card.ability)


@pytest.mark.parametrize("card_id", [99, 30])  # training cards without an ability
def test_no_icon_read_where_the_outline_was_not_seen_is_not_trusted(recogniser, lone_card_scene, card_id):
    from vision.pipeline import ICON_UNSEEN

    card = card_by_id(card_id)
    assert card.ability is None
    scene = lone_card_scene(card_id)
    corners = scene.cards[0].corners
    [probabilities] = recogniser._read(scene.frame, [corners])
    seen = recogniser._card(scene.frame, corners, probabilities, 1.0)
    [read] = recogniser._by_exemplars([seen], [probabilities])
    assert read.ability is None and read.confidence >= CONFIDENT
    [doubted] = recogniser._by_exemplars([seen], [probabilities | {ICON_UNSEEN: True}])
    assert doubted.ability is None and doubted.confidence < CONFIDENT


def test_an_icon_read_where_the_outline_was_not_seen_keeps_its_confidence(recogniser, lone_card_scene):
    from vision.pipeline import ICON_UNSEEN

    card = card_by_id(9)
    assert card.ability is not None
    scene = lone_card_scene(9)
    corners = scene.cards[0].corners
    [probabilities] = recogniser._read(scene.frame, [corners])
    seen = recogniser._card(scene.frame, corners, probabilities, 1.0)
    [read] = recogniser._by_exemplars([seen], [probabilities | {ICON_UNSEEN: True}])
    assert read.ability == card.ability and read.confidence >= CONFIDENT


def test_a_column_outline_pulled_out_at_a_corner_is_completed_though_the_nearest_card_is_smaller(
        recogniser, needs_scans):
    import cv2

    from vision.synthetic import Conditions, SceneGenerator

    # A two-card column of training cards; the nearest card found lies across a tilted frame, a fifth smaller.
    generator = SceneGenerator(4, card_ids=[57, 99], use_scans=True)
    scene = generator.render({0: [[57, 99]]}, Conditions(card_width_px=240, table="dark", noise=2))
    legs, torso = sorted(scene.cards, key=lambda truth: truth.slot != "legs")
    column = np.array([torso.corners[0], torso.corners[1], legs.corners[2], legs.corners[3]])
    pulled = column.copy()
    pulled[2] += 0.1 * (column[2] - column[0])  # a neighbour welded onto one corner
    gray = cv2.cvtColor(scene.frame, cv2.COLOR_BGR2GRAY)
    width = np.linalg.norm(column[1] - column[0])
    completed = recogniser._completed_column(scene.frame, gray, pulled, (0.8 * width, 0.8 * width / CARD_ASPECT))
    assert completed is not None and len(completed) == 2
    for truth in (legs, torso):
        assert any(_same_card(corners, truth.corners, 0.1 * width) for corners, _ in completed)


@pytest.mark.parametrize("shift_across, shift_down", [(0.0, -0.06), (-0.04, -0.06)])
def test_a_card_laid_over_its_lit_part_lies_on_its_own_edges_though_that_outline_was_a_little_off(
        recogniser, needs_scans, monkeypatch, shift_across, shift_down):
    import vision.detect
    from vision.detect import Outlines
    from vision.synthetic import Conditions, SceneGenerator

    # Held-out card 13 (its art dark on the left) on a dark cloth: only its lit right part left an outline, and
    # that outline lies a few pixels off the card (6% of a card depth up, and in one case 4% of a width aside).
    generator = SceneGenerator(2, card_ids=[13, 60], use_scans=True)
    scene = generator.render({0: [[13]], 2: [[60]]}, Conditions(card_width_px=230, table="dark", brightness=0.6,
                                                                 noise=3))
    dark = next(truth for truth in scene.cards if truth.card_id == 13)
    other = next(truth for truth in scene.cards if truth.card_id == 60)
    top_left, top_right, bottom_right, bottom_left = dark.corners
    across, down = top_right - top_left, bottom_left - top_left
    lit = np.array([top_left + 0.4 * across, top_right, bottom_right, bottom_left + 0.4 * across])
    lit += shift_across * across + shift_down * down
    monkeypatch.setattr(vision.detect, "find_outlines",
                        lambda frame, full_gray=None, snapped=True, channels=None:
                        Outlines([other.corners.copy(), lit], []))

    found = {truth.card_id: seen for seen, truth in match(recogniser.scan(scene.frame).cards, scene.cards)
             if truth is not None}
    assert set(found) == {13, 60}
    # Laid off the outline as it was, it would be about 9 px (4% of its width) off its own edges.
    assert _same_card(np.array(found[13].corners), dark.corners, 0.02 * np.linalg.norm(across))
