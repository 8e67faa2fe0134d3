"""Frame sources behind one interface: the Pi camera, a USB webcam, an image, a folder of images, a video file,
or a synthetic scene player.

    source = open_source("usb:0")      # or "picamera", "table.jpg", "photos/", "game.mp4", "synthetic:3"
    frame = source.read()              # BGR uint8; raises CameraError with a plain-English message
    source.close()
"""
from __future__ import annotations

from pathlib import Path

import numpy as np

# What the recogniser is measured on (`companion vision bench`): a camera is asked for this size unless configured
# otherwise (`[camera] resolution`).
CAMERA_SIZE = (1640, 1232)
CONTINUOUS_AUTOFOCUS = 2  # libcamera's controls.AfModeEnum.Continuous (the module is on the Pi only)
IMAGE_SUFFIXES = {".jpg", ".jpeg", ".png", ".bmp", ".tif", ".tiff", ".webp"}
VIDEO_SUFFIXES = {".mp4", ".avi", ".mov", ".mkv", ".webm", ".h264"}


class CameraError(Exception):
    """The source cannot deliver a frame; the message says why in words a player understands."""


class FrameSource:
    def read(self) -> np.ndarray:
        raise NotImplementedError

    def close(self) -> None:
        pass

    def describe(self) -> str:
        return type(self).__name__

    def __enter__(self):
        return self

    def __exit__(self, *exc):
        self.close()


def _read_image(path: Path) -> np.ndarray:
    import cv2

    if not path.is_file():
        raise CameraError(f"the image {path} does not exist")
    data = np.fromfile(str(path), np.uint8)
    image = cv2.imdecode(data, cv2.IMREAD_COLOR) if data.size else None
    if image is None:
        raise CameraError(f"the image {path} could not be read (not an image, or damaged)")
    return image


class ImageSource(FrameSource):
    """One image, returned on every read (so a still photo can stand in for a camera)."""

    def __init__(self, path: str | Path):
        self.path = Path(path)
        self._frame = _read_image(self.path)

    def read(self) -> np.ndarray:
        return self._frame.copy()

    def describe(self) -> str:
        return f"image {self.path}"


class FolderSource(FrameSource):
    """The images of a folder in name order, then CameraError('no more images')."""

    def __init__(self, folder: str | Path):
        self.folder = Path(folder)
        self.paths = sorted(p for p in self.folder.iterdir() if p.suffix.lower() in IMAGE_SUFFIXES)
        if not self.paths:
            raise CameraError(f"the folder {self.folder} holds no images")
        self.index = 0
        self.current: Path | None = None

    def read(self) -> np.ndarray:
        if self.index >= len(self.paths):
            raise CameraError(f"no more images in {self.folder}")
        self.current = self.paths[self.index]
        self.index += 1
        return _read_image(self.current)

    def describe(self) -> str:
        return f"folder {self.folder} ({len(self.paths)} images)"


class CaptureSource(FrameSource):
    """An OpenCV capture: a USB webcam by index, or a video file. A webcam is asked for `size` (width, height);
    it gives the nearest size it has, which `size` then holds (a video's frames are what they are)."""

    def __init__(self, target: int | str, label: str, size: tuple[int, int] | None = None):
        import cv2

        self.label = label
        self.asked = size
        self.capture = cv2.VideoCapture(target)
        if not self.capture.isOpened():
            self.capture.release()
            if isinstance(target, int):
                raise CameraError(f"no camera found at USB index {target}: is it plugged in?")
            raise CameraError(f"the video {target} could not be opened")
        if size is not None:
            # Without this most webcams start at 640 x 480, where a card is too few pixels to read.
            self.capture.set(cv2.CAP_PROP_FRAME_WIDTH, size[0])
            self.capture.set(cv2.CAP_PROP_FRAME_HEIGHT, size[1])
        self.size = (int(self.capture.get(cv2.CAP_PROP_FRAME_WIDTH)), int(self.capture.get(cv2.CAP_PROP_FRAME_HEIGHT)))

    def read(self) -> np.ndarray:
        if self.capture is None:
            raise CameraError(f"{self.label} is closed")
        ok, frame = self.capture.read()
        if not ok or frame is None:
            raise CameraError(f"{self.label} gave no picture (unplugged, or the video ended)")
        return frame

    def close(self) -> None:
        if self.capture is not None:
            self.capture.release()
            self.capture = None

    def describe(self) -> str:
        if self.asked is None or tuple(self.asked) == self.size:
            return self.label if self.asked is None else f"{self.label} at {self.size[0]} x {self.size[1]}"
        return f"{self.label} at {self.size[0]} x {self.size[1]} (asked for {self.asked[0]} x {self.asked[1]})"


