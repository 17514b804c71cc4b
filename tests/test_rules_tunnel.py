"""The Tunnel, one or more scenarios per rule id (docs/RULES.md 12, R-TUNNEL-*).

The start tile BA/RCr lies at (0,0): city N, road E+W, field S. In the main scenario Ann lays
`TU/RR` east of it turned a quarter (`R90`): its road W runs from the start tile's road into a
mouth, its road S from the south edge into another. A crossing at (-1,0) closes the start road's
west end, one at (1,1) the south road's far end, so each road is open only at its mouth.
"""

from __future__ import annotations

from collections.abc import Sequence

import msgspec
import pytest

from domain.aggregate import Game
from domain.bots import play_bot_game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import tunnel as tn
from domain.features import Feature
from domain.moves import Decision, expected_step, legal_commands
from domain.readings import audit_variants, rule_set, switch
from domain.replay import replay
from domain.rules import RuleSet
from domain.state import GameState
from domain.tiles import TILES, Kind
from replays.jcz import JCZ_READING, jcz_rules, read_jcz
from replays.jcz_export import export_jcz, jcz_setup
from replays.sources import import_jcz
from tests.jcz_saves import save
from tests.reference import JCZ, require

ANN, BOB = 0, 1
SETS = ("base", "tunnel")
CROSSING = "BA/RRR"  # roads E, S, W ending at a crossing; N a field


def start(
    pile: Sequence[str], rules: RuleSet | None = None, sets: Sequence[str] = SETS, players: int = 2
) -> Game:
    names = ("Ann", "Bob", "Cid", "Dee", "Eve")[:players]
    return Game.start(names, list(pile), expansions=tuple(sets), rules=rules)


def token(letter: str, x: int, y: int, location: str) -> tn.PlaceTunnelToken:
    return tn.PlaceTunnelToken(token=letter, x=x, y=y, location=location)


def turn(game: Game, x: int, y: int, rotation: int, *then: Command) -> None:
    """The current player places the tile drawn, gives `then`, and passes what is left of the
    turn part's action and tunnel step."""
    player = game.state.current
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    for command in then:
        game.execute(player, command)
    while (step := expected_step(game.state)) is not None and step in (
        Decision("action", player),
        Decision(tn.STEP, player),
    ):
        game.execute(player, Pass())


def road(state: GameState, x: int, y: int, location: str) -> Feature:
    return state.board.graph.feature(state.board.at[(x, y)].segment(location))


def tokens_offered(state: GameState) -> list[tn.PlaceTunnelToken]:
    return [c for c in legal_commands(state) if isinstance(c, tn.PlaceTunnelToken)]


def scored(game: Game) -> list[tuple[int, int, str, tuple[tuple[str, int], ...]]]:
    return [(a.player, a.points, a.category, a.parts) for a in game.state.awards]


# Ann's TU/RR east of the start tile, Bob's crossings closing both roads' far ends.
MAIN = ["TU/RR", CROSSING, CROSSING, "BA/L", "BA/L", "BA/L", "BA/L"]


def main_scenario(*, bob_on_south: bool = False) -> Game:
    """Ann's road W of (1,0) holds her follower and her first token A; Bob closes it at (-1,0)
    and the south road at (1,1) (his follower on it if asked); Ann then lays a cloister far away."""
    game = start(MAIN)
    turn(game, 1, 0, 90, token("A", 1, 0, "W"), Deploy(location="W"))
    turn(game, 1, 1, 180, *([Deploy(location="N")] if bob_on_south else []))
    turn(game, -1, 0, 0)
    turn(game, -1, -1, 0)  # Bob's cloister above the west crossing
    return game


# ----------------------------------------------------------------- the tiles


