"""Corn Circles (R-CORN-1..10): a tile with a crop circle of a kind (city, road or field) makes,
once its turn part is otherwise over, every player deploy one more follower beside one of theirs
on a feature of that kind, or take one of those followers home, as the tile's player chooses.

The circle is a tile tag, ``corn=city|road|field``. The phase comes after the turn part's scoring,
its wagons' moves and the dragon (the part's decisions at `Phase.PART_OVER` before this one's,
by rank), and before whatever comes next: a builder's second tile, a bazaar, the next turn, or at
the game's end the final scoring. The placer chooses (`corn`); then each player from the placer's
left round to the placer acts once if they can (`corn-deploy`, or `corn-must` under
V-CORN-DEPLOY-MUST; `corn-remove`). JCloisterZone asks for the choice only when some figure is
on the board (JCZ-CORN-ASK).
"""

from __future__ import annotations

from typing import Final, Literal, cast

from domain import events as ev
from domain.board import PlacedTile
from domain.commands import Command
from domain.errors import RuleViolation
from domain.events import Event
from domain.geometry import Pos
from domain.moves import Decision
from domain.part import Part, ext, part_options
from domain.rules import Options, RuleSet
from domain.state import GameState, Phase, deploy, lift_figure, sealed_roots, segment_location, to_supply
from domain.tiles import Kind
from domain.view import NOTHING_SHOWN, Mark, MarkKind, MarkStyle, PartView, Shape

NAME: Final = "corn"
TAG: Final = "corn="  # the tile tag naming its circle's kind: corn=city, corn=road, corn=field
KINDS: Final = {"city": Kind.CITY, "road": Kind.ROAD, "field": Kind.FIELD}
CHOOSE: Final = "corn"  # the placer's choice (R-CORN-2)
DEPLOY: Final = "corn-deploy"  # a player may deploy (R-CORN-5)
MUST: Final = "corn-must"  # V-CORN-DEPLOY-MUST: a player must deploy
REMOVE: Final = "corn-remove"  # a player must take a follower home (R-CORN-6)
Choice = Literal["deploy", "remove"]
CHOICES: Final[tuple[Choice, ...]] = ("deploy", "remove")
# Kinds of follower that stand only on some kinds of feature (R-CORN-5); the others (a plain
# follower, the large one) stand on any.
_WHERE: Final[dict[str, tuple[Kind, ...]]] = {
    "mayor": (Kind.CITY,),
    "wagon": (Kind.ROAD, Kind.CITY, Kind.CLOISTER),
}
# How the text board shows a circle of each kind, at the tile's centre.
_TEXT: Final = {"city": "@", "road": "%", "field": "&"}

Place = tuple[int, int, str]  # x, y, location of a follower
Spot = tuple[int, int, str, str]  # x, y, location, kind of figure


class CornChosen(Event, frozen=True, kw_only=True):
    """The player of a crop-circle tile chooses for everybody: deploy or remove (R-CORN-2)."""

    player: int
    value: Choice


class CornDeployed(Event, frozen=True, kw_only=True):
    """The player puts a `figure` from their supply where one of their followers of the circle's
    kind stands: `location` of the tile at (x, y) (R-CORN-5)."""

    player: int
    x: int
    y: int
    location: str
    figure: str


class CornReturned(Event, frozen=True, kw_only=True):
    """The player takes their `figure` at `location` of the tile at (x, y) home, unscored (R-CORN-6)."""

    player: int
    x: int
    y: int
    location: str
    figure: str


class ChooseCorn(Command, frozen=True, kw_only=True):
    value: Choice


class CornDeploy(Command, frozen=True, kw_only=True):
    x: int
    y: int
    location: str
    figure: str = "follower"


class CornReturn(Command, frozen=True, kw_only=True):
    x: int
    y: int
    location: str
    figure: str = "follower"


class Corn:
    __slots__ = ("choice", "circles", "kind", "waiting")

    def __init__(self) -> None:
        self.circles: dict[Pos, str] = {}  # every crop circle on the board, by its kind's word
        self.kind: Kind | None = None  # the live circle of the tile placed in this turn part
        self.choice: Choice | None = None  # the placer's choice, once made
        self.waiting: list[int] = []  # the players still to act, in order


def corn(state: GameState) -> Corn:
    found: Corn = ext(state, NAME)
    return found


def circle_of(tags: frozenset[str]) -> str | None:
    """The kind of crop circle a tile's tags give it (R-CORN-1): city, road or field."""
    return next((tag[len(TAG) :] for tag in tags if tag.startswith(TAG)), None)


class CornOptions(Options, frozen=True, kw_only=True, forbid_unknown_fields=True):
    """Its switches (`domain.rules.Options`)."""

    corn_ask_when_figures: bool = False
    """JCZ-CORN-ASK: the placer is asked to choose only while some figure (any player's, any
    kind) stands on the board; off, they choose after every live circle (R-CORN-2)."""

    corn_deploy_must: bool = False
    """V-CORN-DEPLOY-MUST: under deploy, a player who can deploy must (the English second edition's
    wording); off, they may pass (R-CORN-5)."""


