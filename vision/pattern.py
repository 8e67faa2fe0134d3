"""Find a periodic table pattern (checked or striped cloth, regular weave) in a reduced frame, and the cards on it.

A repeating pattern is a handful of sharp peaks in the frame's spectrum; cards, hands and shadows are not
periodic and spread their energy over all frequencies. Two views of the cards come from the peaks:

- `without_pattern`: the peaks zeroed, which leaves the cards sharp on a table of the cloth's average colour. Being
  a global filter, it also prints a faint negative of the checks onto every card.
- `card_mask`: the strongest two peaks give the pattern's lattice. Shifted by one period the table looks the same,
  half a period away it has its other colour, and its grey level is what the periodic part predicts; a card fails
  one of these. The mask has pixel-sharp card outlines where the checks are large or low in contrast, and the
  global filter leaves too much of them.

OpenCV's packed real spectrum (CCS) keeps this to a few milliseconds on the detection-size frame.
"""
from __future__ import annotations

import functools
from dataclasses import dataclass

import numpy as np

from .frames import border_values

PEAK_RATIO = 4.5  # a frequency is part of the pattern when its magnitude is this many times its neighbourhood's
LOWEST_PATTERN_FREQUENCY = 0.03  # cycles per pixel; below it lie the shapes of cards and shadows
MIN_PEAK_SHARE = 0.12  # the peaks must carry this share of the frame's detail energy to count as a pattern
# Most tables are plain, and the spectrum at the detection size costs a few milliseconds: a copy of every other pixel
# (a sixteenth of the spectrum's work) is looked at first. Taking every other pixel folds the high frequencies over,
# but a sharp peak stays a sharp peak, and on 500 bench and training frames a pattern the whole frame shows kept at
# least 0.042 of that copy's detail energy in its peaks, while 376 of 398 plain tables' copies had none at all. A copy
# with less than this share is plain without the whole spectrum: an eighth of the least a pattern was seen to keep.
SURELY_PLAIN_SHARE = 0.005
MIN_LATTICE_ANGLE_COS = 0.8  # a second lattice direction must differ from the first by more than ~37 degrees
SAME_AS_TABLE = 9.0  # largest colour step (0-255, any channel) between a table pixel and its shifted copy
NOT_THE_TABLES_PHASE = 60.0  # grey levels between a table pixel and the periodic part's value there
CONTRAST_SHARE = 0.4  # of the table's own half-period contrast, below which a pixel is a card's smooth patch
# A few pixels of the far side of a tilted table are a fraction of a pixel out of period: thin seams of mismatch
# along the checks' edges, opened away.
SEAM_OPENING = 3


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


def _even_dft_size(size: int) -> int:
    import cv2

    size = cv2.getOptimalDFTSize(size)
    while size % 2:
        size = cv2.getOptimalDFTSize(size + 1)
    return size


def lattice_shifts(peaks: np.ndarray) -> list[np.ndarray]:
    """The pattern's period vectors in pixels: the dual basis of its two strongest independent frequencies (one
    vector for stripes)."""
    first = peaks[0]
    for candidate in peaks[1:]:
        cosine = abs(float(candidate @ first)) / (np.linalg.norm(candidate) * np.linalg.norm(first))
        if cosine < MIN_LATTICE_ANGLE_COS:
            periods = np.linalg.inv(np.stack([first, candidate]))  # column j: k_i . T_j = 1 if i == j else 0
            return [periods[:, 0], periods[:, 1]]
    return [first / float(first @ first)]


@dataclass
class Pattern:
    """A periodic pattern found in a frame: its notch (half-plane gain, 0 on the peaks), its peak frequencies (rows
    of fx, fy in cycles per pixel, strongest first) and the frame's periodic grey part (the table as it would look
    everywhere), all at the frame's padded, even DFT size."""

    keep: np.ndarray
    peaks: np.ndarray
    periodic: np.ndarray


