"""A query that names one paper: its arXiv id (bare, versioned, `arXiv:` or a URL), its
OpenReview id or forum URL, its DOI (bare or a doi.org URL), its id in this atlas, or its
exact title (case, punctuation and spacing aside). Search puts that paper first."""

from __future__ import annotations

import re

from paperatlas.identifiers import arxiv_id, doi, openreview_id
from paperatlas.search.titles import papers_titled

MAX_ID_WORDS = 2  # "arXiv: 2401.01234": an identifier, not a sentence that mentions one
MAX_TITLE_CHARS = 600
ID_TOKEN = re.compile(r"[A-Za-z0-9_.:/-]{4,80}")


def known_papers(store, query: str) -> tuple[list[str], str | None]:
    """(the papers `query` names, best first; how it names them: "arXiv id", "DOI",
    "OpenReview id", "id" or "title"), or ([], None)."""
    text = query.strip()
    if not text or len(text) > MAX_TITLE_CHARS:
        return [], None
    if len(text.split()) <= MAX_ID_WORDS:
        for kind, how, value in (
            ("arxiv", "arXiv id", arxiv_id(text)),
            ("doi", "DOI", doi(text)),
            ("openreview", "OpenReview id", openreview_id(text)),
        ):
            if value:
                # an identifier equal to the paper's own id is not kept among its identifiers
                found = store.dedup.papers_for_identifiers([(kind, value)]).get((kind, value))
                own = store.papers.existing_ids([value])
                if found or own:
                    return [found or next(iter(own))], how
        bare = text.split()[0] if len(text.split()) == 1 else ""
        if ID_TOKEN.fullmatch(bare):
            if store.papers.existing_ids([bare]):
                return [bare], "id"
            if found := store.dedup.papers_for_identifiers([("openreview", bare)]).get(("openreview", bare)):
                return [found], "OpenReview id"
    titled = papers_titled(store, text)
    return (titled, "title") if titled else ([], None)
