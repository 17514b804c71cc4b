"""The game state and `evolve`, the fold that applies one event to it.

`evolve` never checks anything: events reach it only after a command was validated (live
play) or after a recorded game was re-validated (import). Scores are derived here, never
stored: each completed feature and end-of-game count yields `Award`s as its event is applied.

The state holds what the base game needs; each part of a set in play keeps its own slice in
`ext` and changes the fold through its hooks (`domain.part`), called in the registry's order.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from enum import StrEnum
from typing import TYPE_CHECKING, Any
from uuid import UUID

from domain import events as ev
from domain.agenda import Entry
from domain.board import Board, PlacedTile
from domain.features import Feature, Figure
from domain.geometry import neighbour, opposite
from domain.part import PartTables, part_tables
from domain.rules import RuleSet
from domain.scoring import Award, Parts, category, completed_value, incomplete_value, majority
from domain.tiles import WILD_EDGE, Kind, TileType, tile

if TYPE_CHECKING:
    from domain.part import Part


class Phase(StrEnum):
    SETUP = "setup"  # before the first event
    START = "start"  # the start tile lies; nobody has drawn yet
    PLACE = "place"  # the current player holds a tile
    DISCARDED = "discarded"  # the tile fitted nowhere; a fresh one is drawn
    ACTION = "action"  # tile placed: the player may deploy, or act through a part
    ACTION_DONE = "action-done"  # deployment decided; decisions parts wait for, then the part's scoring
    PART_OVER = "part-over"  # scored; the agenda says what comes next
    INTERLUDE = "interlude"  # between turn parts, a part's own decisions hold the game
    OVER = "over"


UNSET: Any = object()  # a memo's "not computed yet", where None is an answer
NORMAL = "normal"  # the kind of turn part a drawn tile starts; parts add their own kinds
FINAL_PART = "final"  # the kind of turn part a part opens once the game's end has begun
TINY_CITY = "city.tiny"  # the award category of a city V-TINY-CITY scores


class GameState:
    __slots__ = (
        "agenda",
        "awards",
        "board",
        "completed",
        "current",
        "discarded",
        "draw_order",
        "expansions",
        "ext",
        "figure_owners",
        "from_pile",
        "hooks",
        "id",
        "memo",
        "next_draw",
        "options",
        "part",
        "part_count",
        "parts",
        "phase",
        "placed",
        "players",
        "rules",
        "scores",
        "seed",
        "sitting",
        "supply",
        "tables",
        "tile",
        "turn",
        "turn_player",
        "version",
    )

    def __init__(self, game_id: UUID) -> None:
        self.id = game_id
        self.version = 0
        self.players: tuple[str, ...] = ()
        self.seed: int | None = None  # the game's seed, if it has one: draws of chance follow it
        self.expansions: tuple[str, ...] = ()
        self.rules = RuleSet()
        self.parts: tuple[Part, ...] = ()  # the parts of the sets in play, in the registry's order
        self.tables: PartTables = part_tables(())  # what the core looks up about those parts
        self.hooks: dict[str, tuple[Part, ...]] = self.tables.hooks  # of those, who overrides each hook
        self.figure_owners: dict[str, Part] = {}  # each kind of figure the parts bring -> its part
        self.ext: dict[str, Any] = {}  # each part's own slice of the state, by its name
        self.options: dict[str, Any] = {}  # each part's switches in this game, by its name
        self.draw_order: tuple[str, ...] = ()
        self.next_draw = 0  # index in draw_order of the next tile to draw
        self.board = Board()
        self.supply: list[int] = []  # followers in each player's supply
        self.scores: list[int] = []
        self.awards: list[Award] = []
        self.phase = Phase.SETUP
        self.current = 0  # seat of the player whose turn part it is
        self.turn_player = 0  # seat whose normal turn this is; play resumes to their left
        self.part = NORMAL  # the kind of the current turn part
        self.part_count = 0  # turn parts so far
        # The turn part that began the current player's run of parts: this one, unless a part
        # says it continues an earlier one.
        self.sitting = 0
        self.tile: TileType | None = None  # held, not yet placed
        self.from_pile = True  # the held tile came off the pile in this part
        self.placed: PlacedTile | None = None  # placed in this part
        self.turn = 0
        self.discarded: list[str] = []
        self.agenda: list[Entry] = []
        # The features completed in this part, with the tile, the number of segments and of links
        # they were found for: only a tile, a part's new segment or a part's link completes anything.
        self.completed: tuple[PlacedTile | None, int, int, list[Feature]] = (None, 0, 0, [])
        # Answers computed from this version of the state; `evolve` starts a new one per event.
        self.memo: dict[str, Any] = {}

    def memoized(self, key: str, compute: Callable[[], Any]) -> Any:
        """`compute()` once per state version: the sequencer, decide and clients ask alike."""
        memo = self.memo
        found = memo.get(key, UNSET)
        if found is UNSET:
            found = memo[key] = compute()
        return found

    def forget(self) -> None:
        """Drop what was computed for this version (the same position read under other rules)."""
        self.memo = {}

    def read_under(self, rules: RuleSet) -> None:
        """The same position read under another rule set: the parts' switches follow it, and
        nothing computed under the old one holds."""
        self.rules = rules
        self.options = {part.name: part.options_of(rules) for part in self.parts if part.options is not None}
        self.forget()

    @property
    def pile_left(self) -> int:
        return len(self.draw_order) - self.next_draw

    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER

    def has(self, name: str) -> bool:
        """Whether the part `name` is in play."""
        return name in self.ext

    def followers(self, feature: Feature) -> list[Figure]:
        """The followers on a feature: figures with a strength in a majority (R-BASE-6)."""
        figures = feature.figures
        if not figures:
            return []
        strength = self.tables.strength
        return [f for f in figures if f[2] in strength]

    def occupied(self, feature: Feature) -> bool:
        """A follower is on it (R-BASE-4), or a figure that keeps followers off."""
        figures = feature.figures
        if not figures:
            return False
        tables = self.tables
        strength, occupiers = tables.strength, tables.occupiers
        return any(f[2] in strength or f[2] in occupiers for f in figures)

    def majority(self, feature: Feature) -> list[int]:
        """The players who score a feature (R-BASE-6), a tie as the parts break it."""
        owners = majority(feature, self.tables.strength)
        if len(owners) > 1:
            for part in self.hooks["tie_break"]:
                owners = part.tie_break(self, feature, owners)
        return owners

    def completions(self) -> list[Feature]:
        """Features completed in this part: by the tile placed, or by the parts' pieces (R-BASE-5)."""
        placed, segments, links, found = self.completed
        graph = self.board.graph
        if placed is not self.placed or segments != len(graph.parent) or links != graph.links:
            found = self._completions()
            self.completed = (self.placed, len(graph.parent), graph.links, found)
        return found

    def _completions(self) -> list[Feature]:
        if self.placed is None:
            return []
        found = completed_by(self.board, self.placed)
        for part in self.parts:
            part.completions(self, found)
        return found


