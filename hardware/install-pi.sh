#!/usr/bin/env bash
# Installs the tabletop companion on a fresh Raspberry Pi OS (Bookworm, 64-bit, Lite or Desktop) as a service
# that starts at boot on the console. Run it from a copy of the repository:
#
#     sudo hardware/install-pi.sh            # or: make install-pi
#     hardware/install-pi.sh --dry-run       # print what it would do, change nothing
#
# It can be run again after `git pull` to update: the configuration in /etc/companion is never overwritten and
# saved games in /var/lib/companion are never touched.
set -euo pipefail

PREFIX=/opt/tabletop-companion
SERVICE_USER=companion
SERVICE_GROUPS=(gpio video input render)
CONFIG_DIR=${COMPANION_CONFIG_DIR:-/etc/companion}  # overridable only so the tests can point it elsewhere
UNIT_TARGET=/etc/systemd/system/companion.service
SOURCE_DIR="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
# Must come from apt, not PyPI: picamera2 and libcamera are built for the Pi's camera stack, lgpio for the Pi 5.
APT_PACKAGES=(python3 python3-venv python3-pip python3-picamera2 python3-libcamera rpicam-apps-lite
              python3-lgpio python3-numpy libsdl2-2.0-0 fonts-dejavu-core)

DRY_RUN=0
START=1

usage() {
    echo "usage: $0 [--dry-run] [--no-start]"
    echo "  --dry-run   print every step instead of doing it"
    echo "  --no-start  install and enable the service, but do not start it now"
}

for argument in "$@"; do
    case "$argument" in
        --dry-run) DRY_RUN=1 ;;
        --no-start) START=0 ;;
        -h|--help) usage; exit 0 ;;
        *) usage >&2; exit 2 ;;
    esac
done

step() { echo; echo "== $*"; }

run() {
    echo "+ $*"
    if [ "$DRY_RUN" = 0 ]; then
        "$@"
    fi
}

if [ "$DRY_RUN" = 0 ] && [ "$(id -u)" != 0 ]; then
    echo "This installs a system service: run it as root (sudo $0)." >&2
    exit 1
fi
if ! grep -qs "Raspberry Pi" /proc/device-tree/model; then
    echo "Note: this does not look like a Raspberry Pi; the packages below exist only in Raspberry Pi OS." >&2
fi

step "1/7 Packages from apt (camera stack, GPIO library, SDL for the console display)"
run apt-get update
run env DEBIAN_FRONTEND=noninteractive apt-get install -y --no-install-recommends "${APT_PACKAGES[@]}"

step "2/7 The service user '$SERVICE_USER' and its groups (${SERVICE_GROUPS[*]})"
for group in "${SERVICE_GROUPS[@]}"; do
    if ! getent group "$group" >/dev/null; then
        run groupadd --system "$group"
    fi
done
if ! id "$SERVICE_USER" >/dev/null 2>&1; then
    run useradd --system --user-group --home-dir /var/lib/companion --no-create-home \
        --shell /usr/sbin/nologin --comment "tabletop companion" "$SERVICE_USER"
fi
run usermod --append --groups "$(IFS=,; echo "${SERVICE_GROUPS[*]}")" "$SERVICE_USER"

step "3/7 The program in $PREFIX/src"
run install -d -m 0755 "$PREFIX" "$PREFIX/src"
echo "+ copy $SOURCE_DIR to $PREFIX/src (without .git, .venv, out/)"
if [ "$DRY_RUN" = 0 ]; then
    tar -C "$SOURCE_DIR" --exclude=.git --exclude=.venv --exclude=./out --exclude='*.db' --exclude=__pycache__ \
        -cf - . | tar -C "$PREFIX/src" -xf -
fi

step "4/7 A virtual environment that also sees apt's picamera2, libcamera and lgpio"
if [ ! -x "$PREFIX/venv/bin/python" ]; then
    run python3 -m venv --system-site-packages "$PREFIX/venv"
fi
run "$PREFIX/venv/bin/python" -m pip install --quiet --upgrade pip
run "$PREFIX/venv/bin/python" -m pip install --quiet --constraint "$PREFIX/src/hardware/pi-constraints.txt" \
    "$PREFIX/src"

step "5/7 Configuration in $CONFIG_DIR (an existing file is kept)"
run install -d -m 0755 "$CONFIG_DIR"
if [ -e "$CONFIG_DIR/config.toml" ]; then
    echo "  keeping $CONFIG_DIR/config.toml; the current example is $PREFIX/src/companion/data/config.example.toml"
else
    run install -m 0644 "$SOURCE_DIR/companion/data/config.example.toml" "$CONFIG_DIR/config.toml"
fi

step "6/7 The systemd unit, and the console for it (tty1, no desktop)"
run install -m 0644 "$SOURCE_DIR/systemd/companion.service" "$UNIT_TARGET"
run systemctl daemon-reload
# The companion draws on tty1; a login prompt or a desktop there would fight it for the screen.
run systemctl disable getty@tty1.service
if command -v raspi-config >/dev/null; then
    run raspi-config nonint do_boot_behaviour B1
fi

step "7/7 Start at every boot"
run systemctl enable companion.service
if [ "$START" = 1 ]; then
    run systemctl restart companion.service
fi

echo
echo "Done. Check the hardware with:  sudo -u $SERVICE_USER $PREFIX/venv/bin/companion doctor --buttons 20"
echo "Follow the log with:            journalctl -u companion -f"
