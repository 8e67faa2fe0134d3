"""ArUco markers: the printable sheet and finding the table corners (issue 3 'Table geometry')."""
import numpy as np

from vision.markers import find_table_corners, marker_sheet
from vision.synthetic import Conditions, SceneGenerator


def test_the_printed_sheet_is_readable():
    assert find_table_corners(marker_sheet(150)) is not None


def test_markers_in_a_tilted_scene_give_the_table_corners():
    scene = SceneGenerator(3, use_scans=False).render(
        {0: [[1]]}, Conditions(card_width_px=200, tilt_deg=15, tilt_axis_deg=40, markers=True, noise=1))
    corners = find_table_corners(scene.frame)
    assert corners is not None
    assert np.abs(corners - scene.table_corners).max() < 6


def test_no_markers_no_corners():
    scene = SceneGenerator(3, use_scans=False).render({0: [[1]]}, Conditions(card_width_px=200))
    assert find_table_corners(scene.frame) is None
