"""Creatures pushed together side by side (issue 3: "card localisation that works for abutting cards in columns"; on a
crowded table a seat's creatures touch, and their outlines merge into a grid, an L or a cross; docs/vision-history.md,
stop 41)."""
import math

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from vision.cards import CARD_ASPECT
from vision.synthetic import Conditions, SceneGenerator


def _creature_legs(scene, seat: int) -> list:
    """The legs card of each of the seat's creatures, in the order they were laid."""
    return sorted((t for t in scene.cards if t.seat == seat and t.slot == "legs"), key=lambda t: t.creature)


def _beside(card_corners: np.ndarray, other_corners: np.ndarray, reach: float) -> bool:
    """Whether a place `side_neighbours` lays beside the card is the other card, to `reach` of a card width."""
    from vision.placements import side_neighbours

    width = np.linalg.norm(card_corners[1] - card_corners[0])
    return any(np.abs(place - other_corners).max() < reach * width for place in side_neighbours(card_corners))


def test_pushed_together_creatures_lie_where_the_places_beside_each_other_are():
    """In the generator's crowded scenes each seat's next creature lies where `side_neighbours` lays the card beside
    the last one's legs (to 8% of a card width: the gap and the row's jitter; seen from straight above, since the
    places beside a card are laid without perspective); in its usual scenes it never does."""
    pairs = {True: 0, False: 0}
    for touching in (True, False):
        for seed in range(12):
            scene = SceneGenerator(seed, use_scans=False, touching=touching).random_scene(tilt_deg=0.0)
            for seat in scene.layout:
                legs = _creature_legs(scene, seat)
                for first, second in zip(legs, legs[1:]):
                    pairs[touching] += 1
                    assert _beside(first.corners, second.corners, 0.08) == touching, (seed, seat)
    assert pairs[True] >= 8 and pairs[False] >= 8  # both kinds of scene had rows of creatures to check


def test_pushed_together_scenes_keep_the_usual_scenes_as_they_were():
    """The crowded layout is drawn by its own code: the usual scenes (the bench's) are the same, draw for draw."""
    usual = SceneGenerator(7, use_scans=False).random_scene()
    again = SceneGenerator(7, use_scans=False, touching=False).random_scene()
    crowded = SceneGenerator(7, use_scans=False, touching=True).random_scene()
    assert np.array_equal(usual.frame, again.frame)
    assert not np.array_equal(usual.frame, crowded.frame)


def _grid(width: float, angle: float, columns: int, cards: int, origin=(600.0, 500.0)):
    """The true cards (own TL, TR, BR, BL, facing the same way) of `columns` columns of `cards` cards side by side,
    and the grid's outline, turned by `angle` radians."""
    depth = width / CARD_ASPECT
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    place = lambda points: np.asarray(points, float) @ turn.T + origin
    laid = [place([(i * width, k * depth), ((i + 1) * width, k * depth), ((i + 1) * width, (k + 1) * depth),
                   (i * width, (k + 1) * depth)]) for i in range(columns) for k in range(cards)]
    outline = place([(0, 0), (columns * width, 0), (columns * width, cards * depth), (0, cards * depth)])
    return laid, outline


@settings(max_examples=150, deadline=None)
@given(st.floats(60, 330), st.floats(-np.pi, np.pi), st.integers(1, 4), st.integers(1, 3), st.integers(0, 3),
       st.floats(0.93, 1.07))
def test_a_grid_of_cards_is_split_into_its_cards(width, angle, columns, cards, start, size_error):
    """An outline of two to four columns of one height is split into its cards, each laid both ways up, from any
    starting corner and with the nearby card's size up to 7% off; one column is left to the column reading."""
    from vision.placements import grid_cards, rolled

    laid, outline = _grid(width, angle, columns, cards)
    depth = width / CARD_ASPECT
    places = grid_cards(rolled(outline, start), (width * size_error, depth * size_error))
    if columns == 1:
        assert places == []
        return
    for card in laid:
        for way_up in (card, rolled(card, 2)):
            assert any(np.abs(place - way_up).max() < 1e-4 * width for place in places)  # float32 arithmetic


def test_a_dark_card_in_shadow_is_worth_reading_beside_its_neighbour():
    """A card in a dim corner of the table spreads its grey levels less than FEATURELESS_STD, but still widely for its
    brightness (DIM_CARD_SPREAD); the bare table beside it does neither."""
    from vision.pipeline import DIM_CARD_SPREAD, _featureless
    from vision.placements import side_neighbours

    scene = SceneGenerator(3, use_scans=False).render(
        {0: [[1]]}, Conditions(card_width_px=260, brightness=0.22, table="dark", noise=1.0))
    card = scene.cards[0].corners
    assert _featureless(scene.frame, card)  # the plain test alone would pass it by
    assert not _featureless(scene.frame, card, DIM_CARD_SPREAD)
    for table in side_neighbours(card):
        assert _featureless(scene.frame, table, DIM_CARD_SPREAD)


def _crowded_training_scene(seed: int, index: int = 0):
    """The crowded scene `index` (0 the first) of a seed, laid from the training scans (the held-out ones are the
    bench's)."""
    from vision.cards import training_cards

    generator = SceneGenerator(seed, card_ids=[card.id for card in training_cards()], use_scans=True, touching=True)
    for _ in range(index):
        generator.random_scene()
    return generator.random_scene()


def _found_right(recogniser, scene, cards: list | None = None) -> set[int]:
    """The visible cards reported (`cards`, if the scene was read already) where they lie with their own facts."""
    from vision.bench import match

    cards = recogniser.scan(scene.frame).cards if cards is None else cards
    return {truth.card_id for seen, truth in match(cards, scene.cards)
            if truth is not None and not truth.occluded
            and (seen.legion, tuple(seen.parts), seen.ability) == (truth.legion, tuple(truth.parts), truth.ability)}


