"""Table calibration on the touchscreen: where the table's corners lie in the camera's picture, so that each card is
given to the seat it faces and its column read as a creature (vision.geometry).

Two ways, both on the camera's last picture: "Find the markers" finds the four printed ArUco markers
(`companion vision markers`), or the players touch the table's four corners in turn. Saved as the players' own
choice (`screen_calibration_path()`, in the companion's data folder), which the camera then reads with at once and
after every start, over the configuration's `[camera] calibration`; "Forget" goes back to that one (or to none: the
whole picture is the table).
"""
from __future__ import annotations

import logging
from pathlib import Path

import numpy as np
import pygame

from companion.ui import theme
from companion.ui.preferences import data_home
from companion.ui.scene import Scene
from companion.ui.screens import register_screen
from companion.ui.widgets import (Button, draw_paragraph, draw_text, fit_font, frame_surface, picture_and_column,
                                  split_columns)

log = logging.getLogger(__name__)

# Corners in the order vision.geometry takes them (the markers' order): seat 0's near-left, near-right, then the
# far-right and far-left, as seat 0 sees them.
CORNER_PROMPTS = ("calibration.touch_1", "calibration.touch_2", "calibration.touch_3", "calibration.touch_4")
# The edge of each seat, as the pair of corners it runs between (vision.geometry: seat 0 near, 1 left, 2 far, 3 right).
SEAT_EDGES = {0: (0, 1), 1: (3, 0), 2: (2, 3), 3: (1, 2)}
MIN_TABLE_SHARE = 0.05  # of the picture: four corners closer together than this are touched by mistake


def screen_calibration_path() -> Path:
    return data_home() / "calibration.json"


def load_screen_calibration(path: Path | None = None):
    """(the calibration saved from the touchscreen or None, a message when there is one that cannot be used)."""
    path = path or screen_calibration_path()
    if not path.is_file():
        return None, None
    try:
        from vision.geometry import Calibration

        return Calibration.load(path), None
    except (ImportError, ValueError) as error:  # CalibrationError is a ValueError
        return None, f"the table calibration made on the screen cannot be used ({error}); calibrate again"


def table_calibration(config_calibration, path: Path | None = None):
    """(calibration, source, problem) the camera reads with at start: the one made on the touchscreen (source
    "screen": the players' latest word), else the configuration's ("config"), else none; `problem` says why a
    touchscreen calibration on disk could not be used."""
    screen, problem = load_screen_calibration(path)
    if screen is not None:
        return screen, "screen", None
    return config_calibration, "config" if config_calibration is not None else None, problem


def table_problem(corners, picture_size) -> str | None:
    """The string key saying why four touched points cannot be the table's corners, or None if they can."""
    import cv2

    quad = np.asarray(corners, np.float32).reshape(4, 2)
    width, height = picture_size
    if not cv2.isContourConvex(quad):
        return "calibration.not_around"  # touched across the table rather than around it
    if abs(cv2.contourArea(quad)) < MIN_TABLE_SHARE * width * height:
        return "calibration.too_small"
    return None


def draw_seats(surface, layout, corners, colour) -> None:
    """The table's outline through its four corners (screen points) with each seat's number on its edge."""
    pygame.draw.lines(surface, colour, True, corners, max(2, layout.px(3)))
    for seat, (a, b) in SEAT_EDGES.items():
        middle = ((corners[a][0] + corners[b][0]) / 2, (corners[a][1] + corners[b][1]) / 2)
        pygame.draw.circle(surface, theme.PANEL, middle, layout.px(15))
        draw_text(surface, str(seat + 1), layout.font(18, True), theme.TEXT, middle, "center")


