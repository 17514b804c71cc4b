"""Under the Big Top in JCloisterZone's saves (`under-the-big-top:1`; elements `big-top` 1,
`ringmaster` 1, `acrobats`): a follower joining a pyramid is a DEPLOY_MEEPLE on the tile's
`Acrobats` feature (location `I`), on the tile placed or one around it; a full pyramid scored is
a SCORE_ACROBATS naming its feature. The ringmaster is a meeple `ringmaster`.

The animal tokens are drawn inside the engine, with no message: JCloisterZone scores the big
top's old tile after the turn part's COMMIT (after the completed features), drawing the token
with the generator that COMMIT's `random` has just reseeded: its first int, so the next tile is
drawn with the second. The last token, at the end, is the next int after the last COMMIT's. An
export declares each token's draw (`chance_draw`); the writer picks the COMMIT's `random`.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.commands import Command
from domain.expansions.bigtop import (
    ACROBATS,
    BIG_TOP,
    CIRCUS,
    RINGMASTER,
    SPACE,
    AnimalRevealed,
    ScoreAcrobats,
    circus,
    tokens_left,
)
from domain.state import GameState
from replays.jcz_format import JczMessage, JczPointer
from replays.jcz_mapping import Element, JczSet

if TYPE_CHECKING:
    from domain import events as ev
    from domain.tiles import TileType
    from domain.turns import Chance
    from replays.jcz import SaveReader
    from replays.jcz_draws import Draw, DrawWalk
    from replays.jcz_export import Writer

FEATURE = "Acrobats"  # JCloisterZone's feature of an acrobat space
SCORE = "SCORE_ACROBATS"
_WALK = "bigtop"  # what the draw walk follows: (the big top is on the board, a token is due)


class BigTop(JczSet):
    code = "bigtop"
    tile_set = "under-the-big-top"
    elements = {
        "big-top": Element(part=BIG_TOP, one=True),
        "ringmaster": Element(part=RINGMASTER, number="ringmasters"),
        "acrobats": Element(part=ACROBATS),
    }
    figures = {"ringmaster": "ringmaster"}
    reading = {
        "acrobats_large_follower": True,
        "acrobats_not_under_bridge": True,
    }  # JCZ-BIGTOP-LARGE, -BRIDGE
    score_names = {BIG_TOP: "bigtop", RINGMASTER: "ringmaster", ACROBATS: "acrobats"}
    final_only = frozenset({BIG_TOP, RINGMASTER, ACROBATS})  # never `.incomplete`

    def location(self, pointer: JczPointer) -> str | None:
        return SPACE if pointer.feature == FEATURE else None

    def pointer(self, state: GameState, x: int, y: int, location: str) -> dict[str, Any] | None:
        if location != SPACE:
            return None
        return {"position": [x, y], "location": "I", "feature": FEATURE}

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        if message.type != SCORE:
            return None
        pointer = reader.pointer(index, message.payload["pointer"])
        x, y = pointer.position
        return ScoreAcrobats(x=x, y=y)

    def roll(self, reader: SaveReader, chance: Chance, message: JczMessage | None) -> ev.Event | None:
        """The token JCloisterZone drew: the generator's next int after the turn part's COMMIT, among
        the tokens left in its order (ours lists them so)."""
        if not isinstance(chance.outcomes[0], AnimalRevealed):
            return None
        return chance.outcomes[reader.next_int(len(chance.outcomes))]

    # ---- the draws: a token drawn after a COMMIT takes the generator's first int
    def walk_start(self, walk: DrawWalk) -> None:
        walk.ext[_WALK] = [False, False]  # the big top is on the board; a token is due

    def walk_placed(self, walk: DrawWalk, index: int, tile: TileType) -> None:
        if CIRCUS not in tile.tags or "big-top" not in walk.elements:
            return
        follow = walk.ext[_WALK]
        if follow[0]:
            follow[1] = True
        follow[0] = True

    def walk_message(self, walk: DrawWalk, index: int, message: JczMessage) -> bool:
        follow = walk.ext[_WALK]
        if message.type == "COMMIT" and follow[1]:
            follow[1] = False
            walk.drawer.random.next_int(1)  # the token's draw, before the next tile's
        return False

    # ---- writing a save
    def chance_draw(self, state: GameState, event: ev.Event) -> Draw | None:
        """A token revealed: its place among the tokens left, drawn after the turn part's COMMIT."""
        if not isinstance(event, AnimalRevealed):
            return None
        left = tokens_left(circus(state).shown)
        return left.index(event.points), len(left)

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        if not isinstance(command, ScoreAcrobats):
            return False
        where = self.pointer(state, command.x, command.y, SPACE)
        writer.send(SCORE, seat, {"pointer": where})
        return True


MAPPING = BigTop()
