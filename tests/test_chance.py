"""Draws of chance (a die, a token from a bag) are events like any other.

A part says when one is due and what it may record (`Part.chance`); live play picks an outcome at
random (reproducibly in a seeded game), a replay accepts any outcome listed and refuses others,
and an import supplies the outcome its log recorded (`Game.roll`). Nobody decides while one is due.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Final

import pytest

from domain import events as ev
from domain.aggregate import Game
from domain.commands import Pass, PlaceTile
from domain.moves import expected_step, legal_placements
from domain.part import Part
from domain.replay import Replay, ReplayError
from domain.state import GameState, Phase
from domain.turns import Chance

FACES: Final = (1, 2, 3)


class Rolled(ev.Event, frozen=True, kw_only=True):
    """A test die rolled after each turn part."""

    value: int


class DiePart(Part):
    """Rolls a die once every turn part has scored."""

    name = "die"
    rank = 1
    events = (Rolled,)
    engine_rules = {Rolled: "R-TEST-DIE"}  # noqa: RUF012

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[self.name] = {"rolled": -1, "faces": []}

    def chance(self, state: GameState) -> tuple[ev.Event, ...]:
        own = state.ext[self.name]
        if state.phase != Phase.PART_OVER or own["rolled"] == state.part_count:
            return ()
        gid, version = state.id, state.version + 1
        return tuple(Rolled(originator_id=gid, originator_version=version, value=v) for v in FACES)

    def apply(self, state: GameState, event: ev.Event) -> None:
        assert isinstance(event, Rolled)
        own = state.ext[self.name]
        own["rolled"] = state.part_count
        own["faces"].append(event.value)


@pytest.fixture(autouse=True)
def die_in_play(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    """A base game that also plays the test die."""
    import domain.expansions

    monkeypatch.setattr(domain.expansions, "parts_for", lambda *_: (DiePart(),))
    yield


PILE = ["BA/L", "BA/L", "BA/L", "BA/L", "BA/L", "BA/L"]


def _played(seed: int | None, game: Game | None = None) -> Game:
    game = game or Game.start(("Ann", "Bob"), PILE, seed=seed)
    for _ in range(3):
        _place(game)
        game.execute(game.state.current, Pass())
    return game


def _place(game: Game) -> None:
    x, y, rotation = legal_placements(game.state)[0]
    game.execute(game.state.current, PlaceTile(x=x, y=y, rotation=rotation))


def faces(game: Game) -> list[int]:
    found: list[int] = game.state.ext["die"]["faces"]
    return found


def test_a_seeded_game_rolls_the_same_each_time_and_each_roll_is_an_event() -> None:
    first, again = _played(7), _played(7)
    assert len(faces(first)) == 3 and faces(first) == faces(again)
    rolls = [e for e in first.collect_events() if isinstance(e, Rolled)]
    assert [e.value for e in rolls] == faces(first)
    assert len({tuple(faces(_played(seed))) for seed in range(12)}) > 1  # seeds give other rolls


def test_an_unseeded_game_rolls_too() -> None:
    assert all(face in FACES for face in faces(_played(None)))


def test_nobody_decides_while_a_roll_is_due() -> None:
    game = Game.start(("Ann", "Bob"), PILE, seed=1)
    game.roll = lambda state, chance: pytest.fail("no roll yet")  # nothing rolls before a part ends
    _place(game)
    state = game.state
    pending: list[Chance] = []

    def hold(state: GameState, chance: Chance) -> ev.Event:
        pending.append(chance)
        assert expected_step(state) is None  # the roll comes before anyone is asked anything
        return chance.outcomes[2]

    game.roll = hold
    game.execute(0, Pass())
    assert [len(c.outcomes) for c in pending] == [3] and faces(game) == [3]
    assert state.phase == Phase.PLACE  # the next turn began once the die had rolled


def test_a_replay_takes_any_listed_outcome_and_refuses_another() -> None:
    events = _played(3).collect_events()
    replay = Replay()
    for event in events:
        replay.apply(event)
    at = next(i for i, e in enumerate(events) if isinstance(e, Rolled))
    other = next(v for v in FACES if v != events[at].value)  # type: ignore[attr-defined]
    lucky = Replay()
    for event in events[:at]:
        lucky.apply(event)
    lucky.apply(Rolled(originator_id=events[at].originator_id, originator_version=at + 1, value=other))
    cheat = Replay()
    for event in events[:at]:
        cheat.apply(event)
    with pytest.raises(ReplayError, match="R-TEST-DIE: chance draws one of"):
        cheat.apply(Rolled(originator_id=events[at].originator_id, originator_version=at + 1, value=6))
