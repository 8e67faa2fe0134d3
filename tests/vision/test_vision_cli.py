"""`companion vision ...` commands: the scan JSON format other tools read (issue 3), clear errors on bad input."""
import json

import cv2
import numpy as np
import pytest

from companion.cli import main
from vision.synthetic import Conditions, SceneGenerator


@pytest.fixture(scope="module")
def scene_file(tmp_path_factory):
    folder = tmp_path_factory.mktemp("scenes")
    scene = SceneGenerator(21, use_scans=False).render({0: [[1, 30]], 2: [[60]]},
                                                       Conditions(card_width_px=260, noise=1))
    path = folder / "table.png"
    cv2.imwrite(str(path), scene.frame)
    calibration = folder / "calibration.json"
    calibration.write_text(json.dumps({"table_corners": scene.table_corners.tolist()}))
    return path, calibration, scene


def test_scan_json_one_object_per_image_in_order(scene_file, tmp_path, capsys):
    path, _, _ = scene_file
    broken = tmp_path / "broken.jpg"
    broken.write_bytes(b"\xff\xd8\xff\xe0 not really")
    status = main(["vision", "scan", str(path), str(broken), "--json"])
    lines = capsys.readouterr().out.strip().splitlines()
    assert status == 1  # one image failed
    first, second = (json.loads(line) for line in lines)
    assert first["image"] == str(path) and first["error"] is None and first["ms"] > 0
    assert second["image"] == str(broken) and second["error"] and second["cards"] == []
    for card in first["cards"]:
        assert card["legion"] in ("blue", "red", "brown", "green")
        assert card["parts"] and all(p in ("legs", "torso", "head") for p in card["parts"])
        assert card["parts"] == sorted(card["parts"], key=["legs", "torso", "head"].index)
        assert card["ability"] in (None, "herald", "mourner", "jester", "executioner", "scavenger", "devourer")
        assert len(card["corners"]) == 4 and all(len(p) == 2 for p in card["corners"])
        assert 0 <= card["confidence"] <= 1
        assert "seat" not in card


