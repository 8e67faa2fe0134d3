"""Card corners found from straight edges (OpenCV's line segment detector) near an outline that explained nothing.

The detector's outlines come from regions: where a card's edge is faint (a pale card on a pale cloth, dark art on a
dark one) or a hand or an arm is welded to it, the region's corners are far from the card's. A card's edges are
still long straight lines, and two of them meeting square are a corner a card can be laid from."""

from __future__ import annotations

import math

import numpy as np

from .placements import Corner

SEGMENT_SCALE = 0.5  # segments are found in a copy of the region this size (a quarter of the pixels and of the time)
MIN_SEGMENT = 0.3  # the shortest segment that may be a card's side, in card depths
CORNER_GAP = 0.12  # how far (in card depths) a segment may end from the corner it makes with another
MAX_SEGMENT_COSINE = 0.35  # segments meeting between about 70 and 110 degrees may be a card's sides
REGION_MARGIN = 1.1  # segments are looked for within this many card depths of an outline's middle or corner
# Sensor noise can break a faint edge into pieces, none of them MIN_SEGMENT long (a pale card's side in three pieces of
# 45, 43 and 80 px): pieces at least this long (in card depths) that lie on one line, end to end with at most
# CORNER_GAP between them, are joined first. "On one line": within this many degrees, and this many frame pixels.
MIN_PIECE = 0.1
PIECE_DEGREES = 3.0
PIECE_OFFSET = 2.0


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
    segments = _joined(segments[lengths >= MIN_PIECE * depth], CORNER_GAP * depth)
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
            # Each side runs to its segment's farther end (the first on a tie, as max() keeps it), measured as
            # np.linalg.norm measures (the square root of a vector's dot product with itself) without its checks.
            steps = (segments[k, 0] - point, segments[k, 1] - point)
            lengths = [math.sqrt(step.dot(step)) for step in steps]
            far = 0 if lengths[0] >= lengths[1] else 1
            sides.append((steps[far] / lengths[far], lengths[far]))
        (u, length_u), (v, length_v) = sides
        corners.append(Corner(point, (u, v), (length_u, length_v)))
    return corners


def _joined(segments: np.ndarray, gap: float) -> np.ndarray:
    """The segments (n x 2 ends x 2) with those on one line (PIECE_DEGREES, PIECE_OFFSET) whose ends lie at most
    `gap` apart joined into one, from end to end of each chain of them."""
    count = len(segments)
    if count < 2:
        return segments
    starts = segments[:, 0]
    vectors = segments[:, 1] - starts
    lengths = np.linalg.norm(vectors, axis=1)
    directions = vectors / lengths[:, None]
    # Only the pairs that run the same way are measured further (few: most pieces are specks of art at any angle).
    first, second = np.nonzero(np.triu(np.abs(directions @ directions.T) >= np.cos(np.radians(PIECE_DEGREES)), 1))
    if not len(first):
        return segments
    near = _on_one_line(segments, starts, directions, lengths, first, second, gap) & \
        _on_one_line(segments, starts, directions, lengths, second, first, gap)
    if not near.any():
        return segments
    group = list(range(count))  # union-find over the pairs that are near

    def root(i: int) -> int:
        while group[i] != i:
            group[i] = group[group[i]]
            i = group[i]
        return i

    for i, j in zip(first[near].tolist(), second[near].tolist()):
        group[root(i)] = root(j)
    chains: dict[int, list[int]] = {}  # by root, in order of their first piece
    for i in range(count):
        chains.setdefault(root(i), []).append(i)
    joined = segments.copy()
    kept = np.ones(count, bool)
    for members in chains.values():
        if len(members) == 1:
            continue
        longest = max(members, key=lambda k: lengths[k])
        ends = segments[members].reshape(-1, 2)
        positions = (ends - starts[longest]) @ directions[longest]
        joined[members[0]] = (ends[int(np.argmin(positions))], ends[int(np.argmax(positions))])
        kept[members[1:]] = False  # a chain takes its first piece's place in the list
    return joined[kept]


def _on_one_line(segments, starts, directions, lengths, lines, others, gap: float) -> np.ndarray:
    """For each pair (lines[k], others[k]): whether both ends of the other segment lie within PIECE_OFFSET of the
    line's segment's line, and at most `gap` beyond its ends along it."""
    offsets = segments[others] - starts[lines][:, None, :]  # [pair, end, xy]
    along_line = directions[lines][:, None, :]
    along = (offsets * along_line).sum(axis=2)
    across = np.abs(offsets[..., 0] * along_line[..., 1] - offsets[..., 1] * along_line[..., 0]).max(axis=1)
    beyond = np.maximum(along.min(axis=1) - lengths[lines], -along.max(axis=1))
    return (across <= PIECE_OFFSET) & (beyond <= gap)
