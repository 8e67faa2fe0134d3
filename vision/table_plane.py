"""The table seen aslant: the tilt of the camera, fitted to the cards found so far (all of one printed size), gives
the width and depth a card has anywhere in the frame. A camera tilted 10-25 degrees shows cards at one side of the
table a fifth smaller than at the other and foreshortened along one axis, so the nearest card found is a poor guide to
a card a few cards away, and a card turned a quarter from it is foreshortened along its other side (stops 67 and 68 in
docs/vision-history.md).
Pure numpy and geometry; the pipeline asks `CardSizes.at` wherever it lays a card at the size of those around it,
`laid_from` where it lays one from a corner either way round, `turned_at` where it lays one again as turned, and
`largest_area` (no fit) where most outlines are cards well above a fragment's size."""
from __future__ import annotations

import math

import numpy as np

from .placements import CARD_DEPTH, card_centres, mean_sides, nearest_centre

# Fewer cards say too little of the tilt, and the nearest card's size is taken (from 4 cards on, more scenes of the
# training seeds lost a card than from 6).
MIN_PLANE_CARDS = 6
# The camera's focal length in frame widths. Unknown (the frame may be cropped, the lens anything from a Pi camera's 66
# degrees across to a webcam's 50); the fit hardly depends on it: at 0.8 and 1.1 the sizes it gave differed by 0.1%.
FOCAL_SHARE = 1.0
FIT_STEPS = 12  # Levenberg-Marquardt steps at the most; two parameters settle in 2-5
SETTLED_TILT = 1e-4  # radians: a step of the fit moving the tilt less than this ends it (sizes move by 1e-4)
# Each card is weighted down by how badly it fits (a Cauchy weight at this many times the median card's squared
# misfit): a card found a tenth too large or too small then pulls the tilt little.
OUTLIER_SCALE = 4.0
# Where the tilted table says a size this far from the nearest card's, the fit is not believed (perhaps most cards it
# was fitted to lie at the other end of the table, or are misfound).
MAX_PLANE_DISAGREEMENT = (0.7, 1.4)
# A card turned further than this from the nearest card on the table lies across it, and is sized turned its own way
# (`CardSizes.laid_from`); less, as the nearest card is turned (laid at its own turn everywhere, the cards the searches
# found moved a few pixels, and what grew from them changed: seeds 601-603 lost more cards than they found).
TURNED_ACROSS = math.pi / 4

# The printed card on the table plane, one card width wide, centred; corners in the order of a found card's (TL, TR,
# BR, BL).
_CARD = np.array([[-0.5, -CARD_DEPTH / 2], [0.5, -CARD_DEPTH / 2], [0.5, CARD_DEPTH / 2], [-0.5, CARD_DEPTH / 2]])
_CARD_SQUARED = float((_CARD * _CARD).sum())
_CARD_CORNERS = _CARD.tolist()
# The printed card's corners as one row (x0, y0, x1, ...), and turned a quarter (-y0, x0, ...): a card's row of corners
# times these gives how far it lies along the printed card and across it.
_CARD_ROWS = np.column_stack([_CARD.ravel(), np.column_stack([-_CARD[:, 1], _CARD[:, 0]]).ravel()])
# A card's row of corners times this is the same less their middle.
_LESS_MIDDLE = np.eye(8) - np.tile(np.eye(2), (4, 4)) / 4


def rotation(tilt) -> list[list[float]]:
    """The rotation by the rotation vector (tilt[0], tilt[1], 0), as cv2.Rodrigues gives it, in plain floats (the fit
    asks one for each tilt it tries, and OpenCV's call costs more than the sums): Rodrigues' formula, with
    sin(a)/a and (1 - cos(a))/a^2 written so that they hold at a = 0."""
    x, y = float(tilt[0]), float(tilt[1])
    angle = math.hypot(x, y)
    cos = math.cos(angle)
    along = math.sin(angle) / angle if angle else 1.0
    half_sine = math.sin(angle / 2) / (angle / 2) if angle else 1.0
    across = 0.5 * half_sine * half_sine
    return [[cos + across * x * x, across * x * y, along * y],
            [across * x * y, cos + across * y * y, -along * x],
            [-along * y, along * x, cos]]


