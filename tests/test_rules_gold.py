"""The Goldmines: one or more scenarios per rule id (docs/RULES.md 14, R-GOLD-1..9), and the
readings JCZ-GOLD-SHARE and V-GOLD-NO-CASTLE both ways.

The start tile BA/RCr lies at (0,0): city N, road E+W, field S. Ann plays first, then Bob.
"""

from __future__ import annotations

import random
from typing import Any

import pytest

from domain.aggregate import Game
from domain.bots import shuffled_pile
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.events import Event, FollowerDeployed, GameEnded, TilePlaced, TurnEnded
from domain.expansions import gold as gd
from domain.expansions.gold import GoldPlaced, GoldTaken, PlaceGold, TakeGold
from domain.moves import Decision, expected_step, legal_commands
from domain.readings import rule_set
from domain.replay import check, replay
from domain.rules import RuleSet
from domain.tiles import TILES, draw_pile
from replays.jcz import jcz_rules, replay_jcz
from replays.jcz_export import JczExportError, export_jcz, jcz_document
from tests.jcz_saves import commit, decode, pass_, place, save

ANN, BOB = 0, 1


def _game(pile: list[str], sets: tuple[str, ...] = ("base", "gold"), rules: RuleSet | None = None) -> Game:
    return Game.start(("Ann", "Bob"), pile, expansions=sets, rules=rules)


def _turn(game: Game, player: int, x: int, y: int, rotation: int, *then: Command) -> None:
    """`player` places the tile they hold, then gives `then` (a pass if nothing is given and the
    action is open)."""
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    for command in then:
        game.execute(player, command)
    decision = expected_step(game.state)
    if not then and decision is not None and decision.step == "action":
        game.execute(player, Pass())


def _gold(game: Game) -> tuple[dict[tuple[int, int], int], list[int]]:
    """The bars on the board and in each player's hands."""
    own = gd.gold(game.state)
    return dict(own.on), list(own.held)


def _since(game: Game, kind: type[Event]) -> list[Event]:
    """The events recorded after the last one of `kind`."""
    events = list(game.pending)
    last = max(i for i, e in enumerate(events) if isinstance(e, kind))
    return events[last + 1 :]


def _where(events: list[Event]) -> list[tuple[str, int, int, int]]:
    return [(type(e).__name__, e.player, e.x, e.y) for e in events if isinstance(e, GoldPlaced | GoldTaken)]


# ----------------------------------------------------------------- the tiles


def test_R_GOLD_1_eight_gold_tiles_one_of_each_in_the_pile() -> None:
    gold_tiles = [t for t in TILES.values() if t.expansion == "gold"]
    assert len(gold_tiles) == 8 and all(t.count == 1 for t in gold_tiles)
    assert all(gd.TAG in t.tags for t in gold_tiles)
    assert not any(gd.TAG in t.tags for t in TILES.values() if t.expansion != "gold")
    base, with_gold = draw_pile(("base",)), draw_pile(("base", "gold"))
    assert len(with_gold) == len(base) + 8
    pile = shuffled_pile(("base", "gold"), random.Random(5))
    assert sorted(t for t in pile if t.startswith("GO/")) == sorted(t.id for t in gold_tiles)


# ----------------------------------------------------------------- laying the bars


def test_R_GOLD_2_with_one_tile_around_both_bars_are_laid_by_the_engine() -> None:
    """GO/CRcr north of the start tile: the start tile is its only neighbour."""
    game = _game(["GO/CRcr", "BA/L"])
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=90))
    assert _where(_since(game, TilePlaced)) == [
        ("GoldPlaced", ANN, 0, -1),
        ("GoldPlaced", ANN, 0, 0),
    ]
    assert _gold(game) == ({(0, -1): 1, (0, 0): 1}, [0, 0])
    assert expected_step(game.state) == Decision("action", ANN)  # no decision was asked
    assert not any(isinstance(c, PlaceGold) for c in legal_commands(game.state))
    replay(game.pending)


