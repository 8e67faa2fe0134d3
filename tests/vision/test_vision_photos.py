"""Your own photos (issue 3: "recognise real Nightmarium cards on a real table"; the targets are measured by a bench
command): pictures saved from the camera (`companion vision capture`) and labelled by hand in the format
`companion vision scan --json` prints are scored as the bench scores its synthetic scenes
(`companion vision bench --photos FOLDER`). Bad label files and unreadable pictures give clear messages."""
import json
import re

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.bench import Tally, score
from vision.photos import (LABELS_NAME, LabelError, LabelledCard, LabelledPhoto, capture, label_line, read_labels,
                           run_photos)
from vision.pipeline import ScanResult
from vision.sources import CameraError, FrameSource
from vision.synthetic import Conditions, SceneGenerator
from vision.table_state import SeenCard


class SceneSource(FrameSource):
    """Given scenes in turn, each frame with its truths as `scene` (as the synthetic source gives them), then a
    camera error: a camera unplugged after them."""

    def __init__(self, scenes):
        self.scenes, self.scene = list(scenes), None

    def read(self):
        if not self.scenes:
            raise CameraError("the camera gave no picture (unplugged?)")
        self.scene = self.scenes.pop(0)
        return self.scene.frame


class ReadsAsLabelled:
    """A recogniser that reads each picture as told: `readings[i]` for the i-th picture scanned."""

    def __init__(self, readings):
        self.readings, self.scans = list(readings), 0

    def scan(self, frame):
        self.scans += 1
        return ScanResult(cards=self.readings.pop(0), ms=5.0)


@pytest.fixture(scope="module")
def scenes():
    generator = SceneGenerator(21, use_scans=False)
    return [generator.render({0: [[1, 30]], 2: [[60]]}, Conditions(card_width_px=260, noise=1)),
            generator.render({1: [[12], [47, 83]]}, Conditions(card_width_px=220, noise=1, spin_deg=4))]


def _seen(card: LabelledCard, confidence: float = 0.9, **changes) -> SeenCard:
    facts = {"legion": card.legion, "parts": card.parts, "ability": card.ability, **changes}
    return SeenCard(corners=tuple(map(tuple, card.corners.tolist())), confidence=confidence, **facts)


def _write(folder, lines: list[str]):
    (folder / LABELS_NAME).write_text("\n".join(lines) + "\n")
    return folder / LABELS_NAME


def test_captured_pictures_read_as_their_frames_and_score_as_the_bench_scores_them(scenes, recogniser, tmp_path):
    saved = capture(SceneSource(scenes), tmp_path, count=2, suffix=".png")
    photos = read_labels(tmp_path)
    assert [photo.image for photo in photos] == saved
    for photo, scene in zip(photos, scenes):
        assert [(c.legion, c.parts, c.ability, c.occluded) for c in photo.cards] == \
               [(t.legion, tuple(t.parts), t.ability, t.occluded) for t in scene.cards]
        assert np.allclose([c.corners for c in photo.cards], [t.corners for t in scene.cards], atol=0.05)
    from_photos = run_photos(photos, recogniser)
    in_memory = Tally()
    for scene in scenes:
        score(in_memory, recogniser.scan(scene.frame).cards, scene.cards)
    assert in_memory.visible == 6 and in_memory.found >= 5  # the scenes are readable: the comparison means something
    counted = ("visible", "found", "reported", "true_reports", "legion", "parts", "ability", "all_facts",
               "confident_wrong", "trusted", "occluded", "occluded_confident_wrong")
    assert {key: getattr(from_photos, key) for key in counted} == {key: getattr(in_memory, key) for key in counted}
    assert len(from_photos.times) == 2 and not from_photos.errors


