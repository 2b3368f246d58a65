"""Files into the store: dedup (exact and MinHash), merge, membership, idempotent re-add,
one transaction per file."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from conftest import dump
from paperatlas import sources
from paperatlas.ingest import add_files, list_name_of, merge_changes
from paperatlas.paper import Paper
from paperatlas.store import Store

ROOT = Path(__file__).resolve().parent.parent
FIX = Path(__file__).parent / "fixtures" / "sources"
SAMPLE = ROOT / "examples" / "iclr2026_sample_list.txt"
JSON_IDS = ["GmX7qQ1abc", "Dif_2-xYzq", "RLexp00001", "MemInf0001"]


def assert_fts_consistent(store: Store) -> None:
    """The full-text index matches the papers table and its insert trigger is in place."""
    store.conn.execute("INSERT INTO papers_fts(papers_fts, rank) VALUES('integrity-check', 1)")
    assert (
        store.conn.execute(
            "SELECT count(*) FROM sqlite_master WHERE type='trigger' AND name='papers_ai'"
        ).fetchone()[0]
        == 1
    )


def test_sample_list_19_papers_and_idempotent(store):
    report = add_files(store, [SAMPLE])
    [f] = report.files
    assert (f.list_name, f.read, f.added, f.merged, f.skipped, f.error) == (
        "iclr2026_sample_list",
        19,
        19,
        0,
        0,
        None,
    )
    assert store.papers.count() == 19 and store.papers.count("iclr2026_sample_list") == 19
    before = dump(store)
    again = add_files(store, [SAMPLE]).files[0]
    assert (again.added, again.merged, again.unchanged) == (0, 0, 19)
    assert dump(store) == before


def test_list_name_of():
    assert list_name_of(Path("data/iclr2026.jsonl.gz")) == "iclr2026"
    assert list_name_of(Path("list.v2.txt")) == "list.v2"
    assert list_name_of(Path("papers")) == "papers"
    assert list_name_of(Path("zotero/ppi_review.ris")) == "ppi_review"
    assert list_name_of(Path("awesome.markdown")) == "awesome"


@pytest.mark.parametrize("order", ["json_first", "list_first"])
def test_list_entries_merge_into_json_twins(store, order):
    files = [FIX / "iclr_mini.jsonl", FIX / "copied_list.txt"]
    if order == "list_first":
        files.reverse()
    reports = {Path(f.path).name: f for f in add_files(store, files).files}
    listed = reports["copied_list.txt"]
    assert not listed.error and listed.read == 4
    # 4 JSON papers + 1 unrelated list entry; the other 3 entries are twins
    assert store.papers.count() == 5
    assert store.papers.count("iclr_mini") == 4 and store.papers.count("copied_list") == 4
    in_list = set(store.papers.ids("copied_list"))
    # source ids win, whichever file came first
    assert {"GmX7qQ1abc", "Dif_2-xYzq", "RLexp00001"} <= in_list
    for pid in ("GmX7qQ1abc", "Dif_2-xYzq", "RLexp00001"):
        paper = store.papers.get(pid)
        assert paper["title"] and paper["area"] and paper["decision"]
        assert sorted(store.lists.containing(pid)) == ["copied_list", "iclr_mini"]
    assert store.lists.containing("MemInf0001") == ["iclr_mini"]
    [other] = in_list - set(JSON_IDS)
    assert other.startswith("h") and store.papers.get(other)["title"] is None
    # the edited abstract (a3) merged by MinHash, the camera-ready one (a2_final) exactly
    near = sum(f.near for f in reports.values())
    assert near == 1
    assert_fts_consistent(store)


def test_readd_after_merge_changes_nothing(store):
    add_files(store, [FIX / "iclr_mini.jsonl", FIX / "copied_list.txt"])
    before = dump(store)
    report = add_files(store, [FIX / "copied_list.txt", FIX / "iclr_mini.jsonl"])
    assert [(f.added, f.merged) for f in report.files] == [(0, 0), (0, 0)]
    assert [f.unchanged for f in report.files] == [4, 4]
    assert dump(store) == before


def test_rekeyed_paper_keeps_list_order_and_fts(store):
    add_files(store, [FIX / "copied_list.txt"])
    first_id = store.papers.ids("copied_list")[0]
    add_files(store, [FIX / "iclr_mini.jsonl"])
    assert store.papers.get(first_id) is None
    assert store.papers.ids("copied_list")[0] == "GmX7qQ1abc"
    hits = [pid for pid, _ in store.fts.search("graphmixer")]
    assert hits == ["GmX7qQ1abc"]
    assert_fts_consistent(store)
    # the list-first paper's hash now points at the source id
    assert {pid for _, pid in dump(store)["paper_hashes"]} <= set(store.papers.ids())


REKEY = Path(__file__).parent / "fixtures" / "ingest" / "rekey"
SAME_ID = Path(__file__).parent / "fixtures" / "ingest" / "same_id"


def _dangling(store: Store) -> list[tuple[object, ...]]:
    """Rows that name a paper the store does not have (any table)."""
    return [tuple(r) for r in store.conn.execute("PRAGMA foreign_key_check")]


def test_a_stored_twin_rekeyed_after_it_joined_the_list_in_the_same_batch(cli):
    """`add /tmp` failed with "FOREIGN KEY constraint failed": a stored title-only paper
    (hash id, from an awesome list) joined the new list through a record without an id
    (notes.txt), and a later record of the same batch with a source id (zotero.jsonl)
    gave it that id; the batch then wrote the membership under the deleted hash id."""
    assert cli("add", REKEY / "awesome.md", "--no-enrich")[0] == 0
    code, out, err = cli("add", REKEY / "later", "--no-enrich")
    assert (code, err) == (0, "")
    assert "-> list 'later': added 0, merged 1, unchanged 1" in out
    code, out, err = cli("add", REKEY / "later", "--no-enrich")  # found by arXiv id: in the list
    assert (code, err) == (0, "") and "-> list 'later': added 0, merged 0, unchanged 2," in out
    store = Store(cli.db)
    assert store.papers.ids() == ["pruneheads"]
    assert store.papers.ids("awesome") == store.papers.ids("later") == ["pruneheads"]
    assert _dangling(store) == []
    store.close()


def test_a_rekey_moves_what_the_batch_still_had_to_write(store):
    """The same with an abstract: the first twin of the batch also gave the stored paper
    a DOI and a second text (abstract_final); they move to the new id with the membership."""
    add_files(store, [REKEY / "hash_only.jsonl"])
    [f] = add_files(store, [REKEY / "twins.jsonl"]).files
    assert (f.error, f.added, f.merged) == (None, 0, 1)
    assert store.papers.ids() == ["hashroute26"]
    assert store.papers.ids("twins") == store.papers.ids("hash_only") == ["hashroute26"]
    assert store.papers.get("hashroute26")["identifiers"] == {"doi": "10.5555/hashroute.2026"}
    tables = dump(store)
    assert [pid for _, pid in tables["paper_hashes"]] == ["hashroute26", "hashroute26"]
    assert ("doi", "10.5555/hashroute.2026", "hashroute26") in tables["paper_identifiers"]
    assert _dangling(store) == []


def test_a_reused_id_seen_again_finds_the_paper_stored_under_its_clash_id(store):
    """`add /tmp` (copies of one repository) also failed with "UNIQUE constraint failed":
    a1's other text from another file, already stored as `a1~<tag>` (its text's hash belongs
    to b1 of the same list, so the hash did not lead there), was inserted again under that id."""
    add_files(store, [SAME_ID / "first.jsonl"], list_name="lab")
    [f] = add_files(store, [SAME_ID / "reused.jsonl"], list_name="lab").files
    assert (f.error, f.added, f.merged, f.unchanged) == (None, 1, 0, 0)
    [clash] = set(store.papers.ids()) - {"a1", "b1"}
    assert (
        clash.startswith("a1~")
        and store.papers.get(clash)["title"] == "World model bonuses for sparse rewards"
    )
    [again] = add_files(store, [SAME_ID / "reused.jsonl"], list_name="lab").files
    assert (again.error, again.added, again.merged, again.unchanged, again.joined) == (None, 0, 0, 1, 0)
    assert _dangling(store) == []


@pytest.mark.parametrize("batch", [2, 3, 500])
def test_the_same_id_twice_in_one_file_is_one_paper_whichever_the_batch(tmp_path, monkeypatch, batch):
    """A file that names a1 twice, with two unrelated texts, names one paper (the second
    record fills what the first lacks, nothing is overwritten: as any merge): the same
    store whether the second a1 comes in the first one's batch of records or a later one."""
    import paperatlas.ingest.importer as importer

    monkeypatch.setattr(importer, "BATCH", batch)
    store = Store(tmp_path / "atlas.db")
    [f] = add_files(store, [SAME_ID / "repeated.jsonl"]).files
    assert (f.error, f.added, f.merged, f.unchanged) == (None, 3, 1, 1)
    assert store.papers.ids("repeated") == ["a1", "b1", "c1"]
    a1 = store.papers.get("a1")
    assert a1["title"] == "Sparse graph structure from node features"
    assert a1["abstract"].startswith("We learn sparse graph structure")
    assert (a1["authors"], a1["urls"]) == (["Ann Lee"], ["https://example.org/a1"])
    [again] = add_files(store, [SAME_ID / "repeated.jsonl"]).files
    assert (again.added, again.merged, again.unchanged) == (0, 0, 5)
    assert _dangling(store) == []
    store.close()


