"""Learn where the silhouette's legs, torso and head sit in the badge, from the training scans.

    python -m vision.learn_layout      # writes vision/params/silhouette.json

The scans are cut a little differently, so each scan's badge is first moved onto the mean white figure of all of
them (three rounds); that mean figure, coarsely sampled, is what `vision.features` matches to find the badge on a
card. Then, for each part, the mean badge whiteness of cards with that part highlighted minus that of cards without
it peaks at the part; the peak positions (scan pixels) and that difference itself, coarsely sampled over the badge
(the part's shape as a weight map), are the other things written.
"""
from __future__ import annotations

import json
import sys

import numpy as np

from .cards import load_scan, training_cards
from .layout import BADGE_BOX
from .model import PARAMS_DIR

SILHOUETTE_FILE = PARAMS_DIR / "silhouette.json"
ALIGN_ROUNDS = 3
# The scans are cut up to 25 scan pixels differently: their badges are looked for this far, whatever reach the
# features use on the table (where detected corners can be further off).
SCAN_ALIGN_REACH = 40


def badge_whiteness(image: np.ndarray) -> np.ndarray:
    from .features import _channel_min

    whiteness = _channel_min(image.astype(np.float32))
    background = np.median(whiteness)
    return (whiteness - background) / (np.percentile(whiteness, 99) - background + 1.0)


def aligned_badges(scans: list[np.ndarray]) -> tuple[np.ndarray, list[np.ndarray]]:
    """The mean white figure of the badges (template pixels) and each scan's badge box moved onto it."""
    import cv2

    from .cards import CARD_HEIGHT, CARD_WIDTH
    from .features import ALIGN_SCALE, BADGE_TEMPLATE_SIZE, _card_to_image, _channel_min, _shifted, _warp, badge_offset

    x0, y0, x1, y1 = BADGE_BOX
    scan_map = _card_to_image(np.float64([[0, 0], [CARD_WIDTH, 0], [CARD_WIDTH, CARD_HEIGHT], [0, CARD_HEIGHT]]))
    # Seen at a quarter of their size, as on the table: blurred first so that fine print does not alias.
    smooth = [cv2.GaussianBlur(scan, (0, 0), 0.5 / ALIGN_SCALE) for scan in scans]
    offsets = [np.zeros(2) for _ in scans]
    for _ in range(ALIGN_ROUNDS):
        figures = []
        for scan, offset in zip(smooth, offsets):
            badge = _warp(scan, _shifted(scan_map, offset), BADGE_BOX, BADGE_TEMPLATE_SIZE)
            figure = _channel_min(badge.astype(np.float32))
            figures.append((figure - figure.mean()) / (figure.std() + 1e-3))
        template = np.mean(figures, axis=0).astype(np.float32)
        offsets = [badge_offset(scan, scan_map, template, SCAN_ALIGN_REACH) for scan in smooth]
        drift = np.mean(offsets, axis=0)  # keeps the figure in the middle of the box
        offsets = [offset - drift for offset in offsets]
    badges = [_warp(scan, _shifted(scan_map, offset), BADGE_BOX, (x1 - x0, y1 - y0))
              for scan, offset in zip(scans, offsets)]
    return np.round(template, 4), badges


def learn() -> dict:
    import cv2

    from .features import HIGHLIGHT_SIZE

    cards = list(training_cards())
    template, badges = aligned_badges([load_scan(card) for card in cards])
    maps = [(badge_whiteness(badge), card.parts) for badge, card in zip(badges, cards)]
    centres, templates = {}, {}
    for part in ("legs", "torso", "head"):
        with_part = np.mean([w for w, parts in maps if part in parts], axis=0)
        without = np.mean([w for w, parts in maps if part not in parts], axis=0)
        difference = cv2.GaussianBlur(with_part - without, (0, 0), 4)
        y, x = np.unravel_index(int(np.argmax(difference)), difference.shape)
        centres[part] = [int(x + BADGE_BOX[0]), int(y + BADGE_BOX[1])]
        # Only where the part is clearly brighter when highlighted: the rest of the figure says nothing.
        shape = cv2.resize(difference, HIGHLIGHT_SIZE, interpolation=cv2.INTER_AREA)
        shape = np.clip(shape - 0.25 * shape.max(), 0, None)
        templates[part] = np.round(shape / shape.sum(), 5).tolist()
    return {"part_centres": centres, "radius": 20, "part_templates": templates, "badge_template": template.tolist()}


def main(argv=None) -> int:
    data = learn()
    SILHOUETTE_FILE.write_text(json.dumps(data, indent=1), encoding="utf-8")
    print(f"wrote {SILHOUETTE_FILE}: {data}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
