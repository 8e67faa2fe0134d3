"""The unit of the app's screen stack.

A Scene receives pygame events (touch, mouse, keys) and the app's own events (a GPIO press is a pygame USEREVENT
with `.control` in {"roll", "draw", "confirm"} and `.action` in {"press", "hold"}; a stable table state from the
camera is a USEREVENT with `.table_state`; a camera status change is a USEREVENT with `.camera`). It sets
`self.dirty = True` to ask for a redraw; the app redraws only dirty scenes.

Subclasses usually only implement `draw`, adding their buttons with `self.add_button(...)` while drawing; this base
class routes touches, clicks, arrow keys/Tab (focus), Enter/Space and the GPIO "confirm" button to those buttons,
and Escape/Backspace to "back".
"""
from __future__ import annotations

import pygame

from companion.ui.i18n import t
from companion.ui.widgets import Button, Layout


class Scene:
    def __init__(self, app):
        self.app = app
        self.dirty = True
        self.buttons: list[Button] = []
        self.focus: int | None = None
        self._pressed: Button | None = None

    # -- helpers for subclasses ---------------------------------------------------------------------------
    def t(self, key: str, **values) -> str:
        return t(key, self.app.lang, **values)

    def add_button(self, button: Button) -> Button:
        self.buttons.append(button)
        return button

    def begin_frame(self, surface) -> Layout:
        """Call at the start of draw: forgets last frame's buttons and returns the layout for this surface."""
        self.buttons = []
        return Layout(surface.get_size())

    def draw_buttons(self, surface, layout: Layout) -> None:
        for index, button in enumerate(self.buttons):
            button.draw(surface, layout, focused=index == self.focus)

    def back(self) -> None:
        """Escape / Backspace: leave this scene (the bottom scene stays)."""
        self.app.pop()

    # -- the Scene protocol ---------------------------------------------------------------------------------
    def handle(self, event) -> None:
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.MOUSEBUTTONUP) and getattr(event, "touch", False):
            return  # SDL's mouse emulation of a touch: the FINGER event is handled instead
        if event.type == pygame.MOUSEBUTTONDOWN and getattr(event, "button", 1) == 1:
            self._press(event.pos)
        elif event.type == pygame.MOUSEBUTTONUP and getattr(event, "button", 1) == 1:
            self._release(event.pos)
        elif event.type == pygame.MOUSEWHEEL:
            self.scroll(-int(getattr(event, "y", 0)))
        elif event.type in (pygame.FINGERDOWN, pygame.FINGERUP):
            position = self.app.finger_position(event)
            (self._press if event.type == pygame.FINGERDOWN else self._release)(position)
        elif event.type == pygame.KEYDOWN:
            self.handle_key(event.key)
        elif event.type == pygame.USEREVENT:
            control = getattr(event, "control", None)
            if control is not None:
                self.handle_control(control, getattr(event, "action", "press"))

    def handle_key(self, key: int) -> None:
        if key in (pygame.K_ESCAPE, pygame.K_BACKSPACE, pygame.K_AC_BACK):
            self.back()
        elif key in (pygame.K_TAB, pygame.K_DOWN, pygame.K_RIGHT):
            self._move_focus(+1)
        elif key in (pygame.K_UP, pygame.K_LEFT):
            self._move_focus(-1)
        elif key in (pygame.K_RETURN, pygame.K_KP_ENTER, pygame.K_SPACE):
            self.activate_focused()
        elif key in (pygame.K_PAGEUP, pygame.K_PAGEDOWN):
            self.scroll(-5 if key == pygame.K_PAGEUP else 5)
        else:
            for button in list(self.buttons):
                if button.key == key and button.enabled:
                    self._activate(button)
                    return

    def handle_control(self, control: str, action: str) -> None:
        """GPIO buttons: confirm activates the focused (or primary) button, hold on confirm goes back."""
        if control == "confirm":
            if action == "hold":
                self.back()
            else:
                self.activate_focused()
        elif control == "draw" and action == "press":
            self._move_focus(+1)

    def scroll(self, lines: int) -> None:
        """Mouse wheel / Page keys; scenes with a list override it."""

    def update(self, dt: float) -> None:
        """Advance animations by dt seconds; set self.dirty when something changed."""

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill((0, 0, 0), layout.rect)

    def on_enter(self) -> None:
        """The scene became the top of the stack again."""
        self.dirty = True

    # -- internals ----------------------------------------------------------------------------------------
    def activate_focused(self) -> None:
        enabled = [b for b in self.buttons if b.enabled]
        if self.focus is not None and 0 <= self.focus < len(self.buttons) and self.buttons[self.focus].enabled:
            self._activate(self.buttons[self.focus])
        elif enabled:
            primary = [b for b in enabled if b.primary]
            self._activate((primary or enabled)[0])

    def _move_focus(self, step: int) -> None:
        if not self.buttons:
            return
        start = -1 if self.focus is None else self.focus
        for offset in range(1, len(self.buttons) + 1):
            index = (start + step * offset) % len(self.buttons)
            if self.buttons[index].enabled:
                self.focus = index
                break
        self.dirty = True

    def _button_at(self, position) -> Button | None:
        for button in reversed(self.buttons):  # drawn last = on top
            if button.hit(position):
                return button
        return None

    def _press(self, position) -> None:
        self._pressed = self._button_at(position)
        if self._pressed is not None:
            self._pressed.pressed = True
            self.dirty = True
        else:
            self.on_touch(position)

    def _release(self, position) -> None:
        pressed, self._pressed = self._pressed, None
        if pressed is None:
            return
        pressed.pressed = False
        self.dirty = True
        if pressed in self.buttons and pressed.hit(position):
            self._activate(pressed)

    def _activate(self, button: Button) -> None:
        self.dirty = True
        try:
            button.activate()
        except Exception as error:  # a screen's bug must not kill the referee mid-game
            self.app.report_error(error)

    def on_touch(self, position) -> None:
        """A touch that hit no button (e.g. on a drawn card)."""
