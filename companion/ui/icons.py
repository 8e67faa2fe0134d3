"""Small pictures drawn with pygame primitives, so no artwork has to be shipped."""
from __future__ import annotations

import math

import pygame

from companion.ui import theme


def gear(surface, rect: pygame.Rect, colour=theme.TEXT) -> None:
    centre, radius = rect.center, min(rect.size) // 2
    for index in range(8):
        angle = index * math.pi / 4
        tooth = (centre[0] + math.cos(angle) * radius * 0.85, centre[1] + math.sin(angle) * radius * 0.85)
        pygame.draw.circle(surface, colour, tooth, max(2, radius // 5))
    pygame.draw.circle(surface, colour, centre, int(radius * 0.7))
    pygame.draw.circle(surface, theme.BUTTON, centre, int(radius * 0.3))


def clock(surface, rect: pygame.Rect, colour=theme.TEXT) -> None:
    centre, radius = rect.center, min(rect.size) // 2
    pygame.draw.circle(surface, colour, centre, radius, max(2, radius // 6))
    pygame.draw.line(surface, colour, centre, (centre[0], centre[1] - radius * 0.6), max(2, radius // 6))
    pygame.draw.line(surface, colour, centre, (centre[0] + radius * 0.45, centre[1]), max(2, radius // 6))


def undo(surface, rect: pygame.Rect, colour=theme.TEXT) -> None:
    width = max(2, min(rect.size) // 10)
    radius = min(rect.size) // 2 - width * 2  # room for the arrow head inside the rect
    arc_rect = pygame.Rect(0, 0, radius * 2, radius * 2)
    arc_rect.center = rect.center
    pygame.draw.arc(surface, colour, arc_rect, -math.pi / 2, math.pi, width)
    tip = (arc_rect.left, arc_rect.centery)
    pygame.draw.polygon(surface, colour, [(tip[0] - width * 1.5, tip[1] - width), (tip[0] + width * 1.5, tip[1] - width),
                                          (tip[0], tip[1] + width * 1.5)])


def deck(surface, rect: pygame.Rect, colour=theme.TEXT) -> None:
    width, height = int(rect.width * 0.55), int(rect.height * 0.8)
    for offset in (2, 1, 0):
        card = pygame.Rect(0, 0, width, height)
        card.center = (rect.centerx + offset * rect.width // 10 - rect.width // 10, rect.centery - offset * 2)
        pygame.draw.rect(surface, theme.PANEL_LIGHT, card, border_radius=3)
        pygame.draw.rect(surface, colour, card, 2, border_radius=3)


def list_lines(surface, rect: pygame.Rect, colour=theme.TEXT) -> None:
    for row in range(4):
        y = rect.top + rect.height * (row + 0.5) / 4
        pygame.draw.circle(surface, colour, (rect.left + rect.width * 0.12, y), max(2, rect.height // 14))
        pygame.draw.line(surface, colour, (rect.left + rect.width * 0.28, y), (rect.right, y), max(2, rect.height // 12))


def eye(surface, rect: pygame.Rect, colour=theme.TEXT) -> None:
    box = rect.inflate(0, -rect.height // 3)
    pygame.draw.ellipse(surface, colour, box, max(2, rect.height // 12))
    pygame.draw.circle(surface, colour, rect.center, max(3, rect.height // 6))


def camera(surface, rect: pygame.Rect, colour=theme.TEXT) -> None:
    body = pygame.Rect(0, 0, int(rect.width * 0.9), int(rect.height * 0.62))
    body.midbottom = (rect.centerx, rect.bottom - rect.height // 10)
    bump = pygame.Rect(0, 0, rect.width // 3, rect.height // 6)
    bump.midbottom = (rect.centerx, body.top + 1)
    pygame.draw.rect(surface, colour, bump, border_radius=2)
    pygame.draw.rect(surface, colour, body, border_radius=max(2, rect.height // 10))
    pygame.draw.circle(surface, theme.BUTTON, body.center, int(body.height * 0.36))
    pygame.draw.circle(surface, colour, body.center, int(body.height * 0.2))


GAME_EMBLEMS = {
    # key: (colour, shape) — a quick visual cue for each game on the launcher
    "nightmarium": ((120, 70, 150), "eye"),
    "attic-monster": ((150, 110, 60), "house"),
    "nemesis-nightmares": ((60, 120, 140), "star"),
    "cthulhu-pocket-madness": ((60, 130, 100), "tentacle"),
}


def game_emblem(surface, rect: pygame.Rect, key: str) -> None:
    colour, shape = GAME_EMBLEMS.get(key, (theme.PANEL_LIGHT, "eye"))
    pygame.draw.circle(surface, colour, rect.center, min(rect.size) // 2)
    inner = rect.inflate(-rect.width // 3, -rect.height // 3)
    if shape == "eye":
        eye(surface, inner)
    elif shape == "house":
        points = [(inner.left, inner.centery), (inner.centerx, inner.top), (inner.right, inner.centery)]
        pygame.draw.polygon(surface, theme.TEXT, points)
        pygame.draw.rect(surface, theme.TEXT, (inner.left + inner.width // 5, inner.centery,
                                                inner.width * 3 // 5, inner.height // 2))
    elif shape == "star":
        points = []
        for index in range(10):
            radius = inner.width / 2 if index % 2 == 0 else inner.width / 5
            angle = -math.pi / 2 + index * math.pi / 5
            points.append((inner.centerx + math.cos(angle) * radius, inner.centery + math.sin(angle) * radius))
        pygame.draw.polygon(surface, theme.TEXT, points)
    else:
        for index in range(3):
            start = (inner.left + inner.width * (index + 0.5) / 3, inner.bottom)
            end = (inner.left + inner.width * (index + 0.5) / 3 + (index - 1) * inner.width / 6, inner.top)
            pygame.draw.line(surface, theme.TEXT, start, end, max(2, inner.width // 8))
