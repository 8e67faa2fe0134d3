"""Cards whose outline was lost or welded to something else (issue 3: detection recall; "abutting cards in columns",
"perspective from a tilted camera"). Each scene below is a training scene where such a card was missed: the
generator's state before it is recorded, so the scene is drawn exactly as the training benchmark drew it."""
import numpy as np
import pytest
from hypothesis import assume, given, settings, strategies as st

from vision.cards import CARD_ASPECT, card_by_id


def _reported_near(recogniser, scene, card_id: int, reach: float) -> list[tuple[object, bool]]:
    """The cards reported with their middle within `reach` of the card's width of where it lies, each with whether its
    facts are the card's own."""
    truth = next(each for each in scene.cards if each.card_id == card_id)
    card = card_by_id(card_id)
    middle = truth.corners.mean(axis=0)
    return [(seen, (seen.legion, seen.parts, seen.ability) == (card.legion, card.parts, card.ability))
            for seen in recogniser.scan(scene.frame).cards
            if np.linalg.norm(np.asarray(seen.corners).mean(axis=0) - middle) < reach * truth.width_px]


def _found_right(recogniser, scene, card_id: int) -> bool:
    """Whether the card is reported where it lies (its middle within a tenth of its width) with its own facts."""
    return any(right for _, right in _reported_near(recogniser, scene, card_id, 0.1))


# Each: the generator's state before the scene (PCG64 state, increment, has_uint32, uinteger) and the card missed.
MISSED_CARDS = [
    # Seed 781, scene 6: card 57 (brown legs, herald) lay beyond the end of a column read as three whole cards, and
    # was missed while only cards of partly found or short columns had their neighbours tried.
    pytest.param((232573780366961293928453772559024458588, 308938995523745016414812733391422731849, 1, 2743632856),
                 57, id="beyond-a-column-read-whole"),
    # Seed 782, scene 54: card 1 (blue head, scavenger) lies in a corner of an outline welded to other cards, and was
    # missed while only six such corners were tried per frame.
    pytest.param((85311698046038923065222730341219427128, 153719394137507445950895292351775034439, 1, 3680783733),
                 1, id="in-a-late-corner-of-an-outline"),
    # Seed 782, scene 30: card 4 (blue head, no ability) on a dark cloth left an outline of its lower half only, and
    # the nearest card found (a fifth smaller, across the frame) gave the cards laid over it too small.
    pytest.param((209419508749032483982571081378778739278, 153719394137507445950895292351775034439, 0, 2792143074),
                 4, id="far-larger-than-the-nearest-card"),
    # Seed 782, scene 25: card 70 (brown head, no ability) heads a column of two whose outline lost a corner; the
    # completion lying best on edges moved another corner and read as nothing, and the right one, second best, was
    # not read.
    pytest.param((271972574781372331688557368591354789136, 153719394137507445950895292351775034439, 1, 1175782991),
                 70, id="column-outline-completed-second-best"),
    # Seed 782, scene 38: card 58 (brown head, jester) heads a column of two whose legs card was found 5 degrees off
    # square; its neighbour, laid as far off, read as nothing until it was read again turned back.
    pytest.param((155675901717872070409516879656727834669, 153719394137507445950895292351775034439, 0, 3138022578),
                 58, id="beside-a-card-found-askew"),
    # Seed 780, scene 48: card 71 (brown torso, no ability) heads a column of two whose legs card was found a fifth
    # too small (an edge of its art taken for its own); its neighbour, laid beside that, read as nothing until the
    # card was laid again at the size of the nearest other card.
    pytest.param((290102868036078656911276173438065455012, 122776158246000774956055772500854245047, 0, 2019998942),
                 71, id="beside-a-card-found-too-small"),
    # Seed 779, scene 15: card 59 (brown, all three parts, jester) lies beside a blue card found with one end 10 px
    # short; its neighbour read as nothing until the card was laid on each of its own sides.
    pytest.param((221331696082825029259519091449464128037, 255691944513454715264350412214290506843, 1, 1308606953),
                 59, id="beside-a-card-found-misshapen"),
    # Seed 779, scene 21: card 4 (blue head, no ability) on a dark table lies beside a legs card found with its far
    # side 20-34 px off, a sixth too shallow and askew; laid beside it put right, it read 0.95-0.96 as a card, under
    # the 0.97 first asked of such places.
    pytest.param((60495300554311663535743787638812496910, 255691944513454715264350412214290506843, 0, 2889835820),
                 4, id="beside-a-card-found-too-shallow-and-askew"),
]

