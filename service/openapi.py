"""The service's OpenAPI document, exact about what each route accepts.

Litestar writes the document from the handlers' signatures, but it loses part of what msgspec
enforces: the length and pattern of a player's name inside a list, that unknown fields are
refused (`additionalProperties: false`), a lower bound of 0. A client generator or a schema
fuzzer reading that document would send what the server then refuses. So the document is served
with every body and answer type described by msgspec's own JSON Schema generator, which states
exactly the rules its decoder applies, and with the bounds of the parameters filled in.
"""

from __future__ import annotations

from typing import Any

import msgspec
from litestar import Request
from litestar.openapi.plugins import JsonRenderPlugin

from domain.expansions import PARTS
from domain.sets import SET_CODES
from projections.scores import ScoreReport
from service.schema import (
    MAX_INT64,
    GameCreated,
    GameList,
    GameView,
    Health,
    MoveAnswer,
    MoveBody,
    NewGame,
    Problem,
    SeatToken,
)

DESCRIBED = (
    NewGame,
    MoveBody,
    GameCreated,
    GameList,
    GameView,
    Health,
    MoveAnswer,
    Problem,
    SeatToken,
    ScoreReport,
)
# Parameters whose bounds Litestar leaves out of the document: (location, name) -> bounds.
_BOUNDS: dict[tuple[str, str], dict[str, int]] = {
    ("query", "after"): {"minimum": 0, "maximum": MAX_INT64},
    ("header", "Last-Event-ID"): {"minimum": 0, "maximum": MAX_INT64},
    ("path", "seat"): {"minimum": 0, "maximum": 5},
}


def exact_document(document: dict[str, Any]) -> dict[str, Any]:
    """`document` with msgspec's schemas of the service's types and every parameter's bounds."""
    switches = {part.name: part.options for part in PARTS if part.options is not None}
    _, components = msgspec.json.schema_components(
        (*DESCRIBED, *switches.values()), ref_template="#/components/schemas/{name}"
    )
    document = {**document, "components": {**document.get("components", {})}}
    document["components"]["schemas"] = {**document["components"].get("schemas", {}), **components}
    # What msgspec's types cannot state: names are distinct (R-BASE-1); the sets are ours
    # (R-BASE-2). The base game is added when not named, a set named twice is played once
    # (`domain.sets.game_sets`).
    # A rule set's `options` holds, by part name, that part's own switches (`domain.rules`).
    components["RuleSet"]["properties"]["options"] = {
        "type": "object",
        "properties": {
            name: {"$ref": f"#/components/schemas/{kind.__name__}"} for name, kind in switches.items()
        },
        "additionalProperties": False,
    }
    new_game = components["NewGame"]["properties"]
    new_game["players"]["uniqueItems"] = True
    new_game["expansions"] |= {"items": {"enum": list(SET_CODES)}}
    for operations in document.get("paths", {}).values():
        for operation in operations.values():
            for parameter in operation.get("parameters", ()) if isinstance(operation, dict) else ():
                bounds = _BOUNDS.get((parameter.get("in"), parameter.get("name")))
                if bounds:
                    parameter["schema"] = _bounded(parameter["schema"], bounds)
    return document


def _bounded(schema: dict[str, Any], bounds: dict[str, int]) -> dict[str, Any]:
    """An integer (or nullable integer) schema with `bounds` on its integer."""
    if "oneOf" in schema:
        return {"oneOf": [{**s, **bounds} if s.get("type") == "integer" else s for s in schema["oneOf"]]}
    return {**{k: v for k, v in schema.items() if k not in ("minimum", "maximum")}, **bounds}


class ExactJsonPlugin(JsonRenderPlugin):
    """Serves `/schema/openapi.json` as `exact_document` makes it."""

    def render(self, request: Request[Any, Any, Any], openapi_schema: dict[str, Any]) -> bytes:
        return msgspec.json.encode(exact_document(openapi_schema))
