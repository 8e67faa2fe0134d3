"""Where cards may lie, given what the detector outlined: the splits of a column outline into its cards, whole
cards laid from either end of a partial column, cards in an outline's corner or beside a card of its column, cards
laid over an outline smaller than a card, outlines with one corner put back where the other three say, and whether
four corners can be one card at all.
Pure geometry on corner arrays (own TL, TR, BR, BL); the pipeline decides which of these to read."""
from __future__ import annotations

import math
from typing import NamedTuple

import numpy as np

from .cards import CARD_ASPECT, CARD_HEIGHT, CARD_WIDTH
from .layout import ICON_BOX

CARD_DEPTH = 1.0 / CARD_ASPECT
LONGEST_COLUMN = 3  # cards in a whole creature: legs, torso and head
CARD_SIZE_TOLERANCE = 0.2  # a column's width may be this far (relative) from that of the nearest card found
# A grid's columns and cards may be this far (relative) from whole numbers of the nearest card's width and depth: wider,
# and one column of three would pass for two columns of two seen across, with the nearest card 12% smaller.
GRID_SIZE_TOLERANCE = 0.12
# How a corner's side may span cards (count, as their depths rather than widths), in the order they are tried: one card
# first, then two or three pushed together along it.
SIDE_SPANS = [(count, as_depth) for as_depth in (False, True) for count in (1, 2, 3)]
WHOLE_CARDS = 0.08  # a quad within this (relative) of a whole number of cards is no column cut short
ASPECT_TOLERANCE = 0.28  # how far (relative) a quad's shape may be from 1, 2 or 3 cards, for tilt and corner error
MAX_CORNER_SKEW = 16.0  # degrees a card's corner may be off a right angle (tilt and jitter make up to 11)
MAX_OPPOSITE_RATIO = 1.12  # longest over shortest of a card's opposite sides (tilt makes up to 1.06)
SIDE_AS_WIDTH = (0.75, 1.2)  # an outline side this many times the frame's card width may be a card's width
MIN_ASPECT = 0.78  # a card's width over depth, relative to the printed card (tilt makes 0.87-1.22)
MOVED_CORNER = 0.08  # a corner this far (in short sides) from its parallelogram completion may be cut or pulled
OVER_OUTLINE_SLACK = 1.1  # an outline's side may be this much longer than the card side laid along it
OVER_OUTLINE_CORNERS = 2  # corners of such an outline that cards are laid from
MAX_VARIANTS = 3  # completed outlines tried per doubtful outline
# How much of a card each side of an outline's corner must run along for a card to be laid in it: most of it first,
# then half. Creatures pushed together, each card turned a degree or two its own way, break the outline's sides at
# every card's joint, so a corner's side can stop at half a card (stop 53; docs/vision-history.md).
CORNER_SIDE_SHARES = (0.8, 0.5)
# ... except across a side at least this many cards deep, which runs along a column (a card's width is 1.56 of its
# depth): its cards lie across it, however short the corner's other side (a column's outline can lose its cards' ends;
# stop 82).
COLUMN_SIDE_DEPTHS = 2.0
_MAX_CORNER_COSINE = float(np.sin(np.radians(MAX_CORNER_SKEW)))
# Two outline corners each with a side pointing at the other within this many degrees may be two corners of one card,
# the side between them its own (`cards_between_corners`). Stop 81: a lone card's corners facing each other across a
# side whose outline a glow of the table's light had cut were 0-13 degrees off; a side a card's length long, 15 degrees
# off, passes 0.26 of a card from the other corner.
FACING_DEGREES = 15.0
_FACING_COSINE = float(np.cos(np.radians(FACING_DEGREES)))
# ... of which only so many, those facing each other most squarely: an arm's outline has dozens of corners, and in a
# frame where a hand hid the only card on the table, all the pairs of them laid 1,304 cards.
FACING_PAIRS = 8


def rolled(quad: np.ndarray, shift: int) -> np.ndarray:
    """np.roll(quad, shift, axis=0) of four corners, by indexing: these run thousands of times a frame, where
    np.roll's own overhead is most of the cost."""
    return quad[_ROLLS[shift % 4]]


_ROLLS = [np.array([(i - shift) % 4 for i in range(4)]) for shift in range(4)]


class Corner(NamedTuple):
    """A corner of an outline, where a card may lie: the point where its two straight sides meet, their directions
    (unit vectors) and lengths, in frame pixels."""

    point: np.ndarray
    along: tuple[np.ndarray, np.ndarray]
    lengths: tuple[float, float]

    @property
    def skew(self) -> float:
        """How far from square the corner is: |cosine| of the angle between its sides (0 for a right angle)."""
        return abs(float(self.along[0] @ self.along[1]))


