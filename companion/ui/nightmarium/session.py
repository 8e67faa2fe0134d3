"""One Nightmarium game at the table: the observed-mode engine, its referee, saving, and the simulated table.

Every move that changes the game is recorded through the app's store before the screen shows it; the latest
announcements (pure legion, chain stopped or interrupted, warnings) are kept for the screens to draw.
"""
from __future__ import annotations

import random
import threading
from dataclasses import dataclass, field

from companion.games.nightmarium import Game
from companion.referee import Outcome, Referee, RuleWarning

GAME_KEY = "nightmarium"
PICTURE_SIZE = (820, 616)  # half the Pi camera's frame: enough for the view, a quarter of the work
PICTURE_CARD_WIDTH = 80  # px: small enough for four seats of five creatures to fit the picture


def picture_conditions():
    from vision.synthetic import Conditions

    return Conditions(card_width_px=PICTURE_CARD_WIDTH)
MODES = ("camera", "manual", "simulated")


@dataclass
class Announcement:
    key: str  # string key in nightmarium.json
    values: dict = field(default_factory=dict)
    legion: str | None = None  # drawn in the legion's colour (and lit on the LED where one is wired)


class Session:
    def __init__(self, app, game: Game, mode: str = "manual", game_id: int | None = None,
                 player_of_seat: dict[int, int] | None = None):
        self.app = app
        self.game = game
        self.mode = mode if mode in MODES else "manual"
        self.game_id = game_id
        self.referee = Referee(game, player_of_seat)
        self.announcements: list[Announcement] = []
        self.save_failed = False
        # A camera the guard has not (yet) found: manual entry until it reports one (app.camera_connected).
        self.camera_lost = getattr(app, "camera_connected", None) is False
        self.latest_frame = None  # the last camera (or synthetic camera) picture, BGR, for the camera view
        self.latest_seen = None  # the cards the recogniser read in the camera's last picture (vision SeenCards)
        self.simulation: SimulationWorker | None = None

    @classmethod
    def new(cls, app, names: list[str], edition: str, win_target: int, seals: bool, mode: str,
            seats: list[int] | None = None) -> "Session":
        game = Game.new(names, edition=edition, win_target=win_target, seals=seals, seed=random.randrange(10 ** 9),
                        observed=True)
        player_of_seat = {seat: index for index, seat in enumerate(seats)} if seats else None
        session = cls(app, game, mode, player_of_seat=player_of_seat)
        session.register()
        return session

    def register(self) -> None:
        """Open this game in the store (a new saved game)."""
        title = " · ".join(player.name for player in self.game.players)

        def write(store):
            self.game_id = store.new_game(GAME_KEY, title, self.state())

        self.save_failed = not self.app.save(write)

    @classmethod
    def resume(cls, app, game_id: int, state: dict) -> "Session":
        """A saved game; a state the engine cannot read raises ValueError (the caller says so)."""
        try:
            game = Game.from_json(state["game"])
        except (KeyError, TypeError, ValueError) as error:
            raise ValueError(f"the saved game cannot be read ({error})") from error
        seats = {int(seat): player for seat, player in state.get("player_of_seat", {}).items()} or None
        return cls(app, game, state.get("mode", "manual"), game_id, seats)

    # -- saving -------------------------------------------------------------------------------------------
    def state(self) -> dict:
        return {"game": self.game.to_json(), "mode": self.mode,
                "player_of_seat": {str(seat): player for seat, player in self.referee.player_of_seat.items()},
                "players": [{"name": player.name} for player in self.game.players], "winner": self.game.winner}

    def save(self, moves: list[dict], events: list[dict]) -> None:
        """Record the moves, the state after them and their events before the screen shows them; a game that
        has just been won is marked finished (it then appears in History)."""
        if self.game_id is None or not moves:
            return

        def write(store):
            for index, move in enumerate(moves):
                last = index == len(moves) - 1
                store.record(self.game_id, move, self.state(), events if last else [])
            if self.game.over:
                winner = self.game.players[self.game.winner].name
                store.finish(self.game_id, {"winner": winner, "turns": self.game.turn})

        self.save_failed = not self.app.save(write)

    # -- what changes the game ------------------------------------------------------------------------------
    def apply(self, outcome: Outcome) -> Outcome:
        self.save([move.to_json() for move in outcome.moves], outcome.events)
        if outcome.moves:
            self.announce(outcome.events)
        if outcome.warning is not None:
            self.referee.warning = outcome.warning
        return outcome

    def observe(self, table) -> Outcome:
        return self.apply(self.referee.observe(table))

    def press(self, move) -> Outcome:
        return self.apply(self.referee.press(move))

    def feed(self, happening) -> Outcome:
        from companion.referee.simulated import feed

        return self.apply(feed(self.referee, happening))

    def undo(self) -> bool:
        move = self.referee.undo()
        if move is None:
            return False
        self.referee.warning = None
        self.announcements.clear()
        if self.game_id is not None:
            self.save_failed = not self.app.save(lambda store: store.undo_last(self.game_id, self.state()))
        return True

    def correct_card(self, creature_id: int, height: int, face) -> Outcome:
        return self.apply(self.referee.correct_card(creature_id, height, face))

    @property
    def warning(self) -> RuleWarning | None:
        return self.referee.warning

    def dismiss_warning(self) -> None:
        self.referee.warning = None

    def announce(self, events: list[dict]) -> None:
        names = [player.name for player in self.game.players]
        fresh = []
        for event in events:
            kind = event.get("type")
            if kind == "pure_legion":
                fresh.append(Announcement("nm.event.pure_legion", {"legion": event["legion"]}, event["legion"]))
                self._light(event["legion"])
            elif kind == "ability_failed":
                fresh.append(Announcement("nm.event.ability_failed", {"ability": event["ability"]}))
            elif kind == "chain_interrupted":
                lost = [ability for _, ability in event.get("lost", ())]
                fresh.append(Announcement("nm.event.chain_interrupted", {"id": event["creature"], "lost": lost}))
            elif kind == "win":
                fresh.append(Announcement("nm.event.win", {"name": names[event["player"]]}))
        if fresh:
            self.announcements = (self.announcements + fresh)[-3:]

    def _light(self, legion: str) -> None:
        devices = self.app.devices
        if devices is not None and hasattr(devices, "show_colour"):
            try:
                devices.show_colour(legion)
            except Exception as error:  # an LED fault must not stop the game
                self.app.errors.append(f"LED: {error}")

    # -- the simulated table ---------------------------------------------------------------------------------
    def start_simulation(self, seed: int | None = None, interval: float = 1.2) -> None:
        if self.simulation is None and self.app.background:
            self.simulation = SimulationWorker(self.app.inbox, [p.name for p in self.game.players],
                                               self.game.edition.key, self.game.win_target, self.game.seals,
                                               seed if seed is not None else random.randrange(10 ** 6), interval)
            self.simulation.start()

    def stop(self, wait: float = 0.0) -> None:
        if self.simulation is not None:
            self.simulation.stop(wait)
            self.simulation = None


