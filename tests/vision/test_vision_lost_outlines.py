"""Cards whose column left no whole outline (issue 3: 'abutting cards in columns', 'any table surface', 'hands moving
over them'): a column cut short by an arm is read from its free end, a card outlined on its own has the rest of its
column looked for beside it (also when it was found a little misshapen, or with part of its column), an outline
broken at a corner is still taken for a quad, one with a corner cut off is kept aside with that corner put back, the
free corners of columns that an arm joins into one region on checked cloth are offered as card corners, and bare
table beside a card, or an outline far smaller than the cards found, costs no reading."""
import dataclasses

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from vision.cards import CARD_ASPECT, all_cards, card_by_id, heldout_cards
from vision.synthetic import Conditions, SceneGenerator

WIDTH = 300.0
DEPTH = WIDTH / CARD_ASPECT


def _column_outline(cards_deep: float) -> np.ndarray:
    return np.array([[100, 100], [100 + WIDTH, 100], [100 + WIDTH, 100 + cards_deep * DEPTH],
                     [100, 100 + cards_deep * DEPTH]], np.float64)


@pytest.mark.parametrize("cards_deep, cut_short", [(1.6, True), (2.6, True), (2.45, True), (1.0, False),
                                                   (2.0, False), (3.0, False), (1.1, False), (3.6, False)])
def test_an_outline_is_taken_for_a_column_cut_short_only_between_whole_cards(cards_deep, cut_short):
    from vision.placements import partial_column

    assert partial_column(_column_outline(cards_deep), WIDTH) is cut_short
    # The same outline turned a quarter round (a column of another seat) is judged the same.
    assert partial_column(np.roll(_column_outline(cards_deep)[:, ::-1], 1, axis=0), WIDTH) is cut_short


def test_an_outline_narrower_or_wider_than_the_cards_nearby_is_no_column():
    from vision.placements import partial_column

    # One card is also 2.43 depths of a card 1/1.56 as wide: only the size of the cards around tells them apart.
    assert not partial_column(_column_outline(1.0), WIDTH)
    assert partial_column(_column_outline(1.0), WIDTH / CARD_ASPECT)
    assert not partial_column(_column_outline(1.6), 1.5 * WIDTH)


def test_a_cut_short_column_is_read_from_its_ends_along_its_length_only():
    from vision.placements import anchored_cards

    quad = _column_outline(1.6)
    cards = anchored_cards(quad, long_axis_only=True)
    top = _column_outline(1.0)
    bottom = top + [0, 0.6 * DEPTH]
    assert len(cards) == 4  # either end, either way up
    for corners in cards:
        assert any(np.abs(np.roll(corners, shift, axis=0) - expected).max() < 1
                   for expected in (top, bottom) for shift in range(4))
    assert len(anchored_cards(quad)) > len(cards)  # without the restriction the other axis is tried as well


def test_bare_table_is_featureless_and_a_card_face_is_not():
    import cv2

    from vision.pipeline import _featureless
    from vision.standin import standin_face

    rng = np.random.default_rng(1)
    frame = np.clip(rng.normal(40, 4, (600, 800, 3)), 0, 255).astype(np.uint8)  # a dark cloth, sensor noise
    place = _column_outline(1.0)
    assert _featureless(frame, place)

    # A place guessed a little off, reaching 6% of a card depth over a bright card beside it, is still table.
    frame[100:100 + int(0.06 * DEPTH), 100:400] = 230
    assert _featureless(frame, place)

    face = standin_face(all_cards()[0])
    height, width = face.shape[:2]
    matrix = cv2.getPerspectiveTransform(np.float32([[0, 0], [width, 0], [width, height], [0, height]]),
                                         np.float32(place))
    cv2.warpPerspective(face, matrix, (800, 600), frame, borderMode=cv2.BORDER_TRANSPARENT)
    assert not _featureless(frame, place)


def _scene_with_a_column(seed: int):
    ids = [c.id for c in heldout_cards()]
    generator = SceneGenerator(seed, card_ids=ids)
    return generator.render({0: [ids[0:3]], 2: [[ids[3]]]}, Conditions(card_width_px=220, table="dark", noise=2))


def _only_these_outlines(monkeypatch, quads):
    """The detector finds only these quads and no corners; the mask of colours the table lacks stays the frame's own
    (the pipeline reads beyond a column's ends only where the mask marks some of the place)."""
    import vision.detect
    from vision.detect import Outlines

    find_outlines = vision.detect.find_outlines

    def only_these(frame, full_gray=None, snapped=True, channels=None):
        return Outlines([np.asarray(q) for q in quads], [], 0.0, find_outlines(frame, snapped=False).off_table)

    monkeypatch.setattr(vision.detect, "find_outlines", only_these)