def mean_sides(quad: np.ndarray) -> tuple[float, float]:
    """The quad's mean length across (its 0-1 and 3-2 sides) and down (its 0-3 and 1-2 sides); for a card's own
    corners, its width and depth."""
    if quad.shape != (4, 2) or quad.dtype != np.float64:
        steps = quad[[1, 2, 3, 2]] - quad[[0, 3, 0, 1]]
        top, bottom, left, right = np.sqrt((steps * steps).sum(axis=1)).tolist()
        return (top + bottom) / 2, (left + right) / 2
    top, right, bottom, left = _side_lengths(quad)  # a side's direction changes no bit of its length
    return (top + bottom) / 2, (left + right) / 2


def split_hypotheses(quad: np.ndarray):
    """(aspect error, stacking axis, card count) for each plausible way the quad is a column of 1-3 landscape
    cards, most plausible first. "down" stacks along the quad's 0-3 side, "across" along its 0-1 side."""
    across, down = mean_sides(quad)
    hypotheses = []
    for axis, ratio in (("down", down / across), ("across", across / down)):
        estimate = ratio * CARD_ASPECT
        for count in (1, 2, 3):
            error = abs(estimate - count) / count
            if error < ASPECT_TOLERANCE:
                hypotheses.append((error, axis, count))
    hypotheses.sort()
    return hypotheses


def grid_cards(quad: np.ndarray, size: tuple[float, float], tolerance: float = GRID_SIZE_TOLERANCE) -> list:
    """Where the quad is creatures pushed together side by side, two to four columns of 1-3 cards of `size` (width,
    depth) each, all of one height: its cards (own TL, TR, BR, BL), laid both ways up, each way in turn. Split in
    the quad's own perspective, as `column_cards` splits a column. Two columns of three are about square: both
    ways of laying them come, the better fitting first. Empty where no such grid fits the quad."""
    grids = []
    across, down = mean_sides(quad)
    width, depth = size
    for axis, columns, length in (("down", across / width, down / depth), ("across", down / width, across / depth)):
        count, cards = round(columns), round(length)
        if not (2 <= count <= 4 and 1 <= cards <= LONGEST_COLUMN):
            continue
        error = max(abs(columns / count - 1), abs(length / cards - 1))
        if error > tolerance:
            continue
        laid = _cards_in_grid(quad, axis, count, cards)
        grids.append((error, laid + [rolled(card, 2) for card in laid]))
    return [card for _, laid in sorted(grids, key=lambda grid: grid[0]) for card in laid]


def shortest_side(quad: np.ndarray) -> float:
    """The length of the quad's shortest side in pixels (for a card or column, about its depth or width)."""
    if quad.shape != (4, 2) or quad.dtype != np.float64:
        return min(np.linalg.norm(quad - rolled(quad, -1), axis=1))
    return min(_side_lengths(quad))


def _side_lengths(quad: np.ndarray) -> list[float]:
    """The lengths of a float64 quad's sides (side i runs from corner i to corner i + 1) in floats, rounded as numpy
    rounds them for such an array: four norms through numpy cost more than the arithmetic, and this runs hundreds of
    times a frame."""
    corners = quad.tolist()
    lengths = []
    for (x0, y0), (x1, y1) in zip(corners, corners[1:] + corners[:1]):
        dx, dy = x0 - x1, y0 - y1
        lengths.append(math.sqrt(dx * dx + dy * dy))
    return lengths


def opposite_side_ratio(quad: np.ndarray) -> float:
    """The longest over the shortest of a quad's opposite sides, the larger of its two pairs' (1 for a rectangle)."""
    lengths = _side_lengths(np.asarray(quad, dtype=np.float64))
    return _opposite_ratio(lengths) if min(lengths) >= 1e-6 else math.inf


def _opposite_ratio(lengths) -> float:
    """`opposite_side_ratio` of a quad with these (nonzero) side lengths."""
    return max(lengths[0] / lengths[2], lengths[2] / lengths[0], lengths[1] / lengths[3], lengths[3] / lengths[1])


def quad_area(quad: np.ndarray) -> float:
    """The area of a quad (or any polygon) in square pixels."""
    import cv2

    return abs(float(cv2.contourArea(np.asarray(quad, np.float32))))


def column_of_width(quad: np.ndarray, card_width: float, tolerance: float = CARD_SIZE_TOLERANCE) -> bool:
    """Whether the quad can be a whole column of 1-3 cards `card_width` pixels wide (within `tolerance`,
    relative)."""
    across, down = mean_sides(quad)
    return any(abs((across if axis == "down" else down) / card_width - 1) < tolerance
               for _, axis, _ in split_hypotheses(quad))


def partial_column(quad: np.ndarray, card_width: float) -> bool:
    """Whether the quad could be a column of cards `card_width` pixels wide with its end cut off: as wide as a card,
    longer than a card and a bit, and no whole number of cards long. (Its shape alone cannot tell: one card is
    also two and a half of a narrower card's depths.)"""
    short_side, long_side = sorted(mean_sides(quad))
    if abs(short_side / card_width - 1) > CARD_SIZE_TOLERANCE:
        return False
    estimate = long_side / short_side * CARD_ASPECT
    return bool(1.3 < estimate < 3.3 and min(abs(estimate - count) / count for count in (1, 2, 3)) > WHOLE_CARDS)


