"""From a card's four image corners to a feature vector: the badge and icon as gradient and brightness patterns,
and the legion tint as white-balanced colour statistics."""
from __future__ import annotations

import functools
import math
from typing import NamedTuple

import numpy as np

from .cards import CARD_HEIGHT, CARD_WIDTH
from .layout import BADGE_BOX, EMBLEM_BOX, ICON_BOX, STRIPE_BOX


HIGHLIGHT_SIZE = (58, 62)  # badge warped at 0.4 px per scan pixel for the part highlights


# The badge is found again inside each card by matching its mean white figure: scans are cut up to 25 scan pixels
# differently and detected corners put it 10-35 pixels off, while a part's highlight is only about 30 across.
ALIGN_SCALE = 0.25  # template pixels per scan pixel
ALIGN_REACH = 60  # scan pixels the badge is looked for around where the corners put it (the model is trained at it)
ALIGN_MIN_MATCH = 0.3  # a weaker best match (glare, a hand, not a card) leaves the card as it is
# A match within this many template pixels (4 scan pixels each) of the best one is the same figure seen a little off;
# the best match beyond them is what `BadgeFit.lead` is counted from.
LEAD_REACH = 4
BADGE_TEMPLATE_SIZE = (int((BADGE_BOX[2] - BADGE_BOX[0]) * ALIGN_SCALE),  # width, height
                       int((BADGE_BOX[3] - BADGE_BOX[1]) * ALIGN_SCALE))


def _silhouette_layout() -> tuple[dict, int, dict | None, np.ndarray | None]:
    """Part centres, disc radius, part weight maps and the badge's mean figure, as vision.learn_layout wrote them."""
    import json
    from pathlib import Path

    path = Path(__file__).resolve().parent / "params" / "silhouette.json"
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        centres = {k: tuple(v) for k, v in data["part_centres"].items()}
        templates = {k: np.asarray(v, np.float32).ravel() for k, v in data.get("part_templates", {}).items()}
        if any(t.size != HIGHLIGHT_SIZE[0] * HIGHLIGHT_SIZE[1] for t in templates.values()):
            templates = {}
        badge = np.asarray(data.get("badge_template", []), np.float32)
        if badge.shape != BADGE_TEMPLATE_SIZE[::-1]:
            badge = None
        return centres, int(data["radius"]), templates or None, badge
    except (OSError, ValueError, KeyError, TypeError):
        # Measured once by vision.learn_layout; used when the file is missing.
        return {"legs": (912, 131), "torso": (937, 112), "head": (953, 88)}, 16, None, None


PART_CENTRES, PART_RADIUS, PART_TEMPLATES, BADGE_TEMPLATE = _silhouette_layout()