def _found(recogniser, scene, truths):
    from vision.bench import match

    pairs = match(recogniser.scan(scene.frame).cards, scene.cards)
    return {id(truth) for _, truth in pairs if truth is not None} >= {id(t) for t in truths}


def test_a_card_outlined_alone_brings_the_rest_of_its_column(recogniser, needs_scans, monkeypatch):
    scene = _scene_with_a_column(3)
    column = [t for t in scene.cards if t.seat == 0]
    lone = [t for t in scene.cards if t.seat == 2]
    assert len(column) == 3 and len(lone) == 1
    # On a dark table only the legs card's own outline was found, and the other seat's card.
    _only_these_outlines(monkeypatch, [column[0].corners, lone[0].corners])
    assert _found(recogniser, scene, column + lone)


def test_a_card_found_a_little_misshapen_still_brings_the_rest_of_its_column(recogniser, needs_scans, monkeypatch):
    scene = _scene_with_a_column(3)
    column = [t for t in scene.cards if t.seat == 0]
    lone = [t for t in scene.cards if t.seat == 2]
    head = column[2].corners.copy()
    along_top = (head[1] - head[0]) / np.linalg.norm(head[1] - head[0])
    depth = np.linalg.norm(head[3] - head[0])
    # Only the head card was outlined, skewed by 7% of a card depth each way: its top corners pushed one way, its
    # bottom ones the other. Laid off it as found, the torso's far corners would be about 30 px out.
    head[[0, 1]] += 0.07 * depth * along_top
    head[[2, 3]] -= 0.07 * depth * along_top
    _only_these_outlines(monkeypatch, [head, lone[0].corners])
    assert _found(recogniser, scene, column + lone)


def test_a_column_neighbour_laid_a_little_off_is_snapped_onto_its_edges_before_it_is_judged(recogniser, needs_scans,
                                                                                          monkeypatch):
    import vision.pipeline
    from vision.placements import column_neighbours, side_neighbours

    scene = _scene_with_a_column(3)
    column = [t for t in scene.cards if t.seat == 0]
    lone = [t for t in scene.cards if t.seat == 2]
    _only_these_outlines(monkeypatch, [column[0].corners, lone[0].corners])

    def laid_off(card):
        # Each neighbour 12% of a card depth too far along the column and 6% of a card width sideways, as
        # when the card it was laid from was found a little askew: the badge and icon fall partly outside it.
        neighbours = []
        for place in column_neighbours(card):
            down, across = place[3] - place[0], place[1] - place[0]  # a card depth and a card width long
            away = 1 if np.dot(place.mean(axis=0) - card.mean(axis=0), down) > 0 else -1
            neighbours.append(place + away * 0.12 * down + 0.06 * across)
        return neighbours + side_neighbours(card)

    monkeypatch.setattr(vision.pipeline, "neighbours", laid_off)
    assert _found(recogniser, scene, column + lone)


@settings(max_examples=100, deadline=None)
@given(st.floats(100, 400), st.floats(-np.pi, np.pi), st.floats(-10, 10), st.booleans())
def test_a_neighbour_laid_from_a_card_found_askew_is_turned_back_into_place(turned_card, width, angle, askew, above):
    """A card found `askew` degrees off (turned about the middle of its side by its neighbour) lays that neighbour
    turned as much about their shared side; turned back by as many degrees, it is where the neighbour lies."""
    from vision.placements import column_neighbours, turned_neighbours

    card = turned_card((500, 400), width, angle)
    neighbour = column_neighbours(card)[0 if above else 1]
    found = turned_neighbours(neighbour, card, [askew])[0]
    laid = column_neighbours(found)[0 if above else 1]
    back, = turned_neighbours(found, laid, [-askew])
    assert np.abs(back - neighbour).max() < 1e-6 * width
    # Turning keeps the middle of the side shared with the card where it was, and the neighbour's shape.
    turned, = turned_neighbours(card, neighbour, [askew])
    shared = [2, 3] if above else [0, 1]
    assert np.abs(turned[shared].mean(axis=0) - neighbour[shared].mean(axis=0)).max() < 1e-6 * width
    sides = lambda quad: np.linalg.norm(quad - np.roll(quad, 1, axis=0), axis=1)
    assert np.allclose(sides(turned), sides(neighbour))


