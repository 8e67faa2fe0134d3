"""The companion's one configuration file: found, parsed, checked, and frozen.

A mistake in the file stops the app at start with the file, the line, the key and what was expected, because
a companion that starts half-configured fails later, mid-game, in a way nobody at the table can diagnose.
"""
from __future__ import annotations

import dataclasses
import os
import re
import tomllib
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Callable

from companion.games.nightmarium.variants import EDITIONS, WIN_TARGETS

CONFIG_ENV = "COMPANION_CONFIG"
USER_CONFIG = Path("~/.config/companion/config.toml")
SYSTEM_CONFIG = Path("/etc/companion/config.toml")
EXAMPLE_CONFIG = Path(__file__).resolve().parent / "data" / "config.example.toml"

LANGUAGES = ("en", "ru", "pl")
CAMERA_KEYWORDS = ("auto", "picamera", "synthetic")
# BCM numbers a Pi exposes on its 40-pin header.
BCM_PINS = range(0, 28)


class ConfigError(ValueError):
    """A configuration file that cannot be used; the message is meant for the person editing the file."""


def default_database_path() -> Path:
    """Where saved games live: systemd's StateDirectory when run as the service, else the XDG state folder."""
    state_directory = os.environ.get("STATE_DIRECTORY", "")
    if state_directory:
        # systemd passes a colon-separated list when a unit names several state directories.
        return Path(state_directory.split(":")[0]) / "companion.db"
    xdg_state = os.environ.get("XDG_STATE_HOME") or str(Path.home() / ".local" / "state")
    return Path(xdg_state) / "companion" / "companion.db"


@dataclass(frozen=True)
class DisplayConfig:
    fullscreen: bool = True
    size: tuple[int, int] = (800, 480)


@dataclass(frozen=True)
class CameraConfig:
    source: str = "auto"
    #: What the camera is asked for: the recogniser is measured on 1640 x 1232 pictures (vision.sources.CAMERA_SIZE).
    resolution: tuple[int, int] = (1640, 1232)
    retry_max_seconds: float = 30.0
    #: The table calibration written by `companion vision calibrate`, or None: the frame is taken as the table.
    calibration: Path | None = None
    #: Also look for cards whose outline was lost, from the corners straight edges make: a card in a hundred more on a
    #: crowded table, for about a sixth more time a frame (vision.pipeline.Recogniser).
    thorough: bool = False


@dataclass(frozen=True)
class GpioConfig:
    enabled: bool = True
    roll: int = 17
    draw: int = 27
    confirm: int = 22
    led: int = 23
    rgb_red: int = 5
    rgb_green: int = 6
    rgb_blue: int = 26
    buzzer: int = 24
    bounce_time: float = 0.03
    hold_time: float = 1.0

    PIN_KEYS = ("roll", "draw", "confirm", "led", "rgb_red", "rgb_green", "rgb_blue", "buzzer")

    def pins(self) -> dict[str, int]:
        return {key: getattr(self, key) for key in self.PIN_KEYS}


@dataclass(frozen=True)
class GameConfig:
    language: str = "en"
    nightmarium_edition: str = "ru2014"
    win_target: int = 5
    seals: bool = False


@dataclass(frozen=True)
class StorageConfig:
    path: Path = field(default_factory=default_database_path)


@dataclass(frozen=True)
class Config:
    display: DisplayConfig = field(default_factory=DisplayConfig)
    camera: CameraConfig = field(default_factory=CameraConfig)
    gpio: GpioConfig = field(default_factory=GpioConfig)
    game: GameConfig = field(default_factory=GameConfig)
    storage: StorageConfig = field(default_factory=StorageConfig)
    #: The file this came from, or None for the built-in defaults.
    source: Path | None = None

    def describe(self) -> str:
        if self.source:
            return f"configuration from {self.source}"
        return "built-in defaults (no file at " + " or ".join(map(str, standard_places())) + ")"


# --- checking values -------------------------------------------------------------------------------------
# Each checker returns the converted value or raises _Refused with "what was expected".


class _Refused(Exception):
    pass


def _boolean(value: Any) -> bool:
    if not isinstance(value, bool):
        raise _Refused("true or false")
    return value


def _integer_in(values: range | tuple[int, ...], what: str) -> Callable[[Any], int]:
    def check(value: Any) -> int:
        if isinstance(value, bool) or not isinstance(value, int) or value not in values:
            raise _Refused(what)
        return value
    return check