def test_three_creatures_pushed_together_in_a_u_are_all_found(recogniser, needs_scans, monkeypatch):
    """Training seed 12: one seat's creatures of two, one and three cards pushed together make one outline shaped like a
    U, whose quad is only its hull. Its corners (PUSHED_TOGETHER_FILL) give the first cards, and the places beside
    them (MAX_SIDE_TRIES) the rest; all ten visible cards of the scene are found and read right, and without either,
    four or six of them are missed. Since stop 53, corners whose sides run along half a card find three of those
    four without the places beside (CORNER_SIDE_SHARES), and one is missed. Since stop 73 the corners of the colours the
    table lacks (`Outlines.off_table_corners`) find all ten without the U's own corners too."""
    import vision.detect
    import vision.pipeline

    scene = _crowded_training_scene(12)
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(visible) == 10 and len(scene.layout[1]) == 3
    assert _found_right(recogniser, scene) == visible
    monkeypatch.setattr(vision.pipeline, "MAX_SIDE_TRIES", 0)
    assert len(visible - _found_right(recogniser, scene)) == 1
    monkeypatch.setattr(vision.pipeline, "CORNER_SIDE_SHARES", vision.pipeline.CORNER_SIDE_SHARES[:1])
    assert len(visible - _found_right(recogniser, scene)) == 4
    monkeypatch.undo()
    monkeypatch.setattr(vision.detect, "PUSHED_TOGETHER_FILL", 0.0)
    assert _found_right(recogniser, scene) == visible
    monkeypatch.setattr(vision.detect, "OFF_TABLE_CORNERS", 0)
    assert len(visible - _found_right(recogniser, scene)) == 6


def test_a_crowded_l_with_no_card_found_yet_is_found_from_its_corners(recogniser, needs_scans, monkeypatch):
    """Training seed 20: seven cards of three creatures pushed together in an L on a dark, blurred cloth, and no other
    card in the scene. No side of the L's corners is one card long, so no card of a corner's own size read as one; a
    card as wide as a half or a third of a side, or as deep (SIDE_SPANS), does, and the rest follow from it. All seven
    are found and read right; with cards of a whole side only, none."""
    import vision.placements

    scene = _crowded_training_scene(20)
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(visible) == 7
    assert _found_right(recogniser, scene) == visible
    monkeypatch.setattr(vision.placements, "SIDE_SPANS", [(1, False)])
    assert _found_right(recogniser, scene) == set()


def test_a_group_taken_for_one_misshapen_card_is_not_reported(recogniser, needs_scans, monkeypatch):
    """Training seed 34: five cards of two creatures pushed together in a step leave one outline whose quad, read as a
    single card, is no card's shape, and stays so when a corner is put back or a card laid on its sides. It is about
    2.5 of the other cards' widths, so it is not taken (MISSHAPEN_SIZE), and no card is reported where none lies;
    taken as it was before, it was reported as a card matching none (with the cards sized as the nearest card found,
    as before stop 67: sized by the table's tilt, no false card is reported here even without MISSHAPEN_SIZE)."""
    import vision.pipeline
    import vision.table_plane
    from vision.bench import match

    scene = _crowded_training_scene(34)

    def false_cards() -> int:
        return sum(truth is None for _, truth in match(recogniser.scan(scene.frame).cards, scene.cards))

    assert false_cards() == 0
    monkeypatch.setattr(vision.table_plane, "MIN_PLANE_CARDS", 10 ** 6)
    monkeypatch.setattr(vision.pipeline, "MISSHAPEN_SIZE", float("inf"))
    assert false_cards() == 1


@pytest.mark.parametrize("seed, visible, missed_without", [(34, 15, 5), (114, 3, 0)])
def test_blocks_whose_outline_breaks_at_every_joint_are_found_from_half_card_corners(
        recogniser, needs_scans, monkeypatch, seed, visible, missed_without):
    """Training seeds 34 and 114, first crowded scene: creatures pushed together, each card turned a degree or two its
    own way, leave outlines whose sides break at the cards' joints, so no corner's sides run along most of a card
    (CORNER_SIDE_SHARES[0]). Laid where the sides run along half a card, after the columns have grown, cards are
    found there and bring their columns: every visible card is found and read right; without that pass, 5 of 15 and
    2 of 3 were missed (stop 53; with the cards sized as the nearest card found, as before stop 67: sized by the
    table's tilt, other searches find seed 34's cards too). In seed 114's scene no column is read at all: since stop 65
    the corners sized by their own sides are tried first there, and find all three cards without the half-card
    pass."""
    import vision.pipeline
    import vision.table_plane

    scene = _crowded_training_scene(seed)
    seen = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(seen) == visible
    assert _found_right(recogniser, scene) == seen
    monkeypatch.setattr(vision.table_plane, "MIN_PLANE_CARDS", 10 ** 6)
    monkeypatch.setattr(vision.pipeline, "CORNER_SIDE_SHARES", vision.pipeline.CORNER_SIDE_SHARES[:1])
    assert len(seen - _found_right(recogniser, scene)) == missed_without


@pytest.mark.parametrize("seed, found_now", [(334, {42, 103}), (347, {1, 97})])
def test_the_place_beside_a_card_is_laid_from_it_as_found_too(recogniser, needs_scans, seed, found_now):
    """Training seeds 334 and 347, fourth crowded scene: snapping a found card onto the edges nearby turned it a little
    towards its neighbour's edge, and the place beside it, laid from the snapped card, read as no card. Laid beside the
    card as it was found, it reads as one, and that card's own neighbour follows: both cards are now found and read
    right (stop 41's code missed both)."""
    scene = _crowded_training_scene(seed, 3)
    assert found_now <= {truth.card_id for truth in scene.cards if not truth.occluded}
    assert found_now <= _found_right(recogniser, scene)


def test_a_block_still_giving_cards_beside_its_cards_is_followed_past_four_places(recogniser, needs_scans,
                                                                                  monkeypatch):
    """Training seed 173, first crowded scene: the cards of a block of creatures pushed together are found one beside
    another, and the sixth place beside a card read there holds one (card 102). With twelve such places a growing
    (MAX_SIDE_TRIES, stop 54) all 15 visible cards are found and read right; with four, as before, that card is
    missed (with the cards sized as the nearest card found, as before stop 67; sized by the table's tilt, another
    search finds it too)."""
    import vision.pipeline
    import vision.table_plane

    scene = _crowded_training_scene(173)
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(visible) == 15
    assert _found_right(recogniser, scene) == visible
    _without_the_corners_read_again(monkeypatch)  # stop 74's, which find it too
    assert _found_right(recogniser, scene) == visible
    monkeypatch.setattr(vision.table_plane, "MIN_PLANE_CARDS", 10 ** 6)
    monkeypatch.setattr(vision.pipeline, "MAX_SIDE_TRIES", 4)
    assert visible - _found_right(recogniser, scene) == {102}


