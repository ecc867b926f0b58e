"""A tiny, safe Markdown renderer for the rules pages.

The rules texts use a small subset: headings, paragraphs, bullet and numbered lists, bold,
italic, inline code, fenced code blocks (board diagrams) and pipe tables. Supporting only that
subset keeps the renderer short and the output predictable; everything is HTML-escaped first,
so a rules file can never inject markup.
"""

from __future__ import annotations

import html
import re

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*\d+[.)]\s+(.*)$")
_CODE = re.compile(r"`([^`]+)`")
_FENCE = re.compile(r"^\s*(```|~~~)")
_TABLE_RULE = re.compile(r"^\|?\s*:?-{3,}:?\s*(\|\s*:?-{3,}:?\s*)*\|?\s*$")
_BOLD = re.compile(r"\*\*(.+?)\*\*|__(.+?)__")
_ITALIC = re.compile(r"(?<![\w*])\*(?!\s)(.+?)(?<!\s)\*(?![\w*])|(?<!\w)_(?!\s)(.+?)(?<!\s)_(?!\w)")


def inline(text: str) -> str:
    """Escape ``text`` and apply code, bold and italic spans."""
    pieces: list[str] = []
    last = 0
    # Code spans are taken out first so that their content is shown literally.
    for match in _CODE.finditer(text):
        pieces.append(_emphasis(html.escape(text[last:match.start()], quote=False)))
        pieces.append(f"<code>{html.escape(match.group(1), quote=False)}</code>")
        last = match.end()
    pieces.append(_emphasis(html.escape(text[last:], quote=False)))
    return "".join(pieces)


def _emphasis(escaped: str) -> str:
    escaped = _BOLD.sub(lambda m: f"<strong>{m.group(1) or m.group(2)}</strong>", escaped)
    return _ITALIC.sub(lambda m: f"<em>{m.group(1) or m.group(2)}</em>", escaped)


def render(markdown: str) -> str:
    """HTML for ``markdown`` (the subset above); unknown syntax is shown as plain text."""
    out: list[str] = []
    paragraph: list[str] = []
    list_kind: str | None = None
    items: list[str] = []
    fence: str | None = None  # the marker of the open code block
    code: list[str] = []
    rows: list[str] = []

    def close_paragraph() -> None:
        if paragraph:
            out.append(f"<p>{inline(' '.join(paragraph))}</p>")
            paragraph.clear()

    def close_list() -> None:
        nonlocal list_kind
        if list_kind:
            body = "".join(f"<li>{inline(item)}</li>" for item in items)
            out.append(f"<{list_kind}>{body}</{list_kind}>")
            items.clear()
            list_kind = None

    def close_table() -> None:
        if rows:
            out.append(_table(rows))
            rows.clear()

    for raw in markdown.replace("\r\n", "\n").split("\n"):
        line = raw.rstrip()
        if fence is not None:
            if line.strip().startswith(fence):
                out.append(_code_block(code))
                code.clear()
                fence = None
            else:
                code.append(line)
            continue
        opening = _FENCE.match(line)
        if opening:
            close_paragraph()
            close_list()
            close_table()
            fence = opening.group(1)
            continue
        if line.lstrip().startswith("|"):
            close_paragraph()
            close_list()
            rows.append(line.strip())
            continue
        close_table()
        if not line.strip():
            close_paragraph()
            close_list()
            continue
        heading = _HEADING.match(line)
        bullet = _BULLET.match(line)
        numbered = None if bullet else _NUMBERED.match(line)
        if heading:
            close_paragraph()
            close_list()
            level = len(heading.group(1))
            out.append(f"<h{level}>{inline(heading.group(2))}</h{level}>")
        elif bullet or numbered:
            close_paragraph()
            kind = "ul" if bullet else "ol"
            if list_kind != kind:
                close_list()
                list_kind = kind
            items.append((bullet or numbered).group(1))  # type: ignore[union-attr]
        elif list_kind and raw[:1].isspace():
            items[-1] += " " + line.strip()  # a wrapped list item
        else:
            close_list()
            paragraph.append(line.strip())
    if fence is not None:  # an unclosed block still shows its text
        out.append(_code_block(code))
    close_paragraph()
    close_list()
    close_table()
    return "\n".join(out)


def _code_block(lines: list[str]) -> str:
    # A drawing wider than a phone scrolls in its own box: the keyboard reaches it too.
    return (f'<pre tabindex="0"><code>{html.escape(chr(10).join(lines), quote=False)}'
            "</code></pre>")


def _cells(row: str) -> list[str]:
    row = row.strip()
    if row.startswith("|"):
        row = row[1:]
    if row.endswith("|"):
        row = row[:-1]
    return [cell.strip() for cell in row.split("|")]


def _table(rows: list[str]) -> str:
    """A pipe table; its first row is the header when a rule row (``| --- |``) follows it."""
    header: list[str] = []
    body = rows
    if len(rows) > 1 and _TABLE_RULE.match(rows[1]):
        header, body = _cells(rows[0]), rows[2:]
    parts = ['<div class="table-wrap"><table>']
    if header:
        parts.append("<thead><tr>" + "".join(f"<th>{inline(c)}</th>" for c in header)
                     + "</tr></thead>")
    parts.append("<tbody>")
    for row in body:
        parts.append("<tr>" + "".join(f"<td>{inline(c)}</td>" for c in _cells(row)) + "</tr>")
    parts.append("</tbody></table></div>")
    return "".join(parts)
