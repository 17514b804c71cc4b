"""Cult Places: the shrines, one or more scenarios per rule id (docs/RULES.md 13, R-CULT-1..8),
and its two switches both ways (V-CULT-OCCUPIED-ONLY, JCZ-CULT-WAGON).

The start tile BA/RCr lies at (0,0): city N, road E+W, field S. Most scenarios build the same
corner below it: a shrine (or cloister) at (0,1), its rival at (1,1), the start's road extended
by BA/RFr tiles at (-1,0) and (1,0), and BA/C tiles whose cities face empty squares filling the
rest of the shrine's ring, (0,2) last. The rival's ring reaches (2,0), (2,1) and (2,2), left empty,
so it stays unfinished.
"""

from __future__ import annotations

import json
from collections.abc import Sequence
from pathlib import Path

import msgspec
import pytest

from domain.aggregate import Game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import abbey as ab, fairy as fy, shrines as sh, wagon as wg
from domain.moves import Decision, expected_step, legal_commands, legal_placements, placement_refusal
from domain.readings import rule_set
from domain.replay import audit, replay
from domain.rules import RuleSet
from domain.state import Phase
from domain.tiles import TILES
from replays.check import score_name
from replays.jcz import JCZ_READING, jcz_rules, replay_jcz
from replays.jcz_draws import plan_draws
from replays.jcz_export import export_jcz, jcz_setup
from replays.sources import import_jcz
from tests.jcz_saves import commit, decode, deploy, pass_, place, save

ANN, BOB = 0, 1
CULT = ("base", "cult")
# One turn: the tile, where and how it goes, and what its player does then (a location to deploy
# a follower on, a command, or nothing: a pass).
Step = tuple[str, int, int, int, str | Command | None]


def corner(shrine_at: tuple[int, int] = (0, 1), ann: bool = True, bob: bool = True) -> list[Step]:
    """Ann's tile at (0,1) and Bob's at (1,1), one a shrine, the other a cloister (the shrine at
    `shrine_at`), each with a follower unless told otherwise; then the ring of (0,1) but (0,2)."""
    first, second = ("CU/S", "BA/L") if shrine_at == (0, 1) else ("BA/L", "CU/S")
    return [
        (first, 0, 1, 0, "cloister" if ann else None),  # Ann
        (second, 1, 1, 0, "cloister" if bob else None),  # Bob: it touches Ann's
        ("BA/RFr", -1, 0, 0, None),
        ("BA/RFr", 1, 0, 0, None),
        ("BA/C", -1, 1, 270, None),
        ("BA/C", -1, 2, 270, None),
        ("BA/C", 1, 2, 90, None),  # Ann
    ]


LAST: Step = ("BA/C", 0, 2, 180, None)  # Bob closes the ring of (0,1)


def turn(game: Game, x: int, y: int, rotation: int, then: str | Command | None = None) -> None:
    """The current player places the tile they hold (declining an abbey first) and acts."""
    decline_abbeys(game)
    state = game.state
    player = state.current
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    if isinstance(then, str):
        game.execute(player, Deploy(location=then))
    elif then is not None:
        game.execute(player, then)
    elif state.phase == Phase.ACTION:
        game.execute(player, Pass())


def decline_abbeys(game: Game) -> None:
    while (decision := expected_step(game.state)) is not None and decision.step == "abbey":
        game.execute(decision.player, Pass())


def played(
    steps: Sequence[Step],
    *,
    extra: Sequence[str] = ("BA/C",),
    expansions: Sequence[str] = CULT,
    rules: RuleSet | None = None,
) -> Game:
    """A game whose pile is the steps' tiles and then `extra`, played step by step."""
    pile = [step[0] for step in steps] + list(extra)
    game = Game.start(("Ann", "Bob"), pile, expansions=tuple(expansions), rules=rules)
    for _, x, y, rotation, then in steps:
        turn(game, x, y, rotation, then)
    return game


