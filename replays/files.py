"""Writing result files whole or not at all."""

from __future__ import annotations

import os
import sys
import tempfile
from pathlib import Path

STDOUT = Path("-")  # `-o -`: the standard output, not a file named "-"


def write_whole(path: Path, data: bytes) -> None:
    """Write `data` to `path` (or stdout for ``-``) so that no reader ever sees half of it: into
    a temporary file beside it, renamed over it once complete. OSError if it cannot be written."""
    if path == STDOUT:
        sys.stdout.buffer.write(data)
        sys.stdout.buffer.flush()
        return
    folder = path.parent
    handle, temporary = tempfile.mkstemp(dir=folder, prefix=f".{path.name}.", suffix=".part")
    try:
        with os.fdopen(handle, "wb") as f:
            f.write(data)
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise
