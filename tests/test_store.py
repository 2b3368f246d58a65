"""The store: batch look-ups and writes, rekey_paper, filtered full-text search, card facts."""

from __future__ import annotations

import itertools
import sqlite3

import numpy as np
import pytest

from paperatlas.store import PAPER_COLUMNS, Store
from paperatlas.store.connection import has_index, has_table
from source_ast import parse


def _row(pid, abstract="An abstract.", title=None):
    row = dict.fromkeys(PAPER_COLUMNS)
    row.update(id=pid, abstract=abstract, title=title, authors=[], keywords=[], urls=[], extra={})
    return row


@pytest.fixture
def store(tmp_path):
    s = Store(tmp_path / "s.db")
    yield s
    s.close()


def test_batch_lookups(store):
    with store.transaction():
        store.papers.insert_many([_row("a"), _row("b", title="Bee")])
        store.dedup.add_hashes([("h1", "a"), ("h2", "b"), ("h1", "b")])  # h1 keeps its first paper
        store.lists.ensure("L")
        store.lists.add_members([("L", "a", 0), ("L", "a", 5)])
    assert store.papers.existing_ids(["a", "x", "b"]) == {"a", "b"}
    assert store.dedup.papers_for_hashes(["h1", "h2", "h3"]) == {"h1": "a", "h2": "b"}
    assert store.lists.members_among("L", ["a", "b"]) == {"a"}
    assert store.papers.ids("L") == ["a"]
    assert store.papers.existing_ids([]) == set()


def test_rekey_moves_every_reference(store):
    with store.transaction():
        store.papers.insert_many([_row("hold", abstract="graph neural networks", title="Old")])
        store.dedup.add_hashes([("hx", "hold")])
        store.dedup.set_minhashes([("hold", 0, np.arange(4, dtype=np.uint64))])
        store.lists.ensure("L")
        store.lists.add_members([("L", "hold", 3)])
        store.facts.set("hold", {"kind": "method"}, "t", "v")
        store.vectors.put("m", ["hold"], np.ones((1, 2), dtype=np.float32), ["t"])
        store.marks.set("likes", "hold", 1)
    with store.transaction():
        store.papers.rekey("hold", "NewId")
    assert store.papers.get("hold") is None
    assert store.papers.get("NewId")["title"] == "Old"
    assert store.dedup.papers_for_hashes(["hx"]) == {"hx": "NewId"}
    assert [pid for pid, _, _ in store.dedup.iter_minhashes()] == ["NewId"]
    assert store.papers.ids("L") == ["NewId"]
    assert store.facts.get("NewId") == {"kind": "method"}
    assert store.vectors.get("m")[0] == ["NewId"]
    assert store.marks.rows("likes") == [("likes", "NewId", 1)]
    assert [pid for pid, _ in store.fts.search("graph")] == ["NewId"]
    assert store.conn.execute("PRAGMA foreign_key_check").fetchall() == []


# What facts_pending counts, written as the join it replaced: every paper without current
# facts (none, stale, or of another extractor version).
PENDING_BY_DEFINITION = (
    "SELECT count(*) FROM papers p LEFT JOIN facts f ON f.paper_id = p.id "
    "WHERE f.paper_id IS NULL OR f.text_hash = '' OR (? IS NOT NULL AND f.version != ?)"
)


