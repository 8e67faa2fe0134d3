"""Seeded synthetic table scenes: card faces composited onto a table seen by a tilted camera, with ground truth.

A layout maps seat -> creatures -> card ids (legs first). Seats sit around a rectangular table: seat 0 at the
bottom edge of the frame, then 1 left, 2 top, 3 right; each seat's cards have their tops pointing away from the
owner. With the scans folder present the real faces are used; without it, stand-in faces drawn by code.
"""
from __future__ import annotations

from dataclasses import dataclass, field

import numpy as np

from .cards import CARD_ASPECT, CARD_HEIGHT, CARD_WIDTH, CORNER_RADIUS, all_cards, card_by_id, load_scan
from .frames import block_means
from .layout import EMBLEM_BOX
from .lens import seen_through, through_lens
from .standin import card_back, standin_face

FRAME_SIZE = (1640, 1232)
CARD_DEPTH = 1.0 / CARD_ASPECT  # card height in card-width units
SEAT_UP = {0: (0.0, -1.0), 1: (1.0, 0.0), 2: (0.0, 1.0), 3: (-1.0, 0.0)}
SLOTS = ("legs", "torso", "head")


@dataclass
class CardTruth:
    card_id: int
    legion: str
    parts: tuple[str, ...]
    ability: str | None
    corners: np.ndarray  # 4x2 image points: the card's own top-left, top-right, bottom-right, bottom-left
    seat: int | None = None
    creature: int | None = None
    slot: str | None = None
    visible: float = 1.0  # fraction of the card not under a hand
    emblem_visible: bool = True

    @property
    def occluded(self) -> bool:
        return self.visible < 0.9 or not self.emblem_visible

    @property
    def width_px(self) -> float:
        return float(np.linalg.norm(self.corners[1] - self.corners[0]))


@dataclass
class Scene:
    frame: np.ndarray
    cards: list[CardTruth]
    table_corners: np.ndarray  # 4x2 image points of the table rectangle: seat 0's left, right, then far right, far left
    layout: dict[int, list[list[int]]] = field(default_factory=dict)
    discard_id: int | None = None
    conditions: "Conditions | None" = None


@dataclass
class Conditions:
    """Everything that varies between scenes besides the layout."""

    card_width_px: float = 220.0
    tilt_deg: float = 0.0
    tilt_axis_deg: float = 0.0
    spin_deg: float = 0.0
    brightness: float = 1.0
    warmth: float = 0.0  # -1 cool .. +1 warm
    noise: float = 2.0
    blur: float = 0.0
    jpeg_quality: int = 92
    glare: bool = False
    shadow: bool = False
    hand: bool = False
    table: str = "wood"
    jitter_deg: float = 4.0
    markers: bool = False

    @classmethod
    def random(cls, rng: np.random.Generator, width_range=(140.0, 330.0)) -> "Conditions":
        return cls(
            card_width_px=float(rng.uniform(*width_range)),
            tilt_deg=float(rng.uniform(0, 25)),
            tilt_axis_deg=float(rng.uniform(0, 360)),
            spin_deg=float(rng.uniform(-8, 8)),
            brightness=float(rng.uniform(0.45, 1.3)),
            warmth=float(rng.uniform(-1, 1)),
            noise=float(rng.uniform(1, 7)),
            blur=float(rng.choice([0.0, rng.uniform(0.3, 1.3)])),
            jpeg_quality=int(rng.integers(55, 96)),
            glare=bool(rng.random() < 0.5),
            shadow=bool(rng.random() < 0.5),
            hand=bool(rng.random() < 0.4),
            table=str(rng.choice(TABLES)),
            jitter_deg=float(rng.uniform(0, 8)),
        )


TABLES = ("wood", "felt", "light", "dark", "cloth")


# Where a card with no ability is shown other art of its own (`icon_art`, for training crops: stop 31's trial, see
# docs/vision-history.md): the icon's place, short of the legion stripe, and the art it is taken from (the card's
# middle).
ICON_ART_BOX = (850, 165, 972, 312)
ART_SOURCE_BOX = (120, 60, 700, 560)
ICON_ART_FEATHER = 20  # scan pixels over which the other art fades in, from an oval: no seam for the heads to learn


