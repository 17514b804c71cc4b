"""The Tower, one or more scenarios per rule id (docs/RULES.md 3, R-TOWER-*).

The start tile BA/RCr lies at (0,0): city N, road E+W, field S. In the main scenario Ann's thief
stands on a road tile at (1,0) and Bob raises a tower at (1,1), right below it.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from domain.aggregate import Game
from domain.bots import play_bot_game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import tower as tw
from domain.moves import Decision, expected_step, legal_commands
from domain.readings import rule_set
from domain.replay import replay
from domain.rules import RuleSet
from domain.state import Phase
from domain.store import open_store
from domain.tiles import TILES
from projections.analytics import export_analytics
from projections.explain import explain_turn
from replays.jcz import JCZ_READING
from replays.jcz_export import export_jcz
from replays.sources import import_jcz

ANN, BOB = 0, 1
SETS = ("base", "ic", "river", "tower")


def start(draw_order: Sequence[str], players: Sequence[str] = ("Ann", "Bob")) -> Game:
    return Game.start(tuple(players), list(draw_order), expansions=("base", "tower"))


def place(game: Game, x: int, y: int, rotation: int = 0, then: Command | None = None) -> None:
    player = game.state.current
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    if then is not None:
        game.execute(player, then)
    elif game.state.phase == Phase.ACTION:
        game.execute(player, Pass())


def captured_by_bob() -> Game:
    """Ann's thief on the road at (1,0); Bob's tower at (1,1) raised once takes it."""
    game = start(["BA/RFr", "TO/F", "BA/L", "BA/L", "BA/L", "BA/L"])
    place(game, 1, 0, then=Deploy(location="E+W"))
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))
    game.execute(BOB, tw.PlaceTowerPiece(x=1, y=1))
    assert expected_step(game.state) == Decision("capture", BOB)
    game.execute(BOB, tw.CaptureFollower(x=1, y=0, location="E+W", owner=ANN))
    return game


def test_R_TOWER_1_eighteen_tiles_each_with_a_tower() -> None:
    tower_tiles = [t for t in TILES.values() if t.expansion == "tower"]
    assert sum(t.count for t in tower_tiles) == 18
    assert all("tower" in t.tags for t in tower_tiles)


@pytest.mark.parametrize(("players", "pieces"), [(2, 10), (3, 9), (4, 7), (5, 6), (6, 5)])
def test_R_TOWER_2_pieces_by_player_count(players: int, pieces: int) -> None:
    game = start(["BA/L"], [f"P{i}" for i in range(players)])
    assert tw.towers(game.state).pieces == [pieces] * players


def test_R_TOWER_3_a_piece_instead_of_deploying_raises_any_open_tower() -> None:
    game = start(["TO/F", "BA/L", "BA/L"])
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert tw.PlaceTowerPiece(x=0, y=1) in legal_commands(game.state)
    game.execute(ANN, tw.PlaceTowerPiece(x=0, y=1))
    own = tw.towers(game.state)
    assert own.heights == {(0, 1): 1} and own.pieces == [9, 10]
    assert game.state.phase != Phase.ACTION  # it was the player's action: no deployment after it
    # Bob's turn: the tower on another tile is still open to him.
    game.execute(BOB, PlaceTile(x=-1, y=1, rotation=0))
    assert tw.PlaceTowerPiece(x=0, y=1) in legal_commands(game.state)


def test_R_TOWER_4_a_raised_tower_takes_a_follower_in_its_row_or_column_within_its_height() -> None:
    game = captured_by_bob()
    own = tw.towers(game.state)
    assert own.prisoners == [[], [(ANN, "follower")]]
    assert game.state.supply == [6, 7]
    assert not any(game.state.followers(f) for f in game.state.board.graph.roots())


def test_R_TOWER_4_out_of_reach_and_passing() -> None:
    game = start(["BA/RFr", "TO/F", "BA/L"])
    place(game, 1, 0, then=Deploy(location="E+W"))
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=0))  # column 0, row 1: (1,0) is diagonal
    game.execute(BOB, tw.PlaceTowerPiece(x=0, y=1))
    assert expected_step(game.state) == Decision("place", ANN)  # nobody within reach: no capture
    assert game.state.supply == [6, 7]
    with pytest.raises(RuleViolation):
        game.execute(BOB, tw.CaptureFollower(x=1, y=0, location="E+W", owner=ANN))
    game = start(["BA/RFr", "TO/F", "BA/L"])
    place(game, 1, 0, then=Deploy(location="E+W"))
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))
    game.execute(BOB, tw.PlaceTowerPiece(x=1, y=1))
    game.execute(BOB, Pass())  # a capture may be declined
    assert tw.towers(game.state).prisoners == [[], []] and game.state.supply == [6, 7]


def test_R_TOWER_5_ones_own_follower_goes_home() -> None:
    game = start(["BA/RFr", "BA/L", "TO/F", "BA/L"])
    place(game, 1, 0, then=Deploy(location="E+W"))
    place(game, 0, 1)
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    game.execute(ANN, tw.PlaceTowerPiece(x=1, y=1))
    game.execute(ANN, tw.CaptureFollower(x=1, y=0, location="E+W", owner=ANN))
    assert tw.towers(game.state).prisoners == [[], []] and game.state.supply == [7, 7]


def test_R_TOWER_6_prisoners_held_both_ways_are_exchanged() -> None:
    game = captured_by_bob()
    place(game, 0, 1)  # Ann: a cloister left of the tower
    place(game, 2, 1, then=Deploy(location="cloister"))  # Bob: a monk right of it
    game.execute(ANN, PlaceTile(x=0, y=2, rotation=0))
    game.execute(ANN, tw.PlaceTowerPiece(x=1, y=1))  # height 2
    game.execute(ANN, tw.CaptureFollower(x=2, y=1, location="cloister", owner=BOB))
    assert any(isinstance(e, tw.PrisonersExchanged) for e in game.pending)
    assert tw.towers(game.state).prisoners == [[], []]
    assert game.state.supply == [7, 7]
    replay(game.pending)  # the exchange the capture brings replays as recorded


def test_R_TOWER_7_a_ransom_of_three_points_frees_a_prisoner() -> None:
    game = captured_by_bob()
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert tw.PayRansom(jailer=BOB) in legal_commands(game.state)
    game.execute(ANN, tw.PayRansom(jailer=BOB))
    assert game.state.scores == [-3, 3] and game.state.supply == [7, 7]
    assert tw.towers(game.state).prisoners == [[], []]
    assert game.state.phase == Phase.ACTION  # the turn's action is still to come
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, tw.PayRansom(jailer=BOB))
    assert refused.value.rule == "R-TOWER-7"


@pytest.mark.parametrize("jailer", [-1, 2, 99])
def test_R_TOWER_7_a_ransom_names_a_seat_at_the_table(jailer: int) -> None:
    """-1 would read as the last seat if taken as a list index: Bob, who holds Ann's prisoner."""
    game = captured_by_bob()
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, tw.PayRansom(jailer=jailer))
    assert refused.value.rule == "R-TOWER-7"
    assert tw.towers(game.state).prisoners == [[], [(ANN, "follower")]]


