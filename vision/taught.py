"""Teaching: the user shows their own cards under their own light; the recogniser is retrained with those
pictures mixed in and saved where `default_params()` finds it."""
from __future__ import annotations

from pathlib import Path

import numpy as np

from .user_files import user_path

TAUGHT_GATE_MARGIN = 0.7  # the badge gate of a taught model, as a share of its weakest taught card's badge match


class TeachError(Exception):
    pass


def taught_path() -> Path:
    return user_path("vision-model.json", "COMPANION_VISION_PARAMS")


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
    from .features import badge_fit, least_channel
    from .pipeline import BADGE_GATE

    matches = [badge_fit(least_channel(frame), quad).match for frame, quad, _ in examples]  # as the pipeline reads
    weakest = min((m if m == m else 0.0 for m in matches), default=BADGE_GATE)  # NaN: a flat badge corner
    return float(min(BADGE_GATE, TAUGHT_GATE_MARGIN * weakest))


def teach(source, card_ids: list[int], out: str | None = None, samples: int = 800, progress=None,
          retrain: bool = False) -> Path:
    from .cards import card_by_id
    from .features import card_features
    from .frames import FrameError, to_bgr8
    from .model import CardModel

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
    path = Path(out) if out else taught_path()
    for frame, quad, card in examples:
        remember_example(frame, quad, card, path)
    return teach_examples(remembered_examples(path), out=path, samples=samples, progress=progress, retrain=retrain)


def teach_examples(examples, out: str | Path | None = None, samples: int = 800, progress=None,
                   retrain: bool = False) -> Path:
    """Teach the recogniser the (frame, card corners, CardFacts) examples and save it where `default_params()`
    finds it (or to `out`). The built-in recogniser is kept, the taught cards' prints join its prototype tables and
    its legion head learns their colours: a second's work, and on the 60 held-out scenes it reads as the built-in
    one. `retrain` retrains every head from the card scans (`samples` crops of them, minutes) with the examples mixed
    in instead, which a printing whose badge figure or icons differ may need; it read a printing with other hues
    less well (stop 36: 95.7% legion against 99.7%)."""
    from .cards import scans_available
    from .model import CardModel, ModelError
    from .train import train

    if not examples:
        raise TeachError("no card to teach")
    readings = None
    if retrain:
        if not scans_available():
            # Without them a retrain learns from the code-drawn stand-ins alone and forgets every card it knew (a
            # model so made found 7% of the held-out cards).
            raise TeachError("retraining learns from the card scans, which are not on this machine "
                             "(COMPANION_CARDS_DIR or ../shared/cards); teach without --retrain")
        if progress:
            progress("retraining (this takes a few minutes)...")
        model = train(samples, seed=11, extra=examples, progress=progress)
    else:
        if progress:
            progress("adding the cards' prints to the recogniser")
        try:
            readings = taught_readings(examples)
            model = with_taught_prototypes(CardModel.load(), examples, readings=readings)
        except ModelError as error:
            raise TeachError(str(error)) from None
    # Either way the legion head learns the taught cards' colours as they look here: another printing's inks or
    # another camera's colours can put a whole legion in the wrong one, surely, until it is shown a few of its
    # cards. Not always: moved towards one card it read right anyway, it read 2 to 4 of 160 other cards wrong, and
    # washed-out colours taught it the cards' art (stop 36).
    if readings is None:
        readings = taught_readings(examples)
    misread = legions_misread(model, readings)
    # One card shown is learned where it was read in another legion (the player said so); two or more where
    # what some teach holds for the others (`colours_generalise`).
    if misread if len(examples) == 1 else colours_generalise(model, readings):
        if progress:
            progress(f"learning the colours of the cards shown ({misread} read in another legion)")
        model = with_taught_colours(model, examples, readings=readings)
        model.about["colours"] = "learned"
    elif misread:
        if progress:
            progress(f"{misread} card(s) read in another legion, but their colours do not tell the legions apart "
                     "better than the built-in ones (washed-out colours?): colours kept; more light may help")
        model.about["colours"] = "unclear"
    else:
        if progress:
            progress("the cards' colours already read as their legions: colours kept")
        model.about["colours"] = "kept"
    if model.badge_shape is not None and badge_shapes_misread(model, examples, readings):
        # A printing whose badges are drawn otherwise: their shape would outweigh the colours just taught.
        if progress:
            progress("the badges' shapes are unlike the built-in ones: legions are read by colour alone")
        model.badge_shape = None
        model.about["badge_shapes"] = "unlike"
    model.about["badge_gate"] = taught_badge_gate(examples)
    model.about["taught_cards"] = len(examples)
    path = Path(out) if out else taught_path()
    try:
        model.save(path)
    except OSError as error:
        raise TeachError(f"cannot save to {path}: {error.strerror}") from None
    return path


