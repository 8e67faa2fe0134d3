"""The win screen: the winner, their creatures, a new game or home."""
from __future__ import annotations

import math

import pygame

from companion.ui import theme
from companion.ui.nightmarium import pictures
from companion.ui.scene import Scene
from companion.ui.widgets import Button, draw_text, split_columns


def trophy(surface, rect: pygame.Rect) -> None:
    gold = theme.ACCENT
    cup = pygame.Rect(0, 0, rect.width * 0.6, rect.height * 0.5)
    cup.midtop = (rect.centerx, rect.top)
    pygame.draw.ellipse(surface, gold, cup)
    pygame.draw.rect(surface, gold, (cup.left, cup.top, cup.width, cup.height // 2))
    for side in (-1, 1):
        handle = pygame.Rect(0, 0, rect.width * 0.3, rect.height * 0.3)
        handle.center = (rect.centerx + side * cup.width * 0.5, cup.top + cup.height * 0.35)
        pygame.draw.ellipse(surface, gold, handle, max(2, rect.width // 16))
    pygame.draw.rect(surface, gold, (rect.centerx - rect.width * 0.06, cup.bottom - 2, rect.width * 0.12,
                                     rect.height * 0.28))
    pygame.draw.rect(surface, gold, (rect.centerx - rect.width * 0.25, rect.bottom - rect.height * 0.16,
                                     rect.width * 0.5, rect.height * 0.16), border_radius=3)


class WinScene(Scene):
    def __init__(self, app, session):
        super().__init__(app)
        self.session = session

    def back(self) -> None:
        self.app.home()

    def new_game(self) -> None:
        from companion.ui.nightmarium.setup import SetupScene

        self.app.replace(SetupScene(self.app))

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        px = layout.px
        surface.fill(theme.BACKGROUND)
        game = self.session.game
        winner = game.players[game.winner] if game.winner is not None else None
        for index in range(16):  # legion-coloured confetti around the trophy
            angle = index * math.tau / 16
            colour = list(theme.LEGION_COLOURS.values())[index % 4]
            centre = (layout.width / 2 + math.cos(angle) * px(150), px(85) + math.sin(angle) * px(62))
            pygame.draw.circle(surface, colour, centre, px(7))
        trophy(surface, pygame.Rect(layout.width // 2 - px(50), px(30), px(100), px(110)))
        name = winner.name if winner else "?"
        draw_text(surface, self.t("nm.win.title", name=name), layout.font(36, True), theme.TEXT,
                  (layout.width // 2, px(170)), "center")
        if winner is not None:
            draw_text(surface, self.t("nm.win.summary", count=winner.complete_count, turns=game.turn),
                      layout.font(18), theme.TEXT_DIM, (layout.width // 2, px(204)), "center")
            creatures = winner.creatures
            card_width = px(74)
            width, height = pictures.creature_size(card_width)
            total = len(creatures) * (width + px(12)) - px(12)
            x = (layout.width - total) // 2
            for creature in creatures:
                pictures.draw_creature(surface, pygame.Rect(x, px(228), width, min(height, px(150))), creature)
                x += width + px(12)
        bottom = pygame.Rect(px(20), layout.height - px(72), layout.width - px(40), px(58))
        home, again = split_columns(bottom, 2, px(16))
        self.add_button(Button(home, self.t("nm.win.home"), self.app.home))
        self.add_button(Button(again, self.t("nm.win.again"), self.new_game, primary=True))
        self.draw_buttons(surface, layout)