@settings(max_examples=100, deadline=None)
@given(st.floats(100, 400), st.floats(-np.pi, np.pi), st.floats(0.75, 1.3), st.floats(0.75, 1.3),
       st.integers(0, 3))
def test_a_card_found_too_small_or_too_large_is_laid_again_at_its_size(turned_card, width, angle, across, down,
                                                                       kept):
    """A card found too small or too large (by `across` in width and `down` in depth), with one corner right (`kept`),
    is among the cards laid again at its true size from its corners; each of those keeps one corner of the card
    found, has the size asked for and lies the same way up."""
    from vision.placements import cards_resized, mean_sides

    card = turned_card((500, 400), width, angle)
    found = card.copy()
    across_to, down_to = kept ^ 1, 3 - kept
    found[across_to] = card[kept] + across * (card[across_to] - card[kept])
    found[down_to] = card[kept] + down * (card[down_to] - card[kept])
    found[3 - across_to] = found[across_to] + found[down_to] - card[kept]
    resized = cards_resized(found, mean_sides(card))
    assert len(resized) == 4
    assert min(np.abs(each - card).max() for each in resized) < 1e-6 * width
    for corner, each in enumerate(resized):
        assert np.abs(each[corner] - found[corner]).max() < 1e-9 * width
        assert np.allclose(mean_sides(each), mean_sides(card))
        assert np.allclose(each[1] - each[0], (found[1] - found[0]) / np.linalg.norm(found[1] - found[0]) * width)


def _sides_moved(card: np.ndarray, left: float, right: float, top: float, bottom: float) -> np.ndarray:
    """The card with its left and right ends moved outward by those shares of its width, and its top and bottom
    sides by those shares of its depth (inward where negative)."""
    across, down = card[1] - card[0], card[3] - card[0]
    moved = card.copy()
    moved[[0, 3]] -= left * across
    moved[[1, 2]] += right * across
    moved[[0, 1]] -= top * down
    moved[[2, 3]] += bottom * down
    return moved


@settings(max_examples=100, deadline=None)
@given(st.floats(100, 400), st.floats(-np.pi, np.pi), st.lists(st.floats(-0.2, 0.2), min_size=6, max_size=6))
def test_a_card_takes_its_ends_from_another_and_keeps_its_top_and_bottom(turned_card, width, angle, shares):
    """A card found with its ends and its top and bottom off, given the ends of a place whose ends are the card's own
    (and whose top and bottom are off otherwise), has its own ends and the top and bottom it was found with."""
    from vision.placements import card_with_ends_of

    card = turned_card((500, 400), width, angle)
    found_left, found_right, found_top, found_bottom, other_top, other_bottom = shares
    found = _sides_moved(card, found_left, found_right, found_top, found_bottom)
    other = _sides_moved(card, 0.0, 0.0, other_top, other_bottom)
    expected = _sides_moved(card, 0.0, 0.0, found_top, found_bottom)
    assert np.abs(card_with_ends_of(found, other) - expected).max() < 1e-6 * width


def test_an_outline_broken_at_a_corner_is_still_taken_for_a_quad():
    import cv2

    from vision.detect import _quad_from_contour

    # The edges of a card on a dark table: its outline fades into the table at the top-left corner, so only the
    # art's own outline (an ellipse against the card's bottom-right) encloses anything.
    edges = np.zeros((300, 400), np.uint8)
    left, top, right, bottom = 60, 50, 330, 223
    cv2.rectangle(edges, (left, top), (right, bottom), 255, 3)
    edges[top - 3:top + 12, left - 3:left + 12] = 0
    cv2.ellipse(edges, (right - 80, bottom - 45), (80, 45), 0, 0, 360, 255, 3)
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=lambda c: cv2.boundingRect(c)[2] * cv2.boundingRect(c)[3])
    found = _quad_from_contour(outline, (400.0, 60000.0, 25.0))
    assert found is not None
    card = np.array([[left, top], [right, top], [right, bottom], [left, bottom]], np.float64)
    assert np.abs(found[1] - card).max() < 0.06 * (right - left)


