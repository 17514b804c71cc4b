"""JCloisterZone 5.x's tile draws, reproduced: its random generator, its pack, and when it draws.

A save records no draws of its own. Fixtures and the oracle games force them
(`gameAnnotations.drawOrder`); a real game ("natural" save) keeps only the random numbers:
`initialRandom` and the `random` each COMMIT carries. Following
`reference/jcz/oracle-natural/README.md`, `JczDrawer.draw` takes the tiles out of the pack one
at a time, for every purpose JCloisterZone draws for (a turn, a builder's second part, a bazaar
supply, a redraw after a discard), and `DrawWalk` (`plan_draws`) walks the message log and
draws each tile at the moment JCloisterZone needed it. Our engine records the whole pile in its first event
(R-BASE-2), so the replay gets the order this walk produced: the draws the log used, then
the rest of the pack in the order the generator would continue to give it.

When a turn needs a tile is read from the log itself: a PLACE_TILE naming another tile than
the one drawn means the drawn one fitted nowhere and was discarded (our engine's replay then
checks that it indeed fits nowhere); the same player placing again right after a COMMIT is a
builder's second part; an auction follows when a bazaar tile was placed while no bazaar supply
existed. Who receives which bazaar tile is followed through the auction messages. A turn part
ends only after its wagon phase (returned wagons moved, each with a COMMIT of its own, or left
with a PASS): JCloisterZone plays it before a builder's second part and before a bazaar supply.
An abbey placed stands for the turn's tile: nothing is drawn for it.
"""

from __future__ import annotations

import struct
from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Final, Literal

from mypy_extensions import mypyc_attr

from domain.tiles import TILES
from replays.jcz import SET_CODES, JczDraw, JczError, JczMessage, JczRefused, JczSave, set_name

DrawKind = Literal["turn", "builder", "bazaar", "redraw"]

_MASK48: Final = (1 << 48) - 1
_MULTIPLIER: Final = 25214903917
_DOUBLE: Final = struct.Struct("<d")
_BITS: Final = struct.Struct("<Q")


class JczRandom:
    """JCloisterZone's generator: a double in [0, 1), advanced after every int it yields."""

    __slots__ = ("r",)

    def __init__(self, r: float) -> None:
        self.r = r

    def next_int(self, n: int) -> int:
        """floor(r * n), then the state steps on from the low 48 bits of r's bit pattern."""
        k = int(self.r * n)
        x = _BITS.unpack(_DOUBLE.pack(self.r))[0] & _MASK48
        self.r = ((_MULTIPLIER * x + 11) & _MASK48) / (1 << 48)  # exact: x < 2^48
        return k


def _group(tile_id: str, dragons_wait: bool) -> str:
    """JCloisterZone's pack group of a tile: dragon tiles wait for a volcano in their own group
    (while the dragon is played); river tiles, the lake and the spring have theirs."""
    tile = TILES[tile_id]
    if dragons_wait and "dragon" in tile.tags:
        return "dragon"
    if "spring" in tile.tags:
        return "river-spring"
    if "lake" in tile.tags:
        return "river-lake"
    if any(seg.name == "river" for seg in tile.segments):
        return "river"
    return "default"


# JCloisterZone's river.xml limits the spring and the lake to one copy (`max="1"`), however many
# copies of the river set are in play.
_ONE_PER_GAME: Final = frozenset({"spring", "lake"})


