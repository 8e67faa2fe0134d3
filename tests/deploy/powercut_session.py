"""A scripted session for the power-cut test, run as a subprocess and killed with SIGKILL at random.

It resumes the unfinished game (or starts one), then plays as fast as it can, finishing each game when it
is won and starting the next. After each SaveStore call returns it prints one line that stands for the
screen acknowledging it: "ACK <game id> <state JSON>" after a move, "FINISHED <game id>" after finish().
Usage: python powercut_session.py DATABASE SEED
"""
import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parent))

from powercut_counter_game import CounterGame  # noqa: E402

from companion.storage.saves import SaveStore  # noqa: E402


def acknowledge(game_id: int, game: CounterGame) -> None:
    sys.stdout.write(f"ACK {game_id} {json.dumps(game.to_json(), sort_keys=True)}\n")
    sys.stdout.flush()


def start(store: SaveStore, seed: int) -> tuple[int, CounterGame]:
    game = CounterGame(seed)
    game_id = store.new_game("counter", "power-cut test", game.to_json())
    acknowledge(game_id, game)
    return game_id, game


def main(database: str, seed: int) -> None:
    store = SaveStore(database)
    unfinished = store.unfinished()
    if unfinished:
        saved = unfinished[0]
        game_id, game = saved.id, CounterGame.from_json(saved.state)
        acknowledge(game_id, game)  # the resumed game is on screen again
    else:
        finished = store.history()
        if finished:  # the last game's end is on screen again before a new game is written
            sys.stdout.write(f"FINISHED {finished[0].id}\n")
            sys.stdout.flush()
        game_id, game = start(store, seed)
    while True:
        action, amount = game.next_action()
        if action == "finish":
            store.finish(game_id, game.result())
            sys.stdout.write(f"FINISHED {game_id}\n")
            sys.stdout.flush()
            game_id, game = start(store, seed)
            continue
        if action == "undo":
            game.pop()
            store.undo_last(game_id, game.to_json())
        else:
            events = game.add(amount)
            store.record(game_id, {"add": amount}, game.to_json(), events)
        acknowledge(game_id, game)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
