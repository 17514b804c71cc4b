"""Under the Big Top (R-BIGTOP-1..12): the big top, the ringmaster and the acrobats, three parts
a game may play together or apart.

* The big top (`bigtop`): a tile with a circus space brings the big top onto it. Where the big
  top stood before, an animal token is revealed, drawn at random from those not shown yet (a
  draw of chance, `Part.chance`: the event `AnimalRevealed`), and every player scores its value
  for each of their followers on that tile and the eight around it. At the game's end the big
  top's last tile scores the same way with one more token.
* The ringmaster (`ringmaster`): a follower of each player's; when a feature holding it scores,
  its owner gets 2 more for each circus and each acrobat tile among the nine around it.
* The acrobats (`acrobats`): a tile's acrobat space takes up to three followers, deployed from
  the tile placed or from any of the eight tiles around it. Instead of deploying, a player may
  score a full pyramid (5 a follower to each owner, then they go home); at the end every
  pyramid scores the same.
"""

from __future__ import annotations

from typing import Annotated, Final

import msgspec

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.features import Feature
from domain.geometry import Pos
from domain.moves import tile_spanned, unoccupied_locations
from domain.part import FigureKind, Part, ext, part_options
from domain.rules import Options
from domain.scoring import Parts
from domain.state import GameState, Phase, credit, return_followers
from domain.view import FigureLook, Mark, MarkKind, MarkStyle, PartView, Shape

BIG_TOP: Final = "bigtop"
RINGMASTER: Final = "ringmaster"
ACROBATS: Final = "acrobats"
CIRCUS: Final = "circus"  # the tag of a tile with a circus space
SPACE: Final = "acrobats"  # the location (an edgeless segment) of a tile's acrobat space
# The animal tokens (R-BIGTOP-2): (points, how many), in the order JCloisterZone lists them.
TOKENS: Final = ((1, 1), (3, 4), (4, 5), (5, 3), (6, 2), (7, 1))
PYRAMID: Final = 3  # followers a full acrobat pyramid holds (R-BIGTOP-9)
ACROBAT_POINTS: Final = 5  # an acrobat's worth, each (R-BIGTOP-10, R-BIGTOP-11)
RING_BONUS: Final = 2  # the ringmaster's for each circus or acrobat tile near it (R-BIGTOP-7)
_AROUND: Final = tuple((dx, dy) for dy in (-1, 0, 1) for dx in (-1, 0, 1))


def near(a: Pos, b: Pos) -> bool:
    """Whether b is a's tile or one of the eight around it."""
    return abs(a[0] - b[0]) <= 1 and abs(a[1] - b[1]) <= 1


def around(pos: Pos) -> list[Pos]:
    """The tile at `pos` and the eight around it."""
    return [(pos[0] + dx, pos[1] + dy) for dx, dy in _AROUND]


def has_space(state: GameState, pos: Pos) -> bool:
    placed = state.board.at.get(pos)
    return placed is not None and SPACE in placed.orientation.by_name


def is_circus(state: GameState, pos: Pos) -> bool:
    placed = state.board.at.get(pos)
    return placed is not None and CIRCUS in placed.tile.tags


def followers_near(state: GameState, pos: Pos) -> dict[int, int]:
    """Each player's followers (figures with a strength: R-BASE-6) on the tile at `pos` and the
    eight around it: on its features, and at the places parts keep of their own."""
    board = state.board
    graph = board.graph
    strength = state.tables.strength
    counts: dict[int, int] = {}
    for feature in graph.figured():
        for player, sid, kind in feature.figures:
            if kind in strength and near(pos, board.tiles[graph.segment_tile[sid]].pos):
                counts[player] = counts.get(player, 0) + 1
    for part in state.hooks["figures_off"]:
        for x, y, _, player, kind in part.figures_off(state):
            if kind in strength and near(pos, (x, y)):
                counts[player] = counts.get(player, 0) + 1
    return counts


# ---------------------------------------------------------------- the big top


