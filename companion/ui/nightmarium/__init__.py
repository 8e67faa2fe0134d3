"""Nightmarium screens: setup, live table, ability chain, card entry, log, win."""
from companion.ui.screens import register_game, register_screen


def _setup(app):
    from companion.ui.nightmarium.setup import SetupScene

    return SetupScene(app)


def _table(app):
    from companion.ui.nightmarium import samples
    from companion.ui.nightmarium.table import TableScene

    return TableScene(app, samples.played_session(app, samples.mid_game))


def _chain(app):
    from companion.ui.nightmarium import samples
    from companion.ui.nightmarium.chain import ChainScene

    return ChainScene(app, samples.played_session(app, samples.chain_with_target))


def _win(app):
    from companion.ui.nightmarium import samples
    from companion.ui.nightmarium.win import WinScene

    return WinScene(app, samples.played_session(app, samples.finished))


def _log(app):
    from companion.ui.nightmarium import samples
    from companion.ui.nightmarium.log import LogScene

    return LogScene(app, samples.played_session(app, samples.mid_game))


def _picker(app):
    from companion.ui.nightmarium import samples
    from companion.ui.nightmarium.picker import CardPicker

    return CardPicker(app, samples.played_session(app, samples.mid_game), purpose="play")


def _warning(app):
    """The table with a warning: a torso put down where no legs wait for it."""
    from companion.games.nightmarium import Card
    from companion.ui.nightmarium import samples
    from companion.ui.nightmarium.table import TableScene
    from companion.referee.table_view import seen_of
    from vision.table_state import TableState

    session = samples.played_session(app, samples.mid_game)
    table = session.referee.expected_table()
    seat = session.referee.seat_of_player[session.game.active]
    torso = seen_of(Card.face("red", ("torso",), "jester"), seat, len(table.creatures(seat)), "legs")
    seats = dict(table.seats)
    seats[seat] = table.creatures(seat) + ((torso,),)
    session.observe(TableState(seats=seats, discard_top=table.discard_top))
    return TableScene(app, session)


def _camera(app):
    """The camera view with the simulated table's picture (real scans when ../shared/cards is there)."""
    from companion.referee.simulated import SimulatedTable
    from companion.ui.nightmarium import samples
    from companion.ui.nightmarium.camera_view import CameraViewScene
    from companion.ui.nightmarium.session import PICTURE_SIZE, picture_conditions

    session = samples.played_session(app, samples.mid_game)
    try:
        from vision.synthetic import SceneGenerator

        table = SimulatedTable(["Ann", "Bob", "Cleo"], seed=3)
        while table.game.turn < 14 and not table.over:
            table.step()
        session.latest_frame = SceneGenerator(seed=3, size=PICTURE_SIZE).render(table.layout(), picture_conditions(),
                                                                               deck=True).frame
    except Exception:  # no OpenCV here: the view says there is no picture yet
        session.latest_frame = None
    return CameraViewScene(app, session)


def _creature(app):
    from companion.ui.nightmarium import samples
    from companion.ui.nightmarium.picker import CreatureCards

    session = samples.played_session(app, samples.mid_game)
    tallest = max((c for p in session.game.players for c in p.creatures), key=lambda c: len(c.cards))
    return CreatureCards(app, session, tallest.id)


def _keyboard(app):
    from companion.ui.keyboard import TextEntry
    from companion.ui.i18n import t

    return TextEntry(app, t("nm.setup.name", app.lang, seat=1), "Ann", lambda name: None)


register_game("nightmarium", "game.nightmarium", _setup)
register_screen("nightmarium-setup", _setup)
register_screen("nightmarium-table", _table)
register_screen("nightmarium-chain", _chain)
register_screen("nightmarium-win", _win)
register_screen("nightmarium-log", _log)
register_screen("nightmarium-picker", _picker)
register_screen("nightmarium-warning", _warning)
register_screen("nightmarium-camera", _camera)
register_screen("nightmarium-creature", _creature)
register_screen("name-keyboard", _keyboard)
