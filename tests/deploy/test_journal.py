"""Journal logging (issue 6: "Logs go to the journal, one line per event that matters")."""
import io
import logging

from companion.hardware.journal import configure_logging


def capture(environ):
    stream = io.StringIO()
    handler = configure_logging(logging.INFO, stream=stream, environ=environ)
    log = logging.getLogger("companion.test")
    try:
        log.info("camera back: usb 0")
        log.warning("camera lost")
        log.debug("idle loop tick")  # below INFO: never written, so the idle loop cannot spam the journal
        try:
            raise ValueError("boom")
        except ValueError:
            log.exception("save failed")
    finally:
        logging.getLogger().removeHandler(handler)
    return stream.getvalue().splitlines()


def test_under_systemd_each_line_carries_its_syslog_priority():
    lines = capture({"JOURNAL_STREAM": "8:12345"})
    assert lines[0] == "<6>companion.test: camera back: usb 0"
    assert lines[1] == "<4>companion.test: camera lost"
    assert not any("idle loop" in line for line in lines)
    assert lines[2] == "<3>companion.test: save failed"
    assert all(line.startswith("<3>") for line in lines[2:]) and any("ValueError: boom" in line for line in lines)


def test_in_a_terminal_lines_have_time_and_level():
    lines = capture({})
    assert lines[0].endswith("INFO companion.test: camera back: usb 0")
    assert "<" not in lines[0]
