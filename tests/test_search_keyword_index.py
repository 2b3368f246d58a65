"""keyword_index ranks exactly as SQLite FTS5's bm25 does (same ids, same scores), on a
real small store, for single terms, several terms, words sharing a stem, exact phrases and
filters; and it sees papers added after it was built."""

import json
import random
from pathlib import Path

import numpy as np
import pytest

from paperatlas import search as S
from paperatlas.search import keyword as K
from paperatlas.search import postings_file
from paperatlas.store import Store

FIXTURE = Path(__file__).parent / "fixtures" / "search" / "papers.jsonl"
PAPERS = [json.loads(line) for line in FIXTURE.read_text(encoding="utf-8").splitlines()]


def fill(store: Store, papers) -> None:
    with store.transaction():
        for p in papers:
            store.papers.insert({k: p[k] for k in ("id", "title", "abstract", "keywords")})


@pytest.fixture()
def store(tmp_path):
    s = Store(tmp_path / "atlas.db")
    fill(s, PAPERS)
    return s


def fts5_ranking(store, terms, limit, within=None):
    return store.fts.search(S.match_expression(terms), limit=limit, within=within)


def memory_ranking(store, terms, limit, within=None):
    return K.rank(store, terms, S.phrase_expression(terms), limit, within=within)


def assert_same(a, b):
    assert a is not None
    assert [round(s, 9) for _, s in a] == [round(s, 9) for _, s in b]
    # equal scores may come in either order; everything above the last score must agree
    last = b[-1][1] if b else None
    assert {p for p, s in a if s > last + 1e-9} == {p for p, s in b if s > last + 1e-9}
    assert len(a) == len(b)


def queries():
    rng = random.Random(7)
    words = sorted({w for p in PAPERS for w in S.query_terms(p["title"] + " " + p["abstract"])})
    out = [[w] for w in rng.sample(words, 40)]
    out += [rng.sample(words, n) for n in (2, 3, 5, 8) for _ in range(10)]
    for p in PAPERS[:10]:  # real phrases: a title's first words
        out.append(S.query_terms(p["title"])[:3])
    out.append(["network", "networks", "networking"])  # one stem, three phrases in FTS5
    out.append(["model", "models"])
    return [q for q in out if q]


def test_rankings_equal_fts5_bm25(store):
    for terms in queries():
        for limit in (1, 5, 200):
            assert_same(memory_ranking(store, terms, limit), fts5_ranking(store, terms, limit))


