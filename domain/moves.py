"""What happens next in a state: whose decision it is, and every legal move for it.

The base game's moves are here; the parts of the sets in play add theirs through their hooks
(`placements`, `deployments`, `action_commands`, `pending`, `command_options`).
"""

from __future__ import annotations

from typing import TYPE_CHECKING, NamedTuple

from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.state import UNSET, GameState, Phase, sealed_roots as sealed_roots
from domain.tiles import Kind

if TYPE_CHECKING:
    from domain.errors import RuleViolation
    from domain.features import Feature
    from domain.part import Part, Standing
    from domain.tiles import TileType


class Decision(NamedTuple):
    step: str  # place, action, or a part's step
    player: int


def expected_step(state: GameState) -> Decision | None:
    """The decision the game waits for, or None when the engine moves on by itself."""
    memo = state.memo
    found = memo.get("step", UNSET)
    if found is UNSET:
        found = memo["step"] = _expected_step(state)
    decision: Decision | None = found  # typed after the test: compiled code checks the type
    return decision


def _expected_step(state: GameState) -> Decision | None:
    if state.hooks["chance"] and any(part.chance(state) for part in state.hooks["chance"]):
        return None  # chance decides first
    phase = state.phase
    if phase == Phase.PLACE:
        return Decision("place", state.current)
    if phase == Phase.ACTION or phase == Phase.ACTION_DONE:
        for part in state.hooks["before_action"]:  # a step right after the tile, before all else
            decision = part.before_action(state)
            if decision is not None:
                return decision
    if phase == Phase.ACTION and action_open(state):
        return Decision("action", state.current)
    if phase in (Phase.ACTION, Phase.ACTION_DONE, Phase.INTERLUDE, Phase.START, Phase.PART_OVER):
        for part in state.hooks["pending"]:
            decision = part.pending(state)
            if decision is not None and not (part.yields_to and _yielded(state, part)):
                return decision
    return None


def _yielded(state: GameState, part: Part) -> bool:
    """Whether a part `part` yields to has a decision pending: that one comes first."""
    named = state.tables.named
    return any(name in named and named[name].pending(state) is not None for name in part.yields_to)


def actor(state: GameState) -> int | None:
    decision = expected_step(state)
    return None if decision is None else decision.player


# x, y, rotation, and the command it takes when a part made the placement possible (None: a
# plain PlaceTile).
Placement = tuple[int, int, int, PlaceTile | None]


def placement_options(state: GameState) -> list[Placement]:
    """Every placement of the held tile (R-BASE-3), and those the parts make possible."""
    memo = state.memo
    found: list[Placement] | None = memo.get("placements")
    if found is None:
        found = memo["placements"] = _placement_options(state)
    return found


def _placement_options(state: GameState) -> list[Placement]:
    held = state.tile
    if state.phase != Phase.PLACE or held is None:
        return []
    found: list[Placement] = [(x, y, r, None) for x, y, r in state.board.placements(held)]
    for part in state.hooks["placements"]:
        part.placements(state, held, found)
    for part in state.hooks["may_refuse"]:
        if part.may_refuse(state, held):
            found = [p for p in found if part.refusal(state, held, p[0], p[1], p[2]) is None]
    return found


def placement_refusal(
    state: GameState, held: TileType, x: int, y: int, rotation: int
) -> RuleViolation | None:
    """Why a part forbids putting `held` at (x, y) turned by `rotation`, if one does: the same
    test for a drawn tile (`decide`, the legal placements) and for a tile a part places through a
    step of its own (a tile of the player's hand), which must ask it too."""
    for part in state.hooks["may_refuse"]:
        if part.may_refuse(state, held):
            refused = part.refusal(state, held, x, y, rotation)
            if refused is not None:
                return refused
    return None


def legal_placements(state: GameState) -> list[tuple[int, int, int]]:
    """Every (x, y, rotation) the held tile may take (R-BASE-3, and the parts' own)."""
    held = state.tile
    if (
        held is not None
        and state.phase == Phase.PLACE
        and not state.hooks["placements"]
        and not any(part.may_refuse(state, held) for part in state.hooks["may_refuse"])
    ):
        return state.board.placements(held)  # edge matching alone decides
    return [(x, y, r) for x, y, r, _ in placement_options(state)]


def may_decline(state: GameState) -> bool:
    """The held tile fits only through a part's own placement: the player may decline and discard
    it rather than take that way (the part's rule says so; see its `decisions`)."""
    held = state.tile
    return state.phase == Phase.PLACE and held is not None and not state.board.fits_somewhere(held)


