"""`companion doctor`: runs on a machine with nothing attached, says what is absent, never a traceback."""
import io
import sqlite3
from pathlib import Path

import numpy as np
import pytest
from gpiozero.pins.mock import MockFactory

from companion.cli import main
from companion.config import Config, StorageConfig, parse_config_text
from companion.hardware import doctor
from companion.storage.saves import SaveStore


@pytest.fixture
def config_file(tmp_path):
    path = tmp_path / "config.toml"
    path.write_text(f'[storage]\npath = "{tmp_path / "state" / "companion.db"}"\n', encoding="utf-8")
    return path


def test_doctor_on_this_bare_machine_reports_every_part_and_succeeds(config_file, capsys):
    assert main(["doctor", "--config", str(config_file)]) == 0
    out = capsys.readouterr().out
    for part in ("configuration", "storage", "camera", "markers", "lens", "display", "GPIO", "service"):
        assert f"  {part}" in out
    assert "configuration  works    configuration from" in out
    assert "will be created at the first game" in out
    assert "Traceback" not in out
    # No GPIO and no screen here: both are named as missing, and the fallback is explained.
    assert "GPIO           missing" in out and "touchscreen and the keyboard" in out
    assert "display        missing" in out


def test_a_bad_configuration_fails_with_its_line_and_no_traceback(tmp_path, capsys):
    bad = tmp_path / "bad.toml"
    bad.write_text("[display]\nfullscreen = 1\n", encoding="utf-8")
    assert main(["doctor", "--config", str(bad)]) == 1
    out = capsys.readouterr().out
    assert "PROBLEM" in out and "line 2: display.fullscreen" in out and "Traceback" not in out


def test_storage_counts_games_without_changing_the_file(tmp_path):
    path = tmp_path / "companion.db"
    with SaveStore(path) as store:
        store.finish(store.new_game("attic", "a", {}), {"winner": "x"})
        store.new_game("attic", "b", {})
    before = path.read_bytes()
    check = doctor.check_storage(Config(storage=StorageConfig(path=path)))
    assert check.outcome == doctor.WORKS and "1 game(s) in progress, 1 finished" in check.detail
    assert path.read_bytes() == before


def test_storage_names_a_foreign_file_as_a_problem_but_leaves_it_alone(tmp_path):
    path = tmp_path / "companion.db"
    foreign = sqlite3.connect(path)
    foreign.execute("CREATE TABLE t (x)")
    foreign.commit()
    foreign.close()
    check = doctor.check_storage(Config(storage=StorageConfig(path=path)))
    assert check.outcome == doctor.PROBLEM and "not a companion database" in check.detail
    assert [p.name for p in tmp_path.iterdir()] == ["companion.db"]


class SheetCamera:
    """A camera looking down at the four table markers (drawn with vision.markers, not from any scan)."""

    def __init__(self, spec):
        from vision.markers import TABLE_MARKER_IDS, marker_image

        self.frame = np.full((600, 800, 3), 255, np.uint8)
        corners = [(40, 40), (40, 600), (400, 600), (400, 40)]  # (row, column) of the four table corners
        for marker_id, (row, column) in zip(TABLE_MARKER_IDS, corners):
            self.frame[row:row + 160, column:column + 160] = marker_image(marker_id, 160)[..., None]

    def read(self):
        return self.frame

    def close(self):
        pass

    def describe(self):
        return "sheet camera"


def test_camera_frame_and_all_markers_are_reported():
    camera, frame = doctor.check_camera(Config(), opener=SheetCamera)
    assert camera.outcome == doctor.WORKS and "sheet camera, test frame 800 x 600" in camera.detail
    markers = doctor.check_markers(frame)
    assert markers.outcome == doctor.WORKS and "all 4 table markers" in markers.detail


def test_markers_partly_covered_are_named():
    camera = SheetCamera("x")
    frame = camera.frame.copy()
    frame[300:, :] = 255  # the far half of the table (markers 2 and 3) is covered
    check = doctor.check_markers(frame)
    assert check.outcome == doctor.PROBLEM and "in view: 0, 1" in check.detail and "not seen: 2, 3" in check.detail


def test_a_camera_that_opens_but_gives_no_picture_is_a_problem():
    class Blank:
        def read(self):
            return None

        def close(self):
            pass

        def describe(self):
            return "blank camera"

    check, frame = doctor.check_camera(Config(), opener=lambda spec: Blank())
    assert check.outcome == doctor.PROBLEM and frame is None and "gave no picture" in check.detail


@pytest.fixture(scope="module")
def recogniser():
    from vision.pipeline import Recogniser

    return Recogniser()


