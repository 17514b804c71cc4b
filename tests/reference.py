"""Where the shared reference data lives, and the rule for when it is missing.

The data is read from ``../shared/reference`` beside the checkout (or ``$CARC_SHARED``) and is
never copied into the project. Missing data fails the run in CI and skips it elsewhere.
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest

SHARED = Path(os.environ.get("CARC_SHARED", Path(__file__).resolve().parents[2] / "shared"))
JCZ = SHARED / "reference" / "jcz"


def in_ci() -> bool:
    return os.environ.get("CI", "").lower() in ("1", "true", "yes")


def require(path: Path) -> Path:
    if not path.exists():
        message = f"reference data {path} is missing (set CARC_SHARED to the shared folder)"
        if in_ci():
            pytest.fail(message)
        pytest.skip(message)
    return path


def jcz_files(folder: str, pattern: str = "*.jcz") -> list[Path]:
    """Files for parametrizing; an empty list still yields one failing/skipping case."""
    found = sorted((JCZ / folder).glob(pattern))
    return found or [JCZ / folder / pattern]
