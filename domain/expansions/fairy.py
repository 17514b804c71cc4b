"""The fairy (Princess & Dragon, R-PD-5): instead of deploying, a player moves the fairy next to one
of their followers; its owner scores 1 at the start of each of their turns and 3 when that
follower's feature scores. Under V-FAIRY-ON-TILE the fairy goes onto a tile holding a follower of
the player instead, and stays on that tile whoever comes and goes.
"""

from __future__ import annotations

from typing import Final, cast

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.features import Feature
from domain.geometry import Pos
from domain.moves import figures_off
from domain.part import Part, ext, part_options
from domain.rules import Options, RuleSet
from domain.state import FINAL_PART, GameState, Phase, credit, segment_location
from domain.view import NOTHING_SHOWN, Mark, MarkKind, MarkStyle, PartView, Shape

NAME: Final = "fairy"
TURN: Final = "fairy.turn"  # the award categories, named as JCloisterZone names them
COMPLETED: Final = "fairy.completed"
ON_TILE: Final = "tile"  # V-FAIRY-ON-TILE: the location of a fairy standing on a whole tile
PYRAMID: Final = "acrobats"  # the location of an acrobat space (Under the Big Top), a pyramid of followers

Spot = tuple[int, int, str, int, str]  # x, y, location, player, figure: the follower it stands by


class FairyMoved(Event, frozen=True, kw_only=True):
    """The fairy now stands next to the player's `figure` at `location` of the tile at (x, y)."""

    player: int
    x: int
    y: int
    location: str
    figure: str


class MoveFairy(Command, frozen=True, kw_only=True):
    x: int
    y: int
    location: str
    figure: str = "follower"


class Fairy:
    __slots__ = ("at", "by")

    def __init__(self) -> None:
        self.by: Spot | None = None  # the follower the fairy stands next to, None once it left
        # The tile she stands on, once moved: she stays there when her follower leaves, and the
        # dragon still keeps off it (R-PD-4; JCloisterZone keeps her on the board the same way).
        self.at: tuple[int, int] | None = None


def fairy(state: GameState) -> Fairy:
    found: Fairy = ext(state, NAME)
    return found


def _followers(state: GameState, player: int) -> list[Spot]:
    """The player's followers on the board, on towers too."""
    board = state.board
    found = []
    for feature in board.graph.figured():  # most of a big board holds no figure
        for owner, sid, figure in state.followers(feature):
            if owner == player:
                found.append((*segment_location(board, sid), owner, figure))
    strength = state.tables.strength
    for _, (x, y, location, owner, figure) in figures_off(state):
        if owner == player and figure in strength:  # a follower outside the features (on a tower)
            found.append((x, y, location, owner, figure))
    return sorted(found)


def _tiles(state: GameState, player: int) -> list[Spot]:
    """V-FAIRY-ON-TILE: the tiles holding a follower of the player, as where the fairy may go."""
    spots = {(x, y, ON_TILE, player, "") for x, y, _, _, _ in _followers(state, player)}
    return sorted(spots)


def _options(state: GameState, player: int) -> list[Spot]:
    """Where the player may move the fairy (R-PD-5, V-FAIRY-ON-TILE): never where it is. Once a
    state version: the legal moves and the check of a move ask alike."""
    found: list[Spot] = state.memoized(f"fairy {player}", lambda: _spots(state, player))
    return found


def _spots(state: GameState, player: int) -> list[Spot]:
    by = fairy(state).by
    found = _tiles(state, player) if _settings(state).fairy_on_tile else _followers(state, player)
    if by is None:
        return found
    if _settings(state).fairy_on_tile:  # another tile (JCloisterZone compares positions)
        return [spot for spot in found if spot[:2] != by[:2]]
    return [spot for spot in found if spot != by]


def _figures_on(state: GameState, pos: tuple[int, int], player: int | None = None) -> list[tuple[int, str]]:
    """(owner, kind) of every figure on the tile at `pos` (a tower's guard too), of `player` only
    if given."""
    board = state.board
    placed = board.at.get(pos)
    if placed is None:
        return []
    graph = board.graph
    found = []
    for _, sid, _ in placed.locations():
        for owner, fsid, kind in graph.feature(sid).figures:
            if fsid == sid and (player is None or owner == player):
                found.append((owner, kind))
    for _, (x, y, _, owner, kind) in figures_off(state):
        if (x, y) == pos and (player is None or owner == player):
            found.append((owner, kind))
    return found


