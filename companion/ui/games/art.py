"""Dice faces and bag tokens drawn with pygame primitives (no artwork is shipped or derived from scans)."""
from __future__ import annotations

import math

import pygame

from companion.ui import theme

DIE_BODY = (244, 238, 222)
DIE_EDGE = (120, 104, 84)
INK = (44, 36, 52)
MISS_RED = (196, 52, 48)
TILE_FACE = (118, 160, 92)
TILE_BACK = (92, 74, 58)

# Nemesis character colours (the data file names them; unknown names fall back to grey).
TOKEN_COLOURS = {
    "red": (200, 56, 52), "blue": (58, 104, 200), "green": (64, 150, 72), "yellow": (226, 196, 60),
    "purple": (136, 76, 176), "white": (232, 232, 232), "black": (30, 30, 34), "orange": (232, 128, 40),
}
NIGHTMARE_DISC = (70, 34, 90)
BLANK_DISC = (150, 146, 140)


def _width(rect: pygame.Rect, share: float = 0.08) -> int:
    return max(2, int(min(rect.size) * share))


def _arrow(surface, colour, start, end, width: int) -> None:
    pygame.draw.line(surface, colour, start, end, width)
    angle = math.atan2(end[1] - start[1], end[0] - start[0])
    head = width * 2.6
    left = (end[0] - head * math.cos(angle - 0.5), end[1] - head * math.sin(angle - 0.5))
    right = (end[0] - head * math.cos(angle + 0.5), end[1] - head * math.sin(angle + 0.5))
    pygame.draw.polygon(surface, colour, [end, left, right])


