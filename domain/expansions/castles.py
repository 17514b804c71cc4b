"""Castles (Bridges, Castles and Bazaars; R-CASTLE-*): a small completed city turned into a castle
that later scores the first feature completed in its fief.
"""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

from domain import events as ev
from domain.board import Board
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.features import Feature
from domain.geometry import Pos
from domain.moves import Decision, feature_handle, root_at
from domain.part import Part, ext, part_options
from domain.rules import Options
from domain.state import (
    GameState,
    Phase,
    credit,
    feature_value,
    followers_gone,
    return_followers,
    scored as scored_feature,
)
from domain.tiles import Kind

NAME: Final = "castles"


class CastleBuilt(Event, frozen=True, kw_only=True):
    """The city completed at `location` of the tile at (x, y) becomes its owner's castle (R-CASTLE-3)."""

    player: int
    x: int
    y: int
    location: str


class CastleTargetChosen(Event, frozen=True, kw_only=True):
    """The castle owner picks which of several fief completions the castle scores (R-CASTLE-7).

    The castle is named by a tile it lies on, the feature by a tile and location.
    """

    player: int
    castle_x: int
    castle_y: int
    x: int
    y: int
    location: str


class ChooseCastle(Command, frozen=True, kw_only=True):
    """Convert the completed city at `location` of the tile at (x, y) into a castle (R-CASTLE-3)."""

    x: int
    y: int
    location: str


class ChooseCastleTarget(Command, frozen=True, kw_only=True):
    """Which completed feature a castle scores when several complete at once (R-CASTLE-7)."""

    x: int
    y: int
    location: str


class Castle:
    """A converted city: its owners' knights sit on it until it scores once (R-CASTLE-6)."""

    __slots__ = ("feature", "fief", "owners", "part", "positions", "scored", "sitting")

    def __init__(self, feature: int, positions: tuple[Pos, Pos], owners: list[int], part: int, sitting: int):
        self.feature = feature  # root segment id of the castle's city
        self.positions = positions
        self.fief = fief(*positions)
        self.owners = owners
        self.part = part  # the turn part (global count) that created it
        self.sitting = sitting  # the part that began its maker's run of parts (V-CASTLE-SAME-TURN)
        self.scored = False


class Castles:
    """This game's castles, each player's tokens, and this turn part's castle decisions."""

    __slots__ = ("all", "asked_from", "choices", "closed", "left", "roots", "targets", "triggered")

    def __init__(self, players: int) -> None:
        self.left = [3 if players <= 4 else 2] * players  # R-CASTLE-1
        self.all: list[Castle] = []
        self.roots: set[int] = set()  # feature roots that are castles (R-CASTLE-4)
        self.choices: dict[int, set[int]] = {}  # completed city root -> players who decided
        self.targets: dict[int, int] = {}  # castle index -> feature root it scores
        self.triggered: list[tuple[int, list[Feature]]] = []  # found as the part scores
        # JCZ-CASTLE-OFFER: the seat the asking goes on from (None: the tile's placer, not asked
        # yet), and whether a pass ended it.
        self.asked_from: int | None = None
        self.closed = False


def castles(state: GameState) -> Castles:
    found: Castles = ext(state, NAME)
    return found


def is_castle(state: GameState, feature: Feature) -> bool:
    return state.has(NAME) and feature.id in castles(state).roots


def fief(a: Pos, b: Pos) -> frozenset[Pos]:
    """The castle's two tiles and the two beside each along the shared edge's line (R-CASTLE-5)."""
    if a[1] == b[1]:  # side by side: the shared edge runs north-south
        return frozenset((x, a[1] + dy) for x in (a[0], b[0]) for dy in (-1, 0, 1))
    return frozenset((a[0] + dx, y) for y in (a[1], b[1]) for dx in (-1, 0, 1))