class CalibrationScene(Scene):
    def __init__(self, app):
        super().__init__(app)
        self.points: list[tuple[float, float]] = []  # picture pixels, in CORNER_PROMPTS order
        self.message: str | None = None  # a string key, or a whole line (a save error)
        self.message_is_problem = False
        self._source = None  # the frame the points were taken on (kept while touching: the picture may change)
        self._image: pygame.Surface | None = None
        self._placed: pygame.Rect | None = None
        self._scale = 1.0
        # The calibration in use, shown (scaled to the picture) until the players touch a corner of their own.
        self.shown = app.calibration

    # -- what the players do -------------------------------------------------------------------------------
    def handle(self, event) -> None:
        if event.type in (pygame.MOUSEBUTTONDOWN, pygame.FINGERDOWN) and not getattr(event, "touch", False) and \
                getattr(event, "button", 1) == 1:
            position = self.app.finger_position(event) if event.type == pygame.FINGERDOWN else event.pos
            if self._button_at(position) is None and self._placed is not None and \
                    self._placed.collidepoint(position):
                self.touch_corner(position)
                return
        super().handle(event)

    def touch_corner(self, position) -> None:
        self.shown = None  # the players' own corners from now on
        if len(self.points) == 4:
            self.points = []  # a fifth touch starts again
        x = (position[0] - self._placed.left) / self._scale
        y = (position[1] - self._placed.top) / self._scale
        self.points.append((x, y))
        self.say(None)
        if len(self.points) == 4:
            problem = table_problem(self.points, self.picture_size())
            if problem:
                self.say(problem, problem=True)
        self.dirty = True

    def undo(self) -> None:
        self.shown = None
        if self.points:
            self.points.pop()
        self.say(None)

    def find_markers(self) -> None:
        from vision.markers import find_table_corners

        frame = self.frame()
        if frame is None:
            return
        try:
            corners = find_table_corners(frame)
        except Exception as error:  # an odd frame or an OpenCV without ArUco: say so, keep the touched corners
            log.warning("marker search failed: %s", error)
            corners = None
        if corners is None:
            self.say("calibration.no_markers", problem=True)
            return
        self.points, self.shown = [tuple(map(float, point)) for point in corners], None
        self.say("calibration.markers_found")

    def save(self) -> None:
        from vision.geometry import Calibration, CalibrationError

        try:
            width, height = self.picture_size()
            calibration = Calibration.from_json({"table_corners": [list(point) for point in self.points],
                                                 "picture_size": [width, height]})
            path = screen_calibration_path()
            path.parent.mkdir(parents=True, exist_ok=True)
            calibration.save(path)
        except (CalibrationError, OSError) as error:
            self.say(self.t("calibration.save_failed", message=str(error)), problem=True)
            return
        self.use(calibration, "screen")
        self.say("calibration.saved")

    def forget(self) -> None:
        """Back to the configuration's calibration, or to none."""
        try:
            screen_calibration_path().unlink(missing_ok=True)
        except OSError as error:
            self.say(self.t("calibration.save_failed", message=str(error)), problem=True)
            return
        calibration = getattr(self.app, "config_calibration", None)
        self.use(calibration, "config" if calibration is not None else None)
        self.points, self.shown = [], calibration
        self.show_calibration()
        self.say("calibration.forgotten")

    def use(self, calibration, source: str | None) -> None:
        self.app.calibration, self.app.calibration_source = calibration, source
        worker = self.app.camera_worker
        if worker is not None:
            worker.use_calibration(calibration)

    def say(self, message: str | None, problem: bool = False) -> None:
        self.message, self.message_is_problem = message, problem
        self.dirty = True

    # -- the picture ---------------------------------------------------------------------------------------
    def show_calibration(self) -> None:
        """The corners of the calibration shown, in the picture's pixels, once there is a picture."""
        if self.shown is not None and not self.points and self.frame() is not None:
            self.points = [tuple(point) for point in self.shown.for_picture(*self.picture_size()).table_corners]

    def frame(self):
        return self._source if self._source is not None else self.app.latest_frame

    def picture_size(self) -> tuple[int, int]:
        frame = self.frame()
        return (frame.shape[1], frame.shape[0]) if frame is not None else (1, 1)

    def complete(self) -> bool:
        return len(self.points) == 4 and table_problem(self.points, self.picture_size()) is None

    # -- drawing -------------------------------------------------------------------------------------------
    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        surface.fill(theme.BACKGROUND)
        if self._source is None or (not self.points and self.app.latest_frame is not self._source):
            self._source = self.app.latest_frame  # a new picture only while no corner is on the old one
            self._image = frame_surface(self._source) if self._source is not None else None
            self.show_calibration()
        self._placed, self._scale, column = picture_and_column(surface, layout, self._image,
                                                               self.t("calibration.no_picture"))
        if self._placed is not None:
            self._draw_table(surface, layout)
        self._draw_side(surface, layout, column)
        self.draw_buttons(surface, layout)

    def _on_screen(self, point) -> tuple[float, float]:
        return self._placed.left + point[0] * self._scale, self._placed.top + point[1] * self._scale

    def _draw_table(self, surface, layout) -> None:
        points = [self._on_screen(point) for point in self.points]
        colour = theme.GOOD if self.complete() else theme.ACCENT
        if self.complete():
            draw_seats(surface, layout, points, colour)
        elif len(points) >= 2:
            pygame.draw.lines(surface, colour, len(points) == 4, points, max(2, layout.px(3)))
        for index, point in enumerate(points):
            pygame.draw.circle(surface, colour, point, layout.px(11))
            draw_text(surface, str(index + 1), layout.font(15, True), theme.BACKGROUND, point, "center")

    def _draw_side(self, surface, layout, rect: pygame.Rect) -> None:
        px = layout.px
        title = self.t("calibration.title")
        draw_text(surface, title, fit_font(title, rect.width, px(22), True, px(14)), theme.ACCENT, rect.topleft)
        if self.message is not None:
            text = self.t(self.message) if self.message.startswith("calibration.") else self.message
            colour = theme.WARNING if self.message_is_problem else theme.GOOD
        elif len(self.points) < 4 and self._placed is not None:
            text, colour = self.t(CORNER_PROMPTS[len(self.points)]), theme.TEXT
        elif self.complete():
            text, colour = self.t("calibration.seats"), theme.TEXT
        else:
            text, colour = "", theme.TEXT
        draw_paragraph(surface, text, layout.font(15), colour, pygame.Rect(rect.left, rect.top + px(34), rect.width,
                                                                            px(108)), line_gap=0)
        status = f"calibration.using_{self.app.calibration_source or 'none'}"
        if self.app.camera_worker is None and self.frame() is not None:
            status = "calibration.not_a_camera"  # the simulated table's picture: nothing reads with it here
        draw_paragraph(surface, self.t(status), layout.font(13), theme.TEXT_DIM,
                       pygame.Rect(rect.left, rect.top + px(146), rect.width, px(76)), line_gap=0)
        buttons = pygame.Rect(rect.left, rect.bottom - px(236), rect.width, px(48))
        have_picture = self.frame() is not None
        self.add_button(Button(buttons, self.t("calibration.find_markers"), self.find_markers, enabled=have_picture))
        undo, forget = split_columns(buttons.move(0, px(58)), 2, px(8))
        self.add_button(Button(undo, self.t("calibration.undo"), self.undo, enabled=bool(self.points)))
        self.add_button(Button(forget, self.t("calibration.forget"), self.forget,
                               enabled=self.app.calibration_source == "screen"))
        self.add_button(Button(buttons.move(0, px(116)), self.t("calibration.save"), self.save, primary=True,
                               enabled=self.complete(), key=pygame.K_s))
        self.add_button(Button(buttons.move(0, px(188)), self.t("common.back"), self.app.pop))


register_screen("calibration", CalibrationScene)
