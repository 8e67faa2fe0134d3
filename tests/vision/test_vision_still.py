"""A still table is not read again (vision.still: the camera worker reads a frame only when it shows something the
last frame read did not, or MAX_STILL_SECONDS have passed). Sensor noise is no change; a card laid, a hand or a
table nudged by a couple of pixels is."""
import numpy as np
import pytest

from vision.still import MAX_STILL_SECONDS, THUMBNAIL, StillFrames


@pytest.fixture
def table():
    import cv2

    rng = np.random.default_rng(4)
    grain = cv2.GaussianBlur(rng.normal(128, 60, (1232, 1640)).astype(np.float32), (0, 0), 6)
    frame = np.clip(grain, 0, 255).astype(np.uint8)
    frame = np.dstack([frame, frame // 2 + 40, frame // 3 + 60])
    cv2.rectangle(frame, (400, 300), (730, 510), (235, 230, 225), -1)  # a pale card on it
    return frame


def test_the_same_table_with_sensor_noise_is_still(table):
    still = StillFrames()
    assert not still.unchanged(table, 0.0)  # the first frame is read
    noisy = np.random.default_rng(1).normal(0, 4, table.shape)
    assert still.unchanged(table, 0.1)
    assert still.unchanged(np.clip(table + noisy, 0, 255).astype(np.uint8), 0.2)


def test_a_card_laid_or_the_table_nudged_is_a_change(table):
    import cv2

    still = StillFrames()
    still.unchanged(table, 0.0)
    laid = table.copy()
    cv2.rectangle(laid, (1000, 700), (1140, 790), (40, 60, 200), -1)  # the smallest card, 140 pixels wide
    assert not still.unchanged(laid, 0.1)
    assert still.unchanged(laid, 0.2)  # compared with the frame read last: the new card is now the table
    assert not still.unchanged(np.roll(laid, 2, axis=1), 0.3)


def test_a_still_table_is_read_again_after_a_while_and_a_slow_drift_adds_up(table):
    still = StillFrames()
    still.unchanged(table, 0.0)
    assert still.unchanged(table, MAX_STILL_SECONDS - 0.01)
    assert not still.unchanged(table, MAX_STILL_SECONDS)
    # One grey level brighter each frame: no frame differs from the one before, but they do from the one read.
    drifting = [still.unchanged(np.clip(table.astype(np.int16) + step, 0, 255).astype(np.uint8),
                                MAX_STILL_SECONDS + step / 100) for step in range(1, 30)]
    assert drifting[0] and not all(drifting)


@pytest.mark.parametrize("height, width", [(960, 1280), (2464, 3280), (1232, 1640)])
def test_each_thumbnail_pixel_is_the_mean_of_its_block_of_the_frame(height, width):
    """Sensor noise is no change because each compared pixel averages a block of the frame (the noise test above):
    the thumbnail is made in steps, and must still average every pixel of its block."""
    frame = np.random.default_rng(3).integers(0, 256, (height, width, 3), dtype=np.uint8)
    thumbnail = StillFrames()._small(frame)
    columns, rows = THUMBNAIL
    if height % rows == 0 and width % columns == 0:
        whole = frame.reshape(rows, height // rows, columns, width // columns, 3).mean(axis=(1, 3))
        assert np.abs(thumbnail - whole).max() <= 2  # rounded at each step, at most a level each
    # Blocks of a fractional size share their edges' pixels; all the same, noise averaged over a block stays within
    # a few levels of its mean, and a few pixels of it alone would not.
    spread = 73.9 / np.sqrt(height * width / (rows * columns))  # a uniform byte's deviation, averaged
    assert np.abs(thumbnail - 127.5).max() < 5.5 * spread


@pytest.mark.parametrize("bad", [None, [1, 2, 3], np.zeros((1, 1, 3), np.uint8), np.zeros((5, 5, 7), np.uint8)])
def test_no_usable_image_is_never_still_and_nothing_breaks(table, bad):
    still = StillFrames()
    still.unchanged(table, 0.0)
    assert not still.unchanged(bad, 0.1)
    assert not still.unchanged(table, 0.2)  # after a bad frame the next good one is read
    assert still.unchanged(table, 0.3)
    still.forget()
    assert not still.unchanged(table, 0.4)


def test_the_camera_worker_reads_a_still_table_once_and_a_changed_one_again(table):
    import queue
    from types import SimpleNamespace

    from companion.ui.camera_worker import CameraWorker
    from vision.pipeline import ScanResult

    class Guard:
        connected = True
        frame = table

        def read(self, now):
            return self.frame

        def status(self, now):
            return SimpleNamespace(message="camera: test")

    class Recogniser:
        errors = 0

        def scan(self, frame):
            if self.errors:
                self.errors -= 1
                return ScanResult(error="unreadable")
            return ScanResult(cards=[int(frame.mean())])

    seen = []

    class Stabiliser:
        def update(self, cards, now):
            seen.append((now, cards))

    times = iter(i / 10 for i in range(100))
    guard, recogniser = Guard(), Recogniser()
    worker = CameraWorker(guard, queue.Queue(), recogniser, Stabiliser(), clock=lambda: next(times),
                          still=StillFrames())
    for _ in range(10):
        worker.step()
    assert worker.frames_read == 1 and len(seen) == 10  # the stabiliser still sees every frame's time
    assert all(cards == seen[0][1] for _, cards in seen)
    guard.frame = table // 2
    worker.step()
    assert worker.frames_read == 2 and seen[-1][1] != seen[0][1]
    recogniser.errors = 1
    guard.frame = table
    worker.step()  # a changed frame that could not be read: nothing reaches the stabiliser
    worker.step()  # ... so the same frame is read again
    assert worker.frames_read == 4 and seen[-1][1] == seen[0][1] and len(seen) == 12
    for _ in range(30):
        worker.step()
    assert worker.frames_read == 5  # 3 s later: read again once, at MAX_STILL_SECONDS
