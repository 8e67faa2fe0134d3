"""Turn whatever a camera or file hands us into a BGR uint8 frame, or say plainly why not."""
from __future__ import annotations

import numpy as np

MIN_SIDE = 16
MAX_SIDE = 4096


class FrameError(ValueError):
    """The frame cannot be used; the message is meant for the user."""


def to_bgr8(frame) -> np.ndarray:
    import cv2

    if frame is None:
        raise FrameError("no frame (the image could not be read)")
    if not isinstance(frame, np.ndarray):
        raise FrameError(f"a frame must be an image array, not {type(frame).__name__}")
    if frame.ndim == 3 and frame.shape[2] == 1:
        frame = frame[..., 0]
    if frame.ndim not in (2, 3) or (frame.ndim == 3 and frame.shape[2] not in (3, 4)):
        raise FrameError(f"a frame must be grey, BGR or BGRA; got an array of shape {frame.shape}")
    if min(frame.shape[:2]) < MIN_SIDE:
        raise FrameError(f"the frame is too small ({frame.shape[1]}x{frame.shape[0]} pixels)")
    if frame.dtype == np.uint8:
        image = frame
    elif frame.dtype == np.uint16:
        image = (frame >> 8).astype(np.uint8)
    elif frame.dtype.kind == "f":
        if not np.isfinite(frame).all():
            raise FrameError("the frame contains invalid (NaN or infinite) pixel values")
        top = 1.0 if frame.max(initial=0) <= 1.0 else 255.0
        image = np.clip(frame * (255.0 / top), 0, 255).astype(np.uint8)
    elif frame.dtype.kind in "iu":
        image = np.clip(frame, 0, 255).astype(np.uint8)
    else:
        raise FrameError(f"unsupported pixel type {frame.dtype}")
    if image.ndim == 2:
        image = cv2.cvtColor(image, cv2.COLOR_GRAY2BGR)
    elif image.shape[2] == 4:
        image = cv2.cvtColor(image, cv2.COLOR_BGRA2BGR)
    return np.ascontiguousarray(image)


def limit_size(frame: np.ndarray) -> tuple[np.ndarray, float]:
    """A huge frame scaled down to MAX_SIDE, and the factor to map points back."""
    import cv2

    long_side = max(frame.shape[:2])
    if long_side <= MAX_SIDE:
        return frame, 1.0
    factor = MAX_SIDE / long_side
    return cv2.resize(frame, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA), factor


def block_means(image: np.ndarray, factor: int = 2) -> np.ndarray:
    """Each `factor` x `factor` block of pixels averaged into one, as a camera sensor's binned mode reads it (a whole
    factor takes OpenCV's fast path: a third of the time of pyrDown, or of an area resize by a fractional factor)."""
    import cv2

    height, width = image.shape[:2]
    return cv2.resize(image, (width // factor, height // factor), interpolation=cv2.INTER_AREA)


def border_values(image: np.ndarray) -> np.ndarray:
    """The pixels of a band along the frame's edge, taken to be table."""
    height, width = image.shape[:2]
    band = max(4, int(0.05 * min(height, width)))
    return np.concatenate([image[:band].ravel(), image[-band:].ravel(), image[:, :band].ravel(),
                           image[:, -band:].ravel()])
