"""Entering what the camera cannot (or did not) see: a card's face and where it went, or a count."""
from __future__ import annotations

import pygame

from companion.games.nightmarium import Card, Place, PlaceSeal, Play, PlaySeal, Reveal
from companion.games.nightmarium.placement import legal_placements
from companion.ui import theme
from companion.ui.nightmarium import pictures
from companion.ui.nightmarium.describe import ability_name, card_text, legion_name, part_name
from companion.ui.scene import Scene
from companion.ui.widgets import Button, draw_text, grid, split_columns

LEGIONS = ("blue", "red", "brown", "green")
PARTS = ("legs", "torso", "head")
ABILITIES = (None, "herald", "mourner", "jester", "executioner", "scavenger", "devourer")


class CountPicker(Scene):
    def __init__(self, app, question: str, maximum: int, on_choice):
        super().__init__(app)
        self.question = question
        self.maximum = max(1, min(12, maximum))
        self.on_choice = on_choice

    def choose(self, count: int) -> None:
        self.app.pop()
        self.on_choice(count)

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        px = layout.px
        draw_text(surface, self.question, layout.font(24, True), theme.TEXT, (layout.width // 2, px(40)), "center")
        area = pygame.Rect(px(40), px(80), layout.width - px(80), layout.height - px(170))
        columns = min(6, self.maximum)
        cells = grid(area, self.maximum, columns, px(10))
        for count, cell in zip(range(1, self.maximum + 1), cells):
            cell.height = min(cell.height, px(90))
            self.add_button(Button(cell, str(count), lambda count=count: self.choose(count)))
        self.add_button(Button(pygame.Rect(px(20), layout.height - px(72), px(170), px(56)), self.t("common.cancel"),
                               self.app.pop))
        self.draw_buttons(surface, layout)


class CardPicker(Scene):
    """purpose: "play" (an action), "jester" (the Jester's card), "reveal" (Herald's cards), "correct" (fix one),
    "teach" (a card the camera could not read surely: `on_face(face)` is called with the face picked)."""

    def __init__(self, app, session, purpose: str, creature_id: int | None = None, height: int | None = None,
                 initial: Card | None = None, on_face=None, photo: pygame.Surface | None = None):
        super().__init__(app)
        self.session = session
        self.on_face = on_face
        self.photo = photo  # the card as the camera saw it (teach), shown beside the choices
        self.purpose = purpose
        self.creature_id, self.height = creature_id, height
        self.legion = initial.legion.value if initial else "blue"
        self.parts = {part.value for part in initial.parts} if initial else {"legs"}
        self.ability = initial.ability.value if initial and initial.ability else None
        self.is_seal = bool(initial and initial.is_seal)
        self.step = "face"
        self.revealed: list[Card] = []

    @property
    def game(self):
        return self.session.game

    def face(self) -> Card:
        if self.is_seal:
            return Card.face(self.legion, (), None, is_seal=True)
        return Card.face(self.legion, sorted(self.parts, key=PARTS.index), self.ability)

    @property
    def player_index(self) -> int:
        prompt = self.game.prompt
        return prompt.player if prompt is not None else self.game.active

    def toggle_part(self, part: str) -> None:
        self.is_seal = False
        if part in self.parts and len(self.parts) > 1:
            self.parts.discard(part)
        else:
            self.parts.add(part)

    def set(self, **values) -> None:
        for key, value in values.items():
            setattr(self, key, value)

    def next(self) -> None:
        face = self.face()
        if self.purpose == "teach":
            self.app.pop()
            if self.on_face is not None:
                self.on_face(face)
        elif self.purpose == "correct":
            self.app.pop()
            self.session.correct_card(self.creature_id, self.height, face)
        elif self.purpose == "reveal":
            self.revealed.append(face)
            prompt = self.game.prompt
            if prompt is None or len(self.revealed) >= max(1, prompt.count):
                self.app.pop()
                self.session.press(Reveal(tuple(self.revealed)))
        else:
            self.step = "place"

    def place(self, creature_id, part) -> None:
        face = self.face()
        if self.purpose == "play":
            move = PlaySeal(face, creature_id) if part is None else Play(face, creature_id, part)
        else:
            move = PlaceSeal(face, creature_id) if part is None else Place(face, creature_id, part)
        self.app.pop()
        self.session.press(move)

    def back(self) -> None:
        if self.step == "place":
            self.step = "face"
            self.dirty = True
        else:
            self.app.pop()

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        if self.step == "place":
            self.draw_places(surface, layout)
        else:
            self.draw_face(surface, layout)
        self.draw_buttons(surface, layout)

    def draw_face(self, surface, layout) -> None:
        px = layout.px
        lang = self.app.lang
        titles = {"correct": "nm.picker.correct", "teach": "nm.picker.teach"}
        title = self.t(titles.get(self.purpose, "nm.picker.title"))
        if self.purpose == "reveal" and self.game.prompt is not None:
            title = self.t("nm.picker.reveal_next", index=len(self.revealed) + 1, count=self.game.prompt.count)
        draw_text(surface, title, layout.font(22, True), theme.ACCENT, (px(14), px(8)))
        preview = pygame.Rect(layout.width - px(230), px(50), px(210), px(130))
        pictures.draw_card(surface, preview, self.face())
        draw_text(surface, card_text(self.face(), lang), layout.font(14), theme.TEXT,
                  (preview.centerx, preview.bottom + px(8)), "midtop", max_width=px(220))
        left = pygame.Rect(px(14), px(46), preview.left - px(28), px(56))
        for legion, cell in zip(LEGIONS, split_columns(left, 4, px(8))):
            self.add_button(Button(cell, legion_name(legion, lang), lambda legion=legion: self.set(legion=legion),
                                   colour=pictures.legion_colour(legion), selected=self.legion == legion))
        row = left.move(0, px(66))
        options = list(PARTS) + (["seal"] if self.game.seals and self.purpose != "teach" else [])
        for part, cell in zip(options, split_columns(row, len(options), px(8))):
            if part == "seal":
                self.add_button(Button(cell, self.t("nm.seal"), lambda: self.set(is_seal=not self.is_seal),
                                       selected=self.is_seal))
            else:
                self.add_button(Button(cell, part_name(part, lang), lambda part=part: self.toggle_part(part),
                                       selected=part in self.parts and not self.is_seal))
        ability_area = pygame.Rect(px(14), row.bottom + px(12), layout.width - px(28), px(128))
        for ability, cell in zip(ABILITIES, grid(ability_area, len(ABILITIES), 4, px(8))):
            def icon(surface, rect, ability=ability):
                pictures.ability_icon(surface, rect, ability)
            self.add_button(Button(cell, ability_name(ability, lang), lambda ability=ability: self.set(ability=ability),
                                   selected=self.ability == ability and not self.is_seal,
                                   icon=icon if ability else None))
        bottom = pygame.Rect(px(14), layout.height - px(70), layout.width - px(28), px(56))
        if self.photo is not None:
            room = pygame.Rect(px(14), ability_area.bottom + px(8), layout.width - px(28),
                               bottom.top - ability_area.bottom - px(16))
            scale = min(room.width / self.photo.get_width(), room.height / self.photo.get_height())
            if scale > 0:
                size = (int(self.photo.get_width() * scale), int(self.photo.get_height() * scale))
                surface.blit(pygame.transform.smoothscale(self.photo, size), pygame.Rect(room.topleft, size))
        cancel, confirm = split_columns(bottom, 2, px(12), [1, 2])
        self.add_button(Button(cancel, self.t("common.cancel"), self.app.pop))
        self.add_button(Button(confirm, self.t("nm.teach.start" if self.purpose == "teach" else "nm.next"), self.next,
                               primary=True, key=pygame.K_n))

    def draw_places(self, surface, layout) -> None:
        px = layout.px
        game = self.game
        player = game.players[self.player_index]
        face = self.face()
        draw_text(surface, self.t("nm.picker.where"), layout.font(22, True), theme.ACCENT, (px(14), px(8)))
        preview = pygame.Rect(layout.width - px(190), px(8), px(170), px(104))
        pictures.draw_card(surface, preview, face)
        options = list(legal_placements(player, face, game.win_target, game.seals))
        area = pygame.Rect(px(14), px(120), layout.width - px(28), layout.height - px(210))
        if not options:
            draw_text(surface, self.t("nm.picker.no_place", name=player.name), layout.font(18), theme.WARNING,
                      area.topleft)
        for (creature_id, part), cell in zip(options[:9], grid(area, min(9, len(options)), 3, px(8))):
            cell.height = min(cell.height, px(64))
            if creature_id is None:
                label = self.t("nm.picker.new_creature")
            elif part is None:
                label = self.t("nm.picker.seal_on", id=creature_id)
            else:
                label = self.t("nm.picker.on_creature", id=creature_id, part=part_name(part, self.app.lang))
            self.add_button(Button(cell, label, lambda c=creature_id, p=part: self.place(c, p)))
        self.add_button(Button(pygame.Rect(px(14), layout.height - px(70), px(170), px(56)), self.t("common.back"),
                               self.back))


class CreatureCards(Scene):
    """One creature's cards, large: touch one to correct it (the table view's cards can be small)."""

    def __init__(self, app, session, creature_id: int):
        super().__init__(app)
        self.session = session
        self.creature_id = creature_id

    def correct(self, height: int) -> None:
        creature = self.session.game.creature(self.creature_id)
        card = creature.cards[height][0]
        self.app.replace(CardPicker(self.app, self.session, purpose="correct", creature_id=self.creature_id,
                                    height=height, initial=card))

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        px = layout.px
        surface.fill(theme.BACKGROUND)
        creature = self.session.game.creature(self.creature_id)
        if creature is None:  # gone meanwhile (the camera saw it discarded)
            self.add_button(Button(pygame.Rect(px(14), layout.height - px(70), px(170), px(56)),
                                   self.t("common.back"), self.app.pop, primary=True))
            self.draw_buttons(surface, layout)
            return
        owner = self.session.game.players[creature.owner].name
        draw_text(surface, f"{owner} · {creature.id} · {self.t('nm.picker.correct')}", layout.font(20, True),
                  theme.ACCENT, (px(14), px(10)))
        card_height = px(100)
        card_width = int(card_height / pictures.CARD_ASPECT)
        for height, (card, part) in enumerate(creature.cards):
            rect = pygame.Rect(px(30), px(360) - (height + 1) * (card_height + px(8)), card_width, card_height)
            pictures.draw_card(surface, rect, card, part.value)
            self.add_button(Button(rect, "", lambda height=height: self.correct(height), visible=False))
            draw_text(surface, f"{part_name(part, self.app.lang)}: {card_text(card, self.app.lang)}",
                      layout.font(17), theme.TEXT, (rect.right + px(16), rect.centery), "midleft",
                      max_width=layout.width - rect.right - px(30))
        self.add_button(Button(pygame.Rect(px(14), layout.height - px(70), px(170), px(56)), self.t("common.back"),
                               self.app.pop, primary=True))
        self.draw_buttons(surface, layout)
