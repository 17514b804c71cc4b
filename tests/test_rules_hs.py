"""Hills & Sheep: one or more scenarios per rule id (docs/RULES.md 9, R-HS-1..12), its switch both
ways (V-HS-HILL-COUNT), the flock's tokens as draws of chance, and the set's JCloisterZone
mapping (the token from a message's `random`, the hidden tiles in the draw walk).

The start tile BA/RCr lies at (0,0): city N, road E+W, a field north of the road (`En+Wn`) and one
south of it (`Es+Se+Sw+Ws`). Most flock scenarios put a cloister BA/L at (0,1), whose one field
(`FIELD`) joins the start's southern field. Each token drawn is set by the test (`tokens`).
"""

from __future__ import annotations

from collections.abc import Iterator, Sequence

import pytest

from domain.aggregate import Game
from domain.bots import play_bot_game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.events import Event
from domain.expansions import SETS, hills_sheep as hs
from domain.moves import Decision, expected_step, legal_commands
from domain.readings import rule_set
from domain.replay import replay
from domain.rules import RuleSet
from domain.state import GameState, Phase
from domain.tiles import TILES, Kind
from domain.turns import Chance
from projections.text import render_board
from replays.jcz import JczRefused, JczSave, replay_jcz
from replays.jcz_draws import JczDrawer, plan_draws
from replays.jcz_sets.hs import token_index
from tests.jcz_saves import commit, decode, deploy, pass_, place, save

ANN, BOB = 0, 1
HS = ("base", "hs")
FIELD = "Nw+Ne+En+Es+Se+Sw+Ws+Wn"  # BA/L's field
SOUTH = "Es+Se+Sw+Ws"  # the start tile's field south of its road
Step = tuple[str, int, int, int, str | Command | None]


def tokens(game: Game, drawn: Sequence[int]) -> None:
    """The bag gives these tokens (sheep, 0 a wolf), in order, at the draws to come."""
    queue: Iterator[int] = iter(drawn)

    def pick(state: GameState, chance: Chance) -> Event:
        wanted = next(queue)
        return next(e for e in chance.outcomes if isinstance(e, hs.FlockDrawn) and e.sheep == wanted)

    game.roll = pick


def played(
    steps: Sequence[Step],
    *,
    extra: Sequence[str] = ("BA/C", "BA/C"),
    rules: RuleSet | None = None,
    drawn: Sequence[int] = (),
) -> Game:
    """A game whose pile is the steps' tiles and then `extra`, played step by step."""
    pile = [step[0] for step in steps] + list(extra)
    game = Game.start(("Ann", "Bob"), pile, expansions=HS, rules=rules)
    tokens(game, drawn)
    for step in steps:
        turn(game, *step[1:])
    return game


def turn(
    game: Game, x: int, y: int, rotation: int, then: str | Command | None = None, flock: str | None = None
) -> None:
    """The current player places the tile they hold and acts (a pass if nothing is given), then
    grows or scores their flock if `flock` says."""
    state = game.state
    player = state.current
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    if isinstance(then, str):
        game.execute(player, Deploy(location=then))
    elif then is not None:
        game.execute(player, then)
    elif state.phase == Phase.ACTION and expected_step(state) == Decision("action", player):
        game.execute(player, Pass())
    if flock is not None:
        game.execute(player, hs.Flock(value=flock))  # type: ignore[arg-type]


def field_of(game: Game) -> str:
    """The one field location of the tile just placed."""
    placed = game.state.placed
    assert placed is not None
    return next(name for name, _, kind in placed.locations() if kind == Kind.FIELD)


def shepherd(location: str = FIELD) -> Deploy:
    return Deploy(location=location, figure="shepherd")


def flocks(game: Game) -> dict[tuple[int, int, str], list[int]]:
    return {place: list(t) for place, t in hs.sheep(game.state).flocks.items() if t}


def standing(game: Game) -> list[tuple[tuple[int, int, str], int]]:
    return [(place, owner) for place, owner, _ in hs.shepherds(game.state)]


def scored(game: Game) -> list[tuple[int, int, str]]:
    return [(a.player, a.points, a.category) for a in game.state.awards]


