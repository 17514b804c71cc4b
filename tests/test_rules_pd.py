"""Princess & Dragon: the fairy, one or more scenarios per rule id (docs/RULES.md 5, R-PD-5).

The start tile BA/RCr lies at (0,0), its road E+W. Ann's thief stands on the road tile at (1,0).
"""

from __future__ import annotations

import pytest

from domain.aggregate import Game
from domain.commands import Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import bazaars as bz, castles as cs, dragon as dg, fairy as fy, portal_princess as pp
from domain.moves import Decision, expected_step, legal_commands
from domain.readings import rule_set
from domain.replay import replay
from domain.rules import RuleSet
from domain.state import Phase, next_tiles

ANN, BOB = 0, 1


def _fairy_by_anns_thief() -> Game:
    game = Game.start(
        ("Ann", "Bob"), ["BA/RFr", "BA/L", "BA/L", "BA/LR", "BA/LR", "BA/L"], expansions=("base", "pd")
    )
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    game.execute(ANN, Deploy(location="E+W"))
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=0))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    assert fy.MoveFairy(x=1, y=0, location="E+W") in legal_commands(game.state)
    game.execute(ANN, fy.MoveFairy(x=1, y=0, location="E+W"))
    return game


def test_R_PD_5_the_fairy_moves_next_to_ones_own_follower_instead_of_deploying() -> None:
    game = _fairy_by_anns_thief()
    assert fy.fairy(game.state).by == (1, 0, "E+W", ANN, "follower")
    assert game.state.current == BOB  # it was Ann's action
    game.execute(BOB, PlaceTile(x=2, y=0, rotation=90))
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, fy.MoveFairy(x=1, y=0, location="E+W"))  # not Bob's follower
    assert refused.value.rule == "R-PD-5"


def test_R_PD_5_one_point_as_the_owners_turn_starts_three_when_the_feature_scores() -> None:
    game = _fairy_by_anns_thief()
    game.execute(BOB, PlaceTile(x=2, y=0, rotation=90))
    game.execute(BOB, Pass())
    assert [(a.player, a.points, a.category) for a in game.state.awards] == [(ANN, 1, "fairy.turn")]
    game.execute(ANN, PlaceTile(x=-1, y=0, rotation=270))
    game.execute(ANN, Pass())
    scored = [(a.player, a.points, a.category) for a in game.state.awards]
    assert scored == [(ANN, 1, "fairy.turn"), (ANN, 4, "road"), (ANN, 3, "fairy.completed")]
    assert fy.fairy(game.state).by is None  # the thief went home; the fairy stands by nobody
    replay(game.pending)


def test_R_PD_4_the_fairy_keeps_the_dragon_off_her_tile_after_her_follower_left() -> None:
    """Ann's thief scores and goes home: the fairy stands by nobody but stays on the tile, and the
    dragon still may not step onto it (JCloisterZone keeps her on the board the same way)."""
    game = _fairy_by_anns_thief()
    game.execute(BOB, PlaceTile(x=2, y=0, rotation=90))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=-1, y=0, rotation=270))  # the road is complete: the thief leaves
    game.execute(ANN, Pass())
    assert fy.fairy(game.state).by is None and fy.fairy(game.state).at == (1, 0)
    own = dg.dragon(game.state)
    own.at, own.moving = (1, 1), True  # the dragon beside her tile, moving
    assert dg.steps(game.state) == [(0, 1)]  # not (1, 0)


# ----------------------------------------------------------------- the set, the dragon


def test_R_PD_1_thirty_tiles_volcanoes_dragons_portals_princesses() -> None:
    from domain.tiles import TILES

    pd = [t for t in TILES.values() if t.expansion == "pd"]
    assert sum(t.count for t in pd) == 30
    assert sum(t.count for t in pd if "volcano" in t.tags) == 6
    assert sum(t.count for t in pd if "dragon" in t.tags) == 12
    assert sum(t.count for t in pd if "portal" in t.tags) == 6
    assert sum(t.count for t in pd if any("princess" in s.flags for s in t.segments)) == 6


def test_R_PD_2_no_dragon_tile_is_drawn_before_a_volcano() -> None:
    import random

    from domain.bots import shuffled_pile
    from domain.tiles import TILES

    for seed in range(10):
        pile = shuffled_pile(("base", "pd"), random.Random(seed))
        first_volcano = next(i for i, t in enumerate(pile) if "volcano" in TILES[t].tags)
        assert not any("dragon" in TILES[t].tags for t in pile[:first_volcano])