def column_cards(quad: np.ndarray, axis: str, count: int, flip: bool) -> list[np.ndarray]:
    """The corners (each card's own TL, TR, BR, BL) of `count` cards filling the quad along `axis`, all facing
    the same way; `flip` turns them all upside down. Split in the quad's own perspective, so seams stay exact
    under a tilted camera."""
    cards = _cards_in_grid(quad, axis, 1, count)
    return [rolled(card, 2) for card in cards] if flip else cards


def _cards_in_grid(quad: np.ndarray, axis: str, columns: int, cards: int) -> list[np.ndarray]:
    """The corners (each card's own TL, TR, BR, BL) of `columns` columns of `cards` cards side by side filling the
    quad, column by column, all facing the same way: "down" with the cards' width along the quad's 0-1 side, "across"
    along its 0-3 side. Split in the quad's own perspective, so seams stay exact under a tilted camera."""
    import cv2

    span = cards * CARD_DEPTH
    if axis == "down":
        canonical, roll = [[0, 0], [columns, 0], [columns, span], [0, span]], 0
        cells = [[(i, k * CARD_DEPTH), (i + 1, k * CARD_DEPTH), (i + 1, (k + 1) * CARD_DEPTH),
                  (i, (k + 1) * CARD_DEPTH)] for i in range(columns) for k in range(cards)]
    else:
        canonical, roll = [[0, 0], [span, 0], [span, columns], [0, columns]], 1
        cells = [[(k * CARD_DEPTH, i), ((k + 1) * CARD_DEPTH, i), ((k + 1) * CARD_DEPTH, i + 1),
                  (k * CARD_DEPTH, i + 1)] for i in range(columns) for k in range(cards)]
    matrix = cv2.getPerspectiveTransform(np.float32(canonical), np.float32(quad))
    # All the cells' corners in one call: the transform is per point, so the same numbers as cell by cell.
    points = cv2.perspectiveTransform(np.float32(cells).reshape(-1, 1, 2), matrix).reshape(-1, 4, 2)
    return [rolled(card, -roll) for card in points.astype(np.float64)]


def _side_contrast(gray: np.ndarray, quad: np.ndarray) -> float:
    """The weakest of the quad's four sides, as the mean brightness step across it: a card's sides all lie on
    its outline, a wrongly placed side crosses table or art."""
    import cv2

    t = np.linspace(0.15, 0.85, 12)[:, None]
    steps = []
    for i in range(4):
        a, b = quad[i], quad[(i + 1) % 4]
        direction = (b - a) / (np.linalg.norm(b - a) + 1e-9)
        normal = np.array([-direction[1], direction[0]]) * 2.0
        points = a + (b - a) * t
        inner, outer = (points + normal).astype(np.float32), (points - normal).astype(np.float32)
        values = [cv2.remap(gray, p[:, 0].reshape(1, -1), p[:, 1].reshape(1, -1), cv2.INTER_LINEAR,
                            borderMode=cv2.BORDER_REPLICATE).astype(np.float32) for p in (inner, outer)]
        steps.append(float(np.abs(values[0] - values[1]).mean()))
    return min(steps)


def completed_variants(gray: np.ndarray, quad: np.ndarray) -> list[np.ndarray]:
    """The quad with one corner moved to where the other three put it (the fourth corner of their
    parallelogram), for each corner that lies far from there: an outline whose corner was cut off (art as dark as
    the table) or pulled out (a neighbour or shadow welded on). One wrong corner moves every corner's completion
    as much, so the variants are ranked by how well all their sides lie on edges."""
    short_side = shortest_side(quad)
    variants = []
    for i in range(4):
        completed = quad[i - 1] + quad[(i + 1) % 4] - quad[(i + 2) % 4]
        if np.linalg.norm(completed - quad[i]) > MOVED_CORNER * short_side:
            variant = quad.copy()
            variant[i] = completed
            variants.append((_side_contrast(gray, variant), variant))
    return [variant for _, variant in sorted(variants, key=lambda item: -item[0])][:MAX_VARIANTS]


def _end_spans(length: float, count: int) -> list[tuple[float, float]]:
    """The card-deep spans at either end of a column `length` deep that holds `count` whole cards (one span when
    they coincide); the cards in between would only be found if the ends are, so they are not tried."""
    spans = [(0.0, CARD_DEPTH)]
    if length - CARD_DEPTH > 0.1 * CARD_DEPTH:
        spans.append((length - CARD_DEPTH, length))
    return spans