def test_a_card_read_otherwise_than_labelled_counts_against_that_fact_only(tmp_path):
    cards = [LabelledCard("red", ("torso",), "jester", np.array([[0, 0], [200, 0], [200, 130], [0, 130]], float)),
             LabelledCard("blue", ("legs",), None, np.array([[0, 200], [200, 200], [200, 330], [0, 330]], float))]
    photos = [LabelledPhoto(tmp_path / "a.png", tuple(cards))]
    cv2.imwrite(str(photos[0].image), np.zeros((400, 300, 3), np.uint8))
    tally = run_photos(photos, ReadsAsLabelled([[_seen(cards[0]), _seen(cards[1], legion="green")]]))
    assert (tally.visible, tally.found, tally.legion, tally.parts, tally.ability) == (2, 2, 1, 2, 2)
    assert tally.confident_wrong == 1 and tally.trusted == 1
    tally = run_photos(photos, ReadsAsLabelled([[_seen(cards[0], confidence=0.5)]]))  # one missed, one doubtful
    assert (tally.visible, tally.found, tally.all_facts, tally.trusted) == (2, 1, 1, 0)


def test_each_card_missed_read_wrong_or_read_where_none_is_labelled_is_named(tmp_path):
    def at(x: float, y: float) -> np.ndarray:
        return np.array([[x, y], [x + 200, y], [x + 200, y + 130], [x, y + 130]], float)

    cards = (LabelledCard("red", ("torso",), "jester", at(0, 0)),
             LabelledCard("blue", ("legs", "torso"), None, at(0, 200)),
             LabelledCard("green", ("head",), "herald", at(300, 0)),
             LabelledCard("brown", ("legs",), "mourner", at(300, 200), covered=True),
             LabelledCard("brown", ("head",), None, at(600, 0), covered=True))
    image = tmp_path / "photo-0004.png"
    cv2.imwrite(str(image), np.zeros((400, 900, 3), np.uint8))
    readings = [_seen(cards[0]),  # right
                _seen(cards[1], confidence=0.5, ability="scavenger"),  # wrong, unsure
                _seen(cards[3], confidence=0.9, ability=None),  # covered, wrong, surely: counted
                _seen(cards[4], confidence=0.5, legion="red"),  # covered, wrong, unsure: as the bench, not said
                SeenCard("red", ("head",), "devourer", tuple(map(tuple, at(600, 250).tolist())), 0.7)]
    mistakes = []
    run_photos([LabelledPhoto(image, cards)], ReadsAsLabelled([readings]), mistakes=mistakes)
    assert mistakes == [
        "photo-0004.png: card 2 (blue legs+torso no ability) read as blue legs+torso scavenger, confidence 0.50",
        "photo-0004.png: card 4 (brown legs mourner, covered) read as brown legs no ability, confidence 0.90 (surely)",
        "photo-0004.png: a card read where none is labelled, red head devourer at [700, 315], confidence 0.70",
        "photo-0004.png: card 3 (green head herald) not found"]


def test_a_card_labelled_covered_is_left_out_of_recall_but_a_sure_wrong_reading_of_it_counts(tmp_path):
    corners = np.array([[10, 10], [210, 10], [210, 140], [10, 140]], float)
    covered = LabelledCard("brown", ("head",), "herald", corners, covered=True)
    image = tmp_path / "hand.png"
    cv2.imwrite(str(image), np.zeros((200, 300, 3), np.uint8))
    photos = [LabelledPhoto(image, (covered,))]
    tally = run_photos(photos, ReadsAsLabelled([[]]))
    assert (tally.visible, tally.occluded, tally.found) == (0, 1, 0)
    tally = run_photos(photos, ReadsAsLabelled([[_seen(covered, confidence=0.8, ability=None)]]))
    assert tally.occluded_confident_wrong == 1
    tally = run_photos(photos, ReadsAsLabelled([[_seen(covered, confidence=0.5, ability=None)]]))
    assert tally.occluded_confident_wrong == 0


