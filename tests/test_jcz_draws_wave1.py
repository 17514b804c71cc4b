"""JCloisterZone's draws with the River, Inns & Cathedrals, Abbey & Mayor, Princess & Dragon and
The Tower: the pack's groups, the abbey that replaces a draw, the wagon phase before a builder's
part or a bazaar supply; then the wave-1 games read in place from the shared folder.

The pack rules, as JCloisterZone 5.12's engine has them: groups in name order, tiles by id
(TilePackBuilder); the river group alone at first, the lake when it is empty, the rest when the
lake is drawn (RiverCapability.onStartGame, TilePack.updateGroup); dragon tiles in a group of
their own that the first volcano placed switches on (DragonCapability); an abbey is offered
before the draw and, if placed, nothing is drawn (AbbeyPhase); a declined abbey is committed,
which reseeds the generator (CommitAbbeyPassPhase); returned wagons move after the turn part's
COMMIT and before the builder's second part and the bazaar phase (GameStatePhaseReducer).
"""

from __future__ import annotations

import json
from collections import Counter
from pathlib import Path
from typing import Any

import pytest

from domain.tiles import TILES
from replays.jcz import JczDraw, JczError, JczSave, read_jcz
from replays.jcz_draws import DrawWalk, JczDrawer, JczRandom, jcz_pack, plan_draws
from tests.jcz_saves import commit, decode, deploy, pass_, place, save
from tests.reference import jcz_files, require

RIVER_START = ({"tile": "RI/s", "x": 0, "y": 0, "rotation": 0},)
BASE_ELEMENTS = {"small-follower": 7, "farmers": True}


def _group_of(tile_id: str) -> str:
    tags = TILES[tile_id].tags
    if "lake" in tags:
        return "lake"
    if any(s.name == "river" for s in TILES[tile_id].segments):
        return "river"
    return "dragon" if "dragon" in tags else "other"


# ---------------------------------------------------------------- the pack's groups


def test_river_tiles_come_first_then_the_lake_then_the_rest() -> None:
    drawer = JczDrawer(
        decode(save([], sets={"basic:1": 1, "river/1:1": 1}, start=RIVER_START, initial_random=0.37))
    )
    assert len(drawer.pack) == 10  # only the river group is drawable at first
    assert len(jcz_pack(decode(save([], sets={"basic:1": 1, "river/1:1": 1}, start=RIVER_START)))) == 83
    groups = [_group_of(drawer.draw("turn", -1)) for _ in range(83)]
    assert groups == ["river"] * 10 + ["lake"] + ["other"] * 72  # all four BA/RCr: the spring starts


def test_a_second_river_set_adds_no_second_spring_or_lake() -> None:
    # river.xml gives both `max="1"`; the unused springs' group is dropped at the start.
    pack = Counter(jcz_pack(decode(save([], sets={"basic:1": 1, "river/1:1": 2}, start=RIVER_START))))
    assert pack["RI.1/I.e"] == 1 and pack["RI/s"] == 0
    assert pack["RI.1/IFI"] == 4 and pack["RI.1/CICI"] == 2


def test_the_pack_lists_groups_in_name_order_each_sorted_by_id() -> None:
    document = save([], sets={"basic:1": 1, "river/1:1": 1, "princess-and-dragon:1": 1}, start=RIVER_START)
    document["setup"]["elements"] = {**BASE_ELEMENTS, "dragon": 1}
    pack = jcz_pack(decode(document))
    groups = [_group_of(t) for t in pack]
    # default, dragon, river, river-lake
    assert groups == sorted(groups, key=["other", "dragon", "river", "lake"].index)
    for name in set(groups):
        tiles = [t for t, g in zip(pack, groups, strict=True) if g == name]
        assert tiles == sorted(tiles)


def _pd(replay: list[dict[str, Any]], draw_order: list[str], elements: dict[str, Any]) -> JczSave:
    return decode(
        save(replay, draw_order, sets={"basic:1": 1, "princess-and-dragon:1": 1}, elements=elements)
    )


def test_dragon_tiles_wait_for_a_volcano() -> None:
    dragon = {**BASE_ELEMENTS, "dragon": 1}
    drawer = JczDrawer(_pd([], [], dragon))
    assert len(drawer.pack) == 101 - 12
    assert not any("dragon" in TILES[t].tags for t in drawer.pack)
    with pytest.raises(JczError, match=r"DG/C\.d"):  # a dragon tile cannot be drawn yet
        plan_draws(_pd([place(0, "DG/C.d", 0, -1, 180)], ["DG/C.d"], dragon))
    after_volcano = [place(0, "DG/F.v", 1, 0), pass_(0), commit(0), place(1, "DG/C.d", 0, -1, 180)]
    plan = plan_draws(_pd(after_volcano, ["DG/F.v", "DG/C.d"], dragon))
    assert [d.tile for d in plan.draws[:2]] == ["DG/F.v", "DG/C.d"]
    # Without the dragon in play its tiles are ordinary ones, drawable from the start.
    assert len(JczDrawer(_pd([], [], BASE_ELEMENTS)).pack) == 101