@pytest.mark.parametrize("batch", [1, 500])
def test_a_folder_keeps_its_files_ids_apart_whichever_the_batch(tmp_path, monkeypatch, batch):
    """Two files of a folder both keyed `smith2020` for unrelated papers are two papers, as
    when the files are added one by one, in one batch of records or two."""
    import paperatlas.ingest.importer as importer

    monkeypatch.setattr(importer, "BATCH", batch)
    store = Store(tmp_path / "atlas.db")
    [f] = add_files(store, [SAME_ID / "folder"]).files
    assert (f.error, f.added) == (None, 3)
    [clash] = set(store.papers.ids()) - {"smith2020", "lee2021"}
    assert clash.startswith("smith2020~") and store.papers.get(clash)["title"] == "Agents"
    assert store.papers.get("smith2020")["title"] == "Graphs"
    store.close()


def test_a_store_constraint_failure_is_one_line_naming_file_and_line(cli, monkeypatch):
    """Should a merge ever write a row naming a paper it has not stored again, the file is
    rolled back and named with the line its batch starts at; the other files go in."""
    from paperatlas.store.lists import ListRows

    real = ListRows.add_members

    def with_a_ghost(self, rows):
        rows = list(rows)
        if rows and rows[0][0] == "iclr_mini":
            rows.append(("iclr_mini", "ghost", 99))
        real(self, rows)

    monkeypatch.setattr(ListRows, "add_members", with_a_ghost)
    code, out, err = cli("add", FIX / "iclr_mini.jsonl", SAMPLE, "--no-enrich")
    assert code == 2
    [line] = err.strip().splitlines()
    assert line.startswith(f"error: {FIX / 'iclr_mini.jsonl'}: the records from ")
    assert "iclr_mini.jsonl:1 on could not be stored (FOREIGN KEY constraint failed" in line
    store = Store(cli.db)
    assert store.lists.names() == ["iclr2026_sample_list"] and store.papers.count() == 19
    assert _dangling(store) == []
    store.close()


