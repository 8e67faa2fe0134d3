"""Cross-validation by card, on the training scans only: they are split into folds that each hold about a quarter of
every legion's cards, and heads learned from the other folds' crops (and the code-drawn stand-ins, as in training)
read each fold's crops. Cards the heads never saw are what the held-out bench measures; this measures it without
looking at the held-out scans, so a choice made on it does not tune on them. `--head legion` (the default) compares
the legion head with the previous one; `--head ability` reads the ability as the pipeline does (linear head plus the
nearest prototypes' vote) and as it would with the vote weighed otherwise, by the model's head and by one over the
emblem and icon print only; `--head parts` reads the printed part combination as the pipeline does (the three part
heads, the head's log-odds raised by HEAD_RISE, plus the silhouette prototypes' vote at PARTS_VOTE) and with the vote
at other weights, by the model's part heads (over the badge's print, PART_COLUMNS) with the head raised by HEAD_RISE
and by other amounts, and by heads over every feature; `--head shape` reads the legion from the badge shape head and
the colour head together, each way of weighing them (SHAPE_RULES), in the scans' own colours and through cameras
whose hues are turned (SHAPE_PRINTINGS). `--read-widths LO HI` (shape and parts) reads crops of cards that long, drawn
afresh, with heads still learned from every training size; the parts are also counted as read surely (the score that
bounds a card's confidence reaching the stabiliser's bar, and each of SURE_BARS) and surely wrong.

    python -m vision.crossval [--head legion|ability|parts|shape] [--samples 1500] [--seed 21] [--folds 4] [--repeats 3]
    python -m vision.crossval --head ability --more-icon-art 0 0.5   # what icon art in training does (stop 31)
    python -m vision.crossval --head ability --other-art             # icon art as a class of its own (stops 32-33)
    python -m vision.crossval --head shape --samples 800             # badge shape and colours together (stop 55)
    python -m vision.crossval --head shape --samples 800 --read-widths 140 170   # on small cards (stop 84: not adopted)
    python -m vision.crossval --head parts --samples 1000 --read-widths 140 170  # parts on small cards, and how surely
"""
from __future__ import annotations

import argparse
import functools
import sys
from collections import Counter
from dataclasses import dataclass

import numpy as np

from .cards import CardFacts, all_cards, training_cards
from .features import PART_COLUMNS
from .model import (HEAD_RISE, HEADS, SHAPE_COLOUR_WEIGHT, SHAPE_RULES_OUT, SHAPE_SURE, fit_ridge, fit_ridge_on,
                    legion_from_shape_and_colour, legion_terms, softmax)
from .table_state import LEGIONS, PARTS
from .train import (BADGE_SHAPE_HEAD, OTHER_CAMERA_SHARE, REGULARISER, TRAINING_WIDTHS, collect, every_quarter,
                    fit_badge_shape, other_camera_rows, stand_in_samples)


def card_folds(cards: list[CardFacts], folds: int, seed: int) -> dict[int, int]:
    """Card id -> fold, each legion's cards dealt round the folds in a shuffled order."""
    rng = np.random.default_rng(seed)
    fold_of = {}
    for legion in LEGIONS:
        ids = [card.id for card in cards if card.legion == legion]
        rng.shuffle(ids)
        fold_of.update({card_id: i % folds for i, card_id in enumerate(ids)})
    return fold_of


@dataclass
class Deal:
    """One fold read by heads learned from the others: which rows to `learn` from and which to `read`, the deal's
    card id -> fold (`fold_of`) and the `held` fold, and the seed of its prototype table's draw."""
    fold_of: dict[int, int]
    held: int
    learn: np.ndarray
    read: np.ndarray
    table_seed: int

    def learns_from(self, card_ids: np.ndarray) -> np.ndarray:
        """Which of other crops (by card id) this deal's heads may learn from: those of cards not held out."""
        return np.array([self.fold_of[card_id] != self.held for card_id in card_ids], bool)


