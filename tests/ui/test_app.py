"""The app loop's plumbing: camera states and GPIO presses reach the game; saves survive a restart."""
import json
import queue

import pygame
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import GpioConfig
from companion.games.nightmarium import Card
from companion.hardware.controls import Controls
from companion.referee.table_view import seen_of
from companion.storage.saves import SaveStore
from companion.ui.camera_worker import CameraWorker
from companion.ui.history import HistoryScene
from companion.ui.nightmarium.chain import ChainScene
from companion.ui.nightmarium.session import Session
from companion.ui.nightmarium.table import TableScene
from companion.ui.nightmarium.win import WinScene
from companion.ui.preferences import Preferences
from companion.ui.render import build_screen, make_app
from vision.table_state import TableState


def table_app(mode="camera", store=None):
    app = make_app((800, 480), strict=True)
    if store is not None:
        app.store = store
    build_screen(app, "launcher")
    session = Session.new(app, ["Ann", "Bob"], "ru2014", 5, False, mode)
    app.push(TableScene(app, session))
    return app, session


def legs_on_table(session, legion="red"):
    table = session.referee.expected_table()
    legs = seen_of(Card.face(legion, ("legs",)), 0, 0, "legs")
    seats = dict(table.seats)
    seats[0] = table.creatures(0) + ((legs,),)
    return TableState(seats=seats)


def test_a_stable_table_from_the_camera_thread_becomes_a_move():
    app, session = table_app()
    app.inbox.put(("table_state", legs_on_table(session)))
    app.step([], 0.03)
    assert len(session.game.players[0].creatures) == 1
    assert session.game.actions_left == 1
    assert app.top.dirty


def test_camera_states_are_ignored_in_manual_mode_and_after_the_camera_is_lost():
    app, session = table_app(mode="manual")
    app.inbox.put(("table_state", legs_on_table(session)))
    app.step([], 0.03)
    assert session.game.players[0].creatures == []
    app, session = table_app(mode="camera")
    app.inbox.put(("camera", "lost"))
    app.inbox.put(("table_state", legs_on_table(session)))
    app.step([], 0.03)
    assert session.camera_lost
    assert session.game.players[0].creatures == [], "manual mode until the camera is back"
    surface = pygame.Surface(app.size)
    app.render(surface, force=True)  # the chip says "camera lost, manual mode"
    app.inbox.put(("camera", "ok"))
    app.inbox.put(("table_state", legs_on_table(session)))
    app.step([], 0.03)
    assert len(session.game.players[0].creatures) == 1


class FakeClock:
    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now


def test_the_gpio_draw_button_is_the_draw_action():
    factory = MockFactory(pin_class=MockPWMPin)
    clock = FakeClock()
    controls = Controls(GpioConfig(), pin_factory=factory, clock=clock)
    try:
        app, session = table_app()
        app.devices = controls
        pin = factory.pin(GpioConfig().draw)
        pin.drive_low()
        clock.now += 0.1
        pin.drive_high()
        clock.now += 0.5
        app.step([], 0.03)
        assert session.game.moves[-1].kind == "draw"
        assert len(session.game.players[0].hand) == 6
    finally:
        controls.close()


def test_a_warning_names_the_rule_on_screen_and_buttons_offer_the_way_out():
    app, session = table_app()
    table = session.referee.expected_table()
    torso = seen_of(Card.face("red", ("torso",)), 0, 0, "legs")
    app.inbox.put(("table_state", TableState(seats={0: ((torso,),), 1: ()})))
    app.step([], 0.03)
    assert session.warning is not None and session.warning.rule.startswith("placement.")
    app.render(pygame.Surface(app.size), force=True)
    labels = [button.label for button in app.top.buttons]
    assert "I'll fix the table" in labels
    assert table.seats == session.referee.expected_table().seats


class ScriptedCamera:
    """A frame source (vision.sources interface) whose frames are lists of seen cards; `world.plugged` pulls it."""

    def __init__(self, world):
        self.world = world

    def read(self):
        if not self.world.plugged:
            raise OSError("device disconnected")
        return self.world.frames.pop(0) if self.world.frames else []

    def close(self):
        pass

    def describe(self):
        return "scripted camera"


class CameraWorld:
    def __init__(self, frames=(), plugged=True):
        self.frames = list(frames)
        self.plugged = plugged

    def open(self, spec):
        if not self.plugged:
            raise OSError("no camera found")
        return ScriptedCamera(self)