def anchored_cards(quad: np.ndarray, long_axis_only: bool = False) -> list[np.ndarray]:
    """Whole cards laid from either end of a quad that is only part of a column (the rest under a hand, or cut
    off by glare): along each axis (or only the longer), as many card depths as fit, taken from each end, either
    way up."""
    import cv2

    across, down = mean_sides(quad)
    cards = []
    for axis, length in (("down", down / across), ("across", across / down)):
        count = min(3, int(length / CARD_DEPTH + 0.1))
        if count < 1 or (long_axis_only and length < 1):
            continue
        if axis == "down":
            canonical = np.float32([[0, 0], [1, 0], [1, length], [0, length]])
            rects = [[(0, a), (1, a), (1, b), (0, b)] for a, b in _end_spans(length, count)]
            rolls = (0, 2)
        else:
            canonical = np.float32([[0, 0], [length, 0], [length, 1], [0, 1]])
            rects = [[(a, 0), (b, 0), (b, 1), (a, 1)] for a, b in _end_spans(length, count)]
            rolls = (1, 3)
        matrix = cv2.getPerspectiveTransform(canonical, np.float32(quad))
        for rect in rects:
            points = cv2.perspectiveTransform(np.float32(rect).reshape(-1, 1, 2), matrix).reshape(4, 2)
            cards += [rolled(points.astype(np.float64), -roll) for roll in rolls]
    return cards


def quad_corners(quad: np.ndarray) -> list[Corner]:
    """The four corners of an outline quad, each with its two sides."""
    corners = []
    for i in range(4):
        along_next, along_previous = quad[(i + 1) % 4] - quad[i], quad[i - 1] - quad[i]
        lengths = (float(np.linalg.norm(along_next)), float(np.linalg.norm(along_previous)))
        if min(lengths) > 1e-6:
            corners.append(Corner(quad[i], (along_next / lengths[0], along_previous / lengths[1]), lengths))
    return corners


def _cards_from_corner(corner: Corner, size: tuple[float, float], fits, laid=None) -> list[np.ndarray]:
    """Cards of `size` laid from the corner along its two sides, either way round and either way up, for each way
    round where `fits(length along the first side, along the second, card side along the first, along the second)`.
    `laid(point, width way, depth way)`, where given, sizes each way round instead: the width and depth of a card laid
    from the point with its width along the first direction (on a tilted table a card turned a quarter is not the
    same size turned)."""
    (u, v), (length_u, length_v) = corner.along, corner.lengths
    if u[0] * v[1] - u[1] * v[0] < 0:
        # Laid off sides in this order, the cards would come out mirrored (their corners anticlockwise): the
        # outline ran the other way round.
        (u, v), (length_u, length_v) = (v, u), (length_v, length_u)
    if laid is None:
        (width, depth), (turned_width, turned_depth) = size, size
    else:
        (width, depth), (turned_width, turned_depth) = laid(corner.point, u, v), laid(corner.point, v, u)
    cards = []
    for a, b, rolls in ((width, depth, (0, 2)), (turned_depth, turned_width, (3, 1))):
        if fits(length_u, length_v, a, b):
            points = np.array([corner.point, corner.point + a * u, corner.point + a * u + b * v,
                               corner.point + b * v])
            cards += [rolled(points, -roll) for roll in rolls]
    return cards


def _facing_sides(corners: list[Corner], widths: tuple[float, float]) -> list[tuple[int, int, int, int]]:
    """The pairs of corners (i < j) that face each other along one side, a card's width or depth apart within
    `widths` (the least and most a card may measure in the frame), each with the side (0 or 1 of `along`) of each
    that points at the other; those facing each other most squarely (the worse of the two sides) first."""
    low, high = widths[0] * CARD_DEPTH, widths[1]
    pairs = []  # (the worse side's cosine, i, j, side of i, side of j)
    for i, first in enumerate(corners):
        for j in range(i + 1, len(corners)):
            between = corners[j].point - first.point
            length = float(np.linalg.norm(between))
            if not low <= length <= high:
                continue
            towards = between / length
            side_i = int(np.argmax([float(along @ towards) for along in first.along]))
            side_j = int(np.argmax([float(-(along @ towards)) for along in corners[j].along]))
            squareness = min(float(first.along[side_i] @ towards), float(-(corners[j].along[side_j] @ towards)))
            if squareness >= _FACING_COSINE:
                pairs.append((squareness, i, j, side_i, side_j))
    return [pair[1:] for pair in sorted(pairs, key=lambda pair: -pair[0])]


def _clockwise(points: np.ndarray) -> np.ndarray:
    """The four points in clockwise order in the frame (y down) from the first: a card's own corners run so."""
    x, y = points[:, 0], points[:, 1]
    if float(x @ rolled(y, -1) - y @ rolled(x, -1)) < 0:
        return points[[0, 3, 2, 1]]
    return points