def deals(cards: list[CardFacts], card_ids: np.ndarray, folds: int, repeats: int, seed: int):
    """Every fold of `repeats` different deals of the cards into `folds` folds, as Deals over rows of `card_ids`."""
    for repeat in range(repeats):
        fold_of = card_folds(cards, folds, seed + repeat)
        fold = np.array([fold_of[card_id] for card_id in card_ids])
        for held in range(folds):
            yield Deal(fold_of, held, fold != held, fold == held, seed + repeat * folds + held)


def _share(wrong: int, read: int) -> str:
    return f"{100 * wrong / max(1, read):.2f}% of {read}"


def cross_validate(features: np.ndarray, card_ids: np.ndarray, extra: tuple[np.ndarray, np.ndarray],
                   cards: list[CardFacts], terms, regulariser: float, folds: int, repeats: int, seed: int):
    """Per card id: (crops read in the wrong legion, crops read), over `repeats` different fold deals. `extra`
    (features, legion indices) joins every fold's training rows."""
    legion_of = {card.id: LEGIONS.index(card.legion) for card in cards}
    labels = np.array([legion_of[card_id] for card_id in card_ids])
    inputs, extra_inputs = terms(features), terms(extra[0])
    wrong, read = Counter(), Counter()
    for deal in deals(cards, card_ids, folds, repeats, seed):
        weights = fit_ridge(np.concatenate([inputs[deal.learn], extra_inputs]),
                            np.concatenate([labels[deal.learn], extra[1]]), len(LEGIONS), regulariser)
        predicted = np.argmax(inputs[deal.read] @ weights, axis=1)
        for card_id, guess, truth in zip(card_ids[deal.read], predicted, labels[deal.read]):
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


# Ways to read the ability: the weight of the prototypes' vote beside the linear head's probabilities where the icon is
# familiar, and where it is unfamiliar (its nearest prototype less similar than the pipeline's UNFAMILIAR_ICON).
ABILITY_RULES = {
    "linear head + vote (the pipeline's)": (1.0, 1.0),
    "vote dropped where the icon is unfamiliar": (1.0, 0.0),
    "linear head alone": (0.0, 0.0),
}


def fit_on_columns(columns: np.ndarray, regulariser: float):
    """A linear ability head that weighs only `columns` of the features (its weights are zero elsewhere)."""
    def fit(features: np.ndarray, labels: np.ndarray) -> np.ndarray:
        return fit_ridge_on(columns, features, labels, len(HEADS["ability"]), regulariser)
    return fit


def fit_model_ability_head(features: np.ndarray, labels: np.ndarray) -> np.ndarray:
    return fit_ridge(features, labels, len(HEADS["ability"]), REGULARISER["ability"])


def _emblem_and_icon_columns() -> np.ndarray:
    from .features import EMBLEM_HOG, FEATURE_LENGTH, ICON_HOG, PART_HIGHLIGHTS

    # The icon's white print (its pixels, then ICON_HOG) follows the part highlights; the last feature is the
    # constant 1.
    return np.r_[EMBLEM_HOG, PART_HIGHLIGHTS.stop:ICON_HOG.stop, FEATURE_LENGTH - 1]


# Stops 32-33's trial, not in the model (docs/vision-history.md): crops of the cards with no ability drawn with other
# art of their own where an icon would be (OTHER_ART_SAMPLES per sample), learned by the linear head as "no ability"
# and kept in the prototype table as a class of its own (label OTHER_ART) whose vote counts OTHER_ART_VOTE for "no
# ability".
OTHER_ART_SAMPLES = 0.6
OTHER_ART = len(HEADS["ability"])
NO_ABILITY = HEADS["ability"].index(None)
OTHER_ART_VOTE = 0.3

