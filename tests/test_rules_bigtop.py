"""Under the Big Top: one or more scenarios per rule id (docs/RULES.md 16, R-BIGTOP-1..12), its
switch both ways (V-BIGTOP-RINGMASTER-OWNER), the animal tokens as a draw of chance, and the
tokens JCloisterZone drew, read back from its saves.

The start tile BA/RCr lies at (0,0): city N, road E+W, field S. Circus tiles go east and west of
it: BT/frfr.bt at (1,0) (roads W and E, ending at the circus) and BT/crfr.bt at (-1,0) (city N,
roads W and E); BT/ffff.ac (all field, an acrobat space) goes south of it, at (0,1). Each
token is set by the test (`tokens`), as an import sets it from the save.
"""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from domain.aggregate import Game
from domain.bots import play_bot_game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.events import Event
from domain.expansions import bigtop as bt, bridges as br, fairy as fy, wagon as wg
from domain.moves import expected_step, legal_commands, legal_deployments, legal_placements
from domain.readings import rule_set
from domain.replay import replay
from domain.rules import RuleSet
from domain.state import GameState, Phase
from domain.tiles import TILES
from domain.turns import Chance
from projections.svg import render_svg
from projections.text import render_board
from replays.jcz import ReplayVisitor, read_jcz, replay_jcz
from replays.jcz_draws import JczRandom, plan_draws, random_giving
from replays.jcz_export import export_jcz, jcz_document
from replays.sources import import_jcz
from tests.reference import jcz_files, require

ANN, BOB = 0, 1
BIGTOP = ("base", "bigtop")
Step = tuple[str, int, int, int, str | Command | None]

CIRCUS_EAST: Step = ("BT/frfr.bt", 1, 0, 0, None)
CIRCUS_WEST: Step = ("BT/crfr.bt", -1, 0, 0, None)
ACROBATS_SOUTH: Step = ("BT/ffff.ac", 0, 1, 0, None)


def played(
    steps: Sequence[Step],
    *,
    extra: Sequence[str] = ("BA/C",),
    expansions: Sequence[str] = BIGTOP,
    rules: RuleSet | None = None,
    token: int = 4,
) -> Game:
    """A game whose pile is the steps' tiles and then `extra`, played step by step; every animal
    token drawn shows `token` while one such is left."""
    pile = [step[0] for step in steps] + list(extra)
    game = Game.start(("Ann", "Bob"), pile, expansions=tuple(expansions), rules=rules)
    tokens(game, token)
    for step in steps:
        turn(game, *step[1:])
    return game


def tokens(game: Game, points: int) -> None:
    """Animal tokens drawn from now on show `points` (the first left of that value)."""
    game.roll = lambda state, chance: _token(chance, points)


def _token(chance: Chance, points: int) -> Event:
    found = [e for e in chance.outcomes if isinstance(e, bt.AnimalRevealed) and e.points == points]
    return found[0] if found else chance.outcomes[0]


def turn(game: Game, x: int, y: int, rotation: int, then: str | Command | None = None) -> None:
    state = game.state
    player = state.current
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    if isinstance(then, str):
        game.execute(player, Deploy(location=then))
    elif then is not None:
        game.execute(player, then)
    elif state.phase == Phase.ACTION:
        game.execute(player, Pass())


def scored(game: Game, *, final: bool | None = None) -> list[tuple[int, int, str]]:
    return [(a.player, a.points, a.category) for a in game.state.awards if final is None or a.final == final]


def revealed(game: Game) -> list[bt.AnimalRevealed]:
    return [e for e in game.pending if isinstance(e, bt.AnimalRevealed)]


def ring(location: str, x: int | None = None, y: int | None = None) -> Deploy:
    return Deploy(location=location, figure="ringmaster", x=x, y=y)


def acrobat(x: int, y: int) -> Deploy:
    return Deploy(location=bt.SPACE, x=x, y=y)


