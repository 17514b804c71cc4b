"""Hills & Sheep in JCloisterZone's saves (`hills-and-sheep:1`, elements `hill`, `vineyard`,
`shepherd`): the shepherd is a figure (`0.shepherd.1`) deployed on a field; the flock's choice is
FLOCK_EXPAND_OR_SCORE (`value` EXPAND or SCORE), whose `random` re-seeds JCloisterZone's
generator before the token is drawn: the bag's token at floor(random * its size). A shepherd
just deployed draws at once with the generator as it stands (after the turn's tile draw), which
the draw walk tells (`SaveReader.next_int`). A hill placed while the pack holds tiles makes
the pack count as empty one tile sooner, its draws unchanged (`JczDrawer.set_aside`)."""

from __future__ import annotations

from typing import TYPE_CHECKING

from domain.commands import Command
from domain.expansions.hills_sheep import HILL, STEP, Flock, FlockChosen, FlockDrawn, bag
from domain.state import GameState
from replays.jcz_format import JczError, JczMessage, JczRefused
from replays.jcz_mapping import Element, JczSet

if TYPE_CHECKING:
    from domain import events as ev
    from domain.tiles import TileType
    from domain.turns import Chance
    from replays.jcz import SaveReader
    from replays.jcz_draws import Draw, DrawWalk
    from replays.jcz_export import Writer

MESSAGE = "FLOCK_EXPAND_OR_SCORE"
_VALUES = {"EXPAND": "expand", "SCORE": "score"}
_THEIRS = {ours: theirs for theirs, ours in _VALUES.items()}


def token_index(random: float, size: int) -> int:
    """The bag's index JCloisterZone draws with its generator at `random`: its next int below
    `size` (`replays.jcz_draws.JczRandom.next_int`)."""
    return int(random * size)


class HillsSheep(JczSet):
    code = "hs"
    tile_set = "hills-and-sheep"
    legacy_name = "HILLS_AND_SHEEP"
    elements = {
        "hill": Element(part="hills"),
        "vineyard": Element(part="vineyards"),
        "shepherd": Element(part="shepherd", one=True),
    }
    figures = {"shepherd": "shepherd"}
    rule_switches = {
        ("hill-tiebreaker", "at-least-one-follower"): {"hill_count": False},
        ("hill-tiebreaker", "number-of-followers"): {"hill_count": True},
    }
    score_names = {"flock": "flock"}
    reading = {"flock_closed_field": True}  # JCZ-HS-CLOSED-FIELD

    def command(self, reader: SaveReader, index: int, message: JczMessage) -> Command | None:
        if message.type != MESSAGE:
            return None
        value = _VALUES.get(str(message.payload.get("value")))
        if value is None:
            raise JczError(f"message {index}: a flock's choice of {message.payload.get('value')!r}")
        if reader.step() != STEP:
            raise JczRefused(f"message {index}: a flock's choice where our rules ask none", index)
        return Flock(value=value)  # type: ignore[arg-type]

    def roll(self, reader: SaveReader, chance: Chance, message: JczMessage | None) -> ev.Event | None:
        """The bag's token at the generator's next int: after the flock's message, or, for a shepherd
        just deployed, with the generator as it stands."""
        if not isinstance(chance.outcomes[0], FlockDrawn):
            return None
        return chance.outcomes[reader.next_int(len(chance.outcomes))]

    def walk_placed(self, walk: DrawWalk, index: int, tile: TileType) -> None:
        """A hill placed while the pack holds tiles hides one under it: the pack ends sooner."""
        hills = "hill" in walk.elements or not walk.elements  # 4.x saves name no elements: all play
        if HILL in tile.tags and hills and walk.drawer.left > 0:
            walk.drawer.set_aside += 1

    def messages(
        self, writer: Writer, state: GameState, seat: int, command: Command, event: ev.Event
    ) -> bool:
        if not isinstance(command, Flock):
            return False
        assert isinstance(event, FlockChosen)
        # It re-seeds JCloisterZone's generator: the writer picks its `random` once the token is
        # drawn (`chance_draw`).
        writer.send(MESSAGE, seat, {"value": _THEIRS[command.value], "random": 0.5})
        return True

    def chance_draw(self, state: GameState, event: ev.Event) -> Draw | None:
        """A token drawn: its place in the bag, drawn after the flock's message or, for a shepherd
        just deployed, with the generator as it stands (after what was drawn since the last seed)."""
        if not isinstance(event, FlockDrawn):
            return None
        tokens = bag(state)
        return tokens.index(event.sheep), len(tokens)


MAPPING = HillsSheep()
