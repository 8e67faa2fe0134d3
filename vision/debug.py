"""Annotated copies of frames: each card's outline, its top edge, and what was read from it."""
from __future__ import annotations

import numpy as np

COLOURS = {"blue": (220, 120, 40), "red": (40, 40, 230), "brown": (30, 110, 180), "green": (60, 190, 60)}


def annotate(frame, result) -> np.ndarray:
    import cv2

    from .frames import FrameError, to_bgr8

    try:
        image = to_bgr8(frame).copy()
    except FrameError:
        return np.zeros((64, 64, 3), np.uint8)
    for number, card in enumerate(result.cards, start=1):  # numbered as `scan --json` lists them, to label them by
        corners = np.int32(np.round(card.corners))
        colour = COLOURS.get(card.legion, (255, 255, 255))
        cv2.polylines(image, [corners], True, colour, 2)
        cv2.line(image, tuple(corners[0]), tuple(corners[1]), (255, 255, 255), 3)  # the card's top edge
        label = f"#{number} {'+'.join(p[0].upper() for p in card.parts)} {card.ability or '-'} {card.confidence:.2f}"
        if card.seat is not None:
            label += f" s{card.seat}c{card.creature}{(card.slot or '?')[0]}"
        x, y = corners.mean(axis=0).astype(int)
        cv2.putText(image, label, (int(x) - 60, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 0, 0), 3)
        cv2.putText(image, label, (int(x) - 60, int(y)), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (255, 255, 255), 1)
    if result.error:
        cv2.putText(image, result.error[:80], (10, 30), cv2.FONT_HERSHEY_SIMPLEX, 0.7, (0, 0, 255), 2)
    return image
