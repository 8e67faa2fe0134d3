"""The live table: every player's creatures as pictures, whose turn it is, actions left, and the action buttons."""
from __future__ import annotations

import pygame

from companion.games.nightmarium import DiscardDraw, Draw, Card
from companion.ui import icons, theme
from companion.ui.nightmarium import pictures
from companion.ui.nightmarium.base import SessionScene
from companion.ui.nightmarium.describe import expectation_text
from companion.ui.widgets import Button, draw_paragraph, draw_text, panel, split_rows

UNKNOWN_FACE_LEGIONS = ("blue", "red", "brown", "green")


class TableScene(SessionScene):
    def __init__(self, app, session):
        super().__init__(app, session)
        self.card_hits: list = []  # (rect, creature_id, height) from the last frame
        self.creature_hits: list = []  # (touch rect >= 48 px, creature_id) from the last frame

    def back(self) -> None:
        self.session.stop()
        self.app.pop()

    # -- actions --------------------------------------------------------------------------------------------
    def draw_card_action(self) -> None:
        self.session.press(Draw())
        self.after_change()

    def discard_draw(self) -> None:
        from companion.ui.nightmarium.picker import CountPicker

        hand = len(self.game.players[self.game.active].hand)

        def chosen(count: int) -> None:
            # the camera does not see which cards left the hand; their faces only matter for the discard pile
            faces = tuple(Card.face(UNKNOWN_FACE_LEGIONS[i % 4]) for i in range(count))
            self.session.press(DiscardDraw(faces))

        self.app.push(CountPicker(self.app, self.t("nm.how_many"), max(1, hand), chosen))

    def enter_card(self) -> None:
        """Enter a card the camera missed or misread: as the action, or as the answer the chain waits for."""
        from companion.ui.nightmarium.picker import CardPicker

        prompt = self.game.prompt
        purpose = prompt.kind if prompt is not None and prompt.kind in ("jester", "reveal") else "play"
        self.app.push(CardPicker(self.app, self.session, purpose=purpose))

    def undo(self) -> None:
        self.session.undo()
        self.dirty = True

    def open_log(self) -> None:
        from companion.ui.nightmarium.log import LogScene

        self.app.push(LogScene(self.app, self.session))

    def open_chain(self) -> None:
        from companion.ui.nightmarium.chain import ChainScene

        self.app.push(ChainScene(self.app, self.session))

    def on_touch(self, position) -> None:
        """Tap a creature to see its cards large and correct what the camera recognised."""
        for rect, creature_id in self.creature_hits:
            if rect.collidepoint(position):
                from companion.ui.nightmarium.picker import CreatureCards

                self.app.push(CreatureCards(self.app, self.session, creature_id))
                return

    # -- drawing --------------------------------------------------------------------------------------------
    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        game = self.game
        px = layout.px
        margin = px(8)
        top_bar = pygame.Rect(0, 0, layout.width, px(44))
        pygame.draw.rect(surface, theme.PANEL, top_bar)
        active_name = game.players[game.active].name
        title = self.t("nm.turn", turn=game.turn, name=active_name)
        end = draw_text(surface, title, layout.font(20, True), theme.TEXT, (px(12), top_bar.centery), "midleft",
                        max_width=px(300)).right
        x = pictures.pips(surface, end + px(12), top_bar.centery, 2, game.actions_left, px(7))
        draw_text(surface, self.t("nm.actions_left"), layout.font(14), theme.TEXT_DIM, (x, top_bar.centery), "midleft")
        icon = pygame.Rect(0, 0, px(26), px(26))
        icon.midleft = (layout.width - px(390), top_bar.centery)
        icons.deck(surface, icon)
        draw_text(surface, self.t("nm.deck", count=game.deck_size), layout.font(14), theme.TEXT_DIM,
                  (icon.right + px(4), top_bar.centery), "midleft")
        self.camera_chip(surface, layout, layout.width - px(10), top_bar.centery)

        side = pygame.Rect(layout.width - px(170), top_bar.bottom + margin, px(162),
                           layout.height - top_bar.bottom - 2 * margin)
        main = pygame.Rect(margin, top_bar.bottom + margin, side.left - 2 * margin, side.height)
        banner_height = px(70)
        rows_area = pygame.Rect(main.left, main.top, main.width, main.height - banner_height - margin)
        banner = pygame.Rect(main.left, rows_area.bottom + margin, main.width, banner_height)
        self.draw_players(surface, layout, rows_area)
        self.draw_banner(surface, layout, banner)
        self.draw_side(surface, layout, side)
        self.draw_buttons(surface, layout)

    def draw_players(self, surface, layout, area) -> None:
        px = layout.px
        game = self.game
        self.card_hits = []
        self.creature_hits = []
        rows = split_rows(area, len(game.players), px(6))
        for index, (player, row) in enumerate(zip(game.players, rows)):
            active = index == game.active
            panel(surface, row, theme.PANEL_LIGHT if active else theme.PANEL, radius=px(8),
                  border=theme.ACCENT if active else None)
            name_box = pygame.Rect(row.left + px(8), row.top, px(104), row.height)
            name_font = layout.font(17 if row.height > px(60) else 15, True)
            draw_text(surface, player.name, name_font, theme.ACCENT if active else theme.TEXT,
                      (name_box.left, row.centery - px(2)), "bottomleft", max_width=name_box.width)
            count = self.t("nm.complete", count=player.complete_count, target=game.win_target)
            pictures.pips(surface, name_box.left, row.centery + px(12), game.win_target, player.complete_count,
                          max(3, px(5)), theme.GOOD)
            end = draw_text(surface, count, layout.font(13), theme.TEXT_DIM,
                            (name_box.left, row.centery + px(20)), "topleft").right
            hand = pygame.Rect(end + px(8), row.centery + px(19), px(16), px(16))
            pictures.hand_icon(surface, hand)
            draw_text(surface, str(len(player.hand)), layout.font(13), theme.TEXT_DIM,
                      (hand.right + px(3), hand.centery), "midleft")
            creature_height = row.height - px(8)
            gap = px(8)
            available = row.right - name_box.right - px(8)
            slots = max(len(player.creatures), game.win_target)
            card_width = min(int(pictures.creature_width(creature_height) * 2.0),
                             max(px(30), (available - gap * slots) // slots))
            x = name_box.right
            for creature in player.creatures:
                rect = pygame.Rect(x, row.top + px(4), card_width, creature_height)
                for hit_rect, height in pictures.draw_creature(surface, rect, creature):
                    self.card_hits.append((hit_rect, creature.id, height))
                touch = rect.inflate(max(0, px(48) - rect.width), max(0, px(48) - rect.height))
                self.creature_hits.append((touch, creature.id))
                draw_text(surface, str(creature.id), layout.font(11), theme.TEXT_DIM,
                          (rect.right - px(2), rect.top), "topright")
                x += card_width + gap

    def draw_banner(self, surface, layout, banner) -> None:
        px = layout.px
        warning = self.session.warning
        if warning is not None:
            panel(surface, banner, theme.WARNING, radius=px(8))
            text_box = banner.inflate(-px(16), -px(8))
            text_box.width -= px(250)
            draw_text(surface, self.t("nm.warning", rule=warning.rule), layout.font(15, True), theme.TEXT,
                      text_box.topleft)
            draw_paragraph(surface, warning.message, layout.font(14), theme.TEXT,
                           pygame.Rect(text_box.left, text_box.top + px(20), text_box.width, text_box.height - px(20)))
            buttons = split_rows(pygame.Rect(banner.right - px(246), banner.top + px(4), px(240), banner.height - px(8)),
                                 1)
            half = (buttons[0].width - px(6)) // 2
            self.add_button(Button(pygame.Rect(buttons[0].left, buttons[0].top, half, buttons[0].height),
                                   self.t("nm.fix_table"), self.session.dismiss_warning))
            self.add_button(Button(pygame.Rect(buttons[0].left + half + px(6), buttons[0].top, half, buttons[0].height),
                                   self.t("nm.enter_by_hand"), self.enter_card, primary=True))
            return
        if self.session.announcements:
            self.announcement_strip(surface, layout, pygame.Rect(banner.left, banner.top, banner.width, px(30)))
            body = pygame.Rect(banner.left, banner.top + px(36), banner.width, banner.height - px(36))
        else:
            body = banner
        panel(surface, body, theme.PANEL, radius=px(8))
        label = f"{self.t('nm.prompt.expect')}: {expectation_text(self.game, self.app.lang)}"
        draw_paragraph(surface, label, layout.font(15), theme.TEXT_DIM, body.inflate(-px(16), -px(8)))
        if self.session.save_failed:
            draw_text(surface, self.t("nm.saved_failed"), layout.font(15, True), theme.WARNING,
                      (body.right - px(8), body.centery), "midright")

    def draw_side(self, surface, layout, side) -> None:
        game = self.game
        action_time = game.prompt is None and not game.over
        specs = [
            (self.t("nm.draw"), self.draw_card_action, action_time, True, icons.deck, pygame.K_d),
            (self.t("nm.discard_draw"), self.discard_draw,
             action_time and bool(game.players[game.active].hand), False, None, pygame.K_x),
            (self.t("nm.play"), self.enter_card,
             action_time or (game.prompt is not None and game.prompt.kind in ("jester", "reveal")), False, None,
             pygame.K_p),
            (self.t("nm.chain"), self.open_chain, bool(game.stack), False, None, pygame.K_c),
            (self.t("nm.undo"), self.undo, bool(game.moves), False, icons.undo, pygame.K_u),
            (self.t("nm.log"), self.open_log, True, False, icons.list_lines, pygame.K_l),
        ]
        for (label, action, enabled, primary, icon, key), rect in zip(specs, split_rows(side, len(specs), layout.px(8))):
            self.add_button(Button(rect, label, action, enabled=enabled, primary=primary, icon=icon, key=key))
