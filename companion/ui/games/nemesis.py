"""Nemesis: Nightmares screens: setup, the bag on the DRAW button (nemesis-bag) and the madness tracks."""
from __future__ import annotations

import random

import pygame

from companion.games.nemesis.controller import BagButton
from companion.games.nemesis.data_file import NIGHTMARE_TYPES, load_nightmares_data
from companion.games.nemesis.engine import (DRAW_KINDS, LAIRS, MAX_PLAYERS, NemesisBag, token_detail,
                                            token_kind)
from companion.games.common.engine import DataFileError
from companion.ui import icons, theme
from companion.ui.games import art
from companion.ui.games.common import (PLAY_RANDOMNESS, GameRecord, GameScene, resume_saved, saved_sample,
                                       setup_footer)
from companion.ui.scene import Scene
from companion.ui.screens import register_game, register_screen
from companion.ui.widgets import Button, draw_paragraph, draw_text, fit_font, grid, panel, split_columns

GAME_KEY = "nemesis-nightmares"
STATUS_CYCLE = ("alive", "hibernating", "escaped", "dead")


class NemesisScene(GameScene):
    game_key = GAME_KEY

    def __init__(self, app, bag: NemesisBag, record: GameRecord | int | None = None, button: BagButton | None = None):
        super().__init__(app, bag, record)
        self.bag = bag
        self.button = button or BagButton(bag, self.feedback)

    def player_names(self) -> list[str]:
        return [self.t(f"nemesis.colour.{colour}") for colour in self.bag.state["order"]]

    def end_game(self) -> None:
        """The bag cannot tell when Nemesis ends: the players say so, and the next start is a new game. The bag
        and madness screens of the ended game all leave the stack, so Back cannot return to it."""
        if not self.finish_record({"ended": True}):
            self.message = self.t("games.not_saved")
            self.dirty = True
            return
        self.leave_game()
        self.app.push(NemesisSetupScene(self.app))

    def draw_now(self) -> None:
        if self.refuse_if_over():
            return
        outcome = self.button.handle("draw", "press", commit=self.save)
        self.dirty = True
        self.message = outcome.refused

    def handle_control(self, control: str, action: str) -> None:
        if control == "draw" and action == "press":
            self.draw_now()
        else:
            super().handle_control(control, action)

    def token_label(self, token: str) -> str:
        kind = token_kind(token)
        if kind == "madness":
            return self.t("nemesis.token.madness", colour=self.t(f"nemesis.colour.{token_detail(token)}"))
        if kind == "nightmare":
            return self.t("nemesis.token.nightmare", number=self.bag.token_number(token))
        return self.t("nemesis.token.blank")