# ----------------------------------------------------------------- R-BIGTOP-1: tiles, the big top


def test_R_BIGTOP_1_twenty_tiles_twelve_circus_eight_acrobat() -> None:
    tiles = [t for t in TILES.values() if t.expansion == "bigtop"]
    assert sum(t.count for t in tiles) == 20
    assert sum(t.count for t in tiles if bt.CIRCUS in t.tags) == 12
    assert sum(t.count for t in tiles if any(s.name == bt.SPACE for s in t.segments)) == 8


def test_R_BIGTOP_1_the_first_circus_tile_receives_the_big_top_without_a_token() -> None:
    game = played([CIRCUS_EAST])
    assert bt.circus(game.state).at == (1, 0)
    assert revealed(game) == []


def test_R_BIGTOP_1_a_later_circus_tile_takes_it_after_the_completed_features_scored() -> None:
    # Ann's thief on the road between the two circuses: Bob's circus completes it, Ann scores it
    # and takes her thief home before the big top's old tile scores: nobody is left near it.
    game = played([("BT/frfr.bt", 1, 0, 0, "W"), CIRCUS_WEST])
    assert bt.circus(game.state).at == (-1, 0)
    assert [(e.x, e.y) for e in revealed(game)] == [(1, 0)]
    assert scored(game) == [(ANN, 3, "road")]


def test_R_BIGTOP_1_the_big_top_leaves_once_the_wagons_have_moved_on() -> None:
    # Ann's wagon on the road Bob's circus completes; it rolls on to the road east of the old
    # circus, near the big top, and is counted there when the big top leaves.
    steps: list[Step] = [
        ("BT/frfr.bt", 1, 0, 0, Deploy(location="W", figure="wagon")),
        CIRCUS_WEST,
    ]
    game = played(steps, expansions=("base", "am", "bigtop"), token=5)
    assert revealed(game) == []
    decision = expected_step(game.state)
    assert decision is not None and decision.step == "wagon"
    game.execute(ANN, wg.MoveWagon(x=1, y=0, location="E"))
    assert [(e.x, e.y) for e in revealed(game)] == [(1, 0)]
    assert (ANN, 5, "bigtop") in scored(game)


# ----------------------------------------------------------------- R-BIGTOP-2: the tokens


def test_R_BIGTOP_2_sixteen_tokens_drawn_by_chance_each_shown_once() -> None:
    game = Game.start(("Ann", "Bob"), ["BT/frfr.bt", "BT/crfr.bt", "BA/C"], expansions=BIGTOP)
    seen: list[list[int]] = []

    def pick(state: object, chance: Chance) -> Event:
        seen.append(sorted(e.points for e in chance.outcomes if isinstance(e, bt.AnimalRevealed)))
        return _token(chance, 7)

    game.roll = pick
    turn(game, 1, 0, 0)
    turn(game, -1, 0, 0)
    assert seen[0] == [1, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 6, 6, 7]
    assert bt.circus(game.state).shown == [7]
    assert bt.tokens_left(bt.circus(game.state).shown) == [1, 3, 3, 3, 3, 4, 4, 4, 4, 4, 5, 5, 5, 6, 6]


def test_R_BIGTOP_2_the_token_is_recorded_and_replays() -> None:
    game = played([CIRCUS_EAST, CIRCUS_WEST], token=6)
    assert next(e.points for e in revealed(game)) == 6
    again = replay(game.pending)
    assert again.state.scores == game.state.scores


# ----------------------------------------------------------------- R-BIGTOP-3: around the big top


def test_R_BIGTOP_3_each_follower_near_the_big_top_scores_the_token() -> None:
    # Ann's thief east of the circus at (1,0) and her farmer at (0,1) (both near it); Bob's knight
    # in the city of (-1,0) is two tiles away.
    steps: list[Step] = [
        ("BT/frfr.bt", 1, 0, 0, "E"),
        ("BT/crfr.bt", -1, 0, 0, "N"),  # the big top leaves (1,0): Ann's one thief scores
    ]
    game = played(steps, token=5)
    assert scored(game, final=False) == [(ANN, 5, "bigtop")]
    award = game.state.awards[0]
    assert award.parts == (("meeples", 1),)


