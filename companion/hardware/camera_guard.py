"""Keeps the game going when the camera is missing, unplugged, or returns bad frames.

`CameraGuard.read(now)` returns a frame or None. On None the app shows `status(now).message` and takes moves
by touch and buttons (manual mode); the guard meanwhile re-opens the camera with exponential back-off and
returns frames again as soon as it is back. Time is passed in, so the guard reads no clock and tests need
no sleeps.
"""
from __future__ import annotations

import functools
import logging
import math
from dataclasses import dataclass
from typing import Any, Callable

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class CameraStatus:
    #: True while frames are arriving.
    ok: bool
    #: One line for the screen, e.g. "camera lost, retrying in 4 s".
    message: str
    #: Seconds until the next attempt to open the camera (0 when ok).
    retry_in: float = 0.0


#: What "auto" tries, in order: the ribbon camera first because it is the one a built box has.
AUTO_SOURCES = ("picamera", "usb:0")


def open_configured_source(spec: str, size: tuple[int, int] | None = None):
    """Open a frame source through the vision package (imported here, so OpenCV loads only when needed); a
    camera is asked for `size` (width, height: `[camera] resolution`; the recogniser's own size when None).

    "auto" is resolved here rather than in vision.sources because which camera a box has is a deployment
    question: the Pi camera if one answers, else the first USB webcam.
    """
    from vision.sources import CameraError, open_source

    if spec != "auto":
        return open_source(spec, size)
    reasons = []
    for candidate in AUTO_SOURCES:
        try:
            source = open_source(candidate, size)
        except Exception as error:
            reasons.append(f"{candidate}: {error}")
            continue
        try:
            source.read()  # a USB index can open with nothing behind it; a frame proves a camera is there
        except Exception as error:
            source.close()
            reasons.append(f"{candidate}: {error}")
            continue
        return source
    raise CameraError("no camera found (" + "; ".join(reasons) + ")")


def configured_opener(config) -> Callable[[str], Any]:
    """`open_configured_source` asking the camera for `config.camera.resolution`."""
    return functools.partial(open_configured_source, size=config.camera.resolution)


def _camera_errors() -> tuple[type[BaseException], ...]:
    try:
        from vision.sources import CameraError
    except ImportError:
        return (OSError, RuntimeError, ValueError)
    return (CameraError, OSError, RuntimeError, ValueError)


class CameraGuard:
    """A frame source that never raises: failures become a status and a retry schedule."""

    def __init__(self, spec: str, opener: Callable[[str], Any] = open_configured_source,
                 first_delay: float = 1.0, max_delay: float = 30.0, bad_frames_allowed: int = 3):
        self.spec = spec
        self._opener = opener
        self._first_delay = first_delay
        self._max_delay = max_delay
        # A single dropped frame is normal on USB; only a run of them means the camera is gone.
        self._bad_frames_allowed = bad_frames_allowed
        self._source = None
        self._delay = first_delay
        self._next_attempt = -math.inf
        self._bad_frames = 0
        self._problem = "camera not opened yet"
        self._was_ever_open = False
        self._errors = _camera_errors()

    @classmethod
    def from_config(cls, config, opener: Callable[[str], Any] | None = None) -> "CameraGuard":
        """The guard for `config.camera` (source and the back-off ceiling); unless another `opener` is given, the
        camera is asked for the configured resolution."""
        return cls(config.camera.source, opener=opener or configured_opener(config),
                   max_delay=config.camera.retry_max_seconds)

    # --- the main loop's calls ---------------------------------------------------------------------------

    def read(self, now: float):
        """The next frame, or None when there is no camera right now (the app stays in manual mode)."""
        if self._source is None and not self._try_open(now):
            return None
        try:
            frame = self._source.read()
        except self._errors as error:
            frame, reason = None, f"{type(error).__name__}: {error}"
        except Exception as error:  # a driver's unexpected failure must not end the game either
            frame, reason = None, f"unexpected {type(error).__name__}: {error}"
        else:
            reason = "it returned no picture"
        if frame is not None and getattr(frame, "size", 1) > 0:
            self._bad_frames = 0
            return frame
        self._bad_frames += 1
        if self._bad_frames >= self._bad_frames_allowed:
            self._lose(now, f"camera lost ({reason})")
        return None

    def status(self, now: float) -> CameraStatus:
        if self._source is not None:
            return CameraStatus(True, f"camera: {self._describe_source()}")
        wait = max(0.0, self._next_attempt - now)
        return CameraStatus(False, f"{self._problem}, retrying in {math.ceil(wait)} s; manual mode", wait)

    @property
    def connected(self) -> bool:
        return self._source is not None

    def describe(self) -> str:
        return self._describe_source() if self._source is not None else f"no camera ({self._problem})"

    def close(self) -> None:
        self._close_source()

    # --- internals ---------------------------------------------------------------------------------------

    def _try_open(self, now: float) -> bool:
        if now < self._next_attempt:
            return False
        try:
            self._source = self._opener(self.spec)
        except Exception as error:  # CameraError, ImportError (no vision/picamera2), OSError...
            self._source = None
            self._schedule_retry(now, f"camera unavailable ({type(error).__name__}: {error})")
            return False
        self._delay = self._first_delay
        self._bad_frames = 0
        log.info("camera %s: %s", "back" if self._was_ever_open else "ready", self._describe_source())
        self._was_ever_open = True
        return True

    def _lose(self, now: float, problem: str) -> None:
        self._close_source()
        self._delay = self._first_delay
        self._schedule_retry(now, problem)

    def _schedule_retry(self, now: float, problem: str) -> None:
        if problem != self._problem:
            # One journal line per change of situation, not one per retry.
            log.warning("%s; retrying with back-off up to %g s", problem, self._max_delay)
        self._problem = problem
        self._next_attempt = now + self._delay
        self._delay = min(self._delay * 2, self._max_delay)

    def _close_source(self) -> None:
        if self._source is not None:
            try:
                self._source.close()
            except Exception:
                log.debug("closing the camera failed", exc_info=True)
        self._source = None

    def _describe_source(self) -> str:
        describe = getattr(self._source, "describe", None)
        try:
            return describe() if callable(describe) else self.spec
        except Exception:
            return self.spec
