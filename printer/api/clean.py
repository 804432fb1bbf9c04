"""``printer clean``: the project's caches removed."""

from __future__ import annotations

from printer.api.results import (
    CleanResult,
)
from printer.project import Project


def clean(project: Project) -> CleanResult:
    """Remove the project's caches (``build/.cache``: laid-out faces, prepared art); outputs stay.

    A ``build/.cache`` that is a symbolic link is unlinked, never followed.
    Raises ``OSError`` when a file cannot be removed.
    """
    import shutil

    result = CleanResult()
    folder = project.build_dir / ".cache"
    if folder.is_symlink():
        folder.unlink()
        result.removed.append(folder)
    elif folder.is_dir():
        result.bytes = sum(p.stat().st_size for p in folder.rglob("*") if p.is_file() and not p.is_symlink())
        shutil.rmtree(folder)
        result.removed.append(folder)
    return result
