"""Render one named screen offscreen (no window): for `companion screenshot` and the tests."""
from __future__ import annotations

import os


def headless() -> None:
    os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
    os.environ.setdefault("SDL_AUDIODRIVER", "dummy")
    os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")


def make_app(size=(800, 480), lang: str = "en", strict: bool = False):
    headless()
    import pygame

    from companion.ui.app import App
    from companion.ui.preferences import Preferences
    from companion.ui.saving import MemorySaves

    pygame.display.init()
    pygame.font.init()
    preferences = Preferences(lang=lang)
    app = App(size=size, lang=lang, preferences=preferences, store=MemorySaves(), strict=strict)
    app.background = False  # a rendered screen is a still picture: no simulated players in the background
    from companion.config import GpioConfig

    app.gpio_pins = {name: getattr(GpioConfig(), name) for name in ("roll", "draw", "confirm")}
    return app


def build_screen(app, name: str):
    """The launcher at the bottom (as in the real app) and the named screen on top."""
    from companion.ui.screens import screen_factory

    launcher = screen_factory("launcher")(app)
    app.push(launcher)
    if name != "launcher":
        app.push(screen_factory(name)(app))
    return app.top


def render_screen(name: str, size=(800, 480), lang: str = "en"):
    import pygame

    app = make_app(size, lang, strict=True)
    build_screen(app, name)
    surface = pygame.Surface(size)
    app.render(surface, force=True)
    return surface
