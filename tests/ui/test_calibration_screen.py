"""Table calibration on the touchscreen (issue 3, "Table geometry": "without markers, a one-time manual calibration
on the touchscreen or a file"; with the printed markers, found on the camera's picture from the same screen). The
calibration saved there is what the camera reads with, at once and after a restart."""
import queue

import cv2
import numpy as np
import pygame
import pytest

from companion.ui.calibration import (CalibrationScene, load_screen_calibration, screen_calibration_path,
                                      table_calibration)
from companion.ui.camera_worker import CameraWorker
from companion.ui.render import build_screen, make_app
from vision.geometry import Calibration
from vision.markers import TABLE_MARKER_IDS, marker_image
from vision.pipeline import ScanResult
from vision.table_state import SeenCard

from screen_helpers import SIZE, open_over_settings, render

FRAME = (400, 300)  # width, height of the camera picture
# Where the scene puts the picture: the area left of the 220 px side column, the picture scaled to fit, centred.
AREA = pygame.Rect(10, 10, SIZE[0] - 220 - 30, SIZE[1] - 20)
SCALE = min(AREA.width / FRAME[0], AREA.height / FRAME[1])
TABLE = [(40.0, 260.0), (360.0, 260.0), (360.0, 40.0), (40.0, 40.0)]  # near-left, near-right, far-right, far-left


@pytest.fixture(autouse=True)
def companion_home(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    return tmp_path / "home"


def on_screen(x, y):
    placed = pygame.Rect(0, 0, int(FRAME[0] * SCALE), int(FRAME[1] * SCALE))
    placed.center = AREA.center
    return round(placed.left + x * SCALE), round(placed.top + y * SCALE)


def picture(with_markers=False):
    frame = np.full((FRAME[1], FRAME[0], 3), 120, np.uint8)
    if with_markers:
        for marker_id, (x, y) in zip(TABLE_MARKER_IDS, TABLE):
            marker = cv2.cvtColor(marker_image(marker_id, 36), cv2.COLOR_GRAY2BGR)
            frame[int(y) - 18:int(y) + 18, int(x) - 18:int(x) + 18] = marker
    return frame


def calibration_screen(frame):
    return open_over_settings(CalibrationScene, frame)


def touch(app, position):
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=position, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=position, button=1)], 0.03)
    render(app)


def button(scene, key):
    return next(b for b in scene.buttons if b.label == scene.t(key))


def press(app, scene, key):
    touch(app, button(scene, key).rect.center)


def test_four_corners_touched_in_turn_are_saved_and_the_camera_reads_with_them(companion_home):
    app, scene = calibration_screen(picture())
    assert not button(scene, "calibration.save").enabled
    for corner in TABLE:
        touch(app, on_screen(*corner))
    assert np.allclose(scene.points, TABLE, atol=1.0), "touches are taken as picture points"
    press(app, scene, "calibration.save")
    saved = Calibration.load(companion_home / "calibration.json")
    assert np.allclose(saved.table_corners, TABLE, atol=1.0)
    assert app.calibration == saved and app.calibration_source == "screen"
    assert load_screen_calibration() == (saved, None)
    assert scene.message == "calibration.saved"


def test_the_printed_markers_are_found_on_the_picture():
    app, scene = calibration_screen(picture(with_markers=True))
    press(app, scene, "calibration.find_markers")
    assert scene.message == "calibration.markers_found"
    assert np.allclose(scene.points, TABLE, atol=1.5), "the markers' centres, in the geometry's corner order"
    assert button(scene, "calibration.save").enabled


def test_without_all_four_markers_it_says_so_and_keeps_the_corners_touched():
    app, scene = calibration_screen(picture())
    touch(app, on_screen(*TABLE[0]))
    press(app, scene, "calibration.find_markers")
    assert scene.message == "calibration.no_markers" and scene.message_is_problem
    assert len(scene.points) == 1
    assert not screen_calibration_path().exists()


@pytest.mark.parametrize("corners, problem", [
    ([TABLE[0], TABLE[2], TABLE[1], TABLE[3]], "calibration.not_around"),  # across the table: the sides cross
    ([(100.0, 100.0), (120.0, 100.0), (120.0, 115.0), (100.0, 115.0)], "calibration.too_small"),
])
def test_corners_that_cannot_be_the_table_are_refused(corners, problem):
    app, scene = calibration_screen(picture())
    for corner in corners:
        touch(app, on_screen(*corner))
    assert scene.message == problem and scene.message_is_problem
    assert not button(scene, "calibration.save").enabled
    app.step([pygame.event.Event(pygame.KEYDOWN, key=pygame.K_s, mod=0, unicode="s")], 0.03)
    assert not screen_calibration_path().exists() and app.calibration is None


