"""Atomic file replacement: a reader sees the old bytes or the new ones, never half."""

from __future__ import annotations

import os
import tempfile
from pathlib import Path


def atomic_write(path: Path, data: bytes) -> None:
    """Write `data` to `path` through a temp file in the same folder and os.replace."""
    mode = path.stat().st_mode & 0o7777 if path.exists() else None
    handle, temp = tempfile.mkstemp(dir=path.parent, prefix=f".{path.name}.", suffix=".tmp")
    try:
        with os.fdopen(handle, "wb") as stream:
            stream.write(data)
            stream.flush()
            os.fsync(stream.fileno())
        if mode is not None:
            # mkstemp creates 0600; an edited file keeps the permissions it had.
            os.chmod(temp, mode)
        os.replace(temp, path)
    except BaseException:
        Path(temp).unlink(missing_ok=True)
        raise
