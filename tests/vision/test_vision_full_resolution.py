"""Frames at a Pi camera's full resolution (issue 3: frame sources, 'picamera2 on a Pi'; `resolution = [3280, 2464]`
in the config): detection sees in them what it sees in the sensor's usual binned 1640x1232 frame, which its
thresholds were set on."""
import numpy as np

from vision.detect import WORK_LONG_SIDE, reduced_for_detection


def _binned(frame: np.ndarray) -> np.ndarray:
    """Each 2x2 block averaged into one pixel, as the sensor's binned mode gives it."""
    height, width = frame.shape[0] // 2, frame.shape[1] // 2
    blocks = frame[:2 * height, :2 * width].reshape(height, 2, width, 2, -1).astype(np.float64)
    return np.rint(blocks.mean(axis=(1, 3))).astype(np.uint8)


def test_a_full_resolution_frame_is_reduced_for_detection_as_its_binned_frame_is():
    """Fine detail (noise, here: the hardest case) comes out the same within rounding. Halved by pyrDown's wider blur,
    as frames below 2560 px are, it came out softer, and a light card on a light table lost its outline (stop 78)."""
    import cv2

    frame = np.random.default_rng(7).integers(0, 256, (2464, 3280, 3), dtype=np.uint8)
    reduced = reduced_for_detection(frame)
    from_binned = reduced_for_detection(_binned(frame))
    assert reduced.shape == from_binned.shape and max(reduced.shape[:2]) == WORK_LONG_SIDE
    assert cv2.absdiff(reduced, from_binned).max() <= 2
    # What blurring it down instead would give differs by far more.
    blurred_down = cv2.resize(cv2.pyrDown(cv2.pyrDown(frame)), reduced.shape[1::-1], interpolation=cv2.INTER_LINEAR)
    assert cv2.absdiff(blurred_down, from_binned).max() > 10


def test_a_frame_of_the_usual_size_or_of_odd_sizes_is_reduced_to_the_working_size():
    for height, width in [(1232, 1640), (1080, 1920), (2464, 3280), (2161, 3841), (480, 640), (300, 400)]:
        reduced = reduced_for_detection(np.zeros((height, width, 3), np.uint8))
        assert max(reduced.shape[:2]) == min(WORK_LONG_SIDE, width)
        assert abs(reduced.shape[1] / reduced.shape[0] - width / height) < 0.01


def test_a_light_card_on_light_checked_cloth_is_found_at_full_resolution(recogniser, needs_scans):
    """The bench's first full-resolution scene at the wiring guide's card size (`companion vision bench --card-widths
    140 170 --frame-scale 2`): a light card (card 60, a white cloud along its foot) on light checked cloth, which its
    binned picture shows whole. Through pyrDown twice the detection copy lost its outline (stop 78)."""
    from vision.bench import match, scene_generator

    scene = scene_generator(2024, heldout=True, pixel_scale=2).random_scene(width_range=(140.0, 170.0))
    light_card = next(t for t in scene.cards if t.card_id == 60)
    assert scene.conditions.table == "cloth" and not light_card.occluded
    found = {id(truth) for _, truth in match(recogniser.scan(scene.frame).cards, scene.cards) if truth is not None}
    assert id(light_card) in found
