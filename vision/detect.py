"""Find card-shaped quads in a frame: single cards and columns of abutting cards, at any rotation.

Edges are found on a reduced copy of the frame; closed outlines whose convex hull is close to a quadrilateral are
kept, largest first, so a column's outline wins over the seams inside it; an outline with one corner cut off (by
glare, or dark art on a dark table) is offered last, with that corner put back. Splitting a column into cards is
left to the pipeline, which tries the plausible splits and keeps the one the classifier believes.
"""
from __future__ import annotations

import functools
import itertools
import math
from typing import NamedTuple

import numpy as np

from .cards import CARD_ASPECT
from .frames import block_means, border_values
from .pattern import card_mask, find_pattern, without_pattern
from .placements import Corner, inside_any, intersect, quad_centre, rolled, shortest_side

WORK_LONG_SIDE = 640  # detection runs on a copy about this wide
MIN_CARD_FRACTION = 0.045
# Detail energy (mean squared high-pass over local brightness) of the frame border above which the table counts as
# finely patterned, and the fraction of it
# below which a region counts as smooth card.
PATTERNED_TABLE_ENERGY = 0.0035
MAX_STRETCH = 2.5  # at most this brightening of a dim frame before edge detection
MIN_STRETCH = 1.1  # frames that need less are left alone (brightening costs edges, and so time)
CORNER_EPSILON = 0.01  # outline simplification for corner finding, as a share of the perimeter
MAX_CORNER_COSINE = 0.5  # corners between 60 and 120 degrees count as right angles seen through a tilt
MAX_CORNERS = 16  # corners of non-quad outlines handed on per frame
# Corners of regions of colours the table lacks that outline no quad, handed on besides those, per frame: creatures
# pushed together in an L on a table of their own colours, whose edges the table's grain drowns.
OFF_TABLE_CORNERS = 4
FRAME_EDGE = 2  # pixels of the reduced frame within which a point lies on its edge
SNAP_SAMPLES = 14  # points per side at which refine_at_full_resolution looks for the strongest step
_SNAP_AT = np.linspace(0.15, 0.85, SNAP_SAMPLES)  # where along each side, as a share of its length
_SPARSE_SIDE_AT = np.array([0.25, 0.5, 0.75])[:, None]  # where _refine_quad samples a side with too few hull points
_QUARTER_TURN = np.array([-1.0, 1.0])  # (y, x) times this is (-y, x); multiplying by one is exact
# An outline broken at a corner is read from its hull as traced when opening it loses this much of its area, and
# if that hull is at least this many times the smallest card's area (smaller ones are art and table).
BROKEN_OUTLINE_LOSS = 0.05
BROKEN_OUTLINE_MIN_AREA = 3.0
SMOOTH_FRACTION = 0.3  # the smallest card width we look for, as a fraction of the frame's long side
OFF_TABLE_SOLIDITY = 0.7  # a region of colours the table lacks must fill this share of its hull to be a quad
DUPLICATE_REACH = 0.15  # quads whose corners all lie this close (in short sides) are one outline found twice
CUT_CORNER_SIDE = 0.7  # a five-sided hull's shortest side, at most this share of the next shortest, is a cut corner
# An outline that fills less than this share of its hull, though the hull is a quad, may be creatures pushed together
# in an L or a cross: its corners are offered too (a column's outline, whiskers and all, fills more).
PUSHED_TOGETHER_FILL = 0.9
RESTORED_SUPPORT = 0.5  # a quad with its lost corner put back must lie this much on edges (the cut side does not)
# An outline filling this share of its convex hull has no whisker worth opening away (a whisker adds little area but
# much hull): it is taken as it is. Opening it would cost a drawing, an opening and a tracing of its box, and round
# its corners, which `_refine_quad` leaves out anyway. Most cards' outlines are such; table grain and art are not.
SOLID_OUTLINE = 0.97


class Outlines(NamedTuple):
    quads: list[np.ndarray]  # card or column outlines, largest first
    # Right-angled corners of larger outlines that are no quad, and of smooth or off-pattern regions (a column
    # merged with an arm).
    corners: list[Corner]
    # How far (full-frame pixels) each quad's sides are still to be snapped onto the full-resolution frame's edges
    # (`refine_at_full_resolution`), when `find_outlines` was asked to leave that to its caller; 0 when it has done so
    # or none is needed.
    snap_reach: float = 0.0
    # Where the frame's colours are ones its border (the table) lacks, at the detector's reduced size (255 there, 0
    # elsewhere; `_off_table_contours`); None where not worked out.
    off_table: np.ndarray | None = None
    # Right-angled corners of the regions of such colours that outline no quad (OFF_TABLE_CORNERS), none at the place
    # of one of `corners`.
    off_table_corners: list[Corner] | tuple = ()


