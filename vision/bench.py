"""Benchmark: synthetic scenes built from the held-out scans (never used in training), scored against their ground
truth. Prints detection recall and precision, legion/parts/ability accuracy, and per-frame time."""
from __future__ import annotations

import statistics
from dataclasses import dataclass, field

import numpy as np

from .cards import heldout_cards, scans_available, training_cards
from .geometry import Calibration
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
    trusted: int = 0  # visible cards found, read right, with confidence >= CONFIDENT: what the stabiliser reports
    occluded: int = 0
    occluded_confident_wrong: int = 0
    times: list[float] = field(default_factory=list)
    errors: list[str] = field(default_factory=list)
    phases: dict[str, float] = field(default_factory=dict)  # milliseconds per phase, summed over the frames' last runs
    layout: "LayoutTally | None" = None  # with `run(layout=True)`


@dataclass
class LayoutTally:
    """How well the found cards were placed at the table (`run(layout=True)`): each scene's calibration is made from
    the table markers found in it, as `companion vision calibrate --image` makes it; where an arm hides a marker, from
    the table's drawn corners, as the calibration the user made before the arm came gives them."""

    scenes: int = 0
    markers_found: int = 0  # scenes in which all four table markers were found
    owned: int = 0  # visible cards of a creature, found
    seat: int = 0
    slot: int = 0
    creature: int = 0  # found with exactly the creature-mates it has on the table (of those found)
    all_three: int = 0
    discards: int = 0  # the face-up discard, visible and found
    discards_in_middle: int = 0  # ... and reported as lying in the middle (no seat)
    whole_tables: int = 0  # scenes whose every visible card was found and placed right, with no false card


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
        tally.trusted += card.confidence >= CONFIDENT and all(facts_right)


def sure_mistakes_in(where: str, cards, truths: list[CardTruth]) -> list[str]:
    """A line for each card read wrong with confidence CONFIDENT or more (what the stabiliser reports), in plain view
    or under a hand: where to look first when a figure moves."""
    lines = []
    for card, truth in match(cards, truths):
        if truth is not None and card.confidence >= CONFIDENT and facts_text(card) != facts_text(truth):
            lines.append(f"{where}: card {truth.card_id} ({facts_text(truth)}"
                         f"{', hand-covered' if truth.occluded else ''}) read as {facts_text(card)}, confidence "
                         f"{card.confidence:.2f}")
    return lines


def facts_text(card) -> str:
    """A card's legion, parts and ability, as the lists of mistakes say them."""
    return f"{card.legion} {'+'.join(card.parts)} {card.ability or 'no ability'}"


def score_layout(tally: LayoutTally, cards, truths: list[CardTruth]) -> None:
    """Seat, slot and creature of each visible card found against the layout the scene was drawn from."""
    pairs = [(card, truth) for card, truth in match(cards, truths) if truth is not None]
    # Creature-mates are compared as sets of the cards found: a creature's card that was not found (under a hand)
    # does not count against its mates, but two creatures reported as one, or one as two, does.
    drawn = {id(truth): (truth.seat, truth.creature) for _, truth in pairs}
    told = {id(truth): (card.seat, card.creature) for card, truth in pairs}

    def mates(key_of: dict, truth) -> set[int]:
        return {other for other, key in key_of.items() if key == key_of[id(truth)] and key[0] is not None}

    visible_found = 0
    whole = True
    for card, truth in pairs:
        if truth.occluded:
            continue
        visible_found += 1
        if truth.seat is None:
            tally.discards += 1
            in_middle = card.seat is None
            tally.discards_in_middle += in_middle
            whole &= in_middle
            continue
        tally.owned += 1
        right = (card.seat == truth.seat, card.slot == truth.slot, mates(told, truth) == mates(drawn, truth))
        tally.seat += right[0]
        tally.slot += right[1]
        tally.creature += right[2]
        tally.all_three += all(right)
        whole &= all(right)
    tally.whole_tables += whole and visible_found == sum(not t.occluded for t in truths) and len(pairs) == len(cards)


