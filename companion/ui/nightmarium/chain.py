"""The ability chain as a stack: the resolving creatures outermost first, the current ability lit, what to do now,
what the camera expects to see and the legal targets as buttons."""
from __future__ import annotations

import pygame

from companion.games.nightmarium import CannotPerform, Card, Discard, Legion
from companion.ui import theme
from companion.ui.nightmarium import pictures
from companion.ui.nightmarium.base import SessionScene
from companion.ui.nightmarium.describe import ability_name, expectation_text, legion_name, move_text, prompt_text
from companion.ui.widgets import Button, draw_paragraph, draw_text, grid, panel

PROMPTS_WITH_LISTED_ANSWERS = ("executioner", "scavenger", "devourer", "herald", "completion_order", "seal_replay")


class ChainScene(SessionScene):
    def after_change(self) -> None:
        self.dirty = True
        if self.app.top is not self:
            return
        if self.game.over:
            super().after_change()
        elif not self.game.stack:
            self.app.pop()  # the chain is over: back to the table

    # -- answers --------------------------------------------------------------------------------------------
    def answer(self, move) -> None:
        self.session.press(move)
        self.after_change()

    def penalty(self, matching: bool) -> None:
        prompt = self.game.prompt
        legion = prompt.legion
        if matching:
            cards = (Card.face(legion.value),)
        else:
            other = next(l for l in Legion if l is not legion)
            cards = tuple(Card.face(other.value) for _ in range(max(1, prompt.count)))
        self.answer(Discard(prompt.player, cards))

    def enter_card(self, purpose: str) -> None:
        from companion.ui.nightmarium.picker import CardPicker

        self.app.push(CardPicker(self.app, self.session, purpose=purpose))

    def undo(self) -> None:
        self.session.undo()
        self.after_change()

    # -- drawing --------------------------------------------------------------------------------------------
    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        px = layout.px
        surface.fill(theme.BACKGROUND)
        margin = px(10)
        draw_text(surface, self.t("nm.chain"), layout.font(24, True), theme.ACCENT, (margin, px(8)))
        self.camera_chip(surface, layout, layout.width - margin, px(22))
        stack_area = pygame.Rect(margin, px(44), int(layout.width * 0.46), layout.height - px(44) - margin)
        self.draw_stack(surface, layout, stack_area)
        right = pygame.Rect(stack_area.right + margin, px(44), layout.width - stack_area.right - 2 * margin,
                            stack_area.height)
        self.draw_prompt(surface, layout, right)
        self.draw_buttons(surface, layout)

    def draw_stack(self, surface, layout, area) -> None:
        px = layout.px
        frames = list(self.game.chain)
        if not frames:
            return
        plate_height = min(px(132), (area.height - px(8) * (len(frames) - 1)) // len(frames))
        # innermost (resolving now) on top of the pile, the interrupted-by ones below it
        for depth, frame in enumerate(reversed(frames)):
            plate = pygame.Rect(area.left + depth * px(6), area.top + depth * (plate_height + px(8)),
                                area.width - depth * px(6), plate_height)
            current = depth == 0
            panel(surface, plate, theme.PANEL_LIGHT if current else theme.PANEL, radius=px(8),
                  border=theme.ACCENT if current else None)
            creature = self.game.creature(frame.creature_id)
            creature_rect = pygame.Rect(plate.left + px(6), plate.top + px(4), int(pictures.creature_width(plate_height - px(8)) * 1.3),
                                        plate.height - px(8))
            if creature is not None:
                pictures.draw_creature(surface, creature_rect, creature)
            owner = self.game.players[frame.owner].name
            label = f"{owner} · {frame.creature_id}" + (f" · {self.t('nm.seal')}" if frame.kind == "seal" else "")
            text_left = creature_rect.right + px(8)
            draw_text(surface, label, layout.font(14, True), theme.TEXT, (text_left, plate.top + px(4)),
                      max_width=plate.right - text_left - px(4))
            if frame.penalty_legion is not None and frame.penalty_due:
                strip = pygame.Rect(text_left, plate.top + px(24), plate.right - text_left - px(6), px(22))
                pygame.draw.rect(surface, pictures.legion_colour(frame.penalty_legion), strip, border_radius=px(5))
                draw_text(surface, self.t("nm.event.pure_legion", legion=legion_name(frame.penalty_legion, self.app.lang)),
                          layout.font(12, True), theme.TEXT, (strip.left + px(4), strip.centery), "midleft",
                          max_width=strip.width - px(8))
            if frame.penalty_legion is not None and frame.penalty_due:
                pass
            elif not frame.started:
                draw_text(surface, self.t("nm.chain.waiting"), layout.font(13), theme.TEXT_DIM,
                          (text_left, plate.top + px(26)))
            elif current:
                draw_text(surface, self.t("nm.chain.now"), layout.font(13), theme.ACCENT,
                          (text_left, plate.top + px(26)))
            row_top = plate.top + px(50)
            row_height = max(px(16), min(px(26), (plate.bottom - row_top - px(4)) // max(1, len(frame.abilities))))
            for index, (part, ability) in enumerate(frame.abilities):
                row = pygame.Rect(text_left, row_top + index * row_height, plate.right - text_left - px(6),
                                  row_height - px(2))
                done = index < frame.next_index
                now = index == frame.next_index and current
                if now:
                    pygame.draw.rect(surface, theme.BUTTON_PRIMARY, row, border_radius=px(5))
                icon = pygame.Rect(row.left + px(2), row.top + 1, row.height - 2, row.height - 2)
                pictures.ability_icon(surface, icon, ability, theme.TEXT_DIM if done else theme.TEXT)
                text = f"{ability_name(ability, self.app.lang)} · {self.t('nm.part.' + part.value)}"
                colour = theme.TEXT_DIM if done else theme.TEXT
                end = draw_text(surface, text, layout.font(13, now), colour, (icon.right + px(6), row.centery),
                                "midleft", max_width=row.right - icon.right - px(10))
                if done:
                    pygame.draw.line(surface, theme.TEXT_DIM, (end.left, end.centery), (end.right, end.centery), 1)

    def draw_prompt(self, surface, layout, area) -> None:
        px = layout.px
        game, lang = self.game, self.app.lang
        y = area.top
        if self.session.announcements:
            self.announcement_strip(surface, layout, pygame.Rect(area.left, y, area.width, px(40)))
            y += px(46)
        if self.session.warning is not None:
            warning = self.session.warning
            box = pygame.Rect(area.left, y, area.width, px(58))
            panel(surface, box, theme.WARNING, radius=px(8))
            draw_paragraph(surface, f"{self.t('nm.warning', rule=warning.rule)}: {warning.message}", layout.font(13),
                           theme.TEXT, box.inflate(-px(10), -px(6)))
            y += px(64)
        draw_text(surface, self.t("nm.prompt.now"), layout.font(14, True), theme.ACCENT, (area.left, y))
        y = draw_paragraph(surface, prompt_text(game, lang), layout.font(17, True), theme.TEXT,
                           pygame.Rect(area.left, y + px(18), area.width, px(70))) + px(4)
        draw_text(surface, self.t("nm.prompt.expect"), layout.font(14, True), theme.ACCENT, (area.left, y))
        y = draw_paragraph(surface, expectation_text(game, lang), layout.font(15), theme.TEXT_DIM,
                           pygame.Rect(area.left, y + px(18), area.width, px(44))) + px(6)
        bottom_row = pygame.Rect(area.left, area.bottom - px(56), area.width, px(56))
        answers_area = pygame.Rect(area.left, y, area.width, bottom_row.top - y - px(8))
        self.answer_buttons(layout, answers_area)
        half = (bottom_row.width - px(8)) // 2
        self.add_button(Button(pygame.Rect(bottom_row.left, bottom_row.top, half, bottom_row.height),
                               self.t("common.back"), self.app.pop))
        self.add_button(Button(pygame.Rect(bottom_row.left + half + px(8), bottom_row.top, half, bottom_row.height),
                               self.t("nm.undo"), self.undo, enabled=bool(game.moves)))

    def answer_buttons(self, layout, area) -> None:
        prompt = self.game.prompt
        if prompt is None or area.height < layout.px(48):
            return
        specs: list[tuple[str, object, tuple | None]] = []
        icons = {}
        if prompt.kind in PROMPTS_WITH_LISTED_ANSWERS:
            for move in list(self.game.legal_moves())[:8]:
                label = move_text(move, self.game, self.app.lang)
                specs.append((label, lambda move=move: self.answer(move), None))
                creature = self.game.creature(getattr(move, "creature_id", None) or -1)
                if creature is not None and move.kind in ("target", "order"):
                    icons[label] = lambda surface, rect, creature=creature: pictures.draw_creature(
                        surface, rect.inflate(-rect.width // 5, 0), creature)
        elif prompt.kind == "penalty":
            legion = legion_name(prompt.legion, self.app.lang)
            specs.append((self.t("nm.prompt.penalty.one", legion=legion), lambda: self.penalty(True),
                          pictures.legion_colour(prompt.legion)))
            specs.append((self.t("nm.prompt.penalty.two", count=prompt.count), lambda: self.penalty(False), None))
        elif prompt.kind == "jester":
            specs.append((self.t("nm.play"), lambda: self.enter_card("jester"), None))
            specs.append((self.t("nm.cannot_perform"), lambda: self.answer(CannotPerform()), None))
        elif prompt.kind == "reveal":
            specs.append((self.t("nm.play"), lambda: self.enter_card("reveal"), None))
        else:  # a question this screen does not know yet: offer whatever the engine lists
            for move in list(self.game.legal_moves())[:8]:
                specs.append((move_text(move, self.game, self.app.lang), lambda move=move: self.answer(move), None))
        columns = 1 if len(specs) <= 2 else 2
        rows = -(-len(specs) // columns)
        height = min(layout.px(56), (area.height - layout.px(6) * (rows - 1)) // max(1, rows))
        cells = grid(pygame.Rect(area.left, area.top, area.width, rows * (height + layout.px(6))), len(specs), columns,
                     layout.px(6))
        for (label, action, colour), cell in zip(specs, cells):
            self.add_button(Button(cell, label, action, colour=colour, primary=colour is None and len(specs) == 1,
                                   icon=icons.get(label)))
