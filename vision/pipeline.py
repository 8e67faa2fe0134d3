"""The recogniser: frame in, cards out (legion, parts, ability, corners, confidence). Never raises on a frame."""
from __future__ import annotations

import dataclasses
import functools
import itertools
import math
import time
from dataclasses import dataclass, field

import numpy as np

from .cards import CARD_ASPECT
from .cover import card_covered, icon_place_covered
from .detect import OFF_TABLE_CORNERS
from .early_look import FLOOR, EarlyLook
from .features import icon_print_share
from .lens import straightening
from .placements import (CORNER_SIDE_SHARES, LONGEST_COLUMN, anchored_cards, card_shaped, card_with_ends_of,
                         cards_at_corner, cards_at_edge_corner, cards_between_corners, cards_on_sides,
                         cards_over_outline, cards_resized, cards_shifted, column_cards, column_of_width,
                         completed_variants, deep_inside_any, grid_cards, icon_centre, in_frame, inside_any, mean_sides,
                         near_any, neighbours, opposite_side_ratio, outline_side_sizes, overlaps_any, partial_column,
                         quad_area, quad_centre, quad_corners, rolled, shortest_side, side_sized_cards, slid_beside,
                         split_hypotheses, turned_neighbours)
from .segments import segment_corners
from .stabiliser import MIN_CONFIDENCE
from .table_plane import CardSizes
from .table_state import SeenCard

ACCEPT_COLUMN = 0.5  # mean "is a card, right way up" probability a split must reach
KEEP_CARD = 0.35  # a card within an accepted column below this is dropped (e.g. mostly under a hand)
# A card no camera could give that shape, and that neither putting a corner back nor laying it on its sides made
# card-shaped, is taken only if it is about the size a card has there (`CardSizes`: within this share of its width
# and depth); one found before any other card is judged once the column readings are done, and taken if they found none.
# On crowded tables such a "card" was a whole group of creatures pushed together (two to three card widths across),
# and it hid every card of the group. On 480 held-out and 300 training scenes, real cards taken misshapen (a corner or
# two a few pixels off) were 0.78-1.2 of their true width.
MISSHAPEN_SIZE = 0.4
LONE_CARD = 0.85  # a card taken from a rejected outline must look at least this much like a card
# ... and one whose size was guessed from an outline's side rather than from the cards found: on the training scenes
# such cards read at 0.99 or more when placed right, and a card mostly under a hand can still read at 0.87.
SIDE_SIZED_CARD = 0.95
SIDE_SIZE_GAIN = 0.02  # how much surer a corner's card sized by its sides must read than one sized as its neighbour
ALMOST_CARD = 0.3  # a corner's card reading this surely, though below the bar, is snapped and read again
MAX_ROUGHNESS = 50.0  # median |Laplacian| of a card's small warp; printed cards measure 5-25, pure noise ~100
MAX_QUADS = 60
# An outline of this share of the nearby cards' area that reads as no card may be the part of a card that stands out
# from the table.
PART_OF_CARD_AREA = (0.2, 0.85)
# Cards sized by such an outline's own sides (where no card of the nearby size is found there) must hold it at least
# this much: a sliver of a card beside a hand gives sides a card may have, and little of the card to read.
SIDE_SIZED_OUTLINE_AREA = 0.4
# How far (relative) the width of a column completed from an outline that reads as nothing may be from a card's there
# (`CardSizes`; the nearest card's where too few are found to fit the table's tilt, and that card may lie across a
# tilted frame, up to 40% narrower or wider).
COMPLETED_COLUMN_WIDTH_TOLERANCE = 0.4
# Completions of such an outline read, best-placed first: the corner cut off is not always the one whose completion
# lies best on edges.
COMPLETED_TRIES = 2
SNAP_MIN_SCORE = 0.05  # an outline reading worse than this is dropped without snapping or partial readings
FRAGMENT_AREA = 0.3  # an outline under this share of a card's area there (`CardSizes`) is a fragment, not a column
SNAP_REACH = 0.15  # how far (in card depths) a doubtful outline's sides may move onto a nearby edge
EARLY_ACCEPT = 0.85  # a split scoring this well is taken without trying the less plausible ones
FEATURES = "features"  # key of a card's feature vector beside its probabilities
BADGE_OFFSET = "badge offset"  # key, beside them, of where its badge was found (`vision.features.badge_fit`)
BADGE_MATCH = "badge match"  # key, beside them, of how well the badge figure matched there
ICON_UNSEEN = "icon unseen"  # key, beside them, set when the icon's place lay outside the outline the card was found by
LEGION_BY_COLOUR = "legion by colour"  # key, beside them, of the colour head's legion probabilities once "legion" is
# the badge shape's and the colours' together (`Recogniser._with_badge_shape`)
# A card read less surely than this (the stabiliser's bar) is read again laid on each of its sides; a reading there
# that is a card at least AGAIN_CARD and AGAIN_GAIN surer gives it its facts.
AGAIN_BELOW = MIN_CONFIDENCE
AGAIN_CARD = 0.9
AGAIN_GAIN = 0.1
# So is a card read surely, but less than AGAIN_SURE, whose place reads less than AGAIN_PLACE_DOUBT as a card: laid a
# tenth of a card or more off its edges (a column split unevenly), it can read a wrong ability or part surely (stop 76:
# three held-out cards read wrong at 0.62-0.83, their places 0.92-0.96 as cards, their true places 0.99-1.0). Where the
# place reads surely, the card stays: read again, a held-out card of two parts read right at 0.61 found a place beside
# it that read one part 0.1 surer. On 240 training scenes (seed 500) the places of 6 of the 41 cards read 0.6-0.85 read
# below AGAIN_PLACE_DOUBT.
AGAIN_SURE = 0.85
AGAIN_PLACE_DOUBT = 0.97
# A card read less surely than this as a card (found from a corner at a misshapen neighbour's size, or beside one) is
# mostly a little off its own edges, and the places next to it are twice as far off. Its neighbours are laid from
# where it reads PLACE_AGAIN_GAIN surer, laid on its own sides or at the size a card has there; the card itself is
# reported as found: the surest of a dozen places overstates how sure its reading is (held-out card 66 was read green
# at 0.78 and 0.82 so, on the layout bench and on a crowded table; stop 23 found the same of the cards read again on
# their sides). Stop 63: on crowded tables (240 held-out scenes) 5 cards more of 1,176 found, none lost.
PLACE_AGAIN_BELOW = 0.9
PLACE_AGAIN_GAIN = 0.05
# The place beside a card can lie off the card there along the column: the card it is laid from found too large (yet
# read surely as a card), or a creature pushed against another and not level with it. Where it reads as no card, it
# is read again slid along the card's column by these shares of a card's depth, each snapped onto the edges nearby.
# Stop 63: 2 cards more of 1,176 on crowded tables (a card found a fifth too large, and the card beside it).
SLID_SHARES = (-0.5, -0.25, 0.25, 0.5)
RESHAPE_TRIES = 2  # corners put back per misshapen card, best-placed first
# Longest over shortest of a column's opposite sides past which a corner of its outline was pulled off: tilt makes up to
# about 1.12 for a column of three, and corner error as much again as MAX_OPPOSITE_RATIO allows a card. Stop 66: a
# corner pulled in 30 px made 1.23; at 1.15 a column of the layout bench was read again from a corner put back wrong.
MAX_COLUMN_OPPOSITE_RATIO = 1.2
RESHAPE_MARGIN = 0.1  # a card put back into shape may read this much less surely as a card and still be taken
FEATURELESS_STD = 14.0  # grey-level spread of a coarse sample below which a place holds no card (cards measure 14+)
DIM_CARD_SPREAD = 0.3  # ... unless the spread is this share of its mean: a dark card in shadow (bare table 0.14-0.27)
# Column neighbours of found cards tried per growing, those of partly found columns first. 8 until stop 65: on crowded
# tables the eight went on places along found columns, half of them wholly of the table's colours, before a card read
# 0.99 came up to be grown from (2 more of 1,176 held-out cards with 12, none lost; 16 found no more; the same time
# per frame, read in turn).
MAX_NEIGHBOUR_TRIES = 12
# A place read as one card less surely than this is also read as a block of two by two or three by three cards
# (creatures pushed together: such a block has a card's shape), and where two or more of its cells read as cards
# (GRID_CARD) they are taken instead. Stop 65: a block read 0.55 as one card four cards large, and every other
# outline of the frame was then a fragment of it (FRAGMENT_AREA). Where the outline held a card beside the block too,
# the block is the card as snapped and put back into shape (stop 66).
BLOCK_DOUBT = 0.9
GRID_CARD = 0.95  # a cell of a grid outline must read this surely as a card: creatures of unequal height shift cells
# Places beside found cards (another creature pushed against their column) tried per growing (after the columns, and
# after the half-side corners). 4 until stop 54: on crowded tables blocks of creatures still gave cards at the fifth to
# twelfth place (3 more of 1,176 held-out cards, 5 more of 1,270 training cards), for 4 more badge matches in the 60
# timed frames; no limit at all found none more. 12 until stop 70, which reads more places beside columns
# (BESIDE_OFF_TABLE), and so uses up more tries: one more of 3,039 training cards at 16, for 0.05% more instructions.
MAX_SIDE_TRIES = 16
# Beside a card read whole from its column's outline, another creature is looked for only where at least this share of
# the place beside it is of colours the frame's border (the table) lacks (`Outlines.off_table`): such a column mostly
# has table on both sides, and reading beside every card cost 5.5% more badge matches in the timed frames; but
# creatures of unlike brightness pushed together need not share one outline (stop 56). Half until stop 70: a card of
# colours much like the table's leaves a fifth to a half of its place off the table's (4 more cards of 3,039 on 600
# crowded training scenes, none at 0.1 more; 0.9% more instructions).
BESIDE_OFF_TABLE = 0.2
# Beyond the ends of such a column (and of a column read short from its own outline), a place is read only where at
# least this share of it (one point of its 12x8 sample) is of colours the table lacks. The table there passes the
# bare-table test wherever it has grain or checks, and each such place was read about eight times over (turned, resized
# and on its sides): 8% of the badge matches in the timed frames, 3.3% of the instructions, for no card on 480 held-out
# scenes, plain and crowded, where the cards found there had at least 0.05 of such colours (stop 57).
ALONG_OFF_TABLE = 0.01
# A column neighbour that reads as no card is read again turned by these angles about the edge it shares with its card
# (a card found a few degrees off puts its neighbour's far end twice as far off), and beside its card laid again at
# another size or on each of its sides; the surest place is taken if it reads this surely.
TURNED_DEGREES = (-6, -3, 3, 6)
TURNED_CARD = 0.95
# A card whose width or depth differs by more than this share from those the other cards give it there (`CardSizes`)
# is also laid again at that size (perspective makes neighbouring cards differ by a few percent only).
RESIZE_OFF = 0.08
# A card whose ends (its left and right sides, a column outline's), snapped onto the edges nearby, draw it in and move a
# corner by more than the first share of its width and at most the second, is read again there (see _ends_drawn_in).
ENDS_MOVED = (0.05, 0.2)
NEAR_TAKEN = 0.15  # outline corners this close (in card depths) to a card already found are its own
# Corners tried as a card's corner per frame (each costs up to four readings): of quads that did not read, of
# outlines that are no quad at all (rarely a card's: most are the art's or the table's), and of regions of colours
# the table lacks that are no quad (`Outlines.off_table_corners`: every one handed on).
CORNER_TRIES = {"quad": 12, "outline": 4, "off table": OFF_TABLE_CORNERS}
# A card laid in a corner that covers more than this share of its area of a card found already is that card again,
# placed off (cards pushed together overlap their neighbours by a few pixels at most).
SAME_CARD_OVERLAP = 0.25
# Straight edges are looked for around this many outlines that explained nothing per frame, and cards laid from this
# many of the corners they make (each costs up to four readings), at most SEGMENT_CORNERS_PER_REGION around each: the
# deck's printed back alone makes dozens.
SEGMENT_REGIONS = 4
SEGMENT_CORNERS = 12
SEGMENT_CORNERS_PER_REGION = 4
# A card laid from edges must read at least this surely as a card: a hand's edge makes corners too, and a card more than
# half under a hand, laid there and read at 0.95, was reported confidently with the wrong legion.
EDGE_CORNER_CARD = 0.97
# A place whose badge corner matches the printed badge figure less than this (normalised correlation) is no card
# the right way up, and is not read further. At 0.3 (until stop 45) half the places read on the training scenes were
# such, and of those 1 in 2,000 read as a card at all. Between 0.3 and 0.4, on 180 training frames, 2.2 places a frame
# were read whole past the early look and one read as a card (none at 0.85). Outside the columns below (VOUCHED_GATE),
# leaving them out reads the same cards on every bench, with 4.6 feature vectors fewer a frame where no deck lies on
# the table (8.6 with the stand-in deck, whose stripes match at 0.3-0.4).
BADGE_GATE = 0.4
# ... but a place of a column split in which another place matches at BADGE_GATE is read from this match up: the card
# beside it vouches for it. A glossy card's glare can lie over its badge (a brown card matching at 0.385, whose
# neighbour matched at 0.81, was the one card of 1,176 crowded ones lost at 0.4 alone).
VOUCHED_GATE = 0.3
# A place that must read as a card on its own (no column's outline vouches for it) must match the badge figure this
# much better, 0.45 in all: on three training seeds, 1 in 3,750 places matching between 0.3 and 0.45 read as such a
# card, and skipping them changed no reading on the training scenes while computing 13% fewer features. Not 0.55: on
# 180 training frames 2 lone places read as cards between 0.45 and 0.55.
LONE_GATE_RISE = 0.05
# A place read for the first time (a column split, a lone card) must also show the badge figure at one place: its best
# match standing at least this far above the best one beyond `vision.features.LEAD_REACH` (`BadgeFit.lead`). On the 20
# middle held-out frames (stop 48) the places of the cards found led by 0.119 or more but one (0.001, which its
# column's other card vouched for: VOUCHED_GATE asks no lead); of the other places matching 0.3 or more, half led by
# less than 0.045 (the stand-in deck's stripes, art, a card read the wrong way up). Places read again around a card
# already seen (snapped, turned, resized, laid on its sides) ask none: a place a few pixels off its card can match the
# figure at several offsets alike, and one such (leading by 0.011) led to a card on seed 3000.
MIN_BADGE_LEAD = 0.05
# ... nor does a match this good: a fingertip beside the badge can raise a second peak (three cards with a fingertip
# on their icon matched at 0.60-0.65, leading by 0.03-0.08; tests/vision/test_vision_covered_icon.py).
LEAD_NOT_ASKED_FROM = 0.5
# The badge shape head (`vision.model.SHAPE_COLOUR_WEIGHT`) has its say only where the badge figure matched at least
# this well: on the held-out bench (stop 40) a hand over a red card's badge matched at 0.41 and read as a blue badge
# at 0.93, while the cards of a camera with turned hues whose shape and colour disagree all matched at 0.57 or more.
SHAPE_MIN_MATCH = 0.5
# A card whose legion reads less surely than the stabiliser trusts is read again with its corners moved
# LEGION_SHIFT of its own width each way along it and of its depth each way down it, and its legion is the mean of the
# readings that still read as a card. Where the colours all but tie, which pixels fall under the stripe and the badge
# tips them either way: a glossy brown card whose badge lay under glare read green at 0.41 against brown at 0.39, and
# brown (0.41-0.51) at 13 of 15 places a few pixels off. Over ten sets of held-out scenes (stop 52, 9,346 cards) it
# read 6 legions more right and 3 less (2 and 3 of them cards 100-140 px long, smaller than the targets are for), and
# it costs nothing where the legion is sure.
LEGION_STEADY_BELOW = MIN_CONFIDENCE
LEGION_SHIFT = 0.03
LEGION_READINGS = "legion readings"  # key, beside the probabilities, of how many readings the legion is the mean of
MAX_CARD_FRACTION = 0.3  # the widest card, as a share of the frame's long side (the narrowest is the detector's)
# An outline that reads as nothing has a corner put back only if it holds this many of the nearby cards (areas):
# less is a fragment of art or table, more is no column.
LOW_COLUMN_AREA = (0.7, 3.6)
SNAP_CARD_BELOW = 0.9  # an accepted card reading less surely than this as a card is snapped and read again
# An ability icon print less like its nearest training prototype than this (cosine similarity; 0.2% of the cards
# read right on the training scenes, but most icons under a hand and most wrong readings) is read, but not trusted:
# the card's confidence is capped below the stabiliser's 0.6.
UNFAMILIAR_ICON = 0.53
UNFAMILIAR_CONFIDENCE = 0.5
# A card read less surely than this with something smooth lying over it and reaching off it (a hand:
# `vision.cover.card_covered`) is not trusted: a hand over half a brown card's art read it green at 0.69 (stop 62).
# Over 240 held-out scenes each of seed 2024 and the crowded table, this caught the 3 hand-covered cards read surely
# wrong and left 4 of 2,381 cards read rightly and surely in plain view untrusted; on sets not looked at while
# choosing, seed 3000 1 of 1 and 1 of 1,152, the layout bench 0 of 2 and 2 of 897, training seed 777 0 of 1 and 1 of
# 1,231. Surer readings are left alone: the sign shows on 5% of the cards in plain view (smooth art running into a
# smooth table or the next card), and at 0.9 it would catch all 7 and leave 27 of 5,661 untrusted.
# Nor is a reading whose legion the badge's shape decided against its colours (`_shape_overruled_colours`) with a hand
# over the card, however sure: an arm over half a brown card left its colours brown at 0.68 and the shape of its badge's
# visible part green, together green at 0.82 (stop 71). Over 240 held-out scenes each of seeds 2024 and 3000, the
# crowded table and the layout bench, that was the only reading it changed; over training seed 777 none, and over 150
# crowded scenes of training seed 500 one card of 856 read rightly and surely in plain view, its colours brown at 0.78
# and its smooth art running into a smooth table (the hand's sign).
SURE_DESPITE_COVER = 0.75
# How much the nearest prototypes' vote on a card's parts counts beside the linear heads' probability (the sum scaled
# back to 0-2). Few training cards have two or three parts, and their prototypes are few: on training seeds 784-791,
# four such cards were read with one part, the heads at 0.83-0.92 for the right set and every prototype voting for one
# part. At 0.7 three of them are read right, and no card is read wrong that was not before there or on seeds
# 777-783 and 2025.
PARTS_VOTE = 0.7
# Every ability icon is printed white. A card read with an icon whose place holds less than this share of white
# print (`icon_print_share`) has none printed there, and is read as having no ability, at most UNFAMILIAR_CONFIDENCE
# sure (the place may also be under a hand). On training seeds 777-791 and 2025 (4,180 visible ability cards), every
# icon but the jester's measured at least 0.118, bar one card placed off its print (0.0); the jester's thin smile
# measured down to 0.011, so a jester is taken as read.
NO_PRINT_SHARE = 0.03
PRINT_MAY_BE_FAINT = ("jester",)