class JczPack:
    """JCloisterZone's draw pack: groups in name order, each sorted by tile id; a draw indexes the
    active groups' tiles in that order, and a group emptied makes way for its successor."""

    __slots__ = ("active", "groups", "size", "successor")

    def __init__(self, tiles: list[str], dragons_wait: bool) -> None:
        grouped: dict[str, list[str]] = {}
        for tile in sorted(tiles):
            grouped.setdefault(_group(tile, dragons_wait), []).append(tile)
        self.groups = {name: grouped[name] for name in sorted(grouped)}
        self.groups.pop("river-spring", None)  # springs beyond the start are not played
        self.successor: dict[str, str] = {}
        self.active = set(self.groups)
        if "river" in self.groups or "river-lake" in self.groups:
            self.active -= {"default", "river-lake"}
            self.successor = {"river": "river-lake", "river-lake": "default"}
            if "river" not in self.groups:
                self.active.add("river-lake")
        if dragons_wait:
            self.active.discard("dragon")
        self.size = -1  # tiles in the active groups, once counted (-1: to count again)

    def activate(self, group: str) -> None:
        if group in self.groups:
            self.active.add(group)
            self.size = -1

    def tiles(self) -> list[str]:
        """The tiles that can be drawn now, in the order a draw indexes them."""
        return [t for name, group in self.groups.items() if name in self.active for t in group]

    def __len__(self) -> int:
        if self.size < 0:  # asked at every draw and turn: counted only after a change
            self.size = sum(len(group) for name, group in self.groups.items() if name in self.active)
        return self.size

    def __iter__(self) -> Iterator[str]:
        return iter(self.tiles())

    def take(self, index: int) -> str:
        for name, group in self.groups.items():
            if name not in self.active:
                continue
            if index < len(group):
                return self._remove(name, index)
            index -= len(group)
        raise IndexError(index)

    def remove(self, tile: str) -> None:
        """Take a named tile out of an active group (a forced draw)."""
        for name, group in self.groups.items():
            if name in self.active and tile in group:
                self._remove(name, group.index(tile))
                return
        raise ValueError(tile)

    def _remove(self, name: str, index: int) -> str:
        group = self.groups[name]
        self.size = -1
        tile = group.pop(index)
        if not group:
            del self.groups[name]
            self.active.discard(name)
            if name in self.successor:
                self.activate(self.successor[name])
        return tile


def jcz_pack(save: JczSave) -> list[str]:
    """Every tile of the draw pack before the first draw, in JCloisterZone's order: every copy of
    every tile in play, minus the start tile, sorted by id within groups in name order."""
    return [t for group in _pack(save).groups.values() for t in group]


def _pack(save: JczSave) -> JczPack:
    counts: Counter[str] = Counter()
    for key, copies in save.setup.sets.items():
        code = SET_CODES.get(set_name(key))
        for t in TILES.values():
            if t.expansion == code:
                counts[t.id] += copies * t.count
    for tile_id in counts:
        if TILES[tile_id].tags & _ONE_PER_GAME:
            counts[tile_id] = min(counts[tile_id], 1)
    for start in save.setup.start:
        counts[start.tile] -= 1
    dragons_wait = save.setup.elements.get("dragon") is not None  # named: in play, even counted 0
    return JczPack(list(counts.elements()), dragons_wait=dragons_wait)


class JczDrawer:
    """The pack and the generator: every draw of a game goes through `draw`.

    Forced draws (`drawOrder`) come first, in order; `endTurn` makes the pack count as empty
    after that many draws; beyond the forced ones draws are random, as in a real game.
    """

    __slots__ = ("draws", "forced", "limit", "pack", "random")

    def __init__(self, save: JczSave) -> None:
        annotations = save.gameAnnotations
        self.pack = _pack(save)
        self.forced: tuple[str, ...] = annotations.drawOrder or () if annotations else ()
        self.limit = annotations.endTurn if annotations else None
        self.random = JczRandom(save.initialRandom)
        self.draws: list[JczDraw] = []

    @property
    def left(self) -> int:
        """Tiles that can still be drawn."""
        if self.limit is not None:
            return min(len(self.pack), self.limit - len(self.draws))
        return len(self.pack)

    def reseed(self, r: float) -> None:
        self.random.r = r

    def draw(self, kind: DrawKind, after: int) -> str:
        """Take one tile out of the pack, for `kind`, while processing message `after`."""
        if self.left <= 0:
            raise JczRefused(f"message {after} needs a tile but the pack is empty", after)
        n = len(self.draws)
        if n < len(self.forced):
            tile = self.forced[n]
            try:
                self.pack.remove(tile)
            except ValueError:
                raise JczError(f"the draw order names {tile!r}, which the pack does not hold") from None
        else:
            tile = self.pack.take(self.random.next_int(len(self.pack)))
        self.draws.append(JczDraw(tile=tile, kind=kind, after=after))
        return tile

    def supply(self, players: int, after: int) -> list[str]:
        """A bazaar supply: one tile per player, all at once; none if the pack has fewer."""
        if players < 2 or self.left < players:
            return []
        return [self.draw("bazaar", after) for _ in range(players)]

    def rest(self) -> list[str]:
        """Every tile still drawable, in the order further draws would give them."""
        after = self.draws[-1].after if self.draws else -1
        start = len(self.draws)
        while self.left > 0:
            self.draw("turn", after)
        rest = [d.tile for d in self.draws[start:]]
        del self.draws[start:]
        return rest


