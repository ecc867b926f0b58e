"""The version a family reads off the panel."""

from __future__ import annotations

import shutil
import subprocess
from pathlib import Path

import pytest

from sudoku_table.version import Version, current, git_commit, package_version


@pytest.mark.integration  # current() asks git for the commit
def test_the_package_version_is_the_project_s() -> None:
    import tomllib

    project = tomllib.loads((Path(__file__).resolve().parents[1] / "pyproject.toml")
                            .read_text(encoding="utf-8"))["project"]
    assert package_version() == project["version"]
    assert current().version == project["version"]


def test_labels() -> None:
    assert Version("0.1.0").label == "0.1.0"
    assert Version("0.1.0", "3f2a9c1").label == "0.1.0 (3f2a9c1)"
    assert Version("0.1.0", "3f2a9c1", True).label == "0.1.0 (3f2a9c1+)"
    assert Version("1.0", "abc").to_json() == {"name": "sudoku-table", "version": "1.0",
                                               "commit": "abc", "modified": False,
                                               "label": "1.0 (abc)"}


@pytest.mark.integration
@pytest.mark.skipif(shutil.which("git") is None, reason="git is missing")
def test_the_commit_comes_from_a_git_tree_and_only_from_one(tmp_path: Path) -> None:
    assert git_commit(tmp_path) == (None, False)  # not a checkout
    env = {"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.org",
           "GIT_COMMITTER_NAME": "t", "GIT_COMMITTER_EMAIL": "t@example.org", "HOME": str(tmp_path)}

    def git(*args: str) -> str:
        return subprocess.run(["git", "-C", str(tmp_path), *args], check=True, env=env,
                              capture_output=True, text=True).stdout.strip()

    git("init", "-q")
    (tmp_path / "a.txt").write_text("one", encoding="utf-8")
    git("add", "a.txt")
    git("commit", "-qm", "one")
    head = git("rev-parse", "--short=10", "HEAD")
    assert git_commit(tmp_path) == (head, False)
    (tmp_path / "a.txt").write_text("two", encoding="utf-8")
    assert git_commit(tmp_path) == (head, True)
    assert git_commit(tmp_path, git=str(tmp_path / "no-git")) == (None, False)