@dataclass
class ScanResult:
    cards: list[SeenCard] = field(default_factory=list)
    ms: float = 0.0
    error: str | None = None
    # Milliseconds spent in each phase of the scan, in the order they ran (see PHASES); not part of the JSON output.
    phases: dict[str, float] = field(default_factory=dict)

    def to_json(self, image: str | None = None) -> dict:
        data = {"cards": [card.to_json() for card in self.cards], "ms": round(self.ms, 2), "error": self.error}
        return {"image": image, **data} if image is not None else data


# The phases of a scan, in order, as ScanResult.phases names them: where the time goes on a given machine
# (`companion vision bench --phases`).
PHASES = ("frame", "outlines", "columns", "short columns", "cards over outlines", "corners", "straight edges",
          "column neighbours", "half-side corners", "pushed together", "first card", "ends drawn in",
          "prototypes and sides", "seats")


class _Laps:
    """Milliseconds per phase of one scan: each call closes the phase named, which began where the last one ended."""

    def __init__(self):
        self.times: dict[str, float] = {}
        self._since = time.perf_counter()

    def __call__(self, phase: str) -> None:
        now = time.perf_counter()
        self.times[phase] = self.times.get(phase, 0.0) + (now - self._since) * 1000
        self._since = now


def recorded_badge_gate(about: dict) -> float:
    """The badge gate a model was made for: BADGE_GATE, or the lower one recorded by teaching (the user's printing
    may match the printed badge figure less well)."""
    try:
        gate = float(about.get("badge_gate", BADGE_GATE))
    except (TypeError, ValueError):
        return BADGE_GATE
    return min(gate, BADGE_GATE) if gate == gate else BADGE_GATE


def _doubtful(reading) -> bool:
    """Whether a column reading (score, corners, per-card probabilities) is too weak to take as it is."""
    score, _, probabilities = reading
    return score < ACCEPT_COLUMN or min(p["card"][0] for p in probabilities) < KEEP_CARD


def _no_icon_where_unseen(probabilities: dict, ability: str | None) -> bool:
    """Whether a card is read as having no ability where its icon's place was not seen (ICON_UNSEEN): what hid it
    may be a hand, so the reading is no evidence."""
    return bool(probabilities.get(ICON_UNSEEN)) and ability is None


def _shape_overruled_colours(probabilities: dict) -> bool:
    """Whether the legion read is not the one the badge's colours alone read (kept under LEGION_BY_COLOUR by
    `_with_badge_shape`): the badge's shape decided it against them."""
    by_colour = probabilities.get(LEGION_BY_COLOUR)
    return by_colour is not None and int(np.argmax(by_colour)) != int(np.argmax(probabilities["legion"]))


