"""systemd/companion.service (issue 6): Type=notify + watchdog, own user, no network, hardened to <= 4.0."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
UNIT = REPO / "systemd" / "companion.service"
INSTALL_PREFIX = "/opt/tabletop-companion"
MAX_EXPOSURE = 4.0


def directives(text: str) -> dict[tuple[str, str], list[str]]:
    """(section, key) -> every value; systemd allows a key several times, so configparser cannot read it."""
    found: dict[tuple[str, str], list[str]] = {}
    section = ""
    for line in text.splitlines():
        line = line.strip()
        if not line or line.startswith(("#", ";")):
            continue
        if line.startswith("["):
            section = line.strip("[]")
            continue
        key, _, value = line.partition("=")
        found.setdefault((section, key.strip()), []).append(value.strip())
    return found


@pytest.fixture(scope="module")
def unit():
    return directives(UNIT.read_text(encoding="utf-8"))


def test_notify_service_with_a_watchdog_and_restart_on_failure(unit):
    assert unit[("Service", "Type")] == ["notify"]
    watchdog = unit[("Service", "WatchdogSec")][0]
    assert int(watchdog) >= 10, "the main loop may be briefly busy (camera reconnect); keep a margin"
    assert unit[("Service", "Restart")] == ["on-failure"]
    assert unit[("Install", "WantedBy")] == ["multi-user.target"]


def test_runs_the_app_as_its_own_user_with_only_the_needed_groups(unit):
    assert unit[("Service", "ExecStart")] == [f"{INSTALL_PREFIX}/venv/bin/companion run"]
    assert unit[("Service", "User")] == ["companion"]
    assert sorted(unit[("Service", "SupplementaryGroups")][0].split()) == ["gpio", "input", "render", "video"]
    assert unit[("Service", "StateDirectory")] == ["companion"]
    assert unit[("Service", "ConfigurationDirectory")] == ["companion"]


def test_no_network_and_the_devices_it_needs(unit):
    assert unit[("Service", "PrivateNetwork")] == ["yes"]
    assert unit[("Service", "IPAddressDeny")] == ["any"]
    assert "AF_INET" not in unit[("Service", "RestrictAddressFamilies")][0]
    allowed = {value.split()[0] for value in unit[("Service", "DeviceAllow")]}
    assert {"char-gpiochip", "char-drm", "char-input", "char-video4linux", "char-media"} <= allowed
    assert unit[("Service", "DevicePolicy")] == ["closed"]
    # PrivateDevices would hide /dev/gpiochip*, /dev/dri and the camera.
    assert ("Service", "PrivateDevices") not in unit


def test_console_appliance_on_tty1_with_kms(unit):
    assert unit[("Service", "TTYPath")] == ["/dev/tty1"]
    assert "getty@tty1.service" in unit[("Unit", "Conflicts")][0]
    assert "SDL_VIDEODRIVER=kmsdrm" in unit[("Service", "Environment")]


def test_the_unit_runs_a_command_the_cli_really_has():
    from companion.cli import build_parser

    parser = build_parser()
    commands = next(action for action in parser._actions if action.dest == "command").choices
    assert "run" in commands


def installed_copy(tmp_path: Path) -> Path:
    """The unit as install-pi.sh would install it, with the venv's `companion` at the install prefix."""
    prefix = tmp_path / "opt"
    (prefix / "venv" / "bin").mkdir(parents=True)
    executable = prefix / "venv" / "bin" / "companion"
    executable.write_text("#!/bin/sh\nexit 0\n")
    executable.chmod(0o755)
    unit = tmp_path / "companion.service"
    unit.write_text(UNIT.read_text(encoding="utf-8").replace(INSTALL_PREFIX, str(prefix)), encoding="utf-8")
    return unit


systemd_analyze = shutil.which("systemd-analyze")
needs_systemd = pytest.mark.skipif(
    systemd_analyze is None,
    reason="systemd-analyze is not installed (CI installs Debian's systemd package in .ci/run)")


@needs_systemd
def test_systemd_analyze_verify_passes_without_warnings(tmp_path):
    result = subprocess.run([systemd_analyze, "verify", str(installed_copy(tmp_path))],
                            capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    # verify exits 0 even for unknown keys: any warning about our file is a failure too.
    assert "companion.service" not in result.stderr, result.stderr


@needs_systemd
def test_systemd_analyze_security_rates_the_unit_at_most_4(tmp_path):
    # --threshold counts in tenths of the printed exposure level (40 means 4.0).
    result = subprocess.run([systemd_analyze, "security", "--offline=yes", "--no-pager",
                             f"--threshold={int(MAX_EXPOSURE * 10)}", str(installed_copy(tmp_path))],
                            capture_output=True, text=True, timeout=60)
    level = re.search(r"Overall exposure level for \S+: (\d+\.\d+)", result.stdout)
    assert level, result.stdout + result.stderr
    print(f"systemd-analyze security --offline=yes: exposure {level.group(1)}")
    assert float(level.group(1)) <= MAX_EXPOSURE
    assert result.returncode == 0, result.stderr