def test_R_TUNNEL_1_four_tiles_ten_mouths_and_one_road_that_just_ends() -> None:
    tunnel = {t.id: t for t in TILES.values() if t.expansion == "tunnel"}
    assert sorted(tunnel) == ["TU/CRRR", "TU/RCR", "TU/RR", "TU/RRRR"]
    assert all(t.count == 1 for t in tunnel.values())
    mouths = [
        s.edges for t in tunnel.values() for s in t.segments if s.kind == Kind.ROAD and tn.MOUTH in s.flags
    ]
    assert len(mouths) == 10
    # TU/RRRR: roads W, E, S into mouths; its road N ends at houses, an ordinary dead end.
    plain = [s for s in tunnel["TU/RRRR"].segments if s.kind == Kind.ROAD and tn.MOUTH not in s.flags]
    assert [s.edges for s in plain] == [(0,)]
    game = start(["TU/RRRR", "BA/L"])
    turn(game, 1, 0, 0)  # its road W continues the start tile's road
    state = game.state
    assert road(state, 1, 0, "N").open == 1  # its edge only
    assert road(state, 1, 0, "E").open == 2  # its edge and its mouth
    assert road(state, 1, 0, "W").open == 2  # the start road's west edge and the mouth
    assert tn.open_mouths(state) == [(1, 0, "W"), (1, 0, "E"), (1, 0, "S")]


def test_R_TUNNEL_1_a_mouth_is_named_by_its_roads_location_and_offered_so() -> None:
    game = start(MAIN)
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=90))
    assert tn.open_mouths(game.state) == [(1, 0, "S"), (1, 0, "W")]
    letters = {(c.token, c.location) for c in tokens_offered(game.state)}
    assert letters == {(t, loc) for t in "ABC" for loc in ("S", "W")}


# ----------------------------------------------------------------- the tokens


@pytest.mark.parametrize(
    ("counts", "expected"),
    [("3/2", (3, 3, 2, 1, 1, 1)), ("2/1", (2, 2, 1, 1, 1, 1)), ("1/1", (1, 1, 1, 1, 1, 1))],
)
def test_R_TUNNEL_2_pairs_by_the_number_of_players(counts: str, expected: tuple[int, ...]) -> None:
    assert tuple(tn.pairs(players, counts) for players in range(1, 7)) == expected


def test_R_TUNNEL_2_each_player_starts_with_pairs_of_one_colour() -> None:
    assert tn.tunnels(start(["BA/L"]).state).left == [{"A": 2, "B": 2, "C": 2}] * 2
    assert tn.tunnels(start(["BA/L"], players=3).state).left == [{"A": 2, "B": 2}] * 3
    assert tn.tunnels(start(["BA/L"], players=4).state).left == [{"A": 2}] * 4


def test_V_TUNNEL_TOKENS_fewer_pairs_under_2_1_and_1_1() -> None:
    two_one = rule_set(tunnel_tokens="2/1")
    assert tn.tunnels(start(["BA/L"], two_one).state).left == [{"A": 2, "B": 2}] * 2
    assert tn.tunnels(start(["BA/L"], two_one, players=3).state).left == [{"A": 2}] * 3
    one_one = rule_set(tunnel_tokens="1/1")
    assert tn.tunnels(start(["BA/L"], one_one).state).left == [{"A": 2}] * 2
    # A colour one does not have is refused, naming the rule.
    game = start(MAIN, one_one)
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=90))
    assert {c.token for c in tokens_offered(game.state)} == {"A"}
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, token("B", 1, 0, "W"))
    assert refused.value.rule == "R-TUNNEL-2"


def test_V_TUNNEL_TOKENS_a_saves_rule_sets_it_and_a_save_without_it_plays_3_2() -> None:
    reference = read_jcz(require(JCZ / "oracle-wave2" / "basic_tunnel-p2-s510007.jcz"))
    assert reference.setup.rules == {} and switch(jcz_rules(reference), "tunnel_tokens") == "3/2"
    sets, elements = {"basic:1": 1, "tunnel": 1}, {"small-follower": 7, "tunnel": 1}
    for value in tn.COUNTS:
        document = save([], ["BA/L"], sets=sets, elements=elements, rules={"more-tunnel-tokens": value})
        saved = msgspec.convert(document, type=type(reference))
        assert switch(jcz_rules(saved), "tunnel_tokens") == value
    # An export writes the rule only where it differs from the client's default.
    for value in tn.COUNTS:
        started = start(["BA/L"], rule_set(tunnel_tokens=value)).pending[0]
        written = jcz_setup(started)  # type: ignore[arg-type]
        assert written["sets"] == {"basic:1": 1, "tunnel": 1}
        assert written["rules"].get("more-tunnel-tokens") == (None if value == "3/2" else value)


