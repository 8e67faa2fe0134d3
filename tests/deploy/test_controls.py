"""GPIO buttons and lights on gpiozero's MockFactory: presses count once, holds are a second function."""
import queue

import pytest
from hypothesis import given, settings, strategies as st
from gpiozero.pins.mock import MockFactory, MockPWMPin

from companion.config import Config, GpioConfig, parse_config_text
from companion.hardware.controls import LEGION_COLOURS, Controls


class FakeClock:
    """Debounce needs time between edges; a hand-moved clock makes that exact without sleeping."""

    def __init__(self):
        self.now = 100.0

    def __call__(self):
        return self.now

    def advance(self, seconds):
        self.now += seconds


@pytest.fixture
def factory():
    return MockFactory(pin_class=MockPWMPin)


@pytest.fixture
def clock():
    return FakeClock()


@pytest.fixture
def controls(factory, clock):
    built = Controls(GpioConfig(hold_time=0.2), pin_factory=factory, clock=clock)
    yield built
    built.close()


def tap(factory, clock, bcm, held_for=0.1):
    pin = factory.pin(bcm)
    pin.drive_low()
    clock.advance(held_for)
    pin.drive_high()
    clock.advance(0.5)


def test_one_press_counts_once_and_reaches_callbacks_and_queue(controls, factory, clock):
    calls = []
    controls.on_press("roll", lambda: calls.append("roll"))
    tap(factory, clock, GpioConfig().roll)
    assert controls.poll() == [("press", "roll")]
    assert calls == ["roll"]
    assert controls.poll() == []


@pytest.mark.parametrize("name, bcm", [("roll", 17), ("draw", 27), ("confirm", 22)])
def test_each_button_reports_its_own_name(controls, factory, clock, name, bcm):
    tap(factory, clock, bcm)
    assert controls.poll() == [("press", name)]


def test_a_bouncing_press_counts_once(controls, factory, clock):
    pin = factory.pin(GpioConfig().draw)
    for _ in range(4):  # contact chatter on the way down, microseconds apart
        pin.drive_low()
        clock.advance(0.001)
        pin.drive_high()
        clock.advance(0.001)
    pin.drive_low()
    clock.advance(0.15)
    for _ in range(3):  # and on the way up
        pin.drive_high()
        clock.advance(0.002)
        pin.drive_low()
        clock.advance(0.002)
    pin.drive_high()
    clock.advance(0.5)
    assert controls.poll() == [("press", "draw")]


def test_two_real_presses_count_twice(controls, factory, clock):
    tap(factory, clock, GpioConfig().confirm)
    tap(factory, clock, GpioConfig().confirm)
    assert controls.poll() == [("press", "confirm"), ("press", "confirm")]


def test_holding_gives_the_second_function_and_no_press(factory):
    """The hold comes from gpiozero's own hold thread, so this waits for it (no timing is asserted)."""
    controls = Controls(GpioConfig(hold_time=0.2), pin_factory=factory)
    held, pressed = [], []
    controls.on_hold("next", lambda: held.append(1))
    controls.on_press("confirm", lambda: pressed.append(1))
    pin = factory.pin(GpioConfig().confirm)
    pin.drive_low()
    assert controls.events.get(timeout=10) == ("hold", "confirm")
    pin.drive_high()  # releasing after a hold must not also count as a press
    controls.close()
    assert held == [1] and pressed == []
    assert controls.poll() == []


def test_a_failing_callback_does_not_stop_other_events(controls, factory, clock):
    controls.on_press("roll", lambda: 1 / 0)
    tap(factory, clock, GpioConfig().roll)
    tap(factory, clock, GpioConfig().roll)
    assert controls.poll() == [("press", "roll"), ("press", "roll")]


def test_pins_come_from_the_configuration(factory, clock):
    config = parse_config_text("[gpio]\nroll = 4\ndraw = 25\nconfirm = 16\n")
    controls = Controls.from_config(config, pin_factory=factory)
    controls._clock = clock
    tap(factory, clock, 25)
    tap(factory, clock, 17)  # the default ROLL pin is no longer a button
    assert controls.poll() == [("press", "draw")]
    assert "ROLL BCM 4" in controls.describe()
    controls.close()


