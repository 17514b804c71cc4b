"""The `Game` aggregate: a state, the fold that builds it, and the events not yet saved.

It follows the eventsourcing library's functional style (its msgspec aggregate example):
commands go through `decide`, the resulting events through `evolve`, and the library's
repository rebuilds a game with `project_game`. Nothing here re-checks an applied event.
"""

from __future__ import annotations

import random
import secrets
from collections.abc import Callable, Iterable, Sequence
from uuid import UUID, uuid4

import msgspec

from domain import events as ev
from domain.commands import Command
from domain.decide import decide
from domain.errors import RuleViolation
from domain.expansions import SETS, start_tile_of
from domain.readings import checked
from domain.rules import RuleSet
from domain.state import GameState, evolve
from domain.tiles import TILES
from domain.turns import Chance, automatic_event

Roll = Callable[[GameState, Chance], ev.Event]  # picks the outcome of a draw of chance


class Game:
    __slots__ = ("_pending", "roll", "state")

    def __init__(self, game_id: UUID) -> None:
        self.state = GameState(game_id)
        self._pending: list[ev.Event] = []
        # Who picks the outcome of a draw of chance: by default chance itself (`roll`); an import
        # that knows what the recorded game drew sets its own.
        self.roll: Roll = roll

    @property
    def id(self) -> UUID:
        return self.state.id

    @property
    def version(self) -> int:
        return self.state.version

    @property
    def over(self) -> bool:
        return self.state.over

    @classmethod
    def start(
        cls,
        players: Sequence[str],
        draw_order: Sequence[str],
        *,
        expansions: Sequence[str] = ("base",),
        rules: RuleSet | None = None,
        seed: int | None = None,
        game_id: UUID | None = None,
        start_tile: str | None = None,
        pile_salt: str = "",
    ) -> Game:
        """A new game; the draw order is fixed now and recorded (R-BASE-2). The start tile is the
        one the sets bring unless given. With a `pile_salt` (secret, random), the game also
        records the commitment to its draw order that players may see in its place."""
        check_setup(players, draw_order, expansions, rules)
        game = cls(game_id or uuid4())
        game._record(
            ev.GameStarted(
                originator_id=game.id,
                originator_version=1,
                players=tuple(players),
                expansions=tuple(expansions),
                rules=checked(rules) if rules is not None else RuleSet(),
                draw_order=tuple(draw_order),
                start_tile=start_tile or start_tile_of(tuple(expansions)),
                seed=seed,
                pile_salt=pile_salt,
                pile_commitment=ev.pile_commitment(pile_salt, tuple(draw_order)) if pile_salt else "",
            )
        )
        game._advance()
        return game

    def execute(self, player: int, command: Command) -> None:
        """Apply one player's command and whatever the engine does after it."""
        for event in decide(self.state, player, command):
            self._record(event)
        self._advance()

    def replay(self, event: ev.Event) -> None:
        """Apply a stored event (no checks, nothing pending)."""
        evolve(self.state, event)

    @property
    def pending(self) -> tuple[ev.Event, ...]:
        """Events recorded since the game was last saved."""
        return tuple(self._pending)

    def collect_events(self) -> list[ev.Event]:
        pending, self._pending = self._pending, []
        return pending

    def _record(self, event: ev.Event) -> None:
        evolve(self.state, event)
        self._pending.append(event)

    def _advance(self) -> None:
        state = self.state
        while (event := automatic_event(state)) is not None:
            self._record(self.roll(state, event) if isinstance(event, Chance) else event)


def roll(state: GameState, chance: Chance) -> ev.Event:
    """An outcome of a draw of chance: reproducible in a seeded game (from the seed and the point of
    the game), unpredictable otherwise (a game whose pile is kept secret keeps its dice so)."""
    outcomes = chance.outcomes
    seed = state.seed
    if seed is None:
        return outcomes[secrets.randbelow(len(outcomes))]
    return outcomes[random.Random(f"{seed}:{state.version}").randrange(len(outcomes))]


def check_setup(
    players: Sequence[str],
    draw_order: Sequence[str],
    expansions: Sequence[str],
    rules: RuleSet | None = None,
) -> None:
    fewest = 1 if rules is not None and rules.solo else 2
    if not fewest <= len(players) <= 6:
        raise RuleViolation("R-BASE-1", f"{fewest} to 6 players, not {len(players)}")
    if len(set(players)) != len(players):
        raise RuleViolation("R-BASE-1", "player names must be distinct")
    unknown = [x for x in expansions if x not in SETS]
    if unknown or "base" not in expansions:
        raise RuleViolation("R-BASE-2", f"expansions must include base and come from {', '.join(SETS)}")
    strangers = sorted({t for t in draw_order if t not in TILES})
    if strangers:
        raise RuleViolation("R-BASE-2", f"unknown tile id(s) in the draw order: {', '.join(strangers)}")
    if rules is not None:
        try:
            checked(rules)
        except msgspec.ValidationError as e:
            raise RuleViolation("R-BASE-1", f"the rule set is out of bounds: {e}") from None


def project_game(game: Game | None, events: Iterable[ev.Event]) -> Game | None:
    """The repository's projector: fold stored events into a Game."""
    for event in events:
        if game is None:
            game = Game(event.originator_id)
        game.replay(event)
    return game
