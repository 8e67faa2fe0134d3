"""systemd notifications over $NOTIFY_SOCKET: READY, STATUS on change, WATCHDOG at half of WatchdogSec."""
import os
import socket
import tempfile

import pytest

from companion.hardware.watchdog import SystemdNotifier


@pytest.fixture
def listener():
    # AF_UNIX paths are limited to ~108 bytes, so not pytest's long tmp_path.
    folder = tempfile.mkdtemp(prefix="notify-")
    path = os.path.join(folder, "sock")
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind(path)
    server.settimeout(5)
    yield path, server
    server.close()
    os.unlink(path)
    os.rmdir(folder)


def received(server):
    server.setblocking(False)
    messages = []
    try:
        while True:
            messages.append(server.recv(4096).decode())
    except BlockingIOError:
        return messages


def test_ready_status_and_heartbeat_reach_the_socket(listener):
    path, server = listener
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000"})
    assert notifier.watchdog_interval == 5.0
    assert notifier.ready("playing nightmarium")
    assert notifier.status("camera lost")
    assert not notifier.status("camera lost")  # unchanged: not resent
    sent = [notifier.heartbeat(now) for now in (100.0, 101.0, 104.9, 105.0, 106.0, 110.1)]
    assert sent == [True, False, False, True, False, True]
    notifier.stopping()
    notifier.close()
    assert received(server) == ["READY=1\nSTATUS=playing nightmarium", "STATUS=camera lost",
                                "WATCHDOG=1", "WATCHDOG=1", "WATCHDOG=1", "STOPPING=1\nSTATUS=stopping"]


def test_abstract_socket_address(listener):
    name = f"companion-test-{os.getpid()}"
    server = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM)
    server.bind("\0" + name)
    try:
        assert SystemdNotifier({"NOTIFY_SOCKET": "@" + name}).ready()
        assert server.recv(100) == b"READY=1\nSTATUS=ready"
    finally:
        server.close()


def test_without_systemd_everything_is_a_no_op():
    notifier = SystemdNotifier({})
    assert not notifier.enabled
    assert notifier.ready() is False and notifier.heartbeat(0.0) is False and notifier.status("x") is False


def test_watchdog_meant_for_another_process_is_ignored(listener):
    path, _ = listener
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "10000000", "WATCHDOG_PID": "1"})
    assert notifier.watchdog_interval is None and notifier.heartbeat(0.0) is False


def test_a_vanished_socket_is_reported_not_raised(tmp_path):
    notifier = SystemdNotifier({"NOTIFY_SOCKET": str(tmp_path / "gone")})
    assert notifier.ready() is False


def test_a_separate_process_started_like_systemd_starts_it_notifies(listener):
    """systemd sets WATCHDOG_PID to the service's pid; `exec` keeps the shell's pid ($$) for Python."""
    import subprocess
    import sys
    from pathlib import Path

    path, server = listener
    program = ("import time; from companion.hardware.watchdog import SystemdNotifier; "
               "n = SystemdNotifier(); n.ready('menu'); [n.heartbeat(t) for t in (0.0, 0.1, 0.6)]")
    repo = Path(__file__).resolve().parents[2]
    env = {"NOTIFY_SOCKET": path, "WATCHDOG_USEC": "1000000", "PYTHONPATH": str(repo), "PATH": "/usr/bin:/bin"}
    subprocess.run(["sh", "-c", f'WATCHDOG_PID=$$ exec "{sys.executable}" -c "{program}"'], env=env, check=True,
                   timeout=60)
    assert received(server) == ["READY=1\nSTATUS=menu", "WATCHDOG=1", "WATCHDOG=1"]


def test_a_full_notification_queue_costs_a_message_not_a_blocked_main_loop(listener):
    """The app's loop must never block (issue 4): a systemd that stops reading must not freeze the screen."""
    path, server = listener
    notifier = SystemdNotifier({"NOTIFY_SOCKET": path})
    results = [notifier.status(f"status {number}") for number in range(5000)]
    assert results[0] is True
    assert False in results, "the unread queue filled up and the notifier gave up instead of waiting"
    notifier.close()