def test_near_duplicates_within_one_list_stay_apart(store, tmp_path):
    texts = json.loads((FIX / "iclr_mini.jsonl").read_text().splitlines()[2])["abstract"]
    rows = [
        {"id": "resub00001", "abstract": texts},
        {"id": "resub00002", "abstract": texts.replace("often fail", "frequently fail")},
        {"id": "resub00003", "abstract": texts},
    ]  # identical text, different id
    path = tmp_path / "dups.jsonl"
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    [f] = add_files(store, [path]).files
    assert f.added == 3 and store.papers.count() == 3


def test_a_reused_id_with_unrelated_text_is_another_paper(store, tmp_path):
    first, second = tmp_path / "mine.bib", tmp_path / "theirs.bib"
    first.write_text(
        "@article{smith2020, title={Graphs}, abstract={We learn sparse graph "
        "structure from node features and evaluate on six node benchmarks.}}\n"
    )
    second.write_text(
        "@article{smith2020, title={Agents}, abstract={Reinforcement learning agents "
        "explore sparse reward games with a world model bonus that decays.}}\n"
    )
    add_files(store, [first, second])
    assert store.papers.count() == 2
    assert store.papers.get("smith2020")["title"] == "Graphs"
    [other] = set(store.papers.ids("theirs")) - {"smith2020"}
    assert other.startswith("smith2020~") and store.papers.get(other)["title"] == "Agents"
    before = dump(store)
    assert [f.unchanged for f in add_files(store, [second, first]).files] == [1, 1]
    assert dump(store) == before
    # a revised abstract under the same id is the same paper
    revised = tmp_path / "revised.bib"
    revised.write_text(
        "@article{smith2020, title={Graphs}, abstract={We learn sparse graph "
        "structure from node features and evaluate it on seven node benchmarks.}}\n"
    )
    [f] = add_files(store, [revised]).files
    assert (f.added, f.merged) == (0, 1) and store.papers.count() == 2


