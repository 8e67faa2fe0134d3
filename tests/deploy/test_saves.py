"""Saved games: every write committed, undo persisted, history kept, unusable files moved aside, never deleted."""
import json
import sqlite3

import pytest
from hypothesis import given, settings, strategies as st

from companion.storage.saves import APPLICATION_ID, SaveError, SaveStore


@pytest.fixture
def store(tmp_path):
    with SaveStore(tmp_path / "state" / "companion.db") as opened:
        yield opened


def test_a_game_round_trips_state_events_and_moves(store):
    game = store.new_game("nightmarium", "Tuesday game", {"turn": 0})
    store.record(game, {"action": "draw"}, {"turn": 1}, [{"type": "drew", "card": 7}])
    store.record(game, None, {"turn": 2}, [{"type": "a"}, {"type": "b"}])
    loaded = store.load(game)
    assert (loaded.kind, loaded.title, loaded.state) == ("nightmarium", "Tuesday game", {"turn": 2})
    assert loaded.events == [{"type": "drew", "card": 7}, {"type": "a"}, {"type": "b"}]
    assert loaded.moves == 2 and loaded.finished is None and loaded.result is None


def test_record_is_visible_to_another_connection_as_soon_as_it_returns(store):
    """Issue 6: "every action is committed before the screen acknowledges it"."""
    game = store.new_game("attic", "t", {"n": 0})
    store.record(game, {"m": 1}, {"n": 1}, [])
    other = sqlite3.connect(store.path)
    try:
        assert json.loads(other.execute("SELECT state FROM games WHERE id = ?", (game,)).fetchone()[0]) == {"n": 1}
        assert other.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
    finally:
        other.close()


def test_undo_is_persisted_and_removes_the_undone_events(tmp_path):
    path = tmp_path / "g.db"
    with SaveStore(path) as store:
        game = store.new_game("nemesis", "t", {"n": 0})
        store.record(game, {"m": 1}, {"n": 1}, [{"e": 1}])
        store.record(game, {"m": 2}, {"n": 2}, [{"e": 2}])
        store.undo_last(game, {"n": 1})
    with SaveStore(path) as reopened:
        loaded = reopened.load(game)
        assert loaded.state == {"n": 1} and loaded.events == [{"e": 1}] and loaded.moves == 1
        reopened.undo_last(game, {"n": 0})
        with pytest.raises(SaveError, match="no move to undo"):
            reopened.undo_last(game, {"n": 0})


def test_finished_games_leave_unfinished_and_appear_in_history_newest_first(tmp_path):
    stamps = iter(f"2026-01-01T00:00:{second:02d}+00:00" for second in range(60))
    with SaveStore(tmp_path / "g.db", now=lambda: next(stamps)) as store:
        first = store.new_game("cthulhu", "first", {})
        second = store.new_game("cthulhu", "second", {})
        third = store.new_game("cthulhu", "third", {})
        store.finish(first, {"winner": "Ann"})
        store.finish(second, {"winner": "Bob"})
        assert [game.id for game in store.unfinished()] == [third]
        assert [(game.id, game.result) for game in store.history()] == [(second, {"winner": "Bob"}),
                                                                         (first, {"winner": "Ann"})]
        with pytest.raises(SaveError, match="already finished"):
            store.record(first, None, {}, [])


def test_unfinished_lists_the_most_recently_played_first(tmp_path):
    stamps = iter(f"2026-01-01T00:00:{second:02d}+00:00" for second in range(60))
    with SaveStore(tmp_path / "g.db", now=lambda: next(stamps)) as store:
        older = store.new_game("attic", "older", {})
        newer = store.new_game("attic", "newer", {})
        store.record(older, None, {"x": 1}, [])
        assert [game.id for game in store.unfinished()] == [older, newer]


def test_bad_input_is_refused_with_a_message_and_changes_nothing(store):
    game = store.new_game("attic", "t", {"n": 1})
    with pytest.raises(SaveError, match="not plain JSON"):
        store.record(game, {"m": object()}, {"n": 2}, [])
    with pytest.raises(SaveError, match="no saved game number 99"):
        store.record(99, None, {}, [])
    with pytest.raises(SaveError, match="no saved game number 99"):
        store.load(99)
    assert store.load(game).state == {"n": 1} and store.load(game).moves == 0


@pytest.mark.parametrize("content, reason", [
    (b"this is not sqlite at all, just a text file\n" * 50, "not a readable saved-games database"),
    (b"SQLite format 3\x00" + b"\x00\xff" * 600, "not a readable"),
])
def test_a_corrupt_file_is_moved_aside_and_a_new_database_started(tmp_path, content, reason):
    path = tmp_path / "companion.db"
    path.write_bytes(content)
    with SaveStore(path) as store:
        assert store.recovery_message and reason in store.recovery_message
        assert store.load(store.new_game("attic", "fresh", {})).title == "fresh"
    kept = [p for p in tmp_path.iterdir() if ".unusable-" in p.name]
    assert len(kept) == 1 and kept[0].read_bytes() == content
    assert str(kept[0]) in store.recovery_message


