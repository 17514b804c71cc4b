"""Princess & Dragon: the fairy, one or more scenarios per rule id (docs/RULES.md 5, R-PD-5).

The start tile BA/RCr lies at (0,0), its road E+W. Ann's thief stands on the road tile at (1,0).
"""

from __future__ import annotations

import pytest

from domain.aggregate import Game
from domain.commands import Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import fairy as fy
from domain.moves import legal_commands
from domain.replay import replay

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