# Ann's shepherd on the cloister's field south of the start, its first token drawn.
ANNS_SHEPHERD: Step = ("BA/L", 0, 1, 0, shepherd())


# ----------------------------------------------------------------- R-HS-1: the set


def test_R_HS_1_the_tiles_the_bag_and_a_shepherd_each() -> None:
    ours = [t for t in TILES.values() if t.expansion == "hs"]
    assert sum(t.count for t in ours) == 18 and len(ours) == 16
    assert sum(t.count for t in ours if hs.HILL in t.tags) == 8
    assert sum(t.count for t in ours if hs.VINEYARD in t.tags) == 8
    assert sum(count for _, count in hs.BAG) == 18
    assert set(SETS["hs"]) == {"hills", "vineyards", "shepherd", "shared_edge"}
    game = Game.start(("Ann", "Bob"), ["BA/L", "BA/C"], expansions=HS)
    assert game.state.ext["figures"]["shepherd"] == [1, 1]
    assert sorted(hs.bag(game.state)) == sorted(t for t, n in hs.BAG for _ in range(n))


def test_R_HS_1_each_piece_may_be_left_out() -> None:
    game = Game.start(("Ann", "Bob"), ["BA/L", "BA/C"], expansions=HS, rules=rule_set(without=("shepherd",)))
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert not [c for c in legal_commands(game.state) if isinstance(c, Deploy) and c.figure == "shepherd"]


# ----------------------------------------------------------------- R-HS-2: a hill hides a tile


def test_R_HS_2_a_hill_hides_the_pile_s_last_tile() -> None:
    game = played([("HS/RFR.h", 0, 1, 90, None)], extra=("BA/C", "BA/Rr", "BA/L"))
    state = game.state
    assert hs.hills(state).hidden == {(0, 1): "BA/L"}
    # Bob holds the next tile as it came; the one after it is the pile's last now.
    assert state.tile is not None and state.tile.id == "BA/C"
    assert state.pile_left == 1 and state.draw_order[-1] == "BA/Rr"


def test_R_HS_2_with_the_pile_empty_nothing_is_hidden() -> None:
    game = played([("HS/RFR.h", 0, 1, 90, None)], extra=())
    assert hs.hills(game.state).hidden == {}
    assert game.state.over


def test_R_HS_2_without_hills_no_tile_is_hidden() -> None:
    game = played([("HS/RFR.h", 0, 1, 90, None)], extra=("BA/C", "BA/L"), rules=rule_set(without=("hills",)))
    assert game.state.pile_left == 1 and game.state.draw_order[-1] == "BA/L"


# ----------------------------------------------------------------- R-HS-3: a hill breaks a tie


# Ann's road stub east of the hill at (0,1), Bob's on the start's road and (1,0), joined by Ann at
# (1,1): one road of four tiles, one follower each, unfinished at the end.
TIED_ROAD: list[Step] = [
    ("HS/RFR.h", 0, 1, 90, "E"),
    ("BA/Rr", 1, 0, 0, "S+W"),
    ("BA/Rr", 1, 1, 90, None),
]


def _roads(game: Game) -> list[tuple[int, int]]:
    return sorted((a.player, a.points) for a in game.state.awards if a.category == "road")


def test_R_HS_3_a_follower_on_a_hill_wins_a_tie() -> None:
    game = played(TIED_ROAD, extra=("BA/L",))  # the cloister is hidden under the hill
    assert game.state.over
    assert _roads(game) == [(ANN, 4)]


def test_R_HS_3_without_hills_both_score() -> None:
    game = played(TIED_ROAD, extra=(), rules=rule_set(without=("hills",)))
    assert game.state.over
    assert _roads(game) == [(ANN, 4), (BOB, 4)]