def evolve(state: GameState, event: ev.Event) -> None:
    """Apply one event. Trusts it: see the module docstring."""
    handler = _HANDLERS.get(type(event))
    if handler is None:
        state.tables.events[type(event)].apply(state, event)
    else:
        handler(state, event)
    state.version = event.originator_version
    state.memo = {}


def _started(state: GameState, e: ev.GameStarted) -> None:
    from domain.expansions import parts_for  # the registry knows every part; parts know the core

    state.players = e.players
    state.seed = e.seed
    state.expansions = e.expansions
    state.parts = parts_for(e.expansions, e.rules.without)
    state.tables = part_tables(state.parts)
    state.hooks = state.tables.hooks
    state.figure_owners = state.tables.figures
    state.read_under(e.rules)
    state.draw_order = e.draw_order
    n = len(e.players)
    state.supply = [e.rules.followers] * n
    state.scores = [0] * n
    state.ext = {"figures": {}}  # the parts' figures in each player's supply, by kind
    for part in state.parts:
        part.start(state, e)
    state.board.place(tile_in_play(state, e.start_tile), (0, 0), 0)  # R-BASE-2
    state.phase = Phase.START
    state.turn_player = n - 1  # so the first normal turn is seat 0's


def begin_part(state: GameState, player: int, kind: str, tile_id: str, from_pile: bool) -> None:
    """A turn part starts: `player` holds `tile_id`."""
    state.part_count += 1
    state.part = kind
    state.sitting = state.part_count
    state.current = player
    state.tile = tile_in_play(state, tile_id)
    state.from_pile = from_pile
    state.placed = None
    state.phase = Phase.PLACE
    for part in state.hooks["begin_part"]:
        part.begin_part(state)


