"""What a set is called and how it is played in JCloisterZone's saves: the protocol of a set's mapping.

Each set of the registry (`domain.sets`) has a mapping module `replays/jcz_sets/<code>.py` whose
`MAPPING` is a `JczSet`: its tile set and setup elements, its figures' names, the setup rules that
select its readings, how its messages become our commands and its commands JCloisterZone's
messages, its score names, and what its rules change in JCloisterZone's draws. The reader, the
writer, the check and the draw walk ask the mappings of the sets in play and name no set
themselves, in the manner of python-chess's variants, each keeping its own names.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

if TYPE_CHECKING:
    from domain import events as ev
    from domain.commands import Command
    from domain.moves import Decision
    from domain.state import GameState
    from domain.tiles import TileType
    from domain.turns import Chance
    from replays.jcz import SaveReader
    from replays.jcz_draws import Draw, DrawWalk, JczPack
    from replays.jcz_export import Writer
    from replays.jcz_format import JczMessage, JczPointer, JczSave

Place = tuple[Any, ...]  # where a figure stands: (x, y, location), ("prison", jailer), …


class Element(NamedTuple):
    """A setup element of JCloisterZone's and what it is to us."""

    part: str | None = None  # the part it switches on: a save that leaves it out plays without
    number: str | None = None  # the switch its value sets: a number of figures
    one: bool = False  # the client writes it as 1, though it is one switch
    written: bool = True  # an export writes it (False: an element of a tile none of our sets has)
    # The client adds it whenever the set's tiles are chosen (its `enforces`): a save that leaves
    # it out plays it all the same.
    enforced: bool = False