def _two_around() -> Game:
    """Ann's BA/RFr east of the start tile; Bob's GO/LCc at (1,-1) touches both."""
    game = _game(["BA/RFr", "GO/LCc", "BA/L"])
    _turn(game, ANN, 1, 0, 0)
    game.execute(BOB, PlaceTile(x=1, y=-1, rotation=0))
    return game


def test_R_GOLD_2_with_several_tiles_around_the_player_chooses_the_second() -> None:
    game = _two_around()
    assert _gold(game) == ({(1, -1): 1}, [0, 0])  # the first lies on the gold tile already
    assert expected_step(game.state) == Decision("gold", BOB)
    assert legal_commands(game.state) == [PlaceGold(x=0, y=0), PlaceGold(x=1, y=0)]
    game.execute(BOB, PlaceGold(x=0, y=0))
    assert _gold(game) == ({(1, -1): 1, (0, 0): 1}, [0, 0])
    assert replay(game.pending).state.ext["gold"].on == {(1, -1): 1, (0, 0): 1}


@pytest.mark.parametrize(
    "command",
    [PlaceGold(x=1, y=-1), PlaceGold(x=0, y=-1), PlaceGold(x=3, y=-1), Pass()],
    ids=["the-gold-tile", "an-empty-square", "two-squares-away", "a-pass"],
)
def test_R_GOLD_2_the_second_bar_goes_on_a_placed_tile_around_and_must_be_laid(command: Command) -> None:
    game = _two_around()
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, command)
    assert refused.value.rule == ("R-GOLD-3" if isinstance(command, Pass) else "R-GOLD-2")
    assert expected_step(game.state) == Decision("gold", BOB)


def test_R_GOLD_3_the_bar_is_laid_before_the_action() -> None:
    game = _two_around()
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, Deploy(location="cloister"))
    assert refused.value.rule == "R-GOLD-3"
    game.execute(BOB, PlaceGold(x=1, y=0))
    assert expected_step(game.state) == Decision("action", BOB)
    game.execute(BOB, Deploy(location="cloister"))  # now the action comes
    laid = [i for i, e in enumerate(game.pending) if isinstance(e, GoldPlaced) and e.player == BOB]
    deployed = [i for i, e in enumerate(game.pending) if isinstance(e, FollowerDeployed)]
    assert laid and deployed and max(laid) < deployed[-1]


def test_R_GOLD_4_bars_pile_up_on_a_tile() -> None:
    """Two gold tiles lay their second bars on the start tile: it holds two."""
    game = _game(["GO/CRcr", "GO/LRr", "BA/L"])
    _turn(game, ANN, 0, -1, 90)  # bars on (0,-1) and, its only neighbour, (0,0)
    _turn(game, BOB, 1, -1, 90, PlaceGold(x=0, y=0), Pass())
    assert _gold(game) == ({(0, -1): 1, (0, 0): 2, (1, -1): 1}, [0, 0])


# ----------------------------------------------------------------- claiming and sharing


def _tied_road(rules: RuleSet | None = None) -> Game:
    """Ann's road from her junction at (0,1) and Bob's from his at (2,1) are joined by Bob's
    GO/RRrr.X at (1,1): a road of three tiles, one follower each. Bars on its tiles: one on
    (0,1) (Ann's GO/RrRr at (-1,1) laid it there), one on (1,1), one on (2,1) (Bob's choice);
    one on (-1,1), on another road."""
    game = _game(["BA/RRR", "BA/RFr", "BA/RRR", "BA/RRR", "GO/RrRr", "GO/RRrr.X", "BA/L"], rules=rules)
    _turn(game, ANN, 1, 0, 0)
    _turn(game, BOB, 2, 0, 0)
    _turn(game, ANN, 0, 1, 0, Deploy(location="E"))
    _turn(game, BOB, 2, 1, 0, Deploy(location="W"))
    _turn(game, ANN, -1, 1, 0, PlaceGold(x=0, y=1), Pass())
    _turn(game, BOB, 1, 1, 0, PlaceGold(x=2, y=1), Pass())
    return game