def _tie(hill_count: bool, ann_on_hills: int, bob_on_hills: int) -> list[int]:
    """Ann and Bob with two followers each on one road, so many of them on a hill tile."""
    game = played(TIED_ROAD, rules=rule_set(hill_count=hill_count))
    state = game.state
    board = state.board
    hill = board.at[(0, 1)].segment("E")
    flat = board.at[(1, 0)].segment("S+W")
    road = board.graph.feature(hill)
    road.figures = [
        *[(ANN, hill if i < ann_on_hills else flat, "follower") for i in range(2)],
        *[(BOB, hill if i < bob_on_hills else flat, "follower") for i in range(2)],
    ]
    state.forget()
    return state.majority(road)


def test_V_HS_HILL_COUNT_on_the_most_followers_on_hills_win() -> None:
    assert _tie(True, 2, 1) == [ANN]
    assert _tie(True, 1, 1) == [ANN, BOB]


def test_V_HS_HILL_COUNT_off_one_follower_on_a_hill_is_enough() -> None:
    assert _tie(False, 2, 1) == [ANN, BOB]
    assert _tie(False, 1, 0) == [ANN]
    assert _tie(False, 0, 0) == [ANN, BOB]


# ----------------------------------------------------------------- R-HS-4: vineyards


# A cloister at (0,1) surrounded: two vineyards south of it, at (0,2) and (1,2).
CLOISTER_RING: list[Step] = [
    ("BA/L", 0, 1, 0, "cloister"),
    ("BA/RFr", 1, 0, 0, None),
    ("BA/RFr", -1, 0, 0, None),
    ("BA/L", 1, 1, 0, None),
    ("BA/L", -1, 1, 0, None),
    ("HS/C!.v", 0, 2, 180, None),
    ("HS/C!.v", 1, 2, 180, None),
    ("BA/L", -1, 2, 0, None),
]


def _cloisters(game: Game) -> list[tuple[int, int]]:
    return [(a.player, a.points) for a in game.state.awards if a.category == "cloister"]


def test_R_HS_4_a_completed_cloister_scores_3_per_vineyard_around() -> None:
    game = played(CLOISTER_RING)
    cloisters = [a for a in game.state.awards if a.category == "cloister"]
    assert [(a.player, a.points, a.parts) for a in cloisters] == [(ANN, 15, (("tiles", 9), ("vineyards", 2)))]


def test_R_HS_4_without_vineyards_the_cloister_scores_9() -> None:
    game = played(CLOISTER_RING, rules=rule_set(without=("vineyards",)))
    assert _cloisters(game) == [(ANN, 9)]


def test_R_HS_4_an_unfinished_cloister_gets_nothing_for_its_vineyards() -> None:
    game = played(CLOISTER_RING[:-1], extra=())
    assert game.state.over
    assert _cloisters(game) == [(ANN, 8)]


# ----------------------------------------------------------------- R-HS-5: deploying the shepherd


def _shepherd_places(game: Game) -> list[str]:
    return [
        c.location for c in legal_commands(game.state) if isinstance(c, Deploy) and c.figure == "shepherd"
    ]


def test_R_HS_5_the_shepherd_goes_on_a_field_of_the_tile() -> None:
    game = Game.start(("Ann", "Bob"), ["BA/L", "BA/C", "BA/C"], expansions=HS)
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert _shepherd_places(game) == [FIELD]
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, shepherd("cloister"))
    assert refused.value.rule == "R-HS-5"


def test_R_HS_5_beside_a_farmer_but_not_where_a_shepherd_stands() -> None:
    game = played([("BA/L", 0, 1, 0, FIELD)], extra=("BA/C", "BA/L", "BA/C"), drawn=(2,))
    game.execute(BOB, PlaceTile(x=0, y=2, rotation=180))
    bobs = field_of(game)
    assert _shepherd_places(game) == [bobs]  # Ann's farmer is there: no matter
    game.execute(BOB, shepherd(bobs))
    assert standing(game) == [((0, 2, bobs), BOB)]
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    assert _shepherd_places(game) == []  # Bob's shepherd is in the field


def test_R_HS_5_a_farmer_may_join_a_field_holding_only_a_shepherd() -> None:
    game = played([ANNS_SHEPHERD], drawn=(2,))
    game.execute(BOB, PlaceTile(x=0, y=2, rotation=180))
    assert Deploy(location=field_of(game)) in legal_commands(game.state)