def test_V_TUNNEL_TOKENS_the_audit_tries_the_other_counts() -> None:
    names = set(audit_variants(RuleSet(), ("tunnel",)))
    assert {"V-TUNNEL-TOKENS=2/1", "V-TUNNEL-TOKENS=1/1"} <= names
    assert "V-TUNNEL-TOKENS=3/2" not in names
    assert {"V-TUNNEL-PLAIN-UNDERPASS=on", "V-TUNNEL-PER-PART=on", "JCZ-TUNNEL-RESCORE=on"} <= names


def test_R_TUNNEL_3_a_road_into_a_mouth_stays_open_with_or_without_a_token_on_it() -> None:
    game = main_scenario()
    state = game.state
    west, south = road(state, 1, 0, "W"), road(state, 1, 0, "S")
    assert west is not south
    # Both far ends reach crossings: only the mouths keep the roads open, one holding Ann's A.
    assert west.open == 1 and south.open == 1
    assert tn.tunnels(state).claims == {state.board.at[(1, 0)].segment("W"): (ANN, "A")}
    assert scored(game) == []  # never completed, so never scored


def test_R_TUNNEL_4_a_token_in_the_action_step_leaves_the_follower_open_not_a_second_token() -> None:
    game = start(MAIN)
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=90))
    game.execute(ANN, token("A", 1, 0, "W"))
    state = game.state
    assert expected_step(state) == Decision("action", ANN)  # the step goes on
    assert Deploy(location="W") in legal_commands(state) and tokens_offered(state) == []
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, token("B", 1, 0, "S"))
    assert refused.value.rule == "R-TUNNEL-4"
    game.execute(ANN, Deploy(location="W"))
    assert expected_step(game.state) == Decision("place", BOB)  # no tunnel step: one token a turn


def test_R_TUNNEL_4_after_the_action_a_step_of_its_own_which_may_be_passed() -> None:
    game = start(MAIN)
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=90))
    game.execute(ANN, Deploy(location="W"))
    assert expected_step(game.state) == Decision(tn.STEP, ANN)
    assert Pass() in legal_commands(game.state)
    assert len(tokens_offered(game.state)) == 6  # A, B, C on each of the two mouths
    game.execute(ANN, Pass())
    assert expected_step(game.state) == Decision("place", BOB)
    # Passing the action step first, then putting the token down at the tunnel step.
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=180))
    game.execute(BOB, Pass())
    assert expected_step(game.state) == Decision(tn.STEP, BOB)
    game.execute(BOB, token("C", 1, 0, "S"))
    assert expected_step(game.state) == Decision("place", ANN)
    assert tn.tunnels(game.state).left[BOB] == {"A": 2, "B": 2, "C": 1}
    replay(game.pending)


def test_R_TUNNEL_4_a_claimed_mouth_or_no_mouth_is_refused() -> None:
    game = start(MAIN)
    turn(game, 1, 0, 90, token("A", 1, 0, "W"))
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=180))
    assert {(c.x, c.y, c.location) for c in tokens_offered(game.state)} == {(1, 0, "S")}
    for refused_token in (token("A", 1, 0, "W"), token("A", 0, 0, "E+W"), token("A", 1, 1, "N")):
        with pytest.raises(RuleViolation) as refused:
            game.execute(BOB, refused_token)
        assert refused.value.rule == "R-TUNNEL-4"


def test_R_TUNNEL_4_a_token_is_offered_with_no_follower_left() -> None:
    game = start(MAIN, rule_set(followers=1))
    turn(game, 1, 0, 90, Deploy(location="W"))
    turn(game, 1, 1, 180)
    game.execute(ANN, PlaceTile(x=-1, y=0, rotation=0))
    assert game.state.supply[ANN] == 0
    assert expected_step(game.state) == Decision("action", ANN)
    assert all(isinstance(c, tn.PlaceTunnelToken | Pass) for c in legal_commands(game.state))
    assert tokens_offered(game.state)


def test_R_TUNNEL_5_the_second_token_of_a_pair_links_two_roads_of_one_tile() -> None:
    game = main_scenario()
    turn(game, -1, -2, 0, token("A", 1, 0, "S"))
    state = game.state
    linked = road(state, 1, 0, "W")
    assert linked is road(state, 1, 0, "S") and linked.open == 0
    assert tn.tunnels(state).halves == {}
    replay(game.pending)