def test_filtered_rankings_equal_fts5_bm25(store):
    rng = random.Random(3)
    ids = [p["id"] for p in PAPERS]
    for terms in queries()[::3]:
        within = frozenset(rng.sample(ids, len(ids) // 3))
        assert_same(memory_ranking(store, terms, 5, within), fts5_ranking(store, terms, 5, within))


def test_words_sharing_a_stem_add_up_like_fts5(store):
    one = memory_ranking(store, ["network"], 50)
    both = memory_ranking(store, ["network", "networks"], 50)
    assert one and {p for p, _ in one} == {p for p, _ in both}
    assert both[0][1] == pytest.approx(2 * one[0][1])


def test_papers_added_later_are_found(store):
    assert memory_ranking(store, ["zyxwvutsrq"], 10) == []
    new = {
        "id": "late01",
        "title": "Zyxwvutsrq attention",
        "abstract": "A zyxwvutsrq study of attention heads in small transformers and what they learn.",
        "keywords": [],
    }
    fill(store, [new])
    ranked = memory_ranking(store, ["zyxwvutsrq"], 10)
    assert [p for p, _ in ranked] == ["late01"]
    assert_same(ranked, fts5_ranking(store, ["zyxwvutsrq"], 10))


def test_a_term_of_two_tokens_is_left_to_fts5(store):
    assert K.rank(store, ["graph neural"], None, 10) is None
    assert K.rank(store, ["graph"], None, 10) is not None


def test_search_uses_the_memory_ranking(store, monkeypatch):
    calls = []
    real = K.rank
    monkeypatch.setattr(K, "rank", lambda *a, **k: calls.append(a[1]) or real(*a, **k))
    r = S.search(store, "graph neural networks", method="keyword")
    assert calls and r.hits
    assert [h.id for h in r.hits] == [
        p
        for p, _ in fts5_ranking(
            store, S.informative_terms(store, S.query_terms("graph neural networks")), 20
        )
    ]


def test_varints():
    assert K._varints(bytes([5, 0x81, 0x00, 0x7F])) == [5, 128, 127]
    assert K._varints(bytes([0x82, 0xAC, 0x02])) == [(2 << 14) | (0x2C << 7) | 2]


def test_preloaded_postings_rank_the_same_without_asking_sqlite(store, monkeypatch):
    expected = {tuple(q): fts5_ranking(store, q, 20) for q in queries()}
    K._INDEXES.clear()
    assert K.preload(store, to_file=False)  # held in memory (the file: below)
    monkeypatch.setattr(
        type(store.fts), "postings", lambda *a: pytest.fail("postings read again after the preload")
    )
    for terms, ranking in expected.items():
        assert_same(memory_ranking(store, list(terms), 20), ranking)


def test_doc_freq_matches_the_index_before_and_after_preload(store):
    words = ["graph", "networks", "the", "zzzunknown", "learning"]
    truth = store.fts.doc_freq(words)
    assert truth["zzzunknown"] == 0 and truth["the"] >= truth["graph"] > 0
    K._INDEXES.clear()
    assert K.doc_freq(store, words) == truth
    K.preload(store)
    assert K.doc_freq(store, words) == truth


@pytest.mark.parametrize("share", [3, 30])
def test_a_preload_over_its_budget_keeps_the_longest_lists_and_ranks_the_same(store, monkeypatch, share):
    expected = {tuple(q): fts5_ranking(store, q, 20) for q in queries()}
    sizes = dict(store.fts.token_counts())
    budget = sum(n * K.POSTING_BYTES + K.TOKEN_BYTES for n in sizes.values()) // share
    K._INDEXES.clear()
    assert K.preload(store, budget, to_file=False) is False
    kept = K._index(store)._packed.slot
    assert 0 < len(kept) < len(sizes)
    assert sum(sizes[t] * K.POSTING_BYTES + K.TOKEN_BYTES for t in kept) <= budget
    # the longest lists first, but those of terms search drops as common last
    common = {t for t, n in sizes.items() if n > K.COMMON_TERM_SHARE * len(PAPERS)}
    assert common and len(common) < len(sizes)
    rare_kept = [sizes[t] for t in kept if t not in common]
    rare_left = [n for t, n in sizes.items() if t not in kept and t not in common]
    assert rare_kept and min(rare_kept) >= max(rare_left, default=0)
    assert not (kept.keys() & common) or not rare_left
    for terms, ranking in expected.items():  # the rest is read per query, as before
        assert_same(memory_ranking(store, list(terms), 20), ranking)


def test_postings_are_kept_compact():
    docs, freq = K._compact_postings(np.array([3, 9]), np.array([4.0, 1.0]))
    assert docs.dtype == np.int32 and freq.dtype == np.uint16 and freq.tolist() == [4, 1]
    assert K._compact_postings(np.array([3]), np.array([1.5]))[1].dtype == np.float64


def test_record_sums_decode_varints_like_sqlite():
    rng = random.Random(5)
    records = [bytes([5, 0x81, 0x00, 0x7F]), bytes([0x82, 0xAC, 0x02]), b"", bytes([0x7F])]
    for _ in range(300):  # three columns' token counts of every size a record may hold
        records.append(
            b"".join(_varint(rng.choice([0, 1, 127, 128, 300, 16383, 16384, 10**6])) for _ in range(3))
        )
    expected = [sum(K._varints(r)) for r in records]
    assert K._record_sums(records).tolist() == expected
    assert K._record_sums([]).tolist() == []


def _varint(value: int) -> bytes:
    out = [value & 0x7F]
    value >>= 7
    while value:
        out.append(0x80 | (value & 0x7F))
        value >>= 7
    return bytes(reversed(out))


def test_the_preload_budget_is_a_share_of_memory_with_a_cap(monkeypatch):
    monkeypatch.setattr(K.os, "sysconf", lambda name: {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": 2**20}[name])
    assert K.preload_budget() == (4 << 30) // 16  # 4 GB of memory: 256 MB
    monkeypatch.setattr(K.os, "sysconf", lambda name: {"SC_PAGE_SIZE": 4096, "SC_PHYS_PAGES": 2**24}[name])
    assert K.preload_budget() == K.PRELOAD_MAX_BYTES  # 64 GB: the cap


def test_a_postings_file_ranks_the_same_in_a_new_process_without_reading_fts5(store, monkeypatch):
    expected = {tuple(q): fts5_ranking(store, q, 20) for q in queries()}
    K._INDEXES.clear()
    from_sqlite = {q: memory_ranking(store, list(q), 20) for q in expected}  # no file yet
    words = ["graph", "networks", "the", "zzzunknown", "learning"]
    truth = store.fts.doc_freq(words)
    assert K.preload(store) is True
    assert postings_file.file_path(store.path).exists()
    K._INDEXES.clear()  # what a cold `paperatlas search` finds: the file, nothing in memory
    for name in ("postings", "doc_sizes", "token_postings", "doc_freq", "rowids_to_ids"):
        monkeypatch.setattr(type(store.fts), name, lambda *a, n=name: pytest.fail(f"{n} read with a file"))
    assert K.doc_freq(store, words) == truth
    for terms, ranking in expected.items():
        ours = memory_ranking(store, list(terms), 20)
        assert_same(ours, ranking)
        assert ours == from_sqlite[terms]  # the same floats as from postings read in SQLite


def test_a_builder_that_died_leaves_nothing_behind_the_next_build(store):
    """A server stopped during its background preload leaves its temporary file; the
    next build (under the same lock) removes it, and the file it writes is used."""
    path = postings_file.file_path(store.path)
    ids = postings_file.file_path(store.path, postings_file.IDS_SUFFIX)
    left = [path.with_name(path.name + ".99999.tmp"), ids.with_name(ids.name + ".99999.tmp")]
    for each in left:
        each.write_bytes(b"half a file")
    K._INDEXES.clear()
    assert K.preload(store) is True
    assert not any(each.exists() for each in left) and path.exists() and ids.exists()
    assert sorted(p.name for p in path.parent.glob(path.name + "*")) == [
        path.name,
        path.name + ".lock",
        ids.name,
    ]


def test_a_stale_postings_file_is_not_used(store):
    K._INDEXES.clear()
    K.preload(store)
    late = {"id": "late02", "title": "Zyxwvutsrq graphs", "abstract": "Graphs of zyxwvutsrq.", "keywords": []}
    fill(store, [late])
    K._INDEXES.clear()
    assert K._index(store)._file is None  # the index changed: the file is of another version
    assert K._index(store)._ids is None  # and so did the ids file
    assert_same(
        memory_ranking(store, ["zyxwvutsrq", "graph"], 10), fts5_ranking(store, ["zyxwvutsrq", "graph"], 10)
    )
    assert K.preload(store) is True  # rewritten for the new version
    K._INDEXES.clear()
    assert K._index(store)._file is not None
    assert K._index(store)._ids.names([K._index(store).n_rows]) == store.fts.rowids_to_ids(
        [K._index(store).n_rows]
    )
    assert_same(
        memory_ranking(store, ["zyxwvutsrq", "graph"], 10), fts5_ranking(store, ["zyxwvutsrq", "graph"], 10)
    )


def test_where_no_file_can_be_written_the_preload_holds_postings_in_memory(store, tmp_path, monkeypatch):
    monkeypatch.setattr(
        postings_file,
        "file_path",
        lambda db, suffix=postings_file.SUFFIX: tmp_path / "missing-dir" / f"atlas.db{suffix}",
    )
    K._INDEXES.clear()
    assert K.preload(store) is True
    index = K._index(store)
    assert index._file is None and index._packed.slot


def test_the_ids_file_names_every_row_as_the_store_does(tmp_path):
    """Row ids with gaps (deleted papers, a re-keyed one), ids of any script: the file
    answers what `rowids_to_ids` answers, and nothing for a rowid no paper has."""
    s = Store(tmp_path / "ids.db")
    fill(s, PAPERS[:30])
    extra = [
        {"id": pid, "title": "T", "abstract": f"Abstract {n}.", "keywords": []}
        for n, pid in enumerate(["论文-1", "é/2", "x" * 300])
    ]
    fill(s, extra)
    with s.transaction():
        s.conn.execute("DELETE FROM papers WHERE id = ?", (PAPERS[3]["id"],))
        s.papers.rekey(PAPERS[5]["id"], "rekeyed-5")
    K._INDEXES.clear()
    assert K.preload(s) is True
    index = K._index(s)
    top = max(r for r, _ in s.fts.row_ids())
    every = list(range(0, top + 3))
    assert index._ids is not None and index.names(s, every) == s.fts.rowids_to_ids(every)
    assert len(index.names(s, every)) == len(PAPERS[:30]) + 3 - 1