class JczSet:
    """One set's mapping; every hook does nothing unless the set needs it."""

    code: ClassVar[str] = ""  # the registry's code
    tile_set: ClassVar[str] = ""  # JCloisterZone's id of its tiles, as `setup.sets` names them
    legacy_name: ClassVar[str] = ""  # its name in 4.x saves, where they name it
    # The edition its client writes after the tile set in `setup.sets` (`basic:1`), if any: some
    # sets' keys carry none.
    edition: ClassVar[str | None] = "1"
    elements: ClassVar[dict[str, Element]] = {}
    figures: ClassVar[dict[str, str]] = {}  # JCloisterZone's figure names (in meeple ids) -> ours
    # A setup rule's (name, value) -> the switches of ours it sets (`domain.readings`).
    rule_switches: ClassVar[dict[tuple[str, Any], dict[str, Any]]] = {}
    reading: ClassVar[dict[str, Any]] = {}  # the switches that play its rules as JCloisterZone does
    score_names: ClassVar[dict[str, str]] = {}  # our award categories -> JCloisterZone's score names
    not_scores: ClassVar[frozenset[str]] = frozenset()  # points it records as no turn part's score
    final_only: ClassVar[frozenset[str]] = frozenset()  # scored only at the end: never ".incomplete"
    # Its decision steps JCloisterZone lists with the tile placements, and the tile placed there.
    placement_steps: ClassVar[dict[str, str]] = {}
    one_per_game: ClassVar[frozenset[str]] = frozenset()  # tags of tiles the pack holds once

    # ---- reading a save
    def unsupported(self, save: JczSave) -> str | None:
        """What of the save this set's rules cannot replay, if anything."""
        return None

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        """Message `index` as our command, if it is this set's (None: not its business)."""
        return None

    def location(self, pointer: JczPointer) -> str | None:
        """Our location for a pointer to a place of this set's that is no segment."""
        return None

    def executed(
        self, reader: SaveReader, index: int, message: JczMessage, seat: int, command: Command
    ) -> None:
        """Message `index` was played as `command` by `seat`: what the set must remember of it."""

    def roll(self, reader: SaveReader, chance: Chance, message: JczMessage | None) -> ev.Event | None:
        """The outcome JCloisterZone drew where one of this set's draws of chance is due (`message`:
        the one being played), if the draw is this set's."""
        return None

    def placement_options(self, state: GameState, step: str) -> list[tuple[int, int, int]]:
        """The placements on offer at one of its `placement_steps`, as JCloisterZone lists them."""
        return []

    # ---- writing a save
    @classmethod
    def set_key(cls) -> str:
        """Its key in a save's `setup.sets`, as the client writes it."""
        return cls.tile_set if cls.edition is None else f"{cls.tile_set}:{cls.edition}"

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        """Send the message(s) of one of its commands (True), against the state before it."""
        return False

    def moved(self, writer: Writer, event: ev.Event) -> None:
        """One of its events moved figures: keep their JCloisterZone ids where they went."""

    def commits(self, event: ev.Event, command: Command | None, step: Decision | None) -> bool:
        """Whether JCloisterZone closes this event with a COMMIT of its own (a phase of its own)."""
        return False

    def chance_draw(self, state: GameState, event: ev.Event) -> Draw | None:
        """If `event` is an outcome of chance of this set's: the int JCloisterZone's generator gives
        for it, against `state` before it, and the bound it is drawn below. The set declares the
        draw only; the writer picks the `random` of the message that seeded the generator, for
        all the draws made after that seed (`Writer.draw`)."""
        return None

    def figure_places(self, state: GameState, found: Counter[tuple[int, str, Place]]) -> None:
        """Add its figures that stand elsewhere than on a feature (a place of its own)."""

    def pointer(self, state: GameState, x: int, y: int, location: str) -> dict[str, Any] | None:
        """JCloisterZone's pointer to one of its places that is no segment, if `location` is one."""
        return None

    def figure_pointer(
        self, writer: Writer, state: GameState, kind: str, x: int, y: int, location: str
    ) -> dict[str, Any] | None:
        """JCloisterZone's pointer to a figure of this set's of `kind` standing at `location` of the
        tile at (x, y), where it names the figure's place otherwise than we do (by a corner
        rather than a segment); None: as any place (`pointer`)."""
        return None

    # ---- the draws (`replays.jcz_draws`)
    # Message types that neither draw nor reseed and may come at any decision (a ransom): the
    # walk reads the log as if they were not there.
    walk_ignores: ClassVar[frozenset[str]] = frozenset()

    def pack_group(self, tile: TileType, save: JczSave) -> str | None:
        """The pack group a tile goes into, if this set gives it one of its own."""
        return None

    def arrange_pack(self, pack: JczPack, save: JczSave) -> None:
        """Which of its groups start closed, and which opens when another empties."""

    def walk_start(self, walk: DrawWalk) -> None:
        """Set up what it follows along the log (in `walk.ext`)."""

    def walk_message(self, walk: DrawWalk, index: int, message: JczMessage) -> bool:
        """Follow a message of its own (True: taken care of, nothing else to do with it)."""
        return False

    def walk_placed(self, walk: DrawWalk, index: int, tile: TileType) -> None:
        """A tile was placed (drawn, or held for the player)."""

    def drawn_instead(self, tile: TileType) -> bool:
        """Whether placing this tile took the place of a draw (a tile of the player's own)."""
        return False

    def closing(self, walk: DrawWalk, index: int, message: JczMessage) -> bool:
        """Whether message `index`, after a turn part's COMMIT, is a phase of this set's that
        still belongs to that part."""
        return False

    def keeps_tile(self, walk: DrawWalk, message: JczMessage) -> bool:
        """Whether a PASS may answer a phase of this set's own, declining no tile."""
        return False

    def turn_draw(self, walk: DrawWalk, index: int) -> str | None:
        """What the oracle's draws name the next turn's tile, drawn while JCloisterZone processes
        message `index`, the last of a phase of this set's that closed the turn part, if not a
        turn's (None)."""
        return None

    def extra_part(self, walk: DrawWalk, index: int, following: JczMessage | None) -> bool:
        """A turn part ended at message `index`: start another part of the same player's if this
        set gives one (True)."""
        return False

    def part_over(self, walk: DrawWalk, index: int) -> bool:
        """A player's turn is over at message `index`: start what this set holds between turns
        (True), instead of the next turn."""
        return False

    def held_tile(self, walk: DrawWalk, player: int) -> str | None:
        """A tile the player holds from this set rather than drawing one (a tile bought)."""
        return None

    def tiles_owed(self, walk: DrawWalk) -> bool:
        """Whether players are still owed tiles of this set's when the pack is empty."""
        return False


def commits_after(
    mappings: tuple[JczSet, ...], event: ev.Event, command: Command | None, step: Decision | None
) -> bool:
    """Whether JCloisterZone closes this event with a COMMIT: a turn part's end, or a phase of a
    set's own (the writer writes one there; the reader knows from it which COMMIT a draw of chance
    made after the event follows)."""
    from domain.events import TurnEnded  # the mappings' protocol imports no domain module at load

    return isinstance(event, TurnEnded) or any(m.commits(event, command, step) for m in mappings)
