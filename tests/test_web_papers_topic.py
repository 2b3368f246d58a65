"""`/papers?topic=`: a page of a topic's papers is chosen among the members' keys (their
papers' rowids, list positions, sort keys) and only its papers are read
(Store.papers.iter(map_rows=...)), in the order the ids filter gave before, with a list,
a sort, another filter, pages at several offsets, and members whose paper is gone."""

from __future__ import annotations

import random

import pytest

from atlas_fixture import web_atlas_db, web_client  # noqa: F401 - the db and client fixtures
from paperatlas import Atlas
from paperatlas.filters import Filters
from paperatlas.store import Store

N = 120


def _row(i: int) -> dict:
    titles = ["Zeta", "école", "École", "alpha", "", "beta", "Beta"]
    return {
        "id": f"p{i}",
        "title": titles[i % len(titles)] or None,
        "abstract": f"Paper {i}.",
        "authors": [],
        "keywords": [],
        "urls": [],
        "extra": {},
        "identifiers": {},
        "code_urls": [],
        "rating": [5.5, None, 0, 7.25, 3][i % 5],
        "area": ["cv", "nlp"][i % 2],
    }


@pytest.fixture()
def store(tmp_path):
    """N papers, a list holding most of them in a shuffled order, names on some, a map of
    the list (3 broad topics) whose rows are in another order again."""
    store = Store(tmp_path / "s.db")
    rng = random.Random(5)
    order = list(range(N))
    rng.shuffle(order)
    with store.transaction() as tx:
        store.papers.insert_many([_row(i) for i in range(N)])
        for i in range(0, N, 3):
            store.facts.set(f"p{i}", {"name": ["Émile", "emma", "", "Zorro"][i % 4]}, "h", "v")
        tx.execute("INSERT INTO lists(name) VALUES ('l')")
        tx.executemany(
            "INSERT INTO list_members(list_name, paper_id, position) VALUES ('l', ?, ?)",
            [(f"p{i}", pos) for pos, i in enumerate(order) if i % 10 != 9],  # not every paper
        )
    on_map = list(range(N))
    rng.shuffle(on_map)
    topics = [
        {"level": 0, "topic_id": t, "parent_id": None, "label": f"t{t}", "size": 0, "x": 0, "y": 0}
        for t in range(3)
    ]
    places = [
        {"paper_id": f"p{i}", "x": 0.5, "y": 0.5, "broad": rng.randrange(3), "fine": 0, "outlier": 0}
        for i in on_map
    ]
    store.maps.save("l", "m", "sig", {}, topics, places)
    yield store
    store.close()


def _members(store: Store, topic: int) -> list[int]:
    return [
        r[0]
        for r in store.conn.execute(
            "SELECT rowid FROM paper_topics WHERE scope = 'l' AND broad = ? ORDER BY rowid", (topic,)
        )
    ]


def _ids_of(store: Store, rows: list[int]) -> list[str]:
    found = dict(store.conn.execute("SELECT rowid, paper_id FROM paper_topics"))
    return [found[r] for r in rows]


@pytest.mark.parametrize("sort", [None, "title", "name", "rating"])
@pytest.mark.parametrize("list_name", [None, "l"])
def test_a_topic_page_is_the_page_the_ids_filter_gave(store, sort, list_name):
    for topic in range(3):
        rows = _members(store, topic)
        ids = _ids_of(store, rows)
        expected = [
            r["id"] for r in store.papers.iter(ids=ids, sort=sort, filters=Filters(list_name=list_name))
        ]
        assert len(expected) > 10
        for limit, offset in (
            (7, 0),
            (7, 7),
            (5, 23),
            (51, 0),
            (7, len(expected) - 3),
            (7, len(expected) + 1),
        ):
            page = store.papers.iter(
                map_rows=rows, sort=sort, limit=limit, offset=offset, filters=Filters(list_name=list_name)
            )
            got = list(page)
            assert [r["id"] for r in got] == expected[offset : offset + limit], (topic, limit, offset)
            if got:  # the same row as the filter gives: the paper's columns and its facts
                same = next(store.papers.iter(ids=[got[0]["id"]], filters=Filters(list_name=list_name)))
                assert got[0] == same
        assert store.papers.count_matching(map_rows=rows, filters=Filters(list_name=list_name)) == len(
            expected
        )


def test_with_another_filter_the_members_act_as_ids(store):
    rows = _members(store, 1)
    ids = _ids_of(store, rows)
    expected = [
        r["id"] for r in store.papers.iter(ids=ids, sort="title", filters=Filters(list_name="l", area="nlp"))
    ]
    got = [
        r["id"]
        for r in store.papers.iter(
            map_rows=rows, sort="title", limit=9, filters=Filters(list_name="l", area="nlp")
        )
    ]
    assert got == expected[:9] and all(int(i[1:]) % 2 == 1 for i in got)
    assert store.papers.count_matching(map_rows=rows, filters=Filters(list_name="l", area="nlp")) == len(
        expected
    )


def test_a_gone_paper_is_left_out(store):
    rows = _members(store, 2)
    gone = _ids_of(store, rows)[4]
    with store.transaction() as tx:
        tx.execute("DELETE FROM list_members WHERE paper_id = ?", (gone,))
    ids = _ids_of(store, rows)
    expected = [r["id"] for r in store.papers.iter(ids=ids, filters=Filters(list_name="l"))]
    assert gone not in expected
    assert [
        r["id"] for r in store.papers.iter(map_rows=rows, limit=500, filters=Filters(list_name="l"))
    ] == expected


def test_the_page_reads_no_paper_but_its_own(store):
    """The plan: papers and facts are reached by rowid/id lookups only, never scanned."""
    rows = _members(store, 0)
    seen = []
    store.conn.set_trace_callback(seen.append)
    list(store.papers.iter(map_rows=rows, sort="title", limit=5, offset=3, filters=Filters(list_name="l")))
    store.conn.set_trace_callback(None)
    sql = next(s for s in seen if "json_each" in s)  # as traced: its parameters inlined
    plan = " | ".join(r[3] for r in store.conn.execute("EXPLAIN QUERY PLAN " + sql))
    assert "SCAN p " not in plan + " " and "SCAN papers" not in plan and "SCAN f" not in plan, plan
    assert "SCAN t" not in plan and "SCAN m" not in plan, plan


def test_the_papers_page_of_a_topic(client, db, monkeypatch):
    """The web page: the topic's papers in list order, each page a slice of the whole."""
    atlas = Atlas(db)
    stored = atlas.store.maps.get("*")
    top = max((t for t in stored["topics"] if t["level"] == 0), key=lambda t: t["size"])
    members = [a["paper_id"] for a in stored["assignments"] if a["broad"] == top["topic_id"]]
    expected = [r["id"] for r in atlas.papers(ids=members)]
    asked = []
    real = Atlas.papers
    monkeypatch.setattr(Atlas, "papers", lambda self, **kw: asked.append(kw) or real(self, **kw))
    html = client.get("/papers", params={"topic": top["topic_id"], "x": 1}).text
    assert asked and "ids" not in asked[0] and len(asked[0]["map_rows"]) == len(members)
    shown = [i for i in expected if f'href="/papers/{i}"' in html]
    assert shown == expected[: len(shown)] and len(shown) == min(len(expected), 50)
