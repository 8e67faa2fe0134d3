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


@pytest.fixture
def needs_scans():
    if not scans_available():
        pytest.skip("the card scans (../shared/cards or COMPANION_CARDS_DIR) are not available here")
