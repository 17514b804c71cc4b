"""The shapes of JCloisterZone saves (``.jcz``, 5.x and the older 4.x schema) and the errors of
reading them: msgspec structs, in a module of their own so that `replays.jcz`, which works on
them, can be compiled (mypyc does not build structs faithfully; see the Makefile).
"""

from __future__ import annotations

from typing import Any

import msgspec

from domain.errors import UserError


class JczError(UserError):
    """A save we cannot read or replay."""


class JczExportError(UserError):
    """A game that cannot be written as a JCloisterZone save."""


class JczRefused(JczError):
    """A message of the save that our rules (or JCZ's draws as we reproduce them) do not allow."""

    def __init__(self, message: str, index: int) -> None:
        super().__init__(message)
        self.index = index


# ---------------------------------------------------------------- the 5.x format


class JczPointer(msgspec.Struct, frozen=True):
    position: tuple[int, int]
    location: str
    feature: str = ""  # 4.x pointers do not name the feature


class JczMessage(msgspec.Struct, frozen=True):
    type: str
    payload: dict[str, Any] = {}
    player: int | None = None  # 4.x messages do not say who sent them


class JczStart(msgspec.Struct, frozen=True):
    tile: str
    x: int
    y: int
    rotation: int


class JczSetup(msgspec.Struct, frozen=True):
    sets: dict[str, int]
    elements: dict[str, Any] = {}
    rules: dict[str, Any] = {}
    start: tuple[JczStart, ...] = ()


class JczPlayer(msgspec.Struct, frozen=True):
    name: str
    slot: int


class CarcNote(msgspec.Struct, frozen=True):
    """What our export adds of the game it came from, so that importing it finds that game."""

    game: str
    seed: int | None = None
    rules: dict[str, Any] | None = None  # the rule set it was played under, as stored


class JczAnnotations(msgspec.Struct, frozen=True):
    drawOrder: tuple[str, ...] | None = None
    endTurn: int | None = None  # the pack counts as empty after this many draws
    carc: CarcNote | None = None


class JczTest(msgspec.Struct, frozen=True):
    """The engine fixtures' own expectations: sentences in the four patterns of INDEX.md."""

    description: str = ""
    assertions: tuple[str, ...] = ()


class JczScore(msgspec.Struct, frozen=True):
    player: int
    points: int
    name: str  # e.g. city, road.incomplete, monastery, field, or a set's own


class JczPart(msgspec.Struct, frozen=True):
    """One turn part of the oracle's score history (or the final scoring)."""

    turn: int = 0
    player: int = -1
    secondPart: bool = False
    finalScoring: bool = False
    scores: tuple[JczScore, ...] = ()
    tiles: tuple[str, ...] | None = None  # the tiles placed in it, where the recorder lists them


class JczDecision(msgspec.Struct, frozen=True):
    index: int  # the replay message that answered it
    player: int
    tile: str
    placements: tuple[tuple[int, int, int], ...]
    passed: bool = False


class JczDraw(msgspec.Struct, frozen=True):
    """A tile JCloisterZone took out of its pack: why (`kind`) and which message made it."""

    tile: str
    kind: str = msgspec.field(name="for")  # turn, redraw, or a set's own purpose
    after: int  # index of the message whose processing drew it, -1 for the game setup


class JczOracle(msgspec.Struct, frozen=True):
    final_points: tuple[int, ...]
    score_history: tuple[JczPart, ...] = ()
    decisions: tuple[JczDecision, ...] = ()
    natural: bool = False
    draws: tuple[JczDraw, ...] | None = None


class JczSave(msgspec.Struct, frozen=True):
    setup: JczSetup
    players: tuple[JczPlayer, ...]
    replay: tuple[JczMessage, ...]
    appVersion: str = ""
    gameId: str = ""
    initialRandom: float = 0.0
    gameAnnotations: JczAnnotations | None = None
    test: JczTest | None = None
    oracle: JczOracle | None = None


# ---------------------------------------------------------------- the 4.x format


class Jcz4Slot(msgspec.Struct, frozen=True):
    number: int
    nickname: str


class Jcz4Setup(msgspec.Struct, frozen=True):
    expansions: dict[str, int]
    rules: dict[str, Any] = {}


class Jcz4Save(msgspec.Struct, frozen=True):
    slots: tuple[Jcz4Slot, ...]
    setup: Jcz4Setup
    replay: tuple[JczMessage, ...]
    annotations: dict[str, Any] = {}