def scored(game: Game) -> list[tuple[int, int, str, str]]:
    return [(a.player, a.points, a.category, a.rule) for a in game.state.awards]


def followers_at(game: Game, x: int, y: int) -> list[tuple[int, str]]:
    board = game.state.board
    feature = board.graph.feature(board.at[(x, y)].segment("cloister"))
    return [(player, kind) for player, _, kind in feature.figures]


def refused(game: Game, x: int, y: int, rotation: int = 0) -> str:
    """The rule a placement of the held tile is refused by (it fits by its edges)."""
    assert rotation in game.state.board.rotations_at(game.state.tile, (x, y))  # type: ignore[arg-type]
    assert (x, y, rotation) not in legal_placements(game.state)
    with pytest.raises(RuleViolation) as error:
        game.execute(game.state.current, PlaceTile(x=x, y=y, rotation=rotation))
    return error.value.rule


# ----------------------------------------------------------------- R-CULT-1, R-CULT-2: the shrines


def test_R_CULT_1_six_tiles_each_with_a_shrine_in_the_middle() -> None:
    cult = [t for t in TILES.values() if t.expansion == "cult"]
    assert [t.id for t in cult] == ["CU/S", "CU/SC", "CU/SR", "CU/SCFR", "CU/SRFR", "CU/SRCR"]
    assert all(t.count == 1 and sh.is_shrine(t) for t in cult)
    assert not any(sh.is_shrine(t) for t in TILES.values() if t.expansion != "cult")
    assert TILES["BA/L"].cloister and not sh.is_shrine(TILES["BA/L"])


def test_R_CULT_1_without_the_shrines_part_a_shrine_is_a_plain_cloister() -> None:
    """JCloisterZone without the `shrine` element: no name of its own, no limit, no challenge."""
    without = rule_set(without=("shrines",))
    game = played([*corner(), LAST], rules=without)
    assert scored(game) == [(ANN, 9, "cloister", "R-BASE-5")]  # Bob's cloister keeps its follower
    assert followers_at(game, 1, 1) == [(BOB, "follower")]
    two = _two_cloisters_then_shrine(occupy_second=True, rules=without)
    assert (1, 1, 0) in legal_placements(two.state)  # a shrine beside two cloisters


def test_R_CULT_1_a_save_without_the_shrine_element_leaves_the_part_out() -> None:
    sets = {"basic:1": 1, "cult/6": 1}
    base = {"small-follower": 7, "farmers": True}
    assert "shrines" in jcz_rules(decode(save([], sets=sets, elements=base))).without
    assert "shrines" not in jcz_rules(decode(save([], sets=sets, elements={**base, "shrine": True}))).without


def test_R_CULT_2_a_completed_shrine_scores_nine_as_a_shrine() -> None:
    game = played([*corner(bob=False), LAST])
    assert scored(game) == [(ANN, 9, "shrine", "R-BASE-5")]
    assert score_name(game.state.awards[0]) == "shrine"
    assert game.state.supply == [7, 7]
    replay(game.pending)


def test_R_CULT_2_an_unfinished_shrine_scores_one_a_tile_at_the_end() -> None:
    """JCloisterZone's `shrine-scoring` test: a shrine at (0,1), one tile at (1,0), the end."""
    game = played([("CU/S", 0, 1, 0, "cloister"), ("BA/RFr", 1, 0, 0, None)], extra=())
    assert game.state.over
    award = game.state.awards[0]
    assert (award.player, award.points, award.category, award.final) == (ANN, 3, "shrine", True)
    assert award.parts == (("tiles", 3),)
    assert score_name(award) == "shrine.incomplete"


def test_R_CULT_2_a_wagon_may_go_on_a_shrine() -> None:
    game = played([("BA/RFr", 1, 0, 0, None)], extra=("CU/SR",), expansions=("base", "am", "cult"))
    game.execute(BOB, PlaceTile(x=2, y=0, rotation=90))  # its road W runs into the shrine
    assert Deploy(location="cloister", figure="wagon") in legal_commands(game.state)


