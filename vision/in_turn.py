"""Timing this checkout's recogniser against another checkout's, in one process: each frame is read by both in
turn, so whatever else loads the machine weighs on both alike. Run apart, the same code's median moves by 10-30%
from run to run on a shared machine; read in turn, the two codes' ratio moves by a few percent (docs/vision.md,
"Time per frame")."""
from __future__ import annotations

import hashlib
import importlib
import importlib.util
import statistics
import sys
import time
from dataclasses import dataclass
from pathlib import Path


class InTurnError(Exception):
    """The other checkout's recogniser cannot be loaded."""


@dataclass
class InTurnTimes:
    """Per frame, the fastest of the readings each code took (milliseconds)."""

    ours: list[float]
    theirs: list[float]

    @property
    def median_ratio(self) -> float:
        """Our median frame's time over theirs: what the time target is about."""
        return statistics.median(self.ours) / statistics.median(self.theirs)

    @property
    def per_frame_ratio(self) -> float:
        """The median over frames of our time over theirs on the same frame: steadier, but weighs a frame that both
        read in a few milliseconds as much as a slow one."""
        return statistics.median(ours / theirs for ours, theirs in zip(self.ours, self.theirs))


def load_recogniser_class(checkout: Path | str):
    """The `Recogniser` class of the `vision` package in another checkout, loaded under a module name of its own
    (its modules import each other relatively, so it does not touch this checkout's `vision`)."""
    package = Path(checkout) / "vision"
    if not (package / "__init__.py").is_file() or not (package / "pipeline.py").is_file():
        raise InTurnError(f"{checkout} has no vision package (vision/__init__.py and vision/pipeline.py)")
    name = "vision_in_turn_" + hashlib.sha1(str(package.resolve()).encode()).hexdigest()[:12]
    try:
        if name not in sys.modules:
            spec = importlib.util.spec_from_file_location(name, package / "__init__.py",
                                                          submodule_search_locations=[str(package)])
            module = importlib.util.module_from_spec(spec)
            sys.modules[name] = module
            spec.loader.exec_module(module)
        return importlib.import_module(f"{name}.pipeline").Recogniser
    except Exception as error:  # whatever the other code raises on import: say so, plainly
        sys.modules.pop(name, None)
        raise InTurnError(f"cannot load the recogniser of {checkout}: {type(error).__name__}: {error}") from error


def time_in_turn(frames, ours, theirs, repeats: int = 3, clock=time.perf_counter) -> InTurnTimes:
    """Each frame (any iterable: frames made as they are read need not all be held at once) read `repeats` times by
    each recogniser, theirs and ours in turn; per frame the fastest of each. Both read the first frame once untimed
    first (lazy set-up, caches)."""
    our_times, their_times = [], []
    for index, frame in enumerate(frames):
        if index == 0:
            theirs.scan(frame)
            ours.scan(frame)
        best = {id(ours): float("inf"), id(theirs): float("inf")}
        for _ in range(repeats):
            for recogniser in (theirs, ours):
                start = clock()
                recogniser.scan(frame)
                best[id(recogniser)] = min(best[id(recogniser)], clock() - start)
        our_times.append(1000 * best[id(ours)])
        their_times.append(1000 * best[id(theirs)])
    return InTurnTimes(our_times, their_times)


def round_line(number: int, times: InTurnTimes) -> str:
    ours, theirs = statistics.median(times.ours), statistics.median(times.theirs)
    return (f"  round {number}: ours {ours:.1f} ms, theirs {theirs:.1f} ms (medians); ours/theirs "
            f"{times.median_ratio:.3f} (per frame {times.per_frame_ratio:.3f})")


def summary_line(rounds: list[InTurnTimes]) -> str:
    median_ratio = statistics.median(times.median_ratio for times in rounds)
    per_frame = statistics.median(times.per_frame_ratio for times in rounds)
    return f"  median over {len(rounds)} rounds: ours/theirs {median_ratio:.3f} (per frame {per_frame:.3f})"