# Linear ability heads compared: how each learns its weights from (features, ability indices). Stop 30 tried the
# second in the model: neutral on the training seeds, but held-out card 66 (no ability) was read wrong in 7 of 240
# scenes instead of 2.
ABILITY_HEADS = {
    "the model's head (every feature, ridge 1)": fit_model_ability_head,
    "emblem and icon print only, ridge 0.1 (tried, not kept)": fit_on_columns(_emblem_and_icon_columns(), 0.1),
}


def cross_validate_ability(features: np.ndarray, card_ids: np.ndarray, abilities: np.ndarray,
                           extra: tuple[np.ndarray, np.ndarray], cards: list[CardFacts], folds: int, repeats: int,
                           seed: int, icon_columns: slice | None = None,
                           fit_head=fit_model_ability_head, more=None, other_art=None) -> dict[str, Counter]:
    """Per rule of ABILITY_RULES: counts of crops `read` and read `wrong`, and the same among crops whose icon is
    `unfamiliar` and crops of cards with no ability (`none`), each fold read by a linear head (`fit_head` of the
    features and ability indices) and a prototype table (over `icon_columns`, the model's ICON_HOG unless given)
    learned from the other folds' crops only. `extra` (features, ability indices) joins every fold's linear head, as
    the stand-ins join the model's. `more` (features, card ids, ability indices: crops drawn otherwise, e.g. with
    icon art) joins the heads and the table of every fold that does not hold their cards; it is never read.
    `other_art` (features, card ids: crops of cards with no ability showing other art where an icon would be) joins,
    where its cards are not held out, the linear head as "no ability" and the table as a class of its own (OTHER_ART),
    whose vote counts OTHER_ART_VOTE for "no ability"."""
    from .exemplars import ExemplarHead, table_rows
    from .features import ICON_HOG
    from .pipeline import UNFAMILIAR_ICON

    icon_columns = ICON_HOG if icon_columns is None else icon_columns
    classes = len(HEADS["ability"])
    counts = {rule: Counter() for rule in ABILITY_RULES}
    for deal in deals(cards, card_ids, folds, repeats, seed):
        learned, learned_abilities = features[deal.learn], abilities[deal.learn]
        if more is not None:
            allowed = deal.learns_from(more[1])
            learned = np.concatenate([learned, more[0][allowed]])
            learned_abilities = np.concatenate([learned_abilities, more[2][allowed]])
        art = np.zeros((0, features.shape[1]), features.dtype)
        if other_art is not None:
            art = other_art[0][deal.learns_from(other_art[1])]
        weights = fit_head(np.concatenate([learned, extra[0], art]),
                           np.concatenate([learned_abilities, extra[1], np.full(len(art), NO_ABILITY)]))
        drawn = table_rows(len(learned), deal.table_seed)
        table = ExemplarHead.fit(icon_columns, learned[drawn], learned_abilities[drawn])
        if len(art):
            table.add_class(art, OTHER_ART, deal.table_seed)
        linear = softmax(features[deal.read] @ weights)
        similarity = table.similarity(features[deal.read])
        shares, unfamiliar = table.shares(similarity, OTHER_ART + 1), table.nearest(similarity) < UNFAMILIAR_ICON
        votes = shares[:, :classes].copy()
        votes[:, NO_ABILITY] += OTHER_ART_VOTE * shares[:, OTHER_ART]
        truth = abilities[deal.read]
        for rule, (familiar_weight, unfamiliar_weight) in ABILITY_RULES.items():
            vote_weight = np.where(unfamiliar, unfamiliar_weight, familiar_weight)[:, None]
            wrong = (linear + vote_weight * votes).argmax(axis=1) != truth
            counts[rule].update({"read": len(truth), "wrong": int(wrong.sum()),
                                 "unfamiliar": int(unfamiliar.sum()),
                                 "unfamiliar wrong": int((wrong & unfamiliar).sum()),
                                 "none": int((truth == NO_ABILITY).sum()),
                                 "none wrong": int((wrong & (truth == NO_ABILITY)).sum())})
    return counts