def _no_icon_printed(ability: str | None, print_share) -> bool:
    """Whether a card read with `ability` has too little white print where its icon would be to have one;
    `print_share()` gives that share (`icon_print_share`), measured only for the abilities the rule concerns."""
    return ability is not None and ability not in PRINT_MAY_BE_FAINT and print_share() < NO_PRINT_SHARE


def _print_share(least: np.ndarray, places: list[np.ndarray], readings: list[dict], i: int) -> float:
    """`icon_print_share` of the i-th of the places, with its badge where reading it found it, in the frame's least
    channel (`least_channel`)."""
    return icon_print_share(least, places[i], readings[i].get(BADGE_OFFSET))


def _at_place(sign, image: np.ndarray, places: list[np.ndarray], i: int) -> bool:
    """A sign of a hand (`icon_place_covered`, `card_covered`) asked of the i-th of the places."""
    return sign(image, places[i])


def _likelier_way_up_first(card: np.ndarray, middle: np.ndarray) -> tuple[bool, bool]:
    """The two ways a column's cards may lie (`column_cards`' flip), the likelier first for a column whose first card
    lies at `card` unturned: players sit around the table, so a card's top (its head) points away from its owner,
    towards the middle of the frame. Only the order of the readings depends on it, and a column whose first way up
    reads unmistakably as cards is not read the other way (EARLY_ACCEPT)."""
    up = card[0] + card[1] - card[2] - card[3]  # from its bottom side to its top side, twice
    towards_middle = middle - card.mean(axis=0)
    return (True, False) if up[0] * towards_middle[0] + up[1] * towards_middle[1] < 0 else (False, True)


def _sized_for_its_place(card: np.ndarray, cards: list[np.ndarray], sizes: CardSizes) -> bool:
    """Whether the card's width and depth are each within MISSHAPEN_SIZE of those a card has there, as `cards` say
    (`CardSizes.at`; where there is none, nothing to judge by: True)."""
    size = sizes.at(quad_centre(card), cards)
    if size is None:
        return True
    width, depth = mean_sides(card)
    return abs(width / size[0] - 1) <= MISSHAPEN_SIZE and abs(depth / size[1] - 1) <= MISSHAPEN_SIZE


def _featureless(image: np.ndarray, corners: np.ndarray, dim_spread: float | None = None) -> bool:
    """Whether the quad is too even to hold a card's art (bare table), judged from a 12x8 sample of its inner part
    (a place guessed a little off may reach over the edge of the card beside it). With `dim_spread`, a place spread
    less than FEATURELESS_STD still counts as holding something where its spread is at least that share of its mean
    grey level (a dark card in a shadow)."""
    spread, mean = _spread_and_mean(_inner_sample(image, corners))
    return spread < FEATURELESS_STD and (dim_spread is None or spread < dim_spread * mean)


def _inner_sample(image: np.ndarray, corners: np.ndarray) -> np.ndarray:
    """The 12x8 grey sample `_featureless` judges (`_inner_part`)."""
    import cv2

    return cv2.cvtColor(_inner_part(image, corners), cv2.COLOR_BGR2GRAY)


def _inner_part(image: np.ndarray, corners: np.ndarray, scale: float = 1.0) -> np.ndarray:
    """A 12x8 sample of the quad (frame pixels) drawn 15% of the way in towards its centre (a place guessed a little
    off may reach over the edge of the card beside it), from `image`, which is `scale` times the frame's size."""
    import cv2

    inner = (0.85 * corners + 0.15 * np.asarray(quad_centre(corners))) * scale  # times 1.0 is exact
    matrix = cv2.getPerspectiveTransform(np.float32(inner), _FEATURELESS_SAMPLE)
    return cv2.warpPerspective(image, matrix, (12, 8))


def _spread_and_mean(levels: np.ndarray) -> tuple[float, float]:
    """float(levels.std()) and float(levels.mean()) of whole grey levels, to the last bit (their sum is exact in any
    order, and the squares are summed as numpy sums them), without numpy's per-call checks: `_featureless` runs
    about a hundred times a frame."""
    mean = np.add.reduce(levels, axis=None, dtype=np.float64) / levels.size
    deviations = levels - mean
    return math.sqrt(np.add.reduce(deviations * deviations, axis=None) / levels.size), float(mean)


_FEATURELESS_SAMPLE = np.float32([[0, 0], [11, 0], [11, 7], [0, 7]])  # where _featureless puts the inner corners


def _off_table_share(off_table: np.ndarray | None, image_shape, corners: np.ndarray) -> float:
    """The share of the place's inner part (`_inner_part`, as `_featureless` samples it) that `off_table` (the
    detector's mask of colours the table lacks, at its reduced size) marks; 0 without a mask."""
    if off_table is None:
        return 0.0
    sample = _inner_part(off_table, corners, off_table.shape[1] / image_shape[1])
    return float(np.count_nonzero(sample >= 128)) / sample.size


class _FeaturelessPlaces:
    """`_featureless` for the places one scan's searches lay, each place judged once, whichever corner it starts
    from. The searches lay nearly half of the hundred places a frame judges twice: every card laid from a corner comes
    both ways up (the same quad turned half round), and a corner's cards come again from the next search. A place
    turned half round samples the same points; OpenCV's fixed-point rounding can still put a grey level's difference
    into a pixel of one such sample in twenty, which moves its spread by a few hundredths: the first way asked answers
    for both (every bench finds the same cards, and its 140 frames read byte for byte as before)."""

    def __init__(self, image: np.ndarray):
        self.image = image
        self.judged: dict[tuple[bytes, float | None], bool] = {}

    def __call__(self, corners: np.ndarray, dim_spread: float | None = None) -> bool:
        key = (corners[np.lexsort(corners.T[::-1])].tobytes(), dim_spread)  # the same for any order of the corners
        if key not in self.judged:
            self.judged[key] = _featureless(self.image, corners, dim_spread)
        return self.judged[key]


def _snapped_places(gray: np.ndarray, cards: list[np.ndarray]) -> list[np.ndarray]:
    """Each card moved onto the strongest edges within SNAP_REACH of a card depth. A place laid both ways up comes
    twice in a row, the second time turned half round (its corners from the opposite one): it is snapped once, since
    snapping moves its sides the same whichever corner starts, and the snapped place turned with it."""
    from .detect import refine_at_full_resolution

    snapped: list[np.ndarray] = []
    for i, card in enumerate(cards):
        if i > 0 and np.array_equal(rolled(cards[i - 1], 2), card):
            snapped.append(rolled(snapped[-1], 2))
        else:
            snapped.append(refine_at_full_resolution(gray, card, SNAP_REACH * mean_sides(card)[1]))
    return snapped


def _laid_on_sides(gray: np.ndarray, card: np.ndarray, snapped_too: bool = True) -> list[np.ndarray]:
    """The cards laid on each side of a card (`cards_on_sides`), each as laid and (if `snapped_too`) snapped onto the
    edges nearby (a side found a little off moves them all), those that are card-shaped."""
    from .detect import refine_at_full_resolution

    if not snapped_too:
        return [laid for laid in cards_on_sides(card) if card_shaped(laid)]
    reach = SNAP_REACH * shortest_side(card)
    return [place for laid in cards_on_sides(card) for place in (laid, refine_at_full_resolution(gray, laid, reach))
            if card_shaped(place)]


def _neighbour_places_again(gray: np.ndarray, card: np.ndarray, unsnapped: np.ndarray, others: list[np.ndarray],
                            side: int, sizes: CardSizes) -> list[np.ndarray]:
    """Where the neighbour of `card` on `side` (its index in `neighbours`) that read as no card is read
    again, those card-shaped and in the frame: turned by TURNED_DEGREES about the edge it shares with the card, and
    beside the card as it was found (`unsnapped`) if snapping moved it, each snapped onto the edges nearby; then, as
    laid, beside the card laid again at the size the `others` give it there (found too small or too large: an edge of
    its art taken for its own) and beside it laid on each of its own sides (misshapen: a corner or two pulled off)."""
    places = turned_neighbours(card, neighbours(card)[side], TURNED_DEGREES)
    if np.abs(unsnapped - card).max() > 1.0:
        places.append(neighbours(unsnapped)[side])
    places = _snapped_places(gray, places)
    put_right = _resized_places(gray, card, others, sizes, snapped_too=False) + cards_on_sides(card)
    places += [neighbours(each)[side] for each in put_right]
    return [place for place in places if in_frame(place, sizes.shape) and card_shaped(place)]


def _resized_places(gray: np.ndarray, card: np.ndarray, others: list[np.ndarray], sizes: CardSizes,
                    snapped_too: bool = True) -> list[np.ndarray]:
    """The card laid again from each of its corners (`cards_resized`) at the size a card turned as it is has there, as
    the `others` say (`CardSizes.turned_at`), each as laid and (if `snapped_too`) snapped onto the edges nearby, those
    card-shaped and in the frame; none where its own size is within RESIZE_OFF of that."""
    top = card[1] - card[0]
    size = sizes.turned_at(quad_centre(card), top / max(float(np.linalg.norm(top)), 1e-9), others)
    if size is None:
        return []
    own = mean_sides(card)
    if max(abs(size[0] / own[0] - 1), abs(size[1] / own[1] - 1)) <= RESIZE_OFF:
        return []
    resized = cards_resized(card, size)
    if not snapped_too:
        return [place for place in resized if in_frame(place, sizes.shape) and card_shaped(place)]
    return [place for laid, snapped in zip(resized, _snapped_places(gray, resized)) for place in (laid, snapped)
            if in_frame(place, sizes.shape) and card_shaped(place)]


def _put_right(gray: np.ndarray, card: np.ndarray, others: list[np.ndarray], sizes: CardSizes,
               snapped_too: bool = True) -> list[np.ndarray]:
    """The places a card found a little off may lie in: laid on each of its own sides (`_laid_on_sides`) and at the
    size the `others` give it there (`_resized_places`), each as laid and (if `snapped_too`) snapped, those whose
    middle lies in none of the `others`."""
    places = _laid_on_sides(gray, card, snapped_too) + _resized_places(gray, card, others, sizes, snapped_too)
    return [place for place in places if not inside_any(quad_centre(place), others)]


def _roughness(image: np.ndarray, corners: np.ndarray) -> float:
    """How grainy the quad's content is: printed art is smooth at this scale, sensor noise is not."""
    import cv2

    from .cards import CARD_HEIGHT, CARD_WIDTH
    from .features import warp_box

    small = warp_box(image, corners, (0, 0, CARD_WIDTH, CARD_HEIGHT), (96, 62))
    gray = cv2.cvtColor(small, cv2.COLOR_BGR2GRAY).astype(np.float32)
    return float(np.median(np.abs(cv2.Laplacian(gray, cv2.CV_32F))))