def test_R_TOWER_8_a_follower_on_top_closes_the_tower() -> None:
    game = captured_by_bob()
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    game.execute(ANN, tw.GuardTower(x=1, y=1))
    assert tw.towers(game.state).guards == {(1, 1): (ANN, "follower")}
    game.execute(BOB, PlaceTile(x=2, y=1, rotation=0))
    assert tw.PlaceTowerPiece(x=1, y=1) not in legal_commands(game.state)
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, tw.PlaceTowerPiece(x=1, y=1))
    assert refused.value.rule == "R-TOWER-8"


def test_R_TOWER_8_only_a_raised_tower_takes_a_follower_on_top() -> None:
    game = start(["TO/F", "BA/L"])
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert not any(isinstance(c, tw.GuardTower) for c in legal_commands(game.state))
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, tw.GuardTower(x=0, y=1))
    assert refused.value.rule == "R-TOWER-8"


def test_R_TOWER_9_followers_on_towers_and_prisoners_score_nothing() -> None:
    game = captured_by_bob()
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    game.execute(ANN, tw.GuardTower(x=1, y=1))
    place(game, 2, 1)
    place(game, 0, 2)
    place(game, 2, 2)
    assert game.state.over
    assert not any(a.category == "tower" for a in game.state.awards)
    assert game.state.supply == [6, 7]  # the guard is home, the prisoner still jailed
    assert tw.towers(game.state).guards == {}
    assert tw.towers(game.state).prisoners == [[], [(ANN, "follower")]]


