"""Binding a physical button (ROLL, DRAW) to one engine move, shared by the Attic Monster and Nemesis games.

The app delivers each debounced press once (companion.hardware.controls.Controls counts a press on release),
so a binding simply runs its move per "press"; a "hold" is left to the screen (it usually means "back").
After a move the box acknowledges it: one blink of the status LED and a click of the buzzer, where wired.
"""
from __future__ import annotations

import logging
from dataclasses import dataclass
from typing import Callable

from companion.games.common.engine import IllegalMove

log = logging.getLogger(__name__)


@dataclass(frozen=True)
class Outcome:
    """What one press did: the engine event, or the message saying why the rules refused it."""

    event: dict | None = None
    refused: str | None = None


class ButtonBinding:
    def __init__(self, control: str, move: Callable[[], dict], undo: Callable[[], dict], feedback=None):
        self.control = control
        self.move = move
        self.undo = undo
        self.feedback = feedback  # anything with blink(name, times) and click(), e.g. Controls

    def handle(self, control: str, action: str, commit: Callable[[dict], bool] | None = None) -> Outcome | None:
        """One app control event; None when it is not this binding's press.

        `commit(event)` saves the move; if it returns False the move is taken back, so a roll is never shown
        (or blinked) that a restart would forget.
        """
        if control != self.control or action != "press":
            return None
        try:
            event = self.move()
        except IllegalMove as error:
            return Outcome(refused=str(error))
        if commit is not None and not commit(event):
            self.undo()
            return Outcome(refused="The move could not be saved, so it was not made. Press again.")
        self._acknowledge()
        return Outcome(event=event)

    def pump(self, controls) -> list[Outcome]:
        """Drain a Controls queue directly (no UI): every press of this button becomes one move."""
        outcomes = []
        for action, control in controls.poll():
            outcome = self.handle(control, action)
            if outcome is not None:
                outcomes.append(outcome)
        return outcomes

    def _acknowledge(self) -> None:
        if self.feedback is None:
            return
        try:
            self.feedback.blink("led", times=1)
            self.feedback.click()
        except Exception as error:  # a loose wire must not undo a roll that already happened
            log.warning("button feedback failed: %s", error)
