"""What the commands share: the consoles, errors as one line, JSON output, the common options and
their parsing, the standings table and how a batch is run."""

from __future__ import annotations

import sys
from collections.abc import Iterator
from contextlib import contextmanager
from typing import TYPE_CHECKING, Annotated, Any, NoReturn

import msgspec
import typer
from rich.console import Console
from rich.text import Text

from carc.cli.tables import Column, printable, show_table
from domain.errors import RuleViolation, UserError
from domain.rules import RuleSet
from domain.sets import game_sets

# Each command imports what only it needs (the store's engine, the PostgreSQL driver, Parquet,
# JCloisterZone saves, the web stack) when it runs: `carc --help` and a file's scores start at once.
if TYPE_CHECKING:
    from rich.progress import Progress

    from domain import events as ev
    from domain.aggregate import Game
    from replays.batch import Batch


class Shell(Console):
    """A console that wraps its lines to a terminal's width, and never wraps what goes to a
    file or a pipe (a game id or a path stays on its line, whatever its length)."""

    @property
    def soft_wrap(self) -> bool:
        return not self.is_terminal

    @soft_wrap.setter
    def soft_wrap(self, value: bool) -> None:
        pass  # decided by where the output goes, at each print


out = Shell()
err = Shell(stderr=True)

DbOption = Annotated[
    str,
    typer.Option(
        "--db",
        envvar="CARC_DB",
        help="Game store: an SQLite file path (created if missing), postgresql://… or 'memory'.",
    ),
]
StoredOption = Annotated[  # commands that only read a store refuse a missing one: no "created"
    str,
    typer.Option(
        "--db",
        envvar="CARC_DB",
        help="Game store to read: an SQLite file path (it must exist), postgresql://… or 'memory'.",
    ),
]
JsonOption = Annotated[bool, typer.Option("--json", help="Print one JSON document on stdout.")]
GameArgument = Annotated[str, typer.Argument(help="Game id (a unique prefix is enough).")]
SourceArgument = Annotated[
    str, typer.Argument(help="A recorded-game file, or the id (or a unique prefix) of a stored game.")
]
UntilOption = Annotated[int | None, typer.Option("--until", min=1, help="As of this event number.")]
TurnOption = Annotated[int | None, typer.Option("--turn", min=0, help="As of the end of this turn.")]
WorkersOption = Annotated[
    int | None,
    typer.Option(
        "--workers",
        min=1,
        help="Worker processes of a local Dask cluster (default: one per core for big batches, "
        "else this process; 1: always this process).",
    ),
]
SchedulerOption = Annotated[
    str | None,
    typer.Option("--scheduler", help="A running Dask scheduler to use instead, e.g. tcp://host:8786."),
]
WideOption = Annotated[
    bool, typer.Option("--wide", help="Show every column, long ones too (--json has everything).")
]


def say_error(message: str) -> None:
    # The message is text, never markup: it may quote a file name or a player's name.
    err.print(Text.assemble(("error:", "bold red"), " ", printable(message)), highlight=False, soft_wrap=True)


def fail(message: str, code: int = 1) -> NoReturn:
    say_error(message)
    raise typer.Exit(code)


@contextmanager
def user_errors() -> Iterator[None]:
    """Turn the errors users can cause into a message and exit code 1."""
    try:
        yield
    except (UserError, RuleViolation) as e:
        fail(str(e))


def progress_bar(*, disable: bool = False) -> Progress:
    """Progress on stderr, so that --json keeps stdout to its one document; on a terminal only
    (elsewhere it would leave an empty line), and gone once done."""
    from rich.progress import Progress

    return Progress(console=err, transient=True, disable=disable or not err.is_terminal)


def print_json(data: Any) -> None:
    sys.stdout.write(msgspec.json.encode(data).decode() + "\n")


def parse_expansions(text: str) -> tuple[str, ...]:
    """The sets of `--expansions a,b,c`, by the rule the Python and HTTP APIs follow too."""
    with user_errors():
        return game_sets(x.strip() for x in text.split(",") if x.strip())


def parse_rules(order: str, variants: list[str], *, jcz: bool = False) -> RuleSet:
    """A rule set from `--order` and `--variant NAME[=on|off]` options, on top of JCloisterZone's
    reading with `--jcz`."""
    from domain.expansions.bazaars import ORDERS
    from domain.readings import CHOICES, OWNERS, VARIANTS, defaults, rule_set, with_switches

    if jcz:
        from replays.jcz import JCZ_READING

        reading = dict(JCZ_READING)
        order = reading.pop("order")
        base = rule_set(**reading)
    else:
        base = RuleSet()
    if order not in ORDERS:
        fail(f"unknown ordering {order!r}; choose from {', '.join(ORDERS)}")
    switches: dict[str, object] = {}
    for text in variants:
        name, _, value = text.partition("=")
        wanted = name.strip().upper()
        field = VARIANTS.get(wanted)
        if field is None and wanted not in CHOICES:
            fail(f"unknown variant {name!r}; choose from {', '.join([*VARIANTS, *CHOICES])}")
        if value.strip().lower() not in ("", "on", "off"):
            fail(f"variant {name} takes =on or =off, not ={value}")
        on = value.strip().lower() != "off"
        if field is not None:
            switches[field] = on
        else:  # one value of a switch of several; off: back to its default
            field, chosen = CHOICES[wanted]
            switches[field] = chosen if on else getattr(defaults(OWNERS[field]), field)
    return with_switches(base, order=order, **switches)


def print_standings(game: Game, title: str) -> None:
    from projections.scores import standings

    columns = (
        Column("rank", justify="right"),
        Column("player"),
        Column("points", justify="right"),
    )
    rows = [(str(s.rank), s.name, str(s.points)) for s in standings(game.state)]
    show_table(out, title, columns, rows)


def replayed(events: list[ev.Event], until: int | None, turn: int | None) -> Game:
    """The game as it was at event `until`, or at the end of turn `turn`, or at its end."""
    from domain.replay import events_through_turn, replay

    if until is not None and turn is not None:
        fail("give --until or --turn, not both")
    if turn is not None:
        until = events_through_turn(events, turn)
    return replay(events[:until] if until is not None else events)


def batch_of(workers: int | None, scheduler: str | None) -> Batch:
    from replays.batch import Batch

    return Batch(workers=workers, scheduler=scheduler)
