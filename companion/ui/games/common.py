"""What the issue-5 game screens share: saving each move before showing it, undo, resume, the box's feedback."""
from __future__ import annotations

import logging
import random
from dataclasses import dataclass

import pygame

from companion.games.common.engine import DataFileError, IllegalMove, Journal, SavedGameError
from companion.ui import icons, theme
from companion.ui.scene import Scene
from companion.ui.widgets import Button, Layout, draw_text, fit_font

log = logging.getLogger(__name__)

# Play uses the operating system's randomness; screenshots and tests build scenes with seeded engines.
PLAY_RANDOMNESS = random.SystemRandom


def box_feedback(app):
    """The Controls object (LED, buzzer) if the app has one; None on a laptop or in a screenshot."""
    devices = getattr(app, "devices", None)
    for candidate in (getattr(devices, "controls", None), devices):
        if candidate is not None and hasattr(candidate, "blink") and hasattr(candidate, "click"):
            return candidate
    return None


def resume_saved(app, game_key: str, restore):
    """(game_id, engine) of the latest unfinished game of this kind, or None; a damaged save is reported and
    a new game starts, so a half-written state never becomes a traceback."""
    store = getattr(app, "store", None)
    if store is None:
        return None
    try:
        saved = [game for game in store.unfinished() if game.kind == game_key]
    except Exception as error:  # an unreadable store must not block a new game
        app.errors.append(f"Saved games could not be read ({error}); starting a new game.")
        return None
    if not saved:
        return None
    try:
        return saved[0].id, restore(saved[0].state)
    except (SavedGameError, DataFileError, IllegalMove, KeyError, TypeError, ValueError) as error:
        log.warning("could not resume %s game %s: %s", game_key, saved[0].id, error)
        app.errors.append(f"The saved {game_key} game could not be resumed ({error}); starting a new one.")
        return None


def saved_sample(scene: "GameScene") -> "GameScene":
    """A sample game played ahead (for `companion screenshot` and the tests) saved with all its moves into the
    app's own store, as companion.ui.nightmarium.samples plays its games into a saving Session: the store then
    knows every move the engine can undo, and the first move on the screen is saved like any other."""
    def write(store):
        scene.record.id = store.new_game(scene.game_key, " · ".join(scene.player_names()), scene.saved_state())
        for event in scene.engine.events:
            # The moves table keeps events only; the state written last (the current one) is the one kept.
            store.record(scene.record.id, event, scene.saved_state(), [event])

    scene.app.save(write)
    return scene


def setup_footer(scene: Scene, surface, layout: Layout, margin: int, enabled: bool = True) -> None:
    """The Back and Start buttons every game's setup screen ends with."""
    scene.add_button(Button(pygame.Rect(margin, layout.height - layout.px(76), layout.px(160), layout.px(60)),
                            scene.t("common.back"), scene.back))
    scene.add_button(Button(pygame.Rect(layout.width - margin - layout.px(260), layout.height - layout.px(76),
                                        layout.px(260), layout.px(60)), scene.t("games.start"), scene.start,
                            primary=True, enabled=enabled))
    scene.draw_buttons(surface, layout)


@dataclass
class GameRecord:
    """The saved game behind one game's screens, shared by all of them (a screen pushed over another passes it
    on), so every screen saves into the same saved game and none keeps playing one that has been finished."""

    #: The store's number, given on the first save of a new game.
    id: int | None = None
    #: Set once the store has marked the game finished (in History); like a won Nightmarium game, it is final.
    finished: bool = False