def colours_outcome(model_path: Path) -> str | None:
    """What teaching made of the taught cards' colours ("learned", "kept", "unclear": read in another legion, but
    not telling the legions apart better), as `teach_examples` recorded it in the saved parameters."""
    import json

    try:
        about = json.loads(Path(model_path).read_text(encoding="utf-8")).get("about", {})
    except (OSError, ValueError, AttributeError):
        return None
    return about.get("colours") if isinstance(about, dict) else None


def examples_dir(model_path: Path | None = None) -> Path:
    """Where the pictures of the cards taught to the model at `model_path` (`taught_path()` unless given) are kept:
    the user's own, on their own machine, so that each teaching learns every card taught so far. Deleting
    the folder and the taught file (`forget_taught`) forgets them all."""
    model_path = Path(model_path) if model_path else taught_path()
    return model_path.with_name(model_path.stem + "-cards")


def taught_count(model_path: Path | None = None) -> int:
    """How many taught cards are kept for the model at `model_path` (`taught_path()` unless given)."""
    folder = examples_dir(model_path)
    return sum(1 for _ in folder.glob("*.json")) if folder.is_dir() else 0


def forget_taught(model_path: Path | None = None) -> int:
    """Forget everything taught: the taught parameters and the cards kept for them (a card taught as the wrong one
    would otherwise stay). The built-in recogniser is used from then on. Returns how many cards were forgotten."""
    import shutil

    from .model import exemplars_path

    model_path = Path(model_path) if model_path else taught_path()
    count = taught_count(model_path)
    try:
        for path in (model_path, exemplars_path(model_path)):
            path.unlink(missing_ok=True)
        if examples_dir(model_path).is_dir():
            shutil.rmtree(examples_dir(model_path))
    except OSError as error:
        raise TeachError(f"cannot forget the taught cards in {model_path.parent}: {error}") from None
    return count


EXAMPLE_MARGIN = 0.25  # of the card's width, kept around it in a remembered picture


def remember_example(frame: np.ndarray, corners: np.ndarray, card, model_path: Path | None = None) -> Path:
    """Keep the part of the picture around a taught card (PNG) with its corners and facts (JSON beside it)."""
    import json

    import cv2

    corners = np.asarray(corners, np.float64)
    margin = EXAMPLE_MARGIN * float(np.linalg.norm(corners[1] - corners[0]))
    height, width = frame.shape[:2]
    left, top = (max(0, int(v)) for v in corners.min(axis=0) - margin)
    right, bottom = int(min(width, corners[:, 0].max() + margin)), int(min(height, corners[:, 1].max() + margin))
    if right - left < 2 or bottom - top < 2:
        raise TeachError("the card lies outside the picture")
    folder = examples_dir(model_path)
    try:
        folder.mkdir(parents=True, exist_ok=True)
        number = 1 + max((int(p.stem) for p in folder.glob("*.json") if p.stem.isdigit()), default=0)
        picture = folder / f"{number:04d}.png"
        if not cv2.imwrite(str(picture), frame[top:bottom, left:right]):
            raise OSError(f"could not write {picture}")
        facts = {"corners": (corners - [left, top]).round(2).tolist(), "id": card.id, "legion": card.legion,
                 "parts": list(card.parts), "ability": card.ability}
        temporary = picture.with_suffix(".tmp")
        temporary.write_text(json.dumps(facts), encoding="utf-8")
        temporary.replace(picture.with_suffix(".json"))  # the JSON last: a picture without it is not an example
    except OSError as error:
        raise TeachError(f"cannot keep the taught card in {folder}: {error}") from None
    return picture


def remembered_examples(model_path: Path | None = None) -> list:
    """(picture, corners, CardFacts) of every taught card kept, oldest first; unreadable ones are skipped."""
    import json

    import cv2

    from .cards import CardFacts

    examples = []
    folder = examples_dir(model_path)
    for facts_path in sorted(folder.glob("*.json")) if folder.is_dir() else ():
        try:
            facts = json.loads(facts_path.read_text(encoding="utf-8"))
            picture = cv2.imread(str(facts_path.with_suffix(".png")), cv2.IMREAD_COLOR)
            corners = np.asarray(facts["corners"], np.float64).reshape(4, 2)
            card = CardFacts(int(facts["id"]), str(facts["legion"]), tuple(facts["parts"]), facts["ability"], "")
        except (OSError, ValueError, KeyError, TypeError):
            continue
        if picture is not None:
            examples.append((picture, corners, card))
    return examples


