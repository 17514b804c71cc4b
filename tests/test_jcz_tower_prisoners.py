"""Which prisoner a JCloisterZone save names (R-TOWER-6, R-TOWER-7): a ransom names the meeple by
its id, and an exchange frees the capturer's follower taken first. The import follows the id to
the player holding it; the export writes the ids JCloisterZone gives. Both games were replayed by
JCloisterZone's engine itself (the harness of bench/check.py --jcz-cmd), which took every message
and ended on the same scores.

The start tile BA/RCr lies at (0,0): city N, road E+W, field S.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from types import SimpleNamespace
from typing import Any, cast

import msgspec

from domain.aggregate import Game
from domain.commands import Command, Deploy, Pass, PlaceTile
from domain.events import Event
from domain.expansions import tower as tw
from domain.moves import legal_placements
from domain.readings import rule_set
from domain.state import GameState, Phase
from replays.check import check_file, score_name
from replays.jcz import JCZ_READING, ReplayVisitor, read_jcz, replay_jcz
from replays.jcz_draws import plan_draws
from replays.jcz_export import MeepleIds, Writer, export_jcz
from replays.jcz_sets.tower import MAPPING as TOWER
from replays.sources import import_jcz

ANN, BOB, CARL = 0, 1, 2
JCZ_RULES = rule_set(**JCZ_READING)


def place(game: Game, x: int, y: int, rotation: int = 0, then: Sequence[Command] = ()) -> None:
    player = game.state.current
    game.execute(player, PlaceTile(x=x, y=y, rotation=rotation))
    for command in then:
        game.execute(player, command)
    if game.state.phase == Phase.ACTION:
        game.execute(player, Pass())


def round_trip(game: Game, tmp_path: Path) -> list[tuple[str, Any]]:
    """The game's save, whose import gives the same events again; its messages but placements
    and commits."""
    path = tmp_path / "game.jcz"
    path.write_bytes(export_jcz(game.pending))
    _, imported = import_jcz(path)
    started = imported[0]
    events: list[Event] = [
        msgspec.structs.replace(e, originator_id=started.originator_id) for e in game.pending
    ]
    assert imported[1:] == events[1:]
    sent = msgspec.json.decode(path.read_bytes())["replay"]
    return [(m["type"], m["payload"]) for m in sent if m["type"] not in ("PLACE_TILE", "COMMIT")]


def test_R_TOWER_7_a_ransom_goes_to_the_player_holding_the_meeple_the_save_names(tmp_path: Path) -> None:
    """Bob holds Ann's thief, Carl her monk: her ransom to Carl names the monk, and the import
    pays Carl, not the first player holding a follower of hers."""
    pile = ["BA/RFr", "TO/F", "BA/L", "BA/L", "BA/L", "BA/L", "BA/C", "BA/C", "BA/C", "BA/C", "BA/RFr"]
    game = Game.start(("Ann", "Bob", "Carl"), pile, expansions=("base", "tower"), rules=JCZ_RULES)
    place(game, 1, 0, then=[Deploy(location="E+W")])  # Ann's thief, 0.small.1
    capture_thief = tw.CaptureFollower(x=1, y=0, location="E+W", owner=ANN)
    place(game, 1, 1, then=[tw.PlaceTowerPiece(x=1, y=1), capture_thief])  # Bob
    place(game, 0, 1)  # Carl
    place(game, 2, 1, then=[Deploy(location="cloister")])  # Ann's monk, 0.small.2
    place(game, 0, 2)  # Bob
    capture_monk = tw.CaptureFollower(x=2, y=1, location="cloister", owner=ANN)
    place(game, -1, 1, then=[tw.PlaceTowerPiece(x=1, y=1), capture_monk])  # Carl, height 2
    place(game, 0, -1, 180, then=[Deploy(location="S")])  # Ann closes a city: 4 points
    place(game, -1, 2, 180)  # Bob
    place(game, 3, 1, 90)  # Carl
    assert tw.towers(game.state).prisoners == [[], [(ANN, "follower")], [(ANN, "follower")]]
    place(game, 1, -1, then=[tw.PayRansom(jailer=CARL)])
    assert game.state.scores == [1, 0, 3]  # JCloisterZone's engine ends there too
    sent = round_trip(game, tmp_path)
    assert ("PAY_RANSOM", {"meepleId": "0.small.2"}) in sent
    _checked_as_jcloisterzone_records_it(tmp_path / "game.jcz", game)


class _Recorder(ReplayVisitor):
    """What JCloisterZone's engine records of a save, by our engine: the legal placements at each
    tile, and each turn part's scores, where a ransom is none (its own event, RansomPaidEvent)."""

    def __init__(self) -> None:
        self.decisions: list[dict[str, Any]] = []
        self.parts: list[dict[str, Any]] = []
        self.seen = 0

    def placement(self, index: int, state: GameState, *, aside: bool = False) -> None:
        if aside:  # a ransom paid while a placement is offered: the placement comes next
            return
        assert state.tile is not None
        self.decisions.append(
            {
                "index": index,
                "player": state.current,
                "tile": state.tile.id,
                "placements": sorted(legal_placements(state)),
            }
        )

    def committed(self, index: int, state: GameState) -> None:
        fresh, self.seen = state.awards[self.seen :], len(state.awards)
        scores = [{"player": a.player, "points": a.points, "name": score_name(a)} for a in fresh]
        self.parts.append({"turn": state.turn, "scores": scores})


