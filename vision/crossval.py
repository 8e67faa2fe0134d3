"""Cross-validation of the legion head by card, on the training scans only: they are split into folds that each
hold about a quarter of every legion's cards, and a head learned from the other folds' crops (and the code-drawn
stand-ins, as in training) reads each fold's crops. Cards the head never saw are what the held-out bench measures;
this measures it without looking at the held-out scans, so a choice made on it does not tune on them.

    python -m vision.crossval [--samples 1500] [--seed 21] [--folds 4] [--repeats 3]
"""
from __future__ import annotations

import argparse
import functools
import sys
from collections import Counter

import numpy as np

from .cards import CardFacts, all_cards, training_cards
from .model import fit_ridge, legion_terms
from .table_state import LEGIONS
from .train import REGULARISER, collect, every_quarter


def card_folds(cards: list[CardFacts], folds: int, seed: int) -> dict[int, int]:
    """Card id -> fold, each legion's cards dealt round the folds in a shuffled order."""
    rng = np.random.default_rng(seed)
    fold_of = {}
    for legion in LEGIONS:
        ids = [card.id for card in cards if card.legion == legion]
        rng.shuffle(ids)
        fold_of.update({card_id: i % folds for i, card_id in enumerate(ids)})
    return fold_of


def cross_validate(features: np.ndarray, card_ids: np.ndarray, extra: tuple[np.ndarray, np.ndarray],
                   cards: list[CardFacts], terms, regulariser: float, folds: int, repeats: int, seed: int):
    """Per card id: (crops read in the wrong legion, crops read), over `repeats` different fold deals. `extra`
    (features, legion indices) joins every fold's training rows."""
    legion_of = {card.id: LEGIONS.index(card.legion) for card in cards}
    labels = np.array([legion_of[card_id] for card_id in card_ids])
    inputs, extra_inputs = terms(features), terms(extra[0])
    wrong, read = Counter(), Counter()
    for repeat in range(repeats):
        fold_of = card_folds(cards, folds, seed + repeat)
        fold = np.array([fold_of[card_id] for card_id in card_ids])
        for held in range(folds):
            learn, test = fold != held, fold == held
            weights = fit_ridge(np.concatenate([inputs[learn], extra_inputs]),
                                np.concatenate([labels[learn], extra[1]]), len(LEGIONS), regulariser)
            predicted = np.argmax(inputs[test] @ weights, axis=1)
            for card_id, guess, truth in zip(card_ids[test], predicted, labels[test]):
                read[int(card_id)] += 1
                wrong[int(card_id)] += int(guess != truth)
    return {card_id: (wrong[card_id], read[card_id]) for card_id in read}


HEADS_COMPARED = {
    "colour terms (the model's head)": (legion_terms, REGULARISER["legion"]),
    "all features, linear (the previous head)": (lambda features: features, 1.0),
}


def report(name: str, results: dict[int, tuple[int, int]], cards: list[CardFacts]) -> str:
    legion_of = {card.id: card.legion for card in cards}
    wrong = sum(w for w, _ in results.values())
    read = sum(n for _, n in results.values())
    per_legion = []
    for legion in LEGIONS:
        mine = [results[c] for c in results if legion_of[c] == legion]
        per_legion.append(f"{legion} {100 * sum(w for w, _ in mine) / max(1, sum(n for _, n in mine)):.2f}%")
    worst = sorted(((w / n, c) for c, (w, n) in results.items() if w), reverse=True)[:5]
    worst_text = ", ".join(f"card {c} {100 * share:.0f}%" for share, c in worst) or "none"
    return (f"{name}: {100 * wrong / max(1, read):.2f}% of {read} crops in the wrong legion "
            f"({', '.join(per_legion)}); worst: {worst_text}")


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.crossval", description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=1500, help="card crops rendered from the training scans")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3, help="different deals of the cards into folds")
    args = parser.parse_args(argv)
    cards = list(training_cards())
    if not cards:
        print("the card scans (../shared/cards or COMPANION_CARDS_DIR) are not available here", file=sys.stderr)
        return 2
    say = functools.partial(print, flush=True)
    shown: list[int] = []
    rows = collect(cards, args.samples, args.seed, use_scans=True, shown=shown,
                   progress=every_quarter(say, f"{args.samples} crops of {len(cards)} training cards"))
    stand_ins = collect(list(all_cards()), max(60, args.samples // 4), args.seed + 1, use_scans=False,
                        progress=every_quarter(say, "crops of the code-drawn stand-ins"))
    features, card_ids = rows["legion"][0], np.array(shown)
    for name, (terms, regulariser) in HEADS_COMPARED.items():
        results = cross_validate(features, card_ids, stand_ins["legion"], cards, terms, regulariser,
                                 args.folds, args.repeats, args.seed)
        print(report(name, results, cards), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