# ----------------------------------------------------------------- R-CULT-3, R-CULT-4: placement


def _two_cloisters(occupy_second: bool) -> list[Step]:
    """Cloisters at (0,1) (Ann's follower) and (2,1), then a shrine in Ann's hand for (1,1)."""
    return [
        ("BA/L", 0, 1, 0, "cloister"),
        ("BA/RFr", 1, 0, 0, None),
        ("BA/RFr", 2, 0, 0, None),
        ("BA/L", 2, 1, 0, "cloister" if occupy_second else None),  # Bob
    ]


def _two_cloisters_then_shrine(occupy_second: bool, rules: RuleSet | None = None) -> Game:
    return played(_two_cloisters(occupy_second), extra=("CU/S", "BA/C"), rules=rules)


def test_R_CULT_3_a_shrine_may_touch_at_most_one_cloister() -> None:
    game = _two_cloisters_then_shrine(occupy_second=False)
    assert refused(game, 1, 1) == "R-CULT-3"
    assert (3, 1, 0) in legal_placements(game.state)  # beside the cloister (2,1) alone


def test_R_CULT_3_a_cloister_may_touch_at_most_one_shrine() -> None:
    steps: list[Step] = [
        ("CU/S", 0, 1, 0, None),
        ("BA/RFr", 1, 0, 0, None),
        ("BA/RFr", 2, 0, 0, None),
        ("CU/SC", 2, 1, 180, None),  # its city S faces an empty square
    ]
    game = played(steps, extra=("BA/L", "BA/C"))
    assert refused(game, 1, 1) == "R-CULT-3"
    with pytest.raises(RuleViolation) as error:
        game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    assert "at most one shrine" in error.value.message


def test_R_CULT_4_a_cloister_may_not_be_a_shrines_second() -> None:
    """Ann's shrine at (0,1) already touches Bob's cloister at (1,1): a cloister at (-1,1) would
    touch only that shrine, but be its second cloister."""
    game = played(corner()[:2], extra=("BA/L", "BA/C"))
    assert refused(game, -1, 1) == "R-CULT-4"
    assert refused(game, 0, 2) == "R-CULT-4"  # touches both, one of them a shrine


def test_R_CULT_4_a_shrine_may_not_be_a_cloisters_second() -> None:
    game = played(corner(shrine_at=(1, 1))[:2], extra=("CU/SC", "BA/C"))
    assert refused(game, -1, 1, 180) == "R-CULT-4"


def test_R_CULT_4_followers_do_not_matter() -> None:
    game = played(corner(ann=False, bob=False)[:2], extra=("BA/L", "BA/C"))
    assert refused(game, -1, 1) == "R-CULT-4"


def _hole_between(rival: str, rotation: int) -> Game:
    """Ann's shrine at (0,1); the square (1,1) becomes a hole, the last tile `rival` at (2,1)
    beside it: Bob holds his abbey at the end."""
    steps: list[Step] = [
        ("CU/S", 0, 1, 0, "cloister"),  # Ann
        ("BA/RFr", -1, 0, 0, None),
        ("BA/RFr", 1, 0, 0, None),
        ("BA/C", -1, 1, 270, None),
        ("BA/C", -1, 2, 270, None),
        ("BA/C", 0, 2, 180, None),
        ("BA/RFr", 2, 0, 0, None),
        (rival, 2, 1, rotation, None),  # its city E
        ("BA/C", 1, 2, 90, None),  # Ann's, the last: (1,1) is a hole
    ]
    return played(steps, extra=(), expansions=("base", "am", "cult"))


