"""The hooks through which a set's parts plug into the core.

A part (one set, or one separable piece of a set) is a `Part` subclass in `domain/expansions/`:
it owns its events, commands, figures, agenda items, decision steps and its slice of the game
state (`state.ext[part.name]`), and overrides only the hooks where it changes something; every
hook defaults to "no change". The core calls the hooks of a game's parts in the registry's
fixed order (`domain.expansions.PARTS`), at these points:

* the fold (`state.evolve`): `start`, `begin_turn`, `begin_part`, `tile_as` (how a tile taken
  into hand is played), `tile_placed`, `apply` (its own events), `passed` (a pass at one of its
  steps), the part's scoring (`before_scoring`, `scored_elsewhere`, `feature_scored`,
  `after_scoring`), `tie_break` (who of the players tied for a majority wins), `plan` (what
  comes after the part), `final_feature` and `final_scoring` at the game's end,
  `followers_left` when followers leave a feature, `freed` when another part's rule sends them
  home unscored in the scoring, `award` and `farm_border` to change what a
  feature is worth to a player, `category` to name what it scores as, `figures_off` and
  `take_off` for figures it keeps on the board off the features;
* legal moves (`moves`): `placements` (more ways to place a tile), `may_refuse` and `refusal`
  (placements a part forbids, wherever a tile is placed: `moves.placement_refusal`),
  `action_commands` (more things to do after placing), `before_action` (a decision as soon as
  the tile lies, before the action step), `pending` (a decision the part waits for),
  `places_from_afar` and `put_from_afar` (a figure brought from another tile than the one just
  placed: a part's own places it may take), `extra_places` (a place of its own on the tile just
  placed that another kind of figure may take);
* the sequencer (`turns`): `automatic` (an event the part records by itself), `is_live` and
  `agenda_event` for its agenda items;
* commands (`decide`): `decide` for the commands it owns;
* the board's views (`projections/`): `view`, what the board shows of the part now, drawn with its
  `mark_styles`; its figures' looks (`FigureKind.look`) and `flag_styles` are data (`domain.view`).
"""

from __future__ import annotations

import functools
from collections.abc import Callable, Collection
from typing import TYPE_CHECKING, Any, ClassVar, NamedTuple

import msgspec
from mypy_extensions import mypyc_attr

from domain.view import FOLLOWER_LOOK, NOTHING_SHOWN, FigureLook, FlagStyle, MarkStyle, PartView

if TYPE_CHECKING:
    from domain.agenda import Entry
    from domain.board import PlacedTile
    from domain.commands import Command, PlaceTile
    from domain.errors import RuleViolation
    from domain.events import Event, GameStarted, TilePlaced
    from domain.features import Feature
    from domain.moves import Decision, Placement
    from domain.rules import Options, RuleSet
    from domain.scoring import Parts
    from domain.state import GameState
    from domain.tiles import TileType


Pos = tuple[int, int]
Standing = tuple[int, int, str, int, str]  # a figure on the board: x, y, location, owner, kind


class FigureKind(NamedTuple):
    """A kind of figure a part brings: whether it is a follower (it occupies a feature and counts
    for the majority, R-BASE-4, R-BASE-6), its strength in a majority, and how it is drawn."""

    follower: bool
    strength: int | Callable[[Feature], int] = 1
    rule: str = "R-BASE-4"  # the rule that lets it be deployed
    occupies: bool = False  # no follower, but it keeps followers off its feature
    look: FigureLook = FOLLOWER_LOOK
    # A follower that may stand wherever the follower may, where others have places of their own
    # (only cities, only roads): a part offering a place of its own to followers offers it to these.
    plain: bool = False
    # It leaves its feature by its own part's rules alone, never with the followers another part
    # sends home from it.
    stays: bool = False


