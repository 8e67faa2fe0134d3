"""The cards' size in the camera's picture, against what the recogniser is measured on (vision.framing; issue 3's
targets hold for cards 140-330 px long in 1640x1232 pictures: docs/vision.md, "Card size in the picture")."""
import pytest

from vision.framing import MIN_CARD_PIXELS, MIN_CARD_SHARE, Framing, card_length


@pytest.mark.parametrize("angle", [0, 33, 90, 180, 271])
def test_a_cards_length_is_its_long_side_whichever_way_it_lies(angle, card_of_length):
    assert card_length(card_of_length(200, angle=angle).corners) == pytest.approx(200)


def test_the_median_card_decides(card_of_length):
    framing = Framing.of([card_of_length(100), card_of_length(210), card_of_length(220)], (1640, 1232))
    assert framing.cards == 3 and framing.length == pytest.approx(210)
    assert framing.share == pytest.approx(210 / 1640) and framing.as_measured
    assert "as the recogniser is measured on" in framing.advice() and "1/8 of the picture's width" in framing.advice()


def test_no_card_no_framing():
    assert Framing.of([], (1640, 1232)) is None


def test_cards_too_small_a_part_of_the_picture_ask_for_a_lower_camera(card_of_length):
    """The guide's first mounting (the whole 1.69 m view at 1280 px) made cards 67 px long, 1/19 of the width."""
    framing = Framing.of([card_of_length(67), card_of_length(70)], (1280, 960))
    assert framing.too_small_a_share and not framing.as_measured
    assert "hang the camera lower" in framing.advice() and "1/12" in framing.advice()


def test_cards_of_too_few_pixels_but_a_fair_share_ask_for_a_larger_picture(card_of_length):
    framing = Framing.of([card_of_length(110)], (1000, 750))
    assert framing.share > MIN_CARD_SHARE and framing.length < MIN_CARD_PIXELS
    assert "[camera] resolution" in framing.advice()


def test_cards_filling_the_picture_ask_for_a_higher_camera(card_of_length):
    framing = Framing.of([card_of_length(500)], (1640, 1232))
    assert framing.too_large_a_share and "hang the camera higher" in framing.advice()
