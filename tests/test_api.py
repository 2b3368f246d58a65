"""The library front: `Atlas` answers with typed records (paperatlas.results) that still read
as the dicts the front used to return, closes as a context manager, and offers what the CLI
needs (dislike, collections, embed(force=...), map files, references) without the stages."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from paperatlas import Atlas, results
from paperatlas.filters import Filters
from paperatlas.results import (
    Collection,
    EmbedReport,
    EnrichReport,
    Inspection,
    ListStats,
    Map,
    PaperDetail,
    Recommendations,
    ReferenceInfo,
    SearchResult,
)

FIXTURE = Path(__file__).parent / "fixtures" / "atlas" / "papers.jsonl"


@pytest.fixture(scope="module")
def atlas(tmp_path_factory):
    db = tmp_path_factory.mktemp("front") / "atlas.db"
    with Atlas(db) as a:
        a.add(FIXTURE, list_name="fixture", enrich=False)
        yield a


def test_context_manager_closes_the_store(tmp_path):
    with Atlas(tmp_path / "a.db") as a:
        conn = a.store.conn
        assert conn.execute("SELECT 1").fetchone()[0] == 1
    with pytest.raises(sqlite3.ProgrammingError):
        conn.execute("SELECT 1")


def test_stats_are_typed_and_read_as_the_old_dict(atlas):
    stats = atlas.stats("fixture")
    assert isinstance(stats, ListStats)
    assert stats.papers == stats["papers"] == len(atlas.papers(filters=Filters(list_name="fixture"))) > 50
    assert set(stats) == {"papers", "with_title", "by_area", "by_decision"}
    assert dict(stats)["with_title"] == stats.with_title
    with pytest.raises(KeyError):
        stats["nope"]


def test_paper_detail_keeps_the_old_keys_in_order(atlas):
    pid = atlas.papers(limit=1, filters=Filters(list_name="fixture"))[0]["id"]
    paper = atlas.paper(pid)
    assert isinstance(paper, PaperDetail)
    assert paper.id == paper["id"] == pid and paper.lists == ["fixture"] == paper["lists"]
    keys = list(paper)
    record = atlas.store.papers.get(pid)
    assert keys == [*record, "lists", "facts", "topic", "reference_topic"]
    assert "topic" not in atlas.paper(pid, topics=False)
    assert atlas.paper("no-such-paper-id") is None


def test_enrich_report(atlas):
    first = atlas.enrich()
    assert isinstance(first, EnrichReport) and first.total == atlas.stats().papers
    again = atlas.enrich()
    assert again.enriched == 0 and again.skipped == again.total == first.total
    assert not atlas.facts_pending()


@pytest.mark.slow  # embeds a store again (multilingual vocabulary or every vector)
def test_embed_force_recomputes_every_vector(atlas):
    first = atlas.embed(model="lsa")
    assert isinstance(first, EmbedReport) and first.model == "lsa" and first.embedded == first.total
    assert atlas.embed(model="lsa").embedded == 0  # unchanged papers are skipped
    forced = atlas.embed(model="lsa", force=True)
    assert forced.embedded == forced.total == first.total and forced["skipped"] == 0
    assert atlas.ensure_vectors("lsa") is None  # every paper has its vector


def test_map_is_typed_reused_and_written(atlas, tmp_path):
    atlas.embed(model="lsa")  # the map's vectors, whether or not the embed test ran first
    built = atlas.build_map(model="lsa", force=True)
    assert isinstance(built, Map) and built.built and built["built"] is True
    assert built.meta["papers"] == len(built.assignments) == atlas.stats().papers
    sizes = [t["size"] for t in built.broad_topics]
    assert sizes == sorted(sizes, reverse=True) and all(t["level"] == 0 for t in built.broad_topics)
    reused = atlas.build_map(model="lsa")
    assert reused.built is False and reused.signature == built.signature
    html = atlas.write_map_html(reused, tmp_path / "map.html")
    assert html.read_text(encoding="utf-8").lstrip().lower().startswith("<!doctype html")


def test_like_dislike_unlike_and_collections(atlas):
    ids = [p["id"] for p in atlas.papers(limit=3, filters=Filters(list_name="fixture"))]
    assert atlas.like(ids[:2], collection="c") == ids[:2]
    assert atlas.dislike([ids[2]], collection="c") == [ids[2]]
    assert Collection("c", 2, 1) in atlas.collections()
    picks = atlas.recommend(collection="c", k=5)
    assert isinstance(picks, Recommendations) and len(picks) == len(list(picks)) == 5
    assert not set(ids) & {p.paper_id for p in picks}  # neither liked nor disliked come back
    assert picks[0] is picks.picks[0]
    assert atlas.unlike(ids, collection="c") == ids
    assert all(c.name != "c" for c in atlas.collections())


def test_search_returns_the_typed_result(atlas):
    result = atlas.search("graph", k=3, method="keyword")
    assert isinstance(result, SearchResult) and len(result.hits) <= 3


def test_inspect_unpacks_as_report_and_papers():
    found = Atlas.inspect(FIXTURE, limit=2)
    assert isinstance(found, Inspection) and len(found.papers) == 2
    report, papers = found
    assert report is found.report and papers is found.papers
    assert Atlas.file_format(FIXTURE) == report.format


def test_references_name_the_one_in_use(atlas):
    refs = atlas.references()
    assert refs and all(isinstance(r, ReferenceInfo) for r in refs)
    assert [r.name for r in refs if r.in_use] == ["iclr2026"]


def test_fact_rows_read_like_the_cli_shows_them():
    rows = Atlas.fact_rows(
        {"name": "FooNet", "names": ["FooNet", "Foo"], "kind": "method", "kinds": ["dataset"], "gist": ""}
    )
    assert [(r.label, r.value) for r in rows] == [
        ("name", "FooNet"),
        ("also names", "Foo"),
        ("kind", "method (also: dataset)"),
    ]


def test_results_reexports_stage_records_on_first_use():
    from paperatlas.enrich.kinds import KINDS
    from paperatlas.report.export import FORMATS
    from paperatlas.search import Hit

    assert results.KINDS is KINDS and results.EXPORT_FORMATS is FORMATS and results.Hit is Hit
    assert results.DIGEST_FORMATS == ("md", "html") and results.DIGEST_LANGUAGES == ("en", "zh")
    with pytest.raises(AttributeError):
        results.NoSuchRecord  # noqa: B018
    assert [m.name for m in Atlas.models() if m.default] == ["static"]
