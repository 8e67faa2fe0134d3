"""The badge gate: a place whose badge corner shows no badge figure reads as no card without its features being
computed (half the places the pipeline reads are such), a place that must read as a card on its own must match it
better, and a taught model keeps reading its own cards."""
import numpy as np
import pytest

from vision.cards import all_cards
from vision.synthetic import Conditions, SceneGenerator


def _standin_scene():
    ids = [c.id for c in all_cards()][:3]
    generator = SceneGenerator(5, card_ids=ids, use_scans=False)
    return generator.render({0: [ids[:2]], 2: [[ids[2]]]}, Conditions(card_width_px=220, table="wood", noise=2))


def _counting_features(monkeypatch):
    import vision.features

    calls = []
    real = vision.features.card_features

    def counted(frame, corners, badge=None, give_up=None):
        calls.append(np.asarray(corners))
        return real(frame, corners, badge, give_up)

    monkeypatch.setattr(vision.features, "card_features", counted)
    return calls


def test_places_without_a_badge_read_as_no_card_and_only_cards_are_read_in_full(recogniser, monkeypatch):
    scene = _standin_scene()
    card = scene.cards[0].corners
    upside_down = np.roll(card, 2, axis=0)  # its badge corner is the card's plain bottom-left
    bare_table = card + np.array([-500.0, -450.0])  # plain wood inside the frame, well away from the three cards
    calls = _counting_features(monkeypatch)

    readings = recogniser._read(scene.frame, [card, upside_down, bare_table])

    assert readings[0]["card"][0] > 0.9
    assert readings[1]["card"][0] == 0.0 and readings[2]["card"][0] == 0.0
    assert len(calls) == 1 and np.allclose(calls[0], card)


def test_a_place_that_must_read_as_a_card_on_its_own_must_match_the_badge_better(recogniser, monkeypatch):
    """Places laid with no column's outline behind them (vision.pipeline.LONE_GATE_RISE): one matching the badge
    figure above the gate but below the raised one is read in full within a column, and read as no card alone."""
    import vision.features
    from vision.pipeline import LONE_GATE_RISE

    scene = _standin_scene()
    card = scene.cards[2].corners
    real_fit = vision.features.badge_fit
    between = recogniser.badge_gate + LONE_GATE_RISE / 2
    monkeypatch.setattr(vision.features, "badge_fit", lambda frame, corners: (between, real_fit(frame, corners)[1]))
    calls = _counting_features(monkeypatch)

    assert recogniser._read(scene.frame, [card])[0]["card"][0] > 0.9
    assert len(calls) == 1
    assert recogniser._lone_cards(scene.frame, [card], []) == []
    assert len(calls) == 1  # not read in full


def test_the_gate_passes_the_badge_offset_it_found_on_to_the_features():
    from vision.features import badge_fit, card_features

    scene = _standin_scene()
    corners = scene.cards[2].corners
    match, offset = badge_fit(scene.frame, corners)
    assert match > 0.5
    assert np.array_equal(card_features(scene.frame, corners, offset), card_features(scene.frame, corners))


def test_the_whole_scene_is_still_found_with_the_gate(recogniser):
    from vision.bench import match

    scene = _standin_scene()
    pairs = match(recogniser.scan(scene.frame).cards, scene.cards)
    assert sum(truth is not None for _, truth in pairs) == len(scene.cards) == 3


@pytest.mark.parametrize("about, expected", [
    ({}, 0.4), ({"badge_gate": 0.12}, 0.12), ({"badge_gate": 0.3}, 0.3), ({"badge_gate": 0.9}, 0.4),
    ({"badge_gate": "junk"}, 0.4), ({"badge_gate": None}, 0.4), ({"badge_gate": float("nan")}, 0.4)])
def test_a_model_may_only_lower_the_gate(about, expected):
    """A model taught before stop 45 recorded at most the gate of its day (0.3), and keeps it."""
    from vision.pipeline import BADGE_GATE, LONE_GATE_RISE, recorded_badge_gate

    assert BADGE_GATE == 0.4
    assert BADGE_GATE + LONE_GATE_RISE == pytest.approx(0.45)  # lone places: the gate of stops 26-44
    assert recorded_badge_gate(about) == pytest.approx(expected)