def card_with_facts(legion: str, parts, ability: str | None):
    """The deck's first card with these printed facts (training only reads the facts), or one numbered 0 when the
    deck has none such."""
    from .cards import CardFacts, all_cards

    parts = tuple(parts)
    for card in all_cards():
        if (card.legion, tuple(card.parts), card.ability) == (legion, parts, ability):
            return card
    return CardFacts(0, legion, parts, ability, "")


TAUGHT_CROPS = 24  # jittered readings of each taught card whose means become its prototypes (at least 8 each)


def _jittered_places(examples, seed: int):
    """(picture, corners, CardFacts) of TAUGHT_CROPS jittered readings of each taught card, as training reads rendered
    crops; the same for the same seed."""
    from .train import jitter

    rng = np.random.default_rng(seed)
    for frame, corners, card in examples:
        for _ in range(TAUGHT_CROPS):
            yield frame, jitter(np.asarray(corners, np.float64), rng, 0.012), card


def taught_readings(examples, seed: int = 11):
    """Feature vectors of TAUGHT_CROPS jittered readings of each taught (picture, corners, CardFacts), and each
    reading's card facts, as training reads rendered crops."""
    from .features import card_features, least_channel

    features, cards = [], []
    picture = least = None  # each picture's least channel, worked out once for all its readings (they come in turn)
    for frame, place, card in _jittered_places(examples, seed):
        if frame is not picture:
            picture, least = frame, least_channel(frame)
        features.append(card_features(frame, place, least=least))
        cards.append(card)
    return np.array(features, np.float32), cards


def with_taught_prototypes(model, examples, seed: int = 11, readings=None):
    """The model with prototypes of the taught cards' prints (badge figure and icon) added to its parts and ability
    tables, its linear heads unchanged: each prototype the mean of jittered readings of the taught pictures, as the
    training table's are of rendered crops. A card read like a taught one then finds familiar prototypes that vote
    for its printed facts. `readings` are `taught_readings(examples)`, if made already."""
    import copy

    from .exemplars import prototypes
    from .model import HEADS, PART_SETS, CardModel

    if model.exemplars is None:
        raise TeachError("the recogniser has no prototype tables to add the cards to")
    features, cards = readings if readings is not None else taught_readings(examples, seed)
    labels = {"parts": [PART_SETS.index(tuple(card.parts)) if tuple(card.parts) in PART_SETS else -1
                        for card in cards],
              "ability": [HEADS["ability"].index(card.ability) for card in cards]}
    exemplars = copy.deepcopy(model.exemplars)
    for name, head in exemplars.heads.items():
        classes = np.array(labels[name])
        printed = classes >= 0
        centres, centre_labels = prototypes(head.embed(features[printed]), classes[printed], seed)
        head.exemplars = np.concatenate([head.exemplars, centres]).astype(np.float32)
        head.labels = np.concatenate([head.labels, centre_labels]).astype(np.int16)
    about = dict(model.about, taught_prototypes=int(sum(len(h.labels) for h in exemplars.heads.values())
                                                    - sum(len(h.labels) for h in model.exemplars.heads.values())))
    return CardModel(dict(model.weights), about, exemplars, model.badge_shape)


def badge_shapes_misread(model, examples, readings, seed: int = 11) -> int:
    """How many of the taught (picture, corners, CardFacts) the model's badge shape head alone reads in another
    legion (the mean probability of their own over their jittered readings under a half). `readings` are
    `taught_readings(examples, seed)`."""
    from .features import badge_shape
    from .model import HEADS, softmax

    features, _ = readings
    own = [float(softmax(badge_shape(frame, place, row) @ model.badge_shape)[HEADS["legion"].index(card.legion)])
           for (frame, place, card), row in zip(_jittered_places(examples, seed), features)]
    return int(np.sum(np.mean(np.reshape(own, (len(examples), TAUGHT_CROPS)), axis=1) < 0.5))