# ---------------------------------------------------------------- the abbey


def _am(replay: list[dict[str, Any]], initial_random: float = 0.5) -> JczSave:
    elements = {**BASE_ELEMENTS, "abbey": True, "mayor": 1, "wagon": 1, "barn": 1}
    return decode(
        save(
            replay,
            sets={"basic:1": 1, "abbey-and-mayor:1": 1},
            elements=elements,
            initial_random=initial_random,
        )
    )


def test_an_abbey_placed_replaces_the_draw() -> None:
    empty = _am([])
    pack = jcz_pack(empty)
    assert len(pack) == 83 and "AM/A" not in pack
    second = pack[int(0.25 * 83)]  # Bob's draw, with the COMMIT's random: Ann drew nothing
    plan = plan_draws(_am([place(0, "AM/A", 1, 0), pass_(0), commit(0, 0.25), place(1, second, 2, 0)]))
    assert plan.draws[0] == JczDraw(tile=second, kind="turn", after=2)
    assert len(plan.order) == 83


def test_a_declined_abbey_is_committed_before_the_draw() -> None:
    pack = jcz_pack(_am([]))
    first = pack[int(0.75 * 83)]  # drawn with the random of the abbey pass's COMMIT, not 0.5
    plan = plan_draws(_am([pass_(0), commit(0, 0.75), place(0, first, 1, 0)]))
    assert plan.draws[0] == JczDraw(tile=first, kind="turn", after=1)


# ---------------------------------------------------------------- the wagon phase


def _wagons(replay: list[dict[str, Any]], draw_order: list[str] | None, **sets: int) -> JczSave:
    elements = {**BASE_ELEMENTS, "builder": 1, "wagon": 1, "bridge": 3, "castle": 3, "bazaar": True}
    elements["dragon"] = 1  # the dragon's steps are read as the dragon's only with it in play
    named = {"basic:1": 1, **{f"{name.replace('_', '-')}:1": n for name, n in sets.items()}}
    return decode(save(replay, draw_order, sets=named, elements=elements, initial_random=0.5))


TILES_ABCD = ["BA/RFr", "BA/C", "BA/L", "BA/Rr"]


def test_a_builders_second_part_after_another_players_wagon_pass() -> None:
    # Bob puts his wagon out; Ann's part ends, Bob leaves his returned wagon where it is, Ann plays
    # her builder's part.
    log = [place(0, "BA/RFr", 1, 0), commit(0)]
    log += [place(1, "BA/C", 2, 0), deploy(1, 2, 0, "W", "Road", figure="wagon"), commit(1)]
    log += [place(0, "BA/L", 3, 0), commit(0), pass_(1), place(0, "BA/Rr", 4, 0), commit(0)]
    log += [place(1, "BA/L", 5, 0), commit(1)]
    plan = plan_draws(_wagons(log, [*TILES_ABCD, "BA/L", "BA/C"]))
    assert [(d.tile, d.kind, d.after) for d in plan.draws] == [
        ("BA/RFr", "turn", -1),
        ("BA/C", "turn", 1),
        ("BA/L", "turn", 4),
        ("BA/Rr", "builder", 7),
        ("BA/L", "turn", 9),
        ("BA/C", "turn", 11),
    ]


def test_a_builders_second_part_after_the_dragons_steps_after_scoring() -> None:
    """V-DRAGON-AFTER-SCORING: the dragon steps after the part's COMMIT, before the part ends; Ann's
    builder's tile is drawn after its last step."""

    def step(player: int, x: int) -> dict[str, Any]:
        return {
            "type": "MOVE_NEUTRAL_FIGURE",
            "payload": {"figureId": "dragon.1", "to": [x, 0]},
            "player": player,
        }

    log = [place(0, "BA/RFr", 1, 0), commit(0), step(0, 5), step(1, 6), place(0, "BA/C", 2, 0), commit(0)]
    log += [place(1, "BA/L", 3, 0), commit(1)]
    plan = plan_draws(_wagons(log, TILES_ABCD))
    assert [(d.tile, d.kind, d.after) for d in plan.draws] == [
        ("BA/RFr", "turn", -1),
        ("BA/C", "builder", 3),
        ("BA/L", "turn", 5),
        ("BA/Rr", "turn", 7),
    ]