def test_R_CULT_3_an_abbey_is_a_cloister_no_hole_between_two_shrines_takes_it() -> None:
    game = _hole_between("CU/SC", 90)
    assert ab.holes(game.state) == [(1, 1)]
    assert game.state.over  # nobody was offered an abbey: the game ended
    why = placement_refusal(game.state, TILES[ab.TILE], 1, 1, 0)
    assert why is not None and why.rule == "R-CULT-3"


def test_R_CULT_3_the_abbey_is_offered_where_the_shrine_rule_allows_it() -> None:
    game = _hole_between("BA/C", 90)
    assert expected_step(game.state) == Decision("abbey", BOB)
    assert {(c.x, c.y) for c in legal_commands(game.state) if isinstance(c, ab.PlaceAbbey)} == {(1, 1)}


# ----------------------------------------------------------------- R-CULT-5..8: the challenge


def test_R_CULT_5_the_completed_shrine_scores_the_unfinished_cloister_loses() -> None:
    """JCloisterZone's `chllenged-monastery` test, in our corner: Ann 9, Bob 0 and home."""
    game = played([*corner(), LAST])
    assert scored(game) == [(ANN, 9, "shrine", "R-BASE-5"), (BOB, 0, "cloister.challenged", "R-CULT-5")]
    lost = game.state.awards[1]
    assert lost.parts == (("shrine-challenge", 0),) and not lost.final
    assert score_name(lost) == "monastery.challenged"
    assert followers_at(game, 1, 1) == [] and game.state.supply == [7, 7]
    assert replay(game.pending).state.scores == game.state.scores


def test_R_CULT_5_the_completed_cloister_scores_the_unfinished_shrine_loses() -> None:
    game = played([*corner(shrine_at=(1, 1)), LAST])
    assert scored(game) == [(ANN, 9, "cloister", "R-BASE-5"), (BOB, 0, "shrine.challenged", "R-CULT-5")]
    assert score_name(game.state.awards[1]) == "shrine.challenged"
    assert followers_at(game, 1, 1) == []


def test_R_CULT_5_a_player_may_challenge_themself() -> None:
    steps: list[Step] = [
        ("CU/S", 0, 1, 0, "cloister"),  # Ann
        ("BA/RFr", -1, 0, 0, None),
        ("BA/L", 1, 1, 0, "cloister"),  # Ann again
        ("BA/RFr", 1, 0, 0, None),
        ("BA/C", -1, 1, 270, None),
        ("BA/C", -1, 2, 270, None),
        ("BA/C", 1, 2, 90, None),
        LAST,
    ]
    game = played(steps)
    assert scored(game) == [(ANN, 9, "shrine", "R-BASE-5"), (ANN, 0, "cloister.challenged", "R-CULT-5")]
    assert game.state.supply == [7, 7]


def test_R_CULT_5_an_unoccupied_winner_challenges_nobody() -> None:
    game = played([*corner(ann=False), LAST])
    assert scored(game) == []
    assert followers_at(game, 1, 1) == [(BOB, "follower")]


def test_R_CULT_5_an_unoccupied_rival_loses_nothing() -> None:
    game = played([*corner(bob=False), LAST])
    assert scored(game) == [(ANN, 9, "shrine", "R-BASE-5")]


def test_R_CULT_6_both_completed_by_one_tile_both_score() -> None:
    """The ring of Bob's cloister (1,1) is closed first but for (0,2), which closes both."""
    steps = [
        *corner()[:4],
        ("BA/RFr", 2, 0, 0, None),
        ("BA/C", 2, 1, 90, None),
        ("BA/C", -1, 1, 270, None),
        ("BA/C", -1, 2, 270, None),
        ("BA/C", 1, 2, 180, None),
        ("BA/C", 2, 2, 90, None),
    ]
    game = played(steps)
    assert scored(game) == []
    turn(game, 0, 2, 180)  # Ann's
    assert sorted(scored(game)) == [(ANN, 9, "shrine", "R-BASE-5"), (BOB, 9, "cloister", "R-BASE-5")]


