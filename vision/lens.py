"""How a wide-angle lens bends the picture, and how to straighten it again.

Camera Module 3 Wide and the HQ Camera's 6 mm lens show straight lines bowed outwards (barrel distortion): cards
near the picture's corners come out smaller and curved, and fewer are found and read right (`companion vision bench
--lens-bend`). `calibrate` measures a lens from pictures of a printed chessboard (`chessboard_sheet`) laid flat in several
places under the camera, with OpenCV's camera calibration; the `LensCorrection` it gives straightens each frame
before it is read (`vision.pipeline.Recogniser(lens=...)`) and maps what was found back onto the picture as taken.

The synthetic scenes are bent by a lens of one radial term (`seen_through`, `through_lens`): a point at distance r
from the picture's middle (in half-diagonals) is seen at r * (1 + bend * r^2) / (1 + bend), so the picture's corners
stay where they are and straight lines bow outwards between them (bend < 0; > 0 is pincushion)."""
from __future__ import annotations

import functools
import json
import logging
import os
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .user_files import user_path

log = logging.getLogger(__name__)

LONGEST_BEND = 0.3  # from -1/3, r * (1 + bend * r^2) stops growing before the corners: no lens to model
BOARD = (9, 6)  # the printed chessboard's inner corners (columns, rows): 10 x 7 squares
SQUARE_MM = 25  # 250 x 175 mm: the board fills an A4 page within a printer's margins
# Where to lay the sheet for a measurement, as shares of the picture: the middle, then towards each corner and each
# side (`companion vision lens`, the touchscreen's lens screen, and the synthetic pictures of the bench).
PLACES = ((0.5, 0.5), (0.2, 0.2), (0.8, 0.2), (0.8, 0.8), (0.2, 0.8), (0.5, 0.17), (0.85, 0.5), (0.5, 0.83),
          (0.15, 0.5))
ASPECT_TOLERANCE = 0.01  # pictures whose shape differs more from the measured ones are another crop of the sensor
MIN_PICTURES = 4  # of the chessboard, in different places, for a calibration
MAX_ERROR_PX = 2.0  # a calibration whose corners miss by more than this (RMS) did not measure a lens
# How far a lens must bow the line along the picture's top edge, as a share of the picture's height, before its
# pictures are straightened (`straightening`; docs/vision.md, "A wide-angle lens"). On the held-out bench scenes with
# the table markers laid (`bench --layout`), straightening (about 12 ms a frame on stop 50's machine) found 10 more
# cards of 914 at a bow of 1.6% (bend -0.05) and 12 and 13 more on two sets at 3.5%: a bowed checked cloth no longer
# repeats with one period, and the cards on it are lost. At 1.0% it found 4 fewer: the resampling costs more than
# the bow. Stop 50 had straightened only from 5%, on scenes with fewer checked cloths.
STRAIGHTEN_FROM = 0.015


class LensError(Exception):
    pass


# -- the simulated lens ------------------------------------------------------------------------------------------


def seen_through(points: np.ndarray, bend: float, size: tuple[int, int]) -> np.ndarray:
    """Where a lens bending so (`bend`) shows the points of an undistorted picture of `size` (width, height)."""
    points = np.asarray(points, np.float64)
    middle, half_diagonal = _middle(size)
    offsets = (points - middle) / half_diagonal
    squared = (offsets * offsets).sum(axis=-1, keepdims=True)
    return middle + offsets * half_diagonal * (1 + bend * squared) / (1 + bend)


def through_lens(image: np.ndarray, bend: float) -> np.ndarray:
    """The picture as a lens bending so (`bend`) shows it: each pixel fetched from the undistorted place it shows."""
    import cv2

    height, width = image.shape[:2]
    map_x, map_y = _source_maps(bend, width, height)
    return cv2.remap(image, map_x, map_y, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT)