@pytest.mark.parametrize("table", ["wood", "felt", "light", "dark", "cloth"])
def test_the_table_beside_a_card_is_not_of_colours_the_table_lacks(table):
    """The premise of BESIDE_OFF_TABLE and ALONG_OFF_TABLE: the detector's mask of colours the frame's border lacks
    (`Outlines.off_table`) covers a card lying alone, hardly any of the bare table laid beside it, and none of the table
    beyond its ends, on every table of the generator."""
    from vision.detect import find_outlines
    from vision.pipeline import ALONG_OFF_TABLE, BESIDE_OFF_TABLE, _off_table_share
    from vision.placements import neighbours, side_neighbours

    scene = SceneGenerator(1, use_scans=False).render({0: [[1]]}, Conditions(card_width_px=260, table=table))
    off_table = find_outlines(scene.frame, snapped=False).off_table
    card = scene.cards[0].corners
    assert _off_table_share(off_table, scene.frame.shape, card) >= 0.9
    for beside in side_neighbours(card):
        assert _off_table_share(off_table, scene.frame.shape, beside) < 0.1 < BESIDE_OFF_TABLE
    for beyond in neighbours(card)[:2]:  # the column's places, legs and head ends
        assert _off_table_share(off_table, scene.frame.shape, beyond) < ALONG_OFF_TABLE
    assert _off_table_share(None, scene.frame.shape, card) == 0.0  # no mask: nothing is taken for a card's colours


def test_the_table_beyond_the_ends_of_columns_read_from_their_own_outlines_is_not_read(recogniser, needs_scans,
                                                                                        monkeypatch):
    """Training seed 12, first scene: fourteen cards on the light table, whose grain passes the bare-table test. Beyond
    the ends of the columns read from their own outlines, only places with some colours the table lacks are read
    (ALONG_OFF_TABLE): every visible card is still found and read right, for fewer badge matches than when every such
    place is read (and read again turned, resized and on its sides)."""
    import vision.features
    import vision.pipeline
    from vision.cards import training_cards

    generator = SceneGenerator(12, card_ids=[card.id for card in training_cards()], use_scans=True)
    scene = generator.random_scene()
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(visible) == 14
    matches = []
    badge_fit = vision.features.badge_fit

    def counted_badge_fit(*args, **kwargs):
        matches.append(1)
        return badge_fit(*args, **kwargs)

    monkeypatch.setattr(vision.features, "badge_fit", counted_badge_fit)
    assert _found_right(recogniser, scene) == visible
    with_rule = len(matches)
    matches.clear()
    monkeypatch.setattr(vision.pipeline, "ALONG_OFF_TABLE", float("-inf"))
    assert _found_right(recogniser, scene) == visible
    assert with_rule < len(matches)


@pytest.mark.parametrize("seed, found_now", [(131, {70}), (35, {89})])
def test_a_creature_pushed_against_one_read_whole_is_found_beside_it(recogniser, needs_scans, monkeypatch, seed,
                                                                     found_now):
    """Training seeds 131 and 35, first crowded scene: a creature pushed against another whose column was read whole
    from its own outline (on seed 131 two lone cards side by side on wood; the outlines of cards of unlike brightness
    need not merge). The place beside the card read whole is mostly of colours the table lacks (BESIDE_OFF_TABLE), so
    it is read: every visible card is found and read right. Looked for only beside cards found without their whole
    column's outline, as before stop 56, the creature beside is missed."""
    import vision.pipeline

    scene = _crowded_training_scene(seed)
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert found_now <= visible
    assert _found_right(recogniser, scene) == visible
    monkeypatch.setattr(vision.pipeline, "BESIDE_OFF_TABLE", float("inf"))
    assert visible - _found_right(recogniser, scene) == found_now


def _corner(angle: float, lengths: tuple[float, float], point=(400.0, 300.0)):
    """A right-angled outline corner turned by `angle` radians, its first side along the turned x axis."""
    from vision.detect import Corner

    along = np.array([np.cos(angle), np.sin(angle)]), np.array([-np.sin(angle), np.cos(angle)])
    return Corner(np.asarray(point), along, lengths)


@settings(max_examples=80, deadline=None)
@given(st.floats(60, 330), st.floats(-np.pi, np.pi), st.floats(0.3, 0.79))
def test_a_corner_whose_sides_stop_short_of_a_card_lays_one_only_in_the_half_card_pass(width, angle, share):
    """Pushed together, each card turned its own way, a block's outline breaks at every joint: a corner's sides can
    run along only part of the card in it. A corner whose sides run along `share` of the card's width and depth lays
    no card where the sides must run along most of it (CORNER_SIDE_SHARES[0]); in the later pass
    (CORNER_SIDE_SHARES[1]) it lays the card whose corner it is, once the sides run along half of it."""
    from vision.placements import CORNER_SIDE_SHARES, cards_at_corner, rolled

    depth = width / CARD_ASPECT
    corner = _corner(angle, (share * width, share * depth))
    (u, v), point = corner.along, corner.point
    card = np.array([point, point + width * u, point + width * (u + v * depth / width), point + depth * v])
    most, half = CORNER_SIDE_SHARES
    assert cards_at_corner(corner, (width, depth), most) == []
    laid = cards_at_corner(corner, (width, depth), half)
    assert any(np.abs(place - rolled(card, -roll)).max() < 1e-6 * width for place in laid for roll in (0, 2)) == \
        (share >= half)