# The same for cards with no outline corner near their own: they are found from the corners their straight edges make
# (vision.segments), looked for near the outlines that explained nothing when the recogniser is thorough.
FOUND_FROM_STRAIGHT_EDGES = [
    # Seed 783, scene 51: card 30 (red legs, no ability), a pale card on a pale cloth, left an outline of its art only.
    pytest.param((316987282665458558399037688599983294966, 16474945374912948314126759421079461887, 1, 286899371),
                 30, id="pale-card-on-a-pale-cloth"),
    # Seed 780, scene 51: card 25 (blue head, devourer) heads a column with an arm across it; the column's outline
    # ran into the arm and the next column, one shape whose corners are none of the card's.
    pytest.param((73280991764650132666556263090713233361, 122776158246000774956055772500854245047, 1, 4253136653),
                 25, id="column-crossed-by-an-arm"),
    # Seed 2025, scene 52: card 5 (blue torso and head, mourner), the middle of a column with a hand over one end;
    # the outlines found in it were pieces of its art.
    pytest.param((4467414409904454340172541023224910962, 134498754133510046408747663747978987513, 0, 1142786400),
                 5, id="middle-of-a-column-under-a-hand"),
    # Seed 780, scene 26: card 88 (green head, jester) beside an arm, its outline welded to the arm's.
    pytest.param((115918162251771328528807040973416805330, 122776158246000774956055772500854245047, 1, 4055656497),
                 88, id="beside-an-arm"),
    # Seed 783, scene 25: card 9 (blue legs, scavenger) ends a column of three on grey checked cloth whose outline ran
    # into a hand over its far card; the outline's corners came out 20 degrees off square.
    pytest.param((44276524964723782780584003018747874255, 16474945374912948314126759421079461887, 0, 3772327128),
                 9, id="column-outline-run-into-a-hand"),
]

# Each: the generator's state as above, and a card found where it lies (if too small or too large) and read wrong.
MISREAD_CARDS = [
    # Seed 2025, scene 52: card 42 (red legs, devourer) was found 7% too narrow and 13% too shallow, and read with no
    # ability (at 0.37); laid again at the nearest card's size from its corner it reads its icon.
    pytest.param((4467414409904454340172541023224910962, 134498754133510046408747663747978987513, 0, 1142786400),
                 42, id="found-too-small-read-without-its-icon"),
    # Seed 783, scene 2: card 59 (brown, all three parts, jester), seen aslant (a sixth shallower than square on), was
    # found a fifth too deep and read as a mourner (at 0.35).
    pytest.param((252572603181093764090112653468147443537, 16474945374912948314126759421079461887, 1, 4013323161),
                 59, id="found-too-deep-read-as-another-ability"),
    # Seed 786, scene 22: card 3 (blue legs), in a column of two on dark wood seen 23 degrees aslant, was found 6% too
    # wide, its legion-tinted end 10 px out on the wood, and read brown at 0.94; with its ends drawn in onto the edges
    # nearby it reads blue.
    pytest.param((188431124078138897716259832992311945463, 277318021039274055257892139168238010687, 0, 335534246),
                 3, id="found-with-its-tinted-end-on-the-table-read-in-the-tables-colour"),
    # Cards with two or three parts, whose parts heads said so (0.86-0.93) but every nearest prototype voted for one
    # part (PARTS_VOTE): seed 786, scene 18, card 104 (green legs and torso) read as torso; seed 791, scene 7, card 65
    # (brown, all three) read as head. (A third, seed 787, scene 42, card 29, red torso and head at 151 px, is read as
    # torso again since stop 49: its heads read the badge's print alone, which there shows no head, where they used to
    # know the card by its art. Cross-validated by card, that choice halves the parts errors on cards never seen and
    # adds 0.23 points on cards seen in training: docs/vision-history.md, stop 49.)
    pytest.param((308642385788302562633419626712170059078, 277318021039274055257892139168238010687, 0, 1637780068),
                 104, id="two-parts-read-as-one-by-the-prototypes-legs-and-torso"),
    pytest.param((62918534709491220207003487339885773374, 188005752453200829784651994064091373351, 0, 2323847757),
                 65, id="three-parts-read-as-one-by-the-prototypes"),
]


