"""The app on the Pi side (issue 6 with issue 4): camera lost and found mid-game, the camera decision at start,
the calibration reaching the vision pipeline, the one-time notice, the watchdog-safe idle wait, and the
configuration's [game] values as the defaults that ui.json overrides."""
import json
import queue

import pygame
from hypothesis import given
from hypothesis import strategies as st

from companion.config import CameraConfig, Config, GameConfig
from companion.hardware.camera_guard import CameraGuard
from companion.ui.app import IDLE_WAIT_MS, idle_wait_ms
from companion.ui.camera_worker import CameraWorker
from companion.ui.nightmarium.base import without_details
from companion.ui.preferences import Preferences
from companion.ui.render import build_screen, make_app
from companion.ui.run import open_camera
from test_app import CameraWorld, FakeClock, legs_on_table, scripted_guard, table_app


class PassThroughRecogniser:
    """The scripted camera's "frames" are already table states: recognition is not what is tested here."""

    def scan(self, frame):
        from vision.pipeline import ScanResult

        return ScanResult(cards=frame)


class PassThroughStabiliser:
    def update(self, state, now):
        return state or None  # an empty picture (no scripted state left) is "nothing changed"


def test_a_camera_lost_mid_game_and_found_again_leaves_the_game_untouched():
    """Issue 6, camera resilience: shown on screen, manual mode, retried with back-off, picked up again."""
    app, session = table_app(mode="camera")
    app.camera_connected = True
    app.top.draw_card_action()  # the game in progress: a card drawn by hand
    world = CameraWorld()
    clock = FakeClock()
    worker = CameraWorker(scripted_guard(world), app.inbox, PassThroughRecogniser(), PassThroughStabiliser(),
                          clock=clock)
    worker.stopping.set()  # no sleeping inside step()
    worker.step()
    app.step([], 0.03)
    assert not session.camera_lost and app.camera_connected
    before = session.game.to_json()
    saved_before = app.store.load(session.game_id).state

    world.plugged = False
    worker.step()
    app.step([], 0.03)
    assert session.camera_lost and app.camera_connected is False
    assert "camera lost" in app.camera_message and "retrying in 1 s" in app.camera_message
    app.render(pygame.Surface(app.size), force=True)  # strict app: drawing the chip raised nothing
    assert without_details(app.camera_message) == "camera lost, retrying in 1 s; manual mode"  # the chip's text
    clock.now += 0.5
    worker.step()  # too early for the next attempt: still lost
    app.step([], 0.03)
    assert session.camera_lost
    assert session.game.to_json() == before
    assert app.store.load(session.game_id).state == saved_before

    world.plugged = True
    world.frames = [legs_on_table(session)]
    clock.now += 1.0
    worker.step()
    app.step([], 0.03)
    assert not session.camera_lost and app.camera_connected
    assert app.camera_message == "camera: scripted camera"
    assert len(session.game.players[0].creatures) == 1, "the camera's table state became a move again"
    assert session.game.to_json() != before
    assert app.store.load(session.game_id).state == session.state()


def test_a_game_started_while_the_camera_is_missing_begins_in_manual_mode():
    app = make_app((800, 480), strict=True)
    app.camera_connected = False
    build_screen(app, "launcher")
    from companion.ui.nightmarium.session import Session

    session = Session.new(app, ["Ann", "Bob"], "ru2014", 5, False, "camera")
    assert session.camera_lost
    app.inbox.put(("table_state", legs_on_table(session)))
    app.step([], 0.03)
    assert session.game.players[0].creatures == []


class NoCamera:
    def __init__(self):
        self.attempts = 0

    def open(self, spec):
        self.attempts += 1
        raise OSError("no camera found")


def config_with_source(source):
    return Config(camera=CameraConfig(source=source))


def test_auto_on_a_laptop_without_a_camera_falls_back_to_the_simulated_table():
    assert open_camera(config_with_source("auto"), 0.0, NoCamera().open, raspberry_pi=False) is None


def test_a_camera_missing_at_start_on_the_pi_or_named_explicitly_is_retried():
    for source, raspberry_pi in (("auto", True), ("usb:0", False), ("picamera", True)):
        world = CameraWorld(plugged=False)
        guard = open_camera(config_with_source(source), 0.0, world.open, raspberry_pi=raspberry_pi)
        assert guard is not None and not guard.connected, source
        assert "retrying" in guard.status(0.0).message
        world.plugged = True
        assert guard.read(0.5) is None, "back-off: no attempt before the first delay"
        assert guard.read(1.0) is not None and guard.connected, source


