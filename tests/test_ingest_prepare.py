"""`add` reading a file in a second process (ingest/prepare.py): the same store, the same
reports and errors as reading in-process; the child never outlives the import."""

from __future__ import annotations

import gzip
import json
import subprocess
from dataclasses import asdict
from pathlib import Path

import pytest

import paperatlas.ingest.add as adding
import paperatlas.ingest.importer as importer
from paperatlas.ingest import FileReport, add_files, prepare
from paperatlas.ingest.prepare import Prepared
from paperatlas.paper import Paper
from paperatlas.store import Store

FIX = Path(__file__).parent / "fixtures"
SRC = FIX / "sources"
ING = FIX / "ingest"
BASE = (
    "We study sparse attention for long documents and show that routing tokens to a few "
    "experts per block keeps perplexity within one percent of dense attention at a quarter of the cost"
)


def _rows(store: Store) -> dict[str, list[tuple[object, ...]]]:
    """Every row of every table but the full-text shadow tables and `change_counts` (each
    store's counts start at a random number, by design), timestamps left out, in rowid
    order (the order papers were written in)."""
    out = {}
    tables = [
        r[0]
        for r in store.conn.execute(
            "SELECT name FROM sqlite_master WHERE type='table' AND name NOT LIKE '%fts%' "
            "AND name NOT LIKE 'sqlite_%' AND name != 'change_counts'"
        )
    ]
    for table in tables:
        cols = [r[1] for r in store.conn.execute(f"PRAGMA table_info({table})") if not r[1].endswith("_at")]
        sql = f"SELECT {', '.join(cols)} FROM {table}"
        try:
            rows = store.conn.execute(sql + " ORDER BY rowid").fetchall()
        except Exception:  # a WITHOUT ROWID table
            rows = sorted(map(tuple, store.conn.execute(sql)))
        out[table] = [tuple(r) for r in rows]
    out["fts"] = [tuple(r) for r in store.conn.execute("SELECT rowid, * FROM papers_fts ORDER BY rowid")]
    return out


def _report(f: FileReport) -> dict:
    d = asdict(f)
    d.pop("path")
    return d


def _near_dups(tmp_path: Path) -> list[Path]:
    """A stored list, then a file with a near-duplicate of one of its papers (a word
    changed), an exact copy of another, a new paper and a title-only one."""
    first = tmp_path / "first.jsonl"
    first.write_text(
        json.dumps({"id": "p1", "title": "Sparse routing", "abstract": BASE + "."})
        + "\n"
        + json.dumps({"title": "Hypergraphs with learned incidence", "abstract": "Hypergraph networks " * 6})
        + "\n"
    )
    second = tmp_path / "second.jsonl"
    second.write_text(
        json.dumps({"id": "q1", "abstract": BASE.replace("quarter", "fourth") + "."})
        + "\n"
        + json.dumps({"id": "q2", "abstract": "Hypergraph networks " * 6})
        + "\n"
        + json.dumps({"id": "q3", "abstract": "A new paper on protein folding with diffusion models " * 2})
        + "\n"
        + json.dumps({"title": "Hypergraphs with learned incidence"})
        + "\n"
        + json.dumps({"id": "q1", "abstract": "An unrelated text under a repeated id, about weather."})
        + "\n"
    )
    return [first, second]


CASES = {
    "sources": [SRC / "iclr_mini.jsonl", SRC / "arxiv.jsonl", SRC / "papers.bib", SRC / "papers.csv"],
    "abstracts and titles": [ING / "with_abstracts.jsonl", ING / "titles_only.bib", ING / "with_skips.bib"],
    "re-keyed": [ING / "rekey_many" / "stored.jsonl", ING / "rekey_many" / "later.jsonl"],
    "re-keyed twins": [ING / "rekey" / "hash_only.jsonl", ING / "rekey" / "twins.jsonl"],
    "same ids": [
        ING / "same_id" / "first.jsonl",
        ING / "same_id" / "repeated.jsonl",
        ING / "same_id" / "reused.jsonl",
    ],
    "re-added": [SRC / "iclr_mini.jsonl", SRC / "iclr_mini.jsonl.gz", SRC / "iclr_mini.jsonl"],
}


# Each case starts a child process (seconds under load): make test-fast runs one of them.
FAST_CASE = "re-keyed twins"


@pytest.mark.parametrize(
    "case",
    [pytest.param(c, marks=() if c == FAST_CASE else pytest.mark.slow) for c in [*CASES, "near duplicates"]],
)
def test_a_child_process_stores_what_reading_in_process_stores(tmp_path, monkeypatch, case):
    """Records in batches of 2: twins and repeated ids in one batch and across batches."""
    files = _near_dups(tmp_path) if case == "near duplicates" else CASES[case]
    monkeypatch.setattr(importer, "BATCH", 2)
    results = {}
    for worker in ("0", "1"):
        monkeypatch.setenv("PAPERATLAS_ADD_WORKER", worker)
        store = Store(tmp_path / f"w{worker}.db")
        reports = [_report(f) for path in files for f in add_files(store, [path]).files]
        results[worker] = (_rows(store), reports)
        store.close()
    assert results["1"] == results["0"]
    assert any(r["added"] for r in results["1"][1])


def test_the_child_is_used_for_big_files_only(tmp_path, monkeypatch):
    monkeypatch.delenv("PAPERATLAS_ADD_WORKER", raising=False)
    small = SRC / "iclr_mini.jsonl"
    assert not prepare.use_worker(small)
    monkeypatch.setattr(prepare, "WORKER_MIN_BYTES", 10)
    assert prepare.use_worker(small)
    assert not prepare.use_worker(ING / "same_id" / "folder")  # a folder: in-process
    monkeypatch.setenv("PAPERATLAS_ADD_WORKER", "0")
    assert not prepare.use_worker(small)