def _order_quad(quad: np.ndarray) -> np.ndarray:
    """Clockwise order (in image coordinates) starting from the point nearest the top-left."""
    centre = np.add.reduce(quad, axis=0) / len(quad)  # quad.mean(axis=0), without its wrapper's overhead
    angles = np.arctan2(quad[:, 1] - centre[1], quad[:, 0] - centre[0])
    quad = quad[np.argsort(angles)]
    start = int(np.argmin(quad.sum(axis=1)))
    return rolled(quad, -start)


def _sides(quad: np.ndarray):
    """The quad's sides (side i runs from corner i to corner i + 1) as four arrays: starts, unit directions, unit
    normals and lengths; None if a side is degenerate. As arrays, not per side: this runs a few hundred times a
    frame, where numpy's per-call overhead is most of the cost."""
    steps = rolled(quad, -1) - quad
    lengths = np.sqrt((steps * steps).sum(axis=1))
    if lengths.min() < 1e-6:
        return None
    directions = steps / lengths[:, None]
    normals = directions[:, ::-1] * _QUARTER_TURN
    return quad, directions, normals, lengths


def _refine_quad(hull: np.ndarray, quad: np.ndarray) -> np.ndarray:
    """Fit a line to the hull points along each side and intersect neighbours: rounded corners then do not pull
    the corners inwards."""
    import cv2

    points = hull.reshape(-1, 2).astype(np.float32)
    sides = _sides(quad)
    if sides is None:
        return quad
    starts, directions, normals, lengths = sides
    relative = points[None, :, :] - starts[:, None, :]  # per side, every hull point from the side's start
    alongs = (relative @ directions[:, :, None])[..., 0]
    distances = np.abs(relative @ normals[:, :, None])[..., 0]
    # Keep the middle of each side: the rounded corners are at the ends.
    near_side = (distances < np.maximum(2.0, 0.03 * lengths)[:, None]) & (alongs > 0.15 * lengths[:, None]) & \
        (alongs < 0.85 * lengths[:, None])
    lines = []
    for a, direction, length, near_mask in zip(starts, directions, lengths, near_side):
        near = points[near_mask]
        if len(near) < 2:
            # Hull points are sparse along straight sides: sample the side itself.
            near = (a + direction * length * _SPARSE_SIDE_AT).astype(np.float32)
        vx, vy, x0, y0 = cv2.fitLine(near, cv2.DIST_HUBER, 0, 0.01, 0.01).ravel()
        lines.append(((x0, y0), (vx, vy)))  # intersect reads lines as pairs of numbers
    refined = []
    for i in range(4):
        corner = intersect(lines[i - 1], lines[i])
        if corner is None:
            return quad
        refined.append(corner)
    refined = np.array(refined)
    if np.abs(refined - quad).max() > 0.08 * lengths[0] + 3:
        return quad
    return refined


def _edge_support(edges: np.ndarray, quad: np.ndarray, samples_per_side: int = 24) -> float:
    """Fraction of points along the quad's sides (away from the rounded corners) that lie on an edge."""
    t = _support_sample_shares(samples_per_side)
    points = (quad[:, None, :] + (rolled(quad, -1) - quad)[:, None, :] * t).reshape(-1, 2)
    pixels = points.round().astype(int).clip(0, (edges.shape[1] - 1, edges.shape[0] - 1))
    return float(np.count_nonzero(edges[pixels[:, 1], pixels[:, 0]]) / len(points))


@functools.lru_cache(maxsize=4)
def _support_sample_shares(samples_per_side: int) -> np.ndarray:
    """Where along each side `_edge_support` looks, as shares of its length (shaped to broadcast over the sides)."""
    return _read_only(np.linspace(0.12, 0.88, samples_per_side)[None, :, None])


def _without_whiskers(contour, left: int, top: int, width: int, height: int) -> list:
    """The pieces of the outline (each with its area), largest first, with thin attachments (table grain, a stray
    edge touching the card, an arm's edge line joining two columns) opened away, so they do not drag the convex
    hull off the card."""
    import cv2

    mask = np.zeros((height + 6, width + 6), np.uint8)
    cv2.drawContours(mask, [contour - np.array([left - 3, top - 3])], -1, 255, cv2.FILLED)
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((7, 7), np.uint8))
    outlines, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    pieces = [(outline + np.array([left - 3, top - 3]), cv2.contourArea(outline)) for outline in outlines]
    return sorted(pieces, key=lambda piece: -piece[1])