@pytest.mark.parametrize("auto", [False, True], ids=["printed", "jcz"])
def test_R_GOLD_7_the_scorers_take_bars_in_turn_from_the_player_of_the_turn_part(auto: bool) -> None:
    """Three bars claimed by Ann and Bob alike: Bob placed the tile, so he takes the first and
    the third, Ann the second; the bar on (-1,1) lies on no scored feature and stays. The
    tiles are alike to both: nobody chooses, under either reading."""
    game = _tied_road(rule_set(gold_share_auto=auto))
    assert [(a.player, a.points, a.category) for a in game.state.awards] == [
        (ANN, 3, "road"),
        (BOB, 3, "road"),
    ]
    assert _where(_since(game, TurnEnded)) == [
        ("GoldTaken", BOB, 1, 1),
        ("GoldTaken", ANN, 0, 1),
        ("GoldTaken", BOB, 2, 1),
    ]
    assert _gold(game) == ({(-1, 1): 1}, [1, 2])
    replay(game.pending)


def test_R_GOLD_6_a_tie_gives_the_claim_to_every_scorer() -> None:
    game = _tied_road()
    assert {player for _, player, _, _ in _where(_since(game, TurnEnded))} == {ANN, BOB}


def _city_and_road(rules: RuleSet | None = None, knight: bool = True) -> Game:
    """Ann's thief on the road (-1,0)-(0,0)-(1,0), Bob's knight in the city (0,0)-(0,-1)-
    (-1,-1)-(-1,0); Ann's last tile, BA/CRRR at (-1,0), completes both. Bars: two on (0,0) (both
    features' tile), one on (-1,-1) (the city's only), one on (0,1) (neither's)."""
    game = _game(["BA/RRR", "BA/Cc.1", "GO/LCc", "GO/LRr", "BA/CRRR", "BA/L"], rules=rules)
    _turn(game, ANN, 1, 0, 180, Deploy(location="W"))
    _turn(game, BOB, 0, -1, 270, *([Deploy(location="S+W")] if knight else []))
    _turn(game, ANN, -1, -1, 180, PlaceGold(x=0, y=0), Pass())
    _turn(game, BOB, 0, 1, 0, PlaceGold(x=0, y=0), Pass())
    assert _gold(game) == ({(-1, -1): 1, (0, 0): 2, (0, 1): 1}, [0, 0])
    _turn(game, ANN, -1, 0, 0)
    return game


def test_R_GOLD_5_a_road_and_a_city_claim_the_bars_on_their_own_tiles() -> None:
    game = _city_and_road(rule_set(gold_share_auto=True))
    assert sorted((a.player, a.points, a.category) for a in game.state.awards) == [
        (ANN, 3, "road"),
        (BOB, 8, "city"),
    ]
    taken = _where(_since(game, TurnEnded))
    assert {(x, y) for _, _, x, y in taken} == {(0, 0), (-1, -1)}
    assert _gold(game)[0] == {(0, 1): 1}  # on neither feature


def test_R_GOLD_6_a_completed_feature_nobody_scores_keeps_its_bars() -> None:
    """Nobody's knight in the city: Ann's road alone claims, the city's bar on (-1,-1) stays."""
    game = _city_and_road(knight=False)
    assert _where(_since(game, TurnEnded)) == [("GoldTaken", ANN, 0, 0), ("GoldTaken", ANN, 0, 0)]
    assert _gold(game) == ({(-1, -1): 1, (0, 1): 1}, [2, 0])


def test_R_GOLD_7_a_player_chooses_where_the_choice_changes_who_gets_what() -> None:
    """Ann (who placed the tile) takes from (0,0), the only tile she claims. Bob claims (0,0)
    with her and (-1,-1) alone: which he takes from decides whether Ann gets a second bar."""
    game = _city_and_road()
    assert _where(_since(game, TurnEnded)) == [("GoldTaken", ANN, 0, 0)]
    assert expected_step(game.state) == Decision("gold-share", BOB)
    assert legal_commands(game.state) == [TakeGold(x=0, y=0), TakeGold(x=-1, y=-1)]
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, TakeGold(x=0, y=1))  # a bar no feature he scored claims
    assert refused.value.rule == "R-GOLD-7"
    with pytest.raises(RuleViolation):
        game.execute(BOB, Pass())
    game.execute(BOB, TakeGold(x=-1, y=-1))
    # Ann takes the last bar of (0,0); Bob has nothing left to claim.
    assert _where(_since(game, TurnEnded)) == [
        ("GoldTaken", ANN, 0, 0),
        ("GoldTaken", BOB, -1, -1),
        ("GoldTaken", ANN, 0, 0),
    ]
    assert _gold(game) == ({(0, 1): 1}, [2, 1])
    assert expected_step(game.state) == Decision("place", BOB)
    replay(game.pending)


