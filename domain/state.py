"""The game state and `evolve`, the fold that applies one event to it.

`evolve` never checks anything: events reach it only after a command was validated (live
play) or after a recorded game was re-validated (import). Scores are derived here, never
stored: each completed feature, castle, bazaar payment and end-of-game count yields `Award`s as
its event is applied.
"""

from __future__ import annotations

from collections.abc import Callable
from enum import StrEnum
from typing import Any
from uuid import UUID

from domain import events as ev
from domain.agenda import POLICIES, ROUND_ITEMS, Entry, Item, plan_part_end, round_parts
from domain.bazaars import Auction
from domain.board import Board, PlacedTile
from domain.castles import Castle, castle_base, touches_fief
from domain.features import Feature
from domain.rules import RuleSet
from domain.scoring import (
    Award,
    Parts,
    category,
    completed_value,
    farm_value,
    goods_majorities,
    incomplete_value,
    majority,
)
from domain.tiles import Kind, TileType, tile


class Phase(StrEnum):
    SETUP = "setup"  # before the first event
    START = "start"  # the start tile lies; nobody has drawn yet
    PLACE = "place"  # the current player holds a tile
    DISCARDED = "discarded"  # the tile fitted nowhere; a fresh one is drawn
    ACTION = "action"  # tile placed: the player may bridge and deploy
    ACTION_DONE = "action-done"  # deployment decided; castle choices, then the part's scoring
    PART_OVER = "part-over"  # scored; the agenda says what comes next
    AUCTION = "auction"  # a bazaar is being held
    OVER = "over"


class Part(StrEnum):
    NORMAL = "normal"
    BUILDER = "builder"
    BAZAAR = "bazaar"  # playing a tile got at a bazaar


def player_supply(players: int, small: int, large: int) -> int:
    """Bridges and castle tokens: more each with 2-4 players than with 5-6 (R-BRIDGE-1, R-CASTLE-1)."""
    return small if players <= 4 else large


class GameState:
    __slots__ = (
        "agenda",
        "auction",
        "awards",
        "board",
        "bridge_sid",
        "bridges",
        "builder_earned",
        "builders",
        "castle_choices",
        "castle_targets",
        "castles",
        "castles_left",
        "current",
        "deferred",
        "discarded",
        "draw_order",
        "expansions",
        "from_pile",
        "goods",
        "grants",
        "id",
        "memo",
        "memo_version",
        "next_draw",
        "part",
        "part_count",
        "phase",
        "pigs",
        "placed",
        "players",
        "policy",
        "rules",
        "scores",
        "sitting",
        "supply",
        "tile",
        "turn",
        "turn_player",
        "version",
        "won_tiles",
    )

    def __init__(self, game_id: UUID) -> None:
        self.id = game_id
        self.version = 0
        self.players: tuple[str, ...] = ()
        self.expansions: tuple[str, ...] = ()
        self.rules = RuleSet()
        self.policy = POLICIES[self.rules.order]
        self.draw_order: tuple[str, ...] = ()
        self.next_draw = 0  # index in draw_order of the next tile to draw
        self.board = Board()
        self.supply: list[int] = []  # followers in each player's supply
        self.bridges: list[int] = []
        self.castles_left: list[int] = []
        self.builders: list[int] = []  # builders in each player's supply
        self.pigs: list[int] = []
        self.goods: list[dict[str, int]] = []
        self.scores: list[int] = []
        self.awards: list[Award] = []
        self.phase = Phase.SETUP
        self.current = 0  # seat of the player whose turn part it is
        self.turn_player = 0  # seat whose normal turn this is; play resumes to their left
        self.part = Part.NORMAL
        self.part_count = 0  # turn parts so far: castles score only in a later one (R-CASTLE-6)
        # The part that began the current player's (double) turn: this part, or for a builder
        # part the part that earned it (V-CASTLE-SAME-TURN). `grants`: the earning parts of
        # builder tiles granted and not yet taken; the latest grant's tile is taken first.
        self.sitting = 0
        self.grants: list[int] = []
        self.tile: TileType | None = None  # held, not yet placed
        self.from_pile = True  # the held tile came off the pile (a bought one holds no bazaar)
        self.placed: PlacedTile | None = None  # placed in this part
        self.bridge_sid = -1  # segment of the bridge laid in this part (R-BRIDGE-2: one at most)
        self.builder_earned = False
        self.castle_choices: dict[int, set[int]] = {}  # completed city root -> players who decided
        self.castle_targets: dict[int, int] = {}  # castle index -> feature root it scores
        self.castles: list[Castle] = []
        self.turn = 0
        self.discarded: list[str] = []
        self.agenda: list[Entry] = []
        self.deferred: list[int] = []  # hosts of deferred bazaars, oldest first
        self.auction: Auction | None = None
        self.won_tiles: dict[int, str] = {}  # bazaar tiles not yet played, by player
        self.memo: dict[str, Any] = {}  # answers computed from this version of the state
        self.memo_version = -1

    def memoized(self, key: str, compute: Callable[[], Any]) -> Any:
        """`compute()` once per state version: the sequencer, decide and clients ask alike."""
        if self.memo_version != self.version:
            self.memo = {}
            self.memo_version = self.version
        memo = self.memo
        if key not in memo:
            memo[key] = compute()
        return memo[key]

    @property
    def pile_left(self) -> int:
        return len(self.draw_order) - self.next_draw

    @property
    def over(self) -> bool:
        return self.phase == Phase.OVER

    def in_round(self) -> bool:
        """A bazaar round is pending or running: a new bazaar cannot start now (RULES.md 6)."""
        return (
            self.auction is not None
            or self.part == Part.BAZAAR
            or any(entry.item in ROUND_ITEMS for entry in self.agenda)
        )

    def completions(self) -> list[Feature]:
        """Features completed in this part: by the tile placed or the bridge laid (R-BASE-5)."""
        result: list[Feature] = self.memoized("completions", self._completions)
        return result

    def _completions(self) -> list[Feature]:
        if self.placed is None:
            return []
        found = completed_by(self.board, self.placed)
        if self.bridge_sid >= 0:
            road = self.board.graph.feature(self.bridge_sid)
            if road.open == 0 and all(f is not road for f in found):
                found.append(road)
        return found


