"""JCloisterZone's draws reproduced: the generator, the pack, and when the walk draws what."""

from __future__ import annotations

import pytest

from replays.jcz import JczDraw, JczRefused
from replays.jcz_draws import DrawWalk, JczDrawer, JczRandom, jcz_pack, plan_draws
from replays.jcz_sets.bcb import bazaar_walk
from tests.jcz_saves import TWO_TURNS, commit, decode, pass_, place, save

# A game with the bazaars, whose supply the walk follows.
BAZAARS = {"basic:1": 1, "bridges-castles-and-bazaars:1": 1}


def drawn(document: dict[str, object]) -> list[tuple[str, str, int]]:
    """Each tile the walk draws for a save: (tile, what for, after which message)."""
    return [(d.tile, d.kind, d.after) for d in plan_draws(decode(document)).draws]


def test_generator_matches_the_readme_example() -> None:
    # oracle-natural/README.md: COMMIT random 0.9525334109556272, 80 tiles left, 3 supply draws.
    rng = JczRandom(0.9525334109556272)
    assert rng.next_int(80) == 76
    assert rng.r == 0.30924589290495064
    assert rng.next_int(79) == 24
    assert rng.r == 0.8129482696047425
    assert rng.next_int(78) == 63


def test_a_state_with_zero_low_bits_sticks_at_zero() -> None:
    rng = JczRandom(0.5)
    assert [rng.next_int(10) for _ in range(3)] == [5, 0, 0]
    assert rng.r == 11 / 2**48


@pytest.mark.parametrize(
    ("sets", "size"),
    [
        ({"basic:1": 1}, 71),
        ({"basic:1": 1, "bridges-castles-and-bazaars:1": 1}, 83),
        ({"basic:1": 1, "bridges-castles-and-bazaars:1": 1, "traders-and-builders:1": 1}, 107),
        ({"basic:1": 2}, 143),  # two copies of the set, one start tile taken out
    ],
)
def test_pack_sizes_and_sorted_order(sets: dict[str, int], size: int) -> None:
    pack = jcz_pack(decode(save([], sets=sets)))
    assert len(pack) == size
    assert pack == sorted(pack)


def test_random_draws_take_the_kth_tile_of_the_sorted_pack() -> None:
    drawer = JczDrawer(decode(save([], initial_random=0.9525334109556272)))
    pack = list(drawer.pack)
    first = drawer.draw("turn", -1)
    assert first == pack[int(0.9525334109556272 * 71)]
    assert drawer.draws == [JczDraw(tile=first, kind="turn", after=-1)]
    assert len(drawer.pack) == 70 and drawer.left == 70


def test_forced_draws_come_first_and_end_turn_empties_the_pack() -> None:
    drawer = JczDrawer(decode(TWO_TURNS))
    assert [drawer.draw("turn", -1), drawer.draw("turn", 2)] == ["BA/RFr", "BA/C"]
    assert drawer.left == 0
    with pytest.raises(JczRefused, match="pack is empty"):
        drawer.draw("turn", 5)


def test_forced_draws_without_end_turn_continue_at_random() -> None:
    document = save([place(0, "BA/RFr", 1, 0), pass_(0), commit(0, 0.25)], ["BA/RFr"])
    plan = plan_draws(decode(document))
    pack = jcz_pack(decode(document))
    pack.remove("BA/RFr")
    # After the last COMMIT JCZ draws Bob's tile with that COMMIT's random number.
    assert plan.draws == (
        JczDraw(tile="BA/RFr", kind="turn", after=-1),
        JczDraw(tile=pack[int(0.25 * 70)], kind="turn", after=2),
    )
    assert sorted(plan.order) == sorted(jcz_pack(decode(document)))  # the whole pile for our engine


def test_bazaar_supply_is_one_tile_per_player_or_none() -> None:
    drawer = JczDrawer(decode(save([], ["BA/C", "BA/L", "BA/Rr"], end_turn=3, players=["A", "B", "C"])))
    assert drawer.supply(3, 8, "bazaar") == ["BA/C", "BA/L", "BA/Rr"]
    assert {d.kind for d in drawer.draws} == {"bazaar"}
    assert drawer.supply(3, 9, "bazaar") == []  # the pack is empty: no auction


