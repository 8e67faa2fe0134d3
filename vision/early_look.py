"""The early look: most places the pipeline reads hold no card, and most of a feature vector's cost goes on features
that could not make them read as one.

The card head is linear: its score is the sum of its weights times the features. `card_features` computes them in
three parts and shows the pipeline what it has after each of the first two (`vision.features.LOOKS`): first the
emblem's gradients and coarse levels and the badge's white print, which carry most of the score; then the colours
too. Over every place read in scenes of the training cards, the features not yet computed at a look added at most
so much to the score. So where what a look has seen, plus that much (and a margin), still leaves the place below
FLOOR, it reads as no card without the rest, as a place whose badge fails the badge gate does. A reader that takes
only places reading surely as cards (a lone card at 0.85, say) gives up at its own bar instead (`at_least`): how much
less a place reads below it changes nothing it does.

    python -m vision.early_look [--scenes 40]

learns how much the rest can add at each look from training scenes (never the bench's held-out cards) and records
it, with a digest of the card head it holds for, in the shipped parameters' `about`. A model whose card head differs
(retrained, or taught with --retrain) has no record that fits, and reads every place whole.
"""
from __future__ import annotations

import argparse
import dataclasses
import functools
import hashlib
import math
from dataclasses import dataclass

import numpy as np

from .features import LOOKS
from .model import SHARPNESS, CardModel

RECORD = "early look"  # the key in a model's `about`
FLOOR = 0.05  # a place the early look shows to read below this as a card reads as none (the pipeline's SNAP_MIN_SCORE)
MARGIN = 0.1  # added to the most the rest of the features added to the score in the training scenes
# The training scenes it is learned from: training cards only, plain and pushed together, and through cameras whose
# colours differ (vivid, washed out, hues turned), since those move the colour features the rest holds.
LEARNING_SEED = 4301
PRINTINGS = ((0.0, 1.0), (0.0, 0.6), (0.0, 1.5), (10.0, 1.0), (-10.0, 1.0))


def card_head_digest(model: CardModel) -> str:
    """A digest of the card head's weights: the record holds only for the head it was learned with."""
    weights = np.ascontiguousarray(model.weights["card"], np.float32)
    return hashlib.sha256(weights.tobytes()).hexdigest()[:16]


def _card_minus_not(model: CardModel) -> np.ndarray:
    """The card head's score for "a card" minus its score for "not a card", per feature."""
    weights = model.weights["card"].astype(np.float64)
    return weights[:, 0] - weights[:, 1]


@dataclass(frozen=True)
class EarlyLook:
    weights: tuple[np.ndarray, ...]  # per look, the card head's weights over its features ("card" minus "not a card")
    rest_at_most: tuple[float, ...]  # per look, the most the features not yet computed add to the score (and a margin)
    floor: float = FLOOR  # the card probability below which a place the look gives up on surely reads

    @classmethod
    def of(cls, model: CardModel | None) -> "EarlyLook | None":
        """The early look the model's record allows; None where it has none for this card head (or it is unreadable)."""
        record = model.about.get(RECORD) if model is not None and isinstance(model.about, dict) else None
        if not isinstance(record, dict) or record.get("card head") != card_head_digest(model):
            return None
        try:
            rest_at_most = tuple(float(value) for value in record["rest at most"])
        except (KeyError, TypeError, ValueError):
            return None
        if len(rest_at_most) != len(LOOKS) or not all(math.isfinite(value) for value in rest_at_most):
            return None
        card_minus_not = _card_minus_not(model)
        return cls(tuple(card_minus_not[look] for look in LOOKS), rest_at_most)

    def at_least(self, probability: float) -> "EarlyLook":
        """The same look for a reader that makes nothing of a place reading below `probability` as a card (one that
        takes only places reading surely as cards can give up on more)."""
        return dataclasses.replace(self, floor=probability)

    @functools.cached_property
    def least_scores(self) -> tuple[float, ...]:
        """Per look, the score below which the place reads below the floor whatever the rest adds: the card
        probability is a logistic function of SHARPNESS times the score (a two-way softmax)."""
        floor_score = math.log(self.floor / (1 - self.floor)) / SHARPNESS
        return tuple(floor_score - rest for rest in self.rest_at_most)

    def __call__(self, look: int, features: np.ndarray) -> bool:
        """Whether a place whose features seen by `look` (an index into LOOKS) are `features` surely reads below
        the floor as a card."""
        return float(features.astype(np.float64) @ self.weights[look]) < self.least_scores[look]


