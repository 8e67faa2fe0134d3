"""Learn the recogniser's weights from the training scans (every scan except the held-out fifth) and from the
code-drawn stand-in faces, by rendering them into small synthetic scenes.

    python -m vision.train [--samples 5000] [--seed 9] [--out vision/params/model.json] [--only HEAD ...]

The heads are those of vision.model.HEADS and the badge shape head (BADGE_SHAPE_HEAD).

Only numeric weights are written; no image data.
"""
from __future__ import annotations

import argparse
import functools
import sys

import numpy as np

from .cards import CardFacts, all_cards, training_cards
from .features import PART_COLUMNS, badge_fit, badge_shape, card_features, least_channel
from .model import DEFAULT_MODEL, HEADS, CardModel, fit_ridge, fit_ridge_on, legion_terms
from .synthetic import Conditions, FaceBook, SceneGenerator
from .table_state import PARTS

PATCH_SIZE = (640, 520)
# The legion head also learns from cards seen through cameras whose saturation differs (vivid or washed out): this
# range of factors, this many rows of it per row in the scans' own colours. Without them, a camera 1.4 times as
# saturated put 7% of the held-out cards in the wrong legion, surely (stop 39).
OTHER_SATURATION = (0.6, 1.5)
OTHER_CAMERA_SHARE = 0.5
BADGE_SHAPE_HEAD = "badge shape"
REGULARISER = {"legion": 0.03, "legs": 1.0, "torso": 1.0, "head": 1.0, "ability": 1.0, "card": 1.0,
               BADGE_SHAPE_HEAD: 1.0}