def tile_in_play(state: GameState, tile_id: str) -> TileType:
    """The tile type a tile id is played as in this game: the catalogue's, as the parts in play
    may draw it otherwise (`Part.tile_as`)."""
    found = tile(tile_id)
    for part in state.hooks["tile_as"]:
        found = part.tile_as(state, found)
    return found


def next_tiles(state: GameState, count: int = 1) -> tuple[str, ...]:
    """The next `count` tiles a draw takes, in order: the pile's, less those a part holds back now
    (they keep their places); when nothing else is left, those too."""
    order, start = state.draw_order, state.next_draw
    hooks = state.hooks["held_back"]
    top = order[start : start + count]
    if not hooks or not any(part.held_back(state, t) for part in hooks for t in top):
        return top
    free: list[str] = []
    held: list[str] = []
    for t in order[start:]:
        (held if any(part.held_back(state, t) for part in hooks) else free).append(t)
    return tuple([*free, *held][:count])


def take_from_pile(state: GameState, tiles: Sequence[str]) -> None:
    """The pile once `tiles` are drawn (as `next_tiles` gave them): a tile drawn from below tiles
    held back moves up to the top first, so the pile keeps the order things were drawn in."""
    start, end = state.next_draw, state.next_draw + len(tiles)
    if state.draw_order[start:end] != tuple(tiles):
        order = list(state.draw_order)
        for at, wanted in enumerate(tiles, start):
            order.insert(at, order.pop(order.index(wanted, at)))
        state.draw_order = tuple(order)
    state.next_draw = end


def _drawn(state: GameState, e: ev.TileDrawn) -> None:
    take_from_pile(state, (e.tile,))
    if state.phase == Phase.DISCARDED:  # the redraw stays in the same part (R-BASE-3)
        state.tile = tile_in_play(state, e.tile)
        state.from_pile = True
        state.phase = Phase.PLACE
        return
    begin_turn(state, e.player, e.tile, True)


def begin_turn(state: GameState, player: int, tile_id: str, from_pile: bool) -> None:
    """A normal turn starts: `player` holds `tile_id`."""
    state.turn += 1
    state.turn_player = player
    state.agenda = []  # whatever is left never happens (see turns.is_live)
    for part in state.hooks["begin_turn"]:
        part.begin_turn(state)
    begin_part(state, player, NORMAL, tile_id, from_pile)


def _discarded(state: GameState, e: ev.TileDiscarded) -> None:
    state.discarded.append(e.tile)
    state.tile = None
    state.phase = Phase.DISCARDED


def _placed(state: GameState, e: ev.TilePlaced) -> None:
    assert state.tile is not None
    placed = state.board.place(state.tile, (e.x, e.y), e.rotation)
    state.placed = placed
    state.tile = None
    state.phase = Phase.ACTION
    for part in state.hooks["tile_placed"]:
        part.tile_placed(state, placed)
    extended(state, [placed.base + i for i in range(len(placed.tile.segments))])


def extended(state: GameState, sids: list[int]) -> None:
    """The current player added these segments to the board: their tile's, or a piece's on it."""
    for part in state.hooks["extended"]:
        part.extended(state, sids)


def _deployed(state: GameState, e: ev.FollowerDeployed) -> None:
    sid = state.board.at[(e.x, e.y)].segment(e.location)  # the tile just placed, or one a part allows
    deploy(state, e.player, sid, e.figure)
    state.phase = Phase.ACTION_DONE


def deploy(state: GameState, player: int, sid: int, figure: str) -> None:
    """A figure from its owner's supply onto segment `sid` (R-BASE-4, or a part's rule)."""
    state.board.graph.deployed(sid, (player, sid, figure))
    if figure == "follower":
        state.supply[player] -= 1
    else:
        state.ext["figures"][figure][player] -= 1