def _number_in(low: float, high: float, what: str) -> Callable[[Any], float]:
    def check(value: Any) -> float:
        if isinstance(value, bool) or not isinstance(value, (int, float)) or not low <= value <= high:
            raise _Refused(what)
        return float(value)
    return check


def _choice(choices: tuple[str, ...]) -> Callable[[Any], str]:
    def check(value: Any) -> str:
        if value not in choices:
            raise _Refused("one of " + ", ".join(f'"{choice}"' for choice in choices))
        return value
    return check


def _pixel_size(low: int, high: int) -> Callable[[Any], tuple[int, int]]:
    def check(value: Any) -> tuple[int, int]:
        if (not isinstance(value, list) or len(value) != 2
                or any(isinstance(n, bool) or not isinstance(n, int) or not low <= n <= high for n in value)):
            raise _Refused(f"[width, height] in pixels, each a whole number from {low} to {high}")
        return (value[0], value[1])
    return check


def _camera_source(value: Any) -> str:
    expected = ('"auto", "picamera", "synthetic", "synthetic:SEED", "usb:N" (N = 0, 1, ...) '
                "or the path of an existing image, folder of images or video file")
    if not isinstance(value, str) or not value:
        raise _Refused(expected)
    if value in CAMERA_KEYWORDS or re.fullmatch(r"usb:\d+|synthetic:\d+", value):
        return value
    if value.startswith(("usb:", "synthetic:")) or not Path(value).expanduser().exists():
        raise _Refused(expected)
    return str(Path(value).expanduser())


def _calibration_file(value: Any) -> Path:
    expected = ("the path of an existing table calibration file written by `companion vision calibrate`, "
                "e.g. \"/etc/companion/calibration.json\"")
    if not isinstance(value, str) or not value.strip():
        raise _Refused(expected)
    path = Path(value).expanduser()
    if not path.is_file():
        raise _Refused(expected + " (there is no such file)")
    try:
        from vision.geometry import Calibration, CalibrationError
    except ImportError:  # a box without the vision package cannot use it anyway; the camera worker will say so
        return path
    try:
        Calibration.load(path)
    except CalibrationError as error:
        raise _Refused(f"{expected} ({error})") from None
    return path


def _database_path(value: Any) -> Path:
    if not isinstance(value, str) or not value.strip():
        raise _Refused("the path of the saved-games database file, e.g. \"/var/lib/companion/companion.db\"")
    path = Path(value).expanduser()
    if path.exists() and path.is_dir():
        raise _Refused("a file path, not a directory")
    return path


_PIN = _integer_in(BCM_PINS, "a BCM GPIO number from 0 to 27")

_CHECKERS: dict[str, dict[str, Callable[[Any], Any]]] = {
    "display": {
        "fullscreen": _boolean,
        "size": _pixel_size(240, 7680),
    },
    "camera": {
        "source": _camera_source,
        "resolution": _pixel_size(160, 4656),
        "retry_max_seconds": _number_in(1, 600, "a number of seconds from 1 to 600"),
        "calibration": _calibration_file,
        "thorough": _boolean,
    },
    "gpio": {
        "enabled": _boolean,
        **{key: _PIN for key in GpioConfig.PIN_KEYS},
        "bounce_time": _number_in(0.0, 0.5, "a number of seconds from 0 to 0.5"),
        "hold_time": _number_in(0.2, 10.0, "a number of seconds from 0.2 to 10"),
    },
    "game": {
        "language": _choice(LANGUAGES),
        "nightmarium_edition": _choice(tuple(EDITIONS)),
        "win_target": _integer_in(tuple(WIN_TARGETS), f"a whole number from {min(WIN_TARGETS)} to {max(WIN_TARGETS)}"),
        "seals": _boolean,
    },
    "storage": {
        "path": _database_path,
    },
}

_SECTION_TYPES = {
    "display": DisplayConfig, "camera": CameraConfig, "gpio": GpioConfig, "game": GameConfig,
    "storage": StorageConfig,
}


# --- finding and reading the file ------------------------------------------------------------------------


def standard_places() -> list[Path]:
    """Where a configuration file is looked for when none is named: per user, then system-wide."""
    return [USER_CONFIG.expanduser(), SYSTEM_CONFIG]