def scripted_guard(world):
    from companion.hardware.camera_guard import CameraGuard

    return CameraGuard("usb:0", opener=world.open, first_delay=1.0, max_delay=4.0, bad_frames_allowed=1)


class FakeRecogniser:
    def scan(self, frame):
        from vision.pipeline import ScanResult

        return ScanResult(cards=frame)


class FakeStabiliser:
    def update(self, cards, now):
        return TableState(seats={0: (tuple(cards),)}) if cards else None


def test_the_camera_worker_posts_states_and_camera_loss_to_the_inbox():
    inbox = queue.Queue()
    card = seen_of(Card.face("red", ("legs",)), 0, 0, "legs")
    world = CameraWorld([[card]])
    worker = CameraWorker(scripted_guard(world), inbox, FakeRecogniser(), FakeStabiliser(), clock=FakeClock())
    worker.stopping.set()  # step() must not sleep once the camera is gone
    worker.step()
    world.plugged = False
    worker.step()
    posted = [inbox.get_nowait() for _ in range(inbox.qsize())]
    posted = [item for item in posted if item[0] not in ("seen", "frame")]  # the camera view's (test_camera_view)
    assert posted[0] == ("camera", "ok")
    assert posted[1] == ("camera_status", "camera: scripted camera")
    assert posted[2][0] == "table_state" and posted[2][1].seats[0][0][0] == card
    assert posted[3] == ("camera", "lost")
    assert posted[4][0] == "camera_status" and "camera lost" in posted[4][1] and "retrying" in posted[4][1]


def test_a_game_resumes_after_a_restart_and_lands_in_history_when_won(tmp_path):
    path = tmp_path / "companion.db"
    app, session = table_app(store=SaveStore(path))
    app.inbox.put(("table_state", legs_on_table(session)))
    app.step([], 0.03)
    app.top.draw_card_action()
    expected = session.game.to_json()
    app.store.close()

    restarted = make_app((800, 480), strict=True)
    restarted.store = SaveStore(path)
    build_screen(restarted, "nightmarium-setup")
    setup = restarted.top
    assert setup.saved is not None
    setup.resume()
    resumed = restarted.top.session
    assert resumed.game.to_json() == expected
    assert resumed.game.active == 1

    resumed.game.winner = 0  # the end of the game: what History shows, not how it was won
    resumed.save([{"kind": "draw"}], [])
    history = HistoryScene(restarted)
    assert [game.result["winner"] for game in history.entries] == ["Ann"]


def test_a_corrupt_saved_state_gives_a_message_not_a_traceback():
    app = make_app((800, 480), strict=True)
    app.store.new_game("nightmarium", "Ann · Bob", {"game": {"half": "written"}})
    build_screen(app, "nightmarium-setup")
    app.top.resume()
    assert "cannot be read" in app.top.message


def test_corrupt_preferences_give_defaults_and_a_message(tmp_path):
    path = tmp_path / "ui.json"
    path.write_text('{"lang": "ru", "players": [', encoding="utf-8")
    preferences = Preferences.load(path)
    assert preferences.lang == "en" and "unreadable" in preferences.problem
    path.write_text(json.dumps({"lang": "xx", "win_target": 9, "players": ["solo"]}), encoding="utf-8")
    preferences = Preferences.load(path)
    assert (preferences.lang, preferences.win_target, len(preferences.players) >= 2) == ("en", 5, True)


def test_the_chain_screen_opens_by_itself_and_closes_when_the_chain_ends():
    from companion.ui.nightmarium import samples

    app = make_app((800, 480), strict=True)
    build_screen(app, "launcher")
    session = samples.played_session(app, samples.chain_with_target)
    app.push(TableScene(app, session))
    app.top.on_enter()
    assert isinstance(app.top, ChainScene)
    while session.game.stack and not session.game.over:
        move = next(iter(session.game.legal_moves()), None)
        if move is None:
            break
        app.top.answer(move)
    if session.game.over:
        assert isinstance(app.top, WinScene)
    elif not session.game.stack:
        assert isinstance(app.top, TableScene)


def test_the_launcher_says_what_went_wrong_at_start():
    app = make_app((800, 480), strict=True)
    app.errors.append("configuration not used: line 3: expected a number")
    build_screen(app, "launcher")
    plain = pygame.Surface(app.size)
    app.render(plain, force=True)
    app.errors.clear()
    clean = pygame.Surface(app.size)
    app.render(clean, force=True)
    assert pygame.image.tobytes(plain, "RGB") != pygame.image.tobytes(clean, "RGB")