def _corner_put_back(gray: np.ndarray, quad: np.ndarray):
    """The quad with one corner put back where the other three say (`completed_variants`, best-placed first), each
    snapped onto the strongest edges within SNAP_REACH of the quad's depth; made one at a time, as asked for."""
    from .detect import refine_at_full_resolution

    reach = SNAP_REACH * shortest_side(quad)
    for variant in completed_variants(gray, quad):
        yield refine_at_full_resolution(gray, variant, reach)


def one_blas_thread() -> None:
    """Keep numpy's matrix products (the model's heads, the prototype tables) on the calling thread's core for the
    rest of the process. They are small, a few rows against a few thousand features, and a second BLAS thread costs
    more in hand-offs than it saves: with one, the bench's frames took 8% less time in the mean, and read the same.
    On a Pi the other cores are the touchscreen's. Without threadpoolctl (an install older than this) the products
    keep numpy's threads: they read the same, so the camera is not lost over it."""
    try:
        from threadpoolctl import threadpool_limits
    except ImportError:
        return
    threadpool_limits(1, user_api="blas")


class Recogniser:
    """Reads the cards in a frame (`scan`). `thorough` adds the search for cards whose outline was lost, from the
    corners that straight edges make (see `_scan`): on the benchmark's scenes it finds a card in a thousand on plain
    tables and one in a hundred on crowded ones, and costs about a sixth more time a frame."""

    def __init__(self, params=None, calibration=None, thorough: bool = False, lens=None, known_scans: bool = False):
        """`lens`: a `vision.lens.LensCorrection`; where it bends enough to matter (`vision.lens.straightening`),
        each frame is straightened with it before it is read, and the cards' corners are given on the frame as
        taken. `known_scans`: the held-out scans' prints taught to the model too (`vision.known_scans`), as the
        companion runs it; the bench measures the model without them."""
        from .model import CardModel, ModelError

        self.calibration = calibration
        self.thorough = thorough
        self.lens = straightening(lens)
        self.model_error: str | None = None
        self.model = None
        try:
            if params is None:
                self.model = CardModel.load()
            elif isinstance(params, CardModel):
                self.model = params
            else:
                self.model = CardModel.load(params)
        except ModelError as error:
            self.model_error = str(error)
        if known_scans and self.model is not None:
            from .known_scans import with_known_scans

            self.model = with_known_scans(self.model)
        self.badge_gate = recorded_badge_gate(self.model.about) if self.model is not None else BADGE_GATE
        # A model taught a printing whose badges matched the figure less (a lower gate) asks no lead of them either.
        self.badge_lead = MIN_BADGE_LEAD if self.badge_gate >= BADGE_GATE else 0.0
        # Most places past the badge gate hold no card: where the first features show it surely, the rest are not
        # computed (vision.early_look). None for a model with no record of it for its card head.
        self.early_look = EarlyLook.of(self.model)
        self._early_looks: dict[float, EarlyLook] = {}
        # The frame whose least channel (`_least_channel`) was last worked out, and the buffers it was worked out in.
        self._least_of: np.ndarray | None = None
        self._least: list[np.ndarray] | None = None

    def scan(self, frame) -> ScanResult:
        started = time.perf_counter()
        try:
            result = self._scan(frame)
        except Exception as error:  # the pipeline must never take the app down over one frame
            from .frames import FrameError

            message = str(error) if isinstance(error, FrameError) else f"could not process the frame ({error})"
            result = ScanResult(error=message)
        result.ms = (time.perf_counter() - started) * 1000
        return result

    def _scan(self, frame) -> ScanResult:
        import cv2

        from .detect import MIN_CARD_FRACTION, find_outlines, refine_at_full_resolution
        from .frames import limit_size, to_bgr8

        if self.model is None:
            return ScanResult(error=self.model_error)
        lap = _Laps()
        self._least_of = None  # a caller may fill the same array with the next frame
        frame = to_bgr8(frame)
        image, factor = limit_size(frame)
        # A frame of another shape than the lens was measured on is read as taken (`companion doctor` says so), not
        # refused.
        lens = self.lens if self.lens is not None and self.lens.fits(image.shape[1], image.shape[0]) else None
        if lens is not None:
            image = lens.straighten(image)
        lap("frame")

        @functools.cache
        def full_gray() -> np.ndarray:
            """The full-resolution grey frame (the detector snaps to it, and so do doubtful outlines)."""
            return cv2.cvtColor(image, cv2.COLOR_BGR2GRAY)

        snapped_cards: dict[bytes, np.ndarray] = {}
        featureless = _FeaturelessPlaces(image)
        sizes = CardSizes(image.shape)

        def snapped_card(points: np.ndarray) -> np.ndarray:
            """The card moved onto the strongest edges within SNAP_REACH of its depth: growing its column and drawing
            its ends in both ask, mostly of the same cards."""
            key = points.tobytes()
            if key not in snapped_cards:
                snapped_cards[key] = refine_at_full_resolution(full_gray(), points, SNAP_REACH * mean_sides(points)[1])
            return snapped_cards[key]

        taken: list[np.ndarray] = []  # corners of the cards accepted so far
        laid_for_its_turn = functools.partial(sizes.laid_from, cards=taken)  # from a corner, either way round
        seen: list[SeenCard] = []
        readings_seen: list[dict] = []  # the probabilities and features of each card in `seen`
        unexplained: list[np.ndarray] = []  # outlines that did not read as a column of cards
        partial: list[np.ndarray] = []  # cards accepted without their column's whole outline
        short: list[np.ndarray] = []  # cards of outlines that held fewer cards than a whole creature
        low: list[np.ndarray] = []  # outlines that did not read even faintly as whole cards
        misshapen: list[tuple] = []  # misshapen cards (see MISSHAPEN_SIZE) found before any card to size them by
        judging_misshapen_later = True

        def accept(points, card_probabilities) -> bool:
            if not card_shaped(points):
                points, card_probabilities = self._reshaped(image, full_gray(), points, card_probabilities)
            if not card_shaped(points):
                points, card_probabilities = self._refitted(image, full_gray(), points, card_probabilities)
                if not card_shaped(points):
                    if not taken and judging_misshapen_later:
                        misshapen.append((points, card_probabilities))  # judged once the columns have given sizes
                        return False
                    if not _sized_for_its_place(points, taken, sizes):
                        return False
            return take(points, card_probabilities)

        def take(points, card_probabilities) -> bool:
            if _roughness(image, points) > MAX_ROUGHNESS:
                return False
            card = self._card(image, points, card_probabilities, factor)
            if card is None:
                return False
            taken.append(points)
            seen.append(card)
            readings_seen.append(card_probabilities)
            return True

        outlines = find_outlines(image, full_gray(), snapped=False, channels=self._channels(image))
        lap("outlines")
        for quad in outlines.quads[:MAX_QUADS]:
            if outlines.snap_reach:
                # Snapping moves no corner of a quad, and so not its centre, more than twice its reach: a quad whose
                # centre lies deeper than that (and a pixel for the polygon test's float32 corners) in a card found
                # already would be skipped snapped, and is unsnapped (about two in five quads of a frame).
                if deep_inside_any(quad_centre(quad), taken, 2 * outlines.snap_reach + 1.0):
                    continue
                quad = refine_at_full_resolution(full_gray(), quad, outlines.snap_reach)
            centre = quad_centre(quad)
            if inside_any(centre, taken):
                continue
            # Most outlines are cards, clearly no fragment of one before the table is fitted (`largest_area`).
            area = quad_area(quad)
            if taken and area < FRAGMENT_AREA * sizes.largest_area(centre, taken):
                width, depth = sizes.at(centre, taken)
                if area < FRAGMENT_AREA * width * depth:
                    unexplained.append(quad)
                    low.append(quad)
                    continue
            readings = self._readings(image, quad)
            if not readings:
                unexplained.append(quad)  # no whole number of cards fits it: perhaps cards merged with something
                continue
            best = max(readings, key=lambda r: r[0])
            if best[0] < SNAP_MIN_SCORE:
                unexplained.append(quad)
                low.append(quad)
                continue  # nothing in it reads even faintly as a card: table, deck, hand or a fragment of art
            if _doubtful(best):
                # The outline may be off by a fraction of a card (a shadow or a neighbour welded to it): snap its
                # sides onto the strongest edges nearby and read it again.
                short_side = shortest_side(quad)
                snapped = refine_at_full_resolution(full_gray(), quad, SNAP_REACH * short_side)
                if np.abs(snapped - quad).max() > 1.0:
                    readings += self._readings(image, snapped)
                    best = max(readings, key=lambda r: r[0])
                for variant in _corner_put_back(full_gray(), quad) if _doubtful(best) else []:
                    readings += self._readings(image, variant, hypotheses=1)
                    best = max(readings, key=lambda r: r[0])
                    if not _doubtful(best):
                        break
            elif len(best[1]) > 1 and opposite_side_ratio(quad) > MAX_COLUMN_OPPOSITE_RATIO and \
                    all(card_shaped(card) for card in best[1]):
                # A column read whole from an outline with a corner pulled off: its cards come out as misshapen as
                # a card may be (more, and each is put back into shape as it is taken), one a sixth too small, and
                # every search near it lays cards of that size. With that corner put back where the other three
                # say, the column is read again, and that reading kept where it reads whole and at least as surely.
                for variant in itertools.islice(_corner_put_back(full_gray(), quad), RESHAPE_TRIES):
                    if opposite_side_ratio(variant) <= MAX_COLUMN_OPPOSITE_RATIO:
                        again = self._readings(image, variant, hypotheses=1)
                        if again and not _doubtful(again[0]) and again[0][0] >= best[0]:
                            best = again[0]
                            break
            score, corners, probabilities = best
            whole = score >= ACCEPT_COLUMN
            cells = []
            if whole and len(corners) == 1 and probabilities[0]["card"][0] < BLOCK_DOUBT:
                cells = self._block_cells(image, corners[0], taken)
                if not cells:
                    # The outline may hold more than the block (a card beside it welded on): the block is then the
                    # card as it would be taken, snapped and put back into shape (read here once for both).
                    block, block_probabilities = self._snap_card(image, full_gray, corners[0], probabilities[0])
                    if not card_shaped(block):
                        block, block_probabilities = self._reshaped(image, full_gray(), block, block_probabilities)
                    if block is not corners[0]:
                        cells = self._block_cells(image, block, taken)
                        corners, probabilities = [block], [block_probabilities]
            if cells:
                whole, chosen = False, cells
            elif whole:
                chosen = list(zip(corners, probabilities))
            else:
                # The outline was not the whole column (part of it hidden, or merged with something): keep only
                # the cards that on their own look unmistakably like cards.
                chosen = [(c, p) for _, cs, ps in readings for c, p in zip(cs, ps) if p["card"][0] >= LONE_CARD]
                if not chosen:
                    chosen = self._lone_cards(image, anchored_cards(quad), taken)
                if not chosen:
                    unexplained.append(quad)
                chosen.sort(key=lambda item: -item[1]["card"][0])
            for points, card_probabilities in chosen:
                if inside_any(quad_centre(points), taken):
                    continue
                points, card_probabilities = self._snap_card(image, full_gray, points, card_probabilities)
                if accept(points, card_probabilities):
                    if not whole:
                        partial.append(taken[-1])  # as accepted, perhaps put back into shape
                    elif len(corners) < LONGEST_COLUMN:
                        short.append(taken[-1])

        judging_misshapen_later = False

        def judge_misshapen() -> None:
            for points, card_probabilities in misshapen:
                if not inside_any(quad_centre(points), taken) and _sized_for_its_place(points, taken, sizes):
                    take(points, card_probabilities)
            misshapen.clear()

        # With no column read at all, misshapen cards wait for the corners' cards to size them by: taken for want of
        # any, a block of cards and an arm's edge read 0.82 as one card nearly three cards wide, and every later search
        # laid cards of that size (stop 65).
        if taken:
            judge_misshapen()
        lap("columns")
        # With no card found yet to size a card by (no column read whole), the next two searches pass over every
        # outline, and search them again once the corners have found some: a near-identical frame lost 8 of its 13
        # cards for want of that (stop 80).
        unsized = not taken

        def size_to_search(quad: np.ndarray) -> tuple[float, float] | None:
            """The size a card has at the outline, or None where it is not searched: with no card found yet to size
            one by, or inside a card found already."""
            size = sizes.at(quad_centre(quad), taken)
            return None if size is None or inside_any(quad_centre(quad), taken) else size

        # A column cut short by a hand or an arm does not read as whole cards, but its free end does (if the
        # outline is as wide as a card here: most such outlines are fragments of art).
        def search_short_columns() -> None:
            for quad in low:
                size = size_to_search(quad)
                if size is None:
                    continue
                # An outline with one corner pulled off (grain or a neighbour welded on) reads as nothing; with that
                # corner put back where the other three say, it may be a column of the nearby cards' width.
                completed = self._completed_column(image, full_gray(), quad, size)
                if completed is not None:
                    for points, card_probabilities in completed:
                        if not inside_any(quad_centre(points), taken):
                            points, card_probabilities = self._snap_card(image, full_gray, points,
                                                                         card_probabilities)
                            if accept(points, card_probabilities):
                                partial.append(taken[-1])
                    continue
                if not partial_column(quad, size[0]):
                    continue
                for points, card_probabilities in self._lone_cards(image, anchored_cards(quad, long_axis_only=True),
                                                                   taken)[:1]:
                    if accept(points, card_probabilities):
                        partial.append(taken[-1])

        search_short_columns()
        lap("short columns")

        def take_over_outline(quad: np.ndarray, points: np.ndarray, card_probabilities: dict) -> None:
            """A card laid over an outline smaller than a card, snapped and taken if it is one."""
            points, card_probabilities = self._snap_card(image, full_gray, points, card_probabilities)
            if not inside_any(icon_centre(points), [quad]):
                # What hid the icon's place from the outline may be a hand: no icon seen there is no evidence
                # that the card has none.
                card_probabilities = card_probabilities | {ICON_UNSEEN: True}
            if accept(points, card_probabilities):
                partial.append(taken[-1])

        # An outline smaller than a card that reads as no card may be the part of one that stands out from the
        # table: the rest can be lost in a table of its own colour (dark art on a dark cloth, a white border on a
        # pale one). Cards are laid over it from its squarest corners.
        def search_over_outlines() -> None:
            for quad in unexplained:
                size = size_to_search(quad)
                if size is None:
                    continue
                # First cards of the size a card has there (`CardSizes`); where none is found, cards sized by the
                # outline's own sides (perspective can make a card far from the nearest one a fifth larger or smaller).
                found = self._card_over_outline(image, full_gray(), quad, [size], PART_OF_CARD_AREA[0], taken)
                if found is None:
                    found = self._card_over_outline(image, full_gray(), quad, outline_side_sizes(quad, size),
                                                    SIDE_SIZED_OUTLINE_AREA, taken)
                if found is not None:
                    take_over_outline(quad, *found)

        search_over_outlines()
        lap("cards over outlines")
        # Outlines that were more than a column (quads, or shapes that are not even that, like a column with an arm
        # across it): a card of the frame's card size may lie in one of their corners.
        unexplained_corners = [c for quad in unexplained for c in quad_corners(quad)]
        corner_list = [("quad", c) for c in unexplained_corners] + [("outline", c) for c in outlines.corners] + \
            [("off table", c) for c in outlines.off_table_corners]
        # First the frame's card size (`CardSizes`: the size a card has there) in every corner; then, where no card was
        # found, a card as wide as a side of the corner (the nearest card may be far off in perspective, or itself
        # misplaced, or there may be none yet). Here only where the corner's sides run along most of the card; where
        # they run along half of it (CORNER_SIDE_SHARES), once the columns have grown (below).
        long_side = max(image.shape[:2])
        widths = (MIN_CARD_FRACTION * long_side, MAX_CARD_FRACTION * long_side)
        tried: set[bytes] = set()  # a place laid again in a later pass reads as it did

        def search_corners(share: float, kinds, found_cards: list) -> None:
            """Cards laid in the corners of `kinds` where their sides run along `share` of a card, at the nearby
            card's size and then sized by the corner's sides; each card found is added to `found_cards`."""
            corners_here = [(kind, corner) for kind, corner in corner_list if kind in kinds]
            # With no card found yet, cards sized by the corners' sides come first, and give the rest their size.
            for by_side in (False, True) if taken else (True, False):
                tries = dict.fromkeys(CORNER_TRIES, 0)
                # Sized by their own sides, the most nearly square corners first: a corner that grain or a neighbour
                # pulled out is rarely a card's, and the tries are few.
                ordered = sorted(corners_here, key=lambda item: item[1].skew) if by_side else corners_here
                for kind, corner in ordered:
                    size = sizes.at(corner.point, taken)
                    if size is None and not by_side:
                        break
                    if tries[kind] >= CORNER_TRIES[kind] or \
                            (size is not None and near_any(corner.point, taken, NEAR_TAKEN * size[1])):
                        continue  # out of tries, or a corner of a card already found (or of its column)
                    cards = side_sized_cards(corner, size, widths, share) if by_side else \
                        cards_at_corner(corner, size, share, laid_for_its_turn)
                    # A short side's card can lie across a card found already, its centre just off it: that card again.
                    cards = [card for card in cards
                             if card.tobytes() not in tried and not overlaps_any(card, taken, SAME_CARD_OVERLAP)]
                    if not cards or inside_any(quad_centre(cards[0]), taken):
                        continue
                    tries[kind] += 1
                    tried.update(card.tobytes() for card in cards)
                    cards = [card for card in cards if not featureless(card)]  # bare table: not worth a reading
                    bar = SIDE_SIZED_CARD if by_side else LONE_CARD
                    # A corner pulled a few pixels off by a neighbour's edge or the table's grain lays a card that
                    # reads as half one (its badge cut off): snapped onto the edges nearby, it may read surely. Not a
                    # card sized by the corner's sides: its bar keeps out cards mostly under a hand, whose edge a snap
                    # can move a side onto.
                    almost: list[np.ndarray] | None = None if by_side else []
                    found = next(iter(self._lone_cards(image, cards, taken, bar, almost)), None)
                    if found is None and almost:
                        found = self._surest_snapped(image, full_gray(), almost, taken, bar)
                    surer = None if found is None or by_side else found[1]["card"][0] + SIDE_SIZE_GAIN
                    if surer is not None and surer < 1.0:
                        # Sized as the nearest card found, a card can read well though too small or too large (a
                        # card far off in perspective): sized by the corner's own sides, it may read surer (one read
                        # surer than 1 less the gain cannot be).
                        others = [card for card in side_sized_cards(corner, size, widths, share)
                                  if card.tobytes() not in tried and not featureless(card)]
                        found = self._surest_instead(image, others, *found, least=surer)
                    if found is not None and accept(*found):
                        found_cards.append(taken[-1])

        most_of_a_card, *shorter_shares = CORNER_SIDE_SHARES
        search_corners(most_of_a_card, ("quad", "outline", "off table"), partial)
        judge_misshapen()
        if unsized and taken:
            search_short_columns()
            search_over_outlines()
        lap("corners")
        # Around the outlines that explained nothing, a card's edges can still be straight lines where its outline
        # was lost (a pale card on a pale cloth) or ran into an arm or the next column: cards of the size a card has
        # there are laid from the corners two such lines make, the squarest first. Only when asked to be thorough:
        # on the 240 scenes of the benchmark this found 2 of 1,314 cards (none of 1,183 on another 240) and 11 of
        # 1,176 on crowded tables, for about a seventh of a middle frame's time.
        regions = [quad_centre(quad) for quad in unexplained] + [corner.point for corner in outlines.corners] \
            if self.thorough else []
        looked = corners_tried = 0
        for around in regions:
            size = sizes.at(around, taken)
            if size is None or looked >= SEGMENT_REGIONS or corners_tried >= SEGMENT_CORNERS:
                break
            if inside_any(around, taken) or near_any(around, taken, NEAR_TAKEN * size[1]):
                continue
            looked += 1
            tried_here = 0
            for corner in sorted(segment_corners(full_gray(), around, size[1]), key=lambda corner: corner.skew):
                if tried_here >= SEGMENT_CORNERS_PER_REGION or corners_tried >= SEGMENT_CORNERS:
                    break
                if near_any(corner.point, taken, NEAR_TAKEN * size[1]):
                    continue  # a corner of a card already found
                cards = [card for card in cards_at_edge_corner(corner, size, laid_for_its_turn)
                         if in_frame(card, image.shape)
                         and not inside_any(quad_centre(card), taken) and not featureless(card)]
                if not cards:
                    continue
                tried_here += 1
                corners_tried += 1
                found = next(iter(self._lone_cards(image, cards, taken, EDGE_CORNER_CARD)), None)
                if found is not None and accept(*found):
                    partial.append(taken[-1])
        lap("straight edges")
        # A card found without its whole column's outline (the rest under a hand, or welded to it) may have
        # neighbours in its column: the same card shape, one card depth up or down, facing the same way.
        # So may the cards of an outline shorter than a whole creature: on a dark table, or in glare, the rest of
        # its column may have left no outline, or one of its own.
        # Last, the cards of columns read whole: where an arm or a neighbour was welded to a column's outline, its
        # reading can be a card off, leaving a card of it beyond those found.
        # Another creature may be pushed against a card's column (a crowded table): the places beside it are tried too,
        # beside cards found without their column's whole outline and the cards found from them. A column read whole
        # from its own outline mostly has table on both sides, and a reading beside every card would cost more than the
        # rest of this search: beside its cards, only places mostly of colours the table lacks (BESIDE_OFF_TABLE), and
        # beyond its ends only places with some such colours (ALONG_OFF_TABLE).
        def grow(cards: list, beside_worthy: set) -> None:
            """The neighbours of `cards` (taken from its front, each card found added at its end) and the places
            beside them, within MAX_NEIGHBOUR_TRIES and MAX_SIDE_TRIES: around those in `beside_worthy` every place,
            around the others only places with colours the table lacks (some of the place beyond an end, most of it
            beside)."""
            grown = beside = 0
            while cards and (grown < MAX_NEIGHBOUR_TRIES or beside < MAX_SIDE_TRIES):
                found_card = points = cards.pop(0)
                index = next(i for i, card in enumerate(taken) if card is points)
                others = taken[:index] + taken[index + 1:]
                # Read doubtfully as a card, it is mostly a little off its edges: PLACE_AGAIN_BELOW.
                points = self._placed_to_grow_from(image, full_gray(), points, readings_seen[index], others, sizes)
                # A card read surely can still be placed a few pixels off; its neighbours would be twice as far off.
                unsnapped = points
                snapped = snapped_card(points)
                if card_shaped(snapped):
                    points = snapped
                for side, neighbour in enumerate(neighbours(points)):
                    across = side >= 2
                    if (beside >= MAX_SIDE_TRIES if across else grown >= MAX_NEIGHBOUR_TRIES) or \
                            not in_frame(neighbour, image.shape):
                        continue
                    if inside_any(quad_centre(neighbour), taken):
                        continue  # a card found already (the rest of a column read whole): no try used up
                    least_off_table = BESIDE_OFF_TABLE if across else ALONG_OFF_TABLE
                    if id(found_card) not in beside_worthy and \
                            _off_table_share(outlines.off_table, image.shape, neighbour) < least_off_table:
                        continue  # the table's colours (asked first: it is the cheaper test)
                    if featureless(neighbour, DIM_CARD_SPREAD):
                        continue  # bare table: not worth a reading
                    if across:
                        beside += 1
                    else:
                        grown += 1
                    # Snapped before it is judged: a neighbour inherits its card's corner error, and a card a few
                    # pixels off its own edges can read as no card (its badge or icon cut off).
                    # Only a neighbour reading at least LONE_CARD is taken: below it, how much less it reads matters to
                    # nothing that follows.
                    card_probabilities = self._read(image, [neighbour], at_least=LONE_CARD)[0]
                    neighbour, card_probabilities = self._snap_card(image, full_gray, neighbour, card_probabilities,
                                                                    at_least=LONE_CARD)
                    if card_probabilities["card"][0] < LONE_CARD and across and np.abs(unsnapped - points).max() > 1.0:
                        # Snapping can turn a card a degree or two onto its neighbour's edge, which the place beside it
                        # doubles: there, the place beside the card as it was found.
                        laid = neighbours(unsnapped)[side]
                        if in_frame(laid, image.shape) and not inside_any(quad_centre(laid), taken):
                            neighbour, card_probabilities = self._surest_instead(
                                image, [laid], neighbour, card_probabilities, least=LONE_CARD)
                    if card_probabilities["card"][0] < LONE_CARD and across:
                        # Beside the card, slid along its column (SLID_SHARES), each place reading surely as a card on
                        # its own (TURNED_CARD).
                        slid = [place for place in _snapped_places(full_gray(), slid_beside(points, side, SLID_SHARES))
                                if in_frame(place, image.shape) and card_shaped(place)
                                and not inside_any(quad_centre(place), taken)]
                        neighbour, card_probabilities = self._surest_instead(
                            image, slid, neighbour, card_probabilities, least=TURNED_CARD,
                            gate=self.badge_gate + LONE_GATE_RISE)
                    if card_probabilities["card"][0] < LONE_CARD and not across:
                        # Read again turned, resized or on its sides; beside the card only as it was found (above):
                        # the rest found 4 more cards of 1,176 on crowded tables for a reading of 3 more badges in
                        # every frame. Each must read surely as a card on its own (TURNED_CARD): the lone places' badge
                        # gate.
                        again = _neighbour_places_again(full_gray(), points, unsnapped, others, side, sizes)
                        neighbour, card_probabilities = self._surest_instead(
                            image, again, neighbour, card_probabilities, least=TURNED_CARD,
                            gate=self.badge_gate + LONE_GATE_RISE)
                    if card_probabilities["card"][0] >= LONE_CARD and accept(neighbour, card_probabilities):
                        cards.append(taken[-1])
                        beside_worthy.add(id(taken[-1]))

        beside_worthy = {id(card) for card in partial}
        partial += short
        partial += [card for card in taken if not any(card is each for each in partial)]
        grow(partial, beside_worthy)
        lap("column neighbours")
        # Outline corners whose sides run along only half a card (a block of creatures pushed together, each card
        # turned its own way, breaks its outline at every joint): after the columns have grown, since a card laid
        # there is placed a few pixels off more often than one grown from its neighbour, and would pass that on.
        # Then the columns of the cards found there, and the places beside them. Not the corners of quads: a quad's
        # sides are whole, and one shorter than most of a card is an outline smaller than a card, read already
        # (cards over outlines). On crowded tables they added 3 cards to 19 for nearly four times the readings.
        half_side_cards: list = []
        for share in shorter_shares:
            search_corners(share, ("outline",), half_side_cards)
        grow(half_side_cards, {id(card) for card in half_side_cards})
        lap("half-side corners")
        # Creatures pushed together side by side, all of one height, leave one outline two or more cards wide, which
        # no column fits: its cells are read as cards of the size a card has there. Last, since where the creatures
        # are of different heights (an L) the cells lie off the cards, and one read surely there would take the place
        # of a card that the searches above find.
        for quad in unexplained:
            size = sizes.at(quad_centre(quad), taken)
            if size is None:
                continue
            for points, card_probabilities in self._lone_cards(image, grid_cards(quad, size), taken, GRID_CARD):
                if inside_any(quad_centre(points), taken):
                    continue  # the same card laid the other way up, taken already
                points, card_probabilities = self._snap_card(image, full_gray, points, card_probabilities)
                accept(points, card_probabilities)
        lap("pushed together")
        # Still no card at all, after every search: the first card on the table, its far side lost in a table of its
        # colour (a brown card's gold glow on a sandy cloth), leaves an outline smaller than a card, and no card to
        # size the cards laid over it by. They are sized by the outline's own sides, any size a card may have in the
        # frame. Only now: laid after the corners, such a card sized every later search by itself, and one frame of
        # the crowded table lost 4 cards for the 1 found.
        for quad in unexplained:
            if taken:
                break
            found = self._card_over_outline(image, full_gray(), quad, outline_side_sizes(quad, None, widths),
                                            SIDE_SIZED_OUTLINE_AREA, taken)
            if found is not None:
                take_over_outline(quad, *found)
        if not taken:
            # Nor from the corners of outlines that are no quad (a quad's were read with it), each side too short to
            # size a card by: two corners facing each other along a side (or three) may be one card's, whatever its
            # size. Those reading as half a card are snapped onto the edges nearby and read again, as in phase 6.
            facing = cards_between_corners([corner for kind, corner in corner_list if kind != "quad"], widths)
            almost: list[np.ndarray] = []
            found = next(iter(self._lone_cards(image, [card for card in facing if in_frame(card, image.shape)
                                                       and not featureless(card)], taken, SIDE_SIZED_CARD, almost)),
                         None)
            if found is None and almost:
                found = self._surest_snapped(image, full_gray(), almost, taken, SIDE_SIZED_CARD, card_shaped)
            if found is not None:
                accept(*found)
        lap("first card")
        # Last, a card split off a column's outline wider than itself may reach onto the table at an end.
        for i, points in enumerate(taken):
            drawn_in = self._ends_drawn_in(image, points, snapped_card(points), readings_seen[i],
                                           taken[:i] + taken[i + 1:], factor)
            if drawn_in is not None:
                taken[i], seen[i], readings_seen[i] = drawn_in
        lap("ends drawn in")
        if seen and self.model.exemplars is not None:
            seen = self._by_exemplars(seen, readings_seen,
                                      functools.partial(_print_share, self._least_channel(image), taken, readings_seen),
                                      functools.partial(_at_place, icon_place_covered, image, taken),
                                      functools.partial(_at_place, card_covered, image, taken))
            seen = self._read_again_on_sides(image, full_gray(), seen, taken, readings_seen, factor, sizes)
        lap("prototypes and sides")
        if lens is not None:
            seen = self._on_picture_taken(seen, lens, image.shape, factor)
        if self.calibration is not None:
            from .geometry import assign

            placed, middle = assign(seen, self.calibration.for_picture(frame.shape[1], frame.shape[0]))
            seen = placed + middle
        lap("seats")
        return ScanResult(cards=seen, phases=lap.times)

    @staticmethod
    def _on_picture_taken(seen: list[SeenCard], lens, shape, factor: float) -> list[SeenCard]:
        """The cards with their corners moved from the straightened frame onto the frame as the lens bent it."""
        if not seen:
            return seen
        corners = np.array([card.corners for card in seen], np.float64) * factor
        bent = lens.to_picture(corners.reshape(-1, 2), shape[1], shape[0]).reshape(corners.shape) / factor
        return [dataclasses.replace(card, corners=tuple((round(float(x), 1), round(float(y), 1)) for x, y in points))
                for card, points in zip(seen, bent)]

    def _readings(self, image: np.ndarray, quad: np.ndarray, hypotheses: int | None = None) -> list:
        """(score, card corners, per-card probabilities) for each way of splitting the quad into a column, most
        plausible first (at most `hypotheses` of them); stops early once one reads unmistakably as cards."""
        readings = []
        middle = np.array([image.shape[1], image.shape[0]]) / 2
        for error, axis, count in split_hypotheses(quad)[:hypotheses]:
            unturned = column_cards(quad, axis, count, False)
            for flip in _likelier_way_up_first(unturned[0], middle):
                corners = column_cards(quad, axis, count, True) if flip else unturned
                per_card = self._read(image, corners, vouched_gate=VOUCHED_GATE, first_look=True)
                score = float(np.mean([p["card"][0] for p in per_card])) - 0.5 * error
                readings.append((score, corners, per_card))
                if score > EARLY_ACCEPT:
                    return readings
        return readings

    def _least_channel(self, image: np.ndarray) -> np.ndarray:
        """`least_channel` of the frame being scanned, worked out once a scan: the badge figure is looked for in it
        dozens of times a frame, and warping one channel costs half of warping three."""
        from .features import least_channel, least_channel_buffers

        if self._least_of is not image:
            if self._least is None or self._least[0].shape != image.shape[:2]:
                self._least = least_channel_buffers(image.shape[:2])
            least_channel(image, self._least)
            self._least_of = image
        return self._least[-1]

    def _channels(self, image: np.ndarray) -> list[np.ndarray] | None:
        """The frame's blue, green and red channels, which `_least_channel` leaves in the first three of its buffers
        (None for a grey frame): the detector halves them one by one, three times as fast as the whole frame."""
        if image.ndim != 3:
            return None
        self._least_channel(image)
        return self._least[:3]

    def _read(self, image: np.ndarray, cards: list[np.ndarray], gate: float | None = None,
              at_least: float = FLOOR, vouched_gate: float | None = None, first_look: bool = False) -> list[dict]:
        """Per card (corners): the model's probabilities per head, and its feature vector under FEATURES. A place
        whose badge corner matches the badge figure less than `gate` (the model's badge gate unless given), or, at a
        `first_look` (places no card was seen near yet), below LEAD_NOT_ASKED_FROM and less distinctly than the
        model's badge lead (MIN_BADGE_LEAD), or whose first features show that it reads below `at_least` as a card
        (the least the caller makes anything of; the early look's FLOOR unless given), reads as no card, unread.
        Where the cards are a column's and `vouched_gate` is given, a place matching at least that (or `gate`, if
        lower) is read too, if another place of the column passes."""
        from .features import badge_fit, card_features

        gate = self.badge_gate if gate is None else gate
        least_lead = self.badge_lead if first_look else 0.0
        least = self._least_channel(image)
        fits = [badge_fit(least, c) for c in cards]
        passes = [fit.match >= gate and (fit.lead >= least_lead or fit.match >= LEAD_NOT_ASKED_FROM)
                  for fit in fits]  # False for NaN too (a flat place)
        if vouched_gate is not None and any(passes):
            passes = [fit.match >= min(gate, vouched_gate) for fit in fits]
        blank = np.zeros(self.model.feature_count, np.float32)
        if any(passes):
            give_up = self._early_look_at(at_least)
            rows = [card_features(image, c, fit.offset, give_up, least) if passed else None
                    for c, fit, passed in zip(cards, fits, passes)]
            passes = [row is not None for row in rows]  # the early look gives up on most places that hold no card
        if not any(passes):  # the common case: no card at all, and the model's answer for it is known
            return [{head: values.copy() for head, values in self._unread.items()} | {FEATURES: blank.copy()}
                    for _ in cards]
        features = np.stack([blank if row is None else row for row in rows])
        probabilities = self.model.probabilities(features)
        for i, passed in enumerate(passes):
            if not passed:
                probabilities["card"][i] = (0.0, 1.0)
        return [{head: values[i] for head, values in probabilities.items()} | {FEATURES: features[i]}
                | ({BADGE_OFFSET: fits[i].offset, BADGE_MATCH: fits[i].match} if passes[i] else {})
                for i in range(len(cards))]

    def _early_look_at(self, at_least: float):
        """The early look that gives up on places surely reading below `at_least` (one per level, kept)."""
        if self.early_look is None:
            return None
        if at_least not in self._early_looks:
            self._early_looks[at_least] = self.early_look.at_least(at_least)
        return self._early_looks[at_least]

    @functools.cached_property
    def _unread(self) -> dict[str, np.ndarray]:
        """The probabilities per head of a place read as no card (blank features, "card" no), as `_read` gives them
        for such a place among others."""
        probabilities = self.model.probabilities(np.zeros((1, self.model.feature_count), np.float32))
        probabilities["card"][0] = (0.0, 1.0)
        return {head: values[0] for head, values in probabilities.items()}

    def _by_exemplars(self, cards: list[SeenCard], probabilities: list[dict],
                      print_share=None, covered=None, over_card=None) -> list[SeenCard]:
        """Parts and ability by the linear classifier's probability plus the share of the nearest training crops
        that agree (for parts, PARTS_VOTE of it, the sum scaled back to 0-2); half that sum bounds the confidence (a
        card half under a hand finds no consistent neighbours), and an icon print unlike every prototype caps it (a
        finger over the icon reads as no icon, surely), as does no icon read where the card's outline was not seen
        (ICON_UNSEEN). `print_share(i)`, where given, is the i-th card's `icon_print_share`: an ability read where
        no icon is printed becomes none (NO_PRINT_SHARE). `covered(i)`, where given, says whether something lies over
        the i-th card's icon (`icon_place_covered`): no icon seen there is then no evidence either. `over_card(i)`,
        where given, says whether something lies over the i-th card (`card_covered`): a reading less sure than
        SURE_DESPITE_COVER, or whose legion the badge's shape decided against its colours, is then not trusted."""
        import dataclasses

        from .model import HEADS, PART_SETS, part_set_probabilities

        features = np.stack([p[FEATURES] for p in probabilities])
        votes, familiarity = self.model.exemplars.read(
            features, {"parts": len(PART_SETS), "ability": len(HEADS["ability"])})
        icon_familiarity = familiarity["ability"]
        linear_parts = np.array([part_set_probabilities({part: float(p[part][0]) for part in ("legs", "torso", "head")})
                                 for p in probabilities])
        linear_ability = np.stack([p["ability"] for p in probabilities])
        parts_score = (linear_parts + PARTS_VOTE * votes["parts"]) * (2 / (1 + PARTS_VOTE))
        ability_score = linear_ability + votes["ability"]
        read = []
        for i, card in enumerate(cards):
            parts, ability = int(parts_score[i].argmax()), int(ability_score[i].argmax())
            confidence = min(card.confidence, parts_score[i, parts] / 2, ability_score[i, ability] / 2)
            if icon_familiarity[i] < UNFAMILIAR_ICON or \
                    _no_icon_where_unseen(probabilities[i], HEADS["ability"][ability]):
                confidence = min(confidence, UNFAMILIAR_CONFIDENCE)
            if print_share is not None and \
                    _no_icon_printed(HEADS["ability"][ability], functools.partial(print_share, i)):
                ability = HEADS["ability"].index(None)
                confidence = min(confidence, UNFAMILIAR_CONFIDENCE)
            if HEADS["ability"][ability] is None and confidence > UNFAMILIAR_CONFIDENCE and covered is not None \
                    and covered(i):
                confidence = UNFAMILIAR_CONFIDENCE
            if confidence > UNFAMILIAR_CONFIDENCE and over_card is not None and \
                    (confidence < SURE_DESPITE_COVER or _shape_overruled_colours(probabilities[i])) and over_card(i):
                confidence = UNFAMILIAR_CONFIDENCE
            read.append(dataclasses.replace(card, parts=PART_SETS[parts], ability=HEADS["ability"][ability],
                                            confidence=float(confidence)))
        return read

    def _read_again_on_sides(self, image: np.ndarray, gray: np.ndarray, seen: list[SeenCard], taken: list[np.ndarray],
                             place_readings: list[dict], factor: float, sizes: CardSizes) -> list[SeenCard]:
        """The cards read doubtfully (below AGAIN_BELOW, or below AGAIN_SURE where their place, whose probabilities are
        `place_readings`, reads below AGAIN_PLACE_DOUBT as a card) read again laid on each of their own sides, and at
        the size the other cards give them there from each of their corners where theirs differs from it
        (`_resized_places`), as laid and (for the cards read doubtfully) snapped onto the edges nearby (a card placed a
        few percent of a card off, or found too large with a shadow welded on, reads parts and ability from the wrong
        pixels). The best of those readings that read surely as cards (AGAIN_CARD; a card read surely, at least as
        surely as its own place) replaces the card if it is AGAIN_GAIN surer, but with the card's own confidence:
        picked as the surest of several readings, its confidence overstates it, and a card under a hand can find one
        sure wrong reading among them."""
        import dataclasses

        read = list(seen)
        for i, card in enumerate(seen):
            doubtful = card.confidence < AGAIN_BELOW
            if not doubtful and (card.confidence >= AGAIN_SURE or place_readings[i]["card"][0] >= AGAIN_PLACE_DOUBT):
                continue
            others = taken[:i] + taken[i + 1:]
            # A card read surely is only moved to a place that reads at least as surely as a card as its own, and the
            # places as laid are enough for it (a third of the cost of snapping them too).
            places = _put_right(gray, taken[i], others, sizes, snapped_too=doubtful)
            if not places:
                continue
            least_card = AGAIN_CARD if doubtful else max(AGAIN_CARD, place_readings[i]["card"][0])
            candidates = [(self._card(image, place, probabilities, factor), probabilities, place)
                          for place, probabilities in zip(places, self._read(image, places, at_least=AGAIN_CARD))
                          if probabilities["card"][0] >= least_card]
            if not candidates:
                continue
            found, readings, laid = map(list, zip(*candidates))
            print_share = functools.partial(_print_share, self._least_channel(image), laid, readings)
            again = self._by_exemplars(found, readings, print_share,
                                       functools.partial(_at_place, icon_place_covered, image, laid),
                                       functools.partial(_at_place, card_covered, image, laid))
            best = max(again, key=lambda each: each.confidence)
            if best.confidence >= card.confidence + AGAIN_GAIN:
                read[i] = dataclasses.replace(best, confidence=card.confidence)
        return read

    def _ends_drawn_in(self, image: np.ndarray, points: np.ndarray, snapped: np.ndarray, probabilities: dict,
                       others: list[np.ndarray], factor: float):
        """The (corners, card, probabilities) of the card with its ends (its left and right sides) where `snapped` (the
        card snapped onto the edges nearby) has them, if that draws it in by ENDS_MOVED of its width and it reads at
        least as surely as a card (and AGAIN_CARD); None otherwise. A column's outline is as wide as its widest card,
        and cards are laid a little askew, so a card split off it can have an end out on the table: its legion-tinted
        right edge then reads the table's colour (a blue card in a column on brown wood read brown at 0.94). Only
        drawn in: moved outward, the strongest edge nearby was as often an arm's or a neighbour's as the card's."""
        width = mean_sides(points)[0]
        place = card_with_ends_of(points, snapped)
        if place is None or not card_shaped(place) or mean_sides(place)[0] >= width:
            return None
        moved = np.abs(place - points).max()
        if not ENDS_MOVED[0] * width < moved <= ENDS_MOVED[1] * width:
            return None
        if inside_any(quad_centre(place), others) or not in_frame(place, image.shape):
            return None
        again = self._read(image, [place], at_least=AGAIN_CARD)[0]
        if again["card"][0] < max(AGAIN_CARD, probabilities["card"][0]):
            return None
        card = self._card(image, place, again, factor)
        return None if card is None else (place, card, again)

    def _placed_to_grow_from(self, image: np.ndarray, gray: np.ndarray, points: np.ndarray, probabilities: dict,
                             others: list[np.ndarray], sizes: CardSizes) -> np.ndarray:
        """Where the neighbours of the card found at `points` are laid from: where it reads PLACE_AGAIN_GAIN surer as a
        card, laid on each of its own sides or at the size the `others` give it there, if it read below
        PLACE_AGAIN_BELOW as found; otherwise as found."""
        validity = float(probabilities["card"][0])
        if validity >= PLACE_AGAIN_BELOW:
            return points
        places = _put_right(gray, points, others, sizes)
        return self._surest_instead(image, places, points, probabilities, least=validity + PLACE_AGAIN_GAIN)[0]

    def _lone_cards(self, image: np.ndarray, candidates: list[np.ndarray], taken: list[np.ndarray],
                    bar: float = LONE_CARD, almost: list | None = None) -> list:
        """The candidate cards that on their own look unmistakably like cards (at least `bar`), with their
        probabilities. Read at a first look (`_read`): each must show its badge figure distinctly. Those that read
        at least ALMOST_CARD but below the bar are added to `almost`, if that is a list."""
        candidates = [c for c in candidates if not inside_any(quad_centre(c), taken)]
        if not candidates:
            return []
        found = list(zip(candidates, self._read(image, candidates, self.badge_gate + LONE_GATE_RISE, at_least=bar,
                                                first_look=True)))
        if almost is not None:
            almost += [card for card, probabilities in found if ALMOST_CARD <= probabilities["card"][0] < bar]
        return sorted([item for item in found if item[1]["card"][0] >= bar], key=lambda item: -item[1]["card"][0])

    def _surest_snapped(self, image: np.ndarray, gray: np.ndarray, almost: list[np.ndarray], taken: list[np.ndarray],
                        bar: float, keep=None):
        """The places that read as half a card (`_lone_cards`' `almost`: a corner a few pixels off lays a card with its
        badge cut off) snapped onto the edges nearby in the grey frame, those that moved (one that did not reads as it
        did) and that `keep` keeps (all, unless given), read again as lone cards: the surest reading at least `bar`,
        with its probabilities, or None."""
        moved = [snapped for snapped, card in zip(_snapped_places(gray, almost), almost)
                 if not np.array_equal(snapped, card) and (keep is None or keep(snapped))]
        return next(iter(self._lone_cards(image, moved, taken, bar)), None)

    def _block_cells(self, image: np.ndarray, card: np.ndarray, taken: list[np.ndarray]) -> list:
        """Where a place read doubtfully as one card is a block of two by two or three by three cards (creatures
        pushed together: such a block has a card's shape), its cells that read surely as cards."""
        width, depth = mean_sides(card)
        cells = []
        for count in (2, 3):
            cells += grid_cards(card, (width / count, depth / count))
        found = self._lone_cards(image, cells, taken, GRID_CARD)
        # Each cell is laid both ways up: two readings can be one cell.
        return found if len({tuple(np.round(quad_centre(points))) for points, _ in found}) >= 2 else []

    def _card_over_outline(self, image: np.ndarray, gray: np.ndarray, quad: np.ndarray,
                           sizes: list[tuple[float, float]], least: float, taken: list[np.ndarray]):
        """The (corners, probabilities) of the card surest to be one (LONE_CARD at least) among the cards of the given
        sizes laid over an outline smaller than a card, of those sizes it fills more than `least` of
        (PART_OF_CARD_AREA at most); None if none is."""
        sizes = [each for each in sizes if least < quad_area(quad) / (each[0] * each[1]) < PART_OF_CARD_AREA[1]]
        cards = [card for each in sizes for card in cards_over_outline(quad, each)
                 if in_frame(card, image.shape) and not _featureless(image, card)]
        # A card laid over the outline has the outline's corner error; a few pixels off its own edges it can read as
        # no card (its badge cut off), so each is snapped onto the edges nearby before it is judged.
        cards = _snapped_places(gray, cards)
        return next(iter(self._lone_cards(image, cards, taken)), None)

    def _completed_column(self, image: np.ndarray, gray: np.ndarray, quad: np.ndarray, size: tuple[float, float]):
        """The (corners, probabilities) of the cards of the quad with one corner put back where the other three put
        it, if the quad holds LOW_COLUMN_AREA of cards of the given size and its completion is a column about as wide
        as them (COMPLETED_COLUMN_WIDTH_TOLERANCE) that reads as cards; None otherwise. Only the COMPLETED_TRIES
        best-placed such completions are read: the others rarely hold cards, and each costs a column's reading."""
        from .detect import refine_at_full_resolution

        if not LOW_COLUMN_AREA[0] < quad_area(quad) / (size[0] * size[1]) < LOW_COLUMN_AREA[1]:
            return None
        variants = [v for v in completed_variants(gray, quad)
                    if column_of_width(v, size[0], COMPLETED_COLUMN_WIDTH_TOLERANCE)][:COMPLETED_TRIES]
        short_side = shortest_side(quad)
        for variant in variants:
            variant = refine_at_full_resolution(gray, variant, SNAP_REACH * short_side)
            score, corners, probabilities = max(self._readings(image, variant, hypotheses=1), key=lambda r: r[0],
                                                default=(0.0, [], []))
            if score >= ACCEPT_COLUMN:
                return list(zip(corners, probabilities))
        return None

    def _reshaped(self, image: np.ndarray, gray: np.ndarray, points: np.ndarray, probabilities: dict):
        """A card whose corners no camera could give one card (one corner pulled off by a neighbour, a shadow or
        the art) with that corner put back where the other three say, its sides snapped onto the nearest edges;
        the best-reading such card when it reads about as surely as a card, otherwise the card as it was."""
        candidates = [variant for variant in itertools.islice(_corner_put_back(gray, points), RESHAPE_TRIES)
                      if card_shaped(variant)]
        return self._surest_instead(image, candidates, points, probabilities, RESHAPE_MARGIN)

    def _surest_instead(self, image: np.ndarray, candidates: list[np.ndarray], points: np.ndarray, probabilities: dict,
                        margin: float = 0.0, least: float = KEEP_CARD, gate: float | None = None):
        """The candidate place that reads surest as a card, with its reading, if it reads at least `least` as a card
        and at most `margin` less surely than the card at `points`; otherwise that card as it was. The candidates are
        read with the badge gate `gate` (the model's unless given)."""
        if not candidates:
            return points, probabilities
        readings = self._read(image, candidates, gate, at_least=least)  # none reading less can be the answer
        best = int(np.argmax([p["card"][0] for p in readings]))
        if readings[best]["card"][0] < max(least, probabilities["card"][0] - margin):
            return points, probabilities
        return candidates[best], readings[best]

    def _refitted(self, image: np.ndarray, gray: np.ndarray, points: np.ndarray, probabilities: dict):
        """A card still misshapen once put back into shape (two or three of its corners off, as where a column's
        outline was split aslant) replaced by the best-reading card laid on one of its sides (as laid, or snapped onto
        the edges nearby), when that reads at least as surely as a card: the side by the badge is usually right, the
        card having been found by its badge. Otherwise the card as it was."""
        return self._surest_instead(image, _laid_on_sides(gray, points), points, probabilities)

    def _with_badge_shape(self, image: np.ndarray, points: np.ndarray, probabilities: dict) -> None:
        """Reads the legion of the card at `points` from its badge's shape as well as its colours, where the model
        can: the probabilities' "legion" becomes the two together, and the colours' alone are kept beside them under
        LEGION_BY_COLOUR. Only for cards about to be taken (a few a frame), not for every place read: it changes no
        choice between places, which the card head makes. A badge that matches the printed figure less than
        SHAPE_MIN_MATCH may be partly under a hand, whose edge can make any shape: there the colours alone decide."""
        from .features import badge_shape

        if self.model.badge_shape is None or LEGION_BY_COLOUR in probabilities or \
                not probabilities.get(BADGE_MATCH, 0.0) >= SHAPE_MIN_MATCH:
            return
        shape = badge_shape(image, points, probabilities[FEATURES], probabilities[BADGE_OFFSET])
        probabilities[LEGION_BY_COLOUR] = probabilities["legion"]
        probabilities["legion"] = self.model.legion_probabilities(probabilities["legion"], shape)

    def _steady_legion(self, image: np.ndarray, points: np.ndarray, probabilities: dict) -> None:
        """A legion read less surely than LEGION_STEADY_BELOW becomes the mean of its reading and those of the card
        laid LEGION_SHIFT off along each of its sides, each way, that read as a card (KEEP_CARD); the number of
        readings is kept under LEGION_READINGS, which also keeps a card from being steadied twice."""
        if LEGION_READINGS in probabilities or probabilities["legion"].max() >= LEGION_STEADY_BELOW:
            return
        places = cards_shifted(points, LEGION_SHIFT)
        readings = [probabilities["legion"]]
        for place, reading in zip(places, self._read(image, places, gate=VOUCHED_GATE)):
            if reading["card"][0] >= KEEP_CARD:
                self._with_badge_shape(image, place, reading)
                readings.append(reading["legion"])
        probabilities["legion"] = np.mean(readings, axis=0)
        probabilities[LEGION_READINGS] = len(readings)

    def _snap_card(self, image: np.ndarray, full_gray, points: np.ndarray, probabilities: dict,
                   at_least: float = FLOOR):
        """A doubtful card (reading below SNAP_CARD_BELOW as a card), its sides moved onto the nearest strong edges
        (a column's outline can be a little off at one end, and a few pixels of corner error cost parts and
        ability); the snapped reading is kept if it looks more like a card. `full_gray()` gives the grey frame;
        `at_least` is the least card probability the caller makes anything of (see `_read`)."""
        from .detect import refine_at_full_resolution

        if probabilities["card"][0] >= SNAP_CARD_BELOW:
            return points, probabilities
        width = np.linalg.norm(points[1] - points[0])
        snapped = refine_at_full_resolution(full_gray(), points, SNAP_REACH * width / CARD_ASPECT)
        if np.abs(snapped - points).max() <= 1.0:
            return points, probabilities
        snapped_probabilities = self._read(image, [snapped], at_least=at_least)[0]
        if snapped_probabilities["card"][0] > probabilities["card"][0]:
            return snapped, snapped_probabilities
        return points, probabilities

    def _card(self, image: np.ndarray, points: np.ndarray, probabilities: dict, factor: float) -> SeenCard | None:
        from .model import HEADS, best_parts

        validity = float(probabilities["card"][0])
        if validity < KEEP_CARD:
            return None
        self._with_badge_shape(image, points, probabilities)
        self._steady_legion(image, points, probabilities)
        picks = {head: int(np.argmax(probabilities[head])) for head in ("legion", "ability")}
        parts, parts_probability = best_parts(
            {part: float(probabilities[part][0]) for part in ("legs", "torso", "head")})
        if self.model.exemplars is None:
            confidence = min([validity, parts_probability] + [float(probabilities[h][picks[h]]) for h in picks])
            if _no_icon_where_unseen(probabilities, HEADS["ability"][picks["ability"]]):
                confidence = min(confidence, UNFAMILIAR_CONFIDENCE)
        else:  # parts and ability are read again by _by_exemplars, which bounds the confidence with its votes
            confidence = min(validity, float(probabilities["legion"][picks["legion"]]))
        return SeenCard(
            legion=HEADS["legion"][picks["legion"]],
            parts=parts,
            ability=HEADS["ability"][picks["ability"]],
            corners=tuple((round(float(x) / factor, 1), round(float(y) / factor, 1)) for x, y in points),
            confidence=confidence,
        )
