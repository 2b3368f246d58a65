"""`paperatlas open`: from a file to a serving atlas in one command. The fast steps
(add, facts, the fast model's vectors) run first and are skipped when done; the app
answers searches at once and says which signals answer now (`/api/status`, the search
page's line); the map and the heavier models are computed by background processes that
end with the server, and a rerun does only what is left."""

from __future__ import annotations

import json
import os
import re
import signal
import subprocess
import time
import urllib.request
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from faultkit import ROOT, SAMPLE, alive, cli_command, descendants, processes_using
from paperatlas import Atlas
from paperatlas.web.app import create_app
from paperatlas.web.status import SignalWatch

SERVING = re.compile(r"serving .* at (http://127\.0\.0\.1:\d+/)")


def _quick_atlas(db: Path) -> Atlas:
    atlas = Atlas(db)
    atlas.quick_start([SAMPLE], list_name="sample")
    return atlas


def test_quick_start_makes_the_atlas_searchable_and_a_rerun_redoes_nothing(tmp_path):
    with _quick_atlas(tmp_path / "a.db") as atlas:
        status = atlas.search_status()
        assert status.papers > 10
        static = status.models[0]
        assert (static.model, static.vectors, static.done) == ("static", status.papers, True)
        assert [m.done for m in status.models[1:]] == [False, False]
        assert status.pending == ["minilm-int8", "use-multilingual", "vocabulary"]
        assert atlas.search("memory", k=3).hits  # keywords and the fast model answer now
        again = atlas.quick_start([SAMPLE], list_name="sample")
        assert again.added.added == 0 and again.enriched.enriched == 0 and again.embedded.embedded == 0


def test_quick_start_leaves_a_big_lists_facts_to_the_background(tmp_path):
    from paperatlas.cli.opening import MAP_STEP, background_steps

    with Atlas(tmp_path / "a.db") as atlas:
        done = atlas.quick_start([SAMPLE], list_name="sample", facts_now=5)
        papers = atlas.search_status().papers
        assert done.enriched is None and done.facts_pending == papers > 5
        assert atlas.store.facts.pending() == papers  # none extracted yet
        assert done.embedded.embedded == papers  # the fast model's vectors are there
        assert atlas.search("memory", k=3).hits  # keywords and the fast model answer without facts
        pending = atlas.search_status().pending
        # the facts first: the map's labels read them
        assert background_steps(done, atlas.map_is_current(), pending) == [["enrich"], MAP_STEP, ["embed"]]
        atlas.enrich()
        again = atlas.quick_start([SAMPLE], list_name="sample", facts_now=5)
        assert again.enriched is not None and again.enriched.enriched == 0 and again.facts_pending == 0
        assert background_steps(again, False, pending) == [MAP_STEP, ["embed"]]
        # a short list's facts are extracted before serving, as before
    with Atlas(tmp_path / "b.db") as small:
        assert small.quick_start([SAMPLE], facts_now=2000).enriched.enriched == small.search_status().papers


def _jsonl(path: Path, titles: list[str]) -> Path:
    rows = [
        {"id": f"p{i}", "title": t, "abstract": f"We study {t.lower()} in depth. " * 4}
        for i, t in enumerate(titles)
    ]
    path.write_text("".join(json.dumps(r) + "\n" for r in rows))
    return path


def _no_reading(monkeypatch):
    """From here on, reading a file into the store fails the test."""
    from paperatlas.ingest import importer

    monkeypatch.setattr(importer.FileImport, "run", lambda self: pytest.fail(f"read {self.path} again"))


def test_a_rerun_does_not_read_an_unchanged_file_again(tmp_path, monkeypatch):
    source = _jsonl(tmp_path / "talks.jsonl", ["Memory in agents", "Sparse attention", "Graph priors"])
    with Atlas(tmp_path / "a.db") as atlas:
        assert atlas.quick_start(source).added.added == 3
        with monkeypatch.context() as patched:
            _no_reading(patched)
            again = atlas.quick_start(source)
        assert [f.not_read for f in again.added.files] == [True]
        assert again.added.added == 0 and again.enriched.enriched == 0 and again.embedded.embedded == 0
        assert atlas.search_status().papers == 3