def segment_location(board: Board, sid: int) -> tuple[int, int, str]:
    """(x, y, location name) of a segment id, a part's extra segments included."""
    placed = board.tiles[board.graph.segment_tile[sid]]
    return placed.pos[0], placed.pos[1], placed.location(sid)


def _passed(state: GameState, e: ev.Passed) -> None:
    if e.step == "deploy":
        state.phase = Phase.ACTION_DONE
        return
    state.tables.steps[e.step].passed(state, e.step)


def _turn_ended(state: GameState, e: ev.TurnEnded) -> None:
    version = e.originator_version
    completed = state.completions()
    hooks = state.hooks
    for part in hooks["before_scoring"]:
        part.before_scoring(state)
    for feature in completed:
        if any(part.scored_elsewhere(state, feature) for part in hooks["scored_elsewhere"]):
            continue
        value, score_parts = feature_value(state, feature, completed=True)
        tiny = tiny_city(state, feature)
        rule, kind = ("V-TINY-CITY", TINY_CITY) if tiny else ("R-BASE-5", None)
        award(state, feature, value, score_parts, rule, version, final=False, kind=kind)
        scored(state, feature)
        return_followers(state, feature)
    for part in hooks["after_scoring"]:
        part.after_scoring(state, version)
    plan: list[Entry] = []
    for part in hooks["plan"]:
        part.plan(state, plan)
    state.agenda[:0] = plan
    state.phase = Phase.PART_OVER


def pop_agenda(state: GameState, item: str) -> Entry:
    """Remove the first agenda entry of `item`, and the dead entries the sequencer skipped before it."""
    for i, entry in enumerate(state.agenda):
        if entry.item == item:
            del state.agenda[: i + 1]
            return entry
    raise AssertionError(f"no {item} on the agenda")


def _game_ended(state: GameState, e: ev.GameEnded) -> None:
    board = state.board
    version = e.originator_version
    hooks = state.hooks
    # Only features holding a figure score or change at the end: the rest of the board is skipped.
    for feature in board.graph.figured():
        if any(part.final_feature(state, feature, version) for part in hooks["final_feature"]):
            continue
        if state.occupied(feature):
            if feature.kind == Kind.FIELD:
                value, score_parts = farm_value(state, feature)
            else:
                value, score_parts = feature_value(state, feature, completed=False)
            award(state, feature, value, score_parts, "R-BASE-8", version, final=True)
        return_followers(state, feature)
    for part in hooks["final_scoring"]:
        part.final_scoring(state, version)
    state.phase = Phase.OVER


def sealed_roots(state: GameState) -> set[int]:
    """Feature roots a part has sealed (`Part.sealed`): no other part's figure joins, leaves or is
    taken from them; its followers there have made it something else than its kind."""
    hooks = state.hooks["sealed"]
    if not hooks:
        return set()
    return {root for part in hooks for root in part.sealed(state)}


def converted(state: GameState, feature: Feature) -> bool:
    """Whether a part made the completed feature something else than its kind (sealed it)."""
    return feature.id in sealed_roots(state)


def completed_features(state: GameState, kind: Kind) -> list[Feature]:
    """Every completed feature of `kind` on the board, less those a part made something else."""
    return [
        f for f in state.board.graph.roots() if f.kind == kind and f.open == 0 and not converted(state, f)
    ]


def feature_value(state: GameState, feature: Feature, *, completed: bool) -> tuple[int, Parts]:
    """A road, city or cloister's value, completed (R-BASE-5) or at the end (R-BASE-8), as the
    parts in play change it."""
    if completed and not tiny_city(state, feature):
        value, parts = completed_value(feature)
    else:
        value, parts = incomplete_value(state.board, feature)
    for part in state.hooks["value"]:
        value, parts = part.value(state, feature, completed, value, parts)
    return value, parts


def tiny_city(state: GameState, feature: Feature) -> bool:
    """A city of two tiles, which V-TINY-CITY scores as if unfinished when completed."""
    return state.rules.tiny_city and feature.kind == Kind.CITY and len(feature.tiles) == 2


