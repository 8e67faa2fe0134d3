"""Learn where the silhouette's legs, torso and head sit in the badge, from the training scans.

    python -m vision.learn_layout      # writes vision/params/silhouette.json

For each part, the mean badge whiteness of cards with that part highlighted minus that of cards without it peaks
at the part; the peak positions (scan pixels) and that difference itself, coarsely sampled over the badge (the part's
shape as a weight map), are the only things written.
"""
from __future__ import annotations

import json
import sys

import numpy as np

from .cards import load_scan, training_cards
from .layout import BADGE_BOX
from .model import PARAMS_DIR

SILHOUETTE_FILE = PARAMS_DIR / "silhouette.json"


def badge_whiteness(image: np.ndarray) -> np.ndarray:
    x0, y0, x1, y1 = BADGE_BOX
    whiteness = image[y0:y1, x0:x1].astype(np.float32).min(axis=2)
    background = np.median(whiteness)
    return (whiteness - background) / (np.percentile(whiteness, 99) - background + 1.0)


def learn() -> dict:
    import cv2

    maps = [(badge_whiteness(load_scan(card)), card.parts) for card in training_cards()]
    from .features import HIGHLIGHT_SIZE

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
    return {"part_centres": centres, "radius": 20, "part_templates": templates}


def main(argv=None) -> int:
    data = learn()
    SILHOUETTE_FILE.write_text(json.dumps(data, indent=1), encoding="utf-8")
    print(f"wrote {SILHOUETTE_FILE}: {data}")
    return 0


if __name__ == "__main__":
    sys.exit(main())
