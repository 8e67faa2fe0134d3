"""A hand reaching over a card's ability icon from off the card hides the icon, and what shows there may read surely
as "no ability": such a reading is not trusted (issue 3: "cards partly hidden by a hand are reported as uncertain or
left out, never guessed wildly"). `vision.cover` tells a hand by its shape, not its colour: a smooth region of one
colour over the icon's place that reaches out over the card's outline without surrounding the card. A hand anywhere
over a card (`vision.cover.card_covered`) leaves a reading that is not sure anyway untrusted
(`vision.pipeline.SURE_DESPITE_COVER`)."""
import numpy as np
import pytest

from vision.bench import CONFIDENT
from vision.cards import CARD_WIDTH, card_by_id
from vision.cover import card_covered, icon_place_covered
from vision.layout import ICON_BOX

ICON_CENTRE = ((ICON_BOX[0] + ICON_BOX[2]) / 2, (ICON_BOX[1] + ICON_BOX[3]) / 2)
SKIN_BGR = (90, 120, 170)


def _on_frame(corners: np.ndarray, point) -> tuple[int, int]:
    import cv2

    from vision.features import _card_to_image

    x, y = cv2.perspectiveTransform(np.float32([[point]]), _card_to_image(corners))[0, 0]
    return int(round(x)), int(round(y))


def _hand(frame: np.ndarray, corners: np.ndarray, start, tip, colour=SKIN_BGR, width=0.35) -> np.ndarray:
    """The frame with an arm of one colour reaching from `start` to `tip` (card pixels), `width` of the card's width
    wide, ending in a hand."""
    import cv2

    width_px = float(np.linalg.norm(corners[1] - corners[0]))
    thickness = int(width * width_px)
    covered = frame.copy()
    cv2.line(covered, _on_frame(corners, start), _on_frame(corners, tip), colour, thickness)
    cv2.circle(covered, _on_frame(corners, tip), int(0.7 * thickness), colour, -1)
    return covered


@pytest.fixture(scope="module")
def standin_scene():
    """A code-drawn stand-in card (no ability) alone on a wooden table."""
    from vision.synthetic import Conditions, SceneGenerator

    generator = SceneGenerator(5, card_ids=[4], use_scans=False)
    return generator.render({0: [[4]]}, Conditions(card_width_px=260, table="wood", noise=2))


def test_a_card_with_nothing_over_it_is_not_covered(standin_scene):
    assert not icon_place_covered(standin_scene.frame, standin_scene.cards[0].corners)


@pytest.mark.parametrize("start", [(1500, ICON_CENTRE[1]), (ICON_CENTRE[0], -500), (ICON_CENTRE[0], 1200),
                                   (-500, ICON_CENTRE[1])], ids=["right", "top", "bottom", "left"])
def test_a_hand_reaching_over_the_cards_edge_to_its_icon_covers_it(standin_scene, start):
    corners = standin_scene.cards[0].corners
    assert icon_place_covered(_hand(standin_scene.frame, corners, start, ICON_CENTRE), corners)


def test_a_hand_over_the_other_end_of_the_card_does_not_cover_the_icon(standin_scene):
    corners = standin_scene.cards[0].corners
    assert not icon_place_covered(_hand(standin_scene.frame, corners, (-500, 450), (200, 450)), corners)


def test_a_fingertip_within_the_card_is_left_to_the_familiarity_cap(standin_scene):
    """A fingertip that reaches nowhere beyond the card's outline is not told from art of one colour there; an
    icon print unlike every prototype caps such a reading (test_vision_covered_icon)."""
    import cv2

    corners = standin_scene.cards[0].corners
    touched = standin_scene.frame.copy()
    cv2.circle(touched, _on_frame(corners, ICON_CENTRE), 20, SKIN_BGR, -1)
    assert not icon_place_covered(touched, corners)


def _flat_table_card() -> tuple[np.ndarray, np.ndarray]:
    """A stand-in card whose right end (icon place and edge) is painted the colour of the smooth, even table it
    lies on."""
    import cv2

    from vision.standin import standin_face

    frame = np.full((700, 900, 3), SKIN_BGR, np.uint8)
    corners = np.float32([[200, 200], [660, 200], [660, 495], [200, 495]])
    face = standin_face(card_by_id(4)).copy()
    face[:, int(820 * face.shape[1] / CARD_WIDTH):] = SKIN_BGR
    height, width = face.shape[:2]
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [width, 0], [width, height], [0, height]]), corners)
    cv2.warpPerspective(face, matrix, (900, 700), frame, borderMode=cv2.BORDER_TRANSPARENT)
    return frame, corners.astype(np.float64)


