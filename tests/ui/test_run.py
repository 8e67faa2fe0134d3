"""`make run` on a machine with no camera and no GPIO: the app opens on the simulated table and saves the game."""
import os
import socket
import sqlite3
import tempfile

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


@pytest.fixture
def notify_socket():
    # AF_UNIX paths are limited to ~108 bytes, so not pytest's long tmp_path.
    folder = tempfile.mkdtemp(prefix="notify-")
    path = os.path.join(folder, "sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    yield path, server
    server.close()
    os.unlink(path)
    os.rmdir(folder)


def received(server) -> list[str]:
    server.setblocking(False)
    messages = []
    try:
        while True:
            messages.append(server.recv(4096).decode())
    except BlockingIOError:
        return messages


def test_run_opens_the_simulated_table_and_saves_it(tmp_path, monkeypatch):
    use_temporary_places(tmp_path, monkeypatch)
    assert run(size=(800, 480), windowed=True, simulate=True, stop_after=1.0) == 0
    database = tmp_path / "state" / "companion" / "companion.db"
    games = sqlite3.connect(database).execute("SELECT kind, title FROM games").fetchall()
    assert games == [("nightmarium", "Ann · Bob · Cleo")]


def test_under_systemd_the_app_says_ready_pings_the_watchdog_and_says_stopping(tmp_path, monkeypatch,
                                                                                notify_socket):
    """Issue 6, systemd: Type=notify with WatchdogSec: READY once the window is up, a heartbeat from the loop."""
    path, server = notify_socket
    use_temporary_places(tmp_path, monkeypatch)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    monkeypatch.setenv("WATCHDOG_USEC", "200000")  # WatchdogSec=0.2 s: a ping at least every 0.1 s
    assert run(size=(800, 480), windowed=True, simulate=True, stop_after=1.0) == 0
    messages = received(server)
    assert messages[0].startswith("READY=1\nSTATUS=table screen; simulated table")
    assert messages[-1].startswith("STOPPING=1")
    pings = [message for message in messages if message == "WATCHDOG=1"]
    assert len(pings) >= 5, messages  # one second of loop at one ping per 0.1 s, idle or not
    assert all(message.startswith(("READY=1", "WATCHDOG=1", "STATUS=", "STOPPING=1")) for message in messages)


def test_a_bad_configuration_refuses_to_start_and_names_file_line_key(tmp_path, monkeypatch, capsys,
                                                                     notify_socket):
    """Issue 6: "the app never starts half-configured"."""
    from companion.cli import main

    path, server = notify_socket
    use_temporary_places(tmp_path, monkeypatch)
    monkeypatch.setenv("NOTIFY_SOCKET", path)
    bad = tmp_path / "config.toml"
    bad.write_text("[display]\nfullscreen = false\n\n[gpio]\nroll = 40\n", encoding="utf-8")
    monkeypatch.setenv("COMPANION_CONFIG", str(bad))
    opened = []
    monkeypatch.setattr("companion.ui.app.App.run", lambda *args, **kwargs: opened.append(True) or 0)
    assert main(["run", "--windowed"]) == 1
    error = capsys.readouterr().err
    assert f"{bad}, line 5: gpio.roll = 40 is not valid; expected a BCM GPIO number from 0 to 27" in error
    assert "Traceback" not in error
    assert opened == [], "no window, no half-configured app"
    assert not (tmp_path / "state" / "companion" / "companion.db").exists()
    messages = received(server)
    assert not any(message.startswith("READY=1") for message in messages)
    assert any("gpio.roll" in message for message in messages if message.startswith("STATUS="))


def capture_app(monkeypatch):
    """Run the app for one short loop and keep it to look at."""
    from companion.ui.app import App

    apps = []
    original = App.run

    def short_run(self, fullscreen=False, stop_after=None, notifier=None):
        apps.append(self)
        return original(self, fullscreen=fullscreen, stop_after=0.2, notifier=notifier)

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