def evolve(state: GameState, event: ev.Event) -> None:
    """Apply one event. Trusts it: see the module docstring."""
    _HANDLERS[type(event)](state, event)
    state.version = event.originator_version


def _started(state: GameState, e: ev.GameStarted) -> None:
    state.players = e.players
    state.expansions = e.expansions
    state.rules = e.rules
    state.policy = POLICIES[e.rules.order]
    state.draw_order = e.draw_order
    n = len(e.players)
    state.supply = [e.rules.followers] * n
    state.scores = [0] * n
    bcb, tb = "bcb" in e.expansions, "tb" in e.expansions
    state.bridges = [player_supply(n, 3, 2) if bcb else 0] * n
    state.castles_left = [player_supply(n, 3, 2) if bcb else 0] * n
    state.builders = [e.rules.builders if tb else 0] * n
    state.pigs = [e.rules.pigs if tb else 0] * n
    state.goods = [{} for _ in range(n)]
    state.board.place(tile(e.start_tile), (0, 0), 0)  # R-BASE-2
    state.phase = Phase.START
    state.turn_player = n - 1  # so the first normal turn is seat 0's


def _begin_part(state: GameState, player: int, part: Part, tile_id: str, from_pile: bool) -> None:
    state.part_count += 1
    state.part = part
    state.sitting = state.grants.pop() if part == Part.BUILDER and state.grants else state.part_count
    state.current = player
    state.tile = tile(tile_id)
    state.from_pile = from_pile
    state.placed = None
    state.bridge_sid = -1
    state.builder_earned = False
    state.castle_choices = {}
    state.castle_targets = {}
    state.phase = Phase.PLACE


def _drawn(state: GameState, e: ev.TileDrawn) -> None:
    state.next_draw += 1
    if state.phase == Phase.DISCARDED:  # the redraw stays in the same part (R-BASE-3, JCZ-5)
        state.tile = tile(e.tile)
        state.from_pile = True
        state.phase = Phase.PLACE
        return
    state.turn += 1
    state.turn_player = e.player
    state.agenda = []  # whatever is left never happens (see turns.is_live)
    state.deferred = []
    state.grants = []
    _begin_part(state, e.player, Part.NORMAL, e.tile, True)


