"""The held-out scans, known to the recogniser the companion runs (`vision.known_scans`; issue 3: "classification of
legion, parts and ability; a confidence per card"). The bench measures the built-in model, which never saw them; the
app, `companion vision scan` and `companion doctor` read with their prints taught, as `companion vision teach` would
teach them. The file goes with the model it was made from: one made for another model, or damaged, is left out with
a note."""
import queue

import numpy as np
import pytest

from vision.known_scans import KNOWN_SCANS, fingerprint, with_known_scans
from vision.model import CardModel
from vision.pipeline import Recogniser
from vision.synthetic import Conditions, SceneGenerator

HELD_OUT_NO_ICON = 66  # a held-out card whose art where an icon would be is unlike any training card's (stop 59)


@pytest.fixture(scope="module")
def built_in():
    return CardModel.load()


def test_the_known_scans_fit_the_built_in_model_and_add_their_prints(built_in):
    known = with_known_scans(built_in)
    assert known.about["known scans"] == "16 cards", "made again after the last retrain: python -m vision.known_scans"
    with np.load(KNOWN_SCANS) as data:
        for name, head in built_in.exemplars.heads.items():
            added = known.exemplars.heads[name]
            assert len(added.labels) == len(head.labels) + len(data[f"{name}.labels"]) > len(head.labels)
            assert np.array_equal(added.exemplars[:len(head.labels)], head.exemplars), "the built-in rows stay"
    assert known.weights is built_in.weights and known.badge_shape is built_in.badge_shape, "the heads stay"
    assert "known scans" not in built_in.about, "the model given is left as it was"


def test_a_model_a_user_taught_keeps_what_it_was_taught_and_gains_the_prints(built_in):
    taught = CardModel(dict(built_in.weights, legion=built_in.weights["legion"] * 1.01),
                       dict(built_in.about, taught_prototypes=3), built_in.exemplars, built_in.badge_shape)
    known = with_known_scans(taught)
    assert known.about["known scans"] == "16 cards" and known.about["taught_prototypes"] == 3
    assert known.weights["legion"] is taught.weights["legion"]
    assert len(known.exemplars.heads["ability"].labels) > len(taught.exemplars.heads["ability"].labels)


def test_known_scans_made_for_another_model_or_damaged_are_left_out_with_a_note(built_in, tmp_path):
    import copy

    retrained = CardModel(built_in.weights, built_in.about, copy.deepcopy(built_in.exemplars), built_in.badge_shape)
    retrained.exemplars.heads["parts"].projection = retrained.exemplars.heads["parts"].projection * 0.5
    assert fingerprint(retrained) != fingerprint(built_in)
    left = with_known_scans(retrained)
    assert "made for another model" in left.about["known scans"] and left.exemplars is retrained.exemplars
    damaged = tmp_path / "known_scans.npz"
    damaged.write_bytes(KNOWN_SCANS.read_bytes()[:5000])  # cut short while written
    left = with_known_scans(built_in, damaged)
    assert left.about["known scans"].startswith("unreadable") and left.weights is built_in.weights
    assert with_known_scans(built_in, tmp_path / "none.npz").about["known scans"] == "none here"


def test_the_companion_reads_with_the_known_scans_and_the_bench_without(monkeypatch, tmp_path):
    from companion.ui.camera_worker import CameraWorker

    monkeypatch.setenv("COMPANION_VISION_PARAMS", str(tmp_path / "never-taught.json"))
    assert CameraWorker(guard=None, inbox=queue.Queue()).load_recogniser().model.about["known scans"] == "16 cards"
    assert "known scans" not in Recogniser().model.about  # what `companion vision bench` reads with


def test_a_held_out_card_read_unsurely_by_the_built_in_model_is_read_surely_once_known(needs_scans):
    scene = SceneGenerator(31, use_scans=True).render({0: [[HELD_OUT_NO_ICON]]}, Conditions(card_width_px=240,
                                                                                             noise=1))
    truth = scene.cards[0]
    readings = []
    for known in (False, True):
        [card] = Recogniser(known_scans=known).scan(scene.frame).cards
        assert (card.legion, card.parts, card.ability) == (truth.legion, tuple(truth.parts), truth.ability)
        readings.append(card.confidence)
    assert readings[0] < 0.6 <= readings[1], readings  # the stabiliser reports from 0.6
