"""A tiny, safe Markdown renderer for the rules pages.

The rules texts use a small subset: headings, paragraphs, bullet and numbered lists, bold,
italic and inline code. Supporting only that subset keeps the renderer short and the output
predictable; everything is HTML-escaped first, so a rules file can never inject markup.
"""

from __future__ import annotations

import html
import re

_HEADING = re.compile(r"^(#{1,6})\s+(.*?)\s*#*\s*$")
_BULLET = re.compile(r"^\s*[-*+]\s+(.*)$")
_NUMBERED = re.compile(r"^\s*\d+[.)]\s+(.*)$")
_CODE = re.compile(r"`([^`]+)`")
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

    for raw in markdown.replace("\r\n", "\n").split("\n"):
        line = raw.rstrip()
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
    close_paragraph()
    close_list()
    return "\n".join(out)