def _builder_taken(state: GameState, e: ev.BuilderTurnTaken) -> None:
    _pop(state, Item.BUILDER)
    state.next_draw += 1
    _begin_part(state, e.player, Part.BUILDER, e.tile, True)


def _bazaar_tile_taken(state: GameState, e: ev.BazaarTileTaken) -> None:
    _pop(state, Item.TILE)
    del state.won_tiles[e.player]
    _begin_part(state, e.player, Part.BAZAAR, e.tile, False)


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
    _note_builder(state, [placed.base + i for i in range(len(placed.tile.segments))])


def _note_builder(state: GameState, segments: list[int]) -> None:
    """Did this part's tile extend a road or city holding the player's builder? (R-TB-3)

    Only a normal or bazaar part earns a builder tile: one extra tile per turn at most.
    """
    if state.part == Part.BUILDER or state.builder_earned or "tb" not in state.expansions:
        return
    graph = state.board.graph
    me = state.current
    for sid in segments:
        feature = graph.feature(sid)
        if feature.kind in (Kind.ROAD, Kind.CITY) and any(p == me for p, _ in feature.builders):
            state.builder_earned = True
            return


def _bridge_placed(state: GameState, e: ev.BridgePlaced) -> None:
    sid = state.board.add_bridge((e.x, e.y), e.axis)
    state.bridge_sid = sid
    state.bridges[e.player] -= 1
    placed = state.placed
    if placed is not None and placed.pos == (e.x, e.y):
        _note_builder(state, [sid])


def _deployed(state: GameState, e: ev.FollowerDeployed) -> None:
    placed = state.placed
    assert placed is not None
    sid = placed.segment(e.location)
    feature = state.board.graph.feature(sid)
    if e.figure == "builder":
        feature.builders.append((e.player, sid))
        state.builders[e.player] -= 1
    elif e.figure == "pig":
        feature.pigs.append((e.player, sid))
        state.pigs[e.player] -= 1
    else:
        feature.meeples.append((e.player, sid))
        state.supply[e.player] -= 1
    state.phase = Phase.ACTION_DONE


def segment_location(board: Board, sid: int) -> tuple[int, int, str]:
    """(x, y, location name) of a segment id, a bridge's road included."""
    placed = board.tiles[board.graph.segment_tile[sid]]
    return placed.pos[0], placed.pos[1], placed.location(sid)


def _passed(state: GameState, e: ev.Passed) -> None:
    if e.step == "castle":
        root = castle_offer(state)
        assert root is not None
        state.castle_choices.setdefault(root[0], set()).add(e.player)
    elif e.step == "bid":
        assert state.auction is not None
        state.auction.skip_bidder()
    else:
        state.phase = Phase.ACTION_DONE


def castle_offer(state: GameState) -> tuple[int, int] | None:
    """(city root, owner) of the next castle decision this part's scoring waits for (R-CASTLE-3)."""
    if "bcb" not in state.expansions:
        return None
    board = state.board
    n = len(state.players)
    for feature in state.completions():
        if castle_base(board, feature, state.rules.castle_ends) is None:
            continue
        decided = state.castle_choices.get(feature.id, set())
        owners = majority(feature)
        for k in range(n):
            player = (state.current + k) % n
            if player in owners and player not in decided and state.castles_left[player] > 0:
                return feature.id, player
    return None


def _castle_built(state: GameState, e: ev.CastleBuilt) -> None:
    board = state.board
    feature = board.graph.feature(board.at[(e.x, e.y)].segment(e.location))
    positions = castle_base(board, feature, True)
    assert positions is not None
    state.castle_choices.setdefault(feature.id, set()).add(e.player)
    castle = next((c for c in state.castles if c.feature == feature.id), None)
    if castle is None:
        feature.castle = True
        state.castles.append(Castle(feature.id, positions, [e.player], state.part_count, state.sitting))
    else:
        castle.owners.append(e.player)
    state.castles_left[e.player] -= 1
    _return_builders(state, feature)


