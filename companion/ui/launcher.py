"""The first screen: the four games, Settings and History."""
from __future__ import annotations

import pygame

from companion.ui import icons, theme
from companion.ui.scene import Scene
from companion.ui.screens import games, register_screen
from companion.ui.widgets import Button, draw_paragraph, draw_text, fit_font, grid, panel, wrap_text


class ComingSoonScene(Scene):
    def __init__(self, app, title_key: str):
        super().__init__(app)
        self.title_key = title_key

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        draw_text(surface, self.t(self.title_key), layout.font(34, True), theme.TEXT,
                  (layout.width // 2, layout.px(120)), "center")
        box = pygame.Rect(layout.px(60), layout.px(170), layout.width - layout.px(120), layout.px(120))
        draw_paragraph(surface, self.t("common.coming_soon"), layout.font(22), theme.TEXT_DIM, box)
        self.add_button(Button(pygame.Rect(layout.px(20), layout.height - layout.px(76), layout.px(160), layout.px(56)),
                               self.t("common.back"), self.back, primary=True))
        self.draw_buttons(surface, layout)


class LauncherScene(Scene):
    def open_game(self, entry) -> None:
        if entry.start_factory is None:
            self.app.push(ComingSoonScene(self.app, entry.title_key))
        else:
            self.app.push(entry.start_factory(self.app))

    def back(self) -> None:
        """The launcher is the bottom of the stack: Escape does nothing here."""

    def draw(self, surface) -> None:
        from companion.ui.settings import SettingsScene
        from companion.ui.history import HistoryScene

        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        margin = layout.px(16)
        draw_text(surface, self.t("app.title"), layout.font(28, True), theme.ACCENT, (margin, layout.px(12)))
        if self.app.errors:  # a corrupt config, an unusable save file...: said here, where the players look
            draw_text(surface, self.app.errors[-1], layout.font(14), theme.WARNING,
                      (layout.width - margin, layout.px(28)), "midright", max_width=layout.width // 2)
        game_area = pygame.Rect(margin, layout.px(58), layout.width - 2 * margin, layout.height - layout.px(150))
        entries = games()
        columns = 2 if len(entries) <= 4 else 3
        for entry, cell in zip(entries, grid(game_area, len(entries), columns, gap=layout.px(12))):
            panel(surface, cell, theme.PANEL)
            self.add_button(Button(cell, "", lambda entry=entry: self.open_game(entry), colour=theme.PANEL))
            side = min(cell.height - layout.px(24), int(cell.width * 0.26))
            emblem = pygame.Rect(0, 0, side, side)
            emblem.midleft = (cell.left + layout.px(14), cell.centery)
            icons.game_emblem(surface, emblem, entry.key)
            text_left = emblem.right + layout.px(14)
            title = self.t(entry.title_key)
            width = cell.right - text_left - layout.px(8)
            title_font = fit_font(title, width, layout.px(24), True, layout.px(17))
            if title_font.size(title)[0] <= width:
                draw_text(surface, title, title_font, theme.TEXT, (text_left, cell.centery - layout.px(2)),
                          "bottomleft", max_width=width)
            else:  # long titles ("Ктулху: карманное безумие") on two lines
                title_font = layout.font(21, True)
                lines = wrap_text(title, title_font, width)[:2]
                bottom = cell.centery - layout.px(2)
                for index, line in enumerate(reversed(lines)):
                    draw_text(surface, line, title_font, theme.TEXT,
                              (text_left, bottom - index * title_font.get_height()), "bottomleft", max_width=width)
            if entry.start_factory is None:
                draw_text(surface, self.t("common.coming_soon").split(":")[0], layout.font(16), theme.TEXT_DIM,
                          (text_left, cell.centery + layout.px(4)), "topleft")
        bottom = pygame.Rect(margin, layout.height - layout.px(80), layout.width - 2 * margin, layout.px(64))
        half = (bottom.width - layout.px(12)) // 2
        self.add_button(Button(pygame.Rect(bottom.left, bottom.top, half, bottom.height), self.t("launcher.settings"),
                               lambda: self.app.push(SettingsScene(self.app)), icon=icons.gear, key=pygame.K_s))
        self.add_button(Button(pygame.Rect(bottom.right - half, bottom.top, half, bottom.height),
                               self.t("launcher.history"), lambda: self.app.push(HistoryScene(self.app)),
                               icon=icons.clock, key=pygame.K_h))
        # the game tiles draw their own content; only the bottom buttons need the default look
        for index, button in enumerate(self.buttons):
            if button.label:
                button.draw(surface, layout, focused=index == self.focus)
            elif index == self.focus or button.pressed:
                pygame.draw.rect(surface, theme.FOCUS, button.rect, width=max(2, layout.px(3)),
                                 border_radius=layout.px(10))


register_screen("launcher", LauncherScene)
