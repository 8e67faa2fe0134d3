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


def test_a_lone_scene_lays_one_card_alone_before_a_seat():
    """`lone_scene` (`companion vision bench --lone`): the table as a game starts, one card at one of the four seats
    and no discard; the seat and the card vary from scene to scene."""
    generator = SceneGenerator(3, use_scans=False)
    scenes = [generator.lone_scene() for _ in range(12)]
    for scene in scenes:
        assert scene.discard_id is None
        assert len(scene.layout) <= 1 and all(creatures == [[creatures[0][0]]] for creatures in scene.layout.values())
        assert [truth.card_id for truth in scene.cards] == [column[0] for creatures in scene.layout.values()
                                                            for column in creatures]
    laid = [scene for scene in scenes if scene.cards]
    assert len(laid) >= 10  # a card that does not fit in the frame is left out, rarely
    assert len({scene.cards[0].seat for scene in laid}) > 1 and len({scene.cards[0].card_id for scene in laid}) > 1


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


def test_other_art_is_drawn_only_where_an_icon_would_be():
    """Cards with no ability can be drawn with other art of their own where an icon would be (`icon_art`): the
    rest of the face is untouched, and the piece fades in (no hard edge the heads could learn)."""
    from vision.cards import CARD_HEIGHT, CARD_WIDTH
    from vision.synthetic import ICON_ART_BOX, with_other_art

    rng = np.random.default_rng(3)
    face = rng.integers(0, 256, (CARD_HEIGHT, CARD_WIDTH, 3)).astype(np.uint8)
    face[ICON_ART_BOX[1]:ICON_ART_BOX[3], ICON_ART_BOX[0]:ICON_ART_BOX[2]] = 0  # a dark place, lit art
    drawn = with_other_art(face, rng)
    outside = np.ones((CARD_HEIGHT, CARD_WIDTH), bool)
    outside[ICON_ART_BOX[1]:ICON_ART_BOX[3], ICON_ART_BOX[0]:ICON_ART_BOX[2]] = False
    assert np.array_equal(drawn[outside], face[outside])
    place = drawn[ICON_ART_BOX[1]:ICON_ART_BOX[3], ICON_ART_BOX[0]:ICON_ART_BOX[2]].astype(float).mean(axis=2)
    middle = place[place.shape[0] // 2 - 10:place.shape[0] // 2 + 10, place.shape[1] // 2 - 10:place.shape[1] // 2 + 10]
    assert middle.mean() > 100  # the other art is there
    assert place[:3].mean() < 20 and place[:, :3].mean() < 20  # faded out towards the box's edges


def test_icon_art_changes_only_faces_of_cards_with_no_ability():
    import cv2

    from vision.cards import card_by_id

    layout = {0: [[3, 1]], 2: [[4, 5]]}  # 3 and 4 have no ability, 1 and 5 have one
    assert card_by_id(3).ability is None and card_by_id(4).ability is None
    assert card_by_id(1).ability and card_by_id(5).ability
    conditions = Conditions(card_width_px=300, jitter_deg=0, glare=False)
    plain = SceneGenerator(5, use_scans=False).render(layout, conditions)
    other = SceneGenerator(5, use_scans=False, icon_art=1.0).render(layout, conditions)
    assert [t.corners.tolist() for t in plain.cards] == [t.corners.tolist() for t in other.cards]
    changed = np.abs(plain.frame.astype(int) - other.frame.astype(int)).max(axis=2) > 40
    for truth in plain.cards:
        mask = np.zeros(changed.shape, np.uint8)
        cv2.fillConvexPoly(mask, truth.corners.astype(np.int32), 1)
        share = changed[mask.astype(bool)].mean()
        if truth.ability is None:
            assert share > 0.005, truth.card_id
        else:
            assert share == 0, truth.card_id


def test_a_reprinted_face_turns_its_hues_and_keeps_its_white():
    """Another printing, or a camera whose colours differ (docs/vision-history.md, stop 36): the inks' hues turn,
    white stays white (so the white balance cannot undo it), and nothing changes when nothing is asked."""
    import cv2

    from vision.synthetic import reprinted

    face = np.zeros((4, 8, 3), np.uint8)
    face[:, :4] = (255, 255, 255)
    face[:, 4:] = (40, 40, 200)  # a red ink: hue 0
    assert reprinted(face) is face
    turned = reprinted(face, 20.0)
    assert np.array_equal(turned[:, :4], face[:, :4])
    hue = cv2.cvtColor(turned[:, 4:], cv2.COLOR_BGR2HSV)[..., 0]
    assert np.all(np.abs(hue.astype(int) - 10) <= 1)  # OpenCV's hue is in half degrees
    washed = cv2.cvtColor(reprinted(face, 0.0, 0.5)[:, 4:], cv2.COLOR_BGR2HSV)[..., 1]
    assert np.all(np.abs(washed.astype(int) - cv2.cvtColor(face[:, 4:], cv2.COLOR_BGR2HSV)[..., 1] // 2) <= 2)


def test_a_printing_changes_the_faces_not_the_scene():
    plain = SceneGenerator(8, use_scans=False).random_scene()
    other = SceneGenerator(8, use_scans=False, printing=(15.0, 1.0)).random_scene()
    assert [(t.card_id, t.seat, t.slot) for t in plain.cards] == [(t.card_id, t.seat, t.slot) for t in other.cards]
    assert all(np.allclose(a.corners, b.corners) for a, b in zip(plain.cards, other.cards, strict=True))
    assert not np.array_equal(plain.frame, other.frame)


def test_a_finer_picture_shows_the_same_table():
    """`pixel_scale` (`companion vision bench --frame-scale`): the same seed lays the same table, seen in a picture
    twice as large each way (a sensor read at full resolution), its cards twice as long at twice the coordinates;
    `binned` (`--binned`), with each 2x2 block of the sensor's pixels averaged into one, it looks like the picture at
    the usual size."""
    import cv2

    usual = SceneGenerator(5, use_scans=False).random_scene()
    finer = SceneGenerator(5, use_scans=False, pixel_scale=2).random_scene()
    assert finer.frame.shape == (2 * usual.frame.shape[0], 2 * usual.frame.shape[1], 3)
    assert [t.card_id for t in finer.cards] == [t.card_id for t in usual.cards] and usual.cards
    for small, large in zip(usual.cards, finer.cards):
        assert np.allclose(large.corners, 2 * small.corners, atol=1e-6)
    assert finer.conditions.blur == 2 * usual.conditions.blur and finer.conditions.noise == 2 * usual.conditions.noise
    binned = SceneGenerator(5, use_scans=False, pixel_scale=2, binned=True).random_scene()
    assert binned.frame.shape == usual.frame.shape
    assert all(np.allclose(a.corners, b.corners, atol=1e-6) for a, b in zip(binned.cards, usual.cards))
    assert np.allclose(binned.table_corners, usual.table_corners, atol=1e-6)
    # The same table and cards: close pixel for pixel (sensor noise and JPEG differ), unlike another scene's picture.
    difference = cv2.absdiff(binned.frame, usual.frame).mean()
    other = SceneGenerator(6, use_scans=False).random_scene()
    assert difference < 10 < cv2.absdiff(other.frame, usual.frame).mean()


def test_table_texture_drawn_finer_is_the_same_table():
    """The table's grain, weave and checks scale with `pixel_scale`: the texture drawn twice as fine and averaged down
    is the usual one, near enough (only the resampling of its smooth noise differs)."""
    import cv2

    from vision.synthetic import TABLES, table_texture

    for kind in TABLES:
        usual = table_texture(kind, (320, 240), np.random.default_rng(4))
        finer = table_texture(kind, (640, 480), np.random.default_rng(4), pixel_scale=2)
        averaged = cv2.resize(finer, (320, 240), interpolation=cv2.INTER_AREA)
        correlation = np.corrcoef(averaged.ravel(), usual.ravel())[0, 1]
        assert correlation > 0.99, kind  # drawn at pixel scale 1, the wood and felt correlate at 0.9