class AnimalRevealed(Event, frozen=True, kw_only=True):
    """The animal token under the big top at (x, y) is drawn and shows `points` (R-BIGTOP-2): a
    draw of chance among the tokens not shown yet. The followers around score (R-BIGTOP-3), then
    the big top moves on to the circus tile just placed, if it is leaving (R-BIGTOP-1)."""

    x: int
    y: int
    points: int


class Circus:
    __slots__ = ("at", "final", "moving", "shown")

    def __init__(self) -> None:
        self.at: Pos | None = None  # where the big top stands
        self.moving: Pos | None = None  # the circus tile it goes to once its token is shown
        self.shown: list[int] = []  # the tokens revealed so far, by points
        self.final = False  # the last token revealed at the end (R-BIGTOP-4)


def circus(state: GameState) -> Circus:
    found: Circus = ext(state, BIG_TOP)
    return found


def tokens_left(shown: list[int]) -> list[int]:
    """The tokens not shown yet (`shown`: those that were, by points), by points, in JCloisterZone's
    order: each equally likely next."""
    left: list[int] = []
    for points, count in TOKENS:
        left += [points] * (count - shown.count(points))
    return left


def _game_ending(state: GameState) -> bool:
    """Whether the game ends next: no tile left, nothing on the agenda, nobody asked anything."""
    from domain.turns import first_live  # the sequencer knows the parts; parts know the core

    if state.phase not in (Phase.START, Phase.PART_OVER) or state.pile_left > 0:
        return False
    if any(part.pending(state) is not None for part in state.hooks["pending"]):
        return False
    return first_live(state) is None