def _quad_from_contour(contour, limits, solidity: float | None = None, pieces: list | None = None,
                       restored: list | None = None, hollow: list | None = None):
    """The area and corners of the quad the contour's largest piece outlines, if it may be a card or a column of
    cards. If `pieces` is a list, the outline's other pieces as large as the smallest card are added to it; if
    `restored` is, a quad with one corner put back is added to it where the outline had that corner cut off; if
    `hollow` is, the outline is added to it where it has a quad but fills less than PUSHED_TOGETHER_FILL of its convex
    hull (an L or a cross of cards, whose quad is the hull: its own corners are the cards')."""
    import cv2

    min_area, max_area, min_width = limits
    left, top, box_width, box_height = cv2.boundingRect(contour)
    if box_width * box_height < min_area:
        return None  # most contours are specks of texture or art: skip them cheaply
    whole_hull = cv2.convexHull(contour)
    whole_area = cv2.contourArea(whole_hull)
    if whole_area < min_area:
        return None
    filled = cv2.contourArea(contour)
    if filled >= SOLID_OUTLINE * whole_area:
        opened, hull, hull_area = contour, whole_hull, whole_area
    else:
        opened_pieces = _without_whiskers(contour, left, top, box_width, box_height)
        if not opened_pieces:
            return None
        if pieces is not None:
            pieces += [piece for piece, area in opened_pieces[1:] if area >= min_area]
        opened = opened_pieces[0][0]
        hull = cv2.convexHull(opened)
        hull_area = cv2.contourArea(hull)
    found = _quad_from_hull(opened, hull, hull_area, limits, solidity, restored)
    if found is not None and hollow is not None and filled < PUSHED_TOGETHER_FILL * whole_area:
        hollow.append(contour)
    if found is None and solidity is None and whole_area > BROKEN_OUTLINE_MIN_AREA * min_area and \
            hull_area < (1 - BROKEN_OUTLINE_LOSS) * whole_area:
        # An outline broken at a corner is no closed region, so opening keeps only the part the art closes; its
        # hull as traced may still be the card's or column's.
        found = _quad_from_hull(contour, whole_hull, whole_area, limits, solidity, restored)
    return found


def _quad_from_piece(piece, limits, solidity: float | None, restored: list | None = None):
    """`_quad_from_hull` of one of the pieces that `_quad_from_contour` split off an outline."""
    import cv2

    hull = cv2.convexHull(piece)
    return _quad_from_hull(piece, hull, cv2.contourArea(hull), limits, solidity, restored)


def _quad_from_hull(contour, hull, hull_area: float, limits, solidity: float | None, restored: list | None = None):
    """The area and corners of the quad that the contour's convex hull (of area `hull_area`) is close to, if it may
    be a card or a column of cards. Where it is not, but is a five-sided hull that such a quad with one corner cut
    off would give, that quad (with the corner put back) is added to `restored`, if that is a list."""
    import cv2

    min_area, max_area, min_width = limits
    if hull_area < min_area or hull_area > max_area:
        return None
    if solidity is not None and cv2.contourArea(contour) < solidity * hull_area:
        return None
    perimeter = cv2.arcLength(hull, True)
    quad = None
    for epsilon in (0.02, 0.03, 0.045, 0.06):
        approx = cv2.approxPolyDP(hull, epsilon * perimeter, True)
        if len(approx) == 4:
            quad = approx.reshape(4, 2).astype(np.float64)
            break
    area = _area_if_hull_fits(quad, hull_area, limits)
    if area is not None:
        return area, _refine_quad(hull, _order_quad(quad))
    if restored is not None:
        # Glare, or dark art on a dark table, can take a corner off a card's outline, and an irregular hull with a
        # sizeable corner missing fits no quad; the card's quad is its two sides beside the cut, drawn on till they
        # meet.
        quad = _cut_corner_put_back(hull, perimeter)
        area = _area_if_hull_fits(quad, hull_area, limits)
        if area is not None:
            restored.append((area, _order_quad(quad)))
    return None


def _area_if_hull_fits(quad: np.ndarray | None, hull_area: float, limits) -> float | None:
    """The quad's area, if it is a convex quad of about the hull's area with sides a card or column could have."""
    import cv2

    min_area, max_area, min_width = limits
    if quad is None or not cv2.isContourConvex(quad.astype(np.float32)):
        return None
    quad_area = cv2.contourArea(quad.astype(np.float32))
    if quad_area < min_area or not 0.85 < hull_area / quad_area < 1.2:
        return None
    steps = quad - quad[[1, 2, 3, 0]]
    sides = np.sqrt((steps * steps).sum(axis=1))
    if sides.min() < 0.5 * min_width / CARD_ASPECT or sides.max() / sides.min() > 4.2:
        return None
    return quad_area


def _cut_corner_put_back(hull, perimeter: float) -> np.ndarray | None:
    """The quad whose corner the shortest side of a five-sided hull cut off, if that side is at most CUT_CORNER_SIDE
    of the next shortest: the sides on either side of it drawn on until they meet. None if the simplified hull has
    no five sides, or no side that short."""
    import cv2

    for epsilon in (0.02, 0.03, 0.045):
        approx = cv2.approxPolyDP(hull, epsilon * perimeter, True)
        if len(approx) != 5:
            continue
        approx = approx.reshape(5, 2).astype(np.float64)
        steps = approx[[1, 2, 3, 4, 0]] - approx  # side i runs from vertex i to vertex i + 1
        lengths = np.sqrt((steps * steps).sum(axis=1))  # numpy's per-call overhead is most of the cost of norms
        cut = int(np.argmin(lengths))
        if lengths[cut] > CUT_CORNER_SIDE * np.sort(lengths)[1]:
            return None
        corner = intersect((approx[cut - 1], steps[cut - 1]), (approx[(cut + 1) % 5], steps[(cut + 1) % 5]))
        if corner is None:
            return None
        return np.array([corner if i == cut else approx[i] for i in range(5) if i != (cut + 1) % 5])
    return None