def _checked_as_jcloisterzone_records_it(path: Path, game: Game) -> None:
    """A ransom moves the totals but is no score of its turn part in what JCloisterZone records
    (a RansomPaidEvent, no ScoreEvent); listed as one, the check finds the part differs."""
    document = msgspec.json.decode(path.read_bytes())
    recorder = _Recorder()
    save = read_jcz(path)
    replay_jcz(save, plan_draws(save).order, recorder)
    ransoms = [s for part in recorder.parts for s in part["scores"] if s["name"] == "ransom"]
    assert len(ransoms) == 2  # what our engine awards: -3 to Ann, 3 to Carl
    as_jcz = [
        {**part, "scores": [s for s in part["scores"] if s["name"] != "ransom"]} for part in recorder.parts
    ]
    oracle = {"final_points": game.state.scores, "decisions": recorder.decisions}
    document["oracle"] = {**oracle, "score_history": as_jcz}
    path.write_bytes(msgspec.json.encode(document))
    assert check_file(path).verdict == "agrees"
    document["oracle"] = {**oracle, "score_history": recorder.parts}
    path.write_bytes(msgspec.json.encode(document))
    assert check_file(path).verdict == "disagrees"


def test_R_TOWER_6_an_exchange_frees_the_capturers_follower_taken_first(tmp_path: Path) -> None:
    """Ann takes Bob's monks 1.small.1 then 1.small.2; Bob takes hers: 1.small.1 comes home, so
    his ransom names 1.small.2, and his next follower is 1.small.1 again."""
    pile = ["TO/F", "BA/L", "BA/C", "BA/L", "BA/C", "BA/C", "BA/C", "BA/C", "BA/L", "BA/L", "TO/C", "TO/C"]
    game = Game.start(("Ann", "Bob"), [*pile, "BA/RFr"], expansions=("base", "tower"), rules=JCZ_RULES)
    place(game, 0, 1)  # Ann: the tower tile
    place(game, 0, 2, then=[Deploy(location="cloister")])  # Bob's monk 1.small.1
    place(game, 1, 2, 180)  # Ann
    place(game, 1, 1, then=[Deploy(location="cloister")])  # Bob's monk 1.small.2
    take_first = tw.CaptureFollower(x=0, y=2, location="cloister", owner=BOB)
    place(game, 2, 1, 90, then=[tw.PlaceTowerPiece(x=0, y=1), take_first])  # Ann
    place(game, 0, -1, 180, then=[Deploy(location="S")])  # Bob closes a city: 4 points
    take_second = tw.CaptureFollower(x=1, y=1, location="cloister", owner=BOB)
    place(game, -1, 2, 270, then=[tw.PlaceTowerPiece(x=0, y=1), take_second])  # Ann, height 2
    place(game, 2, 0, 90)  # Bob
    place(game, -1, 1, then=[Deploy(location="cloister")])  # Ann's monk
    take_hers = tw.CaptureFollower(x=-1, y=1, location="cloister", owner=ANN)
    place(game, 2, 2, 90, then=[tw.PlaceTowerPiece(x=0, y=1), take_hers])  # Bob: an exchange
    assert tw.towers(game.state).prisoners == [[(BOB, "follower")], []]
    place(game, -2, 1, 270)  # Ann
    place(game, 0, 3, 180, then=[tw.PayRansom(jailer=ANN), Deploy(location="S")])  # Bob
    assert game.state.scores == [3, 1]  # JCloisterZone's engine ends there too
    sent = round_trip(game, tmp_path)
    assert sent[-2:] == [
        ("PAY_RANSOM", {"meepleId": "1.small.2"}),
        (
            "DEPLOY_MEEPLE",
            {"pointer": {"position": [0, 3], "location": "S", "feature": "City"}, "meepleId": "1.small.1"},
        ),
    ]


def test_R_TOWER_5_ones_own_follower_taken_goes_home_under_the_id_the_capture_names() -> None:
    """Two of Ann's followers in one place (a corn circle's second one, say): the CAPTURE_FOLLOWER
    of her own names the first that came there, and JCloisterZone sends that one home; the other
    stays. The export kept the first out and sent the second home, so its next DEPLOY_MEEPLE named
    a follower JCloisterZone still had on the board (a judged all-sets game, seed 37, refused)."""
    game = Game.start(("Ann", "Bob"), ["BA/RFr"], expansions=("base", "tower"), rules=JCZ_RULES)
    ids = MeepleIds(game.state)
    spot = (1, 0, "E+W")
    assert [ids.take(ANN, "follower", spot), ids.take(ANN, "follower", spot)] == ["0.small.1", "0.small.2"]
    assert ids.at(ANN, "follower", spot) == "0.small.1"  # what the capture's message names
    captured = tw.FollowerCaptured(
        originator_id=game.state.id,
        originator_version=1,
        player=ANN,
        x=1,
        y=0,
        location="E+W",
        owner=ANN,
        figure="follower",
    )
    TOWER.moved(cast(Writer, SimpleNamespace(ids=ids)), captured)
    assert ids.at(ANN, "follower", spot) == "0.small.2"  # still there
    assert ids.take(ANN, "follower", (2, 0, "N")) == "0.small.1"  # home again, deployed next
