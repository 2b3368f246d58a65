"""Title-only papers through every stage: facts from the title (no invented gist or kind),
keyword search by title, vectors, the map, digests, recommendations, and the web pages
that mark them "title only" (escaped)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas import Atlas

FIX = Path(__file__).parent / "fixtures" / "ingest"
SAMPLE = Path(__file__).parents[1] / "examples" / "iclr2026_sample_list.txt"
TITLE_ONLY = ("ruegamer2025sparse", "lee2024graphs", "chen2025calib", "park2025other", "tonly")


@pytest.fixture(scope="module")
def atlas(tmp_path_factory):
    tmp = tmp_path_factory.mktemp("title_only")
    hostile = tmp / "hostile.jsonl"
    hostile.write_text(
        '{"id": "tonly", "title": "A Title-Only Entry with <script>alert(1)</script>", '
        '"url": "https://arxiv.org/abs/2502.00002"}\n',
        encoding="utf-8",
    )
    a = Atlas(tmp / "atlas.db")
    a.add([FIX / "titles_only.bib", SAMPLE, hostile], enrich=False)
    a.enrich()
    a.embed(model="lsa")
    a.build_map(model="lsa")
    yield a
    a.close()


def test_facts_come_from_the_title_without_a_made_up_gist_or_kind(atlas):
    for pid in TITLE_ONLY:
        paper = atlas.paper(pid)
        assert paper["abstract"] == ""
        facts = paper["facts"]
        assert facts["display_title"] == paper["title"]
        assert facts["gist"] == "" and facts["kind"] is None
    assert "long-context transformers" in atlas.paper("ruegamer2025sparse")["facts"]["keyphrases"]


def test_search_finds_title_only_papers_by_their_titles(atlas):
    hits = [h.id for h in atlas.search("hypergraph incidence", k=3).hits]
    assert hits[0] == "lee2024graphs"


def test_every_title_only_paper_is_on_the_map_and_in_the_digest(atlas):
    placed = {r[0] for r in atlas.store.conn.execute("SELECT paper_id FROM paper_topics")}
    assert set(TITLE_ONLY) <= placed
    digest = atlas.digest(fmt="md")
    assert "Calibrated Uncertainty for Protein Structure Prediction" in digest
    from markdown_it import MarkdownIt

    html = MarkdownIt("commonmark").render(digest)
    assert "A Title-Only Entry with &lt;script&gt;alert(1)&lt;/script&gt;" in html
    assert "<script" not in html


def test_recommendations_use_liked_title_only_papers(atlas):
    atlas.like(["ruegamer2025sparse"], collection="t")
    picks = atlas.recommend(collection="t", k=3, model="lsa")
    ids = [getattr(p, "paper_id", None) or getattr(p, "id", None) for p in getattr(picks, "hits", picks)]
    assert "park2025other" in ids  # the other paper with the same words in its title


def test_web_pages_mark_title_only_papers_and_escape_them(atlas):
    from fastapi.testclient import TestClient

    from paperatlas.web.app import create_app

    with TestClient(create_app(atlas.path), base_url="http://127.0.0.1") as client:
        page = client.get("/papers", params={"limit": 200}).text
        assert 'class="badge title-only"' in page
        paper = client.get("/papers/tonly").text
        assert "Title only: the list this paper came from gives no abstract." in paper
        assert "<script>alert(1)</script>" not in paper
        assert "&lt;script&gt;alert(1)&lt;/script&gt;" in paper
        full = client.get("/papers/" + atlas.store.papers.ids("iclr2026_sample_list")[0]).text
        assert "Title only" not in full and 'id="paper-abstract"' in full


def test_a_title_only_paper_is_not_an_outlier_for_having_no_abstract(atlas):
    rows = dict(atlas.store.conn.execute("SELECT paper_id, outlier FROM paper_topics"))
    assert any(not rows[pid] for pid in TITLE_ONLY)
    junk = atlas.store.conn.execute(
        "SELECT count(*) FROM paper_topics WHERE paper_id IN (SELECT id FROM papers "
        "WHERE abstract <> '' AND length(abstract) < 40) AND outlier = 0"
    ).fetchone()[0]
    assert junk == 0  # a too-short abstract ("na") still is one