def load_config(path: str | os.PathLike | None = None) -> Config:
    """The configuration from an explicit path, $COMPANION_CONFIG, ~/.config, /etc, or the defaults.

    A file that was asked for explicitly (argument or environment variable) must exist; the two standard
    places are optional.
    """
    if path is not None or os.environ.get(CONFIG_ENV):
        asked_for = Path(path if path is not None else os.environ[CONFIG_ENV])
        if not asked_for.is_file():
            who = "on the command line" if path is not None else f"by ${CONFIG_ENV}"
            raise ConfigError(f"{asked_for}: configuration file not found (asked for {who})")
        return parse_config_file(asked_for)
    for candidate in standard_places():
        if candidate.is_file():
            return parse_config_file(candidate)
    return Config()


def parse_config_file(path: Path) -> Config:
    try:
        text = path.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError) as error:
        raise ConfigError(f"{path}: cannot read the configuration file ({error})") from None
    return parse_config_text(text, path)


def parse_config_text(text: str, path: Path | None = None) -> Config:
    where = str(path) if path else "<configuration>"
    try:
        document = tomllib.loads(text)
    except tomllib.TOMLDecodeError as error:
        # tomllib's message already carries "(at line N, column M)".
        raise ConfigError(f"{where}: not valid TOML: {error}") from None

    sections: dict[str, Any] = {}
    for section_name, table in document.items():
        line = _line_of(text, None, section_name)
        if section_name not in _CHECKERS:
            raise ConfigError(f"{where}, line {line}: unknown section [{section_name}]; expected one of "
                              + ", ".join(f"[{name}]" for name in _CHECKERS))
        if not isinstance(table, dict):
            raise ConfigError(f"{where}, line {line}: {section_name} must be a section [{section_name}]")
        values = {}
        for key, value in table.items():
            line = _line_of(text, section_name, key)
            checker = _CHECKERS[section_name].get(key)
            if checker is None:
                raise ConfigError(f"{where}, line {line}: unknown key {section_name}.{key}; expected one of "
                                  + ", ".join(_CHECKERS[section_name]))
            try:
                values[key] = checker(value)
            except _Refused as refused:
                raise ConfigError(f"{where}, line {line}: {section_name}.{key} = {value!r} is not valid; "
                                  f"expected {refused}") from None
        sections[section_name] = _SECTION_TYPES[section_name](**values)

    config = Config(**sections, source=path)
    _check_consistency(config, text, where)
    return config


def _check_consistency(config: Config, text: str, where: str) -> None:
    """Rules that involve more than one key."""
    seen: dict[int, str] = {}
    for key, pin in config.gpio.pins().items():
        if pin in seen:
            raise ConfigError(f"{where}, line {_line_of(text, 'gpio', key)}: gpio.{key} = {pin} is already used by "
                              f"gpio.{seen[pin]}; expected a different BCM pin for each device")
        seen[pin] = key
    if config.game.seals and not EDITIONS[config.game.nightmarium_edition].has_seals:
        raise ConfigError(f"{where}, line {_line_of(text, 'game', 'seals')}: game.seals = true is not valid with "
                          f"nightmarium_edition = \"{config.game.nightmarium_edition}\"; expected false, because "
                          f"only the editions {', '.join(k for k, e in EDITIONS.items() if e.has_seals)} have seals")


def _line_of(text: str, section: str | None, key: str) -> int | str:
    """The line number where `key` is set inside `[section]` (or where `[key]` opens when section is None)."""
    current: str | None = None
    for number, raw in enumerate(text.splitlines(), start=1):
        line = raw.strip()
        header = re.match(r"^\[\s*([^\]\s]+)\s*\]", line)
        if header:
            current = header.group(1)
            if section is None and current == key:
                return number
            continue
        if section is not None and current == section:
            match = re.match(r'^("?)([A-Za-z0-9_-]+)\1\s*=', line)
            if match and match.group(2) == key:
                return number
        if section is None and current is None:
            match = re.match(r'^([A-Za-z0-9_-]+)\s*[=.]', line)
            if match and match.group(1) == key:
                return number
    return "?"


def as_dict(config: Config) -> dict[str, Any]:
    """The configuration as plain values, for `companion doctor` and logs."""
    return {section: dataclasses.asdict(getattr(config, section)) for section in _SECTION_TYPES}