def fits_somewhere(state: GameState) -> bool:
    held = state.tile
    assert held is not None
    if state.board.fits_somewhere(held) and not any(
        p.may_refuse(state, held) for p in state.hooks["may_refuse"]
    ):
        return True
    return bool(placement_options(state))


def figure_owner(state: GameState, figure: str) -> Part | None:
    """The part in play that brings this kind of figure."""
    return state.figure_owners.get(figure)


def legal_deployments(state: GameState, figure: str = "follower") -> list[str]:
    """Locations on the tile just placed (its extra segments included) for a figure (R-BASE-4,
    or the rule of the part that brings the figure)."""
    memo = state.memo
    key = "deploy " + figure
    found: list[str] | None = memo.get(key)
    if found is None:
        found = memo[key] = _legal_deployments(state, figure)
    return found


def _legal_deployments(state: GameState, figure: str) -> list[str]:
    placed = state.placed
    if state.phase != Phase.ACTION or placed is None:
        return []
    owner = None if figure == "follower" else figure_owner(state, figure)
    if figure != "follower" and owner is None:
        return []
    unblockable = owner is not None and owner.unblockable
    if not unblockable and state.hooks["blocks_tile"] and _blocked(state):
        return []
    if owner is not None:
        found = owner.deployments(state, figure)
    elif state.supply[state.current] == 0:
        found = []
    else:
        found = unoccupied_locations(state)
    extra = state.hooks["extra_places"]
    if extra:  # the lists above are shared: a new one with the parts' own places added
        found = [*found, *(place for part in extra for place in part.extra_places(state, figure))]
    return found


def _blocked(state: GameState) -> bool:
    memo = state.memo
    blocked: bool | None = memo.get("blocked")
    if blocked is None:
        placed = state.placed
        blocked = memo["blocked"] = placed is not None and tile_blocked(state, placed.pos)
    return blocked


def tile_blocked(state: GameState, pos: tuple[int, int]) -> bool:
    """Whether no figure may be deployed or moved onto the tile at `pos` now (a part says so)."""
    return any(part.blocks_tile(state, pos) for part in state.hooks["blocks_tile"])


def tile_spanned(state: GameState, pos: tuple[int, int]) -> bool:
    """Whether a part's piece lies across the tile at `pos` (a part says so)."""
    return any(part.spans_tile(state, pos) for part in state.hooks["spans_tile"])


def kept_off(state: GameState, pos: tuple[int, int], mover: Part) -> bool:
    """Whether a part keeps `mover`'s neutral figure off the tile at `pos`."""
    return any(part.keeps_off(state, pos) for part in state.hooks["keeps_off"] if part is not mover)


def sealed_reach(state: GameState, feature: Feature) -> list[tuple[int, int]] | None:
    """The tiles a sealed feature reaches when it scores, as the part that sealed it says."""
    hooks = state.hooks["reach"]
    return next((sorted(r) for part in hooks if (r := part.reach(state, feature)) is not None), None)


def figures_off(state: GameState) -> list[tuple[Part, Standing]]:
    """Figures the parts keep on the board outside the features, each with its part."""
    return [(part, f) for part in state.hooks["figures_off"] for f in part.figures_off(state)]


def unoccupied_locations(state: GameState) -> list[str]:
    """Locations of the tile just placed whose feature holds no follower (R-BASE-4), fields only
    when farmers are played; a set's own kind of feature takes none. Several kinds of follower
    ask alike in one state: the list is computed once, and read, never changed."""
    memo = state.memo
    found: list[str] | None = memo.get("unoccupied")
    if found is None:
        placed = state.placed
        assert placed is not None
        feature = state.board.graph.feature
        skipped = (Kind.OTHER,) if state.rules.farmers else (Kind.OTHER, Kind.FIELD)
        found = memo["unoccupied"] = [
            name
            for name, sid, kind in placed.locations()
            if kind not in skipped and not state.occupied(feature(sid))
        ]
    return found


def own_follower_locations(state: GameState, figure: str, kinds: tuple[Kind, ...]) -> list[str]:
    """Locations of the tile just placed, of these kinds, whose feature holds a follower of the
    current player and none of their `figure`s yet, if that player still has one in supply (a
    figure that goes beside one's own follower; with two of them, as JCloisterZone rules, never
    both on one feature)."""
    placed = state.placed
    me = state.current
    if placed is None or state.ext["figures"][figure][me] == 0:
        return []
    graph = state.board.graph
    found = []
    for name, sid, kind in placed.locations():
        if kind not in kinds:
            continue
        feature = graph.feature(sid)
        if any(p == me for p, _, _ in state.followers(feature)) and not any(
            p == me and k == figure for p, _, k in feature.figures
        ):
            found.append(name)
    return found


