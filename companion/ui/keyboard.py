"""Typing a short text (a player's name) on the touchscreen: an on-screen keyboard in the language's alphabet,
and the physical keyboard when there is one."""
from __future__ import annotations

import pygame

from companion.ui import theme
from companion.ui.scene import Scene
from companion.ui.widgets import Button, draw_text, grid, split_columns

ALPHABETS = {
    "en": "QWERTYUIOPASDFGHJKLZXCVBNM",
    "pl": "AĄBCĆDEĘFGHIJKLŁMNŃOÓPRSŚTUWYZŹŻ",
    "ru": "АБВГДЕЁЖЗИЙКЛМНОПРСТУФХЦЧШЩЪЫЬЭЮЯ",
}
MAX_LENGTH = 12


class TextEntry(Scene):
    def __init__(self, app, title: str, text: str, on_done):
        super().__init__(app)
        self.title = title
        self.text = text[:MAX_LENGTH]
        self.on_done = on_done
        self.alphabet = app.lang if app.lang in ALPHABETS else "en"

    def type(self, letter: str) -> None:
        if len(self.text) < MAX_LENGTH:
            # names read best capitalised: the first letter upper case, the rest lower case
            self.text += letter.upper() if not self.text else letter.lower()
        self.dirty = True

    def erase(self) -> None:
        self.text = self.text[:-1]
        self.dirty = True

    def done(self) -> None:
        text = self.text.strip()
        self.app.pop()
        if text:
            self.on_done(text)

    def handle(self, event) -> None:
        if event.type == pygame.TEXTINPUT:
            for letter in getattr(event, "text", ""):
                if letter.isprintable():
                    self.type(letter)
            return
        if event.type == pygame.KEYDOWN and event.key == pygame.K_BACKSPACE:
            self.erase()
            return
        if event.type == pygame.KEYDOWN and event.key in (pygame.K_RETURN, pygame.K_KP_ENTER):
            self.done()
            return
        super().handle(event)

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        px = layout.px
        surface.fill(theme.BACKGROUND)
        draw_text(surface, self.title, layout.font(20, True), theme.ACCENT, (px(14), px(8)))
        field = pygame.Rect(px(14), px(40), layout.width - px(28), px(50))
        pygame.draw.rect(surface, theme.PANEL_LIGHT, field, border_radius=px(8))
        draw_text(surface, self.text + "▏", layout.font(26, True), theme.TEXT, (field.left + px(12), field.centery),
                  "midleft", max_width=field.width - px(24))
        letters = ALPHABETS[self.alphabet]
        columns = 11
        keys_area = pygame.Rect(px(14), field.bottom + px(10), layout.width - px(28), layout.height - px(180))
        for letter, cell in zip(letters, grid(keys_area, len(letters), columns, px(5))):
            self.add_button(Button(cell, letter, lambda letter=letter: self.type(letter)))
        bottom = pygame.Rect(px(14), layout.height - px(66), layout.width - px(28), px(56))
        switch, space, erase, done = split_columns(bottom, 4, px(8), [1, 1.4, 1, 1.4])
        others = [key for key in ALPHABETS if key != self.alphabet]
        self.add_button(Button(switch, ALPHABETS[others[0]][:3], lambda: self.set_alphabet(others[0])))
        self.add_button(Button(space, "␣", lambda: self.type(" ")))
        self.add_button(Button(erase, "⌫", self.erase))
        self.add_button(Button(done, self.t("common.ok"), self.done, primary=True))
        self.draw_buttons(surface, layout)

    def set_alphabet(self, key: str) -> None:
        self.alphabet = key
        self.dirty = True