def cards_between_corners(corners: list[Corner], widths: tuple[float, float],
                          most: int = FACING_PAIRS) -> list[np.ndarray]:
    """The cards that outline corners facing each other along a side (`_facing_sides`) may be two or three corners of,
    where no card is found to size a card laid from one corner by, and no corner's sides run along most of a card (a
    lone card's outline cut along its sides, by a glow of the table's light behind it, say). Three corners first,
    where two such pairs share a corner and meet about square: the card they make, perspective and all. Then each pair
    alone: the side between them a card's width or its depth, the card's other sides along the corners' other sides
    (their mean direction), in the printed card's proportions. From the `most` pairs facing each other most squarely;
    each card either way up, those card-shaped."""
    pairs = _facing_sides(corners, widths)[:most]
    cards = []
    for a, pair in enumerate(pairs):
        for other in pairs[a + 1:]:
            shared = set(pair[:2]) & set(other[:2])
            if len(shared) != 1:
                continue
            middle = shared.pop()
            first, last = (each for each in pair[:2] + other[:2] if each != middle)
            p, q, r = corners[first].point, corners[middle].point, corners[last].point
            if abs(float((q - p) @ (r - q))) > _MAX_CORNER_COSINE * np.linalg.norm(q - p) * np.linalg.norm(r - q):
                continue
            cards.append(np.array([p, q, r, p + r - q]))
    for i, j, side_i, side_j in pairs:
        p, q = corners[i].point, corners[j].point
        out = corners[i].along[1 - side_i] + corners[j].along[1 - side_j]
        if float(np.linalg.norm(out)) < 2 * _FACING_COSINE:
            continue  # their other sides are no one card's
        out /= np.linalg.norm(out)
        length = float(np.linalg.norm(q - p))
        cards += [np.array([p, q, q + depth * out, p + depth * out]) for depth in (length * CARD_DEPTH,
                                                                                  length * CARD_ASPECT)]
    # Each from every corner: either way round and either way up.
    return [turned for card in cards for turned in (rolled(_clockwise(card), -roll) for roll in range(4))
            if card_shaped(turned)]


def cards_at_corner(corner: Corner, size: tuple[float, float],
                    share: float = CORNER_SIDE_SHARES[0], laid=None) -> list[np.ndarray]:
    """The cards of the frame's card size that could lie in an outline's corner (of a column merged with a hand,
    a shadow or its neighbour), along either side, either way up, where each side runs along at least `share` of the
    card's side laid on it, or where the card lies across a side COLUMN_SIDE_DEPTHS cards deep (sized by `laid` where
    given, as `_cards_from_corner` says)."""
    def sides_long_enough(length_u, length_v, a, b):
        if length_u >= share * a and length_v >= share * b:
            return True
        return (a < b and length_u >= COLUMN_SIDE_DEPTHS * a) or (b < a and length_v >= COLUMN_SIDE_DEPTHS * b)

    if laid is None and min(corner.lengths) < share * size[1]:
        return []
    return _cards_from_corner(corner, size, sides_long_enough, laid)


def cards_at_edge_corner(corner: Corner, size: tuple[float, float], laid=None) -> list[np.ndarray]:
    """The cards of the frame's card size that could lie in a corner two straight edges make (`vision.segments`),
    along either edge, either way up (sized by `laid` where given, as `_cards_from_corner` says). An edge can stop
    well short of the card's next corner (art of the table's colour, a hand over it), so its length rules out none of
    them."""
    return _cards_from_corner(corner, size, lambda *lengths: True, laid)


def cards_over_outline(quad: np.ndarray, size: tuple[float, float]) -> list[np.ndarray]:
    """The cards of the frame's card size that could hold an outline smaller than a card (the rest of the card
    lost in a table of its own colour: dark art on a dark cloth, a white border on a pale one): laid from the
    outline's two most nearly square corners along their two sides, either way round and either way up, where both
    sides fit in the card."""
    def held_by_it(length_u, length_v, a, b):
        return length_u <= OVER_OUTLINE_SLACK * a and length_v <= OVER_OUTLINE_SLACK * b

    cards = []
    # The squarest corners only: the outline's corners where it cuts across the card are rarely right angles.
    for corner in sorted(quad_corners(quad), key=lambda corner: corner.skew)[:OVER_OUTLINE_CORNERS]:
        cards += _cards_from_corner(corner, size, held_by_it)
    return cards


def icon_centre(card: np.ndarray) -> np.ndarray:
    """Where the centre of the card's ability icon lies in the frame, given its own TL, TR, BR, BL corners."""
    x = (ICON_BOX[0] + ICON_BOX[2]) / 2 / CARD_WIDTH
    y = (ICON_BOX[1] + ICON_BOX[3]) / 2 / CARD_HEIGHT
    top_left, top_right, bottom_right, bottom_left = card
    return (1 - y) * ((1 - x) * top_left + x * top_right) + y * ((1 - x) * bottom_left + x * bottom_right)