def ability_report(counts: dict[str, Counter]) -> str:
    return "\n".join(f"  {rule}: {_share(c['wrong'], c['read'])} crops read with the wrong ability; unfamiliar icons "
                     f"{_share(c['unfamiliar wrong'], c['unfamiliar'])}; cards with no ability "
                     f"{_share(c['none wrong'], c['none'])}" for rule, c in counts.items())


# The weights of the silhouette prototypes' vote on a card's parts compared (the pipeline's is PARTS_VOTE).
PARTS_VOTE_WEIGHTS = (0.0, 0.4, 0.5, 0.7, 1.0)
# Bars on the parts score compared with the stabiliser's MIN_CONFIDENCE, at the pipeline's vote weight: how many crops
# would be read surely, and how many of those wrong, were a card's parts trusted only from each.
SURE_BARS = (0.7, 0.8, 0.9, 0.95)
# The part heads compared: the features they read, and how far the head's log-odds are raised before the parts are
# combined (the pipeline's is HEAD_RISE).
PART_HEADS_COMPARED = {
    "the badge's print and the part highlights (the model's, PART_COLUMNS), the head raised by HEAD_RISE (the "
    "pipeline's)": (PART_COLUMNS, HEAD_RISE),
    "the same, the head not raised (before stop 72)": (PART_COLUMNS, 0.0),
    "the same, the head raised by 0.5": (PART_COLUMNS, 0.5),
    "the same, the head raised by 1.5": (PART_COLUMNS, 1.5),
    "every feature, the head not raised (the heads before stop 49)": (slice(None), 0.0),
}


def cross_validate_parts(features: np.ndarray, card_ids: np.ndarray, part_rows: dict[str, np.ndarray],
                         extra: dict[str, tuple[np.ndarray, np.ndarray]], cards: list[CardFacts], folds: int,
                         repeats: int, seed: int, weights=PARTS_VOTE_WEIGHTS, silhouette_columns: slice | None = None,
                         regulariser: float | None = None, part_columns=slice(None), head_rise: float | None = None,
                         read_set: tuple[np.ndarray, np.ndarray] | None = None) -> dict[float, Counter]:
    """Per vote weight: counts of crops `read` and read with the wrong part combination (`wrong`), and the same
    among crops of cards with two or three parts (`several`), each fold read by the three part heads (learned as the
    model's, over `part_columns` of the features (all unless given; the model's are PART_COLUMNS), from
    `part_rows[part]`, 0 where the part is printed, and `extra[part]`) and a prototype table of part combinations
    (over `silhouette_columns`, the model's SILHOUETTE_HOG unless given) learned from the other folds' crops only. The
    head's log-odds are raised by `head_rise` (HEAD_RISE unless given) before the parts are combined
    (`part_set_probabilities`). `read_set` (features, card ids), where given, holds the crops read instead of the
    learned ones (`--read-widths`). Crops read surely (`sure`: the combination's score, as the pipeline bounds a
    card's confidence with it, at least the stabiliser's MIN_CONFIDENCE) are counted too, and those read so wrong."""
    from .exemplars import ExemplarHead, table_rows
    from .features import SILHOUETTE_HOG
    from .model import PART_SETS, part_set_probabilities
    from .stabiliser import MIN_CONFIDENCE

    read_features, read_ids = (features, card_ids) if read_set is None else read_set
    silhouette_columns = SILHOUETTE_HOG if silhouette_columns is None else silhouette_columns
    part_set_of = {card.id: PART_SETS.index(tuple(p for p in PARTS if p in card.parts)) for card in cards}
    truth_all = np.array([part_set_of[card_id] for card_id in card_ids])
    read_truth = np.array([part_set_of[card_id] for card_id in read_ids])
    read_several = np.array([len(PART_SETS[index]) > 1 for index in read_truth])
    counts = {weight: Counter() for weight in weights}
    for deal in deals(cards, card_ids, folds, repeats, seed):
        reading = np.array([deal.fold_of[card_id] == deal.held for card_id in read_ids], bool)
        printed = {}
        for part in PARTS:
            head = fit_ridge_on(part_columns, np.concatenate([features[deal.learn], extra[part][0]]),
                                np.concatenate([part_rows[part][deal.learn], extra[part][1]]), 2,
                                REGULARISER[part] if regulariser is None else regulariser)
            printed[part] = softmax(read_features[reading] @ head)[:, 0]
        linear = np.array([part_set_probabilities(dict(zip(PARTS, row)), head_rise)
                           for row in zip(*(printed[part] for part in PARTS))])
        drawn = np.flatnonzero(deal.learn)[table_rows(int(deal.learn.sum()), deal.table_seed)]
        table = ExemplarHead.fit(silhouette_columns, features[drawn], truth_all[drawn])
        votes = table.vote(read_features[reading], len(PART_SETS))
        truth, several = read_truth[reading], read_several[reading]
        for weight in weights:
            scores = (linear + weight * votes) / (1 + weight)  # the pipeline's parts score, halved: 0-1
            wrong = scores.argmax(axis=1) != truth
            best = scores.max(axis=1)
            sure = best >= MIN_CONFIDENCE
            counts[weight].update({"read": len(truth), "wrong": int(wrong.sum()), "several": int(several.sum()),
                                   "several wrong": int((wrong & several).sum()), "sure": int(sure.sum()),
                                   "sure wrong": int((wrong & sure).sum())})
            for bar in SURE_BARS:
                counts[weight].update({f"sure from {bar}": int((best >= bar).sum()),
                                       f"sure wrong from {bar}": int((wrong & (best >= bar)).sum())})
    return counts