class PiCameraSource(FrameSource):
    def __init__(self, size: tuple[int, int] = CAMERA_SIZE):
        self.size = tuple(size)
        try:
            from picamera2 import Picamera2  # only on a Raspberry Pi
        except ImportError:
            raise CameraError("the Raspberry Pi camera library (picamera2) is not installed here") from None
        try:
            self.camera = Picamera2()
            config = self.camera.create_still_configuration(main={"size": size, "format": "RGB888"})
            self.camera.configure(config)
            self.camera.start()
            if "AfMode" in self.camera.camera_controls:
                # Camera Module 3 holds its lens where it is until asked to focus: keep it on the table.
                self.camera.set_controls({"AfMode": CONTINUOUS_AUTOFOCUS})
        except Exception as error:  # picamera2 raises many kinds when the camera is absent or busy
            raise CameraError(f"the Pi camera could not be started: {error}") from None

    def read(self) -> np.ndarray:
        try:
            # RGB888 in picamera2 is laid out B, G, R in memory: already what OpenCV wants.
            return self.camera.capture_array()
        except Exception as error:
            raise CameraError(f"the Pi camera stopped delivering pictures: {error}") from None

    def close(self) -> None:
        try:
            self.camera.stop()
            self.camera.close()
        except Exception:
            pass

    def describe(self) -> str:
        return f"Raspberry Pi camera at {self.size[0]} x {self.size[1]}"


class SyntheticSource(FrameSource):
    """Endless seeded synthetic scenes; `scene` holds the ground truth of the last frame."""

    def __init__(self, seed: int = 0, **scene_options):
        from .synthetic import SceneGenerator

        self.seed = seed
        self.generator = SceneGenerator(seed)
        self.scene_options = scene_options
        self.scene = None

    def read(self) -> np.ndarray:
        self.scene = self.generator.random_scene(**self.scene_options)
        return self.scene.frame

    def describe(self) -> str:
        return f"synthetic scenes (seed {self.seed})"


def open_source(spec: str, size: tuple[int, int] | None = None) -> FrameSource:
    """The source `spec` names. A camera (the Pi's or a webcam) is asked for `size` (width, height; CAMERA_SIZE
    unless given); images, videos and synthetic scenes come at their own size."""
    spec = str(spec).strip()
    size = CAMERA_SIZE if size is None else (int(size[0]), int(size[1]))
    if spec == "picamera":
        return PiCameraSource(size)
    if spec.startswith("usb:"):
        try:
            index = int(spec[4:])
        except ValueError:
            raise CameraError(f"'{spec}' is not a camera: use usb:0, usb:1, ...") from None
        return CaptureSource(index, f"USB camera {index}", size)
    if spec == "synthetic" or spec.startswith("synthetic:"):
        try:
            seed = int(spec.partition(":")[2] or 0)
        except ValueError:
            raise CameraError(f"'{spec}' is not a synthetic source: use synthetic or synthetic:SEED") from None
        return SyntheticSource(seed)
    path = Path(spec)
    if path.is_dir():
        return FolderSource(path)
    if path.suffix.lower() in VIDEO_SUFFIXES:
        if not path.is_file():
            raise CameraError(f"the video {path} does not exist")
        return CaptureSource(str(path), f"video {path}")
    if path.suffix.lower() in IMAGE_SUFFIXES or path.is_file():
        return ImageSource(path)
    raise CameraError(f"'{spec}' is not a camera, image, folder or video")
