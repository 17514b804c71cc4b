"""The Tunnel (R-TUNNEL-*): roads that end at tunnel mouths, and tokens that link two mouths.

A road ending at a mouth stays open (R-TUNNEL-3) until a player puts the second token of one of
their pairs on it or on the other mouth of the pair: the two roads then become one
(`FeatureGraph.link`, R-TUNNEL-5), which the turn's scoring may find completed (R-TUNNEL-6).
A mouth is one more open end of its road, drawn into the tile as it comes into a player's hand
(`tile_as`): each road flagged `tunnel` in the catalogue, and, with the other sets whose tiles
show a road passing under a city, that road split into two mouths (R-TUNNEL-10).

One token a turn (R-TUNNEL-4): it may be put down in the action step, beside the follower, or
in a step of its own once the action is decided, as JCloisterZone asks it.
"""

from __future__ import annotations

from typing import Final, Literal, get_args

import msgspec

from domain import events as ev
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.features import Feature
from domain.geometry import N, S
from domain.moves import Decision
from domain.part import Part, ext, part_options
from domain.rules import Options
from domain.state import GameState, Phase, segment_location
from domain.tiles import TILES, Kind, Segment, TileType, tile_type
from domain.view import NOTHING_SHOWN, OWNER, Mark, MarkKind, MarkStyle, PartView, Shape, Spot

NAME: Final = "tunnel"
MOUTH: Final = "tunnel"  # a road's flag in the catalogue: it ends at a tunnel mouth in the tile
STEP: Final = "tunnel"  # the decision step after the action (JCloisterZone's tunnel phase)
Letter = Literal["A", "B", "C"]
LETTERS: Final[tuple[Letter, ...]] = get_args(Letter)  # a pair's colour: JCloisterZone's TUNNEL_A…
Counts = Literal["3/2", "2/1", "1/1"]
COUNTS: Final[tuple[Counts, ...]] = get_args(Counts)
# Other sets' tiles whose road passes under a city (R-TUNNEL-10): JCloisterZone draws them with a
# tunnel, which its rule `tunnelize-other-expansions` makes two mouths while the Tunnel is in play.
UNDERPASSES: Final = ("AM/CRcr+", "DG/CRcr.d")

Mouth = tuple[int, int, str]  # x, y, the location of its road


class TunnelTokenPlaced(Event, frozen=True, kw_only=True):
    """`player` puts their token of colour `token` on the mouth at `location` of the tile at (x, y)
    (R-TUNNEL-4); the second of a pair links the two mouths (R-TUNNEL-5)."""

    player: int
    token: str
    x: int
    y: int
    location: str


class PlaceTunnelToken(Command, frozen=True, kw_only=True):
    token: str  # A, B or C
    x: int
    y: int
    location: str  # the road ending at the mouth


def pairs(players: int, counts: str) -> int:
    """Pairs of tokens each player has (R-TUNNEL-2; V-TUNNEL-TOKENS): under 3/2, three with two
    players (or one), two with three, one with more; under 2/1, two with two, one with more."""
    if counts == "3/2":
        return 3 if players <= 2 else 2 if players == 3 else 1
    if counts == "2/1":
        return 2 if players <= 2 else 1
    return 1


class Tunnels:
    """This game's tokens and mouths."""

    __slots__ = ("claims", "declined", "halves", "left", "mouths", "placed")

    def __init__(self, players: int, counts: str) -> None:
        each = pairs(players, counts)
        self.left: list[dict[str, int]] = [{letter: 2 for letter in LETTERS[:each]} for _ in range(players)]
        self.mouths: list[int] = []  # segment ids of the roads ending at a mouth, in the order placed
        self.claims: dict[int, tuple[int, str]] = {}  # a mouth's road -> the token on it: player, colour
        # The first token of a pair on the board while the second is not: (player, colour) -> mouth.
        self.halves: dict[tuple[int, str], int] = {}
        # Every token put down, in order: its mouth, the turn part and the turn (`state.sitting`).
        self.placed: list[tuple[int, int, int]] = []
        self.declined = 0  # the turn part whose tunnel step was passed


def tunnels(state: GameState) -> Tunnels:
    found: Tunnels = ext(state, NAME)
    return found


