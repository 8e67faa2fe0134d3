"""Every registered screen renders at the classic 7" size and at 720p, in every language, with touch targets
that a finger can hit and that lie on the screen."""
import pygame
import pytest

from companion.ui.render import build_screen, make_app
from companion.ui.screens import screen_names
from companion.ui.widgets import MIN_TOUCH

REQUIRED = {"launcher", "settings", "history", "nightmarium-setup", "nightmarium-table", "nightmarium-chain",
            "nightmarium-win"}


def test_the_issue_s_screens_are_registered():
    assert REQUIRED <= set(screen_names())


def render(name, size, lang="en"):
    app = make_app(size, lang, strict=True)
    scene = build_screen(app, name)
    surface = pygame.Surface(size)
    surface.fill((255, 0, 255))
    assert app.render(surface, force=True)
    return app, scene, surface


@pytest.mark.parametrize("size", [(800, 480), (1280, 720)])
@pytest.mark.parametrize("name", screen_names())
def test_screen_renders(name, size):
    app, scene, surface = render(name, size)
    assert app.errors == []
    colours = {tuple(surface.get_at((x, y)))[:3] for x in range(0, size[0], 40) for y in range(0, size[1], 40)}
    assert (255, 0, 255) not in colours, "the screen left part of the surface unpainted"
    assert len(colours) > 3, "the screen drew next to nothing"
    assert scene.buttons, "a screen with nothing to touch is a dead end"
    bounds = surface.get_rect()
    for button in scene.buttons:
        assert button.rect.width >= MIN_TOUCH and button.rect.height >= MIN_TOUCH, button.label
        assert bounds.contains(button.rect), f"{button.label!r} at {button.rect} is off the screen"


@pytest.mark.parametrize("lang", ["ru", "pl"])
@pytest.mark.parametrize("name", ["launcher", "settings", "nightmarium-setup", "nightmarium-chain"])
def test_screen_renders_in_each_language(name, lang):
    app, scene, surface = render(name, (800, 480), lang)
    assert app.errors == []
    assert app.lang == lang


def test_buttons_grow_to_the_minimum_touch_size():
    from companion.ui.widgets import Button

    button = Button(pygame.Rect(10, 10, 20, 10), "x")
    assert button.rect.size == (MIN_TOUCH, MIN_TOUCH)
