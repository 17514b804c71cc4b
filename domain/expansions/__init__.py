"""The registry: every part of every set, in the fixed order the core calls their hooks.

A set (what users name with `--expansions`) brings one or more parts; a part is a module of this
package exposing `PART`, a `domain.part.Part`. Adding a set means writing its part modules, its
catalogue file (`domain/catalogue/<code>.tiles`), and one line in `SETS` below, plus its events and
commands in the two unions (which are the file format and the service's command schema).
"""

from __future__ import annotations

from typing import Final

from domain import events as ev, state as _state
from domain.catalogue import START_TILE
from domain.commands import Deploy, Pass, PlaceTile
from domain.expansions import (
    abbey,
    barn,
    bazaars,
    bridges,
    builders,
    castles,
    dragon,
    fairy,
    goods,
    inns_cathedrals,
    mayor,
    orderings,
    pigs,
    portal_princess,
    river,
    tower,
    wagon,
)
from domain.features import FOLLOWER_STRENGTH, OCCUPIERS
from domain.part import Part

# Hooks run in this order. The ordering policy plans last, once every part has had its say.
PARTS: Final[tuple[Part, ...]] = (
    bridges.PART,
    tower.PART,  # a capture, then the dragon, are decided before any castle (JCloisterZone's order)
    dragon.PART,
    portal_princess.PORTAL_PART,
    portal_princess.PRINCESS_PART,
    castles.PART,
    bazaars.PART,
    builders.PART,
    pigs.PART,
    goods.PART,
    inns_cathedrals.INNS,
    inns_cathedrals.CATHEDRALS,
    inns_cathedrals.BIG_FOLLOWER,
    river.PART,
    mayor.PART,
    wagon.PART,  # a wagon moves at the end of its turn part, before the next turn's abbey
    # After castles (a castle's end is none of its business), before the barn: at the end, the
    # farmers of a barn's field score their points and the fairy's before the barn takes the field.
    fairy.PART,
    barn.PART,
    abbey.PART,
    orderings.PART,
)

# Set code -> the parts it brings. The base game is the core itself.
SETS: Final[dict[str, tuple[str, ...]]] = {
    "base": (),
    "bcb": ("bridges", "castles", "bazaars", "orderings"),
    "tb": ("builders", "pigs", "goods", "orderings"),
    "ic": ("inns", "cathedrals", "big_follower"),
    "river": ("river",),
    "tower": ("tower",),
    "am": ("abbey", "mayor", "wagon", "barn"),
    "pd": ("fairy", "dragon", "portal", "princess"),
}

BY_NAME: Final = {part.name: part for part in PARTS}


def parts_for(expansions: tuple[str, ...], without: tuple[str, ...] = ()) -> tuple[Part, ...]:
    """The parts a game with these sets plays, in the registry's order, less those switched off."""
    wanted = {name for code in expansions for name in SETS.get(code, ())} - set(without)
    return tuple(part for part in PARTS if part.name in wanted)


def start_tile_of(expansions: tuple[str, ...]) -> str:
    """The tile the game starts with: the base game's, unless a part brings its own (R-BASE-2)."""
    return next((t for part in parts_for(expansions) if (t := part.start_tile())), START_TILE)


def arrange_pile(expansions: tuple[str, ...], pile: list[str]) -> None:
    """A shuffled pile put in the order the parts' rules want."""
    for part in parts_for(expansions):
        part.arrange(pile)


GameEvent = (
    ev.GameStarted
    | ev.TileDrawn
    | ev.TileDiscarded
    | ev.TilePlaced
    | ev.FollowerDeployed
    | ev.Passed
    | ev.TurnEnded
    | ev.GameEnded
    | bridges.BridgePlaced
    | castles.CastleBuilt
    | castles.CastleTargetChosen
    | builders.BuilderTurnGranted
    | builders.BuilderTurnTaken
    | bazaars.BazaarOpened
    | bazaars.BazaarTilesTakenFaceDown
    | bazaars.BazaarRevealed
    | bazaars.BazaarDeferred
    | bazaars.BazaarResumed
    | bazaars.BazaarDropped
    | bazaars.BazaarTileChosen
    | bazaars.BidRaised
    | bazaars.TileBought
    | bazaars.TileSold
    | bazaars.BazaarTileAssigned
    | bazaars.BazaarTileTaken
    | tower.TowerPiecePlaced
    | tower.FollowerCaptured
    | tower.PrisonersExchanged
    | tower.TowerGuarded
    | tower.RansomPaid
    | abbey.AbbeyPlayed
    | wagon.WagonMoved
    | fairy.FairyMoved
    | dragon.DragonMoved
    | portal_princess.KnightRemoved
)
"""Every event a game can record: the file format and what the store keeps."""

AnyCommand = (
    PlaceTile
    | Deploy
    | Pass
    | bridges.PlaceBridge
    | castles.ChooseCastle
    | castles.ChooseCastleTarget
    | bazaars.ChooseBazaarTile
    | bazaars.Bid
    | bazaars.Buy
    | bazaars.Sell
    | tower.PlaceTowerPiece
    | tower.CaptureFollower
    | tower.GuardTower
    | tower.PayRansom
    | tower.ExchangePrisoner
    | abbey.PlaceAbbey
    | wagon.MoveWagon
    | fairy.MoveFairy
    | dragon.MoveDragon
    | portal_princess.RemoveKnight
)
"""Every command a player can give."""

EVENT_TYPES: Final[dict[str, type[ev.Event]]] = {
    cls.__name__: cls for cls in (*ev.CORE_EVENTS, *(t for part in PARTS for t in part.events))
}


def _register() -> None:
    """Tell the core whose events, steps and figures these are."""
    for part in PARTS:
        for event_type in part.events:
            _state._OWNERS[event_type] = part
        for step in part.pass_steps.values():
            _state._STEP_OWNERS[step] = part
        for figure, kind in part.figures.items():
            if kind.follower:
                FOLLOWER_STRENGTH[figure] = kind.strength
            if kind.occupies:
                OCCUPIERS.add(figure)


_register()
