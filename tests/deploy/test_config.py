"""The configuration file: search order, defaults, and refusals that name file, line, key and expectation."""
from pathlib import Path

import pytest

from companion import config as config_module
from companion.config import (EXAMPLE_CONFIG, Config, ConfigError, default_database_path, load_config,
                              parse_config_text)


def write(tmp_path, text, name="config.toml"):
    path = tmp_path / name
    path.write_text(text, encoding="utf-8")
    return path


def test_example_file_loads_and_equals_the_defaults():
    """The shipped example documents the defaults: loading it must change nothing."""
    loaded = load_config(EXAMPLE_CONFIG)
    assert loaded.source == EXAMPLE_CONFIG
    for section in ("display", "camera", "gpio", "game", "storage"):
        assert getattr(loaded, section) == getattr(Config(), section), section


def test_every_key_in_the_example_is_commented():
    """Issue 6: "an example with every key commented". Each key line has a comment on it or just above it."""
    lines = EXAMPLE_CONFIG.read_text(encoding="utf-8").splitlines()
    keys = 0
    for number, line in enumerate(lines):
        stripped = line.strip()
        if stripped and not stripped.startswith(("#", "[")) and "=" in stripped:
            keys += 1
            assert "#" in line or lines[number - 1].strip().startswith("#"), f"uncommented key: {line}"
    assert keys >= 15


def test_every_known_key_appears_in_the_example():
    text = EXAMPLE_CONFIG.read_text(encoding="utf-8")
    for section, checkers in config_module._CHECKERS.items():
        assert f"[{section}]" in text
        for key in checkers:
            assert f"{key} =" in text, f"{section}.{key} is not documented in the example"


def test_search_order_explicit_then_environment_then_user_then_system(tmp_path, monkeypatch):
    user = write(tmp_path, "[game]\nwin_target = 6\n", "user.toml")
    system = write(tmp_path, "[game]\nwin_target = 7\n", "system.toml")
    env = write(tmp_path, "[game]\nlanguage = \"pl\"\n", "env.toml")
    explicit = write(tmp_path, "[game]\nlanguage = \"ru\"\n", "explicit.toml")
    monkeypatch.setattr(config_module, "USER_CONFIG", user)
    monkeypatch.setattr(config_module, "SYSTEM_CONFIG", system)
    assert load_config().game.win_target == 6
    user.unlink()
    assert load_config().game.win_target == 7
    monkeypatch.setenv("COMPANION_CONFIG", str(env))
    assert load_config().game.language == "pl"
    assert load_config(explicit).game.language == "ru"
    system.unlink()
    monkeypatch.delenv("COMPANION_CONFIG")
    assert load_config() == Config()


def test_a_file_asked_for_but_missing_is_an_error_not_the_defaults(tmp_path, monkeypatch):
    with pytest.raises(ConfigError, match="not found"):
        load_config(tmp_path / "nope.toml")
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "gone.toml"))
    with pytest.raises(ConfigError, match=r"gone\.toml.*COMPANION_CONFIG"):
        load_config()


@pytest.mark.parametrize("text, line, key, expected", [
    ("[gpio]\nroll = 17\ndraw = 40\n", 3, "gpio.draw", "BCM GPIO number from 0 to 27"),
    ("[display]\nfullscreen = \"yes\"\n", 2, "display.fullscreen", "true or false"),
    ("# a comment\n[game]\n\nwin_target = 4\n", 4, "game.win_target", "from 5 to 7"),
    ("[game]\nwin_target = true\n", 2, "game.win_target", "from 5 to 7"),
    ("[game]\nlanguage = \"de\"\n", 2, "game.language", '"en", "ru", "pl"'),
    ("[camera]\nsource = \"usb:two\"\n", 2, "camera.source", "usb:N"),
    ("[camera]\nsource = \"/no/such/video.mp4\"\n", 2, "camera.source", "existing image, folder of images or video"),
    ("[display]\nsize = [800]\n", 2, "display.size", "[width, height]"),
    ("[gpio]\nbounce_time = 2\n", 2, "gpio.bounce_time", "seconds from 0 to 0.5"),
    ("[storage]\npath = \"\"\n", 2, "storage.path", "path of the saved-games database"),
])
def test_bad_values_name_file_line_key_and_expectation(tmp_path, text, line, key, expected):
    path = write(tmp_path, text)
    with pytest.raises(ConfigError) as refused:
        load_config(path)
    message = str(refused.value)
    assert str(path) in message and f"line {line}" in message and key in message and expected in message


def test_unknown_key_and_unknown_section_are_refused_with_their_line(tmp_path):
    path = write(tmp_path, "[display]\nfullscreen = false\n\n[gpio]\nenabled = true\nrol = 17\n")
    with pytest.raises(ConfigError, match=r"line 6: unknown key gpio\.rol; expected one of .*roll"):
        load_config(path)
    path = write(tmp_path, "[display]\nfullscreen = false\n[sound]\nvolume = 3\n")
    with pytest.raises(ConfigError, match=r"line 3: unknown section \[sound\]"):
        load_config(path)