def with_other_art(bgr: np.ndarray, rng: np.random.Generator) -> np.ndarray:
    """The face with a piece of its own art, turned at random, where an ability icon would be."""
    import cv2

    x0, y0, x1, y1 = ICON_ART_BOX
    width, height = x1 - x0, y1 - y0
    sx = int(rng.integers(ART_SOURCE_BOX[0], ART_SOURCE_BOX[2] - width))
    sy = int(rng.integers(ART_SOURCE_BOX[1], ART_SOURCE_BOX[3] - height))
    piece = bgr[sy:sy + height, sx:sx + width]
    piece = piece[::int(rng.choice((-1, 1))), ::int(rng.choice((-1, 1)))]
    mask = np.zeros((height, width), np.float32)
    f = ICON_ART_FEATHER
    cv2.ellipse(mask, (width // 2, height // 2), (width // 2 - f, height // 2 - f), 0, 0, 360, 1.0, -1)
    mask = cv2.GaussianBlur(mask, (0, 0), f / 2)[..., None]
    out = bgr.copy()
    region = out[y0:y1, x0:x1].astype(np.float32)
    out[y0:y1, x0:x1] = np.clip(region * (1 - mask) + piece.astype(np.float32) * mask, 0, 255).astype(np.uint8)
    return out


def reprinted(bgr: np.ndarray, hue_degrees: float = 0.0, saturation: float = 1.0) -> np.ndarray:
    """The face as another printing (or a camera whose colours differ) would show it: hues turned by
    `hue_degrees`, saturation scaled by `saturation`. White stays white, so the white balance cannot undo it."""
    import cv2

    if hue_degrees == 0 and saturation == 1:
        return bgr
    hsv = cv2.cvtColor(bgr, cv2.COLOR_BGR2HSV).astype(np.float32)
    hsv[..., 0] = (hsv[..., 0] + hue_degrees / 2) % 180  # OpenCV's hue runs 0-180
    hsv[..., 1] = np.clip(hsv[..., 1] * saturation, 0, 255)
    return cv2.cvtColor(hsv.astype(np.uint8), cv2.COLOR_HSV2BGR)


class FaceBook:
    """Card faces with an alpha channel for rounded corners, cached; scans where present, stand-ins otherwise.
    With `icon_art` (a share, and a generator to draw with), that share of the faces of cards with no ability are
    shown with other art of their own where an icon would be: training crops of art that is not an icon. With
    `printing` (hue degrees, saturation scale), the faces are `reprinted` so."""

    def __init__(self, use_scans: bool = True, icon_art: float = 0.0, rng: np.random.Generator | None = None,
                 printing: tuple[float, float] | None = None):
        self.use_scans = use_scans
        self.icon_art = icon_art
        self.printing = printing
        self._rng = rng if rng is not None else np.random.default_rng(0)
        self._faces: dict[int, np.ndarray] = {}
        self._alpha = _rounded_alpha()

    def face(self, card_id: int | None) -> np.ndarray:
        face = self._cached_face(card_id)
        if self.icon_art and card_id is not None and card_by_id(card_id).ability is None \
                and self._rng.random() < self.icon_art:
            return np.dstack([with_other_art(face[..., :3], self._rng), self._alpha])
        return face

    def _cached_face(self, card_id: int | None) -> np.ndarray:
        key = -1 if card_id is None else card_id
        if key not in self._faces:
            if card_id is None:
                bgr = card_back()
            else:
                card = card_by_id(card_id)
                bgr = load_scan(card) if self.use_scans else None
                if bgr is None:
                    bgr = standin_face(card)
                if self.printing is not None:
                    bgr = reprinted(bgr, *self.printing)
            self._faces[key] = np.dstack([bgr, self._alpha])
        return self._faces[key]


def _rounded_alpha() -> np.ndarray:
    import cv2

    alpha = np.zeros((CARD_HEIGHT, CARD_WIDTH), np.uint8)
    r = CORNER_RADIUS
    cv2.rectangle(alpha, (r, 0), (CARD_WIDTH - 1 - r, CARD_HEIGHT - 1), 255, -1)
    cv2.rectangle(alpha, (0, r), (CARD_WIDTH - 1, CARD_HEIGHT - 1 - r), 255, -1)
    for cx, cy in ((r, r), (CARD_WIDTH - 1 - r, r), (r, CARD_HEIGHT - 1 - r), (CARD_WIDTH - 1 - r, CARD_HEIGHT - 1 - r)):
        cv2.circle(alpha, (cx, cy), r, 255, -1, cv2.LINE_AA)
    return alpha


def table_texture(kind: str, size: tuple[int, int], rng: np.random.Generator, pixel_scale: int = 1) -> np.ndarray:
    """A table of that kind, `size` pixels; `pixel_scale` times finer than a FRAME_SIZE picture's pixels (the same
    draws of `rng` give the same table at any scale)."""
    import cv2

    width, height = size

    def noise(scale: int) -> np.ndarray:
        scale *= pixel_scale
        small = rng.standard_normal((max(2, height // scale), max(2, width // scale))).astype(np.float32)
        return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)

    if kind == "wood":
        ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
        grain = np.sin((ys / pixel_scale + 25 * noise(90)) / rng.uniform(6, 14)) * 0.5 + 0.5
        base = np.array(rng.choice([(40, 80, 140), (60, 105, 160), (30, 55, 95)]), np.float32)
        image = base[None, None] * (0.8 + 0.3 * grain[..., None]) + 6 * noise(4)[..., None]
    elif kind == "felt":
        base = np.array(rng.choice([(60, 110, 40), (110, 60, 30), (50, 50, 120)]), np.float32)
        image = base[None, None] + 10 * noise(2)[..., None] + 8 * noise(40)[..., None]
    elif kind == "light":
        base = np.array(rng.choice([(215, 220, 225), (190, 200, 205), (235, 235, 230)]), np.float32)
        image = base[None, None] + 5 * noise(3)[..., None] + 10 * noise(120)[..., None]
    elif kind == "dark":
        base = np.array(rng.choice([(25, 25, 28), (40, 35, 30)]), np.float32)
        image = base[None, None] + 4 * noise(2)[..., None]
    else:  # checked cloth
        ys, xs = np.mgrid[0:height, 0:width]
        period = int(rng.integers(8, 22)) * pixel_scale
        check = (((xs // period) + (ys // period)) % 2).astype(np.float32)
        a = np.array(rng.choice([(200, 200, 210), (60, 60, 170)]), np.float32)
        b = np.array(rng.choice([(120, 160, 200), (230, 230, 230)]), np.float32)
        image = a[None, None] * check[..., None] + b[None, None] * (1 - check[..., None]) + 6 * noise(2)[..., None]
    return image.clip(0, 255).astype(np.float32)


def camera_homography(conditions: Conditions, size: tuple[int, int]) -> np.ndarray:
    """Table plane (card-width units, origin at the table centre) to image pixels, for a tilted pinhole camera."""
    import cv2

    width, height = size
    focal = 1.1 * width
    scale = conditions.card_width_px
    spin = np.deg2rad(conditions.spin_deg)
    axis_angle = np.deg2rad(conditions.tilt_axis_deg)
    axis = np.array([np.cos(axis_angle), np.sin(axis_angle), 0.0]) * np.deg2rad(conditions.tilt_deg)
    rotation, _ = cv2.Rodrigues(axis)
    planar = np.array([[np.cos(spin) * scale, -np.sin(spin) * scale, 0],
                       [np.sin(spin) * scale, np.cos(spin) * scale, 0],
                       [0, 0, 1.0]])
    extrinsic = np.column_stack([rotation[:, 0], rotation[:, 1], [0, 0, focal]])
    intrinsic = np.array([[focal, 0, width / 2], [0, focal, height / 2], [0, 0, 1.0]])
    return intrinsic @ extrinsic @ planar


def project(homography: np.ndarray, points: np.ndarray) -> np.ndarray:
    points = np.asarray(points, np.float64).reshape(-1, 2)
    mapped = np.column_stack([points, np.ones(len(points))]) @ homography.T
    return mapped[:, :2] / mapped[:, 2:3]


def _card_rect(origin, up, u0: float, v0: float, angle: float = 0.0) -> np.ndarray:
    """Table-plane corners (TL, TR, BR, BL of the card itself) of a card at (u0, v0) in a seat's frame."""
    up = np.array(up)
    right = np.array([-up[1], up[0]])
    local = np.array([[u0, v0 + CARD_DEPTH], [u0 + 1, v0 + CARD_DEPTH], [u0 + 1, v0], [u0, v0]])
    if angle:
        centre = local.mean(axis=0)
        c, s = np.cos(angle), np.sin(angle)
        local = (local - centre) @ np.array([[c, s], [-s, c]]) + centre
    return np.asarray(origin) + local[:, :1] * right + local[:, 1:2] * up


class SceneGenerator:
    def __init__(self, seed: int = 0, size: tuple[int, int] = FRAME_SIZE, card_ids=None, use_scans: bool = True,
                 icon_art: float = 0.0, printing: tuple[float, float] | None = None, touching: bool = False,
                 lens: float = 0.0, pixel_scale: int = 1, binned: bool = False):
        """`touching`: each seat's creatures are pushed together side by side, as on a crowded table, instead of
        lying a third of a card apart. `lens`: the scenes are seen through a lens bending so (`vision.lens`; < 0,
        barrel, as a wide-angle lens). `pixel_scale`: tables seen in pictures that many times `size` each way, as a
        camera sensor read at full resolution instead of binned gives them: the cards' widths (`random_scene`'s
        `width_range` stays in pixels of `size`), the blur, the sensor noise (read without binning's averaging) and the
        table's texture all scale with it. `binned`: such a sensor read in its binned mode, each `pixel_scale` x
        `pixel_scale` block of pixels averaged into one before the picture is compressed: the scenes come at `size`."""
        self.rng = np.random.default_rng(seed)
        self.touching = touching
        self.lens = lens
        self.pixel_scale = pixel_scale
        self.binning = pixel_scale if binned else 1
        self.size = (size[0] * pixel_scale, size[1] * pixel_scale)
        # Its own generator, so the scenes drawn are the same whatever the share.
        self.faces = FaceBook(use_scans, icon_art, np.random.default_rng([seed, 1]), printing)
        self.card_ids = list(card_ids) if card_ids is not None else [c.id for c in all_cards()]

    def random_layout(self, max_per_seat: int = 3) -> dict[int, list[list[int]]]:
        pool = list(self.rng.permutation(self.card_ids))
        layout: dict[int, list[list[int]]] = {}
        for seat in range(4):
            creatures = []
            for _ in range(int(self.rng.integers(0, max_per_seat + 1))):
                height = int(self.rng.integers(1, 4))
                column = [int(pool.pop()) for _ in range(height) if pool]
                if column:
                    creatures.append(column)
            if creatures:
                layout[seat] = creatures
        return layout

    def random_scene(self, width_range=(140.0, 330.0), **overrides) -> Scene:
        conditions = self._conditions(width_range, overrides)
        discard = int(self.rng.choice(self.card_ids)) if self.rng.random() < 0.7 else None
        return self.render(self.random_layout(), conditions, discard_id=discard, deck=bool(self.rng.random() < 0.6))

    def lone_scene(self, width_range=(140.0, 330.0), **overrides) -> Scene:
        """One card alone before a random seat, the deck in the middle in 60% of the scenes and no discard yet: the
        table as a game starts."""
        conditions = self._conditions(width_range, overrides)
        layout = {int(self.rng.integers(4)): [[int(self.rng.choice(self.card_ids))]]}
        return self.render(layout, conditions, deck=bool(self.rng.random() < 0.6))

    def _conditions(self, width_range, overrides: dict) -> Conditions:
        scale = self.pixel_scale
        conditions = Conditions.random(self.rng, (width_range[0] * scale, width_range[1] * scale))
        # A lens blurs the same share of the picture; binning would average scale x scale pixels' noise.
        conditions.blur *= scale
        conditions.noise *= scale
        for key, value in overrides.items():
            setattr(conditions, key, value)
        return conditions

    @staticmethod
    def _apart(rng, seat: int, creatures: list[list[int]], origin, conditions: Conditions) -> list:
        """(column, card rects) of a seat's creatures laid a third of a card apart, each turned a little its own way."""
        up = SEAT_UP[seat]
        span = len(creatures) * 1.0 + (len(creatures) - 1) * 0.35
        u = -span / 2 + rng.uniform(-0.3, 0.3)
        laid = []
        for column in creatures:
            angle = np.deg2rad(rng.uniform(-1, 1) * conditions.jitter_deg)
            rects = []
            for slot_index, _ in enumerate(column):
                # Cards lie edge to edge; a hand never lines them up perfectly.
                rects.append(_card_rect(origin, up, u + rng.uniform(-0.015, 0.015),
                                        0.08 + slot_index * CARD_DEPTH, np.deg2rad(rng.uniform(-0.8, 0.8))))
            laid.append((column, _turned(rects, angle)))
            u += 1.0 + rng.uniform(0.25, 0.5)
        return laid

    @staticmethod
    def _touching(rng, seat: int, creatures: list[list[int]], origin, conditions: Conditions) -> list:
        """(column, card rects) of a seat's creatures pushed together side by side (a few hundredths of a card
        apart, so no two overlap), the row turned as one."""
        up = SEAT_UP[seat]
        gaps = rng.uniform(0.01, 0.04, max(len(creatures) - 1, 0))
        u = -(len(creatures) + gaps.sum()) / 2 + rng.uniform(-0.3, 0.3)
        laid = []
        for index, column in enumerate(creatures):
            rects = [_card_rect(origin, up, u + rng.uniform(-0.005, 0.005), 0.08 + slot_index * CARD_DEPTH,
                                np.deg2rad(rng.uniform(-0.3, 0.3))) for slot_index in range(len(column))]
            laid.append((column, rects))
            u += 1.0 + (gaps[index] if index < len(gaps) else 0.0)
        angle = np.deg2rad(rng.uniform(-1, 1) * conditions.jitter_deg)
        turned = _turned([rect for _, rects in laid for rect in rects], angle)
        return [(column, [turned.pop(0) for _ in column]) for column, _ in laid]

    def render(self, layout: dict[int, list[list[int]]], conditions: Conditions | None = None,
               discard_id: int | None = None, deck: bool = False) -> Scene:
        """Draw `layout` with the given conditions. Creatures that do not fit on the table or in the frame are
        left out (and absent from the ground truth and the returned layout)."""

        conditions = conditions or Conditions()
        rng = self.rng
        width, height = self.size
        homography = camera_homography(conditions, self.size)
        inverse = np.linalg.inv(homography)
        frame_corners = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float64)
        table_quad = project(inverse, frame_corners)
        half_x = 0.92 * np.abs(table_quad[:, 0]).min()
        half_y = 0.92 * np.abs(table_quad[:, 1]).min()
        origins = {0: (0.0, half_y), 1: (-half_x, 0.0), 2: (0.0, -half_y), 3: (half_x, 0.0)}

        placed: list[tuple[np.ndarray, dict]] = []  # table-plane rect, truth fields
        boxes: list[np.ndarray] = []
        kept_layout: dict[int, list[list[int]]] = {}

        def fits(rects: list[np.ndarray]) -> bool:
            lo = np.min([r.min(axis=0) for r in rects], axis=0) - 0.12
            hi = np.max([r.max(axis=0) for r in rects], axis=0) + 0.12
            if lo[0] < -half_x - 0.2 or hi[0] > half_x + 0.2 or lo[1] < -half_y - 0.2 or hi[1] > half_y + 0.2:
                return False
            image = project(homography, np.concatenate(rects))
            if (image < 4).any() or (image[:, 0] > width - 4).any() or (image[:, 1] > height - 4).any():
                return False
            return all(hi[0] < b[0] or lo[0] > b[2] or hi[1] < b[1] or lo[1] > b[3] for b in boxes)

        def claim(rects: list[np.ndarray]) -> None:
            lo = np.min([r.min(axis=0) for r in rects], axis=0) - 0.12
            hi = np.max([r.max(axis=0) for r in rects], axis=0) + 0.12
            boxes.append(np.array([lo[0], lo[1], hi[0], hi[1]]))

        corner_x, corner_y = half_x - 0.3, half_y - 0.3  # the table corners; markers sit centred on them
        if conditions.markers:
            for sx in (-1, 1):
                for sy in (-1, 1):
                    claim([np.array([[sx * corner_x - 0.25, sy * corner_y - 0.25],
                                     [sx * corner_x + 0.25, sy * corner_y + 0.25]])])

        if deck or discard_id is not None:
            middle = []
            for centre_x in (-0.7, 0.7):
                rect = _card_rect((0, 0), SEAT_UP[int(rng.integers(0, 4))], -0.5, -CARD_DEPTH / 2,
                                  np.deg2rad(rng.uniform(-10, 10)))
                middle.append(rect + [centre_x, 0.0])
            if fits(middle):
                claim(middle)
                if deck:
                    placed.append((middle[0], {"card_id": None}))
                if discard_id is not None:
                    placed.append((middle[1], {"card_id": discard_id}))
            else:
                discard_id = None

        for seat, creatures in layout.items():
            laid = self._touching(rng, seat, creatures, origins[seat], conditions) if self.touching else \
                self._apart(rng, seat, creatures, origins[seat], conditions)
            if self.touching:
                # A row pushed together is one block on the table: as many of its creatures as fit, from the first.
                while laid and not fits([rect for _, rects in laid for rect in rects]):
                    laid.pop()
                if laid:
                    claim([rect for _, rects in laid for rect in rects])
            else:
                apart = []
                for column, rects in laid:
                    if fits(rects):
                        claim(rects)
                        apart.append((column, rects))
                laid = apart
            for creature, (column, rects) in enumerate(laid):
                for slot_index, (rect, card_id) in enumerate(zip(rects, column)):
                    placed.append((rect, {"card_id": card_id, "seat": seat, "creature": creature,
                                          "slot": SLOTS[slot_index]}))
            if laid:
                kept_layout[seat] = [column for column, _ in laid]

        frame = table_texture(conditions.table, self.size, rng, self.pixel_scale)
        if conditions.markers:
            _draw_markers(frame, homography, corner_x, corner_y)
        truths: list[CardTruth] = []
        for rect, info in placed:
            corners = project(homography, rect)
            _composite(frame, self.faces.face(info["card_id"]), corners, self.pixel_scale)
            if info["card_id"] is not None:
                card = card_by_id(info["card_id"])
                truths.append(CardTruth(card.id, card.legion, card.parts, card.ability, corners,
                                        info.get("seat"), info.get("creature"), info.get("slot")))

        _light(frame, conditions, rng, truths, self.pixel_scale)
        if conditions.hand and truths:
            _hand(frame, rng, truths)
        table_corners = project(homography, np.array([[-corner_x, corner_y], [corner_x, corner_y],
                                                      [corner_x, -corner_y], [-corner_x, -corner_y]]))
        if self.lens:
            frame = through_lens(frame, self.lens)
            for truth in truths:
                truth.corners = seen_through(truth.corners, self.lens, self.size)
            table_corners = seen_through(table_corners, self.lens, self.size)
        frame = _sensor(frame, conditions, rng, self.binning)
        if self.binning != 1:
            for truth in truths:
                truth.corners = truth.corners / self.binning
            table_corners = table_corners / self.binning
        return Scene(frame, truths, table_corners, kept_layout, discard_id, conditions)


def _turned(rects: list[np.ndarray], angle: float) -> list[np.ndarray]:
    """The rects turned together by `angle` (radians) about their common centre."""
    centre = np.concatenate(rects).mean(axis=0)
    c, s = np.cos(angle), np.sin(angle)
    return [(r - centre) @ np.array([[c, s], [-s, c]]) + centre for r in rects]


def _composite(frame: np.ndarray, face: np.ndarray, corners: np.ndarray, pixel_scale: int = 1) -> None:
    import cv2

    height, width = frame.shape[:2]
    x0, y0 = np.floor(corners.min(axis=0)).astype(int) - 2
    x1, y1 = np.ceil(corners.max(axis=0)).astype(int) + 2
    x0, y0, x1, y1 = max(x0, 0), max(y0, 0), min(x1, width), min(y1, height)
    if x1 <= x0 or y1 <= y0:
        return
    target_width = np.linalg.norm(corners[1] - corners[0])
    factor = min(1.0, 1.6 * target_width / face.shape[1])
    small = cv2.resize(face, None, fx=factor, fy=factor, interpolation=cv2.INTER_AREA)
    sh, sw = small.shape[:2]
    source = np.float32([[0, 0], [sw, 0], [sw, sh], [0, sh]])
    matrix = cv2.getPerspectiveTransform(source, np.float32(corners - [x0, y0]))
    warped = cv2.warpPerspective(small, matrix, (x1 - x0, y1 - y0), flags=cv2.INTER_LINEAR,
                                 borderMode=cv2.BORDER_CONSTANT, borderValue=0).astype(np.float32)
    alpha = warped[..., 3:4] / 255.0
    region = frame[y0:y1, x0:x1]
    # Cards sit slightly above the table: a faint contact shadow keeps their edges from vanishing on any cloth.
    region *= 1 - 0.25 * np.clip(cv2.GaussianBlur(alpha, (0, 0), 2.0 * pixel_scale)[..., None] - alpha, 0, 1)
    region[:] = region * (1 - alpha) + warped[..., :3] * alpha


def _light(frame: np.ndarray, conditions: Conditions, rng: np.random.Generator, truths: list[CardTruth],
           pixel_scale: int = 1) -> None:
    """The room's light over the frame: its gradient and colour, a shadow, glare on a card. `pixel_scale`: pixels per
    pixel of a FRAME_SIZE picture of the same table (the shadow's size is given in those)."""
    import cv2

    height, width = frame.shape[:2]
    ys, xs = np.mgrid[0:height, 0:width].astype(np.float32)
    direction = rng.uniform(-1, 1, 2)
    gradient = 1 + 0.25 * (direction[0] * (xs / width - 0.5) + direction[1] * (ys / height - 0.5))
    warm = conditions.warmth
    gain = np.array([1 - 0.18 * warm, 1.0, 1 + 0.18 * warm], np.float32) * conditions.brightness
    frame *= gradient[..., None] * gain[None, None]
    if conditions.shadow:
        mask = np.zeros((height, width), np.float32)
        centre = (int(rng.integers(0, width)), int(rng.integers(0, height)))
        axes = (int(rng.integers(150, 500)) * pixel_scale, int(rng.integers(80, 300)) * pixel_scale)
        cv2.ellipse(mask, centre, axes, float(rng.uniform(0, 180)), 0, 360, 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), 40 * pixel_scale)
        frame *= (1 - 0.45 * mask)[..., None]
    if conditions.glare and truths:
        card = truths[int(rng.integers(0, len(truths)))]
        point = card.corners.mean(axis=0) + rng.uniform(-0.3, 0.3, 2) * card.width_px
        sigma = card.width_px * rng.uniform(0.08, 0.2)
        blob = np.exp(-(((xs - point[0]) ** 2 + (ys - point[1]) ** 2) / (2 * sigma ** 2)))
        frame += (rng.uniform(60, 140) * blob)[..., None]


def _hand(frame: np.ndarray, rng: np.random.Generator, truths: list[CardTruth]) -> None:
    import cv2

    height, width = frame.shape[:2]
    card = truths[int(rng.integers(0, len(truths)))]
    target = card.corners[int(rng.integers(0, 4))] * 0.6 + card.corners.mean(axis=0) * 0.4
    edge = np.array([[target[0], height + 50], [target[0], -50], [-50, target[1]], [width + 50, target[1]]])
    start = edge[int(rng.integers(0, 4))]
    mask = np.zeros((height, width), np.uint8)
    thickness = int(card.width_px * rng.uniform(0.35, 0.55))
    cv2.line(mask, tuple(int(v) for v in start), tuple(int(v) for v in target), 255, thickness)
    cv2.circle(mask, tuple(int(v) for v in target), int(thickness * 0.7), 255, -1)
    skin = np.array(rng.choice([(120, 150, 200), (90, 120, 170), (60, 80, 110)]), np.float32)
    shade = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), thickness / 4)[..., None]
    alpha = (mask > 0)[..., None].astype(np.float32)
    frame[:] = frame * (1 - alpha) + (skin * (0.7 + 0.4 * shade)) * alpha
    for truth in truths:
        card_mask = np.zeros((height, width), np.uint8)
        cv2.fillConvexPoly(card_mask, truth.corners.astype(np.int32), 255)
        area = max(1, int(np.count_nonzero(card_mask)))
        covered = int(np.count_nonzero(card_mask & mask))
        truth.visible = 1 - covered / area
        emblem = _emblem_polygon(truth.corners)
        emblem_mask = np.zeros((height, width), np.uint8)
        cv2.fillConvexPoly(emblem_mask, emblem.astype(np.int32), 255)
        truth.emblem_visible = not bool(np.count_nonzero(emblem_mask & mask))


def _emblem_polygon(corners: np.ndarray) -> np.ndarray:
    import cv2

    x0, y0, x1, y1 = EMBLEM_BOX
    source = np.float32([[0, 0], [CARD_WIDTH, 0], [CARD_WIDTH, CARD_HEIGHT], [0, CARD_HEIGHT]])
    matrix = cv2.getPerspectiveTransform(source, np.float32(corners))
    box = np.float32([[[x0, y0]], [[x1, y0]], [[x1, y1]], [[x0, y1]]])
    return cv2.perspectiveTransform(box, matrix).reshape(-1, 2)


def _draw_markers(frame: np.ndarray, homography: np.ndarray, half_x: float, half_y: float) -> None:
    import cv2

    from .markers import TABLE_MARKER_IDS, marker_image

    size = 0.4
    positions = [(-half_x, half_y), (half_x, half_y), (half_x, -half_y), (-half_x, -half_y)]
    for marker_id, (x, y) in zip(TABLE_MARKER_IDS, positions):
        image = marker_image(marker_id, 200)
        image = np.dstack([cv2.cvtColor(image, cv2.COLOR_GRAY2BGR), np.full(image.shape, 255, np.uint8)])
        rect = np.array([[x - size / 2, y - size / 2], [x + size / 2, y - size / 2], [x + size / 2, y + size / 2],
                         [x - size / 2, y + size / 2]])
        _composite(frame, image, project(homography, rect))


def _sensor(frame: np.ndarray, conditions: Conditions, rng: np.random.Generator, binning: int = 1) -> np.ndarray:
    """The picture as the camera delivers it: blurred by its lens, with the sensor's noise, each `binning` x `binning`
    block of pixels averaged into one (a binned sensor mode), then compressed."""
    import cv2

    if conditions.blur > 0:
        frame = cv2.GaussianBlur(frame, (0, 0), conditions.blur)
    frame = frame + rng.normal(0, conditions.noise, frame.shape).astype(np.float32)
    if binning != 1:
        frame = block_means(frame, binning)
    image = frame.clip(0, 255).astype(np.uint8)
    ok, encoded = cv2.imencode(".jpg", image, [cv2.IMWRITE_JPEG_QUALITY, conditions.jpeg_quality])
    return cv2.imdecode(encoded, cv2.IMREAD_COLOR) if ok else image


def chessboard_pictures(bend: float, seed: int = 0, size: tuple[int, int] = FRAME_SIZE,
                        sheet_share: float = 0.3) -> list[np.ndarray]:
    """Pictures of the printed chessboard (`vision.lens.chessboard_sheet`, `sheet_share` of the picture wide) lying
    on a table at each of `vision.lens.PLACES`, turned a little, seen through a lens bending so (`bend`): what a user
    measuring their lens takes."""
    import cv2

    from .lens import PLACES, chessboard_sheet

    rng = np.random.default_rng(seed)
    sheet = chessboard_sheet().astype(np.float32)
    sheet_height, sheet_width = sheet.shape
    width, height = size
    table = str(rng.choice(("wood", "felt", "dark")))  # the sheet is white: a pale table would hide its edge
    pictures = []
    for share_x, share_y in PLACES:
        scale = sheet_share * width / sheet_width
        angle = np.radians(rng.uniform(-10, 10))
        rotation = scale * np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])
        centre = np.array([share_x * width, share_y * height]) + rng.normal(0, 0.01 * width, 2)
        affine = np.hstack([rotation, (centre - rotation @ [sheet_width / 2, sheet_height / 2])[:, None]])
        frame = table_texture(table, size, rng)
        paper = cv2.warpAffine(sheet, affine, size, flags=cv2.INTER_AREA)
        cover = cv2.warpAffine(np.ones_like(sheet), affine, size, flags=cv2.INTER_LINEAR)[..., None]
        frame = frame * (1 - cover) + paper[..., None] * cover * float(rng.uniform(0.75, 0.95))
        frame = through_lens(frame.astype(np.float32), bend) if bend else frame.astype(np.float32)
        pictures.append(_sensor(frame, Conditions(noise=2.0, jpeg_quality=90), rng))
    return pictures
