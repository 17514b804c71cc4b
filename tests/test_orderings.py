"""The four builder-versus-bazaar orderings (RULES.md 6: V-ORDER-HIG, V-ORDER-BUILDER-FIRST,
V-ORDER-FACEDOWN, V-ORDER-JCZ) on constructed games with a fixed pile.

Every game starts the same way: Ann lays a road east of the start tile with her follower and
then her builder on it; Bob lays cloisters to the south. Ann's fifth tile is the road bazaar
BB/RFR.b, laid west of the start tile: it holds a bazaar and extends the builder's road, which
is the disputed case. The tiles that follow differ per test; the exact turn parts (and which
tile each player gets) are written out by hand from the rule text of each ordering.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

import pytest

from domain import events as ev
from domain.aggregate import Game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.expansions import bazaars as bz, builders as bd
from domain.expansions.bazaars import ORDER_VARIANTS, ORDERS, Order
from domain.moves import expected_step, legal_commands
from domain.readings import rule_set
from domain.state import GameState

# Each parametrized test runs once per ordering, its id the ordering's variant (V-ORDER-HIG, …).
ORDER_IDS = [ORDER_VARIANTS[order] for order in ORDERS]

PLAYERS = ("Ann", "Bob")
ANN, BOB = 0, 1
EXPANSIONS = ("base", "bcb", "tb")

R = "BA/RFr"  # straight road E+W
L = "BA/L"  # cloister, all field
F = "BB/F.b"  # bazaar, all field
RB = "BB/RFR.b"  # bazaar between two road ends

# Ann: road with follower at (1,0), road with builder at (2,0), bazaar road at (-1,0).
OPENING = (R, L, R, L, RB)
OPENING_DEPLOYS: Mapping[tuple[int, int], Deploy] = {
    (1, 0): Deploy(location="E+W"),
    (2, 0): Deploy(location="E+W", figure="builder"),
}

# Which tile id a chooser picks at a bazaar, if it is on offer (else the first one left).
WISHES: Mapping[int, Sequence[str]] = {ANN: (R,), BOB: (L,)}

Preference = Callable[[GameState, list[PlaceTile]], PlaceTile]

# The turn-part events a sequence is made of.
PART_EVENTS = (
    ev.TileDrawn,
    bd.BuilderTurnGranted,
    bd.BuilderTurnTaken,
    bz.BazaarOpened,
    bz.BazaarTilesTakenFaceDown,
    bz.BazaarRevealed,
    bz.BazaarTileTaken,
    bz.BazaarDeferred,
    bz.BazaarResumed,
    bz.BazaarDropped,
    ev.GameEnded,
)


def road_preference(owner: int) -> Preference:
    """`owner`'s straight roads extend their road eastward (y=0, largest x); their road bazaar
    goes to its west end (y=0, smallest x); every other tile goes as far south as it can, then
    west, so it touches no road on y=0."""

    def prefer(state: GameState, placements: list[PlaceTile]) -> PlaceTile:
        assert state.tile is not None
        tile_id = state.tile.id
        on_road = [p for p in placements if p.y == 0]
        if state.current == owner and tile_id == R and on_road:
            return max(on_road, key=lambda p: (p.x, -p.rotation))
        if state.current == owner and tile_id == RB and on_road:
            return min(on_road, key=lambda p: (p.x, p.rotation))
        return min(placements, key=lambda p: (-p.y, p.x, p.rotation))

    return prefer


road_builder_preference = road_preference(ANN)


def drive(
    game: Game,
    *,
    prefer: Preference = road_builder_preference,
    deploys: Mapping[tuple[int, int], Deploy] = OPENING_DEPLOYS,
    wishes: Mapping[int, Sequence[str]] = WISHES,
    max_steps: int = 500,
) -> Game:
    """Play a scripted game to its end: every command comes from `legal_commands`.

    Placements are picked by `prefer`; a deployment is made where `deploys` names the placed
    tile's position, else the player passes. At a bazaar the chooser picks their wished tile
    with an opening bid of 0, everyone else passes, and the chooser's bid stands.
    """
    state = game.state
    for _ in range(max_steps):
        if state.over:
            return game
        decision = expected_step(state)
        assert decision is not None, "the game waits for nobody but is not over"
        options = legal_commands(state)
        command: Command
        if decision.step == "place":
            placements = [c for c in options if isinstance(c, PlaceTile) and c.bridge is None]
            command = prefer(state, placements)
        elif decision.step == "action":
            assert state.placed is not None
            wanted = deploys.get(state.placed.pos)
            command = wanted if wanted is not None else Pass()
        elif decision.step == "choose":
            auction = bz.bazaars(state).auction
            assert auction is not None
            left = auction.remaining()
            wished = [i for i in left if auction.tiles[i] in wishes.get(decision.player, ())]
            command = bz.ChooseBazaarTile(index=(wished or left)[0], bid=0)
        elif decision.step == "bid":
            command = Pass()
        else:
            raise AssertionError(f"unscripted decision {decision}")
        assert command in options, f"{command} is not legal now"
        game.execute(decision.player, command)
    raise AssertionError("the game did not end")


def play(order: Order, pile: Sequence[str]) -> Game:
    game = Game.start(PLAYERS, [*OPENING, *pile], expansions=EXPANSIONS, rules=rule_set(order=order))
    return drive(game)


def describe(event: ev.Event, players: Sequence[str] = PLAYERS) -> str:
    name = type(event).__name__
    if isinstance(event, ev.TileDrawn | bd.BuilderTurnTaken | bz.BazaarTileTaken):
        return f"{name} {players[event.player]} {event.tile}"
    if isinstance(event, bd.BuilderTurnGranted):
        return f"{name} {players[event.player]}"
    if isinstance(event, bz.BazaarOpened | bz.BazaarResumed | bz.BazaarTilesTakenFaceDown):
        return f"{name} {players[event.host]} {','.join(event.tiles)}"
    if isinstance(event, bz.BazaarRevealed | bz.BazaarDeferred | bz.BazaarDropped):
        return f"{name} {players[event.host]}"
    return name


def parts(game: Game, players: Sequence[str] = PLAYERS, opening: int = len(OPENING)) -> list[str]:
    """The turn parts after the opening's draws, in order."""
    found = [describe(e, players) for e in game.pending if isinstance(e, PART_EVENTS)]
    return found[opening:]