def test_JCZ_GOLD_SHARE_on_the_engine_takes_from_the_most_claimed_tile_first() -> None:
    """The same sharing under JCloisterZone's reading: Bob is not asked; his bar comes from (0,0),
    claimed by two, so Ann, passed over in the next round, gets one bar and Bob two."""
    game = _city_and_road(rule_set(gold_share_auto=True))
    assert _where(_since(game, TurnEnded)) == [
        ("GoldTaken", ANN, 0, 0),
        ("GoldTaken", BOB, 0, 0),
        ("GoldTaken", BOB, -1, -1),
    ]
    assert _gold(game) == ({(0, 1): 1}, [1, 2])
    assert expected_step(game.state) == Decision("place", BOB)
    replay(game.pending)


def test_JCZ_GOLD_SHARE_off_a_choice_recorded_is_replayed_and_audited_under_the_other_reading() -> None:
    """A log where Bob chose (-1,-1) replays under its own reading; under JCloisterZone's the
    engine would have taken from (0,0), so the same log breaks there, naming R-GOLD-7."""
    game = _city_and_road()
    game.execute(BOB, TakeGold(x=-1, y=-1))
    events = list(game.pending)
    assert check(events, RuleSet()).legal
    verdict = check(events, rule_set(gold_share_auto=True))
    assert verdict.error is not None and verdict.error.rule == "R-GOLD-7"
    assert isinstance(verdict.error.event, GoldTaken) and verdict.error.event.player == BOB


def test_JCZ_GOLD_SHARE_the_order_of_equally_claimed_tiles_is_jcloisterzones_hash_order() -> None:
    # Buckets of a table of 16: (1,1) -> 0, (0,1) -> 1, (2,1) -> 3, (0,-1) -> 0, (-1,0) -> 15.
    claims = {(2, 1): {ANN}, (0, 1): {ANN}, (-1, 0): {ANN}, (1, 1): {ANN}, (0, -1): {ANN}, (5, 5): {ANN, BOB}}
    assert gd.share_order(claims) == [(5, 5), (1, 1), (0, -1), (0, 1), (2, 1), (-1, 0)]
    # Beyond 12 tiles the table doubles: (16,0) leaves bucket 0 for bucket 16.
    many = {(16, 0): {ANN}, **{(x, 100): {ANN} for x in range(12)}}
    assert gd.share_order({(16, 0): {ANN}, (1, 0): {ANN}})[0] == (16, 0)
    assert gd.share_order(many).index((16, 0)) > gd.share_order(many).index((0, 100))


def test_R_GOLD_5_a_cloister_claims_the_bars_on_the_eight_tiles_around_it() -> None:
    """Bob's GO/LRr diagonal to Ann's cloister at (0,1) lays its bars on (1,1) and (0,0): when
    the cloister is surrounded, Ann takes both, the diagonal one too."""
    game = _game(["BA/L", "GO/LRr", "BA/RFr", "BA/RFr", "BA/L", "BA/L", "BA/L", "BA/LR", "BA/L"])
    _turn(game, ANN, 0, 1, 0, Deploy(location="cloister"))
    _turn(game, BOB, 1, 1, 0, PlaceGold(x=0, y=0), Pass())
    for player, (x, y, rotation) in zip(
        [ANN, BOB, ANN, BOB, ANN], [(1, 0, 0), (-1, 0, 0), (-1, 1, 0), (0, 2, 0), (-1, 2, 0)], strict=True
    ):
        _turn(game, player, x, y, rotation)
    assert _gold(game) == ({(1, 1): 1, (0, 0): 1}, [0, 0])
    _turn(game, BOB, 1, 2, 180)
    assert [(a.player, a.points, a.category) for a in game.state.awards] == [(ANN, 9, "cloister")]
    assert sorted(_where(_since(game, TurnEnded))) == [("GoldTaken", ANN, 0, 0), ("GoldTaken", ANN, 1, 1)]
    assert _gold(game) == ({}, [2, 0])