@functools.lru_cache(maxsize=4)
def _source_maps(bend: float, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """Per pixel of the bent picture, the undistorted point it shows (the inverse of `seen_through`, by
    interpolating its radial profile, which is monotone for |bend| < LONGEST_BEND)."""
    if not abs(bend) < LONGEST_BEND:
        raise ValueError(f"a lens bend of {bend} is beyond what one radial term models (|bend| < {LONGEST_BEND})")
    middle, half_diagonal = _middle((width, height))
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float64)
    offsets_x, offsets_y = (xs - middle[0]) / half_diagonal, (ys - middle[1]) / half_diagonal
    seen_radius = np.hypot(offsets_x, offsets_y)
    radii = np.linspace(0.0, 1.0, 2001)  # a frame's corners are at 1, seen and true
    shown_at = radii * (1 + bend * radii * radii) / (1 + bend)
    true_radius = np.interp(seen_radius, shown_at, radii)
    scale = np.divide(true_radius, seen_radius, out=np.ones_like(seen_radius), where=seen_radius > 0)
    return ((middle[0] + offsets_x * scale * half_diagonal).astype(np.float32),
            (middle[1] + offsets_y * scale * half_diagonal).astype(np.float32))


def _middle(size: tuple[int, int]) -> tuple[np.ndarray, float]:
    width, height = size
    return np.array([(width - 1) / 2, (height - 1) / 2]), float(np.hypot(width - 1, height - 1) / 2)


# -- measuring a real lens and straightening its pictures -------------------------------------------------------


def chessboard_sheet(dpi: int = 150) -> np.ndarray:
    """A printable A4 page (landscape, grey uint8) with a chessboard of BOARD's inner corners, SQUARE_MM squares."""
    square = max(4, round(SQUARE_MM / 25.4 * dpi))
    page_width, page_height = round(297 / 25.4 * dpi), round(210 / 25.4 * dpi)
    columns, rows = BOARD[0] + 1, BOARD[1] + 1
    squares = (np.add.outer(np.arange(rows), np.arange(columns)) % 2).astype(np.uint8)
    board = 255 - np.kron(squares, np.ones((square, square), np.uint8)) * 255
    page = np.full((max(page_height, board.shape[0]), max(page_width, board.shape[1])), 255, np.uint8)
    top, left = (page.shape[0] - board.shape[0]) // 2, (page.shape[1] - board.shape[1]) // 2
    page[top:top + board.shape[0], left:left + board.shape[1]] = board
    return page


def find_chessboard(picture: np.ndarray) -> np.ndarray | None:
    """The chessboard's inner corners in the picture (BOARD[0] * BOARD[1] x 2, row by row), or None."""
    import cv2

    from .frames import to_bgr8

    gray = cv2.cvtColor(to_bgr8(picture), cv2.COLOR_BGR2GRAY)
    found, corners = cv2.findChessboardCornersSB(gray, BOARD, flags=cv2.CALIB_CB_NORMALIZE_IMAGE)
    return corners.reshape(-1, 2).astype(np.float64) if found else None