def _table(card_lengths, size=(1640, 1232), seed=3):
    """A generated table (the code-drawn stand-in faces, no scan) whose cards are about `card_lengths` px long."""
    from vision.synthetic import SceneGenerator

    return SceneGenerator(seed, size=size, use_scans=False).random_scene(width_range=card_lengths).frame


def test_cards_as_large_as_the_recogniser_is_measured_on_are_fine(recogniser):
    check = doctor.check_cards(_table((200, 260)), recogniser)
    assert check.outcome == doctor.WORKS and "as the recogniser is measured on" in check.detail


def test_cards_too_small_in_the_picture_ask_for_a_lower_camera(recogniser):
    """Cards 80-95 px long in a 1640-px picture (1/19 of it): found, but read far less well (docs/vision.md, "Card
    size in the picture"); the builder is told to hang the camera lower."""
    check = doctor.check_cards(_table((80, 95)), recogniser)
    assert check.outcome == doctor.PROBLEM and "hang the camera lower" in check.detail


def test_cards_of_too_few_pixels_ask_for_a_larger_picture(recogniser):
    check = doctor.check_cards(_table((105, 125), size=(1000, 750)), recogniser)
    assert check.outcome == doctor.PROBLEM and "[camera] resolution" in check.detail


def test_a_table_without_cards_or_a_camera_without_a_picture_skips_the_card_check(recogniser):
    assert doctor.check_cards(None, recogniser).outcome == doctor.SKIPPED
    bare = doctor.check_cards(SheetCamera("x").frame, recogniser)
    assert bare.outcome == doctor.SKIPPED and "lay a few on the table" in bare.detail


def test_the_doctor_asks_the_camera_for_the_configured_resolution(monkeypatch):
    from companion.hardware import camera_guard

    opened = []

    def opener(spec, size=None):
        opened.append((spec, size))
        return SheetCamera(spec)

    monkeypatch.setattr(camera_guard, "open_configured_source", opener)
    check, frame = doctor.check_camera(parse_config_text('[camera]\nsource = "usb:0"\nresolution = [1280, 720]\n'))
    assert check.outcome == doctor.WORKS and opened == [("usb:0", (1280, 720))]


def test_button_presses_are_printed_while_watching():
    config = parse_config_text("[gpio]\nbounce_time = 0\n")
    check, controls = doctor.check_gpio(config, pin_factory=MockFactory())
    assert check.outcome == doctor.WORKS
    roll = controls._buttons["roll"].pin
    roll.drive_low()
    roll.drive_high()
    out = io.StringIO()
    seen = doctor.watch_buttons(controls, 0.3, out)
    controls.close()
    assert seen == 1 and "ROLL pressed" in out.getvalue()


def test_full_run_with_a_working_camera_and_gpio(config_file):
    out = io.StringIO()
    status = doctor.run_doctor(str(config_file), out, pin_factory=MockFactory(), camera_opener=SheetCamera)
    text = out.getvalue()
    assert status == 0
    assert "camera         works" in text and "markers        works" in text and "GPIO           works" in text
    assert "manual mode" not in text


def test_save_speed_reports_the_median_and_leaves_no_scratch_file(tmp_path):
    ticks = iter(range(0, 10_000, 2))  # a clock advancing 2 ms per reading: each record "takes" 2 ms
    check = doctor.measure_save_latency(tmp_path / "state", moves=5, clock=lambda: next(ticks) / 1000)
    assert check.outcome == doctor.WORKS
    assert "on disk 2.0 ms after it is made (median of 5; slowest 2.0 ms)" in check.detail
    assert list((tmp_path / "state").iterdir()) == []


def test_save_speed_on_an_unwritable_place_is_a_problem_not_a_crash(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    check = doctor.measure_save_latency(blocker / "state")
    assert check.outcome == doctor.PROBLEM and "cannot write a test database" in check.detail


@pytest.mark.parametrize("enabled, active, outcome, words", [
    ("enabled", "active", doctor.WORKS, "enabled at boot and active now"),
    ("enabled", "failed", doctor.PROBLEM, "journalctl -u companion"),
    ("disabled", "inactive", doctor.PROBLEM, "disabled at boot"),
    ("not-found", "inactive", doctor.MISSING, "not installed"),
])
def test_service_state_in_plain_words(enabled, active, outcome, words):
    answers = {"is-enabled": enabled, "is-active": active}
    check = doctor.check_service(run=lambda question: answers[question])
    assert check.outcome == outcome and words in check.detail


def test_service_without_systemd_is_reported_as_absent():
    if Path("/run/systemd/system").is_dir():
        pytest.skip("this machine runs systemd; the absent case cannot be observed here")
    check = doctor.check_service()
    assert check.outcome == doctor.MISSING and "systemd is not running here" in check.detail
