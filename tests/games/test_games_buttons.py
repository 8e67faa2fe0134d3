"""The physical ROLL and DRAW buttons, driven through gpiozero's MockFactory (issue 5, "For all three")."""
import random
import time

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import GpioConfig
from companion.games.attic.controller import DiceButton
from companion.games.attic.engine import AtticGame
from companion.games.nemesis.controller import BagButton
from companion.games.nemesis.engine import NemesisBag
from companion.hardware.controls import Controls

GPIO = GpioConfig()
HUMAN_PRESS = 0.06  # seconds a finger keeps the button down: longer than the 30 ms debounce window


@pytest.fixture
def board():
    factory = MockFactory()
    controls = Controls(GPIO, pin_factory=factory)
    assert controls.available, controls.describe()
    yield factory, controls
    controls.close()
    factory.reset()


def press(factory, pin_number, bounces=0):
    """A press and release of a pull-up button; `bounces` extra contact chatters at each edge."""
    pin = factory.pin(pin_number)
    for _ in range(bounces):
        pin.drive_low()
        pin.drive_high()
    pin.drive_low()
    time.sleep(HUMAN_PRESS)
    for _ in range(bounces):
        pin.drive_high()
        pin.drive_low()
    pin.drive_high()
    time.sleep(HUMAN_PRESS)


class Feedback:
    def __init__(self):
        self.calls = []

    def blink(self, name, times=2):
        self.calls.append(("blink", name, times))

    def click(self):
        self.calls.append(("click",))


def test_one_press_of_roll_rolls_exactly_once(board):
    factory, controls = board
    game = AtticGame.new(2, random.Random(5))
    feedback = Feedback()
    button = DiceButton(game, feedback)
    press(factory, GPIO.roll)
    outcomes = button.pump(controls)
    assert len(outcomes) == 1 and outcomes[0].event["type"] == "roll"
    assert len(game.events) == 1
    assert feedback.calls == [("blink", "led", 1), ("click",)]


def test_a_bouncing_press_still_rolls_once(board):
    factory, controls = board
    game = AtticGame.new(2, random.Random(5))
    button = DiceButton(game)
    press(factory, GPIO.roll, bounces=4)
    assert len(button.pump(controls)) == 1
    assert len(game.events) == 1


def test_the_draw_button_does_not_roll_and_roll_does_not_draw(board):
    factory, controls = board
    game = AtticGame.new(2, random.Random(5))
    bag = NemesisBag.new(["red", "blue"], random.Random(5))
    press(factory, GPIO.draw)
    events = controls.poll()
    assert DiceButton(game).handle(events[0][1], events[0][0]) is None
    press(factory, GPIO.roll)
    events = controls.poll()
    assert BagButton(bag).handle(events[0][1], events[0][0]) is None
    assert game.events == [] and bag.events == []


def test_one_press_of_draw_draws_exactly_once_for_the_remembered_encounter(board):
    factory, controls = board
    bag = NemesisBag.new(["red", "blue"], random.Random(9))
    button = BagButton(bag)
    button.remember("encounter", "blue", hand_size=4)
    press(factory, GPIO.draw, bounces=3)
    outcomes = button.pump(controls)
    assert len(outcomes) == 1
    assert outcomes[0].event["draw"] == "encounter" and outcomes[0].event["colour"] == "blue"
    assert len(bag.events) == 1


def test_a_refused_press_changes_nothing_and_says_why(board):
    """Rulebook 003: nobody rolls between the last turn of a round and the Monster's tile."""
    factory, controls = board
    game = AtticGame.new(2, random.Random(5))
    game.roll()
    game.roll()
    feedback = Feedback()
    press(factory, GPIO.roll)
    outcomes = DiceButton(game, feedback).pump(controls)
    assert outcomes[0].event is None and "Monster" in outcomes[0].refused
    assert len(game.events) == 2 and feedback.calls == []


def test_a_hold_is_not_a_roll():
    game = AtticGame.new(2, random.Random(5))
    assert DiceButton(game).handle("roll", "hold") is None
    assert game.events == []


def test_broken_feedback_does_not_lose_the_roll():
    class Broken:
        def blink(self, *args, **kwargs):
            raise OSError("LED unplugged")

        def click(self):
            raise OSError("buzzer unplugged")

    game = AtticGame.new(2, random.Random(5))
    outcome = DiceButton(game, Broken()).handle("roll", "press")
    assert outcome.event is not None and len(game.events) == 1


def test_a_press_that_cannot_be_saved_is_taken_back():
    """Issue 5 / team standard: every action is saved before it is acknowledged; a failed save loses nothing."""
    game = AtticGame.new(2, random.Random(5))
    feedback = Feedback()
    outcome = DiceButton(game, feedback).handle("roll", "press", commit=lambda event: False)
    assert outcome.event is None and "saved" in outcome.refused
    assert game.events == [] and game.state["rolls_this_round"] == 0 and feedback.calls == []


def test_gpio_press_reaches_the_attic_screen_once_through_the_app_loop(board):
    """End to end: mock pin -> Controls (debounce) -> App.poll_devices -> attic-roll screen -> engine -> save."""
    from companion.ui.render import build_screen, make_app

    factory, controls = board
    app = make_app((800, 480), strict=True)
    app.devices = controls
    build_screen(app, "attic-roll")
    scene = app.top
    before = len(scene.game.events)
    press(factory, GPIO.roll, bounces=5)
    app.step([], 0.05)
    app.step([], 0.05)
    assert len(scene.game.events) == before + 1
    assert scene.game_id is not None and app.store.load(scene.game_id).moves == before + 1  # sample moves saved too
    press(factory, GPIO.draw)  # DRAW means nothing to the dice
    app.step([], 0.05)
    assert len(scene.game.events) == before + 1
