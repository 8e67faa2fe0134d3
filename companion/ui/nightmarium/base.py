"""What every in-game Nightmarium screen shares: it listens to the camera, the simulated table and the camera
guard, and moves to the chain or win screen when the game gets there."""
from __future__ import annotations

import math

import pygame

from companion.ui import theme
from companion.ui.nightmarium import pictures
from companion.ui.nightmarium.describe import legion_name
from companion.ui.scene import Scene
from companion.ui.widgets import Button, draw_paragraph, draw_text, fit_font


FLASH_SECONDS = 1.6  # how long a fresh announcement pulses (the only animation: the loop runs at 30 fps then)


def without_details(message: str) -> str:
    """The camera guard's line without its parenthesised technical reason ("camera lost, retrying in 4 s; manual
    mode"): the chip shows its first clause, the camera view (touch the chip) the whole line."""
    kept, depth = [], 0
    for character in message:
        depth += character == "("
        if depth == 0:
            kept.append(character)
        depth -= character == ")" and depth > 0
    return " ".join("".join(kept).split()).replace(" ,", ",")


class SessionScene(Scene):
    follows_table = True  # the app hands camera/simulation messages to the topmost such scene

    def __init__(self, app, session):
        super().__init__(app)
        self.session = session
        self.flash_left = 0.0
        self.latest = self._latest_announcement()

    @property
    def game(self):
        return self.session.game

    def _latest_announcement(self):
        return self.session.announcements[-1] if self.session.announcements else None

    @property
    def animating(self) -> bool:
        return self.flash_left > 0

    def update(self, dt: float) -> None:
        latest = self._latest_announcement()
        if latest is not self.latest:
            self.latest = latest
            self.flash_left = FLASH_SECONDS if latest is not None else 0.0
        if self.flash_left > 0:
            self.flash_left = max(0.0, self.flash_left - dt)
            self.dirty = True

    def handle(self, event) -> None:
        if event.type == pygame.USEREVENT and not hasattr(event, "control"):
            if hasattr(event, "table_state"):
                if self.session.mode == "camera" and not self.session.camera_lost:
                    self.session.observe(event.table_state)
            elif hasattr(event, "sim"):
                self.session.feed(event.sim)
            elif hasattr(event, "camera"):
                self.session.camera_lost = event.camera != "ok"
            elif hasattr(event, "seen"):
                self.session.latest_seen = event.seen
            elif hasattr(event, "frame"):
                self.session.latest_frame = event.frame
            self.after_change()
            return
        super().handle(event)

    def handle_control(self, control: str, action: str) -> None:
        """The GPIO "draw" button is the Draw action; the others keep their usual meaning."""
        if control == "draw" and action == "press" and self.game.prompt is None and not self.game.over:
            from companion.games.nightmarium import Draw

            self.session.press(Draw())
            self.after_change()
        else:
            super().handle_control(control, action)

    def after_change(self) -> None:
        """Redraw, and follow the game to the screen that fits it."""
        self.dirty = True
        from companion.ui.nightmarium.chain import ChainScene
        from companion.ui.nightmarium.win import WinScene

        if self.app.top is not self:
            return
        if self.game.over:
            self.session.stop()
            self.app.replace(WinScene(self.app, self.session))
        elif self.game.stack and not isinstance(self, ChainScene):
            self.app.push(ChainScene(self.app, self.session))

    def on_enter(self) -> None:
        super().on_enter()
        self.after_change()

    # -- drawing helpers ------------------------------------------------------------------------------------
    def camera_chip_state(self) -> tuple[str, tuple[int, int, int]]:
        """The camera chip's words and its dot's colour."""
        from companion.ui.nightmarium.camera_view import framing_off_measure

        mode = self.session.mode
        if mode == "simulated":
            return self.t("camera.simulated"), theme.ACCENT
        if mode == "manual":
            return self.t("camera.off"), theme.TEXT_DIM
        if self.session.camera_lost:  # the guard's own line: why, and when it tries again
            message = self.app.camera_message
            return (without_details(message).split(";")[0] if message else self.t("camera.lost")), theme.WARNING
        framing = framing_off_measure(self.session)
        if framing is not None:  # a camera hung too high: the camera view says what to change
            from vision.framing import LARGE_SHARE

            return self.t("nm.camera.chip_large" if framing.problem == LARGE_SHARE else "nm.camera.chip_small"), \
                theme.WARNING
        return self.t("camera.ok"), theme.GOOD

    def camera_chip(self, surface, layout, right: int, centre_y: int) -> None:
        text, colour = self.camera_chip_state()
        widest = layout.px(285)  # clear of the deck count beside it
        font = fit_font(text, widest - layout.px(30), layout.px(14), True, layout.px(11))
        width = min(font.size(text)[0] + layout.px(30), widest)
        chip = pygame.Rect(right - width, centre_y - layout.px(12), width, layout.px(24))
        pygame.draw.rect(surface, theme.PANEL_LIGHT, chip, border_radius=chip.height // 2)
        pygame.draw.circle(surface, colour, (chip.left + layout.px(12), chip.centery), layout.px(5))
        draw_text(surface, text, font, theme.TEXT, (chip.left + layout.px(21), chip.centery), "midleft",
                  max_width=chip.width - layout.px(30))
        # the chip is also the way to the camera view: an invisible touch target around it
        target = Button(chip, "", self.open_camera_view, visible=False)
        target.rect.top = max(0, target.rect.top)
        self.add_button(target)

    def open_camera_view(self) -> None:
        from companion.ui.nightmarium.camera_view import CameraViewScene

        if not isinstance(self.app.top, CameraViewScene):
            self.app.push(CameraViewScene(self.app, self.session))

    def announcement_strip(self, surface, layout, rect) -> None:
        """The latest announcement (pure legion in its colour, a stopped or interrupted chain)."""
        if not self.session.announcements:
            return
        note = self.session.announcements[-1]
        values = dict(note.values)
        if "legion" in values:
            values["legion"] = legion_name(values["legion"], self.app.lang)
        from companion.ui.nightmarium.describe import ability_name

        if "ability" in values:
            values["why"] = self.t(f"nm.cannot.{values['ability']}")
            values["ability"] = ability_name(values["ability"], self.app.lang)
        if "lost" in values:
            names = ", ".join(ability_name(ability, self.app.lang) for ability in values["lost"])
            values["lost"] = self.t("nm.event.lost", names=names) if names else ""
        colour = pictures.legion_colour(note.legion) if note.legion else theme.PANEL_LIGHT
        if self.flash_left > 0:  # pulse while fresh so the table notices it
            colour = pictures.lighter(colour, int(70 * abs(math.sin(self.flash_left * math.pi * 2))))
        pygame.draw.rect(surface, colour, rect, border_radius=layout.px(8))
        text = self.t(note.key, **values)
        inner = rect.inflate(-layout.px(20), -layout.px(4))
        font = fit_font(text, inner.width, layout.px(17), True, layout.px(13))
        if font.size(text)[0] <= inner.width or rect.height < 2 * font.get_height():
            draw_text(surface, text, font, theme.TEXT, (inner.left, rect.centery), "midleft", max_width=inner.width)
        else:  # a long sentence (lost abilities): two lines where the strip is tall enough
            draw_paragraph(surface, text, font, theme.TEXT, inner, line_gap=0)
