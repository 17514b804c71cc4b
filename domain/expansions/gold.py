"""The Goldmines (R-GOLD-*): gold bars laid around each gold tile, taken by the players who score
the features over them, worth more a bar the more of them a player holds at the end.

Placing a gold tile puts one bar on it and one on a placed tile among the eight around it: the
engine lays the first, and the second too when only one tile is there; with several the player
chooses, before anything else of the turn part (R-GOLD-2, R-GOLD-3). Each feature a turn part
scores claims the bars on its tiles for its scorers (R-GOLD-5, R-GOLD-6); once the part has scored,
they take them one bar at a time, round the table from the player of the part (R-GOLD-7). A
player chooses the tile their bar comes from where that choice changes who gets what, unless
JCZ-GOLD-SHARE has the engine take it for them; elsewhere the engine takes it. Every bar laid or
taken is an event.
"""

from __future__ import annotations

from typing import Final, cast

from domain import events as ev
from domain.board import PlacedTile
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.features import Feature
from domain.geometry import RING_OFFSETS, Pos
from domain.moves import Decision, sealed_reach, sealed_roots
from domain.part import Part, ext, part_options
from domain.rules import Options, RuleSet
from domain.state import GameState, Phase, credit
from domain.tiles import Kind
from domain.view import Mark, MarkKind, MarkStyle, PartView, Shape, Spot, Supply

NAME: Final = "gold"
TAG: Final = "gold"  # the tile tag of a gold tile (R-GOLD-1)
BARS_PER_TILE: Final = 2  # R-GOLD-2: one on the tile, one beside it
PLACE: Final = "gold"  # decision steps
SHARE: Final = "gold-share"
CORNER: Final = "Es"  # where a tile's bars are shown: by its south-east corner as it lies


class GoldPlaced(Event, frozen=True, kw_only=True):
    """A gold bar onto the tile at (x, y), for the gold tile `player` placed (R-GOLD-2): the
    engine's on that tile and on its only neighbour, the player's choice among several."""

    player: int
    x: int
    y: int


class GoldTaken(Event, frozen=True, kw_only=True):
    """`player` takes one gold bar from the tile at (x, y), which a feature they scored claims
    (R-GOLD-7): the player's choice where it matters, else the engine's."""

    player: int
    x: int
    y: int


class PlaceGold(Command, frozen=True, kw_only=True):
    """The second bar of the gold tile just placed onto the placed tile at (x, y) (R-GOLD-2)."""

    x: int
    y: int


class TakeGold(Command, frozen=True, kw_only=True):
    """One bar, of those being shared out, from the tile at (x, y) (R-GOLD-7)."""

    x: int
    y: int


class Gold:
    """The bars on the board, each player's, and this turn part's laying and sharing out."""

    __slots__ = ("claims", "due", "held", "next_seat", "on")

    def __init__(self, players: int) -> None:
        self.on: dict[Pos, int] = {}  # bars lying on each tile (R-GOLD-4)
        self.held = [0] * players  # bars each player took (R-GOLD-9)
        self.due = 0  # bars still to lay for the gold tile just placed (R-GOLD-2)
        # The tiles holding bars that this turn part's scored features claim, in the order first
        # claimed, each with the players claiming it (R-GOLD-5..7).
        self.claims: dict[Pos, set[int]] = {}
        self.next_seat = 0  # whose turn to take a bar comes next, round the table (R-GOLD-7)


def gold(state: GameState) -> Gold:
    found: Gold = ext(state, NAME)
    return found


