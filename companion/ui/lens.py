"""Measuring a wide-angle lens on the touchscreen, as `companion vision lens` does from files (vision.lens).

The builder lays the printed chessboard (`companion vision lens --sheet`) flat where a circle shows on the camera's
picture and touches "Take": the board's corners are found in that picture and its outline drawn, a circle filled.
With four or more places taken, "Measure and save" fits the lens, saves it where the camera finds it, and the camera
reads with it from the next frame on; "Forget" deletes it.
"""
from __future__ import annotations

import logging

import numpy as np
import pygame

from companion.ui import theme
from companion.ui.scene import Scene
from companion.ui.screens import register_screen
from companion.ui.widgets import (Button, draw_paragraph, draw_text, fit_font, FramePicture, picture_and_column,
                                  split_columns)

log = logging.getLogger(__name__)

SAME_PLACE = 0.1  # of the picture's width: a board whose middle lies this near one taken is that place again


def board_outline(corners: np.ndarray) -> np.ndarray:
    """The four outer inner-corners of a found board (picture pixels), in order round it."""
    from vision.lens import BOARD

    columns, rows = BOARD
    grid = np.asarray(corners, np.float64).reshape(rows, columns, 2)
    return np.array([grid[0, 0], grid[0, -1], grid[-1, -1], grid[-1, 0]])


