"""The core names no set: every set lives in its own files (its rules modules in
`domain/expansions/`, its mapping in `replays/jcz_sets/`, its tiles in `domain/catalogue/`).

The core is the board, the feature graph, the fold, the sequencer and agenda, the legal-move and
decide entry points, the scoring of the base game and the hook protocol. The rules modules are
the rule set, its readings and the catalogue's reader; the format modules read and write saves
(JCloisterZone's and our own) and check them. A word of a set's own vocabulary in any of them
(code, strings or comments) means a set leaked out of its own files; the views are checked alike
(tests/test_views_name_no_set.py).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest

from domain import part as part_module
from domain.expansions import PARTS, SETS, parts_for

ROOT = Path(__file__).resolve().parents[1]
DOMAIN = ROOT / "domain"
CORE = (
    "agenda.py",
    "aggregate.py",
    "board.py",
    "decide.py",
    "events.py",
    "features.py",
    "geometry.py",
    "moves.py",
    "part.py",
    "scoring.py",
    "state.py",
    "tiles.py",
    "turns.py",
    "view.py",
)
RULES = ("domain/rules.py", "domain/readings.py", "domain/defaults.py", "domain/catalogue/__init__.py")
FORMATS = (
    "replays/jcz.py",
    "replays/jcz_export.py",
    "replays/jcz_draws.py",
    "replays/jcz_format.py",
    "replays/jcz_mapping.py",
    "replays/jcz_names.py",
    "replays/jcz_random.py",
    "replays/jcz_sets/__init__.py",
    "replays/check.py",
    "replays/records.py",
)
# A set's own modules: importing one from these modules would name the set.
_SET_MODULE = re.compile(r"^\s*(from|import) (domain\.expansions\.\w+|replays\.jcz_sets\.\w+)", re.M)
# The vocabulary of the sets we play or are about to: none of it belongs in the core.
SET_WORDS = (
    "abbey",
    "acrobat",
    "auction",
    "barn",
    "bazaar",
    "bid",
    "bridge",
    "builder",
    "bigtop",
    "castle",
    "circus",
    "cathedral",
    "challenge",
    "corn",
    "crop",
    "cult",
    "dragon",
    "fairy",
    "festival",
    "ferry",
    "ferries",
    "gold",
    "flier",
    "flock",
    "flying",
    "goods",
    "heretic",
    "hill",
    "inn",
    "king",
    "mage",
    "magic",
    "mayor",
    "pig",
    "portal",
    "princess",
    "ringmaster",
    "river",
    "shrine",
    "robber",
    "sheep",
    "shepherd",
    "tower",
    "trader",
    "tunnel",
    "underpass",
    "vineyard",
    "volcano",
    "wagon",
    "witch",
    "wolf",
    "wolves",
)
_WORD = re.compile(r"(?i)(?<![a-z])(" + "|".join(SET_WORDS) + r")(s|es)?(?![a-z])")


@pytest.mark.parametrize("module", CORE)
def test_core_module_names_no_set_concept(module: str) -> None:
    text = (DOMAIN / module).read_text(encoding="utf-8")
    found = [
        f"line {n}: {m.group(0)}" for n, line in enumerate(text.splitlines(), 1) for m in _WORD.finditer(line)
    ]
    assert not found, f"{module} names set concepts: {', '.join(found)}"


@pytest.mark.parametrize("module", RULES + FORMATS)
def test_rules_and_format_module_names_no_set(module: str) -> None:
    text = (ROOT / module).read_text(encoding="utf-8")
    found = [
        f"line {n}: {m.group(0)}" for n, line in enumerate(text.splitlines(), 1) for m in _WORD.finditer(line)
    ]
    assert not found, f"{module} names set concepts: {', '.join(found)}"
    imported = [m.group(2) for m in _SET_MODULE.finditer(text)]
    assert not imported, f"{module} imports a set's own module: {', '.join(imported)}"


def test_the_set_module_check_can_fail() -> None:
    assert _SET_MODULE.search("from domain.expansions.bazaars import Bid\n")
    assert _SET_MODULE.search("    from replays.jcz_sets.am import WAITING\n")
    assert not _SET_MODULE.search("from domain.expansions import PARTS\n")


def test_the_word_check_can_fail() -> None:
    assert _WORD.search("the castle's fief")
    assert _WORD.search("Bridges")
    assert not _WORD.search("inner field")  # 'inn' inside a word is not the inn


PARTS_DIR = DOMAIN / "expansions"
_IMPORTS_A_PART = re.compile(r"^\s*(from|import) domain\.expansions\b", re.M)


@pytest.mark.parametrize("module", sorted(p.name for p in PARTS_DIR.glob("*.py") if p.name != "__init__.py"))
def test_a_part_reaches_no_other_part(module: str) -> None:
    """A part reaches another only through the core's hooks: importing one would tie the sets'
    modules into one import circle (the registry imports them all)."""
    text = (PARTS_DIR / module).read_text(encoding="utf-8")
    assert not _IMPORTS_A_PART.search(text), f"{module} imports domain.expansions"


def test_the_part_import_check_can_fail() -> None:
    assert _IMPORTS_A_PART.search("x = 1\nfrom domain.expansions import abbey as ab\n")
    assert not _IMPORTS_A_PART.search("from domain.state import GameState\n")


def test_every_part_is_a_part_and_named_once() -> None:
    names = [p.name for p in PARTS]
    assert len(names) == len(set(names))
    assert all(isinstance(p, part_module.Part) for p in PARTS)


def test_every_set_brings_registered_parts_only() -> None:
    known = {p.name for p in PARTS}
    for code, parts in SETS.items():
        assert set(parts) <= known, code
    assert parts_for(("base",)) == ()
    assert [p.name for p in parts_for(("base", "tb", "bcb"))] == [
        p.name for p in PARTS if p.name in set(SETS["bcb"]) | set(SETS["tb"])
    ]