def drawn(player: str, tile: str) -> str:
    return f"TileDrawn {player} {tile}"


def taken(player: str, tile: str) -> str:
    return f"BazaarTileTaken {player} {tile}"


def builder(player: str, tile: str) -> str:
    return f"BuilderTurnTaken {player} {tile}"


GRANT = "BuilderTurnGranted Ann"
END = "GameEnded"

# Pile A: the first tile after Ann's bazaar road is itself a bazaar tile (F).
PILE_A = (F, L, R, L, L, L)
EXPECTED_A: dict[Order, list[str]] = {
    # Auction first: F and L are auctioned (a bought bazaar tile holds no bazaar, R-BAZAAR-8);
    # then the host's builder tile R.
    "hig": [
        GRANT,
        "BazaarOpened Ann BB/F.b,BA/L",
        taken("Bob", L),
        taken("Ann", F),
        builder("Ann", R),
        drawn("Bob", L),
        drawn("Ann", L),
        drawn("Bob", L),
        END,
    ],
    # Builder tile first: it is F, whose bazaar is held after the first one. Ann's bought R
    # extends her road again in her bazaar part: her own builder turn right after it.
    "builder-first": [
        GRANT,
        builder("Ann", F),
        "BazaarDeferred Ann",
        "BazaarOpened Ann BA/L,BA/RFr",
        taken("Bob", L),
        taken("Ann", R),
        GRANT,
        builder("Ann", L),
        "BazaarResumed Ann BA/L,BA/L",
        taken("Bob", L),
        taken("Ann", L),
        END,
    ],
    # F and L leave the pile face down first; the builder tile is R.
    "facedown": [
        GRANT,
        "BazaarTilesTakenFaceDown Ann BB/F.b,BA/L",
        builder("Ann", R),
        "BazaarRevealed Ann",
        taken("Bob", L),
        taken("Ann", F),
        drawn("Bob", L),
        drawn("Ann", L),
        drawn("Bob", L),
        END,
    ],
    # As builder-first, but the builder tile's bazaar is dropped, not deferred.
    "jcz": [
        GRANT,
        builder("Ann", F),
        "BazaarDropped Ann",
        "BazaarOpened Ann BA/L,BA/RFr",
        taken("Bob", L),
        taken("Ann", R),
        GRANT,
        builder("Ann", L),
        drawn("Bob", L),
        drawn("Ann", L),
        END,
    ],
}

# Pile B (V-ORDER-HIG): Ann's bought R earns her a builder turn inside the round; that builder
# tile is a bazaar (F), deferred; the deferred bazaar's round defers another one the same way.
PILE_B = (R, L, F, R, L, F, L, L, R, L)
EXPECTED_B_HIG = [
    GRANT,
    "BazaarOpened Ann BA/RFr,BA/L",
    taken("Bob", L),
    taken("Ann", R),
    GRANT,
    builder("Ann", F),
    "BazaarDeferred Ann",
    "BazaarResumed Ann BA/RFr,BA/L",
    taken("Bob", L),
    taken("Ann", R),
    GRANT,
    builder("Ann", F),
    "BazaarDeferred Ann",
    "BazaarResumed Ann BA/L,BA/L",
    taken("Bob", L),
    taken("Ann", L),
    builder("Ann", R),  # only now, no bazaar pending, the host's own builder tile
    drawn("Bob", L),
    END,
]

