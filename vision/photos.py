"""Your own photos: pictures of real cards on a real table, taken with the camera the companion will use
(`companion vision capture`), and the cards each shows, written down by hand, one JSON line per picture in the
format `companion vision scan --json` prints (`labels.jsonl`). `companion vision bench --photos FOLDER` reads them
and scores them as the bench scores its synthetic scenes: the same recall, precision, accuracy and time.

A label line:

    {"image": "photo-0001.jpg", "cards": [{"legion": "red", "parts": ["torso"], "ability": "jester",
     "corners": [[x, y], [x, y], [x, y], [x, y]], "covered": false}, ...]}

`corners` are the card's own top-left, top-right, bottom-right and bottom-left in the picture; a card is matched to a
reading whose centre lies within 0.3 of its width, so corners a tenth of a card off are good enough. `covered: true`
marks a card partly under a hand or its badge hidden: it is not counted in recall, only whether it was read wrong
surely. Any other key (`confidence`, `seat`, `ms`, ...) is ignored, so a scan's output, corrected, is a label file.
"""
from __future__ import annotations

import json
import re
from dataclasses import dataclass
from pathlib import Path

import numpy as np

from .sources import CameraError, FrameSource, ImageSource
from .table_state import ABILITIES, LEGIONS, PARTS
from .user_files import user_path

LABELS_NAME = "labels.jsonl"
PHOTO_NAME = "photo-{:04d}{}"


class LabelError(Exception):
    """A label file that cannot be read; the message names the file and line."""


@dataclass(frozen=True, eq=False)  # compared by identity: its corners are an array
class LabelledCard:
    """A card as labelled: what `vision.bench.score` asks of a scene's truth."""

    legion: str
    parts: tuple[str, ...]
    ability: str | None
    corners: np.ndarray
    covered: bool = False

    @property
    def occluded(self) -> bool:
        return self.covered

    @property
    def width_px(self) -> float:
        return float(np.linalg.norm(self.corners[1] - self.corners[0]))


@dataclass(frozen=True)
class LabelledPhoto:
    image: Path
    cards: tuple[LabelledCard, ...]


def read_labels(path: str | Path) -> list[LabelledPhoto]:
    """The pictures of a label file (or of FOLDER/labels.jsonl), each with its cards. An image named relative to
    the label file's folder, or by its bare name there, is found there (a scan run from elsewhere names it so)."""
    path = Path(path)
    if path.is_dir():
        path = path / LABELS_NAME
    try:
        lines = path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise LabelError(f"no label file at {path}: write one line per picture (see `companion vision bench "
                         "--help`), or start from `companion vision scan PICTURES --json`") from None
    except (OSError, UnicodeDecodeError) as error:
        raise LabelError(f"{path} cannot be read: {error}") from None
    photos = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{path}, line {number}"
        try:
            data = json.loads(line)
        except json.JSONDecodeError as error:
            raise LabelError(f"{where}: not JSON ({error.msg}); the file may be cut short") from None
        if not isinstance(data, dict) or not isinstance(data.get("image"), str) or \
                not isinstance(data.get("cards"), list):
            raise LabelError(f"{where}: a line needs \"image\" (a file name) and \"cards\" (a list)")
        cards = tuple(_card(card, f"{where}, card {index + 1}") for index, card in enumerate(data["cards"]))
        photos.append(LabelledPhoto(_image_path(path.parent, data["image"]), cards))
    if not photos:
        raise LabelError(f"{path} labels no picture")
    return photos


def _card(data, where: str) -> LabelledCard:
    if not isinstance(data, dict):
        raise LabelError(f"{where}: a card is an object with legion, parts, ability and corners")
    legion, parts, ability = data.get("legion"), data.get("parts"), data.get("ability")
    if legion not in LEGIONS:
        raise LabelError(f"{where}: legion {legion!r} is none of {', '.join(LEGIONS)}")
    if not isinstance(parts, list) or not parts or any(part not in PARTS for part in parts) or \
            list(parts) != [part for part in PARTS if part in parts]:
        raise LabelError(f"{where}: parts {parts!r} should list some of {', '.join(PARTS)}, in that order")
    if ability is not None and ability not in ABILITIES:
        raise LabelError(f"{where}: ability {ability!r} is none of {', '.join(ABILITIES)} (or null: none)")
    try:
        corners = np.array(data.get("corners"), dtype=np.float64)
    except (TypeError, ValueError):
        corners = None
    if corners is None or corners.shape != (4, 2) or not np.isfinite(corners).all():
        raise LabelError(f"{where}: corners should be four [x, y] points of the picture")
    covered = data.get("covered", False)
    if not isinstance(covered, bool):
        raise LabelError(f"{where}: covered should be true or false")
    return LabelledCard(legion, tuple(parts), ability, corners, covered)


def _image_path(folder: Path, name: str) -> Path:
    given = Path(name)
    if given.is_absolute():
        return given
    for candidate in (folder / given, folder / given.name):
        if candidate.is_file():
            return candidate
    return folder / given