@settings(max_examples=80, deadline=None)
@given(st.floats(60, 330), st.floats(-np.pi, np.pi), st.floats(0.0, 1.2), st.floats(-0.3, 0.3))
def test_a_card_laid_across_one_found_already_is_told_by_their_common_area(width, angle, shift, drift):
    """A card laid off a short corner can lie mostly on a card found already, its centre just off it (a hand-covered
    card found twice). `overlaps_any` says whether more than a share of its area lies on one: a card moved by `shift`
    of its width along it (and `drift` of its depth across) keeps (1 - shift)(1 - drift) of its area on the other."""
    from vision.pipeline import SAME_CARD_OVERLAP
    from vision.placements import overlaps_any

    depth = width / CARD_ASPECT
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
    card = np.array([(0, 0), (width, 0), (width, depth), (0, depth)]) @ turn.T + 500.0
    moved = card + np.array([shift * width, drift * depth]) @ turn.T
    common = max(0.0, 1 - shift) * (1 - abs(drift))
    if abs(common - SAME_CARD_OVERLAP) > 0.01:
        assert overlaps_any(moved, [card], SAME_CARD_OVERLAP) == (common > SAME_CARD_OVERLAP)
    assert not overlaps_any(moved, [], SAME_CARD_OVERLAP)


@settings(max_examples=100, deadline=None)
@given(st.floats(60, 330), st.floats(-np.pi, np.pi), st.sampled_from([2, 3]), st.floats(-0.6, 0.6))
def test_the_place_beside_a_card_slid_along_its_column_stays_against_it(turned_card, width, angle, side, share):
    """A creature pushed against another need not lie level with it (SLID_SHARES): a place `slid_beside` lays is the
    card's size and way up, its side against the card's own side on the line of it, and its middle `share` of a card's
    depth further along the column than the place beside the card."""
    from vision.placements import neighbours, slid_beside

    card = turned_card((500.0, 400.0), width, angle)
    down = card[3] - card[0]
    depth = np.linalg.norm(down)
    beside = neighbours(card)[side]
    slid = slid_beside(card, side, [share])[0]
    assert np.allclose(slid[1] - slid[0], card[1] - card[0]) and np.allclose(slid[3] - slid[0], down)
    along = (slid.mean(axis=0) - beside.mean(axis=0)) @ down / depth
    assert abs(along - share * depth) < 1e-6 * width
    shared = (slid[0], slid[3]) if side == 3 else (slid[1], slid[2])  # its side facing the card
    card_side = (card[1], card[2]) if side == 3 else (card[0], card[3])
    normal = np.array([-down[1], down[0]]) / depth
    for point in shared:
        assert abs((point - card_side[0]) @ normal) < 1e-6 * width


def _found(recogniser, scene) -> dict:
    """Every card reported, by where it was reported (its corners), with its facts and confidence."""
    return {seen.corners: (seen.legion, seen.parts, seen.ability, seen.confidence)
            for seen in recogniser.scan(scene.frame).cards}


@pytest.mark.parametrize("seed, index, found_now, found_elsewhere", [(371, 1, 41, 2), (383, 0, 63, 0)])
def test_the_neighbours_of_a_card_read_doubtfully_are_laid_from_where_it_reads_surer(
        recogniser, needs_scans, monkeypatch, seed, index, found_now, found_elsewhere):
    """Training seeds 371 (second crowded scene) and 383 (first): a card found from a corner, at a neighbour's size,
    read doubtfully as a card (below PLACE_AGAIN_BELOW) and a few pixels off its own edges, so the places next to it were
    further off and read as no card. Laid from where it reads surer (on its own sides, or at the nearest card's size),
    they find the card next to it, read right; without that it is missed. The card is still reported where it was
    found and as read there: the cards found without the rule are reported with it at the same corners and read the
    same, but for `found_elsewhere` (on seed 371 two cards found late, from corners, are found from others once the
    new card is there). A card replaced by its surer place would be one more. Judged without the corners of colours
    the table lacks (stop 73), which find seed 371's card without the rule, and without the corners' cards read again
    (stop 74), which find seed 383's."""
    import vision.detect
    import vision.pipeline

    scene = _crowded_training_scene(seed, index)
    assert found_now in _found_right(recogniser, scene)
    monkeypatch.setattr(vision.detect, "OFF_TABLE_CORNERS", 0)
    _without_the_corners_read_again(monkeypatch)  # stop 74's, which find seed 383's card too
    assert found_now in _found_right(recogniser, scene)
    with_rule = _found(recogniser, scene)
    monkeypatch.setattr(vision.pipeline, "PLACE_AGAIN_BELOW", 0.0)
    assert found_now not in _found_right(recogniser, scene)
    without = _found(recogniser, scene)
    both = with_rule.keys() & without.keys()
    assert len(without) - len(both) <= found_elsewhere
    assert all(with_rule[corners] == without[corners] for corners in both)


# The generator's PCG64 increments of the crowded scenes below: held-out seed 2024, training seeds 500, 601-603.
HELD_OUT_2024, TRAINING_500, TRAINING_601, TRAINING_602, TRAINING_603 = (
    263843294879837360010514471918415607657, 339288678258339344579180490569448108909,
    64312718261719074268427480061135463689, 15543543059900552071902575059430785125,
    285088582064065126188008937820093510727)


def test_a_card_beside_one_found_too_large_is_found_slid_along_its_column(recogniser, needs_scans, bench_scene_at,
                                                                          monkeypatch):
    """Held-out scene 48 of the crowded bench (`companion vision bench --touching`, seed 2024; no training scene was
    found where this rule finds a card, so this is the bench's own scene, checked and not tuned on): card 13 is found
    a fifth too large, reading surely as a card all the same, and the place beside it falls a third of a card off
    card 6 along the column. Read again slid along the column (SLID_SHARES), it is card 6, and card 47 beside that
    follows, both read right; without the slid places both are missed. Since stop 73 the corners of colours the table
    lacks find both without the slid places too: so the slid places are judged without those corners."""
    import vision.detect
    import vision.pipeline

    scene = bench_scene_at(True, 175108205275546089940493777534017649592, HELD_OUT_2024, 1, 1492362791, touching=True)
    assert {6, 47} <= {truth.card_id for truth in scene.cards if not truth.occluded}
    assert {6, 47} <= _found_right(recogniser, scene)
    monkeypatch.setattr(vision.detect, "OFF_TABLE_CORNERS", 0)
    assert {6, 47} <= _found_right(recogniser, scene)
    monkeypatch.setattr(vision.pipeline, "SLID_SHARES", ())
    assert not {6, 47} & _found_right(recogniser, scene)


