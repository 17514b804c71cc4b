"""Defaults the command line and the store share, kept apart so that reading them is cheap."""

from __future__ import annotations

DEFAULT_DB = "carc.sqlite"  # the embedded store's file, in the working folder
DEFAULT_NAMES = ("Alice", "Bob", "Carol", "Dave", "Eve", "Frank")  # bots' names, in seat order
# The sets' codes, in the registry's order (`domain.expansions.SETS`, which a test keeps equal):
# named here so that `carc --help` lists them without loading every set's tiles.
SET_CODES = ("base", "bcb", "tb", "ic", "river", "tower", "am", "pd")
