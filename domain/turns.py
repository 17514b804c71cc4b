"""The turn sequencer: the events the engine itself records between players' decisions.

`automatic_event` looks at the state and returns the next event nobody decides (a draw, a
discard, the end of a turn part, the next item of the agenda, a part's own step, the end of the
game), or None when a player must act.
"""

from __future__ import annotations

from domain import events as ev
from domain.agenda import Entry
from domain.moves import expected_step, fits_somewhere
from domain.part import Part
from domain.state import GameState, Phase, next_tiles


def automatic_event(state: GameState) -> ev.Event | None:
    phase = state.phase
    gid, version = state.id, state.version + 1
    if phase == Phase.START or phase == Phase.PART_OVER:
        if expected_step(state) is not None:  # a part's decision before what comes next
            return None
        entry = first_live(state)
        if entry is not None:
            return item_owner(state, entry).agenda_event(state, entry)
        if state.pile_left == 0:
            return ev.GameEnded(originator_id=gid, originator_version=version)  # R-BASE-8
        player = (state.turn_player + 1) % len(state.players)
        return ev.TileDrawn(originator_id=gid, originator_version=version, player=player, tile=_top(state))
    if phase == Phase.PLACE:
        assert state.tile is not None
        if not fits_somewhere(state):  # R-BASE-3
            return ev.TileDiscarded(
                originator_id=gid, originator_version=version, player=state.current, tile=state.tile.id
            )
        return None
    if phase == Phase.DISCARDED:
        if state.pile_left == 0:
            return ev.TurnEnded(originator_id=gid, originator_version=version, player=state.current)
        return ev.TileDrawn(
            originator_id=gid, originator_version=version, player=state.current, tile=_top(state)
        )
    if phase == Phase.ACTION or phase == Phase.ACTION_DONE:
        for part in state.hooks["automatic"]:  # a part's own step once the tile lies, before any decision
            event = part.automatic(state)
            if event is not None:
                return event
        if expected_step(state) is not None:
            return None
        return ev.TurnEnded(originator_id=gid, originator_version=version, player=state.current)
    if phase == Phase.INTERLUDE and expected_step(state) is None:
        for part in state.hooks["automatic"]:
            event = part.automatic(state)
            if event is not None:
                return event
    return None


def _top(state: GameState) -> str:
    return next_tiles(state)[0]


def item_owner(state: GameState, entry: Entry) -> Part:
    return next(part for part in state.parts if entry.item in part.items)


def is_live(state: GameState, entry: Entry) -> bool:
    """Whether an agenda item still happens (its part says: tiles must be left for it…)."""
    return item_owner(state, entry).is_live(state, entry)


def queued_part(state: GameState) -> tuple[Part, Entry] | None:
    """The turn part an agenda item opens, when it is what comes next (dead items aside), live or
    not: a part may open it with a tile of its own even when no tile is left for it."""
    for entry in state.agenda:
        owner = item_owner(state, entry)
        if owner.opens_part(entry):
            return owner, entry
        if owner.is_live(state, entry):
            return None
    return None


def first_live(state: GameState) -> Entry | None:
    return next((entry for entry in state.agenda if is_live(state, entry)), None)