def test_same_key_name_in_two_sections_reports_the_right_line():
    """`_line_of` must track sections: `path` in [camera] comment vs [storage] is not confused."""
    text = "[camera]\nsource = \"auto\"\n[gpio]\nenabled = true\nled = 99\n"
    with pytest.raises(ConfigError, match="line 5: gpio.led"):
        parse_config_text(text)


def test_two_devices_on_one_pin_are_refused():
    with pytest.raises(ConfigError, match=r"line 3: gpio\.buzzer = 17 is already used by gpio\.roll"):
        parse_config_text("[gpio]\nroll = 17\nbuzzer = 17\n")


def test_seals_need_an_edition_that_has_them():
    """RULES.md 1.13 / rulebook 000 (RU 2014, "печати"): seals are RU-only; rulebook 001 (PL 2017) has none."""
    with pytest.raises(ConfigError, match=r"line 3: game\.seals"):
        parse_config_text("[game]\nnightmarium_edition = \"pl2017\"\nseals = true\n")
    assert parse_config_text("[game]\nnightmarium_edition = \"ru2014\"\nseals = true\n").game.seals


def test_broken_toml_reports_its_line(tmp_path):
    path = write(tmp_path, "[game]\nlanguage = \"en\"\nwin_target = \n")
    with pytest.raises(ConfigError, match=r"config\.toml: not valid TOML: .*line 3"):
        load_config(path)


def test_unreadable_file_is_a_config_error(tmp_path):
    path = tmp_path / "binary.toml"
    path.write_bytes(b"\xff\xfe\x00garbage")
    with pytest.raises(ConfigError, match="binary.toml"):
        load_config(path)


def test_values_are_converted_and_frozen(tmp_path):
    loaded = load_config(write(tmp_path, "[display]\nsize = [1024, 600]\n[camera]\nretry_max_seconds = 5\n"
                                         "[storage]\npath = \"~/games.db\"\n"))
    assert loaded.display.size == (1024, 600)
    assert loaded.camera.retry_max_seconds == 5.0 and isinstance(loaded.camera.retry_max_seconds, float)
    assert loaded.storage.path == Path.home() / "games.db"
    with pytest.raises(AttributeError):
        loaded.display.size = (1, 1)


def test_database_default_follows_systemd_state_directory(monkeypatch, tmp_path):
    monkeypatch.setenv("STATE_DIRECTORY", "/var/lib/companion:/var/lib/other")
    assert default_database_path() == Path("/var/lib/companion/companion.db")
    monkeypatch.delenv("STATE_DIRECTORY")
    assert default_database_path() == tmp_path / "home" / ".local" / "state" / "companion" / "companion.db"


@pytest.mark.parametrize("source", ["auto", "picamera", "synthetic", "synthetic:3", "usb:0", "usb:12"])
def test_camera_source_keywords_that_vision_sources_understands_are_accepted(source):
    assert parse_config_text(f'[camera]\nsource = "{source}"\n').camera.source == source


def test_camera_source_may_be_an_existing_folder_or_file(tmp_path):
    video = tmp_path / "game.mp4"
    video.write_bytes(b"\x00")
    assert parse_config_text(f'[camera]\nsource = "{tmp_path}"\n').camera.source == str(tmp_path)
    assert parse_config_text(f'[camera]\nsource = "{video}"\n').camera.source == str(video)
    with pytest.raises(ConfigError, match="camera.source"):
        parse_config_text('[camera]\nsource = "synthetic:x"\n')


def test_camera_calibration_is_an_optional_file_written_by_vision_calibrate(tmp_path):
    """The table calibration the camera worker hands to the vision pipeline (`companion vision calibrate`)."""
    from vision.geometry import Calibration

    assert Config().camera.calibration is None
    good = tmp_path / "calibration.json"
    Calibration.from_json({"table_corners": [[0, 960], [1280, 960], [1280, 0], [0, 0]]}).save(good)
    assert parse_config_text(f'[camera]\ncalibration = "{good}"\n').camera.calibration == good
    with pytest.raises(ConfigError, match=r"line 3: camera.calibration = .* no such file"):
        parse_config_text(f'[camera]\nsource = "auto"\ncalibration = "{tmp_path / "absent.json"}"\n')
    broken = write(tmp_path, '{"table_corners": [[0, 0], [1, 1]]}', "broken.json")
    with pytest.raises(ConfigError, match="line 2: camera.calibration .*exactly four table corners"):
        parse_config_text(f'[camera]\ncalibration = "{broken}"\n')


def test_camera_thorough_is_off_unless_set_to_a_boolean():
    """`[camera] thorough`: the recogniser's search along straight edges (vision.pipeline.Recogniser), off unless
    set."""
    assert Config().camera.thorough is False
    assert parse_config_text("[camera]\nthorough = true\n").camera.thorough is True
    with pytest.raises(ConfigError, match="line 2: camera.thorough"):
        parse_config_text('[camera]\nthorough = "yes"\n')