def outline_side_sizes(quad: np.ndarray, size: tuple[float, float] | None,
                       widths: tuple[float, float] | None = None) -> list[tuple[float, float]]:
    """Card sizes an outline smaller than a card gives by its own sides: a side its cut did not cross is a whole
    card's width or depth (perspective makes the nearest card found a poor guide far off). Those from the sides of its
    squarest corners, near the frame's card size `size` but unlike it; with no card found yet (`size` None), any size
    within `widths` (the least and most a card may measure in this frame)."""
    low, high = widths if size is None else (SIDE_AS_WIDTH[0] * size[0], SIDE_AS_WIDTH[1] * size[0])
    given = [] if size is None else [size]
    sizes: list[tuple[float, float]] = []
    for corner in sorted(quad_corners(quad), key=lambda corner: corner.skew)[:OVER_OUTLINE_CORNERS]:
        for length in corner.lengths:
            for width in (length, length * CARD_ASPECT):
                if low < width < high and all(abs(width - each[0]) > 0.06 * each[0] for each in given + sizes):
                    sizes.append((width, width / CARD_ASPECT))
    return sizes


def side_card_sizes(corner: Corner, size: tuple[float, float] | None,
                    widths: tuple[float, float]) -> list[tuple[tuple[float, float], int]]:
    """Other card sizes to try in an outline's corner than the frame's card size `size` (that of the nearest card
    found), each with the side (0 or 1 of `corner.along`) its width lies along: a card as wide as either side of the
    corner, when that side is near the frame's card width but unlike it (perspective makes cards across the frame
    differ, and the side across a column is exactly a card's width); then as wide as a half or a third of it, and as
    deep as the whole, a half or a third of it (`SIDE_SPANS`: the side of creatures pushed together runs along two or
    three cards' widths, or depths). With no card found yet, any size within `widths` (the least and most a card may
    measure in this frame)."""
    low, high = widths if size is None else (SIDE_AS_WIDTH[0] * size[0], SIDE_AS_WIDTH[1] * size[0])
    sizes = []
    for count, as_depth in SIDE_SPANS:
        for side, length in enumerate(corner.lengths):
            width = length / count * (CARD_ASPECT if as_depth else 1.0)
            known = ([size] if size is not None else []) + [each for each, _ in sizes]
            if low < width < high and all(abs(width - w) > 0.06 * w or abs(width / CARD_ASPECT - d) > 0.06 * d
                                          for w, d in known):
                sizes.append(((width, width / CARD_ASPECT), 1 - side if as_depth else side))
    return sizes


def side_sized_cards(corner: Corner, size: tuple[float, float] | None, widths: tuple[float, float],
                     share: float = CORNER_SIDE_SHARES[0]) -> list[np.ndarray]:
    """The cards of `side_card_sizes` laid in the corner (as `cards_at_corner` lays them, with `share`), each with
    its width along the side it was sized from."""
    cards = []
    for card_size, side in side_card_sizes(corner, size, widths):
        direction = corner.along[side]
        for card in cards_at_corner(corner, card_size, share):
            top = card[1] - card[0]
            if abs(float(top @ direction)) > 0.9 * np.linalg.norm(top):
                cards.append(card)
    return cards


def card_shaped(card: np.ndarray) -> bool:
    """Whether four corners can be one card seen by a camera tilted up to about 25 degrees: corners near right
    angles, opposite sides nearly equal, sides in about the card's proportions."""
    if card.shape == (4, 2) and card.dtype == np.float64:
        return _card_shaped_in_floats(card)
    sides = card - rolled(card, 1)  # side i ends at corner i
    lengths = np.sqrt((sides * sides).sum(axis=1))  # np.linalg.norm's own sum, without its checks
    if lengths.min() < 1e-6:
        return False
    following = rolled(sides, -1)
    cosines = -(sides * following).sum(axis=1) / (lengths * rolled(lengths, -1))
    if np.abs(cosines).max() > _MAX_CORNER_COSINE:
        return False
    return _in_card_proportions(lengths)


def _in_card_proportions(lengths) -> bool:
    """Whether a quad with these side lengths (side i ends at corner i) has opposite sides nearly equal and sides in
    about the card's proportions."""
    if _opposite_ratio(lengths) > MAX_OPPOSITE_RATIO:
        return False
    aspect = (lengths[1] + lengths[3]) / (lengths[0] + lengths[2]) / CARD_ASPECT
    return MIN_ASPECT < aspect < 1 / MIN_ASPECT


def _card_shaped_in_floats(card: np.ndarray) -> bool:
    """`card_shaped` of four float64 corners, in floats: the same numbers, rounded one after another as numpy rounds
    them, for a fifth of the time (this judges most places the searches lay)."""
    corners = card.tolist()
    sides = [(x1 - x0, y1 - y0) for (x0, y0), (x1, y1) in zip(corners[-1:] + corners[:-1], corners)]  # ends at i
    lengths = [math.sqrt(x * x + y * y) for x, y in sides]
    if min(lengths) < 1e-6:
        return False
    for i in range(4):
        (x, y), (next_x, next_y) = sides[i], sides[(i + 1) % 4]
        if abs(-(x * next_x + y * next_y) / (lengths[i] * lengths[(i + 1) % 4])) > _MAX_CORNER_COSINE:
            return False
    return _in_card_proportions(lengths)


