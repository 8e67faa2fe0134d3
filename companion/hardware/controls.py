"""The box's physical controls: three arcade buttons, a status LED, an RGB LED and a buzzer, via gpiozero.

Without GPIO (a laptop, a Pi with nothing wired, `gpio.enabled = false`) every method still works and does
nothing, `available` is False and `describe()` says so, so the app can fall back to touch and keyboard.

Button callbacks arrive on gpiozero's own thread. The pygame loop must not be touched from there, so every
press and hold is also put on `events`, a queue the loop drains once per frame.
"""
from __future__ import annotations

import logging
import queue
import threading
import time
import warnings
from dataclasses import dataclass, field
from typing import Callable

from companion.config import Config, GpioConfig

log = logging.getLogger(__name__)

BUTTONS = ("roll", "draw", "confirm")
#: Other names the app may use for a button.
BUTTON_ALIASES = {"next": "confirm"}
OUTPUTS = ("led", "rgb", "buzzer")

#: The RGB LED's colour for each Nightmarium legion (0..255 per channel). Brown on an RGB LED is a dim orange.
LEGION_COLOURS: dict[str, tuple[int, int, int]] = {
    "blue": (0, 0, 255),
    "brown": (150, 60, 0),
    "green": (0, 255, 0),
    "red": (255, 0, 0),
    "off": (0, 0, 0),
}

Callback = Callable[[], None]


@dataclass
class _ButtonState:
    """Debounce and hold bookkeeping for one button (the mock pins and some factories do no debouncing)."""

    pressed: bool = False
    changed_at: float = float("-inf")
    held: bool = False
    on_press: list[Callback] = field(default_factory=list)
    on_hold: list[Callback] = field(default_factory=list)