# ---- the tiles as the Tunnel plays them


def _mouth(segment: Segment) -> bool:
    return segment.kind == Kind.ROAD and MOUTH in segment.flags


def with_mouths(tile: TileType) -> TileType:
    """The tile with each mouth one more open end of its road, besides its edges (R-TUNNEL-3)."""
    seeds = tuple(
        (kind, edges + 1 if _mouth(segment) else edges, pennants, borders, marks)
        for (kind, edges, pennants, borders, marks), segment in zip(tile.seeds, tile.segments, strict=True)
    )
    return msgspec.structs.replace(tile, seeds=seeds)


def split_underpass(tile: TileType) -> TileType:
    """The road from N to S under the city as two roads, N and S, each ending at a mouth
    (R-TUNNEL-10). The second road goes last, so the other segments keep their indices (a
    field's borders name its cities by index)."""
    index = next(i for i, seg in enumerate(tile.segments) if seg.kind == Kind.ROAD and seg.edges == (N, S))
    road = tile.segments[index]
    flags = (*road.flags, MOUTH)
    north, south = (msgspec.structs.replace(road, edges=(edge,), flags=flags) for edge in (N, S))
    segments = (*tile.segments[:index], north, *tile.segments[index + 1 :], south)
    split = tile_type(tile.id, tile.expansion, tile.count, tile.edges, segments, tile.tags)
    return with_mouths(split)


_MOUTHED: Final = {t.id: with_mouths(t) for t in TILES.values() if any(_mouth(s) for s in t.segments)}
_SPLIT: Final = {tile_id: split_underpass(TILES[tile_id]) for tile_id in UNDERPASSES if tile_id in TILES}


# ---- the tokens


def _may_place(state: GameState) -> bool:
    """No token put down yet in this turn (a builder's two parts are one turn, R-TUNNEL-4), or in
    this turn part under V-TUNNEL-PER-PART."""
    placed = tunnels(state).placed
    if not placed:
        return True
    _, part, sitting = placed[-1]
    if _settings(state).tunnel_per_part:
        return part != state.part_count
    return sitting != state.sitting


def open_mouths(state: GameState) -> list[Mouth]:
    """Every mouth on the board holding no token, in the order the tiles were placed."""
    own = tunnels(state)
    board = state.board
    return [segment_location(board, sid) for sid in own.mouths if sid not in own.claims]


def _options(state: GameState) -> list[Command]:
    """Every token the current player may put down now: each colour they still hold, on each
    unclaimed mouth (R-TUNNEL-4). Once a state version: the legal moves and `decide` ask alike."""

    def compute() -> list[Command]:
        if not _may_place(state):
            return []
        left = tunnels(state).left[state.current]
        letters = [letter for letter in LETTERS if left.get(letter, 0) > 0]
        if not letters:
            return []
        mouths = open_mouths(state)
        return [PlaceTunnelToken(token=t, x=x, y=y, location=loc) for t in letters for x, y, loc in mouths]

    found: list[Command] = state.memoized(NAME, compute)
    return found


def _mouth_at(state: GameState, x: int, y: int, location: str) -> int:
    """The segment id of the mouth at `location` of the tile at (x, y); -1 if there is none."""
    placed = state.board.at.get((x, y))
    if placed is None:
        return -1
    try:
        sid = placed.segment(location)
    except KeyError:
        return -1
    return sid if sid in tunnels(state).mouths else -1


class TunnelOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    tunnel_tokens: Counts = "3/2"
    """V-TUNNEL-TOKENS: the pairs of tokens each player has (R-TUNNEL-2): 3/2 the printed counts
    (three pairs with two players, two with three, one with more), 2/1 one pair fewer with two or
    three players, 1/1 one pair each; JCloisterZone's `more-tunnel-tokens`."""

    plain_underpass: bool = False
    """V-TUNNEL-PLAIN-UNDERPASS: the road under the city of the other sets' tiles stays one road
    from edge to edge, with no mouth (R-TUNNEL-10); JCloisterZone's
    `tunnelize-other-expansions` = false."""

    tunnel_per_part: bool = False
    """V-TUNNEL-PER-PART: one token in each turn part, so two in a builder's double turn, not
    one in the whole turn (R-TUNNEL-4)."""

    tunnel_rescore: bool = False
    """JCZ-TUNNEL-RESCORE: a turn part's scoring looks at the roads of every token put down in
    the turn, a builder's first part's included, not only in the part (R-TUNNEL-6)."""


