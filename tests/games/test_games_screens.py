"""The issue-5 screens: each renders headless at 800x480 and 1280x720, survives a monkey, saves and resumes."""
import itertools
import random

import pygame
import pytest

from companion.ui.games.attic import AtticRollScene, start_attic
from companion.ui.games.common import GameScene
from companion.ui.games.cthulhu import start_cthulhu
from companion.ui.games.nemesis import NemesisBagScene, start_nemesis
from companion.ui.render import build_screen, make_app
from companion.ui.saving import MemorySaves
from companion.ui.screens import games, screen_names
from companion.ui.widgets import MIN_TOUCH

SCREENS = ("attic-setup", "attic-roll", "attic-fight", "nemesis-setup", "nemesis-bag", "nemesis-odds",
           "nemesis-madness", "cthulhu-setup", "cthulhu-scores", "cthulhu-chart", "cthulhu-portals")
SIZES = ((800, 480), (1280, 720))
OUR_MODULE = "companion.ui.games"


def render(app, size):
    surface = pygame.Surface(size)
    app.render(surface, force=True)
    return surface


def test_every_screen_is_registered_and_the_games_have_start_scenes():
    assert set(SCREENS) <= set(screen_names())
    keys = {entry.key: entry for entry in games()}
    for key in ("attic-monster", "nemesis-nightmares", "cthulhu-pocket-madness"):
        assert keys[key].start_factory is not None


@pytest.mark.parametrize("name, size, lang", [(n, s, l) for n, s in itertools.product(SCREENS, SIZES)
                                               for l in ("en",)] + [(n, (800, 480), "ru") for n in SCREENS])
def test_screen_renders_with_touch_targets_inside_and_apart(name, size, lang):
    app = make_app(size, lang, strict=True)
    scene = build_screen(app, name)
    surface = render(app, size)
    assert surface.get_bounding_rect().width > size[0] // 2  # something was drawn across the screen
    bounds = surface.get_rect()
    enabled = [button for button in scene.buttons if button.enabled]
    assert enabled, "a screen with no touch targets"
    for button in scene.buttons:
        assert button.rect.width >= MIN_TOUCH and button.rect.height >= MIN_TOUCH
        assert bounds.contains(button.rect), f"{button.label!r} leaves the screen at {size}"
    for first, second in itertools.combinations(scene.buttons, 2):
        assert not first.rect.colliderect(second.rect), f"{first.label!r} overlaps {second.label!r} at {size}"


def random_event(rng, size):
    kind = rng.random()
    position = (rng.randrange(size[0]), rng.randrange(size[1]))
    if kind < 0.6:
        return [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=position, button=1),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=position, button=1)]
    if kind < 0.8:
        key = rng.choice([pygame.K_r, pygame.K_d, pygame.K_u, pygame.K_TAB, pygame.K_RETURN, pygame.K_ESCAPE,
                          pygame.K_a, pygame.K_c, pygame.K_k, pygame.K_m, pygame.K_o, pygame.K_n, pygame.K_p])
        return [pygame.event.Event(pygame.KEYDOWN, key=key, mod=0, unicode="")]
    return [pygame.event.Event(pygame.USEREVENT, control=rng.choice(["roll", "draw", "confirm"]),
                               action=rng.choice(["press", "press", "hold"]))]


@pytest.mark.parametrize("name", SCREENS)
def test_monkey(name):
    """Random touches, keys and GPIO presses never raise, and every game screen still renders afterwards."""
    size = (800, 480)
    rng = random.Random(name)
    app = make_app(size, "en", strict=True)
    build_screen(app, name)
    for step in range(200):
        if not type(app.top).__module__.startswith(OUR_MODULE):
            del app.scenes[:]
            build_screen(app, name)  # the monkey left our screens (Back to the launcher): start again
        for event in random_event(rng, size):
            app.dispatch(event)
        app.step([], 0.2)
        if step % 10 == 0:
            render(app, size)
    assert app.errors == []


def test_roll_button_event_rolls_once_saves_and_resumes_after_a_restart():
    """Issue 5: the ROLL press (GPIO USEREVENT) is saved before it is shown; a restart resumes the game."""
    store = MemorySaves()
    app = make_app((800, 480), strict=True)
    app.store = store
    build_screen(app, "launcher")
    app.push(start_attic(app))
    app.top.start()
    scene = app.top
    assert isinstance(scene, AtticRollScene)
    app.post_control("roll", "press")
    assert len(scene.game.events) == 1
    saved = store.load(scene.game_id)
    assert saved.moves == 1 and saved.state["state"]["rolls_this_round"] == 1
    assert saved.events[0]["faces"] == scene.game.events[0]["faces"]
    app.post_control("roll", "hold")  # a hold is not a roll
    assert len(scene.game.events) == 1

    restarted = make_app((800, 480), strict=True)
    restarted.store = store
    resumed = start_attic(restarted)
    assert resumed.game_id == scene.game_id
    assert resumed.game.to_json() == scene.game.to_json()


def test_draw_button_event_draws_once_and_a_failed_save_loses_nothing():
    class BrokenStore(MemorySaves):
        def record(self, *args, **kwargs):
            raise OSError("disk full")

        def undo_last(self, *args, **kwargs):
            raise OSError("disk full")

    app = make_app((800, 480), strict=True)
    build_screen(app, "nemesis-bag")
    scene = app.top
    assert isinstance(scene, NemesisBagScene)
    before = len(scene.bag.events)
    app.post_control("draw", "press")
    assert len(scene.bag.events) == before + 1
    app.store = BrokenStore()
    state = scene.bag.to_json()
    app.post_control("draw", "press")
    assert scene.bag.to_json() == state
    assert scene.message and "save" in scene.message.lower()
    scene.undo()  # an undo that cannot be saved is not made either
    assert scene.bag.to_json() == state


def test_undo_from_the_fight_returns_to_the_search_screen():
    app = make_app((800, 480), strict=True)
    build_screen(app, "attic-roll")
    scene = app.top
    scene.perform(scene.game.attic_key_found)
    assert type(app.top).__name__ == "AtticFightScene"
    app.top.undo()
    assert isinstance(app.top, AtticRollScene) and app.top.game.phase == "search"


@pytest.mark.parametrize("start", [start_attic, start_nemesis, start_cthulhu])
def test_a_damaged_save_starts_a_new_game_with_a_message(start):
    app = make_app((800, 480), strict=True)
    store = MemorySaves()
    key = {start_attic: "attic-monster", start_nemesis: "nemesis-nightmares",
           start_cthulhu: "cthulhu-pocket-madness"}[start]
    store.new_game(key, "half-written", {"state": {"half": "written"}})
    app.store = store
    scene = start(app)
    assert not isinstance(scene, GameScene)  # the setup screen, not a crash
    assert app.errors and "could not be resumed" in app.errors[0]


def test_shoggoth_reminder_shows_while_it_lasts():
    """Seed 002 Shoggoth: "До твоего следующего хода" - the header reminds the table until then."""
    app = make_app((800, 480), strict=True)
    build_screen(app, "cthulhu-scores")
    scene = app.top
    scores = scene.scores
    owner = scores.state["current"]
    scene.close_or_claim(11)  # claim with a set
    scene.close_or_claim(11)  # close it: the power starts
    assert scores.state["shoggoth_owner"] == owner
    render(app, (800, 480))
    for _ in range(scores.players):
        scene.perform(scores.end_turn)
    assert scores.state["shoggoth_owner"] is None