# ----------------------------------------------------------------- R-HS-6, R-HS-7: the draws


def test_R_HS_6_a_shepherd_just_placed_draws_at_once() -> None:
    game = played([ANNS_SHEPHERD], drawn=(3,))
    assert flocks(game) == {(0, 1, FIELD): [3]}
    drawn = [e for e in game.collect_events() if isinstance(e, hs.FlockDrawn)]
    assert [(e.player, e.x, e.y, e.location, e.sheep) for e in drawn] == [(ANN, 0, 1, FIELD, 3)]


def test_R_HS_7_the_bag_holds_every_token_not_beside_a_shepherd() -> None:
    game = Game.start(("Ann", "Bob"), ["BA/L", "BA/C", "BA/C"], expansions=HS)
    seen: list[int] = []

    def pick(state: GameState, chance: Chance) -> Event:
        seen.extend(e.sheep for e in chance.outcomes if isinstance(e, hs.FlockDrawn))
        return next(e for e in chance.outcomes if isinstance(e, hs.FlockDrawn) and e.sheep == 4)

    game.roll = pick
    turn(game, 0, 1, 0, shepherd())
    assert seen == [1] * 4 + [2] * 5 + [3] * 5 + [4] * 2 + [0] * 2
    assert hs.bag(game.state) == [1] * 4 + [2] * 5 + [3] * 5 + [4] + [0] * 2


# ----------------------------------------------------------------- R-HS-8: grow or score


# Ann's shepherd south of the start (a 2 drawn), Bob's city north of it; Ann holds a cloister next.
ASKED: list[Step] = [ANNS_SHEPHERD, ("BA/C", 0, -1, 180, None)]
ASKED_PILE = ("BA/L", "BA/C", "BA/C")


def test_R_HS_8_the_owner_s_tile_extending_the_field_asks_grow_or_score() -> None:
    game = played(ASKED, extra=ASKED_PILE, drawn=(2, 3))
    assert expected_step(game.state) == Decision("place", ANN)  # Bob's tile did not touch the field
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    game.execute(ANN, Pass())
    assert expected_step(game.state) == Decision(hs.STEP, ANN)
    assert Pass() not in legal_commands(game.state)
    game.execute(ANN, hs.Flock(value="expand"))
    assert flocks(game) == {(0, 1, FIELD): [2, 3]}
    assert game.state.current == BOB


def test_R_HS_8_another_player_s_tile_asks_nobody() -> None:
    game = played([ANNS_SHEPHERD], drawn=(2,))
    turn(game, 0, 2, 180)  # Bob extends Ann's field
    assert expected_step(game.state) == Decision("place", ANN)


def test_R_HS_8_asked_with_nothing_to_deploy_the_action_is_over() -> None:
    game = played(ASKED, extra=ASKED_PILE, drawn=(2,))
    game.state.supply[ANN] = 0  # no follower left to deploy
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    assert expected_step(game.state) == Decision(hs.STEP, ANN)
    game.execute(ANN, hs.Flock(value="score"))
    # The shepherd is home again, but not deployed again in this turn part.
    assert game.state.current == BOB and expected_step(game.state) == Decision("place", BOB)


# ----------------------------------------------------------------- R-HS-9: the wolf


def test_R_HS_9_a_wolf_sends_the_shepherds_home_unscored() -> None:
    game = played(ASKED, extra=ASKED_PILE, drawn=(3, 0))
    turn(game, 1, 1, 0, flock="expand")
    assert standing(game) == [] and flocks(game) == {}
    assert game.state.ext["figures"]["shepherd"] == [1, 1]
    assert not [a for a in game.state.awards if a.category == "flock"]
    assert len(hs.bag(game.state)) == 18


def test_R_HS_9_a_shepherd_meeting_the_wolf_at_once_goes_home() -> None:
    game = played([ANNS_SHEPHERD], drawn=(0,))
    assert standing(game) == [] and game.state.ext["figures"]["shepherd"] == [1, 1]


# ----------------------------------------------------------------- R-HS-10: scoring