def test_row_numbers_are_not_ids(store, tmp_path):
    one, two = tmp_path / "one.csv", tmp_path / "two.csv"
    one.write_text("id,title,abstract\n1,First,An abstract about graph learning with sparse structure.\n")
    two.write_text("id,title,abstract\n1,Other,A different abstract about reinforcement learning agents.\n")
    add_files(store, [one, two])
    assert store.papers.count() == 2  # both "1"s are kept apart
    assert {p["extra"]["number"] for p in store.papers.iter()} == {1}


def test_rows_without_abstract_are_stored_title_only(store):
    [f] = add_files(store, [FIX / "missing_abstract.jsonl"]).files
    assert (f.read, f.added, f.skipped, f.error) == (3, 3, 0, None)
    assert f.stats.title_only == 2 and f.stats.abstract == 1
    assert store.papers.get("m2")["abstract"] == "" and store.papers.get("m2")["title"] == "No abstract field"
    [f] = add_files(store, [FIX / "openreview_v2.json"]).files
    assert (f.added, f.skipped, f.stats.title_only) == (2, 0, 1)


def test_a_bad_file_stores_nothing_and_others_still_go_in(store):
    report = add_files(
        store,
        [FIX / "malformed.jsonl", FIX / "iclr_mini.jsonl", FIX / "binary.bin", FIX / "does_not_exist.txt"],
    )
    errors = report.errors
    assert len(errors) == 3
    assert "malformed.jsonl:3: malformed JSON" in errors[0]
    assert store.papers.count() == 4  # malformed.jsonl's two good rows were rolled back
    assert store.lists.names() == ["iclr_mini"]


def test_exception_mid_file_rolls_back_everything(store, monkeypatch):
    add_files(store, [SAMPLE])
    before = dump(store)
    import paperatlas.ingest.importer as importer

    def interrupted(path, report=None):
        for i, paper in enumerate(sources.read(path, report)):
            if i == 3:
                raise KeyboardInterrupt
            yield paper

    monkeypatch.setattr(importer, "read", interrupted)
    monkeypatch.setattr(importer, "BATCH", 2)  # two batches are written before the interrupt
    with pytest.raises(KeyboardInterrupt):
        add_files(store, [FIX / "iclr_mini.jsonl"])
    assert dump(store) == before
    assert_fts_consistent(store)


def test_merge_changes_fills_only_empty_fields():
    stored = {
        "abstract": "stored",
        "title": None,
        "area": "optimization",
        "authors": [],
        "keywords": ["A"],
        "urls": [],
        "extra": {"k": 1},
        "year": None,
        "venue": None,
        "decision": None,
        "rating": None,
        "identifiers": {"doi": "10.1/a"},
    }
    twin = Paper(
        abstract="x",
        title="T",
        area="other",
        authors=["Ann"],
        keywords=["a", "b"],
        year=2026,
        extra={"k": 2, "tldr": "t"},
        code_urls=["https://github.com/a/b"],
        identifiers={"doi": "10.1/other", "arxiv": "2501.00001"},
        section="Vision",
    )
    changes = merge_changes(stored, twin)
    assert changes == {
        "title": "T",
        "year": 2026,
        "authors": ["Ann"],
        "keywords": ["A", "b"],
        "extra": {"k": 1, "tldr": "t"},
        "section": "Vision",
        "code_urls": ["https://github.com/a/b"],
        "identifiers": {"doi": "10.1/a", "arxiv": "2501.00001"},
    }
    # a title-only paper gains the abstract of its twin
    assert merge_changes({**stored, "abstract": ""}, twin)["abstract"] == "x"


_WORDS = st.sampled_from(["", " ", "a", "A", "b", "T"])
_LISTS = st.lists(st.sampled_from(["a", "A", "b", "https://x.org/A"]), max_size=3)
_IDS = st.dictionaries(st.sampled_from(["doi", "arxiv"]), st.sampled_from(["1", "2"]), max_size=2)
_EXTRA = st.dictionaries(st.sampled_from(["k", "tldr"]), st.sampled_from([0, 1, "", "t"]), max_size=2)


