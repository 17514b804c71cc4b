"""Small JCloisterZone 5.x saves built in code, for tests of the reader, the draws and `carc check`."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import Any

import msgspec

from replays.jcz import JczSave

Message = dict[str, Any]


def place(player: int, tile: str, x: int, y: int, rotation: int = 0) -> Message:
    return {
        "type": "PLACE_TILE",
        "payload": {"tileId": tile, "rotation": f"R{rotation}", "position": [x, y]},
        "player": player,
    }


def deploy(player: int, x: int, y: int, location: str, feature: str, figure: str = "small") -> Message:
    pointer = {"position": [x, y], "location": location, "feature": feature}
    return {
        "type": "DEPLOY_MEEPLE",
        "payload": {"pointer": pointer, "meepleId": f"{player}.{figure}.1"},
        "player": player,
    }


def pass_(player: int) -> Message:
    return {"type": "PASS", "payload": {}, "player": player}


def commit(player: int, random: float = 0.5) -> Message:
    return {"type": "COMMIT", "payload": {"random": random}, "player": player}


def save(
    replay: Sequence[Message],
    draw_order: Sequence[str] | None = None,
    *,
    players: Sequence[str] = ("Ann", "Bob"),
    end_turn: int | None = None,
    assertions: Sequence[str] = (),
    initial_random: float = 0.5,
    sets: dict[str, int] | None = None,
    elements: dict[str, Any] | None = None,
    rules: dict[str, Any] | None = None,
    start: Sequence[dict[str, Any]] = ({"tile": "BA/RCr", "x": 0, "y": 0, "rotation": 0},),
) -> dict[str, Any]:
    """A save as the JCZ client writes one, with the test runner's annotations and assertions."""
    document: dict[str, Any] = {
        "appVersion": "5.12.0",
        "initialRandom": initial_random,
        "setup": {
            "sets": sets if sets is not None else {"basic:1": 1},
            "elements": elements if elements is not None else {"small-follower": 7, "farmers": True},
            "rules": rules or {},
            "start": list(start),
        },
        "players": [{"name": name, "slot": i} for i, name in enumerate(players)],
        "replay": list(replay),
    }
    if draw_order is not None:
        annotations: dict[str, Any] = {"drawOrder": list(draw_order)}
        if end_turn is not None:
            annotations["endTurn"] = end_turn
        document["gameAnnotations"] = annotations
    if assertions:
        document["test"] = {"description": "built in a test", "assertions": list(assertions)}
    return document


# Ann extends the start tile's road and stays on it; Bob closes the start city with a cap and
# takes it (4 points); the pack ends there, so Ann's open 2-tile road scores 2 at the end.
TWO_TURNS = save(
    [
        place(0, "BA/RFr", 1, 0),
        deploy(0, 1, 0, "WE", "Road"),
        commit(0),
        place(1, "BA/C", 0, -1, 180),
        deploy(1, 0, -1, "S", "City"),
        commit(1),
    ],
    ["BA/RFr", "BA/C"],
    end_turn=2,
    assertions=[
        "Ann has 2 points",
        "Bob has 4 points",
        "Bob scored city for 4 points",
        "Ann scored road for 2 points",
    ],
)


def decode(document: dict[str, Any]) -> JczSave:
    return msgspec.convert(document, JczSave)


def write(folder: Path, document: dict[str, Any], name: str = "game.jcz") -> Path:
    path = folder / name
    path.write_bytes(msgspec.json.encode(document))
    return path