def _still_there(state: GameState, by: Spot) -> bool:
    """The follower the fairy stands by is still where it was."""
    x, y, location, player, figure = by
    if location == ON_TILE:
        return True  # on a tile, it stays there, followers or none (V-FAIRY-ON-TILE)
    if any(f == by for _, f in figures_off(state)):
        return True  # a follower outside the features (on a tower), still there
    placed = state.board.at[(x, y)]
    if all(name != location for name, _, _ in placed.locations()):
        return False
    feature = state.board.graph.feature(placed.segment(location))
    return any(
        p == player and k == figure and state.board.graph.segment_tile[sid] == placed.index
        for p, sid, k in feature.figures
    )


def turn_points(state: GameState, player: int) -> int:
    """What the fairy gives `player` as a turn of theirs starts: 1 if she stands by a follower of
    theirs still there (R-PD-5); on a tile (V-FAIRY-ON-TILE), 1 for each figure of theirs on it,
    as JCloisterZone counts."""
    by = fairy(state).by
    return 0 if by is None or not _still_there(state, by) else _points(state, by, player)


def _points(state: GameState, by: Spot, player: int) -> int:
    if by[2] == ON_TILE:
        return len(_figures_on(state, by[:2], player))
    if by[2] == PYRAMID and _settings(state).fairy_pyramid_counts:
        return _on_pyramid(state, by, player)
    return 1 if by[3] == player else 0


def _on_pyramid(state: GameState, by: Spot, player: int) -> int:
    """JCZ-FAIRY-PYRAMID: the player's followers on the pyramid she stands by."""
    placed = state.board.at[(by[0], by[1])]
    return sum(owner == player for owner, _, _ in state.board.graph.feature(placed.segment(PYRAMID)).figures)


class FairyOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    fairy_on_tile: bool = False
    """V-FAIRY-ON-TILE: the fairy goes onto a tile holding a follower of the player, not beside
    one follower (R-PD-5); JCloisterZone's `fairy-placement` = on-tile."""

    fairy_pyramid_counts: bool = False
    """JCZ-FAIRY-PYRAMID: beside a follower on an acrobat pyramid, the fairy gives whoever starts a
    turn 1 point for each of their followers on that pyramid, her follower's owner or not, as
    JCloisterZone counts. Off: 1 to her follower's owner alone (R-PD-5)."""


def _settings(state: GameState) -> FairyOptions:
    found: FairyOptions = part_options(state, NAME)
    return found