class Controls:
    """The buttons and lights; build with `Controls.from_config(config)`."""

    def __init__(self, gpio: GpioConfig, pin_factory=None, clock: Callable[[], float] = time.monotonic):
        self.events: queue.Queue[tuple[str, str]] = queue.Queue()
        self._gpio = gpio
        self._clock = clock
        self._lock = threading.Lock()
        self._states = {name: _ButtonState() for name in BUTTONS}
        self._buttons: dict = {}
        self._led = self._rgb = self._buzzer = None
        self._rgb_dims = False
        self._factory_name = ""
        self.unavailable_reason = ""
        if not gpio.enabled:
            self.unavailable_reason = "GPIO is switched off in the configuration (gpio.enabled = false)"
            return
        try:
            self._build_devices(pin_factory)
        except Exception as error:  # gpiozero raises many kinds (BadPinFactory, GPIOPinInUse, OSError...)
            self._close_devices()
            if type(error).__name__ == "BadPinFactory":
                self.unavailable_reason = "no GPIO on this machine (no GPIO pin library could be loaded)"
            else:
                self.unavailable_reason = f"the GPIO pins could not be set up ({type(error).__name__}: {error})"
            log.info("GPIO unavailable: %s", self.unavailable_reason)

    @classmethod
    def from_config(cls, config: Config | None, pin_factory=None) -> "Controls":
        gpio = config.gpio if config is not None else GpioConfig()
        return cls(gpio, pin_factory=pin_factory)

    # --- building ----------------------------------------------------------------------------------------

    def _build_devices(self, pin_factory) -> None:
        from gpiozero import LED, RGBLED, Button, Buzzer
        from gpiozero.exc import PinPWMUnsupported

        gpio = self._gpio
        with warnings.catch_warnings():
            # gpiozero warns as it falls back from one pin library to the next; the outcome is what matters.
            warnings.simplefilter("ignore")
            for name in BUTTONS:
                button = Button(getattr(gpio, name), pull_up=True, bounce_time=gpio.bounce_time or None,
                                hold_time=gpio.hold_time, pin_factory=pin_factory)
                self._buttons[name] = button
                button.when_pressed = lambda name=name: self._pressed(name)
                button.when_released = lambda name=name: self._released(name)
                button.when_held = lambda name=name: self._held(name)
            self._led = LED(gpio.led, pin_factory=pin_factory)
            pins = (gpio.rgb_red, gpio.rgb_green, gpio.rgb_blue)
            try:
                self._rgb = RGBLED(*pins, pwm=True, pin_factory=pin_factory)
                self._rgb_dims = True
            except PinPWMUnsupported:
                # Without PWM each channel is only on or off: colours are rounded, which is still readable.
                self._rgb = RGBLED(*pins, pwm=False, pin_factory=pin_factory)
            self._buzzer = Buzzer(gpio.buzzer, pin_factory=pin_factory)
        factory = self._buttons["roll"].pin_factory
        self._factory_name = type(factory).__name__.removesuffix("Factory").lower()
        log.info("GPIO controls ready (%s): %s", self._factory_name, self._pin_summary())

    # --- button edges (gpiozero's thread) -----------------------------------------------------------------

    def _pressed(self, name: str) -> None:
        with self._lock:
            state, now = self._states[name], self._clock()
            if state.pressed or now - state.changed_at < self._gpio.bounce_time:
                return
            state.pressed, state.changed_at, state.held = True, now, False

    def _released(self, name: str) -> None:
        with self._lock:
            state, now = self._states[name], self._clock()
            if not state.pressed or now - state.changed_at < self._gpio.bounce_time:
                return
            state.pressed, state.changed_at = False, now
            if state.held:
                return
            callbacks = list(state.on_press)
        # The press counts on release, so that holding the same button can mean something else.
        self._emit("press", name, callbacks)

    def _held(self, name: str) -> None:
        with self._lock:
            state = self._states[name]
            if not state.pressed or state.held:
                return
            state.held = True
            callbacks = list(state.on_hold)
        self._emit("hold", name, callbacks)

    def _emit(self, kind: str, name: str, callbacks: list[Callback]) -> None:
        self.events.put((kind, name))
        for callback in callbacks:
            try:
                callback()
            except Exception:  # a broken callback must not kill gpiozero's event thread
                log.exception("button %s %s callback failed", name, kind)

    # --- the app's API -----------------------------------------------------------------------------------

    @property
    def available(self) -> bool:
        return bool(self._buttons)

    def on_press(self, name: str, callback: Callback) -> None:
        self._states[self._button_name(name)].on_press.append(callback)

    def on_hold(self, name: str, callback: Callback) -> None:
        self._states[self._button_name(name)].on_hold.append(callback)

    def poll(self) -> list[tuple[str, str]]:
        """Every ("press"|"hold", button) event since the last poll, oldest first, without blocking."""
        drained = []
        while True:
            try:
                drained.append(self.events.get_nowait())
            except queue.Empty:
                return drained

    def blink(self, name: str = "led", times: int = 2, on_time: float = 0.15, off_time: float = 0.15) -> None:
        """Flash an output in the background: "led", "rgb" (its current colour, white if off) or a button's LED."""
        if not self.available:
            return
        name = self._button_name(name, strict=False)
        name = "led" if name in BUTTONS else name
        if name == "led":
            self._led.blink(on_time=on_time, off_time=off_time, n=times, background=True)
        elif name == "rgb":
            colour = self._rgb.value if any(self._rgb.value) else (1, 1, 1)
            self._rgb.blink(on_time=on_time, off_time=off_time, on_color=colour, n=times, background=True)
        elif name == "buzzer":
            self._buzzer.beep(on_time=on_time, off_time=off_time, n=times, background=True)
        else:
            raise ValueError(f"unknown output {name!r}; expected one of {', '.join(OUTPUTS + BUTTONS)}")

    def show_colour(self, colour: tuple[int, int, int] | str | None) -> None:
        """Light the RGB LED: (r, g, b) from 0 to 255, a legion name ("blue", "brown", "green", "red") or "off"."""
        rgb = self.colour_value(colour)
        if self.available:
            levels = tuple(channel / 255 for channel in rgb)
            self._rgb.value = levels if self._rgb_dims else tuple(float(level >= 0.5) for level in levels)

    @staticmethod
    def colour_value(colour: tuple[int, int, int] | str | None) -> tuple[int, int, int]:
        if colour is None:
            return LEGION_COLOURS["off"]
        if isinstance(colour, str):
            try:
                return LEGION_COLOURS[colour.lower()]
            except KeyError:
                raise ValueError(f"unknown colour {colour!r}; expected (r, g, b) or one of "
                                 f"{', '.join(LEGION_COLOURS)}") from None
        rgb = tuple(colour)
        if len(rgb) != 3 or any(not isinstance(c, int) or not 0 <= c <= 255 for c in rgb):
            raise ValueError(f"colour {colour!r}: expected three whole numbers from 0 to 255")
        return rgb  # type: ignore[return-value]

    def click(self) -> None:
        """A short tick of the buzzer, to acknowledge a button."""
        if self.available:
            self._buzzer.beep(on_time=0.02, off_time=0.02, n=1, background=True)

    def describe(self) -> str:
        if not self.available:
            return f"No GPIO buttons: {self.unavailable_reason}. Use the touchscreen and the keyboard."
        return f"GPIO buttons and lights ready ({self._factory_name}): {self._pin_summary()}"

    def close(self) -> None:
        self._close_devices()

    def __enter__(self) -> "Controls":
        return self

    def __exit__(self, *exc) -> None:
        self.close()

    # --- helpers -----------------------------------------------------------------------------------------

    def _pin_summary(self) -> str:
        return ", ".join(f"{key.upper()} BCM {pin}" for key, pin in self._gpio.pins().items())

    @staticmethod
    def _button_name(name: str, strict: bool = True) -> str:
        name = BUTTON_ALIASES.get(name.lower(), name.lower())
        if strict and name not in BUTTONS:
            raise ValueError(f"unknown button {name!r}; expected one of {', '.join(BUTTONS + tuple(BUTTON_ALIASES))}")
        return name

    def _close_devices(self) -> None:
        for device in (*self._buttons.values(), self._led, self._rgb, self._buzzer):
            if device is not None:
                try:
                    device.close()
                except Exception:
                    log.debug("closing %r failed", device, exc_info=True)
        self._buttons.clear()
        self._led = self._rgb = self._buzzer = None
