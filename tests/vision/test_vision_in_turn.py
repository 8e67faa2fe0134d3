"""`companion vision bench --against CHECKOUT` (issue 3's time target, docs/vision.md "Time per frame"): this
checkout's recogniser and another checkout's read each frame in turn in one process; the figures are their medians
and ratio. No test here times anything: a fake clock stands in for the machine."""
import re
import sys
from pathlib import Path

import numpy as np
import pytest

from companion.cli import main
from vision.in_turn import InTurnError, InTurnTimes, load_recogniser_class, summary_line, time_in_turn

CHECKOUT = Path(__file__).resolve().parents[2]


class _Clock:
    """A clock that each recogniser's reading moves on by that recogniser's cost for that frame."""

    def __init__(self):
        self.now = 0.0

    def __call__(self):
        return self.now


class _FakeRecogniser:
    def __init__(self, name, clock, costs, calls):
        self.name, self.clock, self.costs, self.calls = name, clock, costs, calls

    def scan(self, frame):
        self.calls.append((self.name, int(frame[0, 0])))
        # The first reading of a frame is the slow one (caches cold): the fastest of the readings is kept.
        first = sum(1 for name, value in self.calls if (name, value) == (self.name, int(frame[0, 0]))) == 1
        self.clock.now += self.costs[int(frame[0, 0])] * (2.0 if first else 1.0)


def test_each_frame_is_read_by_both_in_turn_and_the_fastest_reading_of_each_is_kept():
    clock, calls = _Clock(), []
    frames = [np.full((2, 2), value, np.uint8) for value in range(3)]
    ours = _FakeRecogniser("ours", clock, {0: 0.010, 1: 0.020, 2: 0.040}, calls)
    theirs = _FakeRecogniser("theirs", clock, {0: 0.010, 1: 0.040, 2: 0.050}, calls)
    times = time_in_turn(frames, ours, theirs, repeats=2, clock=clock)
    # The first frame once each, untimed; then per frame theirs, ours, theirs, ours.
    assert calls[:2] == [("theirs", 0), ("ours", 0)]
    assert calls[2:] == [(name, value) for value in range(3) for _ in range(2) for name in ("theirs", "ours")]
    assert times.ours == pytest.approx([10.0, 20.0, 40.0]) and times.theirs == pytest.approx([10.0, 40.0, 50.0])
    assert times.median_ratio == pytest.approx(20.0 / 40.0)  # the median frames' times
    assert times.per_frame_ratio == pytest.approx(0.8)  # the median of 1.0, 0.5 and 0.8


def test_the_summary_is_the_median_over_rounds():
    rounds = [InTurnTimes([10.0], [10.0]), InTurnTimes([9.0], [10.0]), InTurnTimes([12.0], [10.0])]
    assert re.search(r"ours/theirs 1\.000 \(per frame 1\.000\)", summary_line(rounds))


def test_another_checkouts_recogniser_is_loaded_beside_this_ones():
    import vision.pipeline

    theirs = load_recogniser_class(CHECKOUT)
    assert theirs.__name__ == "Recogniser" and theirs is not vision.pipeline.Recogniser
    assert sys.modules["vision.pipeline"] is vision.pipeline  # this checkout's package untouched
    assert load_recogniser_class(CHECKOUT) is theirs  # loaded once


def test_a_folder_without_a_vision_package_or_with_a_broken_one_is_a_clear_error(tmp_path):
    with pytest.raises(InTurnError, match="has no vision package"):
        load_recogniser_class(tmp_path)
    (tmp_path / "vision").mkdir()
    (tmp_path / "vision" / "__init__.py").write_text("raise RuntimeError('half-written checkout')\n")
    (tmp_path / "vision" / "pipeline.py").write_text("")
    with pytest.raises(InTurnError, match="half-written checkout"):
        load_recogniser_class(tmp_path)
    assert not any(str(tmp_path) in str(getattr(module, "__file__", None)) for module in list(sys.modules.values()))


def test_bench_against_prints_each_round_and_the_median(capsys):
    status = main(["vision", "bench", "--against", str(CHECKOUT), "--scenes", "1", "--rounds", "2", "--repeats", "1"])
    out = capsys.readouterr().out
    assert status == 0
    assert len(re.findall(r"round \d: ours [\d.]+ ms, theirs [\d.]+ ms", out)) == 2
    assert re.search(r"median over 2 rounds: ours/theirs \d+\.\d{3}", out)


@pytest.mark.parametrize("arguments, message", [
    (["--against", "{missing}"], "has no vision package"),
    (["--against", "{checkout}", "--layout"], "does not take --layout"),
    (["--against", "{checkout}", "--rounds", "0"], "at least one scene, round and repeat"),
])
def test_bench_against_refuses_what_it_cannot_time(tmp_path, capsys, arguments, message):
    arguments = [a.format(missing=tmp_path / "nothing", checkout=CHECKOUT) for a in arguments]
    assert main(["vision", "bench", "--scenes", "1"] + arguments) == 2
    assert message in capsys.readouterr().err
