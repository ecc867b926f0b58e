"""The kept libraries the panel serves (``src/sudoku_table/web/static/vendor``): fetched from the
npm registry, checked against the package's published integrity, and written where the panel serves
them. The files are kept in the repository (the table works offline); this fetches them again and
proves they are what the package published.

    python -m tests.web.vendor      # fetch and check again
"""

from __future__ import annotations

import base64
import hashlib
import io
import sys
import tarfile
import urllib.request
from pathlib import Path

VENDOR = Path(__file__).resolve().parents[2] / "src" / "sudoku_table" / "web" / "static" / "vendor"

KEPT = {
    "d3.min.js": {
        "tarball": "https://registry.npmjs.org/d3/-/d3-7.9.0.tgz",
        "member": "package/dist/d3.min.js",
        "licence": ("package/LICENSE", "d3.LICENSE"),
        "integrity": "sha512-e1U46jVP+w7Iut8Jt8ri1YsPOvFpg46k+K8TpCb0P+zjCkjkPnV7WzfDJzMHy1LnA+wj5"
                     "pLT1wjO901gLXeEhA==",
        "sha256": "f2094bbf6141b359722c4fe454eb6c4b0f0e42cc10cc7af921fc158fceb86539",
    },
}
"""Each kept file: its package's tarball, the file in it, its licence, the package's published
integrity (npm's ``dist.integrity``) and the file's own sha256."""


def sha256(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


def fetch(name: str) -> Path:
    """Fetch one kept file again from its package, checking the package and the file."""
    kept = KEPT[name]
    with urllib.request.urlopen(kept["tarball"], timeout=60) as response:
        data = response.read()
    digest = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if digest != kept["integrity"]:
        raise RuntimeError(f"{kept['tarball']} does not match its published integrity")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        member = tar.extractfile(kept["member"])
        licence_member, licence_name = kept["licence"]
        licence = tar.extractfile(licence_member)
        if member is None or licence is None:
            raise RuntimeError(f"the package has no {kept['member']}")
        content = member.read()
        if hashlib.sha256(content).hexdigest() != kept["sha256"]:
            raise RuntimeError(f"{kept['member']} differs from the kept checksum")
        (VENDOR / licence_name).write_bytes(licence.read())
        (VENDOR / name).write_bytes(content)
    return VENDOR / name


if __name__ == "__main__":
    for kept_name in KEPT:
        print(fetch(kept_name))
    sys.exit(0)