def plane_to_image(tilt, focal: float, centre: tuple[float, float]) -> np.ndarray:
    """The homography from the table plane (units of the camera's distance) to frame pixels, for a pinhole camera
    turned by `tilt` (a rotation vector's x and y, radians) about its centre of view."""
    lens = np.array([[focal, 0.0, centre[0]], [0.0, focal, centre[1]], [0.0, 0.0, 1.0]])
    turned = np.array(rotation(tilt))
    return lens @ np.column_stack([turned[:, 0], turned[:, 1], [0.0, 0.0, focal]])


def image_to_plane(tilt, focal: float, centre: tuple[float, float]) -> list[list[float]]:
    """`plane_to_image`'s inverse, in closed form and plain floats (the fit asks it for three tilts at a time, some ten
    times a frame): the rotation's transpose undoes it, and the plane's third column (the camera's distance) is undone
    by its own row. The frame point (u, v) is first the ray ((u - cx) / f, (v - cy) / f, 1)."""
    turned = rotation(tilt)
    centre_x, centre_y = centre[0] / focal, centre[1] / focal
    # The rotation's transpose times the lens's inverse: row i is (R[0][i] / f, R[1][i] / f, R[2][i] - the centre's).
    ray = [[turned[0][i] / focal, turned[1][i] / focal,
            turned[2][i] - centre_x * turned[0][i] - centre_y * turned[1][i]] for i in range(3)]
    x, y, z = turned[2]
    return [[a - x / z * c for a, c in zip(ray[0], ray[2])], [b - y / z * c for b, c in zip(ray[1], ray[2])],
            [c / (focal * z) for c in ray[2]]]


class TablePlane:
    """The table as fitted: where a card lies on it, and so how large it looks there."""

    def __init__(self, tilt: np.ndarray, to_image: np.ndarray, card_angles: np.ndarray):
        self.tilt = tilt  # the camera's, as `plane_to_image` takes it
        self.card_angles = card_angles  # each fitted card's turn on the table, radians
        # The map from the table to the frame (`to_image`) and back, as plain floats: the searches ask sizes of every
        # place they lay, and numpy's calls cost more than the sums.
        self._to_rows, self._from_rows = to_image.tolist(), np.linalg.inv(to_image).tolist()

    def card_size_at(self, point, angle: float) -> tuple[float, float]:
        """Width and depth in pixels of a card centred at `point` in the frame, turned by `angle` on the table."""
        x, y = _mapped(self._from_rows, float(point[0]), float(point[1]))
        cos, sin = math.cos(angle), math.sin(angle)
        seen = [_mapped(self._to_rows, u * cos - v * sin + x, u * sin + v * cos + y) for u, v in _CARD_CORNERS]
        (x0, y0), (x1, y1), (x2, y2), (x3, y3) = seen
        top, bottom = math.hypot(x1 - x0, y1 - y0), math.hypot(x2 - x3, y2 - y3)
        left, right = math.hypot(x3 - x0, y3 - y0), math.hypot(x2 - x1, y2 - y1)
        return (top + bottom) / 2, (left + right) / 2

    def angle_along(self, point, way) -> float:
        """The turn on the table of a card whose top edge runs from `point` the frame's way `way` (a vector)."""
        x, y = float(point[0]), float(point[1])
        x0, y0 = _mapped(self._from_rows, x, y)
        x1, y1 = _mapped(self._from_rows, float(point[0] + way[0]), float(point[1] + way[1]))
        return math.atan2(y1 - y0, x1 - x0)


def _mapped(rows, x: float, y: float) -> tuple[float, float]:
    """The point (x, y) through the homography `rows` (a 3x3 matrix as nested lists of floats)."""
    (a, b, c), (d, e, f), (g, h, i) = rows
    w = g * x + h * y + i
    return (a * x + b * y + c) / w, (d * x + e * y + f) / w