def stand_in_samples(samples: int) -> int:
    """How many crops of the code-drawn stand-ins join `samples` crops of the scans (a quarter, at least 60)."""
    return max(60, samples // 4)


def jitter(corners: np.ndarray, rng: np.random.Generator, amount: float) -> np.ndarray:
    width = np.linalg.norm(corners[1] - corners[0])
    return corners + rng.normal(0, amount * width, corners.shape) + rng.normal(0, amount * width, (1, 2))


# How long the cards of a training scene are in pixels (their long side): from the smallest the recogniser is
# measured at to the largest, with a margin below.
TRAINING_WIDTHS = (120.0, 330.0)


def _column_scene(generator: SceneGenerator, rng: np.random.Generator, card_ids: list[int],
                  deck_share: float | None = None, widths: tuple[float, float] = TRAINING_WIDTHS):
    """A training scene: one column of 1-3 of the cards at a random seat, in random conditions with no hand, cards
    `widths` px long under a tilt of up to 28 degrees; with the deck beside it in `deck_share` of the scenes (no
    share: never, and no draw for it)."""
    conditions = Conditions.random(rng)
    conditions.card_width_px = float(rng.uniform(*widths))
    conditions.tilt_deg = float(rng.uniform(0, 28))
    conditions.hand = False
    column = [int(rng.choice(card_ids)) for _ in range(int(rng.integers(1, 4)))]
    layout = {int(rng.integers(0, 4)): [column]}
    return generator.render(layout, conditions, deck=deck_share is not None and bool(rng.random() < deck_share))


def wrong_splits(column_truths) -> list[np.ndarray]:
    from .detect import _order_quad
    from .placements import column_cards, split_hypotheses

    if not column_truths:
        return []
    ordered = sorted(column_truths, key=lambda t: ("legs", "torso", "head").index(t.slot or "legs"))
    legs, head = ordered[0], ordered[-1]
    outline = _order_quad(np.array([head.corners[0], head.corners[1], legs.corners[2], legs.corners[3]]))
    width = legs.width_px
    wrong = []
    for _, axis, count in split_hypotheses(outline):  # the readings the pipeline will weigh
        for flip in (False, True):
            for corners in column_cards(outline, axis, count, flip):
                if not any(np.abs(corners - t.corners).max() < 0.08 * width for t in column_truths):
                    wrong.append(corners)
    return wrong


def detected_crops(frame: np.ndarray, truths) -> list:
    """(corners, truth or None) for every card reading the pipeline would weigh in this frame."""
    from .detect import find_quads
    from .placements import column_cards, split_hypotheses

    crops = []
    for quad in find_quads(frame)[:12]:
        for _, axis, count in split_hypotheses(quad):
            for flip in (False, True):
                for corners in column_cards(quad, axis, count, flip):
                    match = None
                    for truth in truths:
                        if np.abs(corners - truth.corners).max() < 0.05 * truth.width_px:
                            match = truth
                    crops.append((corners, match))
    return crops


def every_quarter(progress, what: str):
    """A `collect` progress callback that tells `progress` (a message sink, such as print) each quarter done of
    rendering `what`; None when there is no sink."""
    if progress is None:
        return None
    told = 0

    def tell(done: int, total: int) -> None:
        nonlocal told
        quarter = min(4, 4 * done // max(1, total))
        if quarter > told:
            told = quarter
            progress(f"rendering {what}: {25 * quarter}%")

    return tell


def collect(cards: list[CardFacts], samples: int, seed: int, use_scans: bool, extra=None, shown: list | None = None,
            progress=None, icon_art: float = 0.0, shapes: bool = False, printing: tuple[float, float] | None = None,
            widths: tuple[float, float] = TRAINING_WIDTHS):
    """Feature rows and labels for every head; `extra` adds (frame, corners, card) examples (from teach). `shown`,
    if given, gets the card id of each legion row, in order (for vision.crossval); `progress(done, samples)` is
    called after each rendered scene. `icon_art` is the share of the faces of cards with no ability drawn with other
    art where an icon would be (vision.synthetic.with_other_art; `vision.crossval --more-icon-art`, stop 31's trial,
    not used in training: see docs/vision-history.md). With `shapes`, the rows also hold the badge shape head's
    (BADGE_SHAPE_HEAD: `badge_shape` rows and the legions of the same cards); they draw nothing at random, so the
    other heads' rows are the same either way. `printing` (hue turn in degrees, saturation factor) shows the faces as
    another printing or camera would (`vision.synthetic.FaceBook`; `vision.crossval --head shape`). `widths`: how long
    the cards are in pixels (`vision.crossval --read-widths` reads crops of one size band)."""
    rng = np.random.default_rng(seed)
    generator = SceneGenerator(seed, size=PATCH_SIZE, card_ids=[c.id for c in cards], use_scans=use_scans,
                               icon_art=icon_art, printing=printing)
    rows = {head: ([], []) for head in [*HEADS, BADGE_SHAPE_HEAD]}
    ids = [c.id for c in cards]
    facts = {c.id: c for c in cards}

    def add_positive(frame, corners, card):
        # The badge found once for both, in the least channel, as the pipeline finds it.
        least = least_channel(frame)
        offset = badge_fit(least, corners).offset
        features = card_features(frame, corners, offset, least=least)
        if shown is not None:
            shown.append(card.id)
        rows["legion"][0].append(features); rows["legion"][1].append(HEADS["legion"].index(card.legion))
        if shapes:
            rows[BADGE_SHAPE_HEAD][0].append(badge_shape(frame, corners, features, offset))
            rows[BADGE_SHAPE_HEAD][1].append(HEADS["legion"].index(card.legion))
        for part in PARTS:
            rows[part][0].append(features); rows[part][1].append(0 if part in card.parts else 1)
        rows["ability"][0].append(features); rows["ability"][1].append(HEADS["ability"].index(card.ability))
        rows["card"][0].append(features); rows["card"][1].append(0)

    def add_negative(frame, corners):
        rows["card"][0].append(card_features(frame, corners)); rows["card"][1].append(1)

    made = 0
    while made < samples:
        scene = _column_scene(generator, rng, ids, deck_share=0.3, widths=widths)
        for truth in scene.cards:
            card = facts[truth.card_id]
            add_positive(scene.frame, jitter(truth.corners, rng, 0.012), card)
            made += 1
            add_negative(scene.frame, jitter(np.roll(truth.corners, 2, axis=0), rng, 0.012))
        # Every wrong way of reading the column's outline (wrong count, wrong axis, upside down) is a negative:
        # exactly the choice the pipeline makes between split hypotheses.
        for corners in wrong_splits(scene.cards):
            add_negative(scene.frame, jitter(corners, rng, 0.01))
        # And the crops the detector really produces, with its own corner errors, labelled by the ground truth.
        for corners, truth in detected_crops(scene.frame, scene.cards):
            if truth is None:
                add_negative(scene.frame, corners)
            else:
                add_positive(scene.frame, corners, facts[truth.card_id])
        if rng.random() < 0.3:
            # Bare table and the deck's back are not cards.
            offset = rng.uniform(0, 200, 2)
            quad = np.array([[0, 0], [200, 0], [200, 128], [0, 128]], np.float64) + offset
            add_negative(scene.frame, quad)
        if rng.random() < 0.1:
            # Nor is sensor noise in the dark, or a flat patch.
            level = rng.uniform(5, 128)
            noise = np.clip(rng.normal(level, rng.uniform(1, 60), (200, 300, 3)), 0, 255).astype(np.uint8)
            add_negative(noise, np.array([[40, 30], [250, 40], [245, 170], [35, 160]], np.float64))
        if progress:
            progress(made, samples)
    for frame, corners, card in extra or ():
        for _ in range(20):
            add_positive(frame, jitter(np.asarray(corners, np.float64), rng, 0.012), card)
    return {head: (np.array(x, np.float32), np.array(y)) for head, (x, y) in rows.items()}


def other_camera_rows(cards: list[CardFacts], samples: int, seed: int, use_scans: bool,
                      progress=None, shown: list | None = None) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """Feature rows, legion labels and badge shape rows (`badge_shape`) of cards as a camera with another saturation
    setting shows them: each scene's faces with their saturation scaled by a factor within OTHER_SATURATION
    (`vision.synthetic.reprinted`). `progress(done, samples)` is called after each rendered scene; `shown`, if given,
    gets the card id of each row, in order."""
    rng = np.random.default_rng([seed, 2])
    generator = SceneGenerator(seed, size=PATCH_SIZE, card_ids=[c.id for c in cards], use_scans=use_scans)
    legion_of = {c.id: HEADS["legion"].index(c.legion) for c in cards}
    features, labels, shapes = [], [], []
    while len(labels) < samples:
        saturation = float(np.exp(rng.uniform(*np.log(OTHER_SATURATION))))
        generator.faces = FaceBook(use_scans, printing=(0.0, saturation))
        scene = _column_scene(generator, rng, list(legion_of))
        least = least_channel(scene.frame)
        for truth in scene.cards:
            corners = jitter(truth.corners, rng, 0.012)
            offset = badge_fit(least, corners).offset
            features.append(card_features(scene.frame, corners, offset, least=least))
            shapes.append(badge_shape(scene.frame, corners, features[-1], offset))
            labels.append(legion_of[truth.card_id])
            if shown is not None:
                shown.append(truth.card_id)
        if progress:
            progress(len(labels), samples)
    return np.array(features, np.float32), np.array(labels), np.array(shapes, np.float32)


def fit(rows, heads=HEADS) -> dict[str, np.ndarray]:
    return {head: fit_head(head, *rows[head]) for head in heads}


def fit_head(head: str, features: np.ndarray, labels: np.ndarray) -> np.ndarray:
    """One head's weights from its (card_features rows, labels): the legion head over the colour terms, the part
    heads over the badge's print alone (PART_COLUMNS), the rest over every feature."""
    if head == "legion":
        return fit_ridge(legion_terms(features), labels, len(HEADS[head]), REGULARISER[head])
    if head in PARTS:
        return fit_ridge_on(PART_COLUMNS, features, labels, len(HEADS[head]), REGULARISER[head])
    return fit_ridge(features, labels, len(HEADS[head]), REGULARISER[head], balanced=head == "card")


def fit_badge_shape(rows) -> np.ndarray:
    """The badge shape head's weights from its (badge_shape rows, legions); every legion weighs the same."""
    shapes, legions = rows
    return fit_ridge(shapes, legions, len(HEADS["legion"]), REGULARISER[BADGE_SHAPE_HEAD], balanced=True)


def train(samples: int, seed: int, extra=None, progress=None, only: tuple[str, ...] | None = None) -> CardModel:
    """`progress`, if given, is told in words how far the rendering has got (it takes minutes). `only`: learn just
    those heads, and keep the other heads and the prototype table of the model at DEFAULT_MODEL."""
    scanned = list(training_cards())
    shapes = only is None or BADGE_SHAPE_HEAD in only
    rows = collect(scanned, samples, seed, use_scans=True, extra=extra, shapes=shapes,
                   progress=every_quarter(progress, "crops of the scanned cards")) if scanned else None
    standin_count = stand_in_samples(samples)
    standin_rows = collect(list(all_cards()), standin_count, seed + 1, use_scans=False, shapes=shapes,
                           progress=every_quarter(progress, "crops of the code-drawn stand-ins"))
    # Only the legion heads learn from them: minutes of rendering, skipped where they are kept.
    other_cameras = []
    if only is None or "legion" in only or shapes:
        if scanned:
            other_cameras.append(other_camera_rows(
                scanned, int(OTHER_CAMERA_SHARE * samples), seed, use_scans=True,
                progress=every_quarter(progress, "the scanned cards through other cameras")))
        other_cameras.append(other_camera_rows(
            list(all_cards()), int(OTHER_CAMERA_SHARE * standin_count), seed + 1, use_scans=False,
            progress=every_quarter(progress, "the stand-ins through other cameras")))
    if progress:
        progress("fitting the classifiers and the prototype table")
    if rows is None:
        all_rows = dict(standin_rows)
    else:
        all_rows = {head: (np.concatenate([rows[head][0], standin_rows[head][0]]),
                           np.concatenate([rows[head][1], standin_rows[head][1]])) for head in HEADS}
    all_rows["legion"] = (np.concatenate([all_rows["legion"][0]] + [x for x, _, _ in other_cameras]),
                          np.concatenate([all_rows["legion"][1]] + [y for _, y, _ in other_cameras]))
    shape_rows = None
    if shapes:
        # The stand-ins' badges too, drawn by code in each legion's outline: without them the head read a fifth of
        # the stand-ins' legions wrong (the simulated camera's cards, where the scans are not).
        positives = [standin_rows] if rows is None else [rows, standin_rows]
        shape_rows = (np.concatenate([each[BADGE_SHAPE_HEAD][0] for each in positives]
                                     + [shape for _, _, shape in other_cameras]),
                      np.concatenate([each[BADGE_SHAPE_HEAD][1] for each in positives]
                                     + [legion for _, legion, _ in other_cameras]))
    if only:
        model = CardModel.load()
        model.weights.update(fit(all_rows, [head for head in only if head in HEADS]))
        if shape_rows is not None:
            model.badge_shape = fit_badge_shape(shape_rows)
        # Every head relearned since the whole model was trained, with what.
        relearned = sorted(set(model.about.get("relearned", [])) | set(only))
        model.about = model.about | {"relearned": relearned, "relearned_with": {"samples": samples, "seed": seed}}
        return model
    about = {"trained_on": [c.scan for c in scanned], "samples": samples, "seed": seed,
             "note": "ridge-regression weights over vision.features.card_features; scans every 5th held out"}
    # The nearest-neighbour table is built from the scans alone when there are any: code-drawn stand-ins would
    # only be near neighbours of each other.
    positives = rows if scanned else standin_rows
    return CardModel(fit(all_rows), about, exemplar_table(positives, seed), fit_badge_shape(shape_rows))


def exemplar_table(rows, seed: int):
    from .exemplars import fit_exemplars
    from .model import PART_SETS

    features = rows["legion"][0]
    highlighted = {part: rows[part][1] == 0 for part in PARTS}
    combos = [tuple(part for part in PARTS if highlighted[part][i]) for i in range(len(features))]
    part_sets = np.array([PART_SETS.index(c) if c in PART_SETS else -1 for c in combos])
    printed = part_sets >= 0
    return fit_exemplars(features[printed], part_sets[printed], rows["ability"][1][printed], seed)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.train", description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=5000, help="positive training crops from scans")
    parser.add_argument("--seed", type=int, default=9)
    parser.add_argument("--out", default=str(DEFAULT_MODEL))
    parser.add_argument("--only", nargs="+", choices=list(HEADS) + [BADGE_SHAPE_HEAD], metavar="HEAD",
                        help="learn only these heads (of: %(choices)s); keep the rest of the current model")
    args = parser.parse_args(argv)
    model = train(args.samples, args.seed, progress=functools.partial(print, flush=True),
                  only=tuple(args.only) if args.only else None)
    model.save(args.out)
    print(f"wrote {args.out}")
    from . import early_look

    if early_look.EarlyLook.of(model) is None:  # a new card head: the bound learned for the old one does not hold
        print("learning the early look for the new card head (python -m vision.early_look)", flush=True)
        return early_look.main(["--params", args.out])
    return 0


if __name__ == "__main__":
    sys.exit(main())
