"""Settings: language, Nightmarium edition, camera, table calibration (its own screen), GPIO buttons. Saved at once
on every change."""
from __future__ import annotations

import pygame

from companion.ui import theme
from companion.ui.preferences import EDITION_KEYS, LANGUAGES
from companion.ui.scene import Scene
from companion.ui.screens import register_screen, screen_factory
from companion.ui.widgets import Button, draw_paragraph, draw_text, fit_font, split_columns

EDITION_TITLES = {"ru2014": "Кошмариум 2014 (RU)", "pl2017": "Koszmarium 2017 (PL)"}
CONTROLS = ("roll", "draw", "confirm")


class SettingsScene(Scene):
    def __init__(self, app):
        super().__init__(app)
        self.message: str | None = app.preferences.problem
        self.last_control: tuple[str, str] | None = None  # the GPIO button pressed last: the button test

    def handle_control(self, control: str, action: str) -> None:
        """Here the physical buttons are tested, not used: each press lights its name on screen."""
        self.last_control = (control, action)
        self.message = f"{self.t('control.' + control)}: {action}"
        self.dirty = True

    def change(self, **values) -> None:
        preferences = self.app.preferences
        for key, value in values.items():
            setattr(preferences, key, value)
        preferences.chosen |= set(values)  # kept in ui.json even when equal to the configuration's default
        if "lang" in values:
            self.app.lang = values["lang"]
        try:
            preferences.save()
            self.message = self.t("settings.saved")
        except OSError as error:
            self.message = self.t("settings.save_failed", message=str(error))

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
        calibrate, lens, status = split_columns(row(self.t("settings.calibration")), 3, gap, [1, 1, 2])
        self.add_button(Button(calibrate, self.t("settings.calibrate"),
                               lambda: self.app.push(screen_factory("calibration")(self.app))))
        self.add_button(Button(lens, self.t("settings.lens"), lambda: self.app.push(screen_factory("lens")(self.app))))
        draw_paragraph(surface, self.t(f"calibration.using_{self.app.calibration_source or 'none'}"),
                       layout.font(14), theme.TEXT_DIM, status.inflate(0, -layout.px(6)), line_gap=0)
        rect = row(self.t("settings.buttons"))
        pins = self.app.gpio_pins
        for control, cell in zip(CONTROLS, split_columns(rect, 3, gap)):
            lit = self.last_control is not None and self.last_control[0] == control
            pygame.draw.rect(surface, theme.BUTTON_PRIMARY if lit else theme.PANEL_LIGHT, cell,
                             border_radius=layout.px(10))
            label = f"{self.t('control.' + control)}: GPIO{pins[control]}" if control in pins else \
                self.t("control." + control)
            draw_text(surface, label, fit_font(label, cell.width - layout.px(12), layout.px(18), True, layout.px(11)),
                      theme.TEXT, cell.center, "center")
        self.add_button(Button(pygame.Rect(margin, layout.height - layout.px(70), layout.px(160), layout.px(56)),
                               self.t("common.back"), self.back, primary=True))
        if self.message:
            draw_text(surface, self.message, layout.font(16), theme.TEXT_DIM,
                      (margin + layout.px(176), layout.height - layout.px(42)), "midleft",
                      max_width=layout.width - layout.px(200))
        self.draw_buttons(surface, layout)


register_screen("settings", SettingsScene)