def _right_angled_corners(contour, min_side: float) -> list[Corner]:
    """The convex corners of a contour's simplified outline whose sides are both long and meet at roughly a
    right angle (as a card's do through a tilted camera)."""
    import cv2

    polygon = cv2.approxPolyDP(contour, CORNER_EPSILON * cv2.arcLength(contour, True), True).reshape(-1, 2)
    polygon = polygon.astype(np.float64)
    if len(polygon) < 4:
        return []
    turning = np.sign(cv2.contourArea(polygon.astype(np.float32), oriented=True))
    # Side lengths as one array: most vertices are the art's or the table's and fail on length alone.
    steps = np.concatenate((polygon[1:], polygon[:1])) - polygon  # from each vertex to the next
    lengths = np.sqrt((steps * steps).sum(axis=1)).tolist()
    corners = []
    for i, point in enumerate(polygon):
        back_length, ahead_length = lengths[i - 1], lengths[i]
        if min(back_length, ahead_length) < min_side:
            continue
        back, ahead = polygon[i - 1] - point, polygon[(i + 1) % len(polygon)] - point
        if abs(float(back @ ahead)) > MAX_CORNER_COSINE * back_length * ahead_length:
            continue
        if np.sign(back[0] * ahead[1] - back[1] * ahead[0]) != -turning:
            continue  # a notch (where an arm meets the column), not a corner of the region
        corners.append(Corner(point, (ahead / ahead_length, back / back_length), (ahead_length, back_length)))
    return corners


def _off_table_contours(small: np.ndarray):
    """Outlines of regions whose hue and saturation are rare along the frame's border (taken to be table), and the
    mask they outline."""
    import cv2

    hsv = cv2.cvtColor(cv2.GaussianBlur(small, (5, 5), 0), cv2.COLOR_BGR2HSV)
    height, width = small.shape[:2]
    band = max(4, int(0.05 * min(height, width)))
    border = np.zeros((height, width), np.uint8)
    border[:band] = border[-band:] = 255
    border[:, :band] = border[:, -band:] = 255
    histogram = cv2.calcHist([hsv], [0, 1], border, [30, 32], [0, 180, 0, 256])
    histogram = cv2.GaussianBlur(histogram, (3, 3), 0)
    cv2.normalize(histogram, histogram, 0, 255, cv2.NORM_MINMAX)
    table = cv2.calcBackProject([hsv], [0, 1], histogram, [0, 180, 0, 256], 1)
    # Closing fills the thin seams between the table's own colours (checks, grain) that JPEG smears into
    # colours of their own, while card-sized regions keep their shape.
    table = cv2.morphologyEx(table, cv2.MORPH_CLOSE, np.ones((7, 7), np.uint8))
    table = cv2.GaussianBlur(table, (5, 5), 0)
    mask = cv2.compare(table, 12, cv2.CMP_LT)  # 255 below 12, of any type: numpy's three passes in one
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return list(contours), mask


def _off_table_quads(small: np.ndarray, limits, support: np.ndarray, restored: list | None = None,
                     shapeless: list | None = None) -> tuple[list, np.ndarray]:
    """The (area, quad)s outlined by regions of colours the table lacks, whose sides mostly lie on `support` (the
    dilated edges); also each piece that opening splits a region into (a card touching a neighbour or an arm by a
    corner makes one region with it). Quads with a cut-off corner put back go to `restored`, if that is a list, and
    the outlines of the regions that give no quad to `shapeless`, if that is. And the mask of those regions
    (`_off_table_contours`)."""
    quads, pieces = [], []
    contours, mask = _off_table_contours(small)
    for contour in contours:
        quad = _quad_from_contour(contour, limits, solidity=OFF_TABLE_SOLIDITY, pieces=pieces, restored=restored)
        if quad is not None:
            quads.append(quad)
        elif shapeless is not None:
            shapeless.append(contour)
    for piece in pieces:
        quad = _quad_from_piece(piece, limits, OFF_TABLE_SOLIDITY, restored)
        if quad is not None:
            quads.append(quad)
    return [quad for quad in quads if _edge_support(support, quad[1]) >= 0.5], mask


def _detail_energy(gray: np.ndarray) -> np.ndarray:
    """Mean squared fine detail around each pixel, relative to the local brightness (so a shadow over the cloth
    does not make it look smooth)."""
    import cv2

    level = gray.astype(np.float32)
    local = cv2.GaussianBlur(level, (0, 0), 1.5)
    detail = (level - local) / (local + 8.0)
    return cv2.GaussianBlur(detail * detail, (0, 0), 3.0)


