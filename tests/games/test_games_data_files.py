"""The editable data files (dice faces, nightmare token numbers, spawn table): user copies and bad edits."""
import random

import pytest

from companion.games.attic.dice import load_dice
from companion.games.attic.engine import AtticGame
from companion.games.common.engine import DATA_DIR_ENV, DataFileError
from companion.games.nemesis.data_file import load_nightmares_data
from companion.games.nemesis.engine import NemesisBag

GOOD_NIGHTMARES = """
token_numbers = [5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5, 5]
[spawn_by_level]
1 = "lurking"
2 = "whispering"
3 = "whispering"
4 = "stalking"
5 = "oppressive"
[figures]
lurking = 6
whispering = 4
stalking = 1
oppressive = 1
[colours]
names = ["red", "blue"]
"""


def test_a_users_edited_dice_file_wins(tmp_path, monkeypatch):
    (tmp_path / "dice.toml").write_text('[[die]]\nfaces = ["step"]\n[[die]]\nfaces = ["cross", "flip"]\n')
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert load_dice() == (("step",), ("cross", "flip"))
    game = AtticGame.new(2, random.Random(1))
    assert game.roll()["faces"][0] == "step"


def test_no_user_copy_falls_back_to_the_default(tmp_path, monkeypatch):
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    assert len(load_dice()) == 2


@pytest.mark.parametrize("text, complaint", [
    ("this is = = not toml", "not valid TOML"),
    ('[[die]]\nfaces = ["step"]\n', "exactly two"),
    ('[[die]]\nfaces = []\n[[die]]\nfaces = ["step"]\n', "non-empty"),
    ('[[die]]\nfaces = ["jump"]\n[[die]]\nfaces = ["step"]\n', "unknown symbols"),
])
def test_bad_dice_files_are_refused_with_the_reason(tmp_path, monkeypatch, text, complaint):
    (tmp_path / "dice.toml").write_text(text)
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    with pytest.raises(DataFileError, match=complaint) as error:
        load_dice()
    assert "dice.toml" in str(error.value)


def test_a_users_nightmare_numbers_drive_the_surprise_attack(tmp_path, monkeypatch):
    """Seed 004 "Жетон кошмара" Б with every token numbered 5: a hand of 4 is surprised."""
    (tmp_path / "nightmares.toml").write_text(GOOD_NIGHTMARES)
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    bag = NemesisBag.new(["red"], random.Random(3))
    while True:
        result = bag.draw_encounter("red", 4)
        if result["kind"] == "nightmare":
            break
    assert result["number"] == 5 and result["surprise"] is True


@pytest.mark.parametrize("edit, complaint", [
    (lambda text: text.replace("[5, 5, 5, 5, ", "["), "16 whole numbers"),
    (lambda text: text.replace('5 = "oppressive"', '5 = "dragon"'), "spawn_by_level"),
    (lambda text: text.replace('5 = "oppressive"', ""), "spawn_by_level"),
    (lambda text: text.replace("stalking = 1\n", ""), "figures"),
    (lambda text: text.replace('["red", "blue"]', '["red", "red"]'), "distinct"),
])
def test_bad_nightmare_files_are_refused_with_the_reason(tmp_path, monkeypatch, edit, complaint):
    (tmp_path / "nightmares.toml").write_text(edit(GOOD_NIGHTMARES))
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    with pytest.raises(DataFileError, match=complaint):
        load_nightmares_data()


def test_saved_games_keep_their_own_data(tmp_path, monkeypatch):
    """A game saved with one data file resumes with the same numbers even after the file is edited."""
    bag = NemesisBag.new(["red"], random.Random(3))
    saved = bag.to_json()
    (tmp_path / "nightmares.toml").write_text(GOOD_NIGHTMARES)
    monkeypatch.setenv(DATA_DIR_ENV, str(tmp_path))
    resumed = NemesisBag.from_json(saved, random.Random(3))
    assert resumed.data.token_numbers == bag.data.token_numbers
    assert resumed.data.token_numbers != (5,) * 16