EMBLEM_SIZE = (32, 50)  # width, height of the warped emblem patch
BADGE_SIZE = (28, 30)  # the badge alone, for the silhouette's highlighted parts
ICON_SIZE = (24, 24)  # the ability icon alone, for its white shape
OVERVIEW_SIZE = (48, 31)  # the whole card, small, for colour statistics
ORIENTATION_BINS = 8
CELL = 4
# Where card_features puts the two gradient-histogram blocks the nearest-neighbour heads compare.
_EMBLEM_HOG_SIZE = (EMBLEM_SIZE[0] // CELL) * (EMBLEM_SIZE[1] // CELL) * ORIENTATION_BINS
EMBLEM_HOG = slice(0, _EMBLEM_HOG_SIZE)
# And where it puts the colour statistics the legion head reads: per region (badge, right-edge stripe, left quarter,
# whole card) the mean chromaticity (r, g, b), the same over saturated pixels, and the mean saturation.
COLOUR_REGIONS = 4
COLOUR_STATISTICS = 7
_COLOUR_START = _EMBLEM_HOG_SIZE + (EMBLEM_SIZE[0] // 2) * (EMBLEM_SIZE[1] // 2)
COLOUR = slice(_COLOUR_START, _COLOUR_START + COLOUR_REGIONS * COLOUR_STATISTICS)
_BADGE_PRINT_START = COLOUR.stop + 2  # after the colour statistics and the emblem's brightness
_SILHOUETTE_START = _BADGE_PRINT_START + BADGE_SIZE[0] * BADGE_SIZE[1]
SILHOUETTE_HOG = slice(_SILHOUETTE_START,
                       _SILHOUETTE_START + (BADGE_SIZE[0] // CELL) * (BADGE_SIZE[1] // CELL) * ORIENTATION_BINS)
PART_HIGHLIGHTS = slice(SILHOUETTE_HOG.stop, SILHOUETTE_HOG.stop + 12)  # `_part_highlights`, scaled
_ICON_START = PART_HIGHLIGHTS.stop + ICON_SIZE[0] * ICON_SIZE[1]
ICON_HOG = slice(_ICON_START, _ICON_START + (ICON_SIZE[0] // CELL) * (ICON_SIZE[1] // CELL) * ORIENTATION_BINS)
FEATURE_LENGTH = ICON_HOG.stop + 1  # the last feature is the constant 1
# What the part heads read (vision.train): the badge's white print (levels and SILHOUETTE_HOG), the part highlights
# and the constant. Where a part combination is printed says which parts it is; the art, the icon and the legion's
# colours say which card it is. Heads over every feature learned those too: cross-validated by card, 1.43% of the
# crops of cards they never saw were read with the wrong parts, against 0.70% over these (stop 49).
PART_COLUMNS = np.r_[_BADGE_PRINT_START:PART_HIGHLIGHTS.stop, FEATURE_LENGTH - 1]


_CARD_CORNERS = np.float32([[0, 0], [CARD_WIDTH, 0], [CARD_WIDTH, CARD_HEIGHT], [0, CARD_HEIGHT]])


def _card_to_image(corners: np.ndarray) -> np.ndarray:
    """The perspective map from scan pixels of the card to the frame."""
    import cv2

    return cv2.getPerspectiveTransform(_CARD_CORNERS, np.float32(corners))


@functools.lru_cache(maxsize=32)
def _box_to_card(box: tuple, size: tuple) -> np.ndarray:
    """The map from pixels of a `size` patch to the scan-pixel `box` of the card (a few boxes and sizes recur
    thousands of times a frame)."""
    x0, y0, x1, y1 = box
    width, height = size
    matrix = np.array([[(x1 - x0) / width, 0, x0], [0, (y1 - y0) / height, y0], [0, 0, 1]], np.float64)
    matrix.flags.writeable = False  # cached: no caller may change it for the others
    return matrix


def _warp(frame: np.ndarray, to_image: np.ndarray, box, size) -> np.ndarray:
    """The scan-pixel `box` of the card, resampled to `size`."""
    import cv2

    return cv2.warpPerspective(frame, to_image @ _box_to_card(tuple(box), tuple(size)), size,
                               flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP, borderMode=cv2.BORDER_REPLICATE)


def warp_box(frame: np.ndarray, corners: np.ndarray, box, size) -> np.ndarray:
    return _warp(frame, _card_to_image(corners), box, size)


def _parabola_peak(values: np.ndarray, index: int) -> float:
    """Where the parabola through a maximum and its two neighbours peaks: the maximum to a fraction of a pixel."""
    if 0 < index < len(values) - 1:
        left, middle, right = float(values[index - 1]), float(values[index]), float(values[index + 1])
        curvature = left - 2 * middle + right
        if curvature < 0:
            return index + 0.5 * (left - right) / curvature
    return float(index)


class BadgeFit(NamedTuple):
    """How the badge corner of a card matched the printed badge figure."""

    match: float  # the best normalised correlation (NaN for a flat region; 1 with no learned figure to compare with)
    offset: np.ndarray  # where the figure lies from where the card's corners put it, as `badge_offset`
    # How far the best match stands above the best one elsewhere in the search area (beyond LEAD_REACH of it); 0 for a
    # match below ALIGN_MIN_MATCH. A printed badge has no twin within the reach; stripes, checks and grain match the
    # figure about as well at several places, as does art that only resembles it in passing.
    lead: float


def badge_offset(frame: np.ndarray, to_image: np.ndarray, template: np.ndarray | None = None,
                 reach: int | None = None) -> np.ndarray:
    """How far, in scan pixels, the badge's white figure lies from where the card's corners put it (looked for
    within `reach` scan pixels, ALIGN_REACH unless given); (0, 0) when nothing there looks clearly like it."""
    return _badge_match(frame, to_image, template, reach).offset


def badge_fit(frame: np.ndarray, corners: np.ndarray) -> BadgeFit:
    """How much the badge corner of the card at `corners` looks like the printed badge figure, where, and how
    distinctly (`BadgeFit`)."""
    return _badge_match(frame, _card_to_image(np.asarray(corners, np.float64)))


def _badge_match(frame: np.ndarray, to_image: np.ndarray, template: np.ndarray | None = None,
                 reach: int | None = None) -> BadgeFit:
    """The best correlation of the badge's white figure near where the card's map puts it, its offset and its
    lead (`BadgeFit`)."""
    import cv2

    template = BADGE_TEMPLATE if template is None else template
    reach = ALIGN_REACH if reach is None else reach
    if template is None:
        return BadgeFit(1.0, np.zeros(2), 1.0)
    box, size, (reach_x, reach_y), (scale_x, scale_y) = _badge_search_area(template.shape, reach)
    region = _warp(frame, to_image, box, size)
    if region.ndim == 3:
        region = _channel_min(region)
    response = cv2.matchTemplate(region.astype(np.float32), template, cv2.TM_CCOEFF_NORMED)
    _, best, _, (column, row) = cv2.minMaxLoc(response)
    if not best >= ALIGN_MIN_MATCH:  # also NaN: minMaxLoc gives it where any window of the region is flat
        return BadgeFit(best, np.zeros(2), 0.0)  # too weak to place the badge, and so to lead
    offset = np.array([(_parabola_peak(response[row], column) - reach_x) / scale_x,
                       (_parabola_peak(response[:, column], row) - reach_y) / scale_y])
    # What is left of the response once the best match's neighbourhood is taken out (the response is done with).
    response[max(0, row - LEAD_REACH):row + LEAD_REACH + 1, max(0, column - LEAD_REACH):column + LEAD_REACH + 1] = -1.0
    return BadgeFit(best, offset, best - cv2.minMaxLoc(response)[1])


@functools.lru_cache(maxsize=8)
def _badge_search_area(template_shape: tuple[int, int], reach: int):
    """Where `_badge_match` looks for a badge figure of that shape within `reach` scan pixels: the scan-pixel box,
    the patch size it is warped to, the reach and the scale in template pixels (x, y)."""
    x0, y0, x1, y1 = BADGE_BOX
    height, width = template_shape
    scale_x, scale_y = width / (x1 - x0), height / (y1 - y0)
    reach_x, reach_y = round(reach * scale_x), round(reach * scale_y)
    box = (x0 - reach_x / scale_x, y0 - reach_y / scale_y, x1 + reach_x / scale_x, y1 + reach_y / scale_y)
    return box, (width + 2 * reach_x, height + 2 * reach_y), (reach_x, reach_y), (scale_x, scale_y)


def _shifted(to_image: np.ndarray, offset: np.ndarray) -> np.ndarray:
    """The card-to-frame map of a card whose print sits `offset` scan pixels away from where the map put it."""
    return to_image @ np.array([[1, 0, offset[0]], [0, 1, offset[1]], [0, 0, 1]], np.float64)


@functools.lru_cache(maxsize=8)
def _first_bins(height: int, width: int) -> np.ndarray:
    """Per pixel of a patch that size: the first histogram bin of its cell (the patches come in two sizes)."""
    cells_y, cells_x = height // CELL, width // CELL
    cell_index = (np.arange(height)[:, None] // CELL).clip(0, cells_y - 1) * cells_x + \
        (np.arange(width)[None, :] // CELL).clip(0, cells_x - 1)
    return cell_index * ORIENTATION_BINS


def _gradient_histograms(gray: np.ndarray) -> np.ndarray:
    import cv2

    gx = cv2.Sobel(gray, cv2.CV_32F, 1, 0, ksize=3)
    gy = cv2.Sobel(gray, cv2.CV_32F, 0, 1, ksize=3)
    magnitude, angle = cv2.cartToPolar(gx, gy)
    bins = (angle * (ORIENTATION_BINS / (2 * np.pi))).astype(np.int32)
    bins &= ORIENTATION_BINS - 1  # angles are never negative, so this is the bin count's modulo, in one pass
    height, width = gray.shape
    bins += _first_bins(height, width)
    hist = np.bincount(bins.ravel(), weights=magnitude.ravel(),
                       minlength=(height // CELL) * (width // CELL) * ORIENTATION_BINS)
    hist = np.sqrt(hist)
    return hist / (math.sqrt(hist.dot(hist)) + 1e-6)  # np.linalg.norm's own sum, without its checks


def _standardised(values: np.ndarray) -> tuple[np.ndarray, float, float]:
    """(values - mean) / (std + 1e-3) of a float32 array, with its mean and standard deviation: the same numbers
    to the last bit as numpy's mean() and std() (the same sums, rounded the same way), for half the calls."""
    count = np.intp(values.size)
    total = np.add.reduce(values, axis=None)
    mean = total.dtype.type(total / count)
    centred = values - mean
    squares = np.add.reduce(centred * centred, axis=None)
    std = squares.dtype.type(np.sqrt(squares.dtype.type(squares / count)))
    return centred / (std + 1e-3), mean, std


def _channel_min(pixels: np.ndarray) -> np.ndarray:
    """Minimum over the last axis of three channels; numpy's min(axis=-1) is ten times slower on such a short
    axis."""
    return np.minimum(np.minimum(pixels[..., 0], pixels[..., 1]), pixels[..., 2])


def least_channel(frame: np.ndarray, buffers: list[np.ndarray] | None = None) -> np.ndarray:
    """The least of each pixel's channels (a BGR uint8 frame's): white print (the badge's figure, the parts, the
    ability icon) is bright in all three, the art and the legion's colour are not. A grey frame is its own. Warping
    this one channel costs half of warping three and taking their least. `buffers`, if given, are four uint8 arrays of
    the frame's height and width to work in, the last of which is returned and the first three of which are left
    holding the frame's blue, green and red channels (the detector halves those): kept from frame to frame, they spare
    allocating whole frames, which costs several times the arithmetic in page faults."""
    import cv2

    if frame.ndim == 2:
        return frame
    *channels, least = least_channel_buffers(frame.shape[:2]) if buffers is None else buffers
    blue, green, red = cv2.split(frame, channels)
    cv2.min(blue, green, dst=least)
    return cv2.min(least, red, dst=least)


def least_channel_buffers(shape: tuple[int, int]) -> list[np.ndarray]:
    """The four arrays `least_channel` works in, for frames of that height and width."""
    return [np.empty(shape, np.uint8) for _ in range(4)]


def _chroma_stats(regions: list[np.ndarray], white: np.ndarray) -> np.ndarray:
    """Per region: mean chromaticity (normalised r, g, b), the same over its saturated pixels, and mean saturation,
    after white balance. All regions in one pass, one channel to a row: they are tiny, numpy calls cost more than the
    arithmetic, and a short channel axis is slow to work along."""
    sizes = [r.shape[0] * r.shape[1] for r in regions]
    pixels = np.concatenate([r.reshape(-1, 3) for r in regions])
    balanced = np.empty((3, len(pixels)), np.float32)
    balanced[...] = pixels.T
    balanced /= white[:, None]
    total = balanced[0] + balanced[1]  # summed in numpy's order over a pixel's channels, to the last bit
    total += balanced[2]
    total += 1e-3
    chroma = balanced / total
    saturation = _channel_min(chroma.T)
    saturation *= 3
    np.subtract(1, saturation, out=saturation)
    weights = np.clip(saturation - 0.15, 0, None)
    # The regions lie one after another, so one segmented sum gives every region's totals at once.
    rows = np.empty((8, len(pixels)), np.float64)
    rows[:3] = chroma
    np.multiply(chroma, weights, out=rows[3:6])
    rows[6] = saturation
    rows[7] = weights
    starts = np.zeros(len(sizes), np.intp)
    np.cumsum(sizes[:-1], out=starts[1:])
    totals = np.add.reduceat(rows, starts, axis=1)
    count = np.array(sizes, np.float64)
    stats = np.empty((len(sizes), 7))
    stats[:, :3] = (totals[:3] / count).T
    stats[:, 3:6] = (totals[3:6] / (totals[7] + 1e-3)).T
    stats[:, 6] = totals[6] / count
    return stats.ravel()


# The features card_features has computed at each of its looks, as indices into its vector: first the emblem's
# gradient histograms and coarse levels and the badge's white print (a third of the cost, most of the card head's
# score), then everything but the part highlights and the icon's print (two thirds of the cost).
LOOKS = (np.r_[0:COLOUR.start, COLOUR.stop + 2:SILHOUETTE_HOG.stop], np.arange(SILHOUETTE_HOG.stop))


def card_features(frame: np.ndarray, corners: np.ndarray, badge: np.ndarray | None = None,
                  give_up=None, least: np.ndarray | None = None) -> np.ndarray | None:
    """The feature vector of the card whose own TL, TR, BR, BL corners lie at `corners` in a BGR uint8 frame.
    `badge` is the badge's offset, if `badge_fit` has found it already. `give_up(look, features)`, if given, is
    shown the features computed by each look (LOOKS[look], in that order) and may stop there by returning True:
    then None. `least` is the frame's `least_channel`, if the caller has it already."""
    import cv2

    corners = np.asarray(corners, np.float64)
    width_px = np.linalg.norm(corners[1] - corners[0])
    to_image = _card_to_image(corners)  # one map for the card's colours
    least = least_channel(frame) if least is None else least
    if badge is None:
        badge = badge_offset(least, to_image)
    emblem_map = _shifted(to_image, badge)  # and one for its badge and icon
    shrink = width_px / CARD_WIDTH * (EMBLEM_BOX[2] - EMBLEM_BOX[0]) / EMBLEM_SIZE[0]
    if shrink > 1.6:
        # Big cards: warp at double size and area-downscale, which avoids aliasing without blurring the frame.
        big = _warp(frame, emblem_map, EMBLEM_BOX, (EMBLEM_SIZE[0] * 2, EMBLEM_SIZE[1] * 2))
        emblem = cv2.resize(big, EMBLEM_SIZE, interpolation=cv2.INTER_AREA)
    else:
        emblem = _warp(frame, emblem_map, EMBLEM_BOX, EMBLEM_SIZE)
    gray = cv2.cvtColor(emblem, cv2.COLOR_BGR2GRAY).astype(np.float32)
    normalised, gray_mean, gray_std = _standardised(gray)
    coarse = cv2.resize(normalised, (EMBLEM_SIZE[0] // 2, EMBLEM_SIZE[1] // 2), interpolation=cv2.INTER_AREA)
    emblem_gradients = _gradient_histograms(normalised)
    badge_print = _white_print(least, emblem_map, shrink, BADGE_BOX, BADGE_SIZE)
    if give_up is not None and give_up(
            0, np.concatenate([emblem_gradients, coarse.ravel() * 0.05, badge_print]).astype(np.float32)):
        return None
    overview = _warp(frame, to_image, (0, 0, CARD_WIDTH, CARD_HEIGHT), OVERVIEW_SIZE)
    pixels = emblem.reshape(-1, 3)
    rank = int(0.97 * (len(pixels) - 1))
    white = np.partition(pixels, rank, axis=0)[rank].astype(np.float32) + 1.0
    ex0, ey0, ex1, ey1 = EMBLEM_BOX
    bx0, by0, bx1, by1 = BADGE_BOX
    sx = EMBLEM_SIZE[0] / (ex1 - ex0)
    sy = EMBLEM_SIZE[1] / (ey1 - ey0)
    badge = emblem[int((by0 - ey0) * sy):int((by1 - ey0) * sy), int((bx0 - ex0) * sx):int((bx1 - ex0) * sx)]
    ox = OVERVIEW_SIZE[0] / CARD_WIDTH
    stripe = overview[:, int(STRIPE_BOX[0] * ox):]
    left = overview[:, : OVERVIEW_SIZE[0] // 4]
    colour = _chroma_stats([badge, stripe, left, overview], white)
    brightness = np.array([gray_mean / 255, gray_std / 128])
    looked = np.concatenate([emblem_gradients, coarse.ravel() * 0.05, colour * 2.0, brightness, badge_print]
                            ).astype(np.float32)
    if give_up is not None and give_up(1, looked):
        return None
    return np.concatenate([looked, _part_highlights(least, emblem_map) * 3.0,
                           _white_print(least, emblem_map, shrink, ICON_BOX, ICON_SIZE), [1.0]]).astype(np.float32)


# The badge's outline (coffin, spiky fur, insect, wavy blob) tells the legion whatever colours the camera gives it:
# its saturation and brightness patterns, and the emblem's grey gradients over the badge (the rows of EMBLEM_HOG down
# to the badge's bottom edge), for `vision.model.CardModel`'s badge shape head.
BADGE_SHAPE_SIZE = (48, 52)  # about one pixel per frame pixel for the widest cards (330 px)
_BADGE_ROWS = round((BADGE_BOX[3] - EMBLEM_BOX[1]) / (EMBLEM_BOX[3] - EMBLEM_BOX[1]) * EMBLEM_SIZE[1] / CELL)
_BADGE_EMBLEM_LENGTH = _BADGE_ROWS * (EMBLEM_SIZE[0] // CELL) * ORIENTATION_BINS
BADGE_SHAPE_LENGTH = 2 * (BADGE_SHAPE_SIZE[0] // CELL) * (BADGE_SHAPE_SIZE[1] // CELL) * ORIENTATION_BINS + \
    _BADGE_EMBLEM_LENGTH + 1


def badge_shape(frame: np.ndarray, corners: np.ndarray, features: np.ndarray, badge: np.ndarray | None = None
                ) -> np.ndarray:
    """What the badge shape head reads of the card at `corners` (TL, TR, BR, BL): gradient histograms of the badge's
    saturation and brightness (which turning the hues leaves as they are) and the emblem's grey gradients over the
    badge from `features` (its card_features row), as one unit vector, and a constant. `badge` is the badge's offset,
    if `badge_fit` has found it already."""
    import cv2

    to_image = _card_to_image(np.asarray(corners, np.float64))
    if badge is None:
        badge = badge_offset(least_channel(frame), to_image)  # where the pipeline finds it
    patch = _warp(frame, _shifted(to_image, badge), BADGE_BOX, BADGE_SHAPE_SIZE)
    hsv = cv2.cvtColor(patch, cv2.COLOR_BGR2HSV)
    emblem_rows = np.asarray(features, np.float32)[EMBLEM_HOG.start:EMBLEM_HOG.start + _BADGE_EMBLEM_LENGTH]
    shape = np.concatenate([_gradient_histograms(_standardised(hsv[..., 1].astype(np.float32))[0]),
                            _gradient_histograms(_standardised(hsv[..., 2].astype(np.float32))[0]), emblem_rows])
    return np.append(shape / (math.sqrt(float(shape.dot(shape))) + 1e-9), 1.0).astype(np.float32)


def _part_masks() -> dict[str, np.ndarray]:
    x0, y0, x1, y1 = BADGE_BOX
    sx = HIGHLIGHT_SIZE[0] / (x1 - x0)
    sy = HIGHLIGHT_SIZE[1] / (y1 - y0)
    ys, xs = np.mgrid[0:HIGHLIGHT_SIZE[1], 0:HIGHLIGHT_SIZE[0]]
    masks = {}
    for part, (cx, cy) in PART_CENTRES.items():
        distance = np.hypot((xs + 0.5) / sx + x0 - cx, (ys + 0.5) / sy + y0 - cy)
        masks[part] = distance <= PART_RADIUS
    return masks


PART_MASKS = _part_masks()
PART_PIXELS = {part: np.flatnonzero(mask) for part, mask in PART_MASKS.items()}  # flat indices: faster to gather


def _part_highlights(least: np.ndarray, to_image: np.ndarray) -> np.ndarray:
    """How white each body part of the silhouette is, relative to the badge and to the whitest pixels: pooled
    over a disc, so a few pixels of corner error do not matter. `least` is the frame's `least_channel`."""
    # Order statistics are taken of the whole levels, which are quicker to partition and convert to floats exactly.
    levels_8bit = _warp(least, to_image, BADGE_BOX, HIGHLIGHT_SIZE).ravel()
    whiteness = levels_8bit.astype(np.float32)
    middle, top = len(whiteness) // 2, int(0.99 * (len(whiteness) - 1))
    ordered = np.partition(levels_8bit, (middle, top))
    background = float(ordered[middle])
    scale = float(ordered[top]) - background + 1.0
    levels = []
    for part in ("legs", "torso", "head"):
        values = levels_8bit[PART_PIXELS[part]]
        rank = int(0.9 * (len(values) - 1))
        levels.append((float(np.partition(values, rank)[rank]) - background) / scale)
    levels = np.array(levels)
    differences = np.array([levels[0] - levels[1], levels[1] - levels[2], levels[0] - levels[2]])
    # The same over each part's own shape, learned from the training scans (vision.learn_layout).
    normalised = (whiteness - background) / scale
    shaped = np.array([float(normalised @ PART_TEMPLATES[part]) if PART_TEMPLATES else 0.0
                       for part in ("legs", "torso", "head")])
    shaped_differences = np.array([shaped[0] - shaped[1], shaped[1] - shaped[2], shaped[0] - shaped[2]])
    return np.concatenate([levels, differences, shaped, shaped_differences])


def _white_print(least: np.ndarray, to_image: np.ndarray, shrink: float, box, size) -> np.ndarray:
    """The white print in a box of the card (the badge's figure, whose brightest limbs are the card's parts, or the
    ability icon), whatever the art behind it: the least-saturated bright pixels (of the frame's `least_channel`),
    as levels and gradient histograms."""
    import cv2

    if shrink < 1.6:
        whiteness = _warp(least, to_image, box, size).astype(np.float32)
    else:
        patch = _warp(least, to_image, box, (size[0] * 2, size[1] * 2)).astype(np.float32)
        whiteness = cv2.resize(patch, size, interpolation=cv2.INTER_AREA)
    whiteness = _standardised(whiteness)[0]
    return np.concatenate([whiteness.ravel() * 0.05, _gradient_histograms(whiteness) * 0.7])


# The icon's white print, counted against the card's own white: the badge figure's brightest pixels (its 98th
# percentile of the least channel) and the badge's middle level, warped at about a quarter of scan resolution.
PRINT_SIZE = {"badge": (36, 38), "icon": (35, 33)}
PRINT_LEVEL = 0.6  # a pixel of the icon's place this far from the badge's middle level to its white counts as print


def icon_print_share(frame: np.ndarray, corners: np.ndarray, badge: np.ndarray | None = None) -> float:
    """The share of the ability icon's place that is as white as the badge's printed figure (PRINT_LEVEL of the
    way from the badge's middle level to its white). Every ability icon is printed white; the art behind it, where a
    card has none, is rarely that white. NaN where the badge has no white to compare with. `badge` is the badge's
    offset, if `badge_fit` has found it already. `frame` may be the frame's `least_channel` already (its own)."""
    least = least_channel(frame)
    to_image = _card_to_image(np.asarray(corners, np.float64))
    to_image = _shifted(to_image, _badge_match(least, to_image).offset if badge is None else badge)
    badge = _warp(least, to_image, BADGE_BOX, PRINT_SIZE["badge"]).astype(np.float32)
    icon = _warp(least, to_image, ICON_BOX, PRINT_SIZE["icon"]).astype(np.float32)
    middle, white = np.percentile(badge, (50, 98))
    if white - middle < 1:
        return float("nan")
    return float(np.count_nonzero(icon >= middle + PRINT_LEVEL * (white - middle)) / icon.size)
