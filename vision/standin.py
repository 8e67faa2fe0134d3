"""Stand-in card faces drawn by code, so demos and tests work where the publisher's scans are absent.

They follow the printed layout (legion badge with a humanoid silhouette near the top-right corner, an ability icon
below it, the right edge tinted in the legion colour) but none of the art.
"""
from __future__ import annotations

import numpy as np

from .cards import CARD_HEIGHT, CARD_WIDTH, CardFacts

# BGR, picked to resemble the printed legion tints.
LEGION_BGR = {
    "blue": (190, 120, 60),
    "red": (50, 60, 200),
    "brown": (40, 130, 215),
    "green": (50, 170, 120),
}
BADGE_CENTRE = (925, 108)
ICON_CENTRE = (910, 215)


def _badge_outline(legion: str) -> np.ndarray:
    cx, cy = BADGE_CENTRE
    angles = np.linspace(0, 2 * np.pi, 48, endpoint=False)
    if legion == "blue":  # coffin-shaped hexagon
        points = [(-35, -60), (35, -60), (52, -20), (25, 62), (-25, 62), (-52, -20)]
        return np.array([(cx + x, cy + y) for x, y in points], np.int32)
    if legion == "red":  # spiky fur
        radius = np.where(np.arange(48) % 2 == 0, 70, 52)
    elif legion == "brown":  # insect: body with legs as bumps
        radius = 55 + 12 * np.sign(np.sin(angles * 6))
    else:  # green wavy blob
        radius = 60 + 6 * np.sin(angles * 9)
    return np.stack([cx + radius * np.cos(angles), cy + radius * np.sin(angles)], axis=1).astype(np.int32)


def _silhouette(face: np.ndarray, parts: tuple[str, ...]) -> None:
    """The figure leaning from bottom-left to top-right where the printed one is, each part at its measured place
    (so the badge is found on a stand-in as on a scan)."""
    import cv2

    from .features import PART_CENTRES

    lit, dim = (255, 255, 255), (175, 175, 175)
    legs, torso, head = (np.array(PART_CENTRES[part], np.float64) for part in ("legs", "torso", "head"))
    along = (head - legs) / np.linalg.norm(head - legs)
    across = np.array([-along[1], along[0]])

    def point(p):
        return tuple(int(round(v)) for v in p)

    colour = lit if "legs" in parts else dim
    for side in (-7, 7):
        cv2.line(face, point(legs - 22 * along + side * across), point(legs + 10 * along + side * across), colour, 9)
    cv2.line(face, point(torso - 12 * along), point(torso + 8 * along), lit if "torso" in parts else dim, 24)
    cv2.circle(face, point(head + 4 * along), 12, lit if "head" in parts else dim, -1)


def _icon(face: np.ndarray, ability: str | None) -> None:
    import cv2

    if ability is None:
        return
    cx, cy = ICON_CENTRE
    white = (250, 250, 250)
    if ability == "scavenger":  # crossed bones
        cv2.line(face, (cx - 40, cy - 40), (cx + 40, cy + 40), white, 12)
        cv2.line(face, (cx + 40, cy - 40), (cx - 40, cy + 40), white, 12)
        for dx, dy in ((-40, -40), (40, 40), (40, -40), (-40, 40)):
            cv2.circle(face, (cx + dx, cy + dy), 11, white, -1)
    elif ability == "devourer":  # teeth
        teeth = [(cx - 45 + 15 * i, cy + (-30 if i % 2 else 10)) for i in range(7)]
        cv2.polylines(face, [np.array(teeth, np.int32)], False, white, 9)
        cv2.ellipse(face, (cx, cy), (50, 40), 0, 0, 360, white, 6)
    elif ability == "mourner":  # eye
        cv2.ellipse(face, (cx, cy), (48, 28), 0, 0, 360, white, 8)
        cv2.circle(face, (cx, cy), 15, white, -1)
    elif ability == "jester":  # smile with two circles
        cv2.ellipse(face, (cx, cy), (45, 40), 0, 20, 160, white, 9)
        cv2.circle(face, (cx - 15, cy - 20), 14, white, 5)
        cv2.circle(face, (cx + 25, cy - 10), 14, white, 5)
    elif ability == "herald":  # wolf and moon
        cv2.circle(face, (cx + 20, cy - 20), 30, white, -1)
        cv2.fillConvexPoly(face, np.array([(cx - 50, cy + 45), (cx - 20, cy - 20), (cx + 10, cy + 45)], np.int32),
                           (60, 60, 60))
    elif ability == "executioner":  # axe
        cv2.line(face, (cx - 30, cy + 50), (cx + 25, cy - 45), white, 10)
        cv2.ellipse(face, (cx + 15, cy - 25), (30, 25), 30, 180, 360, white, -1)


def standin_face(card: CardFacts) -> np.ndarray:
    """A 1020x655 BGR face for `card`, deterministic for its id."""
    import cv2

    rng = np.random.default_rng(card.id)
    tint = np.array(LEGION_BGR[card.legion], np.float32)
    ys, xs = np.mgrid[0:CARD_HEIGHT, 0:CARD_WIDTH].astype(np.float32)
    shade = 0.35 + 0.35 * (xs / CARD_WIDTH) + 0.1 * np.sin(ys / 60 + card.id)
    face = (shade[..., None] * tint[None, None, :]).clip(0, 255).astype(np.uint8)
    # A creature-like blob in the middle so the art is not flat.
    centre = (int(rng.integers(300, 600)), int(rng.integers(250, 400)))
    cv2.ellipse(face, centre, (int(rng.integers(120, 220)), int(rng.integers(90, 200))), float(rng.integers(0, 180)),
                0, 360, tuple(int(v) for v in rng.integers(60, 220, 3)), -1)
    stripe = slice(CARD_WIDTH - 45, CARD_WIDTH)
    face[:, stripe] = (0.5 * face[:, stripe] + 0.5 * tint).astype(np.uint8)
    badge = _badge_outline(card.legion)
    cv2.fillPoly(face, [badge], tuple(int(v) for v in tint))
    cv2.polylines(face, [badge], True, tuple(int(min(255, v * 1.3)) for v in tint), 4)
    _silhouette(face, card.parts)
    _icon(face, card.ability)
    cv2.putText(face, str(card.id), (30, 630), cv2.FONT_HERSHEY_SIMPLEX, 1.0, (200, 200, 200), 2)
    return face


def card_back() -> np.ndarray:
    """The back of a card for the draw deck: dark with a repeating pattern."""
    import cv2

    back = np.full((CARD_HEIGHT, CARD_WIDTH, 3), (40, 30, 45), np.uint8)
    for x in range(0, CARD_WIDTH, 60):
        cv2.line(back, (x, 0), (x + 200, CARD_HEIGHT), (70, 55, 80), 6)
    cv2.rectangle(back, (40, 40), (CARD_WIDTH - 40, CARD_HEIGHT - 40), (90, 80, 110), 8)
    return back