@pytest.mark.parametrize("generator_state, card_id", MISSED_CARDS)
def test_a_card_missed_on_a_training_scene_is_found_and_read_right(recogniser, needs_scans, bench_scene_at,
                                                                    generator_state, card_id):
    scene = bench_scene_at(False, *generator_state)
    assert _found_right(recogniser, scene, card_id), f"card {card_id} was not found, or not read right"


@pytest.mark.parametrize("generator_state, card_id", FOUND_FROM_STRAIGHT_EDGES)
def test_a_thorough_recogniser_finds_a_card_from_its_straight_edges(thorough_recogniser, needs_scans, bench_scene_at,
                                                                    generator_state, card_id):
    scene = bench_scene_at(False, *generator_state)
    assert _found_right(thorough_recogniser, scene, card_id), f"card {card_id} was not found, or not read right"


@pytest.mark.parametrize("generator_state, card_id", MISREAD_CARDS)
def test_a_card_misread_on_a_training_scene_is_read_right(recogniser, needs_scans, bench_scene_at, generator_state,
                                                           card_id):
    scene = bench_scene_at(False, *generator_state)
    reported = _reported_near(recogniser, scene, card_id, 0.1)
    assert reported, f"card {card_id} was not found"
    assert any(right for _, right in reported), f"card {card_id} was read {[str(seen) for seen, _ in reported]}"


@pytest.mark.parametrize("thorough", [False, True])
def test_a_card_mostly_under_a_hand_is_not_reported_surely_with_wrong_facts(recogniser, thorough_recogniser,
                                                                             needs_scans, bench_scene_at, thorough):
    """Issue 3: "cards partly hidden by a hand are reported as uncertain or left out, never guessed wildly". Seed 780,
    scene 17: card 17 (blue torso and head, scavenger) lies 43% under a hand, its badge hidden; the hand's edge and
    the card's make corners, and a card laid there read brown at 0.64 until cards laid from edges had to read at 0.97
    as a card (it read 0.95)."""
    from vision.bench import CONFIDENT

    scene = bench_scene_at(False, 331164918406397930918707355684262413523, 122776158246000774956055772500854245047, 1,
                           1447941329)
    assert next(each for each in scene.cards if each.card_id == 17).occluded
    reader = thorough_recogniser if thorough else recogniser
    assert all(right or seen.confidence < CONFIDENT for seen, right in _reported_near(reader, scene, 17, 0.3))


def _cut_across(card: np.ndarray, kept: float, slant: float, across_width: bool) -> np.ndarray:
    """The outline of the part of a card on one side of a cut (the rest lost in the table): across its width, keeping
    its whole depth on the uncut end, or across its depth; `kept` of the card's side kept, the cut turned by `slant`."""
    start, end = (0, 3) if across_width else (0, 1)
    stay, towards = (1, 2) if across_width else (3, 2)
    outline = card.copy()
    outline[stay] = card[start] + (kept + slant) * (card[stay] - card[start])
    outline[towards] = card[end] + (kept - slant) * (card[towards] - card[end])
    return np.array([card[start], outline[stay], outline[towards], card[end]])


def _has_own_size(sizes: list[tuple[float, float]], width: float) -> bool:
    """Whether the card's own size is among the sizes (or one within the 6% that counts as the same size)."""
    return any(abs(size[0] - width) <= 0.07 * width and abs(size[0] / size[1] - CARD_ASPECT) < 1e-9 for size in sizes)


@settings(max_examples=200, deadline=None)
@given(st.floats(100, 400), st.floats(-np.pi, np.pi), st.floats(0.3, 0.8), st.floats(-0.15, 0.15),
       st.floats(0.85, 1.15), st.booleans())
def test_an_outline_cut_across_a_card_gives_the_cards_own_size(turned_card, width, angle, kept, slant, nearest,
                                                                across_width):
    """An outline of the part of a card on one side of a cut (the rest lost in the table): its uncut side is a whole
    card side, so the card's own size is among those it gives (or one within the 6% that counts as the same size),
    whatever the nearest card's size within the range a card's size varies over one frame."""
    from vision.placements import outline_side_sizes

    assume(abs(nearest - 1.0) > 0.07)  # a size this close to the nearest card's is that card's size, tried already
    outline = _cut_across(turned_card((500, 400), width, angle), kept, slant, across_width)
    assert _has_own_size(outline_side_sizes(outline, (nearest * width, nearest * width / CARD_ASPECT)), width)