def parts_report(counts: dict[float, Counter]) -> str:
    from .pipeline import PARTS_VOTE

    def name(weight: float) -> str:
        return f"vote weight {weight}" + (" (the pipeline's PARTS_VOTE)" if weight == PARTS_VOTE else "")

    def bars(c: Counter) -> str:
        return "".join(f"\n    were they sure only from {bar}: read surely {_share(c[f'sure from {bar}'], c['read'])}, "
                       f"of them wrong {_share(c[f'sure wrong from {bar}'], c[f'sure from {bar}'])}"
                       for bar in SURE_BARS)

    return "\n".join(f"  {name(weight)}: {_share(c['wrong'], c['read'])} crops read with the wrong parts; cards with "
                     f"two or three parts {_share(c['several wrong'], c['several'])}; read surely "
                     f"{_share(c['sure'], c['read'])}, of them wrong {_share(c['sure wrong'], c['sure'])}"
                     + (bars(c) if weight == PARTS_VOTE else "") for weight, c in counts.items())


# `--head shape`: the legion read from the badge's shape and the card's colours together
# (`vision.model.legion_from_shape_and_colour`), for cards neither head saw: in the scans' own colours, where a shape
# that overrules the colours is wrong, and through cameras whose hues are turned, where the colours mislead and the
# shape must overrule them.
SHAPE_PRINTINGS = {"the scans' own colours": None, "hues turned 10 degrees": (10.0, 1.0),
                   "hues turned -10 degrees": (-10.0, 1.0), "hues turned 20 degrees": (20.0, 1.0)}