# Pile C: the bazaar round's builder part draws F: deferred (facedown, builder-first), dropped (jcz).
PILE_C = (L, R, L, F, L, L, L)
EXPECTED_C: dict[Order, list[str]] = {
    # The host's builder tile (F) comes after the round and its own builder part: no bazaar is
    # pending any more, so its bazaar is held at once.
    "hig": [
        GRANT,
        "BazaarOpened Ann BA/L,BA/RFr",
        taken("Bob", L),
        taken("Ann", R),
        GRANT,
        builder("Ann", L),
        builder("Ann", F),
        "BazaarOpened Ann BA/L,BA/L",
        taken("Bob", L),
        taken("Ann", L),
        drawn("Bob", L),
        END,
    ],
    "builder-first": [
        GRANT,
        builder("Ann", L),
        "BazaarOpened Ann BA/RFr,BA/L",
        taken("Bob", L),
        taken("Ann", R),
        GRANT,
        builder("Ann", F),
        "BazaarDeferred Ann",
        "BazaarResumed Ann BA/L,BA/L",
        taken("Bob", L),
        taken("Ann", L),
        drawn("Bob", L),
        END,
    ],
    "facedown": [
        GRANT,
        "BazaarTilesTakenFaceDown Ann BA/L,BA/RFr",
        builder("Ann", L),
        "BazaarRevealed Ann",
        taken("Bob", L),
        taken("Ann", R),
        GRANT,
        builder("Ann", F),
        "BazaarDeferred Ann",
        "BazaarResumed Ann BA/L,BA/L",
        taken("Bob", L),
        taken("Ann", L),
        drawn("Bob", L),
        END,
    ],
    "jcz": [
        GRANT,
        builder("Ann", L),
        "BazaarOpened Ann BA/RFr,BA/L",
        taken("Bob", L),
        taken("Ann", R),
        GRANT,
        builder("Ann", F),
        "BazaarDropped Ann",
        drawn("Bob", L),
        drawn("Ann", L),
        drawn("Bob", L),
        END,
    ],
}

# Pile D: exactly as many tiles left as players. Whatever comes first takes tiles from the
# other: auction first leaves no builder tile (R-TB-3a); builder first leaves too few tiles for
# a bazaar (R-BAZAAR-3).
PILE_D = (L, L)
EXPECTED_D: dict[Order, list[str]] = {
    "hig": [GRANT, "BazaarOpened Ann BA/L,BA/L", taken("Bob", L), taken("Ann", L), END],
    "builder-first": [GRANT, builder("Ann", L), drawn("Bob", L), END],
    "facedown": [
        GRANT,
        "BazaarTilesTakenFaceDown Ann BA/L,BA/L",
        "BazaarRevealed Ann",
        taken("Bob", L),
        taken("Ann", L),
        END,
    ],
    "jcz": [GRANT, builder("Ann", L), drawn("Bob", L), END],
}


def test_opening_puts_the_builder_on_the_bazaar_road() -> None:
    """The shared opening does what the module docstring says (guards every test below)."""
    game = Game.start(PLAYERS, [*OPENING, L, L, L], expansions=EXPANSIONS)
    drive(game)
    events = list(game.pending)
    bazaar_part = next(i for i, e in enumerate(events) if isinstance(e, ev.TilePlaced) and e.tile == RB)
    placed = events[bazaar_part]
    assert isinstance(placed, ev.TilePlaced)
    assert (placed.x, placed.y, placed.player) == (-1, 0, ANN)
    builders = [e for e in events if isinstance(e, ev.FollowerDeployed) and e.figure == "builder"]
    assert [(e.x, e.y, e.player) for e in builders] == [(2, 0, ANN)]


@pytest.mark.parametrize("order", ORDERS, ids=ORDER_IDS)
def test_V_ORDER_bazaar_tile_extending_the_builder_with_a_bazaar_tile_next(order: Order) -> None:
    assert parts(play(order, PILE_A)) == EXPECTED_A[order]


def test_V_ORDER_the_four_orderings_give_four_different_games() -> None:
    outcomes = {order: tuple(parts(play(order, PILE_A))) for order in ORDERS}
    assert len(set(outcomes.values())) == 4
    # Who placed which tile after the opening.
    by_player = {order: tiles_placed(play(order, PILE_A)) for order in ORDERS}
    assert by_player["hig"] == by_player["facedown"] == {ANN: sorted([F, R, L]), BOB: [L, L, L]}
    assert by_player["builder-first"] == {ANN: sorted([F, R, L, L]), BOB: [L, L]}
    assert by_player["jcz"] == {ANN: sorted([F, R, L, L]), BOB: [L, L]}


