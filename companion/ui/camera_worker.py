"""The vision pipeline in a worker thread: camera frames -> recognised cards -> stable TableStates -> app.inbox.

The pygame loop never waits for the camera: it drains the inbox once per frame. The worker posts
("camera", "ok" | "lost") when the guard's `connected` changes (the screens switch to manual entry and keep the
game; one dropped frame is not a lost camera) and ("camera_status", text) whenever the guard's line for the screen
changes (e.g. "camera lost (...), retrying in 4 s; manual mode"). For the camera view it posts, at most every
PICTURE_EVERY seconds, ("seen", cards) and then ("frame", frame): a frame it read and what it read in it.
"""
from __future__ import annotations

import logging
import queue
import threading
import time

log = logging.getLogger(__name__)

NO_FRAME_WAIT = 0.5  # seconds between reads while the guard has no camera (it schedules the real retries)
PICTURE_EVERY = 1.0  # seconds between pictures posted for the camera view (each one costs the screen a redraw)


def _picture(frame):
    """The frame as the screens draw it, 8-bit BGR whatever the camera gives (a grey or 16-bit picture), or None
    where it is no picture at all."""
    from vision.frames import FrameError, to_bgr8

    try:
        return to_bgr8(frame)
    except FrameError:
        return None


class CameraWorker:
    def __init__(self, guard, inbox, recogniser=None, stabiliser=None, clock=time.monotonic, idle_wait: float = 0.05,
                 calibration=None, still=None, thorough: bool = False):
        self.guard = guard
        self.inbox = inbox
        self.recogniser = recogniser
        self.stabiliser = stabiliser
        # vision.still.StillFrames, or None to read every frame: a frame that shows what the last one read showed is
        # not read again, and its cards are those of that reading (the stabiliser still sees time pass).
        self.still = still
        self.last_cards = None  # the cards of the last frame read, while they may stand for a still frame
        self.frames_read = 0
        self.picture_posted: float | None = None  # when a picture was last posted for the camera view
        self.calibration = calibration  # vision.geometry.Calibration from [camera] calibration, or None
        self.thorough = thorough  # [camera] thorough: the recogniser it builds also looks along straight edges
        self.new_calibrations: queue.SimpleQueue = queue.SimpleQueue()  # made on the touchscreen; the last one counts
        self.stabiliser_built = False  # the stabiliser is the worker's own (not given): it may rebuild it
        self.reload_wanted = threading.Event()  # teaching saved new parameters: load them between two frames
        self.clock = clock
        self.idle_wait = idle_wait
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self.connected: bool | None = None
        self.status_text: str | None = None

    def start(self) -> None:
        self.thread.start()

    def stop(self, wait: float = 0.0) -> None:
        self.stopping.set()
        if wait and self.thread.is_alive():
            self.thread.join(wait)

    def build_pipeline(self) -> None:
        """The recogniser (`load_recogniser`) and stabiliser not given, both with the table calibration, and the
        still-frame test (imported here: OpenCV)."""
        if self.recogniser is None:
            from vision.pipeline import one_blas_thread

            one_blas_thread()
            self.recogniser = self.load_recogniser()
        if self.stabiliser is None:
            from vision.stabiliser import Stabiliser

            self.stabiliser = Stabiliser(calibration=self.calibration)
            self.stabiliser_built = True
        if self.still is None:
            from vision.still import StillFrames

            self.still = StillFrames()

    def load_recogniser(self):
        """The recogniser with the parameters `companion vision teach` saved, if the user taught it and they load;
        else the built-in ones (a damaged taught file must not blind the camera); either way with the held-out
        scans' prints taught too (`vision.known_scans`), and with the lens correction `companion vision lens` saved,
        if any loads."""
        from vision.lens import default_lens
        from vision.pipeline import Recogniser
        from vision.taught import default_params

        taught = default_params()
        lens = default_lens()  # measured by `companion vision lens`: every frame straightened with it
        if taught is not None:
            recogniser = Recogniser(params=taught, calibration=self.calibration, thorough=self.thorough, lens=lens,
                                    known_scans=True)
            if recogniser.model is not None:
                return recogniser
            log.warning("the taught recogniser cannot be used (%s); using the built-in one", recogniser.model_error)
        return Recogniser(calibration=self.calibration, thorough=self.thorough, lens=lens, known_scans=True)

    def use_calibration(self, calibration) -> None:
        """Read with this table calibration (or none) from the next frame on; called from the screen's thread, so
        the worker's own thread swaps it in between two frames."""
        self.new_calibrations.put(calibration)

    def reload_recogniser(self) -> None:
        """Read with the parameters `load_recogniser` finds now (teaching saved new ones), from the next frame on;
        loaded on the worker's own thread, so it cannot undo a calibration swapped in meanwhile."""
        self.reload_wanted.set()

    def _take_changes(self) -> None:
        """What the screen asked for since the last frame: a calibration, new parameters."""
        self._take_new_calibration()
        if self.reload_wanted.is_set():
            self.reload_wanted.clear()
            self.recogniser = self.load_recogniser()
            if self.still is not None:
                self.still.forget()  # read the table again with what was taught

    def _take_new_calibration(self) -> None:
        if self.new_calibrations.empty():
            return
        from vision.stabiliser import Stabiliser

        while not self.new_calibrations.empty():
            self.calibration = self.new_calibrations.get()
        if self.recogniser is not None:
            self.recogniser.calibration = self.calibration
        # Seats, creatures and slots all come from the calibration: the table settles again under the new one.
        self.stabiliser = Stabiliser(calibration=self.calibration)
        self.stabiliser_built = True
        self.last_cards = None
        if self.still is not None:
            self.still.forget()

    def _fit_table_to(self, frame) -> None:
        """The stabiliser's table for pictures of this frame's size: the calibration's corners scaled from the
        picture they were found in (`Calibration.for_picture`), or without one the picture itself, seat 0 at its
        bottom edge. Built before the first frame, the stabiliser took the bench's 1640x1232: a camera giving
        1280x960 would have put every seat's edge off the picture."""
        if not self.stabiliser_built:
            return
        from vision.geometry import Calibration
        from vision.stabiliser import Stabiliser

        height, width = frame.shape[:2]
        table = (self.calibration or Calibration.image_plane(width, height)).for_picture(width, height)
        if self.stabiliser.calibration != table:
            self.stabiliser = Stabiliser(calibration=table)

    def report(self, now: float) -> None:
        """Post the guard's state when it changed: the table follows `connected`, the chip shows the text."""
        connected = bool(self.guard.connected)
        if connected != self.connected:
            self.connected = connected
            self.inbox.put(("camera", "ok" if connected else "lost"))
        text = self.guard.status(now).message
        if text != self.status_text:
            self.status_text = text
            self.inbox.put(("camera_status", text))

    def step(self) -> None:
        """One frame: read, recognise, stabilise, post what changed."""
        self._take_changes()
        now = self.clock()
        frame = self.guard.read(now)
        self.report(now)
        if frame is None:
            self.stopping.wait(NO_FRAME_WAIT)
            return
        still = self.still is not None and self.still.unchanged(frame, now)
        if still and self.last_cards is not None:
            cards = self.last_cards
        else:
            result = self.recogniser.scan(frame)
            self.frames_read += 1
            if result.error:
                log.debug("frame skipped: %s", result.error)
                if self.still is not None:  # the next frame is read, whatever it shows
                    self.still.forget()
                return
            cards = self.last_cards = result.cards
            picture = _picture(frame)
            if picture is not None:
                self._fit_table_to(picture)
            if picture is not None and (self.picture_posted is None or now - self.picture_posted >= PICTURE_EVERY):
                self.picture_posted = now
                self.inbox.put(("seen", cards))
                self.inbox.put(("frame", picture))
        state = self.stabiliser.update(cards, now)
        if state is not None:
            self.inbox.put(("table_state", state))

    def _run(self) -> None:
        try:
            self.build_pipeline()
        except Exception as error:  # no model, no OpenCV: the game goes on by hand, and the screen says why
            log.error("camera pipeline unavailable: %s", error)
            self.inbox.put(("camera", "lost"))
            self.inbox.put(("camera_status", f"camera pipeline unavailable ({error}); manual mode"))
            self.guard.close()
            return
        while not self.stopping.is_set():
            try:
                self.step()
            except Exception as error:  # the camera thread must outlive a bad frame or a driver hiccup
                log.exception("camera step failed: %s", error)
                self.stopping.wait(1.0)
            self.stopping.wait(self.idle_wait)
        self.guard.close()
