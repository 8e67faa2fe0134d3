"""Buttons, text and layout helpers that scale from 800x480 up to 1920x1080.

Screens lay themselves out in `draw` from the surface size (immediate mode): a Layout gives the scale factor
relative to the 800x480 design size, and buttons drawn in a frame are the ones that receive the next touches.
"""
from __future__ import annotations

from dataclasses import dataclass, field
from typing import Callable

import pygame

from companion.ui import theme

DESIGN_SIZE = (800, 480)
MIN_TOUCH = 48  # px: the smallest target a finger hits reliably


class Layout:
    """Scale design pixels (800x480) to the real surface."""

    def __init__(self, size: tuple[int, int]):
        self.width, self.height = size
        self.scale = max(0.5, min(self.width / DESIGN_SIZE[0], self.height / DESIGN_SIZE[1]))

    def px(self, value: float) -> int:
        return int(round(value * self.scale))

    def font(self, size: float, bold: bool = False):
        return theme.font(self.px(size), bold)

    @property
    def rect(self) -> pygame.Rect:
        return pygame.Rect(0, 0, self.width, self.height)


def _split(start: int, extent: int, count: int, gap: int, weights: list[float] | None) -> list[tuple[int, int]]:
    """(offset, size) of `count` pieces of a span, `gap` apart, sized by `weights`."""
    weights = weights or [1.0] * count
    usable = extent - gap * (count - 1)
    total = sum(weights)
    pieces, position = [], start
    for weight in weights:
        size = int(usable * weight / total)
        pieces.append((position, size))
        position += size + gap
    return pieces


def split_columns(rect: pygame.Rect, count: int, gap: int = 0, weights: list[float] | None = None) -> list[pygame.Rect]:
    return [pygame.Rect(x, rect.y, width, rect.height) for x, width in _split(rect.x, rect.width, count, gap, weights)]


def split_rows(rect: pygame.Rect, count: int, gap: int = 0, weights: list[float] | None = None) -> list[pygame.Rect]:
    return [pygame.Rect(rect.x, y, rect.width, height) for y, height in _split(rect.y, rect.height, count, gap, weights)]


