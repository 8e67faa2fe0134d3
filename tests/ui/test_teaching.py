"""Teaching a card from the touchscreen (issue 3: `teach`, "the user shows their own cards ... and the recogniser
adapts"): a card the camera view marks "?" is touched, its facts picked, and the recogniser retrained with it and
every card taught before, on a worker thread that tells the screen how far it has got."""
import json
import queue

import numpy as np
import pygame
import pytest

from companion.games.nightmarium import Card
from companion.ui.nightmarium.camera_view import CameraViewScene
from companion.ui.nightmarium.picker import CardPicker
from companion.ui.nightmarium.session import Session
from companion.ui.nightmarium.teaching import TeachWorker, start_teaching
from companion.ui.render import build_screen, make_app
from vision.table_state import SeenCard
from vision.taught import TeachError, card_with_facts, examples_dir, remember_example, remembered_examples

UNSURE = SeenCard("brown", ("legs",), "herald", ((220.0, 150.0), (320.0, 150.0), (320.0, 214.0), (220.0, 214.0)), 0.5)


@pytest.fixture
def taught_home(tmp_path, monkeypatch):
    path = tmp_path / "taught" / "vision-model.json"
    monkeypatch.setenv("COMPANION_VISION_PARAMS", str(path))
    return path


def _picture():
    rng = np.random.default_rng(3)
    return rng.integers(0, 255, (300, 400, 3), dtype=np.uint8)


def test_a_taught_card_is_kept_with_its_corners_and_facts_and_read_back(taught_home):
    picture = _picture()
    corners = np.array(UNSURE.corners)
    card = card_with_facts("brown", ("legs",), None)
    assert (card.legion, card.parts, card.ability) == ("brown", ("legs",), None) and card.id > 0
    remember_example(picture, corners, card)
    remember_example(picture, corners + 10, card_with_facts("red", ("head",), "jester"))
    [(first, first_corners, first_card), (_, second_corners, second_card)] = remembered_examples()
    def facts(each):
        return each.id, each.legion, each.parts, each.ability

    assert facts(first_card) == facts(card) and facts(second_card)[1:] == ("red", ("head",), "jester")
    # The picture kept is the card with a margin around it, and the corners are moved with it.
    left, top = (corners.min(axis=0) - 0.25 * 100).astype(int)
    assert np.array_equal(first, picture[top:top + first.shape[0], left:left + first.shape[1]])
    assert np.allclose(first_corners, corners - [left, top])
    assert np.allclose(second_corners - first_corners, 0, atol=1)  # both cut with the same margin


def test_a_damaged_kept_card_is_skipped_not_fatal(taught_home):
    remember_example(_picture(), np.array(UNSURE.corners), card_with_facts("blue", ("torso",), None))
    folder = examples_dir()
    (folder / "0002.json").write_text('{"corners": [[1, 2]', encoding="utf-8")  # cut off mid-write
    (folder / "0003.json").write_text(json.dumps({"corners": [[0, 0]] * 4, "id": 1, "legion": "red", "parts": [],
                                                  "ability": None}), encoding="utf-8")  # its picture is missing
    assert len(remembered_examples()) == 1


def test_facts_no_printed_card_has_still_make_a_card_to_teach():
    from itertools import product

    from vision.cards import all_cards

    printed = {(card.legion, tuple(card.parts), card.ability) for card in all_cards()}
    wholes = product(("blue", "red", "brown", "green"), [("legs", "torso", "head")], (None, "herald", "devourer"))
    unprinted = next(combination for combination in wholes if combination not in printed)
    card = card_with_facts(*unprinted)
    assert card.id == 0 and (card.legion, card.parts, card.ability) == unprinted


def test_the_teach_worker_keeps_the_card_retrains_and_reports(taught_home):
    inbox, taught, seen_examples = queue.Queue(), [], []

    def fake_teach(examples, samples, progress):
        seen_examples.extend(examples)
        progress("rendering crops: 50%")
        return taught_home

    worker = TeachWorker(inbox, _picture(), UNSURE.corners, ("brown", ("legs",), None), on_taught=taught.append,
                         teach=fake_teach)
    worker.run()
    posted = [inbox.get_nowait() for _ in range(inbox.qsize())]
    assert ("teach_status", ("progress", "rendering crops: 50%")) in posted
    assert posted[-1] == ("teach_status", ("done", None))
    assert taught == [taught_home]
    assert [card.ability for _, _, card in seen_examples] == [None]


