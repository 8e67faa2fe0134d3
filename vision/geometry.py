"""Table geometry: which seat a card belongs to, which creature, and which slot in it.

A calibration is the image position of the table's four corners as seen from seat 0: near-left, near-right,
far-right, far-left (the ArUco marker order). Seats: 0 near edge, 1 left, 2 far, 3 right. A card belongs to the
seat its top faces away from; a creature is a chain of cards each lying just above the previous one.
"""
from __future__ import annotations

import json
from dataclasses import dataclass, replace
from pathlib import Path

import numpy as np

from .table_state import PARTS, SeenCard

SEAT_UP = {0: (0.0, -1.0), 1: (1.0, 0.0), 2: (0.0, 1.0), 3: (-1.0, 0.0)}
TABLE_SQUARE = np.array([[0, 1], [1, 1], [1, 0], [0, 0]], np.float64)
# A column whose lowest card lies further than this (fraction of the table) from its owner's edge is not a
# creature: it is the discard pile in the middle.
MAX_CREATURE_REACH = 0.3
# A lone card this close to the table centre (fraction of the table, on both axes) is the discard pile even on a
# small table where the seats' edges are near.
MIDDLE_HALF_WIDTH = 0.25


class CalibrationError(ValueError):
    pass


@dataclass(frozen=True)
class Calibration:
    table_corners: tuple[tuple[float, float], ...]
    # The (width, height) of the picture the corners were found in, if known: a camera reading at another size
    # (a photo at full resolution calibrated, the camera run at 1280x960) gets them scaled (`for_picture`).
    picture_size: tuple[int, int] | None = None

    @classmethod
    def image_plane(cls, width: int, height: int) -> "Calibration":
        """No calibration: the frame itself is taken as the table, seat 0 at its bottom edge."""
        return cls(((0.0, float(height)), (float(width), float(height)), (float(width), 0.0), (0.0, 0.0)),
                   (int(width), int(height)))

    @classmethod
    def from_json(cls, data) -> "Calibration":
        try:
            corners = tuple((float(x), float(y)) for x, y in data["table_corners"])
        except (KeyError, TypeError, ValueError):
            raise CalibrationError("a calibration needs 'table_corners': four [x, y] image points") from None
        if len(corners) != 4:
            raise CalibrationError("a calibration needs exactly four table corners")
        size = data.get("picture_size")
        if size is not None:
            try:
                width, height = (int(value) for value in size)
            except (TypeError, ValueError):
                raise CalibrationError("'picture_size' must be [width, height] in pixels") from None
            if width < 1 or height < 1:
                raise CalibrationError("'picture_size' must be [width, height] in pixels")
            size = (width, height)
        calibration = cls(corners, size)
        try:
            calibration.homography()
        except np.linalg.LinAlgError:
            raise CalibrationError("the four table corners do not form a quadrilateral") from None
        return calibration

    def to_json(self) -> dict:
        data = {"table_corners": [list(point) for point in self.table_corners]}
        if self.picture_size is not None:
            data["picture_size"] = list(self.picture_size)
        return data

    def for_picture(self, width: int, height: int) -> "Calibration":
        """The calibration for pictures `width` x `height`: its corners scaled from the picture they were found in
        (the same view at another resolution), or as they are where that size is not known or the same."""
        if self.picture_size is None or self.picture_size == (width, height):
            return self
        scale_x, scale_y = width / self.picture_size[0], height / self.picture_size[1]
        return Calibration(tuple((x * scale_x, y * scale_y) for x, y in self.table_corners), (int(width), int(height)))

    @classmethod
    def load(cls, path: str | Path) -> "Calibration":
        try:
            return cls.from_json(json.loads(Path(path).read_text(encoding="utf-8")))
        except OSError as error:
            raise CalibrationError(f"cannot read the calibration file {path}: {error.strerror}") from None
        except ValueError as error:
            if isinstance(error, CalibrationError):
                raise
            raise CalibrationError(f"the calibration file {path} is not valid JSON") from None

    def save(self, path: str | Path) -> None:
        path = Path(path)
        temporary = path.with_suffix(path.suffix + ".tmp")
        temporary.write_text(json.dumps(self.to_json(), indent=1), encoding="utf-8")
        temporary.replace(path)

    def homography(self) -> np.ndarray:
        import cv2

        corners = np.float32(self.table_corners)
        area = cv2.contourArea(corners)
        if abs(area) < 1.0:
            raise np.linalg.LinAlgError("degenerate")
        return cv2.getPerspectiveTransform(corners, np.float32(TABLE_SQUARE))

    def to_table(self, points) -> np.ndarray:
        points = np.asarray(points, np.float64).reshape(-1, 2)
        mapped = np.column_stack([points, np.ones(len(points))]) @ self.homography().T
        return mapped[:, :2] / mapped[:, 2:3]


def _seat_of(up: np.ndarray) -> int:
    return max(SEAT_UP, key=lambda seat: float(np.dot(up, SEAT_UP[seat])))


def _distance_from_owner(seat: int, point: np.ndarray) -> float:
    x, y = point
    return {0: 1 - y, 1: x, 2: y, 3: 1 - x}[seat]


def _lateral(seat: int, point: np.ndarray) -> float:
    """Position along the owner's left-to-right direction."""
    x, y = point
    return {0: x, 1: y, 2: 1 - x, 3: 1 - y}[seat]


def assign(cards: list[SeenCard], calibration: Calibration) -> tuple[list[SeenCard], list[SeenCard]]:
    """Cards with seat, creature and slot set, and the cards lying in the middle (discard pile, strays)."""
    if not cards:
        return [], []
    corners = [np.asarray(card.corners, np.float64) for card in cards]
    centres = np.array([c.mean(axis=0) for c in corners])
    ups = np.array([(c[0] + c[1]) / 2 - (c[3] + c[2]) / 2 for c in corners])  # bottom edge to top edge
    table_centres = calibration.to_table(centres)
    table_ups = calibration.to_table(centres + ups) - table_centres
    seats = [_seat_of(u) for u in table_ups]

    above: dict[int, int] = {}
    below: set[int] = set()
    for i in range(len(cards)):
        expected = centres[i] + ups[i]
        tolerance = 0.35 * np.linalg.norm(ups[i])
        best, best_distance = None, tolerance
        for j in range(len(cards)):
            if j == i or seats[j] != seats[i] or j in below:
                continue
            distance = np.linalg.norm(centres[j] - expected)
            if distance < best_distance:
                best, best_distance = j, distance
        if best is not None:
            above[i] = best
            below.add(best)

    placed: list[SeenCard | None] = [None] * len(cards)
    middle: list[SeenCard] = []
    columns: dict[int, list[list[int]]] = {}
    for start in range(len(cards)):
        if start in below:
            continue
        chain = [start]
        while chain[-1] in above and len(chain) < 8:
            chain.append(above[chain[-1]])
        seat = seats[start]
        lone = len(chain) == 1
        centre = table_centres[start]
        in_middle = bool(np.all(np.abs(centre - 0.5) < MIDDLE_HALF_WIDTH))
        if lone and (in_middle or _distance_from_owner(seat, centre) > MAX_CREATURE_REACH):
            middle.append(cards[start])
            continue
        columns.setdefault(seat, []).append(chain)
    for seat, chains in columns.items():
        chains.sort(key=lambda chain: _lateral(seat, table_centres[chain[0]]))
        for creature, chain in enumerate(chains):
            for height, index in enumerate(chain):
                slot = PARTS[height] if height < len(PARTS) else None
                placed[index] = replace(cards[index], seat=seat, creature=creature, slot=slot)
    return [card for card in placed if card is not None], middle
