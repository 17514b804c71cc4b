"""What the board shows, as data: the words the renderers and the board view draw with.

The renderers (`projections/svg.py`, `projections/text.py`) and the board view
(`projections/board.py`) know tiles, features and figures, and nothing of any set: whatever else
a part puts on the table, it declares in these generic terms (as python-chess's `svg.py` draws
from a table of pieces, not from the variants):

* each kind of figure it brings, how it looks (`FigureLook`, on `domain.part.FigureKind`): its
  letter on the text board for each seat and its SVG `Shape`;
* each flag its tiles' segments carry, how it looks beside its segment (`FlagStyle`, in
  `Part.flag_styles`);
* what else lies on the board now (`Part.view`, a `PartView`): `Mark`s, each drawn as its kind
  says with the `MarkStyle` its part names for it (`Part.mark_styles`), and `Supply` counts, the
  `standing` ones beside each player's points.

Marks and supplies are plain values: the board view hands them to the API as they are.
"""

from __future__ import annotations

from enum import StrEnum
from typing import TYPE_CHECKING, Final, Literal

import msgspec

if TYPE_CHECKING:
    from domain.state import GameState

OWNER: Final = "owner"  # a paint that takes the colour of the figure's owner


class Shape(msgspec.Struct, frozen=True, kw_only=True):
    """One SVG element, in SVG units (a tile is 64 across). A figure's or a marker's shape is
    centred on where it stands: its geometry is relative to that point. A line's or an outline's
    shape gives only the element and its paint: the mark gives where it goes.

    The default paint is a figure's: its owner's colour outlined in white. None leaves a paint to
    SVG's default."""

    tag: Literal["circle", "ellipse", "rect", "polygon", "path", "line"]
    r: float = 0  # circle
    rx: float = 0  # ellipse; a rect's rounded corners
    ry: float = 0  # ellipse
    width: float = 0  # rect
    height: float = 0  # rect
    points: tuple[tuple[float, float], ...] = ()  # polygon: its corners around the centre
    d: str = ""  # path: commands from the centre, relative ones ("m-4,0 l8,0 …")
    fill: str | None = OWNER
    stroke: str | None = "#fff"
    stroke_width: float | None = 1.5
    dash: str = ""  # stroke-dasharray


class FigureLook(msgspec.Struct, frozen=True, kw_only=True):
    """How a kind of figure is drawn."""

    glyphs: str  # its character on the text board, by seat
    shape: Shape
    # On the text board, a figure sharing its segment with one not beneath shows that one instead.
    beneath: bool = False


FOLLOWER_LOOK: Final = FigureLook(glyphs="123456", shape=Shape(tag="circle", r=6))


class FlagStyle(msgspec.Struct, frozen=True, kw_only=True):
    """How a segment's flag (``word`` or ``word=value`` in the catalogue) is drawn on its tile:
    `shape` centred `at` off the segment's anchor (in tile units, the tile unturned), filled by
    the flag's value from `fills` when it is named there."""

    shape: Shape
    at: tuple[float, float] = (0.0, 0.0)
    fills: dict[str, str] = {}


class MarkKind(StrEnum):
    """What a mark is, which says how it is drawn (and which fields it reads)."""

    LINE = "line"  # across its tile, joining the edges its `location` names ("N+S")
    OUTLINE = "outline"  # around the tiles of its `spots`; `text` on the edges they name
    DISC = "disc"  # a marker on its tile (on its spot, if it names one), its `label` inside
    FIGURE = "figure"  # a player's `figure` standing on its tile outside any feature
    TOKEN = "token"  # a figure of nobody's on its tile (or spot), drawn over the players' figures
    LINK = "link"  # a line joining its two `spots` (on one tile or two): what it connects
    LABEL = "label"  # its `label` written on its tile (or spot), over its style's shape if any:
    # a count, a word; the text board shows its `text` there and spells the label out below


class Spot(msgspec.Struct, frozen=True, order=True):
    """A location (as figures name theirs) on the tile at (x, y)."""

    x: int
    y: int
    location: str


class Mark(msgspec.Struct, frozen=True, kw_only=True, order=True):
    """A thing a part shows on the board, at its tile (x, y). The board view sorts marks as
    values, so two games in the same position show equal ones."""

    kind: MarkKind
    style: str  # its look among its part's `mark_styles`, and its SVG class
    x: int
    y: int
    location: str = ""  # where on the tile: the edges a line joins, the place a figure stands
    # An outline's: where its feature lies on each tile; a link's: the two places it joins; a
    # disc's, a token's or a label's: the one place it is put on (as a figure stands there),
    # else it stands where its style says.
    spots: tuple[Spot, ...] = ()
    owners: tuple[int, ...] = ()  # seats it belongs to; a figure's owner first
    figure: str = ""  # a figure mark's kind of figure
    label: str = ""  # shown in a disc; a label's words
    closed: bool = False  # done with: nothing more happens to it
    text: str = ""  # its character on the text board: at the tile's centre, or on the spots' edges


class MarkStyle(msgspec.Struct, frozen=True, kw_only=True):
    """How a part's marks of one style are drawn in SVG: `shape` (a figure mark takes its
    figure's; a link's is a line's paint), centred `at` on its tile (tile units, 0..1) for a
    disc, a figure, a token or a label. One put on a spot stands where a figure on that spot
    would, moved as far off it as `at` is off the tile's centre (beside a figure there); a
    link's ends alike."""

    shape: Shape | None = None
    at: tuple[float, float] = (0.5, 0.5)


class Supply(msgspec.Struct, frozen=True):
    """A count a part shows for each player, by seat: pieces left, tokens held. A `standing` one
    (what a player has won so far: bars held, a title held) the standings show too, beside each
    player's points, where it is not 0."""

    label: str
    counts: tuple[int, ...]
    standing: bool = False


class PartView(msgspec.Struct, frozen=True):
    """What the board shows of a part now, beyond its figures in features."""

    marks: tuple[Mark, ...] = ()
    supplies: tuple[Supply, ...] = ()


NOTHING_SHOWN: Final = PartView()


def figure_look(state: GameState, figure: str) -> FigureLook:
    """How a figure on the board is drawn: as its part declares, or as the core's follower."""
    owner = state.figure_owners.get(figure)
    return FOLLOWER_LOOK if owner is None else owner.figures[figure].look