def test_R_HS_10_scoring_pays_the_flock_s_sheep_and_sends_the_shepherd_home() -> None:
    game = played(ASKED, extra=ASKED_PILE, drawn=(3,))
    turn(game, 1, 1, 0, flock="score")
    assert scored(game) == [(ANN, 3, "flock")]
    assert standing(game) == [] and flocks(game) == {}
    assert game.state.ext["figures"]["shepherd"] == [1, 1]


# Ann's shepherd on the start's southern field; Bob's on the field north of the road at (1,0);
# Ann's cloister tile at (2,0), the road ending in it, joins the two fields.
TWO_FLOCKS: list[Step] = [ANNS_SHEPHERD, ("BA/RFr", 1, 0, 0, shepherd("Nw+Ne+En+Wn"))]


def test_R_HS_10_two_flocks_in_one_field_score_together_for_each_owner() -> None:
    game = played(TWO_FLOCKS, extra=("BA/LR", "BA/C", "BA/C"), drawn=(3, 2))
    assert len(standing(game)) == 2
    turn(game, 2, 0, 90, flock="score")
    assert sorted(scored(game)) == [(ANN, 5, "flock"), (BOB, 5, "flock")]
    assert standing(game) == [] and len(hs.bag(game.state)) == 18


def test_R_HS_9_a_wolf_scatters_every_flock_of_the_field() -> None:
    game = played(TWO_FLOCKS, extra=("BA/LR", "BA/C", "BA/C"), drawn=(3, 2, 0))
    turn(game, 2, 0, 90, flock="expand")
    assert standing(game) == [] and scored(game) == []


# Four curves round a field of their four corners: Ann's shepherd in the corner of (0,1), her
# curve at (0,2) extends it (she grows the flock), Bob's at (1,2) closes it.
PEN: list[Step] = [
    ("BA/Rr", 0, 1, 270, shepherd("Es+Se")),
    ("BA/Rr", 1, 1, 0, None),
    ("BA/Rr", 0, 2, 180, None),
]


def _penned(on: bool) -> Game:
    game = played(PEN, extra=("BA/Rr", "BA/C", "BA/C"), rules=rule_set(flock_closed_field=on), drawn=(3, 2))
    game.execute(ANN, hs.Flock(value="expand"))
    turn(game, 1, 2, 90)  # Bob closes the field
    return game


def test_JCZ_HS_CLOSED_FIELD_on_a_closed_field_scores_its_flocks() -> None:
    game = _penned(True)
    assert hs.closed(game.state, game.state.board.graph.feature(game.state.board.at[(0, 1)].segment("Es+Se")))
    assert scored(game) == [(ANN, 5, "flock")]
    assert game.state.awards[-1].rule == "JCZ-HS-CLOSED-FIELD"
    assert standing(game) == []


def test_JCZ_HS_CLOSED_FIELD_off_the_flock_waits_in_its_closed_field() -> None:
    game = _penned(False)
    assert scored(game) == []
    assert standing(game) == [((0, 1, "Es+Se"), ANN)] and flocks(game) == {(0, 1, "Es+Se"): [3, 2]}


# ----------------------------------------------------------------- R-HS-11: the end


def test_R_HS_11_flocks_left_at_the_end_score_nothing() -> None:
    game = played([ANNS_SHEPHERD], extra=(), drawn=(4,))
    state = game.state
    assert state.over
    assert not [a for a in state.awards if a.category == "flock"]
    assert state.ext["figures"]["shepherd"] == [1, 1] and flocks(game) == {}


# ----------------------------------------------------------------- R-HS-12: the shared edge


def _cities(game: Game, pos: tuple[int, int]) -> set[int]:
    graph = game.state.board.graph
    return {graph.find(sid) for _, sid, kind in game.state.board.at[pos].locations() if kind == Kind.CITY}


def test_R_HS_12_a_city_met_at_the_shared_edge_joins_both_cities() -> None:
    # Turned 180 at (0,-1), its shared edge (north, now south) lies on the start's city.
    game = Game.start(("Ann", "Bob"), ["HS/CC!.v", "BA/C", "BA/C"], expansions=HS)
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    assert _cities(game, (0, -1)) == _cities(game, (0, 0))
    assert len(_cities(game, (0, -1))) == 1


