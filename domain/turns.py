"""The turn sequencer: the events the engine itself records between players' decisions.

`automatic_event` looks at the state and returns the next event nobody decides (a draw, a
discard, the end of a turn or of the game), or None when a player must act.
"""

from __future__ import annotations

from domain import events as ev
from domain.moves import legal_deployments
from domain.state import GameState, Phase


def automatic_event(state: GameState) -> ev.Event | None:
    phase = state.phase
    gid, version = state.id, state.version + 1
    if phase == Phase.START or phase == Phase.TURN_OVER:
        if state.pile_left == 0:
            return ev.GameEnded(originator_id=gid, originator_version=version)  # R-BASE-8
        player = 0 if phase == Phase.START else (state.current + 1) % len(state.players)
        return ev.TileDrawn(
            originator_id=gid,
            originator_version=version,
            player=player,
            tile=state.draw_order[state.next_draw],
        )
    if phase == Phase.PLACE:
        assert state.tile is not None
        if not state.board.fits_somewhere(state.tile):  # R-BASE-3
            return ev.TileDiscarded(
                originator_id=gid, originator_version=version, player=state.current, tile=state.tile.id
            )
        return None
    if phase == Phase.DISCARDED:
        if state.pile_left == 0:
            return ev.TurnEnded(originator_id=gid, originator_version=version, player=state.current)
        return ev.TileDrawn(
            originator_id=gid,
            originator_version=version,
            player=state.current,
            tile=state.draw_order[state.next_draw],
        )
    if phase == Phase.ACTION:
        if legal_deployments(state):
            return None
        return ev.TurnEnded(originator_id=gid, originator_version=version, player=state.current)
    if phase == Phase.ACTION_DONE:
        return ev.TurnEnded(originator_id=gid, originator_version=version, player=state.current)
    return None
