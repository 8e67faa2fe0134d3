"""The part heads read the badge's print alone (issue 3: parts read right for cards the recogniser never saw, at least
99.5%). Which body parts a card can be is printed as the badge figure's highlighted limbs; its art, its icon and its
legion's colours say which card it is, and heads over every feature learned those too (stop 49: cross-validated by
card, 1.43% of the crops of cards never seen read with the wrong parts, against 0.70% over PART_COLUMNS)."""
import numpy as np
import pytest

from vision.cards import CARD_WIDTH
from vision.features import (
    BADGE_SIZE, COLOUR, EMBLEM_BOX, EMBLEM_SIZE, FEATURE_LENGTH, ICON_HOG, PART_COLUMNS, PART_HIGHLIGHTS, SILHOUETTE_HOG,
    _card_to_image, _part_highlights, _shifted, _white_print, badge_fit, card_features, least_channel,
)
from vision.layout import BADGE_BOX
from vision.model import HEADS, CardModel, softmax
from vision.synthetic import SceneGenerator
from vision.table_state import PARTS
from vision.train import fit_head


def test_the_part_columns_are_the_badge_print_the_highlights_and_the_constant():
    """Bit for bit, card_features at PART_COLUMNS is the badge's white print (levels, then gradient histograms), the
    part highlights as card_features scales them, and the constant 1, both read from the frame's least channel."""
    scene = SceneGenerator(11, use_scans=False).random_scene()
    assert len(scene.cards) >= 2
    for truth in scene.cards[:3]:
        corners = np.asarray(truth.corners, np.float64)
        offset = badge_fit(scene.frame, corners).offset
        features = card_features(scene.frame, corners, offset)
        assert len(features) == FEATURE_LENGTH
        emblem_map = _shifted(_card_to_image(corners), offset)
        shrink = np.linalg.norm(corners[1] - corners[0]) / CARD_WIDTH * (EMBLEM_BOX[2] - EMBLEM_BOX[0]) / EMBLEM_SIZE[0]
        least = least_channel(scene.frame)
        badge_print = _white_print(least, emblem_map, shrink, BADGE_BOX, BADGE_SIZE)
        highlights = _part_highlights(least, emblem_map) * 3.0
        expected = np.concatenate([badge_print, highlights, [1.0]]).astype(np.float32)
        assert len(badge_print) == BADGE_SIZE[0] * BADGE_SIZE[1] + SILHOUETTE_HOG.stop - SILHOUETTE_HOG.start
        assert np.array_equal(features[PART_COLUMNS], expected)
        assert np.array_equal(features[PART_HIGHLIGHTS], highlights.astype(np.float32))


def _rows_naming_the_part_in(columns, rows=2000, seed=3):
    """Feature rows of the model's width, noise but for the constant and `columns`, whose first column says whether
    the part is printed (label 0) or not (label 1)."""
    rng = np.random.default_rng(seed)
    labels = rng.integers(0, 2, rows)
    features = rng.normal(0, 0.3, (rows, FEATURE_LENGTH)).astype(np.float32)
    features[:, -1] = 1.0
    block = features[:, columns]
    block[:, 0] = np.where(labels == 0, 2.0, -2.0)
    features[:, columns] = block
    return features, labels


def _right_share(weights, features, labels) -> float:
    return float((softmax(features @ weights).argmax(axis=1) == labels).mean())


@pytest.mark.parametrize("part", PARTS)
def test_a_part_head_reads_only_the_badge_print(part):
    """A part named by the part highlights is read; one named by the colour statistics (which tell the legion, not
    the printed parts) is not, the head's weights there being zero. The card head still reads every feature."""
    half = 1000
    features, labels = _rows_naming_the_part_in(PART_HIGHLIGHTS)
    weights = fit_head(part, features[:half], labels[:half])
    assert weights.shape == (FEATURE_LENGTH, len(HEADS[part]))
    outside = np.ones(FEATURE_LENGTH, bool)
    outside[PART_COLUMNS] = False
    assert not weights[outside].any() and weights[PART_COLUMNS].any()
    assert _right_share(weights, features[half:], labels[half:]) > 0.95

    features, labels = _rows_naming_the_part_in(COLOUR)
    assert _right_share(fit_head(part, features[:half], labels[:half]), features[half:], labels[half:]) < 0.6
    assert _right_share(fit_head("card", features[:half], labels[:half]), features[half:], labels[half:]) > 0.95


def test_the_shipped_model_reads_parts_from_the_badge_print_alone():
    """vision/params/model.json was learned so (`python -m vision.train --only legs torso head`, stop 49): its part
    heads weigh nothing outside PART_COLUMNS, and the icon and colours least of all."""
    model = CardModel.load()
    outside = np.ones(model.feature_count, bool)
    outside[PART_COLUMNS] = False
    for part in PARTS:
        weights = model.weights[part]
        assert not weights[outside].any(), part
        assert weights[PART_HIGHLIGHTS].any() and weights[SILHOUETTE_HOG].any(), part
        assert not weights[ICON_HOG].any() and not weights[COLOUR].any(), part