def _flip_glyph(surface, rect: pygame.Rect) -> None:
    """A tile half face-up, half face-down, with a turning arrow around it."""
    tile = pygame.Rect(0, 0, int(rect.width * 0.46), int(rect.height * 0.46))
    tile.center = rect.center
    pygame.draw.rect(surface, TILE_FACE, (tile.x, tile.y, tile.width // 2, tile.height))
    pygame.draw.rect(surface, TILE_BACK, (tile.centerx, tile.y, tile.width - tile.width // 2, tile.height))
    pygame.draw.rect(surface, INK, tile, _width(rect, 0.04))
    ring = rect.inflate(-int(rect.width * 0.14), -int(rect.height * 0.14))
    width = _width(rect, 0.06)
    pygame.draw.arc(surface, INK, ring, math.radians(20), math.radians(160), width)
    pygame.draw.arc(surface, INK, ring, math.radians(200), math.radians(340), width)
    for angle, direction in ((20, -1), (200, -1)):
        tip = (ring.centerx + ring.width / 2 * math.cos(math.radians(angle)),
               ring.centery - ring.height / 2 * math.sin(math.radians(angle)))
        pygame.draw.circle(surface, INK, tip, width)
        _arrow(surface, INK, (tip[0] - direction * width, tip[1] - width * 1.5 * (1 if angle < 180 else -1)),
               tip, width)


def _step_glyph(surface, rect: pygame.Rect) -> None:
    """A ghost's footstep: a bold arrow onto the next square."""
    width = _width(rect, 0.11)
    y = rect.centery
    _arrow(surface, INK, (rect.left + rect.width * 0.16, y), (rect.right - rect.width * 0.14, y), width)
    for index in range(2):
        x = rect.left + rect.width * (0.2 + index * 0.2)
        pygame.draw.circle(surface, INK, (x, y + rect.height * 0.28), max(2, width // 2))


def _cross_glyph(surface, rect: pygame.Rect) -> None:
    inner = rect.inflate(-int(rect.width * 0.36), -int(rect.height * 0.36))
    width = _width(rect, 0.13)
    pygame.draw.line(surface, MISS_RED, inner.topleft, inner.bottomright, width)
    pygame.draw.line(surface, MISS_RED, inner.topright, inner.bottomleft, width)


def _target(surface, rect: pygame.Rect) -> None:
    width = _width(rect, 0.05)
    pygame.draw.circle(surface, INK, rect.center, rect.width // 2, width)
    pygame.draw.circle(surface, INK, rect.center, max(2, rect.width // 6))


def draw_die(surface, rect: pygame.Rect, symbol: str, highlight: bool = False) -> None:
    """One die showing `symbol` (cross, flip, step_or_flip, flip_any, step)."""
    radius = max(4, rect.width // 7)
    shadow = rect.move(_width(rect, 0.04), _width(rect, 0.04))
    pygame.draw.rect(surface, (0, 0, 0), shadow, border_radius=radius)
    pygame.draw.rect(surface, DIE_BODY, rect, border_radius=radius)
    pygame.draw.rect(surface, theme.ACCENT if highlight else DIE_EDGE, rect, _width(rect, 0.04),
                     border_radius=radius)
    face = rect.inflate(-int(rect.width * 0.12), -int(rect.height * 0.12))
    if symbol == "cross":
        _cross_glyph(surface, face)
    elif symbol == "flip":
        _flip_glyph(surface, face)
    elif symbol == "step":
        _step_glyph(surface, face)
    elif symbol == "step_or_flip":
        half = pygame.Rect(face.x, face.y, face.width * 0.58, face.height * 0.58)
        _step_glyph(surface, half)
        _flip_glyph(surface, pygame.Rect(face.right - half.width, face.bottom - half.height, half.width,
                                         half.height))
        pygame.draw.line(surface, INK, (face.right - face.width * 0.2, face.top + face.height * 0.15),
                         (face.left + face.width * 0.2, face.bottom - face.height * 0.15), _width(face, 0.035))
    elif symbol == "flip_any":
        _flip_glyph(surface, face.inflate(-face.width // 6, -face.height // 6).move(-face.width // 10,
                                                                                   face.height // 12))
        target = pygame.Rect(0, 0, face.width // 3, face.height // 3)
        target.topright = face.topright
        _target(surface, target)
    else:  # an unknown symbol from an edited data file: show its name rather than nothing
        from companion.ui.widgets import draw_text, fit_font
        draw_text(surface, symbol, fit_font(symbol, face.width, face.height // 4), INK, face.center, "center")


def draw_tile(surface, rect: pygame.Rect, marked: bool = False) -> None:
    """An attic tile; a marked one carries the (lost) hard-mode symbol, drawn as a star."""
    pygame.draw.rect(surface, TILE_FACE, rect, border_radius=max(2, rect.width // 8))
    pygame.draw.rect(surface, INK, rect, max(1, rect.width // 14), border_radius=max(2, rect.width // 8))
    if marked:
        star(surface, rect.inflate(-rect.width // 4, -rect.height // 4), theme.ACCENT)


def star(surface, rect: pygame.Rect, colour) -> None:
    points = []
    for index in range(10):
        radius = rect.width / 2 if index % 2 == 0 else rect.width / 5
        angle = -math.pi / 2 + index * math.pi / 5
        points.append((rect.centerx + math.cos(angle) * radius, rect.centery + math.sin(angle) * radius))
    pygame.draw.polygon(surface, colour, points)


def crystal(surface, rect: pygame.Rect, colour=(120, 200, 230)) -> None:
    points = [(rect.centerx, rect.top), (rect.right, rect.top + rect.height * 0.35), (rect.centerx, rect.bottom),
              (rect.left, rect.top + rect.height * 0.35)]
    pygame.draw.polygon(surface, colour, points)
    pygame.draw.polygon(surface, INK, points, max(1, rect.width // 10))


def key_icon(surface, rect: pygame.Rect, colour=theme.ACCENT) -> None:
    width = max(2, rect.height // 6)
    ring = pygame.Rect(rect.x, rect.y + rect.height // 4, rect.height // 2, rect.height // 2)
    pygame.draw.circle(surface, colour, ring.center, ring.width // 2, width)
    pygame.draw.line(surface, colour, (ring.right, ring.centery), (rect.right, ring.centery), width)
    pygame.draw.line(surface, colour, (rect.right - width, ring.centery), (rect.right - width, ring.bottom), width)


def draw_token(surface, rect: pygame.Rect, kind: str, detail: str | None = None, number: int | None = None,
               font=None) -> None:
    """A bag token: blank (grey, empty), nightmare (purple, with its number), madness (its colour, a spiral)."""
    centre, radius = rect.center, min(rect.size) // 2
    edge = max(2, radius // 10)
    if kind == "madness":
        colour = TOKEN_COLOURS.get(detail or "", (128, 128, 128))
        pygame.draw.circle(surface, colour, centre, radius)
        ink = INK if sum(colour) > 380 else theme.TEXT
        for turn in range(3):
            ring = pygame.Rect(0, 0, radius * (0.5 + 0.25 * turn), radius * (0.5 + 0.25 * turn))
            ring.center = centre
            pygame.draw.arc(surface, ink, ring, turn * 1.2, turn * 1.2 + 4.2, edge)
    elif kind == "nightmare":
        pygame.draw.circle(surface, NIGHTMARE_DISC, centre, radius)
        for index in range(3):  # three claw marks
            x = centre[0] + (index - 1) * radius * 0.34
            pygame.draw.line(surface, (150, 110, 170), (x - radius * 0.1, centre[1] - radius * 0.62),
                             (x + radius * 0.1, centre[1] - radius * 0.2), edge)
        if number is not None and font is not None:
            text = font.render(str(number), True, theme.TEXT)
            surface.blit(text, text.get_rect(center=(centre[0], centre[1] + radius * 0.25)))
    else:
        pygame.draw.circle(surface, BLANK_DISC, centre, radius)
        pygame.draw.circle(surface, (110, 106, 100), centre, int(radius * 0.6), edge)
    pygame.draw.circle(surface, (0, 0, 0), centre, radius, edge)


def draw_bag(surface, rect: pygame.Rect, colour=(120, 92, 64)) -> None:
    """A drawstring bag."""
    body = pygame.Rect(rect.x, rect.y + rect.height * 0.25, rect.width, rect.height * 0.75)
    pygame.draw.ellipse(surface, colour, body)
    neck = [(rect.centerx - rect.width * 0.18, rect.y + rect.height * 0.3),
            (rect.centerx - rect.width * 0.28, rect.y), (rect.centerx + rect.width * 0.28, rect.y),
            (rect.centerx + rect.width * 0.18, rect.y + rect.height * 0.3)]
    pygame.draw.polygon(surface, colour, neck)
    pygame.draw.line(surface, INK, (rect.centerx - rect.width * 0.2, rect.y + rect.height * 0.28),
                     (rect.centerx + rect.width * 0.2, rect.y + rect.height * 0.28), max(2, rect.width // 20))