def test_a_column_cut_short_by_an_arm_is_read_from_its_free_end(recogniser, needs_scans, monkeypatch):
    import cv2

    scene = _scene_with_a_column(4)
    column = [t for t in scene.cards if t.seat == 0]  # legs, torso, head, legs nearest the owner
    lone = [t for t in scene.cards if t.seat == 2]
    legs, head = column[0].corners, column[2].corners

    def up_the_column(cards_deep: float) -> tuple[np.ndarray, np.ndarray]:
        """The points that many card depths up the column's left and right sides from the legs' bottom edge."""
        return (legs[3] + (head[0] - legs[3]) * cards_deep / 3, legs[2] + (head[1] - legs[2]) * cards_deep / 3)

    # An arm lies across the last 0.4 card depths of the head card; the column's outline ends where the arm begins.
    across = head[1] - head[0]
    left, right = up_the_column(2.8)
    frame = scene.frame.copy()
    cv2.line(frame, tuple(int(v) for v in left - 0.3 * across), tuple(int(v) for v in right + 0.3 * across),
             (90, 120, 170), int(0.45 * np.linalg.norm(across) / CARD_ASPECT))
    scene = dataclasses.replace(scene, frame=frame)
    cut = np.array([*up_the_column(2.6), legs[2], legs[3]])
    _only_these_outlines(monkeypatch, [cut, lone[0].corners])
    assert _found(recogniser, scene, column[:2] + lone)


def test_cards_laid_off_a_corner_come_out_clockwise_whichever_way_round_its_outline_ran():
    from vision.detect import Corner
    from vision.placements import cards_at_corner

    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    point = np.array([100.0, 100.0])
    # The same corner traced clockwise (along the top, then back up the left side) and anticlockwise.
    both_ways = [Corner(point, (right, down), (400.0, 300.0)), Corner(point, (down, right), (300.0, 400.0))]
    laid = [cards_at_corner(corner, (WIDTH, DEPTH)) for corner in both_ways]
    for cards in laid:
        assert cards
        for card in cards:
            sides = card - np.roll(card, 1, axis=0)
            turns = sides[:, 0] * np.roll(sides, -1, axis=0)[:, 1] - sides[:, 1] * np.roll(sides, -1, axis=0)[:, 0]
            # Corners TL, TR, BR, BL run clockwise on screen (y down): every turn is the same way, positive here.
            assert (turns > 0).all()
    flat = ({tuple(np.round(c, 3).ravel()) for c in cards} for cards in laid)
    assert next(flat) == next(flat)


def _arm_across_two_columns(checked_cloth):
    import cv2

    frame = checked_cloth(960, 1280, 12, (205, 205, 215), (70, 50, 130))
    tops = [(300, 250), (650, 250)]
    width, depth = 250, 160
    rng = np.random.default_rng(0)
    for x, y in tops:  # two cards deep, smooth art with a few blobs
        ys, xs = np.mgrid[0:2 * depth, 0:width]
        card = np.stack([90 + 0.3 * xs, 110 + 0.2 * ys, 140 - 0.1 * xs], axis=-1).astype(np.float32)
        for _ in range(6):
            centre = (int(rng.integers(20, width - 20)), int(rng.integers(20, 2 * depth - 20)))
            cv2.circle(card, centre, int(rng.integers(10, 35)), tuple(float(v) for v in rng.integers(30, 230, 3)), -1)
        frame[y:y + 2 * depth, x:x + width] = cv2.GaussianBlur(card, (0, 0), 1.5).astype(np.uint8)
    cv2.line(frame, (0, 520), (1100, 520), (120, 150, 200), 110)  # an arm over both columns' lower cards
    return frame, [np.array([[x, y], [x + width, y], [x + width, y + depth], [x, y + depth]], np.float64)
                   for x, y in tops], (width, depth)


def test_an_arm_joining_columns_on_checked_cloth_leaves_their_free_corners_to_try(checked_cloth):
    from vision.detect import find_outlines
    from vision.placements import cards_at_corner

    frame, top_cards, size = _arm_across_two_columns(checked_cloth)
    outlines = find_outlines(frame)
    for card in top_cards:
        offered = [laid for corner in outlines.corners for laid in cards_at_corner(corner, size)]
        # One of the cards laid off the offered corners is the column's top card, as it lies (own corner order).
        assert any(np.abs(laid - np.roll(card, shift, axis=0)).max() < 0.08 * size[0]
                   for laid in offered for shift in range(4))