class NemesisBagScene(NemesisScene):
    def __init__(self, app, bag: NemesisBag, record: GameRecord | int | None = None, button: BagButton | None = None):
        super().__init__(app, bag, record, button)
        self.show = "result"  # result | odds | peek

    def toggle(self, view: str) -> None:
        if view == "peek" and self.show != "peek":
            if self.perform(self.bag.peek) is None:
                return
        self.show = "result" if self.show == view else view
        self.dirty = True

    def remember(self, **values) -> None:
        button = self.button
        button.remember(values.get("kind", button.kind), values.get("colour", button.colour),
                        values.get("hand_size", button.hand_size))
        self.dirty = True

    def step_hand(self, step: int) -> None:
        hand = self.button.hand_size
        if hand is None:
            hand = 0 if step > 0 else None
        else:
            hand = hand + step if hand + step >= 0 else None  # below 0 means "not told": players compare
        self.remember(hand_size=min(hand, 30) if hand is not None else None)

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        state = self.bag.state
        self.header(surface, layout, self.t("game.nemesis-nightmares"),
                    self.t("nemesis.bag_status", bag=len(state["bag"]), supply=len(state["supply"])))
        margin, gap = layout.px(14), layout.px(8)
        right = pygame.Rect(layout.width - margin - layout.px(284), layout.px(48), layout.px(284),
                            layout.height - layout.px(158))
        left = pygame.Rect(margin, layout.px(48), right.left - 2 * margin, right.height)
        row = pygame.Rect(left.left, left.top, left.width, layout.px(52))
        for kind, cell in zip(DRAW_KINDS, split_columns(row, len(DRAW_KINDS), gap)):
            self.add_button(Button(cell, self.t(f"nemesis.kind.{kind}"), lambda kind=kind: self.remember(kind=kind),
                                   selected=self.button.kind == kind))
        row = row.move(0, layout.px(60))
        if self.button.kind == "encounter":
            self.draw_encounter_choices(surface, layout, row)
        else:
            hint = self.t(f"nemesis.hint.{self.button.kind}")
            draw_paragraph(surface, hint, layout.font(16), theme.TEXT_DIM, row)
        result = pygame.Rect(left.left, row.bottom + layout.px(10), left.width, left.bottom - row.bottom - layout.px(10))
        panel(surface, result)
        if self.show == "odds":
            self.draw_odds(surface, layout, result)
        elif self.show == "peek":
            self.draw_peek(surface, layout, result)
        else:
            self.draw_result(surface, layout, result)
        self.draw_figures(surface, layout, right)
        bottom = layout.height - layout.px(76)
        x = self.back_and_undo(layout, bottom, layout.px(62))
        cells = split_columns(pygame.Rect(x, bottom, layout.width - margin - x, layout.px(62)), 4, gap,
                              [1, 1, 1, 2])
        self.add_button(Button(cells[0], self.t("nemesis.odds"), lambda: self.toggle("odds"),
                               selected=self.show == "odds", key=pygame.K_o))
        self.add_button(Button(cells[1], self.t("nemesis.peek"), lambda: self.toggle("peek"),
                               selected=self.show == "peek", icon=icons.eye))
        self.add_button(Button(cells[2], self.t("nemesis.madness"),
                               lambda: self.app.push(NemesisMadnessScene(self.app, self.bag, self.record,
                                                                         self.button)), key=pygame.K_m))
        self.add_button(Button(cells[3], self.t("nemesis.draw"), self.draw_now, primary=True, key=pygame.K_d))
        self.footer_message(surface, layout, pygame.Rect(margin, bottom - layout.px(26), layout.width - 2 * margin,
                                                         layout.px(24)))
        self.draw_buttons(surface, layout)

    def draw_encounter_choices(self, surface, layout, row: pygame.Rect) -> None:
        state = self.bag.state
        living = [c for c in state["order"] if state["characters"][c]["status"] == "alive"]
        chips = pygame.Rect(row.left, row.top, row.width - layout.px(200), row.height)
        for colour, cell in zip(living, split_columns(chips, max(len(living), 1), layout.px(6))):
            self.add_button(Button(cell, self.t(f"nemesis.colour.{colour}"),
                                   lambda colour=colour: self.remember(colour=colour),
                                   selected=self.button.colour == colour,
                                   colour=art.TOKEN_COLOURS.get(colour, theme.BUTTON)))
        hand = pygame.Rect(chips.right + layout.px(8), row.top, row.right - chips.right - layout.px(8), row.height)
        minus, label, plus = split_columns(hand, 3, layout.px(4), [1, 1.4, 1])
        self.add_button(Button(minus, "−", lambda: self.step_hand(-1)))
        self.add_button(Button(plus, "+", lambda: self.step_hand(+1)))
        hand_text = "?" if self.button.hand_size is None else str(self.button.hand_size)
        hand_label = self.t("nemesis.hand")
        draw_text(surface, hand_label, fit_font(hand_label, label.width + layout.px(8), layout.px(13), False,
                                                layout.px(9)), theme.TEXT_DIM, (label.centerx, label.top), "midtop")
        draw_text(surface, hand_text, layout.font(24, True), theme.TEXT, (label.centerx, label.bottom), "midbottom")

    def draw_result(self, surface, layout, area: pygame.Rect) -> None:
        last = self.bag.state["last_draw"]
        inner = area.inflate(-layout.px(16), -layout.px(12))
        if last is None:
            art.draw_bag(surface, pygame.Rect(inner.left, inner.top, layout.px(100), layout.px(110)))
            draw_paragraph(surface, self.t("nemesis.press_draw"), layout.font(18), theme.TEXT_DIM,
                           pygame.Rect(inner.left + layout.px(120), inner.top, inner.width - layout.px(120),
                                       inner.height))
            return
        token = last["token"]
        size = min(layout.px(104), inner.height)
        art.draw_token(surface, pygame.Rect(inner.left, inner.top, size, size), token_kind(token),
                       token_detail(token) if ":" in token else None, last.get("number"),
                       layout.font(36, True))
        text_rect = pygame.Rect(inner.left + size + layout.px(14), inner.top, inner.width - size - layout.px(14),
                                inner.height)
        draw_text(surface, self.token_label(token), layout.font(20, True), theme.ACCENT, text_rect.topleft,
                  max_width=text_rect.width)
        body = pygame.Rect(text_rect.left, text_rect.top + layout.px(30), text_rect.width,
                           text_rect.height - layout.px(30))
        draw_paragraph(surface, "\n".join(self.instructions(last)), layout.font(16), theme.TEXT, body)

    def instructions(self, last: dict) -> list[str]:
        lines = [self.t("nemesis.purged", token=self.token_label(token)) for token in last.get("purged", [])]
        kind = last["kind"]
        if "colour" in last:  # an encounter
            if kind == "nightmare":
                if last["spawn"]:
                    lines.append(self.t("nemesis.spawn", kind=self.t(f"nemesis.type.{last['spawn']}"),
                                        level=last["level"]))
                else:
                    lines.append(self.t("nemesis.no_figure"))
                if last["surprise"] is None:
                    lines.append(self.t("nemesis.surprise_if", number=last["number"]))
                elif last["surprise"]:
                    lines.append(self.t("nemesis.surprise"))
                else:
                    lines.append(self.t("nemesis.no_surprise"))
                lines.append(self.t("nemesis.to_supply"))
            elif kind == "madness":
                lines += [self.t("nemesis.noise"), self.t("nemesis.panic_for",
                                                           colour=self.t(f"nemesis.colour.{last['panic']}")),
                          self.t("nemesis.back_in_bag")]
            else:
                lines += [self.t("nemesis.noise"), self.t("nemesis.back_in_bag")]
        elif "purged" in last:  # an event-phase draw
            if kind == "nightmare":
                lines += [self.t("nemesis.back_in_bag"), self.t("nemesis.noise_rolls")]
            elif kind == "madness":
                lines += [self.t("nemesis.panic_for", colour=self.t(f"nemesis.colour.{last['panic']}")),
                          self.t("nemesis.back_in_bag")]
            else:
                lines.append(self.t("nemesis.added") if last["added"] else self.t("nemesis.supply_empty"))
                lines.append(self.t("nemesis.back_in_bag"))
        else:
            lines.append(self.t("nemesis.other_back"))
        return lines

    def draw_odds(self, surface, layout, area: pygame.Rect) -> None:
        """The chance of each token type on the next draw, as bars."""
        inner = area.inflate(-layout.px(16), -layout.px(12))
        odds = [(key, chance) for key, chance in self.bag.odds().items() if chance > 0]
        draw_text(surface, self.t("nemesis.odds_title"), layout.font(17, True), theme.TEXT, inner.topleft)
        rows = pygame.Rect(inner.left, inner.top + layout.px(26), inner.width, inner.height - layout.px(26))
        height = min(layout.px(30), rows.height // max(1, len(odds)))
        label_width = layout.px(140)
        for index, (key, chance) in enumerate(odds):
            y = rows.top + index * height
            name = self.t(f"nemesis.odds.{key}") if ":" not in key else self.t(
                "nemesis.colour." + token_detail(key))
            draw_text(surface, name, layout.font(15), theme.TEXT, (rows.left, y + height // 2), "midleft",
                      max_width=label_width - layout.px(6))
            bar = pygame.Rect(rows.left + label_width, y + layout.px(4),
                              int((rows.width - label_width - layout.px(56)) * chance), height - layout.px(8))
            colour = (art.TOKEN_COLOURS.get(token_detail(key), theme.TEXT_DIM) if ":" in key
                      else art.NIGHTMARE_DISC if key == "nightmare" else art.BLANK_DISC)
            pygame.draw.rect(surface, colour, bar, border_radius=layout.px(3))
            draw_text(surface, f"{chance:.0%}", layout.font(15, True), theme.TEXT,
                      (bar.right + layout.px(6), y + height // 2), "midleft")

    def draw_peek(self, surface, layout, area: pygame.Rect) -> None:
        inner = area.inflate(-layout.px(16), -layout.px(12))
        draw_text(surface, self.t("nemesis.peek_title"), layout.font(17, True), theme.WARNING, inner.topleft)
        bag = self.bag.state["bag"]
        cells = grid(pygame.Rect(inner.left, inner.top + layout.px(28), inner.width, inner.height - layout.px(28)),
                     len(bag), columns=8, gap=layout.px(6))
        for token, cell in zip(bag, cells):
            size = min(cell.size)
            art.draw_token(surface, pygame.Rect(cell.x, cell.y, size, size), token_kind(token),
                           token_detail(token) if ":" in token else None, self.bag.token_number(token),
                           layout.font(max(10, size // 2 / max(layout.scale, 0.5)), True))

    def draw_figures(self, surface, layout, area: pygame.Rect) -> None:
        """Figures on the board: a kill or a dispel adds a token to the bag; lairs destroyed so far."""
        panel(surface, area)
        inner = area.inflate(-layout.px(12), -layout.px(10))
        draw_text(surface, self.t("nemesis.on_board"), layout.font(16, True), theme.TEXT, inner.topleft)
        y = inner.top + layout.px(24)
        row_height = layout.px(54)
        state = self.bag.state
        for kind in NIGHTMARE_TYPES:
            count = state["on_board"][kind]
            draw_text(surface, f"{self.t('nemesis.type.' + kind)}: {count}", layout.font(15), theme.TEXT,
                      (inner.left, y + row_height // 2), "midleft", max_width=inner.width - layout.px(134))
            kill = pygame.Rect(inner.right - layout.px(130), y + layout.px(2), layout.px(62), row_height - layout.px(6))
            self.add_button(Button(kill, self.t("nemesis.kill"), lambda kind=kind: self.perform(
                self.bag.kill_nightmare, kind), enabled=count > 0 and kind != "oppressive"))
            self.add_button(Button(kill.move(layout.px(68), 0), self.t("nemesis.dispel"), lambda kind=kind: self.perform(
                self.bag.dispel, [kind]), enabled=count > 0))
            y += row_height
        text = self.t("nemesis.lairs", done=state["lairs_destroyed"], total=LAIRS)
        draw_text(surface, text, layout.font(15), theme.TEXT, (inner.left, y + row_height // 2), "midleft",
                  max_width=inner.width - layout.px(60))
        self.add_button(Button(pygame.Rect(inner.right - layout.px(52), y + layout.px(2), layout.px(52),
                                           row_height - layout.px(6)), "+1", lambda: self.perform(self.bag.destroy_lair),
                               enabled=state["lairs_destroyed"] < LAIRS))


class NemesisMadnessScene(NemesisScene):
    """Every character's madness track (1-5, no way back below 3 once reached) and the panic-card helper."""

    def __init__(self, app, bag: NemesisBag, record: GameRecord | int | None = None, button: BagButton | None = None):
        super().__init__(app, bag, record, button)
        self.selected = bag.state["order"][0]
        self.panic_value = 3

    def select(self, colour: str) -> None:
        self.selected = colour
        self.dirty = True

    def cycle_status(self, colour: str) -> None:
        current = self.bag.state["characters"][colour]["status"]
        following = STATUS_CYCLE[(STATUS_CYCLE.index(current) + 1) % len(STATUS_CYCLE)]
        self.perform(self.bag.set_status, colour, following)

    def set_panic_value(self, value: int) -> None:
        self.panic_value = value
        self.dirty = True

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        self.header(surface, layout, self.t("nemesis.madness_title"), self.t("nemesis.madness_rule"))
        margin, gap = layout.px(14), layout.px(6)
        order = self.bag.state["order"]
        rows_area = pygame.Rect(margin, layout.px(46), layout.width - 2 * margin, layout.px(290))
        row_height = min(layout.px(58), rows_area.height // max(1, len(order)))
        for index, colour in enumerate(order):
            self.draw_track(surface, layout, pygame.Rect(rows_area.left, rows_area.top + index * row_height,
                                                         rows_area.width, row_height - gap), colour)
        self.draw_panic(surface, layout, pygame.Rect(margin, rows_area.bottom + layout.px(4),
                                                     layout.width - 2 * margin, layout.px(62)))
        bottom = layout.height - layout.px(72)
        x = self.back_and_undo(layout, bottom, layout.px(58))
        end = pygame.Rect(layout.width - margin - layout.px(150), bottom, layout.px(150), layout.px(58))
        self.add_button(Button(end, self.t("games.end_game"), self.end_game, colour=(110, 50, 50)))
        self.footer_message(surface, layout, pygame.Rect(x + layout.px(8), bottom, end.left - x - layout.px(16),
                                                         layout.px(58)))
        self.draw_buttons(surface, layout)

    def draw_track(self, surface, layout, row: pygame.Rect, colour: str) -> None:
        character = self.bag.state["characters"][colour]
        alive = character["status"] == "alive"
        panel(surface, row, theme.PANEL_LIGHT if colour == self.selected else theme.PANEL)
        chip = pygame.Rect(row.left, row.top, layout.px(110), row.height)
        self.add_button(Button(chip, self.t(f"nemesis.colour.{colour}"), lambda colour=colour: self.select(colour),
                               colour=art.TOKEN_COLOURS.get(colour, theme.BUTTON), selected=colour == self.selected))
        track = pygame.Rect(chip.right + layout.px(10), row.top + layout.px(4), layout.px(250),
                            row.height - layout.px(8))
        for level, cell in zip(range(1, 6), split_columns(track, 5, layout.px(4))):
            filled = alive and level == character["madness"]
            colour_fill = theme.WARNING if level >= 4 else theme.ACCENT if level == 3 else theme.GOOD
            pygame.draw.rect(surface, colour_fill if filled else theme.BUTTON_DISABLED, cell,
                             border_radius=layout.px(6))
            label = str(level)
            if character["reached3"] and level < 3:
                label = "✕"
            draw_text(surface, label, layout.font(20, True), theme.TEXT if filled else theme.TEXT_DIM, cell.center,
                      "center")
        status_text = self.t(f"nemesis.status.{character['status']}")
        controls = pygame.Rect(track.right + layout.px(10), row.top, row.right - track.right - layout.px(10),
                               row.height)
        cells = split_columns(controls, 5, layout.px(4), [1, 1, 1, 1, 2])
        self.add_button(Button(cells[0], "−", lambda: self.perform(self.bag.decrease_madness, colour), enabled=alive))
        self.add_button(Button(cells[1], "+", lambda: self.perform(self.bag.increase_madness, colour), enabled=alive))
        self.add_button(Button(cells[2], "→3", lambda: self.perform(self.bag.reduce_to_three, colour), enabled=alive))
        self.add_button(Button(cells[3], "☣5", lambda: self.perform(self.bag.infected, colour), enabled=alive))
        self.add_button(Button(cells[4], status_text, lambda: self.cycle_status(colour),
                               colour=None if alive else (90, 50, 50)))

    def draw_panic(self, surface, layout, row: pygame.Rect) -> None:
        label = self.t("nemesis.panic_card", colour=self.t(f"nemesis.colour.{self.selected}"))
        label_rect = pygame.Rect(row.left, row.top, layout.px(200), row.height)
        draw_paragraph(surface, label, layout.font(15, True), theme.TEXT, label_rect)
        cells = split_columns(pygame.Rect(label_rect.right, row.top, row.width - label_rect.width, row.height), 7,
                              layout.px(4), [1, 1, 1, 1, 1, 2.2, 2.2])
        for value, cell in zip(range(1, 6), cells):
            self.add_button(Button(cell, str(value), lambda value=value: self.set_panic_value(value),
                                   selected=self.panic_value == value))
        self.add_button(Button(cells[5], self.t("nemesis.panic_resolve"), lambda: self.perform(
            self.bag.panic, self.selected, self.panic_value), primary=True))
        self.add_button(Button(cells[6], self.t("nemesis.panic_cannot"), lambda: self.perform(
            self.bag.panic, self.selected, self.panic_value, False)))


class NemesisSetupScene(Scene):
    """Pick the players' colours (1 to 5), then the bag is filled."""

    def __init__(self, app):
        super().__init__(app)
        self.chosen: list[str] = []
        self.problem: str | None = None
        try:
            self.data = load_nightmares_data()
        except DataFileError as error:
            self.data = None
            self.problem = str(error)

    def toggle(self, colour: str) -> None:
        if colour in self.chosen:
            self.chosen.remove(colour)
        elif len(self.chosen) < MAX_PLAYERS:
            self.chosen.append(colour)
        self.dirty = True

    def start(self) -> None:
        bag = NemesisBag.new(self.chosen, PLAY_RANDOMNESS(), self.data)
        self.app.replace(NemesisBagScene(self.app, bag))

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        margin = layout.px(16)
        draw_text(surface, self.t("game.nemesis-nightmares"), layout.font(30, True), theme.ACCENT,
                  (margin, layout.px(12)))
        draw_text(surface, self.t("nemesis.pick_colours"), layout.font(19), theme.TEXT, (margin, layout.px(58)))
        if self.data is not None:
            area = pygame.Rect(margin, layout.px(96), layout.width - 2 * margin, layout.px(180))
            for colour, cell in zip(self.data.colours, grid(area, len(self.data.colours), 4, layout.px(10))):
                chosen = colour in self.chosen
                label = f"{self.chosen.index(colour) + 1}. " if chosen else ""
                self.add_button(Button(cell, label + self.t(f"nemesis.colour.{colour}"),
                                       lambda colour=colour: self.toggle(colour), selected=chosen,
                                       colour=art.TOKEN_COLOURS.get(colour) if chosen else None))
        if self.problem:
            draw_paragraph(surface, self.problem, layout.font(16), theme.WARNING,
                           pygame.Rect(margin, layout.px(290), layout.width - 2 * margin, layout.px(90)))
        setup_footer(self, surface, layout, margin, enabled=bool(self.chosen) and self.data is not None)


def start_nemesis(app) -> Scene:
    found = resume_saved(app, GAME_KEY, lambda saved: NemesisBag.from_json(saved, PLAY_RANDOMNESS()))
    if found is None:
        return NemesisSetupScene(app)
    game_id, bag = found
    return NemesisBagScene(app, bag, game_id)


def sample_bag(app, seed: int = 4) -> NemesisBag:
    bag = NemesisBag.new(["red", "blue", "yellow", "purple"], random.Random(seed))
    bag.state["characters"]["blue"]["madness"] = 3
    bag.state["characters"]["blue"]["reached3"] = True
    bag.draw_event()
    bag.state["characters"]["red"]["madness"] = 4
    bag.state["characters"]["red"]["reached3"] = True
    nightmare = next(token for token in bag.state["bag"] if token_kind(token) == "nightmare")
    bag.rng = _FirstPick(nightmare, seed)
    bag.draw_encounter("red", 2)
    bag.rng = random.Random(seed)
    bag.set_status("purple", "hibernating")
    return bag


class _FirstPick(random.Random):
    """Screenshots show a nightmare encounter, the case with the most to explain."""

    def __init__(self, token: str, seed: int):
        super().__init__(seed)
        self.token = token

    def choice(self, options):
        return self.token if self.token in options else super().choice(options)


def sample_bag_scene(app) -> NemesisBagScene:
    bag = sample_bag(app)
    scene = NemesisBagScene(app, bag, None)
    scene.button.remember("encounter", "red", hand_size=2)
    return saved_sample(scene)


def sample_madness_scene(app) -> NemesisMadnessScene:
    return saved_sample(NemesisMadnessScene(app, sample_bag(app), None))


def sample_odds_scene(app) -> NemesisBagScene:
    scene = sample_bag_scene(app)
    scene.show = "odds"
    return scene


register_screen("nemesis-setup", NemesisSetupScene)
register_screen("nemesis-bag", sample_bag_scene)
register_screen("nemesis-odds", sample_odds_scene)
register_screen("nemesis-madness", sample_madness_scene)
register_game(GAME_KEY, "game.nemesis-nightmares", start_nemesis)