def test_a_taught_model_lowers_the_gate_below_its_weakest_taught_card():
    from vision.features import badge_fit
    from vision.taught import TAUGHT_GATE_MARGIN, taught_badge_gate

    scene = _standin_scene()
    examples = [(scene.frame, t.corners, None) for t in scene.cards]
    assert taught_badge_gate(examples) == pytest.approx(0.4)  # printed badges match well: the usual gate

    # A printing whose badge corner looks different: here painted over with a grey blotch on one card.
    import cv2

    from vision.features import ALIGN_REACH, BADGE_BOX, _card_to_image

    frame = scene.frame.copy()
    corners = scene.cards[1].corners
    x0, y0, x1, y1 = BADGE_BOX
    box = np.float32([[x0 - ALIGN_REACH, y0 - ALIGN_REACH], [x1 + ALIGN_REACH, y0 - ALIGN_REACH],
                      [x1 + ALIGN_REACH, y1 + ALIGN_REACH], [x0 - ALIGN_REACH, y1 + ALIGN_REACH]])
    in_frame = cv2.perspectiveTransform(box[None], _card_to_image(corners))[0]
    mask = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(mask, in_frame.astype(np.int32), 255)
    blotch = np.random.default_rng(3).integers(60, 140, frame.shape[:2], dtype=np.uint8)
    frame[mask > 0] = cv2.GaussianBlur(blotch, (0, 0), 3)[mask > 0][:, None]
    weak = badge_fit(frame, corners)[0]
    assert 0.0 < weak < 0.3
    gate = taught_badge_gate([(frame, t.corners, None) for t in scene.cards])
    assert gate == pytest.approx(TAUGHT_GATE_MARGIN * weak) and gate < weak


def test_a_taught_card_whose_badge_corner_is_flat_turns_the_gate_off(monkeypatch):
    import vision.features
    from vision.taught import taught_badge_gate

    # A flat region correlates with nothing: OpenCV's normalised correlation is NaN there.
    monkeypatch.setattr(vision.features, "badge_fit", lambda frame, corners: (float("nan"), np.zeros(2)))
    scene = _standin_scene()
    assert taught_badge_gate([(scene.frame, scene.cards[0].corners, None)]) == 0.0


def _matching(monkeypatch) -> list:
    """badge_fit as it is, but for the matches put in the list it returns, place by place in the order asked for."""
    from vision import features

    real_fit = features.badge_fit
    queue = []
    monkeypatch.setattr(features, "badge_fit", lambda frame, corners: (queue.pop(0), real_fit(frame, corners)[1]))
    return queue


def test_a_card_of_a_column_is_read_below_the_gate_where_its_neighbour_vouches_for_it(recogniser, monkeypatch):
    """Glare over one card's badge (vision.pipeline.VOUCHED_GATE): within a column split, a place matching between
    the vouched gate and the gate is read where another place of the split passes the gate; read alone, or with no
    place of its split passing, it is not."""
    from vision.pipeline import BADGE_GATE, VOUCHED_GATE

    scene = _standin_scene()
    column = [scene.cards[0].corners, scene.cards[1].corners]
    glare = (VOUCHED_GATE + BADGE_GATE) / 2
    calls = _counting_features(monkeypatch)
    matches = _matching(monkeypatch)

    matches[:] = [BADGE_GATE + 0.3, glare]
    readings = recogniser._read(scene.frame, column, vouched_gate=VOUCHED_GATE)
    assert [r["card"][0] > 0.9 for r in readings] == [True, True]
    assert len(calls) == 2

    matches[:] = [glare, glare]
    readings = recogniser._read(scene.frame, column, vouched_gate=VOUCHED_GATE)
    assert [r["card"][0] for r in readings] == [0.0, 0.0]
    assert len(calls) == 2  # neither read

    matches[:] = [BADGE_GATE + 0.3, glare]
    readings = recogniser._read(scene.frame, column)  # not a column's split: no vouching
    assert readings[0]["card"][0] > 0.9 and readings[1]["card"][0] == 0.0
    assert len(calls) == 3

    matches[:] = [BADGE_GATE + 0.3, VOUCHED_GATE - 0.05]
    readings = recogniser._read(scene.frame, column, vouched_gate=VOUCHED_GATE)
    assert readings[1]["card"][0] == 0.0  # below the vouched gate too
    assert len(calls) == 4


def test_a_taught_gate_below_the_vouched_one_is_kept_for_a_columns_places(recogniser, monkeypatch):
    from vision.pipeline import VOUCHED_GATE

    scene = _standin_scene()
    column = [scene.cards[0].corners, scene.cards[1].corners]
    calls = _counting_features(monkeypatch)
    monkeypatch.setattr(recogniser, "badge_gate", VOUCHED_GATE - 0.1)
    _matching(monkeypatch)[:] = [VOUCHED_GATE + 0.05, VOUCHED_GATE - 0.05]
    readings = recogniser._read(scene.frame, column, vouched_gate=VOUCHED_GATE)
    assert [r["card"][0] > 0.9 for r in readings] == [True, True]
    assert len(calls) == 2
