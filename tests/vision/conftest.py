import os

os.environ.setdefault("SDL_VIDEODRIVER", "dummy")
os.environ.setdefault("SDL_AUDIODRIVER", "dummy")

import pytest  # noqa: E402

from vision.cards import scans_available  # noqa: E402


@pytest.fixture(scope="session")
def recogniser():
    from vision.pipeline import Recogniser

    result = Recogniser()
    assert result.model is not None, result.model_error
    return result


@pytest.fixture(scope="session")
def thorough_recogniser():
    """The recogniser that also lays cards from the corners straight edges make (`[camera] thorough`)."""
    from vision.pipeline import Recogniser

    result = Recogniser(thorough=True)
    assert result.model is not None, result.model_error
    return result


@pytest.fixture
def needs_scans():
    if not scans_available():
        pytest.skip("the card scans (../shared/cards or COMPANION_CARDS_DIR) are not available here")


@pytest.fixture(scope="session")
def bench_scene_at():
    """A maker of one of the bench's scenes from the generator's state just before it (PCG64: state, increment,
    has_uint32, uinteger), drawn as `companion vision bench` draws it: of the held-out scans or the training ones, each
    seat's creatures pushed together or not (`touching`), the table markers drawn or not (`markers`), or one card alone
    (`lone`), its cards as long as `widths` allows (the bench's `--card-widths`). A scene found among a seed's many is
    drawn without drawing those before it; the tests that draw one ask for the scans too."""
    def make(heldout: bool, state: int, increment: int, has_uint32: int, uinteger: int, touching: bool = False,
             markers: bool = False, lone: bool = False, widths: tuple[float, float] = (140.0, 330.0)):
        from vision.bench import bench_cards
        from vision.synthetic import SceneGenerator

        generator = SceneGenerator(0, card_ids=[card.id for card in bench_cards(heldout)], use_scans=True,
                                   touching=touching)
        generator.rng.bit_generator.state = {"bit_generator": "PCG64", "has_uint32": has_uint32, "uinteger": uinteger,
                                             "state": {"state": state, "inc": increment}}
        lay = generator.lone_scene if lone else generator.random_scene
        return lay(width_range=widths, **({"markers": True} if markers else {}))

    return make


@pytest.fixture
def checked_cloth():
    """A maker of checked tablecloth frames: (height, width, check size in px, light BGR, dark BGR) -> frame."""
    import numpy as np

    def make(height, width, check, light_colour, dark_colour):
        ys, xs = np.mgrid[0:height, 0:width]
        light = ((ys // check + xs // check) % 2).astype(bool)
        frame = np.empty((height, width, 3), np.uint8)
        frame[light] = light_colour
        frame[~light] = dark_colour
        return frame

    return make


@pytest.fixture
def lone_card_scene(needs_scans):
    """A maker of scenes of one real card alone at seat 0: (card id, generator seed, Conditions fields) -> scene; on
    wood, 260 px wide, unless told otherwise."""
    from vision.synthetic import Conditions, SceneGenerator

    def make(card_id, seed=5, **conditions):
        generator = SceneGenerator(seed, card_ids=[card_id], use_scans=True)
        conditions = {"card_width_px": 260, "table": "wood", "noise": 2} | conditions
        return generator.render({0: [[card_id]]}, Conditions(**conditions))

    return make


@pytest.fixture(scope="session")
def turned_card():
    """A maker of a right-angled card's own corners (TL, TR, BR, BL, clockwise in the image): (centre, width, angle in
    radians) -> 4x2 array. Session-scoped, so hypothesis tests can take it."""
    import numpy as np

    from vision.cards import CARD_ASPECT

    def make(centre, width: float, angle: float):
        across = np.array([np.cos(angle), np.sin(angle)]) * width
        down = np.array([-np.sin(angle), np.cos(angle)]) * width / CARD_ASPECT
        top_left = np.asarray(centre, np.float64) - (across + down) / 2
        return np.array([top_left, top_left + across, top_left + across + down, top_left + down])

    return make


@pytest.fixture
def legions_through_camera(recogniser, needs_scans):
    """A reader of the first 5 bench scenes (held-out cards) through a camera whose colours differ: (hue degrees,
    saturation scale) -> [(card id, legion read, true legion, confidence)] of the visible cards found."""
    from vision.bench import bench_cards, match
    from vision.synthetic import SceneGenerator

    def read(hue: float, saturation: float) -> list:
        generator = SceneGenerator(2024, card_ids=[c.id for c in bench_cards(heldout=True)], use_scans=True,
                                   printing=(hue, saturation))
        readings = []
        for _ in range(5):
            scene = generator.random_scene()
            pairs = match(recogniser.scan(scene.frame).cards, scene.cards)
            readings += [(truth.card_id, card.legion, truth.legion, round(card.confidence, 2)) for card, truth in pairs
                         if truth is not None and not truth.occluded]
        return readings

    return read
