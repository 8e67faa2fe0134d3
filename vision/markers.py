"""ArUco markers that pin down the table plane: one at each corner of the play area.

Marker ids 0..3 go at the table corners as seen from seat 0: near-left, near-right, far-right, far-left.
"""
from __future__ import annotations

import numpy as np

DICTIONARY = "DICT_4X4_50"
TABLE_MARKER_IDS = (0, 1, 2, 3)


def _dictionary():
    import cv2

    return cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY))


def marker_image(marker_id: int, side_px: int) -> np.ndarray:
    """A marker with its one-module white quiet zone, as a grayscale image of side_px."""
    import cv2

    border = side_px // 8
    inner = cv2.aruco.generateImageMarker(_dictionary(), marker_id, side_px - 2 * border)
    return cv2.copyMakeBorder(inner, border, border, border, border, cv2.BORDER_CONSTANT, value=255)


def marker_sheet(dpi: int = 150) -> np.ndarray:
    """An A4 page with the four table markers (5 cm each) and their placement written under each."""
    import cv2

    width, height = int(8.27 * dpi), int(11.69 * dpi)
    page = np.full((height, width), 255, np.uint8)
    side = int(5 / 2.54 * dpi)
    labels = ("near-left", "near-right", "far-right", "far-left")
    for index, marker_id in enumerate(TABLE_MARKER_IDS):
        # Laid out as on the table, seen from seat 0: near corners at the bottom of the page.
        col, row = ((0, 1), (1, 1), (1, 0), (0, 0))[index]
        x = int(width * (0.12 + 0.45 * col))
        y = int(height * (0.08 + 0.45 * row))
        page[y:y + side, x:x + side] = marker_image(marker_id, side)
        cv2.putText(page, f"marker {marker_id}: {labels[index]} corner (seen from seat 0)", (x - 20, y + side + 40),
                    cv2.FONT_HERSHEY_SIMPLEX, dpi / 300, 0, 2)
    cv2.putText(page, "Tabletop companion: cut out and place at the four corners of the play area",
                (int(width * 0.05), int(height * 0.97)), cv2.FONT_HERSHEY_SIMPLEX, dpi / 300, 0, 2)
    return page


def find_table_corners(frame: np.ndarray) -> np.ndarray | None:
    """Image points of the four marker centres in TABLE_MARKER_IDS order, or None unless all four are seen."""
    import cv2

    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    detector = cv2.aruco.ArucoDetector(_dictionary(), cv2.aruco.DetectorParameters())
    corners, ids, _ = detector.detectMarkers(gray)
    if ids is None:
        return None
    centres = {int(i): c.reshape(4, 2).mean(axis=0) for i, c in zip(ids.ravel(), corners)}
    if not all(i in centres for i in TABLE_MARKER_IDS):
        return None
    return np.array([centres[i] for i in TABLE_MARKER_IDS], np.float64)
