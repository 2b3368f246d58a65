"""The paper list's stored sort keys (migration 9, store/sortkeys.py): a sorted page comes
from an index in the order the expressions gave (non-ASCII titles, ties in list order),
the keys follow every write, and a store of schema 8 gains them, filled in batches."""

from __future__ import annotations

import random

import pytest

from paperatlas.filters import Filters
from paperatlas.store import MIGRATIONS, Store, sortkeys
from paperatlas.store.connection import has_table
from paperatlas.store.papers import PAPER_SORTS

TITLES = ["Zeta", "école normale", "École Libre", "alpha", "Édouard", "beta", "", "Beta", "édith", None]
NAMES = [None, "Émile", "emma", "", "Zorro", None, "émile", "Ärger", None, "b"]
DISPLAY = [None, None, None, None, None, None, "Shown Title", None, None, "ölmühle"]
RATINGS = [5.5, None, 0, 7.25, 5.5, 3, None, 7.25, 1, 2]


def _row(i: int, title: str | None) -> dict:
    return {
        "id": f"p{i}",
        "title": title,
        "abstract": f"Paper {i} on sorting.",
        "authors": [],
        "keywords": [],
        "urls": [],
        "extra": {},
        "identifiers": {},
        "code_urls": [],
        "rating": RATINGS[i % len(RATINGS)],
    }


def _fill(store: Store, n: int = len(TITLES)) -> None:
    """n papers (titles, names, display titles and ratings cycling through the lists
    above, so ties are many), one list holding them in a shuffled order."""
    order = list(range(n))
    random.Random(3).shuffle(order)
    with store.transaction() as tx:
        store.papers.insert_many([_row(i, TITLES[i % len(TITLES)]) for i in range(n)])
        for i in range(n):
            name, shown = NAMES[i % len(NAMES)], DISPLAY[i % len(DISPLAY)]
            if name is not None or shown is not None:
                store.facts.set(f"p{i}", {"name": name, "display_title": shown}, "h", "v")
        tx.execute("INSERT INTO lists(name) VALUES ('l')")
        tx.executemany(
            "INSERT INTO list_members(list_name, paper_id, position) VALUES ('l', ?, ?)",
            [(f"p{i}", pos) for pos, i in enumerate(order)],
        )


def _by_expression(store: Store, sort: str, list_name: str | None) -> list[str]:
    """The order of the expressions (PAPER_SORTS, Python's str.lower): what the page
    showed before the stored keys."""
    store.conn.create_function("py_lower", 1, str.lower, deterministic=True)
    join = "JOIN list_members m ON m.paper_id = p.id AND m.list_name = 'l'" if list_name else ""
    tie = "m.position, p.rowid" if list_name else "p.rowid"
    return [
        r[0]
        for r in store.conn.execute(
            f"SELECT p.id FROM papers p {join} LEFT JOIN facts f ON f.paper_id = p.id "
            f"ORDER BY {PAPER_SORTS[sort]}, {tie}"
        )
    ]


@pytest.fixture()
def store(tmp_path):
    store = Store(tmp_path / "s.db")
    _fill(store, 40)
    yield store
    store.close()


@pytest.mark.parametrize("sort", ["title", "name", "rating"])
@pytest.mark.parametrize("list_name", [None, "l"])
def test_pages_by_the_stored_keys_are_in_the_expressions_order(store, sort, list_name):
    expected = _by_expression(store, sort, list_name)
    assert len(set(expected)) == 40
    assert [r["id"] for r in store.papers.iter(sort=sort, filters=Filters(list_name=list_name))] == expected
    for offset in (0, 7, 35):
        page = store.papers.iter(sort=sort, limit=6, offset=offset, filters=Filters(list_name=list_name))
        assert [r["id"] for r in page] == expected[offset : offset + 6]
    # a filter walks the index and tests each paper; a set of ids is read and sorted
    kept = [pid for pid in expected if int(pid[1:]) % 3 == 0]
    got = store.papers.iter(sort=sort, ids=kept, limit=5, offset=2, filters=Filters(list_name=list_name))
    assert [r["id"] for r in got] == kept[2:7]
    coded = store.papers.iter(
        sort=sort, limit=5, offset=30, filters=Filters(list_name=list_name, has_code=False)
    )
    assert [r["id"] for r in coded] == expected[30:35]


def test_a_sorted_page_reads_an_index_not_every_paper(store):
    executed: list[str] = []
    store.conn.set_trace_callback(executed.append)
    list(store.papers.iter(sort="title", limit=5, offset=10))
    list(store.papers.iter(sort="name", limit=5, filters=Filters(has_code=False)))
    store.conn.set_trace_callback(None)
    selects = [sql for sql in executed if sql.startswith("SELECT p.*")]
    assert len(selects) == 2
    plans = [[r[3] for r in store.conn.execute(f"EXPLAIN QUERY PLAN {sql}")] for sql in selects]
    for plan, index in zip(plans, ["paper_sort_title", "paper_sort_name"]):
        # the index walked in order; papers and facts looked up by key, never scanned
        assert any(step.startswith("SCAN s USING") and index in step for step in plan), plan
        assert not any(step.split()[:2] in (["SCAN", "p"], ["SCAN", "f"]) for step in plan), plan
    # no filter: the page's rows come from the index alone (OFFSET skips index entries),
    # only they are joined and put in order; a filter tests papers in the index's order
    assert plans[0][:2] == ["CO-ROUTINE pg", "SCAN s USING COVERING INDEX paper_sort_title"], plans[0]
    assert not any("TEMP B-TREE" in step for step in plans[1]), plans[1]