def test_R_TUNNEL_5_a_pair_links_roads_of_two_tiles() -> None:
    """Bob's TU/RCR below the start tile, turned half round: its mouths are E and W."""
    game = start(["TU/RR", "TU/RCR", "BA/L", "BA/L"])
    turn(game, 1, 0, 90, token("A", 1, 0, "W"))
    turn(game, 0, 1, 180)
    before = road(game.state, 1, 0, "W").open + road(game.state, 0, 1, "E").open
    turn(game, 2, 0, 0, token("A", 0, 1, "E"))  # Ann's cloister east of her TU/RR; her second A
    linked = road(game.state, 1, 0, "W")
    assert linked is road(game.state, 0, 1, "E") and linked.open == before - 2
    assert {game.state.board.tiles[i].pos for i in linked.tiles} == {(0, 0), (1, 0), (0, 1)}


def _facing_mouths(rules: RuleSet | None = None, sets: Sequence[str] = SETS) -> Game:
    """Ann's TU/RCR east of the start tile and Bob's TU/CRRR east of it: their mouths (1,0) E and
    (2,0) W face each other across the edge, one road with two mouths; Ann stands on it."""
    game = start(["TU/RCR", "TU/CRRR", "BA/L", "BA/L", "BA/L", "BA/L", "BA/L"], rules, sets)
    turn(game, 1, 0, 0, Deploy(location="E"))
    turn(game, 2, 0, 0)
    return game


def test_R_TUNNEL_5_a_pair_on_two_mouths_of_one_road_closes_both() -> None:
    game = _facing_mouths()
    assert road(game.state, 1, 0, "E") is road(game.state, 2, 0, "W")
    assert road(game.state, 1, 0, "E").open == 2  # the edge matched; two mouths open
    turn(game, 0, 1, 0, token("A", 1, 0, "E"))
    turn(game, 0, 2, 0)
    turn(game, 0, 3, 0, token("A", 2, 0, "W"))
    # The loop is complete: two tiles, Ann's follower scores them and goes home (R-TUNNEL-6).
    assert road(game.state, 1, 0, "E").open == 0
    assert scored(game) == [(ANN, 2, "road", (("tiles", 2),))]
    assert game.state.supply[ANN] == 7


def test_R_TUNNEL_6_a_link_far_from_the_tile_placed_completes_and_scores_the_road() -> None:
    game = main_scenario()
    assert scored(game) == []
    turn(game, -1, -2, 0, token("A", 1, 0, "S"))  # a cloister above Bob's, nowhere near the road
    assert scored(game) == [(ANN, 4, "road", (("tiles", 4),))]
    assert [a.turn for a in game.state.awards] == [5]


def test_R_TUNNEL_7_the_tunnel_tile_counts_once_and_the_tunnel_adds_nothing() -> None:
    game = main_scenario()
    turn(game, -1, -2, 0, token("A", 1, 0, "S"))
    linked = road(game.state, 1, 0, "W")
    positions = sorted(game.state.board.tiles[i].pos for i in linked.tiles)
    assert positions == [(-1, 0), (0, 0), (1, 0), (1, 1)]  # (1,0) holds both mouths, counted once
    assert scored(game)[0][1] == 4


def test_R_TUNNEL_8_a_link_shares_two_occupied_roads() -> None:
    game = main_scenario(bob_on_south=True)
    turn(game, -1, -2, 0, token("A", 1, 0, "S"))
    assert sorted(scored(game)) == [(ANN, 4, "road", (("tiles", 4),)), (BOB, 4, "road", (("tiles", 4),))]


def _bob_on_the_start_road() -> Game:
    """Ann's first A on the mouth (1,0) W; Bob's thief on the start road, which runs into it;
    Ann draws TU/RCR for (1,1), turned a quarter: mouths N (facing (1,0) S) and S."""
    game = start(["TU/RR", "BA/RFr", "TU/RCR", "BA/L", "BA/L"])
    turn(game, 1, 0, 90, token("A", 1, 0, "W"))
    turn(game, -1, 0, 0, Deploy(location="E+W"))
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=90))
    assert "S" in {c.location for c in legal_commands(game.state) if isinstance(c, Deploy)}
    return game


