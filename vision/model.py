"""Linear classifiers (ridge regression to one-hot targets) over card features: legion (over the colour terms of
`legion_terms`), parts, ability, and whether a quad really is a card the right way up. The weights live in
vision/params/model.json, written by vision.train."""
from __future__ import annotations

import itertools
import json
import math
import zipfile
from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

import numpy as np

from .table_state import ABILITIES, LEGIONS

if TYPE_CHECKING:
    from .exemplars import Exemplars

PARAMS_DIR = Path(__file__).resolve().parent / "params"
DEFAULT_MODEL = PARAMS_DIR / "model.json"
PART_SETS = (("legs",), ("torso",), ("head",), ("legs", "torso"), ("torso", "head"), ("legs", "torso", "head"))
# Each body part's highlight in the silhouette is its own yes/no question: that generalises to part
# combinations seen on few training cards better than one six-way choice.
HEADS = {
    "legion": LEGIONS,
    "legs": (True, False),
    "torso": (True, False),
    "head": (True, False),
    "ability": (None,) + ABILITIES,
    "card": (True, False),
}
SHARPNESS = 6.0  # turns ridge scores (about 0 or 1) into probabilities
# The legion is read from the badge's shape and the card's colours together: the shape head's probabilities times the
# colour head's raised to this power. A camera whose hues are off by 10-20 degrees puts whole legions in the wrong one
# by colour, surely (stop 39: 63-104 of 347 held-out cards), while the badge's shape does not change; so a sure
# shape outweighs a sure colour. Where the shape head is less sure than SHAPE_SURE, and gives the colours' legion
# more than SHAPE_RULES_OUT, the colours alone decide: a brown card read green at 0.6 by its badge (brown 0.085; brown
# at 0.67 by colour) was the one legion the pair read wrong in the 60 held-out scenes, while the cards whose colours a
# camera's turned hues misread mostly have badges read at 0.75 or more, and the rest mostly all but rule out the
# colours' legion (a brown card read green at 0.9 by colour, its badge brown 0.52, blue 0.45, green 0.02).
SHAPE_COLOUR_WEIGHT = 0.3
SHAPE_SURE = 0.7
SHAPE_RULES_OUT = 0.05


def _legion_term_indices():
    from .features import COLOUR, COLOUR_REGIONS, COLOUR_STATISTICS

    colour = np.arange(COLOUR.start, COLOUR.stop)
    pairs = np.array(list(itertools.combinations_with_replacement(colour, 2)))
    # By threes, only the mean chromaticities and saturations: with the saturated pixels' chromaticity as well,
    # cross-validation read more crops in the wrong legion (0.25% against 0.18%), from 3.5 times as many terms.
    means = np.array([COLOUR.start + region * COLOUR_STATISTICS + statistic
                      for region in range(COLOUR_REGIONS) for statistic in (0, 1, 2, 6)])
    triples = np.array(list(itertools.combinations_with_replacement(means, 3)))
    return colour, pairs, triples


_COLOUR_COLUMNS, _COLOUR_PAIRS, _MEAN_TRIPLES = _legion_term_indices()
LEGION_TERMS = len(_COLOUR_COLUMNS) + len(_COLOUR_PAIRS) + len(_MEAN_TRIPLES) + 1


def legion_terms(features: np.ndarray) -> np.ndarray:
    """What the legion head reads of card_features rows: the colour statistics, their products by twos and the mean
    colours' by threes, and a constant. Over all the features (the art's gradients too), a linear head learned the
    64 training cards rather than their legions; and the four tints are not linearly apart (brown lies between red
    and green, and a brown card's yellow glow is near green's), which the products let a linear head bend around.
    Cross-validated by card over the training scans: 1.3-1.5% of crops read in the wrong legion -> 0.2%."""
    features = np.atleast_2d(features)
    return np.concatenate([features[:, _COLOUR_COLUMNS],
                           features[:, _COLOUR_PAIRS[:, 0]] * features[:, _COLOUR_PAIRS[:, 1]],
                           features[:, _MEAN_TRIPLES[:, 0]] * features[:, _MEAN_TRIPLES[:, 1]]
                           * features[:, _MEAN_TRIPLES[:, 2]],
                           np.ones((len(features), 1), features.dtype)], axis=1)


