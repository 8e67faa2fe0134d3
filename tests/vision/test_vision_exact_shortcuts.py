"""The speed-ups of stops 37 and 44 compute the same numbers as the numpy calls they replace, to the last bit: the
pipeline's choices between near-equal places turn on the last bits, so a shortcut that rounded differently would
change readings (docs/vision-history.md, "Stop 37" and "Stop 44")."""
import numpy as np
import pytest
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

from vision.detect import _card_sized, _large_outline_corners, _quad_from_contour, _snap_offsets
from vision.features import ORIENTATION_BINS, _chroma_stats, _gradient_histograms, _standardised
from vision.pipeline import _inner_sample, _spread_and_mean
from vision.placements import (CARD_ASPECT, MAX_OPPOSITE_RATIO, MIN_ASPECT, _MAX_CORNER_COSINE, card_shaped,
                               card_centres, in_frame, mean_sides, nearest_centre, quad_centre, rolled,
                               shortest_side)

finite = st.floats(-2000, 2000, allow_nan=False, width=64)


@settings(max_examples=200, deadline=None)
@given(arrays(np.float64, (4, 2), elements=finite), st.integers(-9, 9))
def test_rolled_is_np_roll_of_four_corners(quad, shift):
    assert np.array_equal(rolled(quad, shift), np.roll(quad, shift, axis=0))
    lengths = quad[:, 0]
    assert np.array_equal(rolled(lengths, shift), np.roll(lengths, shift))


@settings(max_examples=200, deadline=None)
@given(arrays(np.float64, (4, 2), elements=st.floats(-50, 1700, width=64) | st.just(float("nan"))))
def test_in_frame_is_the_numpy_test_of_every_corner(card):
    height, width = 1232, 1640
    expected = bool(np.all((card[:, 0] >= 0) & (card[:, 0] < width) & (card[:, 1] >= 0) & (card[:, 1] < height)))
    assert in_frame(card, (height, width, 3)) == expected


@settings(max_examples=200, deadline=None)
@given(st.lists(arrays(np.float64, (4, 2), elements=st.floats(0, 1640, width=64)), min_size=1, max_size=8),
       arrays(np.float64, 2, elements=st.floats(0, 1640, width=64)))
def test_nearest_centre_picks_the_card_numpys_mean_and_norm_pick(cards, point):
    nearest = min(range(len(cards)), key=lambda index: np.linalg.norm(cards[index].mean(axis=0) - point))
    assert nearest_centre(point, card_centres(cards)) == nearest


patches = st.sampled_from([(24, 24), (30, 28), (50, 32), (62, 58)]).flatmap(
    lambda shape: arrays(np.float32, shape, elements=st.floats(0, 255, width=32)))


@settings(max_examples=150, deadline=None)
@given(patches)
def test_standardised_matches_numpys_mean_and_std_bit_for_bit(values):
    normalised, mean, std = _standardised(values)
    assert mean.dtype == std.dtype == np.float32
    assert mean == values.mean() and std == values.std()
    expected = (values - values.mean()) / (values.std() + 1e-3)
    assert normalised.dtype == expected.dtype and np.array_equal(normalised, expected)


