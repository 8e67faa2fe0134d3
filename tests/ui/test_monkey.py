"""Thousands of random touches, clicks, key presses and GPIO presses on every screen raise nothing."""
import random

import pygame
import pytest

from companion.ui.render import build_screen, make_app
from companion.ui.screens import screen_names

EVENTS_PER_SCREEN = 1500
KEYS = [pygame.K_ESCAPE, pygame.K_BACKSPACE, pygame.K_TAB, pygame.K_UP, pygame.K_DOWN, pygame.K_LEFT,
        pygame.K_RIGHT, pygame.K_RETURN, pygame.K_SPACE, pygame.K_PAGEUP, pygame.K_PAGEDOWN, pygame.K_d,
        pygame.K_x, pygame.K_p, pygame.K_u, pygame.K_l, pygame.K_c, pygame.K_n, pygame.K_s, pygame.K_h, pygame.K_a]


def random_event(rng: random.Random, app):
    width, height = app.size
    scene = app.top
    roll = rng.random()
    if roll < 0.55:
        # aim at a button half of the time, so the monkey gets past the first screen
        if scene.buttons and rng.random() < 0.5:
            position = rng.choice(scene.buttons).rect.center
        else:
            position = (rng.randrange(width), rng.randrange(height))
        if rng.random() < 0.5:
            return [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=position, button=1, touch=False),
                    pygame.event.Event(pygame.MOUSEBUTTONUP, pos=position, button=1, touch=False)]
        x, y = position[0] / width, position[1] / height
        return [pygame.event.Event(pygame.FINGERDOWN, x=x, y=y, dx=0, dy=0, finger_id=0, touch_id=0, pressure=1),
                pygame.event.Event(pygame.FINGERUP, x=x, y=y, dx=0, dy=0, finger_id=0, touch_id=0, pressure=1)]
    if roll < 0.8:
        return [pygame.event.Event(pygame.KEYDOWN, key=rng.choice(KEYS), mod=0, unicode="", scancode=0)]
    if roll < 0.9:
        return [pygame.event.Event(pygame.USEREVENT, control=rng.choice(["roll", "draw", "confirm"]),
                                   action=rng.choice(["press", "press", "hold"]))]
    if roll < 0.95:
        return [pygame.event.Event(pygame.MOUSEWHEEL, x=0, y=rng.choice([-1, 1]), flipped=False)]
    # a press released somewhere else: must not activate anything
    start = (rng.randrange(width), rng.randrange(height))
    return [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=start, button=1, touch=False),
            pygame.event.Event(pygame.MOUSEBUTTONUP, pos=(rng.randrange(width), rng.randrange(height)), button=1,
                               touch=False)]


@pytest.mark.parametrize("name", screen_names())
def test_monkey(name):
    rng = random.Random(f"monkey:{name}")
    app = make_app((800, 480), "en", strict=True)  # strict: a screen's exception fails the test
    build_screen(app, name)
    surface = pygame.Surface(app.size)
    app.render(surface, force=True)
    visited = set()
    for _ in range(EVENTS_PER_SCREEN):
        app.step(random_event(rng, app), 1 / 30)
        app.render(surface)
        visited.add(type(app.top).__name__)
        assert app.scenes, "the launcher must always stay at the bottom of the stack"
    assert len(visited) >= 2 or name == "launcher", f"the monkey never left {name}"