def test_scan_with_calibration_adds_seat_creature_slot(scene_file, capsys):
    path, calibration, scene = scene_file
    assert main(["vision", "scan", str(path), "--json", "--calibration", str(calibration)]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    assert cards, "the recogniser should find cards on a plain synthetic table"
    truth_by_centre = [(t.corners.mean(axis=0), t) for t in scene.cards]
    for card in cards:
        centre = np.mean(card["corners"], axis=0)
        truth = min(truth_by_centre, key=lambda item: np.linalg.norm(item[0] - centre))[1]
        assert (card["seat"], card["slot"]) == (truth.seat, truth.slot)


def test_readable_summary_and_debug_images(scene_file, tmp_path, capsys):
    path, _, _ = scene_file
    assert main(["vision", "scan", str(path), "--debug-out", str(tmp_path / "debug")]) == 0
    assert "card(s) in" in capsys.readouterr().out
    assert cv2.imread(str(tmp_path / "debug" / "table.png")) is not None


def test_the_summary_notes_cards_too_small_in_the_picture_and_json_stays_as_it_was(scene_file, tmp_path, capsys):
    """A photo taken to try a camera's mounting: cards 90 px long in a 1640-px picture get a note on what to change
    (vision.framing); cards as measured, none; the JSON lines keep their fields (other tools read them)."""
    small = SceneGenerator(21, use_scans=False).render({0: [[1, 30]], 2: [[60]]},
                                                       Conditions(card_width_px=90, noise=1))
    small_path = tmp_path / "high.png"
    cv2.imwrite(str(small_path), small.frame)
    large_path, _, _ = scene_file
    assert main(["vision", "scan", str(small_path), str(large_path)]) == 0
    out = capsys.readouterr().out
    small_part, large_part = out.split(str(large_path))
    assert "note:" in small_part and "hang the camera lower" in small_part
    assert "note:" not in large_part
    assert main(["vision", "scan", str(small_path), "--json"]) == 0
    line = json.loads(capsys.readouterr().out)
    assert set(line) == {"image", "ms", "cards", "error"}


def test_bad_calibration_is_a_clear_error(scene_file, tmp_path, capsys):
    path, _, _ = scene_file
    bad = tmp_path / "calibration.json"
    bad.write_text("{half written")
    assert main(["vision", "scan", str(path), "--calibration", str(bad)]) == 2
    assert "calibration" in capsys.readouterr().err


def test_markers_sheet_and_calibrate_from_it(tmp_path, capsys):
    sheet = tmp_path / "markers.png"
    assert main(["vision", "markers", "--out", str(sheet)]) == 0
    assert main(["vision", "calibrate", "--image", str(sheet), "--out", str(tmp_path / "cal.json")]) == 0
    assert len(json.loads((tmp_path / "cal.json").read_text())["table_corners"]) == 4


def test_calibrate_by_hand_and_bad_corners(tmp_path, capsys):
    out = tmp_path / "cal.json"
    assert main(["vision", "calibrate", "--corners", "0,500", "800,500", "800,0", "0,0", "--out", str(out)]) == 0
    assert main(["vision", "calibrate", "--corners", "0,0", "0,0", "0,0", "0,0", "--out", str(out)]) == 2
    assert main(["vision", "calibrate", "--corners", "a", "b", "c", "d", "--out", str(out)]) == 2
    assert "error" in capsys.readouterr().err


@pytest.mark.parametrize("command", ["scan", "markers", "calibrate", "bench", "teach", "forget", "lens", "capture"])
def test_every_command_has_help(command, capsys):
    with pytest.raises(SystemExit) as exit_:
        main(["vision", command, "--help"])
    assert exit_.value.code == 0 and "usage" in capsys.readouterr().out


def test_teach_with_unknown_card_fails_clearly(scene_file, tmp_path, capsys):
    path, _, _ = scene_file
    status = main(["vision", "teach", str(path), "--card", "999", "--out", str(tmp_path / "m.json")])
    assert status == 1 and "no card 999" in capsys.readouterr().err
    assert not (tmp_path / "m.json").exists()


def test_teach_adapts_and_saves_a_model_the_recogniser_loads(tmp_path, capsys):
    """issue 3: `companion vision teach`: the user shows their own cards and the recogniser adapts."""
    from vision.pipeline import Recogniser

    scene = SceneGenerator(4, use_scans=False).render({0: [[12]]}, Conditions(card_width_px=300, noise=1))
    picture = tmp_path / "my_card.png"
    cv2.imwrite(str(picture), scene.frame)
    out = tmp_path / "taught.json"
    status = main(["vision", "teach", str(picture), "--card", "12", "--out", str(out), "--samples", "20"])
    printed = capsys.readouterr()
    assert status == 0, printed.err
    assert "adding the cards' prints" in printed.out and "colours" in printed.out  # a second's work, said
    taught = Recogniser(params=out)
    assert taught.model is not None
    result = taught.scan(scene.frame)
    assert any(card.legion == "blue" for card in result.cards)


def test_teach_without_a_card_in_view_says_so(tmp_path, capsys):
    empty = tmp_path / "empty.png"
    cv2.imwrite(str(empty), np.full((400, 600, 3), 90, np.uint8))
    status = main(["vision", "teach", str(empty), "--card", "12", "--out", str(tmp_path / "m.json")])
    assert status == 1 and "no card found" in capsys.readouterr().err


def test_training_progress_is_told_once_per_quarter_reached():
    from vision.train import every_quarter

    told = []
    tell = every_quarter(told.append, "crops")
    for done in (1, 2, 5, 8, 9):  # scenes add one to three cards, so quarters can be skipped
        tell(done, 8)
    assert told == ["rendering crops: 25%", "rendering crops: 50%", "rendering crops: 100%"]
    assert every_quarter(None, "crops") is None


def test_a_calibration_found_in_a_smaller_picture_fits_the_camera_picture(tmp_path, capsys):
    """`calibrate --image` keeps the picture's size; scanning a picture of the same view at another size scales the
    corners. Taken as they are, the halved corners would put the discard pile in the middle of the table at its
    far corner, where it would read as a creature of seat 3."""
    scene = SceneGenerator(21, use_scans=False).render({0: [[1, 30]], 2: [[60]]},
                                                       Conditions(card_width_px=260, noise=1), discard_id=5)
    path = tmp_path / "table.png"
    cv2.imwrite(str(path), scene.frame)
    height, width = scene.frame.shape[:2]
    smaller = tmp_path / "smaller.json"
    smaller.write_text(json.dumps({"table_corners": (scene.table_corners / 2).tolist(),
                                   "picture_size": [width // 2, height // 2]}))
    assert main(["vision", "scan", str(path), "--json", "--calibration", str(smaller)]) == 0
    cards = json.loads(capsys.readouterr().out)["cards"]
    assert len(cards) == len(scene.cards)
    for card in cards:
        centre = np.mean(card["corners"], axis=0)
        truth = min(scene.cards, key=lambda t: np.linalg.norm(t.corners.mean(axis=0) - centre))
        assert (card.get("seat"), card.get("slot")) == (truth.seat, truth.slot)


def test_calibrate_from_a_photo_of_the_markers_keeps_its_size(tmp_path, capsys):
    from vision.markers import TABLE_MARKER_IDS, marker_image

    photo = np.full((480, 640, 3), 150, np.uint8)
    centres = [(60, 420), (580, 420), (580, 60), (60, 60)]
    for marker_id, (x, y) in zip(TABLE_MARKER_IDS, centres):
        photo[y - 30:y + 30, x - 30:x + 30] = cv2.cvtColor(marker_image(marker_id, 60), cv2.COLOR_GRAY2BGR)
    image, out = tmp_path / "photo.png", tmp_path / "calibration.json"
    cv2.imwrite(str(image), photo)
    assert main(["vision", "calibrate", "--image", str(image), "--out", str(out)]) == 0
    written = json.loads(out.read_text())
    assert written["picture_size"] == [640, 480]
    assert np.allclose(written["table_corners"], centres, atol=1.5)


def test_teach_retrain_retrains_from_the_scans_and_says_how_far_it_has_got(tmp_path, capsys):
    from vision.cards import scans_available

    scene = SceneGenerator(4, use_scans=False).render({0: [[12]]}, Conditions(card_width_px=300, noise=1))
    picture = tmp_path / "my_card.png"
    cv2.imwrite(str(picture), scene.frame)
    out = tmp_path / "taught.json"
    status = main(["vision", "teach", str(picture), "--card", "12", "--out", str(out), "--samples", "20",
                   "--retrain"])
    printed = capsys.readouterr()
    if not scans_available():  # a retrain from the stand-ins alone would forget every card
        assert status == 1 and "card scans, which are not on this machine" in printed.err and not out.exists()
        return
    assert status == 0, printed.err
    assert "retraining" in printed.out and "100%" in printed.out  # minutes on a Pi: how far it has got


def test_forget_deletes_what_was_taught(tmp_path, capsys):
    from vision.model import CardModel
    from vision.taught import card_with_facts, examples_dir, remember_example

    params = tmp_path / "taught" / "vision-model.json"
    CardModel.load().save(params)
    remember_example(np.full((300, 400, 3), 90, np.uint8), np.array([[40, 40], [140, 40], [140, 104], [40, 104]],
                                                                    np.float64),
                     card_with_facts("red", ("torso",), None), params)
    assert main(["vision", "forget", "--params", str(params)]) == 0
    assert "forgot 1 taught card(s)" in capsys.readouterr().out
    assert not params.exists() and not examples_dir(params).exists()
    assert main(["vision", "forget", "--params", str(params)]) == 0, "nothing taught: nothing to do, no error"


def test_bench_with_another_printing_and_cards_taught_so(capsys):
    """`companion vision bench --hue D --teach-per-legion N`: the figures of docs/vision-history.md, stop 36 (another
    printing's colours, and teaching them), by a command; here one scene, one card a legion."""
    status = main(["vision", "bench", "--scenes", "1", "--repeats", "1", "--hue", "10", "--teach-per-legion", "1"])
    out = capsys.readouterr().out
    assert status == 0
    assert "colours turned 10 degrees, saturation x1, 4 training cards taught so" in out
    assert "legion accuracy" in out


def _laid_by(monkeypatch, maker: str) -> list:
    """The scenes the bench lays with `SceneGenerator.<maker>`, recorded as it lays them."""
    from vision import bench

    laid = []
    original = getattr(bench.SceneGenerator, maker)

    def recording(self, width_range=(140.0, 330.0), **overrides):
        scene = original(self, width_range=width_range, **overrides)
        laid.append(scene)
        return scene

    monkeypatch.setattr(bench.SceneGenerator, maker, recording)
    return laid


def test_bench_lays_one_card_alone_when_asked(monkeypatch, capsys):
    """`companion vision bench --lone`: the scenes of a game's start (one card, no other to size it by), said in the
    heading."""
    laid = _laid_by(monkeypatch, "lone_scene")
    status = main(["vision", "bench", "--scenes", "2", "--repeats", "1", "--lone"])
    out = capsys.readouterr().out
    assert status == 0 and "one card alone" in out and "detection recall" in out
    assert len(laid) == 2 and max(len(scene.cards) for scene in laid) <= 1


def test_bench_without_the_scans_lays_stand_ins_instead_of_failing(tmp_path, monkeypatch, capsys):
    """Where ../shared/cards is not (a Pi, a fresh machine), the bench says so and reads stand-in cards: it used to
    stop with a traceback, having no card to lay."""
    monkeypatch.setenv("COMPANION_CARDS_DIR", str(tmp_path / "no-scans-here"))
    from vision.cards import all_cards

    all_cards.cache_clear()
    try:
        status = main(["vision", "bench", "--scenes", "1", "--repeats", "1"])
    finally:
        all_cards.cache_clear()
    out = capsys.readouterr().out
    assert status == 0 and "stand-in cards drawn by code" in out and "detection recall" in out


def test_bench_lays_cards_of_the_lengths_asked_for(monkeypatch, capsys):
    """`--card-widths 75 100`: what a camera hung too high shows (docs/vision.md, "Card size in the picture");
    nonsense is refused with a clear message."""
    laid = _laid_by(monkeypatch, "random_scene")
    status = main(["vision", "bench", "--scenes", "2", "--repeats", "1", "--card-widths", "75", "100"])
    out = capsys.readouterr().out
    assert status == 0 and "card widths 75-100 px" in out
    lengths = [round(card.width_px) for scene in laid for card in scene.cards]
    assert lengths and min(lengths) >= 70 and max(lengths) <= 105  # perspective stretches a card a little
    assert main(["vision", "bench", "--scenes", "1", "--card-widths", "200", "100"]) == 2
    assert "0 < MIN <= MAX" in capsys.readouterr().err


def test_bench_reads_pictures_at_full_resolution_or_binned(monkeypatch, capsys):
    """`--frame-scale 2`: the tables in 3280x2464 pictures, as the Pi camera v2 gives them at full resolution, their
    cards twice the lengths asked for; `--binned`: such tables as the sensor's binned mode gives them, at 1640x1232
    (docs/vision.md, "Card size in the picture"). Nonsense is refused with a clear message."""
    from vision.pipeline import Recogniser

    laid = _laid_by(monkeypatch, "random_scene")
    read = []
    original_scan = Recogniser.scan

    def recording(self, frame):
        read.append(frame.shape[:2])
        return original_scan(self, frame)

    monkeypatch.setattr(Recogniser, "scan", recording)
    status = main(["vision", "bench", "--scenes", "1", "--repeats", "1", "--frame-scale", "2", "--card-widths", "140",
                   "170"])
    out = capsys.readouterr().out
    assert status == 0 and "pictures 3280x2464" in out and "binned" not in out
    assert read == [(2464, 3280)]
    lengths = [card.width_px for card in laid[0].cards]
    assert lengths and min(lengths) >= 270 and max(lengths) <= 350
    status = main(["vision", "bench", "--scenes", "1", "--repeats", "1", "--frame-scale", "2", "--binned",
                   "--card-widths", "140", "170"])
    assert status == 0 and "pictures 3280x2464 binned 2x2 to 1640x1232" in capsys.readouterr().out
    assert read[1:] == [(1232, 1640)]
    lengths = [card.width_px for card in laid[1].cards]
    assert lengths and min(lengths) >= 135 and max(lengths) <= 175
    assert main(["vision", "bench", "--scenes", "1", "--binned"]) == 2
    assert "--frame-scale 2 or more" in capsys.readouterr().err
    assert main(["vision", "bench", "--scenes", "1", "--frame-scale", "3"]) == 2
    assert "whole number from 1 to 2" in capsys.readouterr().err


@pytest.mark.parametrize("command", [["scan", "{path}", "--json"], ["bench", "--scenes", "1", "--repeats", "1"]])
def test_thorough_reaches_the_recogniser_of_scan_and_bench(scene_file, monkeypatch, capsys, command):
    """`--thorough`: the recogniser also lays cards from straight edges (vision.pipeline.Recogniser); without it,
    not."""
    from vision import pipeline

    built = []
    original = pipeline.Recogniser.__init__

    def recording(self, *args, **kwargs):
        original(self, *args, **kwargs)
        built.append(self.thorough)

    monkeypatch.setattr(pipeline.Recogniser, "__init__", recording)
    arguments = ["vision"] + [part.format(path=scene_file[0]) for part in command]
    assert main(arguments) == 0
    assert main(arguments + ["--thorough"]) == 0
    assert built == [False, True]
    if command[0] == "bench":
        assert "thorough (straight edges too)" in capsys.readouterr().out
