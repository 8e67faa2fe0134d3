"""The temporal stabiliser (issue 3: 'a card is reported only after it has been seen unchanged for a short settle
time, and a card under a passing hand is not reported as removed')."""
from hypothesis import given, settings, strategies as st

from vision.stabiliser import Stabiliser
from vision.table_state import SeenCard


def card(x, y, legion="blue", confidence=0.9, width=200.0):
    height = width / 1.557
    # Seat 0 orientation: top edge first, further from the near (bottom) edge of the frame.
    corners = ((x, y), (x + width, y), (x + width, y + height), (x, y + height))
    return SeenCard(legion, ("legs",), None, corners, confidence)


LEGS = card(700, 1000)
TORSO = card(700, 1000 - 200 / 1.557, legion="red")


def feed(stabiliser, frames, start=0.0, step=0.1):
    states = []
    for index, cards in enumerate(frames):
        state = stabiliser.update(cards, start + index * step)
        if state is not None:
            states.append(state)
    return states


def test_card_is_reported_only_after_settling():
    stabiliser = Stabiliser(settle_frames=5, settle_seconds=0.4)
    states = feed(stabiliser, [[LEGS]] * 4)
    assert all(not s.seats for s in states)
    states = feed(stabiliser, [[LEGS]] * 2, start=0.4)
    assert states and states[-1].creatures(0)[0][0].legion == "blue"


def test_flicker_is_never_reported():
    stabiliser = Stabiliser(settle_frames=3, settle_seconds=0.0)
    states = feed(stabiliser, [[LEGS], [], [LEGS], [], [LEGS], []] * 3)
    assert all(not s.seats for s in states)


def test_hand_passing_over_does_not_remove_the_card():
    stabiliser = Stabiliser(settle_frames=3, settle_seconds=0.2, absent_frames=10, absent_seconds=1.5)
    feed(stabiliser, [[LEGS, TORSO]] * 5)
    assert len(stabiliser.state.creatures(0)[0]) == 2
    # A hand hides the torso for 8 frames (0.8 s), then it is visible again.
    states = feed(stabiliser, [[LEGS]] * 8 + [[LEGS, TORSO]] * 3, start=0.5)
    assert states == []
    assert [c.slot for c in stabiliser.state.creatures(0)[0]] == ["legs", "torso"]


def test_card_taken_away_is_removed_after_the_absence_time():
    stabiliser = Stabiliser(settle_frames=3, settle_seconds=0.2, absent_frames=5, absent_seconds=1.0)
    feed(stabiliser, [[LEGS, TORSO]] * 5)
    states = feed(stabiliser, [[LEGS]] * 15, start=0.5)
    assert len(states) == 1 and len(states[0].creatures(0)[0]) == 1


def test_uncertain_sighting_keeps_a_stable_card_alive():
    stabiliser = Stabiliser(settle_frames=3, settle_seconds=0.0, absent_frames=3, absent_seconds=0.2)
    feed(stabiliser, [[LEGS]] * 4)
    half_hidden = card(705, 1002, confidence=0.2)
    states = feed(stabiliser, [[half_hidden]] * 20, start=1.0)
    assert states == [] and stabiliser.state.creatures(0)
    assert stabiliser.state.to_json()["seats"]["0"][0][0]["legion"] == "blue"


def _cards_reported(state) -> list[SeenCard]:
    return [c for columns in state.seats.values() for column in columns for c in column] + \
        ([state.discard_top] if state.discard_top is not None else [])


def test_a_card_replaced_in_place_is_never_reported_beside_its_replacement():
    """One card where another lay (a card swapped, or a stable card read differently while a hand rests on it) is
    one card: the new one replaces the old once it has settled, and the two are never reported together."""
    stabiliser = Stabiliser(settle_frames=3, settle_seconds=0.2, absent_frames=10, absent_seconds=1.5)
    feed(stabiliser, [[LEGS]] * 5)
    replacement = card(702, 1001, legion="green")
    states = feed(stabiliser, [[replacement]] * 20, start=0.5)
    assert all(len(_cards_reported(state)) <= 1 for state in states)
    assert [c.legion for c in _cards_reported(stabiliser.state)] == ["green"]


def test_a_different_reading_that_does_not_settle_leaves_the_card_as_it_was():
    stabiliser = Stabiliser(settle_frames=3, settle_seconds=0.2, absent_frames=3, absent_seconds=0.2)
    feed(stabiliser, [[LEGS]] * 5)
    misread = card(702, 1001, legion="green")
    states = feed(stabiliser, [[misread], [LEGS]] * 10, start=0.5)
    assert states == []
    assert [c.legion for c in _cards_reported(stabiliser.state)] == ["blue"]


@settings(max_examples=40, deadline=None)
@given(pattern=st.lists(st.booleans(), min_size=1, max_size=40), settle=st.integers(1, 6))
def test_reported_only_after_settle_consecutive_sightings(pattern, settle):
    stabiliser = Stabiliser(settle_frames=settle, settle_seconds=0.0, absent_frames=1000, absent_seconds=1000)
    run = 0
    reported = False
    for index, present in enumerate(pattern):
        run = run + 1 if present else 0
        if run >= settle:
            reported = True
        stabiliser.update([LEGS] if present else [], index * 0.1)
        has_card = bool(stabiliser.state and stabiliser.state.seats)
        assert has_card == reported


def test_recogniser_and_stabiliser_together_give_the_layout(recogniser):
    """End to end: frames of a still table become one stable state whose creatures match the laid-out columns."""
    import numpy as np

    from vision.geometry import Calibration
    from vision.synthetic import Conditions, SceneGenerator

    generator = SceneGenerator(12, use_scans=False)
    scene = generator.render({0: [[3, 40]], 2: [[70]]}, Conditions(card_width_px=260, noise=1, table="dark"))
    stabiliser = Stabiliser(settle_frames=3, settle_seconds=0.2,
                            calibration=Calibration.from_json({"table_corners": scene.table_corners.tolist()}))
    states = [stabiliser.update(recogniser.scan(scene.frame).cards, t * 0.1) for t in range(5)]
    states = [s for s in states if s is not None and s.seats]
    assert len(states) == 1, "one stable picture, reported once"
    state = states[0]
    truth_by_centre = [(t.corners.mean(axis=0), t) for t in scene.cards]
    for seat, columns in state.seats.items():
        for column in columns:
            for card in column:
                centre = np.mean(card.corners, axis=0)
                truth = min(truth_by_centre, key=lambda item: np.linalg.norm(item[0] - centre))[1]
                assert (card.seat, card.slot) == (truth.seat, truth.slot)
