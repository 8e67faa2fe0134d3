"""`companion vision bench --layout`: how well the cards found are placed at the table, scored against the layout
a scene was drawn from (issue 3: "with a calibration, each card also carries seat, creature and slot"; RULES.md 1:
a creature is a column legs-torso-head, legs nearest its owner)."""
from dataclasses import replace

import numpy as np

from companion.cli import main
from vision.bench import LayoutTally, score_layout
from vision.synthetic import CardTruth
from vision.table_state import SeenCard


def _truth(x: float, seat: int | None, creature: int | None, slot: str | None, visible: float = 1.0) -> CardTruth:
    corners = np.array([[x, 0.0], [x + 100, 0.0], [x + 100, 64.0], [x, 64.0]])
    return CardTruth(1, "blue", ("legs",), None, corners, seat, creature, slot, visible)


def _told(truth: CardTruth, seat, creature, slot) -> SeenCard:
    return SeenCard(truth.legion, truth.parts, truth.ability, tuple(map(tuple, truth.corners)), 0.9, seat, creature,
                    slot)


def _table():
    """Seat 0: a creature of legs and torso, and a lone legs card; the discard in the middle."""
    return [_truth(0, 0, 0, "legs"), _truth(200, 0, 0, "torso"), _truth(400, 0, 1, "legs"), _truth(600, None, None,
                                                                                                   None)]


def test_a_table_placed_right_scores_whole():
    truths = _table()
    cards = [_told(t, t.seat, t.creature, t.slot) for t in truths]
    tally = LayoutTally()
    score_layout(tally, cards, truths)
    assert (tally.owned, tally.seat, tally.slot, tally.creature, tally.all_three) == (3, 3, 3, 3, 3)
    assert (tally.discards, tally.discards_in_middle, tally.whole_tables) == (1, 1, 1)


def test_two_creatures_told_as_one_are_both_wrong_creatures():
    """The lone legs card reported as the first creature's: its creature-mates and theirs differ from the table's;
    the creature numbers themselves (the order within a seat) are not what is compared."""
    truths = _table()
    cards = [_told(t, t.seat, 5 if t.seat is not None else None, t.slot) for t in truths]  # renumbered: still right
    cards[2] = replace(cards[2], creature=5)  # ... but now every card of seat 0 is one creature
    tally = LayoutTally()
    score_layout(tally, cards, truths)
    assert (tally.seat, tally.slot, tally.creature) == (3, 3, 0)
    assert tally.whole_tables == 0


def test_wrong_seat_slot_and_a_discard_given_to_a_seat_are_counted():
    truths = _table()
    cards = [_told(truths[0], 1, 0, "legs"), _told(truths[1], 0, 0, "head"), _told(truths[2], 0, 1, "legs"),
             _told(truths[3], 2, 0, "legs")]
    tally = LayoutTally()
    score_layout(tally, cards, truths)
    assert (tally.seat, tally.slot) == (2, 2)
    assert tally.creature == 1  # the lone card alone keeps its creature-mates (none); the others are split by seat
    assert (tally.discards, tally.discards_in_middle, tally.whole_tables) == (1, 0, 0)


def test_a_card_under_a_hand_is_not_scored_and_a_missed_card_spoils_the_whole_table():
    truths = _table()
    truths[1].visible = 0.5
    cards = [_told(t, t.seat, t.creature, t.slot) for t in truths]
    tally = LayoutTally()
    score_layout(tally, cards, truths)
    assert tally.owned == 2 and tally.whole_tables == 1
    tally = LayoutTally()
    score_layout(tally, cards[:1] + cards[2:], [truths[0]] + truths[2:])  # the hidden card simply not reported
    assert tally.creature == 2  # compared among the cards found, the legs card has no mate either way
    truths[1].visible = 1.0
    tally = LayoutTally()
    score_layout(tally, cards[:1] + cards[2:], truths)  # a visible card missed
    assert tally.all_three == 2 and tally.whole_tables == 0


def test_the_bench_command_scores_the_layout(capsys):
    status = main(["vision", "bench", "--scenes", "2", "--repeats", "1", "--layout"])
    out = capsys.readouterr().out
    assert status == 0
    assert "table markers drawn and seats scored" in out
    found = next(line for line in out.splitlines() if "table markers found" in line)
    assert "(2/2)" in found  # drawn without a lens, flat: the markers are always found
    assert "seat right" in out and "whole table right" in out


def test_where_an_arm_hides_a_marker_the_calibration_made_before_stands_in(monkeypatch):
    """The app keeps the calibration the user made once (`companion vision calibrate`); an arm lying over a marker
    in one picture does not take it away, and the bench scores such scenes with the table's drawn corners."""
    from vision import bench, markers
    from vision.pipeline import Recogniser

    monkeypatch.setattr(markers, "find_table_corners", lambda frame: None)
    recogniser = Recogniser()
    tally = bench.run(scenes=1, repeats=1, recogniser=recogniser, layout=True)
    assert (tally.layout.scenes, tally.layout.markers_found) == (1, 0)
    assert tally.layout.owned > 0 and tally.layout.seat == tally.layout.owned
    assert recogniser.calibration is None  # the recogniser is handed back as it came
