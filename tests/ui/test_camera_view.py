"""The camera view shows the camera's picture with what the recogniser read on it: sure cards outlined in their
legion's colour, unsure ones (which the stabiliser does not report, so the game does not see them) marked "?" with a
hint (issue 3: cards partly hidden are reported as uncertain; a user must be able to see why a card is not taken)."""
import queue

import numpy as np
import pygame

from companion.ui import theme
from companion.ui.camera_worker import PICTURE_EVERY, CameraWorker
from companion.ui.nightmarium import pictures
from companion.ui.nightmarium.camera_view import CameraViewScene
from companion.ui.nightmarium.session import Session
from companion.ui.render import build_screen, make_app
from vision.stabiliser import MIN_CONFIDENCE
from vision.table_state import SeenCard

SIZE = (800, 480)
FRAME = (400, 300)  # width, height of the camera picture: it is drawn at 1.8x in an 780x390 area
SURE = SeenCard("green", ("legs",), None, ((40.0, 40.0), (140.0, 40.0), (140.0, 104.0), (40.0, 104.0)), 0.97)
UNSURE = SeenCard("red", ("head",), None, ((220.0, 150.0), (320.0, 150.0), (320.0, 214.0), (220.0, 214.0)), 0.5)


def camera_view(seen, mode="camera"):
    app = make_app(SIZE, strict=True)
    build_screen(app, "launcher")
    session = Session.new(app, ["Ann", "Bob"], "ru2014", 5, False, mode)
    session.latest_frame = np.full((FRAME[1], FRAME[0], 3), 90, np.uint8)
    session.latest_seen = seen
    scene = CameraViewScene(app, session)
    app.push(scene)
    surface = pygame.Surface(SIZE)
    assert app.render(surface, force=True)
    assert app.errors == []
    return scene, surface


def on_screen(scene, surface, x, y):
    """The screen point of picture point (x, y), as the view placed the picture."""
    area = pygame.Rect(10, 10, SIZE[0] - 20, SIZE[1] - 90)
    scale = min(area.width / FRAME[0], area.height / FRAME[1])
    placed = pygame.Rect(0, 0, int(FRAME[0] * scale), int(FRAME[1] * scale))
    placed.center = area.center
    return int(placed.left + x * scale), int(placed.top + y * scale)


def colour_count(surface, centre, colour, reach=16):
    x0, y0 = centre
    return sum(tuple(surface.get_at((x, y)))[:3] == tuple(colour)
               for x in range(x0 - reach, x0 + reach) for y in range(y0 - reach, y0 + reach))


def test_a_sure_card_is_outlined_in_its_legion_colour_and_an_unsure_one_marked():
    assert SURE.confidence >= MIN_CONFIDENCE > UNSURE.confidence
    scene, surface = camera_view([SURE, UNSURE])
    green = pictures.legion_colour("green")
    top_middle = on_screen(scene, surface, 90, 40)
    assert colour_count(surface, top_middle, green, reach=3) > 0
    inside = on_screen(scene, surface, 90, 72)
    assert colour_count(surface, inside, theme.WARNING) == 0, "a sure card carries no question mark"
    unsure_centre = on_screen(scene, surface, 270, 182)
    assert colour_count(surface, unsure_centre, theme.WARNING) > 200
    assert colour_count(surface, on_screen(scene, surface, 270, 150), pictures.legion_colour("red"), reach=3) == 0


def test_a_camera_picture_becomes_a_surface_of_its_own_colours_and_its_own_pixels():
    from companion.ui.widgets import frame_surface

    frame = np.zeros((30, 40, 3), np.uint8)
    frame[5, 7] = (255, 0, 0)  # OpenCV's blue
    frame[6, 8] = (10, 20, 30)
    surface = frame_surface(frame)
    assert surface.get_size() == (40, 30)
    assert tuple(surface.get_at((7, 5)))[:3] == (0, 0, 255) and tuple(surface.get_at((8, 6)))[:3] == (30, 20, 10)
    frame[5, 7] = 0  # the camera's thread fills its array again: the surface keeps the picture it was made of
    assert tuple(surface.get_at((7, 5)))[:3] == (0, 0, 255)
    # A picture that is a view into a larger array (a crop, every other row) is drawn as it looks.
    cropped = frame_surface(frame[::2, 8:])
    assert cropped.get_size() == (32, 15) and tuple(cropped.get_at((0, 3)))[:3] == (30, 20, 10)