def test_a_wagon_pass_by_the_player_whose_turn_ends_is_no_builder_part() -> None:
    wagon = deploy(0, 1, 0, "W", "Road", figure="wagon")
    log = [place(0, "BA/RFr", 1, 0), wagon, commit(0), pass_(0), place(1, "BA/C", 2, 0), commit(1)]
    plan = plan_draws(_wagons(log, TILES_ABCD))
    assert [(d.tile, d.kind) for d in plan.draws] == [
        ("BA/RFr", "turn"),
        ("BA/C", "turn"),
        ("BA/L", "turn"),
    ]


def test_a_bazaar_supply_is_drawn_after_the_wagon_moved() -> None:
    wagon = deploy(1, 0, -1, "N", "City", figure="wagon")
    bid = {"type": "BAZAAR_BID", "payload": {"supplyIndex": 0, "price": 0}, "player": 1}
    log = [place(0, "BB/F.b", 1, 0), commit(0, 0.1), wagon, commit(1, 0.9), bid, pass_(0)]
    document = _wagons(log, ["BB/F.b"], bridges_castles_and_bazaars=1)
    pack = jcz_pack(document)
    pack.remove("BB/F.b")
    rng = JczRandom(0.9)  # the wagon's COMMIT, not the turn's (0.1)
    supply = [pack.pop(rng.next_int(len(pack))) for _ in range(2)]
    plan = plan_draws(document)
    assert plan.draws[:3] == (
        JczDraw(tile="BB/F.b", kind="turn", after=-1),
        JczDraw(tile=supply[0], kind="bazaar", after=3),
        JczDraw(tile=supply[1], kind="bazaar", after=3),
    )


# ---------------------------------------------------------------- the recorded games

WAVE1 = jcz_files("oracle-wave1")
ORACLE = jcz_files("oracle")


def _name(path: Path) -> str:
    return "/".join(path.parts[-2:])


def _oracle(path: Path) -> dict[str, Any]:
    document: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    return dict(document["oracle"])


class _FollowedWalk(DrawWalk):
    """The walk, noting every drawn tile placed by another player than the one it expects."""

    def __init__(self, save: JczSave) -> None:
        super().__init__(save)
        self.strangers: list[int] = []

    def placed(self, index: int, tile_id: object) -> None:
        drawn = self.held is not None or self.owed is not None  # not an abbey out of turn
        if drawn and self.messages[index].player != self.current:
            self.strangers.append(index)
        super().placed(index, tile_id)


@pytest.mark.parametrize("path", WAVE1, ids=_name)
def test_wave1_draws_are_jcloisterzones(path: Path) -> None:
    save = read_jcz(require(path))
    assert save.gameAnnotations is None and save.oracle is not None and save.oracle.natural
    walk = _FollowedWalk(save)
    walk.run()  # JczRefused if a PLACE_TILE names another tile than the draws give
    plan = walk.plan()
    assert walk.strangers == []
    if save.oracle.draws is not None:
        assert plan.draws == save.oracle.draws
    # A finished game draws the whole pack, and each drawn tile was placed or discarded.
    assert plan.order == tuple(d.tile for d in plan.draws)
    assert sorted(plan.order) == sorted(jcz_pack(save))
    counts = _oracle(path)["counts"]
    kinds = Counter(d.kind for d in plan.draws)
    assert kinds["redraw"] == counts["tiles_discarded"]
    assert kinds["builder"] == counts["builder_double_turns"]
    assert kinds["bazaar"] == counts["bazaar_tiles_auctioned"]
    placed = [m.payload.get("tileId") for m in save.replay if m.type == "PLACE_TILE"]
    assert len([t for t in placed if t != "AM/A"]) == len(plan.draws) - counts["tiles_discarded"]


@pytest.mark.parametrize("path", WAVE1, ids=_name)
def test_wave1_draws_respect_the_groups(path: Path) -> None:
    save = read_jcz(require(path))
    plan = plan_draws(save)
    groups = [_group_of(d.tile) for d in plan.draws]
    if "river/1:1" in save.setup.sets:
        assert groups[:11] == ["river"] * 10 + ["lake"]
        assert "river" not in groups[11:] and "lake" not in groups[11:]
    if save.setup.elements.get("dragon"):
        volcanoes = [
            i
            for i, m in enumerate(save.replay)
            if m.type == "PLACE_TILE" and "volcano" in TILES[m.payload["tileId"]].tags
        ]
        assert all(d.after >= volcanoes[0] for d in plan.draws if "dragon" in TILES[d.tile].tags)


@pytest.mark.parametrize("path", ORACLE, ids=_name)
def test_forced_draws_of_the_oracle_games_still_walk(path: Path) -> None:
    save = read_jcz(require(path))
    assert save.gameAnnotations is not None and save.gameAnnotations.drawOrder
    plan = plan_draws(save)
    assert [d.tile for d in plan.draws] == list(save.gameAnnotations.drawOrder[: len(plan.draws)])
