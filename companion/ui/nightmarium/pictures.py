"""Nightmarium cards drawn by code: a card in its legion's colour with the body-part silhouette and the ability
icon, creatures as stacks of cards (legs at the bottom), all with pygame primitives (no scans are used here)."""
from __future__ import annotations

import math

import pygame

from companion.ui import theme

PART_ORDER = ("legs", "torso", "head")


def _value(item) -> str | None:
    return None if item is None else getattr(item, "value", item)


def legion_colour(legion) -> tuple[int, int, int]:
    return theme.LEGION_COLOURS.get(_value(legion), theme.PANEL_LIGHT)


def darker(colour, factor: float = 0.6):
    return tuple(int(channel * factor) for channel in colour)


def lighter(colour, amount: int = 60):
    return tuple(min(255, channel + amount) for channel in colour)


def silhouette(surface, rect: pygame.Rect, parts, highlight: str | None = None) -> None:
    """A small figure: head, torso, legs; the positions the card may take are bright, the others faint."""
    allowed = {_value(part) for part in parts}
    bright, faint = (245, 240, 230), (255, 255, 255, 0)
    faint = darker(theme.TEXT, 0.45)
    unit = rect.height / 7
    cx = rect.centerx
    width = max(1, int(unit * 0.9))

    def colour(part):
        if highlight == part:
            return theme.ACCENT
        return bright if part in allowed else faint

    pygame.draw.circle(surface, colour("head"), (cx, rect.top + unit * 1.1), max(2, unit * 1.05))
    torso = pygame.Rect(0, 0, max(3, unit * 2.2), max(3, unit * 2.3))
    torso.midtop = (cx, rect.top + unit * 2.35)
    pygame.draw.rect(surface, colour("torso"), torso, border_radius=max(1, int(unit * 0.6)))
    hip_y = torso.bottom
    foot_y = rect.top + unit * 7
    pygame.draw.line(surface, colour("legs"), (cx - unit * 0.6, hip_y), (cx - unit * 1.1, foot_y), width + 1)
    pygame.draw.line(surface, colour("legs"), (cx + unit * 0.6, hip_y), (cx + unit * 1.1, foot_y), width + 1)


