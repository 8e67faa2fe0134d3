"""The legion head (issue 3: legion read for cards the recogniser was not trained on, at least 99.9%; a taught model
keeps working): it reads the card's colour statistics and their products, never the art's gradients, and a model
whose legion head reads all the features (taught before) still loads and reads."""
import json

import numpy as np
import pytest

from vision.cards import CARD_HEIGHT, CARD_WIDTH, all_cards, card_by_id
from vision.features import COLOUR, COLOUR_STATISTICS, EMBLEM_HOG, FEATURE_LENGTH, ICON_HOG, card_features
from vision.layout import STRIPE_BOX
from vision.model import DEFAULT_MODEL, HEADS, LEGION_TERMS, CardModel, ModelError, legion_terms


def test_the_legion_head_reads_the_colour_statistics_and_their_products_only():
    rng = np.random.default_rng(3)
    features = rng.uniform(0, 1, (2, FEATURE_LENGTH)).astype(np.float32)
    terms = legion_terms(features)
    assert terms.shape == (2, LEGION_TERMS)
    assert np.array_equal(terms[:, :COLOUR.stop - COLOUR.start], features[:, COLOUR])
    colour = features[0, COLOUR]
    assert np.isclose(terms[0], colour[0] * colour[5]).any()  # a pair's product
    assert np.isclose(terms[0], colour[0] * colour[1] * colour[COLOUR_STATISTICS + 2]).any()  # three mean colours'
    assert terms[0, -1] == 1.0  # the constant

    changed = features.copy()
    changed[:, EMBLEM_HOG] = 0.0
    changed[:, ICON_HOG] = 0.0
    assert np.array_equal(legion_terms(changed), terms)  # the art and the icon do not count
    changed[:, COLOUR.start + 8] += 0.1
    assert not np.array_equal(legion_terms(changed), terms)


def test_the_colour_statistics_are_where_card_features_puts_them():
    """A grey card whose right edge is tinted green: the stripe's statistics (second region) are green and
    saturated, the left quarter's (third) grey."""
    scale = 0.3
    frame = np.full((300, 400, 3), 128, np.uint8)
    left, top = 40, 50
    width, height = CARD_WIDTH * scale, CARD_HEIGHT * scale
    frame[top:int(top + height), left:int(left + width)] = (150, 150, 150)
    frame[top:int(top + height), int(left + STRIPE_BOX[0] * scale) + 1:int(left + width)] = (40, 200, 60)  # BGR
    corners = np.array([[left, top], [left + width, top], [left + width, top + height], [left, top + height]])
    colour = card_features(frame, corners)[COLOUR] / 2.0  # card_features weighs the colour statistics by two
    stripe, left_quarter = colour[COLOUR_STATISTICS:2 * COLOUR_STATISTICS], colour[2 * COLOUR_STATISTICS:]
    # (r, g, b) chromaticity: the stripe is mostly green, the left quarter neutral.
    assert stripe[1] > 0.5 and stripe[1] > 2 * max(stripe[0], stripe[2])
    assert stripe[6] > 0.4
    assert np.allclose(left_quarter[:3], 1 / 3, atol=0.05) and left_quarter[6] < 0.1


def _model_json_with_legion_rows(rows: int, winner: str) -> dict:
    """The shipped model's JSON with a legion head of `rows` inputs that always picks `winner` (through the
    constant, the last input in both layouts)."""
    data = json.loads(DEFAULT_MODEL.read_text(encoding="utf-8"))
    legion = np.zeros((rows, len(HEADS["legion"])))
    legion[-1, HEADS["legion"].index(winner)] = 1.0
    data["weights"]["legion"] = legion.tolist()
    return data


def test_a_model_taught_with_a_legion_head_over_all_features_still_reads():
    shipped = CardModel.load()
    features = np.random.default_rng(4).uniform(0, 1, (3, shipped.feature_count)).astype(np.float32)
    features[:, -1] = 1.0
    for rows, winner in ((shipped.feature_count, "red"), (LEGION_TERMS, "green")):
        model = CardModel.from_json(_model_json_with_legion_rows(rows, winner))
        picks = model.probabilities(features)["legion"].argmax(axis=1)
        assert [HEADS["legion"][i] for i in picks] == [winner] * 3


def test_a_legion_head_of_any_other_size_is_a_clear_model_error():
    with pytest.raises(ModelError, match="mismatched shapes"):
        CardModel.from_json(_model_json_with_legion_rows(100, "blue"))


def test_cross_validation_deals_each_card_to_one_fold_and_every_legion_to_every_fold():
    from vision.crossval import card_folds

    cards = list(all_cards())
    fold_of = card_folds(cards, folds=4, seed=1)
    assert sorted(fold_of) == sorted(card.id for card in cards)
    for fold in range(4):
        legions = {card.legion for card in cards if fold_of[card.id] == fold}
        assert legions == set(HEADS["legion"])
    assert card_folds(cards, folds=4, seed=2) != fold_of  # another deal for another repeat


@pytest.mark.parametrize("warmth, brightness, table", [(-1, 1.0, "cloth"), (0, 0.5, "light"), (0, 0.5, "cloth"),
                                                       (1, 0.5, "light")])
def test_a_held_out_brown_card_with_a_yellow_glow_is_read_brown(recogniser, lone_card_scene, warmth, brightness,
                                                                table):
    """Card 60 (never trained on) glows yellow like the green legion's cards; the head over all features read it
    green under these lights, the colour head reads its orange badge and tint as brown."""
    scene = lone_card_scene(60, warmth=warmth, brightness=brightness, table=table)
    cards = recogniser.scan(scene.frame).cards
    assert [card.legion for card in cards] == ["brown"]


def test_cross_validation_never_reads_a_card_it_learned_from():
    """Features that name the card and nothing else: a head that had seen a card's other crops would read them all
    right; read only by heads that never saw the card, its legion is a guess."""
    from vision.crossval import cross_validate

    cards = list(all_cards())
    card_ids = np.repeat([card.id for card in cards], 5)
    features = (card_ids[:, None] == np.array([card.id for card in cards])[None, :]).astype(np.float32)
    stand_ins = (np.zeros((0, len(cards)), np.float32), np.zeros(0, int))
    results = cross_validate(features, card_ids, stand_ins, cards, lambda rows: rows, 0.01, folds=4, repeats=1,
                             seed=3)
    assert sorted(results) == sorted(card.id for card in cards)
    assert all(read == 5 for _, read in results.values())
    wrong = sum(w for w, _ in results.values())
    assert wrong >= len(card_ids) / 2  # an unseen card's indicator column is all zeros: no evidence for its legion

    from vision.model import fit_ridge
    from vision.table_state import LEGIONS

    legions = np.array([LEGIONS.index(card_by_id(card_id).legion) for card_id in card_ids])
    seen_all = fit_ridge(features, legions, len(LEGIONS), 0.01)
    assert np.array_equal((features @ seen_all).argmax(axis=1), legions)  # the features do name each card's legion
