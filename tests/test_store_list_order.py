"""A list's page in list order, or by rating with list order breaking ties (migration 11):
read from an index of the list (list_members' positions, list_rating's keys), in the order
the full sort gave; the keys follow every write; a store of schema 10 gains them."""

from __future__ import annotations

import random
import sqlite3

import pytest

from paperatlas.filters import Filters
from paperatlas.store import MIGRATIONS, Store
from paperatlas.store.statements import split_sql

# ratings with many ties, unrated (None, 0) among them
RATINGS = [5.5, None, 0, 7.25, 5.5, 3, None, 7.25, 1, None, None, 2]
N = 60


def _row(i: int) -> dict:
    return {
        "id": f"p{i}",
        "title": f"Paper {i}",
        "abstract": f"Paper {i} on ordering.",
        "rating": RATINGS[i % len(RATINGS)],
    }


def _members(n: int) -> list[tuple[str, str, int | None]]:
    """List 'l': every paper, shuffled, some positions shared and some missing (ties for
    the rowid to break); list 'k': a third of them, another order."""
    order = list(range(n))
    random.Random(5).shuffle(order)
    rows: list[tuple[str, str, int | None]] = []
    for pos, i in enumerate(order):
        position = None if pos % 17 == 3 else pos - pos % 3 if pos % 5 == 0 else pos
        rows.append(("l", f"p{i}", position))
    rows += [("k", f"p{i}", (i * 7) % 11) for i in range(0, n, 3)]
    return rows


def _fill(conn: sqlite3.Connection, n: int = N) -> None:
    papers = [_row(i) for i in range(n)]
    conn.executemany(
        "INSERT INTO papers(id, title, abstract, rating) VALUES (:id, :title, :abstract, :rating)", papers
    )
    conn.executemany("INSERT INTO lists(name) VALUES (?)", [("l",), ("k",)])
    conn.executemany("INSERT INTO list_members(list_name, paper_id, position) VALUES (?, ?, ?)", _members(n))
    conn.executemany(
        "INSERT INTO facts(paper_id, kind, has_code, text_hash, version) VALUES (?, ?, ?, 'h', 'v')",
        [(f"p{i}", "method" if i % 2 else "dataset", i % 3 == 0) for i in range(0, n, 2)],
    )


def _expected(store: Store, list_name: str, sort: str | None, where: str = "") -> list[str]:
    """The full sort of the list's papers: what the page showed before the indexes."""
    key = "-coalesce(nullif(p.rating, 0), -1), " if sort == "rating" else ""
    return [
        r[0]
        for r in store.conn.execute(
            "SELECT p.id FROM papers p JOIN list_members m ON m.paper_id = p.id AND m.list_name = ? "
            f"LEFT JOIN facts f ON f.paper_id = p.id {where} ORDER BY {key}m.position, p.rowid",
            (list_name,),
        )
    ]


def _pages(store: Store, list_name: str, sort: str | None, size: int = 7, **filters) -> list[str]:
    got: list[str] = []
    for offset in range(0, N + size, size):
        got += [
            r["id"]
            for r in store.papers.iter(
                Filters(list_name=list_name, **filters), sort=sort, limit=size, offset=offset
            )
        ]
    return got


@pytest.fixture()
def store(tmp_path):
    store = Store(tmp_path / "s.db")
    with store.transaction() as tx:
        _fill(tx)
    yield store
    store.close()