# The ways of putting the two together compared: (the colours' weight, how sure the shape must be to have its say,
# below what it rules the colours' legion out[, how sure it must be to overrule the colours' legion]). Sure at more
# than 1, ruling out below 0: the colours alone. Overruling only from a bar reads the same legions as being sure
# from that bar, keeping the shape's sureness where it agrees with the colours.
SHAPE_RULES = {
    "the pipeline's (colour weight 0.3, shape sure from 0.7, ruling out below 0.05)":
        (SHAPE_COLOUR_WEIGHT, SHAPE_SURE, SHAPE_RULES_OUT),
    "colour weight 0.5": (0.5, SHAPE_SURE, SHAPE_RULES_OUT),
    "colour weight 1": (1.0, SHAPE_SURE, SHAPE_RULES_OUT),
    "shape sure from 0.8": (SHAPE_COLOUR_WEIGHT, 0.8, SHAPE_RULES_OUT),
    "shape sure from 0.9": (SHAPE_COLOUR_WEIGHT, 0.9, SHAPE_RULES_OUT),
    "shape sure from 0.95": (SHAPE_COLOUR_WEIGHT, 0.95, SHAPE_RULES_OUT),
    "ruling out below 0.01": (SHAPE_COLOUR_WEIGHT, SHAPE_SURE, 0.01),
    "overruling the colours only from 0.9": (SHAPE_COLOUR_WEIGHT, SHAPE_SURE, SHAPE_RULES_OUT, 0.9),
    "overruling the colours only from 0.8": (SHAPE_COLOUR_WEIGHT, SHAPE_SURE, SHAPE_RULES_OUT, 0.8),
    "the colours alone": (SHAPE_COLOUR_WEIGHT, 2.0, -1.0),
    "the shape alone": (0.0, 0.0, SHAPE_RULES_OUT),
}


def cross_validate_shape(read_sets: dict, learned: tuple, extra: tuple, cards: list[CardFacts], folds: int,
                         repeats: int, seed: int, rules=SHAPE_RULES) -> dict[str, dict[str, Counter]]:
    """Per rule of `rules` and per read set: counts of crops `read`, read in the wrong legion (`wrong`), read so by
    the colours alone (`colour wrong`), and where the shape overruled the colours' legion, rightly (`overruled
    rightly`) or not (`overruled wrongly`). `read_sets`: name -> (feature rows, badge shape rows, card ids) of the
    training cards' crops; each fold's crops are read by a colour head and a shape head learned, as the model's, from
    `learned` (feature rows, badge shape rows, card ids) of the other folds' cards and from `extra` (feature rows,
    badge shape rows, legion indices: the stand-ins), which joins every fold."""
    legion_of = {card.id: LEGIONS.index(card.legion) for card in cards}
    features, shapes, card_ids = learned
    labels = np.array([legion_of[card_id] for card_id in card_ids])
    terms, extra_terms = legion_terms(features), legion_terms(extra[0])
    read_terms = {name: legion_terms(rows[0]) for name, rows in read_sets.items()}
    counts = {rule: {name: Counter() for name in read_sets} for rule in rules}
    for deal in deals(cards, card_ids, folds, repeats, seed):
        colour_head = fit_ridge(np.concatenate([terms[deal.learn], extra_terms]),
                                np.concatenate([labels[deal.learn], extra[2]]), len(LEGIONS), REGULARISER["legion"])
        shape_head = fit_badge_shape((np.concatenate([shapes[deal.learn], extra[1]]),
                                      np.concatenate([labels[deal.learn], extra[2]])))
        for name, (_, read_shapes, read_ids) in read_sets.items():
            held = ~deal.learns_from(read_ids)
            truth = np.array([legion_of[card_id] for card_id in read_ids[held]])
            colour = softmax(read_terms[name][held] @ colour_head)
            shape = softmax(read_shapes[held] @ shape_head)
            colours_legion = colour.argmax(axis=1)
            for rule, values in rules.items():
                legion = legion_from_shape_and_colour(shape, colour, *values).argmax(axis=1)
                overruled = legion != colours_legion
                counts[rule][name].update({"read": len(truth), "wrong": int((legion != truth).sum()),
                                           "colour wrong": int((colours_legion != truth).sum()),
                                           "overruled rightly": int((overruled & (legion == truth)).sum()),
                                           "overruled wrongly": int((overruled & (legion != truth)).sum())})
    return counts


def shape_report(counts: dict[str, dict[str, Counter]]) -> str:
    lines = []
    for rule, by_set in counts.items():
        lines.append(f"  {rule}:")
        lines += [f"    {name}: {_share(c['wrong'], c['read'])} crops in the wrong legion (the colours alone "
                  f"{_share(c['colour wrong'], c['read'])}); the shape overruled the colours rightly "
                  f"{c['overruled rightly']} times, wrongly {c['overruled wrongly']}" for name, c in by_set.items()]
    return "\n".join(lines)