def _smooth_region_contours(gray: np.ndarray):
    """On a finely patterned table (checks, weave) even blurred edges fire everywhere; there, cards are the regions
    far smoother at the pattern's scale than the table along the frame border. Nothing on plain tables."""
    import cv2

    # Most tables are plain: decide that from the border strips alone (with a margin wider than the blurs reach,
    # so their values are those of the whole frame) before working over the whole frame.
    height, width = gray.shape
    band = max(4, int(0.05 * min(height, width)))
    deep = band + 16
    strips = [_detail_energy(gray[:deep])[:band], _detail_energy(gray[-deep:])[-band:],
              _detail_energy(gray[:, :deep])[:, :band], _detail_energy(gray[:, -deep:])[:, -band:]]
    border_energy = np.concatenate([strip.ravel() for strip in strips])
    if _median_below(border_energy, PATTERNED_TABLE_ENERGY):
        return []
    table_energy = float(np.median(border_energy))
    energy = _detail_energy(gray)
    mask = (energy < SMOOTH_FRACTION * table_energy).astype(np.uint8) * 255
    # Closing fills the art's own detailed spots; the final dilation gives back the rim the energy blur took
    # from each card.
    mask = cv2.morphologyEx(mask, cv2.MORPH_CLOSE, np.ones((11, 11), np.uint8))
    mask = cv2.morphologyEx(mask, cv2.MORPH_OPEN, np.ones((5, 5), np.uint8))
    mask = cv2.dilate(mask, np.ones((5, 5), np.uint8))
    contours, _ = cv2.findContours(mask, cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
    return list(contours)


def refine_at_full_resolution(gray: np.ndarray, quad: np.ndarray, reach: float) -> np.ndarray:
    """Move each side onto the strongest brightness step across it in the full-resolution frame (`gray`, uint8):
    detection runs on a reduced copy, so its corners are only good to a few full-size pixels. No corner moves more
    than twice `reach`: where one would, the quad comes back as it was (the pipeline skips unsnapped the quads that
    lie deeper than that in a card found already)."""
    import cv2

    offsets = _snap_offsets(reach)
    sides = _sides(quad)
    if sides is None:
        return quad
    starts, directions, normals, lengths = sides
    # All four sides' profiles in one remap: the per-call overhead is most of the cost at this size.
    bases = starts[:, None, :] + (_SNAP_AT[None, :] * lengths[:, None])[..., None] * directions[:, None, :]
    # The x and y maps each made whole (remap would copy strided ones; one map of x, y pairs costs more in remap),
    # and rows of pixels across each side.
    maps = [(bases[:, :, None, axis] + offsets * normals[:, None, None, axis]).astype(np.float32)
            .reshape(4 * SNAP_SAMPLES, len(offsets)) for axis in (0, 1)]
    profiles = cv2.remap(gray, maps[0], maps[1], cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)
    # Steps between neighbouring samples; on uint8 profiles, exact without converting to float.
    steps = cv2.absdiff(profiles[:, 1:], profiles[:, :-1]).reshape(4, SNAP_SAMPLES, len(offsets) - 1)
    best = steps.argmax(axis=2)
    strong = steps.max(axis=2) > 8  # the largest step is the one at `best`
    # Each strongest step's point, in fitLine's input type.
    moved = (bases + _snap_midpoints(reach)[best][..., None] * normals[:, None, :]).astype(np.float32)
    lines = []
    for side, strong_count in enumerate(strong.sum(axis=1).tolist()):
        if strong_count < 4:
            lines.append((starts[side], directions[side]))
            continue
        vx, vy, x0, y0 = cv2.fitLine(moved[side][strong[side]], cv2.DIST_HUBER, 0, 0.01, 0.01).ravel().tolist()
        lines.append(((x0, y0), (vx, vy)))  # intersect reads lines as pairs of numbers
    refined = []
    for i, (x, y) in enumerate(quad.tolist()):
        corner = intersect(lines[i - 1], lines[i])
        if corner is None or math.hypot(corner[0] - x, corner[1] - y) > 2 * reach:
            return quad
        refined.append(corner)
    return np.array(refined)


@functools.lru_cache(maxsize=64, typed=True)  # typed: a float32 reach gives float32 offsets
def _snap_offsets(reach: float) -> np.ndarray:
    """The steps across a side at which `refine_at_full_resolution` samples, in pixels. Cached: within a frame,
    find_outlines snaps every quad with the same reach."""
    return _read_only(np.linspace(-reach, reach, int(2 * reach) + 1))


@functools.lru_cache(maxsize=64, typed=True)
def _snap_midpoints(reach: float) -> np.ndarray:
    """Halfway between each two neighbouring `_snap_offsets`, where a step between their samples lies."""
    offsets = _snap_offsets(reach)
    return _read_only((offsets[:-1] + offsets[1:]) / 2)


def _read_only(array: np.ndarray) -> np.ndarray:
    """A cached array no caller can change for the others."""
    array.flags.writeable = False
    return array


def _stretched(small: np.ndarray) -> np.ndarray:
    """The reduced frame brightened so its bright end sits near white: the edge thresholds are absolute, and in a
    dim room every card outline would otherwise fall below them."""
    import cv2

    bright = _percentile_of_bytes(small[::4, ::4], 99)
    gain = min(MAX_STRETCH, 235.0 / max(bright, 1.0))
    return small if gain < MIN_STRETCH else cv2.convertScaleAbs(small, alpha=gain)


def _percentile_of_bytes(values: np.ndarray, percent: float) -> float:
    """np.percentile(values, percent) of uint8 values, to the last bit, from their histogram: a fifth of the time
    of numpy's partition for a frame's worth of pixels."""
    import cv2

    flat = np.ascontiguousarray(values).reshape(-1, 1)
    cumulative = np.cumsum(cv2.calcHist([flat], [0], None, [256], [0, 256]).ravel())
    # numpy's "linear" method: the two order statistics around (n - 1) q, and its lerp.
    virtual = (len(flat) - 1) * (percent / 100)
    below = math.floor(virtual)
    fraction = virtual - below
    low = float(np.searchsorted(cumulative, below, side="right"))
    high = float(np.searchsorted(cumulative, min(below + 1, len(flat) - 1), side="right"))
    return high - (high - low) * (1 - fraction) if fraction >= 0.5 else low + (high - low) * fraction


def _median_below(values: np.ndarray, threshold: float) -> bool:
    """Whether np.median(values) < threshold, to the last bit, from how many values lie below it: a median sorts half
    the values, a count only compares them (a hundredth of the time on a frame's border). Only where the two middle
    values of an even count lie either side of the threshold does the median itself decide."""
    below = int(np.count_nonzero(values < np.float64(threshold)))  # compared as the median is, in double precision
    half = values.size // 2
    if values.size % 2 or below != half:
        return below > half
    return float(np.median(values)) < threshold


def _border_fraction(mask: np.ndarray) -> float:
    border = border_values(mask)
    return float(np.count_nonzero(border)) / border.size


def find_quads(frame: np.ndarray) -> list[np.ndarray]:
    """Quads (4x2 float, full-frame pixels, clockwise from top-left) that may be a card or a column of cards."""
    return find_outlines(frame).quads


def reduced_for_detection(frame: np.ndarray, channels: list[np.ndarray] | None = None) -> np.ndarray:
    """The copy of the frame detection runs on, about WORK_LONG_SIDE wide. The thresholds were set on 1640x1232
    frames, which a Pi camera makes by averaging 2x2 blocks of its sensor; a larger frame is first averaged so, block by
    block, down to that size: halved by pyrDown's wider blur instead, a frame at the sensor's full resolution came out
    softer, and light cards on a light table lost their outlines (stop 78). `channels` are the frame's own, if the
    caller has split it already."""
    import cv2

    small = frame
    while max(small.shape[:2]) >= 4 * WORK_LONG_SIDE:
        small, channels = block_means(small), None
    while max(small.shape[:2]) >= 2 * WORK_LONG_SIDE:
        small, channels = _halved(small, channels), None
    if max(small.shape[:2]) > WORK_LONG_SIDE:
        factor = WORK_LONG_SIDE / max(small.shape[:2])
        small = cv2.resize(small, None, fx=factor, fy=factor, interpolation=cv2.INTER_LINEAR)
    return small


def _halved(image: np.ndarray, channels: list[np.ndarray] | None = None) -> np.ndarray:
    """pyrDown of the image (much faster than an area resize by a fractional factor), channel by channel: OpenCV halves
    a three-channel frame at a third of the speed of its channels one by one (4.0 ms against 1.4 for a 1640x1232 frame
    on this machine), to the same bytes. `channels` are the image's own, if the caller has split it already."""
    import cv2

    if image.ndim == 2:
        return cv2.pyrDown(image)
    return cv2.merge([cv2.pyrDown(channel) for channel in (cv2.split(image) if channels is None else channels)])


def find_outlines(frame: np.ndarray, full_gray: np.ndarray | None = None, snapped: bool = True,
                  channels: list[np.ndarray] | None = None) -> Outlines:
    """The quads that may be a card or a column of cards (4x2 float, full-frame pixels, clockwise from top-left),
    and the right-angled corners of larger outlines that are not quads and of the regions a patterned table does not
    explain. `full_gray` is the frame in grey, if the caller has it already. Without `snapped`, the quads' sides are
    left for the caller to snap onto the full-resolution frame (`Outlines.snap_reach`): one that reads a quad only if
    no card found already covers it snaps only those it reads. `channels` are the frame's own, if the caller has split
    it already."""
    import cv2

    height, width = frame.shape[:2]
    small = reduced_for_detection(frame, channels)
    scale = small.shape[1] / width
    patterned = _stretched(small)
    pattern = find_pattern(patterned)
    small = without_pattern(patterned, pattern) if pattern is not None else patterned
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY)
    patterned_gray = gray if small is patterned else cv2.cvtColor(patterned, cv2.COLOR_BGR2GRAY)
    chroma = cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)  # cheaper than Lab, and chroma is all we need here
    blurred = cv2.GaussianBlur(gray, (5, 5), 0)
    chroma_blurred = [cv2.GaussianBlur(chroma[..., channel], (5, 5), 0) for channel in (1, 2)]
    edges = cv2.dilate(edges_quiet_on_table(blurred, chroma_blurred), np.ones((3, 3), np.uint8))
    contours, _ = cv2.findContours(edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)

    long_side = max(small.shape[:2])
    min_width = MIN_CARD_FRACTION * long_side
    limits = (0.8 * min_width * min_width / CARD_ASPECT, 0.5 * small.shape[0] * small.shape[1], min_width)
    support = cv2.dilate(edges, np.ones((3, 3), np.uint8))
    candidates = []
    corners: list[Corner] = []
    pieces = []
    hollow = []  # outlines whose quad is only their hull: creatures pushed together, in an L or a cross
    weak = []  # quads mostly off the edges, tried after those on them
    restored = []  # quads with a corner their outline had cut off put back, tried last
    for contour in _card_sized(contours, limits[0]):
        quad = _quad_from_contour(contour, limits, pieces=pieces, restored=restored, hollow=hollow)
        if quad is None:
            corners += _large_outline_corners(contour, limits)
        elif _edge_support(support, quad[1]) >= 0.6:
            candidates.append(quad)
        else:
            weak.append(quad)  # a column whose far corner the outline cut across (dark art on a dark table)?
    # An arm's edge line can join two columns into one outline, which opening splits again: each piece may be one.
    for piece in pieces:
        quad = _quad_from_piece(piece, limits, None, restored)
        if quad is not None and _edge_support(support, quad[1]) >= 0.6:
            candidates.append(quad)
    # A fine table pattern (checks, grain) fires edges everywhere; blurred well below the card size it becomes a
    # flat colour while card outlines stay.
    coarse_edges = cv2.Canny(cv2.GaussianBlur(gray, (0, 0), 2.0), 15, 45)
    coarse_edges = cv2.dilate(coarse_edges, np.ones((3, 3), np.uint8))
    coarse_contours, _ = cv2.findContours(coarse_edges, cv2.RETR_LIST, cv2.CHAIN_APPROX_SIMPLE)
    for contour in _card_sized(coarse_contours, limits[0]):
        quad = _quad_from_contour(contour, limits, restored=restored)
        if quad is not None and _edge_support(coarse_edges, quad[1]) >= 0.6:
            candidates.append(quad)
    # Textured tables (grain, checks) break the edge outlines; there, the colours the table does not have mark
    # the cards.
    shapeless = []  # regions of such colours that outline no quad: creatures pushed together in an L, an arm
    off_table_quads, off_table = _off_table_quads(patterned, limits, support, restored, shapeless)
    candidates += off_table_quads
    # On a patterned table these regions are the cards' own outlines, and an arm lying across a row of columns joins
    # them into one region (whose hull may even be a quad): their corners are the columns' free corners.
    region_contours = []
    for contour in _smooth_region_contours(patterned_gray):
        quad = _quad_from_contour(contour, limits, solidity=0.6, restored=restored)
        if quad is not None:
            candidates.append(quad)
        region_contours.append(contour)
    if pattern is not None:
        # Large or faint checks survive the global filter around the cards; the lattice test outlines them sharply.
        outlines, _ = cv2.findContours(card_mask(patterned, pattern), cv2.RETR_EXTERNAL, cv2.CHAIN_APPROX_SIMPLE)
        for contour in outlines:
            quad = _quad_from_contour(contour, limits, solidity=0.7, restored=restored)
            if quad is not None:
                candidates.append(quad)
            region_contours.append(contour)
    for contour in region_contours:
        corners += _large_outline_corners(contour, limits)
    # Last, so that they take no place of the others: most outlines with a hull that fills so little are a column and
    # something welded to it, whose other corners say more.
    pushed = [corner for contour in hollow for corner in _large_outline_corners(contour, limits)]

    # Largest first; drop near-duplicates (inner and outer edge of the same outline). Quads nested in a larger
    # one stay, and so do quads of about the same size whose corners lie elsewhere (a card beside the same card
    # with one corner pulled out by grain): the pipeline uses them when the larger quad turns out not to be a card
    # or column.
    candidates.sort(key=lambda item: -item[0])
    kept: list[tuple[float, np.ndarray]] = []
    for area, quad in candidates:
        centre = tuple(float(v) for v in quad.mean(axis=0))
        if any(area > 0.8 * other_area and cv2.pointPolygonTest(other.astype(np.float32), centre, False) >= 0
               and _same_outline(quad, other) for other_area, other in kept):
            continue
        kept.append((area, quad))
    for area, quad in sorted(weak, key=lambda item: -item[0]):
        if not inside_any(quad_centre(quad), [other for _, other in kept]):
            kept.append((area, quad))
    for area, quad in sorted(restored, key=lambda item: -item[0]):
        if _edge_support(support, quad) >= RESTORED_SUPPORT and \
                not inside_any(quad_centre(quad), [other for _, other in kept]):
            kept.append((area, quad))
    quads = [_order_quad(q) / scale for _, q in kept]
    reach = 1.5 / scale if scale < 0.9 else 0.0
    if reach and snapped:
        if full_gray is None:
            full_gray = cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
        quads = [refine_at_full_resolution(full_gray, q, reach) for q in quads]
    spacing = min_width / CARD_ASPECT
    distinct = _distinct_corners(corners, spacing, pushed)
    # Last, and besides the others: where a table of the cards' own colours drowns their edges in its grain, the
    # colours it lacks still outline them, but a block of creatures in an L gives no quad.
    height, width = small.shape[:2]
    off_table_corners = _distinct_corners(
        [corner for contour in shapeless for corner in _large_outline_corners(contour, limits)
         if not _on_frame_edge(corner.point, width, height)], spacing, most=OFF_TABLE_CORNERS, apart_from=distinct)
    return Outlines(quads, _in_frame_pixels(distinct, scale), 0.0 if snapped else reach, off_table,
                    _in_frame_pixels(off_table_corners, scale))


