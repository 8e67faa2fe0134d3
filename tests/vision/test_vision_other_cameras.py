"""The legion head learns from cards seen through cameras whose saturation differs (vivid or washed out), not only
in the scans' own colours (`vision.train.other_camera_rows`, stop 39; issue 3: "in a living room's light", legion
at least 99.9%): a camera 1.4 times as saturated put 7% of the held-out cards in the wrong legion, surely."""
import numpy as np
import pytest

import vision.train
from vision.cards import all_cards
from vision.features import COLOUR, COLOUR_STATISTICS
from vision.model import HEADS, CardModel

STRIPE_SATURATION = COLOUR.start + 1 * COLOUR_STATISTICS + 6  # the right edge's mean saturation (its second region)


def _rows(monkeypatch, saturation):
    monkeypatch.setattr(vision.train, "OTHER_SATURATION", (saturation, saturation))
    features, legions, _ = vision.train.other_camera_rows(list(all_cards())[:8], 6, seed=5, use_scans=False)
    return features, legions


def test_other_cameras_show_the_same_cards_more_or_less_saturated(monkeypatch):
    washed_out, washed_out_legions = _rows(monkeypatch, 0.6)
    vivid, vivid_legions = _rows(monkeypatch, 1.5)
    assert len(washed_out_legions) >= 6 and np.array_equal(washed_out_legions, vivid_legions)  # the same scenes
    legions = {HEADS["legion"].index(card.legion) for card in list(all_cards())[:8]}
    assert set(washed_out_legions.tolist()) <= legions
    assert np.all(vivid[:, STRIPE_SATURATION] > washed_out[:, STRIPE_SATURATION] + 0.05)


def test_relearning_the_legion_head_keeps_the_other_heads_and_the_prototypes(monkeypatch):
    monkeypatch.setattr(vision.train, "training_cards", lambda: [])  # the stand-ins alone: seconds, scans or not
    relearned = vision.train.train(4, seed=3, only=("legion",))
    shipped = CardModel.load()
    assert "legion" in relearned.about["relearned"]
    assert relearned.about["samples"] == shipped.about["samples"]  # what the other heads learned from
    for head, weights in shipped.weights.items():
        assert np.array_equal(weights, relearned.weights[head]) is (head != "legion"), head
    for name, table in shipped.exemplars.heads.items():
        assert np.array_equal(table.exemplars, relearned.exemplars.heads[name].exemplars)
    assert np.array_equal(shipped.badge_shape, relearned.badge_shape)


@pytest.mark.parametrize("saturation", [1.4, 0.6])
def test_the_shipped_recogniser_reads_no_legion_wrong_surely_through_a_vivid_or_a_washed_out_camera(
        legions_through_camera, saturation):
    """The first bench scenes (held-out cards) through such a camera. A legion head trained on the scans' own colours
    alone read cards there in the wrong legion surely: held-out card 53 (red) as green at 0.87 through the vivid
    one, card 6 (blue) as brown at 0.98 through the washed-out one. Washed out, the legions come so near that some
    are still read wrong, but unsurely: the stabiliser holds such cards back instead of reporting a wrong creature."""
    from vision.bench import CONFIDENT

    read = legions_through_camera(0.0, saturation)
    assert len(read) >= 20, read
    assert not [each for each in read if each[1] != each[2] and each[3] >= CONFIDENT], read
