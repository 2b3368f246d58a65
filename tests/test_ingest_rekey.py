"""Many stored hash-id papers re-keyed to their twins' source ids in one file: each re-key
moves only what names the old id (the import's list members, file ids and title map)."""

from __future__ import annotations

from pathlib import Path

import pytest

from paperatlas.ingest import add_files
from paperatlas.store import Store

FIX = Path(__file__).parent / "fixtures" / "ingest" / "rekey_many"
RENAMED = ["curric26", "spectral26", "calib26", "molclr26"]


@pytest.mark.parametrize("batch", [1, 2, 500])
def test_several_title_only_papers_rekeyed_in_one_file(tmp_path, monkeypatch, batch):
    """stored.jsonl: three title-only papers and two full ones, none with an id (hash ids).
    later.jsonl first joins one of them to its list by title alone, then names four of
    them with source ids (three title-only, one of them gaining its abstract; one full,
    found by its text), then finds the re-keyed full paper again by its title alone (the
    map of stored titles built for the file's first title-only record must name the new
    id), then repeats a source id. The same store whichever the batch of records."""
    import paperatlas.ingest.importer as importer

    monkeypatch.setattr(importer, "BATCH", batch)
    store = Store(tmp_path / "atlas.db")
    add_files(store, [FIX / "stored.jsonl"])
    [token] = [
        pid for pid in store.papers.ids() if store.papers.get(pid)["title"].startswith("Token merging")
    ]
    [f] = add_files(store, [FIX / "later.jsonl"]).files
    assert (f.error, f.added, f.merged, f.unchanged, f.joined) == (None, 1, 2, 5, 3)
    [survey] = set(store.papers.ids()) - {*RENAMED, token}
    assert store.papers.get(survey)["title"] == "A survey of benchmark contamination"
    assert store.papers.ids("later") == [survey, *RENAMED]
    assert store.papers.ids("stored") == [*RENAMED, token]
    assert store.papers.get("calib26")["abstract"].startswith("Regression models on tabular data")
    assert store.papers.get("curric26")["urls"] == ["https://example.org/curric26"]
    assert [tuple(r) for r in store.conn.execute("PRAGMA foreign_key_check")] == []
    [again] = add_files(store, [FIX / "later.jsonl"]).files
    assert (again.added, again.merged, again.unchanged, again.joined) == (0, 0, 8, 0)
    store.close()
