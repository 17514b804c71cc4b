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
        # mkstemp makes the file private (0600); the result gets the mode a new file would have.
        os.chmod(temporary, path.stat().st_mode & 0o777 if path.exists() else 0o666 & ~_umask())
        os.replace(temporary, path)
    except BaseException:
        Path(temporary).unlink(missing_ok=True)
        raise


def _umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