def test_scan_output_is_a_label_file_and_pictures_are_found_by_name_beside_it(scenes, tmp_path, capsys,
                                                                              monkeypatch):
    folder = tmp_path / "photos"
    capture(SceneSource(scenes[:1]), folder, count=1, suffix=".png")
    (folder / LABELS_NAME).unlink()  # as a real camera's pictures come: no truth
    monkeypatch.chdir(tmp_path)
    assert main(["vision", "scan", "photos/photo-0001.png", "--json"]) == 0
    scanned = capsys.readouterr().out
    assert json.loads(scanned)["cards"]  # something to label
    (folder / LABELS_NAME).write_text(scanned)  # names the picture as given here, not beside the label file
    assert main(["vision", "bench", "--photos", str(folder)]) == 0
    out = capsys.readouterr().out
    found = len(json.loads(scanned)["cards"])
    assert "1 pictures" in out and f"detection recall     100.00% ({found}/{found})" in out
    assert f"legion accuracy      100.00% ({found}/{found})" in out and "ability accuracy     100.00%" in out
    assert "what was read wrong" not in out
    label = json.loads(scanned)
    first = label["cards"][0]
    first["legion"] = "blue" if first["legion"] != "blue" else "red"  # the label says otherwise than was read
    (folder / LABELS_NAME).write_text(json.dumps(label) + "\n")
    assert main(["vision", "bench", "--photos", str(folder)]) == 0
    out = capsys.readouterr().out
    assert f"legion accuracy      {100 * (found - 1) / found:6.2f}% ({found - 1}/{found})" in out
    assert "what was read wrong (1):" in out and "photo-0001.png: card 1 (" in out


def test_a_picture_that_cannot_be_read_is_an_error_and_the_others_are_still_scored(tmp_path):
    card = LabelledCard("green", ("head",), "devourer", np.array([[0, 0], [200, 0], [200, 130], [0, 130]], float))
    good = tmp_path / "good.png"
    cv2.imwrite(str(good), np.zeros((200, 300, 3), np.uint8))
    (tmp_path / "cut.jpg").write_bytes(b"\xff\xd8\xff\xe0 cut short")
    photos = [LabelledPhoto(tmp_path / "missing.jpg", (card,)), LabelledPhoto(tmp_path / "cut.jpg", (card,)),
              LabelledPhoto(good, (card,))]
    told = []
    recogniser = ReadsAsLabelled([[_seen(card)]])
    tally = run_photos(photos, recogniser, progress=lambda done, total: told.append((done, total)))
    assert recogniser.scans == 1 and (tally.visible, tally.found, tally.all_facts) == (1, 1, 1)
    assert len(tally.errors) == 2 and "does not exist" in tally.errors[0] and "could not be read" in tally.errors[1]
    assert told == [(1, 3), (2, 3), (3, 3)]


GOOD_CARD = {"legion": "red", "parts": ["legs", "torso"], "ability": None, "corners": [[0, 0], [9, 0], [9, 6], [0, 6]]}


@pytest.mark.parametrize("line, says", [
    ('{"image": "a.jpg", "cards": [', "line 2: not JSON"),  # a label file cut short while written
    ('["a.jpg"]', 'needs "image"'),
    ('{"image": "a.jpg", "cards": {}}', 'needs "image"'),
    (json.dumps({"image": "a.jpg", "cards": [dict(GOOD_CARD, legion="purple")]}), "card 1: legion 'purple'"),
    (json.dumps({"image": "a.jpg", "cards": [dict(GOOD_CARD, parts=["torso", "legs"])]}), "in that order"),
    (json.dumps({"image": "a.jpg", "cards": [dict(GOOD_CARD, parts=[])]}), "parts []"),
    (json.dumps({"image": "a.jpg", "cards": [dict(GOOD_CARD, ability="bones")]}), "ability 'bones'"),
    (json.dumps({"image": "a.jpg", "cards": [dict(GOOD_CARD, corners=[[0, 0], [9, 0], [9, 6]])]}), "four [x, y]"),
    (json.dumps({"image": "a.jpg", "cards": [dict(GOOD_CARD, corners="here")]}), "four [x, y]"),
    (json.dumps({"image": "a.jpg", "cards": [dict(GOOD_CARD, covered="yes")]}), "true or false"),
    (json.dumps({"image": "a.jpg", "cards": ["red"]}), "card 1: a card is an object"),
])
def test_a_bad_label_line_is_named_with_its_line(tmp_path, line, says):
    path = _write(tmp_path, [label_line("ok.jpg", [LabelledCard("blue", ("head",), None, np.zeros((4, 2)))]), line])
    with pytest.raises(LabelError, match=re.escape(says)) as raised:
        read_labels(path)
    assert f"{path}, line 2" in str(raised.value)


