"""What players and spectators may see of a game's events: nothing of the pile before it is drawn.

The store keeps every event whole (the engine needs the draw order to play on, and a recorded
game stays complete); answers of the service pass through a `PublicView`, which hides:

* in `GameStarted`, the draw order, the secret salt of its commitment and the seed it was
  shuffled with, while the game runs (the commitment stays: it fixes the order without showing
  it, and the order and salt, revealed once the game is over, prove the pile was never changed);
* in `BazaarTilesTakenFaceDown` (V-ORDER-FACEDOWN), the face-down tiles until the bazaar is
  revealed, at which point the public `BazaarRevealed` names them.

Tiles drawn face up (a turn's tile, a bazaar's supply) are public the moment they are drawn.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

import msgspec

from domain import events as ev
from domain.expansions import bazaars as bz


class RevealedBazaar(bz.BazaarRevealed, frozen=True, kw_only=True, tag="BazaarRevealed"):
    """`BazaarRevealed` as players see it: with the tiles now turned up."""

    tiles: tuple[str, ...] = ()


class PublicView:
    """Shows a game's events in order, as a player may see them. `earlier` gives the game's events
    before the first one shown, read only if a revealed bazaar needs its face-down tiles."""

    __slots__ = ("_earlier", "_face_down")

    def __init__(self, earlier: Callable[[], Sequence[ev.Event]]) -> None:
        self._earlier: Callable[[], Sequence[ev.Event]] | None = earlier
        self._face_down: tuple[str, ...] = ()

    def show(self, events: Sequence[ev.Event], *, over: bool) -> list[ev.Event]:
        """`events` as a player may see them; `over`: the game has ended by now, nothing is hidden."""
        if over:
            return list(events)
        return [self._public(event) for event in events]

    def _public(self, event: ev.Event) -> ev.Event:
        if isinstance(event, ev.GameStarted):
            return msgspec.structs.replace(event, draw_order=(), pile_salt="", seed=None)
        if isinstance(event, bz.BazaarTilesTakenFaceDown):
            self._earlier = None  # what came before no longer matters
            self._face_down = event.tiles
            return msgspec.structs.replace(event, tiles=())
        if isinstance(event, bz.BazaarRevealed):
            if self._earlier is not None:
                taken = [e for e in self._earlier() if isinstance(e, bz.BazaarTilesTakenFaceDown)]
                self._face_down = taken[-1].tiles if taken else ()
                self._earlier = None
            return RevealedBazaar(**msgspec.structs.asdict(event), tiles=self._face_down)
        return event
