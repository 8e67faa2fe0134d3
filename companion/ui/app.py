"""The application: a stack of scenes, one non-blocking loop, and the inbox that worker threads feed.

The loop never blocks: the camera pipeline runs in a worker thread and puts stable table states into `app.inbox`
(a queue.Queue); GPIO presses come from the Controls poller. While a scene animates the loop runs at ~30 fps,
otherwise it sleeps in pygame.event.wait with a timeout, so an idle app uses almost no CPU and only dirty scenes
are redrawn.
"""
from __future__ import annotations

import logging
import queue
import time
import traceback

import pygame

from companion.ui.scene import Scene

log = logging.getLogger(__name__)

ANIMATION_FPS = 30
IDLE_WAIT_MS = 100  # how often an idle app wakes up to poll the inbox and the buttons


def idle_wait_ms(watchdog_interval: float | None) -> int:
    """The idle wait: short enough that the loop pings systemd's watchdog in time even when nothing happens
    (at most half the ping interval, which is itself half of WatchdogSec)."""
    if watchdog_interval is None:
        return IDLE_WAIT_MS
    return max(1, min(IDLE_WAIT_MS, int(watchdog_interval * 1000 / 2)))


class _Silent:
    """The notifier used when none is given: every call does nothing."""

    watchdog_interval = None

    def __getattr__(self, name):
        return lambda *args, **kwargs: False