def test_R_BIGTOP_3_every_player_counts_followers_of_every_kind() -> None:
    steps: list[Step] = [
        ("BT/frfr.bt", 1, 0, 0, "E"),  # Ann's thief, near
        ("BA/L", 0, 1, 0, "cloister"),  # Bob's monk, near (diagonal)
        ("BA/L", 1, 1, 0, ring("cloister")),  # Ann's ringmaster, near
        ("BT/crfr.bt", -1, 0, 0, None),  # Bob's circus: (1,0) scores
    ]
    game = played(steps, token=3)
    assert sorted(scored(game, final=False)) == [(ANN, 6, "bigtop"), (BOB, 3, "bigtop")]


# ----------------------------------------------------------------- R-BIGTOP-4: at the end


def test_R_BIGTOP_4_the_big_tops_last_tile_scores_at_the_end() -> None:
    game = played([("BT/frfr.bt", 1, 0, 0, "E")], extra=(), token=7)
    assert game.state.over
    assert sorted(scored(game, final=True)) == [(ANN, 1, "road"), (ANN, 7, "bigtop")]
    assert bt.circus(game.state).final


# ----------------------------------------------------------------- R-BIGTOP-5, 6: the ringmaster


def test_R_BIGTOP_5_the_ringmaster_is_a_follower_scored_with_its_feature() -> None:
    game = played([("BT/frfr.bt", 1, 0, 0, ring("W"))], extra=("BT/crfr.bt", "BA/C"))
    assert game.state.ext["figures"]["ringmaster"] == [0, 1]
    turn(game, -1, 0, 0)  # Bob completes the road
    assert (ANN, 3, "road") in scored(game)
    assert game.state.ext["figures"]["ringmaster"] == [1, 1]


def test_R_BIGTOP_5_each_player_has_one_ringmaster() -> None:
    game = played([("BT/frfr.bt", 1, 0, 0, ring("W")), ("BA/L", 0, 1, 0, None)], extra=("BA/L", "BA/C"))
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    assert legal_deployments(game.state, "ringmaster") == []
    with pytest.raises(RuleViolation, match="no ringmaster left"):
        game.execute(ANN, ring("cloister"))


def test_R_BIGTOP_6_the_ringmaster_never_joins_the_acrobats() -> None:
    game = played([], extra=("BT/ffff.ac", "BA/C"))
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert bt.SPACE in legal_deployments(game.state)
    assert bt.SPACE not in legal_deployments(game.state, "ringmaster")
    with pytest.raises(RuleViolation, match="never joins the acrobats"):
        game.execute(ANN, ring(bt.SPACE))


# ----------------------------------------------------------------- R-BIGTOP-7: the ringmaster's bonus


def test_R_BIGTOP_7_two_for_each_circus_and_acrobat_tile_around_the_ringmaster() -> None:
    steps: list[Step] = [
        ("BT/frfr.bt", 1, 0, 0, ring("W")),  # Ann's ringmaster on the road to the start tile
        ("BT/ffff.ac", 1, 1, 0, None),  # an acrobat tile beside it
        ("BT/crfr.bt", -1, 0, 0, None),  # completes the road; (-1,0) is two tiles away
    ]
    game = played(steps)
    assert sorted(scored(game)) == [(ANN, 3, "road"), (ANN, 4, "ringmaster")]
    bonus = next(a for a in game.state.awards if a.category == "ringmaster")
    assert bonus.parts == (("circus", 1), ("acrobats", 1))


