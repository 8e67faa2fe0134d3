"""Stop 83's saving: the detector halves a three-channel frame one channel at a time, reusing the channels the scan
splits the frame into for its least channel. OpenCV's pyrDown takes about three times as long over a 1640x1232 BGR
frame as over its three channels one by one; the bytes must come out the same, so that nothing downstream (every
threshold was set on pyrDown's output) reads differently (docs/vision-history.md, "Stop 83")."""
import cv2
import numpy as np
from hypothesis import given, settings, strategies as st
from hypothesis.extra.numpy import arrays

import vision.detect
from vision.detect import _halved, find_outlines, reduced_for_detection
from vision.pipeline import Recogniser
from vision.synthetic import SceneGenerator

shapes = st.tuples(st.integers(2, 45), st.integers(2, 60))
colour_frames = shapes.flatmap(lambda shape: arrays(np.uint8, shape + (3,)))
grey_frames = shapes.flatmap(lambda shape: arrays(np.uint8, shape))


@settings(max_examples=100, deadline=None)
@given(colour_frames)
def test_a_colour_frame_halved_channel_by_channel_is_pyrdown_of_it_to_the_byte(frame):
    expected = cv2.pyrDown(frame)
    assert np.array_equal(_halved(frame), expected)
    assert np.array_equal(_halved(frame, list(cv2.split(frame))), expected)


@settings(max_examples=50, deadline=None)
@given(grey_frames)
def test_a_grey_frame_is_halved_by_pyrdown(frame):
    assert np.array_equal(_halved(frame), cv2.pyrDown(frame))


def test_a_scene_is_reduced_and_outlined_the_same_from_its_channels():
    frame = SceneGenerator(5, use_scans=False).random_scene().frame
    assert frame.shape[:2] == (1232, 1640)
    channels = list(cv2.split(frame))
    assert np.array_equal(reduced_for_detection(frame, channels), reduced_for_detection(frame))
    with_channels, without = find_outlines(frame, channels=channels), find_outlines(frame)
    assert len(with_channels.quads) == len(without.quads) > 0
    for ours, theirs in zip(with_channels.quads, without.quads):
        assert np.array_equal(ours, theirs)
    assert [c.point.tolist() for c in with_channels.corners] == [c.point.tolist() for c in without.corners]


def test_the_scan_hands_the_detector_the_frames_own_channels(monkeypatch):
    """Channels left over from the previous frame, or in another order, would outline another picture."""
    generator = SceneGenerator(6, use_scans=False)
    frames = [generator.random_scene().frame for _ in range(2)]
    handed = []

    def outlines_recorded(frame, full_gray=None, snapped=True, channels=None):
        handed.append((frame, None if channels is None else cv2.merge(channels)))
        return find_outlines(frame, full_gray, snapped, channels)

    monkeypatch.setattr(vision.detect, "find_outlines", outlines_recorded)
    recogniser = Recogniser()
    for frame in frames:
        recogniser.scan(frame)
    assert len(handed) == 2
    for (scanned, merged), frame in zip(handed, frames):
        assert scanned is frame or np.array_equal(scanned, frame)
        assert merged is not None and np.array_equal(merged, frame)
