"""The legion is read from the badge's shape as well as the card's colours (stop 40; issue 3: "in a living room's
light", legion at least 99.9%, and "a printing that differs"). Through a camera whose hues are off by 10 or 20
degrees the colour head read whole legions as another one, surely (stop 39: 63 and 104 of 347 held-out cards); the
badge's outline (coffin, spiky fur, insect, wavy blob) does not turn with the hues."""
import numpy as np
import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

import vision.train
from vision.cards import all_cards
from vision.features import BADGE_SHAPE_LENGTH, badge_fit, badge_shape, card_features
from vision.model import (HEADS, SHAPE_RULES_OUT, SHAPE_SURE, CardModel, ModelError, legion_from_shape_and_colour,
                          softmax)
from vision.synthetic import Conditions, SceneGenerator

LEGIONS = HEADS["legion"]
probability_rows = st.lists(st.floats(0.01, 1.0), min_size=4, max_size=4).map(lambda v: np.array(v) / sum(v))


@settings(max_examples=200, deadline=None)
@given(probability_rows)
def test_an_unsure_badge_shape_leaves_the_colour_to_decide(colour):
    """A badge under a hand reads as no shape in particular: the colours alone then give the legion."""
    together = legion_from_shape_and_colour(np.full(4, 0.25), colour)
    assert together.sum() == pytest.approx(1.0)
    assert int(together.argmax()) == int(colour.argmax())


@settings(max_examples=200, deadline=None)
@given(probability_rows, probability_rows)
def test_a_sure_shape_and_a_colour_that_agree_read_at_least_as_surely_as_the_shape_and_an_unsure_shape_not_at_all(
        shape, colour):
    together = legion_from_shape_and_colour(shape, colour)
    assert together.sum() == pytest.approx(1.0)
    if shape.max() < SHAPE_SURE and shape[colour.argmax()] > SHAPE_RULES_OUT:
        assert np.array_equal(together, colour)
    elif int(shape.argmax()) == int(colour.argmax()):
        assert int(together.argmax()) == int(shape.argmax())
        assert together.max() >= shape.max() - 1e-9


def test_a_sure_badge_shape_outweighs_a_sure_colour():
    """A red card through a camera whose hues are turned reads brown by colour at 0.97; its spiky badge reads red."""
    red, brown = LEGIONS.index("red"), LEGIONS.index("brown")
    colour = np.full(4, 0.01)
    colour[brown] = 0.97
    shape = np.full(4, 0.03)
    shape[red] = 0.91
    assert int(legion_from_shape_and_colour(shape, colour).argmax()) == red
    # Only a sure shape does: a shape barely leaning to red leaves the card brown.
    leaning = np.full(4, 0.24)
    leaning[red] = 0.28
    assert int(legion_from_shape_and_colour(leaning, colour).argmax()) == brown
    # Or one that all but rules the colours' legion out: torn between red and blue, it leaves no room for brown.
    torn = np.array([0.40, 0.54, 0.03, 0.03])  # blue, red, brown, green
    assert torn.max() < SHAPE_SURE and int(legion_from_shape_and_colour(torn, colour).argmax()) == red


def test_a_model_without_the_badge_shape_head_reads_the_legion_by_colour(tmp_path):
    """A model from before stop 40, or one taught a printing whose badges differ."""
    shipped = CardModel.load()
    assert shipped.badge_shape is not None and shipped.badge_shape.shape == (BADGE_SHAPE_LENGTH, len(LEGIONS))
    colour = np.array([[0.1, 0.7, 0.1, 0.1]])
    shape_inputs = np.ones((1, BADGE_SHAPE_LENGTH), np.float32)
    older = CardModel(shipped.weights, {}, shipped.exemplars, None)
    assert older.legion_probabilities(colour, shape_inputs) is colour
    assert not np.allclose(shipped.legion_probabilities(colour, shape_inputs), colour)
    data = shipped.to_json()
    assert np.allclose(CardModel.from_json(data).badge_shape, shipped.badge_shape, atol=1e-5)
    assert CardModel.from_json({k: v for k, v in data.items() if k != "badge_shape"}).badge_shape is None
    with pytest.raises(ModelError, match="badge shape weights have the wrong shape"):
        CardModel.from_json(data | {"badge_shape": [[0.0] * 4] * 3})
    with pytest.raises(ModelError, match="badge shape weights are unreadable"):
        CardModel.from_json(data | {"badge_shape": [[0.0, "x"]]})


