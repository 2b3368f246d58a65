"""What a command leaves unfinished, the store records, and the same command finishes:
facts missing after an interrupted enrichment, facts made stale by a changed text."""

from __future__ import annotations

from pathlib import Path

from paperatlas import Atlas
from paperatlas.enrich.pipeline import enrich_store, facts_hash

FIX = Path(__file__).parent / "fixtures" / "sources"
MINI = FIX / "iclr_mini.jsonl"  # 4 papers


def _facts(db: Path) -> int:
    atlas = Atlas(db)
    try:
        return atlas.store.conn.execute("SELECT count(*) FROM facts").fetchone()[0]
    finally:
        atlas.close()


def test_add_again_finishes_an_interrupted_enrichment(cli):
    db = cli.db
    assert cli("add", MINI)[0] == 0
    assert _facts(db) == 4
    # an enrichment killed after its first batch: two papers' facts never written
    atlas = Atlas(db)
    with atlas.store.transaction() as tx:
        tx.execute("DELETE FROM facts WHERE paper_id IN (SELECT id FROM papers LIMIT 2)")
    assert atlas.store.facts.pending() == 2
    atlas.close()
    code, out, err = cli("add", MINI)
    assert code == 0, err
    assert _facts(db) == 4  # the second add stored nothing new, and finished the facts


def test_add_no_enrich_then_add_enriches(cli):
    db = cli.db
    assert cli("add", MINI, "--no-enrich")[0] == 0
    assert _facts(db) == 0
    assert cli("add", MINI)[0] == 0
    assert _facts(db) == 4


def test_changed_text_marks_facts_stale_and_enrich_redoes_only_those(tmp_path):
    atlas = Atlas(tmp_path / "atlas.db")
    atlas.add(MINI, enrich=True)
    store = atlas.store
    assert store.facts.pending() == 0
    pid = store.papers.ids()[0]
    with store.transaction():
        store.papers.update(pid, {"rating": 9.0})  # not the text: facts stay valid
    assert store.facts.pending() == 0
    with store.transaction():
        store.papers.update(
            pid,
            {
                "abstract": "We introduce FreshName, a new benchmark for "
                "testing resumable enrichment of paper lists."
            },
        )
    assert store.facts.pending() == 1
    counts = enrich_store(store)
    assert counts["enriched"] == 1 and counts["skipped"] == 3
    assert store.facts.pending() == 0
    paper = store.papers.get(pid)  # the stored facts are those of the new text
    assert store.facts.state()[pid][0] == facts_hash(paper["title"], paper["abstract"])


def test_nothing_pending_is_one_query(tmp_path):
    atlas = Atlas(tmp_path / "atlas.db")
    atlas.add(MINI, enrich=True)
    counts = enrich_store(atlas.store)
    assert counts == {"total": 4, "enriched": 0, "skipped": 4, "named": 0, "with_code": 0, "with_area": 0}
