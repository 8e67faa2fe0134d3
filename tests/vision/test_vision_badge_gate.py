"""The badge gate: a place whose badge corner shows no badge figure reads as no card without its features being
computed (half the places the pipeline reads are such), a place that must read as a card on its own must match it
better, and a taught model keeps reading its own cards."""
import numpy as np
import pytest

from vision.cards import all_cards
from vision.pipeline import FEATURES
from vision.synthetic import Conditions, SceneGenerator


def _standin_scene():
    ids = [c.id for c in all_cards()][:3]
    generator = SceneGenerator(5, card_ids=ids, use_scans=False)
    return generator.render({0: [ids[:2]], 2: [[ids[2]]]}, Conditions(card_width_px=220, table="wood", noise=2))


def _counting_features(monkeypatch):
    import vision.features

    calls = []
    real = vision.features.card_features

    def counted(frame, corners, badge=None, give_up=None, least=None):
        calls.append(np.asarray(corners))
        return real(frame, corners, badge, give_up, least)

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
    from vision.pipeline import LONE_GATE_RISE

    scene = _standin_scene()
    card = scene.cards[2].corners
    _matching_always(monkeypatch, recogniser.badge_gate + LONE_GATE_RISE / 2)
    calls = _counting_features(monkeypatch)

    assert recogniser._read(scene.frame, [card])[0]["card"][0] > 0.9
    assert len(calls) == 1
    assert recogniser._lone_cards(scene.frame, [card], []) == []
    assert len(calls) == 1  # not read in full


def test_the_gate_passes_the_badge_offset_it_found_on_to_the_features():
    from vision.features import badge_fit, card_features, least_channel

    scene = _standin_scene()
    corners = scene.cards[2].corners
    match, offset, _ = badge_fit(least_channel(scene.frame), corners)  # where the pipeline looks for it
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
    monkeypatch.setattr(vision.features, "badge_fit",
                        lambda frame, corners: vision.features.BadgeFit(float("nan"), np.zeros(2), 0.0))
    scene = _standin_scene()
    assert taught_badge_gate([(scene.frame, scene.cards[0].corners, None)]) == 0.0


def _matching_always(monkeypatch, match: float):
    """badge_fit as it is, but for the match, which is always `match`; returns the real badge_fit."""
    from vision import features

    real_fit = features.badge_fit
    monkeypatch.setattr(features, "badge_fit", lambda frame, corners: real_fit(frame, corners)._replace(match=match))
    return real_fit


def _matching(monkeypatch) -> list:
    """badge_fit as it is, but for the matches put in the list it returns, place by place in the order asked for."""
    from vision import features

    real_fit = features.badge_fit
    queue = []
    monkeypatch.setattr(features, "badge_fit",
                        lambda frame, corners: real_fit(frame, corners)._replace(match=queue.pop(0)))
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


def _twin_figure_scene(shift: int = 30):
    """A stand-in card alone on a plain table, and the same card with the badge figure printed twice over its badge,
    `shift` scan pixels either side of its place: a figure matched equally well at two places, as stripes, checks or
    grain match it."""
    import cv2

    from vision.cards import CARD_HEIGHT, CARD_WIDTH
    from vision.features import BADGE_BOX, BADGE_TEMPLATE
    from vision.standin import standin_face

    face = standin_face(all_cards()[5])
    x0, y0, x1, y1 = BADGE_BOX
    levels = (BADGE_TEMPLATE - BADGE_TEMPLATE.min()) / np.ptp(BADGE_TEMPLATE) * 255
    figure = cv2.resize(levels, (x1 - x0, y1 - y0)).astype(np.uint8)[..., None]
    twin = face.copy()
    for dx in (-shift, shift):
        region = twin[y0:y1, x0 + dx:x1 + dx]
        np.maximum(region, figure[:, :region.shape[1]], out=region)
    corners = np.float64([[300, 300], [520, 300], [520, 300 + 220 * CARD_HEIGHT / CARD_WIDTH],
                          [300, 300 + 220 * CARD_HEIGHT / CARD_WIDTH]])
    to_frame = cv2.getPerspectiveTransform(
        np.float32([[0, 0], [CARD_WIDTH, 0], [CARD_WIDTH, CARD_HEIGHT], [0, CARD_HEIGHT]]), np.float32(corners))
    frames = [np.full((900, 1200, 3), 90, np.uint8) for _ in range(2)]
    for card, frame in zip((face, twin), frames):
        cv2.warpPerspective(card, to_frame, (1200, 900), frame, borderMode=cv2.BORDER_TRANSPARENT)
    return frames, corners