def test_R_CULT_7_at_the_end_no_challenge_both_score_unfinished() -> None:
    game = played(corner(), extra=())
    assert game.state.over
    final = sorted((a.player, a.points, a.category, a.final) for a in game.state.awards)
    assert final == [(ANN, 8, "shrine", True), (BOB, 5, "cloister", True)]


def test_R_CULT_7_an_abbey_placed_at_the_end_still_completes_and_challenges() -> None:
    """Bob's abbey into the last hole closes Ann's shrine; his monk on it is the rival, unfinished
    with (2,2) empty: it loses in the abbey's own turn part, before the final scoring."""
    game = _hole_between("BA/C", 90)
    game.execute(BOB, ab.PlaceAbbey(x=1, y=1))
    game.execute(BOB, Deploy(location="cloister"))
    decline_abbeys(game)
    assert game.state.over
    assert scored(game) == [(ANN, 9, "shrine", "R-BASE-5"), (BOB, 0, "cloister.challenged", "R-CULT-5")]


def _fairy_beside(winner: bool) -> Game:
    """The corner with the fairy moved next to Ann's shrine follower (the winner) or Bob's
    cloister follower (the loser), instead of a pass."""
    steps = corner()
    index, (fx, fy_) = (2, (0, 1)) if winner else (3, (1, 1))  # Ann's turn, or Bob's
    tile, x, y, rotation, _ = steps[index]
    steps[index] = (tile, x, y, rotation, fy.MoveFairy(x=fx, y=fy_, location="cloister"))
    return played([*steps, LAST], expansions=("base", "pd", "cult"))


def test_R_CULT_8_the_winner_scores_as_any_completed_cloister_the_fairys_three_too() -> None:
    game = _fairy_beside(winner=True)
    last_part = [(p, n, c) for p, n, c, _ in scored(game) if c != fy.TURN]
    assert last_part == [(ANN, 9, "shrine"), (ANN, 3, fy.COMPLETED), (BOB, 0, "cloister.challenged")]


def test_R_CULT_8_the_loser_gets_nothing_the_fairy_stays_beside_nobody() -> None:
    game = _fairy_beside(winner=False)
    assert [(p, n, c) for p, n, c, _ in scored(game) if c != fy.TURN] == [
        (ANN, 9, "shrine"),
        (BOB, 0, "cloister.challenged"),
    ]
    assert fy.fairy(game.state).by is None and fy.fairy(game.state).at == (1, 1)
    assert replay(game.pending).state.scores == game.state.scores


# ----------------------------------------------------------------- the switches


def test_V_CULT_OCCUPIED_ONLY_off_every_cloister_counts() -> None:
    game = _two_cloisters_then_shrine(occupy_second=False)
    assert refused(game, 1, 1) == "R-CULT-3"


def test_V_CULT_OCCUPIED_ONLY_on_an_empty_cloister_does_not_count() -> None:
    rules = rule_set(shrine_occupied_only=True)
    game = _two_cloisters_then_shrine(occupy_second=False, rules=rules)
    assert (1, 1, 0) in legal_placements(game.state)
    occupied = _two_cloisters_then_shrine(occupy_second=True, rules=rules)
    assert refused(occupied, 1, 1) == "V-CULT-OCCUPIED-ONLY"


def test_V_CULT_OCCUPIED_ONLY_the_audit_flips_it() -> None:
    rules = rule_set(shrine_occupied_only=True)
    game = _two_cloisters_then_shrine(occupy_second=False, rules=rules)
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    game.execute(ANN, Pass())
    verdicts = audit(game.pending)
    assert verdicts["recorded"].legal
    error = verdicts["V-CULT-OCCUPIED-ONLY=off"].error
    assert error is not None and error.rule == "R-CULT-3"


