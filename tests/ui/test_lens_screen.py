"""Measuring a wide-angle lens on the touchscreen (Settings -> Lens…): the builder lays the printed chessboard at the
circles shown on the camera's picture and touches Take; four places or more are measured and saved where the camera
finds the lens, and the camera reloads with it (vision.lens; docs/vision.md, "A wide-angle lens")."""
import numpy as np
import pygame
import pytest

from companion.ui.lens import LensScene
from companion.ui.render import build_screen, make_app
from vision.lens import MIN_PICTURES, LensCorrection, lens_path
from vision.synthetic import chessboard_pictures

from screen_helpers import SIZE, open_over_settings, render

BEND = -0.15  # bows the picture's top edge 5.6%: worth straightening


@pytest.fixture(scope="module")
def pictures():
    return chessboard_pictures(BEND, seed=4)


@pytest.fixture(autouse=True)
def saved_lens(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_LENS", str(tmp_path / "lens.json"))
    return tmp_path / "lens.json"


class FakeWorker:
    def __init__(self):
        self.reloads = 0

    def reload_recogniser(self):
        self.reloads += 1


def lens_screen(frame):
    return open_over_settings(LensScene, frame, camera_worker=FakeWorker())


def press(app, scene, key):
    target = next(b for b in scene.buttons if b.label == scene.t(key))
    assert target.enabled, key
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        app.step([pygame.event.Event(kind, pos=target.rect.center, button=1)], 0.03)
    render(app)


def enabled(scene, key) -> bool:
    return next(b for b in scene.buttons if b.label == scene.t(key)).enabled


def test_boards_taken_at_four_places_are_measured_saved_and_the_camera_reloads(pictures, saved_lens):
    app, scene = lens_screen(np.full((1232, 1640, 3), 90, np.uint8))
    press(app, scene, "lens.take")  # a picture without the sheet
    assert scene.boards == [] and scene.message == scene.t("lens.not_found") and scene.message_is_problem
    for count, picture in enumerate(pictures[:MIN_PICTURES], start=1):
        assert not enabled(scene, "lens.measure")
        app.latest_frame = picture
        render(app)
        press(app, scene, "lens.take")
        assert len(scene.boards) == count and scene.message == scene.t("lens.taken", count=count)
    press(app, scene, "lens.take")  # the same picture again: that place is taken
    assert len(scene.boards) == MIN_PICTURES and scene.message == scene.t("lens.same_place")
    press(app, scene, "lens.measure")
    lens = LensCorrection.load(saved_lens)
    assert lens.size == (1640, 1232) and lens.error_px < 0.5
    assert scene.t("lens.straightened") in scene.message and app.camera_worker.reloads == 1
    assert scene.status.startswith(scene.t("lens.status", bow=0, treatment="x").split("0")[0])
    press(app, scene, "calibration.forget")
    assert not saved_lens.exists() and scene.message == scene.t("lens.forgotten")
    assert app.camera_worker.reloads == 2 and scene.status == scene.t("lens.status_none")


def test_undo_drops_the_last_board_and_a_failed_measurement_says_why(pictures, saved_lens):
    app, scene = lens_screen(pictures[0])
    press(app, scene, "lens.take")
    press(app, scene, "calibration.undo")
    assert scene.boards == [] and not enabled(scene, "calibration.undo")
    scene.boards = [np.zeros((54, 2)) + i for i in range(MIN_PICTURES)]  # corners that fit no lens
    scene.size = (1640, 1232)
    render(app)
    press(app, scene, "lens.measure")
    assert scene.message_is_problem and scene.message.startswith(scene.t("lens.failed", message=""))
    assert not saved_lens.exists() and app.camera_worker.reloads == 0


def test_a_damaged_saved_measurement_is_named_and_the_settings_open_the_screen(saved_lens):
    saved_lens.write_text("{ half")
    app = make_app(SIZE, strict=True)
    settings = build_screen(app, "settings")
    render(app)
    lens_button = next(b for b in settings.buttons if b.label == settings.t("settings.lens"))
    for kind in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP):
        app.step([pygame.event.Event(kind, pos=lens_button.rect.center, button=1)], 0.03)
    render(app)
    scene = app.scenes[-1]
    assert isinstance(scene, LensScene) and scene.status == scene.t("lens.status_damaged")
    assert lens_path() == saved_lens