OUTVOTED: list[Step] = [
    ("BA/Rr", 1, 0, 0, ring("S+W")),  # Ann's ringmaster on the start tile's road, turned south
    ("BA/Rr", 0, 1, 270, Deploy(location="E+S", figure="big")),  # Bob's large follower beside it
    ("BT/ffff.ac", 1, -1, 0, None),  # an acrobat tile next to Ann's ringmaster
    ("BA/Rr", 1, 1, 90, None),  # joins the two roads: Bob holds the majority
]


def test_R_BIGTOP_7_an_outvoted_ringmaster_still_brings_its_bonus() -> None:
    game = played(OUTVOTED, extra=(), expansions=("base", "ic", "bigtop"))
    assert game.state.over
    final = sorted(scored(game, final=True))
    assert (ANN, 2, "ringmaster") in final
    assert not any(p == ANN and c == "road" for p, _, c in final)


def test_V_BIGTOP_RINGMASTER_OWNER_only_a_scorer_of_the_feature_gets_the_bonus() -> None:
    rules = rule_set(ringmaster_owner_only=True)
    game = played(OUTVOTED, extra=(), expansions=("base", "ic", "bigtop"), rules=rules)
    assert not any(c == "ringmaster" for _, _, c in scored(game))
    # In the majority, the bonus is there under this reading too.
    steps: list[Step] = [("BT/frfr.bt", 1, 0, 0, ring("W")), CIRCUS_WEST]
    alone = played(steps, rules=rules)
    assert (ANN, 2, "ringmaster") in scored(alone)
    assert (
        next(a.rule for a in alone.state.awards if a.category == "ringmaster") == "V-BIGTOP-RINGMASTER-OWNER"
    )


# ----------------------------------------------------------------- R-BIGTOP-8, 9: the acrobats


def test_R_BIGTOP_8_an_acrobat_goes_on_the_tile_placed_or_one_around_it() -> None:
    game = played([ACROBATS_SOUTH], extra=("BA/L", "BA/L", "BA/C"))
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))  # beside the acrobat tile
    assert acrobat(0, 1) in legal_commands(game.state)
    game.execute(BOB, acrobat(0, 1))
    assert bt.pyramid(game.state, (0, 1)).figures[0][0] == BOB
    game.execute(ANN, PlaceTile(x=2, y=1, rotation=0))  # two tiles away: not offered
    assert acrobat(0, 1) not in legal_commands(game.state)
    with pytest.raises(RuleViolation):
        game.execute(ANN, acrobat(0, 1))


def test_R_BIGTOP_8_through_a_magic_portal_any_acrobat_space() -> None:
    game = played([ACROBATS_SOUTH], extra=("DG/Ccc+.g", "BA/C"), expansions=("base", "pd", "bigtop"))
    game.execute(BOB, PlaceTile(x=0, y=-1, rotation=180))  # two tiles from the acrobats
    assert acrobat(0, 1) in legal_commands(game.state)
    game.execute(BOB, acrobat(0, 1))
    assert bt.pyramid(game.state, (0, 1)).figures[0][0] == BOB


def test_R_BIGTOP_8_only_the_plain_follower_joins_the_acrobats() -> None:
    game = played([], extra=("BT/ffff.ac", "BA/C"), expansions=("base", "ic", "bigtop"))
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert bt.SPACE in legal_deployments(game.state)
    assert bt.SPACE not in legal_deployments(game.state, "big")


def test_R_BIGTOP_9_a_pyramid_holds_three_followers() -> None:
    steps: list[Step] = [
        ("BT/ffff.ac", 0, 1, 0, bt.SPACE),  # Ann
        ("BA/L", 1, 1, 0, acrobat(0, 1)),  # Bob
        ("BA/L", -1, 1, 0, acrobat(0, 1)),  # Ann
    ]
    game = played(steps, extra=("BA/L", "BA/C"))
    assert len(bt.pyramid(game.state, (0, 1)).figures) == 3
    game.execute(BOB, PlaceTile(x=0, y=2, rotation=0))
    assert acrobat(0, 1) not in legal_commands(game.state)