def test_R_HS_12_the_sharing_city_stays_open_until_a_city_meets_the_edge() -> None:
    # Turned 90 at (0,-1): the sharing city meets the start's city with its own end, the shared
    # edge (now east) faces the empty (1,-1).
    game = Game.start(("Ann", "Bob"), ["HS/CC!.v", "BA/C", "BA/C", "BA/C"], expansions=HS)
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=90))
    state = game.state
    start_city = state.board.graph.feature(state.board.at[(0, 0)].segment("N"))
    assert start_city.open == 1  # without the shared edge it would be complete, and score
    assert len(_cities(game, (0, -1))) == 2
    assert not [a for a in state.awards if a.category == "city"]
    game.execute(ANN, Pass())
    game.execute(BOB, PlaceTile(x=1, y=-1, rotation=270))  # a city against the shared edge
    assert len(_cities(game, (0, -1))) == 1
    assert _cities(game, (1, -1)) == _cities(game, (0, 0))


# ----------------------------------------------------------------- bots, replays, views


def test_bots_play_hills_and_sheep_to_the_end() -> None:
    for seed in range(3):
        state = play_bot_game(["Ann", "Bob", "Cat"], seed=seed, expansions=HS)
        assert state.over


def test_a_game_replays_from_its_events_alone() -> None:
    game = played(ASKED, extra=ASKED_PILE, drawn=(2, 3))
    turn(game, 1, 1, 0, flock="expand")
    again = replay(game.collect_events()).state
    assert again.board.at.keys() == game.state.board.at.keys()
    assert hs.sheep(again).flocks == hs.sheep(game.state).flocks
    assert again.scores == game.state.scores


def test_the_text_board_shows_hills_vineyards_and_flocks() -> None:
    game = played(
        [("HS/RFR.h", 0, 1, 90, None), ("HS/C!.v", 0, -1, 180, None)], extra=("BA/L", "BA/C", "BA/C", "BA/C")
    )
    board = render_board(game.state)
    assert "^" in board and "v" in board


def test_the_token_is_the_bag_s_at_the_generator_s_value() -> None:
    assert token_index(0.0, 18) == 0
    assert token_index(0.999, 18) == 17
    assert token_index(0.5, 18) == 9


# ----------------------------------------------------------------- JCloisterZone's saves


HS_SETS = {"basic:1": 1, "hills-and-sheep:1": 1}
HS_ELEMENTS = {"small-follower": 7, "farmers": True, "shepherd": 1, "hill": True, "vineyard": True}
CLOISTER_FIELD = "NL.NR.EL.ER.SL.SR.WL.WR"


def _flock(player: int, value: str, random: float) -> dict[str, object]:
    return {"type": "FLOCK_EXPAND_OR_SCORE", "payload": {"value": value, "random": random}, "player": player}


def _flock_save(
    last: list[dict[str, object]], pile: Sequence[str] = ("BA/L", "BA/C", "BA/L", "BA/C")
) -> JczSave:
    """Ann's shepherd on the cloister's field at (0,1), drawn with the generator as the save
    starts (0.5: the tenth of 18 tokens, a 3); Bob's city cap; Ann's cloister at (1,1) extends
    her field: `last` is what she does then."""
    return decode(
        save(
            [
                place(0, "BA/L", 0, 1),
                deploy(0, 0, 1, CLOISTER_FIELD, "Field", "shepherd"),
                commit(0, 0.25),
                place(1, "BA/C", 0, -1, 180),
                pass_(1),
                commit(1, 0.75),
                place(0, "BA/L", 1, 1),
                pass_(0),
                *last,
            ],
            pile,
            sets=HS_SETS,
            elements=HS_ELEMENTS,
            initial_random=0.5,
        )
    )


def test_jcz_a_shepherd_just_deployed_draws_with_the_generator_as_it_stands() -> None:
    document = _flock_save([_flock(0, "SCORE", 0.1), commit(0)])
    game = replay_jcz(document, plan_draws(document).order, randoms=plan_draws(document).randoms)
    drawn = [e.sheep for e in game.collect_events() if isinstance(e, hs.FlockDrawn)]
    assert drawn == [3]
    assert scored(game) == [(ANN, 3, "flock")]