def test_no_label_file_or_an_empty_one_is_a_clear_error_and_the_command_says_so(tmp_path, capsys):
    with pytest.raises(LabelError, match="no label file"):
        read_labels(tmp_path)
    _write(tmp_path, [""])
    with pytest.raises(LabelError, match="labels no picture"):
        read_labels(tmp_path)
    assert main(["vision", "bench", "--photos", str(tmp_path / "elsewhere")]) == 2
    assert "no label file" in capsys.readouterr().err


def test_capture_numbers_after_the_pictures_there_and_keeps_them_when_the_camera_goes(scenes, tmp_path):
    (tmp_path / "photo-0007.jpg").write_bytes(b"an earlier picture")
    waits = []
    with pytest.raises(CameraError, match="unplugged") as raised:
        capture(SceneSource(scenes), tmp_path, count=3, every=1.5, wait=waits.append)
    assert [path.name for path in raised.value.saved] == ["photo-0008.jpg", "photo-0009.jpg"]
    assert (tmp_path / "photo-0007.jpg").read_bytes() == b"an earlier picture"
    assert waits == [1.5, 1.5]  # between pictures, not before the first
    assert all(cv2.imread(str(path)).shape == scenes[0].frame.shape for path in raised.value.saved)
    assert not list(tmp_path.glob("*.part"))
    assert [photo.image.name for photo in read_labels(tmp_path)] == ["photo-0008.jpg", "photo-0009.jpg"]


def test_the_capture_command_saves_pictures_and_says_how_to_measure_them(tmp_path, capsys):
    assert main(["vision", "capture", "synthetic:4", "--out", str(tmp_path), "--count", "2", "--every", "0"]) == 0
    out = capsys.readouterr().out
    assert "saved 2 picture(s)" in out and f"companion vision bench --photos {tmp_path}" in out
    assert sorted(path.name for path in tmp_path.iterdir()) == ["labels.jsonl", "photo-0001.jpg", "photo-0002.jpg"]
    assert main(["vision", "capture", "usb:x", "--out", str(tmp_path)]) == 2
    assert "not a camera" in capsys.readouterr().err
    assert main(["vision", "capture", "synthetic", "--out", str(tmp_path), "--count", "0"]) == 2


@pytest.mark.parametrize("k1, straightened", [(-0.3, True), (-0.001, False)])
def test_bench_photos_straightens_with_the_saved_lens_only_where_it_bends_enough(scenes, tmp_path, monkeypatch,
                                                                                 capsys, k1, straightened):
    from vision.lens import LensCorrection

    capture(SceneSource(scenes[:1]), tmp_path, count=1, suffix=".png")
    height, width = scenes[0].frame.shape[:2]
    camera = np.array([[width, 0, width / 2], [0, width, height / 2], [0, 0, 1]], float)
    lens = LensCorrection(camera, np.array([k1, 0, 0, 0, 0], float), (width, height)).save(tmp_path / "lens.json")
    monkeypatch.setenv("COMPANION_LENS", str(lens))  # as `companion vision lens` saves it
    assert main(["vision", "bench", "--photos", str(tmp_path)]) == 0
    assert ("straightened with the saved lens" in capsys.readouterr().out) == straightened
