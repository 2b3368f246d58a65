"""A server readies the keyword postings again after another process adds papers
(web/refresh.py): searches read them from the file for the new indexed text, not out of
FTS5 a word at a time for the rest of the server's life."""

from __future__ import annotations

import json
import sqlite3
import threading
import time
from types import SimpleNamespace

from fastapi.testclient import TestClient

from atlas_fixture import fixture_records, web_atlas_db  # noqa: F401 - the db fixture
from paperatlas import Atlas
from paperatlas.search import postings_file
from paperatlas.web import refresh
from paperatlas.web.app import create_app

NEW_PAPERS = [
    {
        "id": "refresh-01",
        "title": "Quillwort embeddings for sparse marsh sensing",
        "abstract": "We map quillwort beds from sparse sensor readings with learned embeddings.",
    },
    {
        "id": "refresh-02",
        "title": "Counting quillwort from drones",
        "abstract": "A detector counts quillwort plants in drone images of shallow lakes.",
    },
]


def test_an_add_while_serving_gets_the_postings_file_of_its_text(db, tmp_path, monkeypatch):
    monkeypatch.setattr(refresh, "SETTLE_SECONDS", 0.2)
    monkeypatch.setattr(refresh, "POLL_SECONDS", 0.05)
    # When searches have paid for readying is the next test's (a fake clock and price); here
    # the searches below pay it with their first read, so a busy machine, where fewer of them
    # fit in the deadline, cannot leave the file unwritten.
    monkeypatch.setattr(refresh.web_reads, "postings_read_seconds", lambda atlas: float("inf"))
    copy = tmp_path / "copy.db"
    target = sqlite3.connect(copy)
    Atlas(db).store.conn.backup(target)
    target.close()
    added = tmp_path / "more.jsonl"
    added.write_text("".join(json.dumps(r) + "\n" for r in NEW_PAPERS), encoding="utf-8")
    with TestClient(create_app(copy), base_url="http://127.0.0.1") as c:
        deadline = time.time() + 60
        while not c.get("/healthz").json()["warm"] and time.time() < deadline:
            time.sleep(0.05)
        reader = Atlas(copy)
        before = reader.store.fts.version()
        assert postings_file.PostingsFile.open(copy, before) is not None  # the start's preload
        writer = Atlas(copy)
        writer.add([added], list_name="more", enrich=False)
        writer.close()
        after = reader.store.fts.version()
        assert after != before
        # once the store has settled the file for the new text follows
        words = sorted({w.lower() for r in fixture_records() for w in r["title"].split() if w.isalpha()})
        for n in range(100_000):
            if postings_file.PostingsFile.open(copy, after) is not None or time.time() > deadline:
                break
            c.get("/search", params={"q": f"{words[n % len(words)]} {words[(7 * n + 3) % len(words)]}"})
        assert postings_file.PostingsFile.open(copy, after) is not None
        page = c.get("/search", params={"q": "quillwort"}).text
        assert "refresh-01" in page and "refresh-02" in page


class _Web(SimpleNamespace):
    """What PostingsRefresh reads of a WebContext: the commit counter and the atlas."""


def test_postings_are_readied_once_the_store_settles_and_searches_paid_for_it(monkeypatch):
    generation, now, reads, readied = [1], [0.0], [0.0], []
    monkeypatch.setattr(
        refresh.web_reads, "ready_postings", lambda atlas: readied.append(generation[0]) or 0.0
    )
    monkeypatch.setattr(refresh.web_reads, "postings_read_seconds", lambda atlas: reads[0])
    # readying costs a second of CPU (what the start's preload took)
    web = _Web(generation=lambda: generation[0], atlas=None, warm=threading.Event(), postings_seconds=1.0)
    watch = refresh.PostingsRefresh(web, settle=2.0, clock=lambda: now[0])

    def tick_at(at: float, gen: int, read: float) -> bool:
        now[0], generation[0], reads[0] = at, gen, read
        return watch.tick()

    assert not tick_at(0.0, 1, 0.0)  # the first look
    assert not tick_at(2.5, 1, 0.3)  # settled, but searches have read FTS5 for 0.3 s only
    assert tick_at(3.0, 1, 1.2) and readied == [1]
    assert not tick_at(5.0, 1, 1.2)  # nothing changed since
    assert not tick_at(6.0, 2, 0.0)  # a commit (a new index: nothing read from FTS5 yet) ...
    assert not tick_at(7.0, 2, 5.0)  # ... the store not yet settled
    assert not tick_at(9.0, 2, 0.9)
    assert tick_at(9.5, 2, 1.0) and readied == [1, 2]
    assert web.postings_seconds == 1.0  # a cheap readying does not lower the price
