"""The pages, the static files (all local, no CDN) and the rules texts."""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from flask.testing import FlaskClient

from sudoku_table.rules.game import all_variants
from sudoku_table.web import catalog
from sudoku_table.web.markdown import render

STATIC = Path(catalog.__file__).parent / "static"
TEMPLATES = Path(catalog.__file__).parent / "templates"


@pytest.mark.integration
@pytest.mark.parametrize("path", ["/", "/play", "/join", "/rules", "/table"])
def test_every_page_loads(client: FlaskClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert b'name="viewport"' in response.data


def test_every_asset_is_served_locally() -> None:
    for path in [*STATIC.rglob("*"), *TEMPLATES.iterdir()]:
        if not path.is_file() or path.suffix not in (".js", ".css", ".html", ".svg"):
            continue
        text = path.read_text(encoding="utf-8")
        assert not re.search(r"(src|href)=\"(https?:)?//", text), path.name
        assert "cdn" not in text.lower(), path.name


@pytest.mark.integration
def test_scripts_and_styles_referenced_by_pages_exist(client: FlaskClient) -> None:
    for page in ("/", "/play", "/join", "/rules", "/table", "/review/1"):
        html = client.get(page).get_data(as_text=True)
        for ref in re.findall(r'(?:src|href)="(/static/[^"]+)"', html):
            response = client.get(ref)
            response.close()
            assert response.status_code == 200, ref


@pytest.mark.integration
def test_rules_index_lists_every_game(client: FlaskClient) -> None:
    html = client.get("/rules").get_data(as_text=True)
    for cls in all_variants():
        assert f"/rules/{cls.id}" in html


@pytest.mark.integration
def test_a_rules_page_renders_the_projects_text(client: FlaskClient) -> None:
    for cls in all_variants():
        response = client.get(f"/rules/{cls.id}")
        assert response.status_code == 200
        text = catalog.rules_text(cls.id)
        if text is not None:
            assert render(text) in response.get_data(as_text=True)
        else:
            assert "not written yet" in response.get_data(as_text=True)
    assert client.get("/rules/chess").status_code == 404


def _tight(html: str) -> str:
    """``html`` without the line breaks markdown-it puts between block tags."""
    return re.sub(r">\n+<", "><", html)


def test_markdown_headings_paragraphs_and_lists() -> None:
    html = render("# Title\n\nA *short* and **bold** line\ncontinued.\n\n- one\n- two\n"
                  "  wrapped\n\n1. first\n2. `x*y`\n")
    assert _tight(html) == (
        "<h1>Title</h1><p>A <em>short</em> and <strong>bold</strong> line\ncontinued.</p>"
        "<ul><li>one</li><li>two\nwrapped</li></ul>"
        "<ol><li>first</li><li><code>x*y</code></li></ol>"
    )


def test_markdown_escapes_html() -> None:
    html = render('<script>alert("x")</script>\n\n## a <b>heading</b>\n\n<div onclick="x">')
    assert "<script>" not in html and "<b>" not in html and "<div" not in html
    assert "&lt;script&gt;" in html
    assert html.endswith("<h2>a &lt;b&gt;heading&lt;/b&gt;</h2>\n"
                         "<p>&lt;div onclick=&quot;x&quot;&gt;</p>")


def test_markdown_refuses_script_links() -> None:
    html = render("[play](javascript:alert(1)) and [rules](/rules)")
    assert "javascript" in html and 'href="javascript' not in html
    assert '<a href="/rules">rules</a>' in html


def test_markdown_keeps_multiplication_and_underscores_literal() -> None:
    assert render("2 * 3 * 4 and snake_case_name") == "<p>2 * 3 * 4 and snake_case_name</p>"


def test_markdown_code_blocks_keep_board_diagrams_as_they_are() -> None:
    html = render("Board:\n\n```\n  a b\n9 | <x> * _y_ |\n```\nAfter.")
    assert html == ('<p>Board:</p>\n<pre tabindex="0"><code>  a b\n9 | &lt;x&gt; * _y_ |</code>'
                    "</pre>\n<p>After.</p>")
    assert render("```\nnever closed") == '<pre tabindex="0"><code>never closed</code></pre>'
    assert render("    indented\n    drawing") == ('<pre tabindex="0"><code>indented\n'
                                                  "drawing</code></pre>")


def test_markdown_pipe_tables() -> None:
    html = render("| run | clue |\n| --- | ---: |\n| line 1 | **11** |\n| `b1` | 3 |\n\nEnd.")
    assert _tight(html) == (
        '<div class="table-wrap"><table><thead><tr><th>run</th><th>clue</th></tr></thead>'
        "<tbody><tr><td>line 1</td><td><strong>11</strong></td></tr>"
        "<tr><td><code>b1</code></td><td>3</td></tr></tbody></table></div><p>End.</p>"
    )
    # No inline style for the alignment: the panel's Content-Security-Policy would refuse it.
    assert "style=" not in html
    # Without a rule row there is no table (GitHub's pipe tables): the rows stay text.
    assert "<table>" not in render("| a | b |\n| c | d |")


@pytest.mark.integration
@pytest.mark.parametrize(("language", "heading", "back"), [
    ("en", "This page does not exist", "Back to the start page"),
    ("de", "Diese Seite gibt es nicht", "Zurück zur Startseite"),
])
def test_an_address_that_does_not_exist_answers_the_panels_own_page(
        client: FlaskClient, language: str, heading: str, back: str) -> None:
    answer = client.get("/no/such/page", headers={"Accept-Language": language})
    assert answer.status_code == 404
    html = answer.get_data(as_text=True)
    assert f'<html lang="{language}">' in html
    assert f'<h1 id="error-heading">{heading}</h1>' in html
    assert re.search(r'<a id="error-back" [^>]*href="/"[^>]*>' + re.escape(back) + "</a>", html)
    assert "Not Found" not in html and "The requested URL" not in html
    assert 'class="topbar"' in html  # the panel's own frame, with its way to every page


@pytest.mark.integration
def test_an_unknown_api_address_still_answers_json(client: FlaskClient) -> None:
    answer = client.get("/api/no-such-thing")
    assert answer.status_code == 404 and answer.is_json