def legion_from_shape_and_colour(shape: np.ndarray, colour: np.ndarray, colour_weight: float = SHAPE_COLOUR_WEIGHT,
                                 sure: float = SHAPE_SURE, rules_out: float = SHAPE_RULES_OUT,
                                 overrules_from: float | None = None) -> np.ndarray:
    """The legion probabilities of the badge shape head's (`shape`) and the colour head's (`colour`) together (rows
    of probabilities in LEGIONS order, or one row each): the shape's times the colour's raised to `colour_weight`,
    or the colour's alone where the shape is less sure than `sure` and does not rule the colour's legion out
    (gives it more than `rules_out`), and, with `overrules_from`, where the two together read another legion than
    the colours while the shape is less sure than that and does not rule the colours' legion out (a trial of
    `vision.crossval --head shape`, stop 84, not the pipeline's). The defaults are the pipeline's;
    `vision.crossval --head shape` weighs others."""
    shape, colour = np.asarray(shape, np.float64), np.asarray(colour, np.float64)
    combined = shape * colour ** colour_weight
    combined /= combined.sum(axis=-1, keepdims=True)
    colours_legion = np.take_along_axis(shape, colour.argmax(axis=-1)[..., None], axis=-1)
    shape_sureness = shape.max(axis=-1, keepdims=True)
    rules_colours_out = colours_legion <= rules_out
    has_its_say = (shape_sureness >= sure) | rules_colours_out
    if overrules_from is not None:
        overrules = combined.argmax(axis=-1)[..., None] != colour.argmax(axis=-1)[..., None]
        has_its_say &= ~overrules | (shape_sureness >= overrules_from) | rules_colours_out
    return np.where(has_its_say, combined, colour)


# The head's part head reads a printed head as missing more often than the other parts' heads read theirs: most
# wrong part readings are a card with two or three parts read without its head (torso and head as torso; all three as
# legs and torso). Its log-odds are raised by this much before the parts are combined. Cross-validated by card over
# the training scans (`python -m vision.crossval --head parts`, stop 72; docs/vision-history.md).
HEAD_RISE = 1.0


def part_set_probabilities(part_probabilities: dict[str, float], head_rise: float | None = None) -> np.ndarray:
    """The probability of each printed part combination (PART_SETS order) given each part's probability of being
    highlighted, the head's log-odds first raised by `head_rise` (HEAD_RISE unless given)."""
    if "head" in part_probabilities:
        head = part_probabilities["head"] * math.exp(HEAD_RISE if head_rise is None else head_rise)
        part_probabilities = part_probabilities | {"head": head / (head + 1.0 - part_probabilities["head"])}
    scored = []
    for combo in PART_SETS:
        probability = 1.0
        for part, p in part_probabilities.items():
            probability *= p if part in combo else 1 - p
        scored.append(probability)
    scored = np.array(scored)
    return scored / (scored.sum() or 1.0)


def best_parts(part_probabilities: dict[str, float]) -> tuple[tuple[str, ...], float]:
    """The printed part combination most likely given each part's probability of being highlighted."""
    probabilities = part_set_probabilities(part_probabilities)
    best = int(np.argmax(probabilities))
    return PART_SETS[best], float(probabilities[best])


class ModelError(Exception):
    pass


def exemplars_path(model_path: Path | str) -> Path:
    """The nearest-neighbour table that goes with a model's JSON file."""
    return Path(model_path).with_suffix(".npz")


def fit_ridge(features: np.ndarray, labels: np.ndarray, classes: int, regulariser: float,
              balanced: bool = False) -> np.ndarray:
    """Least squares to one-hot targets; `balanced` weighs every class equally however many rows it has."""
    targets = np.eye(classes, dtype=np.float64)[labels]
    features = features.astype(np.float64)
    weights = np.ones(len(labels))
    if balanced:
        counts = np.bincount(labels, minlength=classes).astype(np.float64)
        weights = (len(labels) / (classes * np.maximum(counts, 1)))[labels]
    weighted = features * weights[:, None]
    gram = weighted.T @ features
    gram[np.diag_indices_from(gram)] += regulariser
    return np.linalg.solve(gram, weighted.T @ targets).astype(np.float32)


def fit_ridge_on(columns, features: np.ndarray, labels: np.ndarray, classes: int, regulariser: float) -> np.ndarray:
    """`fit_ridge` over `columns` of the features only, as weights over all of them (zero outside `columns`)."""
    weights = np.zeros((features.shape[1], classes), np.float32)
    weights[columns] = fit_ridge(features[:, columns], labels, classes, regulariser)
    return weights


def softmax(scores: np.ndarray) -> np.ndarray:
    scaled = SHARPNESS * scores
    scaled -= scaled.max(axis=-1, keepdims=True)
    exp = np.exp(scaled)
    return exp / exp.sum(axis=-1, keepdims=True)