@pytest.mark.parametrize("alone", [True, False])
def test_JCZ_TOWER_RANSOM_a_ransom_alone_opens_the_action_step_only_by_the_printed_rules(alone: bool) -> None:
    rules = rule_set(followers=2, ransom_alone=alone)
    game = Game.start(
        ("Ann", "Bob"),
        ["BA/RFr", "TO/F", "BA/L", "BA/L", "BA/L", "BA/L"],
        expansions=("base", "tower"),
        rules=rules,
    )
    place(game, 1, 0, then=Deploy(location="E+W"))
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))
    game.execute(BOB, tw.PlaceTowerPiece(x=1, y=1))
    game.execute(BOB, tw.CaptureFollower(x=1, y=0, location="E+W", owner=ANN))
    place(game, 0, 1, then=Deploy(location="cloister"))  # Ann's last follower
    place(game, 0, 2, then=tw.GuardTower(x=1, y=1))  # Bob closes the only tower
    game.execute(ANN, PlaceTile(x=2, y=1, rotation=0))  # nothing left to do but pay a ransom
    if alone:
        assert legal_commands(game.state) == [tw.PayRansom(jailer=BOB), Pass()]
    else:
        assert expected_step(game.state) == Decision("place", BOB)  # the step was skipped


def test_explain_and_analytics_name_the_tower_rules(tmp_path: Path) -> None:
    """carc explain shows each tower step with its rule id; the analytics tables take such games."""
    games = (play_bot_game(3, seed, expansions=SETS) for seed in range(40))
    game = next(g for g in games if any(isinstance(e, tw.FollowerCaptured) for e in g.pending))
    events = list(game.pending)
    turn = next(
        i
        for i in range(1, game.state.turn + 1)
        if any(s.event == "FollowerCaptured" for s in explain_turn(events, i).steps)
    )
    steps = explain_turn(events, turn).steps
    assert {(s.event, s.rule) for s in steps} >= {
        ("TowerPiecePlaced", "R-TOWER-3"),
        ("FollowerCaptured", "R-TOWER-4"),
    }
    store = open_store(str(tmp_path / "g.sqlite"))
    try:
        store.save_game(game)
        rows = export_analytics(store, [game.id], "parquet", tmp_path / "out")
    finally:
        store.close()
    assert rows["events"] == game.version and rows["scores"] == len(game.state.awards)