@settings(max_examples=200, deadline=None)
@given(st.floats(100, 400), st.floats(-np.pi, np.pi), st.floats(0.3, 0.8), st.floats(-0.15, 0.15), st.booleans())
def test_with_no_card_found_yet_an_outline_cut_across_a_card_gives_its_size_among_a_frames_card_sizes(
        turned_card, width, angle, kept, slant, across_width):
    """The same outline where no card has been found yet to size it by (stop 75): the card's own size is among those
    it gives, and each it gives is one a card may have in a 1640-pixel frame (MIN_CARD_FRACTION to
    MAX_CARD_FRACTION of its long side)."""
    from vision.detect import MIN_CARD_FRACTION
    from vision.pipeline import MAX_CARD_FRACTION
    from vision.placements import outline_side_sizes

    widths = (MIN_CARD_FRACTION * 1640, MAX_CARD_FRACTION * 1640)
    outline = _cut_across(turned_card((500, 400), width, angle), kept, slant, across_width)
    sizes = outline_side_sizes(outline, None, widths)
    assert _has_own_size(sizes, width)
    assert all(widths[0] < size[0] < widths[1] for size in sizes)


@pytest.mark.parametrize("heldout, state, increment, has_uint32, uinteger, touching, lone, card_id", [
    # Crowded training scene 39 of seed 601: the one card not under a hand, a brown card whose gold glow on its right
    # is lost in a sandy cloth, leaves an outline of its left two thirds.
    pytest.param(False, 50562361307095806229122434808061330629, 64312718261719074268427480061135463689, 1, 3319989859,
                 True, False, 70, id="training-601-39"),
    # Held-out scene 61 of the lone-card bench, seed 3000 (`companion vision bench --lone --seed 3000`; checked, not
    # tuned on): card 13, 139 px long, alone.
    pytest.param(True, 297311541012167851203675944117363058803, 329641532715090389049396583868525437411, 0,
                 2920746295, False, True, 13, id="held-out-lone-3000-61"),
])
def test_the_first_card_on_the_table_is_found_from_the_part_of_its_outline_left(
        recogniser, needs_scans, bench_scene_at, monkeypatch, heldout, state, increment, has_uint32, uinteger, touching,
        lone, card_id):
    """The first card on the table leaves an outline of part of it, and no card is found before it to size the cards
    laid over that outline by. Sized by the outline's own sides (any size a card may have in the frame; stop 75), it
    is found and read right; not so sized (as before), nothing at all is found in the frame. (Since stop 81 the corners
    of the held-out card's outline facing each other find it too: that search is left out here.)"""
    import vision.pipeline

    scene = bench_scene_at(heldout, state, increment, has_uint32, uinteger, touching=touching, lone=lone)
    assert [truth.card_id for truth in scene.cards if not truth.occluded] == [card_id]
    assert _found_right(recogniser, scene, card_id)
    monkeypatch.setattr(vision.pipeline, "cards_between_corners", lambda corners, widths: [])
    sized_by_sides = vision.pipeline.outline_side_sizes
    monkeypatch.setattr(vision.pipeline, "outline_side_sizes",
                        lambda quad, size, widths=None: [] if size is None else sized_by_sides(quad, size, widths))
    assert not recogniser.scan(scene.frame).cards


def test_a_card_taken_from_such_an_outline_does_not_size_the_searches_of_a_crowded_frame(recogniser, needs_scans,
                                                                                       bench_scene_at):
    """Held-out crowded scene 131 (`companion vision bench --touching`, seed 2024; checked, not tuned on): no column is
    read from the outlines, and the corners and the searches after them find seat 1's four cards at their own sizes.
    Laid earlier (before the corners, or just after them, as stop 75 tried first), a card over an outline sized by its
    own sides was taken first and sized every later search, and these cards were lost (all four for the one it found,
    just after the corners)."""
    scene = bench_scene_at(True, 31945205603920610975585324493461825882, 263843294879837360010514471918415607657, 1,
                           3208828839, touching=True)
    assert all(_found_right(recogniser, scene, card_id) for card_id in (26, 91, 73, 53))