def _fresh_crops(cards: list[CardFacts], samples: int, seed: int, widths: tuple[float, float], say, label: str = "",
                 **options) -> tuple[dict, np.ndarray]:
    """Crops of the training cards drawn afresh to be read, not learned from (`--read-widths`): `collect`'s rows of
    `samples` crops of cards `widths` px long (with its further `options`) and each crop's card id."""
    shown: list[int] = []
    rows = collect(cards, samples, seed, use_scans=True, shown=shown, widths=widths, progress=every_quarter(
        say, f"{samples} crops, {label}{widths[0]:g}-{widths[1]:g} px"), **options)
    return rows, np.array(shown)


def _shape_main(args, cards: list[CardFacts], rows: dict, card_ids: np.ndarray, stand_ins: dict, say) -> int:
    """`--head shape`: besides the crops in the scans' own colours, the model's other cameras (saturation) for the
    heads to learn from, and as many crops through each camera of SHAPE_PRINTINGS with turned hues to read."""
    camera_ids: list[int] = []
    cameras = other_camera_rows(cards, int(OTHER_CAMERA_SHARE * args.samples), args.seed, use_scans=True,
                                shown=camera_ids,
                                progress=every_quarter(say, "the training cards through other cameras"))
    stand_in_cameras = other_camera_rows(list(all_cards()), int(OTHER_CAMERA_SHARE * stand_in_samples(args.samples)),
                                         args.seed + 1, use_scans=False,
                                         progress=every_quarter(say, "the stand-ins through other cameras"))
    own = (rows["legion"][0], rows[BADGE_SHAPE_HEAD][0], card_ids)
    learned = (np.concatenate([own[0], cameras[0]]), np.concatenate([own[1], cameras[2]]),
               np.concatenate([card_ids, np.array(camera_ids, int)]))
    extra = (np.concatenate([stand_ins["legion"][0], stand_in_cameras[0]]),
             np.concatenate([stand_ins[BADGE_SHAPE_HEAD][0], stand_in_cameras[2]]),
             np.concatenate([stand_ins["legion"][1], stand_in_cameras[1]]))
    read_sets = {}
    widths = TRAINING_WIDTHS if args.read_widths is None else tuple(args.read_widths)
    for index, (name, printing) in enumerate(SHAPE_PRINTINGS.items()):
        if printing is None and args.read_widths is None:
            read_sets[name] = own
            continue
        turned, shown = _fresh_crops(cards, args.samples, args.seed + 10 + index, widths, say, f"{name}, ",
                                     shapes=True, printing=printing)
        read_sets[name] = (turned["legion"][0], turned[BADGE_SHAPE_HEAD][0], shown)
    counts = cross_validate_shape(read_sets, learned, extra, cards, args.folds, args.repeats, args.seed)
    print(f"the legion by badge shape and colours together:\n{shape_report(counts)}", flush=True)
    return 0