def _misfits(tilts: np.ndarray, corners: np.ndarray, focal: float, centre: tuple[float, float],
             weights: np.ndarray) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """For each tilt (a row of `tilts`): each card's corners (`corners`: one row of homogeneous corners per card
    corner, four rows a card) laid back on the table tilted so, less the printed card turned and moved onto them, all
    cards at one size (the weighted best), relative to that size, in one row (eight per card). Also the sizes, and how
    far each card lies along the printed card and across it (its turn), a row of cards per tilt."""
    to_plane = np.array([image_to_plane(tilt, focal, centre) for tilt in tilts.tolist()])
    laid = corners @ to_plane.transpose(0, 2, 1)
    laid = (laid[..., :2] / laid[..., 2:]).reshape(len(tilts), -1, 8) @ _LESS_MIDDLE
    # The turn that lays the printed card best onto each card's corners (2-D Procrustes), in closed form.
    turn = laid @ _CARD_ROWS
    match = np.hypot(turn[..., 0], turn[..., 1])
    size = (match @ weights) / (weights.sum() * _CARD_SQUARED)
    turned = (turn / match[..., None]) @ _CARD_ROWS.T
    misfits = (laid - size[:, None, None] * turned) * (np.sqrt(weights)[None, :, None] / size[:, None, None])
    return misfits.reshape(len(tilts), -1), size, turn


def _settled(tilt: np.ndarray, misfits) -> tuple[np.ndarray, tuple]:
    """The tilt Levenberg-Marquardt steps from `tilt` on to, `misfits` (`_misfits` of some tilts) least squared, and
    `_misfits` of it alone. Each tilt tried is worked out with the two nudged from it (for the slopes) in one call:
    a try is mostly taken, and its slopes are then asked next."""
    damping, nudge = 1e-3, 1e-6
    nudges = np.eye(2) * nudge

    def with_nudged(at: np.ndarray):
        rows, sizes, turns = misfits(np.vstack([at, at + nudges]))
        return rows[0], rows[1:], (rows[0], sizes[0], turns[0])

    here, nudged, alone = with_nudged(tilt)
    for _ in range(FIT_STEPS):
        slopes = ((nudged - here) / nudge).T
        normal, gradient, least = slopes.T @ slopes, slopes.T @ here, here @ here
        while damping < 1e6:
            move = -np.linalg.solve(normal + damping * np.diag(np.diag(normal) + 1e-12), gradient)
            tried, tried_nudged, tried_alone = with_nudged(tilt + move)
            if tried @ tried < least:
                tilt, here, nudged, alone = tilt + move, tried, tried_nudged, tried_alone
                damping = max(damping / 10, 1e-6)
                break
            damping *= 10
        else:
            return tilt, alone
        if np.abs(move).max() < SETTLED_TILT:
            return tilt, alone
    return tilt, alone


def fit_table_plane(cards: list[np.ndarray], shape, start: np.ndarray | None = None) -> TablePlane | None:
    """The tilted table on which `cards` (corner arrays, of one printed size) are most nearly that size and shape;
    None for fewer than MIN_PLANE_CARDS. `shape` is the frame's (height, width, ...); the fit starts from the tilt
    `start` (another fit's, in the same frame), or an untilted camera; each card is weighted down by how badly it
    fits there (OUTLIER_SCALE), and from an untilted camera, only once the cards alike have given a tilt."""
    if len(cards) < MIN_PLANE_CARDS:
        return None
    corners = np.column_stack([np.concatenate(cards).astype(np.float64), np.ones(4 * len(cards))])
    height, width = shape[:2]
    focal, centre = FOCAL_SHARE * width, (width / 2, height / 2)
    alike = np.ones(len(cards))
    if start is None:
        tilt, (rows, _, _) = _settled(np.zeros(2), lambda tilts: _misfits(tilts, corners, focal, centre, alike))
    else:
        tilt, rows = start, _misfits(start[None], corners, focal, centre, alike)[0][0]
    squared = (rows.reshape(-1, 8) ** 2).sum(axis=1)
    weights = 1.0 / (1.0 + squared / (OUTLIER_SCALE * max(float(np.median(squared)), 1e-12)))
    tilt, (_, size, turn) = _settled(tilt, lambda tilts: _misfits(tilts, corners, focal, centre, weights))
    return TablePlane(tilt, plane_to_image(tilt, focal, centre) @ np.diag([float(size), float(size), 1.0]),
                      np.arctan2(turn[:, 1], turn[:, 0]))


_NOT_FITTED = object()  # the cards' table, not fitted yet (None is a fit that failed)