@dataclass(frozen=True, eq=False)  # arrays: equal and hashed by their numbers (below), for the caches
class LensCorrection:
    """OpenCV's camera matrix and distortion coefficients of a lens, for pictures of `size` (width, height)."""

    camera_matrix: np.ndarray
    distortion: np.ndarray
    size: tuple[int, int]
    error_px: float = 0.0  # how far the chessboard corners lay from the fitted model (RMS), when it was measured

    def straighten(self, picture: np.ndarray) -> np.ndarray:
        """The picture as a lens without distortion shows it, every pixel of it kept (the middle a little smaller,
        the edges the table's colour carried outwards)."""
        import cv2

        map_1, map_2 = _maps(self, picture.shape[1], picture.shape[0])
        return cv2.remap(picture, map_1, map_2, cv2.INTER_LINEAR, borderMode=cv2.BORDER_REPLICATE)

    def to_picture(self, points: np.ndarray, width: int, height: int) -> np.ndarray:
        """Points of the straightened picture, where they lie in the picture as taken (`width` x `height`)."""
        import cv2

        points = np.asarray(points, np.float64)
        matrix, straight_matrix = _matrices(self, width, height)
        # The straightened picture's pixels as rays, bent by the lens onto the sensor (projectPoints applies the
        # distortion; the inverse of what straighten's maps do).
        rays = cv2.convertPointsToHomogeneous(
            cv2.perspectiveTransform(points.reshape(-1, 1, 2), np.linalg.inv(straight_matrix))).astype(np.float64)
        projected, _ = cv2.projectPoints(rays, np.zeros(3), np.zeros(3), matrix, self.distortion)
        return projected.reshape(points.shape)

    def fits(self, width: int, height: int) -> bool:
        """Whether pictures of this size are the measured ones, or the same scaled (another resolution of the same
        view); another shape is another crop of the sensor, which this measurement does not describe."""
        return abs(width * self.size[1] - height * self.size[0]) <= ASPECT_TOLERANCE * self.size[0] * height

    def __hash__(self) -> int:
        return hash((self.camera_matrix.tobytes(), self.distortion.tobytes(), self.size))

    def __eq__(self, other) -> bool:
        return isinstance(other, LensCorrection) and self.size == other.size and \
            np.array_equal(self.camera_matrix, other.camera_matrix) and np.array_equal(self.distortion, other.distortion)

    def to_json(self) -> dict:
        return {"camera_matrix": self.camera_matrix.tolist(), "distortion": self.distortion.ravel().tolist(),
                "size": list(self.size), "error_px": self.error_px}

    @classmethod
    def from_json(cls, data: dict) -> "LensCorrection":
        try:
            matrix = np.array(data["camera_matrix"], np.float64)
            distortion = np.array(data["distortion"], np.float64).ravel()
            size = tuple(int(v) for v in data["size"])
            error = float(data.get("error_px", 0.0))
        except (KeyError, TypeError, ValueError) as error:
            raise LensError(f"not a lens correction ({error})") from None
        if matrix.shape != (3, 3) or len(distortion) not in (4, 5, 8, 12, 14) or len(size) != 2 or min(size) <= 0 \
                or not np.isfinite(matrix).all() or not np.isfinite(distortion).all() or matrix[0, 0] <= 0:
            raise LensError("not a lens correction (its camera matrix, distortion or size is malformed)")
        return cls(matrix, distortion, (size[0], size[1]), error)

    def save(self, path: Path | str) -> Path:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        partial = path.with_name(path.name + ".part")
        partial.write_text(json.dumps(self.to_json(), indent=1))
        os.replace(partial, path)  # a crash mid-write leaves the old correction whole
        return path

    @classmethod
    def load(cls, path: Path | str) -> "LensCorrection":
        try:
            data = json.loads(Path(path).read_text())
        except (OSError, ValueError) as error:
            raise LensError(f"cannot read the lens correction {path}: {error}") from None
        if not isinstance(data, dict):
            raise LensError(f"{path} is not a lens correction")
        return cls.from_json(data)


@functools.lru_cache(maxsize=4)
def _matrices(lens: LensCorrection, width: int, height: int) -> tuple[np.ndarray, np.ndarray]:
    """The camera matrix for pictures of this size (the lens's, scaled), and that of the straightened picture."""
    import cv2

    if not lens.fits(width, height):
        raise LensError(f"the lens was measured on {lens.size[0]}x{lens.size[1]} pictures, not {width}x{height} "
                        "ones (another shape of picture): measure it again at this size")
    scale = np.diag([width / lens.size[0], height / lens.size[1], 1.0])
    matrix = scale @ lens.camera_matrix
    # alpha 1: the straightened picture keeps every pixel of the picture taken (a card at its edge stays whole).
    straight, _ = cv2.getOptimalNewCameraMatrix(matrix, lens.distortion, (width, height), 1.0)
    return matrix, straight


@functools.lru_cache(maxsize=4)
def _maps(lens: LensCorrection, width: int, height: int):
    """`straighten`'s remap tables for pictures of this size (built once per size)."""
    import cv2

    matrix, straight = _matrices(lens, width, height)
    return cv2.initUndistortRectifyMap(matrix, lens.distortion, None, straight, (width, height), cv2.CV_16SC2)


def bow_px(lens: LensCorrection) -> float:
    """How far, in pixels, the lens bows the straight line that its pictures show along their top edge: how much
    it bends, in the terms a user sees."""
    import cv2

    width, height = lens.size
    matrix, straight = _matrices(lens, width, height)
    ends = cv2.undistortPoints(np.array([[[0.0, 0.0]], [[width - 1.0, 0.0]]]), matrix, lens.distortion,
                               P=straight).reshape(2, 2)
    line = lens.to_picture(ends[0] + np.linspace(0, 1, 41)[:, None] * (ends[1] - ends[0]), width, height)
    chord = line[-1] - line[0]
    normal = np.array([-chord[1], chord[0]]) / np.hypot(*chord)
    return float(np.abs((line - line[0]) @ normal).max())


