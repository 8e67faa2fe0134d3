"""Logging set-up for the journal: one line per event, with the level journald understands.

Under systemd ($JOURNAL_STREAM is set) stderr goes to the journal, which adds its own timestamps and reads a
"<N>" syslog priority prefix on each line (SyslogLevelPrefix=yes, the default), so `journalctl -p warning`
works. In a terminal, lines get a time instead.
"""
from __future__ import annotations

import logging
import os
import sys

# syslog priorities (sd-daemon(3)): err 3, warning 4, info 6, debug 7.
_PRIORITY = {logging.CRITICAL: 2, logging.ERROR: 3, logging.WARNING: 4, logging.INFO: 6, logging.DEBUG: 7}


class JournalFormatter(logging.Formatter):
    def __init__(self):
        super().__init__("%(name)s: %(message)s")

    def format(self, record: logging.LogRecord) -> str:
        priority = _PRIORITY.get(record.levelno, 6)
        # One event, one journal line: a multi-line message (a traceback) keeps its prefix on every line.
        return "\n".join(f"<{priority}>{line}" for line in super().format(record).splitlines() or [""])


def configure_logging(level: int = logging.INFO, stream=None, environ=None) -> logging.Handler:
    """Send the app's log to stderr in the journal's format (or a terminal's); returns the handler."""
    environ = os.environ if environ is None else environ
    handler = logging.StreamHandler(stream or sys.stderr)
    if environ.get("JOURNAL_STREAM"):
        handler.setFormatter(JournalFormatter())
    else:
        handler.setFormatter(logging.Formatter("%(asctime)s %(levelname)s %(name)s: %(message)s", "%H:%M:%S"))
    root = logging.getLogger()
    root.addHandler(handler)
    root.setLevel(level)
    return handler
