"""Representative games for screenshots and tests: a seeded simulated table played into an observed session
until the position shows what a screen is about."""
from __future__ import annotations

from companion.games.nightmarium import Game
from companion.referee.simulated import SimulatedTable
from companion.ui.nightmarium.session import Session

SAMPLE_NAMES = ("Ann", "Bob", "Cleo")
TARGETING = ("executioner", "scavenger", "devourer")


def played_session(app, until, seeds=range(1, 60), names=SAMPLE_NAMES, edition: str = "ru2014",
                   mode: str = "camera") -> Session:
    """The first seeded game that reaches a position where until(game) holds (else the last one, finished)."""
    session = None
    for seed in seeds:
        table = SimulatedTable(list(names), seed=seed, edition=edition)
        game = Game.new(list(names), edition=edition, seed=seed, observed=True)
        session = Session(app, game, mode)
        while not table.over:
            for happening in table.step():
                session.feed(happening)
                if until(game):
                    return session
    return session


def mid_game(game) -> bool:
    return game.turn >= 14 and game.prompt is None and game.actions_left == 1 and \
        sum(player.complete_count for player in game.players) >= 3


def chain_with_target(game) -> bool:
    return len(game.chain) >= 2 and game.prompt is not None and game.prompt.kind in TARGETING


def finished(game) -> bool:
    return game.over
