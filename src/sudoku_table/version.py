"""The program's version: the package version, and the git commit when run from a git tree.

A family reads it off the panel's footer when asking for help or checking an update; a tool
reads ``GET /api/version``. The commit is looked up once (``git`` in the source tree, two
seconds at most) and only where the source tree is a git checkout: an installed table (a wheel
built from a copy of the tree) shows the package version alone.
"""

from __future__ import annotations

import shutil
import subprocess
from dataclasses import dataclass
from functools import lru_cache
from importlib import metadata
from pathlib import Path

PACKAGE = "sudoku-table"
SOURCE_ROOT = Path(__file__).resolve().parents[2]
"""Where a git checkout of the project has its ``.git``, if the program runs from one."""


@dataclass(frozen=True, slots=True)
class Version:
    """The package version, the short commit (None outside a git tree) and whether the tree has
    changes that are not committed."""

    version: str
    commit: str | None = None
    modified: bool = False

    @property
    def label(self) -> str:
        """One line for people: ``0.1.0``, ``0.1.0 (3f2a9c1)`` or ``0.1.0 (3f2a9c1+)``."""
        if self.commit is None:
            return self.version
        return f"{self.version} ({self.commit}{'+' if self.modified else ''})"

    def to_json(self) -> dict[str, object]:
        return {"name": PACKAGE, "version": self.version, "commit": self.commit,
                "modified": self.modified, "label": self.label}


def package_version() -> str:
    """The installed package's version; ``unknown`` when the package is not installed."""
    try:
        return metadata.version(PACKAGE)
    except metadata.PackageNotFoundError:
        return "unknown"


def git_commit(root: Path = SOURCE_ROOT, git: str | None = None) -> tuple[str | None, bool]:
    """The short commit of the checkout at ``root`` and whether it has uncommitted changes;
    ``(None, False)`` when ``root`` is no git checkout or git is missing or fails."""
    if not (root / ".git").exists():
        return None, False
    program = git or shutil.which("git")
    if program is None:
        return None, False
    try:
        head = subprocess.run([program, "-C", str(root), "rev-parse", "--short=10", "HEAD"],
                              capture_output=True, text=True, timeout=2)
        if head.returncode != 0 or not head.stdout.strip():
            return None, False
        status = subprocess.run([program, "-C", str(root), "status", "--porcelain",
                                 "--untracked-files=no"],
                                capture_output=True, text=True, timeout=2)
    except (OSError, subprocess.SubprocessError):
        return None, False
    modified = status.returncode == 0 and bool(status.stdout.strip())
    return head.stdout.strip(), modified


@lru_cache(maxsize=1)
def current() -> Version:
    """This program's version, looked up once."""
    commit, modified = git_commit()
    return Version(package_version(), commit, modified)