def two_kinds_held_by_bob(rules: RuleSet | None = None) -> Game:
    """Bob holds Ann's thief and her large follower; his monk at (1,2) lies below his tower at
    (1,1), which Ann raises to height 3 and takes it."""
    pile = ["BA/RFr", "TO/F", "BA/L", "BA/C", "BA/RFr", "BA/L", "BA/RFr", "BA/C", "BA/RFr", "BA/C"]
    game = Game.start(("Ann", "Bob"), pile, expansions=("base", "ic", "tower"), rules=rules)
    place(game, 1, 0, then=Deploy(location="E+W"))
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))
    game.execute(BOB, tw.PlaceTowerPiece(x=1, y=1))
    game.execute(BOB, tw.CaptureFollower(x=1, y=0, location="E+W", owner=ANN))
    place(game, 0, 1, then=Deploy(location="cloister", figure="big"))  # Ann
    game.execute(BOB, PlaceTile(x=2, y=1, rotation=180))
    game.execute(BOB, tw.PlaceTowerPiece(x=1, y=1))  # height 2
    game.execute(BOB, tw.CaptureFollower(x=0, y=1, location="cloister", owner=ANN, figure="big"))
    place(game, -1, 0)  # Ann
    place(game, 1, 2, then=Deploy(location="cloister"))  # Bob's monk
    assert sorted(tw.towers(game.state).prisoners[BOB]) == [(ANN, "big"), (ANN, "follower")]
    game.execute(ANN, PlaceTile(x=2, y=0, rotation=0))
    game.execute(ANN, tw.PlaceTowerPiece(x=1, y=1))  # height 3
    game.execute(ANN, tw.CaptureFollower(x=1, y=2, location="cloister", owner=BOB))
    return game


def test_R_TOWER_6_with_several_kinds_held_the_capturer_chooses_which_comes_back() -> None:
    game = two_kinds_held_by_bob()
    assert expected_step(game.state) == Decision("exchange", ANN)
    assert not any(isinstance(e, tw.PrisonersExchanged) for e in game.pending)
    # A choice, not a pass (JCloisterZone's SelectPrisonerToExchangeAction allows none).
    assert legal_commands(game.state) == [
        tw.ExchangePrisoner(figure="big"),
        tw.ExchangePrisoner(figure="follower"),
    ]
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, tw.ExchangePrisoner(figure="mayor"))
    assert refused.value.rule == "R-TOWER-6"
    game.execute(ANN, tw.ExchangePrisoner(figure="big"))
    exchanged = next(e for e in game.pending if isinstance(e, tw.PrisonersExchanged))
    assert (exchanged.player, exchanged.figure, exchanged.other, exchanged.other_figure) == (
        ANN,
        "big",
        BOB,
        "follower",
    )
    assert tw.towers(game.state).prisoners == [[], [(ANN, "follower")]]  # the thief stays
    assert game.state.ext["figures"]["big"] == [1, 1] and game.state.supply == [6, 7]
    assert expected_step(game.state) == Decision("place", BOB)
    replay(game.pending)  # the choice replays as recorded


def test_R_TOWER_7_a_ransom_names_which_kind_comes_back() -> None:
    game = two_kinds_held_by_bob()
    game.execute(ANN, tw.ExchangePrisoner(figure="follower"))
    assert tw.towers(game.state).prisoners == [[], [(ANN, "big")]]
    game = two_kinds_held_by_bob()
    game.execute(ANN, tw.ExchangePrisoner(figure="big"))
    game.execute(BOB, PlaceTile(x=0, y=2, rotation=180))
    game.execute(BOB, Pass())
    # Ann's turn: her thief is still Bob's prisoner; a ransom names it.
    game.execute(ANN, PlaceTile(x=3, y=0, rotation=0))
    assert tw.PayRansom(jailer=BOB, figure="follower") in legal_commands(game.state)
    assert tw.PayRansom(jailer=BOB, figure="big") not in legal_commands(game.state)


def test_R_TOWER_6_the_choice_goes_to_a_jcz_save_and_back(tmp_path: Path) -> None:
    rules = rule_set(**JCZ_READING)
    game = two_kinds_held_by_bob(rules)
    game.execute(ANN, tw.ExchangePrisoner(figure="big"))
    game.execute(BOB, PlaceTile(x=0, y=2, rotation=180))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=3, y=0, rotation=0))
    # No ransom: JCloisterZone wants 3 points for it (JCZ-TOWER-RANSOM-LIMITS), and Ann has none.
    assert not any(isinstance(c, tw.PayRansom) for c in legal_commands(game.state))
    game.execute(ANN, Pass())
    path = tmp_path / "exchange.jcz"
    path.write_bytes(export_jcz(game.pending))
    sent = [(m["type"], m["payload"]) for m in msgspec.json.decode(path.read_bytes())["replay"]]
    assert ("EXCHANGE_FOLLOWER", {"meepleId": "0.big.1"}) in sent
    _, imported = import_jcz(path)
    started = imported[0]
    assert imported[1:] == [
        msgspec.structs.replace(e, originator_id=started.originator_id) for e in game.pending[1:]
    ]


