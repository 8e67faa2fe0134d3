"""What the camera sees (or the synthetic camera of the simulated table), next to what the referee made of it: each
card the recogniser read outlined on the picture, in its legion's colour when read surely, and marked "?" when not
(the stabiliser reports only the sure ones, so those are the cards the game does not see yet); with a table
calibration, the table's outline and its seats' numbers."""
from __future__ import annotations

import pygame

from companion.ui import icons, theme
from companion.ui.nightmarium import pictures
from companion.ui.nightmarium.base import SessionScene
from companion.ui.widgets import Button, FramePicture, draw_fitted, draw_paragraph, draw_text, frame_surface


def card_photo(frame, corners) -> pygame.Surface | None:
    """The card at `corners` in the camera's picture, upright and flat (what the card picker shows while teaching
    it), or None where it cannot be cut out."""
    try:
        import numpy as np

        from vision.cards import CARD_HEIGHT, CARD_WIDTH
        from vision.features import warp_box

        flat = warp_box(frame, np.asarray(corners, np.float64), (0, 0, CARD_WIDTH, CARD_HEIGHT), (204, 131))
    except Exception:  # no OpenCV, a degenerate quad: the picker works without the photo
        return None
    return frame_surface(flat)


def framing_off_measure(session):
    """The framing (vision.framing.Framing) of the cards the camera last read, when they are smaller or larger in
    its picture than the recogniser is measured on; None when they are as measured, nothing is read, or the
    picture is not a camera's."""
    frame, seen = session.latest_frame, session.latest_seen
    if session.mode != "camera" or frame is None or not seen:
        return None
    try:
        from vision.framing import Framing
    except ImportError:
        return None
    framing = Framing.of(seen, (frame.shape[1], frame.shape[0]))
    return None if framing is None or framing.as_measured else framing


