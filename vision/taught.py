"""Teaching: the user shows their own cards under their own light; the recogniser is retrained with those
pictures mixed in and saved where `default_params()` finds it."""
from __future__ import annotations

import os
from pathlib import Path

import numpy as np


TAUGHT_GATE_MARGIN = 0.7  # the badge gate of a taught model, as a share of its weakest taught card's badge match


class TeachError(Exception):
    pass


def taught_path() -> Path:
    override = os.environ.get("COMPANION_VISION_PARAMS")
    if override:
        return Path(override)
    return Path.home() / ".local" / "share" / "tabletop-companion" / "vision-model.json"


def default_params():
    """The taught parameters when the user has taught the recogniser, else None (the built-in ones)."""
    path = taught_path()
    return path if path.is_file() else None


def largest_card_quad(frame: np.ndarray) -> np.ndarray | None:
    """The corners (TL, TR, BR, BL of the card) of the biggest card-shaped quad, upright guessed by the model."""
    from .detect import find_quads
    from .cards import CARD_ASPECT

    for quad in find_quads(frame):
        across = np.linalg.norm(quad[1] - quad[0])
        down = np.linalg.norm(quad[3] - quad[0])
        ratio = max(across, down) / max(1e-6, min(across, down))
        if abs(ratio - CARD_ASPECT) < 0.3:
            return quad if across >= down else np.roll(quad, -1, axis=0)
    return None


def taught_badge_gate(examples) -> float:
    """The badge gate (see `vision.pipeline.BADGE_GATE`) under which every taught card still gets read: well below
    the weakest badge match among them, for a printing whose badge figure differs from the one learned."""
    from .features import badge_fit
    from .pipeline import BADGE_GATE

    matches = [badge_fit(frame, quad)[0] for frame, quad, _ in examples]
    weakest = min((m if m == m else 0.0 for m in matches), default=BADGE_GATE)  # NaN: a flat badge corner
    return float(min(BADGE_GATE, TAUGHT_GATE_MARGIN * weakest))


def teach(source, card_ids: list[int], out: str | None = None, samples: int = 800, progress=None) -> Path:
    from .cards import card_by_id
    from .features import card_features
    from .frames import FrameError, to_bgr8
    from .model import CardModel
    from .train import train

    try:
        current = CardModel.load(default_params()) if default_params() else CardModel.load()
    except Exception:  # a damaged taught file: teaching replaces it anyway
        current = None
    examples = []
    for card_id in card_ids:
        try:
            card = card_by_id(card_id)
        except KeyError:
            raise TeachError(f"there is no card {card_id} (ids run from 1 to 108)") from None
        try:
            frame = to_bgr8(source.read())
        except FrameError as error:
            raise TeachError(str(error)) from None
        quad = largest_card_quad(frame)
        if quad is None:
            raise TeachError(f"no card found in the picture for card {card_id}: lay it alone on the table")
        # The card may lie either way up: keep the orientation whose badge corner looks most like a card's.
        flipped = np.roll(quad, 2, axis=0)
        if current is not None:
            scores = [current.probabilities(card_features(frame, q))["card"][0, 0] for q in (quad, flipped)]
            quad = (quad, flipped)[int(np.argmax(scores))]
        examples.append((frame, quad, card))
        if progress:
            progress(f"card {card_id}: found")
    if progress:
        progress("retraining (this takes a few minutes)...")
    model = train(samples, seed=11, extra=examples, progress=progress)
    model.about["badge_gate"] = taught_badge_gate(examples)
    path = Path(out) if out else taught_path()
    try:
        model.save(path)
    except OSError as error:
        raise TeachError(f"cannot save to {path}: {error.strerror}") from None
    return path
