"""From a jittery stream of per-frame detections to a stream of stable table states.

A card is reported once it has been seen, unchanged and in the same place, for `settle_frames` frames spanning at
least `settle_seconds`; it is dropped only after it has been missing for `absent_frames` frames and
`absent_seconds`, so a hand passing over it does not remove it; a card that settles where it lay replaces it at once.
Timestamps are passed in; no clock is read here.
"""
from __future__ import annotations

from dataclasses import dataclass

import numpy as np

from .geometry import Calibration, assign
from .table_state import SeenCard, TableState


@dataclass
class _Track:
    ident: int
    card: SeenCard
    first_seen: float
    last_seen: float
    sightings: int = 1
    misses: int = 0
    stable: bool = False

    @property
    def key(self):
        return self.card.legion, self.card.parts, self.card.ability

    @property
    def centre(self) -> np.ndarray:
        return np.asarray(self.card.corners, np.float64).mean(axis=0)

    @property
    def size(self) -> float:
        corners = np.asarray(self.card.corners, np.float64)
        return float(np.linalg.norm(corners[1] - corners[0]))


def _centre(card: SeenCard) -> np.ndarray:
    return np.asarray(card.corners, np.float64).mean(axis=0)


# A card read less surely than this is not reported; it is kept as uncertain (a hand over it, glare, or a card the
# recogniser was never shown).
MIN_CONFIDENCE = 0.6
# A sighting this near a stable card's centre (a share of its width) is of the place that card lies in: a doubtful
# one keeps the card alive, and a card settling there replaces it.
SAME_PLACE = 0.35


class Stabiliser:
    def __init__(self, settle_frames: int = 5, settle_seconds: float = 0.4, absent_frames: int = 10,
                 absent_seconds: float = 1.5, min_confidence: float = MIN_CONFIDENCE,
                 calibration: Calibration | None = None,
                 frame_size: tuple[int, int] = (1640, 1232)):
        self.settle_frames = settle_frames
        self.settle_seconds = settle_seconds
        self.absent_frames = absent_frames
        self.absent_seconds = absent_seconds
        self.min_confidence = min_confidence
        self.calibration = calibration or Calibration.image_plane(*frame_size)
        self._tracks: list[_Track] = []
        self._next_ident = 0
        self._last_signature: tuple | None = None
        self.state: TableState | None = None

    def update(self, seen_cards: list[SeenCard], timestamp: float) -> TableState | None:
        """Feed one frame's cards; returns a new TableState when the stable picture changed, else None."""
        confident = [c for c in seen_cards if c.confidence >= self.min_confidence and len(c.corners) == 4]
        doubtful = [c for c in seen_cards if c.confidence < self.min_confidence and len(c.corners) == 4]
        matched: set[int] = set()
        for card in sorted(confident, key=lambda c: -c.confidence):
            track = self._match(card, matched)
            if track is None:
                track = _Track(self._next_ident, card, timestamp, timestamp)
                self._next_ident += 1
                self._tracks.append(track)
            else:
                track.card = card
                track.sightings += 1
                track.misses = 0
                track.last_seen = timestamp
            matched.add(track.ident)
        for track in self._tracks:
            if track.ident in matched:
                continue
            if any(np.linalg.norm(_centre(c) - track.centre) < SAME_PLACE * track.size for c in doubtful):
                # Seen, but not clearly (a hand, glare): neither confirmed nor counted as gone.
                track.last_seen = timestamp
                continue
            track.misses += 1
            if not track.stable:
                track.sightings = 0
        self._tracks = [t for t in self._tracks if not self._gone(t, timestamp) and (t.stable or t.sightings > 0)]
        settled = []
        for track in self._tracks:
            if (not track.stable and track.sightings >= self.settle_frames
                    and timestamp - track.first_seen >= self.settle_seconds):
                track.stable = True
                settled.append(track)
        # A card settled where a stable card lay, unseen since, replaces it: one card lies in one place (a card
        # swapped, or one read otherwise while a hand rests on it), and the old one would stay for the absence time.
        replaced = {old.ident for new in settled for old in self._tracks
                    if old.stable and old is not new and old.ident not in matched
                    and np.linalg.norm(old.centre - new.centre) < SAME_PLACE * old.size}
        self._tracks = [t for t in self._tracks if t.ident not in replaced]
        stable = [t for t in self._tracks if t.stable]
        signature = tuple(sorted(t.ident for t in stable))
        if signature == self._last_signature:
            return None
        self._last_signature = signature
        self.state = self._state([t.card for t in stable], doubtful)
        return self.state

    def _match(self, card: SeenCard, taken: set[int]) -> _Track | None:
        key = (card.legion, card.parts, card.ability)
        centre = _centre(card)
        best, best_distance = None, None
        for track in self._tracks:
            if track.ident in taken or track.key != key:
                continue
            distance = float(np.linalg.norm(centre - track.centre))
            if distance < 0.3 * track.size and (best_distance is None or distance < best_distance):
                best, best_distance = track, distance
        return best

    def _gone(self, track: _Track, timestamp: float) -> bool:
        return (track.stable and track.misses >= self.absent_frames
                and timestamp - track.last_seen >= self.absent_seconds)

    def _state(self, cards: list[SeenCard], doubtful: list[SeenCard]) -> TableState:
        placed, middle = assign(cards, self.calibration)
        seats: dict[int, list[list[SeenCard]]] = {}
        for card in placed:
            columns = seats.setdefault(card.seat, [])
            while len(columns) <= card.creature:
                columns.append([])
            columns[card.creature].append(card)
        order = {"legs": 0, "torso": 1, "head": 2}
        frozen = {seat: tuple(tuple(sorted(column, key=lambda c: order.get(c.slot, 3))) for column in columns)
                  for seat, columns in sorted(seats.items())}
        discard = max(middle, key=lambda c: c.confidence) if middle else None
        return TableState(seats=frozen, discard_top=discard, uncertain=tuple(doubtful))
