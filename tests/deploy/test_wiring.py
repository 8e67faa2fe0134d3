"""hardware/wiring.md and the configuration agree (issue 6: "the default pins match the table in wiring.md")."""
import re
from pathlib import Path

import pytest
from gpiozero.pins.mock import MockFactory

from companion.config import GpioConfig

WIRING = Path(__file__).resolve().parents[2] / "hardware" / "wiring.md"
#: Board revisions (gpiozero's revision codes) of the boards the guide supports: Pi 4 B 4 GB and Pi 5 4 GB.
BOARDS = {"Pi 4 B": "c03111", "Pi 5": "c04170"}


def markdown_table(header_start: str) -> list[dict[str, str]]:
    """The rows of the guide's markdown table whose header line starts with `header_start`."""
    lines = WIRING.read_text(encoding="utf-8").splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(header_start))
    header = [cell.strip() for cell in lines[start].strip("|").split("|")]
    rows = []
    for line in lines[start + 2:]:
        if not line.startswith("|"):
            break
        rows.append(dict(zip(header, (cell.strip() for cell in line.strip("|").split("|")))))
    return rows


def pin_table() -> list[dict[str, str]]:
    return markdown_table("| Function | Config key |")


def configured_rows() -> dict[str, dict[str, str]]:
    return {row["Config key"].strip("`").removeprefix("gpio."): row for row in pin_table()
            if row["Config key"].startswith("`gpio.")}


def test_every_configured_pin_is_in_the_table_once_with_the_default_bcm_number():
    rows = configured_rows()
    defaults = GpioConfig().pins()
    assert set(rows) == set(defaults)
    assert len([r for r in pin_table() if r["Config key"].startswith("`gpio.")]) == len(defaults)
    for key, bcm in defaults.items():
        assert int(rows[key]["BCM"]) == bcm, f"gpio.{key}: wiring.md says BCM {rows[key]['BCM']}, config {bcm}"


@pytest.mark.parametrize("board", BOARDS)
def test_physical_pins_are_where_the_board_has_those_gpios(board):
    """The header positions come from gpiozero's own board data, not from a second table of ours."""
    header = MockFactory(revision=BOARDS[board]).board_info.headers["J8"]
    by_number = {pin.number: pin for pin in header.pins.values()}
    for row in pin_table():
        physical = int(row["Physical pin"])
        names = by_number[physical].names
        if row["BCM"] != "-":
            assert f"GPIO{row['BCM']}" in names, f"{row['Function']}: pin {physical} is {sorted(names)}"
        else:
            expected = {"Ground": "GND", "5 V": "5V"}[row["Function"]]
            assert expected in names, f"{row['Function']}: pin {physical} is {sorted(names)}"


def test_the_text_diagram_shows_each_default_pin_at_its_physical_position():
    text = WIRING.read_text(encoding="utf-8")
    diagram = text[text.index("### Wiring diagram"):text.index("## Camera mounting")]
    for key, row in configured_rows().items():
        bcm, physical = row["BCM"], row["Physical pin"]
        # Left-column pins read "BCM 17 (11)", right-column pins "(16) BCM 23".
        assert re.search(rf"BCM {bcm} \({physical}\)|\({physical}\) BCM {bcm}\b", diagram), f"gpio.{key}"


def test_led_currents_stay_inside_the_gpio_budget():
    """wiring.md's arithmetic: (3.3 V - Vf) / R per output, at most 16 mA each and 50 mA together."""
    forward_voltage = {"led": 2.0, "rgb_red": 2.0, "rgb_green": 2.9, "rgb_blue": 2.9}  # worst case (lowest Vf)
    rows = configured_rows()
    total = 0.0
    for key, vf in forward_voltage.items():
        ohms = int(re.match(r"(\d+) Ω in series", rows[key]["Pull / resistor"]).group(1))
        milliamps = (3.3 - vf) / ohms * 1000
        assert milliamps <= 16, key
        total += milliamps
    assert total <= 50
    assert "3.9 mA" in WIRING.read_text(encoding="utf-8")  # the figure the guide prints for 330 Ω at 2.0 V


def camera_table() -> list[dict[str, str]]:
    return markdown_table("| Camera | Field of view")


def test_camera_heights_follow_from_the_field_of_view_for_a_1_0_by_0_75_m_picture():
    """height = (side / 2) / tan(fov / 2) for each direction; the mount height is the larger, rounded up by at most
    5 %."""
    import math

    rows = camera_table()
    assert len(rows) >= 3
    for row in rows:
        horizontal, vertical = (float(angle) for angle in re.findall(r"(\d+)°", row["Field of view (H x V)"]))
        for side, angle, column in ((1.0, horizontal, "Height for 1.0 m"), (0.75, vertical, "Height for 0.75 m")):
            expected = side / 2 / math.tan(math.radians(angle / 2))
            stated = float(row[column].removesuffix(" m"))
            assert abs(stated - expected) <= 0.006, f"{row['Camera']}: {column} {stated} but {expected:.3f}"
        needed = max(float(row["Height for 1.0 m"][:-2]), float(row["Height for 0.75 m"][:-2]))
        mount = float(row["Mount at"].strip("*").removesuffix(" m"))
        assert needed - 0.005 <= mount <= 1.05 * needed, row["Camera"]


def test_at_the_mount_height_a_card_is_as_large_as_the_recogniser_is_measured_on():
    """The guide's first mounting (the whole 1.69 m view at 1280 px) made an 88 mm card 67 px long, 1/19 of the
    picture: far below the recogniser's measured range (vision.framing). At each stated height the card is at least
    MIN_CARD_SHARE of the picture's width and, at the default resolution, MIN_CARD_PIXELS long."""
    import math

    from companion.config import CameraConfig
    from vision.framing import MIN_CARD_PIXELS, MIN_CARD_SHARE

    card_length = 0.088
    for row in camera_table():
        horizontal = float(re.findall(r"(\d+)°", row["Field of view (H x V)"])[0])
        mount = float(row["Mount at"].strip("*").removesuffix(" m"))
        share = card_length / (2 * mount * math.tan(math.radians(horizontal / 2)))
        assert share >= MIN_CARD_SHARE, row["Camera"]
        assert share * max(CameraConfig().resolution) >= MIN_CARD_PIXELS, row["Camera"]