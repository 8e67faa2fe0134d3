"""Seat, creature and slot assignment from card corners (issue 3: 'Cards are then assigned to a seat, grouped into
creatures and ordered legs, torso, head'; RULES.md 1: a creature is a column legs-torso-head, legs nearest its
owner)."""
import json

import numpy as np
import pytest
from hypothesis import given, settings, strategies as st

from vision.geometry import Calibration, CalibrationError, assign
from vision.synthetic import Conditions, SceneGenerator
from vision.table_state import SeenCard


def _seen(truth) -> SeenCard:
    return SeenCard(truth.legion, truth.parts, truth.ability, tuple(map(tuple, truth.corners)), 1.0)


def _check_assignment(scene):
    calibration = Calibration.from_json({"table_corners": scene.table_corners.tolist()})
    placed, middle = assign([_seen(t) for t in scene.cards], calibration)
    by_centre = {tuple(np.round(np.mean(c.corners, axis=0), 3)): c for c in placed}
    for truth in scene.cards:
        card = by_centre.get(tuple(np.round(truth.corners.mean(axis=0), 3)))
        if truth.seat is None:
            assert card is None, "the discard pile is not part of any creature"
        else:
            assert card is not None
            assert (card.seat, card.creature, card.slot) == (truth.seat, truth.creature, truth.slot)
    assert len(middle) == sum(t.seat is None for t in scene.cards)


@settings(max_examples=25, deadline=None)
@given(seed=st.integers(0, 10_000), tilt=st.floats(0, 25), width=st.floats(140, 330), spin=st.floats(-8, 8))
def test_assignment_matches_the_layout(seed, tilt, width, spin):
    generator = SceneGenerator(seed, size=(820, 616), use_scans=False)
    conditions = Conditions(card_width_px=width / 2, tilt_deg=tilt, tilt_axis_deg=seed % 360, spin_deg=spin,
                            noise=0, jitter_deg=6)
    scene = generator.render(generator.random_layout(), conditions, discard_id=5, deck=True)
    _check_assignment(scene)


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(0, 10_000), tilt=st.floats(0, 25), width=st.floats(140, 330), bend=st.floats(-0.25, 0.0))
def test_assignment_holds_through_a_wide_angle_lens(seed, tilt, width, bend):
    """Cards and markers seen through a lens that bows straight lines (vision.lens; at -0.25 the picture's top
    edge bows by 10% of its height), with the calibration taken from the bent picture as `calibrate --image` takes
    it: the seats, creatures and slots are still the table's (docs/vision.md, "Seats, creatures and slots")."""
    generator = SceneGenerator(seed, size=(820, 616), use_scans=False, lens=bend)
    conditions = Conditions(card_width_px=width / 2, tilt_deg=tilt, tilt_axis_deg=seed % 360, noise=0, jitter_deg=6,
                            markers=True)
    scene = generator.render(generator.random_layout(), conditions, discard_id=5, deck=True)
    _check_assignment(scene)


def test_without_calibration_the_frame_is_the_table():
    generator = SceneGenerator(3, use_scans=False)
    scene = generator.render({0: [[1, 2, 3]], 2: [[4, 5]]}, Conditions(card_width_px=180))
    calibration = Calibration.image_plane(*generator.size)
    placed, _ = assign([_seen(t) for t in scene.cards], calibration)
    assert sorted((c.seat, c.slot) for c in placed) == sorted((t.seat, t.slot) for t in scene.cards)


@pytest.mark.parametrize("content", ["", "{", "[]", '{"table_corners": [[0, 0], [1, 1]]}',
                                     '{"table_corners": [[0, 0], [0, 0], [0, 0], [0, 0]]}',
                                     '{"table_corners": "abcd"}'])
def test_bad_calibration_files_are_rejected_clearly(tmp_path, content):
    path = tmp_path / "calibration.json"
    path.write_text(content, encoding="utf-8")
    with pytest.raises(CalibrationError) as error:
        Calibration.load(path)
    assert "calibration" in str(error.value) or "corners" in str(error.value)


def test_calibration_round_trips(tmp_path):
    calibration = Calibration(((1.0, 2.0), (300.0, 5.0), (310.0, 200.0), (0.0, 190.0)))
    path = tmp_path / "c.json"
    calibration.save(path)
    assert Calibration.load(path) == calibration
    assert json.loads(path.read_text())["table_corners"][1] == [300.0, 5.0]


def test_a_calibration_keeps_the_size_of_the_picture_it_was_found_in(tmp_path):
    calibration = Calibration(((1.0, 2.0), (300.0, 5.0), (310.0, 200.0), (0.0, 190.0)), (320, 240))
    path = tmp_path / "c.json"
    calibration.save(path)
    assert Calibration.load(path) == calibration
    assert json.loads(path.read_text())["picture_size"] == [320, 240]
    old = tmp_path / "old.json"  # written before the size was kept: used as it is, whatever the picture
    old.write_text(json.dumps({"table_corners": [[1, 2], [300, 5], [310, 200], [0, 190]]}), encoding="utf-8")
    assert Calibration.load(old).for_picture(640, 480) == Calibration.load(old)


@pytest.mark.parametrize("size", ["[0, 240]", "[320]", '"big"', "[-5, 10]"])
def test_a_bad_picture_size_is_rejected_clearly(tmp_path, size):
    path = tmp_path / "calibration.json"
    path.write_text('{"table_corners": [[0, 0], [10, 0], [10, 10], [0, 10]], "picture_size": %s}' % size,
                    encoding="utf-8")
    with pytest.raises(CalibrationError, match="picture_size"):
        Calibration.load(path)


@settings(max_examples=20, deadline=None)
@given(seed=st.integers(0, 10_000), factor=st.sampled_from([0.5, 0.78, 2.0]))
def test_a_calibration_scaled_to_another_picture_size_assigns_the_same_seats(seed, factor):
    """The same view at another resolution (a photo at full size calibrated, the camera run at 1280x960): the
    corners scale with the picture, and every card keeps its seat, creature and slot."""
    generator = SceneGenerator(seed, size=(820, 616), use_scans=False)
    scene = generator.render(generator.random_layout(), Conditions(card_width_px=110, noise=0, jitter_deg=6),
                             discard_id=5)
    found_at = (round(820 * factor), round(616 * factor))
    scale = np.array(found_at) / (820, 616)
    calibration = Calibration(tuple(map(tuple, scene.table_corners * scale)), found_at).for_picture(820, 616)
    assert np.allclose(calibration.table_corners, scene.table_corners, atol=1e-6)
    placed, middle = assign([_seen(t) for t in scene.cards], calibration)
    expected, _ = assign([_seen(t) for t in scene.cards], Calibration.from_json(
        {"table_corners": scene.table_corners.tolist()}))
    assert [(c.seat, c.creature, c.slot) for c in placed] == [(c.seat, c.creature, c.slot) for c in expected]