def castle_base(board: Board, feature: Feature, ends: bool, roots: set[int]) -> tuple[Pos, Pos] | None:
    """The two tile positions if `feature` is a completed city a castle may be made of (R-CASTLE-2).

    Two tiles, each giving one one-edge city segment; semicircles only unless V-CASTLE-ENDS.
    """
    if feature.kind != Kind.CITY or feature.id in roots or feature.open != 0 or len(feature.tiles) != 2:
        return None
    graph = board.graph
    root = graph.find(feature.id)
    for index in feature.tiles:
        placed = board.tiles[index]
        mine = [
            seg
            for i, seg in enumerate(placed.tile.segments)
            if seg.kind == Kind.CITY and graph.find(placed.base + i) == root
        ]
        if len(mine) != 1 or len(mine[0].edges) != 1 or not (ends or "angular" not in mine[0].flags):
            return None
    first, second = sorted(board.tiles[i].pos for i in feature.tiles)
    return first, second


def touches_fief(board: Board, feature: Feature, castle: Castle) -> bool:
    """A segment on a fief tile; a cloister only through its own tile (R-CASTLE-6)."""
    tiles = board.tiles
    return any(tiles[i].pos in castle.fief for i in feature.tiles)


def offer(state: GameState) -> tuple[int, int] | None:
    """(city root, owner) of the next castle decision this part's scoring waits for (R-CASTLE-3;
    under JCZ-CASTLE-OFFER the first of the cities the player is asked about)."""
    if not state.has(NAME):
        return None
    own = castles(state)
    if _settings(state).castle_turn_order:
        asked = _asked_in_turn_order(state, own)
        return None if asked is None else (asked[1][0], asked[0])
    board = state.board
    n = len(state.players)
    for feature in state.completions():
        if castle_base(board, feature, _settings(state).castle_ends, own.roots) is None:
            continue
        decided = own.choices.get(feature.id, set())
        # A knight of no strength (a mayor without pennants) still decides (seed 004's reading).
        owners = state.majority(feature) or sorted({p for p, _, _ in state.followers(feature)})
        for k in range(n):
            player = (state.current + k) % n
            if player in owners and player not in decided and own.left[player] > 0:
                return feature.id, player
    return None


def _asked_in_turn_order(state: GameState, own: Castles) -> tuple[int, list[int]] | None:
    """JCZ-CASTLE-OFFER: (player, city roots) of the next player asked, round the table from the
    player who placed the tile: a city of two caps holding one follower only, that follower's owner, with a
    token left. A pass ends the asking; a castle made goes on from the next player."""
    if own.closed:
        return None
    n, first = len(state.players), state.current
    start = 0 if own.asked_from is None else (own.asked_from - first) % n
    if own.asked_from is not None and start == 0:
        return None  # round the table back to the player who placed the tile
    cities = [
        (feature.id, followers[0][0])
        for feature in state.completions()
        if castle_base(state.board, feature, _settings(state).castle_ends, own.roots) is not None
        and len(followers := state.followers(feature)) == 1
    ]
    for k in range(start, n):
        player = (first + k) % n
        mine = [root for root, owner in cities if owner == player]
        if mine and own.left[player] > 0:
            return player, mine
    return None


def candidates(state: GameState) -> list[tuple[int, list[Feature]]]:
    """Castles this part's completions trigger, each with the features it may score (R-CASTLE-6)."""
    own = castles(state)
    if not own.all:
        return []
    completed = [f for f in state.completions() if f.id not in own.roots]
    if not completed:
        return []
    found = []
    for index, castle in enumerate(own.all):
        if castle.scored or not _may_score(state, castle):
            continue
        hits = [f for f in completed if touches_fief(state.board, f, castle)]
        if hits:
            found.append((index, hits))
    return found


def _may_score(state: GameState, castle: Castle) -> bool:
    """Not in the scoring that made it; without V-CASTLE-SAME-TURN not in a later part of the run
    of parts that made it either (a double turn's second part). Bazaar parts are turns of their own."""
    if castle.part == state.part_count:
        return False
    return _settings(state).castle_same_turn or castle.sitting != state.sitting


