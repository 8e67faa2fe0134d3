"""`companion run`: the simulated table on a laptop, systemd notifications, the journal, refusing a bad
configuration, and the configuration reaching preferences, saves and the camera worker."""
import os
import socket
import sqlite3
import tempfile
import threading

import pytest

from companion.ui.run import run


def use_temporary_places(tmp_path, monkeypatch):
    """Saves, settings and ~/.config in tmp_path; no configuration file unless a test writes one."""
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    monkeypatch.setenv("HOME", str(tmp_path / "home"))
    monkeypatch.delenv("COMPANION_CONFIG", raising=False)
    for name in ("STATE_DIRECTORY", "NOTIFY_SOCKET", "WATCHDOG_USEC", "WATCHDOG_PID", "JOURNAL_STREAM"):
        monkeypatch.delenv(name, raising=False)


class NotifyListener:
    """A fake $NOTIFY_SOCKET: a unix datagram socket read on a thread, as systemd reads it."""

    def __init__(self):
        # AF_UNIX paths are limited to ~108 bytes, so not pytest's long tmp_path.
        self.folder = tempfile.mkdtemp(prefix="notify-")
        self.path = os.path.join(self.folder, "sock")
        self.server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
        self.server.bind(self.path)
        self.server.settimeout(0.05)
        self.messages: list[str] = []
        self.done = threading.Event()
        self.thread = threading.Thread(target=self._read, daemon=True)
        self.thread.start()

    def _read(self):
        while not self.done.is_set():
            try:
                self.messages.append(self.server.recv(4096).decode())
            except (socket.timeout, OSError):
                continue

    def received(self) -> list[str]:
        self.done.set()
        self.thread.join()
        self.server.setblocking(False)
        try:
            while True:  # what arrived after the thread's last read
                self.messages.append(self.server.recv(4096).decode())
        except BlockingIOError:
            return self.messages

    def close(self):
        self.done.set()
        self.thread.join()
        self.server.close()
        os.unlink(self.path)
        os.rmdir(self.folder)


@pytest.fixture
def notify_socket():
    listener = NotifyListener()
    yield listener
    listener.close()


def test_run_opens_the_simulated_table_and_saves_it(tmp_path, monkeypatch):
    use_temporary_places(tmp_path, monkeypatch)
    assert run(size=(800, 480), windowed=True, simulate=True, stop_after=1.0) == 0
    database = tmp_path / "state" / "companion" / "companion.db"
    games = sqlite3.connect(database).execute("SELECT kind, title FROM games").fetchall()
    assert games == [("nightmarium", "Ann · Bob · Cleo")]


def test_under_systemd_the_app_says_ready_pings_the_watchdog_and_says_stopping(tmp_path, monkeypatch,
                                                                                notify_socket):
    """Issue 6, systemd: Type=notify with WatchdogSec: READY once the window is up, a heartbeat from the loop."""
    use_temporary_places(tmp_path, monkeypatch)
    monkeypatch.setenv("NOTIFY_SOCKET", notify_socket.path)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")  # WatchdogSec=0.2 s: a ping at least every 0.1 s
    assert run(size=(800, 480), windowed=True, simulate=True, stop_after=1.0) == 0
    messages = notify_socket.received()
    assert messages[0].startswith("READY=1\nSTATUS=table screen; simulated table")
    assert messages[-1].startswith("STOPPING=1")
    pings = [message for message in messages if message == "WATCHDOG=1"]
    assert len(pings) >= 5, messages  # one second of loop at one ping per 0.1 s, idle or not
    assert all(message.startswith(("READY=1", "WATCHDOG=1", "STATUS=", "STOPPING=1")) for message in messages)


def test_a_bad_configuration_refuses_to_start_and_names_file_line_key(tmp_path, monkeypatch, capsys,
                                                                     notify_socket):
    """Issue 6: "the app never starts half-configured"."""
    from companion.cli import main

    use_temporary_places(tmp_path, monkeypatch)
    monkeypatch.setenv("NOTIFY_SOCKET", notify_socket.path)
    bad = tmp_path / "config.toml"
    bad.write_text("[display]\nfullscreen = false\n\n[gpio]\nroll = 40\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_CONFIG", str(bad))
    opened = []
    monkeypatch.setattr("companion.ui.app.App.run", lambda *args, **kwargs: opened.append(True) or 0)
    assert main(["run", "--windowed"]) == 78   # EX_CONFIG: systemd's RestartPreventExitStatus stops the retries
    error = capsys.readouterr().err
    assert f"{bad}, line 5: gpio.roll = 40 is not valid; expected a BCM GPIO number from 0 to 27" in error
    assert "Traceback" not in error
    assert opened == [], "no window, no half-configured app"
    assert not (tmp_path / "state" / "companion" / "companion.db").exists()
    messages = notify_socket.received()
    assert not any(message.startswith("READY=1") for message in messages)
    assert any("gpio.roll" in message for message in messages if message.startswith("STATUS="))