def _without_the_corners_read_again(monkeypatch) -> None:
    """The corners' cards not read again (stop 74: snapped where they read as half a card, sized by the corner's sides
    where they were sized as a far card), as before: they find some cards that an earlier rule alone found."""
    import vision.pipeline

    monkeypatch.setattr(vision.pipeline, "ALMOST_CARD", math.inf)
    monkeypatch.setattr(vision.pipeline, "SIDE_SIZE_GAIN", math.inf)


def _found_only_past_the_old_limit(recogniser, monkeypatch, scene, card_ids: int | set[int], constant: str,
                                   old_value, off_table_corners: bool = True, corners_read_again: bool = True) -> None:
    """The visible card (or cards) is found and read right as the pipeline stands, and missed with `constant` as it was
    (`old_value`); no card found then is lost now. Without `off_table_corners`, the last two are judged without the
    corners of colours the table lacks (OFF_TABLE_CORNERS 0; stop 73), which find the card too; without
    `corners_read_again`, without the corners' cards read again (stop 74), likewise."""
    import vision.detect
    import vision.pipeline

    wanted = {card_ids} if isinstance(card_ids, int) else set(card_ids)
    assert wanted <= {truth.card_id for truth in scene.cards if not truth.occluded}
    found_now = _found_right(recogniser, scene)
    assert wanted <= found_now
    if not off_table_corners:
        monkeypatch.setattr(vision.detect, "OFF_TABLE_CORNERS", 0)
        found_now = _found_right(recogniser, scene)
        assert wanted <= found_now
    if not corners_read_again:
        _without_the_corners_read_again(monkeypatch)
        found_now = _found_right(recogniser, scene)
        assert wanted <= found_now
    monkeypatch.setattr(vision.pipeline, constant, old_value)
    found_before = _found_right(recogniser, scene)
    assert not wanted & found_before and found_before <= found_now


@pytest.mark.parametrize("heldout, state, increment, has_uint32, uinteger, card_id", [
    # Held-out scene 87 (seed 2024): card 13.
    pytest.param(True, 303168224947814225954714327412746432958, HELD_OUT_2024, 0, 3055539865, 13, id="held-out-87"),
    # Held-out scene 197: card 39, along the column of card 106 (read 0.99 as a card), which came up to be grown from
    # after the eight places had gone, four of them wholly of the table's colours.
    pytest.param(True, 253299010811058473475690479902175364075, HELD_OUT_2024, 0, 3102399221, 39, id="held-out-197"),
    # Training scene 52 of seed 500: cards 59 and 12 (the second found from the first).
    pytest.param(False, 231060683377908600661644893534793134340, TRAINING_500, 0, 2022517133, 59, id="training-52"),
])
def test_a_crowded_table_gives_column_neighbours_past_eight_places(recogniser, needs_scans, bench_scene_at, monkeypatch,
                                                                   heldout, state, increment, has_uint32, uinteger,
                                                                   card_id):
    """Crowded scenes (two of the bench's own, `companion vision bench --touching`, seed 2024, checked and not tuned
    on, and one of the training scans): the card is found only past the eighth column neighbour tried
    (MAX_NEIGHBOUR_TRIES 12 since stop 65), and no card found with eight is lost with twelve. Judged without the
    corners' cards read again (stop 74) and without cards laid across a column's side from a corner (stop 82), which
    each find the training scene's card too."""
    import vision.placements

    monkeypatch.setattr(vision.placements, "COLUMN_SIDE_DEPTHS", float("inf"))
    scene = bench_scene_at(heldout, state, increment, has_uint32, uinteger, touching=True)
    _found_only_past_the_old_limit(recogniser, monkeypatch, scene, card_id, "MAX_NEIGHBOUR_TRIES", 8,
                                   corners_read_again=False)


@pytest.mark.parametrize("state, increment, has_uint32, uinteger, card_id", [
    # Training scene 37 of seed 500: card 54, beside a column read whole, its place 0.40 of colours the table lacks.
    pytest.param(279049937131039666963769230013963321347, TRAINING_500, 1, 3562886603, 54, id="training-500-37"),
    # Training scene 147 of seed 601: card 1, its place 0.47 of such colours.
    pytest.param(236318592439211550300679405575159163773, TRAINING_601, 0, 3219990091, 1, id="training-601-147"),
    # Training scene 38 of seed 603: card 30. (Until stop 79, scene 108 of seed 602, card 78: with OpenCV 5.1 and the
    # badge layout learned with it, found at 0.5 too; a search of seeds 602 and 603, 150 scenes each, found this one.)
    pytest.param(221214287586980647965288474448355261798, TRAINING_603, 1, 4167753207, 30, id="training-603-38"),
])
def test_a_creature_beside_a_column_of_colours_like_the_tables_is_found(recogniser, needs_scans, bench_scene_at,
                                                                        monkeypatch, state, increment, has_uint32,
                                                                        uinteger, card_id):
    """Crowded training scenes: beside a column read whole from its own outline, a place is read only where some of
    it is of colours the table lacks (BESIDE_OFF_TABLE). The card there is of colours much like the table's, a fifth
    to a half of its place not: found and read right at 0.2 (stop 70), missed at 0.5, and no card found at 0.5 is lost
    at 0.2."""
    scene = bench_scene_at(False, state, increment, has_uint32, uinteger, touching=True)
    _found_only_past_the_old_limit(recogniser, monkeypatch, scene, card_id, "BESIDE_OFF_TABLE", 0.5)


def test_a_crowded_table_gives_places_beside_cards_past_twelve_tries(recogniser, needs_scans, bench_scene_at,
                                                                     monkeypatch):
    """Crowded training scene 146 of seed 500: card 11, beside a card found, comes up to be read after twelve places
    beside cards have gone (MAX_SIDE_TRIES 16 since stop 70, when more places beside columns came to be read); with
    twelve it is missed, and no card found with twelve is lost with sixteen (judged without stop 73's corners of
    colours the table lacks, which find it with twelve)."""
    scene = bench_scene_at(False, 101382739117167676841590928115648650570, TRAINING_500, 1, 3269309098, touching=True)
    _found_only_past_the_old_limit(recogniser, monkeypatch, scene, 11, "MAX_SIDE_TRIES", 12, off_table_corners=False)