def test_undo_takes_back_the_last_corner_and_a_fifth_touch_starts_again():
    app, scene = calibration_screen(picture())
    for corner in TABLE[:3]:
        touch(app, on_screen(*corner))
    press(app, scene, "calibration.undo")
    assert np.allclose(scene.points, TABLE[:2], atol=1.0)
    for corner in TABLE[2:]:
        touch(app, on_screen(*corner))
    touch(app, on_screen(200, 150))
    assert np.allclose(scene.points, [(200, 150)], atol=1.0)


def test_without_a_picture_it_says_so_and_touches_do_nothing():
    app, scene = calibration_screen(None)
    assert not button(scene, "calibration.find_markers").enabled
    touch(app, (200, 200))
    assert scene.points == []


def test_forget_goes_back_to_the_configurations_calibration():
    app, scene = calibration_screen(picture())
    from_config = Calibration(tuple(TABLE))
    app.config_calibration = from_config
    for corner in [(10.0, 290.0), (390.0, 290.0), (390.0, 10.0), (10.0, 10.0)]:
        touch(app, on_screen(*corner))
    press(app, scene, "calibration.save")
    assert app.calibration_source == "screen"
    press(app, scene, "calibration.forget")
    assert not screen_calibration_path().exists()
    assert app.calibration == from_config and app.calibration_source == "config"
    assert np.allclose(scene.points, TABLE)


def test_at_start_the_touchscreen_calibration_comes_before_the_configurations(companion_home):
    from_config = Calibration(tuple(TABLE))
    assert table_calibration(from_config) == (from_config, "config", None)
    assert table_calibration(None) == (None, None, None)
    on_screen_calibration = Calibration(((0.0, 300.0), (400.0, 300.0), (400.0, 0.0), (0.0, 0.0)))
    companion_home.mkdir(parents=True)
    on_screen_calibration.save(screen_calibration_path())
    assert table_calibration(from_config) == (on_screen_calibration, "screen", None)
    screen_calibration_path().write_text('{"table_corners": [[0, 1], [2', encoding="utf-8")  # cut off mid-write
    calibration, source, problem = table_calibration(from_config)
    assert (calibration, source) == (from_config, "config")
    assert "calibrate again" in problem


class _Guard:
    connected = True

    def read(self, now):
        return np.full((300, 400, 3), 100, np.uint8)

    def status(self, now):
        from types import SimpleNamespace

        return SimpleNamespace(message="camera: test")


class _Recogniser:
    calibration = None
    # One card lying with its top towards the picture's top edge: seat 0's when seat 0 sits at the bottom.
    card = SeenCard("blue", ("legs",), None, ((150.0, 200.0), (250.0, 200.0), (250.0, 264.0), (150.0, 264.0)), 0.95)

    def scan(self, frame):
        return ScanResult(cards=[self.card])


def _seats_of_settled_table(worker, clock):
    posted = []
    for _ in range(8):
        clock[0] += 0.2
        worker.step()
    while not worker.inbox.empty():
        kind, payload = worker.inbox.get_nowait()
        if kind == "table_state":
            posted.append(payload)
    return sorted(posted[-1].seats)


def _worker(clock):
    worker = CameraWorker(_Guard(), queue.Queue(), _Recogniser(), clock=lambda: clock[0])
    worker.build_pipeline()
    return worker


def test_uncalibrated_the_whole_picture_is_the_table_whatever_its_size():
    """The card lies near the bottom edge of a 400x300 picture: seat 0's. Taken as a 1640x1232 picture (the bench's
    size, which the stabiliser is built with before any frame), it would lie near the middle of the table, as the
    discard pile."""
    clock = [0.0]
    assert _seats_of_settled_table(_worker(clock), clock) == [0]


def test_the_camera_worker_takes_up_a_new_calibration_between_frames():
    clock = [0.0]
    worker = _worker(clock)
    assert _seats_of_settled_table(worker, clock) == [0]
    # The table turned round, seat 0 at the picture's top edge: the card's top now faces seat 0's edge, so it lies
    # before seat 2.
    turned = Calibration(((400.0, 0.0), (0.0, 0.0), (0.0, 300.0), (400.0, 300.0)))
    worker.use_calibration(turned)
    assert _seats_of_settled_table(worker, clock) == [2]
    assert worker.calibration == turned and worker.recogniser.calibration == turned


