"""`companion screenshot NAME --out FILE.png [--size WxH] [--lang L]` renders a screen; bad input gets a message."""
import pygame

from companion.cli import main


def test_screenshot_writes_a_png_of_the_asked_size(tmp_path, capsys):
    out = tmp_path / "shots" / "table.png"
    assert main(["screenshot", "nightmarium-table", "--out", str(out), "--size", "1280x720", "--lang", "pl"]) == 0
    image = pygame.image.load(str(out))
    assert image.get_size() == (1280, 720)
    assert "nightmarium-table" in capsys.readouterr().out


def test_an_unknown_screen_or_unwritable_file_is_a_message_not_a_traceback(tmp_path, capsys):
    assert main(["screenshot", "no-such-screen", "--out", str(tmp_path / "x.png")]) == 2
    assert "unknown screen" in capsys.readouterr().err
    blocker = tmp_path / "file"
    blocker.write_text("not a folder")
    assert main(["screenshot", "launcher", "--out", str(blocker / "x.png")]) == 1
    assert "could not write" in capsys.readouterr().err


def test_the_list_names_every_screen_the_issue_asks_for(capsys):
    assert main(["screenshot", "--list"]) == 0
    names = capsys.readouterr().out.split()
    for name in ("launcher", "nightmarium-setup", "nightmarium-table", "nightmarium-chain", "nightmarium-win",
                 "settings", "history"):
        assert name in names