def test_a_smooth_table_the_art_runs_into_is_not_a_hand(monkeypatch):
    import vision.cover

    frame, corners = _flat_table_card()
    assert not icon_place_covered(frame, corners)
    assert not card_covered(frame, corners)
    monkeypatch.setattr(vision.cover, "MOST_SIDES", 4)
    assert icon_place_covered(frame, corners), "only because the region surrounds the card is it taken for table"
    assert card_covered(frame, corners)


@pytest.mark.parametrize("card_id", [99, 30])  # training cards without an ability
def test_no_icon_read_under_a_hand_is_not_trusted(recogniser, lone_card_scene, card_id):
    assert card_by_id(card_id).ability is None
    scene = lone_card_scene(card_id)
    corners = scene.cards[0].corners
    [probabilities] = recogniser._read(scene.frame, [corners])
    seen = recogniser._card(scene.frame, corners, probabilities, 1.0)
    [read] = recogniser._by_exemplars([seen], [probabilities], covered=lambda i: False)
    assert read.ability is None and read.confidence >= CONFIDENT
    [doubted] = recogniser._by_exemplars([seen], [probabilities], covered=lambda i: True)
    assert doubted.ability is None and doubted.confidence < CONFIDENT


def test_a_hand_that_only_grazes_the_icons_place_does_not_cover_it(standin_scene):
    corners = standin_scene.cards[0].corners
    reaching = _hand(standin_scene.frame, corners, (ICON_CENTRE[0], 1200), (ICON_CENTRE[0], 520))
    assert not icon_place_covered(reaching, corners)  # most of the icon's place is in plain view: its colour is art's
    further = _hand(standin_scene.frame, corners, (ICON_CENTRE[0], 1200), (ICON_CENTRE[0], 380))
    assert icon_place_covered(further, corners)


def test_a_card_with_nothing_over_it_has_no_hand_over_it(standin_scene):
    assert not card_covered(standin_scene.frame, standin_scene.cards[0].corners)


@pytest.mark.parametrize("start, tip", [((-500, 330), (300, 330)), ((500, 1200), (500, 400)),
                                        ((1600, 200), (700, 250)), ((200, -500), (350, 300))],
                         ids=["left", "bottom", "right", "top"])
def test_a_hand_reaching_over_the_cards_edge_lies_over_the_card(standin_scene, start, tip):
    """An arm 0.45 of the card's width wide (the synthetic scenes' are 0.35-0.55): one much narrower crosses too
    little of the margin beyond the card (`vision.cover.OUTSIDE_SHARE`)."""
    corners = standin_scene.cards[0].corners
    assert card_covered(_hand(standin_scene.frame, corners, start, tip, width=0.45), corners)


def test_a_fingertip_within_the_card_or_a_hand_beside_it_is_not_over_it(standin_scene):
    import cv2

    corners = standin_scene.cards[0].corners
    touched = standin_scene.frame.copy()
    cv2.circle(touched, _on_frame(corners, (500, 330)), 25, SKIN_BGR, -1)
    assert not card_covered(touched, corners), "reaches nowhere beyond the card's outline"
    beside = _hand(standin_scene.frame, corners, (500, 1500), (500, 1000), width=0.45)
    assert not card_covered(beside, corners), "covers none of the card"
    grazing = _hand(standin_scene.frame, corners, (-900, 330), (-200, 330), width=0.45)
    assert not card_covered(grazing, corners), "covers a sliver of the card's end, less than HAND_SHARE"


@pytest.mark.parametrize("hand_over", [True, False])
def test_a_reading_less_than_sure_with_a_hand_over_the_card_is_not_trusted(monkeypatch, recogniser, lone_card_scene,
                                                                           hand_over):
    import vision.pipeline

    scene = lone_card_scene(99)
    corners = scene.cards[0].corners
    [probabilities] = recogniser._read(scene.frame, [corners])
    seen = recogniser._card(scene.frame, corners, probabilities, 1.0)
    [read] = recogniser._by_exemplars([seen], [probabilities])
    assert read.confidence >= CONFIDENT
    monkeypatch.setattr(vision.pipeline, "SURE_DESPITE_COVER", read.confidence)
    [sure] = recogniser._by_exemplars([seen], [probabilities], over_card=lambda i: hand_over)
    assert sure.confidence == read.confidence, "a reading as sure as SURE_DESPITE_COVER stands, hand or none"
    monkeypatch.setattr(vision.pipeline, "SURE_DESPITE_COVER", read.confidence + 0.01)
    [doubted] = recogniser._by_exemplars([seen], [probabilities], over_card=lambda i: hand_over)
    assert (doubted.confidence < CONFIDENT) == hand_over
    assert (doubted.legion, doubted.parts, doubted.ability) == (read.legion, read.parts, read.ability)


