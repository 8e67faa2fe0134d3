"""Cthulhu: Pocket Madness screens: the scores (cthulhu-scores), the madness chart and the portal powers."""
from __future__ import annotations

import pygame

from companion.games.cthulhu.engine import GAME_END_MADNESS, MAX_PLAYERS, MIN_PLAYERS, CthulhuScores
from companion.games.cthulhu.portals import PORTALS
from companion.ui import theme
from companion.ui.games.common import GameRecord, GameScene, resume_saved, saved_sample, setup_footer
from companion.ui.scene import Scene
from companion.ui.screens import register_game, register_screen
from companion.ui.widgets import Button, draw_paragraph, draw_text, fit_font, panel, split_columns, split_rows

GAME_KEY = "cthulhu-pocket-madness"
PLAYER_COLOURS = ((196, 90, 70), (80, 140, 200), (110, 170, 90), (200, 160, 70))
LOCATION_TYPES = len(PORTALS)


class CthulhuScene(GameScene):
    game_key = GAME_KEY

    def __init__(self, app, scores: CthulhuScores, record: GameRecord | int | None = None):
        super().__init__(app, scores, record)
        self.scores = scores

    @property
    def finished(self) -> bool:
        return self.scores.state["phase"] == "over"

    def player_names(self) -> list[str]:
        return list(self.scores.state["names"])

    def summary(self) -> dict:
        winners = self.scores.state["winners"]
        return {**super().summary(), "winner": winners[0] if len(winners) == 1 else None, "winners": list(winners)}

    def result(self) -> dict:
        state = self.scores.state
        return {"winners": [state["names"][p] for p in state["winners"]], "madness": list(state["madness"]),
                "rounds": state["round"]}

    def name(self, player: int) -> str:
        return self.scores.state["names"][player]


