"""Bad input with Bridges, Castles and Bazaars: each refused command names its rule and records
nothing (the version, the pending events, the board and the scores stay as they were)."""

from __future__ import annotations

from collections.abc import Callable

import pytest

from domain.aggregate import Game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.errors import RuleViolation
from domain.expansions import bazaars as bz, bridges as br, castles as cs
from domain.readings import rule_set
from domain.rules import RuleSet
from projections.board import board_view

BCB = ("base", "bcb")
ANN, BOB = 0, 1
RED, BLUE, GREEN = 0, 1, 2


def bazaar_of_three(rules: RuleSet | None = None) -> Game:
    """Red hosts a bazaar (BB/F.b at (0,1)); Blue has chosen tile 0 and opened with 2."""
    game = Game.start(
        ("Red", "Blue", "Green"), ["BB/F.b", "BA/RFr", "BA/L", "BA/C", "BA/L"], expansions=BCB, rules=rules
    )
    game.execute(RED, PlaceTile(x=0, y=1, rotation=0))
    game.execute(RED, Deploy(location="Nw+Ne+En+Es+Se+Sw+Ws+Wn"))
    game.execute(BLUE, bz.ChooseBazaarTile(index=0, bid=2))
    return game


def blue_has_a_tile() -> Game:
    """Blue bought tile 0; Green chose tile 2 and opened with 2; Red is to bid."""
    game = bazaar_of_three()
    game.execute(GREEN, bz.Bid(amount=3))
    game.execute(RED, bz.Bid(amount=4))
    game.execute(BLUE, bz.Buy())
    game.execute(GREEN, bz.ChooseBazaarTile(index=2, bid=2))
    return game


def no_credit_bazaar() -> Game:
    """V-BAZAAR-NOCREDIT: Ann (4 points) opened with 1; Bob (0 points) is to bid."""
    game = Game.start(
        ("Ann", "Bob"), ["BA/C", "BB/F.b", "BA/RFr", "BA/L", "BA/L"], expansions=BCB,
        rules=rule_set(bazaar_no_credit=True),
    )  # fmt: skip
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=180))
    game.execute(ANN, Deploy(location="S"))
    game.execute(ANN, Pass())  # no castle: the city scores 4
    game.execute(BOB, PlaceTile(x=0, y=1, rotation=0))
    game.execute(BOB, Pass())
    game.execute(ANN, bz.ChooseBazaarTile(index=0, bid=1))
    assert game.state.scores == [4, 0]
    return game


def after_placing_below_start() -> Game:
    game = Game.start(("Ann", "Bob"), ["BA/L", "BA/L"], expansions=BCB)
    game.execute(ANN, PlaceTile(x=0, y=1, rotation=0))
    return game


def three_tile_city_closed() -> Game:
    """Ann's knight on BA/CFc.1 (N+S) at (0,-1); Bob has just closed the city with a cap."""
    game = Game.start(("Ann", "Bob"), ["BA/CFc.1", "BA/C", "BA/L"], expansions=BCB)
    game.execute(ANN, PlaceTile(x=0, y=-1, rotation=90))
    game.execute(ANN, Deploy(location="N+S"))
    game.execute(BOB, PlaceTile(x=0, y=-2, rotation=180))
    return game


CASES: list[tuple[str, Callable[[], Game], int, Command, str, str]] = [
    ("bid lower than the current bid", bazaar_of_three, GREEN, bz.Bid(amount=1), "R-BAZAAR-4", "raise"),
    ("bid equal to the current bid", bazaar_of_three, GREEN, bz.Bid(amount=2), "R-BAZAAR-4", "raise"),
    ("bid by a player who has a tile", blue_has_a_tile, BLUE, bz.Bid(amount=9), "R-BAZAAR-4", "Red"),
    ("bid above the score", no_credit_bazaar, BOB, bz.Bid(amount=2), "V-BAZAAR-NOCREDIT", "score"),
    ("bid far above the score", no_credit_bazaar, BOB, bz.Bid(amount=5), "V-BAZAAR-NOCREDIT", "score"),
    (
        "bridge with a pillar on a road",
        after_placing_below_start,
        ANN,
        br.PlaceBridge(x=0, y=0, axis="EW"),
        "R-BRIDGE-3",
        "field",
    ),
    (
        "castle on a three-tile city",
        three_tile_city_closed,
        BOB,
        cs.ChooseCastle(x=0, y=-2, location="S"),
        "R-CASTLE-2",
        "3 tiles",
    ),
]


@pytest.mark.parametrize(
    ("setup", "player", "command", "rule", "words"),
    [case[1:] for case in CASES],
    ids=[case[0] for case in CASES],
)
def test_refused_command_names_its_rule_and_records_nothing(
    setup: Callable[[], Game], player: int, command: Command, rule: str, words: str
) -> None:
    game = setup()
    game.collect_events()  # anything pending afterwards was recorded by the command
    version, view, scores = game.version, board_view(game.state), list(game.state.scores)
    with pytest.raises(RuleViolation) as info:
        game.execute(player, command)
    assert info.value.rule == rule
    assert words in info.value.message
    assert game.version == version
    assert game.pending == ()
    assert board_view(game.state) == view
    assert game.state.scores == scores