# ----------------------------------------------------------------- R-BIGTOP-10, 11: acrobats score


FULL: list[Step] = [
    ("BT/ffff.ac", 0, 1, 0, bt.SPACE),  # Ann
    ("BA/L", 1, 1, 0, acrobat(0, 1)),  # Bob
    ("BA/L", -1, 1, 0, acrobat(0, 1)),  # Ann
]


def test_R_BIGTOP_10_a_full_pyramid_may_be_scored_instead_of_deploying() -> None:
    game = played(FULL, extra=("BA/L", "BA/C", "BA/C"))
    game.execute(BOB, PlaceTile(x=0, y=2, rotation=0))
    score = bt.ScoreAcrobats(x=0, y=1)
    assert score in legal_commands(game.state)
    game.execute(BOB, score)
    assert sorted(scored(game)) == [(ANN, 10, "acrobats"), (BOB, 5, "acrobats")]
    assert bt.pyramid(game.state, (0, 1)).figures == []
    assert game.state.supply == [7, 7]
    assert replay(game.pending).state.scores == game.state.scores


def test_R_BIGTOP_10_only_a_full_pyramid_scores() -> None:
    game = played(FULL[:2], extra=("BA/L", "BA/C"))
    game.execute(ANN, PlaceTile(x=-1, y=1, rotation=0))
    with pytest.raises(RuleViolation, match="no full acrobat pyramid"):
        game.execute(ANN, bt.ScoreAcrobats(x=0, y=1))


def test_R_BIGTOP_11_every_pyramid_scores_at_the_end() -> None:
    game = played(FULL[:2], extra=())
    assert game.state.over
    assert sorted(scored(game, final=True)) == [(ANN, 5, "acrobats"), (BOB, 5, "acrobats")]


# ----------------------------------------------------------------- R-BIGTOP-12: the parts apart


def test_R_BIGTOP_12_without_the_big_top_circus_tiles_are_plain() -> None:
    game = played([CIRCUS_EAST, CIRCUS_WEST], rules=rule_set(without=("bigtop",)))
    assert not game.state.has(bt.BIG_TOP)
    assert revealed(game) == []


def test_R_BIGTOP_12_without_the_acrobats_nobody_deploys_there() -> None:
    game = played([], extra=("BT/ffff.ac", "BA/C"), rules=rule_set(without=("acrobats",)))
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert bt.SPACE not in legal_deployments(game.state)


def test_R_BIGTOP_12_without_the_ringmaster_nobody_has_one() -> None:
    game = played([], extra=("BT/frfr.bt", "BA/C"), rules=rule_set(without=("ringmaster",)))
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    assert not any(isinstance(c, Deploy) and c.figure == "ringmaster" for c in legal_commands(game.state))


# ----------------------------------------------------------------- bots, the view


def test_bots_play_big_top_games_to_the_end() -> None:
    for seed in range(3):
        game = play_bot_game(("A", "B", "C"), expansions=BIGTOP, seed=seed)
        assert game.state.over
        assert replay(game.pending).state.scores == game.state.scores


def test_the_text_board_shows_the_big_top() -> None:
    game = played([CIRCUS_EAST])
    assert "%" in render_board(game.state)


def test_the_svg_board_draws_the_big_top() -> None:
    game = played([CIRCUS_EAST])
    svg = render_svg(game.state)
    ET.fromstring(svg)
    assert 'class="bigtop"' in svg or "bigtop" in svg


# ----------------------------------------------------------------- JCloisterZone's saves