class App:
    def __init__(self, size=(800, 480), lang: str = "en", preferences=None, store=None, devices=None,
                 strict: bool = False):
        from companion.ui.preferences import Preferences

        self.size = tuple(size)
        self.preferences = preferences if preferences is not None else Preferences()
        self.lang = lang or self.preferences.lang
        self.store = store
        self.devices = devices
        self.strict = strict  # tests: a screen's exception propagates instead of becoming a message
        self.scenes: list[Scene] = []
        self.inbox: queue.Queue = queue.Queue()
        self.running = False
        self.errors: list[str] = []
        self.simulate = False  # no camera: the launcher's Nightmarium defaults to the simulated table
        self.background = True  # may start worker threads (tests turn this off to stay deterministic)
        self.gpio_pins: dict[str, int] = {}  # control -> BCM pin, from the configuration (shown in Settings)
        # The camera as the guard last reported it: None = no camera in use (simulated table, camera off in
        # Settings), True/False = connected or not; `camera_message` is the guard's line for the status chip.
        self.camera_connected: bool | None = None
        self.camera_message: str | None = None
        self.notice: str | None = None  # shown once, over whatever screen is up (a database moved aside)
        self.camera_worker = None  # the CameraWorker reading the camera, if any (teaching reloads its recogniser)
        self.teaching = None  # the TeachWorker teaching the recogniser a card, if one was started
        self.teach_status: tuple[str, str | None] | None = None  # its last ("progress"|"done"|"failed", detail)
        self.latest_frame = None  # the last camera (or synthetic camera) picture posted, BGR: calibration shows it
        # The table calibration the camera reads with (vision.geometry.Calibration) and where it came from: "screen"
        # (calibrated on the touchscreen), "config" ([camera] calibration) or None (the picture is the table).
        self.calibration = None
        self.calibration_source: str | None = None
        self.config_calibration = None  # the configuration's, which "Forget" on the calibration screen goes back to

    # -- the scene stack ----------------------------------------------------------------------------------
    @property
    def top(self) -> Scene | None:
        return self.scenes[-1] if self.scenes else None

    def push(self, scene: Scene) -> None:
        self.scenes.append(scene)
        scene.dirty = True

    def pop(self) -> Scene | None:
        if len(self.scenes) <= 1:
            return None  # the launcher stays
        scene = self.scenes.pop()
        self.top.on_enter()
        return scene

    def replace(self, scene: Scene) -> None:
        if self.scenes:
            self.scenes.pop()
        self.push(scene)

    def home(self) -> None:
        del self.scenes[1:]
        if self.top:
            self.top.on_enter()

    # -- input ------------------------------------------------------------------------------------------
    def finger_position(self, event) -> tuple[int, int]:
        return int(event.x * self.size[0]), int(event.y * self.size[1])

    def post_control(self, control: str, action: str = "press") -> None:
        self.dispatch(pygame.event.Event(pygame.USEREVENT, control=control, action=action))

    def dispatch(self, event) -> None:
        if event.type == pygame.QUIT:
            self.running = False
            return
        if self.notice is not None and self._dismisses_notice(event):
            self.notice = None  # read: this touch only closes it, so it cannot press what lies underneath
            if self.top is not None:
                self.top.dirty = True
            return
        if event.type == pygame.VIDEORESIZE:
            self.size = (event.w, event.h)
            for scene in self.scenes:
                scene.dirty = True
            return
        if self.top is not None:
            try:
                self.top.handle(event)
            except Exception as error:
                self.report_error(error)

    @staticmethod
    def _dismisses_notice(event) -> bool:
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN, pygame.KEYDOWN):
            return True
        return event.type == pygame.USEREVENT and getattr(event, "control", None) is not None

    def drain_inbox(self) -> None:
        """Hand what the worker threads produced (table states, simulated happenings, camera status, frames) to
        the topmost scene that follows the table, even under a dialog, so no step of a game is lost."""
        while True:
            try:
                kind, payload = self.inbox.get_nowait()
            except queue.Empty:
                return
            if kind == "camera":
                self.camera_connected = payload == "ok"
            elif kind == "camera_status":
                self.camera_message = payload
                if self.top is not None:
                    self.top.dirty = True  # the status chip; no scene needs the event itself
                continue
            elif kind == "frame":
                self.latest_frame = payload  # and on to the scene following the table, below
            elif kind == "teach_status":
                self.teach_status = payload
                if self.top is not None:
                    self.top.dirty = True  # the camera view's caption
                continue
            event = pygame.event.Event(pygame.USEREVENT, **{kind: payload})
            target = next((scene for scene in reversed(self.scenes) if getattr(scene, "follows_table", False)),
                          self.top)
            if target is None:
                continue
            try:
                target.handle(event)
            except Exception as error:
                self.report_error(error)
            if self.top is not None:
                self.top.dirty = True

    def poll_devices(self) -> None:
        if self.devices is None:
            return
        for action, control in self.devices.poll():
            self.post_control(control, action)

    def report_error(self, error: Exception) -> None:
        if self.strict:
            raise error
        log.error("screen error: %s", "".join(traceback.format_exception(error)))
        self.errors.append(str(error))

    # -- saving -------------------------------------------------------------------------------------------
    def save(self, write) -> bool:
        """Run write(store); False (and a message) when it failed, so the screen can say the game is unsaved."""
        if self.store is None:
            return True
        try:
            write(self.store)
            return True
        except Exception as error:  # SaveError, a full disk, a yanked SD card: keep playing, say it
            log.error("could not save: %s", error)
            self.errors.append(f"save failed: {error}")
            return False

    # -- one frame --------------------------------------------------------------------------------------
    def step(self, events, dt: float) -> None:
        for event in events:
            self.dispatch(event)
        self.drain_inbox()
        self.poll_devices()
        if self.top is not None:
            try:
                self.top.update(dt)
            except Exception as error:
                self.report_error(error)

    def render(self, surface, force: bool = False) -> bool:
        scene = self.top
        if scene is None or not (scene.dirty or force):
            return False
        scene.dirty = False
        try:
            scene.draw(surface)
            if self.notice is not None:
                self.draw_notice(surface)
        except Exception as error:
            self.report_error(error)
        return True

    def draw_notice(self, surface) -> None:
        """The one-time notice as a banner along the bottom, over the screen; any touch or key closes it."""
        from companion.ui import theme
        from companion.ui.i18n import t
        from companion.ui.widgets import Layout, draw_paragraph

        layout = Layout(surface.get_size())
        font = layout.font(16)
        banner = pygame.Rect(layout.px(10), 0, layout.width - layout.px(20), layout.px(112))
        banner.bottom = layout.height - layout.px(10)
        pygame.draw.rect(surface, theme.PANEL_LIGHT, banner, border_radius=layout.px(10))
        pygame.draw.rect(surface, theme.WARNING, banner, width=max(2, layout.px(3)), border_radius=layout.px(10))
        draw_paragraph(surface, f"{self.notice}  [{t('common.ok', self.lang)}]", font, theme.TEXT,
                       banner.inflate(-layout.px(24), -layout.px(16)))

    @property
    def animating(self) -> bool:
        return bool(self.top is not None and getattr(self.top, "animating", False))

    def describe(self) -> str:
        """One line for `systemctl status`: the screen and the camera. It changes only on events that matter."""
        screen = type(self.top).__name__.removesuffix("Scene").lower() if self.top is not None else "none"
        if self.simulate:
            camera = "simulated table"
        elif self.camera_connected is None:
            camera = "no camera, manual mode"
        else:
            camera = "camera ok" if self.camera_connected else "camera lost, manual mode"
        return f"{screen} screen; {camera}"

    def run(self, fullscreen: bool = False, stop_after: float | None = None, notifier=None) -> int:
        """The loop. stop_after (seconds) ends it, for benchmarks and the smoke test. `notifier` (a
        hardware.watchdog.SystemdNotifier) hears READY once the window is up, a heartbeat from every iteration,
        and STATUS when `describe()` changes."""
        notifier = notifier if notifier is not None else _Silent()
        idle_wait = idle_wait_ms(notifier.watchdog_interval)
        flags = pygame.FULLSCREEN if fullscreen else pygame.RESIZABLE
        screen = pygame.display.set_mode(self.size if not fullscreen else (0, 0), flags)
        self.size = screen.get_size()
        pygame.display.set_caption("Tabletop companion")
        clock = pygame.time.Clock()
        self.running = True
        forced = True
        started = pygame.time.get_ticks()
        self.frames_drawn = 0
        self.iterations = 0
        notifier.ready(self.describe())
        log.info("window up (%dx%d): %s", *self.size, self.describe())
        while self.running and self.scenes:
            self.iterations += 1
            notifier.heartbeat(time.monotonic())
            notifier.status(self.describe())
            if stop_after is not None and pygame.time.get_ticks() - started >= stop_after * 1000:
                break
            if self.animating:
                dt = clock.tick(ANIMATION_FPS) / 1000.0
                events = pygame.event.get()
            else:
                first = pygame.event.wait(idle_wait)
                events = ([first] if first.type != pygame.NOEVENT else []) + pygame.event.get()
                dt = clock.tick() / 1000.0
            self.step(events, dt)
            screen = pygame.display.get_surface()
            if self.render(screen, force=forced):
                pygame.display.flip()
                self.frames_drawn += 1
            forced = False
        return 0