class CardSizes:
    """The width and depth a card has anywhere in one frame, as the cards found in it so far say (a scan makes one and
    asks it of its growing list of cards, and of that list less one card, many times over)."""

    def __init__(self, shape):
        self.shape = shape  # the frame's (height, width, ...)
        self._fitted: tuple = ()  # the cards last asked of, held (so no new array can take one's id)
        self._centres: list[tuple[float, float]] = []  # their centres (`card_centres`), asked of every place laid
        self._plane: TablePlane | None | object = None  # their table (None: too few cards), or _NOT_FITTED yet
        self._tilt: np.ndarray | None = None  # the last fit's tilt: where the next starts

    def at(self, point, cards: list[np.ndarray]) -> tuple[float, float] | None:
        """Width and depth in pixels a card centred at `point` would have, turned as the nearest of `cards` is: on
        the table fitted to `cards` (`fit_table_plane`) where there are enough of them and it agrees with the
        nearest card within MAX_PLANE_DISAGREEMENT, else the nearest card's own. None where there are no cards."""
        if not cards:
            return None
        return self._sized(point, cards)[0]

    def laid_from(self, corner, width_way, depth_way, cards: list[np.ndarray]) -> tuple[float, float] | None:
        """Width and depth in pixels of a card laid from the frame point `corner` with its width along the frame's
        way `width_way` and its depth along `depth_way` (unit vectors). Turned as the nearest card is (within
        TURNED_ACROSS), `at`'s size there; turned across it, on the fitted table (where `at` takes it from there)
        turned that way and centred where it then lies: seen aslant, a card turned a quarter is not the same size."""
        if not cards:
            return None
        size, plane, angle = self._turned(corner, width_way, cards)
        if angle is None:
            return size
        width, depth = plane.card_size_at(corner, angle)
        centre = (corner[0] + (width * width_way[0] + depth * depth_way[0]) / 2,
                  corner[1] + (width * width_way[1] + depth * depth_way[1]) / 2)
        return plane.card_size_at(centre, angle)

    def turned_at(self, point, width_way, cards: list[np.ndarray]) -> tuple[float, float] | None:
        """Width and depth in pixels of a card centred at `point` with its width along the frame's way `width_way`:
        as `laid_from` sizes it, from its centre."""
        if not cards:
            return None
        size, plane, angle = self._turned(point, width_way, cards)
        return size if angle is None else plane.card_size_at(point, angle)

    def _turned(self, point, width_way, cards: list[np.ndarray]):
        """`at`'s size at `point`, the fitted table if that gave it, and the turn on it of a card whose width runs
        `width_way` where that is turned across the nearest card (TURNED_ACROSS; else None)."""
        size, plane, nearest = self._sized(point, cards)
        if plane is None:
            return size, None, None
        angle = plane.angle_along(point, width_way)
        if abs(math.remainder(angle - float(plane.card_angles[nearest]), math.pi)) < TURNED_ACROSS:
            return size, plane, None
        return size, plane, angle

    def largest_area(self, point, cards: list[np.ndarray]) -> float | None:
        """An area in square pixels that `at`'s size at `point` has less of (the nearest card's own, widened by
        MAX_PLANE_DISAGREEMENT's top both ways), without fitting the table (a frame's outlines are mostly cards, and
        this is enough to tell that they are not fragments of one). None where there are no cards."""
        if not cards:
            return None
        self._follow(cards)
        width, depth = mean_sides(cards[nearest_centre(point, self._centres)])
        return width * depth * MAX_PLANE_DISAGREEMENT[1] ** 2

    def _follow(self, cards: list[np.ndarray]) -> None:
        """Keeps the centres of `cards` if they are not the cards of the last call; their table is fitted when asked."""
        if len(self._fitted) != len(cards) or any(a is not b for a, b in zip(self._fitted, cards)):
            self._fitted, self._centres, self._plane = tuple(cards), card_centres(cards), _NOT_FITTED

    def _sized(self, point, cards: list[np.ndarray]) -> tuple[tuple[float, float], TablePlane | None, int]:
        """`at`'s size, the fitted table if that is what gave it, and the nearest card's index."""
        self._follow(cards)
        if self._plane is _NOT_FITTED:
            self._plane = fit_table_plane(cards, self.shape, self._tilt)
            if self._plane is not None:
                self._tilt = self._plane.tilt
        nearest = nearest_centre(point, self._centres)
        own = mean_sides(cards[nearest])
        if self._plane is None:
            return own, None, nearest
        width, depth = self._plane.card_size_at(point, float(self._plane.card_angles[nearest]))
        low, high = MAX_PLANE_DISAGREEMENT
        if not (low < width / own[0] < high and low < depth / own[1] < high):
            return own, None, nearest
        return (width, depth), self._plane, nearest