def test_a_rerun_reads_a_file_that_changed_or_whose_list_did(tmp_path):
    source = _jsonl(tmp_path / "talks.jsonl", ["Memory in agents", "Sparse attention", "Graph priors"])
    with Atlas(tmp_path / "a.db") as atlas:
        atlas.quick_start(source)
        _jsonl(source, ["Memory in agents", "Sparse attention", "Graph priors", "Tiny recurrent nets"])
        grown = atlas.quick_start(source)  # new content (size, mtime and hash all differ)
        assert not grown.added.files[0].not_read and grown.added.added == 1
        assert atlas.quick_start(source).added.files[0].not_read
        # the same bytes written again: a new mtime, so the file is read (and nothing is new)
        content = source.read_bytes()
        source.write_bytes(content)
        os.utime(source, ns=(source.stat().st_atime_ns, source.stat().st_mtime_ns + 10**9))
        touched = atlas.quick_start(source)
        assert not touched.added.files[0].not_read and touched.added.unchanged == 4
        # a paper taken out of the list since: the file is read again and puts it back
        with atlas.store.transaction():
            atlas.store.conn.execute("DELETE FROM list_members WHERE list_name = 'talks' AND paper_id = 'p0'")
        back = atlas.quick_start(source)
        assert not back.added.files[0].not_read
        assert "p0" in atlas.store.papers.ids("talks")
        # the same file into another list is read: each list keeps its own files
        other = atlas.quick_start(source, list_name="again")
        assert not other.added.files[0].not_read and atlas.store.papers.count("again") == 4


def test_a_file_that_failed_to_add_is_not_remembered(tmp_path):
    bad = tmp_path / "bad.jsonl"
    bad.write_text("this is not a paper list\n")
    with Atlas(tmp_path / "a.db") as atlas:
        first = atlas.quick_start(bad)
        assert first.added.errors
        second = atlas.quick_start(bad)
        assert second.added.errors and not second.added.files[0].not_read


def test_map_is_current_says_what_build_map_would_reuse(tmp_path):
    with _quick_atlas(tmp_path / "a.db") as atlas:
        assert not atlas.map_is_current()
        assert atlas.build_map().built
        assert atlas.map_is_current()
        assert not atlas.build_map().built  # and build_map agrees
        more = tmp_path / "more.jsonl"
        more.write_text(json.dumps({"title": "A new paper", "abstract": "We study memory in agents. " * 5}))
        assert atlas.add([more], list_name="more").added == 1
        assert not atlas.map_is_current()  # a new paper: a new map


def test_status_endpoint_and_search_page_say_what_answers_now(tmp_path):
    db = tmp_path / "a.db"
    _quick_atlas(db).close()
    client = TestClient(create_app(db), base_url="http://127.0.0.1")  # a loopback Host, as the app wants
    status = client.get("/api/status").json()
    assert status["answering"] == ["keywords", "static"]
    assert status["pending"] == ["minilm-int8", "use-multilingual", "vocabulary"]
    assert status["complete"] is False and status["seconds_left"] is None
    page = client.get("/search", params={"q": "memory"}).text
    assert 'class="card-title"' in page  # search answers
    line = re.search(r'id="signals">([^<]*)<', page)
    assert line and "keywords, static now" in line.group(1) and "minilm-int8 (0%)" in line.group(1)
    zh = client.get("/search", params={"q": "memory", "lang": "zh"}).text
    assert "仍在计算" in zh


def test_open_with_nothing_to_open_says_so_and_serves_nothing(cli, tmp_path, monkeypatch):
    from paperatlas.web import server

    monkeypatch.setattr(server, "run", lambda *a: pytest.fail("served an empty atlas"))
    empty = tmp_path / "empty.jsonl"
    empty.write_text("{}\n")
    code, _, err = cli("open", empty, "--port", "0", "--no-browser")
    assert code == 2 and "no papers to open" in err


