"""paperatlas.cache.StoreCache: values kept per store until it changes."""

from __future__ import annotations

import threading
import time

from paperatlas.cache import StoreCache
from paperatlas.store import Store


def _store(path) -> Store:
    store = Store(path)
    _add(store, "p1")
    return store


def _add(store: Store, pid: str) -> None:
    with store.transaction():
        store.papers.insert({"id": pid, "title": f"Paper {pid}", "abstract": f"About {pid}.", "keywords": []})


def test_kept_until_the_store_changes(tmp_path):
    store = _store(tmp_path / "a.db")
    cache = StoreCache()
    builds = []

    def build():
        builds.append(1)
        return store.papers.count()

    assert cache.get(store, "n", build) == 1
    assert cache.get(store, "n", build) == 1
    assert len(builds) == 1
    _add(store, "p2")
    assert cache.get(store, "n", build) == 2
    assert len(builds) == 2


def test_two_paths_to_one_file_share_an_entry_and_two_files_do_not(tmp_path):
    store = _store(tmp_path / "a.db")
    other = _store(tmp_path / "b.db")
    _add(other, "p2")
    cache = StoreCache()
    assert cache.get(store, "n", store.papers.count) == 1
    assert cache.get(other, "n", other.papers.count) == 2
    (tmp_path / "sub").mkdir()
    again = Store(tmp_path / "sub" / ".." / "a.db")
    cache.get(again, "n", again.papers.count)  # the same file by another path: the same entry
    assert len(cache) == 2


def test_an_unchanged_version_keeps_the_value_across_changes(tmp_path):
    store = _store(tmp_path / "a.db")
    cache = StoreCache()
    version = {"v": 1}
    assert cache.get(store, "k", lambda: "first", version=lambda: version["v"]) == "first"
    _add(store, "p2")  # the counter moves, the version does not
    assert cache.get(store, "k", lambda: "second", version=lambda: version["v"]) == "first"
    _add(store, "p3")
    version["v"] = 2
    assert cache.get(store, "k", lambda: "third", version=lambda: version["v"]) == "third"


def test_least_recently_used_values_go_first(tmp_path):
    store = _store(tmp_path / "a.db")
    cache = StoreCache(max_entries=2)
    cache.get(store, "a", lambda: "A")
    cache.get(store, "b", lambda: "B")
    cache.get(store, "a", lambda: "A again")  # a is used: b is now the oldest
    cache.get(store, "c", lambda: "C")
    assert len(cache) == 2
    assert cache.get(store, "a", lambda: "A rebuilt") == "A"
    assert cache.get(store, "b", lambda: "B rebuilt") == "B rebuilt"
    cache.clear()
    assert len(cache) == 0


def test_one_thread_builds_while_the_others_wait(tmp_path):
    path = tmp_path / "a.db"
    _store(path)
    store = Store(path)
    cache = StoreCache()
    builds = []
    results = []

    def build():
        builds.append(1)
        time.sleep(0.2)
        return "index"

    def ask():
        # each thread has its own connection and counter: the version lets them share
        results.append(cache.get(store, "index", build, version=lambda: "v1"))

    threads = [threading.Thread(target=ask) for _ in range(4)]
    for t in threads:
        t.start()
    for t in threads:
        t.join()
    assert results == ["index"] * 4
    assert len(builds) == 1


def test_one_relative_path_in_two_directories_is_two_databases(tmp_path, monkeypatch):
    cache = StoreCache()
    values = []
    for name in ("one", "two"):
        (tmp_path / name).mkdir()
        monkeypatch.chdir(tmp_path / name)
        store = _store("atlas.db")  # the same relative path, another file
        # an equal version must not hand one database's value to the other
        values.append(cache.get(store, "k", lambda name=name: name, version=lambda: "same"))
    assert values == ["one", "two"]


def test_a_value_kept_before_another_store_wrote_is_rebuilt_on_reopening(tmp_path):
    # The CLI's commands each open and close the atlas in one process: `search`, then `embed`
    # in another Store, then `similar`. A fresh connection's counts are the same numbers each
    # time and a closed connection's id is often the next one's, so neither may name it.
    path = tmp_path / "a.db"
    _store(path).close()
    cache = StoreCache()
    for n in range(2, 12):
        reader = Store(path)
        assert cache.get(reader, "n", reader.papers.count) == n - 1
        reader.close()
        del reader
        writer = Store(path)
        _add(writer, f"p{n}")
        writer.close()
        del writer
    reader = Store(path)
    assert cache.get(reader, "n", reader.papers.count) == 11