def test_a_foreign_database_is_moved_aside_not_modified(tmp_path):
    path = tmp_path / "companion.db"
    foreign = sqlite3.connect(path)
    foreign.execute("CREATE TABLE recipes (name TEXT)")
    foreign.execute("INSERT INTO recipes VALUES ('soup')")
    foreign.commit()
    foreign.close()
    with SaveStore(path) as store:
        assert "another program's database" in store.recovery_message
        assert store.unfinished() == []
    kept = next(p for p in tmp_path.iterdir() if p.name.startswith("companion.db.unusable-") and
                not p.name.endswith(("-wal", "-shm")))
    check = sqlite3.connect(kept)
    assert check.execute("SELECT name FROM recipes").fetchall() == [("soup",)]
    check.close()


def test_moving_aside_twice_keeps_both_files(tmp_path):
    path = tmp_path / "companion.db"
    for attempt in range(2):
        path.write_bytes(b"junk %d " % attempt * 200)
        SaveStore(path).close()
    assert len([p for p in tmp_path.iterdir() if ".unusable-" in p.name]) == 2


def test_a_healthy_database_is_reopened_without_a_message(tmp_path):
    path = tmp_path / "companion.db"
    with SaveStore(path) as store:
        game = store.new_game("attic", "t", {"k": [1, 2]})
    with SaveStore(path) as store:
        assert store.recovery_message is None
        assert store.load(game).state == {"k": [1, 2]}
        assert sqlite3.connect(path).execute("PRAGMA application_id").fetchone()[0] == APPLICATION_ID


def test_an_unwritable_folder_is_a_save_error(tmp_path):
    blocker = tmp_path / "file"
    blocker.write_text("x")
    with pytest.raises(SaveError, match="cannot create the folder"):
        SaveStore(blocker / "sub" / "companion.db")


json_values = st.recursive(st.none() | st.booleans() | st.integers() | st.text(max_size=8),
                           lambda children: st.lists(children, max_size=3)
                           | st.dictionaries(st.text(max_size=5), children, max_size=3), max_leaves=10)


@settings(max_examples=30, deadline=None)
@given(steps=st.lists(st.tuples(st.booleans(), st.dictionaries(st.text(max_size=5), json_values, max_size=3)),
                      max_size=12))
def test_state_after_any_sequence_of_records_and_undos_matches_a_model(tmp_path_factory, steps):
    """Property: the stored state and event log equal a plain in-memory model of records and undos."""
    path = tmp_path_factory.mktemp("prop") / "g.db"
    with SaveStore(path) as store:
        game = store.new_game("nightmarium", "p", {"start": True})
        model_states, model_events = [{"start": True}], []
        for is_undo, state in steps:
            if is_undo and model_events:
                model_states.pop()
                model_events.pop()
                store.undo_last(game, model_states[-1])
            else:
                model_states.append(state)
                model_events.append([{"state": state}])
                store.record(game, {"step": len(model_events)}, state, model_events[-1])
        loaded = store.load(game)
        assert loaded.state == model_states[-1]
        assert loaded.events == [event for batch in model_events for event in batch]
        assert store.integrity() == "ok"


def test_a_half_written_wal_after_a_power_cut_opens_at_the_last_commit(tmp_path):
    """A cut mid-write leaves a torn frame at the WAL's end; SQLite's checksums make it roll back to the commit."""
    import shutil

    live = tmp_path / "live.db"
    store = SaveStore(live)
    game = store.new_game("attic", "t", {"n": 0})
    for n in range(1, 6):
        store.record(game, {"m": n}, {"n": n}, [{"n": n}])
    # Copy the files while the store is still open: that is what the card holds when the power goes.
    snapshot = tmp_path / "cut" / "companion.db"
    snapshot.parent.mkdir()
    shutil.copy(live, snapshot)
    shutil.copy(live.with_name("live.db-wal"), snapshot.with_name("companion.db-wal"))
    store.close()
    with open(snapshot.with_name("companion.db-wal"), "ab") as wal:
        wal.write(b"\x37\x7f\x06\x82" + bytes(range(256)) * 8)  # a torn, half-written frame
    with SaveStore(snapshot) as reopened:
        assert reopened.recovery_message is None
        assert reopened.load(game).state == {"n": 5} and reopened.load(game).moves == 5
        assert reopened.integrity() == "ok"


def test_a_truncated_database_file_is_moved_aside(tmp_path):
    path = tmp_path / "companion.db"
    with SaveStore(path) as store:
        game = store.new_game("attic", "t", {"blob": "x" * 20_000})
        for n in range(30):
            store.record(game, {"m": n}, {"blob": str(n) * 5_000}, [{"n": n}])
    data = path.read_bytes()
    path.write_bytes(data[: len(data) * 6 // 10])
    with SaveStore(path) as store:
        assert store.recovery_message and "kept as" in store.recovery_message
        assert store.unfinished() == []
    kept = [p for p in tmp_path.iterdir() if ".unusable-" in p.name]
    assert len(kept) == 1 and kept[0].stat().st_size == len(data) * 6 // 10