# Compiled with the core (Makefile, COMPILED), while the sets' parts stay plain Python: their
# modules define msgspec structs, which mypyc does not build faithfully.
@mypyc_attr(allow_interpreted_subclasses=True)
class Part:
    name: ClassVar[str] = ""
    rank: ClassVar[int] = 0  # where its hooks run among the parts in play: lowest first
    events: ClassVar[tuple[type[Event], ...]] = ()
    commands: ClassVar[tuple[type[Command], ...]] = ()
    figures: ClassVar[dict[str, FigureKind]] = {}
    flag_styles: ClassVar[dict[str, FlagStyle]] = {}  # how its tiles' segment flags look, by word
    mark_styles: ClassVar[dict[str, MarkStyle]] = {}  # how the marks `view` gives look, by style
    unblockable: ClassVar[bool] = False  # its figures go where another part blocks deployments
    items: ClassVar[tuple[str, ...]] = ()  # agenda items this part turns into events
    steps: ClassVar[dict[str, str]] = {}  # decision steps it asks for -> the rule behind each
    pass_steps: ClassVar[dict[str, str]] = {}  # decision step -> the `Passed.step` recorded
    rules_of: ClassVar[dict[type[Event], str]] = {}  # the rule behind each of its events
    engine_rules: ClassVar[dict[type[Event], str]] = {}  # its events the engine records itself
    # Its commands: the decision steps each answers and the rule cited when it comes out of turn,
    # and how an error message names it.
    command_steps: ClassVar[dict[type[Command], tuple[tuple[str, ...], str]]] = {}
    command_names: ClassVar[dict[type[Command], str]] = {}
    step_names: ClassVar[dict[str, str]] = {}  # its decision steps as error messages name them
    options: ClassVar[type[Options] | None] = None  # its switches, if it has any
    # Its yes/no switches by the id of the reading they stand for (V-…, JCZ-…): the audit flips them.
    switches: ClassVar[dict[str, str]] = {}
    # Readings that are one value of a switch with several (V-…): id -> (switch, its value).
    choices: ClassVar[dict[str, tuple[str, Any]]] = {}
    # Its events that open a turn part, and what that part is called (`carc explain`).
    part_starts: ClassVar[dict[type[Event], str]] = {}
    # Decision steps of its own that belong to the turn's action: what may be done in the action
    # step may be done there too (a ransom while a knight is owed).
    action_steps: ClassVar[tuple[str, ...]] = ()
    # Its decision steps that take their own answer and nothing else: no other part's command
    # (`step_commands`, `answers_any_step`) is given there.
    closed_steps: ClassVar[tuple[str, ...]] = ()
    # Parts (by name) whose pending decision, when they have one, comes before this part's.
    yields_to: ClassVar[tuple[str, ...]] = ()
    # Its events that are a player's decision: how each becomes its command again (replays), and
    # the rule cited when the event `decide` gives differs from the recorded one.
    decisions: ClassVar[dict[type[Event], tuple[Callable[[Any], tuple[int, Command]], str]]] = {}

    # ---- its switches
    def options_of(self, rules: RuleSet) -> Options:
        """Its switches as `rules` sets them (checked: msgspec.ValidationError if out of bounds)."""
        assert self.options is not None
        return msgspec.convert(rules.options.get(self.name, {}), self.options)

    def readings(self, options: Options) -> dict[str, Options]:
        """Every other reading of its switches a game can be audited under, by name: each yes/no
        switch flipped (`ID=on` / `ID=off`); a part adds readings of its other switches."""
        found: dict[str, Options] = {}
        for name, field in self.switches.items():
            flipped = not getattr(options, field)
            reading = msgspec.structs.replace(options, **{field: flipped})
            found[f"{name}={'on' if flipped else 'off'}"] = reading
        return found

    def played_under(self, options: Options) -> str | None:
        """The reading of its rules a game with these switches is played under, named as the
        audit names the others, when one always applies (one of several orderings)."""
        return None

    # ---- the fold
    def start(self, state: GameState, event: GameStarted) -> None:
        """The game starts: set up `state.ext[self.name]`."""

    def begin_turn(self, state: GameState) -> None:
        """A normal turn starts (a tile drawn for a new turn)."""

    def begin_part(self, state: GameState) -> None:
        """A turn part starts: the current player holds a tile."""

    def tile_as(self, state: GameState, tile: TileType) -> TileType:
        """The tile type a tile is played as while this part is in play (`tile` as the catalogue,
        or a part before this one, has it): the same, or a version of it with its segments or
        their open ends drawn otherwise. Asked as a tile comes into a player's hand."""
        return tile

    def tile_placed(self, state: GameState, placed: PlacedTile) -> None:
        """The held tile lies on the board now."""

    def extended(self, state: GameState, sids: list[int]) -> None:
        """The current player's tile (or a piece laid on it) added these segments to the board."""

    def apply(self, state: GameState, event: Event) -> None:
        """One of this part's own events."""

    def passed(self, state: GameState, step: str) -> None:
        """The player passed at one of this part's decision steps."""

    def completions(self, state: GameState, found: list[Feature]) -> None:
        """Add features this part's pieces completed in the current turn part."""

    def before_scoring(self, state: GameState) -> None:
        """The turn part is about to score its completions."""

    def scored_elsewhere(self, state: GameState, feature: Feature) -> bool:
        """True if this part takes care of a completed feature instead of the base scoring."""
        return False

    def feature_scored(self, state: GameState, feature: Feature) -> None:
        """A completed feature scored (before its followers went home)."""

    def after_scoring(self, state: GameState, version: int) -> None:
        """The turn part's completions scored."""

    def plan(self, state: GameState, planned: list[Entry]) -> None:
        """Add the agenda items that follow the turn part just scored to `planned` (what the parts
        before this one planned): where among them is the part's business."""

    def final_feature(self, state: GameState, feature: Feature, version: int) -> bool:
        """True if this part scored a feature at the game's end instead of the base rules."""
        return False

    def final_scoring(self, state: GameState, version: int) -> None:
        """Awards of this part at the game's end, after every feature."""

    def followers_left(self, state: GameState, feature: Feature) -> None:
        """Followers left the feature (scored, or moved): the part's figures there may go too."""

    def freed(self, state: GameState, feature: Feature) -> None:
        """Another part's rule is about to send the feature's followers home unscored, in the turn
        part's scoring, as if it had scored (`domain.state.freed`): a figure of this part that
        moves on from a scored feature may move on from this one too."""

    def category(self, state: GameState, feature: Feature) -> str | None:
        """The award category the feature scores under, if this part names it (a kind of cloister
        of its own); None leaves it to the next part, and at last to the core (`road`, `city`,
        `cloister`, `farm`)."""
        return None

    def award(
        self, state: GameState, feature: Feature, player: int, value: int, parts: Parts, rule: str
    ) -> tuple[int, Parts, str]:
        """What a scored feature is worth to one of its scorers."""
        return value, parts, rule

    def tie_break(self, state: GameState, feature: Feature, players: list[int]) -> list[int]:
        """Of the players tied for a feature's majority (R-BASE-6), those who win the tie: all of
        them, unless this part breaks ties."""
        return players

    def value(
        self, state: GameState, feature: Feature, completed: bool, value: int, parts: Parts
    ) -> tuple[int, Parts]:
        """What a road, city or cloister is worth, completed or at the game's end."""
        return value, parts

    def farm_border(self, state: GameState, feature: Feature) -> tuple[str, int] | None:
        """How a feature bordering a farm counts for it at the end, if this part decides:
        (the name it is counted under, its value)."""
        return None

    def turn_points(self, state: GameState, player: int) -> int:
        """Points this part gives `player` as a turn of theirs opens (before anything is asked)."""
        return 0

    def asks_before_turn(self, state: GameState, step: str) -> bool:
        """Whether this part's decision step `step`, asked now, is asked before a turn begins (so
        it counts as part of the turn to come)."""
        return False

    def opens_part(self, entry: Entry) -> bool:
        """Whether this agenda item of the part starts a turn part of the same player (another
        part may start it with another tile: `begin_queued`)."""
        return False

    def begin_queued(self, state: GameState, entry: Entry, tile_id: str, from_pile: bool) -> None:
        """The turn part `entry` opens starts with `tile_id` (the pile's, or another part's)."""
        raise NotImplementedError(entry.item)

    # ---- setting up
    def start_tile(self) -> str | None:
        """The tile this part starts the game with instead of the base game's (R-BASE-2)."""
        return None

    def held_back(self, state: GameState, tile: str) -> bool:
        """Whether `tile` may not be drawn now: it keeps its place in the pile and the draw takes
        the next tile instead."""
        return False

    def arrange(self, pile: list[str]) -> None:
        """Reorder a shuffled pile as this part's rules want it (some tiles first, some last)."""

    # ---- legal moves

    def placements(self, state: GameState, held: TileType, found: list[Placement]) -> None:
        """Add placements this part makes possible."""

    def may_refuse(self, state: GameState, held: TileType) -> bool:
        """Whether `refusal` may refuse some placement of this tile (asked once per tile)."""
        return False

    def refusal(
        self, state: GameState, held: TileType, x: int, y: int, rotation: int
    ) -> RuleViolation | None:
        """Why this part forbids a placement the edges allow, if it does."""
        return None

    def place(
        self, state: GameState, player: int, command: PlaceTile, placed: TilePlaced, fits: bool
    ) -> list[Event] | None:
        """The events of a placement this part makes legal (or refuses); None if not its business."""
        return None

    def remote_deployments(self, state: GameState, figure: str) -> list[tuple[int, int, str]]:
        """(x, y, location) on other tiles than the one just placed where this figure may go."""
        return []

    def blocks_tile(self, state: GameState, pos: Pos) -> bool:
        """Whether no figure may be deployed or moved onto the tile at `pos` now (a neutral figure
        of this part's stands there)."""
        return False

    def holds_tile(self, state: GameState, pos: Pos) -> bool:
        """Whether no part may lay a piece of its own across the placed tile at `pos` now (a
        figure of this part stands on the tile where that piece would pass)."""
        return False

    def spans_tile(self, state: GameState, pos: Pos) -> bool:
        """Whether a piece of this part's lies across the tile at `pos`, over its features."""
        return False

    def keeps_off(self, state: GameState, pos: Pos) -> bool:
        """Whether another part's neutral figure may not step onto the tile at `pos`."""
        return False

    def sealed(self, state: GameState) -> Collection[int]:
        """Feature roots this part seals: no other part's figure joins them, leaves them or is
        taken from them (its followers there have become something else)."""
        return ()

    def reach(self, state: GameState, feature: Feature) -> Collection[Pos] | None:
        """The tiles a feature this part has sealed reaches when it scores (an area of its own), if
        this part's: None leaves it to the others."""
        return None

    def figures_off(self, state: GameState) -> list[Standing]:
        """Figures this part keeps on the board outside the features: (x, y, location, owner, kind)."""
        return []

    def take_off(self, state: GameState, x: int, y: int, location: str) -> None:
        """One of its `figures_off` leaves the board (whoever takes it off returns it)."""

    def places_from_afar(self, state: GameState, figure: str, pos: Pos) -> list[str]:
        """Places of this part's own that are no segment (on a piece it built), on the tile at `pos`,
        where a figure brought from another tile may go now."""
        return []

    def put_from_afar(self, state: GameState, player: int, pos: Pos, location: str, figure: str) -> bool:
        """A figure from `player`'s supply goes on `location` of the tile at `pos`, brought from
        another tile: True if that is a place of this part's own (`places_from_afar`)."""
        return False

    def deployments(self, state: GameState, figure: str) -> list[str]:
        """Locations on the tile just placed where one of this part's figures may go now."""
        return []

    def extra_places(self, state: GameState, figure: str) -> list[str]:
        """Places of this part's own on the tile just placed (segments of a kind of its own) where a
        figure of `figure`'s kind, the core's follower among them, may go now beyond what that
        figure's own rules offer."""
        return []

    def why_not(self, state: GameState, figure: str, location: str) -> str:
        """Why one of this part's figures may not go on `location` (a location of the tile)."""
        return f"no {figure} may go on {location}"

    def check_early(self, state: GameState, player: int, command: Command, step: str) -> None:
        """A chance to name a more precise rule for a command given at the wrong step."""

    def answers_any_step(self, state: GameState, command: Command) -> bool:
        """Whether `command` may answer whatever its player is asked now, not only the steps its
        `command_steps` name (a reading of the rules may allow that)."""
        return False

    def command_options(self, state: GameState, step: str) -> list[Command]:
        """Every command that answers this part's decision step now (a pass is added by the core)."""
        return []

    def rule_of(self, event: Event, rules: RuleSet) -> str:
        """The rule (or variant) that makes one of its events happen where it does."""
        return self.rules_of[type(event)]

    def action_commands(self, state: GameState) -> list[Command]:
        """Commands the current player may give after placing, beyond deploying a follower."""
        return []

    def step_commands(self, state: GameState, step: str) -> list[Command]:
        """This part's commands that another part's decision step (`step`) also takes now."""
        return []

    def pending(self, state: GameState) -> Decision | None:
        """A decision this part waits for now, if any."""
        return None

    def before_action(self, state: GameState) -> Decision | None:
        """A decision this part asks for as soon as the tile lies, before the action step and
        before any other part's decision (`pending`), if any."""
        return None

    # ---- the sequencer
    def chance(self, state: GameState) -> tuple[Event, ...]:
        """A draw of chance the part makes now (a die, a token from a bag): the events it may record,
        each as likely as the others; empty when none is due. Nobody decides while one is due."""
        return ()

    def automatic(self, state: GameState) -> Event | None:
        """An event this part records by itself now, if any: between turn parts (`INTERLUDE`) once
        nobody is asked anything; once a tile lies (`ACTION`, `ACTION_DONE`) and once a turn part
        has scored (`PART_OVER`), before anybody is asked."""
        return None

    def is_live(self, state: GameState, entry: Entry) -> bool:
        return True

    def agenda_event(self, state: GameState, entry: Entry) -> Event:
        raise NotImplementedError(entry.item)

    # ---- commands
    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        raise NotImplementedError(type(command).__name__)

    # ---- the board's views
    def view(self, state: GameState) -> PartView:
        """What the board shows of this part now, beyond its figures in features."""
        return NOTHING_SHOWN