def bars_value(bars: int) -> int:
    """What a player's bars are worth at the end (R-GOLD-9): 1 a bar for 1-3, 2 for 4-6, 3 for
    7-9, 4 for 10 or more."""
    if bars <= 0:
        return 0
    return bars * min(4, (bars + 2) // 3)


def neighbours(state: GameState, pos: Pos) -> list[Pos]:
    """The placed tiles among the eight around `pos` (R-GOLD-2), sorted."""
    at = state.board.at
    return sorted(p for dx, dy in RING_OFFSETS if (p := (pos[0] + dx, pos[1] + dy)) in at)


def claimed_tiles(state: GameState, feature: Feature) -> list[Pos]:
    """The tiles whose bars a scored feature claims (R-GOLD-5): a road's or a city's own tiles; a
    cloister's tile and the eight around it; a castle's fief (none under V-GOLD-NO-CASTLE); a
    field none (R-GOLD-8)."""
    board = state.board
    if feature.kind == Kind.CLOISTER:
        pos = board.tiles[next(iter(feature.tiles))].pos
        return [pos, *neighbours(state, pos)]
    if feature.kind not in (Kind.ROAD, Kind.CITY):
        return []
    if feature.id in sealed_roots(state):  # a castle: its fief, as its part says
        reach = sealed_reach(state, feature)
        if reach is not None:
            return [] if _settings(state).gold_no_castle else reach
    return sorted({board.tiles[i].pos for i in feature.tiles})


def _bucket(pos: Pos, capacity: int) -> int:
    """The bucket JCloisterZone's hash map keeps a position in: its hash `(x << 16) ^ y` on 32
    bits, spread by its upper half, modulo the table's capacity."""
    h = ((pos[0] << 16) ^ pos[1]) & 0xFFFFFFFF
    return (h ^ (h >> 16)) & (capacity - 1)


def share_order(claims: dict[Pos, set[int]]) -> list[Pos]:
    """The claimed tiles in the order JCloisterZone takes bars from them (JCZ-GOLD-SHARE): those
    the most players claim first; among equals, in its hash map's order (by bucket of a table
    of 16 entries, doubled beyond 12, 24…, then in the order first claimed)."""
    capacity = 16
    while len(claims) > capacity * 3 // 4:
        capacity *= 2
    first = {pos: i for i, pos in enumerate(claims)}
    return sorted(claims, key=lambda pos: (-len(claims[pos]), _bucket(pos, capacity), first[pos]))


def next_pick(state: GameState) -> tuple[int, list[Pos]] | None:
    """(the player who takes the next bar, the tiles they may take it from, in JCloisterZone's
    order), while claimed bars are left (R-GOLD-7): round the table from the player after the
    last one who took a bar, starting with the player of the turn part, passing over players
    with no claimed bar left."""
    found: tuple[int, list[Pos]] | None = state.memoized("gold pick", lambda: _next_pick(state))
    return found


def _next_pick(state: GameState) -> tuple[int, list[Pos]] | None:
    own = gold(state)
    if not own.claims:
        return None
    order = [pos for pos in share_order(own.claims) if own.on.get(pos, 0) > 0]
    n = len(state.players)
    for k in range(n if order else 0):
        player = (own.next_seat + k) % n
        mine = [pos for pos in order if player in own.claims[pos]]
        if mine:
            return player, mine
    return None


def choice_matters(state: GameState, tiles: list[Pos]) -> bool:
    """Whether the tile a bar is taken from can change who gets what: other players claim some of
    these tiles than others (tiles claimed by the same players are interchangeable)."""
    claims = gold(state).claims
    return len({frozenset(claims[pos]) for pos in tiles}) > 1


def _chooses(state: GameState, tiles: list[Pos]) -> bool:
    """Whether the player takes this bar themselves (R-GOLD-7), not the engine for them."""
    return not _settings(state).gold_share_auto and choice_matters(state, tiles)


def _laid(state: GameState, player: int, pos: Pos) -> GoldPlaced:
    return GoldPlaced(
        originator_id=state.id, originator_version=state.version + 1, player=player, x=pos[0], y=pos[1]
    )


def _taken(state: GameState, player: int, pos: Pos) -> GoldTaken:
    return GoldTaken(
        originator_id=state.id, originator_version=state.version + 1, player=player, x=pos[0], y=pos[1]
    )


class GoldOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    gold_share_auto: bool = False
    """JCZ-GOLD-SHARE: when bars are shared out (R-GOLD-7) the engine takes each player's bar for
    them, from the tiles the most players claim first (JCloisterZone's order), rather than the
    player choosing where their choice matters."""

    gold_no_castle: bool = False
    """V-GOLD-NO-CASTLE: a scoring castle claims no bars (the rules say nothing of castles);
    R-GOLD-5 (JCloisterZone's reading) has it claim those of its fief."""


def _settings(state: GameState) -> GoldOptions:
    found: GoldOptions = part_options(state, NAME)
    return found


class GoldPart(Part):
    name = NAME
    rank = 15  # the bars are laid as soon as the tile (and a bridge with it) lies
    options = GoldOptions
    switches = {"JCZ-GOLD-SHARE": "gold_share_auto", "V-GOLD-NO-CASTLE": "gold_no_castle"}
    events = (GoldPlaced, GoldTaken)
    commands = (PlaceGold, TakeGold)
    steps = {PLACE: "R-GOLD-3", SHARE: "R-GOLD-7"}
    step_names = {PLACE: "the gold bar laid beside the gold tile", SHARE: "a gold bar taken"}
    command_steps = {PlaceGold: ((PLACE,), "R-GOLD-2"), TakeGold: ((SHARE,), "R-GOLD-7")}
    command_names = {PlaceGold: "lay a gold bar", TakeGold: "take a gold bar"}
    rules_of = {GoldPlaced: "R-GOLD-2", GoldTaken: "R-GOLD-7"}
    engine_rules = {GoldPlaced: "R-GOLD-2", GoldTaken: "R-GOLD-7"}
    decisions = {
        GoldPlaced: (lambda e: (e.player, PlaceGold(x=e.x, y=e.y)), "R-GOLD-2"),
        GoldTaken: (lambda e: (e.player, TakeGold(x=e.x, y=e.y)), "R-GOLD-7"),
    }

    mark_styles = {
        NAME: MarkStyle(
            shape=Shape(
                tag="rect", width=16, height=10, rx=1.5, fill="#b8860b", stroke="#5c4305", stroke_width=1
            )
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Gold(len(event.players))

    def view(self, state: GameState) -> PartView:
        """The bars on each tile, a bar with their count on it (``$`` on the text board, the count
        spelt out below it); the bars each player holds, in the standings."""
        own = gold(state)
        return PartView(
            marks=tuple(
                Mark(
                    kind=MarkKind.LABEL,
                    style=NAME,
                    x=x,
                    y=y,
                    spots=(Spot(x, y, CORNER),),
                    label=str(bars),
                    text="$",
                )
                for (x, y), bars in sorted(own.on.items())
            ),
            supplies=(Supply("gold", tuple(own.held), standing=True),),
        )

    def begin_part(self, state: GameState) -> None:
        own = gold(state)
        own.due = 0
        own.claims = {}
        own.next_seat = state.current  # the player of the turn part takes first (R-GOLD-7)

    def tile_placed(self, state: GameState, placed: PlacedTile) -> None:
        if TAG in placed.tile.tags:
            gold(state).due = BARS_PER_TILE  # R-GOLD-2

    def automatic(self, state: GameState) -> Event | None:
        own = gold(state)
        if state.phase == Phase.ACTION and own.due:
            placed = state.placed
            assert placed is not None
            if own.due == BARS_PER_TILE:  # the first on the gold tile itself (R-GOLD-2)
                return _laid(state, state.current, placed.pos)
            around = neighbours(state, placed.pos)
            # The second where it must go: no choice to make.
            return _laid(state, state.current, around[0]) if len(around) == 1 else None
        if state.phase != Phase.PART_OVER or not own.claims:
            return None
        pick = next_pick(state)
        if pick is None or _chooses(state, pick[1]):
            return None
        return _taken(state, pick[0], pick[1][0])

    def before_action(self, state: GameState) -> Decision | None:
        """The second bar, among several tiles, before the action step (R-GOLD-3)."""
        placed = state.placed
        if gold(state).due != 1 or placed is None or len(neighbours(state, placed.pos)) < 2:
            return None
        return Decision(PLACE, state.current)

    def pending(self, state: GameState) -> Decision | None:
        if state.phase != Phase.PART_OVER or not gold(state).claims:
            return None
        pick = next_pick(state)
        if pick is None or not _chooses(state, pick[1]):
            return None
        return Decision(SHARE, pick[0])

    def command_options(self, state: GameState, step: str) -> list[Command]:
        if step == PLACE:
            placed = state.placed
            assert placed is not None
            return [PlaceGold(x=x, y=y) for x, y in neighbours(state, placed.pos)]
        pick = next_pick(state)
        assert pick is not None
        return [TakeGold(x=x, y=y) for x, y in pick[1]]

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        pos = (command.x, command.y) if isinstance(command, PlaceGold | TakeGold) else None
        if isinstance(command, PlaceGold):
            placed = state.placed
            assert placed is not None
            around = neighbours(state, placed.pos)
            if pos not in around:
                raise RuleViolation(
                    "R-GOLD-2",
                    f"the second gold bar goes on a placed tile among the eight around {placed.pos}, "
                    f"not on {pos}: {', '.join(map(str, around))}",
                )
            return [_laid(state, player, pos)]
        assert isinstance(command, TakeGold)
        pick = next_pick(state)
        assert pick is not None
        if pos not in pick[1]:
            raise RuleViolation(
                "R-GOLD-7",
                f"no bar of yours to take on {pos}: the features you scored claim bars "
                f"on {', '.join(map(str, pick[1]))}",
            )
        return [_taken(state, player, pos)]

    def apply(self, state: GameState, event: Event) -> None:
        own = gold(state)
        if isinstance(event, GoldPlaced):
            pos = (event.x, event.y)
            own.on[pos] = own.on.get(pos, 0) + 1
            own.due -= 1
            return
        assert isinstance(event, GoldTaken)
        pos = (event.x, event.y)
        own.on[pos] -= 1
        if not own.on[pos]:
            del own.on[pos]
        own.held[event.player] += 1
        own.next_seat = (event.player + 1) % len(state.players)

    def feature_scored(self, state: GameState, feature: Feature) -> None:
        """Its scorers claim the bars on its tiles (R-GOLD-5, R-GOLD-6); nobody's if nobody
        scores it."""
        owners = state.majority(feature)
        if not owners:
            return
        own = gold(state)
        for pos in claimed_tiles(state, feature):
            if own.on.get(pos, 0) > 0:
                own.claims.setdefault(pos, set()).update(owners)

    def final_scoring(self, state: GameState, version: int) -> None:
        """Each player's bars by the table of R-GOLD-9; bars left on the board are worth nothing."""
        for player, bars in enumerate(gold(state).held):
            if bars:
                points = bars_value(bars)
                credit(state, player, points, "gold", "R-GOLD-9", (("gold", bars),), -1, version, True)

    def rule_of(self, event: Event, rules: RuleSet) -> str:
        if isinstance(event, GoldTaken) and cast(GoldOptions, self.options_of(rules)).gold_share_auto:
            return "JCZ-GOLD-SHARE"
        return self.rules_of[type(event)]


PART = GoldPart()
PARTS = (PART,)
