"""Tables of results, readable on an 80-column terminal and in a pipe.

On a terminal a table is drawn with rich to fit its width, and nothing in it is cut: identifiers
(a game, a file, a reading, a rule, a player) and short cells (a verdict, a number) stay whole on
one line; the columns of explanations make room, going on over more lines (they fold). A table
whose whole columns alone are wider than the terminal is drawn wider, for the terminal to wrap.
Columns marked wide (long paths, explanations) are shown only when asked (`--wide`); `--json` has
everything anyway. When stdout is no terminal the same columns come as plain text aligned on spaces, one row
a line, never cut, for `grep`, `sort` and `column`. Cells are text, never markup: a player may be
named `[/]`.
"""

from __future__ import annotations

from collections.abc import Iterable, Sequence
from typing import Literal, NamedTuple

from rich import box
from rich.console import Console
from rich.table import Table
from rich.text import Text


class Column(NamedTuple):
    name: str
    wide: bool = False  # left out of the default view
    justify: Literal["left", "right"] = "left"
    folds: bool = False  # an explanation: it goes on over more lines to make room; else kept whole


class Cell(NamedTuple):
    """A cell with a style on a terminal (a verdict in colour); plain text elsewhere."""

    text: str
    style: str


Row = Sequence[str | Cell]


def printable(text: str) -> str:
    """`text` with every character that is not printable (escape codes, bidi overrides, line
    breaks) shown escaped, so that a player's name or a file's contents cannot move the cursor,
    clear the screen or reorder what is shown."""
    if text.isprintable():
        return text
    return "".join(c if c.isprintable() else c.encode("unicode_escape").decode() for c in text)


def show_table(
    console: Console, title: str, columns: Sequence[Column], rows: Iterable[Row], *, wide: bool = False
) -> None:
    shown = [i for i, column in enumerate(columns) if wide or not column.wide]
    picked = [[_printable_cell(row[i]) for i in shown] for row in rows]
    title = printable(title)
    heads = [columns[i] for i in shown]
    if console.is_terminal:
        table = _rich_table(title, heads, picked, console.width)
        console.print(table, crop=False)  # wider than the terminal only to keep its cells whole
    else:
        console.print(title, markup=False, highlight=False, soft_wrap=True)
        for line in _plain_lines(heads, picked):
            console.print(line, markup=False, highlight=False, soft_wrap=True)


def _printable_cell(cell: str | Cell) -> str | Cell:
    return Cell(printable(cell.text), cell.style) if isinstance(cell, Cell) else printable(cell)


def _rich_table(title: str, columns: Sequence[Column], rows: list[list[str | Cell]], width: int) -> Table:
    texts = [[c.text if isinstance(c, Cell) else c for c in row] for row in rows]
    natural = [max([len(c.name), *(len(r[i]) for r in texts)]) for i, c in enumerate(columns)]
    # A column that folds keeps room for the longest word of its name (it folds at spaces).
    least = [
        min(n, max(*map(len, c.name.split()), _NARROWEST)) for n, c in zip(natural, columns, strict=True)
    ]
    widths = _fitted(natural, least, [c.folds for c in columns], width)
    needed = sum(widths) + _GAP * (len(widths) - 1) + _EDGES
    # No rules between columns and one space of padding: each costs width an 80-column terminal
    # does not have.
    table = Table(
        title=Text(title),
        title_justify="left",
        box=box.SIMPLE_HEAD,
        pad_edge=False,
        padding=(0, 1, 0, 0),
        width=needed if needed > width else None,  # only when whole cells leave no choice
    )
    for column, fitted in zip(columns, widths, strict=True):
        table.add_column(
            column.name,
            justify=column.justify,
            no_wrap=not column.folds,
            overflow="fold",  # a word longer than its column goes on over the next line
            width=fitted,
        )
    for row in rows:
        table.add_row(*(Text(c.text, style=c.style) if isinstance(c, Cell) else Text(c) for c in row))
    return table


# What rich spends beside the cells with box.SIMPLE_HEAD and that padding: 2 characters between
# two columns, and one at each edge.
_GAP = 2
_EDGES = 2
_NARROWEST = 6


def _fitted(natural: list[int], least: list[int], folds: list[bool], width: int) -> list[int]:
    """Column widths that fit `width` if they can: the columns that fold give way, the widest
    first, none below `least`; the others keep their whole width.
    What is left over makes the table wider than `width`."""
    widths = list(natural)
    excess = sum(widths) + _GAP * (len(widths) - 1) + _EDGES - width
    while excess > 0:
        yielding = [i for i, f in enumerate(folds) if f and widths[i] > least[i]]
        if not yielding:
            break  # nothing left to give
        widths[max(yielding, key=lambda i: widths[i])] -= 1
        excess -= 1
    return widths


def _plain_lines(columns: Sequence[Column], rows: list[list[str | Cell]]) -> list[str]:
    texts = [[c.text if isinstance(c, Cell) else c for c in row] for row in rows]
    widths = [max([len(column.name), *(len(row[i]) for row in texts)]) for i, column in enumerate(columns)]

    def line(cells: Sequence[str]) -> str:
        return "  ".join(
            cell.rjust(width) if column.justify == "right" else cell.ljust(width)
            for cell, width, column in zip(cells, widths, columns, strict=True)
        ).rstrip()

    return [line([c.name for c in columns]), *(line(row) for row in texts)]