def test_from_settings_the_markers_on_the_cameras_picture_calibrate_the_camera(companion_home):
    """The whole way: the camera worker's picture reaches the app through its inbox, Settings opens the calibration,
    the markers are found on that picture, and after Save the worker reads the table turned as the markers say."""
    app = make_app(SIZE, strict=True)
    build_screen(app, "settings")
    clock = [0.0]
    turned = [TABLE[2], TABLE[3], TABLE[0], TABLE[1]]  # the markers laid with seat 0 at the picture's top edge
    marked = picture()
    for marker_id, (x, y) in zip(TABLE_MARKER_IDS, turned):
        marked[int(y) - 18:int(y) + 18, int(x) - 18:int(x) + 18] = cv2.cvtColor(marker_image(marker_id, 36),
                                                                              cv2.COLOR_GRAY2BGR)
    guard = _Guard()
    guard.read = lambda now: marked
    worker = CameraWorker(guard, app.inbox, _Recogniser(), clock=lambda: clock[0])
    worker.build_pipeline()
    app.camera_worker = worker
    worker.step()
    app.step([], 0.03)
    assert app.latest_frame is marked
    render(app)
    press(app, app.top, "settings.calibrate")
    scene = app.top
    assert isinstance(scene, CalibrationScene)
    press(app, scene, "calibration.find_markers")
    press(app, scene, "calibration.save")
    assert app.calibration_source == "screen" and np.allclose(app.calibration.table_corners, turned, atol=1.5)
    worker.inbox = queue.Queue()  # what the worker posts from now on
    assert _seats_of_settled_table(worker, clock) == [2]


def test_a_calibration_made_at_another_picture_size_is_scaled_to_the_cameras():
    """Calibrated on a photo twice the size (corners and size both doubled): the worker reads the 400x300 camera
    pictures with the corners halved, so the turned table still puts the card before seat 2."""
    clock = [0.0]
    worker = _worker(clock)
    turned = Calibration(((800.0, 0.0), (0.0, 0.0), (0.0, 600.0), (800.0, 600.0)), (800, 600))
    worker.use_calibration(turned)
    assert _seats_of_settled_table(worker, clock) == [2]
    assert worker.stabiliser.calibration.table_corners == ((400.0, 0.0), (0.0, 0.0), (0.0, 300.0), (400.0, 300.0))


def test_on_the_simulated_table_the_screen_says_the_picture_is_not_a_cameras():
    app, scene = calibration_screen(picture())
    assert app.camera_worker is None
    surface = render(app)
    app.camera_worker = CameraWorker(_Guard(), queue.Queue(), _Recogniser())
    scene.dirty = True
    with_camera = render(app)
    status = pygame.Rect(SIZE[0] - 230, 156, 220, 76)  # the status lines of the side column
    assert pygame.image.tobytes(surface.subsurface(status), "RGB") != \
        pygame.image.tobytes(with_camera.subsurface(status), "RGB")


def test_a_taught_recogniser_is_loaded_between_frames_with_the_calibration_in_use():
    """Teaching finishes on its own thread while the players may have just calibrated: the worker loads the taught
    parameters itself, after taking up the calibration, so neither undoes the other."""
    from companion.ui.nightmarium.teaching import start_teaching

    clock = [0.0]
    worker = _worker(clock)
    loaded = []

    def load_recogniser():
        recogniser = _Recogniser()
        recogniser.calibration = worker.calibration
        loaded.append(recogniser)
        return recogniser

    worker.load_recogniser = load_recogniser
    app = make_app(SIZE, strict=True)
    app.camera_worker = worker
    teaching = start_teaching(app, picture(), _Recogniser.card, ("blue", ("legs",), None))
    turned = Calibration(((400.0, 0.0), (0.0, 0.0), (0.0, 300.0), (400.0, 300.0)), (400, 300))
    worker.use_calibration(turned)
    teaching.on_taught("taught.json")  # as the teaching thread does once the parameters are saved
    assert loaded == [], "nothing is loaded on the teaching thread"
    assert _seats_of_settled_table(worker, clock) == [2]
    assert worker.recogniser is loaded[0] and worker.recogniser.calibration == turned