def test_a_pyramid_scored_and_the_tokens_drawn_come_back_from_a_save(tmp_path: Path) -> None:
    steps: list[Step] = [
        ("BT/frfr.bt", 1, 0, 0, "E"),
        ("BT/ffff.ac", 0, 1, 0, bt.SPACE),
        ("BA/L", 1, 1, 0, acrobat(0, 1)),
        ("BT/crfr.bt", -1, 0, 0, acrobat(0, 1)),  # the big top moves: a token drawn
    ]
    game = played(steps, extra=("BA/L", "BA/C"), token=6)
    game.execute(ANN, PlaceTile(x=0, y=2, rotation=0))
    game.execute(ANN, bt.ScoreAcrobats(x=0, y=1))
    events = game.collect_events()
    document = jcz_document(events)
    assert any(m["type"] == "SCORE_ACROBATS" for m in document["replay"])
    path = tmp_path / "game.jcz"
    path.write_bytes(export_jcz(events))
    _, again = import_jcz(path)
    assert [e for e in again if isinstance(e, bt.AnimalRevealed)] == [
        msgspec.structs.replace(e, originator_id=again[0].originator_id)
        for e in events
        if isinstance(e, bt.AnimalRevealed)
    ]


@pytest.mark.parametrize("draws", [[(0, 16)], [(15, 16)], [(7, 15), (3, 14)], [(0, 12), (10, 11)]])
def test_a_commit_random_draws_the_tokens_wanted(draws: list[tuple[int, int]]) -> None:
    generator = JczRandom(random_giving(draws))
    assert [generator.next_int(n) for _, n in draws] == [k for k, _ in draws]


def test_jcloisterzone_s_tokens_are_read_from_the_commits_random() -> None:
    path = require(jcz_files("oracle-wave2", "basic_bigtop-p3-*.jcz")[0])
    _, events = import_jcz(path)
    shown = [e.points for e in events if isinstance(e, bt.AnimalRevealed)]
    assert len(shown) == 12  # eleven moves of the big top and the last one at the end
    assert all(points in (1, 3, 4, 5, 6, 7) for points in shown)


def test_JCZ_BIGTOP_LARGE_the_large_follower_on_an_empty_space_of_the_tile_placed() -> None:
    rules = rule_set(acrobats_large_follower=True)
    game = played([], extra=("BT/ffff.ac", "BA/L", "BA/C"), expansions=("base", "ic", "bigtop"), rules=rules)
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert bt.SPACE in legal_deployments(game.state, "big")
    game.execute(ANN, Deploy(location=bt.SPACE, figure="big"))
    assert bt.pyramid(game.state, (0, 1)).figures[0][2] == "big"
    # Never onto a pyramid begun, nor from a tile around.
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))
    assert Deploy(location=bt.SPACE, figure="big", x=0, y=1) not in legal_commands(game.state)
    # Off (the printed rules): only the plain follower goes there (R-BIGTOP-8).
    off = played([], extra=("BT/ffff.ac", "BA/C"), expansions=("base", "ic", "bigtop"))
    off.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert bt.SPACE not in legal_deployments(off.state, "big")
    with pytest.raises(RuleViolation):
        off.execute(ANN, Deploy(location=bt.SPACE, figure="big"))


# ----------------------------------------------------------------- R-BIGTOP-13: bridges


def _bridge_over_acrobats(acrobat_up: bool) -> list[PlaceTile]:
    """Ann's crossroads placements once Bob did or did not put an acrobat on the acrobat tile
    south of the start: at (1, 1) the crossroads fits only with a bridge EW across that tile."""
    game = played([ACROBATS_SOUTH], extra=("BA/RFr", "BA/RRRR", "BA/C"), expansions=("base", "bcb", "bigtop"))
    game.execute(BOB, PlaceTile(x=-1, y=0, rotation=0))  # diagonal to the acrobat tile
    game.execute(BOB, acrobat(0, 1) if acrobat_up else Pass())
    return [c for c in legal_commands(game.state) if isinstance(c, PlaceTile) and (c.x, c.y) == (1, 1)]


def test_R_BIGTOP_13_no_bridge_across_a_tile_whose_acrobat_space_holds_a_follower() -> None:
    assert _bridge_over_acrobats(acrobat_up=True) == []


