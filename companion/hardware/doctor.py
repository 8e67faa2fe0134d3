"""`companion doctor`: what is present and working, in plain words, one line per part.

Each check returns a `Check` and never raises: a missing camera or display is a finding, not a crash.
The doctor only looks: it does not create, repair or move the saved-games file.
"""
from __future__ import annotations

import glob
import os
import sqlite3
import time
from dataclasses import dataclass
from pathlib import Path
from typing import Callable, TextIO

from companion.config import Config, ConfigError, load_config
from companion.hardware.camera_guard import configured_opener
from companion.hardware.controls import Controls
from companion.storage.saves import APPLICATION_ID

WORKS, MISSING, PROBLEM, SKIPPED = "works", "missing", "PROBLEM", "skipped"


@dataclass(frozen=True)
class Check:
    part: str
    outcome: str  # WORKS, MISSING (absent, not an error here), PROBLEM (must be fixed), SKIPPED
    detail: str

    def line(self) -> str:
        return f"  {self.part:<14} {self.outcome:<8} {self.detail}"


def check_configuration(path: str | None) -> tuple[Check, Config | None]:
    try:
        config = load_config(path)
    except ConfigError as error:
        return Check("configuration", PROBLEM, str(error)), None
    return Check("configuration", WORKS, config.describe()), config


def check_storage(config: Config) -> Check:
    path = Path(config.storage.path)
    if not path.exists():
        folder = next((p for p in (path.parent, *path.parent.parents) if p.exists()), Path("/"))
        if os.access(folder, os.W_OK):
            return Check("storage", WORKS, f"{path} will be created at the first game")
        return Check("storage", PROBLEM, f"{path} does not exist and {folder} is not writable by this user")
    try:
        # Read-only: the doctor must not move aside or change what it inspects.
        db = sqlite3.connect(f"file:{path}?mode=ro", uri=True)
        try:
            if db.execute("PRAGMA application_id").fetchone()[0] != APPLICATION_ID:
                return Check("storage", PROBLEM, f"{path} is not a companion database; the app will move it aside")
            check = db.execute("PRAGMA quick_check").fetchone()[0]
            playing, finished = db.execute(
                "SELECT count(*) - count(finished), count(finished) FROM games").fetchone()
        finally:
            db.close()
    except sqlite3.Error as error:
        return Check("storage", PROBLEM, f"{path} cannot be read ({error}); run the doctor as the "
                                         "companion user (sudo -u companion companion doctor) if it is the service's")
    if check != "ok":
        return Check("storage", PROBLEM, f"{path} is damaged ({check}); the app will move it aside")
    return Check("storage", WORKS, f"{path}: {playing} game(s) in progress, {finished} finished")


def measure_save_latency(folder: Path, moves: int = 20, clock: Callable[[], float] = time.perf_counter) -> Check:
    """How long the app waits for a move to be on disk before it can acknowledge it, on this storage."""
    import statistics
    import tempfile

    from companion.storage.saves import SaveError, SaveStore

    try:
        folder.mkdir(parents=True, exist_ok=True)
        with tempfile.TemporaryDirectory(prefix="companion-doctor-", dir=folder) as scratch:
            with SaveStore(Path(scratch) / "speed.db") as store:
                game = store.new_game("doctor", "save speed", {"move": 0})
                timings = []
                for move in range(1, moves + 1):
                    started = clock()
                    store.record(game, {"move": move}, {"move": move}, [{"move": move}])
                    timings.append((clock() - started) * 1000)
    except (OSError, SaveError) as error:
        return Check("save speed", PROBLEM, f"cannot write a test database in {folder}: {error}")
    return Check("save speed", WORKS, f"a move is on disk {statistics.median(timings):.1f} ms after it is made "
                                      f"(median of {moves}; slowest {max(timings):.1f} ms) in {folder}")


def check_camera(config: Config, opener: Callable | None = None, attempts: int = 5):
    """The camera check and one test frame (None when there is no picture). The camera is asked for the configured
    resolution unless another `opener` is given."""
    spec = config.camera.source
    opener = opener or configured_opener(config)
    try:
        source = opener(spec)
    except Exception as error:  # CameraError, ImportError (no picamera2/vision.sources), OSError...
        return Check("camera", MISSING, f'no camera for source "{spec}": {error}'), None
    try:
        frame = None
        for _ in range(attempts):  # the first frames of a just-opened camera are sometimes empty
            try:
                frame = source.read()
            except Exception as error:
                return Check("camera", PROBLEM, f"{_describe(source, spec)} opened but gave no picture ({error})"), None
            if frame is not None:
                break
    finally:
        try:
            source.close()
        except Exception:
            pass
    if frame is None:
        return Check("camera", PROBLEM, f"{_describe(source, spec)} opened but gave no picture"), None
    height, width = frame.shape[:2]
    return Check("camera", WORKS, f"{_describe(source, spec)}, test frame {width} x {height}"), frame


