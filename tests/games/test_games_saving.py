"""Saving the issue-5 games from their screens: one saved game per game, and a finished game stays finished."""
import random

import pygame
import pytest

from companion.ui.games.attic import AtticFightScene
from companion.ui.games.common import GameScene
from companion.ui.games.nemesis import NemesisBagScene, NemesisMadnessScene, NemesisSetupScene
from companion.ui.i18n import t
from companion.ui.render import build_screen, make_app
from companion.ui.saving import MemorySaves

SAMPLE_SCREENS = ("attic-setup", "attic-roll", "attic-fight", "nemesis-setup", "nemesis-bag", "nemesis-odds",
                  "nemesis-madness", "cthulhu-setup", "cthulhu-scores", "cthulhu-chart")
SAMPLE_GAMES = ("attic-roll", "attic-fight", "nemesis-bag", "nemesis-madness", "cthulhu-scores")
FINISHED = t("games.finished_no_undo", "en")


def key(app, code):
    app.render(pygame.Surface(app.size), force=True)  # buttons (and their keys) are laid out while drawing
    app.dispatch(pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode=""))


def test_undo_after_the_winning_roll_says_the_game_is_finished_and_changes_nothing():
    """Like a won Nightmarium game (its win screen has no undo), a finished game is final: it is in History with
    its result, so Undo explains that instead of failing to save or half-undoing the win."""
    app = make_app((800, 480), "en", strict=True)
    build_screen(app, "attic-roll")
    app.top.perform(app.top.game.attic_key_found)
    fight = app.top
    assert isinstance(fight, AtticFightScene)
    for _ in range(fight.game.state["players"]):
        app.post_control("roll", "press")
    assert fight.finished, "every player rolled against the fight strength, so the fight has its verdict"
    saved = app.store.load(fight.game_id)
    assert saved.finished is not None and saved.result["result"] == fight.game.phase
    engine_before = fight.game.to_json()

    key(app, pygame.K_u)  # the Undo button's key, as a player would press it
    fight.undo()  # and the method itself, in case the key is ever rebound

    assert fight.message == FINISHED
    assert fight.game.to_json() == engine_before
    after = app.store.load(fight.game_id)
    assert (after.finished, after.result, after.moves) == (saved.finished, saved.result, saved.moves)
    assert [game.id for game in app.store.history()] == [fight.game_id]
    assert app.errors == [], "no 'save failed' for an undo the screen refused"


def test_the_bag_and_madness_screens_save_into_one_game_and_ending_it_leaves_both():
    """Nemesis ends when the players say so; afterwards Back must not lead into the ended game's bag."""
    app = make_app((800, 480), "en", strict=True)
    build_screen(app, "nemesis-bag")
    bag_scene = app.top
    assert isinstance(bag_scene, NemesisBagScene)
    sample_moves = app.store.load(bag_scene.game_id).moves
    key(app, pygame.K_m)
    madness = app.top
    assert isinstance(madness, NemesisMadnessScene)
    colour = madness.bag.state["order"][-1]  # not red, whose encounter the sample bag is about to draw
    madness.cycle_status(colour)  # a move made on the pushed screen
    app.pop()
    app.post_control("draw", "press")
    assert bag_scene.game_id == madness.game_id and isinstance(bag_scene.game_id, int)
    assert [game.id for game in app.store.unfinished()] == [bag_scene.game_id]
    assert app.store.load(bag_scene.game_id).moves == sample_moves + 2

    key(app, pygame.K_m)
    app.top.end_game()
    assert isinstance(app.top, NemesisSetupScene)
    assert not any(isinstance(scene, GameScene) for scene in app.scenes)
    assert [game.id for game in app.store.history()] == [bag_scene.game_id]
    app.top.back()
    assert len(app.scenes) == 1, "Back from the new game's setup goes to the launcher"
    bag_scene.undo()  # a stale reference to the ended game's screen still refuses to change it
    assert bag_scene.message == FINISHED and app.store.load(bag_scene.game_id).moves == sample_moves + 2
    assert app.errors == []


@pytest.mark.parametrize("name", SAMPLE_GAMES)
def test_a_sample_game_is_saved_with_its_moves_in_the_apps_own_store(name):
    """`companion screenshot` and the tests play sample games ahead; like the Nightmarium samples, they are saved
    (under an id new_game gave) in the store made for that app, so undo can walk back through every sample
    move without reaching one the store never heard of."""
    app = make_app((800, 480), "en", strict=True)
    assert isinstance(app.store, MemorySaves)
    scene = build_screen(app, name)
    saved = app.store.load(scene.game_id)
    assert saved.events == scene.engine.events and saved.moves == len(scene.engine.events) > 0
    assert saved.state["state"] == scene.engine.state
    while scene.engine.events:
        scene.undo()
        assert scene.message == t("games.undone", "en"), scene.message
        scene = app.top  # an Attic undo may switch between the search and fight screens
        assert app.store.load(scene.game_id).state["state"] == scene.engine.state
    assert app.store.load(scene.game_id).moves == 0
    assert app.errors == []


def aimed_event(rng, app):
    """Half of the touches land on a button, so the wander leaves the sample screen and comes back by Back."""
    width, height = app.size
    roll = rng.random()
    if roll < 0.6:
        scene = app.top
        if scene.buttons and rng.random() < 0.6:
            position = rng.choice(scene.buttons).rect.center
        else:
            position = (rng.randrange(width), rng.randrange(height))
        return [pygame.event.Event(pygame.MOUSEBUTTONDOWN, pos=position, button=1, touch=False),
                pygame.event.Event(pygame.MOUSEBUTTONUP, pos=position, button=1, touch=False)]
    if roll < 0.85:
        code = rng.choice([pygame.K_r, pygame.K_d, pygame.K_u, pygame.K_m, pygame.K_o, pygame.K_ESCAPE,
                           pygame.K_TAB, pygame.K_RETURN, pygame.K_SPACE])
        return [pygame.event.Event(pygame.KEYDOWN, key=code, mod=0, unicode="", scancode=0)]
    return [pygame.event.Event(pygame.USEREVENT, control=rng.choice(["roll", "draw", "confirm"]),
                               action=rng.choice(["press", "press", "hold"]))]


@pytest.mark.parametrize("name", SAMPLE_SCREENS)
def test_a_long_wander_from_a_sample_screen_never_fails_to_save(name):
    """The monkey of tests/ui wandered from a sample screen through End game and Back into a finished game and
    logged "save failed"; every move, undo and end must now save or be refused with a reason."""
    rng = random.Random(f"wander:{name}")
    app = make_app((800, 480), "en", strict=True)
    build_screen(app, name)
    surface = pygame.Surface(app.size)
    app.render(surface, force=True)
    for _ in range(1500):
        app.step(aimed_event(rng, app), 1 / 30)
        app.render(surface)
    assert [error for error in app.errors if error.startswith("save failed")] == []
    assert app.errors == []