def test_a_gzip_list_is_sized_by_its_text_not_its_bytes_on_disk(tmp_path, monkeypatch):
    """380,000 short records gzip into under 1 MB: the child reads them (the file's text is
    what costs), as it reads the same text unzipped."""
    monkeypatch.delenv("PAPERATLAS_ADD_WORKER", raising=False)
    text = "".join(f'{{"title": "Paper number {i} of a long list"}}\n' for i in range(3000))
    plain, packed = tmp_path / "list.jsonl", tmp_path / "list.jsonl.gz"
    plain.write_text(text)
    packed.write_bytes(gzip.compress(text.encode()))
    monkeypatch.setattr(prepare, "WORKER_MIN_BYTES", len(text) - 1)
    assert packed.stat().st_size < prepare.WORKER_MIN_BYTES
    assert prepare.use_worker(plain) and prepare.use_worker(packed)
    monkeypatch.setattr(prepare, "WORKER_MIN_BYTES", len(text) + 1)
    assert not prepare.use_worker(plain) and not prepare.use_worker(packed)


@pytest.mark.slow  # starts a child process and kills or waits for it
def test_a_bad_line_read_by_the_child_is_the_same_error_and_rolls_back(tmp_path, monkeypatch):
    monkeypatch.setattr(importer, "BATCH", 1)  # the good rows before it are written first
    errors = {}
    for worker in ("0", "1"):
        monkeypatch.setenv("PAPERATLAS_ADD_WORKER", worker)
        store = Store(tmp_path / f"w{worker}.db")
        add_files(store, [SRC / "iclr_mini.jsonl"])
        before = _rows(store)
        [f] = add_files(store, [SRC / "malformed.jsonl"]).files
        errors[worker] = f.error
        assert _rows(store) == before
        store.close()
    assert "malformed.jsonl:3: malformed JSON" in errors["1"]
    assert errors["1"] == errors["0"]


def _spawned(monkeypatch) -> list[subprocess.Popen]:
    procs: list[subprocess.Popen] = []
    real = subprocess.Popen

    def popen(*args, **kwargs):
        procs.append(real(*args, **kwargs))
        return procs[-1]

    monkeypatch.setattr(prepare.subprocess, "Popen", popen)
    monkeypatch.setenv("PAPERATLAS_ADD_WORKER", "1")
    return procs


@pytest.mark.slow  # starts a child process and kills or waits for it
def test_ctrl_c_mid_file_rolls_back_and_stops_the_child(store, monkeypatch):
    procs = _spawned(monkeypatch)
    add_files(store, [SRC / "arxiv.jsonl"])
    before = _rows(store)
    monkeypatch.setattr(importer, "BATCH", 1)
    real = importer.FileImport._batch
    seen = []

    def interrupted(self, batch, prepared=None):
        seen.append(prepared)
        if len(seen) == 3:
            raise KeyboardInterrupt
        return real(self, batch, prepared)

    monkeypatch.setattr(importer.FileImport, "_batch", interrupted)
    with pytest.raises(KeyboardInterrupt):
        add_files(store, [SRC / "iclr_mini.jsonl"])
    assert all(isinstance(p, list) and isinstance(p[0], Prepared) for p in seen)  # read by the child
    assert _rows(store) == before
    assert len(procs) == 2 and all(p.poll() is not None for p in procs)


def test_a_child_that_dies_fails_the_file_only(store, monkeypatch):
    procs = _spawned(monkeypatch)
    monkeypatch.setattr(prepare, "_CHILD", "import sys; sys.exit(3)")
    report = add_files(store, [SRC / "iclr_mini.jsonl"])
    [error] = report.errors
    assert "the process reading the file stopped unexpectedly (exit code 3)" in error
    assert store.papers.count() == 0
    assert all(p.poll() == 3 for p in procs)


def test_prepared_fingerprints_are_what_ingest_computes():
    """Per text, whatever the other texts of the batch (a signature is the text's own)."""
    from paperatlas.ingest import dedup
    from paperatlas.paper import normalise_text

    papers = [
        Paper(abstract=BASE, extra={"abstract_final": BASE + " And more, at scale."}),
        Paper(title="Title only"),
        Paper(abstract="Two words"),
        Paper(abstract="Ünïcode — quotes “here” and there " * 3),
    ]
    prepared = prepare.prepare(papers)
    for paper, pre in zip(papers, prepared):
        texts = prepare.versions(paper)
        assert pre.norms == [normalise_text(t) for t in texts]
        alone = dedup.signatures(texts) if texts else []
        assert len(pre.signatures) == len(texts)
        assert all((a == b).all() for a, b in zip(pre.signatures, alone))


def test_the_add_writes_with_a_big_page_cache_and_gives_it_back(store, monkeypatch):
    def cache_size() -> int:
        return int(store.conn.execute("PRAGMA cache_size").fetchone()[0])

    before = cache_size()
    during = []
    real = importer.FileImport.run

    def run(self):
        during.append(cache_size())
        return real(self)

    monkeypatch.setattr(importer.FileImport, "run", run)
    add_files(store, [SRC / "arxiv.jsonl", SRC / "iclr_mini.jsonl"])
    assert during == [-adding.ADD_CACHE_KIB] * 2 and before != -adding.ADD_CACHE_KIB
    assert cache_size() == before

    def interrupted(self, batch, prepared=None):
        raise KeyboardInterrupt

    monkeypatch.setattr(importer.FileImport, "_batch", interrupted)
    with pytest.raises(KeyboardInterrupt):  # given back when the add is interrupted too
        add_files(store, [SRC / "arxiv.jsonl"])
    assert cache_size() == before