def ability_icon(surface, rect: pygame.Rect, ability, colour=theme.TEXT) -> None:
    """One symbol per ability: note (Herald), tear (Mourner), jester's cap, axe, bone (Scavenger), jaws."""
    ability = _value(ability)
    if ability is None:
        return
    size = min(rect.size)
    box = pygame.Rect(0, 0, size, size)
    box.center = rect.center
    line = max(2, size // 9)
    if ability == "herald":
        head = (box.left + size * 0.32, box.top + size * 0.74)
        pygame.draw.ellipse(surface, colour, (head[0] - size * 0.18, head[1] - size * 0.13, size * 0.36, size * 0.26))
        stem_x = head[0] + size * 0.15
        pygame.draw.line(surface, colour, (stem_x, head[1]), (stem_x, box.top + size * 0.12), line)
        pygame.draw.line(surface, colour, (stem_x, box.top + size * 0.12), (box.left + size * 0.82, box.top + size * 0.3), line)
    elif ability == "mourner":
        points = [(box.centerx, box.top + size * 0.08)]
        for step in range(0, 181, 15):
            angle = math.radians(step)
            points.append((box.centerx + math.cos(angle) * size * 0.28, box.top + size * 0.64 + math.sin(angle) * size * 0.28))
        pygame.draw.polygon(surface, colour, points)
    elif ability == "jester":
        base_y = box.top + size * 0.78
        tips = [(box.left + size * 0.12, box.top + size * 0.25), (box.centerx, box.top + size * 0.1),
                (box.right - size * 0.12, box.top + size * 0.25)]
        for tip, anchor in zip(tips, ((0.2, 0.5), (0.35, 0.65), (0.5, 0.8))):
            pygame.draw.polygon(surface, colour, [(box.left + size * anchor[0], base_y),
                                                  (box.left + size * anchor[1], base_y), tip])
            pygame.draw.circle(surface, colour, tip, max(2, size // 10))
        pygame.draw.rect(surface, colour, (box.left + size * 0.18, base_y - 1, size * 0.64, size * 0.12))
    elif ability == "executioner":
        pygame.draw.line(surface, colour, (box.left + size * 0.25, box.bottom - size * 0.1),
                         (box.left + size * 0.62, box.top + size * 0.2), line)
        blade = [(box.left + size * 0.5, box.top + size * 0.08), (box.right - size * 0.08, box.top + size * 0.2),
                 (box.right - size * 0.2, box.top + size * 0.58), (box.left + size * 0.62, box.top + size * 0.38)]
        pygame.draw.polygon(surface, colour, blade)
    elif ability == "scavenger":
        start = (box.left + size * 0.25, box.bottom - size * 0.25)
        end = (box.right - size * 0.25, box.top + size * 0.25)
        pygame.draw.line(surface, colour, start, end, line + 1)
        for x, y in (start, end):
            for dx, dy in ((-1, 0.4), (0.4, 1)) if (x, y) == start else ((1, -0.4), (-0.4, -1)):
                pygame.draw.circle(surface, colour, (x + dx * size * 0.08, y + dy * size * 0.08), max(2, size // 8))
    elif ability == "devourer":
        pygame.draw.circle(surface, colour, box.center, size * 0.42)
        mouth = [box.center, (box.right, box.top + size * 0.22), (box.right, box.bottom - size * 0.22)]
        pygame.draw.polygon(surface, darker(colour, 0.25), mouth)
        for index in range(3):
            x = box.centerx + size * (0.15 + index * 0.11)
            pygame.draw.polygon(surface, colour, [(x, box.centery - size * (0.07 + index * 0.04)),
                                                  (x + size * 0.05, box.centery - size * (0.07 + index * 0.04)),
                                                  (x + size * 0.025, box.centery)])


def draw_card(surface, rect: pygame.Rect, card, slot: str | None = None, selected: bool = False,
              dim: bool = False) -> None:
    """One card as a small landscape tile: legion colour, silhouette (left), ability icon (right)."""
    legion = _value(card.legion)
    is_seal = getattr(card, "is_seal", False)
    fill = legion_colour(legion)
    if dim:
        fill = darker(fill, 0.55)
    radius = max(2, min(rect.size) // 7)
    pygame.draw.rect(surface, fill, rect, border_radius=radius)
    pygame.draw.rect(surface, darker(fill, 0.5), rect, width=max(1, min(rect.size) // 18), border_radius=radius)
    if is_seal:
        pygame.draw.circle(surface, theme.SEAL_RIM, rect.center, min(rect.size) * 0.36, max(2, min(rect.size) // 10))
        pygame.draw.circle(surface, lighter(fill, 40), rect.center, min(rect.size) * 0.2)
    else:
        inner = rect.inflate(-max(2, rect.width // 14), -max(2, rect.height // 8))
        figure = pygame.Rect(inner.left, inner.top, inner.height * 0.7, inner.height)
        silhouette(surface, figure, getattr(card, "parts", ()), highlight=slot)
        if card.ability is not None:
            icon = pygame.Rect(0, 0, inner.height * 0.9, inner.height * 0.9)
            icon.midright = (inner.right, inner.centery)
            pygame.draw.circle(surface, darker(fill, 0.55), icon.center, icon.width * 0.56)
            ability_icon(surface, icon.inflate(-icon.width // 5, -icon.height // 5), card.ability)
    if selected:
        pygame.draw.rect(surface, theme.FOCUS, rect.inflate(4, 4), width=3, border_radius=radius + 2)


CARD_ASPECT = 0.62  # height / width of a printed card
SLOT_GAP = 0.06  # gap between the cards of a creature, as a share of a card's height


def creature_size(card_width: int) -> tuple[int, int]:
    """Width and height of a full creature drawn with cards `card_width` wide."""
    card_height = card_width * CARD_ASPECT
    return card_width, int(card_height * (3 + 2 * SLOT_GAP))


def creature_width(height: int) -> int:
    """The natural width of a creature drawn `height` px tall."""
    return int(height / (3 + 2 * SLOT_GAP) / CARD_ASPECT)


def draw_creature(surface, rect: pygame.Rect, creature, highlight: bool = False, dim: bool = False) -> list:
    """Cards bottom-up in their three slots (legs at the bottom, empty slots left dark) as the creature grows on
    the table; returns [(card rect, height index)] for hit tests."""
    card_height = int(rect.height / (3 + 2 * SLOT_GAP))
    step = (rect.height - card_height) // 2
    hits = []
    cards = list(creature.cards)
    for height in range(3):
        card_rect = pygame.Rect(rect.left, rect.bottom - card_height - height * step, rect.width, card_height)
        if height < len(cards):
            card, part = cards[height]
            draw_card(surface, card_rect, card, _value(part), dim=dim)
            hits.append((card_rect, height))
        else:
            pygame.draw.rect(surface, darker(theme.PANEL, 0.8), card_rect, width=1, border_radius=max(2, card_height // 7))
    top = rect.top
    if creature.seal is not None and cards:
        seal = pygame.Rect(0, 0, card_height * 0.8, card_height * 0.8)
        seal.center = (rect.right - seal.width * 0.25, top + seal.height * 0.25)
        pygame.draw.circle(surface, theme.SEAL_RIM, seal.center, seal.width / 2)
        pygame.draw.circle(surface, legion_colour(creature.seal.legion), seal.center, seal.width / 3)
    if creature.complete:
        size = max(12, card_height // 2)
        mark = pygame.Rect(0, 0, size, size)
        mark.center = (rect.left + size // 3, top + size // 3)
        pygame.draw.circle(surface, theme.GOOD, mark.center, size / 2)
        pygame.draw.lines(surface, theme.TEXT, False, [(mark.left + size * 0.25, mark.centery),
                                                        (mark.left + size * 0.45, mark.bottom - size * 0.28),
                                                        (mark.right - size * 0.22, mark.top + size * 0.3)],
                          max(2, size // 6))
    if highlight:
        pygame.draw.rect(surface, theme.FOCUS, rect.inflate(6, 6), width=3, border_radius=6)
    return hits


def hand_icon(surface, rect: pygame.Rect, colour=theme.TEXT_DIM) -> None:
    """Two fanned card backs: the number next to it is the hand size."""
    for offset in (0, 1):
        card = pygame.Rect(0, 0, rect.width * 0.55, rect.height * 0.85)
        card.midbottom = (rect.centerx - rect.width * 0.12 + offset * rect.width * 0.24, rect.bottom - offset * 2)
        pygame.draw.rect(surface, theme.PANEL_LIGHT, card, border_radius=2)
        pygame.draw.rect(surface, colour, card, 1, border_radius=2)


def pips(surface, left: int, centre_y: int, total: int, filled: int, radius: int, colour=theme.ACCENT) -> int:
    """Action pips: filled circles for actions left. Returns the x after the last pip."""
    x = left + radius
    for index in range(total):
        if index < filled:
            pygame.draw.circle(surface, colour, (x, centre_y), radius)
        else:
            pygame.draw.circle(surface, colour, (x, centre_y), radius, max(1, radius // 3))
        x += radius * 3
    return x
