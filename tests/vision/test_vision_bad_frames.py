"""Any frame at all gives an empty result or a clear error, never an exception (issue 3, 'Tests and bad input')."""
import cv2
import numpy as np
import pytest

from vision.synthetic import Conditions, SceneGenerator

RNG = np.random.default_rng(0)


def _truncated_jpeg():
    frame = SceneGenerator(1, use_scans=False).render({0: [[1]]}, Conditions(card_width_px=200)).frame
    ok, data = cv2.imencode(".jpg", frame)
    return cv2.imdecode(data[: len(data) // 3], cv2.IMREAD_COLOR)


BAD_FRAMES = {
    "black": np.zeros((1232, 1640, 3), np.uint8),
    "white": np.full((1232, 1640, 3), 255, np.uint8),
    "noise": RNG.integers(0, 256, (1232, 1640, 3), dtype=np.uint8),
    "one pixel": np.zeros((1, 1, 3), np.uint8),
    "huge": np.zeros((5000, 6000, 3), np.uint8),
    "grayscale": RNG.integers(0, 256, (480, 640), dtype=np.uint8),
    "sixteen bit": RNG.integers(0, 65536, (480, 640, 3), dtype=np.uint16),
    "float": RNG.random((480, 640, 3)).astype(np.float32),
    "nan float": np.full((100, 100, 3), np.nan, np.float32),
    "bool": np.zeros((100, 100, 3), bool),
    "complex": np.zeros((100, 100, 3), complex),
    "two channels": np.zeros((100, 100, 2), np.uint8),
    "one dimension": np.zeros(100, np.uint8),
    "none": None,
    "not an array": "frame.jpg",
    "bgra": np.zeros((200, 300, 4), np.uint8),
    "empty": np.zeros((0, 0, 3), np.uint8),
}


@pytest.mark.parametrize("name", sorted(BAD_FRAMES))
def test_bad_frame_never_raises(recogniser, name):
    result = recogniser.scan(BAD_FRAMES[name])
    assert result.error is None or (isinstance(result.error, str) and result.error)
    assert result.error is not None or isinstance(result.cards, list)
    assert all(card.confidence <= 1 for card in result.cards)


def test_truncated_jpeg_gives_clear_error_or_result(recogniser):
    result = recogniser.scan(_truncated_jpeg())
    assert result.error is None or "frame" in result.error or "image" in result.error


@pytest.mark.parametrize("name", ["black", "white", "noise"])
def test_featureless_frames_have_no_cards(recogniser, name):
    assert recogniser.scan(BAD_FRAMES[name]).cards == []


@pytest.mark.parametrize("name", ["one pixel", "none", "complex", "nan float", "one dimension", "empty"])
def test_unusable_frames_say_why(recogniser, name):
    result = recogniser.scan(BAD_FRAMES[name])
    assert result.cards == [] and result.error


def test_corrupt_parameters_give_an_error_not_a_crash(tmp_path):
    from vision.pipeline import Recogniser

    broken = tmp_path / "model.json"
    broken.write_text('{"weights": {"legion": [[1, 2]', encoding="utf-8")
    recogniser = Recogniser(params=broken)
    result = recogniser.scan(np.zeros((100, 100, 3), np.uint8))
    assert recogniser.model is None
    assert result.error and "parameters" in result.error
