"""The kept libraries are exactly the files their packages published."""

from __future__ import annotations

from .vendor import KEPT, VENDOR, sha256


def test_every_kept_file_matches_its_checksum_and_has_its_licence() -> None:
    for name, kept in KEPT.items():
        assert sha256(VENDOR / name) == kept["sha256"], name
        assert (VENDOR / kept["licence"][1]).is_file()
        assert kept["sha256"] in (VENDOR / "README.md").read_text(encoding="utf-8")
