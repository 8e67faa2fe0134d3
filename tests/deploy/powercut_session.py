"""A scripted session for the power-cut test, run as a subprocess and killed with SIGKILL at random.

It resumes the unfinished game (or starts one), then plays as fast as it can. After each SaveStore call
returns it prints "ACK <game id> <state JSON>": that line stands for the screen acknowledging the move.
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


def main(database: str, seed: int) -> None:
    store = SaveStore(database)
    unfinished = store.unfinished()
    if unfinished:
        saved = unfinished[0]
        game_id, game = saved.id, CounterGame.from_json(saved.state)
    else:
        game = CounterGame(seed)
        game_id = store.new_game("counter", "power-cut test", game.to_json())
    acknowledge(game_id, game)
    while True:
        action, amount = game.next_action()
        if action == "undo":
            game.pop()
            store.undo_last(game_id, game.to_json())
        else:
            events = game.add(amount)
            store.record(game_id, {"add": amount}, game.to_json(), events)
        acknowledge(game_id, game)


if __name__ == "__main__":
    main(sys.argv[1], int(sys.argv[2]))