@dataclass
class CardModel:
    weights: dict[str, np.ndarray]
    about: dict
    exemplars: "Exemplars | None" = None  # nearest-neighbour parts and ability, when trained with them
    # Legion by the badge's shape (over `vision.features.badge_shape`), when trained with it; None reads the legion
    # by colour alone (a model from before stop 40, or one taught a printing whose badges differ).
    badge_shape: np.ndarray | None = None

    @property
    def feature_count(self) -> int:
        """The length of the feature vectors the weights apply to."""
        return self.weights["card"].shape[0]

    def probabilities(self, features: np.ndarray) -> dict[str, np.ndarray]:
        features = np.atleast_2d(features)
        return {head: softmax(self._inputs(head, features) @ weight) for head, weight in self.weights.items()}

    def legion_probabilities(self, colour: np.ndarray, shape_inputs: np.ndarray) -> np.ndarray:
        """The legion probabilities of cards whose colour head read `colour`, from their badge shape head's inputs
        (`vision.features.badge_shape` rows) as well, when the model has that head."""
        if self.badge_shape is None:
            return colour
        return legion_from_shape_and_colour(softmax(shape_inputs @ self.badge_shape), colour)

    def _inputs(self, head: str, features: np.ndarray) -> np.ndarray:
        # A model taught before the legion head read colour terms keeps its head over all the features.
        if head == "legion" and self.weights["legion"].shape[0] != features.shape[1]:
            return legion_terms(features)
        return features

    def to_json(self) -> dict:
        data = {"about": self.about,
                "weights": {head: np.round(w.astype(np.float64), 5).tolist() for head, w in self.weights.items()}}
        if self.badge_shape is not None:
            data["badge_shape"] = np.round(self.badge_shape.astype(np.float64), 5).tolist()
        return data

    @classmethod
    def from_json(cls, data: dict) -> "CardModel":
        try:
            weights = {head: np.asarray(data["weights"][head], np.float32) for head in HEADS}
        except (KeyError, TypeError, ValueError) as error:
            raise ModelError(f"the recogniser's parameter file is incomplete ({error})") from None
        sizes = {w.shape[0] for h, w in weights.items() if h != "legion"}
        if len(sizes) != 1 or weights["legion"].shape[0] not in sizes | {LEGION_TERMS} \
                or any(w.shape[1] != len(HEADS[h]) for h, w in weights.items()):
            raise ModelError("the recogniser's parameter file has weights of mismatched shapes")
        badge_shape = None
        if data.get("badge_shape") is not None:
            from .features import BADGE_SHAPE_LENGTH

            try:
                badge_shape = np.asarray(data["badge_shape"], np.float32)
            except (TypeError, ValueError) as error:
                raise ModelError(f"the recogniser's badge shape weights are unreadable ({error})") from None
            if badge_shape.shape != (BADGE_SHAPE_LENGTH, len(HEADS["legion"])):
                raise ModelError("the recogniser's badge shape weights have the wrong shape")
        return cls(weights, data.get("about", {}), badge_shape=badge_shape)

    @classmethod
    def load(cls, path: Path | str = DEFAULT_MODEL) -> "CardModel":
        from .exemplars import Exemplars

        try:
            data = json.loads(Path(path).read_text(encoding="utf-8"))
        except FileNotFoundError:
            raise ModelError(f"no recogniser parameters at {path}: run `python -m vision.train`") from None
        except (OSError, ValueError) as error:
            raise ModelError(f"cannot read the recogniser parameters at {path}: {error}") from None
        model = cls.from_json(data)
        exemplar_path = exemplars_path(path)
        if exemplar_path.is_file():
            try:
                model.exemplars = Exemplars.load(exemplar_path)
            except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
                raise ModelError(f"cannot read the recogniser parameters at {exemplar_path}: {error}") from None
        return model

    def save(self, path: Path | str) -> None:
        path = Path(path)
        path.parent.mkdir(parents=True, exist_ok=True)
        if self.exemplars is not None:
            self.exemplars.save(exemplars_path(path))
        elif exemplars_path(path).is_file():
            exemplars_path(path).unlink()  # a stale table from an earlier model must not be paired with this one
        temporary = path.with_suffix(".tmp")
        temporary.write_text(json.dumps(self.to_json(), separators=(",", ":")), encoding="utf-8")
        temporary.replace(path)  # a crash mid-write never leaves a half-written parameter file