def test_without_readings_the_picture_is_shown_bare():
    scene, surface = camera_view(None)
    assert colour_count(surface, on_screen(scene, surface, 270, 182), theme.WARNING) == 0
    assert colour_count(surface, on_screen(scene, surface, 90, 40), pictures.legion_colour("green"), reach=3) == 0


class _Guard:
    connected = True

    def __init__(self, frames):
        self.frames = frames

    def read(self, now):
        return self.frames.pop(0)

    def status(self, now):
        from types import SimpleNamespace

        return SimpleNamespace(message="camera: test")


class _Recogniser:
    def scan(self, frame):
        from vision.pipeline import ScanResult

        return ScanResult(cards=[SURE] if frame.mean() > 0 else [UNSURE])


class _Stabiliser:
    def update(self, cards, now):
        return None


class _Clock:
    now = 10.0

    def __call__(self):
        return self.now


def test_the_camera_worker_posts_a_picture_and_its_reading_at_most_every_picture_interval():
    inbox, clock = queue.Queue(), _Clock()
    frames = [np.full((30, 40, 3), level, np.uint8) for level in (200, 0, 0)]
    worker = CameraWorker(_Guard(list(frames)), inbox, _Recogniser(), _Stabiliser(), clock=clock)
    worker.step()
    clock.now += PICTURE_EVERY / 2
    worker.step()  # read, but too soon after the last picture to post another
    clock.now += PICTURE_EVERY / 2
    worker.step()
    posted = [inbox.get_nowait() for _ in range(inbox.qsize())]
    pictures_posted = [item for item in posted if item[0] in ("seen", "frame")]
    assert [kind for kind, _ in pictures_posted] == ["seen", "frame", "seen", "frame"]
    assert pictures_posted[0][1] == [SURE] and pictures_posted[1][1] is frames[0]
    assert pictures_posted[2][1] == [UNSURE] and pictures_posted[3][1] is frames[2]
    assert worker.frames_read == 3


def test_the_table_scene_keeps_the_reading_for_the_camera_view():
    app = make_app(SIZE, strict=True)
    build_screen(app, "launcher")
    session = Session.new(app, ["Ann", "Bob"], "ru2014", 5, False, "camera")
    from companion.ui.nightmarium.table import TableScene

    app.push(TableScene(app, session))
    frame = np.zeros((30, 40, 3), np.uint8)
    app.inbox.put(("seen", [UNSURE]))
    app.inbox.put(("frame", frame))
    app.step([], 0.03)
    assert session.latest_seen == [UNSURE] and session.latest_frame is frame


def test_a_grey_16_bit_camera_picture_is_posted_as_8_bit_colour_and_drawn():
    """Some cameras (and image files) give grey or 16-bit pictures: the recogniser reads them (vision.frames), and
    the picture the view and the calibration screen draw must be 8-bit BGR too."""
    inbox = queue.Queue()
    grey = np.full((300, 400), 40000, np.uint16)
    worker = CameraWorker(_Guard([grey]), inbox, _Recogniser(), _Stabiliser(), clock=_Clock())
    worker.step()
    posted = dict(inbox.get_nowait() for _ in range(inbox.qsize()))
    assert posted["frame"].shape == (300, 400, 3) and posted["frame"].dtype == np.uint8
    assert int(posted["frame"][0, 0, 0]) == 40000 >> 8
    scene, surface = camera_view(None)
    scene.session.latest_frame = posted["frame"]
    scene.dirty = True
    assert scene.app.render(surface, force=True) and scene.app.errors == []
    assert tuple(surface.get_at(on_screen(scene, surface, 200, 150)))[:3] == (156, 156, 156)


def test_with_a_calibration_the_table_and_its_seats_are_drawn_on_the_picture():
    from vision.geometry import Calibration

    scene, bare = camera_view(None)
    scene.app.calibration = Calibration(((20.0, 280.0), (380.0, 280.0), (380.0, 20.0), (20.0, 20.0)))
    scene.dirty = True
    surface = pygame.Surface(SIZE)
    assert scene.app.render(surface, force=True) and scene.app.errors == []
    seat_1 = on_screen(scene, surface, 200, 280)  # the middle of the near edge carries seat 1's number
    assert colour_count(surface, seat_1, theme.PANEL, reach=12) > 50
    assert colour_count(bare, seat_1, theme.PANEL, reach=12) == 0
    assert colour_count(surface, on_screen(scene, surface, 100, 280), theme.TEXT_DIM, reach=3) > 0


