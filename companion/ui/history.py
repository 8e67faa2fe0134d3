"""History: the finished games, newest first, scrollable."""
from __future__ import annotations

import pygame

from companion.ui import icons, theme
from companion.ui.saving import MemorySaves
from companion.ui.scene import Scene
from companion.ui.screens import register_screen
from companion.ui.widgets import Button, draw_text, panel


def summarise(saved) -> tuple[list[str], str | None]:
    """Player names and the winner's name of a saved game, whatever shape its game gave the state."""
    state = saved.state if isinstance(saved.state, dict) else {}
    players = state.get("players") or []
    names = [player.get("name", "?") if isinstance(player, dict) else str(player) for player in players]
    result = saved.result if isinstance(saved.result, dict) else {}
    winner = result.get("winner", state.get("winner"))
    if isinstance(winner, int):
        winner = names[winner] if 0 <= winner < len(names) else None
    return names or [saved.title], winner if isinstance(winner, str) else None


class HistoryScene(Scene):
    def __init__(self, app):
        super().__init__(app)
        self.offset = 0
        store = app.store
        try:
            self.entries = store.history() if store is not None else []
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
            icons.game_emblem(surface, emblem, entry.kind)
            names, winner = summarise(entry)
            when = (entry.finished or entry.updated or "")[:16].replace("T", " ")
            left = emblem.right + layout.px(10)
            draw_text(surface, f"{self.t('game.' + entry.kind)} · {when}", layout.font(18, True),
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
    samples = [("cthulhu-pocket-madness", ["Ola", "Piotr", "Zosia", "Łucja"], 3), ("nightmarium", ["Аня", "Боря"], 0),
               ("nightmarium", ["Ann", "Bob", "Cleo"], 1)]
    for kind, names, winner in samples:
        state = {"players": [{"name": name} for name in names]}
        game_id = store.new_game(kind, " · ".join(names), state)
        store.record(game_id, {"kind": "sample"}, state, [])
        store.finish(game_id, {"winner": names[winner]})
    app.store = store
    return HistoryScene(app)


register_screen("history", sample_history)