class BigTopPart(Part):
    name = BIG_TOP
    rank = 172  # after the wagons' moves (160) and the fairy (170), before the corn circles (175)
    # The big top leaves once the wagons of the part have moved on (JCloisterZone's order too).
    yields_to = ("wagon",)
    events = (AnimalRevealed,)
    rules_of = {AnimalRevealed: "R-BIGTOP-2"}
    engine_rules = {AnimalRevealed: "R-BIGTOP-2"}
    mark_styles = {
        "bigtop": MarkStyle(
            shape=Shape(tag="polygon", points=((0, -11), (11, 7), (-11, 7)), fill="#c0392b", stroke="#fff"),
            at=(0.5, 0.5),
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[BIG_TOP] = Circus()

    def after_scoring(self, state: GameState, version: int) -> None:
        """A circus tile placed in this part: the big top goes there, its old tile's token shown
        first (R-BIGTOP-1); the first circus tile only receives it."""
        placed = state.placed
        if placed is None or CIRCUS not in placed.tile.tags:
            return
        own = circus(state)
        if own.at is None or not tokens_left(own.shown):
            own.at = placed.pos
        else:
            own.moving = placed.pos

    def chance(self, state: GameState) -> tuple[Event, ...]:
        """The token under the big top, as it leaves (R-BIGTOP-2) or as the game ends (R-BIGTOP-4)."""
        own = circus(state)
        if own.at is None or own.final:
            return ()
        if own.moving is None and not _game_ending(state):
            return ()
        named = state.tables.named
        if any(name in named and named[name].pending(state) is not None for name in self.yields_to):
            return ()
        gid, version = state.id, state.version + 1
        x, y = own.at
        return tuple(
            AnimalRevealed(originator_id=gid, originator_version=version, x=x, y=y, points=points)
            for points in tokens_left(own.shown)
        )

    def apply(self, state: GameState, event: Event) -> None:
        assert isinstance(event, AnimalRevealed)
        own = circus(state)
        own.shown.append(event.points)
        final = own.moving is None
        counts = followers_near(state, (event.x, event.y))
        for player in sorted(counts):
            n = counts[player]
            credit(
                state,
                player,
                n * event.points,
                BIG_TOP,
                "R-BIGTOP-4" if final else "R-BIGTOP-3",
                (("meeples", n),),
                -1,
                event.originator_version,
                final,
            )
        if final:
            own.final = True
        else:
            own.at = own.moving
            own.moving = None

    def view(self, state: GameState) -> PartView:
        own = circus(state)
        if own.at is None:
            return PartView()
        return PartView(
            marks=(
                Mark(
                    kind=MarkKind.TOKEN, style="bigtop", x=own.at[0], y=own.at[1], label="big top", text="%"
                ),
            )
        )


# ---------------------------------------------------------------- the ringmaster


class RingmasterOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    ringmasters: Annotated[int, msgspec.Meta(ge=0, le=5)] = 1
    """Ringmasters each player has (R-BIGTOP-5)."""

    ringmaster_owner_only: bool = False
    """V-BIGTOP-RINGMASTER-OWNER: the ringmaster's bonus goes only to a player who scores the
    feature (has the majority there); JCloisterZone gives it to every ringmaster on a feature
    that scores, majority or not (R-BIGTOP-7)."""


def _ring_settings(state: GameState) -> RingmasterOptions:
    found: RingmasterOptions = part_options(state, RINGMASTER)
    return found


def ring_counts(state: GameState, pos: Pos) -> tuple[int, int]:
    """Circus tiles and acrobat tiles among the tile at `pos` and the eight around it."""
    spots = around(pos)
    return (
        sum(1 for p in spots if is_circus(state, p)),
        sum(1 for p in spots if has_space(state, p)),
    )


class RingmasterPart(Part):
    name = RINGMASTER
    rank = 135
    options = RingmasterOptions
    switches = {"V-BIGTOP-RINGMASTER-OWNER": "ringmaster_owner_only"}
    figures = {
        RINGMASTER: FigureKind(
            follower=True,
            strength=1,
            rule="R-BIGTOP-5",
            plain=True,
            look=FigureLook(
                glyphs="mnopqr",
                shape=Shape(tag="polygon", points=((0, -8), (6, -2), (6, 7), (-6, 7), (-6, -2))),
            ),
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[RINGMASTER] = None
        state.ext["figures"][RINGMASTER] = [_ring_settings(state).ringmasters] * len(event.players)

    def deployments(self, state: GameState, figure: str) -> list[str]:
        """Where a follower may go on the tile just placed, never an acrobat space (R-BIGTOP-6)."""
        if state.ext["figures"][RINGMASTER][state.current] == 0:
            return []
        return unoccupied_locations(state)

    def why_not(self, state: GameState, figure: str, location: str) -> str:
        if location == SPACE:
            return "the ringmaster never joins the acrobats"
        return f"the feature at {location} already holds a follower"

    def _bonus(self, state: GameState, feature: Feature, version: int, final: bool) -> None:
        """2 for each circus and acrobat tile around each ringmaster on the feature (R-BIGTOP-7)."""
        if not any(k == RINGMASTER for _, _, k in feature.figures):
            return
        owners = state.majority(feature) if _ring_settings(state).ringmaster_owner_only else None
        board = state.board
        for player, sid, kind in feature.figures:
            if kind != RINGMASTER or (owners is not None and player not in owners):
                continue
            circuses, spaces = ring_counts(state, board.tiles[board.graph.segment_tile[sid]].pos)
            if not circuses and not spaces:
                continue
            parts: Parts = (("circus", circuses),) if circuses else ()
            parts += (("acrobats", spaces),) if spaces else ()
            rule = "V-BIGTOP-RINGMASTER-OWNER" if owners is not None else "R-BIGTOP-7"
            points = RING_BONUS * (circuses + spaces)
            credit(state, player, points, RINGMASTER, rule, parts, feature.id, version, final)

    def feature_scored(self, state: GameState, feature: Feature) -> None:
        self._bonus(state, feature, state.version + 1, final=False)

    def final_feature(self, state: GameState, feature: Feature, version: int) -> bool:
        self._bonus(state, feature, version, final=True)
        return False


# ---------------------------------------------------------------- the acrobats


class ScoreAcrobats(Command, frozen=True, kw_only=True):
    """Score the full acrobat pyramid on the tile at (x, y) instead of deploying (R-BIGTOP-10)."""

    x: int
    y: int


class AcrobatsScored(Event, frozen=True, kw_only=True):
    """`player` had the full pyramid at (x, y) scored: 5 a follower to its owners, who take them
    home (R-BIGTOP-10)."""

    player: int
    x: int
    y: int


class Spaces:
    __slots__ = ("at",)

    def __init__(self) -> None:
        self.at: dict[Pos, int] = {}  # each acrobat space on the board: its segment id


def spaces(state: GameState) -> Spaces:
    found: Spaces = ext(state, ACROBATS)
    return found


def pyramid(state: GameState, pos: Pos) -> Feature:
    return state.board.graph.feature(spaces(state).at[pos])


def _score_pyramid(state: GameState, feature: Feature, rule: str, version: int, final: bool) -> None:
    """5 a follower on the pyramid to each owner; they go home (R-BIGTOP-10, R-BIGTOP-11)."""
    counts: dict[int, int] = {}
    for player, _, _ in feature.figures:
        counts[player] = counts.get(player, 0) + 1
    for player in sorted(counts):
        n = counts[player]
        points = ACROBAT_POINTS * n
        credit(state, player, points, ACROBATS, rule, (("meeples", n),), feature.id, version, final)
    return_followers(state, feature)


PORTAL: Final = "portal"  # a magic portal's tile tag, and its part (Princess & Dragon)
LARGE: Final = "big"  # the large follower (Inns & Cathedrals), as JCZ-BIGTOP-LARGE lets it up


class AcrobatsOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    acrobats_large_follower: bool = False
    """JCZ-BIGTOP-LARGE: on the tile just placed, an acrobat space nobody stands on takes the large
    follower too (it counts as one follower there); JCloisterZone offers it as any empty place of
    the tile, while it lets only the plain follower join a pyramid or climb from a tile around.
    Off: only the plain follower goes on an acrobat space (R-BIGTOP-8)."""

    acrobats_not_under_bridge: bool = False
    """JCZ-BIGTOP-BRIDGE: an acrobat space on a tile holding a bridge takes no follower, neither
    from that tile nor from one around, and its pyramid, full, is not offered to be scored; the end
    still scores it. Off: a bridge changes nothing for the acrobats (R-BIGTOP-8, R-BIGTOP-10)."""


def _acro_settings(state: GameState) -> AcrobatsOptions:
    found: AcrobatsOptions = part_options(state, ACROBATS)
    return found


def _closed(state: GameState, pos: Pos) -> bool:
    """JCZ-BIGTOP-BRIDGE: the acrobat space at `pos` is out of play while a bridge is on its tile."""
    return _acro_settings(state).acrobats_not_under_bridge and tile_spanned(state, pos)


class AcrobatsPart(Part):
    name = ACROBATS
    rank = 45
    options = AcrobatsOptions
    switches = {
        "JCZ-BIGTOP-LARGE": "acrobats_large_follower",
        "JCZ-BIGTOP-BRIDGE": "acrobats_not_under_bridge",
    }
    events = (AcrobatsScored,)
    commands = (ScoreAcrobats,)
    rules_of = {AcrobatsScored: "R-BIGTOP-10"}
    command_steps = {ScoreAcrobats: (("action",), "R-BIGTOP-10")}
    command_names = {ScoreAcrobats: "score a full acrobat pyramid"}
    decisions = {AcrobatsScored: (lambda e: (e.player, ScoreAcrobats(x=e.x, y=e.y)), "R-BIGTOP-10")}
    mark_styles = {
        "acrobats": MarkStyle(
            shape=Shape(tag="circle", r=7, fill="#f1c40f", stroke="#7d6608", stroke_width=1), at=(0.8, 0.2)
        )
    }

    def view(self, state: GameState) -> PartView:
        """Each pyramid with followers: how many stand on it (the figures themselves share one spot),
        in a disc at the tile's corner; the text board shows the figure on top only."""
        marks = []
        for pos, sid in sorted(spaces(state).at.items()):
            figures = state.board.graph.feature(sid).figures
            if figures:
                owners = tuple(sorted({p for p, _, _ in figures}))
                marks.append(
                    Mark(
                        kind=MarkKind.DISC,
                        style="acrobats",
                        x=pos[0],
                        y=pos[1],
                        label=f"{len(figures)}/{PYRAMID}",
                        owners=owners,
                        closed=len(figures) >= PYRAMID,
                    )
                )
        return PartView(marks=tuple(marks))

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[ACROBATS] = Spaces()

    def holds_tile(self, state: GameState, pos: Pos) -> bool:
        """No bridge across a tile whose acrobat space holds a follower (R-BIGTOP-13)."""
        at = spaces(state).at.get(pos)
        return at is not None and bool(state.board.graph.feature(at).figures)

    def tile_placed(self, state: GameState, placed: object) -> None:
        tile = state.placed
        assert tile is not None
        if SPACE in tile.orientation.by_name:
            spaces(state).at[tile.pos] = tile.segment(SPACE)

    def _room(self, state: GameState, pos: Pos) -> bool:
        return len(pyramid(state, pos).figures) < PYRAMID and not _closed(state, pos)

    def extra_places(self, state: GameState, figure: str) -> list[str]:
        """The acrobat space of the tile just placed, for a follower of the core's while the
        pyramid has room (R-BIGTOP-8, R-BIGTOP-9)."""
        placed = state.placed
        if placed is None or placed.pos not in spaces(state).at:
            return []
        if figure == LARGE and _acro_settings(state).acrobats_large_follower:
            # JCZ-BIGTOP-LARGE: an empty space, as any empty place of the tile
            figures = state.ext["figures"]
            empty = not pyramid(state, placed.pos).figures
            return [SPACE] if empty and LARGE in figures and figures[LARGE][state.current] > 0 else []
        if figure != "follower" or state.supply[state.current] == 0:
            return []
        return [SPACE] if self._room(state, placed.pos) else []

    def remote_deployments(self, state: GameState, figure: str) -> list[tuple[int, int, str]]:
        """The acrobat spaces of the eight tiles around the one just placed (R-BIGTOP-8); through a
        magic portal (Princess & Dragon, R-PD-7), every acrobat space on the board."""
        placed = state.placed
        if figure != "follower" or placed is None or state.supply[state.current] == 0:
            return []
        anywhere = PORTAL in placed.tile.tags and state.has(PORTAL)
        return [
            (pos[0], pos[1], SPACE)
            for pos in sorted(spaces(state).at)
            if pos != placed.pos and (anywhere or near(pos, placed.pos)) and self._room(state, pos)
        ]

    def action_commands(self, state: GameState) -> list[Command]:
        """A full pyramid anywhere may be scored instead of deploying (R-BIGTOP-10)."""
        if state.phase != Phase.ACTION:
            return []
        return [
            ScoreAcrobats(x=pos[0], y=pos[1])
            for pos in sorted(spaces(state).at)
            if len(pyramid(state, pos).figures) >= PYRAMID and not _closed(state, pos)
        ]

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, ScoreAcrobats)
        if not state.has(ACROBATS):
            raise RuleViolation("R-BIGTOP-8", "this game is played without acrobats")
        if command not in self.action_commands(state):
            raise RuleViolation("R-BIGTOP-10", f"no full acrobat pyramid at {(command.x, command.y)}")
        return [
            AcrobatsScored(
                originator_id=state.id,
                originator_version=state.version + 1,
                player=player,
                x=command.x,
                y=command.y,
            )
        ]

    def apply(self, state: GameState, event: Event) -> None:
        assert isinstance(event, AcrobatsScored)
        feature = pyramid(state, (event.x, event.y))
        _score_pyramid(state, feature, "R-BIGTOP-10", event.originator_version, False)
        state.phase = Phase.ACTION_DONE  # the scoring is the turn's action

    def final_feature(self, state: GameState, feature: Feature, version: int) -> bool:
        """Every pyramid scores at the end, full or not (R-BIGTOP-11)."""
        own = spaces(state)
        for sid in own.at.values():
            if state.board.graph.find(sid) == feature.id:
                _score_pyramid(state, feature, "R-BIGTOP-11", version, True)
                return True
        return False


BIG_TOP_PART = BigTopPart()
RINGMASTER_PART = RingmasterPart()
ACROBATS_PART = AcrobatsPart()
PARTS = (BIG_TOP_PART, RINGMASTER_PART, ACROBATS_PART)
