"""Strings in English, Russian and Polish, with each printed edition's own names, and a font that has the letters."""
import pygame
import pytest

from companion.ui import theme
from companion.ui.i18n import LANGUAGES, t, table


def test_every_string_has_all_three_languages():
    missing = [(key, lang) for key, entry in table().items() for lang in LANGUAGES if not entry.get(lang)]
    assert missing == []


@pytest.mark.parametrize("lang,names", [
    ("ru", ["Певчий", "Плакальщик", "Пересмешник", "Палач", "Падальщик", "Пожиратель"]),
    ("pl", ["Posłaniec", "Żałobnik", "Błazen", "Siepacz", "Szabrownik", "Kąsacz"]),
    ("en", ["Herald", "Mourner", "Jester", "Executioner", "Scavenger", "Devourer"]),
])
def test_abilities_carry_each_edition_s_printed_names(lang, names):
    """RULES.md 1.8: RU 2014 and PL 2017 names of the six abilities."""
    keys = ["herald", "mourner", "jester", "executioner", "scavenger", "devourer"]
    assert [t(f"nm.ability.{key}", lang) for key in keys] == names


def test_legions_carry_the_polish_edition_s_names():
    """RULES.md 1.2 / cards README: PL family names."""
    assert [t(f"nm.legion.{legion}", "pl") for legion in ("blue", "brown", "green", "red")] == [
        "Nekronauci", "Insektoidy", "Chimery", "Homunkulusy"]


def test_a_missing_key_shows_itself_and_values_are_filled_in():
    assert t("no.such.key", "ru") == "no.such.key"
    assert t("nm.turn", "pl", turn=3, name="Łucja") == "Tura 3: Łucja"


@pytest.mark.parametrize("bold", [False, True])
def test_the_font_has_cyrillic_and_polish_letters(bold):
    pygame.font.init()
    font = theme.font(24, bold)
    letters = "ąćęłńóśźżĄĆĘŁŃÓŚŹŻабвгдеёжзийклмнопрстуфхцчшщъыьэюяЁЖЩЯ"
    missing = [letter for letter in letters if font.metrics(letter)[0] is None]
    assert missing == []
    # a missing glyph renders as the same box for every letter: distinct letters must look different
    assert pygame.image.tobytes(font.render("Ж", True, (255, 255, 255)), "RGB") != \
        pygame.image.tobytes(font.render("Ł", True, (255, 255, 255)), "RGB")
