"""The abbey at a builder's second part (R-AM-2, JCZ-ABBEY-BUILDER; docs/RULES.md 4).

JCloisterZone opens a builder's second part as it opens a turn, with the abbey offered first
(AbbeyPhase is the part's first phase, `BuilderState.SECOND_TURN` lifting the bazaar exception),
even when the pile is empty. An abbey placed there is the part's tile: nothing is drawn, and it
earns no further part (only a drawn tile placed can use a builder).

The board: the start tile BA/RCr at (0,0), city N, road W-E. Ann's road runs west from it with
her follower and her builder; five cloisters ring the square (0,-1) above the start tile, leaving
a hole there; Ann's last tile extends her road, and her builder earns her a second part.
"""

from __future__ import annotations

from pathlib import Path

import msgspec
import pytest

from domain.aggregate import Game
from domain.commands import Deploy, Pass, PlaceTile
from domain.expansions import abbey as ab, builders as bd
from domain.moves import Decision, expected_step
from domain.readings import rule_set
from domain.replay import replay
from domain.rules import RuleSet
from domain.state import Phase
from replays.jcz import JCZ_READING, JczDraw
from replays.jcz_draws import jcz_pack, plan_draws
from replays.jcz_export import export_jcz
from replays.sources import import_jcz
from tests.jcz_saves import commit, decode, pass_, place, save

ANN, BOB = 0, 1
R, L, C = "BA/RFr", "BA/L", "BA/C"
# x, y, rotation, and what is deployed on the road (E+W) of the tile, in turn order.
MOVES: list[tuple[int, int, int, str | None]] = [
    (-1, 0, 0, "follower"),  # Ann
    (-1, -1, 0, None),  # Bob
    (-2, 0, 0, "builder"),  # Ann
    (-1, -2, 0, None),
    (0, -2, 0, None),  # a city cap facing north
    (1, -2, 0, None),
    (1, -1, 0, None),  # Ann: the hole at (0,-1) is there; Bob declines his abbey next
    (1, 0, 0, None),  # Bob: extends Ann's road, earning nothing
    (-3, 0, 0, None),  # Ann declines her abbey, then extends her road: a builder's part is due
]
JCZ_RULES = rule_set(**JCZ_READING)


# Four more cloisters, two each, after Bob's second: they leave a second hole at (-2,-1).
SECOND_HOLE: list[tuple[int, int, int, str | None]] = [(-2, -2, 0, None), (-3, -2, 0, None)]
SECOND_HOLE += [(-3, -1, 0, None), (-4, -1, 0, None)]


def builder_due(rest: list[str], rules: RuleSet | None = None, second_hole: bool = False) -> Game:
    moves, pile = MOVES, [R, L, R, L, C, L, L, R, R, *rest]
    if second_hole:
        moves, pile = [*MOVES[:4], *SECOND_HOLE, *MOVES[4:]], [*pile[:4], L, L, L, L, *pile[4:]]
    game = Game.start(("Ann", "Bob"), pile, expansions=("base", "am", "tb"), rules=rules)
    for x, y, rotation, figure in moves:
        step = expected_step(game.state)
        if step is not None and step.step == "abbey":
            game.execute(step.player, Pass())
        player = game.state.current
        game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
        if figure is not None:
            game.execute(player, Deploy(location="E+W", figure=figure))
        elif game.state.phase == Phase.ACTION:
            game.execute(player, Pass())
    assert isinstance(game.pending[-1], bd.BuilderTurnGranted)
    return game


def test_JCZ_ABBEY_BUILDER_the_abbey_is_offered_before_the_builders_tile() -> None:
    game = builder_due(["BA/Rr", C])
    assert expected_step(game.state) == Decision("abbey", ANN)
    assert game.state.tile is None  # the builder's tile is not taken yet
    assert ab.PlaceAbbey(x=0, y=-1, rotation=0) in ab.PART.command_options(game.state, "abbey")