def test_facts_pending_counts_from_indexes_what_the_join_counted(tmp_path):
    """`add` asks on every run; the count reads indexes only (no scan of the facts
    records). An atlas made before the index (schema 6) opens read-only as it is (same
    count, without the index) and gains the index when opened for writing."""
    path = tmp_path / "s.db"
    store = Store(path)
    with store.transaction():
        store.conn.execute("DROP INDEX facts_current")  # as an atlas of schema 6 was
        for index in ("embeddings_state", "embeddings_paper", "paper_topics_paper", "marks_paper"):
            store.conn.execute(f"DROP INDEX {index}")
        store.conn.execute("PRAGMA user_version = 6")
        store.papers.insert_many([_row(pid) for pid in "abcdef"])
        for pid in "abcde":
            store.facts.set(pid, {}, "t", "v2")
        store.facts.set("d", {}, "t", "v1")  # another extractor version
        store.papers.update("c", {"abstract": "A new abstract."})  # stale (papers_text_changed)
        store.papers.rekey("b", "b2")
        store.conn.execute("DELETE FROM papers WHERE id = 'a'")  # its facts go with it
    store.close()
    reader = Store(path, read_only=True)
    assert reader.facts.pending() == 2
    reader.close()
    store = Store(path)
    executed: list[str] = []
    store.conn.set_trace_callback(executed.append)
    counts = [store.facts.pending(), store.facts.pending("v2"), store.facts.pending("v9")]
    store.conn.set_trace_callback(None)
    expected = [store.conn.execute(PENDING_BY_DEFINITION, (v, v)).fetchone()[0] for v in (None, "v2", "v9")]
    assert counts == expected == [2, 3, 5]  # f, c; and d; every paper
    steps = [r[3] for sql in executed for r in store.conn.execute(f"EXPLAIN QUERY PLAN {sql}")]
    assert steps and all("COVERING INDEX" in s or "INDEX facts_current" in s for s in steps), steps
    store.close()


def test_filtered_full_text_search_takes_the_fast_path_only_when_it_is_exact(tmp_path, monkeypatch):
    """A filtered search ranks unfiltered matches and keeps the allowed ones; with too
    few allowed among them it falls back to SQL. Both give the same ranking."""
    import paperatlas.store.fts as fts_module

    store = Store(tmp_path / "atlas.db")
    with store.transaction():
        for i in range(120):
            # 'graph' once or several times: a spread of BM25 scores
            store.papers.insert(
                {
                    "id": f"p{i:03d}",
                    "title": f"Paper {i}",
                    "abstract": " ".join(["graph"] * (1 + i % 7))
                    + f" networks study number {i} with filler words",
                }
            )
    rare = {f"p{i:03d}" for i in range(0, 120, 40)}  # 3 allowed: the SQL fallback
    common = {f"p{i:03d}" for i in range(0, 120, 2)}  # 60 allowed: the fast path
    monkeypatch.setattr(fts_module, "FTS_FILTER_MIN_DEPTH", 10)
    calls = []
    real_ranked = fts_module.FullText._fts_ranked

    def counting(self, match, limit):
        calls.append(limit)
        return real_ranked(self, match, limit)

    monkeypatch.setattr(fts_module.FullText, "_fts_ranked", counting)
    results = {}
    for depth in (1, 10**9):  # 1: fast path whenever it is exact; 10**9: always SQL
        monkeypatch.setattr(fts_module, "FTS_FILTER_DEPTH", depth)
        results[depth] = [store.fts.search('"graph"', limit=5, within=w) for w in (rare, common)]
    assert results[1] == results[10**9]
    # depth 1: both tried the fast path; the top 10 (seven 'graph's each) hold none of the
    # rare ids, so that one fell back to SQL
    assert calls[:2] == [10, 10]
    rare_hits, common_hits = results[1]
    assert {p for p, _ in rare_hits} == rare  # all three, although 5 were asked for
    assert len(common_hits) == 5 and {p for p, _ in common_hits} <= common
    assert all(a[1] >= b[1] for a, b in itertools.pairwise(common_hits))


def test_card_facts_are_the_card_fields_of_the_full_facts(store):
    facts = {
        "kind": "benchmark",
        "name": "HSSBench",
        "has_code": True,
        "gist": "A gist.",
        "display_title": "A display title",
        "numbers": [{"text": "3x"}],
    }
    with store.transaction():
        store.papers.insert_many([_row("c1", abstract="x"), _row("c2", abstract="y")])
        store.facts.set("c1", facts, "t", "v")
    card = store.facts.for_cards(["c1", "c2", "missing"])
    assert list(card) == ["c1"]
    full = store.facts.get_many(["c1"])["c1"]
    assert card["c1"] == {k: full[k] for k in ("name", "kind", "has_code", "display_title", "gist")}


