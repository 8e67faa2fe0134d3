"""The DRAW button for Nemesis: Nightmares: one press draws from the bag for the remembered kind of draw."""
from __future__ import annotations

from companion.games.common.buttons import ButtonBinding
from companion.games.common.engine import IllegalMove

from .engine import DRAW_KINDS, NemesisBag


class BagButton(ButtonBinding):
    """Remembers what the next draw is for (encounter by which character, event phase, other)."""

    def __init__(self, bag: NemesisBag, feedback=None, kind: str = "encounter"):
        super().__init__("draw", self._draw, bag.pop, feedback)
        self.bag = bag
        self.kind = kind
        self.colour: str | None = next((c for c in bag.state["order"]
                                        if bag.state["characters"][c]["status"] == "alive"), None)
        self.hand_size: int | None = None

    def remember(self, kind: str, colour: str | None = None, hand_size: int | None = None) -> None:
        if kind not in DRAW_KINDS:
            raise IllegalMove(f"Unknown kind of draw {kind!r}; use one of {DRAW_KINDS}.")
        self.kind = kind
        if colour is not None:
            self.colour = colour
        self.hand_size = hand_size

    def _draw(self) -> dict:
        return self.bag.draw(self.kind, self.colour, self.hand_size)
