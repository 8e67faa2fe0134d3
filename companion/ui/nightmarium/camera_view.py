"""What the camera sees (or the synthetic camera of the simulated table), next to what the referee made of it."""
from __future__ import annotations

import pygame

from companion.ui import theme
from companion.ui.nightmarium.base import SessionScene
from companion.ui.widgets import Button, draw_paragraph, draw_text


def frame_surface(frame) -> pygame.Surface:
    """A BGR numpy image as a pygame surface (copied: the worker thread owns the array)."""
    height, width = frame.shape[:2]
    rgb = frame[:, :, ::-1].copy(order="C")
    return pygame.image.frombuffer(rgb.tobytes(), (width, height), "RGB").copy()


class CameraViewScene(SessionScene):
    def __init__(self, app, session):
        super().__init__(app, session)
        self._source = None
        self._image: pygame.Surface | None = None

    def after_change(self) -> None:
        self.dirty = True  # stay on the picture even when the chain starts; Back returns to it

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        px = layout.px
        surface.fill(theme.BACKGROUND)
        frame = self.session.latest_frame
        if frame is not self._source:
            self._source = frame
            self._image = frame_surface(frame) if frame is not None else None
        area = pygame.Rect(px(10), px(10), layout.width - px(20), layout.height - px(90))
        if self._image is None:
            draw_paragraph(surface, self.t("nm.camera.none"), layout.font(20), theme.TEXT_DIM,
                           area.inflate(-px(40), -px(120)))
        else:
            scale = min(area.width / self._image.get_width(), area.height / self._image.get_height())
            size = (int(self._image.get_width() * scale), int(self._image.get_height() * scale))
            picture = pygame.transform.smoothscale(self._image, size)
            surface.blit(picture, picture.get_rect(center=area.center))
        if self.session.mode == "simulated":
            caption = self.t("camera.simulated")
        elif self.session.camera_lost:  # the camera guard's whole line: what failed, when it retries
            caption = self.app.camera_message or self.t("camera.lost")
        else:
            caption = self.t("camera.ok")
        draw_text(surface, caption, layout.font(16), theme.TEXT_DIM, (px(200), layout.height - px(42)), "midleft",
                  max_width=layout.width - px(220))
        self.add_button(Button(pygame.Rect(px(14), layout.height - px(70), px(170), px(56)), self.t("common.back"),
                               self.app.pop, primary=True))
        self.draw_buttons(surface, layout)