def ransoms_due(limited: bool, any_step: bool = False) -> Game:
    """Bob holds two of Ann's followers (her thief, then her monk), and Ann has 8 points from two
    cities she closed; Ann's turn, her tile not yet placed. Traders & Builders is in play for a
    builder's second tile later on."""
    pile = ["BA/RFr", "TO/F", "BA/L", "BA/L", "BA/C", "BA/C", "BA/C", "BA/L", "BA/RFr", "BA/L"]
    pile += ["BA/RFr", "BA/L", "BA/RFr", "BA/L", "BA/L", "BA/L"]
    rules = rule_set(ransom_limited=limited, ransom_any_step=any_step)
    game = Game.start(("Ann", "Bob"), pile, expansions=("base", "tb", "tower"), rules=rules)
    place(game, 1, 0, then=Deploy(location="E+W"))
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))
    game.execute(BOB, tw.PlaceTowerPiece(x=1, y=1))
    game.execute(BOB, tw.CaptureFollower(x=1, y=0, location="E+W", owner=ANN))
    place(game, 2, 1, then=Deploy(location="cloister"))
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=0))
    game.execute(BOB, tw.PlaceTowerPiece(x=1, y=1))  # height 2
    game.execute(BOB, tw.CaptureFollower(x=2, y=1, location="cloister", owner=ANN))
    place(game, 0, -1, 180, then=Deploy(location="S"))  # Ann closes the start tile's city: 4
    place(game, -1, -1)  # Bob: a city facing north
    place(game, -1, -2, 180, then=Deploy(location="S"))  # Ann closes it: 4 more
    place(game, 0, 2)  # Bob
    assert game.state.scores == [8, 0]
    assert tw.towers(game.state).prisoners == [[], [(ANN, "follower"), (ANN, "follower")]]
    return game


def ransoms(game: Game) -> list[Command]:
    return [c for c in legal_commands(game.state) if isinstance(c, tw.PayRansom)]


@pytest.mark.parametrize("limited", [False, True])
def test_JCZ_TOWER_RANSOM_LIMITS_one_ransom_a_turn_by_jcloisterzone(limited: bool) -> None:
    game = ransoms_due(limited)
    game.execute(ANN, PlaceTile(x=-1, y=0, rotation=0))
    game.execute(ANN, tw.PayRansom(jailer=BOB))
    assert game.state.scores == [5, 3]
    if not limited:  # R-TOWER-7 sets no limit
        assert ransoms(game) == [tw.PayRansom(jailer=BOB)]
        game.execute(ANN, tw.PayRansom(jailer=BOB))
        assert game.state.scores == [2, 6] and tw.towers(game.state).prisoners == [[], []]
        return
    assert ransoms(game) == []
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, tw.PayRansom(jailer=BOB))
    assert refused.value.rule == "JCZ-TOWER-RANSOM-LIMITS"
    game.execute(ANN, Deploy(location="E+W"))
    place(game, -1, 1)  # Bob
    game.execute(ANN, PlaceTile(x=-2, y=0, rotation=0))
    assert ransoms(game) == [tw.PayRansom(jailer=BOB)]  # a new turn: one more ransom
    game.execute(ANN, tw.PayRansom(jailer=BOB))
    assert game.state.scores == [2, 6] and tw.towers(game.state).prisoners == [[], []]


