"""`companion run`: set up configuration, saves, buttons and camera, then run the app's loop."""
from __future__ import annotations

import logging
import os
import sys
import time
from pathlib import Path

log = logging.getLogger(__name__)


def on_raspberry_pi() -> bool:
    try:
        return "raspberry pi" in Path("/proc/device-tree/model").read_text(errors="ignore").lower()
    except OSError:
        return False


def load_configuration():
    """The configuration, or the defaults plus the reason the file could not be used."""
    from companion.config import Config, load_config

    try:
        return load_config(), None
    except Exception as error:  # ConfigError or an unreadable file: run with defaults, say why
        return Config(), f"configuration not used: {error}"


def open_controls(config):
    try:
        from companion.hardware.controls import Controls

        controls = Controls.from_config(config)
        return controls if controls.available else None
    except Exception as error:  # no GPIO here, or it is misconfigured: touch and keyboard still work
        log.info("no GPIO buttons: %s", error)
        return None


def open_camera(config):
    """A CameraGuard that has delivered a frame, else None (no camera on this machine)."""
    try:
        from companion.hardware.camera_guard import CameraGuard

        guard = CameraGuard(config.camera.source)
        if guard.read(time.monotonic()) is not None:
            return guard
        guard.close()
    except Exception as error:
        log.info("no camera: %s", error)
    return None


def run(size=None, windowed: bool = False, simulate: bool = False, lang: str | None = None,
        stop_after: float | None = None) -> int:
    """The app until the window closes (or stop_after seconds, for the smoke test)."""
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
    config, config_problem = load_configuration()
    from companion.ui.preferences import Preferences
    from companion.ui.saving import open_store

    preferences = Preferences.load()
    store, store_problem = open_store(config.storage.path)
    controls = open_controls(config)
    guard = None if simulate or not preferences.camera else open_camera(config)
    for problem in (config_problem, store_problem, preferences.problem):
        if problem:
            print(problem, file=sys.stderr)

    import pygame

    from companion.ui.app import App
    from companion.ui.screens import screen_factory

    pygame.display.init()  # no mixer: the box has no sound card to open
    pygame.font.init()
    app = App(size=size or config.display.size, lang=lang or preferences.lang, preferences=preferences, store=store,
              devices=controls)
    app.gpio_pins = {name: pin for name, pin in config.gpio.pins().items() if name in ("roll", "draw", "confirm")}
    app.simulate = simulate or (guard is None and preferences.camera)  # camera off in Settings: manual mode
    app.errors.extend(p for p in (config_problem, store_problem, preferences.problem) if p)
    worker = None
    if guard is not None:
        from companion.ui.camera_worker import CameraWorker

        worker = CameraWorker(guard, app.inbox)
        worker.start()
    app.push(screen_factory("launcher")(app))
    if app.simulate:
        open_simulated_table(app, preferences)
    fullscreen = not windowed and config.display.fullscreen and on_raspberry_pi()
    try:
        return app.run(fullscreen=fullscreen, stop_after=stop_after)
    except KeyboardInterrupt:
        return 0
    finally:
        if worker is not None:
            worker.stop(wait=3.0)
        for scene in app.scenes:
            session = getattr(scene, "session", None)
            if session is not None:
                session.stop(wait=3.0)
        pygame.quit()


def open_simulated_table(app, preferences) -> None:
    """No camera: show the referee at work at once, on a synthetic table playing a real game."""
    from companion.ui.nightmarium.session import Session
    from companion.ui.nightmarium.table import TableScene

    session = Session.new(app, list(preferences.players), preferences.edition, preferences.win_target,
                          preferences.seals and preferences.edition == "ru2014", "simulated")
    session.start_simulation()
    app.push(TableScene(app, session))
