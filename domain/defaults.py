"""Defaults the command line and the store share, kept apart so that reading them is cheap."""

from __future__ import annotations

DEFAULT_DB = "carc.sqlite"  # the embedded store's file, in the working folder
DEFAULT_NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank")  # bots' names, in seat order