def test_show_colour_sets_legion_and_rgb_colours(controls):
    controls.show_colour("green")
    assert controls._rgb.value == (0, 1, 0)
    controls.show_colour((255, 0, 255))
    assert controls._rgb.value == (1, 0, 1)
    controls.show_colour("brown")
    assert controls._rgb.value == tuple(c / 255 for c in LEGION_COLOURS["brown"])
    controls.show_colour(None)
    assert controls._rgb.value == (0, 0, 0)
    with pytest.raises(ValueError, match="unknown colour"):
        controls.show_colour("purple")
    with pytest.raises(ValueError, match="0 to 255"):
        controls.show_colour((300, 0, 0))


def test_without_pwm_colours_are_rounded_not_refused():
    controls = Controls(GpioConfig(), pin_factory=MockFactory())
    controls.show_colour("brown")
    assert controls._rgb.value == (1, 0, 0)
    controls.close()


def test_outputs_are_driven(controls, factory):
    controls.click()
    controls.blink("led", times=1)
    controls.blink("rgb", times=1)
    led_pin = factory.pin(GpioConfig().led)
    buzzer_pin = factory.pin(GpioConfig().buzzer)
    controls._led._blink_thread.join(5)
    controls._buzzer._blink_thread.join(5)
    assert True in [state.state for state in led_pin.states]
    assert True in [state.state for state in buzzer_pin.states]
    with pytest.raises(ValueError, match="unknown output"):
        controls.blink("lamp")


def test_without_gpio_nothing_raises_and_describe_says_so():
    """This machine has no GPIO: the default pin factory fails, and the app must still run."""
    controls = Controls.from_config(None)
    assert controls.available is False
    controls.on_press("roll", lambda: None)
    controls.show_colour("red")
    controls.click()
    controls.blink("led")
    assert controls.poll() == []
    assert "touchscreen and the keyboard" in controls.describe()
    assert "No GPIO" in controls.describe()
    controls.close()


def test_disabled_in_configuration_builds_no_devices(factory):
    controls = Controls.from_config(Config(gpio=GpioConfig(enabled=False)), pin_factory=factory)
    assert controls.available is False and "gpio.enabled = false" in controls.describe()
    factory.pin(GpioConfig().roll).drive_low()  # the pin is free: nothing claimed it


def test_unknown_button_name_is_refused(controls):
    with pytest.raises(ValueError, match="unknown button"):
        controls.on_press("jump", lambda: None)
    assert isinstance(controls.events, queue.Queue)


def test_a_pin_already_in_use_is_reported_and_nothing_is_left_claimed(factory):
    from gpiozero import LED

    squatter = LED(GpioConfig().buzzer, pin_factory=factory)  # another program holds the buzzer pin
    controls = Controls(GpioConfig(), pin_factory=factory)
    assert not controls.available
    assert "could not be set up" in controls.describe() and "GPIOPinInUse" in controls.describe()
    squatter.close()
    # The buttons built before the failure were released, so a second attempt gets every pin.
    retry = Controls(GpioConfig(), pin_factory=factory)
    assert retry.available
    retry.close()


# Up to 3 toggles of at most 2 x 4 ms each: every burst of chatter ends within 24 ms, inside the 30 ms window.
chatter = st.lists(st.floats(min_value=0.0001, max_value=0.004), max_size=3)


@settings(max_examples=40, deadline=None)
@given(presses=st.lists(st.tuples(chatter, st.floats(min_value=0.03, max_value=2.0), chatter,
                                  st.floats(min_value=0.03, max_value=2.0)), min_size=1, max_size=6))
def test_property_any_contact_chatter_shorter_than_bounce_time_counts_each_press_once(presses):
    """However a contact chatters within bounce_time of a press or a release, n presses count n times."""
    factory, clock = MockFactory(), FakeClock()
    controls = Controls(GpioConfig(bounce_time=0.03, hold_time=10), pin_factory=factory, clock=clock)
    pin = factory.pin(GpioConfig().roll)
    try:
        for down_chatter, held, up_chatter, pause in presses:
            for drive, gaps in ((pin.drive_low, down_chatter), (pin.drive_high, up_chatter)):
                drive()
                # Chatter: toggles inside the bounce window, ending at the level it began with.
                other = pin.drive_high if drive == pin.drive_low else pin.drive_low
                for gap in gaps:
                    clock.advance(gap)
                    other()
                    clock.advance(gap)
                    drive()
                clock.advance(held if drive == pin.drive_low else pause)
        assert controls.poll() == [("press", "roll")] * len(presses)
    finally:
        controls.close()