def test_the_badge_shape_rows_leave_the_other_heads_rows_as_they_were():
    """Learning the badge shape head draws nothing at random, so every other head learns from the same rows."""
    cards = list(all_cards())[:10]
    plain = vision.train.collect(cards, 3, seed=4, use_scans=False)
    with_shapes = vision.train.collect(cards, 3, seed=4, use_scans=False, shapes=True)
    for head in HEADS:
        assert np.array_equal(plain[head][0], with_shapes[head][0]), head
        assert np.array_equal(plain[head][1], with_shapes[head][1]), head
    shapes, legions = with_shapes[vision.train.BADGE_SHAPE_HEAD]
    assert len(plain[vision.train.BADGE_SHAPE_HEAD][1]) == 0
    assert shapes.shape == (len(plain["legion"][1]), BADGE_SHAPE_LENGTH)
    assert np.array_equal(legions, plain["legion"][1])
    assert np.allclose(np.linalg.norm(shapes[:, :-1], axis=1), 1.0, atol=1e-4) and np.all(shapes[:, -1] == 1.0)


def test_relearning_the_badge_shape_head_keeps_every_other_head_and_the_prototypes(monkeypatch):
    monkeypatch.setattr(vision.train, "training_cards", lambda: [])  # the stand-ins alone: seconds, scans or not
    relearned = vision.train.train(4, seed=3, only=(vision.train.BADGE_SHAPE_HEAD,))
    shipped = CardModel.load()
    assert vision.train.BADGE_SHAPE_HEAD in relearned.about["relearned"]
    for head, weights in shipped.weights.items():
        assert np.array_equal(weights, relearned.weights[head]), head
    for name, table in shipped.exemplars.heads.items():
        assert np.array_equal(table.exemplars, relearned.exemplars.heads[name].exemplars)
    assert relearned.badge_shape.shape == shipped.badge_shape.shape
    assert not np.array_equal(relearned.badge_shape, shipped.badge_shape)


def _shape_legion(model, frame, corners):
    offset = badge_fit(frame, corners)[1]
    shape = badge_shape(frame, corners, card_features(frame, corners, offset), offset)
    return LEGIONS[int(softmax(shape @ model.badge_shape).argmax())]


def test_turning_the_hues_turns_the_colours_reading_but_not_the_badge_shapes(needs_scans):
    """Held-out red cards, their hues turned 20 degrees (towards brown): the shipped model's badge shape head reads
    each red at both hues, while the colour head reads some of them in another legion."""
    from vision.bench import bench_cards

    model = CardModel.load()
    reds = [card.id for card in bench_cards(heldout=True) if card.legion == "red"]
    colour_misread = 0
    for card_id in reds:
        for hue in (0.0, 20.0):
            generator = SceneGenerator(6, card_ids=[card_id], use_scans=True, printing=(hue, 1.0))
            scene = generator.render({0: [[card_id]]}, Conditions(card_width_px=240, table="wood", noise=2))
            corners = scene.cards[0].corners
            assert _shape_legion(model, scene.frame, corners) == "red", (card_id, hue)
            colour = model.probabilities(card_features(scene.frame, corners))["legion"][0]
            colour_misread += LEGIONS[int(colour.argmax())] != "red"
    assert len(reds) >= 3 and colour_misread >= 1, "the colours alone mislead at +20 degrees"


@pytest.mark.parametrize("hue", [10.0, 20.0])
def test_the_shipped_recogniser_reads_no_legion_wrong_surely_through_a_camera_whose_hues_are_off(
        legions_through_camera, hue):
    """The first bench scenes (held-out cards) through such a camera. By colour alone (stop 39's model) red cards 53
    and 47 read brown there, surely (0.84 and 0.88 at +10 degrees, 0.93 and 0.96 at +20), and brown card 60 green
    (0.66 and 0.94)."""
    from vision.bench import CONFIDENT

    read = legions_through_camera(hue, 1.0)
    assert len(read) >= 20, read
    assert not [each for each in read if each[1] != each[2] and each[3] >= CONFIDENT], read
    assert sum(each[1] == each[2] for each in read) >= 0.95 * len(read), read


def test_teaching_cards_whose_badges_read_as_another_legion_reads_legions_by_colour_alone(lone_card_scene,
                                                                                          tmp_path):
    """A printing whose badges are drawn otherwise: the player says which legion a card is, its badge's shape says
    another. The shape would outweigh the colours just taught, so the taught model reads legions by colour alone;
    cards whose badges read as their own legion keep it."""
    from vision.taught import card_with_facts, teach_examples

    scene = lone_card_scene(9)
    truth = scene.cards[0]
    other = next(legion for legion in LEGIONS if legion != truth.legion)
    messages = []
    unlike = teach_examples([(scene.frame, truth.corners, card_with_facts(other, truth.parts, truth.ability))],
                            out=tmp_path / "unlike.json", progress=messages.append)
    assert CardModel.load(unlike).badge_shape is None
    assert CardModel.load(unlike).about["badge_shapes"] == "unlike"
    assert any("badges' shapes are unlike" in message for message in messages)
    alike = teach_examples([(scene.frame, truth.corners, card_with_facts(truth.legion, truth.parts, truth.ability))],
                           out=tmp_path / "alike.json")
    assert np.array_equal(CardModel.load(alike).badge_shape, CardModel.load().badge_shape)
