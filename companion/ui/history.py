"""History: the finished games, newest first, scrollable."""
from __future__ import annotations

import time

import pygame

from companion.ui import icons, theme
from companion.ui.saving import MemorySaves
from companion.ui.scene import Scene
from companion.ui.screens import register_screen
from companion.ui.widgets import Button, draw_text, panel


def summarise(entry: dict) -> tuple[list[str], str | None]:
    """Player names and the winner's name from a saved state, whatever shape the game gave it."""
    state = entry.get("state") or {}
    players = state.get("players") or []
    names = [player.get("name", "?") if isinstance(player, dict) else str(player) for player in players]
    winner = state.get("winner")
    winner_name = names[winner] if isinstance(winner, int) and 0 <= winner < len(names) else None
    return names, winner_name


class HistoryScene(Scene):
    def __init__(self, app):
        super().__init__(app)
        self.offset = 0
        store = app.store
        try:
            self.entries = store.finished_games() if store is not None else []
        except Exception as error:
            app.errors.append(str(error))
            self.entries = []

    def scroll(self, lines: int) -> None:
        self.offset = max(0, min(len(self.entries) - 1, self.offset + lines))
        self.dirty = True

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        margin = layout.px(16)
        draw_text(surface, self.t("history.title"), layout.font(28, True), theme.ACCENT, (margin, layout.px(10)))
        area = pygame.Rect(margin, layout.px(56), layout.width - 2 * margin - layout.px(70),
                           layout.height - layout.px(140))
        if not self.entries:
            draw_text(surface, self.t("history.empty"), layout.font(22), theme.TEXT_DIM, area.center, "center")
        row_height = layout.px(64)
        y = area.top
        for entry in self.entries[self.offset:]:
            if y + row_height > area.bottom:
                break
            row = pygame.Rect(area.left, y, area.width, row_height - layout.px(8))
            panel(surface, row)
            emblem = pygame.Rect(0, 0, row.height - layout.px(12), row.height - layout.px(12))
            emblem.midleft = (row.left + layout.px(8), row.centery)
            icons.game_emblem(surface, emblem, entry.get("game", ""))
            names, winner = summarise(entry)
            when = time.strftime("%Y-%m-%d %H:%M", time.localtime(entry.get("when", 0)))
            left = emblem.right + layout.px(10)
            draw_text(surface, f"{self.t('game.' + entry.get('game', ''))} · {when}", layout.font(18, True),
                      theme.TEXT, (left, row.top + layout.px(6)), max_width=row.right - left - 8)
            details = ", ".join(names)
            if winner:
                details = f"{self.t('history.winner', name=winner)} · {details}"
            draw_text(surface, details, layout.font(16), theme.TEXT_DIM, (left, row.top + layout.px(30)),
                      max_width=row.right - left - 8)
            y += row_height
        arrows = pygame.Rect(area.right + layout.px(10), area.top, layout.px(60), area.height)
        self.add_button(Button(pygame.Rect(arrows.left, arrows.top, arrows.width, layout.px(64)), "▲",
                               lambda: self.scroll(-3), enabled=self.offset > 0))
        self.add_button(Button(pygame.Rect(arrows.left, arrows.bottom - layout.px(64), arrows.width, layout.px(64)),
                               "▼", lambda: self.scroll(3), enabled=self.offset + 1 < len(self.entries)))
        self.add_button(Button(pygame.Rect(margin, layout.height - layout.px(70), layout.px(160), layout.px(56)),
                               self.t("common.back"), self.back, primary=True))
        self.draw_buttons(surface, layout)


def sample_history(app) -> HistoryScene:
    """Representative state: a few finished games in a throw-away store."""
    store = MemorySaves()
    now = time.time()
    samples = [("nightmarium", ["Ann", "Bob", "Cleo"], 1), ("nightmarium", ["Аня", "Боря"], 0),
               ("cthulhu-pocket-madness", ["Ola", "Piotr", "Zosia", "Łucja"], 3)]
    for index, (game, names, winner) in enumerate(samples):
        state = {"players": [{"name": name} for name in names], "winner": winner}
        store.record(game, f"sample-{index}", {"kind": "win"}, state, finished=True)
        store.games[f"sample-{index}"]["updated"] = now - index * 86400
    app.store = store
    return HistoryScene(app)


register_screen("history", sample_history)