def test_R_BIGTOP_13_an_empty_acrobat_space_lets_the_bridge_across() -> None:
    found = _bridge_over_acrobats(acrobat_up=False)
    assert found and all(c.bridge is not None and (c.bridge.x, c.bridge.y) == (0, 1) for c in found)


class _Commits(ReplayVisitor):
    """The awards each turn part holds when the replay of a save ends it."""

    def __init__(self) -> None:
        self.parts: list[list[tuple[int, int, str]]] = []

    def committed(self, index: int, state: GameState) -> None:
        self.parts.append([(a.player, a.points, a.category) for a in state.awards])


def test_R_BIGTOP_1_a_save_ends_the_part_after_the_wagon_so_the_big_top_scores_in_it(tmp_path: Path) -> None:
    # JCloisterZone commits the wagon's move apart, after the part's first COMMIT; the big top
    # leaves after the move, within the same turn part, and its score history says so.
    steps: list[Step] = [("BT/frfr.bt", 1, 0, 0, Deploy(location="W", figure="wagon")), CIRCUS_WEST]
    game = played(steps, expansions=("base", "am", "bigtop"), token=5)
    game.execute(ANN, wg.MoveWagon(x=1, y=0, location="E"))
    (tmp_path / "game.jcz").write_bytes(export_jcz(game.collect_events()))
    loaded = read_jcz(tmp_path / "game.jcz")
    visitor = _Commits()
    replay_jcz(loaded, plan_draws(loaded).order, visitor)
    assert len(visitor.parts) == 2  # Ann's circus, then Bob's with the wagon's move in it
    assert (ANN, 5, "bigtop") in visitor.parts[1]


@pytest.mark.parametrize("jcz", [True, False])
def test_JCZ_BIGTOP_BRIDGE_an_acrobat_space_under_a_bridge_takes_no_follower(jcz: bool) -> None:
    """JCloisterZone keeps followers off an acrobat space whose tile holds a bridge (a judged
    all-sets game, 5 players seed 35, refused one deployed there); off, the bridge changes nothing."""
    rules = rule_set(acrobats_not_under_bridge=jcz)
    game = played([], extra=("BT/ffff.ac", "BA/C"), expansions=("base", "bcb", "bigtop"), rules=rules)
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    assert bt.SPACE in legal_deployments(game.state, "follower")
    game.execute(ANN, br.PlaceBridge(x=0, y=1, axis="EW"))
    assert (bt.SPACE in legal_deployments(game.state, "follower")) is not jcz
    if jcz:
        with pytest.raises(RuleViolation):
            game.execute(ANN, Deploy(location=bt.SPACE))


@pytest.mark.parametrize("jcz", [True, False])
def test_JCZ_FAIRY_PYRAMID_the_fairy_by_an_acrobat_counts_each_follower_of_whoever_starts_a_turn(
    jcz: bool,
) -> None:
    """Ann's fairy stands by her acrobat on a pyramid Bob climbed too: as his turn starts,
    JCloisterZone gives Bob 1 for his follower there (a judged all-sets game, 3 players seed 37);
    off, the fairy gives her follower's owner alone (R-PD-5)."""
    rules = rule_set(fairy_pyramid_counts=jcz)
    pile = ["BT/ffff.ac", "BT/ffff.ac", "BA/C", "BA/C", "BA/C"]
    game = Game.start(("Ann", "Bob"), pile, expansions=("base", "pd", "bigtop"), rules=rules)
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    game.execute(ANN, Deploy(location=bt.SPACE))
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))
    game.execute(BOB, acrobat(0, 1))
    x, y, rotation = legal_placements(game.state)[0]
    game.execute(ANN, PlaceTile(x=x, y=y, rotation=rotation))
    game.execute(ANN, fy.MoveFairy(x=0, y=1, location=bt.SPACE))
    assert scored(game) == ([(BOB, 1, "fairy.turn")] if jcz else [])