def _merge_by_definition(stored, paper):
    """merge_changes spelt out plainly (no shortcuts): the oracle for the property test."""

    def empty(v):
        return v is None or v == "" or v == [] or v == {}

    changes = {}
    if not (stored.get("abstract") or "").strip() and paper.abstract.strip():
        changes["abstract"] = paper.abstract
    for name in ("title", "venue", "year", "area", "decision", "rating", "section", "date"):
        value = getattr(paper, name)
        if value is not None and empty(stored.get(name)) and not empty(value):
            changes[name] = value
    if not stored.get("authors") and paper.authors:
        changes["authors"] = paper.authors
    for name in ("keywords", "urls", "code_urls"):
        have = list(stored.get(name) or [])
        new = [v for v in getattr(paper, name) if v.lower() not in {h.lower() for h in have}]
        if new:
            changes[name] = have + new
    new_ids = {k: v for k, v in paper.identifiers.items() if v and k not in (stored.get("identifiers") or {})}
    if new_ids:
        changes["identifiers"] = {**(stored.get("identifiers") or {}), **new_ids}
    added = {k: v for k, v in paper.extra.items() if k not in (stored.get("extra") or {}) and not empty(v)}
    if added:
        changes["extra"] = {**(stored.get("extra") or {}), **added}
    return changes


@pytest.mark.slow  # property test: hundreds of generated inputs
@settings(max_examples=300, deadline=None)
@given(
    st.fixed_dictionaries(
        {"abstract": _WORDS, "title": _WORDS | st.none(), "year": st.sampled_from([None, 2025, 2026])},
        optional={
            "keywords": _LISTS,
            "urls": _LISTS,
            "code_urls": _LISTS,
            "identifiers": _IDS,
            "extra": _EXTRA,
        },
    ),
    st.builds(
        Paper,
        abstract=_WORDS,
        title=_WORDS | st.none(),
        year=st.sampled_from([None, 2025, 2026]),
        keywords=_LISTS,
        urls=_LISTS,
        code_urls=_LISTS,
        identifiers=_IDS,
        extra=_EXTRA,
    ),
)
def test_merge_changes_property(stored, paper):
    """Re-reads of a stored paper take shortcuts in merge_changes; the result is still the
    plain definition's, and merging a paper into its own merged row changes nothing."""
    changes = merge_changes(stored, paper)
    assert changes == _merge_by_definition(stored, paper)
    assert merge_changes({**stored, **changes}, paper) == {}


@pytest.mark.slow  # starts a child process and kills or waits for it
def test_kill_mid_import_leaves_store_consistent(tmp_path):
    """A process killed (SIGKILL) in the middle of a file leaves the store as it was."""
    import os
    import signal
    import subprocess
    import sys
    import time

    db = tmp_path / "killed.db"
    rows = [
        {
            "id": f"k{i:05d}",
            "title": f"Paper {i}",
            "abstract": f"Abstract {i}: we study problem {i} with method {i * 7} on data {i * 13}.",
        }
        for i in range(4000)
    ]
    big = tmp_path / "big.jsonl"
    big.write_text("".join(json.dumps(r) + "\n" for r in rows))
    marker = tmp_path / "halfway"
    script = f"""
import time, pathlib
import paperatlas.ingest as ingest
import paperatlas.ingest.importer as importer
from paperatlas.store import Store
real = importer.read
def slow(path, report=None):
    for i, p in enumerate(real(path, report)):
        if i == 2500:
            pathlib.Path({str(marker)!r}).write_text("x")
            time.sleep(60)
        yield p
importer.read = slow
ingest.add_files(Store({str(db)!r}), [{str(FIX / "iclr_mini.jsonl")!r}])
ingest.add_files(Store({str(db)!r}), [{str(big)!r}])
"""
    proc = subprocess.Popen([sys.executable, "-c", script])
    try:
        deadline = time.time() + 60
        while not marker.exists() and time.time() < deadline and proc.poll() is None:
            time.sleep(0.05)
        assert marker.exists(), "the import never got half way"
        os.kill(proc.pid, signal.SIGKILL)
        proc.wait(10)
    finally:
        if proc.poll() is None:
            proc.kill()
    store = Store(db)
    assert store.conn.execute("PRAGMA integrity_check").fetchone()[0] == "ok"
    assert store.papers.count() == 4  # the first file only; nothing of the killed one
    assert store.lists.names() == ["iclr_mini"]
    assert store.conn.execute("SELECT count(*) FROM list_members").fetchone()[0] == 4
    # and the store still takes the file afterwards
    [f] = add_files(store, [big]).files
    assert f.added == 4000 and store.papers.count() == 4004
