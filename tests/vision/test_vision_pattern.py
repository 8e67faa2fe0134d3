"""Removing a periodic table pattern (issue 3: 'any table surface'; the checked tablecloth was where most cards were
lost) and reading a card from the corner of an outline that is more than one column (a column welded to a hand or
its neighbour)."""
import numpy as np
import pytest

from vision.cards import CARD_ASPECT


def _symmetric_half_gain(rng, height, width):
    """A random half-plane gain whose self-conjugate columns (0 and W/2) are symmetric in y, as a real filter's are."""
    keep = (rng.random((height, width // 2 + 1)) > 0.3).astype(np.float32)
    for column in (0, width // 2):
        for y in range(1, height):
            keep[height - y, column] = keep[y, column]
    return keep


def _full_gain(keep, height, width):
    full = np.ones((height, width), np.float32)
    full[:, :width // 2 + 1] = keep
    for k in range(width // 2 + 1, width):
        full[:, k] = keep[(-np.arange(height)) % height, width - k]
    return full


@pytest.mark.parametrize("shape", [(8, 10), (62, 96), (486, 640)])
def test_the_packed_spectrum_gives_numpys_magnitude_and_filter(shape):
    import cv2

    from vision.pattern import _packed_magnitude, _packed_mask

    height, width = shape
    rng = np.random.default_rng(height)
    image = rng.random(shape).astype(np.float32)
    packed = cv2.dft(image)
    reference = np.abs(np.fft.fft2(image))
    assert np.allclose(_packed_magnitude(packed), reference[:, :width // 2 + 1], rtol=1e-4, atol=1e-3)

    keep = _symmetric_half_gain(rng, height, width)
    filtered = cv2.idft(packed * _packed_mask(keep, width), flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)
    expected = np.real(np.fft.ifft2(np.fft.fft2(image) * _full_gain(keep, height, width)))
    assert np.abs(filtered - expected).max() < 1e-4


def _cloth_with_card(checked_cloth, check):
    import cv2

    frame = checked_cloth(481, 640, check, (205, 200, 215), (50, 50, 160))
    card = np.array([[200, 150], [420, 165], [410, 310], [190, 295]], np.int32)
    cv2.fillConvexPoly(frame, card, (70, 150, 110))
    return cv2.GaussianBlur(frame, (0, 0), 1.0), card  # a camera's optics soften the checks' corners


@pytest.mark.parametrize("check", [4, 6, 9])
def test_a_checked_cloth_becomes_plain_and_the_card_stays(check, checked_cloth):
    import cv2

    from vision.detect import find_quads
    from vision.pattern import without_pattern

    frame, card = _cloth_with_card(checked_cloth, check)
    cleaned = without_pattern(frame)
    assert cleaned.shape == frame.shape and cleaned.dtype == np.uint8
    table = np.ones(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(table, card, 0)
    table = cv2.erode(table, np.ones((25, 25), np.uint8)).astype(bool)  # away from the card's rim
    inside = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(inside, card, 1)
    inside = cv2.erode(inside, np.ones((25, 25), np.uint8)).astype(bool)
    before = frame[table].astype(np.float32).std(axis=0).mean()
    after = cleaned[table].astype(np.float32).std(axis=0).mean()
    assert after < 0.5 * before  # most of the checks are gone from the table
    # The card keeps its colour (a faint ghost of the checks is the price of a global filter).
    assert np.abs(cleaned[inside].astype(np.float32).mean(axis=0) - (70, 150, 110)).max() < 25
    # And the detector outlines it to within a few pixels (a narrower notch left enough of the checks around the
    # card to pull its corners 25 px off at the coarsest check).
    quads = find_quads(frame)
    assert any(np.abs(np.roll(quad, shift, axis=0) - card).max() < 8 for quad in quads for shift in range(4))


def test_removing_the_pattern_finds_more_real_cards_on_checked_cloth(recogniser, needs_scans, monkeypatch):
    from vision import bench, detect, pipeline

    # The cards laid from straight edges, last, find some of the cards whose outlines the checks hid; they are off
    # in both runs, so that what is measured is the outlines the pattern's removal gives.
    monkeypatch.setattr(pipeline, "SEGMENT_REGIONS", 0)
    from vision.cards import training_cards
    from vision.synthetic import SceneGenerator

    generator = SceneGenerator(3, card_ids=[c.id for c in training_cards()])
    scenes = [generator.random_scene(table="cloth", hand=False) for _ in range(5)]

    def found():
        tally = bench.Tally()
        for scene in scenes:
            bench.score(tally, recogniser.scan(scene.frame).cards, scene.cards)
        return tally

    with_removal = found()
    monkeypatch.setattr(detect, "find_pattern", lambda image: None)
    without_removal = found()
    assert with_removal.found >= without_removal.found + 3
    assert with_removal.found >= 0.7 * with_removal.visible
    assert with_removal.true_reports == with_removal.reported


@pytest.mark.parametrize("check", [5, 8])
def test_the_lattice_of_a_checked_cloth_is_its_diagonal_periods(check, checked_cloth):
    from vision.pattern import find_pattern, lattice_shifts

    pattern = find_pattern(checked_cloth(480, 640, check, (220, 220, 225), (40, 40, 170)))
    shifts = lattice_shifts(pattern.peaks)
    # A checkerboard repeats one check across and one down at once: (c, c) and (c, -c), in either sign.
    expected = [np.array([check, check]), np.array([check, -check])]
    for period in expected:
        assert any(np.abs(sign * shift - period).max() < 0.5 for shift in shifts for sign in (1, -1))


def test_the_card_mask_outlines_a_card_as_white_as_the_cloths_light_checks(checked_cloth):
    """The global filter's weak case: large checks, and a card whose pale border matches the light checks. The
    lattice test still tells card from table along the whole outline."""
    import cv2

    from vision.detect import find_quads
    from vision.pattern import card_mask, find_pattern

    frame = checked_cloth(480, 640, 16, (225, 225, 230), (50, 50, 175))
    card = np.array([[200, 150], [420, 165], [410, 310], [190, 295]], np.int32)
    cv2.fillConvexPoly(frame, card, (225, 225, 230))
    inner = np.array([[225, 177], [395, 188], [387, 283], [217, 272]], np.int32)
    cv2.fillConvexPoly(frame, inner, (60, 130, 100))
    frame = cv2.GaussianBlur(frame, (0, 0), 1.0)
    mask = card_mask(frame, find_pattern(frame))
    truth = np.zeros(frame.shape[:2], np.uint8)
    cv2.fillConvexPoly(truth, card, 255)
    disagreement = np.count_nonzero(mask != truth) / np.count_nonzero(truth)
    assert disagreement < 0.1
    # Its corners to within 10 px of 220 (the mask rounds a corner that falls on a light check); the pipeline's
    # snapping to edges does the rest.
    assert any(np.abs(np.roll(quad, shift, axis=0) - card).max() < 10 for quad in find_quads(frame)
               for shift in range(4))


def test_a_plain_or_merely_noisy_table_is_left_alone():
    from vision.pattern import without_pattern

    rng = np.random.default_rng(4)
    plain = np.clip(rng.normal(120, 6, (481, 640, 3)), 0, 255).astype(np.uint8)
    plain[100:250, 200:420] = (40, 160, 90)
    assert without_pattern(plain) is plain


def _corner_cards(quad, size):
    """Per corner of the quad that has room for any: the cards the pipeline would try there."""
    from vision.placements import cards_at_corner, quad_corners

    return [cards for corner in quad_corners(quad) if (cards := cards_at_corner(corner, size))]


def test_corner_cards_lie_in_the_outlines_corners_with_the_frames_card_size():
    width, depth = 200.0, 200.0 / CARD_ASPECT
    # A column of two cards (stacked downwards) welded to a hand reaching out to the right.
    quad = np.array([[100, 100], [700, 100], [700, 100 + 2 * depth], [100, 100 + 2 * depth]])
    tries = _corner_cards(quad, (width, depth))
    assert len(tries) == 4  # every corner has room for a card
    top_left_card = np.array([[100, 100], [100 + width, 100], [100 + width, 100 + depth], [100, 100 + depth]])
    first_corner = tries[0]
    assert any(np.abs(candidate - top_left_card).max() < 1e-6 for candidate in first_corner)
    for candidates in tries:
        for corners in candidates:
            top, side = np.linalg.norm(corners[1] - corners[0]), np.linalg.norm(corners[3] - corners[0])
            # Each candidate is a card's own TL, TR, BR, BL: its top edge is the long one.
            assert top == pytest.approx(width) and side == pytest.approx(depth)


def test_an_outline_too_small_for_a_card_offers_no_corner_cards():
    quad = np.array([[0, 0], [60, 0], [60, 40], [0, 40]], np.float64)
    assert _corner_cards(quad, (200.0, 200.0 / CARD_ASPECT)) == []


@pytest.mark.parametrize("tries", [0, None])
def test_a_card_whose_outline_runs_on_into_an_arm_is_found_from_the_outlines_corner(recogniser, monkeypatch, tries):
    from vision import detect, pipeline
    from vision.synthetic import Conditions, SceneGenerator

    generator = SceneGenerator(21, use_scans=False)
    ids = generator.card_ids[:2]
    scene = generator.render({0: [ids[:1]], 2: [ids[1:]]}, Conditions(card_width_px=220, noise=2, jitter_deg=0))
    near, far = sorted(scene.cards, key=lambda t: -t.corners[:, 1].mean())
    # The detector sees the near card alone, and the far card only as one outline with the arm lying against its
    # right-hand side: 2.5 cards wide, so no split into whole cards fits it.
    left, right = far.corners[:, 0].min(), far.corners[:, 0].max()
    merged = far.corners.copy()
    merged[merged[:, 0] > (left + right) / 2, 0] += 1.5 * far.width_px
    outlines = [detect._order_quad(near.corners.copy()), detect._order_quad(merged)]
    monkeypatch.setattr(detect, "find_outlines",
                        lambda image, full_gray=None, snapped=True, channels=None:
                        detect.Outlines([q.copy() for q in outlines], []))
    if tries is not None:
        monkeypatch.setattr(pipeline, "CORNER_TRIES", {"quad": tries, "outline": tries})
    cards = recogniser.scan(scene.frame).cards
    centre = far.corners.mean(axis=0)
    found = any(np.linalg.norm(np.mean(card.corners, axis=0) - centre) < 0.2 * far.width_px for card in cards)
    assert found == (tries is None)  # found by the corner readings, and only by them


def test_the_right_angled_corners_of_a_column_with_an_arm_across_it_are_found_and_its_notches_are_not():
    import cv2

    from vision.detect import _right_angled_corners

    region = np.zeros((400, 600), np.uint8)
    cv2.rectangle(region, (200, 100), (500, 300), 255, -1)  # a column
    cv2.rectangle(region, (0, 150), (220, 200), 255, -1)  # an arm from the frame's edge, welded to its side
    contours, _ = cv2.findContours(region, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    corners = _right_angled_corners(contours[0], min_side=30)
    points = {tuple(int(v) for v in corner.point) for corner in corners}
    assert {(500, 100), (500, 300), (200, 300), (200, 100)} <= points
    assert not points & {(220, 150), (220, 200)}  # where the arm meets the column
    far_corner = next(c for c in corners if tuple(c.point) == (500, 300))
    # Its sides run along the column's edges, with their lengths.
    assert sorted(far_corner.lengths) == pytest.approx([200, 300], abs=2)
    directions = {tuple(np.round(d).astype(int)) for d in far_corner.along}
    assert directions == {(-1, 0), (0, -1)}


def test_find_outlines_offers_the_corners_of_an_outline_that_is_no_quad():
    import cv2

    from vision.detect import find_outlines

    frame = np.full((960, 1280, 3), 40, np.uint8)
    column = [(700, 300), (1040, 300), (1040, 736), (700, 736)]
    arm = [(800, 0), (900, 0), (900, 310), (800, 310)]  # reaching in from the frame's edge onto the column
    for shape in (column, arm):
        cv2.fillConvexPoly(frame, np.int32(shape), (200, 190, 180))
    outlines = find_outlines(frame)
    assert not any(np.abs(quad - column).max() < 20 for quad in outlines.quads)  # column and arm are one shape
    found = [c.point for c in outlines.corners]
    for expected in column:
        assert min(np.linalg.norm(point - expected) for point in found) < 12


@pytest.mark.parametrize("with_corners", [False, True])
def test_a_card_is_found_from_a_corner_of_an_outline_that_is_no_quad(recogniser, monkeypatch, with_corners):
    from vision import detect
    from vision.synthetic import Conditions, SceneGenerator

    generator = SceneGenerator(21, use_scans=False)
    ids = generator.card_ids[:2]
    scene = generator.render({0: [ids[:1]], 2: [ids[1:]]}, Conditions(card_width_px=220, noise=2, jitter_deg=0))
    near, far = sorted(scene.cards, key=lambda t: -t.corners[:, 1].mean())
    # The far card's outline is lost in a shape that is no quad; only its top-left corner is seen, with sides
    # running on well past the card's.
    point = far.corners[0]
    along = [(far.corners[1] - point) / np.linalg.norm(far.corners[1] - point),
             (far.corners[3] - point) / np.linalg.norm(far.corners[3] - point)]
    corner = detect.Corner(point, tuple(along), (2.0 * far.width_px, 1.5 * far.width_px))
    monkeypatch.setattr(detect, "find_outlines", lambda image, full_gray=None, snapped=True, channels=None:
                        detect.Outlines([detect._order_quad(near.corners.copy())], [corner] if with_corners else []))
    cards = recogniser.scan(scene.frame).cards
    centre = far.corners.mean(axis=0)
    found = any(np.linalg.norm(np.mean(card.corners, axis=0) - centre) < 0.2 * far.width_px for card in cards)
    assert found == with_corners


def _pattern_without_the_first_look(monkeypatch, frame):
    """find_pattern's answer when every frame goes on to the whole spectrum (the copy of every other pixel never
    counts as surely plain)."""
    from vision import pattern

    with monkeypatch.context() as patched:
        patched.setattr(pattern, "SURELY_PLAIN_SHARE", 0.0)
        return pattern.find_pattern(frame)


def _same_pattern(first, second) -> bool:
    if first is None or second is None:
        return first is None and second is None
    return all(np.array_equal(getattr(first, name), getattr(second, name)) for name in ("keep", "peaks", "periodic"))


@pytest.mark.parametrize("check", [2, 3, 4, 7, 12, 16])
def test_the_copy_of_every_other_pixel_lets_every_checked_cloth_through(check, checked_cloth, monkeypatch):
    """Checks as fine as two pixels fold over in the copy (its highest frequency is half the frame's) and still
    peak: the first look must never call a patterned table plain, or its cards' outlines weld to the checks."""
    import cv2

    from vision.pattern import find_pattern

    frame = cv2.GaussianBlur(checked_cloth(481, 640, check, (205, 200, 215), (90, 80, 150)), (0, 0), 0.7)
    cv2.fillConvexPoly(frame, np.array([[200, 150], [420, 165], [410, 310], [190, 295]], np.int32), (70, 150, 110))
    found = find_pattern(frame)
    assert found is not None
    assert _same_pattern(found, _pattern_without_the_first_look(monkeypatch, frame))


@pytest.mark.parametrize("period, degrees", [(3, 0), (5, 30), (9, 75), (20, 45)])
def test_the_copy_of_every_other_pixel_lets_striped_cloth_through(period, degrees, monkeypatch):
    import cv2

    from vision.pattern import find_pattern

    ys, xs = np.mgrid[0:481, 0:640]
    across = xs * np.cos(np.radians(degrees)) + ys * np.sin(np.radians(degrees))
    level = 140 + 50 * np.sign(np.sin(2 * np.pi * across / period))
    frame = cv2.cvtColor(level.astype(np.uint8), cv2.COLOR_GRAY2BGR)
    found = find_pattern(frame)
    assert found is not None
    assert _same_pattern(found, _pattern_without_the_first_look(monkeypatch, frame))


def test_a_plain_table_is_told_plain_from_the_copy_alone(monkeypatch):
    """The point of the first look: on a plain table the whole frame's spectrum is never computed."""
    from vision import pattern

    rng = np.random.default_rng(4)
    plain = np.clip(rng.normal(120, 6, (481, 640, 3)), 0, 255).astype(np.uint8)
    plain[100:250, 200:420] = (40, 160, 90)
    sizes = []
    spectrum_peaks = pattern._spectrum_peaks
    monkeypatch.setattr(pattern, "_spectrum_peaks", lambda centred: sizes.append(centred.shape) or
                        spectrum_peaks(centred))
    assert pattern.find_pattern(plain) is None
    assert sizes == [(242, 320)]  # every other pixel of the padded 486 x 640, cut to an even size


@pytest.mark.parametrize("seed", range(6))
def test_the_first_look_changes_no_pattern_found_in_generated_scenes(seed, monkeypatch):
    """Over generated scenes (checked, striped, woven and plain tables, stand-in cards where the scans are not), the
    pattern found is the one the whole spectrum alone finds, to the last bit."""
    import cv2

    from vision.pattern import find_pattern
    from vision.synthetic import SceneGenerator

    generator = SceneGenerator(7100 + seed, use_scans=False)
    for _ in range(4):
        frame = generator.random_scene().frame
        small = cv2.resize(cv2.pyrDown(frame), (640, 481), interpolation=cv2.INTER_LINEAR)
        assert _same_pattern(find_pattern(small), _pattern_without_the_first_look(monkeypatch, small))
