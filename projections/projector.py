"""The projection worker: follows the store's notification log and keeps `projections.views` current.

It uses the library's projection pieces (`Projection`, a `TrackingRecorder` view, `Tracking`)
with a polling loop of its own rather than `ProjectionRunner`: the SQLite recorder of
eventsourcing 9.5 offers no subscriptions, and our projection needs the game store itself to
rebuild a game it has not seen since a restart, which `ProjectionRunner` cannot hand it.
Polling also gives `--once` for free: stop when a page comes back short.
"""

from __future__ import annotations

import threading
from collections.abc import Callable
from typing import Any
from uuid import UUID

from eventsourcing.persistence import Tracking
from eventsourcing.projection import Projection

from domain import events as ev
from domain.aggregate import Game
from domain.expansions import EVENT_TYPES
from domain.store import GameStore, open_store
from domain.view import Mark
from projections.board import board_view
from projections.views import BoardChange, BoardItem, GameSummary, GameViews, ScoreRow, open_views

PAGE = 500  # notifications read per query
POLL_SECONDS = 0.2  # pause when caught up, before looking for new events


class GameProjection(Projection[GameViews]):
    name = "GameProjection"
    topics = tuple(EVENT_TYPES)  # game events only; the service's records are not games

    def __init__(self, view: GameViews, store: GameStore) -> None:
        super().__init__(view)
        self.store = store
        # Games in progress as of the last event written, with what lies on their boards.
        self._games: dict[UUID, tuple[Game, set[BoardItem]]] = {}

    def process_event(self, domain_event: Any, tracking: Tracking) -> None:
        event: ev.Event = domain_event
        game, before = self._game_before(event)
        awarded = len(game.state.awards)
        game.replay(event)
        after = board_items(game)
        change = BoardChange(tuple(sorted(after - before)), tuple(sorted(before - after)))
        try:
            self.view.write(summary(game), score_rows(game, awarded), tracking, change)
        except BaseException:
            self._games.pop(game.id, None)  # our copy is ahead of the view now
            raise
        if game.over:
            del self._games[game.id]
        else:
            self._games[game.id] = (game, after)

    def _game_before(self, event: ev.Event) -> tuple[Game, set[BoardItem]]:
        """The game just before `event` and its board, from memory or, after a restart, the store."""
        previous = event.originator_version - 1
        known = self._games.get(event.originator_id)
        if known is not None and known[0].version == previous:
            return known
        if previous == 0:
            return Game(event.originator_id), set()
        game = self.store.load(event.originator_id, version=previous)
        return game, board_items(game)


def board_items(game: Game) -> set[BoardItem]:
    """Everything on the game's table now, as items of the board view."""
    view = board_view(game.state)
    items = {BoardItem(kind="tile", x=t.x, y=t.y, what=f"{t.tile}@{t.rotation}") for t in view.tiles}
    items |= {BoardItem(kind=m.figure, x=m.x, y=m.y, what=m.location, player=m.player) for m in view.meeples}
    items |= {
        BoardItem(kind=m.figure or m.style, x=m.x, y=m.y, what=_what(m), player=player)
        for m in view.marks
        for player in m.owners or (-1,)
    }
    return items


def _what(mark: Mark) -> str:
    """What tells a mark from another of its kind on its tile, and its state: a change is a new row."""
    words = [mark.location, mark.label, *(f"{s.x},{s.y}:{s.location}" for s in mark.spots)]
    if mark.closed:
        words.append("closed")
    return " ".join(word for word in words if word)


def summary(game: Game) -> GameSummary:
    state = game.state
    return GameSummary(
        game=game.id,
        players=state.players,
        expansions=state.expansions,
        version=game.version,
        turn=state.turn,
        over=game.over,
        scores=tuple(state.scores),
    )


def score_rows(game: Game, start: int = 0) -> list[ScoreRow]:
    """The game's awards from number `start` on, as rows."""
    return [
        ScoreRow(
            game=game.id,
            seq=seq,
            version=a.version,
            turn=a.turn,
            player=a.player,
            points=a.points,
            category=a.category,
            rule=a.rule,
            final=a.final,
        )
        for seq, a in enumerate(game.state.awards[start:], start)
    ]


def run_projection(
    url: str,
    *,
    once: bool,
    stop: threading.Event | None = None,
    on_progress: Callable[[int, int, int], None] = lambda position, start, end: None,
) -> int:
    """Project every game event not yet in the views of the store at `url`; return how many.

    With `once`, return when caught up; otherwise keep following new events until `stop` is set.
    After each page, `on_progress(position, start, end)` tells how far the views are between where
    they started and the store's last event as last seen (positions in the store's event log).
    """
    store = open_store(url)
    views = open_views(url)
    projection = GameProjection(views, store)
    position = views.max_tracking_id(store.name) or 0
    start = position
    done = 0
    stop = stop or threading.Event()
    try:
        while not stop.is_set():
            end = store.recorder.max_notification_id() or 0
            page = store.recorder.select_notifications(
                position, limit=PAGE, topics=projection.topics, inclusive_of_start=False
            )
            for note in page:
                projection.process_event(store.mapper.to_domain_event(note), Tracking(store.name, note.id))
                position = note.id
            done += len(page)
            on_progress(position if page else end, start, max(end, position))
            if len(page) < PAGE:
                if once:
                    break
                stop.wait(POLL_SECONDS)
    finally:
        store.close()
        views.datastore.close()
    return done
