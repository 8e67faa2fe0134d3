"""Settings: language, Nightmarium edition, camera, calibration, GPIO buttons. Saved at once on every change."""
from __future__ import annotations

import pygame

from companion.ui import theme
from companion.ui.preferences import EDITION_KEYS, LANGUAGES
from companion.ui.scene import Scene
from companion.ui.screens import register_screen
from companion.ui.widgets import Button, draw_text, fit_font, split_columns

EDITION_TITLES = {"ru2014": "Кошмариум 2014 (RU)", "pl2017": "Koszmarium 2017 (PL)"}
BCM_PINS = (5, 6, 13, 16, 17, 19, 20, 21, 22, 23, 24, 25, 26, 27)


class SettingsScene(Scene):
    def __init__(self, app):
        super().__init__(app)
        self.message: str | None = app.preferences.problem

    def change(self, **values) -> None:
        preferences = self.app.preferences
        for key, value in values.items():
            setattr(preferences, key, value)
        if "lang" in values:
            self.app.lang = values["lang"]
        try:
            preferences.save()
            self.message = self.t("settings.saved")
        except OSError as error:
            self.message = self.t("settings.save_failed", message=str(error))

    def next_pin(self, control: str) -> None:
        buttons = dict(self.app.preferences.buttons)
        current = buttons.get(control, BCM_PINS[0])
        taken = {pin for name, pin in buttons.items() if name != control}
        choices = [pin for pin in BCM_PINS if pin not in taken]
        later = [pin for pin in choices if pin > current]
        buttons[control] = (later or choices)[0]
        self.change(buttons=buttons)

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        preferences = self.app.preferences
        margin = layout.px(16)
        draw_text(surface, self.t("settings.title"), layout.font(28, True), theme.ACCENT, (margin, layout.px(10)))
        label_width = layout.px(210)
        row_height, gap = layout.px(58), layout.px(10)
        y = layout.px(56)

        def row(title: str) -> pygame.Rect:
            nonlocal y
            title_font = fit_font(title, label_width - layout.px(8), layout.px(19), True, layout.px(13))
            draw_text(surface, title, title_font, theme.TEXT, (margin, y + row_height // 2), "midleft",
                      max_width=label_width - layout.px(8))
            rect = pygame.Rect(margin + label_width, y, layout.width - label_width - 2 * margin, row_height)
            y += row_height + gap
            return rect

        cells = split_columns(row(self.t("settings.language")), len(LANGUAGES), gap)
        for lang, cell in zip(LANGUAGES, cells):
            self.add_button(Button(cell, self.t(f"lang.{lang}"), lambda lang=lang: self.change(lang=lang),
                                   selected=preferences.lang == lang))
        cells = split_columns(row(self.t("settings.edition")), len(EDITION_KEYS), gap)
        for key, cell in zip(EDITION_KEYS, cells):
            self.add_button(Button(cell, EDITION_TITLES[key], lambda key=key: self.change(edition=key),
                                   selected=preferences.edition == key))
        cells = split_columns(row(self.t("settings.camera")), 2, gap)
        for value, cell in zip((True, False), cells):
            self.add_button(Button(cell, self.t("common.on" if value else "common.off"),
                                   lambda value=value: self.change(camera=value), selected=preferences.camera == value))
        rect = row(self.t("settings.calibration"))
        status = self.t("settings.calibrated" if preferences.calibrated else "settings.not_calibrated")
        draw_text(surface, status, layout.font(18), theme.GOOD if preferences.calibrated else theme.TEXT_DIM,
                  (rect.left, rect.top + layout.px(4)))
        draw_text(surface, self.t("settings.calibration_hint"), layout.font(14), theme.TEXT_DIM,
                  (rect.left, rect.top + layout.px(30)), max_width=rect.width)
        cells = split_columns(row(self.t("settings.buttons")), 3, gap)
        for control, cell in zip(("roll", "draw", "confirm"), cells):
            pin = preferences.buttons.get(control, "-")
            self.add_button(Button(cell, f"{self.t('control.' + control)}: GPIO{pin}",
                                   lambda control=control: self.next_pin(control)))
        self.add_button(Button(pygame.Rect(margin, layout.height - layout.px(70), layout.px(160), layout.px(56)),
                               self.t("common.back"), self.back, primary=True))
        if self.message:
            draw_text(surface, self.message, layout.font(16), theme.TEXT_DIM,
                      (margin + layout.px(176), layout.height - layout.px(42)), "midleft",
                      max_width=layout.width - layout.px(200))
        self.draw_buttons(surface, layout)


register_screen("settings", SettingsScene)
