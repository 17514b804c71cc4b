"""Our recorded-game file: JSON Lines, a header line then one line per event.

The header names the format and its version and repeats the setup (game id, players, sets,
rule set, draw order) so tools can read a game's setup from its first line; it also counts the
events, so a file cut off at a line boundary is told from a game still in progress. Each further
line is one event of `domain/events.py` exactly as msgspec encodes it, tagged by ``type``.

Reading checks every line as it comes: valid JSON, a known event type, no unknown field, then
the event itself through the strict replay of `domain/replay.py`. The first problem raises a
RecordError naming the line; a caller stores nothing until a whole file has been read.
"""

from __future__ import annotations

from collections.abc import Iterable, Iterator, Sequence
from contextlib import contextmanager
from pathlib import Path
from typing import BinaryIO
from uuid import UUID

import msgspec

from domain import events as ev
from domain.aggregate import Game
from domain.errors import UserError
from domain.expansions import EVENT_TYPES, GameEvent
from domain.readings import upcast_started
from domain.replay import Replay, ReplayError, describe
from domain.rules import RuleSet
from replays.files import write_whole

FORMAT = "carc-record"
VERSION = 2  # 2: each part's switches in the rule set's `options`; 1 (read too): one flat rule set
_UPCAST = 1  # the version whose rule sets are read through the upcaster


class Header(msgspec.Struct, frozen=True, kw_only=True, forbid_unknown_fields=True):
    format: str  # FORMAT; checked first, with the version (see _Signature)
    version: int
    game: UUID
    players: tuple[str, ...]
    expansions: tuple[str, ...]
    rules: RuleSet
    draw_order: tuple[str, ...]
    events: int  # lines that follow, one event each


class _Signature(msgspec.Struct, frozen=True):
    """The two header fields read before anything else, so another format or version is named as such."""

    format: str | None = None
    version: int | None = None


class RecordError(UserError):
    """A recorded-game file we refuse: the 1-based line (None: the file cannot be read at all),
    and the event and rule if one is at stake."""

    def __init__(
        self,
        line: int | None,
        message: str,
        event: ev.Event | None = None,
        rule: str | None = None,
        *,
        where: str | None = None,  # FILE:LINE, when the file is known
    ) -> None:
        shown = where or (None if line is None else f"line {line}")
        super().__init__(message if shown is None else f"{shown}: {message}")
        self.line = line
        self.message = message
        self.event = event
        self.rule = rule


_ENCODER = msgspec.json.Encoder()
_EVENT: msgspec.json.Decoder[ev.Event] = msgspec.json.Decoder(GameEvent)
_KEYS = msgspec.json.Decoder(dict[str, msgspec.Raw])  # field names only; values stay unparsed
_SIGNATURE = msgspec.json.Decoder(_Signature)
_HEADER = msgspec.json.Decoder(Header)
# Event structs ignore unknown fields; a file must not carry any, so each type's fields are known here.
_FIELDS = {
    cls: {f.encode_name for f in msgspec.structs.fields(cls)} | {"type"} for cls in EVENT_TYPES.values()
}


def header_of(events: Sequence[ev.Event]) -> Header:
    started = events[0]
    assert isinstance(started, ev.GameStarted)
    return Header(
        format=FORMAT,
        version=VERSION,
        game=started.originator_id,
        players=started.players,
        expansions=started.expansions,
        rules=started.rules,
        draw_order=started.draw_order,
        events=len(events),
    )


def encode(events: Sequence[ev.Event]) -> bytes:
    """The file for a game's events (the first being GameStarted)."""
    lines = [_ENCODER.encode(header_of(events)), *(_ENCODER.encode(e) for e in events)]
    return b"\n".join(lines) + b"\n"


def write(events: Sequence[ev.Event], path: Path) -> None:
    write_whole(path, encode(events))


@contextmanager
def _opened(path: Path) -> Iterator[BinaryIO]:
    try:
        with path.open("rb") as lines:
            yield lines
    except OSError as e:
        raise RecordError(None, f"cannot read {path}: {e.strerror}") from None


def read(path: Path) -> tuple[Game, list[ev.Event]]:
    """A file's game and events, every event checked against the rules (see `load`)."""
    with _opened(path) as lines, _naming(path):
        return load(lines)


def read_events(path: Path) -> list[ev.Event]:
    """A file's events, checked for form only: for the audit, which checks each rule set itself."""
    with _opened(path) as lines, _naming(path):
        return [event for _, event in _events(lines)]


@contextmanager
def _naming(path: Path) -> Iterator[None]:
    """A refusal names the file and the line: `FILE:LINE: what is wrong`."""
    try:
        yield
    except RecordError as e:
        where = f"{path}:{e.line}" if e.line is not None else str(path)
        raise RecordError(e.line, e.message, e.event, e.rule, where=where) from None


def load(lines: Iterable[bytes]) -> tuple[Game, list[ev.Event]]:
    """Read and validate a file's lines: the game they build and its events, or a RecordError.

    Lines are checked in order, each one's form and then its event's legality, so the error
    reported is the first one in the file.
    """
    rebuilt = Replay()
    events: list[ev.Event] = []
    for number, event in _events(lines):
        try:
            rebuilt.apply(event)
        except ReplayError as e:
            cited = f"{e.rule}: " if e.rule else ""
            raise RecordError(number, f"{describe(event)}: {cited}{e.message}", event, e.rule) from None
        events.append(event)
    assert rebuilt.game is not None  # _events yields at least the start
    return rebuilt.game, events


