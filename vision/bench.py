"""Benchmark: synthetic scenes built from the held-out scans (never used in training), scored against their ground
truth. Prints detection recall and precision, legion/parts/ability accuracy, and per-frame time."""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field

import numpy as np

from .cards import heldout_cards, scans_available, training_cards
from .pipeline import Recogniser
from .synthetic import CardTruth, SceneGenerator

CONFIDENT = 0.6


@dataclass
class Tally:
    visible: int = 0
    found: int = 0
    reported: int = 0
    true_reports: int = 0
    legion: int = 0
    parts: int = 0
    ability: int = 0
    all_facts: int = 0
    confident_wrong: int = 0  # visible cards found, read wrong, with confidence >= CONFIDENT
    occluded: int = 0
    occluded_confident_wrong: int = 0
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    phases: dict[str, float] = field(default_factory=dict)  # milliseconds per phase, summed over the frames' last runs


def match(cards, truths: list[CardTruth]):
    """Pairs (card, truth) by nearest centre, one to one, within 0.3 card widths; unmatched cards pair with None."""
    pairs = []
    taken: set[int] = set()
    for card in cards:
        centre = np.asarray(card.corners).mean(axis=0)
        best, best_distance = None, None
        for index, truth in enumerate(truths):
            if index in taken:
                continue
            distance = np.linalg.norm(truth.corners.mean(axis=0) - centre)
            if distance < 0.3 * truth.width_px and (best_distance is None or distance < best_distance):
                best, best_distance = index, distance
        if best is not None:
            taken.add(best)
        pairs.append((card, truths[best] if best is not None else None))
    return pairs


def score(tally: Tally, cards, truths: list[CardTruth]) -> None:
    tally.visible += sum(not t.occluded for t in truths)
    tally.occluded += sum(t.occluded for t in truths)
    tally.reported += len(cards)
    for card, truth in match(cards, truths):
        if truth is None:
            continue
        tally.true_reports += 1
        facts_right = (card.legion == truth.legion, tuple(card.parts) == tuple(truth.parts),
                       card.ability == truth.ability)
        if truth.occluded:
            if card.confidence >= CONFIDENT and not all(facts_right):
                tally.occluded_confident_wrong += 1
            continue
        tally.found += 1
        tally.legion += facts_right[0]
        tally.parts += facts_right[1]
        tally.ability += facts_right[2]
        tally.all_facts += all(facts_right)
        tally.confident_wrong += card.confidence >= CONFIDENT and not all(facts_right)


def run(scenes: int = 40, seed: int = 2024, repeats: int = 3, heldout: bool = True, width_range=(140.0, 330.0),
        recogniser: Recogniser | None = None, progress=None, printing: tuple[float, float] | None = None,
        touching: bool = False, lens: float = 0.0) -> Tally:
    """`printing`: (hue degrees, saturation scale) of the cards' colours, as another printing or camera shows them
    (`vision.synthetic.reprinted`); `touching`: each seat's creatures pushed together side by side; `lens`: the
    scenes seen through a lens bending so (`vision.lens`)."""
    import cv2

    from .pipeline import one_blas_thread

    cv2.setNumThreads(1)  # the target is per frame on one core
    one_blas_thread()
    cards = bench_cards(heldout)
    generator = SceneGenerator(seed, card_ids=[c.id for c in cards], use_scans=scans_available(), printing=printing,
                               touching=touching, lens=lens)
    recogniser = recogniser or Recogniser()
    tally = Tally()
    for index in range(scenes):
        scene = generator.random_scene(width_range=width_range)
        timings = []
        for _ in range(repeats):
            result = recogniser.scan(scene.frame)
            timings.append(result.ms)
        tally.times.append(statistics.median(timings))
        for phase, ms in result.phases.items():
            tally.phases[phase] = tally.phases.get(phase, 0.0) + ms
        if result.error:
            tally.errors.append(result.error)
        score(tally, result.cards, scene.cards)
        if progress:
            progress(index + 1, scenes)
    return tally


def bench_cards(heldout: bool):
    """The held-out (or training) scanned cards; where the scans are not, the same split of the whole deck, drawn
    as stand-ins (without it the bench had no card to lay)."""
    from .cards import all_cards, split_cards

    return (heldout_cards() if heldout else training_cards()) or split_cards(all_cards(), heldout)


TEACHING_SEED = 900  # the scenes the taught cards are shown in: training cards, neither the bench's nor training's


def teach_printing(per_legion: int, printing: tuple[float, float] | None, out):
    """Teach the recogniser `per_legion` training cards of each legion as `printing` shows them (the first cards
    seen whole in the scenes of TEACHING_SEED, cut at their true corners) and save it to `out`: how well teaching
    adapts to another printing's colours (docs/vision-history.md, stop 36). Returns the saved path."""
    from .cards import card_by_id
    from .table_state import LEGIONS
    from .taught import teach_examples

    generator = SceneGenerator(TEACHING_SEED, card_ids=[c.id for c in bench_cards(heldout=False)],
                               use_scans=scans_available(), printing=printing)
    examples, taken, count = [], set(), dict.fromkeys(LEGIONS, 0)
    while min(count.values()) < per_legion:
        scene = generator.random_scene(width_range=(140.0, 330.0))
        for truth in scene.cards:
            if truth.occluded or truth.card_id in taken or count[truth.legion] >= per_legion:
                continue
            taken.add(truth.card_id)
            count[truth.legion] += 1
            examples.append((scene.frame, truth.corners, card_by_id(truth.card_id)))
    return teach_examples(examples, out=out)


def report(tally: Tally, label: str, phases: bool = False) -> str:
    def pct(numerator, denominator):
        return f"{100 * numerator / denominator:6.2f}% ({numerator}/{denominator})" if denominator else "   n/a"

    lines = [
        f"{label}",
        f"  detection recall     {pct(tally.found, tally.visible)}",
        f"  detection precision  {pct(tally.true_reports, tally.reported)}",
        f"  legion accuracy      {pct(tally.legion, tally.found)}",
        f"  parts accuracy       {pct(tally.parts, tally.found)}",
        f"  ability accuracy     {pct(tally.ability, tally.found)}",
        f"  all three right      {pct(tally.all_facts, tally.found)}",
        f"  read wrong, surely   {tally.confident_wrong} of the {tally.found - tally.all_facts} read wrong "
        f"(confidence >= {CONFIDENT})",
        f"  hand-covered cards   {tally.occluded} (confidently wrong: {tally.occluded_confident_wrong})",
        f"  time per frame       median {statistics.median(tally.times):.1f} ms, "
        f"90th percentile {np.percentile(tally.times, 90):.1f} ms (one thread)" if tally.times else "  no frames",
    ]
    if tally.errors:
        lines.append(f"  errors               {len(tally.errors)}: {tally.errors[0]}")
    if phases:
        lines += phase_lines(tally)
    return "\n".join(lines)


def phase_lines(tally: Tally) -> list[str]:
    """Where the time goes: each phase's mean milliseconds per frame and share of the whole (means add up, medians do
    not), from each frame's last timed run."""
    total = sum(tally.phases.values())
    if not tally.times or total <= 0:
        return ["  time by phase        no frames"]
    lines = ["  time by phase        mean ms per frame, share"]
    for phase, ms in tally.phases.items():
        lines.append(f"    {phase:<24}{ms / len(tally.times):7.1f} ms {100 * ms / total:5.1f}%")
    return lines