def _settings(state: GameState) -> CornOptions:
    found: CornOptions = part_options(state, NAME)
    return found


def followers(state: GameState, player: int) -> list[Spot]:
    """The player's followers on a feature of the circle's kind (R-CORN-4): a castle is no city,
    and figures that are no followers (builders, pigs, barns) do not count. Once a state version:
    whose turn it is, the moves and their check ask alike."""
    found: list[Spot] = state.memoized(f"corn followers {player}", lambda: _followers(state, player))
    return found


def _followers(state: GameState, player: int) -> list[Spot]:
    kind = corn(state).kind
    board = state.board
    sealed = sealed_roots(state)  # a castle is no city any more
    found = []
    for feature in board.graph.figured():
        if feature.kind != kind or feature.id in sealed:
            continue
        for owner, sid, figure in state.followers(feature):
            if owner == player:
                found.append((*segment_location(board, sid), figure))
    return sorted(set(found))


def deployable(state: GameState, player: int) -> list[str]:
    """The kinds of follower the player has in supply that may stand on the circle's kind of
    feature (R-CORN-5): a follower, a large one, a wagon on a road or city, a mayor in a city."""
    kind = corn(state).kind
    assert kind is not None
    found = []
    for figure in state.tables.strength:
        held = state.supply[player] if figure == "follower" else state.ext["figures"][figure][player]
        if held > 0 and kind in _WHERE.get(figure, (kind,)):
            found.append(figure)
    return found


def targets(state: GameState, player: int) -> list[Place]:
    """Where the player may deploy: where one of their followers of the circle's kind stands."""
    return sorted({(x, y, location) for x, y, location, _ in followers(state, player)})


def _acts(state: GameState, player: int) -> bool:
    """Whether the player is asked (R-CORN-7): a follower of the circle's kind on the board, and
    under deploy a figure that may go beside it."""
    if not followers(state, player):
        return False
    return corn(state).choice == "remove" or bool(deployable(state, player))


def _next(state: GameState) -> tuple[int, int] | None:
    """(index in the queue, player) of the next player to act, those who cannot skipped."""
    found: tuple[int, int] | None = state.memoized(
        "corn next",
        lambda: next(((i, p) for i, p in enumerate(corn(state).waiting) if _acts(state, p)), None),
    )
    return found


def _done(state: GameState) -> None:
    """The player asked acted: they, and those skipped before them, are done."""
    found = _next(state)
    assert found is not None
    del corn(state).waiting[: found[0] + 1]


def _anything_on_board(state: GameState) -> bool:
    """Some figure of some player stands on the board: on a feature, or at a part's own place
    (a tower's top)."""
    if state.board.graph.figured():
        return True
    return any(part.figures_off(state) for part in state.hooks["figures_off"])