def main(argv=None) -> int:
    parser = argparse.ArgumentParser(prog="python -m vision.crossval", description=__doc__.split("\n\n")[0])
    parser.add_argument("--samples", type=int, default=1500, help="card crops rendered from the training scans")
    parser.add_argument("--seed", type=int, default=21)
    parser.add_argument("--folds", type=int, default=4)
    parser.add_argument("--repeats", type=int, default=3, help="different deals of the cards into folds")
    parser.add_argument("--head", choices=("legion", "ability", "parts", "shape"), default="legion")
    parser.add_argument("--more-icon-art", type=float, nargs="+", metavar="SHARE",
                        help="ability: learn, besides, from as many crops again (seed + 2) drawn with this share of "
                             "the cards with no ability showing other art where an icon would be; one run per share")
    parser.add_argument("--other-art", action="store_true",
                        help="ability: learn, besides, from crops (seed + 3) of the cards with no ability, each "
                             "showing other art of its own where an icon would be, as a class of their own in the "
                             "table")
    parser.add_argument("--read-widths", type=float, nargs=2, metavar=("LO", "HI"),
                        help="shape, parts: read crops of cards LO-HI px long (the heads still learn from crops of "
                             "every training size); without it, the learned crops are read")
    args = parser.parse_args(argv)
    cards = list(training_cards())
    if not cards:
        print("the card scans (../shared/cards or COMPANION_CARDS_DIR) are not available here", file=sys.stderr)
        return 2
    say = functools.partial(print, flush=True)
    shown: list[int] = []
    shapes = args.head == "shape"  # the badge shape head's rows too (drawing nothing more at random)
    rows = collect(cards, args.samples, args.seed, use_scans=True, shown=shown, shapes=shapes,
                   progress=every_quarter(say, f"{args.samples} crops of {len(cards)} training cards"))
    stand_ins = collect(list(all_cards()), stand_in_samples(args.samples), args.seed + 1, use_scans=False,
                        shapes=shapes, progress=every_quarter(say, "crops of the code-drawn stand-ins"))
    features, card_ids = rows["legion"][0], np.array(shown)
    if shapes:
        return _shape_main(args, cards, rows, card_ids, stand_ins, say)
    if args.head == "ability" and args.more_icon_art:
        for share in args.more_icon_art:
            more_shown: list[int] = []
            more = collect(cards, args.samples, args.seed + 2, use_scans=True, shown=more_shown, icon_art=share,
                           progress=every_quarter(say, f"{args.samples} more crops, icon art {share}"))
            counts = cross_validate_ability(features, card_ids, rows["ability"][1], stand_ins["ability"], cards,
                                            args.folds, args.repeats, args.seed,
                                            more=(more["ability"][0], np.array(more_shown), more["ability"][1]))
            print(f"the model's head, with as many crops again, icon art {share}:\n{ability_report(counts)}",
                  flush=True)
        return 0
    if args.head == "ability":
        other_art = None
        if args.other_art:
            art_shown: list[int] = []
            plain = [card for card in cards if card.ability is None]
            art = collect(plain, round(OTHER_ART_SAMPLES * args.samples), args.seed + 3, use_scans=True,
                          shown=art_shown, icon_art=1.0,
                          progress=every_quarter(say, "crops of other art where an icon would be"))
            other_art = (art["ability"][0], np.array(art_shown))
        for name, fit_head in ABILITY_HEADS.items():
            counts = cross_validate_ability(features, card_ids, rows["ability"][1], stand_ins["ability"], cards,
                                            args.folds, args.repeats, args.seed, fit_head=fit_head,
                                            other_art=other_art)
            print(f"{name}{', with the crops of other art as a class of their own' if other_art else ''}:"
                  f"\n{ability_report(counts)}", flush=True)
        return 0
    if args.head == "parts":
        read_set = None
        if args.read_widths is not None:
            read_rows, read_shown = _fresh_crops(cards, args.samples, args.seed + 10, tuple(args.read_widths), say)
            read_set = (read_rows["legion"][0], read_shown)
        for name, (columns, head_rise) in PART_HEADS_COMPARED.items():
            counts = cross_validate_parts(features, card_ids, {part: rows[part][1] for part in PARTS},
                                          {part: stand_ins[part] for part in PARTS}, cards, args.folds, args.repeats,
                                          args.seed, part_columns=columns, head_rise=head_rise, read_set=read_set)
            print(f"parts, heads over {name}:\n{parts_report(counts)}", flush=True)
        return 0
    for name, (terms, regulariser) in HEADS_COMPARED.items():
        results = cross_validate(features, card_ids, stand_ins["legion"], cards, terms, regulariser,
                                 args.folds, args.repeats, args.seed)
        print(report(name, results, cards), flush=True)
    return 0


if __name__ == "__main__":
    sys.exit(main())