def capture_app(monkeypatch, seconds=0.2):
    """Run the app for a short while and keep it to look at."""
    from companion.ui.app import App

    apps = []
    original = App.run

    def short_run(self, fullscreen=False, stop_after=None, notifier=None):
        apps.append(self)
        return original(self, fullscreen=fullscreen, stop_after=seconds, notifier=notifier)

    monkeypatch.setattr(App, "run", short_run)
    return apps


def test_the_configuration_sets_the_first_start_and_a_moved_aside_database_is_said_once(tmp_path, monkeypatch):
    use_temporary_places(tmp_path, monkeypatch)
    database = tmp_path / "games.db"
    database.write_bytes(b"this is not a database, it is a shopping list" * 100)
    config = tmp_path / "config.toml"
    config.write_text(f'[game]\nlanguage = "pl"\nwin_target = 7\n\n[storage]\npath = "{database}"\n',
                      encoding="utf-8")
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    apps = capture_app(monkeypatch)
    assert run(size=(800, 480), windowed=True, simulate=True) == 0
    app = apps[0]
    assert (app.lang, app.preferences.lang, app.preferences.win_target) == ("pl", "pl", 7)
    assert app.notice and "kept as" in app.notice and list(tmp_path.glob("games.db.unusable-*"))
    assert run(size=(800, 480), windowed=True, simulate=True) == 0
    assert apps[1].notice is None, "the next start has nothing to say"


def test_a_configured_camera_and_calibration_reach_the_camera_worker(tmp_path, monkeypatch):
    """[camera] source and calibration: the guard is connected, the app is not simulated, and the worker's
    recogniser and stabiliser use the calibration file."""
    import companion.ui.camera_worker as camera_worker
    from vision.geometry import Calibration

    use_temporary_places(tmp_path, monkeypatch)
    calibration = Calibration.from_json({"table_corners": [[20, 1200], [1600, 1190], [1580, 30], [40, 20]]})
    calibration.save(tmp_path / "calibration.json")
    config = tmp_path / "config.toml"
    config.write_text(f'[camera]\nsource = "synthetic:4"\ncalibration = "{tmp_path / "calibration.json"}"\n',
                      encoding="utf-8")
    monkeypatch.setenv("COMPANION_CONFIG", str(config))
    workers = []

    class RecordedWorker(camera_worker.CameraWorker):
        def start(self):
            workers.append(self)
            self.build_pipeline()  # on this thread, so the test sees what was built; no frames needed

    monkeypatch.setattr(camera_worker, "CameraWorker", RecordedWorker)
    apps = capture_app(monkeypatch)
    assert run(size=(800, 480), windowed=True) == 0
    assert not apps[0].simulate and apps[0].camera_connected is True
    assert workers[0].guard.describe() == "synthetic scenes (seed 4)"
    assert workers[0].recogniser.calibration == calibration == workers[0].stabiliser.calibration


def test_the_log_goes_to_the_journal_one_line_per_event_and_nothing_per_loop(tmp_path, monkeypatch, capsys):
    """Issue 6: "Logs go to the journal, one line per event that matters, no log spam in the idle loop"."""
    use_temporary_places(tmp_path, monkeypatch)
    monkeypatch.setenv("JOURNAL_STREAM", "8:12345")
    apps = capture_app(monkeypatch, seconds=1.5)
    assert run(size=(800, 480), windowed=True, simulate=True) == 0
    lines = [line for line in capsys.readouterr().err.splitlines() if line.startswith("<")]
    assert any(line.startswith("<6>companion.ui.run: starting with built-in defaults") for line in lines)
    assert any(line.startswith("<6>companion.ui.app: window up (800x480)") for line in lines)
    assert any(line.startswith("<6>companion.ui.run: stopping") for line in lines)
    assert apps[0].iterations >= 10  # the idle loop wakes at least every 100 ms
    assert len(lines) < 10, lines  # not one per iteration