class _Auction:
    """Who receives which bazaar tile, followed through BAZAAR_BID, PASS and BAZAAR_BUY_OR_SELL."""

    __slots__ = ("bidders", "highest", "host", "item", "owner", "players", "selector")

    def __init__(self, host: int, players: int, tiles: int) -> None:
        self.host = host
        self.players = players
        self.owner: list[int | None] = [None] * tiles
        self.item: int | None = None  # supply index being auctioned
        self.selector = -1  # the player who chose it
        self.highest = -1  # the highest bidder so far
        self.bidders: list[int] = []  # players still to raise or pass

    def bid(self, player: int, item: int) -> None:
        if self.item is None:  # a choice with an opening bid
            self.item, self.selector = item, player
            others = self._seats_after(player)[:-1]  # the list ends with the chooser
            self.bidders = [p for p in others if p not in self.owner]
        else:
            self.bidders.remove(player)
        self.highest = player

    def pass_(self, player: int) -> None:
        self.bidders.remove(player)

    def buy_or_sell(self, value: str) -> None:
        self._assign(self.selector if value == "BUY" else self.highest)

    def settle(self) -> bool:
        """Assign what goes without a message; True once every tile has its owner."""
        if self.item is not None and not self.bidders and self.highest == self.selector:
            self._assign(self.selector)
        if self.owner.count(None) == 1:  # the last tile goes free to the last player without one
            last = next(p for p in self._seats_after(self.host) if p not in self.owner)
            self.owner[self.owner.index(None)] = last
        return None not in self.owner

    def supply(self, tiles: list[str]) -> list[tuple[str, int]]:
        """The supply reordered by owner, from the player after the host round the table."""
        order = {p: i for i, p in enumerate(self._seats_after(self.host))}
        owned = [(tile, owner) for tile, owner in zip(tiles, self.owner, strict=True) if owner is not None]
        return sorted(owned, key=lambda item: order[item[1]])

    def _assign(self, player: int) -> None:
        assert self.item is not None
        self.owner[self.item] = player
        self.item = None

    def _seats_after(self, player: int) -> list[int]:
        return [(player + i) % self.players for i in range(1, self.players + 1)]


