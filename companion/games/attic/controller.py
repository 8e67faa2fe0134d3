"""The ROLL button for Attic Monster: one press rolls both dice for whoever's turn it is."""
from __future__ import annotations

from companion.games.common.buttons import ButtonBinding
from .engine import AtticGame


class DiceButton(ButtonBinding):
    def __init__(self, game: AtticGame, feedback=None):
        super().__init__("roll", game.roll, game.pop, feedback)
        self.game = game