def test_R_PD_2_a_dragon_tile_waits_while_the_volcano_waits_in_a_bazaar_supply() -> None:
    """The pile reaches a dragon tile while the volcano drawn before it is still in the bazaar's
    supply, not on the board: the supply takes the tile after it, which keeps its place."""
    pile = ["BB/CFR.b", "DG/F.v", "DG/Rr.d", "BA/L", "BA/L", "BA/L"]
    rules = rule_set(bazaar_no_auction=True)
    game = Game.start(("Ann", "Bob"), pile, expansions=("base", "bcb", "pd"), rules=rules)
    place = next(c for c in legal_commands(game.state) if isinstance(c, PlaceTile))
    game.execute(ANN, place)
    while game.state.phase == Phase.ACTION:
        game.execute(ANN, Pass())
    opened = next(e for e in game.pending if isinstance(e, bz.BazaarOpened))
    assert opened.tiles == ("DG/F.v", "BA/L")
    assert game.state.draw_order[game.state.next_draw] == "DG/Rr.d"  # still on top, waiting
    assert next_tiles(game.state) == ("BA/L",)
    assert replay(game.pending).state.draw_order == game.state.draw_order


def _dragon_game() -> Game:
    """Ann's volcano below the start tile; Bob's thief east of it; Ann's dragon tile west of it."""
    game = Game.start(("Ann", "Bob"), ["DG/F.v", "BA/RFr", "DG/RFr.d", "BA/L"], expansions=("base", "pd"))
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    return game


def test_R_PD_3_the_dragon_lands_on_a_volcano_and_nobody_deploys_there() -> None:
    game = _dragon_game()
    assert dg.dragon(game.state).at == (0, 1)
    assert game.state.current == BOB  # nothing could be deployed on the volcano: Ann's turn ended


def test_R_PD_4_the_dragon_steps_six_times_moved_in_turn_eating_what_it_finds() -> None:
    game = _dragon_game()
    game.execute(BOB, PlaceTile(x=1, y=0, rotation=0))
    game.execute(BOB, Deploy(location="E+W"))
    game.execute(ANN, PlaceTile(x=-1, y=0, rotation=0))
    game.execute(ANN, Pass())
    assert expected_step(game.state) == Decision("dragon", ANN)
    assert legal_commands(game.state) == [dg.MoveDragon(x=0, y=0)]  # the only tile beside the volcano
    game.execute(ANN, dg.MoveDragon(x=0, y=0))
    assert expected_step(game.state) == Decision("dragon", BOB)  # the next step is Bob's
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, dg.MoveDragon(x=0, y=1))  # back where it was in this move
    assert refused.value.rule == "R-PD-4"
    game.execute(BOB, dg.MoveDragon(x=1, y=0))  # onto his own thief: eaten
    assert game.state.supply == [7, 7]
    assert game.state.current == BOB  # stuck after two steps: the move ends, Bob's turn comes
    replay(game.pending)


# ----------------------------------------------------------------- the princess, the portal


def test_R_PD_6_the_princess_sends_a_knight_of_her_city_home() -> None:
    game = Game.start(("Ann", "Bob"), ["BA/Cc+", "DG/Cc.p", "BA/L"], expansions=("base", "pd"))
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    game.execute(ANN, Deploy(location="E+S"))
    game.execute(BOB, PlaceTile(x=1, y=-1, rotation=0))
    knight = pp.RemoveKnight(x=0, y=-1, location="E+S", owner=ANN)
    assert knight in legal_commands(game.state)
    game.execute(BOB, knight)
    assert game.state.supply == [7, 7] and game.state.current == ANN
    replay(game.pending)


def test_R_PD_7_a_portal_lets_its_player_deploy_on_any_open_feature() -> None:
    game = Game.start(("Ann", "Bob"), ["BA/RFr", "DG/RrRr.g", "BA/L"], expansions=("base", "pd"))
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    game.execute(ANN, Pass())
    game.execute(BOB, PlaceTile(x=2, y=0, rotation=0))
    remote = Deploy(location="E+W", x=1, y=0)
    assert remote in legal_commands(game.state)
    game.execute(BOB, remote)
    road = game.state.board.graph.feature(game.state.board.at[(1, 0)].segment("E+W"))
    assert [(p, k) for p, _, k in road.figures] == [(BOB, "follower")]
    replay(game.pending)


def test_R_PD_7_without_a_portal_only_the_tile_just_placed_takes_a_follower() -> None:
    game = Game.start(("Ann", "Bob"), ["BA/RFr", "BA/RFr", "BA/L"], expansions=("base", "pd"))
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    game.execute(ANN, Pass())
    game.execute(BOB, PlaceTile(x=2, y=0, rotation=0))
    assert not any(isinstance(c, Deploy) and c.x is not None for c in legal_commands(game.state))
    with pytest.raises(RuleViolation) as refused:
        game.execute(BOB, Deploy(location="Nw+Ne+En+Wn", x=1, y=0))
    assert refused.value.rule == "R-BASE-4"


