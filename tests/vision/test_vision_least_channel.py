"""Stop 58's savings: the badge figure and the white print are read from the frame's least channel, worked out once a
scan (half the cost of warping three channels and taking their least), and the edge thresholds' rounds stop working
out a round's channels once those already worked out fire too much on the table (docs/vision-history.md, "Stop
58")."""
import cv2
import numpy as np
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

from vision.detect import BUSY_TABLE, EDGE_GAINS, _border_fraction, edges_quiet_on_table
from vision.features import badge_fit, least_channel
from vision.pipeline import Recogniser
from vision.synthetic import SceneGenerator

frames = st.tuples(st.integers(1, 40), st.integers(1, 50)).flatmap(lambda shape: arrays(np.uint8, shape + (3,)))


@settings(max_examples=100, deadline=None)
@given(frames)
def test_the_least_channel_is_the_least_of_each_pixels_three(frame):
    expected = frame.min(axis=2)
    assert np.array_equal(least_channel(frame), expected)
    buffers = [np.full(frame.shape[:2], 7, np.uint8) for _ in range(4)]  # left over from another frame
    least = least_channel(frame, buffers)
    assert least is buffers[-1] and np.array_equal(least, expected)


def test_a_grey_frame_is_its_own_least_channel():
    grey = np.arange(12, dtype=np.uint8).reshape(3, 4)
    assert least_channel(grey) is grey


def _edges_every_channel_every_round(gray, chroma):
    """The edge rounds as they were before stop 58: every channel worked out at every gain tried."""
    for gain in EDGE_GAINS:
        edges = cv2.Canny(gray, 20 * gain, 60 * gain)
        for channel in chroma:
            edges |= cv2.Canny(channel, 6 * gain, 18 * gain)
        if _border_fraction(edges) < BUSY_TABLE:
            return edges, gain
    return edges, gain


def test_the_edges_are_those_of_every_channel_at_the_gain_every_channel_chooses():
    """On scenes of every table, including those whose grain needs the thresholds raised once or twice."""
    gains = set()
    for seed in range(12):
        frame = SceneGenerator(seed, use_scans=False).random_scene().frame
        small = cv2.resize(frame, (640, 481), interpolation=cv2.INTER_AREA)
        gray = cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2GRAY), (5, 5), 0)
        chroma = [cv2.GaussianBlur(cv2.cvtColor(small, cv2.COLOR_BGR2YCrCb)[..., c], (5, 5), 0) for c in (1, 2)]
        expected, gain = _edges_every_channel_every_round(gray, chroma)
        gains.add(gain)
        assert np.array_equal(edges_quiet_on_table(gray, chroma), expected), seed
    assert len(gains) >= 2, f"the scenes needed only gains {gains}: the rounds given up were not tried"


def test_the_badge_figure_is_found_in_the_least_channel_where_it_is_in_the_colours():
    """The figure's match and where it lies hardly differ between the least channel warped and the least of the
    warped colours (they differ only where a pixel's least channel changes between its neighbours): within a frame
    pixel (the offset is in scan pixels, several to a frame pixel)."""
    from vision.cards import CARD_WIDTH

    scene = SceneGenerator(5, use_scans=False).random_scene()
    least = least_channel(scene.frame)
    assert scene.cards
    for truth in scene.cards[:4]:
        corners = np.asarray(truth.corners, np.float64)
        in_colour, in_least = badge_fit(scene.frame, corners), badge_fit(least, corners)
        assert abs(in_least.match - in_colour.match) < 0.02
        frame_pixels_per_scan_pixel = np.linalg.norm(corners[1] - corners[0]) / CARD_WIDTH
        assert np.abs(in_least.offset - in_colour.offset).max() * frame_pixels_per_scan_pixel < 1.0


def test_a_frame_refilled_in_place_is_read_as_a_new_frame():
    """A camera may hand over the same array each time, refilled: the least channel of the last frame is not
    reused for it."""
    first = SceneGenerator(21, use_scans=False).random_scene().frame
    second = SceneGenerator(22, use_scans=False).random_scene().frame
    recogniser = Recogniser()
    buffer = first.copy()
    recogniser.scan(buffer)
    buffer[...] = second
    again = recogniser.scan(buffer)
    fresh = Recogniser().scan(second.copy())
    assert fresh.cards, "the second scene should hold cards"
    assert [(c.legion, c.parts, c.ability, np.round(c.corners, 3).tolist()) for c in again.cards] == \
        [(c.legion, c.parts, c.ability, np.round(c.corners, 3).tolist()) for c in fresh.cards]
