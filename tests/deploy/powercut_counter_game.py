"""A tiny stand-in engine for the power-cut test: pure, seeded, JSON state, event log and undo.

It lets the test exercise SaveStore exactly as the app will (record after each move, undo_last after
pop()) without depending on the real game engines. Which action comes next depends only on the state,
so the test can compute what the session was about to commit when it was killed.
"""
from __future__ import annotations

import random


#: A game ends once its total reaches this; the session then finishes it and starts another.
FINISH_AT = 60


class CounterGame:
    def __init__(self, seed: int = 0):
        self.seed = seed
        self.turn = 0
        self.totals = [0]

    @property
    def total(self) -> int:
        return self.totals[-1]

    def to_json(self) -> dict:
        return {"seed": self.seed, "turn": self.turn, "totals": list(self.totals)}

    @classmethod
    def from_json(cls, data: dict) -> "CounterGame":
        game = cls(data["seed"])
        game.turn = data["turn"]
        game.totals = list(data["totals"])
        return game

    def next_action(self) -> tuple[str, int]:
        """("finish", 0), ("add", n) or ("undo", 0), drawn from a generator seeded by the seed and the turn."""
        if self.total >= FINISH_AT:
            return ("finish", 0)
        draw = random.Random(self.seed * 1_000_003 + self.turn)
        if len(self.totals) > 1 and draw.random() < 0.2:
            return ("undo", 0)
        return ("add", draw.randint(1, 6))

    def add(self, amount: int) -> list[dict]:
        self.turn += 1
        self.totals.append(self.total + amount)
        return [{"type": "added", "amount": amount, "total": self.total}]

    def result(self) -> dict:
        return {"total": self.total, "turns": self.turn}

    def pop(self) -> None:
        self.turn += 1
        self.totals.pop()