def test_cards_above_an_arm_across_two_columns_on_checked_cloth_are_found(recogniser, needs_scans):
    import cv2

    ids = [c.id for c in heldout_cards()]
    scene = SceneGenerator(3, card_ids=ids).render({0: [ids[0:3], ids[3:6]]},
                                                   Conditions(card_width_px=220, table="cloth", noise=2))
    legs = [t for t in scene.cards if t.slot == "legs"]
    assert len(legs) == 2
    frame = scene.frame.copy()
    arm_y = int(np.mean([t.corners[:, 1].mean() for t in legs]))
    arm_end = int(max(t.corners[:, 0].max() for t in legs) + 60)
    cv2.line(frame, (0, arm_y), (arm_end, arm_y), (90, 120, 170), 110)  # from the frame's edge over both legs
    above = [t for t in scene.cards if t.slot != "legs"]
    assert _found(recogniser, dataclasses.replace(scene, frame=frame), above)


def test_two_columns_joined_by_an_arms_edge_line_are_both_outlined():
    import cv2

    from vision.detect import _quad_from_contour, _quad_from_hull

    # The edges of two columns side by side on felt, and of an arm's edge running from one to the other: the
    # outer trace of it all is one outline. Opening splits it again, and each piece is a column.
    edges = np.zeros((400, 700), np.uint8)
    columns = [np.array([[x, 60], [x + 120, 60], [x + 120, 60 + 77 * cards], [x, 60 + 77 * cards]], np.float64)
               for x, cards in ((100, 3), (400, 2))]
    for column in columns:
        cv2.rectangle(edges, column[0].astype(int), column[2].astype(int), 255, 3)
    cv2.line(edges, (220, 150), (400, 150), 255, 3)
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    outline = max(contours, key=lambda c: cv2.boundingRect(c)[2] * cv2.boundingRect(c)[3])
    limits = (400.0, 100000.0, 25.0)
    assert cv2.boundingRect(outline)[2] > 400  # one outline around both columns

    pieces = []
    found = _quad_from_contour(outline, limits, pieces=pieces)
    assert found is not None and np.abs(found[1] - columns[0]).max() < 6  # the larger column
    assert len(pieces) == 1
    hull = cv2.convexHull(pieces[0])
    other = _quad_from_hull(pieces[0], hull, cv2.contourArea(hull), limits, None)
    assert other is not None and np.abs(other[1] - columns[1]).max() < 6


