"""The referee turns stable table states into engine moves (observed mode) and names the rule when it cannot."""
import pytest
from hypothesis import given, settings, strategies as st

from companion.games.nightmarium import Card, DiscardDraw, Draw, Game, Part, Play
from companion.referee import Referee
from companion.referee.simulated import SimulatedTable, feed
from companion.referee.table_view import seen_of, table_of
from vision.table_state import TableState


def observed_game(names=("Ann", "Bob", "Cleo"), edition="ru2014"):
    return Game.new(list(names), edition=edition, observed=True)


def with_column(table: TableState, seat: int, column) -> TableState:
    seats = dict(table.seats)
    seats[seat] = table.creatures(seat) + (tuple(column),)
    return TableState(seats=seats, discard_top=table.discard_top)


def face(legion, parts, ability=None):
    return Card.face(legion, parts, ability)


def play_through(seed: int, players: int, edition: str, seals: bool = False):
    names = [f"P{index}" for index in range(players)]
    table = SimulatedTable(names, seed=seed, edition=edition, seals=seals)
    referee = Referee(Game.new(names, edition=edition, seals=seals, observed=True))
    while not table.over:
        for happening in table.step():
            outcome = feed(referee, happening)
            assert outcome.warning is None, (happening, outcome.warning)
            if happening.kind == "table":
                assert columns(referee.expected_table()) == columns(happening.payload)
    return table, referee


def columns(table: TableState):
    """Each seat's creatures as card faces, in any order (creatures with the same cards are interchangeable)."""
    return {seat: sorted(tuple((c.legion, c.parts, c.ability or "") for c in column) for column in creatures)
            for seat, creatures in table.seats.items()}


@pytest.mark.parametrize("seed,players,edition", [
    (0, 3, "pl2017"), (1, 2, "ru2014"), (2, 4, "pl2017"), (3, 5, "ru2014"),
    # Herald's pictures are ambiguous here: one revealed card is discarded onto a same-looking card (113) or
    # stays pending while the other is placed (50); the referee must revise its first reading (RULES.md 1.8).
    (113, 3, "ru2014"), (50, 4, "pl2017"),
    # ...or the players press an action while the engine still waits for Herald's last card (395)
    (395, 5, "ru2014"),
    # ...or they reveal the cards of a later Herald in the same chain, an answer to a prompt still to come (2257;
    # found by the property test below)
    (2257, 4, "ru2014"),
    # ...or Herald's card starts a creature that the chain's Devourer eats before the table is still: the camera
    # never sees that creature, only the card on the discard pile (13955; found by the property test below)
    (13955, 3, "ru2014"),
    # ...or Herald puts heads on two creatures that looked alike, the referee tells them apart the other way round,
    # and the players then point at which creature goes first by its cards (1819; found by the property test below)
    (1819, 5, "pl2017")])
def test_a_scripted_game_goes_from_observed_tables_to_a_win(seed, players, edition):
    """RULES.md 1.11: the observed game reaches the same winner as the game the simulated players really played,
    from table states and button presses only; no table was ever refused."""
    table, referee = play_through(seed, players, edition)
    assert table.game.over
    assert referee.game.winner == table.game.winner
    assert referee.game.turn == table.game.turn
    assert [p.complete_count for p in referee.game.players] == [p.complete_count for p in table.game.players]


@pytest.mark.parametrize("seed,players", [(52, 2), (7, 3), (8, 5)])
def test_a_game_with_seals_is_followed_to_a_win(seed, players):
    """RULES.md 1.13 / RU rulebook: seals are played on complete creatures, their replay is optional ("вы можете":
    the rulebook wins over RULES.md N8's "mandatory"), embodied creatures are untouchable."""
    table, referee = play_through(seed, players, "ru2014", seals=True)
    assert any(event["type"] == "seal" for event in referee.game.events), "the game should exercise seals"
    assert referee.game.winner == table.game.winner


@settings(max_examples=8, deadline=None)
@given(seed=st.integers(1000, 10 ** 6), players=st.integers(2, 5), edition=st.sampled_from(["ru2014", "pl2017"]),
       seals=st.booleans())
def test_any_simulated_game_is_followed_to_its_end(seed, players, edition, seals):
    seals = seals and edition == "ru2014"  # only the Russian edition has seals
    table, referee = play_through(seed, players, edition, seals)
    assert referee.game.winner == table.game.winner


