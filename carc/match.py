"""The library behind `import carc`: a game in play or recorded (`Match`) and the entry points
that make one (`new_game`, `replay`, `load`) or read one (`save`, `audit`, `check`)."""

from __future__ import annotations

import random
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING

from domain import events as ev
from domain.aggregate import Game
from domain.bots import RandomBot, shuffled_pile
from domain.commands import Command as Command  # the engine's names `carc` offers too
from domain.errors import RuleViolation as RuleViolation, UserError as UserError
from domain.moves import actor, legal_commands
from domain.replay import ReplayError as ReplayError, Verdict, audit as _audit, replay as _replay
from domain.rules import RuleSet as RuleSet
from domain.sets import game_sets
from projections.scores import score_report
from projections.text import render_board
from replays import records

if TYPE_CHECKING:
    from replays.check import CheckResult



class Match:
    """A game in play or recorded: its moves, its scores, its events."""

    __slots__ = ("_log", "game")

    def __init__(self, game: Game, events: Sequence[ev.Event] = ()) -> None:
        self.game = game  # the engine's aggregate; `game.state` holds everything
        self._log = list(events)  # what the game was rebuilt from; what it records comes after

    @property
    def events(self) -> list[ev.Event]:
        """Every event so far, the first holding players, sets, rules and the draw order."""
        self._log += self.game.collect_events()
        return list(self._log)

    @property
    def players(self) -> tuple[str, ...]:
        return self.game.state.players

    @property
    def over(self) -> bool:
        return self.game.over

    @property
    def current_player(self) -> str | None:
        """Who decides now; None when the game is over."""
        seat = actor(self.game.state)
        return None if seat is None else self.game.state.players[seat]

    @property
    def legal_moves(self) -> list[Command]:
        """Every command the current player may give now (a part may list only some of a range
        of numbers, such as bids)."""
        return legal_commands(self.game.state)

    @property
    def scores(self) -> dict[str, int]:
        """Points per player: the final standings once the game is over."""
        return score_report(self.game.state).final

    def play(self, command: Command) -> None:
        """The current player's command; RuleViolation (naming the rule) if the rules refuse it."""
        seat = actor(self.game.state)
        if seat is None:
            raise RuleViolation("R-BASE-8", "the game is over")
        self.game.execute(seat, command)

    def play_bots(self, seed: int = 0) -> None:
        """Random legal moves by every player to the end of the game."""
        bot = RandomBot(random.Random(seed))
        state = self.game.state
        while not state.over:
            self.game.execute(*bot.choose(state))

    def board(self) -> str:
        """The board as text, three characters a tile edge (see the README)."""
        return render_board(self.game.state)


def new_game(
    players: Sequence[str],
    *,
    expansions: Sequence[str] = ("base",),
    rules: RuleSet | None = None,
    seed: int | None = None,
) -> Match:
    """A new game; the seed fixes the pile's order (none: an unpredictable one). The base game is
    always in play, named or not; `expansions` are set codes (`bcb`, `tb`, `ic`, `river`, `tower`, `am`,
    `pd`…), each played once (`domain.sets.game_sets`: the rule of the command line and the HTTP
    API too)."""
    sets = game_sets(expansions)
    pile = shuffled_pile(sets, random.Random(seed))
    return Match(Game.start(tuple(players), pile, expansions=sets, rules=rules, seed=seed))


def replay(events: Sequence[ev.Event], rules: RuleSet | None = None) -> Match:
    """The game `events` build, every one checked against its rules (or against `rules`, another
    reading); ReplayError at the first one they refuse."""
    return Match(_replay(events, rules), events)


def load(path: str | Path) -> Match:
    """A recorded game from our `.jsonl` or a JCloisterZone `.jcz`, every event checked."""
    from replays.sources import read_source

    game, events = read_source(Path(path))
    return Match(game, events)  # the readers hand the game over with nothing left pending


def save(match: Match, path: str | Path) -> None:
    """The game as our `.jsonl` recorded-game file (what `carc import` reads)."""
    records.write(match.events, Path(path))


def audit(events: Sequence[ev.Event]) -> dict[str, Verdict]:
    """The game under its own rule set ("recorded") and every other reading (`V-…`, orderings),
    each verdict saying whether the game is legal under it and where it is not."""
    return _audit(events)


def check(path: str | Path) -> CheckResult:
    """A JCloisterZone save replayed by our engine and compared with what its engine recorded."""
    from replays.check import check_file

    return check_file(path)
