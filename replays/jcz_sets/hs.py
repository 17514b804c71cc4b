"""Hills & Sheep in JCloisterZone's saves (`hills-and-sheep:1`, elements `hill`, `vineyard`,
`shepherd`): the shepherd is a figure (`0.shepherd.1`) deployed on a field; the flock's choice is
FLOCK_EXPAND_OR_SCORE (`value` EXPAND or SCORE), whose `random` re-seeds JCloisterZone's
generator before the token is drawn: the bag's token at floor(random * its size). A shepherd
just deployed draws at once with the generator as it stands (after the turn's tile draw), which
the draw walk tells (`SaveReader.random_now`). A hill placed while the pack holds tiles makes
the pack count as empty one tile sooner, its draws unchanged (`JczDrawer.set_aside`)."""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from domain.commands import Command
from domain.events import FollowerDeployed
from domain.expansions.hills_sheep import FIGURE, HILL, STEP, Flock, FlockChosen, FlockDrawn, bag
from domain.state import GameState
from replays.jcz_format import JczError, JczMessage, JczRefused
from replays.jcz_mapping import Element, JczSet

if TYPE_CHECKING:
    from domain import events as ev
    from domain.tiles import TileType
    from domain.turns import Chance
    from replays.jcz import SaveReader
    from replays.jcz_draws import DrawWalk
    from replays.jcz_export import Writer

MESSAGE = "FLOCK_EXPAND_OR_SCORE"
_VALUES = {"EXPAND": "expand", "SCORE": "score"}
_THEIRS = {ours: theirs for theirs, ours in _VALUES.items()}
_BAG = "bag"  # on a message the export writes: the bag its token is drawn from, until it is


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
        if not isinstance(chance.outcomes[0], FlockDrawn):
            return None
        random: Any = None if message is None else message.payload.get("random")
        if not isinstance(random, float | int):
            random = reader.random_now()  # a shepherd just deployed: the generator as it stands
        if not isinstance(random, float | int) or not 0 <= random < 1:
            raise JczError(
                f"message {reader.index}: a token drawn without JCloisterZone's generator to draw it"
            )
        return chance.outcomes[token_index(float(random), len(chance.outcomes))]

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
        # The token's `random` is written once it is drawn (`moved`), from the bag as it is now.
        writer.send(MESSAGE, seat, {"value": _THEIRS[command.value], "random": 0.5})
        writer.messages[-1][_BAG] = bag(state)
        return True

    def moved(self, writer: Writer, event: ev.Event) -> None:
        """A shepherd deployed: the bag it draws from is noted on its message. A token drawn: the
        `random` JCloisterZone draws it with goes where its generator was last seeded from, the
        flock's message or, for a shepherd just deployed, the last message carrying one (with
        forced draws nothing else reads it), or the save's `initialRandom`."""
        if isinstance(event, FollowerDeployed) and event.figure == FIGURE:
            writer.messages[-1][_BAG] = bag(writer.game.state)
            return
        if not isinstance(event, FlockDrawn):
            return
        at = next(i for i in range(len(writer.messages) - 1, -1, -1) if _BAG in writer.messages[i])
        drawn_from: list[int] = writer.messages[at].pop(_BAG)
        random = (drawn_from.index(event.sheep) + 0.5) / len(drawn_from)
        if writer.messages[at]["type"] == MESSAGE:
            writer.messages[at]["payload"]["random"] = random
            return
        seeded = next((m for m in reversed(writer.messages[:at]) if "random" in m["payload"]), None)
        if seeded is None:
            writer.initial_random = random
        else:
            seeded["payload"]["random"] = random


MAPPING = HillsSheep()
