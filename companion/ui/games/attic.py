"""Attic Monster screens: setup, the search-phase dice (attic-roll) and the fight (attic-fight)."""
from __future__ import annotations

import random

import pygame

from companion.games.attic.controller import DiceButton
from companion.games.attic.engine import FIGHT_RETRY_MODES, MAX_PLAYERS, MIN_PLAYERS, AtticGame
from companion.ui import theme
from companion.ui.games import art
from companion.ui.games.common import (PLAY_RANDOMNESS, GameRecord, GameScene, resume_saved, saved_sample,
                                       setup_footer)
from companion.ui.scene import Scene
from companion.ui.screens import register_game, register_screen
from companion.ui.widgets import Button, draw_paragraph, draw_text, fit_font, panel, split_columns, wrap_text

GAME_KEY = "attic-monster"
ROLL_ANIMATION = 0.6  # seconds of tumbling faces before the result settles
_tumble = random.Random()  # cosmetic only: the faces shown while the dice tumble, never the result


class AtticScene(GameScene):
    game_key = GAME_KEY

    def __init__(self, app, game: AtticGame, record: GameRecord | int | None = None):
        super().__init__(app, game, record)
        self.game = game
        self.dice_button = DiceButton(game, self.feedback)
        self.tumbling = 0.0

    @property
    def animating(self) -> bool:
        return self.tumbling > 0

    @property
    def finished(self) -> bool:
        return self.game.phase in ("won", "lost")

    def player_names(self) -> list[str]:
        return [self.t("games.player_n", n=n + 1) for n in range(self.game.state["players"])]

    def result(self) -> dict:
        return {"result": self.game.phase, "attempts": self.game.state["fight"]["attempt"]}

    def roll(self) -> None:
        """ROLL from the GPIO button, the touch target or the R key: one roll, saved, then shown."""
        if self.refuse_if_over():
            return
        outcome = self.dice_button.handle("roll", "press", commit=self.save)
        self.dirty = True
        if outcome.refused:
            self.message = outcome.refused
            return
        self.message = None
        self.tumbling = ROLL_ANIMATION
        self.after_move(outcome.event)

    def handle_control(self, control: str, action: str) -> None:
        if control == "roll" and action == "press":
            self.roll()
        else:
            super().handle_control(control, action)

    def update(self, dt: float) -> None:
        if self.tumbling > 0:
            self.tumbling = max(0.0, self.tumbling - dt)
            self.dirty = True

    def after_move(self, event: dict) -> None:
        wanted = AtticFightScene if self.game.phase != "search" else AtticRollScene
        if not isinstance(self, wanted):
            self.app.replace(wanted(self.app, self.game, self.record))

    def shown_faces(self) -> list[str] | None:
        last = self.game.state["last_roll"]
        if last is None:
            return None
        if self.tumbling > 0:
            return [_tumble.choice(faces) for faces in self.game.state["dice"]]
        return last["faces"]

    def draw_dice(self, surface, layout, area: pygame.Rect, reminders: bool) -> None:
        faces = self.shown_faces()
        size = min(area.height - (layout.px(60) if reminders else 0), area.width // 2 - layout.px(20))
        cells = split_columns(area, 2, layout.px(16))
        for index, cell in enumerate(cells):
            die = pygame.Rect(0, 0, size, size)
            die.midtop = (cell.centerx, cell.top)
            if faces is None:
                pygame.draw.rect(surface, theme.PANEL_LIGHT, die, border_radius=size // 7)
                draw_text(surface, "?", layout.font(60, True), theme.TEXT_DIM, die.center, "center")
                continue
            art.draw_die(surface, die, faces[index], highlight=self.tumbling == 0)
            if reminders and self.tumbling == 0:
                text = self.t(f"attic.face.{faces[index]}")
                line = pygame.Rect(cell.left, die.bottom + layout.px(8), cell.width, layout.px(48))
                font = fit_font(text, line.width, layout.px(17), False, layout.px(12))
                lines = _two_lines(text, font, line.width)
                for number, part in enumerate(lines):
                    draw_text(surface, part, font, theme.TEXT, (line.centerx, line.top + number * font.get_height()),
                              "midtop", max_width=line.width)


def _two_lines(text: str, font, width: int) -> list[str]:
    return wrap_text(text, font, width)[:2]


class AtticRollScene(AtticScene):
    """The search phase: ROLL, round end (the Monster's tile), crystals, keys, the attic key."""

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        game, state = self.game, self.game.state
        roller = game.next_roller()
        status = (self.t("attic.round_over") if game.round_over
                  else self.t("attic.turn_of", player=self.t("games.player_n", n=roller + 1)))
        self.header(surface, layout, self.t("attic.round", round=state["round"]), status)
        margin = layout.px(14)
        side = pygame.Rect(layout.width - margin - layout.px(250), layout.px(52), layout.px(250),
                           layout.height - layout.px(172))
        dice_area = pygame.Rect(margin, layout.px(60), side.left - 2 * margin, side.height - layout.px(4))
        self.draw_dice(surface, layout, dice_area, reminders=True)
        self.draw_side(surface, layout, side)
        bottom = layout.height - layout.px(76)
        x = self.back_and_undo(layout, bottom, layout.px(62))
        right = layout.width - margin
        if game.round_over:
            cells = split_columns(pygame.Rect(x, bottom, right - x, layout.px(62)), 3 if state["hard_mode"] else 2,
                                  layout.px(8))
            self.add_button(Button(cells[0], self.t("attic.tile_to_attic"), lambda: self.perform(game.end_round, True),
                                   primary=True, key=pygame.K_t))
            if state["hard_mode"]:
                self.add_button(Button(cells[1], self.t("attic.marked_tile"),
                                       lambda: self.perform(game.end_round, True, True)))
            self.add_button(Button(cells[-1], self.t("attic.no_tile"), lambda: self.perform(game.end_round, False)))
        else:
            self.add_button(Button(pygame.Rect(x, bottom, right - x, layout.px(62)), self.t("attic.roll"), self.roll,
                                   primary=True, key=pygame.K_r))
        self.footer_message(surface, layout, pygame.Rect(margin, bottom - layout.px(30), layout.width - 2 * margin,
                                                         layout.px(26)))
        self.draw_buttons(surface, layout)

    def draw_side(self, surface, layout, side: pygame.Rect) -> None:
        game, state = self.game, self.game.state
        panel(surface, side)
        inner = side.inflate(-layout.px(20), -layout.px(16))
        draw_text(surface, self.t("attic.monster_holds", tiles=len(state["attic"])), layout.font(18, True),
                  theme.TEXT, inner.topleft, max_width=inner.width)
        tile = layout.px(22)
        for index, attic_tile in enumerate(state["attic"][:20]):
            rect = pygame.Rect(inner.left + (index % 10) * (tile + layout.px(2)),
                               inner.top + layout.px(28) + (index // 10) * (tile + layout.px(2)), tile, tile)
            art.draw_tile(surface, rect, attic_tile["double"] and state["hard_mode"])
        y = inner.top + layout.px(84)
        for label, count, icon, move, key in (
                (self.t("attic.crystals"), state["crystals"], art.crystal, game.collect_crystal, pygame.K_c),
                (self.t("attic.keys"), state["keys"], art.key_icon, game.collect_key, pygame.K_k)):
            icon(surface, pygame.Rect(inner.left, y + layout.px(10), layout.px(28), layout.px(28)))
            draw_text(surface, f"{label}: {count}", layout.font(18), theme.TEXT,
                      (inner.left + layout.px(36), y + layout.px(24)), "midleft")
            self.add_button(Button(pygame.Rect(inner.right - layout.px(56), y, layout.px(56), layout.px(50)), "+1",
                                   lambda move=move: self.perform(move), key=key))
            y += layout.px(58)
        self.add_button(Button(pygame.Rect(inner.left, inner.bottom - layout.px(54), inner.width, layout.px(54)),
                               self.t("attic.attic_key_found"), lambda: self.perform(game.attic_key_found),
                               colour=(120, 70, 40), key=pygame.K_a))


class AtticFightScene(AtticScene):
    """The fight: strength, each player's roll in turn, hits and misses, the verdict, another attempt."""

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        game, state = self.game, self.game.state
        fight = state["fight"]
        roller = game.next_roller()
        status = (self.t("attic.turn_of", player=self.t("games.player_n", n=roller + 1)) if roller is not None
                  else "")
        self.header(surface, layout, self.t("attic.fight", attempt=fight["attempt"]), status)
        margin = layout.px(14)
        meter = pygame.Rect(margin, layout.px(50), layout.width - 2 * margin, layout.px(44))
        self.draw_strength(surface, layout, meter, fight)
        dice_area = pygame.Rect(margin, meter.bottom + layout.px(14), layout.px(330), layout.px(150))
        self.draw_dice(surface, layout, dice_area, reminders=False)
        log_area = pygame.Rect(dice_area.right + layout.px(20), dice_area.top, layout.width - dice_area.right
                               - layout.px(20) - margin, layout.height - dice_area.top - layout.px(120))
        self.draw_rolls(surface, layout, log_area, fight)
        bottom = layout.height - layout.px(76)
        x = self.back_and_undo(layout, bottom, layout.px(62))
        button_rect = pygame.Rect(x, bottom, layout.width - margin - x, layout.px(62))
        if fight["verdict"] is None:
            self.add_button(Button(button_rect, self.t("attic.roll"), self.roll, primary=True, key=pygame.K_r))
        elif fight["verdict"] == "failed" and game.phase == "fight":
            self.add_button(Button(button_rect, self.t("attic.another_attempt"), lambda: self.perform(
                game.another_attempt), primary=True, key=pygame.K_r))
        else:
            self.add_button(Button(button_rect, self.t("games.new_game"), self.new_game, primary=True))
        verdict = fight["verdict"]
        if verdict is not None and self.tumbling == 0:
            text = self.t("attic.verdict_won") if verdict == "won" else (
                self.t("attic.verdict_lost") if game.phase == "lost" else self.t("attic.verdict_failed"))
            banner = pygame.Rect(margin, dice_area.bottom + layout.px(12), dice_area.width, layout.px(56))
            panel(surface, banner, theme.GOOD if verdict == "won" else theme.WARNING)
            draw_text(surface, text, fit_font(text, banner.width - layout.px(16), layout.px(22), True, layout.px(12)),
                      theme.TEXT, banner.center, "center")
        self.footer_message(surface, layout, pygame.Rect(margin, bottom - layout.px(30), layout.width - 2 * margin,
                                                         layout.px(26)))
        self.draw_buttons(surface, layout)

    def draw_strength(self, surface, layout, rect: pygame.Rect, fight: dict) -> None:
        label = self.t("attic.strength", points=fight["points"], start=fight["start_points"])
        draw_text(surface, label, layout.font(20, True), theme.TEXT, (rect.left, rect.centery), "midleft")
        boxes = max(1, fight["start_points"])
        area = pygame.Rect(rect.left + layout.px(250), rect.top + layout.px(6), rect.width - layout.px(250),
                           rect.height - layout.px(12))
        size = min(area.height, max(6, area.width // boxes - layout.px(3)))
        for index in range(fight["start_points"]):
            box = pygame.Rect(area.left + index * (size + layout.px(3)), area.top, size, size)
            alive = index < fight["points"]
            pygame.draw.rect(surface, theme.WARNING if alive else theme.PANEL_LIGHT, box, border_radius=size // 5)

    def draw_rolls(self, surface, layout, area: pygame.Rect, fight: dict) -> None:
        panel(surface, area)
        y = area.top + layout.px(8)
        font = layout.font(18)
        for roll in fight["rolls"][-6:]:
            player = self.t("games.player_n", n=roll["player"] + 1)
            misses = len(roll["faces"]) - roll["hits"]
            text = self.t("attic.roll_line", player=player, hits=roll["hits"], misses=misses)
            for index, face in enumerate(roll["faces"]):
                art.draw_die(surface, pygame.Rect(area.left + layout.px(8) + index * layout.px(34), y, layout.px(30),
                                                  layout.px(30)), face)
            draw_text(surface, text, font, theme.TEXT, (area.left + layout.px(80), y + layout.px(15)), "midleft",
                      max_width=area.width - layout.px(88))
            y += layout.px(38)

    def new_game(self) -> None:
        self.app.replace(AtticSetupScene(self.app))


class AtticSetupScene(Scene):
    """Player count (2-4), hard mode and what a failed fight means, then the dice."""

    def __init__(self, app):
        super().__init__(app)
        self.players = 2
        self.hard_mode = False
        self.fight_retry = FIGHT_RETRY_MODES[0]  # RULES.md A1 default: a failed fight loses the game

    def start(self) -> None:
        game = AtticGame.new(self.players, PLAY_RANDOMNESS(), hard_mode=self.hard_mode, fight_retry=self.fight_retry)
        self.app.replace(AtticRollScene(self.app, game))

    def choose(self, **values) -> None:
        for key, value in values.items():
            setattr(self, key, value)
        self.dirty = True

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        margin = layout.px(16)
        draw_text(surface, self.t("game.attic-monster"), layout.font(30, True), theme.ACCENT, (margin, layout.px(12)))
        rows = ((self.t("games.players"), "players", [(n, str(n)) for n in range(MIN_PLAYERS, MAX_PLAYERS + 1)]),
                (self.t("attic.hard_mode"), "hard_mode", [(False, self.t("common.off")), (True, self.t("common.on"))]),
                (self.t("attic.retry"), "fight_retry", [(mode, self.t(f"attic.retry.{mode}"))
                                                         for mode in FIGHT_RETRY_MODES]))
        y = layout.px(64)
        label_width = layout.px(200)
        for title, field, options in rows:
            draw_text(surface, title, fit_font(title, label_width - layout.px(8), layout.px(20), True, layout.px(12)),
                      theme.TEXT, (margin, y + layout.px(29)), "midleft")
            row = pygame.Rect(margin + label_width, y, layout.width - 2 * margin - label_width, layout.px(58))
            for (value, label), cell in zip(options, split_columns(row, len(options), layout.px(10))):
                self.add_button(Button(cell, label, lambda value=value, field=field: self.choose(**{field: value}),
                                       selected=getattr(self, field) == value))
            y += layout.px(70)
        hint = pygame.Rect(margin, y + layout.px(4), layout.width - 2 * margin, layout.px(60))
        draw_paragraph(surface, self.t(f"attic.setup_hint.{self.players}"), layout.font(17), theme.TEXT_DIM, hint)
        setup_footer(self, surface, layout, margin)


def start_attic(app) -> Scene:
    found = resume_saved(app, GAME_KEY, lambda saved: AtticGame.from_json(saved, PLAY_RANDOMNESS()))
    if found is None:
        return AtticSetupScene(app)
    game_id, game = found
    scene_class = AtticRollScene if game.phase == "search" else AtticFightScene
    return scene_class(app, game, game_id)


def sample_search(app) -> AtticRollScene:
    game = AtticGame.new(3, random.Random(7), hard_mode=True)
    for _ in range(3):
        game.roll()
    game.end_round(True, True)
    game.collect_crystal()
    game.roll()
    return saved_sample(AtticRollScene(app, game))


def sample_fight(app) -> AtticFightScene:
    game = AtticGame.new(3, random.Random(11), fight_retry="continue")
    for round_number in range(7):
        for _ in range(3):
            game.roll()
        game.end_round(True)
    game.collect_crystal()
    game.attic_key_found()
    game.roll()
    game.roll()
    return saved_sample(AtticFightScene(app, game))


register_screen("attic-setup", AtticSetupScene)
register_screen("attic-roll", sample_search)
register_screen("attic-fight", sample_fight)
register_game(GAME_KEY, "game.attic-monster", start_attic)