def grid(rect: pygame.Rect, count: int, columns: int, gap: int = 0) -> list[pygame.Rect]:
    rows = max(1, -(-count // columns))
    cells = []
    for row_rect in split_rows(rect, rows, gap):
        cells.extend(split_columns(row_rect, columns, gap))
    return cells[:count]


def fit_font(text: str, max_width: int, size: int, bold: bool = False, min_size: int = 10):
    """The largest font not above `size` px in which `text` fits `max_width`."""
    while size > min_size and theme.font(size, bold).size(text)[0] > max_width:
        size -= 1
    return theme.font(size, bold)


def ellipsize(text: str, font, max_width: int) -> str:
    if font.size(text)[0] <= max_width:
        return text
    while text and font.size(text + "…")[0] > max_width:
        text = text[:-1]
    return text + "…"


def draw_text(surface, text: str, font, colour, position, anchor: str = "topleft", max_width: int | None = None):
    if max_width is not None:
        text = ellipsize(text, font, max_width)
    image = font.render(text, True, colour)
    rect = image.get_rect(**{anchor: position})
    surface.blit(image, rect)
    return rect


def wrap_text(text: str, font, max_width: int) -> list[str]:
    lines: list[str] = []
    for paragraph in text.split("\n"):
        line = ""
        for word in paragraph.split(" "):
            candidate = f"{line} {word}".strip()
            if font.size(candidate)[0] <= max_width or not line:
                line = candidate
            else:
                lines.append(line)
                line = word
        lines.append(line)
    return lines


def frame_surface(frame) -> pygame.Surface:
    """A BGR numpy image (a camera picture) as a pygame surface (copied: the worker thread owns the array). pygame
    reads the BGR bytes as they lie: swapping the channels in numpy first took five times as long, 68 against 13.5 ms
    for a 3280x2464 picture on a development machine (stop 78)."""
    import numpy as np

    height, width = frame.shape[:2]
    return pygame.image.frombuffer(np.ascontiguousarray(frame), (width, height), "BGR").copy()


class FramePicture:
    """The camera's latest frame as a surface, converted again only when the frame is another one: a screen redraws
    more often than the camera delivers."""

    def __init__(self):
        self.frame = None  # the frame the surface shows
        self.surface: pygame.Surface | None = None

    def of(self, frame) -> pygame.Surface | None:
        if frame is not self.frame:
            self.frame = frame
            self.surface = frame_surface(frame) if frame is not None else None
        return self.surface


def draw_fitted(surface, image: pygame.Surface, area: pygame.Rect) -> tuple[pygame.Rect, float]:
    """The image scaled to fit the area, centred in it; returns where it lies and its scale (screen px per image
    px), for turning touches into picture pixels and back."""
    scale = min(area.width / image.get_width(), area.height / image.get_height())
    placed = pygame.Rect((0, 0), (int(image.get_width() * scale), int(image.get_height() * scale)))
    placed.center = area.center
    surface.blit(pygame.transform.smoothscale(image, placed.size), placed)
    return placed, scale


def picture_and_column(surface, layout: "Layout", image: pygame.Surface | None, no_picture: str):
    """A camera picture fitted left of a 220 px side column (the calibration and lens screens), or the text
    `no_picture` where there is none yet. Returns where the picture lies (None without one), its scale, and the
    column's rect."""
    px = layout.px
    side = px(220)
    area = pygame.Rect(px(10), px(10), layout.width - side - px(30), layout.height - px(20))
    column = pygame.Rect(layout.width - side - px(10), px(10), side, layout.height - px(20))
    if image is None:
        draw_paragraph(surface, no_picture, layout.font(18), theme.TEXT_DIM, area.inflate(-px(30), -px(60)))
        return None, 1.0, column
    placed, scale = draw_fitted(surface, image, area)
    return placed, scale, column


def draw_paragraph(surface, text: str, font, colour, rect: pygame.Rect, line_gap: int = 2) -> int:
    """Word-wrapped text inside rect; returns the y after the last line drawn."""
    y = rect.y
    for line in wrap_text(text, font, rect.width):
        if y + font.get_height() > rect.bottom:
            break
        surface.blit(font.render(line, True, colour), (rect.x, y))
        y += font.get_height() + line_gap
    return y


def panel(surface, rect: pygame.Rect, colour=theme.PANEL, radius: int = 10, border=None):
    pygame.draw.rect(surface, colour, rect, border_radius=radius)
    if border:
        pygame.draw.rect(surface, border, rect, width=2, border_radius=radius)


@dataclass
class Button:
    """A touch target: at least MIN_TOUCH px in each direction, activated on release over it."""

    rect: pygame.Rect
    label: str
    on_press: Callable[[], None] | None = None
    enabled: bool = True
    primary: bool = False
    selected: bool = False
    colour: tuple[int, int, int] | None = None
    icon: Callable[[pygame.Surface, pygame.Rect], None] | None = None
    key: int | None = None  # keyboard shortcut
    visible: bool = True  # False: a touch target laid over something drawn by the screen itself
    pressed: bool = field(default=False, init=False)

    def __post_init__(self):
        self.rect = pygame.Rect(self.rect)
        if self.rect.width < MIN_TOUCH:
            self.rect.inflate_ip(MIN_TOUCH - self.rect.width, 0)
        if self.rect.height < MIN_TOUCH:
            self.rect.inflate_ip(0, MIN_TOUCH - self.rect.height)

    def hit(self, position) -> bool:
        return self.enabled and self.rect.collidepoint(position)

    def activate(self) -> None:
        if self.enabled and self.on_press is not None:
            self.on_press()

    def draw(self, surface, layout: Layout, focused: bool = False) -> None:
        if not self.visible:
            if focused or self.pressed:
                pygame.draw.rect(surface, theme.FOCUS, self.rect, width=max(2, layout.px(2)),
                                 border_radius=layout.px(10))
            return
        if not self.enabled:
            fill = theme.BUTTON_DISABLED
        elif self.pressed:
            fill = theme.BUTTON_PRESSED
        elif self.colour is not None:
            fill = self.colour
        elif self.primary:
            fill = theme.BUTTON_PRIMARY
        else:
            fill = theme.BUTTON
        radius = layout.px(10)
        pygame.draw.rect(surface, fill, self.rect, border_radius=radius)
        if self.selected:
            pygame.draw.rect(surface, theme.ACCENT, self.rect, width=max(2, layout.px(3)), border_radius=radius)
        if focused:
            pygame.draw.rect(surface, theme.FOCUS, self.rect.inflate(layout.px(6), layout.px(6)),
                             width=max(1, layout.px(2)), border_radius=radius)
        colour = theme.TEXT if self.enabled else theme.TEXT_DIM
        text_rect = self.rect.inflate(-layout.px(12), -layout.px(6))
        if self.icon is not None:
            icon_size = min(text_rect.height, layout.px(40)) if self.label else min(text_rect.size)
            icon_rect = pygame.Rect(0, 0, icon_size, icon_size)
            if self.label:
                icon_rect.midleft = text_rect.midleft
                text_rect.width -= icon_size + layout.px(6)
                text_rect.left = icon_rect.right + layout.px(6)
            else:
                icon_rect.center = text_rect.center
            self.icon(surface, icon_rect)
        if self.label:
            text_font = fit_font(self.label, text_rect.width, layout.px(20), bold=True, min_size=layout.px(11))
            draw_text(surface, self.label, text_font, colour, text_rect.center, "center", max_width=text_rect.width)
