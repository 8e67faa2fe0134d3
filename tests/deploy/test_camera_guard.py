"""Camera resilience (issue 6): missing at start, unplugged mid-game, bad frames; back-off and recovery."""
import numpy as np
import pytest

from companion.hardware.camera_guard import CameraGuard


class FakeCameraError(RuntimeError):
    pass


class FakeCamera:
    """A frame source with the vision.sources interface: read(), close(), describe()."""

    def __init__(self, world):
        self.world = world
        self.closed = False

    def read(self):
        if self.world.unplugged:
            raise FakeCameraError("device disconnected")
        if self.world.bad_frames:
            self.world.bad_frames -= 1
            return None
        return np.full((4, 4, 3), self.world.frames_served, dtype=np.uint8)

    def close(self):
        self.closed = True

    def describe(self):
        return "fake camera 4x4"


class FakeWorld:
    def __init__(self, present=True):
        self.present = present
        self.unplugged = False
        self.bad_frames = 0
        self.frames_served = 0
        self.open_attempts = []

    def open(self, spec):
        self.open_attempts.append(spec)
        if not self.present:
            raise FakeCameraError("no camera found")
        self.unplugged = False
        return FakeCamera(self)


def make_guard(world, **kwargs):
    return CameraGuard("usb:0", opener=world.open, first_delay=1.0, max_delay=8.0, **kwargs)


def test_camera_present_gives_frames_and_an_ok_status():
    world = FakeWorld()
    guard = make_guard(world)
    assert guard.read(0.0) is not None
    assert guard.status(0.0).ok and "fake camera" in guard.status(0.0).message


def test_missing_at_start_retries_with_exponential_backoff_then_recovers():
    world = FakeWorld(present=False)
    guard = make_guard(world)
    attempts_at = []
    now = 0.0
    while now < 30.0:
        before = len(world.open_attempts)
        assert guard.read(now) is None
        if len(world.open_attempts) > before:
            attempts_at.append(now)
        now += 0.25
    # 1 s, 2 s, 4 s, then capped at 8 s between attempts.
    assert attempts_at[:6] == [0.0, 1.0, 3.0, 7.0, 15.0, 23.0]
    status = guard.status(24.0)
    assert not status.ok and "no camera found" in status.message and "retrying in 7 s" in status.message
    world.present = True
    assert guard.read(31.0) is not None
    assert guard.status(31.0).ok


def test_unplugged_mid_game_closes_the_source_and_picks_up_again():
    world = FakeWorld()
    guard = make_guard(world)
    assert guard.read(0.0) is not None
    first_camera = guard._source
    world.unplugged = True
    world.present = False
    frames = [guard.read(t) for t in (1.0, 1.1, 1.2)]
    assert frames == [None, None, None]
    assert first_camera.closed and not guard.connected
    assert "camera lost" in guard.status(1.2).message and "device disconnected" in guard.status(1.2).message
    assert guard.status(1.2).retry_in == pytest.approx(1.0)
    world.present = True
    assert guard.read(1.5) is None  # still waiting for the retry time: no attempt
    assert len(world.open_attempts) == 1
    assert guard.read(2.2) is not None
    assert len(world.open_attempts) == 2


def test_a_single_bad_frame_is_tolerated_but_a_run_of_them_is_a_lost_camera():
    world = FakeWorld()
    guard = make_guard(world, bad_frames_allowed=3)
    world.bad_frames = 1
    assert guard.read(0.0) is None
    assert guard.connected
    assert guard.read(0.1) is not None
    world.bad_frames = 3
    assert [guard.read(t) for t in (0.2, 0.3, 0.4)] == [None, None, None]
    assert not guard.connected and "no picture" in guard.status(0.4).message


def test_unexpected_errors_from_a_driver_never_escape():
    class Exploding:
        def read(self):
            raise KeyError("driver bug")

        def close(self):
            raise OSError("cannot close either")

    guard = CameraGuard("picamera", opener=lambda spec: Exploding(), bad_frames_allowed=1)
    assert guard.read(0.0) is None
    assert "driver bug" in guard.status(0.0).message


def test_without_the_vision_package_source_the_guard_reports_instead_of_crashing(monkeypatch):
    import builtins
    real_import = builtins.__import__

    def no_vision_sources(name, *args, **kwargs):
        if name == "vision.sources":
            raise ModuleNotFoundError("No module named 'vision.sources'", name="vision.sources")
        return real_import(name, *args, **kwargs)

    monkeypatch.setattr(builtins, "__import__", no_vision_sources)
    guard = CameraGuard("auto")
    assert guard.read(0.0) is None
    assert "camera unavailable" in guard.status(0.0).message


def test_with_the_real_vision_sources_a_missing_image_file_is_picked_up_when_it_appears(tmp_path):
    """Integration with vision.sources.open_source: its CameraError becomes a status, then recovery."""
    import cv2

    picture = tmp_path / "table.png"
    guard = CameraGuard(str(picture), first_delay=1.0, max_delay=4.0)
    assert guard.read(0.0) is None
    assert "does not exist" in guard.status(0.0).message
    cv2.imwrite(str(picture), np.zeros((30, 40, 3), np.uint8))
    assert guard.read(0.5) is None  # not yet time to retry
    frame = guard.read(1.0)
    assert frame is not None and frame.shape == (30, 40, 3)
    assert "image" in guard.status(1.0).message


def test_auto_on_a_machine_without_cameras_says_what_it_tried():
    guard = CameraGuard("auto")
    assert guard.read(0.0) is None
    message = guard.status(0.0).message
    assert "picamera" in message and "usb:0" in message and "manual mode" in message


def test_a_long_outage_logs_one_line_not_one_per_retry(caplog):
    world = FakeWorld(present=False)
    guard = make_guard(world)
    with caplog.at_level("INFO", logger="companion.hardware.camera_guard"):
        for tenth in range(0, 600):
            guard.read(tenth / 10)
        world.present = True
        guard.read(100.0)
    assert len(world.open_attempts) > 5
    messages = [record.getMessage() for record in caplog.records]
    assert len(messages) == 2, messages
    assert "no camera found" in messages[0] and "camera ready" in messages[1]


def test_from_config_uses_the_configured_source_and_backoff_ceiling():
    from companion.config import parse_config_text

    world = FakeWorld(present=False)
    config = parse_config_text('[camera]\nsource = "usb:1"\nretry_max_seconds = 2\n')
    guard = CameraGuard.from_config(config, opener=world.open)
    for tenth in range(0, 100):
        guard.read(tenth / 10)
    assert world.open_attempts[0] == "usb:1"
    # 1 s, then capped at 2 s: attempts at 0, 1, 3, 5, 7, 9.
    assert len(world.open_attempts) == 6


def test_the_camera_is_asked_for_the_configured_resolution(monkeypatch):
    """`[camera] resolution` reaches the camera (it used to be checked and then ignored: a webcam stayed at its own
    640 x 480, where a card is too few pixels to read)."""
    import vision.sources
    from companion.config import parse_config_text

    asked = []

    def recording_open_source(spec, size=None):
        asked.append((spec, size))
        raise vision.sources.CameraError("no camera here")

    monkeypatch.setattr(vision.sources, "open_source", recording_open_source)
    CameraGuard.from_config(parse_config_text('[camera]\nsource = "usb:1"\nresolution = [1920, 1080]\n')).read(0.0)
    CameraGuard.from_config(parse_config_text('[camera]\nsource = "auto"\n')).read(0.0)
    assert asked == [("usb:1", (1920, 1080)), ("picamera", (1640, 1232)), ("usb:0", (1640, 1232))]
