"""`carc`: play, store, inspect and score Carcassonne games from the command line.

Every command that prints results takes `--json` and then prints exactly one JSON document
on stdout. Errors go to stderr with a non-zero exit code and nothing half-written.

The commands live by group: `games` (play, games, export), `reading` (scores, replay, render,
explain), `batch` (import, audit, export-analytics, check) and `server` (serve, project, db);
`common` holds what they share and `tables` how results are shown.
"""

from __future__ import annotations

import sys
from typing import Annotated

import typer

from carc.cli import batch, games, reading, server
from carc.cli.common import err, out

app = typer.Typer(
    help="Event-sourced Carcassonne: play bot games, store them, replay and score them.",
    no_args_is_help=True,
    add_completion=True,  # --install-completion and --show-completion for bash, zsh, fish
    pretty_exceptions_enable=False,
    rich_markup_mode="markdown",  # a docstring's lines join into paragraphs wrapped to the terminal
)


def _print_version(asked: bool) -> None:
    if asked:
        from importlib.metadata import version

        out.print(f"carc {version('carcassonne-replay')}", highlight=False, markup=False)
        raise typer.Exit()


@app.callback()
def _options(
    version: Annotated[
        bool,
        typer.Option("--version", callback=_print_version, is_eager=True, help="Print the version and exit."),
    ] = False,
) -> None:
    """Event-sourced Carcassonne: play bot games, store them, replay and score them."""


# In the order `carc --help` lists them.
app.command("play")(games.play)
app.command("games")(games.games)
app.command("scores")(reading.scores)
app.command("replay")(reading.replay_)
app.command("render")(reading.render)
app.command("export")(games.export)
app.command("import")(batch.import_)
app.command("audit")(batch.audit_)
app.command("export-analytics")(batch.export_analytics_)
app.command("explain")(reading.explain)
app.command("check")(batch.check)
app.command("serve")(server.serve)
app.command("project")(server.project)

db_app = typer.Typer(help="Set up a store.", no_args_is_help=True)
db_app.command("init")(server.db_init)
app.add_typer(db_app, name="db")


INTERRUPTED = 130  # 128 + SIGINT, as a shell reports a program stopped by Ctrl-C

# What a missing module of an optional part tells the user to install.
_EXTRAS = {
    "litestar": "server",
    "uvicorn": "server",
    "aiohttp": "server",
    "psycopg": "postgres",
    "pyarrow": "analytics",
    "dask": "batch",
    "distributed": "batch",
}


def main() -> None:
    try:
        app()
    except SystemExit as e:
        if e.code == INTERRUPTED:  # Typer's exit on Ctrl-C; the command cleaned up as it stopped
            sys.unraisablehook = lambda _: None  # what a library leaves to say at exit goes unsaid
            err.print("interrupted (Ctrl-C): stopped, nothing half-written", highlight=False, markup=False)
        raise
    except ModuleNotFoundError as e:
        extra = _EXTRAS.get((e.name or "").split(".")[0])
        if extra is None:
            raise
        install = f"in the checkout, pip install -e '.[{extra}]'"  # the package is not published
        err.print(
            f"error: this needs the {extra} extra (no module {e.name}): {install}",
            highlight=False,
            markup=False,
            soft_wrap=True,
        )
        sys.exit(1)