def label_line(image: str, cards) -> str:
    """One line of a label file: `cards` are anything with legion, parts, ability, corners and `occluded` (a
    synthetic scene's truths, or labelled cards)."""
    return json.dumps({"image": image, "cards": [
        {"legion": card.legion, "parts": list(card.parts), "ability": card.ability,
         "corners": np.round(np.asarray(card.corners, np.float64), 1).tolist(), "covered": bool(card.occluded)}
        for card in cards]})


def run_photos(photos: list[LabelledPhoto], recogniser, repeats: int = 1, progress=None,
               mistakes: list[str] | None = None):
    """`vision.bench.Tally` of the recogniser's readings of the labelled pictures, each read `repeats` times (the
    median time kept). A picture that cannot be read is an error of the tally; its cards are not counted. Each card
    missed, read wrong or read where none is labelled is said in a line appended to `mistakes` (`mistakes_in`)."""
    from .bench import Tally, one_core, score, timed_scan

    one_core()
    tally = Tally()
    for index, photo in enumerate(photos):
        try:
            frame = ImageSource(photo.image).read()
        except CameraError as error:
            tally.errors.append(str(error))
        else:
            result = timed_scan(tally, recogniser, frame, repeats)
            if result.error:
                tally.errors.append(f"{photo.image}: {result.error}")
            score(tally, result.cards, list(photo.cards))
            if mistakes is not None:
                mistakes += mistakes_in(photo, result.cards)
        if progress:
            progress(index + 1, len(photos))
    return tally


def mistakes_in(photo: LabelledPhoto, cards) -> list[str]:
    """What the readings `cards` of a picture got wrong, a line each: labelled cards missed (not those covered) or
    read wrong (those covered only where read surely, as the bench counts them), and cards read where none is
    labelled. Labelled cards are named by their place in the label line, counted from 1."""
    from .bench import CONFIDENT, facts_text, match

    name, lines, found = photo.image.name, [], set()
    number_of = {id(truth): number for number, truth in enumerate(photo.cards, start=1)}
    for card, truth in match(cards, list(photo.cards)):
        if truth is None:
            lines.append(f"{name}: a card read where none is labelled, {facts_text(card)} at "
                         f"{np.asarray(card.corners).mean(axis=0).round().astype(int).tolist()}, "
                         f"confidence {card.confidence:.2f}")
            continue
        found.add(id(truth))
        sure = card.confidence >= CONFIDENT
        if facts_text(card) != facts_text(truth) and (sure or not truth.covered):
            lines.append(f"{name}: card {number_of[id(truth)]} ({facts_text(truth)}"
                         f"{', covered' if truth.covered else ''}) read as {facts_text(card)}, confidence "
                         f"{card.confidence:.2f}{' (surely)' if sure else ''}")
    for truth in photo.cards:
        if id(truth) not in found and not truth.covered:
            lines.append(f"{name}: card {number_of[id(truth)]} ({facts_text(truth)}) not found")
    return lines


def next_photo_number(folder: Path) -> int:
    """One more than the highest photo number in the folder: taking more pictures never overwrites earlier ones."""
    numbers = [int(match.group(1)) for path in folder.glob("photo-*")
               if (match := re.fullmatch(r"photo-(\d+)\.\w+", path.name))]
    return max(numbers, default=0) + 1


def photos_folder() -> Path:
    """Where the touchscreen keeps the pictures asked for on the camera view: $COMPANION_PHOTOS, else beside the
    taught recogniser."""
    return user_path("photos", "COMPANION_PHOTOS")


def save_picture(frame: np.ndarray, folder: str | Path, suffix: str = ".jpg") -> Path:
    """Saves `frame` (BGR) into `folder` as the next photo-NNNN, whole or not at all. Raises OSError where it cannot
    be written, CameraError where the frame cannot be encoded."""
    import cv2

    folder = Path(folder)
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / PHOTO_NAME.format(next_photo_number(folder), suffix)
    ok, data = cv2.imencode(suffix, frame, [cv2.IMWRITE_JPEG_QUALITY, 95] if suffix == ".jpg" else [])
    if not ok:
        raise CameraError(f"the picture could not be encoded as {suffix}")
    partial = path.with_name(path.name + ".part")
    partial.write_bytes(data.tobytes())
    partial.replace(path)
    return path


def capture(source: FrameSource, folder: str | Path, count: int, every: float = 0.0, suffix: str = ".jpg",
            wait=None, told=None) -> list[Path]:
    """Saves `count` pictures from `source` into `folder`, `every` seconds apart (`wait(seconds)`, time.sleep by
    default), numbered after those already there; a synthetic source's true cards are appended to the folder's
    label file as well. `told(saved, count, path)` after each. A CameraError stops it; the pictures saved so far
    stay (the error's `saved` lists them)."""
    import time

    folder = Path(folder)
    wait = wait or time.sleep
    saved: list[Path] = []
    for index in range(count):
        if index and every > 0:
            wait(every)
        try:
            path = save_picture(source.read(), folder, suffix)
        except CameraError as error:
            error.saved = saved
            raise
        truths = getattr(getattr(source, "scene", None), "cards", None)
        if truths is not None:
            with open(folder / LABELS_NAME, "a", encoding="utf-8") as labels:
                labels.write(label_line(path.name, truths) + "\n")
        saved.append(path)
        if told:
            told(len(saved), count, path)
    return saved
