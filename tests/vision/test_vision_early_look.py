"""The early look (`vision.early_look`, stop 43; issue 3's time target): a place whose first features show that it
surely reads below FLOOR as a card is read as no card without the rest of its features. It must change no reading
that matters, and hold only for the card head it was learned with."""
import copy

import numpy as np
import pytest

from vision import early_look
from vision.early_look import FLOOR, EarlyLook, card_head_digest, learned_record, rest_scores
from vision.features import LOOKS, card_features
from vision.model import SHARPNESS, CardModel
from vision.synthetic import SceneGenerator


def _card_probability(model: CardModel, features: np.ndarray) -> float:
    return float(model.probabilities(features)["card"][0, 0])


def test_each_look_shows_the_features_at_its_place_in_the_vector():
    """What card_features shows at each look is, bit for bit, the whole vector's features at LOOKS[look]; and the
    vector is the same whether or not anything looks."""
    scene = SceneGenerator(3, use_scans=False).random_scene()
    shown: list[tuple[int, np.ndarray]] = []

    def watch(look, features):
        shown.append((look, features.copy()))
        return False

    for truth in scene.cards[:4]:
        shown.clear()
        watched = card_features(scene.frame, truth.corners, give_up=watch)
        assert np.array_equal(watched, card_features(scene.frame, truth.corners))
        assert [look for look, _ in shown] == list(range(len(LOOKS)))
        for look, features in shown:
            assert features.dtype == watched.dtype and np.array_equal(features, watched[LOOKS[look]]), look


def test_a_look_that_gives_up_stops_the_features():
    scene = SceneGenerator(3, use_scans=False).random_scene()
    corners = scene.cards[0].corners
    for stop_at in range(len(LOOKS)):
        looks = []

        def give_up(look, features):
            looks.append(look)
            return look == stop_at

        assert card_features(scene.frame, corners, give_up=give_up) is None
        assert looks == list(range(stop_at + 1))


def test_the_early_look_holds_only_for_the_card_head_it_was_learned_with(tmp_path):
    shipped = CardModel.load()
    assert EarlyLook.of(shipped) is not None  # the shipped parameters record it
    shipped.save(tmp_path / "taught.json")  # as teaching saves a model whose card head it keeps
    reloaded = EarlyLook.of(CardModel.load(tmp_path / "taught.json"))
    assert reloaded is not None and reloaded.rest_at_most == EarlyLook.of(shipped).rest_at_most
    retrained = copy.deepcopy(shipped)
    retrained.weights["card"] = retrained.weights["card"].copy()
    retrained.weights["card"][0, 0] += 1e-3
    assert card_head_digest(retrained) != card_head_digest(shipped)
    assert EarlyLook.of(retrained) is None
    for broken in (None, "x", {}, {"card head": card_head_digest(shipped)},
                   {"card head": card_head_digest(shipped), "rest at most": [0.1]},
                   {"card head": card_head_digest(shipped), "rest at most": ["nan", 0.1]}):
        model = copy.deepcopy(shipped)
        model.about = dict(model.about) | {early_look.RECORD: broken}
        assert EarlyLook.of(model) is None, broken
    assert EarlyLook.of(None) is None


def test_a_learned_record_gives_up_only_below_the_floor_on_the_places_it_was_learned_from():
    """The record bounds what the rest of the features add; so, on the rows it was learned from, every place a look
    gives up on reads below FLOOR with its whole vector, and a look gives up on some of them."""
    shipped = CardModel.load()
    scene = SceneGenerator(8, use_scans=False).random_scene()
    rng = np.random.default_rng(0)
    places = [truth.corners + rng.normal(0, spread, (4, 2)) for truth in scene.cards
              for spread in (0.0, 15.0, 40.0)] + [truth.corners[::-1] for truth in scene.cards]
    rows = np.stack([card_features(scene.frame, place) for place in places])
    model = copy.deepcopy(shipped)
    model.about = dict(model.about) | {early_look.RECORD: learned_record(shipped, rows, "a test")}
    look = EarlyLook.of(model)
    floor_score = np.log(FLOOR / (1 - FLOOR)) / SHARPNESS
    for index in range(len(LOOKS)):
        assert look.least_scores[index] + rest_scores(shipped, rows, index).max() < floor_score
    given_up = 0
    for row in rows:
        for index, features in enumerate(LOOKS):
            if look(index, row[features]):
                given_up += 1
                assert _card_probability(shipped, row) < FLOOR
                break
    assert given_up > 0