def _wagon_challenged(on: bool) -> Game:
    """Bob's wagon, not a follower, on the cloister that loses."""
    steps = corner()
    steps[1] = ("BA/L", 1, 1, 0, Deploy(location="cloister", figure="wagon"))
    return played([*steps, LAST], expansions=("base", "am", "cult"), rules=rule_set(challenge_wagon=on))


def test_JCZ_CULT_WAGON_off_a_wagon_that_lost_goes_home() -> None:
    game = _wagon_challenged(on=False)
    assert (BOB, 0, "cloister.challenged", "R-CULT-5") in scored(game)
    assert game.state.ext["figures"]["wagon"] == [1, 1]
    assert expected_step(game.state) == Decision("place", ANN)


def test_JCZ_CULT_WAGON_on_a_wagon_that_lost_may_roll_on() -> None:
    game = _wagon_challenged(on=True)
    assert (BOB, 0, "cloister.challenged", "R-CULT-5") in scored(game)
    assert expected_step(game.state) == Decision("wagon", BOB)
    assert wg.MoveWagon(x=1, y=0, location="E+W") in legal_commands(game.state)
    game.execute(BOB, wg.MoveWagon(x=1, y=0, location="E+W"))
    road = game.state.board.graph.feature(game.state.board.at[(1, 0)].segment("E+W"))
    assert [(p, k) for p, _, k in road.figures] == [(BOB, "wagon")]
    assert replay(game.pending).state.scores == game.state.scores


def test_JCZ_CULT_WAGON_is_jczs_reading() -> None:
    assert JCZ_READING["challenge_wagon"] is True


# ----------------------------------------------------------------- JCloisterZone's saves


def _challenge_save() -> dict[str, object]:
    """The corner as a JCloisterZone save: Ann's shrine, Bob's cloister, Bob closes the ring."""
    log = []
    for n, (tile, x, y, rotation, then) in enumerate([*corner(), LAST]):
        player = n % 2
        log.append(place(player, tile, x, y, rotation))
        if then == "cloister":
            log.append(deploy(player, x, y, "I", "Monastery"))
        else:
            log.append(pass_(player))
        log.append(commit(player))
    pile = [step[0] for step in [*corner(), LAST]] + ["BA/C"]
    return save(
        log,
        pile,
        sets={"basic:1": 1, "cult/6": 1},
        elements={"small-follower": 7, "farmers": True, "shrine": True},
    )


def test_R_CULT_5_a_save_replays_the_challenge_as_jcloisterzone_names_it() -> None:
    document = decode(_challenge_save())
    game = replay_jcz(document, plan_draws(document).order)
    assert [score_name(a) for a in game.state.awards] == ["shrine", "monastery.challenged"]
    assert game.state.scores == [9, 0]


@pytest.mark.parametrize("wagon", [False, True])
def test_R_CULT_5_a_challenge_exports_and_comes_back(wagon: bool, tmp_path: Path) -> None:
    """Played by JCloisterZone's reading, a lost challenge (and the loser's wagon rolling on,
    JCZ-CULT-WAGON) exports to a save that imports as the same game."""
    if wagon:
        game = _wagon_challenged(on=True)
        game.execute(BOB, wg.MoveWagon(x=1, y=1, location="cloister"))  # back onto the empty loser
    else:
        game = played([*corner(), LAST], rules=rule_set(**JCZ_READING))
    events = game.collect_events()
    assert jcz_setup(events[0])["elements"]["shrine"] is True  # type: ignore[arg-type]
    path = tmp_path / "game.jcz"
    path.write_bytes(export_jcz(events))
    assert json.loads(path.read_bytes())["setup"]["sets"] == {"basic:1": 1, "cult/6": 1} | (
        {"abbey-and-mayor:1": 1} if wagon else {}
    )
    _, imported = import_jcz(path)
    assert [
        msgspec.structs.replace(e, originator_id=events[0].originator_id) for e in imported[1:]
    ] == events[1:]
