"""A person's Markdown note as HTML that is safe to put in a page: markdown-it-py with raw
HTML off (a `<script>` in a note is shown as text), links only to http(s), mailto and the
page's own anchors (no `javascript:`, `data:` or `file:`), opened without a referrer,
and no images (an image would be fetched from elsewhere the moment the page opens)."""

from __future__ import annotations

from typing import Any

from markdown_it import MarkdownIt
from markupsafe import Markup

SAFE_LINKS = ("http://", "https://", "mailto:", "#")


def _safe_link(url: str) -> bool:
    return url.strip().lower().startswith(SAFE_LINKS)


def _link_open(self: Any, tokens: list[Any], idx: int, options: Any, env: Any) -> str:
    tokens[idx].attrSet("rel", "noopener noreferrer nofollow")
    return str(self.renderToken(tokens, idx, options, env))


def _markdown() -> MarkdownIt:
    md = MarkdownIt("commonmark", {"html": False}).disable("image")
    md.validateLink = _safe_link  # type: ignore[method-assign]
    md.add_render_rule("link_open", _link_open)
    return md


_MD = _markdown()


def render_note(text: str) -> Markup:
    """The note's HTML (every character of the note escaped or turned into safe markup)."""
    return Markup(_MD.render(text or ""))