def _settings(state: GameState) -> TunnelOptions:
    found: TunnelOptions = part_options(state, NAME)
    return found


class TunnelPart(Part):
    name = NAME
    rank = 25  # its step comes after a tower's capture, before the dragon and the castles
    yields_to = ("princess",)  # V-PRINCESS-MUST's knight is the turn's action: the token comes after
    options = TunnelOptions
    switches = {
        "V-TUNNEL-PLAIN-UNDERPASS": "plain_underpass",
        "V-TUNNEL-PER-PART": "tunnel_per_part",
        "JCZ-TUNNEL-RESCORE": "tunnel_rescore",
    }
    events = (TunnelTokenPlaced,)
    commands = (PlaceTunnelToken,)
    steps = {STEP: "R-TUNNEL-4"}
    step_names = {STEP: "a tunnel token or a pass"}
    pass_steps = {STEP: STEP}
    command_steps = {PlaceTunnelToken: (("action", STEP), "R-TUNNEL-4")}
    command_names = {PlaceTunnelToken: "place a tunnel token"}
    rules_of = {TunnelTokenPlaced: "R-TUNNEL-4"}
    decisions = {
        TunnelTokenPlaced: (
            lambda e: (e.player, PlaceTunnelToken(token=e.token, x=e.x, y=e.y, location=e.location)),
            "R-TUNNEL-4",
        )
    }

    def readings(self, options: Options) -> dict[str, Options]:
        """The other token counts (V-TUNNEL-TOKENS), then each yes/no switch flipped."""
        assert isinstance(options, TunnelOptions)
        counts: dict[str, Options] = {
            f"V-TUNNEL-TOKENS={n}": msgspec.structs.replace(options, tunnel_tokens=n)
            for n in COUNTS
            if n != options.tunnel_tokens
        }
        return counts | super().readings(options)

    mark_styles = {
        # A token in its owner's colour on its mouth, beside where a follower on the road stands.
        "tunnel": MarkStyle(
            shape=Shape(tag="rect", width=11, height=11, rx=2, stroke="#222", stroke_width=1),
            at=(0.5 + 9 / 64, 0.5 + 9 / 64),
        ),
        # The two mouths a pair of tokens joins, in its owner's colour.
        "tunnel-link": MarkStyle(
            shape=Shape(tag="line", fill=None, stroke=OWNER, stroke_width=2.5, dash="5,3"),
            at=(0.5 + 9 / 64, 0.5 + 9 / 64),  # from token to token
        ),
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Tunnels(len(event.players), _settings(state).tunnel_tokens)

    def view(self, state: GameState) -> PartView:
        """Each token on its mouth in its owner's colour, its pair's letter inside (``t`` on the
        text board), and each pair's link between its two mouths (spelt out below the text board)."""
        own = tunnels(state)
        if not own.claims:
            return NOTHING_SHOWN
        board = state.board
        marks = []
        pairs_placed: dict[tuple[int, str], list[Spot]] = {}
        for sid, (player, letter) in own.claims.items():
            x, y, location = segment_location(board, sid)
            spot = Spot(x, y, location)
            pairs_placed.setdefault((player, letter), []).append(spot)
            marks.append(
                Mark(
                    kind=MarkKind.DISC,
                    style="tunnel",
                    x=x,
                    y=y,
                    spots=(spot,),
                    owners=(player,),
                    label=letter,
                    text="t",
                )
            )
        for (player, letter), ends in sorted(pairs_placed.items()):
            for first, second in zip(ends[::2], ends[1::2], strict=False):  # each pair put down whole
                a, b = sorted((first, second))
                marks.append(
                    Mark(
                        kind=MarkKind.LINK,
                        style="tunnel-link",
                        x=a.x,
                        y=a.y,
                        spots=(a, b),
                        owners=(player,),
                        label=letter,
                        text="t",
                    )
                )
        return PartView(marks=tuple(marks))

    def tile_as(self, state: GameState, tile: TileType) -> TileType:
        """Its mouths open ends of their roads (R-TUNNEL-3); an underpass split in two mouths
        (R-TUNNEL-10) unless V-TUNNEL-PLAIN-UNDERPASS."""
        if tile.id in _MOUTHED:
            return _MOUTHED[tile.id] if tile is TILES[tile.id] else with_mouths(tile)
        if tile.id in _SPLIT and not _settings(state).plain_underpass:
            return _SPLIT[tile.id] if tile is TILES[tile.id] else split_underpass(tile)
        return tile

    def tile_placed(self, state: GameState, placed: object) -> None:
        tile = state.placed
        assert tile is not None
        mouths = tunnels(state).mouths
        mouths += [tile.base + i for i, segment in enumerate(tile.tile.segments) if _mouth(segment)]

    def action_commands(self, state: GameState) -> list[Command]:
        return _options(state) if state.phase == Phase.ACTION else []

    def pending(self, state: GameState) -> Decision | None:
        """Once the action is decided, the token is offered again (JCloisterZone's tunnel phase),
        unless one was put down in this turn or the player passed here in this turn part."""
        if state.phase != Phase.ACTION_DONE or tunnels(state).declined == state.part_count:
            return None
        return Decision(STEP, state.current) if _options(state) else None

    def command_options(self, state: GameState, step: str) -> list[Command]:
        return _options(state)

    def passed(self, state: GameState, step: str) -> None:
        tunnels(state).declined = state.part_count

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        assert isinstance(command, PlaceTunnelToken)
        if not state.has(NAME):
            raise RuleViolation("R-TUNNEL-2", "this game is played without The Tunnel")
        own = tunnels(state)
        if own.left[player].get(command.token, 0) == 0:
            held = ", ".join(letter for letter, n in own.left[player].items() if n) or "none"
            raise RuleViolation("R-TUNNEL-2", f"no tunnel token {command.token!r} left (you hold {held})")
        if not _may_place(state):
            per = "turn part" if _settings(state).tunnel_per_part else "turn"
            raise RuleViolation("R-TUNNEL-4", f"one tunnel token a {per}, and one was put down already")
        where = (command.x, command.y)
        sid = _mouth_at(state, command.x, command.y, command.location)
        if sid < 0:
            raise RuleViolation("R-TUNNEL-4", f"no tunnel mouth at {command.location} of {where}")
        if sid in own.claims:
            raise RuleViolation(
                "R-TUNNEL-4", f"the tunnel mouth at {command.location} of {where} holds a token already"
            )
        return [
            TunnelTokenPlaced(
                originator_id=state.id,
                originator_version=state.version + 1,
                player=player,
                token=command.token,
                x=command.x,
                y=command.y,
                location=command.location,
            )
        ]

    def apply(self, state: GameState, event: Event) -> None:
        """The token goes down for good (R-TUNNEL-9); the second of a pair links its two mouths
        (R-TUNNEL-5). The player's step goes on: the action step offers the rest of the action."""
        assert isinstance(event, TunnelTokenPlaced)
        own = tunnels(state)
        sid = state.board.at[(event.x, event.y)].segment(event.location)
        own.left[event.player][event.token] -= 1
        own.claims[sid] = (event.player, event.token)
        own.placed.append((sid, state.part_count, state.sitting))
        partner = own.halves.pop((event.player, event.token), None)
        if partner is None:
            own.halves[(event.player, event.token)] = sid
        else:
            state.board.graph.link(partner, sid)

    def completions(self, state: GameState, found: list[Feature]) -> None:
        """The road of a token put down in this turn part, completed by its link (R-TUNNEL-6); of
        every token of the turn under JCZ-TUNNEL-RESCORE."""
        whole_turn = _settings(state).tunnel_rescore
        graph = state.board.graph
        for sid, part, sitting in reversed(tunnels(state).placed):
            if (sitting != state.sitting) if whole_turn else (part != state.part_count):
                return
            road = graph.feature(sid)
            if road.open == 0 and all(f is not road for f in found):
                found.append(road)


PART = TunnelPart()
PARTS = (PART,)
