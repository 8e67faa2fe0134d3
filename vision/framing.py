"""Whether the camera's picture shows the cards at the size the recogniser was measured on.

`companion vision bench` measures it on 1640x1232 pictures whose cards are 140 to 330 pixels long (the card's long
side): from 1/12 to 1/5 of the picture's long side. Cards smaller than that, in pixels or as a share of the picture,
are found and read less well (docs/vision.md, "Card size in the picture"), and the two have different remedies: too
few pixels, ask the camera for more (`[camera] resolution`); too small a share, hang the camera lower. `companion
doctor` reads a test picture and says which, if either.
"""
from __future__ import annotations

import math
import statistics
from dataclasses import dataclass

from .synthetic import FRAME_SIZE

MEASURED_CARD_LENGTHS = (140.0, 330.0)  # pixels, in pictures of FRAME_SIZE (vision.bench)
MIN_CARD_PIXELS = MEASURED_CARD_LENGTHS[0]
MIN_CARD_SHARE = MEASURED_CARD_LENGTHS[0] / max(FRAME_SIZE)
MAX_CARD_SHARE = MEASURED_CARD_LENGTHS[1] / max(FRAME_SIZE)
SMALL_SHARE, FEW_PIXELS, LARGE_SHARE = "small share", "few pixels", "large share"  # Framing.problem


def card_length(corners) -> float:
    """A card's long side in pixels: the mean of its top and bottom edges (corners TL, TR, BR, BL)."""
    (tlx, tly), (trx, try_), (brx, bry), (blx, bly) = corners
    return (math.hypot(trx - tlx, try_ - tly) + math.hypot(brx - blx, bry - bly)) / 2


@dataclass(frozen=True)
class Framing:
    """The cards of one picture: how many, their median length in pixels and that length's share of the picture's
    long side."""
    cards: int
    length: float
    share: float

    @classmethod
    def of(cls, cards, picture_size: tuple[int, int]) -> "Framing | None":
        """The framing of the recognised `cards` (SeenCards) in a picture of `picture_size` (width, height); None
        when there is no card to measure."""
        lengths = [card_length(card.corners) for card in cards if len(card.corners) == 4]
        if not lengths:
            return None
        length = statistics.median(lengths)
        return cls(cards=len(lengths), length=length, share=length / max(picture_size))

    @property
    def too_small_a_share(self) -> bool:
        return self.share < MIN_CARD_SHARE

    @property
    def too_few_pixels(self) -> bool:
        return self.length < MIN_CARD_PIXELS

    @property
    def too_large_a_share(self) -> bool:
        return self.share > MAX_CARD_SHARE

    @property
    def problem(self) -> str | None:
        """What most needs changing, in this order (hanging the camera lower also gives more pixels):
        SMALL_SHARE, FEW_PIXELS or LARGE_SHARE; None when the cards are as the recogniser is measured on."""
        if self.too_small_a_share:
            return SMALL_SHARE
        if self.too_few_pixels:
            return FEW_PIXELS
        if self.too_large_a_share:
            return LARGE_SHARE
        return None

    @property
    def as_measured(self) -> bool:
        return self.problem is None

    def advice(self) -> str:
        """One line for the user: the cards' size, and what to change when it is not as the recogniser was
        measured on."""
        seen = (f"{self.cards} card(s) about {self.length:.0f} px long, 1/{1 / self.share:.0f} of the picture's "
                f"width")
        problem = self.problem
        if problem == SMALL_SHARE:
            return (f"{seen}: too small a part of the picture (the recogniser is measured on cards at least "
                    f"1/{1 / MIN_CARD_SHARE:.0f} of it): hang the camera lower or use a narrower lens "
                    "(hardware/wiring.md, Camera mounting)")
        if problem == FEW_PIXELS:
            return (f"{seen}: too few pixels (the recogniser is measured on cards at least {MIN_CARD_PIXELS:.0f} px "
                    "long): ask the camera for a larger picture ([camera] resolution)")
        if problem == LARGE_SHARE:
            return (f"{seen}: more of the picture than the recogniser is measured on (at most "
                    f"1/{1 / MAX_CARD_SHARE:.0f}): hang the camera higher so the whole play area is in view")
        return (f"{seen}: as the recogniser is measured on ({MIN_CARD_PIXELS:.0f}-{MEASURED_CARD_LENGTHS[1]:.0f} px, "
                f"1/{1 / MIN_CARD_SHARE:.0f} to 1/{1 / MAX_CARD_SHARE:.0f} of the picture)")