def tiles_placed(game: Game) -> dict[int, list[str]]:
    """Tiles each player placed after the opening, sorted."""
    placed = [e for e in game.pending if isinstance(e, ev.TilePlaced)][len(OPENING) :]
    return {p: sorted(e.tile for e in placed if e.player == p) for p in (ANN, BOB)}


def test_V_ORDER_HIG_defers_a_bazaar_drawn_in_a_round_builder_part_and_a_deferred_one_defers_again() -> None:
    game = play("hig", PILE_B)
    assert parts(game) == EXPECTED_B_HIG
    assert not bz.bazaars(game.state).deferred and not bz.bazaars(game.state).won


@pytest.mark.parametrize("order", ORDERS, ids=ORDER_IDS)
def test_V_ORDER_builder_part_inside_a_bazaar_round_draws_a_bazaar_tile(order: Order) -> None:
    assert parts(play(order, PILE_C)) == EXPECTED_C[order]


@pytest.mark.parametrize("order", ORDERS, ids=ORDER_IDS)
def test_V_ORDER_pile_with_as_many_tiles_as_players(order: Order) -> None:
    assert parts(play(order, PILE_D)) == EXPECTED_D[order]


@pytest.mark.parametrize("order", ORDERS, ids=ORDER_IDS)
def test_V_ORDER_every_tile_of_the_pile_is_played_once(order: Order) -> None:
    for pile in (PILE_A, PILE_B, PILE_C, PILE_D):
        game = play(order, pile)
        placed = [e.tile for e in game.pending if isinstance(e, ev.TilePlaced)]
        assert sorted(placed) == sorted([*OPENING, *pile])


# Three players; Bob owns the road and the builder, Ann hosts a plain bazaar (F, no builder).
# Bob's bought R earns him a builder turn in the round; his builder tile F is deferred with Bob
# as its host: the resumed bazaar starts from Cat, and play then resumes after Ann.
THREE = ("Ann", "Bob", "Cat")
CAT = 2
THREE_OPENING = (L, R, L, L, R, L, F)
THREE_PILE = (R, L, L, F, L, L, L, L)
EXPECTED_THREE: dict[Order, list[str]] = {
    order: [
        "BazaarOpened Ann BA/RFr,BA/L,BA/L",
        taken("Bob", R),
        "BuilderTurnGranted Bob",
        builder("Bob", F),
        "BazaarDeferred Bob",
        taken("Cat", L),
        taken("Ann", L),
        "BazaarResumed Bob BA/L,BA/L,BA/L",
        taken("Cat", L),
        taken("Ann", L),
        taken("Bob", L),
        drawn("Bob", L),
        END,
    ]
    for order in ("hig", "builder-first")
}
# Ann earns no builder tile with her bazaar: taking its tiles face down would change nothing,
# so V-ORDER-FACEDOWN holds it like V-ORDER-HIG does.
EXPECTED_THREE["facedown"] = EXPECTED_THREE["hig"]
EXPECTED_THREE["jcz"] = [
    *EXPECTED_THREE["hig"][:4],
    "BazaarDropped Bob",
    taken("Cat", L),
    taken("Ann", L),
    drawn("Bob", L),
    drawn("Cat", L),
    drawn("Ann", L),
    drawn("Bob", L),
    END,
]


@pytest.mark.parametrize("order", ORDERS, ids=ORDER_IDS)
def test_V_ORDER_a_non_host_builder_part_defers_a_bazaar_it_then_hosts(order: Order) -> None:
    pile = [*THREE_OPENING, *THREE_PILE]
    game = Game.start(THREE, pile, expansions=EXPANSIONS, rules=rule_set(order=order))
    drive(
        game,
        prefer=road_preference(BOB),
        deploys=OPENING_DEPLOYS,
        wishes={BOB: (R,), CAT: (L,), ANN: (L,)},
    )
    assert parts(game, THREE, len(THREE_OPENING)) == EXPECTED_THREE[order]


@pytest.mark.parametrize("order", ORDERS, ids=ORDER_IDS)
def test_V_ORDER_too_few_tiles_for_a_bazaar_every_ordering_gives_the_builder_tile(order: Order) -> None:
    """One tile left (fewer than players): no bazaar under any ordering (R-BAZAAR-3), so they
    all agree: the builder tile is the last tile."""
    assert parts(play(order, (L,))) == [GRANT, builder("Ann", L), END]
