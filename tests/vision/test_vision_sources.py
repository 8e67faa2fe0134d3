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


class FakeWebcam:
    """Stands in for cv2.VideoCapture on a USB index: like most webcams it starts at 640 x 480 and, asked for
    another size, takes the nearest of the sizes it has."""

    SIZES = ((640, 480), (1280, 720), (1920, 1080))

    def __init__(self, target):
        self.target = target
        self.asked = {}
        self.size = (640, 480)

    def isOpened(self):
        return True

    def set(self, prop, value):
        self.asked[prop] = value
        if cv2.CAP_PROP_FRAME_WIDTH in self.asked and cv2.CAP_PROP_FRAME_HEIGHT in self.asked:
            width, height = self.asked[cv2.CAP_PROP_FRAME_WIDTH], self.asked[cv2.CAP_PROP_FRAME_HEIGHT]
            self.size = min(self.SIZES, key=lambda size: abs(size[0] - width) + abs(size[1] - height))
        return True

    def get(self, prop):
        return {cv2.CAP_PROP_FRAME_WIDTH: self.size[0], cv2.CAP_PROP_FRAME_HEIGHT: self.size[1]}.get(prop, 0)

    def read(self):
        return True, np.zeros((self.size[1], self.size[0], 3), np.uint8)

    def release(self):
        pass


def test_a_webcam_is_asked_for_the_size_the_recogniser_is_measured_on(monkeypatch):
    """A webcam left at its own 640 x 480 shows cards too small to read (docs/vision.md, "Card size in the
    picture"): it is asked for 1640 x 1232 unless told otherwise, and says what it gave."""
    from vision.sources import CAMERA_SIZE

    monkeypatch.setattr(cv2, "VideoCapture", FakeWebcam)
    assert CAMERA_SIZE == (1640, 1232)
    source = open_source("usb:0")
    assert source.capture.asked == {cv2.CAP_PROP_FRAME_WIDTH: 1640, cv2.CAP_PROP_FRAME_HEIGHT: 1232}
    assert source.read().shape == (1080, 1920, 3)
    assert source.describe() == "USB camera 0 at 1920 x 1080 (asked for 1640 x 1232)"
    configured = open_source("usb:1", (1280, 720))
    assert configured.size == (1280, 720) and configured.describe() == "USB camera 1 at 1280 x 720"


def test_the_pi_camera_is_configured_with_the_size_asked_for(monkeypatch):
    import sys
    import types

    configured = []
    asked = []

    class FakePicamera2:
        camera_controls = {"AfMode": (0, 2, 0)}  # a Camera Module 3: its lens can focus

        def set_controls(self, controls):
            asked.append(controls)

        def create_still_configuration(self, main):
            return {"main": main}

        def configure(self, config):
            configured.append(config["main"]["size"])

        def start(self):
            pass

        def capture_array(self):
            return np.zeros((configured[-1][1], configured[-1][0], 3), np.uint8)

    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    assert open_source("picamera").describe() == "Raspberry Pi camera at 1640 x 1232"
    source = open_source("picamera", (2028, 1520))
    assert configured == [(1640, 1232), (2028, 1520)] and source.read().shape == (1520, 2028, 3)
    # Camera Module 3 holds its lens still unless asked: both were asked to focus continuously (libcamera's 2).
    assert asked == [{"AfMode": 2}, {"AfMode": 2}]
    FakePicamera2.camera_controls = {}  # an HQ camera or Camera Module 2: nothing to focus
    open_source("picamera")
    assert len(asked) == 2
