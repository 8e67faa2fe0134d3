"""Teaching the recogniser a card from the touchscreen: a card the camera view outlines is touched, its printed facts
are picked by hand, and the recogniser learns it (and every card taught before) on a worker thread, which tells the
screen how far it has got."""
from __future__ import annotations

import logging
import threading

log = logging.getLogger(__name__)


class TeachWorker:
    """Posts ("teach_status", (state, detail)) to the inbox: ("progress", text) while it works, then ("done", what
    became of the cards' colours: vision.taught.colours_outcome) or ("failed", message). `on_taught(path)` runs on
    this thread once the taught parameters are saved (it asks the camera worker to load them, which it does between
    two frames on its own thread: the screen never waits). `teach` is vision.taught.teach_examples unless given."""

    def __init__(self, inbox, frame, corners, facts, on_taught=None, teach=None, samples: int = 800):
        self.inbox = inbox
        self.frame = frame
        self.corners = corners
        self.facts = facts  # (legion, parts, ability)
        self.on_taught = on_taught
        self.teach = teach
        self.samples = samples
        self.thread = threading.Thread(target=self.run, name="teach", daemon=True)

    def start(self) -> None:
        self.thread.start()

    @property
    def running(self) -> bool:
        return self.thread.is_alive()

    def tell(self, text: str) -> None:
        self.inbox.put(("teach_status", ("progress", text)))

    def run(self) -> None:
        try:
            from vision.taught import (card_with_facts, colours_outcome, remember_example, remembered_examples,
                                       teach_examples)

            self.tell("keeping the picture of the card")
            remember_example(self.frame, self.corners, card_with_facts(*self.facts))
            path = (self.teach or teach_examples)(remembered_examples(), samples=self.samples, progress=self.tell)
            outcome = colours_outcome(path)  # "unclear": the screen suggests more light
            if self.on_taught is not None:
                self.on_taught(path)
        except Exception as error:  # a full disk, no OpenCV, a damaged picture: say so, keep the game
            log.error("teaching failed: %s", error)
            self.inbox.put(("teach_status", ("failed", str(error))))
            return
        self.inbox.put(("teach_status", ("done", outcome)))


def start_teaching(app, frame, card, facts) -> TeachWorker | None:
    """Teach the card read at `card.corners` in `frame` as having `facts`; None while a teaching is still running
    (one at a time: each learns every card taught so far)."""
    if app.teaching is not None and app.teaching.running:
        return None
    worker = app.camera_worker

    def reload(path) -> None:
        if worker is not None:
            worker.reload_recogniser()

    app.teaching = TeachWorker(app.inbox, frame, card.corners, facts, on_taught=reload)
    app.teach_status = ("progress", "")
    if app.background:
        app.teaching.start()
    return app.teaching