def _castle_scores(rules: RuleSet) -> Game:
    """Ann's castle at (0,-1)-(0,0); Bob's GO/RRrr.X at (1,0) lays bars on (1,0) and (0,-1),
    both in its fief; the start road, nobody's, completes by (-1,0): the castle scores it."""
    game = _game(["BA/C", "GO/RRrr.X", "BA/LR", "BA/LR", "BA/L"], ("base", "bcb", "gold"), rules)
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    game.execute(ANN, Deploy(location="S"))
    game.execute(ANN, next(c for c in legal_commands(game.state) if not isinstance(c, Pass)))
    _turn(game, BOB, 1, 0, 0, PlaceGold(x=0, y=-1), Pass())
    _turn(game, ANN, 2, 0, 90)
    _turn(game, BOB, -1, 0, 270)
    assert [(a.player, a.points, a.category) for a in game.state.awards] == [(ANN, 4, "castle")]
    return game


def test_R_GOLD_5_a_castle_that_scores_claims_the_bars_of_its_fief() -> None:
    game = _castle_scores(RuleSet())
    assert sorted(_where(_since(game, TurnEnded))) == [("GoldTaken", ANN, 0, -1), ("GoldTaken", ANN, 1, 0)]
    assert _gold(game) == ({}, [2, 0])
    replay(game.pending)


def test_V_GOLD_NO_CASTLE_a_castle_claims_nothing() -> None:
    game = _castle_scores(rule_set(gold_no_castle=True))
    assert _where(_since(game, TurnEnded)) == []
    assert _gold(game) == ({(0, -1): 1, (1, 0): 1}, [0, 0])