class LensScene(Scene):
    def __init__(self, app):
        super().__init__(app)
        self.boards: list[np.ndarray] = []  # the corners of each board taken, picture pixels
        self.size: tuple[int, int] | None = None  # the pictures' (width, height)
        self.message: str | None = None  # a whole line to show (already translated)
        self.message_is_problem = False
        self._picture = FramePicture()
        self._image: pygame.Surface | None = None
        self._placed: pygame.Rect | None = None
        self._scale = 1.0
        self.status = self.saved_status()  # read from disk here and after each change, not at every redraw

    # -- what the builder does -----------------------------------------------------------------------------
    def take(self) -> None:
        from vision.lens import find_chessboard

        frame = self.app.latest_frame
        if frame is None:
            return
        size = (frame.shape[1], frame.shape[0])
        if self.size is not None and size != self.size:
            self.boards = []  # the camera changed its picture: the places taken were of another one
        self.size = size
        try:
            corners = find_chessboard(frame)
        except Exception as error:  # an odd frame: say so, keep the boards taken
            log.warning("chessboard search failed: %s", error)
            corners = None
        if corners is None:
            self.say(self.t("lens.not_found"), problem=True)
            return
        middle = corners.mean(axis=0)
        if any(np.hypot(*(board.mean(axis=0) - middle)) < SAME_PLACE * size[0] for board in self.boards):
            self.say(self.t("lens.same_place"), problem=True)
            return
        self.boards.append(corners)
        self.say(self.t("lens.taken", count=len(self.boards)))

    def undo(self) -> None:
        if self.boards:
            self.boards.pop()
        self.say(None)

    def measure(self) -> None:
        from vision.lens import LensError, bow_px, bow_share, lens_path, measure, straightening

        try:
            lens = measure(self.boards, self.size)
            lens.save(lens_path())
        except (LensError, OSError) as error:
            self.say(self.t("lens.failed", message=str(error)), problem=True)
            return
        self.reload_camera()
        self.status = self.saved_status()
        treatment = self.t("lens.straightened" if straightening(lens) else "lens.too_little")
        self.say(self.t("lens.measured", bow=round(bow_px(lens)), share=f"{100 * bow_share(lens):.1f}",
                        treatment=treatment))
        self.boards = []

    def forget(self) -> None:
        from vision.lens import lens_path

        try:
            lens_path().unlink(missing_ok=True)
        except OSError as error:
            self.say(self.t("lens.failed", message=str(error)), problem=True)
            return
        self.reload_camera()
        self.status = self.saved_status()
        self.say(self.t("lens.forgotten"))

    def reload_camera(self) -> None:
        worker = self.app.camera_worker
        if worker is not None:
            worker.reload_recogniser()  # it loads the saved lens with the recogniser, on its own thread

    def say(self, message: str | None, problem: bool = False) -> None:
        self.message, self.message_is_problem = message, problem
        self.dirty = True

    def saved_status(self) -> str:
        """What the camera does now: no lens measured, or how much the saved one bends and what is done with it."""
        from vision.lens import LensCorrection, LensError, bow_px, lens_path, straightening

        path = lens_path()
        if not path.is_file():
            return self.t("lens.status_none")
        try:
            lens = LensCorrection.load(path)
        except LensError:
            return self.t("lens.status_damaged")
        treatment = self.t("lens.straightened" if straightening(lens) else "lens.too_little")
        return self.t("lens.status", bow=round(bow_px(lens)), treatment=treatment)

    # -- drawing -------------------------------------------------------------------------------------------
    def draw(self, surface) -> None:
        from vision.lens import MIN_PICTURES

        layout = self.begin_frame(surface)
        px = layout.px
        surface.fill(theme.BACKGROUND)
        frame = self.app.latest_frame
        self._image = self._picture.of(frame)
        self._placed, self._scale, rect = picture_and_column(surface, layout, self._image,
                                                             self.t("calibration.no_picture"))
        if self._placed is not None:
            self._draw_places(surface, layout)
        title = self.t("lens.title")
        draw_text(surface, title, fit_font(title, rect.width, px(22), True, px(14)), theme.ACCENT, rect.topleft)
        if self.message is not None:
            text, colour = self.message, theme.WARNING if self.message_is_problem else theme.GOOD
        else:
            text, colour = self.t("lens.how"), theme.TEXT
        draw_paragraph(surface, text, layout.font(13), colour, pygame.Rect(rect.left, rect.top + px(30), rect.width,
                                                                            px(132)), line_gap=0)
        draw_paragraph(surface, self.status, layout.font(13), theme.TEXT_DIM,
                       pygame.Rect(rect.left, rect.top + px(164), rect.width, px(48)), line_gap=0)
        buttons = pygame.Rect(rect.left, rect.bottom - px(236), rect.width, px(48))
        self.add_button(Button(buttons, self.t("lens.take"), self.take, enabled=frame is not None))
        undo, forget = split_columns(buttons.move(0, px(58)), 2, px(8))
        self.add_button(Button(undo, self.t("calibration.undo"), self.undo, enabled=bool(self.boards)))
        self.add_button(Button(forget, self.t("calibration.forget"), self.forget))
        self.add_button(Button(buttons.move(0, px(116)), self.t("lens.measure"), self.measure, primary=True,
                               enabled=len(self.boards) >= MIN_PICTURES, key=pygame.K_s))
        self.add_button(Button(buttons.move(0, px(188)), self.t("common.back"), self.app.pop))
        self.draw_buttons(surface, layout)

    def _on_screen(self, point) -> tuple[float, float]:
        return self._placed.left + point[0] * self._scale, self._placed.top + point[1] * self._scale

    def _draw_places(self, surface, layout) -> None:
        """A circle where the sheet should lie (vision.lens.PLACES), filled where a board was taken; each board's
        outline."""
        from vision.lens import PLACES

        width, height = self._image.get_width(), self._image.get_height()
        middles = [board.mean(axis=0) for board in self.boards]
        for share_x, share_y in PLACES:
            place = np.array([share_x * width, share_y * height])
            taken = any(np.hypot(*(middle - place)) < 2 * SAME_PLACE * width for middle in middles)
            pygame.draw.circle(surface, theme.GOOD if taken else theme.ACCENT, self._on_screen(place),
                               layout.px(9), 0 if taken else max(2, layout.px(2)))
        for board in self.boards:
            outline = [self._on_screen(point) for point in board_outline(board)]
            pygame.draw.lines(surface, theme.GOOD, True, outline, max(2, layout.px(2)))


register_screen("lens", LensScene)
