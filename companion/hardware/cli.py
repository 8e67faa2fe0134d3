"""The `companion doctor` sub-command."""
from __future__ import annotations

import argparse
import sys


def register(subparsers) -> None:
    doctor = subparsers.add_parser(
        "doctor", help="check the camera, display, GPIO buttons, configuration, storage and markers",
        description="Check, in plain words, what this machine has and whether it works: configuration, saved-games "
                    "storage, camera (with a test frame), table markers, display and GPIO buttons. Absent hardware "
                    "is reported, not an error; the exit status is 1 only when the configuration or the storage "
                    "would stop the app.")
    doctor.add_argument("--config", metavar="FILE",
                        help="configuration file to check (default: $COMPANION_CONFIG, ~/.config/companion/config.toml, "
                             "/etc/companion/config.toml)")
    doctor.add_argument("--buttons", metavar="SECONDS", type=float, default=0.0,
                        help="afterwards, print every button press and hold for this many seconds")
    doctor.add_argument("--save-speed", action="store_true",
                        help="also time how long a move takes to reach the disk where games are saved "
                             "(writes a scratch database next to it, then removes it)")
    doctor.set_defaults(handler=run)


def run(args: argparse.Namespace) -> int:
    from companion.hardware.doctor import run_doctor

    try:
        return run_doctor(args.config, sys.stdout, buttons_seconds=max(0.0, args.buttons),
                          save_speed=args.save_speed)
    except KeyboardInterrupt:
        print("\ndoctor stopped", file=sys.stdout)
        return 130
