"""Whether something lies over a card's ability icon, or over the card: a hand, a sleeve, a finger reaching in from
the table's edge.

A card whose icon's place is hidden reads as having no ability, and the art it shows there may read so surely: the
recogniser then trusts a reading it has no evidence for. What lies over a card and is not part of it is smooth and of
one colour at the camera's scale (skin, cloth), and it comes from off the card: so it is a smooth, evenly coloured
region that covers a good part of the icon's place and reaches out over the card's outline onto the table, without
surrounding the card (a smooth table the card's art merges with surrounds it on three or four sides). No colour is
assumed: hands differ, and so do lights.

Measured (stop 60) on the no-ability readings of the bench's scenes (seeds 2024 and 3000, held-out cards; 777,
training cards; 1,118 readings): of the 4 hand-covered cards read surely and wrongly as having no ability, 3 show
the sign; of the 1,097 read rightly so, 14 do (8 of them read surely: 4 under a hand, 4 in plain view).

A hand anywhere over a card changes what the colours and prints read (a brown card read green at 0.69 with a hand over
half its art), but the same shape alone cannot tell a hand there: a card's smooth fog or night runs into a smooth
table or the next card's art at the camera's scale, and over 240 held-out scenes 120 of 2,381 cards read rightly and
surely in plain view showed it. So `card_covered` only doubts readings that are not sure anyway (the pipeline's
SURE_DESPITE_COVER): a region smooth in lightness and colour alike, covering HAND_SHARE of the card, that reaches
over its outline without surrounding it (stop 62)."""
from __future__ import annotations

import numpy as np

from .cards import CARD_HEIGHT, CARD_WIDTH
from .layout import ICON_BOX

MARGIN = 102  # scan pixels looked at beyond each side of the card (a tenth of its width)
SCALE = 0.125  # of scan pixels: the card and its margin as a 153 x 107 picture
SMOOTH_WINDOW = 3  # picture pixels over which smoothness is measured
SMOOTH_STD = 4.0  # grey levels: the standard deviation within a window that still counts as smooth
SAME_COLOUR = 12.0  # Lab distance (8-bit Lab) from the icon place's median colour that counts as the same colour
# At least this share of the icon's place covered by the region. The region has the place's median colour, so it
# mostly covers half of the place anyway; this floor holds where few of the pixels of that colour are smooth.
ICON_SHARE = 0.3
OUTSIDE_SHARE = 0.05  # and at least this much of it (as a share of the card's area) beyond the card's outline
SIDE_SHARE = 0.3  # a side of the margin this much covered by the region counts as surrounded there
MOST_SIDES = 2  # a region surrounding the card on more sides than this is the table, not something lying over it
SMOOTH_GRADIENT = 6.0  # Lab levels: the most a 3x3-blurred pixel's channel may differ across it (both ways summed)
HAND_SHARE = 0.08  # of the card's area: how much of it a region must cover to count as lying over the card


def _picture_box(box) -> tuple[slice, slice]:
    x0, y0, x1, y1 = box
    return (slice(int((y0 + MARGIN) * SCALE), int((y1 + MARGIN) * SCALE)),
            slice(int((x0 + MARGIN) * SCALE), int((x1 + MARGIN) * SCALE)))


_SIZE = (round((CARD_WIDTH + 2 * MARGIN) * SCALE), round((CARD_HEIGHT + 2 * MARGIN) * SCALE))
_ICON = _picture_box(ICON_BOX)
_CARD = _picture_box((0, 0, CARD_WIDTH, CARD_HEIGHT))
_CARD_AREA = (_CARD[0].stop - _CARD[0].start) * (_CARD[1].stop - _CARD[1].start)


def _beyond_card(mask: np.ndarray) -> int:
    """How many of the mask's pixels lie beyond the card's outline."""
    return int(np.count_nonzero(mask)) - int(np.count_nonzero(mask[_CARD]))


def icon_place_covered(frame: np.ndarray, corners: np.ndarray) -> bool:
    """Whether a smooth region of one colour covers the icon's place of the card whose own TL, TR, BR, BL corners
    lie at `corners` in the BGR frame, and reaches over the card's outline without surrounding the card."""
    return icon_covered_in_picture(_with_margin(frame, corners))


