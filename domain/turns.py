"""The turn sequencer: the events the engine itself records between players' decisions.

`automatic_event` looks at the state and returns the next event nobody decides (a draw, a
discard, the end of a turn part, the next item of the agenda, a forced auction step, the end of
the game), or None when a player must act.
"""

from __future__ import annotations

from domain import events as ev
from domain.agenda import Entry, Item
from domain.bazaars import Step as AuctionStep
from domain.moves import expected_step, fits_somewhere
from domain.state import GameState, Phase


def automatic_event(state: GameState) -> ev.Event | None:
    phase = state.phase
    gid, version = state.id, state.version + 1
    if phase == Phase.START or phase == Phase.PART_OVER:
        entry = first_live(state)
        if entry is not None:
            return agenda_event(state, entry)
        if state.pile_left == 0:
            return ev.GameEnded(originator_id=gid, originator_version=version)  # R-BASE-8, R-BAZAAR-7a
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
        if expected_step(state) is not None:
            return None
        return ev.TurnEnded(originator_id=gid, originator_version=version, player=state.current)
    if phase == Phase.AUCTION:
        auction = state.auction
        assert auction is not None
        if expected_step(state) is not None:
            return None
        if auction.step == AuctionStep.CHOOSE:  # one player, one tile left (R-BAZAAR-6)
            return ev.BazaarTileAssigned(
                originator_id=gid,
                originator_version=version,
                player=auction.without_tile(auction.chooser)[0],
                index=auction.remaining()[0],
            )
        # The chooser's own opening bid stood: paid to nobody (R-BAZAAR-5).
        return ev.TileBought(
            originator_id=gid,
            originator_version=version,
            player=auction.chooser,
            price=auction.high,
            payee=None,
        )
    return None


def _top(state: GameState) -> str:
    return state.draw_order[state.next_draw]


def _top_n(state: GameState) -> tuple[str, ...]:
    return state.draw_order[state.next_draw : state.next_draw + len(state.players)]


def is_live(state: GameState, entry: Entry) -> bool:
    """Whether an agenda item still happens: tiles must be left for it (R-TB-3a, R-BAZAAR-3)."""
    item = entry.item
    if item == Item.BUILDER:
        return state.pile_left > 0
    if item == Item.AUCTION or item == Item.FACEDOWN:
        return state.pile_left >= len(state.players)
    if item == Item.REVEAL:
        return state.auction is not None and state.auction.hidden
    if item == Item.ROUND_END:
        return bool(state.deferred) and state.pile_left >= len(state.players)
    if item == Item.TILE:
        return entry.player in state.won_tiles
    return True


def first_live(state: GameState) -> Entry | None:
    return next((entry for entry in state.agenda if is_live(state, entry)), None)


def agenda_event(state: GameState, entry: Entry) -> ev.Event:
    gid, version, p = state.id, state.version + 1, entry.player
    item = entry.item
    if item == Item.GRANT:
        return ev.BuilderTurnGranted(originator_id=gid, originator_version=version, player=p)
    if item == Item.BUILDER:
        return ev.BuilderTurnTaken(originator_id=gid, originator_version=version, player=p, tile=_top(state))
    if item == Item.AUCTION:
        return ev.BazaarOpened(originator_id=gid, originator_version=version, host=p, tiles=_top_n(state))
    if item == Item.FACEDOWN:
        return ev.BazaarTilesTakenFaceDown(
            originator_id=gid, originator_version=version, host=p, tiles=_top_n(state)
        )
    if item == Item.REVEAL:
        return ev.BazaarRevealed(originator_id=gid, originator_version=version, host=p)
    if item == Item.TILE:
        return ev.BazaarTileTaken(
            originator_id=gid, originator_version=version, player=p, tile=state.won_tiles[p]
        )
    if item == Item.ROUND_END:
        return ev.BazaarResumed(
            originator_id=gid, originator_version=version, host=state.deferred[0], tiles=_top_n(state)
        )
    if item == Item.DEFER:
        return ev.BazaarDeferred(originator_id=gid, originator_version=version, host=p)
    return ev.BazaarDropped(originator_id=gid, originator_version=version, host=p)
