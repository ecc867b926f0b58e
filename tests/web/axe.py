"""axe-core, the accessibility engine, from its npm package: fetched once from the npm registry,
checked against the package's published integrity, and kept in ``.cache/``.

    python -m tests.web.axe      # fetch it now (``make setup`` does)

The browser tests inject ``axe.min.js`` into each page and fail on any serious or critical
violation.
"""

from __future__ import annotations

import base64
import hashlib
import io
import sys
import tarfile
import urllib.request
from pathlib import Path

VERSION = "4.14.1"
TARBALL = f"https://registry.npmjs.org/axe-core/-/axe-core-{VERSION}.tgz"
INTEGRITY = ("sha512-FHfa+lmNjQZfJz1q8wKqIDwC6DExcHt/pkjNQb09a3NPjCKg2rhu5qb2S4r76ASyFNNtuFooJpZe"
             "37OgudVGtQ==")
CACHE = Path(__file__).resolve().parents[2] / ".cache" / f"axe-core-{VERSION}"
SCRIPT = CACHE / "axe.min.js"


def fetch() -> Path:
    """``axe.min.js`` of the pinned version, downloaded and verified if not there yet."""
    if SCRIPT.is_file():
        return SCRIPT
    with urllib.request.urlopen(TARBALL, timeout=60) as response:
        data = response.read()
    digest = "sha512-" + base64.b64encode(hashlib.sha512(data).digest()).decode()
    if digest != INTEGRITY:
        raise RuntimeError(f"axe-core {VERSION} from the npm registry does not match its "
                           f"published integrity ({digest})")
    with tarfile.open(fileobj=io.BytesIO(data), mode="r:gz") as tar:
        member = tar.extractfile("package/axe.min.js")
        licence = tar.extractfile("package/LICENSE")
        if member is None or licence is None:
            raise RuntimeError("the axe-core package has no axe.min.js")
        CACHE.mkdir(parents=True, exist_ok=True)
        (CACHE / "LICENSE").write_bytes(licence.read())
        partial = SCRIPT.with_suffix(".part")
        partial.write_bytes(member.read())
        partial.replace(SCRIPT)
    return SCRIPT


def audit(page: object, context: str = "document") -> list[dict[str, object]]:
    """Run axe on a Playwright page; the serious and critical violations (id, impact, help and
    the first few targets)."""
    script = fetch().read_text(encoding="utf-8")
    page.add_script_tag(content=script)  # type: ignore[attr-defined]
    result = page.evaluate(  # type: ignore[attr-defined]
        """async (context) => {
            const r = await axe.run(context === 'document' ? document : context,
                                    {resultTypes: ['violations']});
            return r.violations.map(v => ({id: v.id, impact: v.impact, help: v.help,
                                           targets: v.nodes.slice(0, 4).map(n => n.target)}));
        }""", context)
    return [v for v in result if v["impact"] in ("serious", "critical")]


def every_violation(page: object) -> list[dict[str, object]]:
    """axe's violations of every impact (minor and moderate too) on a page that has axe
    already (the ``page_for`` fixture injects it)."""
    result = page.evaluate(  # type: ignore[attr-defined]
        """async () => {
        const r = await axe.run(document, {resultTypes: ['violations']});
        return r.violations.map(v => ({id: v.id, impact: v.impact,
                                       targets: v.nodes.slice(0, 4).map(n => n.target)}));
    }""")
    return list(result)


if __name__ == "__main__":
    print(fetch())
    sys.exit(0)
