"""A settings screen opened over a strict app showing a given camera picture, and drawing it: what the calibration
and lens screens' tests share."""
import pygame

from companion.ui.render import build_screen, make_app

SIZE = (800, 480)


def render(app):
    surface = pygame.Surface(SIZE)
    app.render(surface, force=True)
    assert app.errors == []
    return surface


def open_over_settings(scene_class, frame, camera_worker=None):
    """The app and the scene (`scene_class(app)`) opened over Settings, with `frame` as the camera's latest picture
    (and `camera_worker`, if given), drawn once."""
    app = make_app(SIZE, strict=True)
    build_screen(app, "settings")
    app.latest_frame = frame
    if camera_worker is not None:
        app.camera_worker = camera_worker
    scene = scene_class(app)
    app.push(scene)
    render(app)
    return app, scene
