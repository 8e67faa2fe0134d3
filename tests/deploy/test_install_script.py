"""hardware/install-pi.sh: a dry run lists every step of issue 6's install, consistent with the unit."""
import re
import shutil
import subprocess
from pathlib import Path

import pytest

REPO = Path(__file__).resolve().parents[2]
SCRIPT = REPO / "hardware" / "install-pi.sh"
UNIT = (REPO / "systemd" / "companion.service").read_text(encoding="utf-8")


@pytest.fixture(scope="module")
def dry_run():
    result = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True, timeout=60)
    assert result.returncode == 0, result.stderr
    return result.stdout


def commands(output: str) -> list[str]:
    return [line[2:] for line in output.splitlines() if line.startswith("+ ")]


def script_variable(name: str) -> str:
    return re.search(rf"^{name}=(.*)$", SCRIPT.read_text(encoding="utf-8"), re.MULTILINE).group(1)


def test_script_is_valid_bash_and_executable():
    assert subprocess.run(["bash", "-n", str(SCRIPT)]).returncode == 0
    assert SCRIPT.stat().st_mode & 0o111


@pytest.mark.skipif(shutil.which("shellcheck") is None, reason="shellcheck is not installed")
def test_shellcheck_is_clean():
    result = subprocess.run(["shellcheck", str(SCRIPT)], capture_output=True, text=True)
    assert result.returncode == 0, result.stdout


def test_apt_provides_the_camera_stack_and_gpio_library(dry_run):
    install = next(c for c in commands(dry_run) if "apt-get install" in c)
    for package in ("python3-picamera2", "python3-libcamera", "python3-lgpio"):
        assert package in install.split()


def test_the_venv_sees_system_packages_and_installs_the_repo(dry_run):
    steps = commands(dry_run)
    prefix = script_variable("PREFIX")
    assert f"python3 -m venv --system-site-packages {prefix}/venv" in steps
    assert any(step.startswith(f"{prefix}/venv/bin/python -m pip install") and step.endswith(f"{prefix}/src")
               for step in steps)
    assert (REPO / "hardware" / "pi-constraints.txt").read_text().count("numpy<2") == 1


def test_user_groups_and_unit_match_the_unit_file(dry_run):
    steps = commands(dry_run)
    user = script_variable("SERVICE_USER")
    assert f"User={user}" in UNIT
    groups = re.search(r"^SupplementaryGroups=(.*)$", UNIT, re.MULTILINE).group(1).split()
    assert f"usermod --append --groups {','.join(groups)} {user}" in steps
    prefix = script_variable("PREFIX")
    assert f"ExecStart={prefix}/venv/bin/companion run" in UNIT
    assert any(step.startswith("install -m 0644") and step.endswith("/etc/systemd/system/companion.service")
               for step in steps)


def test_the_service_is_enabled_after_it_is_installed(dry_run):
    steps = commands(dry_run)
    order = [steps.index(step) for step in ("systemctl daemon-reload", "systemctl enable companion.service",
                                            "systemctl restart companion.service")]
    assert order == sorted(order)
    assert "systemctl disable getty@tty1.service" in steps


def test_no_start_option_and_unknown_options(dry_run):
    quiet = subprocess.run(["bash", str(SCRIPT), "--dry-run", "--no-start"], capture_output=True, text=True)
    assert "systemctl restart companion.service" not in commands(quiet.stdout)
    assert "systemctl enable companion.service" in commands(quiet.stdout)
    wrong = subprocess.run(["bash", str(SCRIPT), "--frobnicate"], capture_output=True, text=True)
    assert wrong.returncode == 2 and "usage" in wrong.stderr


def test_an_existing_configuration_is_never_overwritten(tmp_path):
    env = {"PATH": "/usr/bin:/bin", "COMPANION_CONFIG_DIR": str(tmp_path)}
    fresh = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True, env=env)
    assert any(step.startswith("install -m 0644") and step.endswith(f"{tmp_path}/config.toml")
               for step in commands(fresh.stdout))
    (tmp_path / "config.toml").write_text("[game]\nlanguage = \"pl\"\n")
    kept = subprocess.run(["bash", str(SCRIPT), "--dry-run"], capture_output=True, text=True, env=env)
    assert f"keeping {tmp_path}/config.toml" in kept.stdout
    assert not any(step.endswith(f"{tmp_path}/config.toml") for step in commands(kept.stdout))