def test_R_GOLD_8_a_barns_field_scoring_claims_no_bars() -> None:
    """Ann's farmer in the field of her GO/LCc at (0,1) (bars there and on (0,0)); her barn at
    the corner of (1,1) makes the field score: the farmer goes home, the bars stay."""
    game = _game(["GO/LCc", "BA/RFr", "BA/L", "BA/L"], ("base", "am", "gold"))
    _turn(game, ANN, 0, 1, 270, Deploy(location="Nw+Ne+En+Es"))
    _turn(game, BOB, 1, 0, 0)
    _turn(game, ANN, 1, 1, 0, Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn", figure="barn"))
    assert [(a.player, a.category) for a in game.state.awards] == [(ANN, "farm.barn-placed")]
    assert _gold(game) == ({(0, 1): 1, (0, 0): 1}, [0, 0])


def test_R_GOLD_8_bars_are_shared_before_a_wagon_moves() -> None:
    """Ann's wagon on the start road through her GO/RRrr.X: when the road completes, she takes
    its two bars, and only then is her wagon's move asked."""
    game = _game(["GO/RRrr.X", "BA/LR", "BA/LR", "BA/L"], ("base", "am", "gold"))
    _turn(game, ANN, 1, 0, 0, Deploy(location="E+W", figure="wagon"))
    _turn(game, BOB, -1, 0, 270)
    _turn(game, ANN, 2, 0, 90)
    after = _since(game, TurnEnded)
    assert _where(after) == [("GoldTaken", ANN, 0, 0), ("GoldTaken", ANN, 1, 0)]
    assert len(after) == 2 and expected_step(game.state) == Decision("wagon", ANN)


def test_R_GOLD_8_and_R_GOLD_9_the_end_scores_the_bars_held_not_those_on_the_board() -> None:
    game = _tied_road()
    _turn(game, ANN, 2, -1, 0)  # the last tile: the game ends
    assert isinstance(game.pending[-1], GameEnded)
    assert not any(isinstance(e, GoldTaken) for e in _since(game, TurnEnded))
    final = [
        (a.player, a.points, a.category, a.rule, a.parts) for a in game.state.awards if a.category == "gold"
    ]
    assert final == [
        (ANN, 1, "gold", "R-GOLD-9", (("gold", 1),)),
        (BOB, 2, "gold", "R-GOLD-9", (("gold", 2),)),
    ]
    assert _gold(game)[0] == {(-1, 1): 1}  # worth nothing


@pytest.mark.parametrize(
    ("bars", "points"),
    [(0, 0), (1, 1), (3, 3), (4, 8), (6, 12), (7, 21), (9, 27), (10, 40), (15, 60), (16, 64)],
)
def test_R_GOLD_9_bars_are_worth_more_each_the_more_a_player_holds(bars: int, points: int) -> None:
    assert gd.bars_value(bars) == points


def test_R_GOLD_9_a_player_without_bars_gets_no_entry() -> None:
    game = _city_and_road(knight=False)
    while not game.state.over:
        decision = expected_step(game.state)
        assert decision is not None
        game.execute(decision.player, legal_commands(game.state)[0])
    final = [(a.player, a.points, a.parts) for a in game.state.awards if a.category == "gold"]
    assert final == [(ANN, 2, (("gold", 2),))]


# ----------------------------------------------------------------- JCloisterZone's saves


def test_JCZ_GOLD_SHARE_an_export_writes_the_chosen_bar_as_a_token_on_a_bare_position() -> None:
    game = _city_and_road(rule_set(gold_share_auto=True))
    document = jcz_document(list(game.pending))
    tokens = [m for m in document["replay"] if m["type"] == "PLACE_TOKEN"]
    assert [m["payload"] for m in tokens] == [
        {"token": "GOLD", "pointer": [0, 0]},
        {"token": "GOLD", "pointer": [0, 0]},
    ]
    assert document["setup"]["sets"] == {"basic:1": 1, "goldmines": 1}
    assert document["setup"]["elements"]["gold"] is True


def test_JCZ_GOLD_SHARE_a_bar_a_player_chose_cannot_be_exported() -> None:
    """JCloisterZone never asks who takes which bar: a game with such a choice is refused."""
    game = _city_and_road()
    game.execute(BOB, TakeGold(x=-1, y=-1))
    with pytest.raises(JczExportError):
        export_jcz(list(game.pending))


def _gold_save(element: bool, token: bool) -> dict[str, Any]:
    """Ann's BA/RFr east of the start tile, Bob's GO/LCc at (1,-1) touching both; with `token`,
    Bob's second bar on the start tile as JCloisterZone's client sends it."""
    log = [place(0, "BA/RFr", 1, 0), pass_(0), commit(0), place(1, "GO/LCc", 1, -1)]
    if token:
        log.append({"type": "PLACE_TOKEN", "payload": {"token": "GOLD", "pointer": [0, 0]}, "player": 1})
    log += [pass_(1), commit(1)]
    elements = {"small-follower": 7, "farmers": True, **({"gold": True} if element else {})}
    return save(log, ["BA/RFr", "GO/LCc", "BA/L"], sets={"basic:1": 1, "goldmines": 1}, elements=elements)


def test_R_GOLD_2_a_saves_gold_token_is_the_players_choice_of_the_second_bar() -> None:
    game = replay_jcz(decode(_gold_save(element=True, token=True)), ["BA/RFr", "GO/LCc", "BA/L"])
    assert _where(list(game.collect_events())) == [("GoldPlaced", BOB, 1, -1), ("GoldPlaced", BOB, 0, 0)]


def test_R_GOLD_1_without_the_gold_element_the_gold_tiles_are_plain_tiles() -> None:
    document = decode(_gold_save(element=False, token=False))
    assert "gold" in jcz_rules(document).without
    game = replay_jcz(document, ["BA/RFr", "GO/LCc", "BA/L"])
    assert not game.state.has("gold")
    assert _where(list(game.collect_events())) == []
