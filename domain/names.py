"""What a player may be called when a game is created: something every screen shows as typed.

Names come from people (the service, `carc play --names`) and end up in terminals, tables,
spreadsheets and web pages. Control and format characters (escape codes, bidi overrides,
zero-width marks, line breaks) would let a name move the cursor, clear a screen or reorder the
text around it, so they are refused, as are names too long for a table column. Games recorded
elsewhere (an imported save) keep their names as they are; what prints them escapes them.
"""

from __future__ import annotations

import re
from typing import Final

MAX_NAME: Final = 40
# Refused: C0 and C1 controls, DEL, the soft hyphen, zero-width and bidi marks, line and paragraph
# separators, invisible operators and the byte order mark. One regular expression, which the
# service's schema states as its `pattern`, and linear to match, whatever the input.
NAME_PATTERN: Final = (
    "^[^\\x00-\\x1f\\x7f-\\x9f\\xad\\u061c\\u180e\\u200b-\\u200f\\u2028-\\u202e\\u2060-\\u206f\\ufeff]+$"
)
_NAME = re.compile(NAME_PATTERN)


def name_problem(name: str) -> str | None:
    """Why `name` cannot be a player's name, or None if it can."""
    if not name:
        return "a player's name cannot be empty"
    if len(name) > MAX_NAME:
        return f"a player's name has at most {MAX_NAME} characters, not {len(name)}"
    if _NAME.match(name) is None:
        shown = name.encode("unicode_escape").decode()
        return f"a player's name cannot hold control or formatting characters: {shown}"
    return None