def test_a_held_out_card_under_a_hand_is_reported_uncertain(monkeypatch, needs_scans):
    """Held-out card 66 (known to the companion's recogniser) on a checked cloth, an arm over most of its art: read
    at about 0.73 without the rule (right, here; with a hand over its art it has been read green at 0.69, stop 62).
    Laid first at the size its corner's sides give, it reads 0.94, below that search's bar (0.95); snapped and read
    again as the corners' cards of the nearby card's size are (stop 74), a side moves onto the arm's edge and the
    place reads 0.98, at corners 25 px off: so those are not snapped."""
    import vision.pipeline
    from vision.synthetic import Conditions, SceneGenerator

    scene = SceneGenerator(5, card_ids=[66], use_scans=True).render(
        {0: [[66]]}, Conditions(card_width_px=240, table="cloth", noise=2))
    corners = scene.cards[0].corners
    frame = _hand(scene.frame, corners, (300, 1300), (450, 350), width=0.45)
    recogniser = vision.pipeline.Recogniser(known_scans=True)
    assert card_covered(frame, corners)
    [read] = recogniser.scan(frame).cards
    assert read.confidence < CONFIDENT
    monkeypatch.setattr(vision.pipeline, "SURE_DESPITE_COVER", 0.0)
    [unruled] = recogniser.scan(frame).cards
    assert unruled.confidence >= CONFIDENT, "it is the rule that leaves the reading untrusted"
    [plain] = recogniser.scan(scene.frame).cards
    assert plain.confidence >= CONFIDENT and plain.legion == "brown"


@pytest.mark.parametrize("hand_over, colours_agree", [(True, False), (True, True), (False, False)])
def test_a_legion_its_badges_shape_decided_against_its_colours_is_not_trusted_under_a_hand(
        recogniser, lone_card_scene, hand_over, colours_agree):
    """However sure the reading, a hand over the card and a legion the badge's shape decided against its colours (an
    arm over half a brown card: its colours brown, its badge's visible part green) leave the card untrusted."""
    from vision.pipeline import LEGION_BY_COLOUR, SURE_DESPITE_COVER

    scene = lone_card_scene(99)
    corners = scene.cards[0].corners
    [probabilities] = recogniser._read(scene.frame, [corners])
    seen = recogniser._card(scene.frame, corners, probabilities, 1.0)
    [read] = recogniser._by_exemplars([seen], [probabilities])
    assert read.confidence >= SURE_DESPITE_COVER, "sure enough for the hand alone to leave it trusted"
    legion = int(np.argmax(probabilities["legion"]))
    colours = np.zeros_like(probabilities["legion"])
    colours[legion if colours_agree else (legion + 1) % len(colours)] = 1.0
    probabilities = probabilities | {LEGION_BY_COLOUR: colours}
    [ruled] = recogniser._by_exemplars([seen], [probabilities], over_card=lambda i: hand_over)
    assert (ruled.confidence < CONFIDENT) == (hand_over and not colours_agree)
    assert (ruled.legion, ruled.parts, ruled.ability) == (read.legion, read.parts, read.ability)


def test_a_card_under_an_arm_whose_badge_shape_overruled_its_colours_is_reported_uncertain(monkeypatch, needs_scans,
                                                                                          bench_scene_at):
    """Layout bench scene 165 (seed 2024, held-out scans, table markers): an arm over held-out card 60 (brown), laid
    from a half-card corner 28 px off. Its colours read brown, its badge's visible part green: green at 0.82 without
    the rule (stop 71)."""
    import vision.pipeline
    from vision.bench import match

    scene = bench_scene_at(True, 293840366660401004951813895170714367848, 263843294879837360010514471918415607657, 0,
                           2347832835, markers=True)
    [truth] = [card for card in scene.cards if card.card_id == 60]
    assert truth.occluded and truth.legion == "brown"

    def card_60():
        result = vision.pipeline.Recogniser().scan(scene.frame)
        [read] = [card for card, matched in match(result.cards, scene.cards) if matched is truth]
        return read

    read = card_60()
    assert read.legion == "green" and read.confidence < CONFIDENT
    monkeypatch.setattr(vision.pipeline, "_shape_overruled_colours", lambda probabilities: False)
    unruled = card_60()
    assert unruled.legion == "green" and unruled.confidence >= CONFIDENT, "it is the rule that leaves it untrusted"