def test_R_TUNNEL_8_no_follower_on_a_road_a_link_just_occupied() -> None:
    game = _bob_on_the_start_road()
    game.execute(ANN, token("A", 1, 1, "S"))  # links the road S of (1,1) to Bob's road
    assert road(game.state, 1, 1, "S") is road(game.state, 0, 0, "E+W")
    assert "S" not in {c.location for c in legal_commands(game.state) if isinstance(c, Deploy)}
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, Deploy(location="S"))
    assert refused.value.rule == "R-BASE-4"


def test_R_TUNNEL_8_deploying_first_then_linking_shares_the_road() -> None:
    game = _bob_on_the_start_road()
    game.execute(ANN, Deploy(location="S"))
    game.execute(ANN, token("A", 1, 1, "S"))  # at the tunnel step
    followers = {p for p, _, _ in game.state.followers(road(game.state, 0, 0, "E+W"))}
    assert followers == {ANN, BOB}
    replay(game.pending)


def test_R_TUNNEL_9_tokens_stay_on_the_board_when_their_road_scores() -> None:
    game = main_scenario()
    turn(game, -1, -2, 0, token("A", 1, 0, "S"))
    state = game.state
    own = tn.tunnels(state)
    assert own.left[ANN] == {"A": 0, "B": 2, "C": 2}
    assert sorted(own.claims.values()) == [(ANN, "A"), (ANN, "A")]
    assert tn.open_mouths(state) == []
    assert state.supply[ANN] == 7  # the follower went home, the tokens did not


def test_R_TUNNEL_11_a_road_with_an_unlinked_mouth_scores_as_unfinished_at_the_end() -> None:
    game = start(["TU/RR", CROSSING])
    turn(game, 1, 0, 90, token("A", 1, 0, "W"), Deploy(location="W"))
    turn(game, -1, 0, 0)
    assert game.state.over
    final = [(a.player, a.points, a.category, a.rule) for a in game.state.awards if a.final]
    assert final == [(ANN, 3, "road", "R-BASE-8")]


# ----------------------------------------------------------------- other sets' tunnels

_AM = ("base", "am", "tunnel")
_NO_ABBEY = RuleSet(without=("abbey",))  # no abbey asked before each turn


def _underpass_placed(plain: bool) -> tuple[Game, list[str]]:
    """AM/CRcr+ east of the start tile, turned a quarter: its road under the city runs E-W."""
    rules = msgspec.structs.replace(rule_set(plain_underpass=plain), without=("abbey",))
    game = start(["AM/CRcr+", "BA/L"], rules, _AM)
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=90))
    return game, [name for name, _, kind in game.state.board.at[(1, 0)].locations() if kind == Kind.ROAD]


def test_V_TUNNEL_PLAIN_UNDERPASS_the_road_under_another_set_s_city_runs_through() -> None:
    game, names = _underpass_placed(plain=True)
    state = game.state
    assert names == ["E+W"] and tn.open_mouths(state) == [] and tokens_offered(state) == []
    assert road(state, 1, 0, "E+W") is road(state, 0, 0, "E+W")


def test_R_TUNNEL_10_the_road_under_an_abbey_and_mayor_city_is_two_mouths() -> None:
    game, names = _underpass_placed(plain=False)
    state = game.state
    assert sorted(names) == ["E", "W"]
    assert tn.open_mouths(state) == [(1, 0, "E"), (1, 0, "W")]
    assert road(state, 1, 0, "W") is road(state, 0, 0, "E+W") and road(state, 1, 0, "E").open == 2
    game.execute(ANN, token("A", 1, 0, "E"))
    game.execute(ANN, Deploy(location="W"))


def test_R_TUNNEL_10_only_with_the_tunnel_in_play_and_on_the_princess_and_dragon_tile_too() -> None:
    without = start(["AM/CRcr+", "BA/L"], _NO_ABBEY, ("base", "am"))
    without.execute(ANN, PlaceTile(x=1, y=0, rotation=90))
    assert [n for n, _, k in without.state.board.at[(1, 0)].locations() if k == Kind.ROAD] == ["E+W"]
    dragon = tn.split_underpass(TILES["DG/CRcr.d"])
    roads = [i for i, s in enumerate(dragon.segments) if s.kind == Kind.ROAD]
    assert [dragon.orientations[0].names[i] for i in roads] == ["N", "S"]
    assert [dragon.seeds[i][1] for i in roads] == [2, 2]  # an edge and a mouth each
    assert tn.UNDERPASSES == ("AM/CRcr+", "DG/CRcr.d")