def _events(lines: Iterable[bytes]) -> Iterator[tuple[int, ev.Event]]:
    """Each event with its line number, checked for form only (not against the rules)."""
    numbered = enumerate(lines, start=1)
    first = next(numbered, None)
    if first is None:
        raise RecordError(1, "the file is empty; a recorded game starts with its header line")
    header, version = _header(first[1])
    count = number = 0
    for number, line in numbered:
        if number == 2 and version == _UPCAST:
            line = _upcast(line)
        event = _event(number, line)
        if number == 2:
            _agrees(header, event)
        if count == header.events:
            raise RecordError(number, f"more events than the {header.events} the header announces")
        count += 1
        yield number, event
    if count < header.events:
        raise RecordError(
            number + 1, f"the file ends after {count} events; the header announces {header.events}"
        )


# What msgspec raises besides its own errors on bytes that are no JSON it can read: a string that
# is not UTF-8, and nesting deeper than the interpreter's stack.
_UNREADABLE = (UnicodeDecodeError, RecursionError)


def _unreadable(error: Exception) -> str:
    if isinstance(error, UnicodeDecodeError):
        return f"not UTF-8 ({error.reason} at byte {error.start})"
    return "nested too deeply"


def _upcast(line: bytes) -> bytes:
    """A line of a version-1 file (its header or its GameStarted) with its rule set in today's shape."""
    try:
        return _ENCODER.encode(upcast_started(msgspec.json.decode(line)))
    except (msgspec.MsgspecError, *_UNREADABLE):
        return line  # not readable: the typed decoder says why


def _header(line: bytes) -> tuple[Header, int]:
    try:
        signature = _SIGNATURE.decode(line)
    except msgspec.ValidationError as e:  # a DecodeError too: caught first
        raise RecordError(1, f"not a {FORMAT} header ({e})") from None
    except msgspec.DecodeError as e:
        raise RecordError(1, f"the header is not valid JSON ({e})") from None
    except _UNREADABLE as e:
        raise RecordError(1, f"the header is {_unreadable(e)}") from None
    if signature.format != FORMAT:
        raise RecordError(1, f"not a {FORMAT} file (format {signature.format!r})")
    if signature.version not in (_UPCAST, VERSION):
        raise RecordError(
            1,
            f"{FORMAT} version {signature.version} is not supported; "
            f"this program reads {_UPCAST} and {VERSION}",
        )
    if signature.version == _UPCAST:
        line = _upcast(line)
    try:
        header = _HEADER.decode(line)
    except msgspec.ValidationError as e:
        raise RecordError(1, f"bad header: {e}") from None
    except _UNREADABLE as e:
        raise RecordError(1, f"the header is {_unreadable(e)}") from None
    if header.events < 1:
        raise RecordError(1, f"the header announces {header.events} events; a game has at least its start")
    return header, signature.version


def _event(number: int, line: bytes) -> ev.Event:
    if not line.strip():
        raise RecordError(number, "empty line where an event is due")
    try:
        event = _EVENT.decode(line)
    except msgspec.ValidationError as e:  # a DecodeError too: caught first
        raise RecordError(number, _invalid(line, e)) from None
    except msgspec.DecodeError as e:
        raise RecordError(number, f"not valid JSON ({e}); is the line cut short?") from None
    except _UNREADABLE as e:
        raise RecordError(number, f"the line is {_unreadable(e)}") from None
    try:
        keys = _KEYS.decode(line).keys()
    except _UNREADABLE as e:  # the typed decoder skips what the key decoder still reads
        raise RecordError(number, f"the line is {_unreadable(e)}") from None
    unknown = sorted(keys - _FIELDS[type(event)])
    if unknown:
        raise RecordError(number, f"{type(event).__name__} has no field {', '.join(map(repr, unknown))}")
    return event


def _invalid(line: bytes, error: msgspec.ValidationError) -> str:
    """Why a line of valid JSON is no event, in words (the slow path, taken once per bad file)."""
    try:
        fields = msgspec.json.decode(line)
    except (msgspec.MsgspecError, *_UNREADABLE) as e:  # the typed decoder stopped before this
        return f"{error}" if not isinstance(e, _UNREADABLE) else f"the line is {_unreadable(e)}"
    if not isinstance(fields, dict):
        return "an event is a JSON object"
    kind = fields.get("type")
    if not isinstance(kind, str) or kind not in EVENT_TYPES:
        return f"unknown event type {kind!r}; known: {', '.join(EVENT_TYPES)}"
    return f"bad {kind}: {error}"


def _agrees(header: Header, event: ev.Event) -> None:
    """The header repeats the setup; a file whose header and first event disagree is damaged."""
    if not isinstance(event, ev.GameStarted):
        raise RecordError(
            2, f"the first event must be GameStarted, not {type(event).__name__}", event, "R-BASE-2"
        )
    expected = header_of([event])
    differ = [
        f
        for f in ("game", "players", "expansions", "rules", "draw_order")
        if getattr(header, f) != getattr(expected, f)
    ]
    if differ:
        raise RecordError(2, f"GameStarted disagrees with the header on {', '.join(differ)}", event)
