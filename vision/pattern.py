"""Remove a periodic table pattern (checked or striped cloth, regular weave) from a reduced frame.

A repeating pattern is a handful of sharp peaks in the frame's spectrum; cards, hands and shadows are not
periodic and spread their energy over all frequencies. Zeroing the peaks leaves the cards sharp on a table of
the cloth's average colour, where the ordinary edge detector finds them. OpenCV's packed real spectrum (CCS) keeps
this to a few milliseconds on the detection-size frame.
"""
from __future__ import annotations

import functools

import numpy as np

PEAK_RATIO = 4.5  # a frequency is part of the pattern when its magnitude is this many times its neighbourhood's
LOWEST_PATTERN_FREQUENCY = 0.03  # cycles per pixel; below it lie the shapes of cards and shadows
MIN_PEAK_SHARE = 0.12  # the peaks must carry this share of the frame's detail energy to count as a pattern


def _packed_magnitude(ccs: np.ndarray) -> np.ndarray:
    """|F| on the half plane (rows 0..H-1, columns 0..W/2) from OpenCV's packed spectrum of an even-sized image."""
    height, width = ccs.shape
    half = width // 2
    magnitude = np.empty((height, half + 1), np.float32)
    magnitude[:, 1:half] = np.hypot(ccs[:, 1:width - 1:2], ccs[:, 2:width - 1:2])
    for column, packed in ((0, ccs[:, 0]), (half, ccs[:, width - 1])):
        magnitude[0, column] = abs(packed[0])
        magnitude[height // 2, column] = abs(packed[height - 1])
        pairs = np.hypot(packed[1:height - 1:2], packed[2:height - 1:2])
        magnitude[1:height // 2, column] = pairs
        magnitude[height - 1:height // 2:-1, column] = pairs  # the column's spectrum is symmetric in y
    return magnitude


def _packed_mask(keep: np.ndarray, width: int) -> np.ndarray:
    """A half-plane gain (rows 0..H-1, columns 0..W/2) spread over the packed layout, one value per real number."""
    height = keep.shape[0]
    half = width // 2
    packed = np.empty((height, width), np.float32)
    packed[:, 1:width - 1] = np.repeat(keep[:, 1:half], 2, axis=1)
    for column, target in ((0, 0), (half, width - 1)):
        packed[0, target] = keep[0, column]
        packed[height - 1, target] = keep[height // 2, column]
        packed[1:height - 1, target] = np.repeat(keep[1:height // 2, column], 2)
    return packed


@functools.lru_cache(maxsize=4)
def _high_frequencies(height: int, width: int) -> np.ndarray:
    """1.0 where a half-plane frequency is high enough to be a table pattern rather than a card's shape."""
    fy = np.minimum(np.arange(height), height - np.arange(height))[:, None] / height
    fx = np.arange(width // 2 + 1)[None, :] / width
    return (np.hypot(fy, fx) > LOWEST_PATTERN_FREQUENCY).astype(np.float32)


def pattern_mask(gray: np.ndarray) -> np.ndarray | None:
    """The half-plane gain (0 on the pattern's peaks, 1 elsewhere) for an even-sized grey image, or None when the
    image has no strong periodic pattern."""
    import cv2

    height, width = gray.shape
    level = gray.astype(np.float32)
    spectrum = cv2.dft(level - float(level.mean()))
    magnitude = _packed_magnitude(spectrum)
    high = _high_frequencies(height, width)
    # Rows wrap around (row H-1 neighbours row 0): blur a copy rolled so the zero frequency sits in the middle.
    rolled = np.roll(magnitude, height // 2, axis=0)
    background = np.roll(cv2.blur(rolled, (9, 9)), -(height // 2), axis=0)
    peaks = (magnitude > PEAK_RATIO * background).astype(np.float32) * high
    power = magnitude * magnitude
    detail = float(np.vdot(power, high))
    if detail <= 0 or float(np.vdot(power, peaks)) < MIN_PEAK_SHARE * detail:
        return None
    rolled_peaks = cv2.dilate(np.roll(peaks, height // 2, axis=0), np.ones((7, 7), np.uint8))
    return 1.0 - np.roll(rolled_peaks, -(height // 2), axis=0)


def _even_dft_size(size: int) -> int:
    import cv2

    size = cv2.getOptimalDFTSize(size)
    while size % 2:
        size = cv2.getOptimalDFTSize(size + 1)
    return size


def without_pattern(image: np.ndarray) -> np.ndarray:
    """`image` (BGR uint8) with its periodic table pattern removed; the image itself when it has none."""
    import cv2

    height, width = image.shape[:2]
    padded_height, padded_width = _even_dft_size(height), _even_dft_size(width)
    padding = (0, padded_height - height, 0, padded_width - width)
    gray = cv2.copyMakeBorder(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), *padding, cv2.BORDER_REFLECT)
    keep = pattern_mask(gray)
    if keep is None:
        return image
    gain = _packed_mask(keep, padded_width)
    cleaned = []
    for channel in cv2.split(cv2.copyMakeBorder(image, *padding, cv2.BORDER_REFLECT)):
        channel = channel.astype(np.float32)
        mean = float(channel.mean())
        spectrum = cv2.dft(channel - mean) * gain
        cleaned.append(cv2.idft(spectrum, flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)[:height, :width] + mean)
    merged = cv2.merge(cleaned)
    return np.clip(merged, 0, 255, out=merged).astype(np.uint8)
