"""JCloisterZone 5.x's tile draws, reproduced: its random generator, its pack, and when it draws.

A save records no draws of its own. Fixtures and the oracle games force them
(`gameAnnotations.drawOrder`); a real game ("natural" save) keeps only the random numbers:
`initialRandom` and the `random` each COMMIT carries. Following
`reference/jcz/oracle-natural/README.md`, `JczDrawer.draw` takes the tiles out of the pack one
at a time, for every purpose JCloisterZone draws for (a turn, a set's extra part, a set's
supply, a redraw after a discard), and `DrawWalk` (`plan_draws`) walks the message log and
draws each tile at the moment JCloisterZone needed it. Our engine records the whole pile in its first event
(R-BASE-2), so the replay gets the order this walk produced: the draws the log used, then
the rest of the pack in the order the generator would continue to give it.

When a turn needs a tile is read from the log itself: a PLACE_TILE naming another tile than
the one drawn means the drawn one fitted nowhere and was discarded (our engine's replay then
checks that it indeed fits nowhere). What the sets change in that (an extra part, a supply
of tiles and who gets them, a phase closing a turn part, a tile of the player's own placed
instead of a draw, pack groups opened one after another) each set's mapping tells the walk
through its hooks (`replays.jcz_mapping.JczSet`); the walk names no set.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Iterator, Sequence
from typing import Any, Final

from mypy_extensions import mypyc_attr

from domain.tiles import TILES, TileType
from replays.jcz import SET_CODES, JczDraw, JczError, JczMessage, JczRefused, JczSave, expansions_of, set_name
from replays.jcz_mapping import JczSet
from replays.jcz_random import JczRandom as JczRandom, Seeded
from replays.jcz_sets import MAPPINGS, in_play

DrawKind = str  # what a tile is drawn for: a turn, a redraw, or a set's own purpose

Draw = tuple[int, int]  # an int JCloisterZone's generator gives, and the bound it was drawn below


_GOLDEN: Final = 0.6180339887498949  # spreads the tries over the first int's share


def random_giving(draws: Sequence[Draw]) -> float:
    """A `random` from which JCloisterZone's generator gives these ints in order: what a message
    that re-seeds it must carry for every draw JCloisterZone makes before the next seed. The
    first int fixes a share of [0, 1); the later ones are searched for inside it."""
    first, bound = draws[0]
    for attempt in range(1 << 20):
        # The middle of the share first: a single draw takes it at once.
        r = (first + (0.5 if attempt == 0 else (attempt * _GOLDEN) % 1.0)) / bound
        generator = JczRandom(r)
        if all(generator.next_int(n) == k for k, n in draws):
            return r
    raise JczError(f"no random gives JCloisterZone's draws {list(draws)}")


DEFAULT: Final = "default"  # the pack group of every tile no set puts in a group of its own


def _group(tile: TileType, mappings: tuple[JczSet, ...], save: JczSave) -> str:
    """JCloisterZone's pack group of a tile: a set may give it one of its own (tiles drawn before
    the rest, or waiting for another to be placed)."""
    return next((g for m in mappings if (g := m.pack_group(tile, save)) is not None), DEFAULT)


class JczPack:
    """JCloisterZone's draw pack: groups in name order, each sorted by tile id; a draw indexes the
    active groups' tiles in that order, and a group emptied makes way for its successor."""

    __slots__ = ("active", "groups", "size", "successor")

    def __init__(self, grouped: dict[str, list[str]]) -> None:
        self.groups = {name: sorted(grouped[name]) for name in sorted(grouped)}
        self.successor: dict[str, str] = {}  # a set's group that opens when another empties
        self.active = set(self.groups)
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
    mappings = in_play(expansions_of(save))
    counts: Counter[str] = Counter()
    for key, copies in save.setup.sets.items():
        code = SET_CODES.get(set_name(key))
        for t in TILES.values():
            if t.expansion == code:
                counts[t.id] += copies * t.count
    once = frozenset(tag for m in mappings for tag in m.one_per_game)
    for tile_id in counts:
        if TILES[tile_id].tags & once:
            counts[tile_id] = min(counts[tile_id], 1)
    for start in save.setup.start:
        counts[start.tile] -= 1
    grouped: dict[str, list[str]] = {}
    for tile_id in counts.elements():
        grouped.setdefault(_group(TILES[tile_id], mappings, save), []).append(tile_id)
    pack = JczPack(grouped)
    for m in mappings:
        m.arrange_pack(pack, save)
    return pack