class CthulhuScoresScene(CthulhuScene):
    """Madness per player, the round's publication counter, portals, and the two ways a round ends."""

    def __init__(self, app, scores: CthulhuScores, record: GameRecord | int | None = None):
        super().__init__(app, scores, record)
        self.deck_counts: list[int] | None = None  # while entering the deck-ran-out counts
        self.last_taker = 0

    def open_deck_entry(self) -> None:
        self.deck_counts = [0] * self.scores.players
        self.last_taker = self.scores.state["current"]
        self.dirty = True

    def step_count(self, player: int, step: int) -> None:
        self.deck_counts[player] = max(0, min(LOCATION_TYPES, self.deck_counts[player] + step))
        self.dirty = True

    def confirm_deck(self) -> None:
        if self.perform(self.scores.deck_ran_out, list(self.deck_counts), self.last_taker) is not None:
            self.deck_counts = None

    def cancel_deck(self) -> None:
        self.deck_counts = None
        self.dirty = True

    def set_last_taker(self, player: int) -> None:
        self.last_taker = player
        self.dirty = True

    def close_or_claim(self, portal: int) -> None:
        """The current player's own portal is closed (its power used); any other is claimed by their set."""
        current = self.scores.state["current"]
        if self.scores.holder(portal) == current:
            self.perform(self.scores.close_portal, current, portal)
        else:
            self.perform(self.scores.open_sets, current, [portal])

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        state = self.scores.state
        status = self.t("cthulhu.status", round=state["round"], published=state["publications"],
                        next=state["publications"] + 1)
        if state["shoggoth_owner"] is not None and state["phase"] == "playing":
            status = self.t("cthulhu.shoggoth_active", player=self.name(state["shoggoth_owner"]))
        self.header(surface, layout, self.t("game.cthulhu-pocket-madness"), status)
        margin, gap = layout.px(14), layout.px(8)
        body = pygame.Rect(margin, layout.px(46), layout.width - 2 * margin, layout.height - layout.px(226))
        if self.deck_counts is not None:
            self.draw_deck_entry(surface, layout, body)
        elif state["phase"] == "choose_first":
            self.draw_choose_first(surface, layout, body)
        elif state["phase"] == "over":
            self.draw_verdict(surface, layout, body)
        else:
            self.draw_players(surface, layout, body)
        portals = pygame.Rect(margin, body.bottom + gap, layout.width - 2 * margin, layout.px(60))
        self.draw_portals(surface, layout, portals)
        bottom = layout.height - layout.px(76)
        x = self.back_and_undo(layout, bottom, layout.px(62))
        cells = split_columns(pygame.Rect(x, bottom, layout.width - margin - x, layout.px(62)), 4, gap)
        playing = state["phase"] == "playing" and self.deck_counts is None
        self.add_button(Button(cells[0], self.t("cthulhu.next_turn"), lambda: self.perform(self.scores.end_turn),
                               enabled=playing, primary=True, key=pygame.K_n))
        self.add_button(Button(cells[1], self.t("cthulhu.deck_out"), self.open_deck_entry, enabled=playing))
        self.add_button(Button(cells[2], self.t("cthulhu.chart"),
                               lambda: self.app.push(CthulhuChartScene(self.app, self.scores, self.record))))
        self.add_button(Button(cells[3], self.t("cthulhu.powers"), lambda: self.app.push(PortalPowersScene(self.app)),
                               key=pygame.K_p))
        self.footer_message(surface, layout, pygame.Rect(margin, portals.bottom + layout.px(2),
                                                         layout.width - 2 * margin, layout.px(22)))
        self.draw_buttons(surface, layout)

    def draw_players(self, surface, layout, area: pygame.Rect) -> None:
        state = self.scores.state
        rows = split_rows(area, self.scores.players, layout.px(6))
        for player, row in enumerate(rows):
            current = player == state["current"]
            panel(surface, row, theme.PANEL_LIGHT if current else theme.PANEL,
                  border=theme.ACCENT if current else None)
            colour = PLAYER_COLOURS[player % len(PLAYER_COLOURS)]
            pygame.draw.circle(surface, colour, (row.left + row.height // 2, row.centery), row.height // 3)
            name_left = row.left + row.height
            draw_text(surface, self.name(player), layout.font(20, True), theme.TEXT, (name_left, row.centery),
                      "midleft", max_width=layout.px(120))
            madness = state["madness"][player]
            bar = pygame.Rect(name_left + layout.px(126), row.centery - layout.px(10), layout.px(190), layout.px(20))
            pygame.draw.rect(surface, theme.BUTTON_DISABLED, bar, border_radius=layout.px(4))
            filled = bar.copy()
            filled.width = int(bar.width * min(madness, GAME_END_MADNESS) / GAME_END_MADNESS)
            pygame.draw.rect(surface, theme.WARNING if madness >= GAME_END_MADNESS else colour, filled,
                             border_radius=layout.px(4))
            draw_text(surface, str(madness), layout.font(24, True), theme.TEXT, (bar.right + layout.px(8),
                                                                                row.centery), "midleft")
            held = [number for number in PORTALS if self.scores.holder(number) == player]
            draw_text(surface, " ".join(str(number) for number in sorted(held)), layout.font(15), theme.ACCENT,
                      (bar.left, bar.bottom + layout.px(1)), max_width=bar.width)
            buttons = pygame.Rect(bar.right + layout.px(48), row.top + layout.px(3),
                                  row.right - bar.right - layout.px(52), row.height - layout.px(6))
            publish, empty = split_columns(buttons, 2, layout.px(6))
            self.add_button(Button(publish, self.t("cthulhu.publish"),
                                   lambda player=player: self.perform(self.scores.publish, player)))
            self.add_button(Button(empty, self.t("cthulhu.empty_hand"),
                                   lambda player=player: self.perform(self.scores.empty_hand, player)))

    def draw_deck_entry(self, surface, layout, area: pygame.Rect) -> None:
        """Each player enters how many different location types they still hold (RULES.md 2.6 / C1)."""
        panel(surface, area)
        inner = area.inflate(-layout.px(12), -layout.px(8))
        draw_text(surface, self.t("cthulhu.deck_prompt"), layout.font(16, True), theme.TEXT, inner.topleft,
                  max_width=inner.width)
        rows_area = pygame.Rect(inner.left, inner.top + layout.px(24), inner.width, inner.height - layout.px(24))
        rows = split_rows(rows_area, self.scores.players, layout.px(4))
        for player, row in enumerate(rows):
            draw_text(surface, self.name(player), layout.font(18), theme.TEXT, (row.left, row.centery), "midleft",
                      max_width=layout.px(120))
            minus = pygame.Rect(row.left + layout.px(130), row.top, layout.px(56), row.height)
            self.add_button(Button(minus, "−", lambda player=player: self.step_count(player, -1)))
            draw_text(surface, str(self.deck_counts[player]), layout.font(22, True), theme.TEXT,
                      (minus.right + layout.px(30), row.centery), "center")
            self.add_button(Button(minus.move(layout.px(116), 0), "+", lambda player=player: self.step_count(player, 1)))
            taker = pygame.Rect(minus.right + layout.px(130), row.top, layout.px(170), row.height)
            self.add_button(Button(taker, self.t("cthulhu.took_last"), lambda player=player: self.set_last_taker(player),
                                   selected=self.last_taker == player))
        confirm = pygame.Rect(inner.right - layout.px(150), rows_area.top, layout.px(150), layout.px(52))
        self.add_button(Button(confirm, self.t("common.ok"), self.confirm_deck, primary=True))
        self.add_button(Button(confirm.move(0, layout.px(60)), self.t("common.cancel"), self.cancel_deck))

    def draw_choose_first(self, surface, layout, area: pygame.Rect) -> None:
        state = self.scores.state
        panel(surface, area)
        inner = area.inflate(-layout.px(16), -layout.px(12))
        last = state["round_ends"][-1]
        how = self.t(f"cthulhu.ended.{last['how']}", player=self.name(last["player"]))
        draw_paragraph(surface, how + "\n" + self.t("cthulhu.chooser", player=self.name(state["chooser"])),
                       layout.font(18), theme.TEXT, pygame.Rect(inner.left, inner.top, inner.width, layout.px(80)))
        buttons = pygame.Rect(inner.left, inner.top + layout.px(90), inner.width, layout.px(60))
        for player, cell in enumerate(split_columns(buttons, self.scores.players, layout.px(8))):
            self.add_button(Button(cell, self.name(player), lambda player=player: self.perform(
                self.scores.choose_first_player, player), colour=PLAYER_COLOURS[player % len(PLAYER_COLOURS)]))
        madness = ", ".join(f"{self.name(p)} {m}" for p, m in enumerate(state["madness"]))
        draw_text(surface, madness, layout.font(17), theme.TEXT_DIM, (inner.left, buttons.bottom + layout.px(12)),
                  max_width=inner.width)

    def draw_verdict(self, surface, layout, area: pygame.Rect) -> None:
        state = self.scores.state
        panel(surface, area, theme.PANEL_LIGHT)
        names = ", ".join(self.name(player) for player in state["winners"])
        text = self.t("cthulhu.winners", names=names)
        draw_text(surface, text, fit_font(text, area.width - layout.px(20), layout.px(30), True, layout.px(14)),
                  theme.GOOD, (area.centerx, area.top + layout.px(50)), "center")
        madness = ", ".join(f"{self.name(p)} {m}" for p, m in enumerate(state["madness"]))
        draw_text(surface, madness, layout.font(19), theme.TEXT, (area.centerx, area.top + layout.px(100)), "center",
                  max_width=area.width - layout.px(20))

    def draw_portals(self, surface, layout, row: pygame.Rect) -> None:
        """Portals 6-12: the current player taps one to claim (or steal) it with a set, or their own to close it."""
        playing = self.scores.state["phase"] == "playing" and self.deck_counts is None
        for number, cell in zip(sorted(PORTALS), split_columns(row, len(PORTALS), layout.px(6))):
            holder = self.scores.holder(number)
            label = f"{number} {self.t('cthulhu.portal.' + PORTALS[number][0])}"
            colour = PLAYER_COLOURS[holder % len(PLAYER_COLOURS)] if holder is not None else None
            self.add_button(Button(cell, label, lambda number=number: self.close_or_claim(number), colour=colour,
                                   enabled=playing))


class CthulhuChartScene(CthulhuScene):
    """Each player's madness at the end of every round, as lines, with the game-end line at 10."""

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        self.header(surface, layout, self.t("cthulhu.chart_title"))
        margin = layout.px(14)
        area = pygame.Rect(margin + layout.px(30), layout.px(56), layout.width - 2 * margin - layout.px(190),
                           layout.height - layout.px(160))
        state = self.scores.state
        history = [[0] * self.scores.players] + state["history"]
        if state["phase"] == "playing":
            history = history + [list(state["madness"])]
        top = max(GAME_END_MADNESS + 2, max(max(row) for row in history) + 1)
        pygame.draw.rect(surface, theme.PANEL, area)
        end_y = area.bottom - area.height * GAME_END_MADNESS / top
        pygame.draw.line(surface, theme.WARNING, (area.left, end_y), (area.right, end_y), max(1, layout.px(2)))
        for value in range(0, top + 1, 2):
            y = area.bottom - area.height * value / top
            draw_text(surface, str(value), layout.font(13), theme.TEXT_DIM, (area.left - layout.px(4), y), "midright")
        steps = max(1, len(history) - 1)
        for index in range(len(history)):
            x = area.left + area.width * index / steps
            draw_text(surface, str(index), layout.font(13), theme.TEXT_DIM, (x, area.bottom + layout.px(4)), "midtop")
        for player in range(self.scores.players):
            colour = PLAYER_COLOURS[player % len(PLAYER_COLOURS)]
            points = [(area.left + area.width * index / steps, area.bottom - area.height * row[player] / top)
                      for index, row in enumerate(history)]
            if len(points) > 1:
                pygame.draw.lines(surface, colour, False, points, max(2, layout.px(3)))
            for point in points:
                pygame.draw.circle(surface, colour, point, max(3, layout.px(4)))
            legend = (area.right + layout.px(20), area.top + player * layout.px(34))
            pygame.draw.circle(surface, colour, (legend[0] + layout.px(8), legend[1] + layout.px(12)), layout.px(8))
            draw_text(surface, f"{self.name(player)}: {state['madness'][player]}", layout.font(17), theme.TEXT,
                      (legend[0] + layout.px(22), legend[1] + layout.px(12)), "midleft", max_width=layout.px(150))
        draw_text(surface, self.t("cthulhu.round_axis"), layout.font(14), theme.TEXT_DIM,
                  (area.centerx, area.bottom + layout.px(22)), "midtop")
        self.add_button(Button(pygame.Rect(margin, layout.height - layout.px(70), layout.px(160), layout.px(58)),
                               self.t("common.back"), self.back, primary=True))
        self.draw_buttons(surface, layout)


class PortalPowersScene(Scene):
    """The seven portal powers (seed 002 "Карты порталов")."""

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        margin = layout.px(14)
        draw_text(surface, self.t("cthulhu.powers_title"), layout.font(24, True), theme.ACCENT,
                  (margin, layout.px(8)))
        area = pygame.Rect(margin, layout.px(44), layout.width - 2 * margin, layout.height - layout.px(120))
        for number, row in zip(sorted(PORTALS, reverse=True), split_rows(area, len(PORTALS), layout.px(4))):
            key = PORTALS[number][0]
            panel(surface, row)
            badge = pygame.Rect(row.left + layout.px(4), row.top + layout.px(3), row.height - layout.px(6),
                                row.height - layout.px(6))
            pygame.draw.circle(surface, (60, 130, 100), badge.center, badge.width // 2)
            draw_text(surface, str(number), layout.font(18, True), theme.TEXT, badge.center, "center")
            name = self.t(f"cthulhu.portal.{key}")
            draw_text(surface, name, layout.font(17, True), theme.ACCENT, (badge.right + layout.px(8), row.centery),
                      "midleft", max_width=layout.px(150))
            text_rect = pygame.Rect(badge.right + layout.px(164), row.top, row.right - badge.right - layout.px(170),
                                    row.height)
            power = self.t(f"cthulhu.power.{key}")
            font = fit_font(power, text_rect.width * 2, layout.px(15), False, layout.px(10))
            draw_paragraph(surface, power, font, theme.TEXT, text_rect.inflate(0, -layout.px(4)), 0)
        self.add_button(Button(pygame.Rect(margin, layout.height - layout.px(68), layout.px(160), layout.px(56)),
                               self.t("common.back"), self.back, primary=True))
        self.draw_buttons(surface, layout)


class CthulhuSetupScene(Scene):
    def __init__(self, app):
        super().__init__(app)
        self.players = 3
        self.first = 0

    def choose(self, **values) -> None:
        for key, value in values.items():
            setattr(self, key, value)
        self.first = min(self.first, self.players - 1)
        self.dirty = True

    def start(self) -> None:
        names = [self.t("games.player_n", n=n + 1) for n in range(self.players)]
        self.app.replace(CthulhuScoresScene(self.app, CthulhuScores.new(names, first_player=self.first)))

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        margin = layout.px(16)
        draw_text(surface, self.t("game.cthulhu-pocket-madness"), layout.font(30, True), theme.ACCENT,
                  (margin, layout.px(12)))
        rows = ((self.t("games.players"), range(MIN_PLAYERS, MAX_PLAYERS + 1), "players", str),
                (self.t("cthulhu.first_player"), range(self.players), "first", lambda p: str(p + 1)))
        y = layout.px(80)
        for title, options, field, label in rows:
            draw_text(surface, title, layout.font(20, True), theme.TEXT, (margin, y + layout.px(28)), "midleft")
            row = pygame.Rect(margin + layout.px(220), y, layout.width - 2 * margin - layout.px(220), layout.px(58))
            options = list(options)
            for value, cell in zip(options, split_columns(row, len(options), layout.px(10))):
                self.add_button(Button(cell, label(value), lambda value=value, field=field: self.choose(
                    **{field: value}), selected=getattr(self, field) == value))
            y += layout.px(80)
        setup_footer(self, surface, layout, margin)


def start_cthulhu(app) -> Scene:
    found = resume_saved(app, GAME_KEY, CthulhuScores.from_json)
    if found is None:
        return CthulhuSetupScene(app)
    game_id, scores = found
    return CthulhuScoresScene(app, scores, game_id)


def sample_scores(app) -> CthulhuScores:
    scores = CthulhuScores.new(["Ann", "Bob", "Cy", "Di"])
    scores.open_sets(0, [9, 12])
    scores.publish(1)
    scores.end_turn()
    scores.empty_hand(2)
    scores.choose_first_player(0)
    scores.publish(3, 2)
    scores.deck_ran_out([2, 1, 3, 0], last_taker=1)
    scores.choose_first_player(3)
    scores.open_sets(3, [6])
    scores.publish(0)
    return scores


register_screen("cthulhu-setup", CthulhuSetupScene)
register_screen("cthulhu-scores", lambda app: saved_sample(CthulhuScoresScene(app, sample_scores(app))))
register_screen("cthulhu-chart", lambda app: saved_sample(CthulhuChartScene(app, sample_scores(app))))
register_screen("cthulhu-portals", PortalPowersScene)
register_game(GAME_KEY, "game.cthulhu-pocket-madness", start_cthulhu)