def test_R_PD_5_the_fairys_three_points_when_a_barn_makes_her_farmers_field_score() -> None:
    """A field scores when a barn joins it (R-AM-6): the fairy beside a farmer there gives 3 too,
    as for any feature that scores (JCloisterZone scores it as a field)."""
    pile = ["BA/RFr", "BA/L", "BA/L", "BA/LR", "BA/L", "BA/L"]
    game = Game.start(("Ann", "Bob"), pile, expansions=("base", "am", "pd"))
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    game.execute(ANN, Deploy(location="Es+Se+Sw+Ws"))  # Ann's farmer south of the road
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=0))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=1, y=1, rotation=0))
    game.execute(ANN, fy.MoveFairy(x=1, y=0, location="Es+Se+Sw+Ws", figure="follower"))
    game.execute(BOB, PlaceTile(x=2, y=0, rotation=90))
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=2, y=1, rotation=0))
    game.execute(ANN, Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn", figure="barn"))
    scored = [(a.player, a.points, a.category) for a in game.state.awards]
    assert scored[-2:] == [(ANN, 0, "farm.barn-placed"), (ANN, 3, "fairy.completed")]
    assert fy.fairy(game.state).by is None  # the farmer went home
    replay(game.pending)


def test_R_TB_5a_the_pig_goes_home_when_the_dragon_eats_its_farmer() -> None:
    """Bob's pig and farmer share the field south of (1,0); the dragon eats the farmer on (1,0):
    the pig, with no farmer of his left beside it, goes home too (as JCloisterZone does)."""
    pile = ["DG/F.v", "BA/RFr", "BA/LR", "BA/L", "DG/RFr.d", "BA/L", "BA/L"]
    game = Game.start(("Ann", "Bob"), pile, expansions=("base", "tb", "pd"))
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))  # the volcano: the dragon lands there
    game.execute(BOB, PlaceTile(x=1, y=0, rotation=0))
    game.execute(BOB, Deploy(location="Es+Se+Sw+Ws"))  # his farmer
    game.execute(ANN, PlaceTile(x=2, y=0, rotation=90))
    game.execute(ANN, Pass())
    game.execute(BOB, PlaceTile(x=1, y=1, rotation=0))
    game.execute(BOB, Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn", figure="pig"))
    assert game.state.ext["figures"]["pig"] == [1, 0]
    game.execute(ANN, PlaceTile(x=-1, y=0, rotation=0))  # a dragon tile
    game.execute(ANN, Pass())
    game.execute(ANN, dg.MoveDragon(x=0, y=0))
    game.execute(BOB, dg.MoveDragon(x=1, y=0))  # onto Bob's farmer: eaten
    assert game.state.supply == [7, 7]
    assert game.state.ext["figures"]["pig"] == [1, 1]  # the pig went home with it
    replay(game.pending)


def test_R_PD_5_the_fairys_three_points_when_a_castle_scores_in_the_game() -> None:
    """Ann's knight sits in her castle (R-CASTLE-3) with the fairy beside it; a road completed in
    the fief scores the castle (R-CASTLE-6): 3 more for the fairy, as JCloisterZone gives them (not
    at the game's end, when a castle scores nothing)."""
    game = Game.start(
        ("Ann", "Bob"), ["BA/C", "BA/LR", "BA/L", "BA/LR", "BA/L", "BA/L"], expansions=("base", "bcb", "pd")
    )
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    game.execute(ANN, Deploy(location="S"))
    game.execute(ANN, cs.ChooseCastle(x=0, y=-1, location="S"))
    game.execute(BOB, PlaceTile(x=1, y=0, rotation=90))  # a road end east of the start
    game.execute(BOB, Pass())
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    game.execute(ANN, fy.MoveFairy(x=0, y=-1, location="S"))
    game.execute(BOB, PlaceTile(x=-1, y=0, rotation=270))  # the road's other end: 3 tiles
    game.execute(BOB, Pass())
    scored = [(a.player, a.points, a.category) for a in game.state.awards]
    assert scored[-2:] == [(ANN, 3, "castle"), (ANN, 3, "fairy.completed")]
    replay(game.pending)


def test_R_PD_4_the_dragon_moves_when_its_placer_has_nothing_else_to_do() -> None:
    """Ann's only follower is on the board and the fairy is left out: her dragon tile leaves her
    nothing to do, so the action step is skipped and the dragon moves at once; eating her thief on
    the way gives her a follower back, but her action is over."""
    game = Game.start(
        ("Ann", "Bob"),
        ["BA/RFr", "DG/F.v", "DG/RFr.d", "BA/L", "BA/L"],
        expansions=("base", "pd"),
        rules=RuleSet(followers=1, without=("fairy",)),
    )
    game.execute(ANN, PlaceTile(x=1, y=0, rotation=0))
    game.execute(ANN, Deploy(location="E+W"))  # her only follower
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=0))  # the volcano: the dragon lands there
    game.execute(ANN, PlaceTile(x=-1, y=0, rotation=0))  # a dragon tile, nothing to deploy
    assert expected_step(game.state) == Decision("dragon", ANN)
    game.execute(ANN, dg.MoveDragon(x=0, y=0))
    game.execute(BOB, dg.MoveDragon(x=1, y=0))  # onto Ann's thief: eaten
    assert game.state.supply == [1, 1]
    assert expected_step(game.state) in (Decision("dragon", ANN), Decision("place", BOB))
    while (step := expected_step(game.state)) is not None and step.step == "dragon":
        game.execute(step.player, legal_commands(game.state)[0])
    assert expected_step(game.state) == Decision("place", BOB)  # no action for Ann after all
    replay(game.pending)
