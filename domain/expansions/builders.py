"""The builder (Traders & Builders; R-TB-2..4): a figure beside its owner's follower that earns a
second tile when its road or city is extended (the builder's double turn).
"""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

from domain import events as ev
from domain.agenda import Entry
from domain.events import Event
from domain.features import Feature
from domain.moves import own_follower_locations
from domain.part import FigureKind, Part, ext, part_options
from domain.rules import Options
from domain.state import GameState, begin_part, next_tiles, pop_agenda, return_stranded, take_from_pile
from domain.tiles import Kind
from domain.view import FigureLook, Shape

NAME: Final = "builders"
FIGURE: Final = "builder"
PART_KIND: Final = "builder"  # the kind of turn part the second tile is played in
GRANT: Final = "grant"  # agenda item: BuilderTurnGranted
TAKE: Final = "builder"  # agenda item: BuilderTurnTaken, the player's extra tile


class BuilderTurnGranted(Event, frozen=True, kw_only=True):
    """The tile just placed extended the player's builder feature: a second tile is due (R-TB-3)."""

    player: int


class BuilderTurnTaken(Event, frozen=True, kw_only=True):
    """The builder's extra tile, from the top of the pile (R-TB-3)."""

    player: int
    tile: str


class Builders:
    __slots__ = ("earned", "grants")

    def __init__(self) -> None:
        self.earned = False  # this part's tile extended the player's builder feature
        # The parts that earned builder tiles granted and not yet taken; the latest is taken first.
        self.grants: list[int] = []


def builders(state: GameState) -> Builders:
    found: Builders = ext(state, NAME)
    return found


def begin_second_part(state: GameState, player: int, tile_id: str, from_pile: bool) -> None:
    """The builder's second part starts with `tile_id`: the pile's top, or the player's abbey."""
    pop_agenda(state, TAKE)
    if from_pile:
        take_from_pile(state, (tile_id,))
    begin_part(state, player, PART_KIND, tile_id, from_pile)


class BuilderOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    builders: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Builders each player has with Traders & Builders (R-TB-1)."""

    builder_on_completed: bool = True
    """A builder may go on a road or city the tile just completed (R-TB-2 does not forbid it;
    it returns at once); JCloisterZone does not offer it."""


def _settings(state: GameState) -> BuilderOptions:
    found: BuilderOptions = part_options(state, NAME)
    return found


class BuildersPart(Part):
    name = NAME
    rank = 65  # before the bazaar, which plans its auction around the builder's second part
    options = BuilderOptions
    switches = {"JCZ-BUILDER-COMPLETED": "builder_on_completed"}
    events = (BuilderTurnGranted, BuilderTurnTaken)
    figures = {
        FIGURE: FigureKind(
            follower=False,
            strength=0,
            rule="R-TB-2",
            look=FigureLook(glyphs="abcdef", shape=Shape(tag="rect", width=12, height=12), beneath=True),
        )
    }
    items = (GRANT, TAKE)
    part_starts = {BuilderTurnTaken: "builder"}
    rules_of = {BuilderTurnGranted: "R-TB-3", BuilderTurnTaken: "R-TB-3"}
    engine_rules = {BuilderTurnGranted: "R-TB-3", BuilderTurnTaken: "R-TB-3"}

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Builders()
        state.ext["figures"][FIGURE] = [_settings(state).builders] * len(event.players)

    def begin_turn(self, state: GameState) -> None:
        builders(state).grants = []

    def begin_part(self, state: GameState) -> None:
        own = builders(state)
        if state.part == PART_KIND and own.grants:
            state.sitting = own.grants.pop()  # the part goes on from the one that earned it
        own.earned = False

    def extended(self, state: GameState, sids: list[int]) -> None:
        """Did this part's tile extend a road or city holding the player's builder? (R-TB-3)

        Only a part other than a builder's own earns a builder tile: one extra tile per turn at most.
        """
        own = builders(state)
        if state.part == PART_KIND or own.earned:
            return
        graph = state.board.graph
        me = state.current
        for sid in sids:
            feature = graph.feature(sid)
            if feature.kind in (Kind.ROAD, Kind.CITY) and any(
                p == me and k == FIGURE for p, _, k in feature.figures
            ):
                own.earned = True
                return

    def deployments(self, state: GameState, figure: str) -> list[str]:
        """A road or city of the tile just placed holding one of the player's followers (R-TB-2);
        under JCZ-BUILDER-COMPLETED not one the tile completed."""
        found = own_follower_locations(state, FIGURE, (Kind.ROAD, Kind.CITY))
        placed = state.placed
        if _settings(state).builder_on_completed or placed is None:
            return found
        graph = state.board.graph
        return [name for name in found if graph.feature(placed.segment(name)).open]

    def why_not(self, state: GameState, figure: str, location: str) -> str:
        return f"a builder goes on a road or city holding your own follower, not {location}"

    def followers_left(self, state: GameState, feature: Feature) -> None:
        """A builder without its owner's follower beside it goes home (R-TB-4)."""
        return_stranded(state, feature, FIGURE)

    def apply(self, state: GameState, event: Event) -> None:
        if isinstance(event, BuilderTurnGranted):
            pop_agenda(state, GRANT)
            builders(state).grants.append(state.sitting)
        else:
            assert isinstance(event, BuilderTurnTaken)
            begin_second_part(state, event.player, event.tile, True)

    def plan(self, state: GameState, planned: list[Entry]) -> None:
        if builders(state).earned:  # R-TB-3
            planned += (Entry(GRANT, state.current), Entry(TAKE, state.current))

    def opens_part(self, entry: Entry) -> bool:
        """The builder's second part. With the pile empty its tile is never taken (R-TB-3a), but
        JCloisterZone still opens the part, to offer the player their abbey there
        (JCZ-ABBEY-BUILDER): another part may open it with its own tile."""
        return entry.item == TAKE

    def begin_queued(self, state: GameState, entry: Entry, tile_id: str, from_pile: bool) -> None:
        begin_second_part(state, entry.player, tile_id, from_pile)

    def is_live(self, state: GameState, entry: Entry) -> bool:
        return entry.item != TAKE or state.pile_left > 0  # R-TB-3a

    def agenda_event(self, state: GameState, entry: Entry) -> Event:
        gid, version, p = state.id, state.version + 1, entry.player
        if entry.item == GRANT:
            return BuilderTurnGranted(originator_id=gid, originator_version=version, player=p)
        tile = next_tiles(state)[0]
        return BuilderTurnTaken(originator_id=gid, originator_version=version, player=p, tile=tile)


PART = BuildersPart()
PARTS = (PART,)
