"""The hits of one page: each ranked paper with its title, why it matched and a snippet."""

from __future__ import annotations

from paperatlas.search.kept_match import KeptMatch
from paperatlas.search.results import Hit
from paperatlas.search.snippets import mark_terms, matched_terms, snippet, stem


def make_hits(
    store,
    page: list[tuple[str, float]],
    offset: int,
    terms: list[str],
    kw_ranking: list[tuple[str, float]],
    vec_ranking: list[tuple[str, float]],
    kept: dict[str, KeptMatch] | None = None,
) -> list[Hit]:
    if not page:
        return []
    ids = [pid for pid, _ in page]
    kw_rank = {pid: r for r, (pid, _) in enumerate(kw_ranking, start=1)}
    vec = {pid: (r, s) for r, (pid, s) in enumerate(vec_ranking, start=1)}
    rows = {p["id"]: p for p in store.papers.iter(ids=ids)}
    stems = {stem(t): t for t in terms if len(t) > 1}
    hits = []
    for n, (pid, score) in enumerate(page):
        row = rows.get(pid)
        if row is None:  # deleted between ranking and now
            continue
        abstract_m = mark_terms(row.get("abstract") or "", stems)
        head = " ".join([row.get("title") or "", *(row.get("keywords") or [])])
        matched = matched_terms(mark_terms(head, stems) + " " + abstract_m, stems)
        shown = snippet(abstract_m)
        v = vec.get(pid)
        mine = (kept or {}).get(pid)
        hits.append(
            Hit(
                id=pid,
                title=row.get("title"),
                display_title=row.get("display_title"),
                score=float(score),
                rank=offset + n + 1,
                matched_terms=matched,
                keyword_rank=kw_rank.get(pid),
                semantic_score=v[1] if v else None,
                semantic_rank=v[0] if v else None,
                snippet=shown,
                area=row.get("area") or row.get("predicted_area"),
                decision=row.get("decision"),
                kind=row.get("kind"),
                title_only=not (row.get("abstract") or "").strip(),
                in_note=mine.note_excerpt if mine and mine.in_note else None,
                tagged=mine.tags if mine else [],
            )
        )
    return hits