def card_covered(frame: np.ndarray, corners: np.ndarray) -> bool:
    """Whether a smooth region (in lightness and colour) covers HAND_SHARE of the card whose own TL, TR, BR, BL corners
    lie at `corners` in the BGR frame, and reaches over the card's outline without surrounding the card."""
    return card_covered_in_picture(_with_margin(frame, corners))


def _with_margin(frame: np.ndarray, corners: np.ndarray) -> np.ndarray:
    from .features import warp_box

    return warp_box(frame, np.asarray(corners, np.float64),
                    (-MARGIN, -MARGIN, CARD_WIDTH + MARGIN, CARD_HEIGHT + MARGIN), _SIZE)


def _surrounds(region: np.ndarray) -> bool:
    """Whether the region covers the margin on more than MOST_SIDES of the card's sides (a table, not a hand)."""
    rows, columns = _CARD
    margins = (region[:rows.start, columns], region[rows.stop:, columns],
               region[rows, :columns.start], region[rows, columns.stop:])
    return sum(float(margin.mean()) > SIDE_SHARE for margin in margins) > MOST_SIDES


def card_covered_in_picture(picture: np.ndarray) -> bool:
    """`card_covered` of the card and its margin already warped upright to a BGR picture (`_SIZE`)."""
    import cv2

    lab = cv2.blur(cv2.cvtColor(picture, cv2.COLOR_BGR2LAB).astype(np.float32), (SMOOTH_WINDOW, SMOOTH_WINDOW))
    step = (np.abs(cv2.Sobel(lab, cv2.CV_32F, 1, 0, ksize=1)) + np.abs(cv2.Sobel(lab, cv2.CV_32F, 0, 1, ksize=1))
            ).max(axis=2)
    smooth = (step < SMOOTH_GRADIENT).astype(np.uint8)
    if smooth[_CARD].mean() < HAND_SHARE:
        return False  # most cards: their art is not smooth enough for a hand to hide in it
    count, labels = cv2.connectedComponents(smooth, connectivity=4)
    inside = np.bincount(labels[_CARD].ravel(), minlength=count)
    beyond = np.bincount(labels.ravel(), minlength=count) - inside
    for label in np.flatnonzero((inside >= HAND_SHARE * _CARD_AREA) & (beyond >= OUTSIDE_SHARE * _CARD_AREA)):
        if label and not _surrounds(labels == label):
            return True
    return False


def icon_covered_in_picture(picture: np.ndarray) -> bool:
    """`icon_place_covered` of the card and its margin already warped upright to a BGR picture (`_SIZE`)."""
    import cv2

    lab = cv2.cvtColor(picture, cv2.COLOR_BGR2LAB).astype(np.float32)
    lightness = lab[..., 0]
    window = (SMOOTH_WINDOW, SMOOTH_WINDOW)
    mean = cv2.blur(lightness, window)
    variance = cv2.blur(lightness * lightness, window) - mean * mean
    icon_colour = np.median(lab[_ICON].reshape(-1, 3), axis=0)
    difference = lab - icon_colour
    distance_squared = np.einsum("ijk,ijk->ij", difference, difference)
    candidate = ((variance < SMOOTH_STD ** 2) & (distance_squared < SAME_COLOUR ** 2)).astype(np.uint8)
    # The region is part of the candidate pixels: where they fall short, so does it (most cards; no labelling).
    if candidate[_ICON].mean() < ICON_SHARE or _beyond_card(candidate) < OUTSIDE_SHARE * _CARD_AREA:
        return False
    _, labels = cv2.connectedComponents(candidate, connectivity=4)
    over_icon = labels[_ICON]
    ids, counts = np.unique(over_icon[over_icon > 0], return_counts=True)  # some, as the check above passed
    if counts.max() < ICON_SHARE * over_icon.size:
        return False
    region = labels == ids[counts.argmax()]
    return _beyond_card(region) >= OUTSIDE_SHARE * _CARD_AREA and not _surrounds(region)