def cards_on_sides(card: np.ndarray) -> list[np.ndarray]:
    """For each side of a card found misshapen or a little off (side i runs from its corner i to corner i + 1), the
    right-angled card in the card's proportions that has that side and lies on the card's side of it, the same way
    up."""
    middle = card.mean(axis=0)
    cards = []
    for i in range(4):
        a, b = card[i], card[(i + 1) % 4]
        along = b - a
        length = float(np.linalg.norm(along))
        if length < 1e-6:
            continue
        normal = np.array([-along[1], along[0]]) / length
        if normal @ (middle - a) < 0:
            normal = -normal
        other = length / CARD_ASPECT if i % 2 == 0 else length * CARD_ASPECT
        placed = np.empty((4, 2))
        placed[i], placed[(i + 1) % 4] = a, b
        placed[(i + 2) % 4], placed[(i + 3) % 4] = b + normal * other, a + normal * other
        cards.append(placed)
    return cards


def column_neighbours(card: np.ndarray) -> list[np.ndarray]:
    """The places (own TL, TR, BR, BL) of the cards just above and just below `card` in its column."""
    top_left, top_right, bottom_right, bottom_left = card
    above = np.array([2 * top_left - bottom_left, 2 * top_right - bottom_right, top_right, top_left])
    below = np.array([bottom_left, bottom_right, 2 * bottom_right - top_right, 2 * bottom_left - top_left])
    return [above, below]


def side_neighbours(card: np.ndarray) -> list[np.ndarray]:
    """The places (own TL, TR, BR, BL) of the cards just left and just right of `card`, across its column: the
    cards of another creature pushed against its column, laid the same way."""
    top_left, top_right, bottom_right, bottom_left = card
    left = np.array([2 * top_left - top_right, top_left, bottom_left, 2 * bottom_left - bottom_right])
    right = np.array([top_right, 2 * top_right - top_left, 2 * bottom_right - bottom_left, bottom_right])
    return [left, right]


def slid_beside(card: np.ndarray, side: int, shares) -> list[np.ndarray]:
    """The place on `side` of `card` (its index in `neighbours`, 2 or 3: across its column) slid along the column by
    each of `shares` of the card's depth: where the card was found too large, or the creature beside it is not level
    with its own."""
    down = card[3] - card[0]
    beside = neighbours(card)[side]
    return [beside + share * down for share in shares]


def neighbours(card: np.ndarray) -> list[np.ndarray]:
    """The places of the cards above, below, left and right of `card` (`column_neighbours`, then `side_neighbours`)."""
    return column_neighbours(card) + side_neighbours(card)


def turned_neighbours(card: np.ndarray, neighbour: np.ndarray, degrees) -> list[np.ndarray]:
    """The neighbour beside `card` in its column turned by each of `degrees` about the middle of its side nearest the
    card (the side they share): where the card was found a few degrees off, its neighbour's far end is off twice as
    much."""
    middles = (neighbour + rolled(neighbour, -1)) / 2
    pivot = middles[np.argmin(np.linalg.norm(middles - card.mean(axis=0), axis=1))]
    turned = []
    for angle in np.radians(degrees):
        rotation = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        turned.append((neighbour - pivot) @ rotation.T + pivot)
    return turned


def cards_shifted(card: np.ndarray, share: float) -> list[np.ndarray]:
    """The card moved `share` of its width each way along its top side, then `share` of its depth each way down its
    left side, the same way up and the same size."""
    along, down = card[1] - card[0], card[3] - card[0]
    return [card + share * step for step in (along, -along, down, -down)]


def cards_resized(card: np.ndarray, size: tuple[float, float]) -> list[np.ndarray]:
    """The card laid again at `size` (width, depth) from each of its four corners along its own sides, the same way
    up: a card found a fifth too small or too large (a neighbour's edge or a shadow taken for its own) usually has
    two or three corners right, and which they are is not known."""
    width, depth = size
    resized = []
    for corner in range(4):
        # From a corner, the card's width runs to the corner beside it on the top or bottom side (0-1, 3-2), and its
        # depth to the one beside it on the left or right side (0-3, 1-2).
        across, down = corner ^ 1, 3 - corner
        along_width = card[across] - card[corner]
        along_depth = card[down] - card[corner]
        lengths = np.linalg.norm(along_width), np.linalg.norm(along_depth)
        if min(lengths) < 1e-6:
            continue
        placed = np.empty((4, 2))
        placed[corner] = card[corner]
        placed[across] = card[corner] + along_width / lengths[0] * width
        placed[down] = card[corner] + along_depth / lengths[1] * depth
        placed[3 - across] = placed[across] + placed[down] - placed[corner]
        resized.append(placed)
    return resized


