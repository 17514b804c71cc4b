"""V-TINY-CITY: a completed city of exactly two tiles scores 1 a tile and 1 a pennant (the older
reading, JCloisterZone's `tiny-city-scoring` = 2), instead of 2 each (R-BASE-5)."""

from __future__ import annotations

import pytest

from domain.readings import audit_variants
from domain.rules import RuleSet
from tests.helpers import ANN, Move, awards, play, scenario


def _two_tile_city(tiny: bool) -> list[tuple[int, int, str, str, tuple[tuple[str, int], ...]]]:
    """A cap north of the start tile closes its city: two tiles, Ann's follower on the cap."""
    game = scenario(["BA/C", "BA/RFr"], rules=RuleSet(tiny_city=tiny))
    play(game, Move(0, -1, 180, deploy="S"))
    return awards(game)


def test_V_TINY_CITY_off_a_two_tile_city_scores_two_a_tile() -> None:
    assert _two_tile_city(tiny=False) == [(ANN, 4, "city", "R-BASE-5", (("tiles", 2), ("pennants", 0)))]


def test_V_TINY_CITY_on_a_two_tile_city_scores_one_a_tile() -> None:
    assert _two_tile_city(tiny=True) == [
        (ANN, 2, "city.tiny", "V-TINY-CITY", (("tiles", 2), ("pennants", 0)))
    ]


@pytest.mark.parametrize("tiny", [False, True])
def test_V_TINY_CITY_a_city_of_three_tiles_scores_as_ever(tiny: bool) -> None:
    game = scenario(["BA/CFc+", "BA/C", "BA/RFr"], rules=RuleSet(tiny_city=tiny))
    play(game, Move(0, -1, 90, deploy="N+S"), Move(0, -2, 180))
    assert awards(game) == [(ANN, 8, "city", "R-BASE-5", (("tiles", 3), ("pennants", 1)))]


def test_V_TINY_CITY_is_a_reading_the_audit_flips() -> None:
    assert audit_variants(RuleSet())["V-TINY-CITY=on"] == RuleSet(tiny_city=True)
    assert audit_variants(RuleSet(tiny_city=True))["V-TINY-CITY=off"] == RuleSet()