def _column_with_a_blob_at_one_corner(blob_radius: int):
    import cv2

    rng = np.random.default_rng(0)
    frame = np.full((960, 1280, 3), 30, np.uint8)
    left, top, width, depth = 300, 250, 480, 300
    column = np.full((depth, width, 3), 150, np.uint8)
    for _ in range(10):
        centre = (int(rng.integers(0, width)), int(rng.integers(0, depth)))
        cv2.circle(column, centre, int(rng.integers(10, 50)), tuple(int(v) for v in rng.integers(80, 230, 3)), -1)
    frame[top:top + depth, left:left + width] = column
    # Something as bright as the cards lies on the table against the column's bottom-right corner.
    centre = (left + width + blob_radius // 2, top + depth + blob_radius // 2)
    cv2.circle(frame, centre, blob_radius, (150, 150, 150), -1)
    frame = np.clip(frame + rng.normal(0, 3, frame.shape), 0, 255).astype(np.uint8)
    return frame, np.array([[left, top], [left + width, top], [left + width, top + depth], [left, top + depth]],
                           np.float64)


@pytest.mark.parametrize("blob_radius", [80, 110])
def test_a_column_outline_pulled_out_at_one_corner_is_still_offered(blob_radius):
    from vision.detect import find_outlines

    frame, column = _column_with_a_blob_at_one_corner(blob_radius)
    quads = find_outlines(frame).quads
    # Most of its sides are off the edges, so it is offered last, but its other three corners are the column's.
    assert quads
    assert np.abs(quads[-1][[0, 1, 3]] - column[[0, 1, 3]]).max() < 4
    assert np.linalg.norm(quads[-1][2] - column[2]) > 0.1 * 480


def test_card_sizes_from_a_corners_own_sides():
    from vision.detect import Corner
    from vision.placements import side_card_sizes, side_sized_cards

    right, down = np.array([1.0, 0.0]), np.array([0.0, 1.0])
    corner = Corner(np.array([100.0, 100.0]), (right, down), (210.0, 320.0))
    frame_widths = (74.0, 490.0)
    size = lambda width: (width, width / CARD_ASPECT)
    # The nearest card found is narrower and out of a card's proportions: the side across the column is a card's
    # width; the side along it (two cards deep) is too long to be one, but may be two cards pushed together across it
    # (stop 41), each half as wide.
    assert side_card_sizes(corner, (198.0, 104.0), frame_widths) == [(size(210.0), 0), (size(160.0), 1)]
    # A side as wide as the nearest card, already in proportion, adds nothing new but those two cards.
    assert side_card_sizes(corner, (205.0, 205.0 / CARD_ASPECT), frame_widths) == [(size(160.0), 1)]
    # With no card found yet, each side within the frame's card widths is tried, then its halves and thirds, as
    # widths or as depths.
    assert side_card_sizes(corner, None, frame_widths) == [
        (size(210.0), 0), (size(320.0), 1), (size(105.0), 0), (size(160.0), 1), (size(160.0 * CARD_ASPECT), 0)]
    assert side_card_sizes(corner, None, (74.0, 300.0)) == [
        (size(210.0), 0), (size(105.0), 0), (size(160.0), 1), (size(160.0 * CARD_ASPECT), 0)]
    # Each such card is laid with its width along the side it was sized from, either way up.
    cards = side_sized_cards(corner, (198.0, 104.0), frame_widths)
    assert len(cards) == 4
    for card, (width, along) in zip(cards, [(210.0, right), (210.0, right), (160.0, down), (160.0, down)]):
        top = card[1] - card[0]
        assert abs(abs(float(top @ along)) - width) < 1e-9 and np.linalg.norm(top) - width < 1e-9
        assert abs(np.linalg.norm(card[3] - card[0]) - width / CARD_ASPECT) < 1e-9


def _lone_column_pulled_out_at_one_corner():
    ids = [c.id for c in heldout_cards()]
    scene = SceneGenerator(5, card_ids=ids).render({0: [ids[4:6]]}, Conditions(card_width_px=260, table="wood",
                                                                               noise=2))
    column = [t for t in scene.cards if t.seat == 0]
    assert len(column) == 2
    legs, torso = column[0].corners, column[1].corners
    outline = np.array([torso[0], torso[1], legs[2], legs[3]])
    # The wood's grain pulled the outline's top-right corner out by a third of a card's width, and no other card
    # in the frame gives the card size.
    outline[1] += 0.33 * (torso[1] - torso[0])
    return scene, column, outline


def test_a_lone_column_outlined_with_one_corner_pulled_out_is_found_from_its_other_corners(recogniser, needs_scans,
                                                                                           monkeypatch):
    scene, column, outline = _lone_column_pulled_out_at_one_corner()
    _only_these_outlines(monkeypatch, [outline])
    assert _found(recogniser, scene, column)


def test_a_column_outline_with_one_corner_pulled_out_is_read_with_that_corner_put_back(recogniser, needs_scans):
    import cv2

    scene = _scene_with_a_column(6)
    column = [t for t in scene.cards if t.seat == 0]
    legs, head = column[0].corners, column[2].corners
    outline = np.array([head[0], head[1], legs[2], legs[3]])
    # Grain welded to the head card pulled the outline's top-right corner (by the badges) a third of a card's width
    # out along the top, and some way up.
    outline[1] += 0.33 * (head[1] - head[0]) + 0.1 * (head[0] - head[3])
    width = float(np.linalg.norm(head[1] - head[0]))
    gray = cv2.cvtColor(scene.frame, cv2.COLOR_BGR2GRAY)
    cards = recogniser._completed_column(scene.frame, gray, outline, (width, width / CARD_ASPECT))
    assert cards is not None and len(cards) == 3
    for (corners, _), truth in zip(sorted(cards, key=lambda card: -card[0][:, 1].mean()), column):
        assert np.abs(corners - truth.corners).max() < 0.05 * width
    # Cards of a size far from its own (the nearest ones found a good deal smaller, say) are not looked for in it.
    assert recogniser._completed_column(scene.frame, gray, outline, (0.6 * width, 0.6 * width / CARD_ASPECT)) is None


def test_a_card_sized_from_an_outlines_side_must_read_more_surely_than_other_lone_cards(recogniser, needs_scans,
                                                                                        monkeypatch):
    from vision.pipeline import LONE_CARD, SIDE_SIZED_CARD

    scene, column, outline = _lone_column_pulled_out_at_one_corner()
    _only_these_outlines(monkeypatch, [outline])
    assert _found(recogniser, scene, column)
    # Read no surer than 0.9 (a card mostly under a hand can read so), a card sized from the outline's side alone is
    # not taken, though any other lone card would be.
    capped = (LONE_CARD + SIDE_SIZED_CARD) / 2
    read = recogniser._read

    def read_no_surer(image, cards):
        readings = read(image, cards)
        for reading in readings:
            reading["card"] = np.minimum(reading["card"], [capped, 1.0])
        return readings

    monkeypatch.setattr(recogniser, "_read", read_no_surer)
    assert not recogniser.scan(scene.frame).cards


def test_a_column_outlined_two_cards_deep_brings_its_third_card(recogniser, needs_scans, monkeypatch):
    scene = _scene_with_a_column(3)
    column = [t for t in scene.cards if t.seat == 0]
    lone = [t for t in scene.cards if t.seat == 2]
    legs, torso = column[0].corners, column[1].corners
    # Glare took the head card's outline: the legs and torso were outlined together, and read whole as a column.
    _only_these_outlines(monkeypatch, [np.array([torso[0], torso[1], legs[2], legs[3]]), lone[0].corners])
    assert _found(recogniser, scene, column + lone)


@pytest.mark.parametrize("share, read", [(0.25, False), (0.5, True)])
def test_an_outline_far_smaller_than_the_cards_found_is_not_read_as_a_column(recogniser, needs_scans, monkeypatch,
                                                                           share, read):
    """vision.pipeline.FRAGMENT_AREA: once cards are found, an outline under 0.3 of the nearest one's area (a corner
    of art, a fold of a sleeve) cannot hold a card and is not read as a column; half a card is still read (it may be
    the free part of a card under a hand)."""
    import vision.pipeline

    scene = _scene_with_a_column(3)
    column = [t for t in scene.cards if t.seat == 0]
    lone = [t for t in scene.cards if t.seat == 2]
    corners = lone[0].corners
    # A piece of the lone card's outline from its top-left corner: `share` of it in area, outlined before the rest.
    across, down = corners[1] - corners[0], corners[3] - corners[0]
    along = min(1.0, share * 2)
    piece = np.array([corners[0], corners[0] + along * across, corners[0] + along * across + (share / along) * down,
                      corners[0] + (share / along) * down])
    _only_these_outlines(monkeypatch, [column[0].corners, piece, corners])
    read_places = []
    real_readings = vision.pipeline.Recogniser._readings
    monkeypatch.setattr(vision.pipeline.Recogniser, "_readings",
                        lambda self, image, quad, *args, **kwargs:
                        read_places.append(np.asarray(quad)) or real_readings(self, image, quad, *args, **kwargs))
    assert _found(recogniser, scene, column + lone)
    assert any(np.abs(place - piece).max() < 1 for place in read_places) is read


@pytest.mark.parametrize("card_id", [3, 12, 20])
def test_a_lone_card_is_not_hidden_by_a_misshapen_outline_of_itself(recogniser, lone_card_scene, card_id):
    """On wood, the grain can pull one corner of a pale card's outline out by a third of its width; that quad is
    as large as the card's true outline, which used to be dropped as its duplicate, so the card went unread."""
    from vision.bench import match

    scene = lone_card_scene(card_id)
    card = card_by_id(card_id)

    found = [seen for seen, truth in match(recogniser.scan(scene.frame).cards, scene.cards) if truth is not None]

    assert [(seen.legion, seen.parts, seen.ability) for seen in found] == [(card.legion, card.parts, card.ability)]


def test_quads_count_as_one_outline_only_when_every_corner_is_near_one_of_the_other():
    from vision.detect import _same_outline

    card = _column_outline(1.0)
    assert _same_outline(card + 3.0, card)  # inner and outer edge of one outline
    pulled = card.copy()
    pulled[0] -= [0.3 * WIDTH, 0.0]  # one corner pulled a third of a card's width out
    assert not _same_outline(pulled, card) and not _same_outline(card, pulled)


def test_a_lone_card_is_found_from_its_square_corner_when_grain_pulls_out_another(recogniser, lone_card_scene):
    """A brown and gold card on golden wood: its only outline has one corner pulled far out and reads as nothing,
    and a fragment of its art gives a second outline. The card sized from the outline's square bottom corner reads
    surely; the corner tries, few, used to be spent on the fragment and the pulled-out corner first."""
    from vision.bench import match

    card = card_by_id(58)
    scene = lone_card_scene(card.id, seed=11, card_width_px=220, tilt_deg=8, tilt_axis_deg=30)

    found = [seen for seen, truth in match(recogniser.scan(scene.frame).cards, scene.cards) if truth is not None]

    assert [(seen.legion, seen.parts, seen.ability) for seen in found] == [(card.legion, card.parts, card.ability)]



def _crossing(a, b, c, d) -> np.ndarray:
    """Where the line through a and b meets the line through c and d."""
    matrix = np.array([b - a, c - d], np.float64).T
    t, _ = np.linalg.solve(matrix, c - a)
    return a + t * (b - a)


def test_an_outline_with_a_corner_cut_off_is_kept_aside_with_that_corner_put_back():
    import cv2

    from vision.detect import _quad_from_hull

    # The simplified outline of a card seen through a tilted camera on a pale table (from a training scene, at
    # three times the detector's scale): glare took its top-right corner, so a short side cuts across it, and no quad
    # is close enough to the five-sided hull to be taken for the card. (The hull is listed from where the cut
    # starts, as the detector traced it: where a closed outline's simplification starts changes what it keeps.)
    top_left, cut_start, cut_end, bottom_right, bottom_left = (
        np.array(point, np.float64) for point in ([1014, 618], [1143, 585], [1206, 621], [1191, 762], [1059, 819]))
    hull = np.array([cut_start, cut_end, bottom_right, bottom_left, top_left], np.int32).reshape(-1, 1, 2)
    restored = []
    assert _quad_from_hull(hull, hull, cv2.contourArea(hull), (400.0, 1e6, 25.0), None, restored) is None
    assert len(restored) == 1
    area, quad = restored[0]
    # The card's top-right corner is back where its top and right sides, drawn on, meet; its other corners stay.
    corner = _crossing(top_left, cut_start, bottom_right, cut_end)
    expected = np.array([top_left, corner, bottom_right, bottom_left])
    assert any(np.abs(np.roll(quad, shift, axis=0) - expected).max() < 1e-6 for shift in range(4))
    assert area == pytest.approx(cv2.contourArea(expected.astype(np.float32)))


def test_only_a_side_much_shorter_than_the_others_is_taken_for_a_cut_corner():
    import cv2

    from vision.detect import _cut_corner_put_back

    # A regular pentagon (every side alike) and a house shape (its shortest sides, the roof's, as long as its walls)
    # have no corner cut off.
    angles = np.radians(np.arange(5) * 72.0)
    pentagon = (300 + 100 * np.stack([np.cos(angles), np.sin(angles)], axis=1)).astype(np.int32).reshape(-1, 1, 2)
    house = np.array([[0, 100], [100, 0], [200, 100], [200, 240], [0, 240]], np.int32).reshape(-1, 1, 2)
    for hull in (pentagon, house):
        assert _cut_corner_put_back(hull, cv2.arcLength(hull, True)) is None
    # The same house with a flat roof but one eave cut short: that is a cut corner.
    cut = np.array([[0, 100], [170, 100], [200, 130], [200, 240], [0, 240]], np.int32).reshape(-1, 1, 2)
    quad = _cut_corner_put_back(cut, cv2.arcLength(cut, True))
    assert quad is not None and any(np.abs(np.roll(quad, shift, axis=0) - [[0, 100], [200, 100], [200, 240],
                                                                             [0, 240]]).max() < 1e-6
                                    for shift in range(4))


def test_a_solid_outline_is_taken_as_traced_and_one_with_a_whisker_is_opened(monkeypatch):
    """vision.detect.SOLID_OUTLINE: a card's outline that fills its hull has nothing to open away; a stray edge
    touching it (table grain) adds little area but much hull, and is opened away before the quad is fitted."""
    import cv2

    import vision.detect
    from vision.detect import SOLID_OUTLINE, _quad_from_contour

    opened = []
    real_open = vision.detect._without_whiskers
    monkeypatch.setattr(vision.detect, "_without_whiskers", lambda *args: opened.append(1) or real_open(*args))
    card = np.array([[100, 80], [370, 80], [370, 253], [100, 253]], np.float64)
    limits = (400.0, 100000.0, 25.0)
    for whisker in (False, True):
        edges = np.zeros((400, 600), np.uint8)
        cv2.rectangle(edges, (100, 80), (370, 253), 255, 3)
        if whisker:
            cv2.line(edges, (370, 160), (540, 330), 255, 2)
        contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
        outline = max(contours, key=cv2.contourArea)
        filled = cv2.contourArea(outline) / cv2.contourArea(cv2.convexHull(outline))
        assert (filled < SOLID_OUTLINE) == whisker
        found = _quad_from_contour(outline, limits)
        assert found is not None and np.abs(found[1] - card).max() < 4
        assert len(opened) == int(whisker)