@pytest.mark.usefixtures("needs_scans")
def test_no_place_the_shipped_early_look_gives_up_on_would_have_read_as_a_card(recogniser, monkeypatch):
    """On training scenes other than those it was learned from (seeds 70-72: plain, pushed together, and through a
    camera 1.4 times as saturated), every place the shipped early look gives up on reads below its floor (FLOOR, or
    the least its reader makes anything of) with its whole vector, and the cards read are the same as with the early
    look off."""
    import vision.features
    from vision.bench import bench_cards
    from vision.pipeline import LONE_CARD, Recogniser

    assert recogniser.early_look is not None
    whole_features = vision.features.card_features
    given_up = []

    def checked(frame, corners, badge=None, give_up=None, least=None):
        features = whole_features(frame, corners, badge, give_up, least)
        if features is None:
            whole = _card_probability(recogniser.model, whole_features(frame, corners, badge, least=least))
            given_up.append((give_up.floor, whole))
        return features

    monkeypatch.setattr(vision.features, "card_features", checked)
    without_look = Recogniser()
    without_look.early_look = None
    card_ids = [card.id for card in bench_cards(False)]
    for seed, touching, printing in ((70, False, None), (71, True, None), (72, False, (0.0, 1.4))):
        generator = SceneGenerator(seed, card_ids=card_ids, printing=printing, touching=touching)
        for _ in range(2):
            frame = generator.random_scene().frame
            assert recogniser.scan(frame).cards == without_look.scan(frame).cards, seed
    assert len(given_up) >= 10 and all(whole < floor for floor, whole in given_up), max(given_up, key=lambda x: x[1])
    # Readers that take only places reading surely as cards (vision.pipeline.LONE_CARD and above) give up on more.
    assert {floor for floor, _ in given_up} >= {FLOOR, LONE_CARD}


def test_training_a_new_card_head_learns_its_early_look_and_relearning_another_head_keeps_it(monkeypatch, tmp_path):
    """`python -m vision.train` writes a new model; where its card head is new, the bound learned for the old one
    does not hold, so training goes on to learn the early look for it (into the same file)."""
    import vision.train

    shipped = CardModel.load()
    learned = []
    monkeypatch.setattr(early_look, "main", lambda argv: learned.append(argv) or 0)
    for new_card_head in (False, True):
        model = copy.deepcopy(shipped)
        if new_card_head:
            model.weights["card"] = model.weights["card"] * 1.01
        monkeypatch.setattr(vision.train, "train", lambda *args, **kwargs: model)
        out = tmp_path / f"model-{new_card_head}.json"
        assert vision.train.main(["--out", str(out)]) == 0
        assert out.is_file()
        assert learned == ([["--params", str(out)]] if new_card_head else []), new_card_head


def test_a_higher_floor_gives_up_on_more_and_never_on_a_place_reading_above_it():
    """`at_least`: a reader that takes only places reading surely as cards gives up on every place a lower floor gives
    up on and more, and the bound still holds at each floor (over places around the cards of a stand-in scene)."""
    shipped = CardModel.load()
    look = EarlyLook.of(shipped)
    scene = SceneGenerator(8, use_scans=False).random_scene()
    rng = np.random.default_rng(1)
    rows = np.stack([card_features(scene.frame, truth.corners + rng.normal(0, spread, (4, 2)))
                     for truth in scene.cards for spread in (0.0, 10.0, 25.0)])
    probabilities = np.array([_card_probability(shipped, row) for row in rows])
    given_up = {}
    for floor in (FLOOR, 0.5, 0.85, 0.97):
        floored = look.at_least(floor)
        assert floored.floor == floor and look.floor == FLOOR
        given_up[floor] = {i for i, row in enumerate(rows)
                           if any(floored(index, row[features]) for index, features in enumerate(LOOKS))}
        assert all(probabilities[i] < floor for i in given_up[floor])
    assert given_up[FLOOR] <= given_up[0.5] <= given_up[0.85] <= given_up[0.97]
    assert len(given_up[0.97]) > len(given_up[FLOOR])


def test_the_places_it_is_learned_from_are_every_place_read_past_the_badge_gate(monkeypatch):
    """`places_read` (what `python -m vision.early_look` learns from) reads training scenes of each kind with the early
    look off and keeps the whole vector of every place read past the badge gate."""
    monkeypatch.setattr(early_look, "PRINTINGS", ((0.0, 1.0), (0.0, 0.6)))
    rows = early_look.places_read(1)
    shipped = CardModel.load()
    assert rows.ndim == 2 and rows.shape[1] == shipped.feature_count and len(rows) >= 10
    assert np.all(rows[:, -1] == 1.0)  # whole vectors (their constant last feature), none blank
    assert max(_card_probability(shipped, row) for row in rows) > 0.9  # the cards among them too