def test_JCZ_ABBEY_BUILDER_an_abbey_placed_is_the_builders_part() -> None:
    game = builder_due(["BA/Rr", C])
    drawn = game.state.next_draw
    game.execute(ANN, ab.PlaceAbbey(x=0, y=-1))
    assert game.state.part == bd.PART_KIND and game.state.current == ANN
    assert game.state.next_draw == drawn  # nothing was drawn for it
    assert not ab.abbeys(game.state).held[ANN]
    game.execute(ANN, Deploy(location="cloister"))  # R-AM-3
    # The part ends without another builder part; Bob's turn starts (no hole left for his abbey).
    assert expected_step(game.state) == Decision("place", BOB)
    assert game.state.tile is not None and game.state.tile.id == "BA/Rr"  # the tile left on top
    assert not any(isinstance(e, bd.BuilderTurnTaken) for e in game.pending)
    assert sum(isinstance(e, bd.BuilderTurnGranted) for e in game.pending) == 1
    replay(game.pending)


def test_JCZ_ABBEY_BUILDER_a_pass_takes_the_builders_tile() -> None:
    game = builder_due(["BA/Rr", C])
    game.execute(ANN, Pass())
    assert isinstance(game.pending[-1], bd.BuilderTurnTaken) and game.pending[-1].tile == "BA/Rr"
    assert game.state.part == bd.PART_KIND and game.state.phase == Phase.PLACE
    game.execute(ANN, PlaceTile(x=-1, y=1, rotation=0))
    game.execute(ANN, Pass())
    assert expected_step(game.state) == Decision("abbey", BOB)  # asked once in Ann's turn, Bob's next
    replay(game.pending)


def test_JCZ_ABBEY_BUILDER_with_the_pile_empty_the_part_still_offers_the_abbey() -> None:
    game = builder_due([])
    assert game.state.pile_left == 0
    assert expected_step(game.state) == Decision("abbey", ANN)
    game.execute(ANN, Pass())
    # No builder's tile (R-TB-3a): the end's abbeys, from the player after Ann, Ann last again.
    assert expected_step(game.state) == Decision("abbey", BOB)
    game.execute(BOB, Pass())
    assert expected_step(game.state) == Decision("abbey", ANN)
    game.execute(ANN, Pass())
    assert game.state.over
    replay(game.pending)


def test_JCZ_ABBEY_BUILDER_with_the_pile_empty_an_abbey_placed_is_the_builders_part() -> None:
    game = builder_due([])
    game.execute(ANN, ab.PlaceAbbey(x=0, y=-1))
    assert game.state.part == bd.PART_KIND
    assert expected_step(game.state) == Decision("action", ANN)
    game.execute(ANN, Pass())
    assert game.state.over  # no hole left for Bob's abbey

    replay(game.pending)


@pytest.mark.parametrize("end_rounds", [False, True])
def test_JCZ_ABBEY_BUILDER_once_the_ends_asking_has_begun_the_builders_offer_never_returns(
    end_rounds: bool,
) -> None:
    """Ann declines her abbey at her builder's part with the pile empty, so the end's asking
    begins; Bob's abbey placed then opens a part, but Ann's untaken builder's part stays gone:
    she is asked again as one of the end's players (JCZ-ABBEY-END-ROUNDS or not), and her abbey
    placed is an end's abbey, not the builder's part."""
    game = builder_due([], rule_set(abbey_end_rounds=end_rounds), second_hole=True)
    assert ab.holes(game.state) == [(-2, -1), (0, -1)]
    game.execute(ANN, Pass())
    assert expected_step(game.state) == Decision("abbey", BOB)
    game.execute(BOB, ab.PlaceAbbey(x=0, y=-1))
    assert game.state.part != bd.PART_KIND
    game.execute(BOB, Pass())
    assert expected_step(game.state) == Decision("abbey", ANN)
    game.execute(ANN, ab.PlaceAbbey(x=-2, y=-1))
    assert game.state.part != bd.PART_KIND
    game.execute(ANN, Pass())
    assert game.state.over
    replay(game.pending)