def test_the_calibration_reaches_the_recogniser_and_the_stabiliser():
    from vision.geometry import Calibration

    calibration = Calibration.from_json({"table_corners": [[10, 900], [1200, 880], [1100, 40], [60, 30]]})
    worker = CameraWorker(CameraGuard("usb:0", opener=NoCamera().open), queue.Queue(), calibration=calibration)
    worker.build_pipeline()
    assert worker.recogniser.calibration == calibration
    assert worker.stabiliser.calibration == calibration
    uncalibrated = CameraWorker(CameraGuard("usb:0", opener=NoCamera().open), queue.Queue())
    uncalibrated.build_pipeline()
    assert uncalibrated.stabiliser.calibration != calibration


def test_the_notice_is_shown_over_the_screen_until_a_touch_closes_it():
    app = make_app((800, 480), strict=True)
    build_screen(app, "launcher")
    plain = pygame.Surface(app.size)
    app.render(plain, force=True)
    app.notice = "The saved-games file could not be used because it is damaged. It was kept as x.unusable."
    with_notice = pygame.Surface(app.size)
    app.render(with_notice, force=True)
    bottom = pygame.Rect(0, app.size[1] - 100, app.size[0], 60)
    assert (pygame.image.tobytes(plain.subsurface(bottom), "RGB")
            != pygame.image.tobytes(with_notice.subsurface(bottom), "RGB"))
    scenes = len(app.scenes)
    settings_button = next(button for button in app.top.buttons if button.key == pygame.K_s)
    centre = settings_button.rect.center
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=centre, button=1)], 0.03)
    assert app.notice is None and len(app.scenes) == scenes, "the closing touch pressed nothing underneath"
    app.step([pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=centre, button=1),
              pygame.event.Event(pygame.MOUSEBUTTONUP, pos=centre, button=1)], 0.03)
    assert len(app.scenes) == scenes + 1, "afterwards the screen works as before"


@given(st.one_of(st.none(), st.floats(min_value=0.001, max_value=3600)))
def test_the_idle_wait_lets_the_loop_ping_the_watchdog_in_time(interval):
    wait = idle_wait_ms(interval)
    assert 1 <= wait <= IDLE_WAIT_MS
    if interval is not None and interval >= 0.002:
        assert wait / 1000 <= interval / 2


def test_the_configuration_game_section_is_the_default_and_ui_json_overrides_it(tmp_path):
    path = tmp_path / "ui.json"
    admin = Preferences.from_config(Config(game=GameConfig(language="pl", nightmarium_edition="ru2014",
                                                           win_target=7, seals=True)))
    first = Preferences.load(path, defaults=admin)
    assert (first.lang, first.edition, first.win_target, first.seals) == ("pl", "ru2014", 7, True)
    first.lang = "ru"  # the players choose Russian in Settings
    first.save(path)
    assert json.loads(path.read_text(encoding="utf-8")) == {"lang": "ru"}
    admin = Preferences.from_config(Config(game=GameConfig(language="en", nightmarium_edition="pl2017",
                                                           win_target=6, seals=False)))
    later = Preferences.load(path, defaults=admin)
    assert (later.lang, later.edition, later.win_target, later.seals) == ("ru", "pl2017", 6, False)
    later.win_target = 6  # set to what the configuration says anyway: nothing new to keep
    later.save(path)
    assert json.loads(path.read_text(encoding="utf-8")) == {"lang": "ru"}
    path.write_text(json.dumps({"lang": "xx", "edition": "pl2017"}), encoding="utf-8")
    bad = Preferences.load(path, defaults=admin)
    assert (bad.lang, bad.edition) == ("en", "pl2017"), "a bad value falls back to the configuration's"


def test_a_choice_made_in_settings_is_kept_even_when_it_equals_the_configuration(tmp_path, monkeypatch):
    from companion.ui.settings import SettingsScene

    monkeypatch.setenv("COMPANION_HOME", str(tmp_path))
    app = make_app((800, 480), strict=True)
    app.preferences = Preferences.load(defaults=Preferences.from_config(Config()))
    SettingsScene(app).change(lang="en")  # the players pick English, which the configuration also says
    assert json.loads(Preferences.path().read_text(encoding="utf-8")) == {"lang": "en"}
    admin = Preferences.from_config(Config(game=GameConfig(language="ru")))
    assert Preferences.load(defaults=admin).lang == "en", "a later configuration change does not undo it"