class GameScene(Scene):
    """A screen over one engine. Every move goes through `perform`, which saves it before it is shown."""

    game_key = ""

    def __init__(self, app, engine, record: GameRecord | int | None = None):
        super().__init__(app)
        self.engine = engine
        self.record = record if isinstance(record, GameRecord) else GameRecord(record)
        self.message: str | None = None
        self.feedback = box_feedback(app)

    @property
    def game_id(self) -> int | None:
        return self.record.id

    # --- saving ------------------------------------------------------------------------------------------
    def saved_state(self) -> dict:
        """The engine's JSON plus the fields the History screen reads: players [{"name"}] and winner."""
        return {**self.engine.to_json(), **self.summary()}

    def player_names(self) -> list[str]:
        return []

    def summary(self) -> dict:
        return {"players": [{"name": name} for name in self.player_names()]}

    @property
    def finished(self) -> bool:
        """The rules have ended the game (the screen saves it as finished with its result)."""
        return False

    @property
    def over(self) -> bool:
        """Finished by the rules or in the store: no move and no undo may change it any more."""
        return self.finished or self.record.finished

    def refuse_if_over(self) -> bool:
        if self.over:
            self.message = self.t("games.finished_no_undo")
            self.dirty = True
        return self.over

    def result(self) -> dict:
        return {}

    def save(self, event: dict) -> bool:
        """Store the move, the state after it and its event (opening the saved game on its first move)."""
        if self.record.finished:
            return False  # never write into a finished game; callers refuse_if_over() first to say why

        def write(store):
            if self.record.id is None:
                self.record.id = store.new_game(self.game_key, " · ".join(self.player_names()), self.saved_state())
            store.record(self.record.id, event, self.saved_state(), [event])
            if self.finished:
                store.finish(self.record.id, self.result())
                self.record.finished = True

        return self.app.save(write)

    def finish_record(self, result: dict) -> bool:
        """Mark the saved game finished when the players, not the rules, end it; False if that cannot be saved."""
        def write(store):
            if self.record.id is not None and not self.record.finished:
                store.finish(self.record.id, result)

        if not self.app.save(write):
            return False
        self.record.finished = True
        return True

    def leave_game(self) -> None:
        """Take every screen of this game off the stack, so Back can never lead into a finished game."""
        while len(self.app.scenes) > 1 and getattr(self.app.top, "record", None) is self.record:
            self.app.pop()

    def perform(self, move, *args, **kwargs) -> dict | None:
        """Run a move; show the rules' refusal, or take the move back when it cannot be saved."""
        self.dirty = True
        if self.refuse_if_over():
            return None
        try:
            event = move(*args, **kwargs)
        except IllegalMove as error:
            self.message = str(error)
            return None
        if not self.save(event):
            self.engine.pop()
            self.message = self.t("games.not_saved")
            return None
        self.message = None
        self.after_move(event)
        return event

    def after_move(self, event: dict) -> None:
        """Hook: a scene may switch screens when the phase changes."""

    def undo(self) -> None:
        """Take back the last move, in the engine and in the saved game; if the save fails, keep both as they were.

        A finished game is final, as a won Nightmarium game is (its win screen offers no undo): it is already in
        History with its result, so undo says so and changes nothing rather than reopening it."""
        self.dirty = True
        if self.refuse_if_over():
            return
        before = self.engine.to_json()
        try:
            self.engine.pop()
        except IllegalMove as error:
            self.message = str(error)
            return
        if self.record.id is not None and not self.app.save(
                lambda store: store.undo_last(self.record.id, self.saved_state())):
            self.engine.state, self.engine.journal = before["state"], Journal.from_json(before["journal"])
            self.message = self.t("games.not_saved")
            return
        self.message = self.t("games.undone")
        self.after_move({"type": "undo"})

    def acknowledge(self) -> None:
        if self.feedback is not None:
            try:
                self.feedback.blink("led", times=1)
                self.feedback.click()
            except Exception as error:
                log.warning("button feedback failed: %s", error)

    # --- drawing helpers ---------------------------------------------------------------------------------
    def header(self, surface, layout: Layout, title: str, status: str = "") -> None:
        margin = layout.px(14)
        title_font = fit_font(title, layout.width // 2, layout.px(26), True, layout.px(16))
        draw_text(surface, title, title_font, theme.ACCENT, (margin, layout.px(10)))
        if status:
            draw_text(surface, status, layout.font(19), theme.TEXT, (layout.width - margin, layout.px(14)),
                      "topright", max_width=layout.width // 2 - margin)

    def footer_message(self, surface, layout: Layout, rect: pygame.Rect) -> None:
        if self.message:
            draw_text(surface, self.message, fit_font(self.message, rect.width, layout.px(17), False,
                                                      layout.px(12)),
                      theme.WARNING, rect.midleft, "midleft", max_width=rect.width)

    def back_and_undo(self, layout: Layout, y: int, height: int) -> int:
        """The Back and Undo buttons at the bottom left; returns the x where the next button may start."""
        margin, gap = layout.px(14), layout.px(8)
        width = layout.px(104)
        self.add_button(Button(pygame.Rect(margin, y, width, height), self.t("common.back"), self.back))
        # Undo stays pressable on a finished game so the player is told why it does nothing.
        self.add_button(Button(pygame.Rect(margin + width + gap, y, width, height), self.t("games.undo"),
                               self.undo, icon=icons.undo, key=pygame.K_u))
        return margin + 2 * (width + gap)