@settings(max_examples=100, deadline=None)
@given(patches)
def test_gradient_histograms_are_those_of_the_plain_formula(values):
    import cv2

    gx = cv2.Sobel(values, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(values, cv2.CV_32F, 0, 1, ksize=3)
    magnitude, angle = cv2.cartToPolar(gx, gy)
    bins = (angle * (ORIENTATION_BINS / (2 * np.pi))).astype(np.int32) % ORIENTATION_BINS
    height, width = values.shape
    cells_x = width // 4
    cell = ((np.arange(height)[:, None] // 4).clip(0, height // 4 - 1) * cells_x
            + (np.arange(width)[None, :] // 4).clip(0, cells_x - 1))
    hist = np.sqrt(np.bincount((cell * ORIENTATION_BINS + bins).ravel(), weights=magnitude.ravel(),
                               minlength=(height // 4) * cells_x * ORIENTATION_BINS))
    assert np.array_equal(_gradient_histograms(values), hist / (np.linalg.norm(hist) + 1e-6))


@settings(max_examples=150, deadline=None)
@given(st.lists(st.tuples(st.integers(0, 300), st.integers(0, 300)), min_size=1, max_size=12))
def test_contours_left_out_as_too_small_are_those_no_quad_or_corner_comes_from(points):
    contour = np.array(points, np.int32).reshape(-1, 1, 2)
    min_area, limits = 900.0, (900.0, 60000.0, 30.0)
    if not _card_sized([contour], min_area):
        assert _quad_from_contour(contour, limits, pieces=[], restored=[]) is None
        assert _large_outline_corners(contour, limits) == []


@pytest.mark.parametrize("reach", [2.5, np.float32(3.8), 30.0, np.float64(11.25)])
def test_snap_offsets_are_numpys_linspace_of_the_reachs_own_type(reach):
    offsets = _snap_offsets(reach)
    expected = np.linspace(-reach, reach, int(2 * reach) + 1)
    assert offsets.dtype == expected.dtype and np.array_equal(offsets, expected)


def test_one_blas_thread_limits_numpys_blas_to_one_thread():
    from threadpoolctl import threadpool_info, threadpool_limits

    from vision.pipeline import one_blas_thread

    blas = [pool for pool in threadpool_info() if pool["user_api"] == "blas"]
    if not blas:
        pytest.skip("numpy here is built without a BLAS library threadpoolctl can see")
    with threadpool_limits(limits=None):  # puts back whatever the suite had after the test
        one_blas_thread()
        assert all(pool["num_threads"] == 1 for pool in threadpool_info() if pool["user_api"] == "blas")


def _chroma_stats_plainly(regions, white):
    """The colour statistics as stop 43 computed them, pixel by pixel along a short channel axis."""
    sizes = np.array([r.shape[0] * r.shape[1] for r in regions])
    balanced = np.concatenate([r.reshape(-1, 3) for r in regions]).astype(np.float32) / white
    chroma = balanced / ((balanced[:, 0] + balanced[:, 1] + balanced[:, 2])[:, None] + 1e-3)
    saturation = 1 - 3 * np.minimum(np.minimum(chroma[:, 0], chroma[:, 1]), chroma[:, 2])
    weights = np.clip(saturation - 0.15, 0, None)
    rows = np.empty((8, len(chroma)), np.float64)
    rows[:3] = chroma.T
    np.multiply(chroma.T, weights, out=rows[3:6])
    rows[6] = saturation
    rows[7] = weights
    totals = np.add.reduceat(rows, np.concatenate([[0], np.cumsum(sizes)[:-1]]), axis=1).T
    count = sizes.astype(np.float64)[:, None]
    return np.concatenate([totals[:, :3] / count, totals[:, 3:6] / (totals[:, 7:8] + 1e-3), totals[:, 6:7] / count],
                          axis=1).ravel()


regions = st.tuples(st.integers(1, 40), st.integers(1, 50)).flatmap(
    lambda shape: arrays(np.uint8, shape + (3,)))


@settings(max_examples=150, deadline=None)
@given(st.lists(regions, min_size=1, max_size=4), arrays(np.float32, 3, elements=st.floats(1, 256, width=32)))
def test_chroma_stats_one_channel_to_a_row_are_those_pixel_by_pixel(patches, white):
    fast, plain = _chroma_stats(patches, white), _chroma_stats_plainly(patches, white)
    assert fast.dtype == plain.dtype and np.array_equal(fast, plain, equal_nan=True)


@settings(max_examples=200, deadline=None)
@given(st.sampled_from([(8, 12), (3, 5), (1, 1), (62, 96)]).flatmap(lambda shape: arrays(np.uint8, shape)))
def test_spread_and_mean_are_numpys_std_and_mean_bit_for_bit(levels):
    assert _spread_and_mean(levels) == (float(levels.std()), float(levels.mean()))


def _inner_sample_plainly(image, corners):
    """`_featureless`'s sample as stop 43 took it, with numpy's mean of the corners."""
    import cv2

    inner = 0.85 * corners + 0.15 * corners.mean(axis=0)
    matrix = cv2.getPerspectiveTransform(np.float32(inner), np.float32([[0, 0], [11, 0], [11, 7], [0, 7]]))
    return cv2.cvtColor(cv2.warpPerspective(image, matrix, (12, 8)), cv2.COLOR_BGR2GRAY)


@settings(max_examples=100, deadline=None)
@given(st.integers(0, 2**32 - 1), arrays(np.float64, (4, 2), elements=st.floats(-20, 100, width=64)))
def test_featureless_samples_where_numpys_mean_of_the_corners_puts_it(seed, corners):
    image = np.random.default_rng(seed).integers(0, 256, (60, 80, 3), dtype=np.uint8)
    try:
        expected = _inner_sample_plainly(image, corners)
    except Exception:  # corners OpenCV cannot map (three in a line, say): the fast path must fail alike
        with pytest.raises(Exception):
            _inner_sample(image, corners)
        return
    assert np.array_equal(_inner_sample(image, corners), expected)


def test_nearest_centre_takes_the_first_of_equally_near_cards_as_min_does():
    small = np.array([[0.0, 0.0], [100.0, 0.0], [100.0, 64.0], [0.0, 64.0]])
    large = np.array([[300.0, 0.0], [500.0, 0.0], [500.0, 128.0], [300.0, 128.0]]) - [0.0, 32.0]
    point = np.array([225.0, 32.0])  # 175 px from either card's centre
    assert nearest_centre(point, card_centres([small, large])) == 0
    assert nearest_centre(point, card_centres([large, small])) == 0


quads64 = arrays(np.float64, (4, 2), elements=st.floats(-2000, 2000, allow_nan=False, width=64))


@settings(max_examples=300, deadline=None)
@given(quads64)
def test_quad_centre_is_numpys_mean_of_the_corners(quad):
    assert tuple(quad_centre(quad)) == tuple(quad.mean(axis=0))
    single = quad.astype(np.float32)  # numpy sums float32 corners in float32: left to numpy
    assert np.array_equal(quad_centre(single), single.mean(axis=0))


@settings(max_examples=300, deadline=None)
@given(quads64)
def test_side_lengths_in_floats_are_numpys(quad):
    steps = quad[[1, 2, 3, 2]] - quad[[0, 3, 0, 1]]
    top, bottom, left, right = np.sqrt((steps * steps).sum(axis=1)).tolist()
    assert mean_sides(quad) == ((top + bottom) / 2, (left + right) / 2)
    assert shortest_side(quad) == min(np.linalg.norm(quad - rolled(quad, -1), axis=1))


def _card_shaped_plainly(card):
    """`card_shaped` as stop 43 computed it, on arrays."""
    sides = card - rolled(card, 1)
    lengths = np.sqrt((sides * sides).sum(axis=1))
    if lengths.min() < 1e-6:
        return False
    cosines = -(sides * rolled(sides, -1)).sum(axis=1) / (lengths * rolled(lengths, -1))
    if np.abs(cosines).max() > _MAX_CORNER_COSINE:
        return False
    if max(lengths[0] / lengths[2], lengths[2] / lengths[0], lengths[1] / lengths[3], lengths[3] / lengths[1]) > \
            MAX_OPPOSITE_RATIO:
        return False
    aspect = (lengths[1] + lengths[3]) / (lengths[0] + lengths[2]) / CARD_ASPECT
    return bool(MIN_ASPECT < aspect < 1 / MIN_ASPECT)


@settings(max_examples=300, deadline=None)
@given(st.floats(50, 400), st.floats(0, 2 * np.pi), st.sampled_from([0.62, 0.64, 0.7, 1.0]),
       arrays(np.float64, (4, 2), elements=st.floats(-40, 40, width=64)))
def test_card_shaped_in_floats_judges_as_the_array_formula(width, angle, proportion, jitter):
    # Cards as a camera may show them, and shapes no card has: both answers come up.
    along = np.array([np.cos(angle), np.sin(angle)]) * width
    across = np.array([-along[1], along[0]]) * proportion
    card = np.array([[500.0, 500.0], 500 + along, 500 + along + across, 500 + across]) + jitter
    assert card_shaped(card) == _card_shaped_plainly(card)


def _refined_as_stop_69_did(gray, quad, reach):
    """`refine_at_full_resolution` as stop 69 computed it: each side's points and line as numpy rows and scalars."""
    import math

    import cv2

    from vision.detect import _SNAP_AT, SNAP_SAMPLES, _sides
    from vision.placements import intersect

    offsets = _snap_offsets(reach)
    sides = _sides(quad)
    if sides is None:
        return quad
    starts, directions, normals, lengths = sides
    bases = starts[:, None, :] + (_SNAP_AT[None, :] * lengths[:, None])[..., None] * directions[:, None, :]
    maps = [(bases[:, :, None, axis] + offsets * normals[:, None, None, axis]).astype(np.float32)
            .reshape(4 * SNAP_SAMPLES, len(offsets)) for axis in (0, 1)]
    profiles = cv2.remap(gray, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    steps = cv2.absdiff(profiles[:, 1:], profiles[:, :-1]).reshape(4, SNAP_SAMPLES, len(offsets) - 1)
    best = steps.argmax(axis=2)
    strong = steps.max(axis=2) > 8
    moved = (bases + ((offsets[best] + offsets[best + 1]) / 2)[..., None] * normals[:, None, :]).astype(np.float32)
    lines = []
    for a, direction, side_moved, side_strong in zip(starts, directions, moved, strong):
        if side_strong.sum() < 4:
            lines.append((a, direction))
            continue
        vx, vy, x0, y0 = cv2.fitLine(side_moved[side_strong], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append(((x0, y0), (vx, vy)))
    refined = []
    for i in range(4):
        corner = intersect(lines[i - 1], lines[i])
        if corner is None or math.hypot(*(corner - quad[i])) > 2 * reach:
            return quad
        refined.append(corner)
    return np.array(refined)


@settings(max_examples=120, deadline=None)
@given(st.integers(0, 2**32 - 1), st.floats(-0.6, 0.6), st.floats(-12, 12), st.floats(-12, 12),
       st.sampled_from([2.5, 3.8, 11.25, 23.0]), st.sampled_from([np.float64, np.float32]))
def test_snapping_moves_a_card_as_stop_69s_formula_does(seed, angle, shift_x, shift_y, reach, number_type):
    """Stop 70 snaps with the lines as plain numbers and the steps' midpoints cached: the same corners, to the last
    bit, on a card drawn into noise and laid a little off, turned and at either float width (reach and corners)."""
    import cv2

    from vision.detect import refine_at_full_resolution

    rng = np.random.default_rng(seed)
    gray = rng.integers(40, 90, (360, 480), dtype=np.uint8)
    cos, sin = np.cos(angle), np.sin(angle)
    card = np.array([[-110, -70], [110, -70], [110, 70], [-110, 70]], np.float64) @ [[cos, sin], [-sin, cos]]
    card += (240, 180)
    cv2.fillConvexPoly(gray, card.round().astype(np.int32), int(rng.integers(150, 250)))
    gray = cv2.GaussianBlur(gray, (3, 3), 0)
    laid = (card + (shift_x, shift_y)).astype(number_type)
    reach = number_type(reach)
    assert np.array_equal(refine_at_full_resolution(gray, laid, reach), _refined_as_stop_69_did(gray, laid, reach))