def test_a_block_of_two_by_two_cards_read_doubtfully_as_one_card_is_read_as_its_cells(
        recogniser, needs_scans, bench_scene_at, monkeypatch):
    """Crowded training scene 53 of seed 500: two creatures of two pushed together make a block of a card's shape,
    which read 0.55 as one card 431 px wide; every other outline (three lone cards) was then under a third of its area,
    a fragment (FRAGMENT_AREA), and the scene gave that one false card. Read as its cells (BLOCK_DOUBT), all seven
    cards are found and read right."""
    import vision.pipeline

    scene = bench_scene_at(False, 163823702118590867808355857314607734578, TRAINING_500, 1, 3192119164, touching=True)
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(visible) == 7
    assert _found_right(recogniser, scene) == visible
    monkeypatch.setattr(vision.pipeline, "BLOCK_DOUBT", 0.0)
    assert len(_found_right(recogniser, scene)) <= 3


def test_a_block_read_as_one_card_with_a_card_beside_it_welded_on_is_read_as_its_cells(
        recogniser, needs_scans, bench_scene_at, monkeypatch):
    """Crowded training scene 58 of seed 602: a block of two by two cards and a card beside it share one outline,
    which read 0.54 as one card (its cells, laid in that outline, read as no card); snapped and put back into shape,
    the card is the block alone, 376 px wide, and was taken as one card. Its cells read there (BLOCK_DOUBT) are the
    four cards: all twelve visible cards are found and read right (nine before, with the cards sized as the nearest
    card found, as before stop 67; sized by the table's tilt, the searches find some of the four too)."""
    import vision.pipeline
    import vision.table_plane

    scene = bench_scene_at(False, 333518743876500025734642313642002994844, TRAINING_602, 0, 3374556812, touching=True)
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(visible) == 12
    assert _found_right(recogniser, scene) == visible
    monkeypatch.setattr(vision.table_plane, "MIN_PLANE_CARDS", 10 ** 6)
    monkeypatch.setattr(vision.pipeline, "BLOCK_DOUBT", 0.0)
    assert not {4, 10, 88} & _found_right(recogniser, scene)


def test_a_misshapen_card_is_not_taken_before_the_corners_give_a_size(recogniser, needs_scans, bench_scene_at):
    """Crowded training scene 83 of seed 500: on a fine checked cloth no column was read, and a misshapen outline (an
    L of cards and an arm's edge) read 0.82 as one card 414 px wide; taken for want of any card to size it by, it gave
    every later search that size, and the scene gave that one false card. Judged after the corners, it is the size of
    the cards found there and dropped, and all thirteen visible cards are found and read right."""
    scene = bench_scene_at(False, 157872497489668359691420015699853602998, TRAINING_500, 1, 2000150282, touching=True)
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(visible) == 13
    found = recogniser.scan(scene.frame).cards
    assert _found_right(recogniser, scene, found) == visible
    widths = [truth.width_px for truth in scene.cards]
    assert all(np.linalg.norm(np.subtract(card.corners[1], card.corners[0])) < 1.2 * max(widths) for card in found)


def test_with_no_column_read_the_corners_sized_by_their_sides_give_the_others_their_size(
        recogniser, needs_scans, bench_scene_at):
    """Crowded training scene 120 of seed 601 (dim, cool light on blue felt): no outline read as a column, so the
    corners were first tried with the nearby card's size, of which there was none, and then sized by their own sides;
    a block of eight cards whose outline's corners have sides two and three cards long gave none. Sized by their sides
    first, the corners elsewhere give cards, and the block's corners then give cards of their size: all nineteen cards
    are found and read right (eleven before)."""
    scene = bench_scene_at(False, 257692975989920304568857934987170507305, TRAINING_601, 0, 2161623703, touching=True)
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(visible) == 19
    assert _found_right(recogniser, scene) == visible


def test_a_column_read_from_an_outline_with_a_corner_pulled_in_is_read_again_with_it_put_back(
        recogniser, needs_scans, bench_scene_at, monkeypatch):
    """Crowded training scene 42 of seed 603 (dim, cool light on a dark cloth): a column of two cards read whole
    (0.93) from an outline with its far corner pulled in 30 px, one end a fifth narrower than the other; each card
    passed as a card seen aslant, the lower one a sixth too small, and every corner of a block of eight cards below
    was tried with that card's size and gave none. The column read again with that corner put back
    (MAX_COLUMN_OPPOSITE_RATIO), all eleven visible cards are found and read right (three before)."""
    import vision.pipeline

    scene = bench_scene_at(False, 227545442752567564063486391728120660760, TRAINING_603, 1, 28112263, touching=True)
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(visible) == 11
    assert _found_right(recogniser, scene) == visible
    _without_the_corners_read_again(monkeypatch)  # stop 74's, which find most of the block too
    assert _found_right(recogniser, scene) == visible
    monkeypatch.setattr(vision.pipeline, "MAX_COLUMN_OPPOSITE_RATIO", math.inf)
    assert len(_found_right(recogniser, scene)) <= 3


@pytest.mark.parametrize("seed, state, has_uint32, uinteger, visible_count, found_without", [
    (603, 114150734581413540718265465983048154063, 1, 3988151841, 13, 10),
    (500, 269526853580302623874833374920296970773, 1, 1904404111, 17, 11)])
def test_cards_across_a_table_seen_aslant_are_searched_for_at_their_own_size(recogniser, needs_scans, bench_scene_at,
                                                                             monkeypatch, seed, state, has_uint32,
                                                                             uinteger, visible_count, found_without):
    """Crowded training scenes 139 of seed 603 and 64 of seed 500 (the camera 15-24 degrees aslant): each card's size
    is asked of the table's tilt fitted to the cards found (`vision/table_plane.py`), not of the nearest card, which
    lies at another depth or is turned the other way, and every visible card is found and read right; sized as the
    nearest card (MIN_PLANE_CARDS out of reach), three to six of them are missed. (The second scene was 108 of seed 601
    until stop 79, whose OpenCV 5.1 draws it so that no column reads whole: see the next test; then 140 of seed 601
    until stop 80, after which its four are found without the tilt too.)"""
    import vision.table_plane

    scene = bench_scene_at(False, state, {603: TRAINING_603, 500: TRAINING_500}[seed], has_uint32, uinteger,
                           touching=True)
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(visible) == visible_count
    assert _found_right(recogniser, scene) == visible
    _without_the_corners_read_again(monkeypatch)  # stop 74's, which size some of them by their corners
    assert _found_right(recogniser, scene) == visible
    monkeypatch.setattr(vision.table_plane, "MIN_PLANE_CARDS", 10 ** 6)
    assert len(_found_right(recogniser, scene)) <= found_without


