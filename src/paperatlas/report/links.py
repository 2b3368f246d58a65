"""Links out of a report: the paper's own page, and the rule that keeps a link clickable only
when it is http(s) (a javascript: or data: URL from an abstract must never become one)."""

from __future__ import annotations

import re
from typing import Any

_OPENREVIEW_FORUM = re.compile(r"^https?://openreview\.net/forum\?id=")


def paper_url(paper: dict[str, Any]) -> str | None:
    """The paper's page: its OpenReview forum where it has one, else its first url."""
    urls = paper.get("urls") or []
    for url in urls:
        if _OPENREVIEW_FORUM.match(url):
            return url
    return urls[0] if urls else None


def safe_url(url: str | None) -> str | None:
    """An http(s) URL fit for a link, or None (a javascript: or data: URL from an abstract
    must never become clickable)."""
    if not url:
        return None
    url = str(url).strip()
    if not url.lower().startswith(("http://", "https://")):
        return None
    if any(ch.isspace() or ch in "<>\"'`" for ch in url):
        return None
    return url
