"""`companion ui-bench`: how fast screens draw, how much CPU the idle app uses, how fast the referee follows a game.

Figures only; no pass/fail. Runs headless (SDL dummy driver), so drawing is software rendering like on the Pi.
"""
from __future__ import annotations

import statistics
import time


def render_times(names, size, repeats: int) -> dict[str, float]:
    import pygame

    from companion.ui.render import build_screen, make_app

    result = {}
    for name in names:
        app = make_app(size, strict=True)
        scene = build_screen(app, name)
        surface = pygame.Surface(size)
        samples = []
        for _ in range(repeats):
            started = time.perf_counter()
            scene.draw(surface)
            samples.append((time.perf_counter() - started) * 1000)
        result[name] = statistics.median(samples)
    return result


def loop_cpu(seconds: float, animate: bool) -> tuple[float, float]:
    """(CPU % of one core, frames drawn per second) of the real loop on the launcher or a pulsing table."""
    import pygame

    from companion.ui.render import build_screen, make_app

    app = make_app((800, 480), strict=True)
    if animate:
        scene = build_screen(app, "nightmarium-table")
        scene.flash_left = seconds + 10  # keep the announcement pulsing for the whole measurement
        if not scene.session.announcements:
            from companion.ui.nightmarium.session import Announcement

            scene.session.announcements.append(Announcement("nm.event.pure_legion", {"legion": "red"}, "red"))
            scene.latest = scene.session.announcements[-1]
    else:
        build_screen(app, "launcher")
    cpu_started, wall_started = time.process_time(), time.perf_counter()
    app.run(stop_after=seconds)
    cpu, wall = time.process_time() - cpu_started, time.perf_counter() - wall_started
    pygame.display.quit()
    return 100 * cpu / wall, app.frames_drawn / wall


def referee_speed(games: int, seed: int) -> tuple[int, float, float, int]:
    """(observations, mean and worst ms per observation, warnings) over simulated games followed by the referee."""
    from companion.games.nightmarium import Game
    from companion.referee import Referee
    from companion.referee.simulated import SimulatedTable, feed

    observations, spent, worst, warnings = 0, 0.0, 0.0, 0
    for index in range(games):
        names = [f"P{i}" for i in range(2 + index % 4)]
        edition = ("ru2014", "pl2017")[index % 2]
        table = SimulatedTable(names, seed=seed + index, edition=edition)
        referee = Referee(Game.new(names, edition=edition, observed=True))
        while not table.over:
            for happening in table.step():
                started = time.perf_counter()
                outcome = feed(referee, happening)
                if happening.kind == "table":
                    took = time.perf_counter() - started
                    spent, worst = spent + took, max(worst, took)
                    observations += 1
                warnings += outcome.warning is not None
    return observations, 1000 * spent / max(1, observations), 1000 * worst, warnings


def run_bench(args) -> int:
    from companion.ui.render import headless

    headless()
    from companion.ui.screens import screen_names

    names = [name for name in screen_names() if not args.only or name.startswith(args.only)]
    for size in ((800, 480), (1280, 720)):
        times = render_times(names, size, args.repeats)
        print(f"draw at {size[0]}x{size[1]} (median of {args.repeats}, ms): " +
              ", ".join(f"{name} {ms:.1f}" for name, ms in times.items()))
    idle_cpu, idle_fps = loop_cpu(args.seconds, animate=False)
    busy_cpu, busy_fps = loop_cpu(args.seconds, animate=True)
    print(f"idle loop (launcher, {args.seconds:.0f} s): {idle_cpu:.1f}% CPU, {idle_fps:.1f} redraws/s")
    print(f"animating loop (pulsing announcement): {busy_cpu:.1f}% CPU, {busy_fps:.1f} frames/s")
    observations, ms, worst, warnings = referee_speed(args.games, args.seed)
    print(f"referee: {args.games} simulated games, {observations} table states, {ms:.2f} ms per state "
          f"(worst {worst:.1f} ms), {warnings} warnings")
    return 0
