"""The game log the players can scroll: newest at the bottom, like a chat."""
from __future__ import annotations

import pygame

from companion.ui import theme
from companion.ui.nightmarium.describe import event_text
from companion.ui.scene import Scene
from companion.ui.widgets import Button, draw_text, panel

QUIET_EVENTS = {"chain_end", "turn_end"}


class LogScene(Scene):
    def __init__(self, app, session):
        super().__init__(app)
        self.session = session
        self.lines_from_end = 0  # how far the view is scrolled up

    def lines(self) -> list[tuple[str, bool]]:
        """(text, is a turn heading) for each event worth reading."""
        names = [player.name for player in self.session.game.players]
        return [(event_text(event, names, self.app.lang), event.get("type") == "turn_start")
                for event in self.session.game.events if event.get("type") not in QUIET_EVENTS]

    def scroll(self, lines: int) -> None:
        self.lines_from_end = max(0, min(len(self.lines()) - 1, self.lines_from_end - lines))
        self.dirty = True

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        px = layout.px
        surface.fill(theme.BACKGROUND)
        draw_text(surface, self.t("nm.log.title"), layout.font(24, True), theme.ACCENT, (px(14), px(8)))
        area = pygame.Rect(px(14), px(46), layout.width - px(110), layout.height - px(56))
        panel(surface, area)
        font = layout.font(15)
        line_height = font.get_height() + px(4)
        visible = max(1, (area.height - px(12)) // line_height)
        lines = self.lines()
        end = len(lines) - self.lines_from_end
        shown = lines[max(0, end - visible):end]
        y = area.top + px(6)
        heading = layout.font(15, True)
        for line, is_turn in shown:
            draw_text(surface, line, heading if is_turn else font, theme.ACCENT if is_turn else theme.TEXT,
                      (area.left + px(10), y), max_width=area.width - px(20))
            y += line_height
        column = pygame.Rect(area.right + px(10), area.top, layout.width - area.right - px(24), area.height)
        self.add_button(Button(pygame.Rect(column.left, column.top, column.width, px(90)), "▲",
                               lambda: self.scroll(-visible // 2), enabled=end - visible > 0))
        self.add_button(Button(pygame.Rect(column.left, column.top + px(100), column.width, px(90)), "▼",
                               lambda: self.scroll(visible // 2), enabled=self.lines_from_end > 0))
        self.add_button(Button(pygame.Rect(column.left, column.bottom - px(60), column.width, px(60)),
                               self.t("common.back"), self.app.pop, primary=True))
        self.draw_buttons(surface, layout)