def test_jcz_a_grown_flock_draws_with_the_message_s_random() -> None:
    # 17 tokens left; 0.99 draws the last, a wolf.
    document = _flock_save([_flock(0, "EXPAND", 0.99), commit(0)])
    game = replay_jcz(document, plan_draws(document).order, randoms=plan_draws(document).randoms)
    assert [e.sheep for e in game.collect_events() if isinstance(e, hs.FlockDrawn)] == [3, 0]
    assert standing(game) == []


def test_jcz_a_hill_counts_off_the_pack_not_off_a_count_of_draws() -> None:
    """A pack ended by a count of draws (`endTurn`) ends there, as JCloisterZone's forced pack
    counts draws alone: our pile holds one more tile, which the hill hides."""
    pile = ("HS/RFR.h", "BA/C", "BA/L")
    document = decode(
        save(
            [
                place(0, "HS/RFR.h", 0, 1, 90),
                pass_(0),
                commit(0),
                place(1, "BA/C", 0, -1, 180),
                pass_(1),
                commit(1),
            ],
            pile,
            end_turn=2,
            sets=HS_SETS,
            elements=HS_ELEMENTS,
        )
    )
    plan = plan_draws(document)
    assert [d.tile for d in plan.draws] == ["HS/RFR.h", "BA/C"]
    assert plan.order == pile
    game = replay_jcz(document, plan.order, randoms=plan.randoms)
    assert game.state.over and hs.hills(game.state).hidden == {(0, 1): "BA/L"}


def test_jcz_a_hill_makes_the_pack_end_one_tile_sooner() -> None:
    """Without a count of draws the pack is empty once the tiles left are the hidden ones."""
    document = decode(save([], ("BA/C",), sets=HS_SETS, elements=HS_ELEMENTS))
    drawer = JczDrawer(document)
    full = drawer.left
    drawer.set_aside = 2
    assert drawer.left == full - 2
    rest = drawer.rest()
    assert len(rest) == full and drawer.set_aside == 2  # every tile, the hidden ones last


def test_jcz_a_flock_s_choice_where_our_rules_ask_none_is_refused() -> None:
    document = decode(
        save(
            [place(0, "BA/L", 0, 1), pass_(0), _flock(0, "SCORE", 0.5), commit(0)],
            ("BA/L", "BA/C"),
            sets=HS_SETS,
            elements=HS_ELEMENTS,
        )
    )
    with pytest.raises(JczRefused, match="a flock's choice where our rules ask none"):
        replay_jcz(document, plan_draws(document).order)


def test_R_HS_5_the_shepherd_stays_on_a_field_a_barn_takes() -> None:
    """A barn sends the field's farmers home (R-AM-6), not the shepherd: its flock is still to
    grow or score, as JCloisterZone keeps it (UndeployMeeples spares shepherds)."""
    game = Game.start(("Ann", "Bob"), ["BA/RFr", "BA/L", "BA/L", "BA/L"], expansions=("base", "am", "hs"))
    tokens(game, (2, 3))
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    game.execute(ANN, shepherd("Es+Se+Sw+Ws"))
    turn(game, 0, 1, 0, FIELD)  # Bob's farmer in the same field
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    game.execute(ANN, Deploy(location=FIELD, figure="barn"))
    assert expected_step(game.state) == Decision("flock", ANN)  # the tile grew the shepherd's field
    game.execute(ANN, hs.Flock(value="expand"))
    assert [a.category for a in game.state.awards] == ["farm.barn-placed"]
    assert standing(game) == [((1, 0, "Es+Se+Sw+Ws"), ANN)]
    assert game.state.supply[BOB] == 7  # the farmer is home
    field = game.state.board.graph.feature(game.state.board.at[(1, 1)].segment(FIELD))
    assert sorted(k for _, _, k in field.figures) == ["barn", "shepherd"]
    replay(game.pending)
