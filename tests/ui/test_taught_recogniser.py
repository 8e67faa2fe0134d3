"""The app's camera reads with what the user taught (`companion vision teach` saves it; issue 3: "the recogniser
adapts"), and a damaged taught file falls back to the built-in recogniser instead of blinding the camera."""
import json
import logging
import queue
import shutil

from companion.ui.camera_worker import CameraWorker
from vision.model import DEFAULT_MODEL, exemplars_path


def _worker():
    return CameraWorker(guard=None, inbox=queue.Queue())


def test_the_camera_worker_reads_with_the_taught_recogniser(tmp_path, monkeypatch):
    taught = tmp_path / "vision-model.json"
    data = json.loads(DEFAULT_MODEL.read_text(encoding="utf-8"))
    data["about"]["taught_by"] = "the user"
    taught.write_text(json.dumps(data), encoding="utf-8")
    shutil.copy(exemplars_path(DEFAULT_MODEL), exemplars_path(taught))
    monkeypatch.setenv("COMPANION_VISION_PARAMS", str(taught))
    recogniser = _worker().load_recogniser()
    assert recogniser.model is not None and recogniser.model.about.get("taught_by") == "the user"


def test_without_a_taught_file_the_built_in_recogniser_is_used(tmp_path, monkeypatch):
    monkeypatch.setenv("COMPANION_VISION_PARAMS", str(tmp_path / "never-taught.json"))
    recogniser = _worker().load_recogniser()
    assert recogniser.model is not None and "taught_by" not in recogniser.model.about


def test_a_damaged_taught_file_falls_back_to_the_built_in_recogniser(tmp_path, monkeypatch, caplog):
    taught = tmp_path / "vision-model.json"
    taught.write_text('{"about": {}, "weights": {"legion": [[0.1', encoding="utf-8")  # cut off mid-write
    monkeypatch.setenv("COMPANION_VISION_PARAMS", str(taught))
    with caplog.at_level(logging.WARNING):
        recogniser = _worker().load_recogniser()
    assert recogniser.model is not None
    assert "taught recogniser cannot be used" in caplog.text


def test_without_threadpoolctl_the_camera_still_gets_its_recogniser(tmp_path, monkeypatch):
    import sys

    monkeypatch.setitem(sys.modules, "threadpoolctl", None)  # an install older than the dependency: import fails
    monkeypatch.setenv("COMPANION_VISION_PARAMS", str(tmp_path / "never-taught.json"))
    worker = _worker()
    worker.build_pipeline()  # keeps numpy's own threads instead of one: it reads the same
    assert worker.recogniser.model is not None and worker.stabiliser is not None


def test_the_camera_worker_reads_thoroughly_when_the_configuration_asks(tmp_path, monkeypatch):
    """`[camera] thorough = true` reaches the recogniser the worker builds, taught or built in."""
    monkeypatch.setenv("COMPANION_VISION_PARAMS", str(tmp_path / "never-taught.json"))
    assert not _worker().load_recogniser().thorough
    assert CameraWorker(guard=None, inbox=queue.Queue(), thorough=True).load_recogniser().thorough