def test_time_left_comes_from_how_fast_vectors_land(tmp_path):
    with _quick_atlas(tmp_path / "a.db") as atlas:
        clock = [100.0]
        watch = SignalWatch(atlas, clock=lambda: clock[0])
        first = watch.status()
        assert first["seconds_left"] is None  # nothing landed since the first look
        n = first["papers"]
        ids = atlas.store.papers.ids()
        half = ids[: n // 2]
        # half the papers' minilm vectors land in 30 s: the other half and use's take 90 s more
        atlas.store.vectors.put("minilm-int8", half, _unit_rows(len(half), 384), ["x"] * len(half))
        atlas.store.conn.commit()
        clock[0] = 130.0
        later = watch.status()
        left = (2 * n - len(half)) * 30.0 / len(half)
        assert later["seconds_left"] == round(left)
        assert later["models"][1]["vectors"] == len(half) and not later["models"][1]["done"]


def test_the_status_counts_are_read_again_only_after_a_commit(tmp_path, monkeypatch):
    """Every search page shows the status line: its counts (papers, each model's vectors)
    are read from the store once per change of it, not once per page."""
    with _quick_atlas(tmp_path / "a.db") as atlas:
        reads = []
        real = atlas.search_status
        monkeypatch.setattr(atlas, "search_status", lambda: reads.append(1) or real())
        watch = SignalWatch(atlas)
        first = [watch.status() for _ in range(5)]
        assert len(reads) == 1 and all(s == first[0] for s in first)
        ids = atlas.store.papers.ids()
        atlas.store.vectors.put("minilm-int8", ids[:2], _unit_rows(2, 384), ["x", "x"])
        atlas.store.conn.commit()
        later = watch.status()
        assert len(reads) == 2 and later["models"][1]["vectors"] == first[0]["models"][1]["vectors"] + 2


def _unit_rows(n: int, dim: int):
    import numpy as np

    rows = np.zeros((n, dim), dtype=np.float32)
    rows[:, 0] = 1.0
    return rows


# -- the real command, as a process ------------------------------------------------------------


def _start_open(db: Path, tmp_path: Path) -> tuple[subprocess.Popen, str]:
    out = open(tmp_path / "open.out", "w+")  # noqa: SIM115 - read while the process runs
    process = subprocess.Popen(
        cli_command("open", SAMPLE, "--db", db, "--port", "0", "--no-browser"),
        stdout=out,
        stderr=subprocess.STDOUT,
        cwd=ROOT,
        env={**os.environ, "PAPERATLAS_WORKERS": "1"},
    )
    deadline = time.time() + 120
    while time.time() < deadline:
        found = SERVING.search((tmp_path / "open.out").read_text())
        if found:
            break
        assert process.poll() is None, (tmp_path / "open.out").read_text()
        time.sleep(0.2)
    else:
        process.kill()
        raise AssertionError("open did not start serving: " + (tmp_path / "open.out").read_text())
    url = found.group(1)
    deadline = time.time() + 60
    while True:  # the socket listens at once; the app answers once it has loaded
        try:
            urllib.request.urlopen(url + "healthz", timeout=5).read()
            return process, url
        except OSError:
            assert time.time() < deadline and process.poll() is None
            time.sleep(0.2)


def _get_json(url: str) -> dict:
    return json.loads(urllib.request.urlopen(url, timeout=30).read())


def _kill(process: subprocess.Popen) -> set[int]:
    """SIGKILL the server; the processes it had started (to check they end with it)."""
    below = descendants(process.pid)
    process.send_signal(signal.SIGKILL)
    process.wait()
    return below


@pytest.mark.slow
def test_open_serves_at_once_and_its_background_work_dies_with_it(tmp_path):
    db = tmp_path / "open.db"
    process, url = _start_open(db, tmp_path)
    try:
        page = urllib.request.urlopen(url + "search?q=memory", timeout=30).read().decode()
        assert 'class="card-title"' in page
        status = _get_json(url + "api/status")
        assert "static" in status["answering"]
        assert {m["model"] for m in status["models"]} == {"static", "minilm-int8", "use-multilingual"}
        assert processes_using(str(db)) - {process.pid}, "no background process"
    finally:
        below = _kill(process)
    deadline = time.time() + 10
    while alive(below) and time.time() < deadline:
        time.sleep(0.1)
    assert not alive(below), "a background process outlived the server"
    assert not processes_using(str(db))


@pytest.mark.slow
def test_a_rerun_skips_finished_steps_and_the_background_finishes_the_rest(tmp_path):
    db = tmp_path / "open.db"
    process, url = _start_open(db, tmp_path)
    deadline = time.time() + 240
    try:  # stop it once the first heavy model is stored, before the rest
        while not _get_json(url + "api/status")["models"][1]["done"]:
            assert time.time() < deadline
            time.sleep(0.5)
    finally:
        _kill(process)
    process, url = _start_open(db, tmp_path)
    try:
        first = (tmp_path / "open.out").read_text()
        assert "(0 new); facts of 0 extracted, vectors of 0 computed" in first
        deadline = time.time() + 240
        while not (status := _get_json(url + "api/status"))["complete"]:
            assert time.time() < deadline, status
            time.sleep(0.5)
        out = (tmp_path / "open.out").read_text()
        assert "minilm-int8: embedded 0," in out  # done before the kill: kept, not redone
        assert status["answering"] == ["keywords", "static", "minilm-int8", "use-multilingual"]
        page = urllib.request.urlopen(url + "search?q=memory", timeout=30).read().decode()
        assert 'id="signals"' not in page  # full quality: no status line
    finally:
        _kill(process)
