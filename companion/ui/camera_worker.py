"""The vision pipeline in a worker thread: camera frames -> recognised cards -> stable TableStates -> app.inbox.

The pygame loop never waits for the camera: it drains the inbox once per frame. A lost camera becomes a
("camera", "lost") message (the screens switch to manual entry and keep the game) and ("camera", "ok") when the
guard has it back.
"""
from __future__ import annotations

import logging
import threading
import time

log = logging.getLogger(__name__)


class CameraWorker:
    def __init__(self, guard, inbox, recogniser=None, stabiliser=None, clock=time.monotonic, idle_wait: float = 0.05):
        self.guard = guard
        self.inbox = inbox
        self.recogniser = recogniser
        self.stabiliser = stabiliser
        self.clock = clock
        self.idle_wait = idle_wait
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="camera", daemon=True)
        self.connected: bool | None = None

    def start(self) -> None:
        self.thread.start()

    def stop(self, wait: float = 0.0) -> None:
        self.stopping.set()
        if wait and self.thread.is_alive():
            self.thread.join(wait)

    def step(self) -> None:
        """One frame: read, recognise, stabilise, post what changed."""
        now = self.clock()
        frame = self.guard.read(now)
        connected = frame is not None
        if connected != self.connected:
            self.connected = connected
            self.inbox.put(("camera", "ok" if connected else "lost"))
        if frame is None:
            self.stopping.wait(0.5)
            return
        result = self.recogniser.scan(frame)
        if result.error:
            log.info("frame skipped: %s", result.error)
            return
        state = self.stabiliser.update(result.cards, now)
        if state is not None:
            self.inbox.put(("table_state", state))

    def _run(self) -> None:
        if self.recogniser is None or self.stabiliser is None:
            from vision.pipeline import Recogniser
            from vision.stabiliser import Stabiliser

            self.recogniser = self.recogniser or Recogniser()
            self.stabiliser = self.stabiliser or Stabiliser()
        while not self.stopping.is_set():
            try:
                self.step()
            except Exception as error:  # the camera thread must outlive a bad frame or a driver hiccup
                log.exception("camera step failed: %s", error)
                self.stopping.wait(1.0)
            self.stopping.wait(self.idle_wait)
        self.guard.close()
