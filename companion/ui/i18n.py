"""Translated strings: `t(key, lang, **values)`.

Strings live in JSON tables under companion/ui/strings/ (one file per part of the product, so each game adds its
own file); every entry maps a key to {"en": ..., "ru": ..., "pl": ...}. A missing translation falls back to
English, a missing key shows the key itself so a gap is visible but harmless.
"""
from __future__ import annotations

import json
from functools import lru_cache
from pathlib import Path

LANGUAGES = ("en", "ru", "pl")
STRINGS_DIR = Path(__file__).resolve().parent / "strings"


@lru_cache(maxsize=1)
def table() -> dict[str, dict[str, str]]:
    merged: dict[str, dict[str, str]] = {}
    for path in sorted(STRINGS_DIR.glob("*.json")):
        merged.update(json.loads(path.read_text(encoding="utf-8")))
    return merged


def t(key: str, lang: str = "en", **values) -> str:
    entry = table().get(key)
    if entry is None:
        text = key
    else:
        text = entry.get(lang) or entry.get("en") or key
    if values:
        try:
            text = text.format(**values)
        except (KeyError, IndexError, ValueError):
            pass
    return text
