"""The rules pages' Markdown, rendered by markdown-it-py as CommonMark with raw HTML off.

The rules texts are CommonMark plus pipe tables (the one extension they use, for clue lists).
Raw HTML in a text is shown as text, never passed on, so a rules file cannot inject markup; links
to ``javascript:`` and the like are refused by markdown-it's own link check. Three things are
shaped for the panel: a code block (a board diagram) scrolls in its own box that the keyboard can
reach, a table scrolls inside a wrapper on a narrow phone, and a column's alignment is dropped
(the panel's Content-Security-Policy allows no inline ``style``).
"""

from __future__ import annotations

from collections.abc import Sequence
from functools import lru_cache

from markdown_it import MarkdownIt
from markdown_it.common.utils import escapeHtml
from markdown_it.renderer import RendererHTML
from markdown_it.token import Token
from markdown_it.utils import EnvType, OptionsDict


class PanelRenderer(RendererHTML):
    """markdown-it's HTML renderer with the panel's code blocks and tables."""

    def fence(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
              env: EnvType) -> str:
        # A drawing wider than a phone scrolls in its own box; tabindex lets the keyboard in.
        text = tokens[idx].content.removesuffix("\n")
        return f'<pre tabindex="0"><code>{escapeHtml(text)}</code></pre>\n'

    code_block = fence

    def table_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                   env: EnvType) -> str:
        return '<div class="table-wrap"><table>\n'

    def table_close(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                    env: EnvType) -> str:
        return "</table></div>\n"

    def th_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                env: EnvType) -> str:
        return "<th>"

    def td_open(self, tokens: Sequence[Token], idx: int, options: OptionsDict,
                env: EnvType) -> str:
        return "<td>"


_MD = MarkdownIt("commonmark", {"html": False}, renderer_cls=PanelRenderer).enable("table")


@lru_cache(maxsize=64)
def render(markdown: str) -> str:
    """The HTML of ``markdown`` (CommonMark with pipe tables; raw HTML shown as text); kept for
    the few rules texts there are, which never change while the panel runs."""
    return _MD.render(markdown).rstrip("\n")