def target_pending(state: GameState) -> tuple[int, list[Feature]] | None:
    """A castle whose owner must pick among several fief completions (R-CASTLE-7)."""
    if not state.has(NAME):
        return None
    for index, hits in candidates(state):
        if len(hits) > 1 and index not in castles(state).targets:
            return index, hits
    return None


def owners_of(state: GameState, castle: Castle) -> list[int]:
    return sorted({p for p, _, _ in state.followers(state.board.graph.feature(castle.feature))})


def _on_offer(state: GameState) -> list[int]:
    """The city roots the player asked now may make a castle of: one, or under JCZ-CASTLE-OFFER
    each of theirs."""
    own = castles(state)
    if _settings(state).castle_turn_order:
        asked = _asked_in_turn_order(state, own)
        assert asked is not None
        return asked[1]
    found = offer(state)
    assert found is not None
    return [state.board.graph.find(found[0])]


class CastleOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    castle_ends: bool = False
    """V-CASTLE-ENDS: any two one-edge city ends may become a castle, not only semicircles."""

    castle_same_turn: bool = True
    """V-CASTLE-SAME-TURN: a castle made in a double turn's first part may score in its second."""

    castle_farm_value: Annotated[int, msgspec.Meta(ge=0, le=20)] = 4
    """What a castle beside a farm is worth to it (R-CASTLE-10: 4; one more with the pig).
    A scoring-only reading: the audit re-scores a game with castles counted like cities (3)."""

    castle_turn_order: bool = False
    """JCloisterZone's castle offer (JCZ-CASTLE-OFFER): only a city holding exactly one follower,
    its owner asked; players asked round the table from the tile's placer, one castle each; a
    pass ends the asking for everyone. Off: each majority holder decides for each city (R-CASTLE-3)."""


def _settings(state: GameState) -> CastleOptions:
    found: CastleOptions = part_options(state, NAME)
    return found


