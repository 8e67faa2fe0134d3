"""Full manual mode (no camera): cards entered by hand, undo, and the chain answered by touch."""
import pygame

from companion.games.nightmarium import Part
from companion.ui.nightmarium.picker import CardPicker
from companion.ui.nightmarium.session import Session
from companion.ui.nightmarium.table import TableScene
from companion.ui.render import build_screen, make_app


def manual_table():
    app = make_app((800, 480), strict=True)
    build_screen(app, "launcher")
    session = Session.new(app, ["Ann", "Bob"], "pl2017", 5, False, "manual")
    app.push(TableScene(app, session))
    app.render(pygame.Surface(app.size), force=True)
    return app, session


def enter(app, legion, parts, ability=None):
    """Open the card picker from the table, pick the face, go to placements; returns the picker."""
    app.top.enter_card()
    picker = app.top
    assert isinstance(picker, CardPicker)
    picker.set(legion=legion, parts=set(parts), ability=ability)
    picker.next()
    assert picker.step == "place"
    return picker


def test_cards_entered_by_hand_build_a_creature_and_undo_takes_one_back():
    """RULES.md 1.5: legs start a creature, a torso goes on legs; RULES.md 1.4: two actions per turn."""
    app, session = manual_table()
    enter(app, "green", ["legs"], "mourner").place(None, Part.LEGS)
    assert isinstance(app.top, TableScene)
    creature = session.game.players[0].creatures[0]
    enter(app, "green", ["torso"]).place(creature.id, Part.TORSO)
    assert len(session.game.players[0].creatures[0].cards) == 2
    assert session.game.active == 1, "two actions: Bob's turn"
    app.top.undo()
    assert session.game.active == 0 and len(session.game.players[0].creatures[0].cards) == 1


def test_a_card_entered_by_hand_that_breaks_a_rule_shows_the_rule():
    """RULES.md 1.6: the second Play action's card must share the first one's legion."""
    app, session = manual_table()
    enter(app, "green", ["legs"]).place(None, Part.LEGS)
    enter(app, "red", ["legs"]).place(None, Part.LEGS)
    assert session.warning is not None and session.warning.rule == "same-legion"
    assert len(session.game.players[0].creatures) == 1


def test_the_placement_step_offers_only_legal_positions():
    """RULES.md 1.5: a head needs a creature with legs and torso; none exists yet."""
    app, session = manual_table()
    picker = enter(app, "blue", ["head"], "jester")
    app.render(pygame.Surface(app.size), force=True)
    labels = [button.label for button in picker.buttons]
    assert labels == ["Back"], labels


def test_correcting_a_card_by_tapping_it():
    app, session = manual_table()
    enter(app, "green", ["legs"]).place(None, Part.LEGS)
    table = app.top
    app.render(pygame.Surface(app.size), force=True)
    rect, creature_id = table.creature_hits[0]
    assert rect.width >= 48 and rect.height >= 48
    table.on_touch(rect.center)
    app.render(pygame.Surface(app.size), force=True)
    app.top.correct(0)  # the legs, shown large
    picker = app.top
    assert isinstance(picker, CardPicker) and picker.purpose == "correct"
    picker.set(ability="herald")
    picker.next()
    card = session.game.players[0].creatures[0].cards[0][0]
    assert card.ability is not None and card.ability.value == "herald"


def test_a_player_is_renamed_with_the_on_screen_keyboard():
    from companion.ui.keyboard import TextEntry

    app = make_app((800, 480), "ru", strict=True)
    build_screen(app, "nightmarium-setup")
    setup = app.top
    setup.rename(0)
    keyboard = app.top
    assert isinstance(keyboard, TextEntry)
    for _ in range(len(keyboard.text)):
        keyboard.erase()
    app.render(pygame.Surface(app.size), force=True)
    for letter in "АНЯ":
        next(button for button in keyboard.buttons if button.label == letter).activate()
    keyboard.handle(pygame.event.Event(pygame.TEXTINPUT, text="!"))
    keyboard.done()
    assert app.top is setup
    assert setup.names[0] == "Аня!"
    assert app.preferences.players[0] == "Аня!"