@pytest.mark.parametrize("limited", [False, True])
def test_JCZ_TOWER_RANSOM_LIMITS_a_builders_second_tile_is_the_same_turn(limited: bool) -> None:
    game = ransoms_due(limited)
    place(game, -1, 0, then=Deploy(location="E+W"))  # Ann's thief on the start tile's road
    place(game, -1, 1)  # Bob
    place(game, -2, 0, then=Deploy(location="E+W", figure="builder"))  # beside it, her builder
    place(game, 0, 3)  # Bob
    game.execute(ANN, PlaceTile(x=2, y=0, rotation=0))  # the road grows: a second tile is due
    game.execute(ANN, tw.PayRansom(jailer=BOB))
    game.execute(ANN, Pass())
    assert game.state.part == "builder" and expected_step(game.state) == Decision("place", ANN)
    game.execute(ANN, PlaceTile(x=-1, y=2, rotation=0))
    assert game.state.scores == [5, 3]
    assert ransoms(game) == ([] if limited else [tw.PayRansom(jailer=BOB)])


def thief_taken(rules: RuleSet) -> Game:
    """Bob's tower takes Ann's thief at once, nobody having scored; Ann's turn, her tile held."""
    game = Game.start(
        ("Ann", "Bob"), ["BA/RFr", "TO/F", "BA/L", "BA/L"], expansions=("base", "tower"), rules=rules
    )
    place(game, 1, 0, then=Deploy(location="E+W"))
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))
    game.execute(BOB, tw.PlaceTowerPiece(x=1, y=1))
    game.execute(BOB, tw.CaptureFollower(x=1, y=0, location="E+W", owner=ANN))
    return game


@pytest.mark.parametrize("limited", [False, True])
def test_JCZ_TOWER_RANSOM_LIMITS_no_ransom_below_three_points_by_jcloisterzone(limited: bool) -> None:
    game = thief_taken(rule_set(ransom_limited=limited))
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert game.state.scores == [0, 0]
    if not limited:  # R-TOWER-7: the score may go below zero
        assert ransoms(game) == [tw.PayRansom(jailer=BOB)]
        game.execute(ANN, tw.PayRansom(jailer=BOB))
        assert game.state.scores == [-3, 3]
        return
    assert ransoms(game) == []
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, tw.PayRansom(jailer=BOB))
    assert refused.value.rule == "JCZ-TOWER-RANSOM-LIMITS"
    assert "score of 0" in str(refused.value)


@pytest.mark.parametrize("any_step", [False, True])
def test_JCZ_RANSOM_ANY_STEP_a_ransom_before_the_tile_is_placed(any_step: bool) -> None:
    """JCloisterZone takes a ransom from whoever it asks for a decision, the decision staying
    open; R-TOWER-7 takes it during the turn's action only."""
    game = thief_taken(rule_set(ransom_any_step=any_step))
    assert expected_step(game.state) == Decision("place", ANN)
    if not any_step:
        assert ransoms(game) == []
        with pytest.raises(RuleViolation) as refused:
            game.execute(ANN, tw.PayRansom(jailer=BOB))
        assert refused.value.rule == "R-BASE-3"
        return
    assert ransoms(game) == [tw.PayRansom(jailer=BOB)]
    game.execute(ANN, tw.PayRansom(jailer=BOB))
    assert game.state.scores == [-3, 3] and game.state.supply[ANN] == 7
    assert expected_step(game.state) == Decision("place", ANN)  # still hers to place
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, tw.PayRansom(jailer=ANN))  # Bob is asked nothing now
    assert refused.value.rule == "R-BASE-3"
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert replay(game.pending).state.scores == [-3, 3]


def test_JCZ_RANSOM_ANY_STEP_and_the_limits_count_one_ransom_a_turn_wherever_paid() -> None:
    game = ransoms_due(True, any_step=True)
    assert expected_step(game.state) == Decision("place", ANN)
    game.execute(ANN, tw.PayRansom(jailer=BOB))  # before placing
    game.execute(ANN, PlaceTile(x=-1, y=0, rotation=0))
    assert ransoms(game) == []  # the same turn
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, tw.PayRansom(jailer=BOB))
    assert refused.value.rule == "JCZ-TOWER-RANSOM-LIMITS"