@pytest.mark.parametrize("sort", [None, "rating"])
@pytest.mark.parametrize("list_name", ["l", "k"])
def test_pages_are_in_the_order_of_the_full_sort(store, sort, list_name):
    expected = _expected(store, list_name, sort)
    assert len(expected) == (N if list_name == "l" else N // 3)
    assert _pages(store, list_name, sort) == expected
    assert [r["id"] for r in store.papers.iter(sort=sort, filters=Filters(list_name=list_name))] == expected
    # with filters: the index walked, each paper tested
    assert _pages(store, list_name, sort, kind="method") == _expected(
        store, list_name, sort, "WHERE f.kind = 'method'"
    )
    assert _pages(store, list_name, sort, has_code=False) == _expected(
        store, list_name, sort, "WHERE coalesce(f.has_code, 0) = 0"
    )
    ids = [
        r["id"]
        for r in store.papers.iter(
            sort=sort, id_only=True, limit=5, offset=3, filters=Filters(list_name=list_name)
        )
    ]
    assert ids == expected[3:8]


def test_a_page_reads_the_lists_index_not_every_member(store):
    executed: list[str] = []
    store.conn.set_trace_callback(executed.append)
    list(store.papers.iter(limit=5, offset=10, filters=Filters(list_name="l")))
    list(store.papers.iter(sort="rating", limit=5, offset=10, filters=Filters(list_name="l")))
    list(store.papers.iter(sort="rating", limit=5, filters=Filters(list_name="l", kind="method")))
    store.conn.set_trace_callback(None)
    selects = [sql for sql in executed if sql.startswith("SELECT p.*")]
    assert len(selects) == 3
    for sql, index in zip(selects, ["list_members_position", "list_rating_order", "list_rating_order"]):
        plan = [r[3] for r in store.conn.execute(f"EXPLAIN QUERY PLAN {sql}", ["l", 5, 10][: sql.count("?")])]
        assert any(step.startswith("SEARCH") and index in step for step in plan), plan
        assert not any(
            step.startswith("SCAN") and step.split()[1] in ("m", "p", "r", "f") for step in plan
        ), plan
        # the index gives the order: only ties of position are sorted (by the papers' rowid)
        page = plan[: plan.index("SCAN pg")] if "SCAN pg" in plan else plan
        assert "USE TEMP B-TREE FOR ORDER BY" not in page, plan


def test_the_keys_follow_every_write(store):
    with store.transaction() as tx:
        store.papers.update("p1", {"rating": 9.5})  # unrated -> rated
        store.papers.update("p3", {"rating": None})  # rated -> unrated
        store.papers.update("p4", {"rating": 0})
        store.papers.insert_many([_row(200) | {"rating": 8.0}, _row(201)])
        store.lists.add_members([("l", "p200", 4), ("l", "p201", 4), ("k", "p200", 0)])
        tx.execute("DELETE FROM papers WHERE id = 'p5'")  # the cascade removes its memberships
        tx.execute("DELETE FROM list_members WHERE list_name = 'l' AND paper_id = 'p6'")
        tx.execute("UPDATE list_members SET position = -1 WHERE list_name = 'l' AND paper_id = 'p7'")
        store.papers.rekey("p8", "p8b")
    # a write outside transaction()
    store.conn.execute("UPDATE papers SET rating = 1.5 WHERE id = 'p10'")
    for list_name in ("l", "k"):
        for sort in (None, "rating"):
            assert _pages(store, list_name, sort) == _expected(store, list_name, sort)
    assert next(store.papers.iter(sort="rating", limit=1, filters=Filters(list_name="l")))["id"] == "p1"
    nulls = store.conn.execute("SELECT count(*) FROM list_members WHERE position IS NULL").fetchone()[0]
    assert (
        nulls
        and [r["id"] for r in store.papers.iter(limit=nulls + 1, filters=Filters(list_name="l"))][-1] == "p7"
    )
    gone = store.conn.execute(
        "SELECT count(*) FROM list_rating WHERE rowid NOT IN (SELECT rowid FROM list_members)"
    ).fetchone()[0]
    assert gone == 0


def _schema_10_store(path) -> None:
    """A store as schema 10 made it (the first ten migrations), with papers and lists."""
    conn = sqlite3.connect(path, isolation_level=None)
    conn.execute("PRAGMA foreign_keys=ON")
    for number, script in enumerate(MIGRATIONS[:10]):
        conn.execute("BEGIN")
        for statement in split_sql(script):
            conn.execute(statement)
        conn.execute(f"PRAGMA user_version = {number + 1}")
        conn.execute("COMMIT")
    conn.execute("BEGIN")
    _fill(conn)
    conn.execute("COMMIT")
    conn.close()


def test_a_store_of_schema_10_gains_the_keys(tmp_path):
    path = tmp_path / "s.db"
    _schema_10_store(path)
    reader = Store(path, read_only=True)  # opens as it is, sorts as schema 10 did
    assert reader.conn.execute("PRAGMA user_version").fetchone()[0] == 10
    for sort in (None, "rating"):
        assert _pages(reader, "l", sort) == _expected(reader, "l", sort)
    reader.close()
    store = Store(path)
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    keys = dict(
        store.conn.execute(
            "SELECT m.list_name || ' ' || m.paper_id, r.rating_key FROM list_rating r "
            "JOIN list_members m ON m.rowid = r.rowid"
        ).fetchall()
    )
    assert len(keys) == store.conn.execute("SELECT count(*) FROM list_members").fetchone()[0]
    for i in range(N):
        rating = RATINGS[i % len(RATINGS)]
        assert keys[f"l p{i}"] == (-rating if rating else 1)
    for list_name in ("l", "k"):
        for sort in (None, "rating"):
            assert _pages(store, list_name, sort) == _expected(store, list_name, sort)
    store.close()
    # stamped back to 10, it migrates again (as migrations 9 and 10 do)
    conn = sqlite3.connect(path)
    conn.execute("PRAGMA user_version = 10")
    conn.commit()
    conn.close()
    store = Store(path)
    assert store.conn.execute("PRAGMA user_version").fetchone()[0] == len(MIGRATIONS)
    assert _pages(store, "l", "rating") == _expected(store, "l", "rating")
    store.close()
