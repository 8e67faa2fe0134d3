"""The application: a stack of scenes, one non-blocking loop, and the inbox that worker threads feed.

The loop never blocks: the camera pipeline runs in a worker thread and puts stable table states into `app.inbox`
(a queue.Queue); GPIO presses come from the Controls poller. While a scene animates the loop runs at ~30 fps,
otherwise it sleeps in pygame.event.wait with a timeout, so an idle app uses almost no CPU and only dirty scenes
are redrawn.
"""
from __future__ import annotations

import logging
import queue
import traceback

import pygame

from companion.ui.scene import Scene

log = logging.getLogger(__name__)

ANIMATION_FPS = 30
IDLE_WAIT_MS = 100  # how often an idle app wakes up to poll the inbox and the buttons


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

    def drain_inbox(self) -> None:
        """Hand what the worker threads produced (table states, simulated happenings, camera status, frames) to
        the topmost scene that follows the table, even under a dialog, so no step of a game is lost."""
        while True:
            try:
                kind, payload = self.inbox.get_nowait()
            except queue.Empty:
                return
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
        except Exception as error:
            self.report_error(error)
        return True

    @property
    def animating(self) -> bool:
        return bool(self.top is not None and getattr(self.top, "animating", False))

    def run(self, fullscreen: bool = False, stop_after: float | None = None) -> int:
        """The loop. stop_after (seconds) ends it, for benchmarks."""
        flags = pygame.FULLSCREEN if fullscreen else pygame.RESIZABLE
        screen = pygame.display.set_mode(self.size if not fullscreen else (0, 0), flags)
        self.size = screen.get_size()
        pygame.display.set_caption("Tabletop companion")
        clock = pygame.time.Clock()
        self.running = True
        forced = True
        started = pygame.time.get_ticks()
        self.frames_drawn = 0
        while self.running and self.scenes:
            if stop_after is not None and pygame.time.get_ticks() - started >= stop_after * 1000:
                break
            if self.animating:
                dt = clock.tick(ANIMATION_FPS) / 1000.0
                events = pygame.event.get()
            else:
                first = pygame.event.wait(IDLE_WAIT_MS)
                events = ([first] if first.type != pygame.NOEVENT else []) + pygame.event.get()
                dt = clock.tick() / 1000.0
            self.step(events, dt)
            screen = pygame.display.get_surface()
            if self.render(screen, force=forced):
                pygame.display.flip()
                self.frames_drawn += 1
            forced = False
        return 0