def test_outlines_passed_over_before_any_card_was_found_are_searched_once_the_corners_find_one(
        recogniser, needs_scans, bench_scene_at):
    """Crowded training scene 108 of seed 601 as OpenCV 5.1 draws it (the camera aslant, three seats' creatures
    pushed together): the outline of a far card reads 0.19, and no outline reads whole as a column. The short columns'
    and the small outlines' searches lay cards of the size of the cards found, of which there was none, and passed over
    every outline; the corners then found two cards, and the five cards of a block on the right, found from those
    outlines in OpenCV 5.0's all but identical picture, were never looked for again: 5 of 13 cards were found. Searched
    again once the corners have found cards (stop 80), all but one are found and read right, the block's five too."""
    scene = bench_scene_at(False, 185731863837522465917904127019994591784, TRAINING_601, 0, 3506797852, touching=True)
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(visible) == 13
    found = _found_right(recogniser, scene)
    assert {103, 71, 31, 78, 30} <= found
    assert len(found) >= 12


@pytest.mark.parametrize("state, increment, has_uint32, uinteger, turned", [
    # Seed 500, scene 64 (24 degrees aslant, small cards on wavy wood): a block of five cards at the left seat.
    (269526853580302623874833374920296970773, TRAINING_500, 1, 1904404111, {31, 35, 44, 45, 57}),
    # Seed 602, scene 45 (11 degrees aslant, wavy wood): a row of three cards above two cards turned a quarter
    # from them, as most cards found first are.
    (130164648582974620533143704264592204620, TRAINING_602, 1, 1461045946, {10, 14, 50})])
def test_cards_turned_across_those_found_are_searched_for_at_their_own_size(recogniser, needs_scans, bench_scene_at,
                                                                            monkeypatch, state, increment, has_uint32,
                                                                            uinteger, turned):
    """Crowded training scenes: the cards of one seat lie turned a quarter from the cards found first, and on a table
    seen aslant a card turned so is foreshortened along its other side. Laid in the outlines' corners at the size the
    table's tilt gives a card turned that way there (`CardSizes.laid_from`), they are found and read right; laid at
    the size of a card turned as the nearest card found (as before stop 68), none of them is."""
    from vision.table_plane import CardSizes

    scene = bench_scene_at(False, state, increment, has_uint32, uinteger, touching=True)
    assert turned <= {truth.card_id for truth in scene.cards if not truth.occluded}
    assert turned <= _found_right(recogniser, scene)
    monkeypatch.setattr(CardSizes, "laid_from", lambda sizes, corner, width_way, depth_way, cards:
                        sizes.at(corner, cards))
    assert not turned & _found_right(recogniser, scene)


def test_fifteen_cards_of_a_crowded_table_are_found_with_nothing_false(recogniser, needs_scans, bench_scene_at):
    """Crowded training scene 85 of seed 602 (cards 223 px, the camera 4 degrees aslant): all fifteen visible cards
    are found where they lie, nothing else is reported, and all but one are read right. Stop 68 found here that a card
    laid again at the size of a card turned as the nearest other card is gave a false card beside a column (at 0.50),
    and laid it at the size a card turned as it is has there (`CardSizes.turned_at`, whose own tests are in
    test_vision_table_plane.py). Since stop 69 fits the table only when a size is asked, the fits start from other
    tilts, and neither sizing reports a false card here; one card, read at 0.35 and so reported as unsure, reads one
    part of its three."""
    from vision.bench import match

    scene = bench_scene_at(False, 222130965532659708930164746992029830089, TRAINING_602, 0, 1093779821, touching=True)
    visible = {truth.card_id for truth in scene.cards if not truth.occluded}
    assert len(visible) == 15
    found = recogniser.scan(scene.frame).cards
    lying_right = {truth.card_id for _, truth in match(found, scene.cards) if truth is not None and not truth.occluded}
    assert lying_right == visible and len(found) == len(visible)
    assert len(_found_right(recogniser, scene, found)) >= len(visible) - 1


@pytest.mark.parametrize("state, has_uint32, uinteger, card_ids", [
    # Training scene 56 of seed 500: two legs cards and a torso in an L, brown and grey on brown wood, pushed against a
    # card found a tenth too small and skewed (so the places beside it are skewed too).
    pytest.param(258836512608399917470195714600035170609, 1, 529617245, {68, 20, 33}, id="training-500-56"),
    # Training scene 40 of seed 500: card 14, the legs card of a creature pushed against another.
    pytest.param(302389171132563114419839814273853626758, 1, 3149052941, {14}, id="training-500-40"),
    # Training scene 80 of seed 500: card 94, likewise.
    pytest.param(267642716048246995963179592487644331468, 0, 3958115028, {94}, id="training-500-80"),
])
def test_creatures_whose_edges_the_table_drowns_are_found_from_the_corners_of_colours_it_lacks(
        recogniser, needs_scans, bench_scene_at, monkeypatch, state, has_uint32, uinteger, card_ids):
    """Crowded training scenes on a table of the cards' own colours, whose grain drowns their edges: the colours the
    table lacks outline the creatures, but as no quad. That region's corners (`Outlines.off_table_corners`, stop 73)
    give the cards, found and read right; without them (OFF_TABLE_CORNERS 0, as before) they are missed, and no card
    found then is lost now."""
    import vision.detect

    scene = bench_scene_at(False, state, TRAINING_500, has_uint32, uinteger, touching=True)
    assert card_ids <= {truth.card_id for truth in scene.cards if not truth.occluded}
    found_now = _found_right(recogniser, scene)
    assert card_ids <= found_now
    monkeypatch.setattr(vision.detect, "OFF_TABLE_CORNERS", 0)
    found_before = _found_right(recogniser, scene)
    assert not card_ids & found_before and found_before <= found_now


