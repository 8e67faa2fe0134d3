"""The cards' size in the camera's picture, against what the recogniser is measured on (vision.framing; issue 3's
targets hold for cards 140-330 px long in 1640x1232 pictures: docs/vision.md, "Card size in the picture")."""
import math

import pytest

from vision.framing import MIN_CARD_PIXELS, MIN_CARD_SHARE, Framing, card_length
from vision.table_state import SeenCard


def _card(length: float, angle: float = 0.0, x: float = 500.0, y: float = 400.0) -> SeenCard:
    """A card `length` pixels long (landscape, 1.557:1 as the scans), turned `angle` degrees."""
    depth = length / 1.557
    c, s = math.cos(math.radians(angle)), math.sin(math.radians(angle))
    corners = tuple((x + px * c - py * s, y + px * s + py * c)
                    for px, py in ((0, 0), (length, 0), (length, depth), (0, depth)))
    return SeenCard(legion="red", parts=("legs",), ability=None, corners=corners)


@pytest.mark.parametrize("angle", [0, 33, 90, 180, 271])
def test_a_cards_length_is_its_long_side_whichever_way_it_lies(angle):
    assert card_length(_card(200, angle).corners) == pytest.approx(200)


def test_the_median_card_decides():
    framing = Framing.of([_card(100), _card(210), _card(220)], (1640, 1232))
    assert framing.cards == 3 and framing.length == pytest.approx(210)
    assert framing.share == pytest.approx(210 / 1640) and framing.as_measured
    assert "as the recogniser is measured on" in framing.advice() and "1/8 of the picture's width" in framing.advice()


def test_no_card_no_framing():
    assert Framing.of([], (1640, 1232)) is None


def test_cards_too_small_a_part_of_the_picture_ask_for_a_lower_camera():
    """The guide's first mounting (the whole 1.69 m view at 1280 px) made cards 67 px long, 1/19 of the width."""
    framing = Framing.of([_card(67), _card(70)], (1280, 960))
    assert framing.too_small_a_share and not framing.as_measured
    assert "hang the camera lower" in framing.advice() and "1/12" in framing.advice()


def test_cards_of_too_few_pixels_but_a_fair_share_ask_for_a_larger_picture():
    framing = Framing.of([_card(110)], (1000, 750))
    assert framing.share > MIN_CARD_SHARE and framing.length < MIN_CARD_PIXELS
    assert "[camera] resolution" in framing.advice()


def test_cards_filling_the_picture_ask_for_a_higher_camera():
    framing = Framing.of([_card(500)], (1640, 1232))
    assert framing.too_large_a_share and "hang the camera higher" in framing.advice()
