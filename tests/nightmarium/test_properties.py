"""Property tests (hypothesis): invariants under random legal play, exact undo, and JSON round trips."""
import json

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from companion.games.nightmarium import Game, IllegalMove, move_from_json
from companion.games.nightmarium.simulate import RandomPlayer, invariant_violations

games = st.builds(
    dict,
    seed=st.integers(0, 10_000),
    players=st.integers(2, 5),
    edition=st.sampled_from(["ru2014", "pl2017"]),
    target=st.sampled_from([5, 6, 7]),
    seals=st.booleans(),
)


def new_game(spec) -> Game:
    seals = spec["seals"] and spec["edition"] == "ru2014"
    return Game.new([f"P{i}" for i in range(spec["players"])], edition=spec["edition"], win_target=spec["target"],
                    seals=seals, seed=spec["seed"])


def play(game: Game, bot: RandomPlayer, moves: int):
    for _ in range(moves):
        if game.over:
            return
        yield bot.choose(game)


def played(spec, bot_seed: int, steps: int) -> tuple[Game, RandomPlayer]:
    """A game `steps` random moves in (fewer if it ends first), and the player that made them."""
    game = new_game(spec)
    bot = RandomPlayer(bot_seed)
    for move in play(game, bot, steps):
        game.push(move)
    return game, bot


@settings(max_examples=60, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(games, st.integers(0, 2**32))
def test_random_play_keeps_every_invariant(spec, bot_seed):
    """Card conservation, creatures of 1-3 cards in order, no table above the target, after every move."""
    game = new_game(spec)
    for move in play(game, RandomPlayer(bot_seed), 1500):
        game.push(move)
        assert invariant_violations(game) == []
        assert all(len(p.creatures) <= game.win_target for p in game.players)
    if game.over:
        assert game.players[game.winner].complete_count >= game.win_target or game.edition.key == "pl2017"


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**32), st.integers(0, 300))
def test_any_move_followed_by_undo_restores_the_exact_state(spec, bot_seed, steps):
    game, bot = played(spec, bot_seed, steps)
    if game.over:
        return
    before = json.dumps(game.to_json(), sort_keys=True)
    prompt_before = game.prompt
    game.push(bot.choose(game))
    game.pop()
    assert json.dumps(game.to_json(), sort_keys=True) == before
    assert game.prompt == prompt_before


@settings(max_examples=30, deadline=None)
@given(games, st.integers(0, 2**32), st.integers(0, 400))
def test_json_round_trip_resumes_the_same_game(spec, bot_seed, steps):
    """A saved game reloads to the same state, keeps its undo history, and plays on identically."""
    game, bot = played(spec, bot_seed, steps)
    saved = json.loads(json.dumps(game.to_json()))
    loaded = Game.from_json(saved)
    assert loaded.to_json() == saved
    assert loaded.prompt == game.prompt and sorted(map(repr, loaded.legal_moves())) == sorted(
        map(repr, game.legal_moves()))
    if game.moves:
        assert loaded.pop() == game.moves[-1]
    for move in game.moves:
        assert move_from_json(move.to_json()) == move


@settings(max_examples=40, deadline=None)
@given(games, st.integers(0, 2**32), st.integers(0, 300), st.data())
def test_refused_moves_change_nothing(spec, bot_seed, steps, data):
    """Any move that is not legal now is refused with a named rule and leaves the game untouched."""
    game = new_game(spec)
    bot = RandomPlayer(bot_seed)
    seen = []
    for move in play(game, bot, steps):
        seen.append(move)
        game.push(move)
    if not seen:
        return
    candidate = data.draw(st.sampled_from(seen))
    before = json.dumps(game.to_json(), sort_keys=True)
    try:
        game.push(candidate)
    except IllegalMove as error:
        assert error.rule and str(error)
        assert json.dumps(game.to_json(), sort_keys=True) == before
    else:
        assert game.moves[-1] == candidate


def test_every_listed_legal_move_is_accepted():
    """legal_moves() and push() agree: each listed move is accepted (checked without changing the game)."""
    game = Game.new(["A", "B", "C"], seals=True, seed=11)
    bot = RandomPlayer(11)
    checked = 0
    while not game.over and checked < 3000:
        for move in list(game.legal_moves())[:40]:
            assert game.check(move) is None, move
            checked += 1
        game.push(bot.choose(game))
    assert checked >= 3000 or game.over