def test_the_corners_of_colours_the_table_lacks_are_few_and_at_places_of_their_own():
    """`_distinct_corners` as it hands on the off-table corners: the longest-sided first, at most `most`, none within
    half a card depth of a corner handed on already (`apart_from`) or of each other."""
    from vision.detect import _distinct_corners
    from vision.placements import Corner

    def corner(x, y, length):
        return Corner(np.array([x, y], float), (np.array([1.0, 0.0]), np.array([0.0, 1.0])), (length, length))

    outline_corners = [corner(100, 100, 50)]
    off_table = [corner(110, 100, 90),  # the place of an outline corner (within half of 40)
                 corner(300, 100, 30), corner(305, 100, 80),  # one place, twice: the longer-sided is kept
                 corner(500, 100, 60), corner(700, 100, 70), corner(900, 100, 20)]
    kept = _distinct_corners(off_table, 40.0, most=3, apart_from=outline_corners)
    assert [tuple(c.point) for c in kept] == [(305, 100), (700, 100), (500, 100)]
    assert len(_distinct_corners(off_table, 40.0, most=9, apart_from=outline_corners)) == 4


def test_a_point_on_the_frame_edge_is_told():
    from vision.detect import FRAME_EDGE, _on_frame_edge

    width, height = 640, 481
    inside = FRAME_EDGE + 0.5
    assert _on_frame_edge(np.array([0.0, 200.0]), width, height)
    assert _on_frame_edge(np.array([300.0, height - 1.0]), width, height)
    assert _on_frame_edge(np.array([width - 1.0 - FRAME_EDGE / 2, 200.0]), width, height)
    assert not _on_frame_edge(np.array([inside, inside]), width, height)
    assert not _on_frame_edge(np.array([width - 1 - inside, height - 1 - inside]), width, height)


def test_an_arm_leaving_the_picture_gives_no_corner_on_the_frame_edge(needs_scans, bench_scene_at, monkeypatch):
    """Held-out scene 45 of the bench (seed 2024): an arm reaches in from the frame's right edge, a region of colours
    the table lacks that is no quad. Its corners where it leaves the picture are no card's (the frame's edge is no
    card's side) and are not handed on: with FRAME_EDGE 0 they are, and lie on the edge."""
    import vision.detect

    scene = bench_scene_at(True, 109121573822449219950064180620388412302, HELD_OUT_2024, 1, 3941809668)
    height, width = scene.frame.shape[:2]

    def on_edge(outlines) -> list:
        return [c for c in outlines.off_table_corners if min(*c.point, width - 1 - c.point[0], height - 1 - c.point[1])
                < 6]

    outlines = vision.detect.find_outlines(scene.frame, snapped=False)
    assert outlines.off_table_corners and not on_edge(outlines)
    monkeypatch.setattr(vision.detect, "FRAME_EDGE", 0)
    assert on_edge(vision.detect.find_outlines(scene.frame, snapped=False))


@pytest.mark.parametrize("seed, state, has_uint32, uinteger, card_ids", [
    # Training scene 5 of seed 500 (small cards on dark felt, the camera aslant): a row of three one-card creatures
    # with a torso pushed against the last; the corners of their outline lay cards 15-30 px off, read 0.5-0.8.
    pytest.param(500, 129915024485550574348389441041849647904, 0, 1385899156, {59, 76, 81}, id="training-500-5"),
    # Training scene 144 of seed 601: a red card on a red cloth below two legs cards, laid 15 px off (read 0.52).
    pytest.param(601, 108901691538910206354012699998351233699, 0, 2516137135, {35}, id="training-601-144"),
])
def test_a_corners_card_that_reads_as_half_a_card_is_snapped_and_read_again(
        recogniser, needs_scans, bench_scene_at, monkeypatch, seed, state, has_uint32, uinteger, card_ids):
    """Crowded training scenes: a corner pulled a few pixels off by a neighbour's edge lays a card with its badge cut
    off, which reads as half a card (ALMOST_CARD or more, below the bar). Snapped onto the edges nearby and read
    again, the cards are found and read right; not read again (ALMOST_CARD out of reach, as before stop 74), they are
    missed, and no card found then is lost now. (Only cards of the nearby card's size: see
    test_vision_hand_over_icon.py for a card sized by a corner's sides.)"""
    scene = bench_scene_at(False, state, {500: TRAINING_500, 601: TRAINING_601}[seed], has_uint32, uinteger,
                           touching=True)
    _found_only_past_the_old_limit(recogniser, monkeypatch, scene, card_ids, "ALMOST_CARD", math.inf)


@pytest.mark.parametrize("seed, state, has_uint32, uinteger, card_id", [
    # Training scene 30 of seed 500: card 95, laid at the size of a card across the table, read 0.9.
    pytest.param(500, 331947286821582262509035766323052295061, 1, 3158071297, 95, id="training-500-30"),
    # Training scene 100 of seed 601: card 34, likewise.
    pytest.param(601, 127596708170076356321992655305028813415, 0, 941756068, 34, id="training-601-100"),
])
def test_a_corners_card_sized_as_a_far_card_is_sized_again_by_the_corners_sides(
        recogniser, needs_scans, bench_scene_at, monkeypatch, seed, state, has_uint32, uinteger, card_id):
    """Crowded training scenes on a table seen aslant: a card laid in an outline's corner at the size of the nearest
    card found, which lies across the table, reads as a card, though less surely than one right. Laid again at the
    sizes the corner's own sides give (SIDE_SIZE_GAIN surer), the card is found and read right; not laid again
    (SIDE_SIZE_GAIN out of reach, as before stop 74), it is missed, and no card found then is lost now."""
    scene = bench_scene_at(False, state, {500: TRAINING_500, 601: TRAINING_601}[seed], has_uint32, uinteger,
                           touching=True)
    _found_only_past_the_old_limit(recogniser, monkeypatch, scene, card_id, "SIDE_SIZE_GAIN", math.inf)