def _corner_of(card: np.ndarray, index: int, shares: tuple[float, float], turned_by: float = 0.0):
    """The outline corner at the card's corner `index` whose sides run `shares` of the way along the card's two sides
    from it (to the next corner, to the one before), the first side turned by `turned_by` radians."""
    from vision.placements import Corner

    point = card[index]
    sides = (card[(index + 1) % 4] - point, card[index - 1] - point)
    lengths = tuple(float(np.linalg.norm(side)) for side in sides)
    along = [side / length for side, length in zip(sides, lengths)]
    turn = np.array([[np.cos(turned_by), -np.sin(turned_by)], [np.sin(turned_by), np.cos(turned_by)]])
    return Corner(point, (turn @ along[0], along[1]), (shares[0] * lengths[0], shares[1] * lengths[1]))


def _among(cards: list[np.ndarray], card: np.ndarray, within: float) -> bool:
    """Whether a card with those very corners (in the same order, each within `within` pixels) is among the cards."""
    return any(np.abs(each - card).max() <= within for each in cards)


FRAME_WIDTHS = (0.045 * 1640, 0.3 * 1640)  # MIN_CARD_FRACTION and MAX_CARD_FRACTION of a 1640-pixel frame


@settings(max_examples=200, deadline=None)
@given(st.floats(100, 400), st.floats(-np.pi, np.pi), st.integers(0, 3), st.floats(0.15, 0.75),
       st.floats(0.15, 0.75), st.floats(0.15, 0.75))
def test_three_corners_of_a_card_facing_each_other_give_the_card_itself(turned_card, width, angle, first, short,
                                                                         middle_share, last_share):
    """Three corners of a card's outline, none with sides along most of the card (a lone card cut along its sides by a
    glow of the table's light: stop 81), give the card itself, whatever its size and turn; so do they with its far
    side's length anything (a camera aslant foreshortens a card), the card they give being that one."""
    from vision.placements import cards_between_corners

    card = turned_card((700, 500), width, angle)
    corners = [_corner_of(card, (first + step) % 4, (share, share))
               for step, share in zip(range(3), (short, middle_share, last_share))]
    assert _among(cards_between_corners(corners, FRAME_WIDTHS), card, 1e-6)
    foreshortened = card.copy()
    foreshortened[[2, 3]] = card[[1, 0]] + 0.8 * (card[[2, 3]] - card[[1, 0]])  # its depth 0.8 of the printed one
    corners = [_corner_of(foreshortened, index, (0.5, 0.5)) for index in (1, 2, 3)]
    assert _among(cards_between_corners(corners, FRAME_WIDTHS), foreshortened, 1e-6)


@pytest.mark.parametrize("side_turned, far, expected", [
    (0.0, False, True),
    (np.radians(12), False, True),  # a short side's direction a little off (13 degrees on the lone scene below)
    (np.radians(20), False, False),  # no longer pointing at the other corner
    (0.0, True, False),  # as far apart as no card in the frame is long
])
def test_two_corners_facing_each_other_along_a_side_give_a_card_on_it_in_the_printed_proportions(
        turned_card, side_turned, far, expected):
    """Two corners facing each other along a card's long side, their other sides running the same way: a card laid
    on that side in the printed proportions, as wide as the corners are apart, is among those they give; not where a
    side points too far off the other corner, nor where they are further apart than any card in the frame is long."""
    from vision.placements import cards_between_corners

    card = turned_card((700, 500), 500.0 if far else 200.0, np.radians(20))
    corners = [_corner_of(card, 0, (0.3, 0.3), side_turned), _corner_of(card, 1, (0.3, 0.3))]
    widths = (FRAME_WIDTHS[0], 400.0)
    assert _among(cards_between_corners(corners, widths), card, 1e-6) is expected


@pytest.mark.parametrize("turned", [False, True])
def test_corners_whose_other_sides_run_apart_give_no_card(turned_card, turned):
    """Two corners facing each other whose other sides run opposite ways (a corner of one card, another of the card
    beside it, say) are no two corners of one card: nothing is laid from them."""
    from vision.placements import Corner, cards_between_corners

    card = turned_card((700, 500), 200.0, 0.3)
    first = _corner_of(card, 0, (0.3, 0.3))
    second = _corner_of(card, 1, (0.3, 0.3))
    if turned:
        second = Corner(second.point, (second.along[0], -second.along[1]), second.lengths)
    assert bool(cards_between_corners([first, second], FRAME_WIDTHS)) is not turned


