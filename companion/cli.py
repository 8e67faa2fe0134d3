"""The `companion` command: one entry point, one sub-command per job.

Each part of the product contributes its sub-commands through a small `register(subparsers)` function in
its own `cli` module, so heavy imports (OpenCV, pygame) happen only inside the command that needs them.
"""
from __future__ import annotations

import argparse
import importlib
import sys

# Modules that contribute sub-commands. A module that does not exist yet is skipped, so the CLI keeps
# working while parts of the product are being built.
COMMAND_MODULES = (
    "companion.ui.cli",                    # run, screenshot
    "companion.games.nightmarium.cli",     # simulate
    "vision.cli",                          # vision ...
    "companion.hardware.cli",              # doctor
)


def build_parser() -> argparse.ArgumentParser:
    parser = argparse.ArgumentParser(
        prog="companion",
        description="The tabletop companion: referee, dice, bag and scorekeeper beside a real board game.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name in COMMAND_MODULES:
        try:
            module = importlib.import_module(name)
        except ModuleNotFoundError as error:
            if error.name and name.startswith(error.name):
                continue
            raise
        module.register(subparsers)
    return parser


def main(argv: list[str] | None = None) -> int:
    parser = build_parser()
    args = parser.parse_args(argv)
    if not getattr(args, "handler", None):
        parser.print_help()
        return 2
    return int(args.handler(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