def test_a_card_placed_as_legs_becomes_a_play():
    """RULES.md 1.5: legs start a new creature."""
    game = observed_game()
    referee = Referee(game)
    legs = face("red", ("legs",), "jester")
    outcome = referee.observe(with_column(referee.expected_table(), 0, [seen_of(legs, 0, 0, "legs")]))
    assert outcome.warning is None
    assert outcome.moves == [Play(legs, None, Part.LEGS)]
    assert game.players[0].creatures[0].cards[0][0].same_face(legs)
    assert game.actions_left == 1


def refused(referee, table):
    before = referee.game.to_json()
    outcome = referee.observe(table)
    assert outcome.moves == []
    assert referee.game.to_json() == before, "a refused observation must leave the game untouched"
    return outcome.warning


def test_a_torso_without_legs_is_refused_naming_the_rule():
    """RULES.md 1.5: a torso goes only onto one of your creatures that has legs and nothing else."""
    referee = Referee(observed_game())
    torso = face("blue", ("torso",))
    warning = refused(referee, with_column(referee.expected_table(), 0, [seen_of(torso, 0, 0, "legs")]))
    assert warning.rule == "placement.part-not-on-card"
    assert "torso" in warning.message


def test_a_second_play_of_another_legion_is_refused():
    """RULES.md 1.6: the card of the second Play action must share the first one's legion."""
    referee = Referee(observed_game())
    first = face("red", ("legs",))
    table = with_column(referee.expected_table(), 0, [seen_of(first, 0, 0, "legs")])
    assert referee.observe(table).warning is None
    second = face("green", ("legs",))
    warning = refused(referee, with_column(table, 0, [seen_of(second, 0, 1, "legs")]))
    assert warning.rule == "same-legion"


def test_cards_appearing_in_front_of_another_player_are_refused():
    """RULES.md 1.5: cards are only ever placed on your own creatures, on your turn."""
    referee = Referee(observed_game())
    legs = face("red", ("legs",))
    warning = refused(referee, with_column(referee.expected_table(), 1, [seen_of(legs, 1, 0, "legs")]))
    assert warning.rule == "turn.not-your-turn"
    assert "Bob" in warning.message and "Ann" in warning.message


def test_a_card_taken_away_without_an_ability_is_refused():
    """RULES.md 1.8: only Executioner, Scavenger and Devourer take cards off creatures."""
    referee = Referee(observed_game())
    legs = face("red", ("legs",))
    table = with_column(referee.expected_table(), 0, [seen_of(legs, 0, 0, "legs")])
    referee.observe(table)
    referee.press(Draw())  # Ann's second action: Bob's turn
    assert referee.game.active == 1
    warning = refused(referee, TableState(seats={0: (), 1: (), 2: ()}))
    assert warning.rule == "table.card-removed"


def test_a_pending_penalty_must_be_answered_before_the_table_moves_on():
    """RULES.md 1.7 step 2: the pure-legion discard comes before any ability."""
    game = Game.from_position([
        {"name": "Ann", "hand": [None, None],
         "creatures": [[(face("blue", ("legs",)), Part.LEGS), (face("blue", ("torso",)), Part.TORSO)]]},
        {"name": "Bob", "hand": [None, None, None], "creatures": []}], deck_top_first=[None] * 10, observed=True)
    referee = Referee(game)
    head = face("blue", ("head",))
    column = [seen_of(card, 0, 0, part.value) for card, part in game.players[0].creatures[0].cards]
    table = referee.expected_table()
    completed = TableState(seats={0: (tuple(column + [seen_of(head, 0, 0, "head")]),), 1: ()})
    outcome = referee.observe(completed)
    assert outcome.warning is None
    assert game.prompt.kind == "penalty"
    more = with_column(completed, 0, [seen_of(face("blue", ("legs",)), 0, 1, "legs")])
    warning = refused(referee, more)
    assert warning.rule in ("penalty.pending", "turn.prompt-pending")
    assert table.seats != completed.seats


