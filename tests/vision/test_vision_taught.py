"""Teaching where the card scans are not (a Pi at the table): retraining learns from the scans, and without them
would forget every card it knew, so the built-in recogniser is kept and the taught cards' prints join its prototype
tables (issue 3: `teach`, "the recogniser adapts")."""
import numpy as np
import pytest

from vision.features import card_features
from vision.model import HEADS, PART_SETS, CardModel
from vision.synthetic import Conditions, SceneGenerator
from vision.taught import TeachError, card_with_facts, teach_examples, with_taught_prototypes


@pytest.fixture
def no_scans(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_CARDS_DIR", str(tmp_path / "no-scans-here"))


def _stand_in_example(card_id=2, seed=4):
    scene = SceneGenerator(seed, use_scans=False).render({0: [[card_id]]}, Conditions(card_width_px=300, noise=1))
    truth = scene.cards[0]
    return scene.frame, truth.corners, card_with_facts(truth.legion, truth.parts, truth.ability)


def test_without_scans_teaching_keeps_the_built_in_heads_and_adds_the_cards_prototypes(no_scans, tmp_path):
    frame, corners, card = _stand_in_example()
    messages = []
    path = teach_examples([(frame, corners, card)], out=tmp_path / "taught.json", progress=messages.append)
    assert any("scans are not on this machine" in message for message in messages)
    built_in, taught = CardModel.load(), CardModel.load(path)
    for head, weights in built_in.weights.items():
        assert np.array_equal(weights, taught.weights[head]), head
    for name, head in taught.exemplars.heads.items():
        before = built_in.exemplars.heads[name]
        assert len(head.labels) > len(before.labels)
        assert np.array_equal(head.exemplars[:len(before.labels)], before.exemplars.astype(np.float16))
    added = taught.exemplars.heads["ability"].labels[len(built_in.exemplars.heads["ability"].labels):]
    assert set(added.tolist()) == {HEADS["ability"].index(card.ability)}
    added = taught.exemplars.heads["parts"].labels[len(built_in.exemplars.heads["parts"].labels):]
    assert set(added.tolist()) == {PART_SETS.index(tuple(card.parts))}


def test_a_taught_card_finds_its_own_prototypes_nearest():
    frame, corners, card = _stand_in_example()
    built_in = CardModel.load()
    taught = with_taught_prototypes(built_in, [(frame, corners, card)])
    features = card_features(frame, np.asarray(corners, np.float64))[None]
    classes = {"parts": len(PART_SETS), "ability": len(HEADS["ability"])}
    _, familiar_before = built_in.exemplars.read(features, classes)
    votes_after, familiar_after = taught.exemplars.read(features, classes)
    assert familiar_after["ability"][0] > familiar_before["ability"][0]
    assert familiar_after["ability"][0] > 0.9
    for name, head in taught.exemplars.heads.items():
        nearest = int(head.similarity(features).argmax())
        assert nearest >= len(built_in.exemplars.heads[name].labels), f"{name}: a taught prototype is the nearest"
    assert votes_after["ability"][0, HEADS["ability"].index(card.ability)] == 1.0


def test_a_model_without_prototype_tables_cannot_be_taught_this_way():
    frame, corners, card = _stand_in_example()
    built_in = CardModel.load()
    with pytest.raises(TeachError, match="prototype tables"):
        with_taught_prototypes(CardModel(built_in.weights, {}, None), [(frame, corners, card)])
