"""The synthetic scene generator: seeded, ground truth consistent with the layout (issue 3 'synthetic scene
generator')."""
import numpy as np

from vision.synthetic import Conditions, SceneGenerator


def test_same_seed_same_scene():
    a = SceneGenerator(9, use_scans=False).random_scene()
    b = SceneGenerator(9, use_scans=False).random_scene()
    assert np.array_equal(a.frame, b.frame)
    assert [t.card_id for t in a.cards] == [t.card_id for t in b.cards]


def test_layout_is_rendered_with_truth_in_frame():
    generator = SceneGenerator(1, use_scans=False)
    layout = {0: [[1, 2, 3], [40]], 1: [[60, 61]], 2: [[80]], 3: [[100, 101, 102]]}
    scene = generator.render(layout, Conditions(card_width_px=150, tilt_deg=20, tilt_axis_deg=30))
    assert scene.layout == layout
    assert sorted(t.card_id for t in scene.cards) == sorted(i for cs in layout.values() for c in cs for i in c)
    height, width = scene.frame.shape[:2]
    for truth in scene.cards:
        assert (truth.corners >= 0).all() and (truth.corners[:, 0] < width).all() and (truth.corners[:, 1] < height).all()
        assert 110 < truth.width_px < 200
    slots = {t.card_id: t.slot for t in scene.cards}
    assert (slots[100], slots[101], slots[102]) == ("legs", "torso", "head")


def test_cards_in_a_column_abut():
    scene = SceneGenerator(2, use_scans=False).render({0: [[1, 2]]}, Conditions(card_width_px=200, jitter_deg=0))
    legs, torso = sorted(scene.cards, key=lambda t: t.slot != "legs")
    gap = np.linalg.norm(legs.corners[0] - torso.corners[3])
    assert gap < 0.03 * legs.width_px


def test_hand_marks_covered_cards():
    generator = SceneGenerator(0, use_scans=False)
    covered = 0
    for _ in range(6):
        scene = generator.random_scene(hand=True)
        covered += sum(t.occluded for t in scene.cards)
    assert covered > 0


def test_silhouette_layout_is_what_the_scans_give(needs_scans):
    """vision/params/silhouette.json holds numbers learned from the training scans by vision.learn_layout."""
    import json

    from vision.learn_layout import SILHOUETTE_FILE, learn

    stored = json.loads(SILHOUETTE_FILE.read_text())
    assert learn() == stored
    head, legs = stored["part_centres"]["head"], stored["part_centres"]["legs"]
    assert head[1] < legs[1], "the head is above the legs in the badge"