def intersect(line_a, line_b):
    """Where two lines (point, direction) cross; None when they are (nearly) parallel. Cramer's rule: numpy's
    general solver costs ten times more for a 2x2 system, and this runs thousands of times a frame."""
    (p, u), (q, v) = line_a, line_b
    ux, uy, vx, vy = float(u[0]), float(u[1]), float(v[0]), float(v[1])
    determinant = vx * uy - ux * vy
    if abs(determinant) < 1e-6:
        return None
    dx, dy = float(q[0]) - float(p[0]), float(q[1]) - float(p[1])
    t = (vx * dy - vy * dx) / determinant
    return np.array([float(p[0]) + ux * t, float(p[1]) + uy * t])


def card_with_ends_of(card: np.ndarray, other: np.ndarray) -> np.ndarray | None:
    """The card with its top and bottom sides (own corners 0-1 and 3-2) as they are and its ends (its left and right
    sides, 3-0 and 1-2) those of `other`; None where a side of one is parallel to a side of the other."""
    lines = [(card[0], card[1] - card[0]), (other[1], other[2] - other[1]),
             (card[2], card[3] - card[2]), (other[3], other[0] - other[3])]
    corners = [intersect(lines[k - 1], lines[k]) for k in range(4)]
    return None if any(corner is None for corner in corners) else np.array(corners)


def in_frame(card: np.ndarray, shape) -> bool:
    """Whether the whole card lies inside the frame: a place reaching past its edge is read with the edge's pixels
    drawn out, and such a reading can pass for a card."""
    height, width = shape[:2]
    return all(0 <= x < width and 0 <= y < height for x, y in card.tolist())  # four points: numpy costs more


def quad_centre(quad: np.ndarray):
    """quad.mean(axis=0), to the last bit: four float64 corners are summed one after another, as numpy sums them, into
    an (x, y) pair of floats, for a fifth of the time (the searches ask it of every place they lay, to test it against
    the cards found). Anything else goes to numpy."""
    if quad.shape != (4, 2) or quad.dtype != np.float64:
        return quad.mean(axis=0)
    (x0, y0), (x1, y1), (x2, y2), (x3, y3) = quad.tolist()
    return (x0 + x1 + x2 + x3) / 4, (y0 + y1 + y2 + y3) / 4


def inside_any(point: np.ndarray, quads) -> bool:
    """Whether the point lies inside (or on the edge of) one of the quads."""
    import cv2

    point = (float(point[0]), float(point[1]))
    return any(cv2.pointPolygonTest(quad.astype(np.float32), point, False) >= 0 for quad in quads)


def deep_inside_any(point: np.ndarray, quads, depth: float) -> bool:
    """Whether the point lies more than `depth` inside one of the quads: so does every point within `depth` of it."""
    import cv2

    point = (float(point[0]), float(point[1]))
    return any(cv2.pointPolygonTest(quad.astype(np.float32), point, True) > depth for quad in quads)


def overlaps_any(card: np.ndarray, cards: list[np.ndarray], share: float) -> bool:
    """Whether more than `share` of the card's area lies on one of the cards."""
    import cv2

    most = share * quad_area(card)
    card = card.astype(np.float32)
    return any(cv2.intersectConvexConvex(card, other.astype(np.float32))[0] > most for other in cards)


def near_any(point: np.ndarray, cards: list[np.ndarray], margin: float) -> bool:
    """Whether the point lies inside one of the cards or within `margin` pixels of one."""
    import cv2

    point = (float(point[0]), float(point[1]))
    return any(cv2.pointPolygonTest(card.astype(np.float32), point, True) > -margin for card in cards)


def card_centres(cards: list[np.ndarray]) -> list[tuple[float, float]]:
    """The cards' (at least one) centres: each card's corners summed as numpy's mean sums them."""
    return [(x, y) for x, y in np.stack(cards).mean(axis=1).tolist()]


def nearest_centre(point, centres: list[tuple[float, float]]) -> int:
    """The index of the centre (`card_centres`) nearest `point`, the first of equally near ones: the one that
    np.linalg.norm and min() would pick, from the same sums (this runs for every place a search lays, over the dozen or
    so cards found so far, where a loop of plain floats costs less than one numpy call)."""
    x, y = float(point[0]), float(point[1])
    nearest, least = 0, math.inf
    for index, (centre_x, centre_y) in enumerate(centres):
        step_x, step_y = centre_x - x, centre_y - y
        # The root kept (not the squared distance): two squares a bit apart can have one root, and then the first wins.
        distance = math.sqrt(step_x * step_x + step_y * step_y)
        if distance < least:
            nearest, least = index, distance
    return nearest