def rest_scores(model: CardModel, features: np.ndarray, look: int) -> np.ndarray:
    """What the features not yet computed at `look` add to the card head's score, per row of whole feature vectors."""
    rest = np.setdiff1d(np.arange(features.shape[1]), LOOKS[look])
    return features[:, rest].astype(np.float64) @ _card_minus_not(model)[rest]


def learned_record(model: CardModel, features: np.ndarray, about_scenes: str) -> dict:
    """The record for `model` from the whole feature vectors of places read (at least one)."""
    return {"rest at most": [round(float(rest_scores(model, features, look).max()) + MARGIN, 4)
                             for look in range(len(LOOKS))],
            "card head": card_head_digest(model), "learned from": about_scenes}


def places_read(scenes: int, params=None, progress=None) -> np.ndarray:
    """The whole feature vectors of every place the recogniser (with `params`, the shipped ones unless given) reads
    past the badge gate in training scenes, with the early look off."""
    from .bench import one_core, scene_generator
    from .pipeline import BADGE_MATCH, FEATURES, Recogniser

    one_core()
    rows: list[np.ndarray] = []

    class Recording(Recogniser):
        def _read(self, image, cards, *args, **kwargs):  # whatever the reader is asked: only recorded here
            readings = super()._read(image, cards, *args, **kwargs)
            rows.extend(reading[FEATURES] for reading in readings if BADGE_MATCH in reading)
            return readings

    recogniser = Recording(params)
    if recogniser.model is None:
        raise ValueError(recogniser.model_error)
    recogniser.early_look = None
    kinds = [(printing, False) for printing in PRINTINGS] + [(PRINTINGS[0], True)]
    for k, (printing, touching) in enumerate(kinds):
        generator = scene_generator(LEARNING_SEED + k, heldout=False, printing=printing, touching=touching)
        for index in range(scenes):
            result = recogniser.scan(generator.random_scene().frame)
            if result.error:  # a scan cut short would leave its places out of the bound
                raise RuntimeError(f"reading training scene {index} of seed {LEARNING_SEED + k}: {result.error}")
            if progress:
                progress(k * scenes + index + 1, len(kinds) * scenes)
    return np.stack(rows)


def main(argv=None) -> int:
    from pathlib import Path

    from .cards import scans_available
    from .model import DEFAULT_MODEL

    parser = argparse.ArgumentParser(prog="python -m vision.early_look", description=__doc__.split("\n\n")[0])
    parser.add_argument("--scenes", type=int, default=40, help="training scenes of each kind (six kinds: each printing "
                                                                 "in PRINTINGS, and pushed together)")
    parser.add_argument("--params", default=str(DEFAULT_MODEL), help="the parameter file to record it in")
    args = parser.parse_args(argv)
    if not scans_available():
        print("the card scans are not here (../shared/cards): the early look is learned from them", flush=True)
        return 1
    import json

    from .model import ModelError

    path = Path(args.params)
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
        model = CardModel.from_json(data)
    except (OSError, ValueError, TypeError, ModelError) as error:
        print(f"cannot read the recogniser parameters at {path}: {error}", flush=True)
        return 1
    kinds = len(PRINTINGS) + 1
    features = places_read(args.scenes, path, progress=lambda done, total: print(f"\r{done}/{total} scenes", end="",
                                                                                flush=True))
    record = learned_record(model, features, f"{len(features)} places read in {kinds * args.scenes} training scenes, "
                                             f"seeds {LEARNING_SEED}-{LEARNING_SEED + kinds - 1}")
    data["about"] = dict(data.get("about", {})) | {RECORD: record}
    temporary = path.with_suffix(".tmp")
    temporary.write_text(json.dumps(data, separators=(",", ":")), encoding="utf-8")
    temporary.replace(path)
    print(f"\nrecorded in {path}: {record}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