def _describe(source, spec: str) -> str:
    try:
        return source.describe()
    except Exception:
        return spec


def check_markers(frame) -> Check:
    if frame is None:
        return Check("markers", SKIPPED, "needs a camera picture")
    try:
        import cv2

        from vision.markers import DICTIONARY, TABLE_MARKER_IDS
    except ImportError as error:
        return Check("markers", MISSING, f"marker detection is not installed ({error})")
    detector = cv2.aruco.ArucoDetector(cv2.aruco.getPredefinedDictionary(getattr(cv2.aruco, DICTIONARY)),
                                       cv2.aruco.DetectorParameters())
    gray = frame if frame.ndim == 2 else cv2.cvtColor(frame, cv2.COLOR_BGR2GRAY)
    _, ids, _ = detector.detectMarkers(gray)
    seen = sorted({int(i) for i in ids.ravel()} & set(TABLE_MARKER_IDS)) if ids is not None else []
    missing = [i for i in TABLE_MARKER_IDS if i not in seen]
    if not missing:
        return Check("markers", WORKS, f"all {len(TABLE_MARKER_IDS)} table markers in view")
    return Check("markers", PROBLEM,
                 f"markers in view: {', '.join(map(str, seen)) or 'none'}; not seen: {', '.join(map(str, missing))} "
                 "(hardware/wiring.md, Markers)")


def check_lens(frame=None) -> Check:
    """Whether `companion vision lens` measured the camera's lens, how much it bends (a wide-angle lens bows the
    cards near the picture's edge, and fewer are read right unless the frames are straightened), and whether the
    camera's picture (`frame`, if there is one) has the shape it was measured on."""
    try:
        from vision.lens import LensCorrection, LensError, bow_px, bow_share, lens_path, straightening
    except ImportError as error:
        return Check("lens", MISSING, f"lens correction is not installed ({error})")
    path = lens_path()
    if not path.is_file():
        return Check("lens", MISSING, "not measured: pictures are read as taken (fine unless the lens is wide-angle, "
                                      "e.g. Camera Module 3 Wide: then `companion vision lens`)")
    try:
        lens = LensCorrection.load(path)
    except LensError as error:
        return Check("lens", PROBLEM, f"{error}: measure it again (`companion vision lens`) or delete it "
                                      "(`companion vision lens --forget`)")
    if frame is not None and not lens.fits(frame.shape[1], frame.shape[0]):
        return Check("lens", PROBLEM, f"measured on {lens.size[0]}x{lens.size[1]} pictures, but the camera gives "
                                      f"{frame.shape[1]}x{frame.shape[0]}: pictures are read as taken; measure it "
                                      "again (`companion vision lens`)")
    treatment = "every picture is straightened" if straightening(lens) else "too little to matter: read as taken"
    return Check("lens", WORKS, f"measured ({path}): straight lines at the picture's edge bow by {bow_px(lens):.0f} px "
                                f"({100 * bow_share(lens):.1f}% of its height): {treatment}")


def check_cards(frame, recogniser=None) -> Check:
    """Whether the cards in the test frame are as large as the recogniser was measured on (vision.framing): the
    camera's height and resolution are the two things a builder sets once and then forgets."""
    if frame is None:
        return Check("cards", SKIPPED, "needs a camera picture")
    try:
        from vision.framing import Framing
        from vision.lens import default_lens
        from vision.pipeline import Recogniser
    except ImportError as error:
        return Check("cards", MISSING, f"card recognition is not installed ({error})")
    result = (recogniser or Recogniser(lens=default_lens(), known_scans=True)).scan(frame)
    if result.error:
        return Check("cards", PROBLEM, f"the test picture could not be read: {result.error}")
    framing = Framing.of(result.cards, (frame.shape[1], frame.shape[0]))
    if framing is None:
        return Check("cards", SKIPPED, "no card in the test picture: lay a few on the table to check their size")
    return Check("cards", WORKS if framing.as_measured else PROBLEM, framing.advice())


def check_display(config: Config) -> Check:
    driver_wanted = os.environ.get("SDL_VIDEODRIVER", "")
    cards = sorted(glob.glob("/dev/dri/card*"))
    touch = _touch_devices()
    extras = []
    if cards:
        extras.append("GPU " + ", ".join(cards))
    if touch:
        extras.append("touch: " + ", ".join(touch))
    if driver_wanted == "dummy":
        return Check("display", MISSING, "no real screen (SDL_VIDEODRIVER=dummy)")
    try:
        os.environ.setdefault("PYGAME_HIDE_SUPPORT_PROMPT", "1")
        import pygame

        pygame.display.init()
        try:
            driver = pygame.display.get_driver()
            sizes = pygame.display.get_desktop_sizes()
        finally:
            pygame.display.quit()
    except Exception as error:
        return Check("display", MISSING, f"no screen found ({error})" + (f"; {'; '.join(extras)}" if extras else ""))
    if driver in ("offscreen", "dummy"):
        return Check("display", MISSING, f"no real screen (SDL fell back to its {driver} driver)"
                     + (f"; {'; '.join(extras)}" if extras else ""))
    size = " and ".join(f"{w} x {h}" for w, h in sizes) or "size unknown"
    wanted = "x".join(map(str, config.display.size))
    return Check("display", WORKS, f"{driver} screen {size} (configured {wanted}, "
                                   f"{'fullscreen' if config.display.fullscreen else 'window'})"
                 + (f"; {'; '.join(extras)}" if extras else ""))


