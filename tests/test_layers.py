"""Every import runs down (issue 25.5): domain → projections → replays → service → carc. A package
imports those before it in this list and never one after it, not even inside a function."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
LAYERS = ("domain", "projections", "replays", "service", "carc")


def imported(path: Path) -> set[str]:
    """The top-level packages a module imports, wherever in it the import stands."""
    found: set[str] = set()
    for node in ast.walk(ast.parse(path.read_text(), str(path))):
        if isinstance(node, ast.Import):
            found.update(alias.name.split(".")[0] for alias in node.names)
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
            found.add(node.module.split(".")[0])
    return found


@pytest.mark.parametrize("layer", LAYERS)
def test_a_layer_imports_no_layer_above_it(layer: str) -> None:
    above = set(LAYERS[LAYERS.index(layer) + 1 :])
    wrong = {
        str(path.relative_to(ROOT)): sorted(imported(path) & above)
        for path in sorted((ROOT / layer).rglob("*.py"))
        if imported(path) & above
    }
    assert wrong == {}


def test_the_command_line_is_in_the_top_package() -> None:
    assert not (ROOT / "replays" / "cli.py").exists()
    assert (ROOT / "carc" / "cli" / "__init__.py").is_file()
