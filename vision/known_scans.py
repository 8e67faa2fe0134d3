"""The held-out scans, known to the recogniser the companion runs.

The built-in recogniser (`vision/params/model.json` and `.npz`) is trained on 64 of the 80 scans; the other 16 are
held out, so that `companion vision bench` measures how it reads cards it has never seen (as the 28 cards without a
scan are). A player's deck holds those 16 cards too, and the recogniser reads them less surely than the cards it
learned (stop 60: 92.7% of them read right at confidence 0.6 or more, against 98.6% of the training cards; held-out
card 66, whose art where an icon would be is unlike any training card's, never). So the companion teaches their
prints to the recogniser it runs, as `companion vision teach` would from pictures of them: prototypes of their badge
figures and icons join the prototype tables (`vision.taught.with_taught_prototypes`), each the mean of at least 8
jittered readings, kept here as numbers (`vision/params/known_scans.npz`, `python -m vision.known_scans`). Their
colours are not taught: moved to them, the legion head read a green training card brown, surely (stop 61). The
bench keeps measuring the built-in recogniser.

The file goes with the built-in model it was made from; after a retrain (`python -m vision.train`) it no longer
fits (its prototypes live in the model's own projections) and is not used, with a note, until it is made again."""
from __future__ import annotations

import argparse
import copy
import hashlib
import zipfile
from pathlib import Path

import numpy as np

from .model import PARAMS_DIR, CardModel

KNOWN_SCANS = PARAMS_DIR / "known_scans.npz"
EXAMPLES_PER_CARD = 4  # pictures each held-out card is taught from
SCENES_SEED = 950  # neither the bench's (2024, 3000), training's nor teaching's (900) scenes
TAUGHT_WIDTHS = (180.0, 330.0)  # the cards' length in the pictures taught from: sharp enough to learn from


def fingerprint(model: CardModel) -> str:
    """What known scans must match in a model: its prototype tables' projections (the space the prototypes live
    in). A retrain changes it; teaching does not."""
    digest = hashlib.sha1()
    for name in sorted(model.exemplars.heads):
        head = model.exemplars.heads[name]
        digest.update(name.encode())
        digest.update(np.ascontiguousarray(head.projection, np.float16).tobytes())
    return digest.hexdigest()[:16]


def known_examples(per_card: int = EXAMPLES_PER_CARD, seed: int = SCENES_SEED):
    """(picture, corners, CardFacts) of each held-out card seen whole `per_card` times in synthetic scenes of the
    held-out cards, as a player would show them to `teach`."""
    from .bench import scene_generator
    from .cards import card_by_id, heldout_cards

    count = {card.id: 0 for card in heldout_cards()}
    if not count:
        raise FileNotFoundError("the card scans (../shared/cards or COMPANION_CARDS_DIR) are not available here")
    generator, examples = scene_generator(seed, heldout=True), []
    while min(count.values()) < per_card:
        scene = generator.random_scene(width_range=TAUGHT_WIDTHS)
        for truth in scene.cards:
            if truth.occluded or count[truth.card_id] >= per_card:
                continue
            count[truth.card_id] += 1
            examples.append((scene.frame, truth.corners, card_by_id(truth.card_id)))
    return examples


def learn(model: CardModel, examples) -> dict[str, np.ndarray]:
    """The arrays `with_known_scans` adds to `model`: each prototype table's new rows."""
    from .taught import with_taught_prototypes

    taught = with_taught_prototypes(model, examples)
    arrays = {"fingerprint": np.array(fingerprint(model)),
              "cards": np.array(sorted({card.id for _, _, card in examples}), np.int16)}
    for name, head in taught.exemplars.heads.items():
        known = len(model.exemplars.heads[name].labels)
        arrays[f"{name}.exemplars"] = head.exemplars[known:].astype(np.float16)
        arrays[f"{name}.labels"] = head.labels[known:].astype(np.int16)
    return arrays


def save(arrays: dict[str, np.ndarray], path: Path = KNOWN_SCANS) -> None:
    temporary = path.with_name(path.name + ".tmp.npz")
    np.savez_compressed(temporary, **arrays)
    temporary.replace(path)


def with_known_scans(model: CardModel, path: Path | str | None = None) -> CardModel:
    """`model` (the built-in one, or one a user taught) with the known scans' prototypes added, where the file fits
    it; otherwise `model` as it was. `about["known scans"]` says which."""
    try:
        with np.load(KNOWN_SCANS if path is None else path) as data:
            arrays = {key: data[key] for key in data.files}
        fits = model.exemplars is not None and str(arrays["fingerprint"]) == fingerprint(model)
        rows = {name: (arrays[f"{name}.exemplars"].astype(np.float32), arrays[f"{name}.labels"].astype(np.int16))
                for name in (model.exemplars.heads if model.exemplars is not None else ())}
    except FileNotFoundError:
        return _noted(model, "none here")
    except (OSError, ValueError, KeyError, zipfile.BadZipFile) as error:
        return _noted(model, f"unreadable ({error})")
    if not fits:
        return _noted(model, "made for another model: run `python -m vision.known_scans`")
    exemplars = copy.deepcopy(model.exemplars)
    for name, (exemplar_rows, labels) in rows.items():
        head = exemplars.heads[name]
        if exemplar_rows.ndim != 2 or exemplar_rows.shape[1] != head.exemplars.shape[1] or \
                len(labels) != len(exemplar_rows):
            return _noted(model, "unreadable (prototype arrays of mismatched shapes)")
        head.exemplars = np.concatenate([head.exemplars, exemplar_rows])
        head.labels = np.concatenate([head.labels, labels])
    return CardModel(model.weights, dict(model.about, **{"known scans": f"{len(arrays['cards'])} cards"}), exemplars,
                     model.badge_shape)


def _noted(model: CardModel, note: str) -> CardModel:
    return CardModel(model.weights, dict(model.about, **{"known scans": note}), model.exemplars, model.badge_shape)


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(description="Teach the held-out scans to the recogniser the companion runs "
                                                 "(vision/params/known_scans.npz); needs the scans.")
    parser.add_argument("--per-card", type=int, default=EXAMPLES_PER_CARD)
    parser.add_argument("--seed", type=int, default=SCENES_SEED)
    parser.add_argument("--out", default=str(KNOWN_SCANS))
    args = parser.parse_args(argv)
    try:
        examples = known_examples(args.per_card, args.seed)
    except FileNotFoundError as error:
        print(f"error: {error}")
        return 1
    arrays = learn(CardModel.load(), examples)
    save(arrays, Path(args.out))
    added = sum(len(arrays[key]) for key in arrays if key.endswith(".labels"))
    print(f"taught {len(arrays['cards'])} held-out cards from {len(examples)} pictures: {added} prototypes -> "
          f"{args.out}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