def remote_deployments(state: GameState, figure: str) -> list[tuple[int, int, str]]:
    """Other tiles than the one just placed where a part lets this figure go now."""
    if state.phase != Phase.ACTION or state.placed is None:
        return []
    found: list[tuple[int, int, str]] = state.memoized(
        f"remote {figure}",
        lambda: [
            spot
            for part in state.hooks["remote_deployments"]
            for spot in part.remote_deployments(state, figure)
        ],
    )
    return found


def _part_figures(state: GameState) -> tuple[str, ...]:
    return tuple(state.figure_owners)


def action_open(state: GameState) -> bool:
    """Anything left to do before scoring: a deployment or a part's action."""
    return bool(
        legal_deployments(state)
        or any(legal_deployments(state, figure) for figure in _part_figures(state))
        or any(remote_deployments(state, figure) for figure in ("follower", *_part_figures(state)))
        or any(part_actions(state, part) for part in state.hooks["action_commands"])
    )


def part_actions(state: GameState, part: Part) -> list[Command]:
    """`part`'s own action commands now: once a state version, as `action_open`, the legal
    moves and `decide` all ask."""
    found: list[Command] = state.memoized("actions " + part.name, lambda: part.action_commands(state))
    return found


def step_owner(state: GameState, step: str) -> Part:
    return next(part for part in state.parts if step in part.steps)


def closed_step(state: GameState, step: str) -> bool:
    """Whether `step` takes its own answer only: no other part's command (`Part.closed_steps`)."""
    return step not in ("place", "action") and step in step_owner(state, step).closed_steps


def legal_commands(state: GameState) -> list[Command]:
    """Every command the deciding player may give now; empty when nobody is to act.

    Clients (bots, the HTTP service, user interfaces) offer exactly these. A part may list only
    some of an unbounded range of numbers; the rest are legal too.
    """
    decision = expected_step(state)
    if decision is None:
        return []
    step = decision.step
    if step == "place":
        commands: list[Command] = [place_command(p) for p in placement_options(state)]
        for part in state.hooks["step_commands"]:
            commands += part.step_commands(state, step)
        if may_decline(state):
            commands.append(Pass())  # no extra means of placing it, and the tile is discarded
        return commands
    if step == "action":
        found: list[Command] = [Deploy(location=loc) for loc in legal_deployments(state)]
        for figure in _part_figures(state):
            found += [Deploy(location=loc, figure=figure) for loc in legal_deployments(state, figure)]
        for figure in ("follower", *_part_figures(state)):
            found += [
                Deploy(location=loc, figure=figure, x=x, y=y)
                for x, y, loc in remote_deployments(state, figure)
            ]
        for part in state.hooks["action_commands"]:
            found += part_actions(state, part)
        return [*found, Pass()]
    owner = step_owner(state, step)
    options = owner.command_options(state, step)
    if step not in owner.closed_steps:
        for part in state.hooks["step_commands"]:
            options = [*options, *part.step_commands(state, step)]
    return [*options, Pass()] if step in owner.pass_steps else options


def may_pass(state: GameState) -> bool:
    """Whether `Pass` is among `legal_commands(state)`, without listing them."""
    decision = expected_step(state)
    if decision is None:
        return False
    step = decision.step
    if step == "place":
        return may_decline(state)
    return step == "action" or step in step_owner(state, step).pass_steps


def place_command(placement: Placement) -> PlaceTile:
    x, y, rotation, command = placement
    return command if command is not None else PlaceTile(x=x, y=y, rotation=rotation)


def feature_handle(state: GameState, root: int) -> tuple[int, int, str]:
    """A (x, y, location) naming a feature: its first location on the last tile placed among its tiles."""
    board = state.board
    graph = board.graph
    root = graph.find(root)
    placed = board.tiles[max(graph.feature(root).tiles)]  # tile indices grow as tiles are placed
    name = next(name for name, sid, _ in placed.locations() if graph.find(sid) == root)
    return placed.pos[0], placed.pos[1], name


def root_at(state: GameState, x: int, y: int, location: str) -> int:
    """The feature (root segment id) at `location` of the tile at (x, y); -1 if there is none."""
    placed = state.board.at.get((x, y))
    try:
        return -1 if placed is None else state.board.graph.find(placed.segment(location))
    except KeyError:
        return -1
