"""`make run` on a machine with no camera and no GPIO: the app opens on the simulated table and saves the game."""
import sqlite3

from companion.ui.run import run


def test_run_opens_the_simulated_table_and_saves_it(tmp_path, monkeypatch):
    monkeypatch.setenv("XDG_STATE_HOME", str(tmp_path / "state"))
    monkeypatch.setenv("COMPANION_HOME", str(tmp_path / "home"))
    monkeypatch.delenv("STATE_DIRECTORY", raising=False)
    monkeypatch.setenv("COMPANION_CONFIG", str(tmp_path / "absent.toml"))
    assert run(size=(800, 480), windowed=True, simulate=True, stop_after=1.0) == 0
    database = tmp_path / "state" / "companion" / "companion.db"
    games = sqlite3.connect(database).execute("SELECT kind, title FROM games").fetchall()
    assert games == [("nightmarium", "Ann · Bob · Cleo")]