def test_a_save_with_an_abbey_placed_at_a_builders_part_imports_as_the_same_game(tmp_path: Path) -> None:
    game = builder_due(["BA/Rr", C], JCZ_RULES)
    game.execute(ANN, ab.PlaceAbbey(x=0, y=-1))
    game.execute(ANN, Deploy(location="cloister"))
    game.execute(BOB, PlaceTile(x=-1, y=1, rotation=0))
    game.execute(BOB, Pass())
    path = tmp_path / "game.jcz"
    path.write_bytes(export_jcz(game.pending))
    _, imported = import_jcz(path)
    assert imported[1:] == [
        msgspec.structs.replace(e, originator_id=imported[0].originator_id) for e in game.pending[1:]
    ]


def test_a_save_with_an_abbey_declined_at_a_builders_part_imports_as_the_same_game(tmp_path: Path) -> None:
    game = builder_due(["BA/Rr", C], JCZ_RULES)
    game.execute(ANN, Pass())
    game.execute(ANN, PlaceTile(x=-1, y=1, rotation=0))
    game.execute(ANN, Pass())
    path = tmp_path / "game.jcz"
    path.write_bytes(export_jcz(game.pending))
    document = msgspec.json.decode(path.read_bytes())
    sent = [(m["type"], m["player"]) for m in document["replay"]][-8:]
    # Ann's first part committed, her abbey declined and committed, her builder's tile placed.
    assert sent == [
        *[("PLACE_TILE", ANN), ("PASS", ANN), ("COMMIT", ANN)],
        *[("PASS", ANN), ("COMMIT", ANN)],
        *[("PLACE_TILE", ANN), ("PASS", ANN), ("COMMIT", ANN)],
    ]
    _, imported = import_jcz(path)
    assert imported[1:] == [
        msgspec.structs.replace(e, originator_id=imported[0].originator_id) for e in game.pending[1:]
    ]


# ---------------------------------------------------------------- JCloisterZone's draws


def _natural(replay_log: list[dict[str, object]]) -> list[JczDraw]:
    elements = {"small-follower": 7, "farmers": True, "abbey": True, "builder": 1}
    document = save(
        replay_log, sets={"basic:1": 1, "abbey-and-mayor:1": 1}, elements=elements, initial_random=0.5
    )
    return list(plan_draws(decode(document)).draws)


def test_an_abbey_declined_at_a_builders_part_reseeds_the_builders_draw() -> None:
    pack = jcz_pack(decode(save([], sets={"basic:1": 1, "abbey-and-mayor:1": 1})))
    first = pack.pop(int(0.5 * len(pack)))
    second = pack[int(0.75 * len(pack))]  # with the random of the abbey pass's COMMIT
    log = [place(0, first, -1, 0), commit(0, 0.25), pass_(0), commit(0, 0.75), place(0, second, 1, 0)]
    draws = _natural(log)
    assert draws[:2] == [
        JczDraw(tile=first, kind="turn", after=-1),
        JczDraw(tile=second, kind="builder", after=3),
    ]


def test_an_abbey_placed_at_a_builders_part_draws_nothing_for_it() -> None:
    pack = jcz_pack(decode(save([], sets={"basic:1": 1, "abbey-and-mayor:1": 1})))
    first = pack.pop(int(0.5 * len(pack)))
    bobs = pack[int(0.75 * len(pack))]  # Bob's turn, with the random of Ann's last COMMIT
    log = [place(0, first, -1, 0), commit(0, 0.25), place(0, "AM/A", 0, -1), pass_(0), commit(0, 0.75)]
    log += [place(1, bobs, 1, 0)]
    draws = _natural(log)
    assert draws[:2] == [JczDraw(tile=first, kind="turn", after=-1), JczDraw(tile=bobs, kind="turn", after=4)]