def castle_candidates(state: GameState) -> list[tuple[int, list[Feature]]]:
    """Castles this part's completions trigger, each with the features it may score (R-CASTLE-6)."""
    if not state.castles:
        return []
    completed = [f for f in state.completions() if not f.castle]
    if not completed:
        return []
    found = []
    for index, castle in enumerate(state.castles):
        if castle.scored or not _may_score(state, castle):
            continue
        hits = [f for f in completed if touches_fief(state.board, f, castle)]
        if hits:
            found.append((index, hits))
    return found


def _may_score(state: GameState, castle: Castle) -> bool:
    """Not in the scoring that made it; without V-CASTLE-SAME-TURN not in the builder part of the
    double turn that made it either. Bazaar parts are turns of their own (R-BAZAAR-7)."""
    if castle.part == state.part_count:
        return False
    return state.rules.castle_same_turn or castle.sitting != state.sitting


def castle_target_pending(state: GameState) -> tuple[int, list[Feature]] | None:
    """A castle whose owner must pick among several fief completions (R-CASTLE-7)."""
    for index, hits in castle_candidates(state):
        if len(hits) > 1 and index not in state.castle_targets:
            return index, hits
    return None


def _castle_target(state: GameState, e: ev.CastleTargetChosen) -> None:
    board = state.board
    index = next(i for i, c in enumerate(state.castles) if (e.castle_x, e.castle_y) in c.positions)
    feature = board.graph.feature(board.at[(e.x, e.y)].segment(e.location))
    state.castle_targets[index] = feature.id


def _turn_ended(state: GameState, e: ev.TurnEnded) -> None:
    version = e.originator_version
    completed = state.completions()
    triggered = castle_candidates(state)
    converted = {c.feature for c in state.castles if c.part == state.part_count}
    for feature in completed:
        if feature.id in converted:
            _return_knights_of_decliners(state, feature)
            continue
        value, parts = completed_value(feature)
        _award(state, feature, value, parts, "R-BASE-5", version, final=False)
        if feature.kind == Kind.CITY and feature.marks:
            holder = state.goods[state.current]  # R-TB-7: whoever completes it
            for flag, n in feature.marks.items():
                if flag.startswith("goods="):
                    kind = flag[6:]
                    holder[kind] = holder.get(kind, 0) + n
        _return_followers(state, feature)
    _score_castles(state, triggered, version)
    _plan_next(state)


def _return_knights_of_decliners(state: GameState, feature: Feature) -> None:
    castle = next(c for c in state.castles if c.feature == feature.id)
    keep = [(p, sid) for p, sid in feature.meeples if p in castle.owners]
    for player, _ in feature.meeples:
        if player not in castle.owners:
            state.supply[player] += 1
    feature.meeples = keep


def _score_castles(state: GameState, triggered: list[tuple[int, list[Feature]]], version: int) -> None:
    """Castles score the feature completed in their fief, then chained castles (R-CASTLE-6..8)."""
    scored: list[tuple[Castle, int]] = []
    for index, hits in triggered:
        castle = state.castles[index]
        chosen = state.castle_targets.get(index)
        target = next((f for f in hits if f.id == chosen), hits[0])
        value, _ = completed_value(target)
        scored.append((castle, value))
    while scored:
        castle, value = scored.pop(0)
        if castle.scored:  # a castle scores once (R-CASTLE-7)
            continue
        _castle_award(state, castle, value, version)
        for other in state.castles:
            if (
                not other.scored
                and _may_score(state, other)
                and any(pos in other.fief for pos in castle.positions)
            ):
                scored.append((other, value))


def _castle_award(state: GameState, castle: Castle, value: int, version: int) -> None:
    feature = state.board.graph.feature(castle.feature)
    owners = sorted({p for p, _ in feature.meeples})
    for player in owners:
        _credit(state, player, value, "castle", "R-CASTLE-6", (("feature", value),), feature.id, version)
    _return_followers(state, feature)
    castle.scored = True