def test_a_printed_badge_leads_and_a_figure_matched_at_two_places_does_not():
    """`BadgeFit.lead`: how far the best match stands above the best beyond LEAD_REACH of it."""
    from vision.features import badge_fit
    from vision.pipeline import BADGE_GATE, MIN_BADGE_LEAD

    (card, twin), corners = _twin_figure_scene()
    printed = badge_fit(card, corners)
    assert printed.match > 0.7 and printed.lead > 2 * MIN_BADGE_LEAD
    doubled = badge_fit(twin, corners)
    assert doubled.match > BADGE_GATE  # as good a match as a card's, but not at one place
    assert 0.0 <= doubled.lead < MIN_BADGE_LEAD
    upside_down = badge_fit(card, np.roll(corners, 2, axis=0))  # art resembling the figure in passing
    assert upside_down.match > 0.3 and upside_down.lead < MIN_BADGE_LEAD
    turned = badge_fit(card, np.roll(corners, -1, axis=0))
    assert turned.match < 0.3 and turned.lead == 0.0  # too weak a match to place the badge, or to lead


def test_at_a_first_look_only_a_place_whose_badge_figure_leads_is_read(recogniser, monkeypatch):
    """vision.pipeline.MIN_BADGE_LEAD: places laid where no card was seen yet (a column's splits, lone cards) and
    matching below LEAD_NOT_ASKED_FROM read as no card, unread, where the figure leads by less; places read again
    around a card already seen are read, and so is a place matching better (a fingertip beside a card's badge)."""
    from vision.features import badge_fit
    from vision.pipeline import BADGE_GATE, LEAD_NOT_ASKED_FROM, MIN_BADGE_LEAD

    (card, twin), corners = _twin_figure_scene()
    assert badge_fit(twin, corners).match >= LEAD_NOT_ASKED_FROM
    calls = _counting_features(monkeypatch)
    assert recogniser._read(twin, [corners], first_look=True)[0][FEATURES].any()
    assert len(calls) == 1  # read: the match alone is good enough

    real_fit = _matching_always(monkeypatch, (BADGE_GATE + LEAD_NOT_ASKED_FROM) / 2)  # as the stand-in deck's stripes
    assert real_fit(card, corners).lead >= MIN_BADGE_LEAD > real_fit(twin, corners).lead
    assert recogniser._read(card, [corners], first_look=True)[0]["card"][0] > 0.9
    assert len(calls) == 2
    assert recogniser._read(twin, [corners], first_look=True)[0]["card"][0] == 0.0
    assert len(calls) == 2  # not read
    recogniser._read(twin, [corners])
    assert len(calls) == 3  # read in full when read again
    assert recogniser._lone_cards(twin, [corners], [], bar=0.01) == []
    assert len(calls) == 3


def test_a_model_taught_below_the_gate_asks_no_lead(monkeypatch):
    """A printing whose badges matched the learned figure less (vision.taught.taught_badge_gate) may match it less
    distinctly too: its recogniser reads such places at a first look."""
    from vision.model import CardModel
    from vision.pipeline import MIN_BADGE_LEAD, Recogniser

    (_, twin), corners = _twin_figure_scene()
    _matching_always(monkeypatch, 0.42)
    model = CardModel.load()
    usual = Recogniser(model)
    assert usual.badge_lead == MIN_BADGE_LEAD
    assert not usual._read(twin, [corners], first_look=True)[0][FEATURES].any()  # unread
    model.about["badge_gate"] = 0.3
    taught = Recogniser(model)
    assert taught.badge_gate == 0.3 and taught.badge_lead == 0.0
    assert taught._read(twin, [corners], first_look=True)[0][FEATURES].any()  # read in full
