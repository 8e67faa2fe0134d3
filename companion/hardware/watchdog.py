"""Talking to systemd: READY=1 once the app is up, WATCHDOG=1 from the main loop, STATUS=... on changes.

The unit has Type=notify and WatchdogSec, so systemd restarts the app when the main loop stops calling
`heartbeat()`. Outside systemd ($NOTIFY_SOCKET unset) every call does nothing.
"""
from __future__ import annotations

import logging
import os
import socket

log = logging.getLogger(__name__)


class SystemdNotifier:
    def __init__(self, environ: dict[str, str] | None = None):
        environ = os.environ if environ is None else environ
        address = environ.get("NOTIFY_SOCKET", "")
        # An address starting with "@" is in Linux's abstract namespace, spelled with a leading NUL byte.
        self._address = "\0" + address[1:] if address.startswith("@") else address
        self._socket: socket.socket | None = None
        self.watchdog_interval = self._watchdog_interval(environ)
        self._last_heartbeat: float | None = None
        self._last_status: str | None = None

    @staticmethod
    def _watchdog_interval(environ) -> float | None:
        """Seconds between WATCHDOG=1 pings: half of WatchdogSec, as sd_watchdog_enabled(3) advises."""
        try:
            usec = int(environ.get("WATCHDOG_USEC", ""))
        except ValueError:
            return None
        watchdog_pid = environ.get("WATCHDOG_PID")
        if usec <= 0 or (watchdog_pid and watchdog_pid != str(os.getpid())):
            return None
        return usec / 2_000_000

    @property
    def enabled(self) -> bool:
        return bool(self._address)

    def notify(self, message: str) -> bool:
        """Send one raw notification ("KEY=value" lines); False when there is no systemd to tell."""
        if not self._address:
            return False
        try:
            if self._socket is None:
                self._socket = socket.socket(socket.AF_UNIX, socket.SOCK_DGRAM | socket.SOCK_CLOEXEC)
            # Never wait: the main loop must not block on systemd (a full queue costs one ping, not the loop).
            self._socket.sendto(message.encode("utf-8"), socket.MSG_DONTWAIT, self._address)
            return True
        except BlockingIOError:
            log.debug("systemd's notification queue is full; %r not sent", message)
            return False
        except OSError as error:
            # Losing the notify socket must not stop a game; systemd will restart us if it matters.
            log.warning("cannot notify systemd (%s)", error)
            return False

    def ready(self, status: str = "ready") -> bool:
        self._last_status = status
        return self.notify(f"READY=1\nSTATUS={status}")

    def status(self, text: str) -> bool:
        """Tell systemd what the app is doing; repeated identical texts are not resent."""
        if text == self._last_status:
            return False
        self._last_status = text
        return self.notify(f"STATUS={text}")

    def heartbeat(self, now: float) -> bool:
        """Call every loop iteration with the current monotonic time; pings only as often as needed."""
        interval = self.watchdog_interval
        if interval is None or not self._address:
            return False
        if self._last_heartbeat is not None and now - self._last_heartbeat < interval:
            return False
        self._last_heartbeat = now
        return self.notify("WATCHDOG=1")

    def stopping(self, status: str = "stopping") -> bool:
        return self.notify(f"STOPPING=1\nSTATUS={status}")

    def close(self) -> None:
        if self._socket is not None:
            self._socket.close()
            self._socket = None