EDGE_GAINS = (1, 2, 4)  # the edge thresholds' multiples tried, in turn
BUSY_TABLE = 0.04  # the share of the frame border (the table) on edges at which the thresholds are raised


def edges_quiet_on_table(gray: np.ndarray, chroma: list[np.ndarray]) -> np.ndarray:
    """The edges of the (blurred) grey level and chroma channels together, at the lowest thresholds of EDGE_GAINS that
    leave the table itself (the frame border) mostly edge-free: wood grain and cloth weave would otherwise weld every
    card outline to the table. At the highest, whatever the table shows."""
    import cv2

    for gain in EDGE_GAINS:
        last = gain == EDGE_GAINS[-1]
        edges = cv2.Canny(gray, 20 * gain, 60 * gain)
        busy = _border_fraction(edges) >= BUSY_TABLE
        for channel in chroma:
            # All channels' edges together are at least those of any of them: once some already fire too much on
            # the table, the rest cannot help, and this gain is given up without working them out.
            if busy and not last:
                break
            edges |= cv2.Canny(channel, 6 * gain, 18 * gain)
            busy = _border_fraction(edges) >= BUSY_TABLE
        if not busy:
            break
    return edges


def _card_sized(contours, min_area: float) -> list:
    """The contours whose bounding box holds at least `min_area`. Most edge contours are specks of texture or art,
    which `_quad_from_contour` and `_large_outline_corners` would each reject on the same box, at a few times the
    cost of this one check."""
    return [contour for contour in contours if _box_area(contour) >= min_area]


