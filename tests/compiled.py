"""Which engine modules run compiled (mypyc, `make compile`), and whether any is out of date."""

from __future__ import annotations

import re
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]


def compiled_sources() -> list[Path]:
    """The sources the Makefile's COMPILED names."""
    text = (ROOT / "Makefile").read_text(encoding="utf-8")
    found = re.search(r"^COMPILED := (.*?)\n\n", text, re.M | re.S)
    assert found is not None, "the Makefile names no COMPILED sources"
    return [ROOT / name for name in found.group(1).replace("\\\n", " ").split()]


def extension_of(source: Path) -> Path | None:
    """The compiled extension beside a source, if there is one."""
    return next(source.parent.glob(f"{source.stem}.cpython-*.so"), None)


def stale_extensions() -> list[str]:
    """Sources changed since their extension was built: Python would still run the old code."""
    stale = []
    for source in compiled_sources():
        extension = extension_of(source)
        if extension is not None and extension.stat().st_mtime < source.stat().st_mtime:
            stale.append(str(source.relative_to(ROOT)))
    return stale