def bow_share(lens: LensCorrection) -> float:
    """`bow_px` as a share of the picture's height."""
    return bow_px(lens) / lens.size[1]


def straightening(lens: LensCorrection | None) -> LensCorrection | None:
    """The lens correction if its pictures are worth straightening (STRAIGHTEN_FROM), else None."""
    return lens if lens is not None and bow_share(lens) >= STRAIGHTEN_FROM else None


def calibrate(pictures, progress=None) -> LensCorrection:
    """The lens correction measured from pictures of the printed chessboard (`chessboard_sheet`) lying flat in
    different places (`measure`); `progress(index, found)` is told of each picture. Raises LensError when too few
    pictures show the board or the fit is poor."""
    found, size = [], None
    for index, picture in enumerate(pictures):
        if picture is None or getattr(picture, "ndim", 0) < 2:
            continue
        shape = (picture.shape[1], picture.shape[0])
        if size is not None and shape != size:
            raise LensError(f"picture {index + 1} is {shape[0]}x{shape[1]}, the others {size[0]}x{size[1]}: "
                            "take them all with the same camera setting")
        size = shape
        corners = find_chessboard(picture)
        if corners is not None:
            found.append(corners)
        if progress:
            progress(index + 1, corners is not None)
    return measure(found, size)


def measure(boards: list[np.ndarray], size: tuple[int, int] | None) -> LensCorrection:
    """The lens correction from the chessboard's corners (`find_chessboard`) in pictures of `size` (width, height):
    OpenCV's calibration, with the focal length held at a guess (pictures of one plane, the table, cannot tell it;
    straightening does not need it) and the principal point at the middle."""
    import cv2

    if len(boards) < MIN_PICTURES or size is None:
        raise LensError(f"the chessboard was found in {len(boards)} picture(s); {MIN_PICTURES} or more are needed, "
                        "with the whole sheet in view, in the middle and towards each corner of the picture")
    board = np.zeros((BOARD[0] * BOARD[1], 3), np.float32)
    board[:, :2] = np.mgrid[0:BOARD[0], 0:BOARD[1]].T.reshape(-1, 2)
    width, height = size
    guess = np.array([[width, 0, (width - 1) / 2], [0, width, (height - 1) / 2], [0, 0, 1]], np.float64)
    flags = (cv2.CALIB_USE_INTRINSIC_GUESS | cv2.CALIB_FIX_FOCAL_LENGTH | cv2.CALIB_FIX_PRINCIPAL_POINT
             | cv2.CALIB_ZERO_TANGENT_DIST | cv2.CALIB_FIX_K3)
    try:
        error, matrix, distortion, _, _ = cv2.calibrateCamera(
            [board] * len(boards), [np.asarray(corners, np.float32).reshape(-1, 1, 2) for corners in boards], size,
            guess, np.zeros(5), flags=flags)
    except cv2.error as failure:  # corners no board could give (all in one place, or not a grid)
        raise LensError(f"the chessboard's corners fit no lens ({failure.err}): take the pictures again") from None
    if not (np.isfinite(error) and error <= MAX_ERROR_PX):
        raise LensError(f"the chessboard's corners miss the fitted lens by {error:.1f} px (RMS): lay the sheet flat "
                        "and still, and take the pictures again")
    return LensCorrection(matrix, distortion.ravel(), (int(width), int(height)), float(error))


def lens_path() -> Path:
    return user_path("lens.json", "COMPANION_LENS")


def default_lens() -> LensCorrection | None:
    """The lens correction `companion vision lens` saved, if there is one and it loads; else None."""
    path = lens_path()
    if not path.is_file():
        return None
    try:
        return LensCorrection.load(path)
    except LensError as error:
        log.warning("%s; the pictures are read without straightening (measure the lens again with "
                    "`companion vision lens`)", error)
        return None