class JczDrawer:
    """The pack and the generator: every draw of a game goes through `draw`.

    Forced draws (`drawOrder`) come first, in order; `endTurn` makes the pack count as empty
    after that many draws; beyond the forced ones draws are random, as in a real game.
    """

    __slots__ = ("draws", "forced", "limit", "pack", "random", "seeded", "set_aside")

    def __init__(self, save: JczSave) -> None:
        annotations = save.gameAnnotations
        self.pack = _pack(save)
        self.forced: tuple[str, ...] = annotations.drawOrder or () if annotations else ()
        self.limit = annotations.endTurn if annotations else None
        self.random = JczRandom(save.initialRandom)
        self.seeded = Seeded(-1, save.initialRandom, 0)  # the last seed, and the tile draws since
        self.draws: list[JczDraw] = []
        # Tiles a set took out of play without drawing them (put face down under a placed tile):
        # the pack counts as empty that many tiles sooner, though a draw still indexes them all.
        self.set_aside = 0

    @property
    def left(self) -> int:
        """Tiles that can still be drawn. A pack ended by a count of draws (`endTurn`) ends there,
        tiles set aside or not, as JCloisterZone's forced pack counts draws alone."""
        if self.limit is not None:
            return min(len(self.pack), self.limit - len(self.draws))
        return len(self.pack) - self.set_aside

    def reseed(self, r: float, index: int) -> None:
        """Message `index` carries `random`: the generator starts again from it."""
        self.random.r = r
        self.seeded = Seeded(index, r, 0)

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
            self.seeded = self.seeded._replace(tile_ints=self.seeded.tile_ints + 1)
        self.draws.append(JczDraw(tile=tile, kind=kind, after=after))
        return tile

    def supply(self, players: int, after: int, kind: DrawKind) -> list[str]:
        """A supply of tiles drawn at once for `kind`, one per player; none if the pack has fewer."""
        if players < 2 or self.left < players:
            return []
        return [self.draw(kind, after) for _ in range(players)]

    def rest(self) -> list[str]:
        """Every tile still in the pack, in the order further draws would give them (those set
        aside last: our pile sets aside its last tiles)."""
        after = self.draws[-1].after if self.draws else -1
        start = len(self.draws)
        aside, limit = self.set_aside, self.limit
        self.set_aside = 0
        if limit is not None:  # our pile sets aside its last tiles: as many more after the end
            self.limit = limit + aside
        while self.left > 0:
            self.draw("turn", after)
        self.set_aside, self.limit = aside, limit
        rest = [d.tile for d in self.draws[start:]]
        del self.draws[start:]
        return rest


class DrawPlan:
    """What the walk found: the draws the log used, and the whole pile for our engine."""

    __slots__ = ("draws", "order", "randoms")

    def __init__(
        self, draws: Sequence[JczDraw], order: Sequence[str], randoms: Sequence[Seeded | None] = ()
    ) -> None:
        self.draws = tuple(draws)
        self.order = tuple(order)
        # JCloisterZone's generator as each message of the log came (`Seeded`): what the sets'
        # draws of chance draw with.
        self.randoms = tuple(randoms)


