"""`companion run`: set up logging, configuration, saves, buttons and camera, then run the app's loop.

A bad configuration stops here, before any window opens: the app never starts half-configured. Under systemd
(Type=notify, WatchdogSec) the loop sends READY=1 once the window is up, a heartbeat from every iteration, STATUS
when the screen or the camera changes, and STOPPING=1 on the way out.
"""
from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path

log = logging.getLogger(__name__)

EXIT_BAD_CONFIGURATION = 78  # EX_CONFIG (sysexits.h): restarting cannot help until someone edits the file


def on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="ignore").lower()
    except OSError:
        return False


def load_configuration():
    """(config, calibration), or raises ConfigError with a message naming the file, line, key and expectation."""
    from companion.config import ConfigError, load_config

    config = load_config()
    calibration = None
    if config.camera.calibration is not None:
        try:
            from vision.geometry import Calibration

            calibration = Calibration.load(config.camera.calibration)
        except (ImportError, ValueError) as error:  # CalibrationError is a ValueError
            raise ConfigError(f"{config.source}: camera.calibration = \"{config.camera.calibration}\" cannot be "
                              f"used ({error}); expected a file written by `companion vision calibrate`") from None
    return config, calibration


def open_controls(config):
    try:
        from companion.hardware.controls import Controls

        controls = Controls.from_config(config)  # it logs which: ready, or why not
        return controls if controls.available else None
    except Exception as error:  # no GPIO here, or it is misconfigured: touch and keyboard still work
        log.info("no GPIO buttons: %s", error)
    return None


def open_camera(config, first_read_time: float | None = None, opener=None, raspberry_pi: bool | None = None):
    """The CameraGuard for the configured camera, kept even when the camera is missing now (it retries with
    back-off and picks the camera up when it appears), or None on a machine that has no camera at all: "auto"
    that finds nothing on anything but a Raspberry Pi (a laptop running `make run`: the simulated table)."""
    from companion.hardware.camera_guard import CameraGuard

    guard = CameraGuard.from_config(config, opener=opener)
    if guard.read(time.monotonic() if first_read_time is None else first_read_time) is not None:
        log.info("camera: %s", guard.describe())
        return guard
    if raspberry_pi is None:
        raspberry_pi = on_raspberry_pi()
    if config.camera.source == "auto" and not raspberry_pi:
        log.info("no camera on this machine: the simulated table")  # the guard has logged why
        guard.close()
        return None
    log.info("camera missing at start: manual mode until it appears")  # the guard has logged why
    return guard


def run(size=None, windowed: bool = False, simulate: bool = False, lang: str | None = None,
        stop_after: float | None = None) -> int:
    """The app until the window closes (or stop_after seconds, for the smoke test). EXIT_BAD_CONFIGURATION when
    the configuration cannot be used: systemd does not restart the service for it (RestartPreventExitStatus)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    from companion.config import ConfigError
    from companion.hardware.journal import configure_logging
    from companion.hardware.watchdog import SystemdNotifier

    log_handler = configure_logging()
    notifier = SystemdNotifier()
    try:
        try:
            config, calibration = load_configuration()
        except ConfigError as error:
            print(f"companion: the configuration cannot be used, not starting.\n{error}", file=sys.stderr)
            notifier.status(f"not started: {error}")
            return EXIT_BAD_CONFIGURATION
        log.info("starting with %s", config.describe())
        return run_configured(config, calibration, notifier, size, windowed, simulate, lang, stop_after)
    finally:
        notifier.stopping()
        notifier.close()
        logging.getLogger().removeHandler(log_handler)


def run_configured(config, calibration, notifier, size, windowed, simulate, lang, stop_after) -> int:
    from companion.ui.preferences import Preferences
    from companion.ui.saving import open_store

    preferences = Preferences.load(defaults=Preferences.from_config(config))
    store, store_problem = open_store(config.storage.path)
    controls = open_controls(config)
    guard = None if simulate or not preferences.camera else open_camera(config)
    from companion.ui.calibration import table_calibration

    in_use, calibration_source, calibration_problem = table_calibration(calibration)
    problems = [p for p in (store_problem, preferences.problem, calibration_problem) if p]
    for problem in problems:
        print(problem, file=sys.stderr)

    import pygame

    from companion.ui.app import App
    from companion.ui.screens import screen_factory

    pygame.display.init()  # no mixer: the box has no sound card to open
    pygame.font.init()
    app = App(size=size or config.display.size, lang=lang or preferences.lang, preferences=preferences, store=store,
              devices=controls)
    app.gpio_pins = {name: pin for name, pin in config.gpio.pins().items() if name in ("roll", "draw", "confirm")}
    # No guard: the simulated table (asked for, or a machine without a camera), or manual mode (camera off in
    # Settings). With a guard its `connected` decides, now and whenever the camera worker reports a change.
    app.simulate = simulate or (guard is None and preferences.camera)
    if guard is not None:
        app.camera_connected = guard.connected
        app.camera_message = guard.status(time.monotonic()).message
    app.config_calibration = calibration
    app.calibration, app.calibration_source = in_use, calibration_source
    app.errors.extend(problems)
    app.notice = getattr(store, "recovery_message", None)  # a database moved aside: said once, on screen
    worker = None
    if guard is not None:
        from companion.ui.camera_worker import CameraWorker

        worker = CameraWorker(guard, app.inbox, calibration=app.calibration, thorough=config.camera.thorough)
        worker.start()
        app.camera_worker = worker
    app.push(screen_factory("launcher")(app))
    if app.simulate:
        open_simulated_table(app, preferences)
    fullscreen = not windowed and config.display.fullscreen and on_raspberry_pi()
    try:
        return app.run(fullscreen=fullscreen, stop_after=stop_after, notifier=notifier)
    except KeyboardInterrupt:
        return 0
    except pygame.error as error:  # no display to open (SDL_VIDEODRIVER, /dev/dri): say so, no traceback
        print(f"companion: cannot open the display ({error})", file=sys.stderr)
        return 1
    finally:
        log.info("stopping")
        if worker is not None:
            worker.stop(wait=3.0)
        for scene in app.scenes:
            session = getattr(scene, "session", None)
            if session is not None:
                session.stop(wait=3.0)
        close = getattr(store, "close", None)
        if close is not None:
            close()
        pygame.quit()


def open_simulated_table(app, preferences) -> None:
    """No camera: show the referee at work at once, on a synthetic table playing a real game."""
    from companion.ui.nightmarium.session import Session
    from companion.ui.nightmarium.table import TableScene

    session = Session.new(app, list(preferences.players), preferences.edition, preferences.win_target,
                          preferences.seals and preferences.edition == "ru2014", "simulated")
    session.start_simulation()
    app.push(TableScene(app, session))
