"""`companion run` (the touchscreen app) and `companion screenshot` (render a named screen to a PNG)."""
from __future__ import annotations

import argparse
import sys
from pathlib import Path


def parse_size(text: str) -> tuple[int, int]:
    try:
        width, height = (int(part) for part in text.lower().split("x"))
    except ValueError:
        raise argparse.ArgumentTypeError(f"size must look like 800x480, not {text!r}")
    if not (320 <= width <= 7680 and 240 <= height <= 4320):
        raise argparse.ArgumentTypeError(f"size {text} is outside 320x240 .. 7680x4320")
    return width, height


def register(subparsers) -> None:
    run = subparsers.add_parser("run", help="open the touchscreen app",
                                description="Open the touchscreen app: full screen on the Pi, a window elsewhere. "
                                            "With no camera and no GPIO it plays the built-in simulated table.")
    run.add_argument("--windowed", action="store_true", help="open a window even on the Pi")
    run.add_argument("--size", type=parse_size, default=None, help="window size, e.g. 800x480 (default)")
    run.add_argument("--simulate", action="store_true",
                     help="use the simulated table (a synthetic camera playing a real game) even with a camera")
    run.add_argument("--lang", choices=("en", "ru", "pl"), default=None, help="language (default: from Settings)")
    run.set_defaults(handler=run_app)

    shot = subparsers.add_parser("screenshot", help="render a named screen to a PNG",
                                 description="Render a named screen with representative state to a PNG, offscreen.")
    shot.add_argument("name", nargs="?", help="screen name; --list shows them")
    shot.add_argument("--out", type=Path, help="PNG file to write")
    shot.add_argument("--size", type=parse_size, default=(800, 480), help="WxH, default 800x480")
    shot.add_argument("--lang", choices=("en", "ru", "pl"), default="en")
    shot.add_argument("--list", action="store_true", help="list the screen names")
    shot.set_defaults(handler=screenshot)

    bench = subparsers.add_parser("ui-bench", help="measure drawing, idle CPU and the referee's speed",
                                  description="Print how long each screen takes to draw, the loop's CPU use when "
                                              "idle and when animating, and the referee's time per table state.")
    bench.add_argument("--repeats", type=int, default=10, help="draws per screen (median reported)")
    bench.add_argument("--seconds", type=float, default=3.0, help="how long to run each loop measurement")
    bench.add_argument("--games", type=int, default=20, help="simulated games for the referee")
    bench.add_argument("--seed", type=int, default=1)
    bench.add_argument("--only", default="", help="only screens whose name starts with this")
    bench.set_defaults(handler=lambda args: __import__("companion.ui.bench", fromlist=["run_bench"]).run_bench(args))


def screenshot(args) -> int:
    from companion.ui.render import headless

    headless()
    import pygame

    from companion.ui.render import render_screen
    from companion.ui.screens import screen_names

    names = screen_names()
    if args.list or not args.name:
        print("\n".join(names))
        return 0 if args.list else 2
    if args.name not in names:
        print(f"unknown screen {args.name!r}; known: {', '.join(names)}", file=sys.stderr)
        return 2
    if args.out is None:
        print("--out FILE.png is required", file=sys.stderr)
        return 2
    surface = render_screen(args.name, args.size, args.lang)
    try:
        args.out.parent.mkdir(parents=True, exist_ok=True)
        pygame.image.save(surface, str(args.out))
    except (OSError, pygame.error) as error:
        print(f"could not write {args.out}: {error}", file=sys.stderr)
        return 1
    print(f"{args.name} -> {args.out} ({args.size[0]}x{args.size[1]}, {args.lang})")
    return 0


def run_app(args) -> int:
    from companion.ui.run import run

    return run(size=args.size, windowed=args.windowed, simulate=args.simulate, lang=args.lang)