def _plan_next(state: GameState) -> None:
    placed = state.placed
    bazaar = (
        placed is not None and "bazaar" in placed.tile.tags and state.from_pile and "bcb" in state.expansions
    )
    plan = plan_part_end(state.policy, state.current, bazaar, state.builder_earned, state.in_round())
    state.agenda[:0] = plan
    state.phase = Phase.PART_OVER


def _pop(state: GameState, item: Item) -> Entry:
    """Remove the first agenda entry of `item`, and the dead entries the sequencer skipped before it."""
    for i, entry in enumerate(state.agenda):
        if entry.item == item:
            del state.agenda[: i + 1]
            return entry
    raise AssertionError(f"no {item} on the agenda")


def _builder_granted(state: GameState, e: ev.BuilderTurnGranted) -> None:
    _pop(state, Item.GRANT)
    state.grants.append(state.sitting)


def _bazaar_opened(state: GameState, e: ev.BazaarOpened | ev.BazaarResumed) -> None:
    if isinstance(e, ev.BazaarResumed):
        _pop(state, Item.ROUND_END)
        state.deferred.pop(0)
    else:
        _pop(state, Item.AUCTION)
    _take_bazaar_tiles(state, e.host, e.tiles, hidden=False)
    state.agenda[:0] = round_parts(e.host, len(state.players))


def _take_bazaar_tiles(state: GameState, host: int, tiles: tuple[str, ...], hidden: bool) -> None:
    state.next_draw += len(tiles)
    rules = state.rules
    state.auction = Auction(
        host, tiles, len(state.players), _free_bazaar(state), hidden, rules.bazaar_choice_moves_on
    )
    state.phase = Phase.AUCTION if not hidden else Phase.PART_OVER


def _free_bazaar(state: GameState) -> bool:
    """No bidding: V-BAZAAR-NOAUCTION, or V-BAZAAR-ZEROSCORES while every score is 0."""
    rules = state.rules
    return rules.bazaar_no_auction or (rules.bazaar_zero_scores and not any(state.scores))


def _face_down(state: GameState, e: ev.BazaarTilesTakenFaceDown) -> None:
    _pop(state, Item.FACEDOWN)
    _take_bazaar_tiles(state, e.host, e.tiles, hidden=True)


def _revealed(state: GameState, e: ev.BazaarRevealed) -> None:
    _pop(state, Item.REVEAL)
    auction = state.auction
    assert auction is not None
    auction.hidden = False
    auction.free = _free_bazaar(state)  # the scores as the auction starts, builder part included
    state.phase = Phase.AUCTION
    state.agenda[:0] = round_parts(e.host, len(state.players))


def _deferred(state: GameState, e: ev.BazaarDeferred) -> None:
    _pop(state, Item.DEFER)
    state.deferred.append(e.host)


def _dropped(state: GameState, e: ev.BazaarDropped) -> None:
    _pop(state, Item.DROP)


def _tile_chosen(state: GameState, e: ev.BazaarTileChosen) -> None:
    auction = state.auction
    assert auction is not None
    auction.open_sale(e.player, e.index, e.bid)


def _bid_raised(state: GameState, e: ev.BidRaised) -> None:
    auction = state.auction
    assert auction is not None
    auction.raise_bid(e.player, e.bid)


def _bought(state: GameState, e: ev.TileBought) -> None:
    auction = state.auction
    assert auction is not None
    _pay(state, e.player, e.payee, e.price, e.originator_version)
    _give(state, e.player, auction.index)


def _sold(state: GameState, e: ev.TileSold) -> None:
    auction = state.auction
    assert auction is not None
    _pay(state, e.buyer, e.player, e.price, e.originator_version)
    _give(state, e.buyer, auction.index)


def _assigned(state: GameState, e: ev.BazaarTileAssigned) -> None:
    _give(state, e.player, e.index)


def _give(state: GameState, player: int, index: int) -> None:
    auction = state.auction
    assert auction is not None
    auction.give(player, index)
    if auction.done:
        state.won_tiles = dict(auction.won)
        state.auction = None
        state.phase = Phase.PART_OVER


