"""Whether a camera frame shows what the last frame read showed: a still table need not be read again. On a Pi a
reading takes a few hundred milliseconds of a core, and a game table is still most of the time; reading every frame
keeps a core busy (and a fanless Pi hot and throttled) to learn nothing new."""
from __future__ import annotations

import numpy as np

THUMBNAIL = (160, 120)  # the small copy frames are compared at: each of its pixels averages about 10x10 of a frame's
# How far (levels, in any of its colours: a red card can be as bright as a brown table) a thumbnail pixel must move to
# count as changed. Sensor noise moves one by a level or two at
# this scale, and a flickering light by a few more. The edge of a card moved by a pixel moves a pixel by tens.
CHANGED_LEVELS = 12
CHANGED_PIXELS = 3  # how many must change: the smallest card covers about 14x9 of them
MAX_STILL_SECONDS = 2.0  # a frame is read at least this often all the same (a slow drift of light adds up)


class StillFrames:
    """Compares each frame with the last one that was read (not merely the last one seen, so a slow change adds up
    until it counts)."""

    def __init__(self, thumbnail: tuple[int, int] = THUMBNAIL, changed_levels: int = CHANGED_LEVELS,
                 changed_pixels: int = CHANGED_PIXELS, max_still_seconds: float = MAX_STILL_SECONDS):
        self.thumbnail = thumbnail
        self.changed_levels = changed_levels
        self.changed_pixels = changed_pixels
        self.max_still_seconds = max_still_seconds
        self._read: np.ndarray | None = None  # the thumbnail of the last frame read
        self._read_at = 0.0

    def unchanged(self, frame, now: float) -> bool:
        """True when `frame` shows what the last frame read showed, and that was read less than max_still_seconds
        before `now`. Otherwise the frame is taken as the one read (the caller reads it) and False; so is anything
        that is no usable image (the reader says why)."""
        small = self._small(frame)
        if small is None:
            self._read = None
            return False
        if self._read is not None and small.shape == self._read.shape and \
                now - self._read_at < self.max_still_seconds:
            moved = np.count_nonzero((np.abs(small - self._read) > self.changed_levels).any(axis=2))
            if moved < self.changed_pixels:
                return True
        self._read, self._read_at = small, now
        return False

    def forget(self) -> None:
        """The next frame is read whatever it shows (the last reading failed, or was not kept)."""
        self._read = None

    def _small(self, frame) -> np.ndarray | None:
        import cv2

        from .frames import FrameError, block_means, to_bgr8

        try:
            image = to_bgr8(frame)
        except FrameError:
            return None
        # Halved first while much larger: the same averages, in a third of the time of one resize by a factor of 10 or
        # 20 (1.8 against 5.3 ms a 1640x1232 frame, 5.4 against 20.6 ms a 3280x2464 one, on a development machine;
        # stop 78), and this runs on every frame.
        while image.shape[1] >= 4 * self.thumbnail[0] and image.shape[0] >= 4 * self.thumbnail[1]:
            image = block_means(image)
        return cv2.resize(image, self.thumbnail, interpolation=cv2.INTER_AREA).astype(np.int16)  # signed: differences