@mypyc_attr(allow_interpreted_subclasses=True)  # tests subclass it
class DrawWalk:
    """JCloisterZone's turn structure, as far as it decides when tiles are drawn.

    `run` draws along the message log; the draws made so far stay readable when it fails, so a
    caller can tell which draw went wrong first.
    """

    def __init__(self, save: JczSave) -> None:
        self.messages = save.replay
        self.elements = save.setup.elements
        self.mappings = in_play(expansions_of(save))
        # Messages that neither draw nor reseed, which a set lets come at any decision (a
        # ransom): the walk reads the log as if they were not there.
        ignored = frozenset(kind for m in MAPPINGS.values() for kind in m.walk_ignores)
        self.kept = [i for i, m in enumerate(self.messages) if m.type not in ignored]
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
        self.held_bought = False  # it is theirs from a set's own supply, not drawn
        # A draw due but not made yet: JCloisterZone may first hold a phase of a set's own whose
        # COMMIT reseeds the generator, so a turn's tile is drawn
        # when the log shows it is needed.
        self.owed: DrawKind | None = None
        self.owed_after = -1
        self.placed_since_commit = False
        # A turn part committed whose end is not settled yet: its closing phases come first.
        self.part_ended = False
        self.ext: dict[str, Any] = {}  # what each set's mapping follows along the log
        # The generator as each message came, its own `random` taken (`DrawPlan.randoms`); None
        # for a message the walk ignores.
        self.randoms: list[Seeded | None] = [None] * len(self.messages)
        for m in self.mappings:
            m.walk_start(self)

    @property
    def draws(self) -> list[JczDraw]:
        return self.drawer.draws

    def plan(self) -> DrawPlan:
        """After `run`: the draws made, then the rest of the pack in the generator's order."""
        self._end_part(len(self.messages) - 1)
        self._draw_owed(self.owed_after)  # the log ends where JCloisterZone had drawn the next tile
        draws = list(self.drawer.draws)
        return DrawPlan(draws, [d.tile for d in draws] + self.drawer.rest(), self.randoms)

    def run(self) -> None:
        self.tile_step(0, "turn", -1)
        randoms = self.randoms
        for index in self.kept:
            message = self.messages[index]
            random = message.payload.get("random")
            if isinstance(random, float | int):
                self.drawer.reseed(float(random), index)
            randoms[index] = self.drawer.seeded
            try:
                self.message(index, message)
            except (KeyError, ValueError) as e:  # a payload without its field, a message out of turn
                raise JczRefused(f"message {index} ({message.type}) cannot be followed: {e!r}", index) from e

    def owing(self) -> bool:
        """Whether a set still owes players tiles of its own supply."""
        return any(m.tiles_owed(self) for m in self.mappings)

    def tile_step(self, player: int, kind: DrawKind, after: int) -> None:
        """The player's tile: one a set holds for them next, else a draw."""
        self.current = player
        for _ in range(self.players):  # players owed nothing are skipped on an empty pack
            held = next((t for m in self.mappings if (t := m.held_tile(self, player)) is not None), None)
            if held is not None:
                self.held = held
                self.held_bought = True
                return
            if self.drawer.left > 0:
                self.held = None
                self.owed, self.owed_after = kind, after
                return
            if not self.owing():
                self.held = None  # the pack is empty, and no set owes a tile: the game ends
                return
            player = self.current = (player + 1) % self.players
        raise JczRefused(f"message {after}: tiles are owed but nobody can take one", after)

    def message(self, index: int, message: JczMessage) -> None:
        kind = message.type
        if self.part_ended and kind != "COMMIT":  # the part's closing phase is over
            self._end_part(index)
        elif kind == "PLACE_TILE":
            self.placed(index, message.payload.get("tileId"))
        elif any(m.walk_message(self, index, message) for m in self.mappings):
            pass
        elif kind == "PASS" and self._declines(index):  # the tile itself is declined: discarded
            self._draw_owed(self.owed_after)
            self.tile_step(self.current, "redraw", index)
        elif kind == "COMMIT":
            self.committed(index)

    def following(self, index: int) -> JczMessage | None:
        """The message after `index`, the ones the walk ignores left out."""
        after = self.after_kept[index] if index >= 0 else -1
        return None if after < 0 else self.messages[after]

    def _declines(self, index: int) -> bool:
        """A PASS declining the tile held (one that fits only in a way a set allows), not a pass
        in a phase of JCloisterZone's own: a choice declined (its COMMIT follows) or a set's own
        phase passed."""
        if self.held is None and self.owed is None:
            return False
        following = self.following(index)
        if following is not None and following.type == "COMMIT":
            return False
        kept = any(m.keeps_tile(self, self.messages[index]) for m in self.mappings)
        return not (kept and not self.placed_since_commit and self.held is None)

    def _draw_owed(self, after: int) -> None:
        if self.owed is not None:
            self.held = self.drawer.draw(self.owed, after)
            self.held_bought = False
            self.owed = None

    def placed(self, index: int, tile_id: object) -> None:
        if not isinstance(tile_id, str) or tile_id not in TILES:
            raise JczError(f"message {index} places an unknown tile id {tile_id!r}")
        self.placed_since_commit = True
        tile = TILES[tile_id]
        if any(m.drawn_instead(tile) for m in self.mappings):  # the player's own tile, not a draw
            self.owed = None
            self.held = None
            return
        self._draw_owed(self.before_kept[index])
        while self.held != tile_id:
            # The tile held fitted nowhere: JCZ discarded it silently and drew again, at once for
            # a drawn tile, as the part began for one a set held for the player.
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
        for m in self.mappings:
            m.walk_placed(self, index, tile)

    def committed(self, index: int) -> None:
        if self.placed_since_commit:  # else the COMMIT of a phase of JCloisterZone's own
            self.placed_since_commit = False
            self.part_ended = True
        self._end_part(index)

    def _in_closing_phase(self, index: int) -> bool:
        """Whether message `index`, after a turn part's COMMIT, still belongs to that part: a
        set's phase closing it (a figure moved, with its own COMMIT; neutral steps after
        scoring), or that phase's COMMIT."""
        message = self.messages[index]
        if message.type == "COMMIT":
            return self.before_kept[index] >= 0 and self._in_closing_phase(self.before_kept[index])
        return any(m.closing(self, index, message) for m in self.mappings)

    def _end_part(self, index: int) -> None:
        """End the committed turn part once its closing phases are over (message `index` is the
        last one of them); a closing phase's COMMIT reseeds the generator what follows is drawn
        with. A part the same player plays next comes before what a set holds between turns (a
        supply of tiles), then the next turn."""
        if not self.part_ended:
            return
        following = self.following(index)
        if following is not None and self._in_closing_phase(self.after_kept[index]):
            return
        self.part_ended = False
        if any(m.extra_part(self, index, following) for m in self.mappings):
            return
        if any(m.part_over(self, index) for m in self.mappings):
            return
        self.next_turn(index)

    def next_turn(self, index: int) -> None:
        if self.drawer.left == 0 and not self.owing():
            self.held = None  # the game is over
            return
        # What the draw is named: a turn's, unless a set's phase that closed the part names it.
        kind = next((k for m in self.mappings if (k := m.turn_draw(self, index)) is not None), "turn")
        self.tile_step((self.current + 1) % self.players, kind, index)

    def sender(self, index: int, message: JczMessage) -> int:
        if message.player is None:
            raise JczError(f"message {index} ({message.type}) does not say which player sent it")
        return message.player


def plan_draws(save: JczSave) -> DrawPlan:
    """Every draw JCloisterZone made for this log, and the whole pile in draw order."""
    walk = DrawWalk(save)
    walk.run()
    return walk.plan()