def farm_value(state: GameState, field: Feature) -> tuple[int, Parts]:
    """3 per completed city the field touches (R-BASE-8); a part may count a bordering feature
    its own way (`Part.farm_border`), each such kind of feature under its own name."""
    graph = state.board.graph
    counts: dict[str, list[int]] = {"cities": [0, 3]}
    for root in {graph.find(sid) for sid in field.borders}:
        feature = graph.features[root]
        if feature is None:
            continue
        counted = next(
            (c for part in state.hooks["farm_border"] if (c := part.farm_border(state, feature))), None
        )
        if counted is not None:
            entry = counts.setdefault(counted[0], [0, counted[1]])
            entry[0] += 1
        elif feature.open == 0:
            counts["cities"][0] += 1
    value = sum(n * each for n, each in counts.values())
    parts: Parts = (("cities", counts["cities"][0]),)
    parts += tuple((name, n) for name, (n, _) in counts.items() if name != "cities" and n)
    return value, parts


def award(
    state: GameState,
    feature: Feature,
    value: int,
    parts: Parts,
    rule: str,
    version: int,
    *,
    final: bool,
    kind: str | None = None,
) -> None:
    """The feature's value to each player of its majority (R-BASE-6), as the parts adjust it,
    scored as `kind` (by default the feature's own); with followers of no strength only, each of
    their players is told it scored nothing (R-AM-4)."""
    kind = kind or feature_category(state, feature)
    owners = state.majority(feature)
    if not owners:
        for player in sorted({p for p, _, _ in state.followers(feature)}):
            credit(state, player, 0, f"{kind}.empty", rule, (), feature.id, version, final)
    for player in owners:
        points, player_parts, player_rule = value, parts, rule
        for part in state.hooks["award"]:
            points, player_parts, player_rule = part.award(
                state, feature, player, points, player_parts, player_rule
            )
        credit(state, player, points, kind, player_rule, player_parts, feature.id, version, final)


def feature_category(state: GameState, feature: Feature) -> str:
    """What a feature scores as: the first part in play that names it (`Part.category`), else the
    kind of feature (road, city, cloister, farm)."""
    for part in state.hooks["category"]:
        found = part.category(state, feature)
        if found is not None:
            return found
    return category(feature)


def credit(
    state: GameState,
    player: int,
    points: int,
    kind: str,
    rule: str,
    parts: Parts,
    feature: int,
    version: int,
    final: bool = False,
) -> None:
    """Points to one player, kept as an award saying what for (scores are derived, never stored)."""
    state.scores[player] += points
    state.awards.append(
        Award(
            player=player,
            points=points,
            category=kind,
            rule=rule,
            parts=parts,
            feature=feature,
            turn=state.turn,
            part=state.part_count,
            version=version,
            final=final,
        )
    )


def scored(state: GameState, feature: Feature) -> None:
    """A feature scored in a turn part, its followers still on it: what the parts add to that (a
    bonus, a figure's move) follows."""
    for part in state.hooks["feature_scored"]:
        part.feature_scored(state, feature)


def return_followers(state: GameState, feature: Feature, keep: frozenset[int] = frozenset()) -> None:
    """Followers on a scored feature go back to supply (R-BASE-7), except those of `keep`'s
    players; the parts' figures that stay only beside a follower follow them."""
    stays = []
    for figure in feature.figures:
        player, _, kind = figure
        if kind not in state.tables.strength or player in keep:
            stays.append(figure)
        elif kind == "follower":
            state.supply[player] += 1
        else:
            state.ext["figures"][kind][player] += 1
    feature.figures = stays
    followers_gone(state, feature)


def freed(state: GameState, feature: Feature) -> None:
    """A part's rule sends a feature's followers home unscored in the turn part's scoring, as if
    it had scored: figures that move on from a scored feature may move on from it too (the parts'
    `freed`). The followers are still there; `return_followers` follows."""
    for part in state.hooks["freed"]:
        part.freed(state, feature)


