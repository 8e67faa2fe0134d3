"""Frame sources: images, folders, videos, synthetic scenes, and clear CameraErrors (issue 3 'Frame sources')."""
import cv2
import numpy as np
import pytest

from vision.sources import CameraError, open_source


def _image(path, value=90):
    frame = np.full((120, 160, 3), value, np.uint8)
    cv2.imwrite(str(path), frame)
    return frame


def test_image_source_returns_the_image(tmp_path):
    _image(tmp_path / "a.png", 77)
    source = open_source(str(tmp_path / "a.png"))
    frame = source.read()
    assert frame.shape == (120, 160, 3) and frame.dtype == np.uint8 and int(frame[0, 0, 0]) == 77
    assert "a.png" in source.describe()
    source.close()


def test_folder_source_reads_in_name_order_then_stops(tmp_path):
    _image(tmp_path / "2.png", 20)
    _image(tmp_path / "1.png", 10)
    (tmp_path / "notes.txt").write_text("not an image")
    with open_source(str(tmp_path)) as source:
        assert int(source.read()[0, 0, 0]) == 10
        assert int(source.read()[0, 0, 0]) == 20
        with pytest.raises(CameraError, match="no more images"):
            source.read()


def test_video_source_reads_frames(tmp_path):
    path = tmp_path / "clip.avi"
    writer = cv2.VideoWriter(str(path), cv2.VideoWriter_fourcc(*"MJPG"), 5, (160, 120))
    if not writer.isOpened():
        pytest.skip("this OpenCV build cannot write MJPG video")
    for value in (40, 200):
        writer.write(np.full((120, 160, 3), value, np.uint8))
    writer.release()
    with open_source(str(path)) as source:
        assert abs(int(source.read().mean()) - 40) < 10
        assert abs(int(source.read().mean()) - 200) < 10
        with pytest.raises(CameraError):
            source.read()


def test_synthetic_source_is_seeded():
    first, second = open_source("synthetic:4"), open_source("synthetic:4")
    assert np.array_equal(first.read(), second.read())
    assert first.scene is not None and first.read().shape == (1232, 1640, 3)


@pytest.mark.parametrize("spec, words", [
    ("missing.jpg", "does not exist"),
    ("usb:x", "not a camera"),
    ("synthetic:abc", "synthetic"),
    ("picamera", "picamera2"),
    ("missing.mp4", "does not exist"),
])
def test_unusable_sources_explain_themselves(spec, words):
    with pytest.raises(CameraError, match=words):
        open_source(spec)


def test_damaged_image_is_a_camera_error(tmp_path):
    path = tmp_path / "broken.jpg"
    path.write_bytes(b"\xff\xd8\xff\xe0 truncated")
    with pytest.raises(CameraError, match="could not be read"):
        open_source(str(path))


def test_unplugged_usb_camera_is_a_camera_error():
    with pytest.raises(CameraError, match="plugged"):
        open_source("usb:57")