class FairyPart(Part):
    name = NAME
    rank = 170
    options = FairyOptions
    switches = {"V-FAIRY-ON-TILE": "fairy_on_tile", "JCZ-FAIRY-PYRAMID": "fairy_pyramid_counts"}
    events = (FairyMoved,)
    commands = (MoveFairy,)
    command_steps = {MoveFairy: (("action",), "R-PD-5")}
    command_names = {MoveFairy: "move the fairy"}
    rules_of = {FairyMoved: "R-PD-5"}
    decisions = {
        FairyMoved: (
            lambda e: (e.player, MoveFairy(x=e.x, y=e.y, location=e.location, figure=e.figure)),
            "R-PD-5",
        )
    }

    mark_styles = {
        # In the tile's other top corner than the dragon's: both may stand on one tile.
        "fairy": MarkStyle(
            shape=Shape(tag="circle", r=5, fill="#ffd1f0", stroke="#a0528c", stroke_width=None), at=(0.2, 0.2)
        )
    }

    def keeps_off(self, state: GameState, pos: Pos) -> bool:
        """The dragon may not step onto the fairy's tile (R-PD-4)."""
        return fairy(state).at == pos

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Fairy()

    def view(self, state: GameState) -> PartView:
        """The fairy on her tile, once moved, and the location of the follower she stands by."""
        own = fairy(state)
        if own.at is None:
            return NOTHING_SHOWN
        location = own.by[2] if own.by is not None else ""
        return PartView(
            marks=(Mark(kind=MarkKind.TOKEN, style="fairy", x=own.at[0], y=own.at[1], location=location),)
        )

    def begin_part(self, state: GameState) -> None:
        """Its follower's owner scores 1 as a turn of theirs starts (R-PD-5): a part that begins a
        run of parts, a bazaar tile's included, but no abbey placed after the last tile."""
        by = fairy(state).by
        if by is not None and not _still_there(state, by):
            fairy(state).by = by = None  # its follower left the board
        if by is None or state.sitting != state.part_count or state.part == FINAL_PART:
            return
        points = _points(state, by, state.current)
        if points:
            rule = {ON_TILE: "V-FAIRY-ON-TILE", PYRAMID: "JCZ-FAIRY-PYRAMID"}.get(by[2], "R-PD-5")
            credit(state, state.current, points, TURN, rule, (("fairy", points),), -1, state.version)

    def turn_points(self, state: GameState, player: int) -> int:
        return turn_points(state, player)

    def action_commands(self, state: GameState) -> list[Command]:
        return [
            MoveFairy(x=x, y=y, location=location, figure=figure)
            for x, y, location, _, figure in _options(state, state.current)
        ]

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, MoveFairy)
        figure = "" if command.location == ON_TILE else command.figure  # a tile names no figure
        wanted = (command.x, command.y, command.location, player, figure)
        if wanted not in _options(state, player):
            if _settings(state).fairy_on_tile:
                raise RuleViolation(
                    "V-FAIRY-ON-TILE",
                    f"the fairy moves onto another tile holding a follower of yours (location {ON_TILE!r}), "
                    "not next to one follower",
                )
            raise RuleViolation("R-PD-5", "the fairy moves next to another follower of your own")
        return [
            FairyMoved(
                originator_id=state.id,
                originator_version=state.version + 1,
                player=player,
                x=command.x,
                y=command.y,
                location=command.location,
                figure=figure,
            )
        ]

    def apply(self, state: GameState, event: Event) -> None:
        assert isinstance(event, FairyMoved)
        fairy(state).by = (event.x, event.y, event.location, event.player, event.figure)
        fairy(state).at = (event.x, event.y)
        state.phase = Phase.ACTION_DONE

    def rule_of(self, event: Event, rules: RuleSet) -> str:
        return "V-FAIRY-ON-TILE" if cast(FairyOptions, self.options_of(rules)).fairy_on_tile else "R-PD-5"

    def _bonus(self, state: GameState, feature: Feature, version: int, final: bool) -> None:
        """The fairy's follower on a scored feature: 3 for its owner (R-PD-5); on a tile
        (V-FAIRY-ON-TILE), 3 for the owner of the feature's first follower on that tile."""
        by = fairy(state).by
        if by is None:
            return
        board = state.board
        if by[2] == ON_TILE:
            for player, sid, _ in state.followers(feature):
                if segment_location(board, sid)[:2] == by[:2]:
                    rule = "V-FAIRY-ON-TILE"
                    credit(state, player, 3, COMPLETED, rule, (("fairy", 3),), feature.id, version, final)
                    return
            return
        for player, sid, figure in state.followers(feature):
            if (*segment_location(board, sid), player, figure) == by:
                credit(state, player, 3, COMPLETED, "R-PD-5", (("fairy", 3),), feature.id, version, final)
                return

    def feature_scored(self, state: GameState, feature: Feature) -> None:
        self._bonus(state, feature, state.version + 1, final=False)

    def final_feature(self, state: GameState, feature: Feature, version: int) -> bool:
        if state.occupied(feature):
            self._bonus(state, feature, version, final=True)
        return False

    def followers_left(self, state: GameState, feature: Feature) -> None:
        """The follower went home: the fairy stays where it was, next to nobody."""
        own = fairy(state)
        if own.by is None or own.by[2] == ON_TILE:
            return
        board = state.board
        at = board.at.get(own.by[:2])
        if at is None:
            return
        try:
            sid = at.segment(own.by[2])
        except KeyError:
            return
        if board.graph.find(sid) == feature.id and not any(
            (*segment_location(board, s), p, f) == own.by for p, s, f in state.followers(feature)
        ):
            own.by = None


PART = FairyPart()
PARTS = (PART,)