def test_a_misread_card_is_corrected_and_the_game_replayed():
    referee = Referee(observed_game())
    misread = face("red", ("legs",))
    referee.observe(with_column(referee.expected_table(), 0, [seen_of(misread, 0, 0, "legs")]))
    referee.press(Draw())
    creature = referee.game.players[0].creatures[0]
    actual = face("red", ("legs", "torso"), "herald")
    outcome = referee.correct_card(creature.id, 0, actual)
    assert outcome.warning is None
    assert referee.game.players[0].creatures[0].cards[0][0].same_face(actual)
    assert referee.game.active == 1, "the moves after the corrected one are replayed"


def test_a_correction_that_breaks_a_later_move_changes_nothing():
    """RULES.md 1.6: correcting the first card to another legion makes the second Play illegal."""
    referee = Referee(observed_game())
    first, second = face("red", ("legs",)), face("red", ("legs",), "mourner")
    table = with_column(referee.expected_table(), 0, [seen_of(first, 0, 0, "legs")])
    referee.observe(table)
    referee.observe(with_column(table, 0, [seen_of(second, 0, 1, "legs")]))
    before = referee.game.to_json()
    outcome = referee.correct_card(referee.game.players[0].creatures[0].id, 0, face("blue", ("legs",)))
    assert outcome.warning is not None and outcome.warning.rule == "same-legion"
    assert referee.game.to_json() == before


def test_buttons_feed_what_the_camera_cannot_see():
    """RULES.md 1.4 B: discard-and-draw; RU rounds down (2 discarded -> 1 drawn)."""
    game = Game.from_position([{"name": "Ann", "hand": [None, None, None], "creatures": []},
                               {"name": "Bob", "hand": [], "creatures": []}],
                              deck_top_first=[None] * 10, observed=True)
    referee = Referee(game)
    outcome = referee.press(DiscardDraw((face("red", ("legs",)), face("blue", ("head",)))))
    assert outcome.warning is None
    assert len(game.players[0].hand) == 2


def test_table_of_a_game_round_trips_through_json():
    game = Game.new(["Ann", "Bob"], seed=3)
    table = table_of(game)
    assert TableState.from_json(table.to_json()) == table


def completed_with(ability: str, bob_cards: int):
    """Ann completes a creature whose head has `ability`; Bob has one incomplete creature of `bob_cards` cards."""
    bob_column = [(face("green", ("legs",)), Part.LEGS), (face("red", ("torso",)), Part.TORSO)][:bob_cards]
    game = Game.from_position([
        {"name": "Ann", "hand": [None, None],
         "creatures": [[(face("blue", ("legs",)), Part.LEGS), (face("red", ("torso",)), Part.TORSO)]]},
        {"name": "Bob", "hand": [None, None], "creatures": [bob_column]}], deck_top_first=[None] * 10,
        observed=True)
    referee = Referee(game)
    table = referee.expected_table()
    head = face("green", ("head",), ability)
    ann = table.creatures(0)[0] + (seen_of(head, 0, 0, "head"),)
    completed = TableState(seats={0: (ann,), 1: table.creatures(1)})
    assert referee.observe(completed).warning is None
    assert game.prompt.kind == ability
    return referee, completed


def test_the_scavenger_takes_a_whole_creature_not_its_top_card():
    """RULES.md 1.8 Scavenger: discard all cards of one incomplete creature of another player."""
    referee, table = completed_with("scavenger", 2)
    top_taken = TableState(seats={0: table.creatures(0), 1: ((table.creatures(1)[0][0],),)})
    assert refused(referee, top_taken).rule == "scavenger.whole-creature"
    gone = TableState(seats={0: table.creatures(0), 1: ()})
    assert referee.observe(gone).warning is None
    assert referee.game.players[1].creatures == []


def test_the_executioner_takes_only_the_top_card():
    """RULES.md 1.8 Executioner: take the top card of another player's creature into your hand."""
    referee, table = completed_with("executioner", 2)
    gone = TableState(seats={0: table.creatures(0), 1: ()})
    assert refused(referee, gone).rule == "executioner.top-card-only"
    top_taken = TableState(seats={0: table.creatures(0), 1: ((table.creatures(1)[0][0],),)})
    assert referee.observe(top_taken).warning is None
    hand = referee.game.players[0].hand
    assert len(hand) == 2 and hand[-1].same_face(face("red", ("torso",))), "the taken card went to Ann's hand"