def legions_misread(model, readings) -> int:
    """How many of the taught cards the model's legion head reads in another legion (their readings' mean
    probability of their own under a half). `readings` are `taught_readings(examples)`."""
    weights, terms, targets, card_of_row = _colour_problem(model, readings)
    return int(np.sum(_own_legion(weights, terms, targets, card_of_row, np.unique(card_of_row)) < 0.5))


# How far the taught cards may move the legion head from the built-in one (a ridge towards it): smaller fits the
# taught colours more closely, larger keeps more of what the scans taught. Chosen on training cards only (a throwaway
# script: the scans' hues turned by 10 or 20 degrees, "another printing"; 1 or 3 cards of each legion taught from
# seed 900's scenes, read on seed 2025's 30): at +20 degrees and one card a legion, legion 93.2% at 0.03 against
# 88.2% at 0.1 and 85.1% at 0.3 (60.2% untaught); with three a legion 99.4% from 0.01 to 0.1; unturned, 99.38% as
# untaught. Washed-out colours are not helped at any stiffness: see `colours_generalise`.
COLOUR_STIFFNESS = 0.03


def _moved_legion_weights(weights: np.ndarray, terms: np.ndarray, targets: np.ndarray, stiffness: float) -> np.ndarray:
    """Least squares of the colour terms to the taught legions, regularised towards `weights`."""
    gram = terms.T @ terms
    gram[np.diag_indices_from(gram)] += stiffness
    return weights + np.linalg.solve(gram, terms.T @ (targets - terms @ weights))


def _colour_problem(model, readings):
    """(built-in legion weights, colour terms, one-hot legions, each row's taught card) of the taught readings."""
    from .model import HEADS, legion_terms

    features, cards = readings
    weights = model.weights["legion"].astype(np.float64)
    terms = legion_terms(features).astype(np.float64)
    if terms.shape[1] != weights.shape[0]:
        raise TeachError("the recogniser's legion head does not read colour terms; retrain it with the scans")
    targets = np.eye(len(HEADS["legion"]))[[HEADS["legion"].index(card.legion) for card in cards]]
    return weights, terms, targets, np.arange(len(cards)) // TAUGHT_CROPS


def _own_legion(weights: np.ndarray, terms: np.ndarray, targets: np.ndarray, card_of_row: np.ndarray,
                cards) -> np.ndarray:
    """Per taught card (indices `cards`): the mean probability these legion weights give its own legion."""
    from .model import softmax

    own = (softmax(terms @ weights) * targets).sum(axis=1)
    return np.array([float(own[card_of_row == card].mean()) for card in cards])


def colours_generalise(model, readings, stiffness: float = COLOUR_STIFFNESS) -> bool:
    """Whether the taught colours teach the legion head something that holds for cards it was not taught: each
    taught card left out in turn, the head moved by the others must read at least as many of them in their own
    legion as the built-in head, and give their legions more probability on the whole. Washed-out colours (a
    camera's low saturation) bring the legions so near that a head moved by a dozen cards learns their art rather
    than their legion: left out, 6 of 12 read right against the built-in 11 (stop 36). Needs two cards."""
    weights, terms, targets, card_of_row = _colour_problem(model, readings)
    cards = np.unique(card_of_row)
    if len(cards) < 2:
        return False
    built_in = _own_legion(weights, terms, targets, card_of_row, cards)
    left_out = np.array([_own_legion(_moved_legion_weights(weights, terms[card_of_row != card],
                                                           targets[card_of_row != card], stiffness),
                                     terms, targets, card_of_row, [card])[0] for card in cards])
    return bool(np.sum(left_out >= 0.5) >= np.sum(built_in >= 0.5) and left_out.mean() > built_in.mean())


def with_taught_colours(model, examples, seed: int = 11, readings=None, stiffness: float = COLOUR_STIFFNESS):
    """The model with its legion head moved to read the taught cards' colours as their legions: a printing whose
    inks differ, or a camera that renders them differently, is learned from a few of its cards without the scans
    (least squares to the taught legions, regularised towards the built-in weights, so what they do not show stays
    as it was). `readings` are `taught_readings(examples)`, if made already."""
    from .model import CardModel

    readings = readings if readings is not None else taught_readings(examples, seed)
    weights, terms, targets, _ = _colour_problem(model, readings)
    moved = _moved_legion_weights(weights, terms, targets, stiffness)
    about = dict(model.about, taught_colours=len(examples))
    return CardModel(dict(model.weights, legion=moved.astype(np.float32)), about, model.exemplars, model.badge_shape)