def _pay(state: GameState, payer: int, payee: int | None, price: int, version: int) -> None:
    """A bazaar payment (R-BAZAAR-5): kept with the scores, as awards of the rule that moves points."""
    if price == 0:
        return
    for player, points in ((payer, -price), (payee, price)):
        if player is not None:
            _credit(state, player, points, "bazaar", "R-BAZAAR-5", (("bid", price),), -1, version)


def _game_ended(state: GameState, e: ev.GameEnded) -> None:
    board = state.board
    version = e.originator_version
    for feature in board.graph.roots():
        if feature.castle:  # R-CASTLE-10: occupied castles score nothing, said as a 0 award
            for player in sorted({p for p, _ in feature.meeples}):
                _credit(
                    state, player, 0, "castle", "R-CASTLE-10", (("castle", 0),), feature.id, version, True
                )
            _return_followers(state, feature)
            continue
        if feature.meeples:
            if feature.kind == Kind.FIELD:
                value, parts = farm_value(board, feature, state.rules.castle_farm_value)
            else:
                value, parts = incomplete_value(board, feature)
            _award(state, feature, value, parts, "R-BASE-8", version, final=True)
        _return_followers(state, feature)
        for player, _ in feature.pigs:
            state.pigs[player] += 1
        feature.pigs = []
    for player, kind, held in goods_majorities(state.goods):  # R-TB-7
        _credit(state, player, 10, "goods", "R-TB-7", ((kind, held),), -1, version, True)
    state.phase = Phase.OVER


def _award(
    state: GameState,
    feature: Feature,
    value: int,
    parts: Parts,
    rule: str,
    version: int,
    *,
    final: bool,
) -> None:
    for player in majority(feature):
        points, player_parts, player_rule = value, parts, rule
        if feature.kind == Kind.FIELD and any(p == player for p, _ in feature.pigs):
            points, player_parts = farm_value(state.board, feature, state.rules.castle_farm_value, pig=True)
            player_rule = "R-TB-6"
        _credit(
            state, player, points, category(feature), player_rule, player_parts, feature.id, version, final
        )


def _credit(
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


def _return_followers(state: GameState, feature: Feature) -> None:
    """Followers on a scored feature go back to supply (R-BASE-7), builders with them (R-TB-4)."""
    for player, _ in feature.meeples:
        state.supply[player] += 1
    feature.meeples = []
    _return_builders(state, feature)


def _return_builders(state: GameState, feature: Feature) -> None:
    """A builder without its owner's follower beside it goes home (R-TB-4)."""
    if not feature.builders:
        return
    owners = {p for p, _ in feature.meeples}
    keep = []
    for player, sid in feature.builders:
        if player in owners:
            keep.append((player, sid))
        else:
            state.builders[player] += 1
    feature.builders = keep


def completed_by(board: Board, placed: PlacedTile) -> list[Feature]:
    """Features the placement of `placed` completed: its roads and cities, nearby cloisters."""
    graph = board.graph
    found: list[Feature] = []
    seen: set[int] = set()
    for index, seg in enumerate(placed.tile.segments):
        if seg.kind == Kind.ROAD or seg.kind == Kind.CITY:
            feature = graph.feature(placed.base + index)
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
    ev.BridgePlaced: _bridge_placed,
    ev.FollowerDeployed: _deployed,
    ev.Passed: _passed,
    ev.TurnEnded: _turn_ended,
    ev.CastleBuilt: _castle_built,
    ev.CastleTargetChosen: _castle_target,
    ev.BuilderTurnGranted: _builder_granted,
    ev.BuilderTurnTaken: _builder_taken,
    ev.BazaarOpened: _bazaar_opened,
    ev.BazaarResumed: _bazaar_opened,
    ev.BazaarTilesTakenFaceDown: _face_down,
    ev.BazaarRevealed: _revealed,
    ev.BazaarDeferred: _deferred,
    ev.BazaarDropped: _dropped,
    ev.BazaarTileChosen: _tile_chosen,
    ev.BidRaised: _bid_raised,
    ev.TileBought: _bought,
    ev.TileSold: _sold,
    ev.BazaarTileAssigned: _assigned,
    ev.BazaarTileTaken: _bazaar_tile_taken,
    ev.GameEnded: _game_ended,
}
