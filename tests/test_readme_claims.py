"""What the README says is what the code does (issue 25.4): the analytics tables' columns, the
extras and how to install them."""

from __future__ import annotations

import re
import tomllib
from pathlib import Path

import pytest

from projections.analytics import SCHEMAS

ROOT = Path(__file__).resolve().parent.parent
README = (ROOT / "README.md").read_text()


def table_items() -> dict[str, set[str]]:
    """Each analytics table's bullet in the README: the column names it gives."""
    found: dict[str, set[str]] = {}
    for item in re.findall(r"^- `(\w+)`(.*?)(?=^- `|^\n)", README, re.M | re.S):
        name, text = item
        found[name] = set(re.findall(r"`([a-z_]+)`", text))
    return found


@pytest.mark.parametrize("table", list(SCHEMAS))
def test_the_readme_names_each_analytics_column(table: str) -> None:
    assert table_items()[table] == set(SCHEMAS[table].names)


def test_the_readme_names_every_extra_and_installs_from_a_checkout() -> None:
    project = tomllib.loads((ROOT / "pyproject.toml").read_text())["project"]
    for extra in project["optional-dependencies"]:
        assert f"`[{extra}]`" in README
    assert "pip install -e '.[batch]'" in README
    assert "not published" in README