class SimulationWorker:
    """A thread that plays the simulated table and posts what happens to the app's inbox (never to the screen)."""

    def __init__(self, inbox, names, edition, win_target, seals, seed, interval):
        from companion.referee.simulated import SimulatedTable

        self.table = SimulatedTable(names, seed=seed, edition=edition, win_target=win_target, seals=seals)
        self.seed = seed
        self.pictures = None  # the synthetic camera, made on first use (None: not yet, False: unavailable)
        self.inbox = inbox
        self.interval = interval
        self.stopping = threading.Event()
        self.thread = threading.Thread(target=self._run, name="simulated-table", daemon=True)

    def start(self) -> None:
        self.thread.start()

    def stop(self, wait: float = 0.0) -> None:
        """Ask the thread to end; with `wait`, give it that long to finish what it draws (OpenCV aborts the
        process if the interpreter exits under a running thread)."""
        self.stopping.set()
        if wait and self.thread.is_alive():
            self.thread.join(wait)

    def _run(self) -> None:
        while not self.stopping.is_set() and not self.table.over:
            for happening in self.table.step():
                self.inbox.put(("sim", happening))
                if happening.kind == "table":
                    self._post_picture()
                if self.stopping.wait(self.interval):
                    return

    def _post_picture(self) -> None:
        """What a camera over this table would see: the real scans from ../shared/cards when present, drawn
        stand-ins otherwise (vision.synthetic). Kept in memory only; a failure just leaves the view empty."""
        if self.pictures is False:
            return
        try:
            if self.pictures is None:
                from vision.synthetic import SceneGenerator

                self.pictures = SceneGenerator(seed=self.seed, size=PICTURE_SIZE)
            discard = self.table.game.discard[-1].id if self.table.game.discard else None
            scene = self.pictures.render(self.table.layout(), picture_conditions(), discard_id=discard, deck=True)
            self.inbox.put(("frame", scene.frame))
        except Exception as error:  # no OpenCV, no vision package: the referee works without pictures
            self.pictures = False
            self.inbox.put(("frame", None))
            import logging

            logging.getLogger(__name__).info("no synthetic camera pictures: %s", error)