def _camera_caption(seen, frame_size):
    """The line under the camera's picture, and the scene (for its strings)."""
    app = make_app(SIZE, strict=True)
    build_screen(app, "launcher")
    session = Session.new(app, ["Ann", "Bob"], "ru2014", 5, False, "camera")
    session.latest_frame = np.full((frame_size[1], frame_size[0], 3), 90, np.uint8)
    session.latest_seen = seen
    scene = CameraViewScene(app, session)
    return scene.caption(0), scene


def test_cards_too_small_in_the_picture_say_hang_the_camera_lower(card_of_length):
    """A camera hung too high (the wiring guide's first mounting: cards 1/19 of the picture) reads far fewer cards
    surely (docs/vision.md, "Card size in the picture"); the player sees why under the picture."""
    small = [card_of_length(86, 100 + 120 * i, 300) for i in range(3)]
    caption, _ = _camera_caption(small, (1640, 1232))
    assert "hang the camera lower" in caption and "86 px, 1/19" in caption
    caption, _ = _camera_caption([card_of_length(110, 100, 100)], (1000, 750))
    assert "[camera] resolution" in caption and "110 px" in caption
    caption, _ = _camera_caption([card_of_length(500, 100, 100)], (1640, 1232))
    assert "hang the camera higher" in caption
    caption, scene = _camera_caption([card_of_length(200, 100, 300)], (1640, 1232))
    assert caption == scene.t("nm.camera.touch_to_teach"), "cards as measured: the usual line"


def test_the_camera_chip_warns_of_cards_too_small_in_the_picture(card_of_length):
    """On the table screen, where the game is played: the chip turns to the warning colour and says so; touching it
    opens the camera view, whose caption says what to change."""
    from companion.ui.nightmarium.table import TableScene

    app = make_app(SIZE, strict=True)
    build_screen(app, "launcher")
    session = Session.new(app, ["Ann", "Bob"], "ru2014", 5, False, "camera")
    session.latest_frame = np.full((1232, 1640, 3), 90, np.uint8)
    table = TableScene(app, session)
    session.latest_seen = [card_of_length(200, 100, 300)]
    assert table.camera_chip_state() == (table.t("camera.ok"), theme.GOOD)
    session.latest_seen = [card_of_length(86, 100 + 120 * i, 300) for i in range(3)]
    assert table.camera_chip_state() == (table.t("nm.camera.chip_small"), theme.WARNING)
    session.latest_seen = [card_of_length(500, 100, 300)]
    assert table.camera_chip_state() == (table.t("nm.camera.chip_large"), theme.WARNING)
    app.push(table)
    surface = pygame.Surface(SIZE)
    assert app.render(surface, force=True) and app.errors == []


def _keep_button(scene):
    return [button for button in scene.buttons if button.on_press == scene.keep_picture]


def test_keep_picture_saves_the_camera_picture_to_measure_on_later(tmp_path, monkeypatch):
    import cv2

    monkeypatch.setenv("COMPANION_PHOTOS", str(tmp_path / "photos"))
    scene, surface = camera_view([SURE])
    scene.session.latest_frame[20:60, 30:90] = (10, 200, 30)
    [keep] = _keep_button(scene)
    corner = on_screen(scene, surface, FRAME[0], 0)
    assert keep.rect.right <= corner[0] and keep.rect.top >= corner[1] and keep.rect.collidepoint(
        corner[0] - 30, corner[1] + 30), "on the picture's top-right corner"
    keep.on_press()
    kept = tmp_path / "photos" / "photo-0001.jpg"
    picture = cv2.imread(str(kept))
    assert picture.shape == (FRAME[1], FRAME[0], 3)
    assert np.abs(picture[40, 60].astype(int) - (10, 200, 30)).max() < 12  # the picture shown, as a JPEG keeps it
    assert scene.caption(0) == scene.t("nm.camera.kept", name="photo-0001.jpg")
    keep.on_press()
    assert (tmp_path / "photos" / "photo-0002.jpg").is_file(), "a second picture does not overwrite the first"


def test_a_picture_that_cannot_be_kept_says_why_and_the_view_goes_on(tmp_path, monkeypatch):
    (tmp_path / "photos").write_text("a file where the folder should be")
    monkeypatch.setenv("COMPANION_PHOTOS", str(tmp_path / "photos"))
    scene, surface = camera_view([SURE])
    [keep] = _keep_button(scene)
    keep.on_press()
    caption, warning = scene.caption_and_warning(0)
    assert warning and caption.startswith(scene.t("nm.camera.keep_failed", error=""))
    assert scene.app.render(surface, force=True) and scene.app.errors == []


def test_only_a_camera_picture_can_be_kept():
    scene, _ = camera_view([SURE], mode="simulated")
    assert _keep_button(scene) == []