def _same_outline(quad: np.ndarray, other: np.ndarray) -> bool:
    """Whether every corner of the quad lies within DUPLICATE_REACH of its shortest side from a corner of the
    other (the inner and outer edge of one outline, or one outline found twice)."""
    distances = np.linalg.norm(quad[:, None, :] - other[None, :, :], axis=2).min(axis=1)
    return bool(distances.max() <= DUPLICATE_REACH * shortest_side(quad))


def _large_outline_corners(contour, limits) -> list[Corner]:
    """The right-angled corners of an outline large enough to hold a card and more, whose sides are at least most
    of the smallest card's depth."""
    min_area, _, min_width = limits
    if _box_area(contour) <= 2 * min_area:
        return []
    return _right_angled_corners(contour, 0.8 * min_width / CARD_ASPECT)


def _box_area(contour) -> int:
    import cv2

    _, _, width, height = cv2.boundingRect(contour)
    return width * height


def _distinct_corners(corners: list[Corner], spacing: float, after: list[Corner] = (), most: int = MAX_CORNERS,
                      apart_from: list[Corner] = ()) -> list[Corner]:
    """Up to `most` of the corners, those with the longest sides first, one per place (a stroke's inner and outer
    trace give each twice) and none at the place of one of `apart_from`; then as many of the corners `after` (the same
    way)."""
    distinct: list[Corner] = []
    for corner in sorted(corners, key=lambda c: -min(c.lengths)) + sorted(after, key=lambda c: -min(c.lengths)):
        if len(distinct) < most and all(np.linalg.norm(corner.point - other.point) > 0.5 * spacing
                                        for other in itertools.chain(apart_from, distinct)):
            distinct.append(corner)
    return distinct


def _on_frame_edge(point: np.ndarray, width: int, height: int) -> bool:
    """Whether the point lies within FRAME_EDGE pixels of the frame's edge: a region's corner there is where the
    region (mostly an arm) leaves the picture, and the frame's edge is no card's side."""
    x, y = float(point[0]), float(point[1])
    return min(x, y, width - 1 - x, height - 1 - y) < FRAME_EDGE


def _in_frame_pixels(corners: list[Corner], scale: float) -> list[Corner]:
    """The corners found on the frame reduced by `scale`, in full-frame pixels."""
    return [Corner(c.point / scale, c.along, (c.lengths[0] / scale, c.lengths[1] / scale)) for c in corners]