def run(scenes: int = 40, seed: int = 2024, repeats: int = 3, heldout: bool = True, width_range=(140.0, 330.0),
        recogniser: Recogniser | None = None, progress=None, printing: tuple[float, float] | None = None,
        touching: bool = False, lens: float = 0.0, layout: bool = False, mistakes: list[str] | None = None,
        lone: bool = False, pixel_scale: int = 1, binned: bool = False) -> Tally:
    """`printing`: (hue degrees, saturation scale) of the cards' colours, as another printing or camera shows them
    (`vision.synthetic.reprinted`); `touching`: each seat's creatures pushed together side by side; `lone`: one card
    alone on the table, as a game starts (`SceneGenerator.lone_scene`); `lens`: the scenes seen through a lens bending
    so (`vision.lens`); `layout`: the table markers drawn at the table's corners, each scene read with the calibration
    they give, and the cards' seats, creatures and slots scored (`Tally.layout`). `pixel_scale`: the scenes drawn that
    many times larger each way, as a sensor read at full resolution gives them (`SceneGenerator`; `width_range` stays in
    1640x1232 pixels); `binned`: the same scenes as that sensor's binned mode gives them, at 1640x1232. Each card read
    wrong surely is said in a line appended to `mistakes` (`sure_mistakes_in`)."""
    from .markers import find_table_corners

    one_core()
    generator = scene_generator(seed, heldout, printing, touching, lens, pixel_scale, binned)
    recogniser = recogniser or Recogniser()
    own_calibration = recogniser.calibration
    tally = Tally(layout=LayoutTally() if layout else None)
    lay = generator.lone_scene if lone else generator.random_scene
    for index in range(scenes):
        scene = lay(width_range=width_range, **({"markers": True} if layout else {}))
        if layout:
            corners = find_table_corners(scene.frame)
            markers_found = corners is not None
            table_corners = corners if markers_found else scene.table_corners
            recogniser.calibration = Calibration(tuple(map(tuple, table_corners.tolist())),
                                                 (scene.frame.shape[1], scene.frame.shape[0]))
        result = timed_scan(tally, recogniser, scene.frame, repeats)
        for phase, ms in result.phases.items():
            tally.phases[phase] = tally.phases.get(phase, 0.0) + ms
        if result.error:
            tally.errors.append(result.error)
        score(tally, result.cards, scene.cards)
        if mistakes is not None:
            mistakes += sure_mistakes_in(f"scene {index}", result.cards, scene.cards)
        if layout:
            tally.layout.scenes += 1
            tally.layout.markers_found += markers_found
            score_layout(tally.layout, result.cards, scene.cards)
        if progress:
            progress(index + 1, scenes)
    recogniser.calibration = own_calibration
    return tally


def timed_scan(tally: Tally, recogniser: Recogniser, frame, repeats: int):
    """The frame read `repeats` times, the median time added to the tally; the last reading."""
    timings = []
    for _ in range(repeats):
        result = recogniser.scan(frame)
        timings.append(result.ms)
    tally.times.append(statistics.median(timings))
    return result


def one_core() -> None:
    """OpenCV and numpy's matrix products on the calling core: the target is per frame on one core."""
    import cv2

    from .pipeline import one_blas_thread

    cv2.setNumThreads(1)
    one_blas_thread()


def scene_generator(seed: int, heldout: bool = True, printing: tuple[float, float] | None = None,
                    touching: bool = False, lens: float = 0.0, pixel_scale: int = 1,
                    binned: bool = False) -> SceneGenerator:
    """The bench's scenes: of the held-out (or training) cards, from the scans where they are here."""
    return SceneGenerator(seed, card_ids=[c.id for c in bench_cards(heldout)], use_scans=scans_available(),
                          printing=printing, touching=touching, lens=lens, pixel_scale=pixel_scale, binned=binned)


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

    generator = scene_generator(TEACHING_SEED, heldout=False, printing=printing)
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
        f"  read right, surely   {pct(tally.trusted, tally.all_facts)} (confidence >= {CONFIDENT}: reported live)",
        f"  hand-covered cards   {tally.occluded} (confidently wrong: {tally.occluded_confident_wrong})",
        f"  time per frame       median {statistics.median(tally.times):.1f} ms, "
        f"90th percentile {np.percentile(tally.times, 90):.1f} ms (one thread)" if tally.times else "  no frames",
    ]
    if tally.errors:
        lines.append(f"  errors               {len(tally.errors)}: {tally.errors[0]}")
    if tally.layout is not None:
        lines += layout_lines(tally.layout, pct)
    if phases:
        lines += phase_lines(tally)
    return "\n".join(lines)


def layout_lines(layout: LayoutTally, pct) -> list[str]:
    return [
        f"  table markers found  {pct(layout.markers_found, layout.scenes)} of the scenes (where an arm hides one, "
        "the table's drawn corners stand for the calibration made before)",
        f"  seat right           {pct(layout.seat, layout.owned)} of the creatures' cards found",
        f"  slot right           {pct(layout.slot, layout.owned)}",
        f"  creature right       {pct(layout.creature, layout.owned)} (the same creature-mates)",
        f"  all three right      {pct(layout.all_three, layout.owned)}",
        f"  discard in middle    {pct(layout.discards_in_middle, layout.discards)}",
        f"  whole table right    {pct(layout.whole_tables, layout.scenes)} of the scenes (every card found and "
        "placed, none false)",
    ]


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