class CastlesPart(Part):
    name = NAME
    rank = 60
    options = CastleOptions
    switches = {
        "V-CASTLE-ENDS": "castle_ends",
        "V-CASTLE-SAME-TURN": "castle_same_turn",
        "JCZ-CASTLE-OFFER": "castle_turn_order",
    }
    events = (CastleBuilt, CastleTargetChosen)
    commands = (ChooseCastle, ChooseCastleTarget)
    steps = {"castle": "R-CASTLE-3", "castle-target": "R-CASTLE-7"}
    step_names = {"castle": "a castle decision", "castle-target": "the castle's choice of feature"}
    pass_steps = {"castle": "castle"}
    command_steps = {
        ChooseCastle: (("castle",), "R-CASTLE-3"),
        ChooseCastleTarget: (("castle-target",), "R-CASTLE-7"),
    }
    command_names = {ChooseCastle: "make a castle", ChooseCastleTarget: "choose a castle's feature"}
    rules_of = {CastleBuilt: "R-CASTLE-3", CastleTargetChosen: "R-CASTLE-7"}
    decisions = {
        CastleBuilt: (lambda e: (e.player, ChooseCastle(x=e.x, y=e.y, location=e.location)), "R-CASTLE-3"),
        CastleTargetChosen: (
            lambda e: (e.player, ChooseCastleTarget(x=e.x, y=e.y, location=e.location)),
            "R-CASTLE-7",
        ),
    }

    def readings(self, options: Options) -> dict[str, Options]:
        """Each yes/no switch flipped, and a castle beside a farm counted like a city (3) rather
        than 4 (R-CASTLE-10), or 4 if it is counted otherwise: a scoring-only reading."""
        assert isinstance(options, CastleOptions)
        other = 3 if options.castle_farm_value != 3 else 4
        farm = msgspec.structs.replace(options, castle_farm_value=other)
        return super().readings(options) | {f"castle-farm-value={other}": farm}

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Castles(len(event.players))

    def begin_part(self, state: GameState) -> None:
        own = castles(state)
        own.choices = {}
        own.targets = {}
        own.asked_from = None
        own.closed = False

    def apply(self, state: GameState, event: Event) -> None:
        own = castles(state)
        board = state.board
        if isinstance(event, CastleBuilt):
            feature = board.graph.feature(board.at[(event.x, event.y)].segment(event.location))
            positions = castle_base(board, feature, True, set())
            assert positions is not None
            own.choices.setdefault(feature.id, set()).add(event.player)
            castle = next((c for c in own.all if c.feature == feature.id), None)
            if castle is None:
                # A castle is no city: it keeps none of the city's pennants (a mayor in it has no
                # strength, R-AM-4, as in JCloisterZone, where only a city counts them).
                feature.pennants = 0
                own.roots.add(feature.id)
                own.all.append(Castle(feature.id, positions, [event.player], state.part_count, state.sitting))
            else:
                castle.owners.append(event.player)
            own.left[event.player] -= 1
            own.asked_from = (event.player + 1) % len(state.players)
            followers_gone(state, feature)
        else:
            assert isinstance(event, CastleTargetChosen)
            index = next(i for i, c in enumerate(own.all) if (event.castle_x, event.castle_y) in c.positions)
            feature = board.graph.feature(board.at[(event.x, event.y)].segment(event.location))
            own.targets[index] = feature.id

    def passed(self, state: GameState, step: str) -> None:
        found = offer(state)
        assert found is not None
        castles(state).choices.setdefault(found[0], set()).add(found[1])
        castles(state).closed = _settings(state).castle_turn_order

    def pending(self, state: GameState) -> Decision | None:
        if state.phase != Phase.ACTION and state.phase != Phase.ACTION_DONE:
            return None
        found = offer(state)
        if found is not None:
            return Decision("castle", found[1])
        pending = target_pending(state)
        if pending is not None:
            return Decision("castle-target", owners_of(state, castles(state).all[pending[0]])[0])
        return None

    def before_scoring(self, state: GameState) -> None:
        castles(state).triggered = candidates(state)

    def converted(self, state: GameState, feature: Feature) -> bool:
        """A castle is no city any more (R-AM-4, R-KR-6)."""
        return feature.id in castles(state).roots

    def scored_elsewhere(self, state: GameState, feature: Feature) -> bool:
        """A city converted in this part is not scored; the knights of those who declined go home."""
        own = castles(state)
        castle = next((c for c in own.all if c.feature == feature.id and c.part == state.part_count), None)
        if castle is None:
            return False
        return_followers(state, feature, keep=frozenset(castle.owners))
        return True

    def after_scoring(self, state: GameState, version: int) -> None:
        """Castles score the feature completed in their fief, then chained castles (R-CASTLE-6..8)."""
        own = castles(state)
        scored: list[tuple[Castle, int]] = []
        for index, hits in own.triggered:
            castle = own.all[index]
            chosen = own.targets.get(index)
            target = next((f for f in hits if f.id == chosen), hits[0])
            value, _ = feature_value(state, target, completed=True)
            scored.append((castle, value))
        own.triggered = []
        while scored:
            castle, value = scored.pop(0)
            if castle.scored:  # a castle scores once (R-CASTLE-7)
                continue
            feature = state.board.graph.feature(castle.feature)
            owners = state.majority(feature)
            for player in owners:
                credit(
                    state, player, value, "castle", "R-CASTLE-6", (("feature", value),), feature.id, version
                )
            if not owners:  # knights of no strength: nothing, and they are told so (R-AM-4)
                for player in owners_of(state, castle):
                    credit(state, player, 0, "castle.empty", "R-CASTLE-6", (), feature.id, version)
            scored_feature(state, feature)  # what the parts add to a feature scoring (a bonus)
            return_followers(state, feature)
            castle.scored = True
            for other in own.all:
                if (
                    not other.scored
                    and _may_score(state, other)
                    and any(pos in other.fief for pos in castle.positions)
                ):
                    scored.append((other, value))

    def final_feature(self, state: GameState, feature: Feature, version: int) -> bool:
        """R-CASTLE-10: occupied castles score nothing, said as a 0 award to its owners; knights
        of no strength are told, as when a castle scores in the game (R-AM-4)."""
        if feature.id not in castles(state).roots:
            return False
        owners = state.majority(feature)
        for player in owners:
            credit(state, player, 0, "castle", "R-CASTLE-10", (("castle", 0),), feature.id, version, True)
        if not owners:
            for player in sorted({p for p, _, _ in state.followers(feature)}):
                credit(state, player, 0, "castle.empty", "R-CASTLE-10", (), feature.id, version, True)
        return_followers(state, feature)
        return True

    def farm_border(self, state: GameState, feature: Feature) -> tuple[str, int] | None:
        if feature.id in castles(state).roots:
            return "castles", _settings(state).castle_farm_value  # R-CASTLE-10
        return None

    def check_early(self, state: GameState, player: int, command: Command, step: str) -> None:
        """A castle asked for on a completed city that can never be one names R-CASTLE-2."""
        if not isinstance(command, ChooseCastle) or step != "action":
            return
        board = state.board
        root = root_at(state, command.x, command.y, command.location)
        if root < 0:
            return
        feature = board.graph.feature(root)
        if feature.kind != Kind.CITY or feature.open != 0 or feature.id in castles(state).roots:
            return
        if castle_base(board, feature, _settings(state).castle_ends, castles(state).roots) is None:
            raise RuleViolation(
                "R-CASTLE-2",
                f"the city at {command.location} of {(command.x, command.y)} cannot become a castle: "
                f"it covers {len(feature.tiles)} tiles, and only a city of two tiles, each with one "
                "city end, may",
            )

    def command_options(self, state: GameState, step: str) -> list[Command]:
        if step == "castle":
            return [
                ChooseCastle(x=x, y=y, location=location)
                for x, y, location in (feature_handle(state, root) for root in _on_offer(state))
            ]
        pending = target_pending(state)
        assert pending is not None
        return [
            ChooseCastleTarget(x=h[0], y=h[1], location=h[2])
            for h in (feature_handle(state, f.id) for f in pending[1])
        ]

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        gid, version = state.id, state.version + 1
        if isinstance(command, ChooseCastle):
            roots = _on_offer(state)
            root = root_at(state, command.x, command.y, command.location)
            if root not in roots:
                offers = (feature_handle(state, r) for r in roots)
                offered = " or ".join(f"{loc} at {(x, y)}" for x, y, loc in offers)
                raise RuleViolation(
                    "R-CASTLE-2",
                    f"no castle can be made at {command.location} of {(command.x, command.y)}; "
                    f"the city on offer is {offered}",
                )
            x, y, location = feature_handle(state, root)
            return [
                CastleBuilt(
                    originator_id=gid, originator_version=version, player=player, x=x, y=y, location=location
                )
            ]
        assert isinstance(command, ChooseCastleTarget)
        pending = target_pending(state)
        assert pending is not None
        index, hits = pending
        handles = [feature_handle(state, f.id) for f in hits]
        root = root_at(state, command.x, command.y, command.location)
        graph = state.board.graph
        chosen = next((h for h, f in zip(handles, hits, strict=True) if graph.find(f.id) == root), None)
        if chosen is None:
            wanted = (command.x, command.y, command.location)
            raise RuleViolation(
                "R-CASTLE-7",
                f"{wanted} is not one of the features this castle may score: {', '.join(map(str, handles))}",
            )
        castle = castles(state).all[index]
        return [
            CastleTargetChosen(
                originator_id=gid,
                originator_version=version,
                player=player,
                castle_x=castle.positions[0][0],
                castle_y=castle.positions[0][1],
                x=chosen[0],
                y=chosen[1],
                location=chosen[2],
            )
        ]


PART = CastlesPart()
PARTS = (PART,)