def test_the_first_card_on_the_table_is_found_from_corners_of_its_outline_facing_each_other(
        recogniser, needs_scans, bench_scene_at, monkeypatch):
    """Training scene 145 of the lone-card bench, seed 3001 (`companion vision bench --lone --seed 3000 --training`):
    card 52 alone on a blue cloth, its outline cut along its sides by the cloth's light glowing behind it; no side of
    a corner runs along most of the card, and no card is found to size one by. Three corners of its outline face each
    other (stop 81): it is found and read right from them; without them (as before), nothing is found in the frame."""
    import vision.pipeline

    scene = bench_scene_at(False, 89259087198474529158212650454796929611, 257728463480096675034125136739104960507, 0,
                           2379816846, lone=True)
    assert [truth.card_id for truth in scene.cards if not truth.occluded] == [52]
    assert _found_right(recogniser, scene, 52)
    monkeypatch.setattr(vision.pipeline, "cards_between_corners", lambda corners, widths: [])
    assert not recogniser.scan(scene.frame).cards


@settings(max_examples=200, deadline=None)
@given(st.floats(100, 330), st.floats(-np.pi, np.pi), st.sampled_from([2, 3]), st.floats(0.52, 0.79), st.booleans())
def test_a_corner_along_a_columns_side_lays_the_card_across_it_however_short_its_other_side(
        width, angle, count, cut, long_side_first):
    """A column's outline can lose the ends of its cards (a white strip of print on a cloth its colour shows as table):
    a corner then has one side along the column, `count` cards deep, and the other cut to `cut` of the card's width.
    Its sides run along most of no card turned either way, yet the column's first card lies across the long side
    (its depth along it): that card is laid, and where the long side is shorter than two cards deep, it is not. (A
    corner's sides are each at least most of a card's depth long, as `vision.detect` finds them: `cut` is at least
    that.)"""
    from vision.placements import CORNER_SIDE_SHARES, Corner, cards_at_corner, rolled

    depth = width / CARD_ASPECT
    point = np.array([400.0, 300.0])
    u, v = np.array([np.cos(angle), np.sin(angle)]), np.array([-np.sin(angle), np.cos(angle)])
    if long_side_first:  # the column runs along the corner's first side
        card = np.array([point, point + depth * u, point + depth * u + width * v, point + width * v])
        lengths = (count * depth, cut * width)
    else:
        card = np.array([point, point + width * u, point + width * u + depth * v, point + depth * v])
        lengths = (cut * width, count * depth)

    def lays_the_card(corner: Corner) -> bool:
        laid = cards_at_corner(corner, (width, depth), CORNER_SIDE_SHARES[0])
        return any(np.abs(place - rolled(card, roll)).max() < 1e-6 * width for place in laid for roll in range(4))

    assert lays_the_card(Corner(point, (u, v), lengths))
    short = 1.9 / count  # the long side cut to 1.9 cards deep
    assert not lays_the_card(Corner(point, (u, v), tuple(length * short if length > width else length
                                                         for length in lengths)))


def test_a_column_whose_outline_lost_its_cards_ends_is_found_from_a_corner_along_its_side(
        recogniser, needs_scans, bench_scene_at, monkeypatch):
    """Training scene 54 of seed 3001 with cards 140-170 px long (`companion vision bench --training --seed 3001
    --card-widths 140 170`, the wiring guide's card size): a column of three cards (50, 93, 38) on a dark red cloth.
    Its edge outline is welded to the cloth's grain, and the region of colours the cloth lacks stops short of the white
    strip along the cards' ends, so its corner's side across the column runs along two thirds of a card's width. A
    card laid across the corner's other side, three cards deep (stop 82), reads as the column's first card, and the
    column grows from it; laid only where both sides run along most of the card (as before), none of the three is
    found."""
    import vision.placements

    scene = bench_scene_at(False, 305233255831928674700184488696309855558, 257728463480096675034125136739104960507, 1,
                           190570678, widths=(140.0, 170.0))
    column = (50, 93, 38)
    assert all(_found_right(recogniser, scene, card_id) for card_id in column)
    monkeypatch.setattr(vision.placements, "COLUMN_SIDE_DEPTHS", float("inf"))
    assert not any(_found_right(recogniser, scene, card_id) for card_id in column)