# The hooks the core calls on every part in play.
HOOKS: tuple[str, ...] = tuple(
    name for name, value in vars(Part).items() if callable(value) and not name.startswith("_")
)


class PartTables:
    """What the core looks up about the parts of a game: computed once per combination of parts
    and shared by its games (never changed), so the registry fills no table of the core's."""

    __slots__ = ("events", "figures", "hooks", "named", "occupiers", "plain", "staying", "steps", "strength")

    def __init__(self, parts: tuple[Part, ...]) -> None:
        # For each hook, the parts (in their order) that override it. A hook left alone means "no
        # change", so the core skips those parts: with every set in play most parts override few
        # hooks, and the calls saved are on every turn's path.
        self.hooks: dict[str, tuple[Part, ...]] = {
            name: tuple(part for part in parts if getattr(type(part), name) is not getattr(Part, name))
            for name in HOOKS
        }
        self.named: dict[str, Part] = {part.name: part for part in parts}
        self.events: dict[type[Event], Part] = {t: part for part in parts for t in part.events}
        self.steps: dict[str, Part] = {step: part for part in parts for step in part.pass_steps.values()}
        self.figures: dict[str, Part] = {figure: part for part in parts for figure in part.figures}
        # The strength of each kind of follower in a majority (R-BASE-6), a number or a function of
        # the feature; kinds of figure not listed are no followers: they neither occupy nor count.
        strength: dict[str, int | Callable[[Feature], int]] = {"follower": 1}
        for part in parts:
            strength.update((figure, kind.strength) for figure, kind in part.figures.items() if kind.follower)
        self.strength = strength
        # The follower first, then the parts' plain followers: in the order parts are ranked.
        self.plain: tuple[str, ...] = (
            "follower",
            *(figure for part in parts for figure, kind in part.figures.items() if kind.plain),
        )
        self.staying: frozenset[str] = frozenset(
            figure for part in parts for figure, kind in part.figures.items() if kind.stays
        )
        # Kinds of figure that are no followers but keep followers off their feature.
        self.occupiers: frozenset[str] = frozenset(
            figure for part in parts for figure, kind in part.figures.items() if kind.occupies
        )


@functools.cache  # one table per combination of parts, shared by its games: never changed
def part_tables(parts: tuple[Part, ...]) -> PartTables:
    return PartTables(parts)


def ext(state: GameState, name: str) -> Any:
    """A part's slice of the state."""
    return state.ext[name]


def part_options(state: GameState, name: str) -> Any:
    """A part's switches in this game (`Part.options`, read once as the game starts)."""
    return state.options[name]
