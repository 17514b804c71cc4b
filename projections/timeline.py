"""Scores turn by turn, for charts: replayed once, read at the end of each turn."""

from __future__ import annotations

import xml.etree.ElementTree as ET
from collections.abc import Sequence

import msgspec

from domain import events as ev
from domain.replay import Replay
from projections.svg import COLOURS


class TurnMark(msgspec.Struct, frozen=True):
    turn: int
    version: int  # the event that ends the turn (the last event, for the game's end)
    scores: tuple[int, ...]


def score_timeline(events: Sequence[ev.Event]) -> list[TurnMark]:
    """Each normal turn's end, and the game's end if it has one, with the scores there."""
    rebuilt = Replay()
    marks: list[TurnMark] = []
    for event in events:
        rebuilt.apply(event)
        game = rebuilt.game
        assert game is not None
        state = game.state
        if isinstance(event, ev.TurnEnded | ev.GameEnded) and (
            not marks or marks[-1].turn != state.turn or state.over
        ):
            mark = TurnMark(turn=state.turn, version=state.version, scores=tuple(state.scores))
            if marks and marks[-1].turn == mark.turn:
                marks[-1] = mark
            else:
                marks.append(mark)
    return marks


def timeline_svg(
    players: Sequence[str], marks: Sequence[TurnMark], width: int = 480, height: int = 180
) -> str:
    """A line a player: points after each turn."""
    root = ET.Element(
        "svg",
        {
            "xmlns": "http://www.w3.org/2000/svg",
            "width": str(width),
            "height": str(height),
            "class": "timeline",
        },
    )
    top = max((max(m.scores) for m in marks if m.scores), default=0)
    low = min((min(m.scores) for m in marks if m.scores), default=0)  # bazaar payments go below 0
    low = min(low, 0)
    span = max(top - low, 1)
    last = max(len(marks) - 1, 1)
    ET.SubElement(
        root, "rect", {"width": str(width), "height": str(height), "fill": "#fff", "stroke": "#ccc"}
    )
    for seat, name in enumerate(players):
        scale = (height - 30) / span
        points = " ".join(
            f"{10 + i * (width - 20) / last:.1f},{height - 10 - (m.scores[seat] - low) * scale:.1f}"
            for i, m in enumerate(marks)
        )
        ET.SubElement(
            root,
            "polyline",
            {
                "points": points,
                "fill": "none",
                "stroke": COLOURS[seat % len(COLOURS)],
                "stroke-width": "2",
                "data-player": name,
            },
        )
    label = ET.SubElement(root, "text", {"x": "10", "y": "14", "font-size": "11"})
    label.text = f"points after each turn ({low} to {top})"
    return ET.tostring(root, encoding="unicode")
