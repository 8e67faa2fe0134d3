"""Where the card facts and the publisher's scans live, and which scans are held out of all tuning.

The scans are read from ../shared/cards at run time (overridable with COMPANION_CARDS_DIR) and never copied into
the repository.
"""
from __future__ import annotations

import json
import os
from dataclasses import dataclass
from functools import lru_cache
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[1]
CARD_FACTS = REPO_ROOT / "companion" / "games" / "nightmarium" / "data" / "cards.json"

# The printed card, landscape, in scan pixels: every geometric constant below is relative to this.
CARD_WIDTH = 1020
CARD_HEIGHT = 655
CARD_ASPECT = CARD_WIDTH / CARD_HEIGHT
CORNER_RADIUS = 38

# Every 5th scan (in file-name order) is held out of training and tuning and only used by the benchmark.
HOLDOUT_EVERY = 5


@dataclass(frozen=True)
class CardFacts:
    id: int
    legion: str
    parts: tuple[str, ...]
    ability: str | None
    scan: str | None = None


def cards_dir() -> Path:
    override = os.environ.get("COMPANION_CARDS_DIR")
    if override:
        return Path(override)
    return (REPO_ROOT / ".." / "shared" / "cards").resolve()


def scans_available() -> bool:
    folder = cards_dir()
    return (folder / "deck.json").is_file() and any(folder.glob("*.jpg"))


@lru_cache(maxsize=1)
def all_cards() -> tuple[CardFacts, ...]:
    """The 108 cards from the package data, with the scan file name added when the scans folder says so."""
    facts = json.loads(CARD_FACTS.read_text(encoding="utf-8"))["cards"]
    scans: dict[int, str] = {}
    deck = cards_dir() / "deck.json"
    if deck.is_file():
        try:
            for card in json.loads(deck.read_text(encoding="utf-8"))["cards"]:
                if card.get("scan") and (cards_dir() / card["scan"]).is_file():
                    scans[int(card["id"])] = card["scan"]
        except (OSError, ValueError, KeyError):
            scans = {}
    return tuple(CardFacts(int(c["id"]), c["legion"], tuple(c["parts"]), c["ability"], scans.get(int(c["id"])))
                 for c in facts)


def card_by_id(card_id: int) -> CardFacts:
    for card in all_cards():
        if card.id == card_id:
            return card
    raise KeyError(f"no card with id {card_id}")


def scanned_cards() -> tuple[CardFacts, ...]:
    return tuple(sorted((c for c in all_cards() if c.scan), key=lambda c: c.scan))


def split_cards(cards, heldout: bool) -> tuple[CardFacts, ...]:
    """Every HOLDOUT_EVERY-th of the cards (held out of all tuning), or the others."""
    return tuple(c for i, c in enumerate(cards) if (i % HOLDOUT_EVERY == HOLDOUT_EVERY - 1) == heldout)


def training_cards() -> tuple[CardFacts, ...]:
    return split_cards(scanned_cards(), heldout=False)


def heldout_cards() -> tuple[CardFacts, ...]:
    return split_cards(scanned_cards(), heldout=True)


def load_scan(card: CardFacts):
    """The scan as a BGR array at the canonical CARD_WIDTH x CARD_HEIGHT, or None when it cannot be read."""
    import cv2

    if not card.scan:
        return None
    image = cv2.imread(str(cards_dir() / card.scan), cv2.IMREAD_COLOR)
    if image is None:
        return None
    if image.shape[:2] != (CARD_HEIGHT, CARD_WIDTH):
        image = cv2.resize(image, (CARD_WIDTH, CARD_HEIGHT), interpolation=cv2.INTER_AREA)
    return image