class CornPart(Part):
    name = NAME
    rank = 175  # after the wagons' moves (160), before the abbey offered for the next part (190)
    options = CornOptions
    switches = {"JCZ-CORN-ASK": "corn_ask_when_figures", "V-CORN-DEPLOY-MUST": "corn_deploy_must"}
    events = (CornChosen, CornDeployed, CornReturned)
    commands = (ChooseCorn, CornDeploy, CornReturn)
    steps = {CHOOSE: "R-CORN-2", DEPLOY: "R-CORN-5", MUST: "V-CORN-DEPLOY-MUST", REMOVE: "R-CORN-6"}
    step_names = {
        CHOOSE: "the crop circle's choice, deploy or remove",
        DEPLOY: "a follower deployed beside one of yours on the crop circle's kind of feature, or a pass",
        MUST: "a follower deployed beside one of yours on the crop circle's kind of feature",
        REMOVE: "one of your followers on the crop circle's kind of feature taken home",
    }
    pass_steps = {DEPLOY: DEPLOY}
    command_steps = {
        ChooseCorn: ((CHOOSE,), "R-CORN-2"),
        CornDeploy: ((DEPLOY, MUST), "R-CORN-5"),
        CornReturn: ((REMOVE,), "R-CORN-6"),
    }
    command_names = {
        ChooseCorn: "choose deploy or remove",
        CornDeploy: "deploy beside a follower",
        CornReturn: "take a follower home",
    }
    rules_of = {CornChosen: "R-CORN-2", CornDeployed: "R-CORN-5", CornReturned: "R-CORN-6"}
    decisions = {
        CornChosen: (lambda e: (e.player, ChooseCorn(value=e.value)), "R-CORN-2"),
        CornDeployed: (
            lambda e: (e.player, CornDeploy(x=e.x, y=e.y, location=e.location, figure=e.figure)),
            "R-CORN-5",
        ),
        CornReturned: (
            lambda e: (e.player, CornReturn(x=e.x, y=e.y, location=e.location, figure=e.figure)),
            "R-CORN-6",
        ),
    }
    mark_styles = {
        "corn": MarkStyle(
            shape=Shape(tag="circle", r=9, fill="#c9a227", stroke="#6b5310", stroke_width=1.5), at=(0.5, 0.5)
        )
    }

    def start(self, state: GameState, event: ev.GameStarted) -> None:
        state.ext[NAME] = Corn()

    def view(self, state: GameState) -> PartView:
        """Each crop circle a disc at its tile's centre, labelled with its kind's initial (C, R,
        F; ``@`` for a city's, ``%`` a road's, ``&`` a field's on the text board)."""
        circles = corn(state).circles
        if not circles:
            return NOTHING_SHOWN
        return PartView(
            marks=tuple(
                Mark(kind=MarkKind.DISC, style="corn", x=x, y=y, label=word[0].upper(), text=_TEXT[word])
                for (x, y), word in sorted(circles.items())
            )
        )

    def begin_part(self, state: GameState) -> None:
        own = corn(state)
        own.kind = None
        own.choice = None
        own.waiting = []

    def tile_placed(self, state: GameState, placed: PlacedTile) -> None:
        """A crop circle is live, but a field's in a game without farmers (R-CORN-10)."""
        word = circle_of(placed.tile.tags)
        if word is None:
            return
        own = corn(state)
        own.circles[placed.pos] = word
        if word != "field" or state.rules.farmers:
            own.kind = KINDS[word]

    def pending(self, state: GameState) -> Decision | None:
        own = corn(state)
        if state.phase != Phase.PART_OVER or own.kind is None:
            return None
        if own.choice is None:
            if _settings(state).corn_ask_when_figures and not _anything_on_board(state):
                return None  # JCZ-CORN-ASK
            return Decision(CHOOSE, state.current)
        found = _next(state)
        if found is None:
            return None
        if own.choice == "remove":
            return Decision(REMOVE, found[1])
        return Decision(MUST if _settings(state).corn_deploy_must else DEPLOY, found[1])

    def command_options(self, state: GameState, step: str) -> list[Command]:
        decision = self.pending(state)
        assert decision is not None
        player = decision.player
        if step == CHOOSE:
            return [ChooseCorn(value=value) for value in CHOICES]
        if step == REMOVE:
            return [
                CornReturn(x=x, y=y, location=loc, figure=fig) for x, y, loc, fig in followers(state, player)
            ]
        return [
            CornDeploy(x=x, y=y, location=loc, figure=figure)
            for x, y, loc in targets(state, player)
            for figure in deployable(state, player)
        ]

    def rule_of(self, event: Event, rules: RuleSet) -> str:
        if isinstance(event, CornDeployed) and cast(CornOptions, self.options_of(rules)).corn_deploy_must:
            return "V-CORN-DEPLOY-MUST"
        return self.rules_of[type(event)]

    def decide(self, state: GameState, player: int, command: Command, step: str) -> list[Event]:
        version = state.version + 1
        if isinstance(command, ChooseCorn):
            if command.value not in CHOICES:
                raise RuleViolation("R-CORN-2", f"the choice is deploy or remove, not {command.value!r}")
            return [
                CornChosen(
                    originator_id=state.id, originator_version=version, player=player, value=command.value
                )
            ]
        if isinstance(command, CornDeploy):
            where = (command.x, command.y, command.location)
            if where not in targets(state, player):
                raise RuleViolation(
                    "R-CORN-5",
                    f"no follower of yours stands on {command.location} of {(command.x, command.y)} in a "
                    "feature of the crop circle's kind: deploy only where one of yours stands",
                )
            if command.figure not in deployable(state, player):
                raise RuleViolation(
                    "R-CORN-5",
                    f"no {command.figure} of yours may be deployed here: the crop circle deploys a follower "
                    "from your supply (a wagon on a road or city, a mayor in a city)",
                )
            return [
                CornDeployed(
                    originator_id=state.id,
                    originator_version=version,
                    player=player,
                    x=command.x,
                    y=command.y,
                    location=command.location,
                    figure=command.figure,
                )
            ]
        assert isinstance(command, CornReturn)
        spot = (command.x, command.y, command.location, command.figure)
        if spot not in followers(state, player):
            raise RuleViolation(
                "R-CORN-6",
                f"no {command.figure} of yours stands on {command.location} of {(command.x, command.y)} in a "
                "feature of the crop circle's kind",
            )
        return [
            CornReturned(
                originator_id=state.id,
                originator_version=version,
                player=player,
                x=command.x,
                y=command.y,
                location=command.location,
                figure=command.figure,
            )
        ]

    def passed(self, state: GameState, step: str) -> None:
        _done(state)

    def apply(self, state: GameState, event: Event) -> None:
        own = corn(state)
        if isinstance(event, CornChosen):
            n = len(state.players)
            own.choice = event.value
            own.waiting = [(state.current + k) % n for k in range(1, n + 1)]  # R-CORN-3
            return
        _done(state)
        if isinstance(event, CornDeployed):
            sid = state.board.at[(event.x, event.y)].segment(event.location)
            deploy(state, event.player, sid, event.figure)
            return
        assert isinstance(event, CornReturned)
        lift_figure(state, event.x, event.y, event.location, event.player, event.figure)  # R-CORN-8
        to_supply(state, event.player, event.figure)


PART = CornPart()
PARTS = (PART,)
