"""The OpenAPI document is the exact reference of the API, and the API keeps to it.

A schemathesis run sends generated requests (valid and invalid, bounded and derandomized) to
the real waitress server on loopback, with a PIN set and a game running, and checks every
answer: no 5xx, statuses, content types and bodies as documented, and no change to the table
after a refused change.
"""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
import schemathesis
import yaml
from hypothesis import HealthCheck, settings
from schemathesis.config import SchemathesisConfig
from schemathesis.specs.openapi import checks

from sudoku_table.web.api import OPENAPI_PATH, openapi_document

from .helpers import live_composition

ROOT = Path(__file__).resolve().parents[2]
PIN = "4711"
METHODS = {"get", "post", "put", "patch", "delete"}


def flask_path(openapi_path: str) -> str:
    return openapi_path.replace("{variant_id}", "<variant_id>").replace(
        "{game_id}", "<int:game_id>").replace("{seat}", "<int:seat>").replace("{game}", "<game>")


@pytest.mark.integration
def test_docs_holds_the_served_document(client: Any) -> None:
    assert (ROOT / "docs" / "openapi.yaml").resolve() == OPENAPI_PATH.resolve()
    served = client.get("/api/openapi.json")
    assert served.status_code == 200
    assert served.get_json() == yaml.safe_load(OPENAPI_PATH.read_text(encoding="utf-8"))


def test_the_document_is_valid_openapi_3_1() -> None:
    document = openapi_document()
    assert document["openapi"].startswith("3.1")
    schemathesis.openapi.from_dict(document).validate()


@pytest.mark.integration
def test_every_route_is_documented_and_every_documented_route_exists(app: Any) -> None:
    routes: dict[str, set[str]] = {}
    for rule in app.url_map.iter_rules():
        if rule.rule.startswith("/api/"):
            routes.setdefault(rule.rule, set()).update(
                m.lower() for m in (rule.methods or ()) if m.lower() in METHODS)
    documented = {flask_path(path): {m for m in item if m in METHODS}
                  for path, item in openapi_document()["paths"].items()}
    assert documented == routes


def test_every_error_status_the_code_raises_is_a_documented_response() -> None:
    statuses = {int(code) for item in openapi_document()["paths"].values()
                for operation in item.values() if isinstance(operation, dict)
                for code in operation.get("responses", {}) if code.isdigit()}
    assert {400, 401, 403, 404, 413, 415, 422, 429} <= statuses


# --- schemathesis against a live server ------------------------------------------------------

# An invalid request may be refused as too large (413) before its content is read: the import
# takes files of up to 8 MB, and an array longer than `maxItems` can be larger than that.
REFUSALS = ["400", "401", "403", "404", "405", "406", "409", "413", "415", "422", "428", "429"]
schema = schemathesis.openapi.from_dict(openapi_document(), config=SchemathesisConfig.from_dict(
    {"checks": {"negative_data_rejection": {"expected-statuses": REFUSALS}}}))


@pytest.fixture(scope="module")
def live(tmp_path_factory: pytest.TempPathFactory) -> Iterator[tuple[str, Any]]:
    with live_composition(tmp_path_factory.mktemp("data"), PANEL_PIN=PIN, STREAM_SECONDS=0.2,
                          KEEPALIVE_SECONDS=0.1) as (url, panel):
        panel.table.new_game("classic-sudoku", 3)
        yield url, panel


@pytest.mark.integration
@schema.parametrize()
@settings(max_examples=30, derandomize=True, deadline=None, database=None,
          suppress_health_check=list(HealthCheck))
def test_the_api_keeps_to_its_document(case: Any, live: tuple[str, Any]) -> None:
    url, panel = live
    guard = panel.app.extensions["sudoku_table"].pin
    guard._failures, guard._locked_until = 0, 0.0  # each case starts without a lockout
    if case.method == "POST" and case.path in ("/api/game", "/api/table/led-test") \
            and isinstance(case.body, dict) and case.body.get("pin") is None:
        case.headers = {**(case.headers or {}), "X-Table-Pin": PIN}  # often with the right PIN
    before = panel.table.version
    response = case.call_and_validate(
        base_url=url, timeout=10,
        excluded_checks=[checks.positive_data_acceptance, checks.use_after_free,
                         checks.ensure_resource_availability, checks.ignored_auth,
                         checks.object_level_authorization])
    if case.method == "POST" and 400 <= response.status_code < 500:
        assert panel.table.version == before, \
            f"{case.path} answered {response.status_code} but changed the table: " \
            f"{json.dumps(case.body)[:200]}"