def test_change_counter_moves_with_writes_not_with_scratch_reads(store):
    with store.transaction():
        store.papers.insert_many([_row("a", abstract="graph networks")])
    before = store.change_counter()
    assert store.change_counter() == before
    store.fts.doc_freq(["graph", "networks"])  # writes only this connection's temp tables
    assert store.change_counter() == before
    with store.transaction():
        store.marks.set("likes", "a", 1)
    assert store.change_counter() != before


def test_signatures_follow_papers_and_vectors(store):
    assert store.papers.signature() == (0, 0, "")
    with store.transaction():
        store.papers.insert_many([_row("a"), _row("b")])
    first = store.papers.signature()
    assert first[:2] == (2, 2)
    assert store.vectors.count("m") == 0 and store.vectors.signature("m") == (0, 0)
    with store.transaction():
        store.vectors.put("m", ["a", "b"], np.ones((2, 3), dtype=np.float32), ["t", "t"])
    assert store.vectors.count("m") == 2 and store.vectors.count("other") == 0
    replaced_before = store.vectors.signature("m")
    with store.transaction():
        store.vectors.put("m", ["a"], np.zeros((1, 3), dtype=np.float32), ["u"])
    assert store.vectors.signature("m") != replaced_before  # same count, a new rowid
    with store.transaction():
        store.vectors.delete("m")
    assert store.vectors.count("m") == 0


def test_generation_is_shared_by_threads_and_sees_other_connections(store, tmp_path):
    import threading

    with store.transaction():
        store.papers.insert_many([_row("a")])
    generation = store.generation()
    try:
        first = generation.current()
        seen = []
        thread = threading.Thread(target=lambda: seen.append(generation.current()))
        thread.start()
        thread.join()
        assert seen == [first]
        other = Store(tmp_path / "s.db")  # another connection, as another process would have
        with other.transaction():
            other.marks.set("likes", "a", 1)
        other.close()
        assert generation.current() != first
    finally:
        generation.close()


def test_read_only_store_refuses_writes_with_one_line(store, tmp_path):
    from paperatlas.store import StoreError

    with store.transaction():
        store.papers.insert_many([_row("a")])
    store.close()
    ro = Store(tmp_path / "s.db", read_only=True)
    assert ro.read_only and ro.papers.get("a")["id"] == "a"
    with pytest.raises(StoreError, match="read-only"), ro.transaction():
        ro.marks.set("likes", "a", 1)
    assert ro.marks.rows() == []


def test_index_vocabulary_reads_work_again_after_close(store):
    with store.transaction():
        store.papers.insert_many([_row("a", abstract="graph networks")])
    assert store.fts.doc_freq(["graph"]) == {"graph": 1}
    store.close()  # the next call opens a new connection, without the old temp tables
    assert store.fts.doc_freq(["graph"]) == {"graph": 1}
    assert [tuple(r) for r in store.fts.postings("graph")] == [(1, 1.0)]  # abstract weight 1


def test_sql_is_only_run_inside_the_store_package():
    """The layering rule 'SQL only in store/': no module outside it opens a connection
    or runs a statement (catching sqlite3's errors elsewhere is fine)."""
    import ast
    from pathlib import Path

    package = Path(__file__).resolve().parent.parent / "src" / "paperatlas"
    offenders = []
    for path in sorted(package.rglob("*.py")):
        if "store" in path.relative_to(package).parts[:1]:
            continue
        for node in ast.walk(parse(path)):
            if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
                name = node.func.attr
                owner = node.func.value
                if name in ("execute", "executemany", "executescript") or (
                    name == "connect" and isinstance(owner, ast.Name) and owner.id == "sqlite3"
                ):
                    offenders.append(f"{path.relative_to(package)}:{node.lineno} {name}")
    assert offenders == []