class CameraViewScene(SessionScene):
    def __init__(self, app, session):
        super().__init__(app, session)
        self._forget_asked = False  # "forget taught cards" touched once: the next touch forgets them
        self._picture = FramePicture()
        self._kept: tuple[str, str] | None = None  # ("kept", file name) or ("failed", why) of "Keep picture"

    def after_change(self) -> None:
        self.dirty = True  # stay on the picture even when the chain starts; Back returns to it

    def on_enter(self) -> None:
        self._forget_asked = False
        self._kept = None
        if self.app.teach_status is not None and self.app.teach_status[0] != "progress":
            self.app.teach_status = None  # a finished teaching was said once; the view is about the table again
        super().on_enter()

    def draw(self, surface) -> None:
        layout = self.begin_frame(surface)
        px = layout.px
        surface.fill(theme.BACKGROUND)
        image = self._picture.of(self.session.latest_frame)
        area = pygame.Rect(px(10), px(10), layout.width - px(20), layout.height - px(90))
        unsure = 0
        if image is None:
            draw_paragraph(surface, self.t("nm.camera.none"), layout.font(20), theme.TEXT_DIM,
                           area.inflate(-px(40), -px(120)))
        else:
            placed, scale = draw_fitted(surface, image, area)
            if self.app.calibration is not None and self.session.mode == "camera":
                from companion.ui.calibration import draw_seats

                table = self.app.calibration.for_picture(image.get_width(), image.get_height())
                draw_seats(surface, layout, [(placed.left + x * scale, placed.top + y * scale)
                                             for x, y in table.table_corners], theme.TEXT_DIM)
            if self.session.mode == "camera":
                # On the picture's corner, as a phone's camera has it: the line below stays free for what to do.
                keep = pygame.Rect(0, 0, px(56), px(56))
                keep.topright = (placed.right - px(8), placed.top + px(8))
                self.add_button(Button(keep, "", self.keep_picture, icon=icons.camera))
            unsure = self._outline_cards(surface, layout, placed, scale)
        caption, warning = self.caption_and_warning(unsure)
        caption_width = layout.width - px(220)
        taught = self.taught_cards()
        if taught:
            # Teaching a card as the wrong one must not stay for good: everything taught can be forgotten here,
            # with a second touch to be sure.
            forget = pygame.Rect(layout.width - px(184), layout.height - px(70), px(170), px(56))
            label = self.t("nm.teach.forget_confirm" if self._forget_asked else "nm.teach.forget", count=taught)
            self.add_button(Button(forget, label, self.forget_taught))
            caption_width -= px(180)
        if warning:
            draw_paragraph(surface, caption, layout.font(15), theme.WARNING,
                           pygame.Rect(px(200), layout.height - px(70), caption_width, px(56)), line_gap=0)
        else:
            draw_text(surface, caption, layout.font(16), theme.TEXT_DIM, (px(200), layout.height - px(42)), "midleft",
                      max_width=caption_width)
        self.add_button(Button(pygame.Rect(px(14), layout.height - px(70), px(170), px(56)), self.t("common.back"),
                               self.app.pop, primary=True))
        self.draw_buttons(surface, layout)

    def taught_cards(self) -> int:
        """How many cards the user has taught (kept beside the taught parameters); 0 where that cannot be read.
        Counted at each redraw (a folder listing; the view redraws at most once a second for the camera's picture),
        so cards taught elsewhere (`companion vision teach`) show too."""
        if self.session.mode != "camera":
            return 0
        try:
            from vision.taught import taught_count

            return taught_count()
        except (ImportError, OSError):
            return 0

    def forget_taught(self) -> None:
        """First touch: ask again. Second: forget every taught card, and the camera reads with the built-in
        recogniser from its next frame."""
        if not self._forget_asked:
            self._forget_asked = True
            self.dirty = True
            return
        from vision.taught import TeachError, forget_taught

        self._forget_asked = False
        try:
            count = forget_taught()
        except TeachError as error:
            self.app.teach_status = ("failed", str(error))
        else:
            self.app.teach_status = ("forgotten", str(count))
            if self.app.camera_worker is not None:
                self.app.camera_worker.reload_recogniser()
        self.dirty = True

    def keep_picture(self) -> None:
        """Keep the camera's current picture (vision.photos.photos_folder), to measure the recogniser on later
        (`companion vision bench --photos`): a picture in which a card was read wrong is what the team needs."""
        from vision.photos import photos_folder, save_picture
        from vision.sources import CameraError

        try:
            self._kept = ("kept", save_picture(self.session.latest_frame, photos_folder()).name)
        except (OSError, CameraError, ValueError) as error:
            self._kept = ("failed", str(error))
        self.dirty = True

    def caption(self, unsure: int) -> str:
        """The line under the picture, `unsure` cards being marked "?" on it."""
        return self.caption_and_warning(unsure)[0]

    def caption_and_warning(self, unsure: int) -> tuple[str, bool]:
        """The line under the picture, and whether it asks the players to do something (drawn in the warning
        colour): what teaching is doing, the cards' size in the picture, the cards marked "?"."""
        if self.session.mode == "simulated":
            return self.t("camera.simulated"), False
        if self.session.camera_lost:  # the camera guard's whole line: what failed, when it retries
            return self.app.camera_message or self.t("camera.lost"), False
        camera = self.session.mode == "camera"
        if self.app.teach_status is not None:
            return self.teach_caption(), camera
        if self._kept is not None:
            state, detail = self._kept
            return self.t("nm.camera.kept" if state == "kept" else "nm.camera.keep_failed",
                          name=detail, error=detail), state != "kept"
        framing = self.framing_advice()
        if framing:
            return framing, True
        if unsure:
            return self.t("nm.camera.unsure", count=unsure), camera
        if self.session.latest_seen and camera:
            return self.t("nm.camera.touch_to_teach"), False
        return self.t("camera.ok"), False

    def framing_advice(self) -> str | None:
        """What to change when the cards read are smaller or larger in the picture than the recogniser is measured
        on (vision.framing): a camera hung too high reads far fewer cards surely, and this is where a player sees
        it. None when they are as measured, or nothing is read."""
        framing = framing_off_measure(self.session)
        if framing is None:
            return None
        from vision.framing import FEW_PIXELS, SMALL_SHARE

        key = {SMALL_SHARE: "nm.camera.cards_small", FEW_PIXELS: "nm.camera.cards_few_pixels"}.get(
            framing.problem, "nm.camera.cards_large")
        return self.t(key, length=round(framing.length), fraction=max(1, round(1 / framing.share)))

    def _outline_cards(self, surface, layout, placed: pygame.Rect, scale: float) -> int:
        """Outline the cards read in the picture shown (placed at `placed`, scaled by `scale`); returns how many were
        read less surely than the stabiliser reports."""
        from vision.stabiliser import MIN_CONFIDENCE

        unsure = 0
        for card in self.session.latest_seen or ():
            if len(card.corners) != 4:
                continue
            points = [(placed.left + x * scale, placed.top + y * scale) for x, y in card.corners]
            sure = card.confidence >= MIN_CONFIDENCE
            colour = pictures.legion_colour(card.legion) if sure else theme.WARNING
            pygame.draw.polygon(surface, colour, points, max(2, layout.px(3)))
            centre = (sum(x for x, _ in points) / 4, sum(y for _, y in points) / 4)
            if not sure:
                unsure += 1
                pygame.draw.circle(surface, theme.WARNING, centre, layout.px(14))
                draw_text(surface, "?", layout.font(20, True), theme.TEXT, centre, "center")
            # Touching a card teaches it (its facts picked by hand): a card never learned stays unsure, and a
            # printing whose colours differ is read in the wrong legion, surely, until a few of its cards are shown.
            target = pygame.Rect(0, 0, layout.px(56), layout.px(56))
            target.center = (int(centre[0]), int(centre[1]))
            self.add_button(Button(target, "", lambda card=card, frame=self._picture.frame: self.teach(card, frame),
                                   visible=False))
        return unsure

    def teach(self, card, frame) -> None:
        """Ask which card this is, then teach it from `frame`, the picture it was read in."""
        from companion.games.nightmarium import Card
        from companion.ui.nightmarium.picker import CardPicker
        from companion.ui.nightmarium.teaching import start_teaching

        if self.app.teaching is not None and self.app.teaching.running:
            return  # one at a time; the caption says how far the running one has got

        def chosen(face) -> None:
            facts = (face.legion.value, tuple(part.value for part in face.parts),
                     face.ability.value if face.ability else None)
            start_teaching(self.app, frame, card, facts)

        initial = Card.face(card.legion, card.parts, card.ability)
        self.app.push(CardPicker(self.app, self.session, "teach", initial=initial, on_face=chosen,
                                 photo=card_photo(frame, card.corners)))

    def teach_caption(self) -> str:
        state, detail = self.app.teach_status
        if state == "done":
            return self.t("nm.teach.done_colours_unclear" if detail == "unclear" else "nm.teach.done")
        if state == "failed":
            return self.t("nm.teach.failed", error=detail or "")
        if state == "forgotten":
            return self.t("nm.teach.forgotten", count=detail or "0")
        return self.t("nm.teach.progress", step=detail or "")