# ----------------------------------------------------------------- a builder's double turn

_TB = ("base", "tb", "tunnel")


def _builder_links_in_the_first_part(rules: RuleSet | None = None) -> Game:
    """The facing mouths of `_facing_mouths`, Ann's follower on the start road (1,0) W instead; her
    builder joins it at (-1,0) with her first A on (1,0) E; her road at (-2,0) earns a builder
    tile, and in that first part her second A closes the loop (1,0) E - (2,0) W."""
    game = start(["TU/RCR", "TU/CRRR", "BA/RFr", "BA/L", "BA/RFr", "BA/L", "BA/L", "BA/L"], rules, _TB)
    turn(game, 1, 0, 0, Deploy(location="W"))
    turn(game, 2, 0, 0)
    turn(game, -1, 0, 0, token("A", 1, 0, "E"), Deploy(location="E+W", figure="builder"))
    turn(game, 0, 1, 0)
    turn(game, -2, 0, 0, token("A", 2, 0, "W"))
    assert expected_step(game.state) == Decision("place", ANN)  # the builder's tile
    game.execute(ANN, PlaceTile(x=0, y=2, rotation=0))
    return game


def test_V_TUNNEL_PER_PART_off_one_token_in_a_builders_whole_turn() -> None:
    game = _builder_links_in_the_first_part()
    assert tokens_offered(game.state) == []
    with pytest.raises(RuleViolation) as refused:
        game.execute(ANN, token("B", 2, 0, "E"))
    assert refused.value.rule == "R-TUNNEL-4"


def test_V_TUNNEL_PER_PART_on_one_token_in_each_part() -> None:
    game = _builder_links_in_the_first_part(rule_set(tunnel_per_part=True))
    assert token("B", 2, 0, "E") in tokens_offered(game.state)
    game.execute(ANN, token("B", 2, 0, "E"))
    assert tn.tunnels(game.state).left[ANN] == {"A": 0, "B": 1, "C": 2}
    replay(game.pending)


@pytest.mark.parametrize("rescore", [False, True])
def test_JCZ_TUNNEL_RESCORE_the_first_parts_link_is_looked_at_again_in_the_second(rescore: bool) -> None:
    game = _builder_links_in_the_first_part(rule_set(tunnel_rescore=rescore))
    loop = road(game.state, 1, 0, "E")
    assert loop.open == 0  # completed by the first part's link, empty, so nobody scored it
    assert [a for a in game.state.awards if a.feature == loop.id] == []
    again = any(f is loop for f in game.state.completions())
    assert again == rescore


# ----------------------------------------------------------------- play, replays, JCloisterZone


def test_bots_play_the_tunnel_and_their_games_replay() -> None:
    for seed in range(3):
        game = play_bot_game(2 + seed, seed, expansions=("base", "am", "pd", "tunnel"))
        events = game.collect_events()
        assert replay(events).state.scores == game.state.scores
        assert any(isinstance(e, tn.TunnelTokenPlaced) for e in events)


def test_a_jcz_save_of_the_tunnel_imports_its_tokens() -> None:
    path = require(JCZ / "oracle-wave2" / "basic_tunnel-p2-s510007.jcz")
    _, events = import_jcz(path)
    placed = [e for e in events if isinstance(e, tn.TunnelTokenPlaced)]
    assert len(placed) == 10
    first = placed[0]
    assert (first.player, first.token, first.x, first.y, first.location) == (0, "A", 5, 1, "W")
    exported = msgspec.json.decode(export_jcz(events))
    tokens = [m["payload"] for m in exported["replay"] if m["type"] == "PLACE_TOKEN"]
    pointer = {"position": [5, 1], "location": "W", "feature": "Road"}
    assert tokens[0] == {"token": "TUNNEL_A", "pointer": pointer}
    assert exported["setup"]["sets"] == {"basic:1": 1, "tunnel": 1}
    assert exported["setup"]["rules"] == {}
    assert JCZ_READING["tunnel_rescore"] is True