def find_pattern(image: np.ndarray) -> Pattern | None:
    """The (BGR uint8) image's periodic table pattern, or None when it has no strong one."""
    import cv2

    height, width = image.shape[:2]
    padding = (0, _even_dft_size(height) - height, 0, _even_dft_size(width) - width)
    level = cv2.copyMakeBorder(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY), *padding, cv2.BORDER_REFLECT)
    level = level.astype(np.float32)
    padded_height, padded_width = level.shape
    mean = float(level.mean())
    # Every other pixel of every other row, cut to an even size (the packed spectrum's layout needs one).
    every_other = level[:padded_height // 4 * 4:2, :padded_width // 4 * 4:2] - mean
    if every_other.size and _peak_share_below(*_spectrum_peaks(every_other)[1:], SURELY_PLAIN_SHARE):
        return None
    spectrum, magnitude, high, peaks = _spectrum_peaks(level - mean)
    if _peak_share_below(magnitude, high, peaks, MIN_PEAK_SHARE):
        return None
    middle = padded_height // 2
    rows, columns = np.nonzero(peaks)
    order = np.argsort(-magnitude[rows, columns])
    rows, columns = rows[order], columns[order]
    frequencies = np.stack([columns / padded_width,
                            np.where(rows <= middle, rows, rows - padded_height) / padded_height], axis=1)
    notch = np.roll(cv2.dilate(np.roll(peaks, middle, axis=0), np.ones((7, 7), np.uint8)), -middle, axis=0)
    periodic = cv2.idft(spectrum * _packed_mask(notch, padded_width),
                        flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT) + mean
    return Pattern(keep=1.0 - notch, peaks=frequencies, periodic=periodic)


def _spectrum_peaks(centred: np.ndarray):
    """The packed spectrum of an even-sized float32 image with its mean taken off, its half-plane magnitude, which
    of those frequencies are high enough for a pattern (1.0), and which of those stand PEAK_RATIO above their
    neighbourhood (1.0)."""
    import cv2

    padded_height, padded_width = centred.shape
    spectrum = cv2.dft(centred)
    magnitude = _packed_magnitude(spectrum)
    high = _high_frequencies(padded_height, padded_width)
    # Rows wrap around (row H-1 neighbours row 0): blur a copy rolled so the zero frequency sits in the middle.
    middle = padded_height // 2
    background = np.roll(cv2.blur(np.roll(magnitude, middle, axis=0), (9, 9)), -middle, axis=0)
    peaks = (magnitude > PEAK_RATIO * background).astype(np.float32) * high
    return spectrum, magnitude, high, peaks


def _peak_share_below(magnitude: np.ndarray, high: np.ndarray, peaks: np.ndarray, share: float) -> bool:
    """Whether the peaks carry less than `share` of the high frequencies' energy (or there is none)."""
    power = magnitude * magnitude
    detail = float(np.vdot(power, high))
    return detail <= 0 or float(np.vdot(power, peaks)) < share * detail


def without_pattern(image: np.ndarray, pattern: Pattern | None = None) -> np.ndarray:
    """`image` (BGR uint8) with its periodic table pattern's peaks zeroed; the image itself when it has none."""
    import cv2

    pattern = pattern or find_pattern(image)
    if pattern is None:
        return image
    height, width = image.shape[:2]
    padded_height, padded_width = pattern.periodic.shape
    padding = (0, padded_height - height, 0, padded_width - width)
    gain = _packed_mask(pattern.keep, padded_width)
    cleaned = []
    for channel in cv2.split(cv2.copyMakeBorder(image, *padding, cv2.BORDER_REFLECT)):
        channel = channel.astype(np.float32)
        mean = float(channel.mean())
        spectrum = cv2.dft(channel - mean) * gain
        cleaned.append(cv2.idft(spectrum, flags=cv2.DFT_SCALE | cv2.DFT_REAL_OUTPUT)[:height, :width] + mean)
    merged = cv2.merge(cleaned)
    return np.clip(merged, 0, 255, out=merged).astype(np.uint8)


def card_mask(image: np.ndarray, pattern: Pattern) -> np.ndarray:
    """255 where the (BGR uint8) image is not the patterned table: the cards, hands and the like. Table is where
    the image matches itself shifted one period either way along some lattice direction, has the cloth's contrast
    half a period away, and has the grey level the periodic part expects there (a card's white corner next to the
    cloth's white checks matches its shifted copy, but not the red check the cloth has at that place)."""
    import cv2

    height, width = image.shape[:2]
    shifts = lattice_shifts(pattern.peaks)
    level = cv2.GaussianBlur(image, (3, 3), 0)

    def steps(shift):
        """The colour step (largest over channels) from each pixel to the pixel `shift` away, either way."""
        for sign in (1.0, -1.0):
            move = np.float32([[1, 0, sign * shift[0]], [0, 1, sign * shift[1]]])
            moved = cv2.warpAffine(level, move, (width, height), flags=cv2.INTER_LINEAR | cv2.WARP_INVERSE_MAP,
                                   borderMode=cv2.BORDER_REFLECT)
            blue, green, red = cv2.split(cv2.absdiff(moved, level))
            yield cv2.max(cv2.max(blue, green), red)

    mismatch = None
    for shift in shifts:
        for step in steps(shift):
            mismatch = step if mismatch is None else cv2.min(mismatch, step)
    # Half a period away (between lattice points) the checks have their other colour: the table has that
    # contrast all round, a card's smooth patch has not.
    halves = [(shifts[0] + shifts[1]) / 2, (shifts[0] - shifts[1]) / 2] if len(shifts) == 2 else [shifts[0] / 2]
    # The second largest step: a pixel by a card's side still has the cloth on one side. Kept as a running pair
    # of largest and second largest: sorting the stack costs several milliseconds a frame.
    largest = contrast = None
    for step in (step for half in halves for step in steps(half)):
        if largest is None:
            largest, contrast = step, np.zeros_like(step)
        else:
            contrast = cv2.max(contrast, cv2.min(largest, step))
            largest = cv2.max(largest, step)
    table_contrast = float(np.median(border_values(contrast)))
    alike = (mismatch <= SAME_AS_TABLE).astype(np.float32)
    # The periodic part has no shadows: scale it by the local shading of the pixels that match their shifted copy.
    gray = cv2.cvtColor(image, cv2.COLOR_BGR2GRAY).astype(np.float32)
    periodic = pattern.periodic[:height, :width]
    reach = max(float(np.linalg.norm(shift)) for shift in shifts)
    window = (int(4 * reach) | 1,) * 2
    shading = (cv2.blur(gray * alike, window) + 1.0) / (cv2.blur(periodic * alike, window) + 1.0)
    unexpected = np.abs(gray - periodic * shading) > NOT_THE_TABLES_PHASE
    flat = contrast < CONTRAST_SHARE * table_contrast if table_contrast > 2 * SAME_AS_TABLE else False
    card = ((alike == 0) | unexpected | flat).astype(np.uint8) * 255
    card = cv2.morphologyEx(card, cv2.MORPH_OPEN, np.ones((SEAM_OPENING, SEAM_OPENING), np.uint8))
    # Within a card, only where its art changes over a period, or differs from the check the cloth has there, does
    # it differ from the table: close the gaps between those places.
    size = int(round(reach)) | 1
    card = cv2.morphologyEx(card, cv2.MORPH_CLOSE, cv2.getStructuringElement(cv2.MORPH_ELLIPSE, (size, size)))
    # Within a period of the frame's edge the shifted copy is a reflection, not the cloth: no evidence either way.
    rim = int(np.ceil(reach))
    card[:rim] = card[-rim:] = 0
    card[:, :rim] = card[:, -rim:] = 0
    return card
