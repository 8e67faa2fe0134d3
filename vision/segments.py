"""Card corners found from straight edges (OpenCV's line segment detector) near an outline that explained nothing.

The detector's outlines come from regions: where a card's edge is faint (a pale card on a pale cloth, dark art on a
dark one) or a hand or an arm is welded to it, the region's corners are far from the card's. A card's edges are
still long straight lines, and two of them meeting square are a corner a card can be laid from."""

from __future__ import annotations

import numpy as np

from .placements import Corner

SEGMENT_SCALE = 0.5  # segments are found in a copy of the region this size (a quarter of the pixels and of the time)
MIN_SEGMENT = 0.3  # the shortest segment that may be a card's side, in card depths
CORNER_GAP = 0.12  # how far (in card depths) a segment may end from the corner it makes with another
MAX_SEGMENT_COSINE = 0.35  # segments meeting between about 70 and 110 degrees may be a card's sides
REGION_MARGIN = 1.1  # segments are looked for within this many card depths of an outline's middle or corner


def _detector():
    import cv2

    return cv2.createLineSegmentDetector()


def segment_corners(gray: np.ndarray, around: np.ndarray, depth: float) -> list[Corner]:
    """The corners two long straight segments make, meeting roughly square, within REGION_MARGIN card depths of the
    point `around` in the full-resolution grey frame; `depth` is the frame's card depth there. Each corner's sides
    run along its segments, as long as they reach from it."""
    import cv2

    reach = REGION_MARGIN * depth
    height, width = gray.shape[:2]
    left, top = max(0, int(around[0] - reach)), max(0, int(around[1] - reach))
    right, bottom = min(width, int(around[0] + reach) + 1), min(height, int(around[1] + reach) + 1)
    if right - left < 8 or bottom - top < 8:
        return []
    region = cv2.resize(gray[top:bottom, left:right], None, fx=SEGMENT_SCALE, fy=SEGMENT_SCALE,
                        interpolation=cv2.INTER_AREA)
    found = _detector().detect(region)[0]
    if found is None:
        return []
    segments = found.reshape(-1, 2, 2).astype(np.float64) / SEGMENT_SCALE + (left, top)
    lengths = np.linalg.norm(segments[:, 1] - segments[:, 0], axis=1)
    long_enough = lengths >= MIN_SEGMENT * depth
    segments, lengths = segments[long_enough], lengths[long_enough]
    if len(segments) < 2:
        return []
    starts = segments[:, 0]
    directions = (segments[:, 1] - starts) / lengths[:, None]
    # Every pair at once: where their lines cross, and how far that is from each segment's nearer end.
    cosines = directions @ directions.T
    determinants = directions[:, None, 1] * directions[None, :, 0] - directions[:, None, 0] * directions[None, :, 1]
    offsets = starts[None, :, :] - starts[:, None, :]
    with np.errstate(divide="ignore", invalid="ignore"):  # parallel pairs cross nowhere (inf, nan): never corners
        along_first = (offsets[..., 1] * directions[None, :, 0] - offsets[..., 0] * directions[None, :, 1]) / \
            determinants
        crossings = starts[:, None, :] + along_first[..., None] * directions[:, None, :]
    gap_first = np.linalg.norm(crossings[:, :, None, :] - segments[:, None, :, :], axis=3).min(axis=2)
    gap_second = np.linalg.norm(crossings[:, :, None, :] - segments[None, :, :, :], axis=3).min(axis=2)
    pairs = (np.abs(cosines) < MAX_SEGMENT_COSINE) & (gap_first < CORNER_GAP * depth) & \
        (gap_second < CORNER_GAP * depth) & np.triu(np.ones_like(cosines, dtype=bool), 1)
    corners = []
    for i, j in zip(*np.nonzero(pairs)):
        point = crossings[i, j]
        sides = []
        for k in (i, j):
            far_end = max(segments[k], key=lambda end: float(np.linalg.norm(end - point)))
            length = float(np.linalg.norm(far_end - point))
            sides.append(((far_end - point) / length, length))
        (u, length_u), (v, length_v) = sides
        corners.append(Corner(point, (u, v), (length_u, length_v)))
    return corners