def _touch_devices() -> list[str]:
    names = []
    for name_file in glob.glob("/sys/class/input/event*/device/name"):
        try:
            name = Path(name_file).read_text(encoding="utf-8").strip()
        except OSError:
            continue
        if any(word in name.lower() for word in ("touch", "ft5406", "ft5x06", "goodix", "edt-ft")):
            names.append(name)
    return names


def check_service(run: Callable[[str], str] | None = None) -> Check:
    """Whether the systemd unit is installed, enabled at boot and running."""
    import shutil
    import subprocess

    if run is None:
        if shutil.which("systemctl") is None or not Path("/run/systemd/system").is_dir():
            return Check("service", MISSING, "systemd is not running here (fine on a laptop)")
        def run(question: str) -> str:
            return subprocess.run(["systemctl", question, "companion.service"], capture_output=True, text=True,
                                  timeout=10).stdout.strip()
    enabled, active = run("is-enabled"), run("is-active")
    if enabled in ("", "not-found") or "No such file" in enabled:
        return Check("service", MISSING, "companion.service is not installed (make install-pi)")
    detail = f"companion.service is {enabled or 'unknown'} at boot and {active or 'unknown'} now"
    if enabled == "enabled" and active in ("active", "activating", "reloading"):
        return Check("service", WORKS, detail)
    return Check("service", PROBLEM, detail + " (journalctl -u companion -b shows why)")


def check_gpio(config: Config, pin_factory=None) -> tuple[Check, Controls]:
    controls = Controls.from_config(config, pin_factory=pin_factory)
    chips = sorted(glob.glob("/dev/gpiochip*"))
    if controls.available:
        return Check("GPIO", WORKS, controls.describe()), controls
    where = f" ({', '.join(chips)} present)" if chips else ""
    return Check("GPIO", MISSING, controls.describe() + where), controls


def watch_buttons(controls: Controls, seconds: float, out: TextIO, clock: Callable[[], float] = time.monotonic) -> int:
    """Print each press and hold for `seconds`; returns how many were seen."""
    import queue

    if not controls.available:
        print("  buttons        skipped  no GPIO buttons to watch", file=out)
        return 0
    print(f"  Press and hold each button now (watching for {seconds:g} s)...", file=out, flush=True)
    seen = 0
    deadline = clock() + seconds
    while (left := deadline - clock()) > 0:
        try:
            kind, name = controls.events.get(timeout=min(left, 0.5))
        except queue.Empty:
            continue
        seen += 1
        controls.click()
        print(f"  button         {name.upper()} {'pressed' if kind == 'press' else 'held'}", file=out, flush=True)
    print(f"  buttons        {seen} event(s) seen", file=out)
    return seen


def run_doctor(config_path: str | None, out: TextIO, buttons_seconds: float = 0.0, pin_factory=None,
               camera_opener: Callable | None = None, save_speed: bool = False) -> int:
    """Print every check; exit status 1 only for problems that stop the app (configuration, storage)."""
    print("companion doctor: what this machine has", file=out)
    configuration, config = check_configuration(config_path)
    print(configuration.line(), file=out, flush=True)
    if config is None:
        print("The app will not start until the configuration is fixed.", file=out)
        return 1
    storage = check_storage(config)
    print(storage.line(), file=out, flush=True)
    if save_speed:
        print(measure_save_latency(Path(config.storage.path).parent).line(), file=out, flush=True)
    camera, frame = check_camera(config, opener=camera_opener)
    print(camera.line(), file=out, flush=True)
    print(check_markers(frame).line(), file=out, flush=True)
    print(check_lens(frame).line(), file=out, flush=True)
    print(check_cards(frame).line(), file=out, flush=True)
    print(check_display(config).line(), file=out, flush=True)
    gpio, controls = check_gpio(config, pin_factory=pin_factory)
    print(gpio.line(), file=out, flush=True)
    print(check_service().line(), file=out, flush=True)
    try:
        if buttons_seconds > 0:
            watch_buttons(controls, buttons_seconds, out)
    finally:
        controls.close()
    if not controls.available:
        print("Without GPIO the app takes every action from the touchscreen and the keyboard.", file=out)
    if camera.outcome != WORKS:
        print("Without a camera the app runs in manual mode and keeps retrying the camera.", file=out)
    return 1 if storage.outcome == PROBLEM else 0
