"""A legion read doubtfully is read again a few pixels off (issue 3: legion at least 99.9%; a glossy brown card whose
badge lay under glare was read green at 0.41 against brown at 0.39): the reported legion is the mean of the card's
reading and those of the card moved LEGION_SHIFT of its sides each way along them that still read as a card."""
import numpy as np
import pytest

from vision.model import HEADS
from vision.pipeline import KEEP_CARD, LEGION_READINGS, LEGION_SHIFT, LEGION_STEADY_BELOW, Recogniser

CORNERS = np.array([[100.0, 50.0], [300.0, 60.0], [295.0, 190.0], [95.0, 180.0]])  # TL, TR, BR, BL
FRAME = np.zeros((300, 400, 3), np.uint8)


def _legion(**shares) -> np.ndarray:
    return np.array([shares.get(legion, 0.0) for legion in HEADS["legion"]])


class _ShiftedReadings:
    """Stands in for `Recogniser._read` of the shifted places: each reads as the next of `readings` (legion
    probabilities, card probability) and the places asked for are kept."""

    def __init__(self, readings):
        self.readings = readings
        self.asked = []

    def __call__(self, image, places, **_):
        self.asked.extend(places)
        return [{"card": np.array([card, 1 - card]), "legion": legion} for legion, card in self.readings]


def _doubtful_card_probabilities(recogniser: Recogniser, legion: np.ndarray) -> dict:
    probabilities = {head: values.copy() for head, values in recogniser._unread.items()}
    probabilities["card"] = np.array([0.95, 0.05])
    probabilities["legion"] = legion
    return probabilities


@pytest.fixture
def recogniser():
    # Its own recogniser: `_read` is replaced on it.
    return Recogniser()


def test_a_doubtful_legion_is_the_mean_of_the_card_read_a_little_off_each_way(recogniser):
    first = _legion(blue=0.1, red=0.1, brown=0.39, green=0.41)
    assert first.max() < LEGION_STEADY_BELOW
    shifted = _ShiftedReadings([(_legion(brown=0.6, green=0.4), 0.9)] * 3 + [(_legion(green=1.0), KEEP_CARD / 2)])
    recogniser._read = shifted
    probabilities = _doubtful_card_probabilities(recogniser, first)

    card = recogniser._card(FRAME, CORNERS, probabilities, 1.0)

    along, down = CORNERS[1] - CORNERS[0], CORNERS[3] - CORNERS[0]
    expected_places = [CORNERS + LEGION_SHIFT * step for step in (along, -along, down, -down)]
    assert len(shifted.asked) == 4
    for asked, expected in zip(shifted.asked, expected_places):
        assert np.allclose(asked, expected)
    # The fourth place reads as no card and is left out: the mean of the card's own reading and three.
    assert probabilities[LEGION_READINGS] == 4
    assert np.allclose(probabilities["legion"], (first + 3 * _legion(brown=0.6, green=0.4)) / 4)
    assert card.legion == "brown"  # green alone, as first read
    assert card.confidence == pytest.approx(probabilities["legion"].max())


def test_a_sure_legion_is_not_read_again(recogniser):
    shifted = _ShiftedReadings([(_legion(red=1.0), 0.9)] * 4)
    recogniser._read = shifted
    sure = _legion(blue=0.05, red=0.05, brown=0.2, green=LEGION_STEADY_BELOW + 0.1)
    probabilities = _doubtful_card_probabilities(recogniser, sure)

    card = recogniser._card(FRAME, CORNERS, probabilities, 1.0)

    assert shifted.asked == [] and LEGION_READINGS not in probabilities
    assert card.legion == "green"


def test_a_card_read_twice_from_the_same_reading_is_steadied_once(recogniser):
    shifted = _ShiftedReadings([(_legion(brown=0.6, green=0.4), 0.9)] * 4)
    recogniser._read = shifted
    probabilities = _doubtful_card_probabilities(recogniser, _legion(blue=0.1, red=0.1, brown=0.39, green=0.41))

    recogniser._card(FRAME, CORNERS, probabilities, 1.0)
    once = probabilities["legion"].copy()
    recogniser._card(FRAME, CORNERS, probabilities, 1.0)

    assert len(shifted.asked) == 4
    assert np.array_equal(probabilities["legion"], once)