def followers_gone(state: GameState, feature: Feature) -> None:
    """Followers left `feature`: the parts' figures there may go too."""
    for part in state.hooks["followers_left"]:
        part.followers_left(state, feature)


def board_figures(state: GameState, player: int) -> list[tuple[int, int, str, str]]:
    """(x, y, location, kind) of every figure of `player` on the board, sorted: on the features
    (followers and the parts' figures alike), and at the places parts keep of their own."""
    board = state.board
    found = [
        (*segment_location(board, sid), kind)
        for feature in board.graph.figured()  # most of a big board holds no figure
        for owner, sid, kind in feature.figures
        if owner == player
    ]
    for part in state.hooks["figures_off"]:
        off = part.figures_off(state)
        found += [(x, y, location, kind) for x, y, location, owner, kind in off if owner == player]
    return sorted(found)


def lift_figure(state: GameState, x: int, y: int, location: str, owner: int, kind: str) -> None:
    """Take `owner`'s figure of `kind` deployed at `location` of the tile at (x, y) off its feature
    (captured, sent home…), or off a part's own place; the parts' figures that stay only beside a
    follower follow it."""
    for part in state.hooks["figures_off"]:
        if (x, y, location, owner, kind) in part.figures_off(state):
            part.take_off(state, x, y, location)
            return
    board = state.board
    placed = board.at[(x, y)]
    feature = board.graph.feature(placed.segment(location))
    figure = next(
        f
        for f in feature.figures
        if f[0] == owner and f[2] == kind and board.graph.segment_tile[f[1]] == placed.index
    )
    feature.figures.remove(figure)
    followers_gone(state, feature)


def to_supply(state: GameState, player: int, kind: str) -> None:
    """One figure back into its owner's supply."""
    if kind == "follower":
        state.supply[player] += 1
    else:
        state.ext["figures"][kind][player] += 1


def return_figures(
    state: GameState, feature: Feature, kind: str, players: frozenset[int] | None = None
) -> None:
    """Figures of one kind (of `players`, or everyone's) back to their owners' supply."""
    stays = []
    for figure in feature.figures:
        player = figure[0]
        if figure[2] == kind and (players is None or player in players):
            state.ext["figures"][kind][player] += 1
        else:
            stays.append(figure)
    feature.figures = stays


def return_stranded(state: GameState, feature: Feature, kind: str) -> None:
    """Figures of `kind` (that stay only beside their owner's follower) whose owner has no follower
    left on the feature go back to supply."""
    if any(k == kind for _, _, k in feature.figures):
        owners = frozenset(p for p, _, _ in state.followers(feature))
        stranded = frozenset(p for p, _, k in feature.figures if k == kind and p not in owners)
        if stranded:
            return_figures(state, feature, kind, stranded)


def completed_by(board: Board, placed: PlacedTile) -> list[Feature]:
    """Features the placement of `placed` completed: its roads and cities, nearby cloisters."""
    graph = board.graph
    found: list[Feature] = []
    seen: set[int] = set()
    sids = [
        placed.base + i for i, seg in enumerate(placed.tile.segments) if seg.kind in (Kind.ROAD, Kind.CITY)
    ]
    # Across its wildcard edges the tile closes its neighbours' roads and cities.
    for edge, code in enumerate(placed.orientation.edge_codes):
        if code == WILD_EDGE:
            other = board.at.get(neighbour(placed.pos, edge))
            if other is not None and other.edge_segment[opposite(edge)] >= 0:
                sids.append(other.edge_segment[opposite(edge)])
    for sid in sids:
        feature = graph.feature(sid)
        if feature.open == 0 and feature.id not in seen:
            seen.add(feature.id)
            found.append(feature)
    for sid in board.cloisters_completed_by(placed.pos):
        found.append(graph.feature(sid))
    return found


_HANDLERS: dict[type[ev.Event], Callable[[GameState, Any], None]] = {
    ev.GameStarted: _started,
    ev.TileDrawn: _drawn,
    ev.TileDiscarded: _discarded,
    ev.TilePlaced: _placed,
    ev.FollowerDeployed: _deployed,
    ev.Passed: _passed,
    ev.TurnEnded: _turn_ended,
    ev.GameEnded: _game_ended,
}
