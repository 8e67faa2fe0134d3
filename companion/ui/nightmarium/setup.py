"""Setup: players and their seats (the camera's seat zones), edition, win target, seals, and the table source."""
from __future__ import annotations

import pygame

from companion.games.nightmarium import EDITIONS, WIN_TARGETS
from companion.ui import theme
from companion.ui.nightmarium.session import Session
from companion.ui.scene import Scene
from companion.ui.widgets import Button, draw_text, fit_font, split_columns

DEFAULT_NAMES = ("Ann", "Bob", "Cleo", "Dan", "Eve")
MAX_SEATS = 5


class SetupScene(Scene):
    def __init__(self, app):
        super().__init__(app)
        preferences = app.preferences
        names = list(preferences.players) + [n for n in DEFAULT_NAMES if n not in preferences.players]
        self.names = names[:MAX_SEATS]
        self.count = max(2, min(5, len(preferences.players)))
        self.seats = list(range(MAX_SEATS))
        self.edition = preferences.edition if preferences.edition in EDITIONS else "ru2014"
        self.win_target = preferences.win_target if preferences.win_target in WIN_TARGETS else 5
        self.seals = preferences.seals and EDITIONS[self.edition].has_seals
        self.mode = "simulated" if app.simulate else ("camera" if preferences.camera else "manual")
        self.message: str | None = None
        self.saved = None
        try:
            saved = [game for game in app.store.unfinished() if game.kind == "nightmarium"] if app.store else []
            self.saved = saved[0] if saved else None
        except Exception as error:  # an unreadable store must not block a new game
            self.message = str(error)

    def set(self, **values) -> None:
        for key, value in values.items():
            setattr(self, key, value)
        if not EDITIONS[self.edition].has_seals:
            self.seals = False

    def next_seat(self, player: int) -> None:
        """Move a player to the next seat zone, swapping with whoever sat there."""
        wanted = (self.seats[player] + 1) % MAX_SEATS
        if wanted in self.seats[:self.count]:
            other = self.seats.index(wanted)
            self.seats[other] = self.seats[player]
        self.seats[player] = wanted

    def rename(self, index: int) -> None:
        from companion.ui.keyboard import TextEntry

        def renamed(name: str) -> None:
            self.names[index] = name
            self.remember_names()

        self.app.push(TextEntry(self.app, self.t("nm.setup.name", seat=index + 1), self.names[index], renamed))

    def remember_names(self) -> None:
        preferences = self.app.preferences
        preferences.players = self.names[:self.count]
        try:
            preferences.save()
        except OSError as error:  # the names still work for this game
            self.message = self.t("settings.save_failed", message=str(error))

    def start(self) -> None:
        from companion.ui.nightmarium.table import TableScene

        names = self.names[:self.count]
        session = Session.new(self.app, names, self.edition, self.win_target, self.seals, self.mode,
                              self.seats[:self.count])
        if self.mode == "simulated":
            session.start_simulation()
        self.app.replace(TableScene(self.app, session))

    def resume(self) -> None:
        from companion.ui.nightmarium.table import TableScene

        try:
            session = Session.resume(self.app, self.saved.id, self.saved.state)
        except ValueError as error:
            self.message = str(error)
            self.saved = None
            return
        if session.mode == "simulated":
            session.mode = "manual"  # the simulated players of the earlier run are gone
        self.app.replace(TableScene(self.app, session))

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        px = layout.px
        surface.fill(theme.BACKGROUND)
        margin = px(14)
        draw_text(surface, self.t("nm.setup.title"), layout.font(24, True), theme.ACCENT, (margin, px(8)))
        label_width = px(120)
        gap = px(8)
        y = px(46)
        row_height = px(52)

        def row(title: str, height: int = row_height) -> pygame.Rect:
            nonlocal y
            font = fit_font(title, label_width - px(6), px(17), True, px(12))
            draw_text(surface, title, font, theme.TEXT, (margin, y + min(height, row_height) // 2), "midleft")
            rect = pygame.Rect(margin + label_width, y, layout.width - label_width - 2 * margin, height)
            y += height + gap
            return rect

        players = row(self.t("nm.setup.players"), row_height * 2 + gap)
        counter, names = split_columns(players, 2, gap, [1, 6])
        self.add_button(Button(pygame.Rect(counter.left, counter.top, counter.width, row_height), "+",
                               lambda: self.set(count=min(5, self.count + 1)), enabled=self.count < 5))
        self.add_button(Button(pygame.Rect(counter.left, counter.bottom - row_height, counter.width, row_height), "−",
                               lambda: self.set(count=max(2, self.count - 1)), enabled=self.count > 2))
        for index, cell in enumerate(split_columns(names, 5, gap)):
            if index >= self.count:
                pygame.draw.rect(surface, theme.BUTTON_DISABLED, cell, border_radius=px(10))
                continue
            name_rect = pygame.Rect(cell.left, cell.top, cell.width, row_height)
            self.add_button(Button(name_rect, self.names[index], lambda index=index: self.rename(index),
                                   colour=theme.PANEL_LIGHT))
            self.add_button(Button(pygame.Rect(cell.left, cell.bottom - row_height, cell.width, row_height),
                                   self.t("nm.setup.seat", seat=self.seats[index] + 1),
                                   lambda index=index: self.next_seat(index)))
        editions = split_columns(row(self.t("nm.setup.edition")), len(EDITIONS), gap)
        for (key, edition), cell in zip(EDITIONS.items(), editions):
            self.add_button(Button(cell, edition.title, lambda key=key: self.set(edition=key),
                                   selected=self.edition == key))
        options = row(self.t("nm.setup.target"))
        targets, seals = split_columns(options, 2, px(20), [3, 2])
        for target, cell in zip(WIN_TARGETS, split_columns(targets, len(WIN_TARGETS), gap)):
            self.add_button(Button(cell, str(target), lambda target=target: self.set(win_target=target),
                                   selected=self.win_target == target))
        has_seals = EDITIONS[self.edition].has_seals
        self.add_button(Button(seals, f"{self.t('nm.setup.seals')}: {self.t('common.on' if self.seals else 'common.off')}",
                               lambda: self.set(seals=not self.seals), enabled=has_seals, selected=self.seals))
        modes = split_columns(row(self.t("nm.setup.mode")), 3, gap)
        for mode, cell in zip(("camera", "manual", "simulated"), modes):
            self.add_button(Button(cell, self.t(f"nm.mode.{mode}"), lambda mode=mode: self.set(mode=mode),
                                   selected=self.mode == mode))
        bottom = pygame.Rect(margin, layout.height - px(66), layout.width - 2 * margin, px(56))
        back, resume, start = split_columns(bottom, 3, px(12), [1, 1.6, 1.6])
        self.add_button(Button(back, self.t("common.back"), self.back))
        self.add_button(Button(resume, self.t("nm.setup.resume"), self.resume, enabled=self.saved is not None))
        self.add_button(Button(start, self.t("nm.setup.start"), self.start, primary=True))
        if self.message:
            draw_text(surface, self.message, layout.font(14), theme.WARNING, (margin, bottom.top - px(4)),
                      "bottomleft", max_width=layout.width - 2 * margin)
        self.draw_buttons(surface, layout)