class DrawPlan:
    """What the walk found: the draws the log used, and the whole pile for our engine."""

    __slots__ = ("draws", "order")

    def __init__(self, draws: Sequence[JczDraw], order: Sequence[str]) -> None:
        self.draws = tuple(draws)
        self.order = tuple(order)


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it
class DrawWalk:
    """JCloisterZone's turn structure, as far as it decides when tiles are drawn.

    `run` draws along the message log; the draws made so far stay readable when it fails, so a
    caller can tell which draw went wrong first.
    """

    def __init__(self, save: JczSave) -> None:
        self.messages = save.replay
        # A ransom may be paid whenever its payer is asked (JCZ-RANSOM-ANY-STEP): it draws
        # nothing and reseeds nothing, so the walk reads the log as if it were not there.
        self.kept = [i for i, m in enumerate(self.messages) if m.type != "PAY_RANSOM"]
        # Each kept message's neighbours among the kept ones (-1: none).
        self.after_kept = [-1] * len(self.messages)
        self.before_kept = [-1] * len(self.messages)
        for i, j in zip(self.kept, self.kept[1:], strict=False):
            self.after_kept[i] = j
            self.before_kept[j] = i
        self.players = len(save.players)
        self.drawer = JczDrawer(save)
        self.current = 0
        self.held: str | None = None  # the tile the current player must place
        self.held_bought = False  # it is theirs from a bazaar's supply, not drawn
        # A draw due but not made yet: JCloisterZone may first hold a phase of its own (an abbey
        # declined, a wagon moved) whose COMMIT reseeds the generator, so a turn's tile is drawn
        # when the log shows it is needed.
        self.owed: DrawKind | None = None
        self.owed_after = -1
        self.placed_since_commit = False
        # A turn part committed whose end is not settled yet: returned wagons move (or pass) first.
        self.part_ended = False
        self.wagons = bool(save.setup.elements.get("wagon"))
        self.wagon_owners: set[int] = set()  # players who have put a wagon on the board
        self.builders = (
            bool(save.setup.elements.get("builder")) or not save.setup.elements
        )  # 4.x: no elements
        self.second_part = False
        self.pending_bazaar = False
        # Without the element no auction is held, and no tiles are drawn for one.
        self.bazaars = save.setup.elements.get("bazaar") is not None or not save.setup.elements
        self.supply: list[tuple[str, int]] | None = None  # (tile, owner); exists from auction to round end
        self.supply_tiles: list[str] = []
        self.auction: _Auction | None = None

    @property
    def draws(self) -> list[JczDraw]:
        return self.drawer.draws

    def plan(self) -> DrawPlan:
        """After `run`: the draws made, then the rest of the pack in the generator's order."""
        self._end_part(len(self.messages) - 1)
        self._draw_owed(self.owed_after)  # the log ends where JCloisterZone had drawn the next tile
        draws = list(self.drawer.draws)
        return DrawPlan(draws, [d.tile for d in draws] + self.drawer.rest())

    def run(self) -> None:
        self.tile_step(0, "turn", -1)
        for index in self.kept:
            message = self.messages[index]
            random = message.payload.get("random")
            if isinstance(random, float | int):
                self.drawer.reseed(float(random))
            try:
                self.message(index, message)
            except (KeyError, ValueError) as e:  # a payload without its field, a bid out of turn
                raise JczRefused(f"message {index} ({message.type}) cannot be followed: {e!r}", index) from e

    def tile_step(self, player: int, kind: DrawKind, after: int) -> None:
        """The player's tile: their bazaar tile if the supply holds it next, else a draw."""
        self.current = player
        for _ in range(self.players):  # players without a supply tile are skipped on an empty pack
            if self.supply and self.supply[0][1] == player:
                self.held = self.supply.pop(0)[0]
                self.held_bought = True
                return
            if self.drawer.left > 0:
                self.held = None
                self.owed, self.owed_after = kind, after
                return
            if not self.supply:
                self.held = None  # the pack is empty, and no bazaar tile is left: the game ends
                return
            player = self.current = (player + 1) % self.players
        raise JczRefused(f"message {after}: bazaar tiles are owed but nobody can take one", after)

    def message(self, index: int, message: JczMessage) -> None:
        kind = message.type
        if self.part_ended and kind != "COMMIT":  # a returned wagon moved or left where it is
            self._end_part(index)
        elif kind == "PLACE_TILE":
            self.placed(index, message.payload.get("tileId"))
        elif kind == "PASS" and self.auction is not None:
            self.auction.pass_(self._sender(index, message))
            self.auction_step(index)
        elif kind == "PASS" and self._declines(index):  # the tile itself is declined: discarded
            self._draw_owed(self.owed_after)
            self.tile_step(self.current, "redraw", index)
        elif kind == "BAZAAR_BID":
            self._running(index).bid(self._sender(index, message), int(message.payload["supplyIndex"]))
            self.auction_step(index)
        elif kind == "BAZAAR_BUY_OR_SELL":
            self._running(index).buy_or_sell(str(message.payload.get("value")))
            self.auction_step(index)
        elif kind == "COMMIT":
            self.committed(index)
        elif (
            kind == "DEPLOY_MEEPLE"
            and message.player is not None
            and ".wagon." in str(message.payload.get("meepleId", ""))
        ):
            self.wagon_owners.add(message.player)

    def _following(self, index: int) -> JczMessage | None:
        """The message after `index`, ransoms left out."""
        after = self.after_kept[index] if index >= 0 else -1
        return None if after < 0 else self.messages[after]

    def _declines(self, index: int) -> bool:
        """A PASS declining the tile held (one that fits only with a bridge), not a pass in a
        phase of JCloisterZone's own: an abbey declined (its COMMIT follows) or a wagon left."""
        if self.held is None and self.owed is None:
            return False
        following = self._following(index)
        if following is not None and following.type == "COMMIT":
            return False
        wagon_left = self._wagon_pass(self.messages[index])
        return not (wagon_left and not self.placed_since_commit and self.held is None)

    def _wagon_pass(self, message: JczMessage) -> bool:
        """Whether a PASS may leave a returned wagon where it is: only a wagon's owner is asked to
        move it, so anyone else's PASS declines a tile."""
        return self.wagons and (message.player is None or message.player in self.wagon_owners)

    def _draw_owed(self, after: int) -> None:
        if self.owed is not None:
            self.held = self.drawer.draw(self.owed, after)
            self.held_bought = False
            self.owed = None

    def placed(self, index: int, tile_id: object) -> None:
        if not isinstance(tile_id, str) or tile_id not in TILES:
            raise JczError(f"message {index} places an unknown tile id {tile_id!r}")
        self.placed_since_commit = True
        if "abbey" in TILES[tile_id].tags:  # the player's abbey, instead of a draw
            self.owed = None
            self.held = None
            return
        self._draw_owed(self.before_kept[index])
        while self.held != tile_id:
            # The tile held fitted nowhere: JCZ discarded it silently and drew again, at once for
            # a drawn tile, as the part began for one bought at a bazaar.
            if self.held is None or self.drawer.left == 0:
                raise JczRefused(
                    f"message {index} places {tile_id}, but JCloisterZone's draws give "
                    f"{self.held or 'no tile'}",
                    index,
                )
            if self.held_bought:
                after = self.before_kept[index]
            else:
                after = self.drawer.draws[-1].after if self.drawer.draws else -1
            self.tile_step(self.current, "redraw", after)
            self._draw_owed(after)
        self.held = None
        if "volcano" in TILES[tile_id].tags:
            self.drawer.pack.activate("dragon")  # dragon tiles may be drawn from now on
        if self.bazaars and "bazaar" in TILES[tile_id].tags and self.supply is None:
            self.pending_bazaar = True

    def committed(self, index: int) -> None:
        if self.placed_since_commit:  # else the COMMIT of an abbey declined or a wagon moved
            self.placed_since_commit = False
            self.part_ended = True
        self._end_part(index)

    def _in_closing_phase(self, index: int) -> bool:
        """Whether message `index`, after a turn part's COMMIT, still belongs to that part: its
        wagon phase (a wagon moved, with its own COMMIT, or a PASS leaving it, which no COMMIT
        follows), or the dragon's steps after scoring (V-DRAGON-AFTER-SCORING)."""
        message = self.messages[index]
        if message.type == "DEPLOY_MEEPLE":
            return ".wagon." in str(message.payload.get("meepleId", ""))
        if message.type == "MOVE_NEUTRAL_FIGURE":
            return str(message.payload.get("figureId", "")).startswith("dragon")
        if message.type == "COMMIT":
            return self.before_kept[index] >= 0 and self._in_closing_phase(self.before_kept[index])
        following = self._following(index)
        return (
            message.type == "PASS"
            and self._wagon_pass(message)
            and (following is None or following.type != "COMMIT")
        )

    def _end_part(self, index: int) -> None:
        """End the committed turn part once its wagon phase is over (message `index` is the last
        one of it): the wagon phase comes before a builder's second part and before a bazaar
        supply, and a wagon's COMMIT reseeds the generator the supply is drawn with."""
        if not self.part_ended:
            return
        following = self._following(index)
        if following is not None and self._in_closing_phase(self.after_kept[index]):
            return
        self.part_ended = False
        if (
            self.builders
            and not self.second_part
            and self.players > 1
            and following is not None
            and following.player == self.current
            and following.type in ("PLACE_TILE", "PASS")
        ):
            self.second_part = True  # the builder's extra tile, before any auction
            self.tile_step(self.current, "builder", index)
            return
        self.second_part = False
        if self.supply == []:  # the supply ends with the turn its last tile was taken in
            self.supply = None
        if self.pending_bazaar:
            self.pending_bazaar = False
            tiles = self.drawer.supply(self.players, index)
            if tiles:
                self.supply_tiles = tiles
                self.auction = _Auction(self.current, self.players, len(tiles))
                return
        self.next_turn(index)

    def auction_step(self, index: int) -> None:
        auction = self.auction
        if auction is not None and auction.settle():
            self.supply = auction.supply(self.supply_tiles)
            self.auction = None
            self.current = auction.host
            self.next_turn(index)

    def next_turn(self, index: int) -> None:
        if self.drawer.left == 0 and self.supply is None:
            self.held = None  # the game is over
            return
        self.tile_step((self.current + 1) % self.players, "turn", index)

    def _running(self, index: int) -> _Auction:
        if self.auction is None:
            raise JczRefused(f"message {index}: a bazaar message outside an auction", index)
        return self.auction

    def _sender(self, index: int, message: JczMessage) -> int:
        if message.player is None:
            raise JczError(f"message {index} ({message.type}) does not say which player sent it")
        return message.player


def plan_draws(save: JczSave) -> DrawPlan:
    """Every draw JCloisterZone made for this log, and the whole pile in draw order."""
    walk = DrawWalk(save)
    walk.run()
    return walk.plan()