def test_a_failed_teaching_is_said_and_loads_nothing(taught_home):
    inbox, taught = queue.Queue(), []

    def failing_teach(examples, samples, progress):
        raise TeachError("cannot save to /full/disk")

    TeachWorker(inbox, _picture(), UNSURE.corners, ("brown", ("legs",), None), on_taught=taught.append,
                teach=failing_teach).run()
    posted = [inbox.get_nowait() for _ in range(inbox.qsize())]
    assert posted[-1] == ("teach_status", ("failed", "cannot save to /full/disk"))
    assert taught == []


def _camera_view():
    app = make_app((800, 480), strict=True)
    build_screen(app, "launcher")
    session = Session.new(app, ["Ann", "Bob"], "ru2014", 5, False, "camera")
    session.latest_frame = np.full((300, 400, 3), 90, np.uint8)
    session.latest_seen = [UNSURE]
    scene = CameraViewScene(app, session)
    app.push(scene)
    assert app.render(pygame.Surface((800, 480)), force=True)
    return app, session, scene


def _touch_card_at(scene, x, y):
    """Touch the camera view's 400x300 picture at picture point (x, y) (it is drawn fitted into 780x390)."""
    area = pygame.Rect(10, 10, 780, 390)
    scale = min(area.width / 400, area.height / 300)
    centre = (area.centerx + (x - 200) * scale, area.centery + (y - 150) * scale)
    [target] = [button for button in scene.buttons if not button.visible and button.rect.collidepoint(centre)]
    target.on_press()


def test_touching_an_unsure_card_asks_which_card_it_is_and_starts_teaching_it():
    app, session, scene = _camera_view()
    _touch_card_at(scene, 270, 182)
    picker = app.top
    assert isinstance(picker, CardPicker) and picker.purpose == "teach"
    assert picker.face().same_face(Card.face("brown", ("legs",), "herald"))  # starts from what was read
    # ... and shows the card as the camera saw it, cut out of the picture (grey 90 here, flat).
    assert picker.photo is not None and picker.photo.get_size() == (204, 131)
    assert tuple(picker.photo.get_at((100, 65)))[:3] == (90, 90, 90)
    screen = pygame.Surface((800, 480))
    assert app.render(screen, force=True)
    shown = tuple(screen.get_at((30, 340)))[:3]
    assert all(abs(channel - 90) <= 4 for channel in shown), f"the photo below the choices, not {shown}"
    picker.set(ability=None)  # the user says it has none
    picker.next()
    assert app.top is scene
    assert app.teaching is not None and not app.teaching.running  # tests start no threads (app.background)
    assert app.teaching.facts == ("brown", ("legs",), None)
    assert app.teaching.frame is session.latest_frame and app.teaching.corners == UNSURE.corners
    assert app.teach_status[0] == "progress"


def test_the_camera_view_says_how_far_teaching_has_got_and_when_it_is_done():
    app, session, scene = _camera_view()
    app.inbox.put(("teach_status", ("progress", "rendering crops of the scanned cards: 25%")))
    app.step([], 0.03)
    assert app.teach_status == ("progress", "rendering crops of the scanned cards: 25%")
    assert "25%" in scene.teach_caption()
    app.inbox.put(("teach_status", ("done", None)))
    app.step([], 0.03)
    assert scene.teach_caption() == scene.t("nm.teach.done")


def test_only_one_teaching_runs_at_a_time():
    app, session, scene = _camera_view()

    class Running:
        running = True

    app.teaching = Running()
    assert start_teaching(app, session.latest_frame, UNSURE, ("brown", ("legs",), None)) is None
    scene.teach(UNSURE, session.latest_frame)
    assert app.top is scene, "no picker while a teaching runs"