def test_a_tile_that_is_not_placed_was_discarded_and_redrawn() -> None:
    # Bob draws the cloister, which fits nowhere below the T-junction: JCZ discards it silently
    # and Bob places the next tile; the save only shows that PLACE_TILE.
    document = save(
        [place(0, "BA/RRR", 0, 1), pass_(0), commit(0), place(1, "BA/RFr", 2, 0), pass_(1), commit(1)],
        ["BA/RRR", "BA/L", "BA/RFr"],
        end_turn=3,
    )
    assert drawn(document) == [
        ("BA/RRR", "turn", -1),
        ("BA/L", "turn", 2),
        ("BA/RFr", "redraw", 2),
    ]


def test_a_tile_the_draws_cannot_give_is_refused() -> None:
    document = save([place(0, "BA/RRR", 0, 1)], ["BA/RFr"], end_turn=1)
    with pytest.raises(JczRefused, match="places BA/RRR, but JCloisterZone's draws give"):
        plan_draws(decode(document))


def test_an_empty_pack_with_no_bazaar_tile_left_ends_the_game() -> None:
    """A bazaar round the pack ran out in, its last tile placed: nobody is owed one, the game ends."""
    walk = DrawWalk(decode(save([], ["BA/L"], end_turn=0, sets=BAZAARS)))
    bazaar_walk(walk).supply = []
    walk.tile_step(1, "turn", 5)
    assert walk.held is None and walk.owed is None


def ransom(player: int) -> dict[str, object]:
    return {"type": "PAY_RANSOM", "payload": {"meepleId": f"{player}.small.1"}, "player": player}


@pytest.mark.parametrize("paid", [False, True])
def test_a_ransom_paid_before_a_tile_is_placed_moves_no_draw(paid: bool) -> None:
    """JCZ-RANSOM-ANY-STEP: a ransom paid once the turn's tile is drawn leaves the draws and their
    moments (the COMMIT before it) as they were."""
    log = [place(0, "BA/RRR", 0, 1), pass_(0), commit(0), *([ransom(1)] if paid else [])]
    log += [place(1, "BA/RFr", 2, 0), pass_(1), commit(1), *([ransom(0)] if paid else [])]
    log += [place(0, "BA/L", 2, 1)]
    document = save(log, ["BA/RRR", "BA/RFr", "BA/L"], end_turn=3)
    assert drawn(document) == [
        ("BA/RRR", "turn", -1),
        ("BA/RFr", "turn", 2),
        ("BA/L", "turn", 6 if paid else 5),
    ]


def test_a_pass_after_a_commit_by_a_player_with_no_wagon_out_declines_the_tile() -> None:
    """With wagons in play a PASS right after a turn part's COMMIT may leave a returned wagon where
    it is; but only a wagon's owner is asked that, so Bob's PASS here declines the tile he drew
    (one that fits only with a bridge), drawn at Ann's COMMIT."""
    elements = {"small-follower": 7, "farmers": True, "wagon": 1}
    log = [place(0, "BA/RRR", 0, 1), commit(0), pass_(1), place(1, "BA/RFr", 2, 0)]
    document = save(log, ["BA/RRR", "BA/L", "BA/RFr"], end_turn=3, elements=elements)
    assert drawn(document) == [
        ("BA/RRR", "turn", -1),
        ("BA/L", "turn", 1),
        ("BA/RFr", "redraw", 2),
    ]


def test_a_bought_tile_that_fits_nowhere_is_replaced_as_its_part_begins() -> None:
    """Bob's tile from the bazaar fits nowhere: JCloisterZone draws him another as his part
    begins (at the message before his PLACE_TILE), not when the supply was drawn."""
    log = [commit(0), place(1, "BA/RFr", 2, 0)]
    walk = DrawWalk(decode(save(log, ["BA/RFr"], end_turn=1, sets=BAZAARS)))
    bazaar_walk(walk).supply = [("BA/L", 1)]
    walk.tile_step(1, "turn", 0)
    assert walk.held == "BA/L" and walk.draws == []
    walk.placed(1, "BA/RFr")
    assert walk.draws == [JczDraw(tile="BA/RFr", kind="redraw", after=0)]
