"""Random legal play: the simulator behind `companion simulate`, the property tests and the demo table."""
from __future__ import annotations

import random
import time
from collections import Counter
from dataclasses import dataclass, field

from .cards import DECK, SEALS
from .game import Game
from .moves import DiscardDraw, Draw


class RandomPlayer:
    """Chooses a random legal move. Actions are picked by kind first (play, draw, discard-and-draw), so that the
    many discard-and-draw subsets do not drown out the plays; every prompt is answered uniformly at random."""

    PLAY_WEIGHT, DRAW_WEIGHT, DISCARD_WEIGHT = 6, 3, 1

    def __init__(self, seed: int | None = None, rng: random.Random | None = None):
        self.rng = rng or random.Random(seed)

    def choose(self, game: Game):
        if game.prompt is not None:
            return self.rng.choice(list(game.legal_moves()))
        hand = game.players[game.active].hand
        plays = list(game.legal_plays())
        kinds = [("draw", self.DRAW_WEIGHT)]
        if plays:
            kinds.append(("play", self.PLAY_WEIGHT))
        if hand and None not in hand:
            kinds.append(("discard", self.DISCARD_WEIGHT))
        kind = self.rng.choices([k for k, _ in kinds], [w for _, w in kinds])[0]
        if kind == "play":
            return self.rng.choice(plays)
        if kind == "discard":
            size = self.rng.randint(1, len(hand))
            return DiscardDraw(tuple(self.rng.sample(hand, size)))
        return Draw()


def invariant_violations(game: Game) -> list[str]:
    """Conservation of cards and the table limits; an empty list means the state is sound."""
    problems = []
    zones = list(game.deck) + list(game.discard) + list(game.revealed)
    for player in game.players:
        zones += player.hand
        for creature in player.creatures:
            zones += [card for card, _ in creature.cards]
            if creature.seal is not None:
                zones.append(creature.seal)
            if not 1 <= len(creature.cards) <= 3:
                problems.append(f"creature {creature.id} has {len(creature.cards)} cards")
            for height, (card, part) in enumerate(creature.cards):
                if part.height != height or part not in card.parts:
                    problems.append(f"creature {creature.id} has {card.describe()} as {part.value} at height {height}")
        if len(player.creatures) > game.win_target:
            problems.append(f"{player.name} has {len(player.creatures)} creatures, above the target {game.win_target}")
    expected = len(DECK) + (len(SEALS) if game.seals else 0)
    if len(zones) != expected:
        problems.append(f"{len(zones)} cards in play instead of {expected}")
    if not game.observed:
        ids = [card.id for card in zones]
        if len(set(ids)) != len(ids):
            problems.append("a card is in two places at once")
    if game.winner is None and game.stack == () and game.actions_left not in (1, 2):
        problems.append(f"{game.actions_left} actions left with nothing pending")
    return problems


@dataclass
class SimulationReport:
    games: int = 0
    finished: int = 0
    turns: list[int] = field(default_factory=list)
    completions: int = 0
    pure_legion_completions: int = 0
    abilities: Counter = field(default_factory=Counter)
    chains_stopped: int = 0
    chains_interrupted: int = 0
    seals_played: int = 0
    violations: list[str] = field(default_factory=list)
    seconds: float = 0.0

    @property
    def games_per_second(self) -> float:
        return self.games / self.seconds if self.seconds else 0.0

    def to_json(self) -> dict:
        turns = sorted(self.turns)
        return {
            "games": self.games, "finished": self.finished,
            "turns_per_game": {"mean": round(sum(turns) / len(turns), 1) if turns else 0,
                               "median": turns[len(turns) // 2] if turns else 0,
                               "max": turns[-1] if turns else 0},
            "completions": self.completions, "pure_legion_completions": self.pure_legion_completions,
            "abilities_resolved": dict(sorted(self.abilities.items())),
            "chains_stopped": self.chains_stopped, "chains_interrupted": self.chains_interrupted,
            "seals_played": self.seals_played,
            "invariant_violations": len(self.violations), "violation_examples": self.violations[:5],
            "seconds": round(self.seconds, 3), "games_per_second": round(self.games_per_second, 1),
        }


def play_one(game: Game, player: RandomPlayer, max_moves: int = 20000, check_every_move: bool = False):
    """Play a game to its end (or max_moves); yields nothing, returns the violations found."""
    violations = []
    for _ in range(max_moves):
        if game.over:
            break
        game.push(player.choose(game))
        if check_every_move or (not game.stack and game.actions_left == 2):
            problems = invariant_violations(game)
            if problems:
                violations.extend(problems)
                break
    return violations


def simulate(games: int, players: int, seed: int, edition: str = "ru2014", win_target: int = 5,
             seals: bool = False, progress=None) -> SimulationReport:
    report = SimulationReport()
    names = [f"P{i + 1}" for i in range(players)]
    started = time.perf_counter()
    for index in range(games):
        game = Game.new(names, edition=edition, win_target=win_target, seals=seals, seed=seed * 1_000_003 + index)
        game.keep_history = False
        bot = RandomPlayer(seed=seed * 7919 + index)
        report.violations.extend(play_one(game, bot))
        report.games += 1
        report.finished += game.over
        report.turns.append(game.turn)
        for event in game.events:
            kind = event["type"]
            if kind == "completion":
                report.completions += 1
            elif kind == "pure_legion":
                report.pure_legion_completions += 1
            elif kind == "ability":
                report.abilities[event["ability"]] += 1
            elif kind == "ability_failed":
                report.chains_stopped += 1
            elif kind == "chain_interrupted":
                report.chains_interrupted += 1
            elif kind == "seal":
                report.seals_played += 1
        if progress:
            progress(index + 1, games)
    report.seconds = time.perf_counter() - started
    return report