def test_the_keys_follow_every_write(store):
    with store.transaction():
        store.papers.update("p3", {"title": "Aardvark"})  # title changed
        store.papers.update("p4", {"rating": 9.5})
        store.facts.set("p6", {"name": "Aaron", "display_title": "Zzz"}, "h", "v")  # p6 has no title
        store.papers.rekey("p5", "p5b")
        store.conn.execute("DELETE FROM papers WHERE id = 'p7'")
        store.conn.execute("DELETE FROM facts WHERE paper_id = 'p1'")
        store.papers.insert_many([_row(99, "Ångström")])
    # a write outside transaction(): blank keys, filled by the next sorted read
    store.conn.execute("UPDATE papers SET title = 'aaa first' WHERE id = 'p8'")
    assert sortkeys.any_stale(store.conn)
    for sort in ("title", "name", "rating"):
        for list_name in (None, "l"):
            got = [r["id"] for r in store.papers.iter(sort=sort, filters=Filters(list_name=list_name))]
            assert got == _by_expression(store, sort, list_name)
    ids = [r["id"] for r in store.papers.iter(sort="title", limit=3)]
    assert ids == ["p8", "p3", "p13"]  # "aaa first", "Aardvark", then the first "alpha"
    assert [r["id"] for r in store.papers.iter(sort="rating", limit=1)] == ["p4"]
    assert [r["id"] for r in store.papers.iter(sort="name", limit=1)] == ["p6"]
    count = store.conn.execute("SELECT count(*) FROM paper_sort").fetchone()[0]
    assert count == store.papers.count() == 40


def test_a_read_only_store_with_blank_keys_sorts_by_the_expressions(tmp_path):
    path = tmp_path / "s.db"
    store = Store(path)
    _fill(store, 20)
    store.conn.execute("UPDATE paper_sort SET title_key = NULL WHERE rowid % 2 = 0")
    store.close()
    reader = Store(path, read_only=True)
    for sort in ("title", "name", "rating"):
        assert [r["id"] for r in reader.papers.iter(sort=sort)] == _by_expression(reader, sort, None)
    reader.close()


def test_a_store_of_schema_8_gains_the_keys_in_batches(tmp_path, monkeypatch):
    """Migration 9 from the previous schema: read-only it opens as it is and sorts by
    the expressions; opened for writing it gains paper_sort, every key filled in
    batches of their own transactions (an interrupted fill goes on at the next open)."""
    path = tmp_path / "s.db"
    store = Store(path)
    _fill(store, 25)
    with store.transaction(fill_keys=False) as tx:
        for name in [
            r[0] for r in tx.execute("SELECT name FROM sqlite_master WHERE name LIKE 'paper_sort%'")
        ]:
            kind = tx.execute("SELECT type FROM sqlite_master WHERE name = ?", (name,)).fetchone()[0]
            if kind in ("trigger", "index"):
                tx.execute(f"DROP {kind.upper()} {name}")
        tx.execute("DROP TABLE paper_sort")
        tx.execute("PRAGMA user_version = 8")
        store.papers.update("p2", {"title": "Changed at schema 8"})  # no trigger: nothing to blank
    store.close()
    reader = Store(path, read_only=True)
    assert not has_table(reader.conn, "paper_sort")
    assert [r["id"] for r in reader.papers.iter(sort="title")] == _by_expression(reader, "title", None)
    reader.close()

    monkeypatch.setattr(sortkeys, "BATCH", 4)
    batches: list[int] = []
    real = sortkeys.fill_batch

    def failing_after_three(conn, batch=None):
        if len(batches) == 3:
            raise KeyboardInterrupt
        batches.append(real(conn, batch))
        return batches[-1]

    monkeypatch.setattr(sortkeys, "fill_batch", failing_after_three)
    with pytest.raises(KeyboardInterrupt):
        Store(path)
    monkeypatch.setattr(sortkeys, "fill_batch", real)
    check = Store(path, read_only=True)
    assert check.conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert sortkeys.count_stale(check.conn) == 25 - 12  # three batches of 4 kept
    check.close()
    store = Store(path)
    assert sortkeys.count_stale(store.conn) == 0
    for sort in ("title", "name", "rating"):
        for list_name in (None, "l"):
            got = [r["id"] for r in store.papers.iter(sort=sort, filters=Filters(list_name=list_name))]
            assert got == _by_expression(store, sort, list_name)
    store.close()