def test_a_card_read_surely_in_the_wrong_legion_can_be_touched_and_taught_too():
    """Another printing's colours are read in the wrong legion with confidence (no "?"): every outlined card can be
    touched, and the caption says so."""
    sure = SeenCard("red", ("torso",), None, ((40.0, 40.0), (140.0, 40.0), (140.0, 104.0), (40.0, 104.0)), 0.97)
    app, session, scene = _camera_view()
    session.latest_seen = [sure]
    screen = pygame.Surface((800, 480))
    scene.dirty = True
    assert app.render(screen, force=True)
    _touch_card_at(scene, 90, 72)
    picker = app.top
    assert isinstance(picker, CardPicker) and picker.purpose == "teach"
    picker.set(legion="brown")  # the user says which legion it is
    picker.next()
    assert app.teaching.facts == ("brown", ("torso",), None) and app.teaching.corners == sure.corners
    app.teach_status = None
    # The caption's advice on the cards' size comes first (vision.framing): here the card is as large in the picture
    # as the recogniser is measured on, 200 px in a 1640x1232 one.
    session.latest_frame = np.zeros((1232, 1640, 3), np.uint8)
    session.latest_seen = [SeenCard("red", ("torso",), None, ((40.0, 40.0), (240.0, 40.0), (240.0, 168.0),
                                                              (40.0, 168.0)), 0.97)]
    assert scene.caption(unsure=0) == scene.t("nm.camera.touch_to_teach")
    session.latest_seen = []
    assert scene.caption(unsure=0) == scene.t("camera.ok"), "no card read: nothing to touch"


def test_everything_taught_can_be_forgotten_with_a_second_touch(taught_home):
    """A card taught as the wrong one must not stay for good: the camera view offers to forget what was taught
    (asking twice), and the camera then reads with the built-in recogniser."""
    from vision.model import CardModel
    from vision.taught import taught_count

    app, session, scene = _camera_view()
    assert not any(button.label.startswith("Forget") for button in scene.buttons), "nothing taught: nothing to forget"
    remember_example(_picture(), np.array(UNSURE.corners), card_with_facts("brown", ("legs",), None))
    CardModel.load().save(taught_home)
    assert taught_count() == 1

    class Worker:
        reloads = 0

        def reload_recogniser(self):
            self.reloads += 1

    app.camera_worker = Worker()
    scene.dirty = True
    assert app.render(pygame.Surface((800, 480)), force=True)
    [forget] = [button for button in scene.buttons if button.label == scene.t("nm.teach.forget", count=1)]
    forget.on_press()
    assert taught_home.exists() and taught_count() == 1, "the first touch only asks"
    assert app.render(pygame.Surface((800, 480)), force=True)
    [again] = [button for button in scene.buttons if button.label == scene.t("nm.teach.forget_confirm", count=1)]
    again.on_press()
    assert not taught_home.exists() and not taught_home.with_suffix(".npz").exists()
    assert not examples_dir().exists() and taught_count() == 0
    assert app.camera_worker.reloads == 1
    assert scene.caption(unsure=0) == scene.t("nm.teach.forgotten", count="1")
    assert app.render(pygame.Surface((800, 480)), force=True)
    assert not any(button.label.startswith("Forget") for button in scene.buttons), "nothing left to forget"


def test_when_the_colours_taught_do_not_help_the_screen_suggests_more_light(taught_home):
    """Washed-out colours bring the legions so near that teaching cannot tell them apart (vision.taught keeps the
    legion head and records "unclear"): the camera view says so when the teaching is done."""
    import json

    def unclear_teach(examples, samples, progress):
        taught_home.parent.mkdir(parents=True, exist_ok=True)
        taught_home.write_text(json.dumps({"about": {"colours": "unclear"}}), encoding="utf-8")
        return taught_home

    inbox = queue.Queue()
    TeachWorker(inbox, _picture(), UNSURE.corners, ("brown", ("legs",), None), teach=unclear_teach).run()
    posted = [inbox.get_nowait() for _ in range(inbox.qsize())]
    assert posted[-1] == ("teach_status", ("done", "unclear"))
    app, session, scene = _camera_view()
    app.inbox.put(posted[-1])
    app.step([], 0.03)
    assert scene.teach_caption() == scene.t("nm.teach.done_colours_unclear")