def test_vector_state_reads_an_index_not_the_vectors(tmp_path):
    """Opening a vector index checks it against Store.vectors.state: that read must not
    touch the records holding the vectors (a covering index), and an atlas of schema 7
    opens read-only as it is and gains the index when opened for writing."""
    path = tmp_path / "s.db"
    store = Store(path)
    with store.transaction():
        store.papers.insert_many([_row(pid) for pid in "abc"])
        store.vectors.put("m", ["a", "b"], np.ones((2, 4), dtype=np.float32), ["h1", "h2"])
        store.vectors.put("other", ["c"], np.ones((1, 4), dtype=np.float32), ["h3"])
        for index in ("embeddings_state", "embeddings_paper", "paper_topics_paper", "marks_paper"):
            store.conn.execute(f"DROP INDEX {index}")  # as an atlas of schema 7 was
        store.conn.execute("PRAGMA user_version = 7")
    store.close()
    reader = Store(path, read_only=True)
    assert reader.vectors.state("m") == {"a": "h1", "b": "h2"}
    reader.close()
    store = Store(path)
    executed: list[str] = []
    store.conn.set_trace_callback(executed.append)
    assert store.vectors.state("m") == {"a": "h1", "b": "h2"}
    store.conn.set_trace_callback(None)
    steps = [r[3] for sql in executed for r in store.conn.execute(f"EXPLAIN QUERY PLAN {sql}")]
    assert steps and all("COVERING INDEX embeddings_state" in s for s in steps), steps
    store.close()


@pytest.mark.parametrize("table", ["embeddings", "paper_topics", "marks", "list_members", "paper_hashes"])
def test_a_papers_rows_are_found_by_its_id_without_a_scan(tmp_path, table):
    """Re-keying or deleting a paper (and the foreign keys' cascade) looks its rows up
    by paper id in every table that refers to papers: by an index, not a scan."""
    store = Store(tmp_path / "s.db")
    plan = store.conn.execute(
        f"EXPLAIN QUERY PLAN SELECT * FROM {table} WHERE paper_id = ?", ("a",)
    ).fetchall()
    assert plan and all("USING" in row[3] and "INDEX" in row[3] for row in plan), plan
    store.close()


def test_facts_of_many_papers_in_one_call_are_stored_as_one_by_one(tmp_path):
    """enrich writes a batch's facts in one statement: the same rows as one call per paper
    (filter columns lifted, a predicted area's top label, a number JSON cannot write as null)."""
    facts = {
        "a": ({"name": "GraphNet", "kind": "method", "has_code": True, "display_title": "G"}, "ta"),
        "b": ({"predicted_area": {"label": "optimization", "prob": 0.9}, "numbers": [float("inf")]}, "tb"),
        "c": ({}, "tc"),
    }
    tables = []
    for name, write in (
        ("one", lambda s: [s.facts.set(pid, f, h, "v") for pid, (f, h) in facts.items()]),
        ("many", lambda s: s.facts.set_many(((pid, f, h) for pid, (f, h) in facts.items()), "v")),
    ):
        s = Store(tmp_path / f"{name}.db")
        with s.transaction():
            s.papers.insert_many([_row(pid) for pid in facts])
            write(s)
        # every column but updated_at: the two stores may be written in different seconds
        tables.append(
            s.conn.execute(
                "SELECT paper_id, name, kind, has_code, display_title, predicted_area, data, text_hash, "
                "version FROM facts ORDER BY paper_id"
            ).fetchall()
        )
        s.close()
    assert [tuple(r) for r in tables[0]] == [tuple(r) for r in tables[1]]
    assert [tuple(r)[:6] for r in tables[1]] == [
        ("a", "GraphNet", "method", 1, "G", None),
        ("b", None, None, 0, None, "optimization"),
        ("c", None, None, 0, None, None),
    ]


def test_tables_and_indexes_are_looked_up_in_the_schema_and_a_missing_one_is_not_remembered(tmp_path):
    path = tmp_path / "atlas.db"
    store = Store(path)
    assert has_table(store.conn, "papers") and has_index(store.conn, "list_rating_order")
    assert not has_table(store.conn, "list_rating_order") and not has_index(store.conn, "papers")
    assert not store._has_table("added_later")
    other = sqlite3.connect(path)  # another process's migration adds a table
    other.execute("CREATE TABLE added_later (x)")
    other.commit()
    other.close()
    assert store._has_table("added_later")
    store.close()
