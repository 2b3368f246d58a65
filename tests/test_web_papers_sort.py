"""/papers sorted by title, rating or name: SQLite sorts (one page read, not every paper),
in the order the page's Python keys gave before, ties in list order; the total is counted."""

from __future__ import annotations

import json
import re

import pytest
from fastapi.testclient import TestClient

from paperatlas import Atlas
from paperatlas.filters import Filters
from paperatlas.web.app import create_app

# the keys /papers sorted every row by in Python (stop 13)
PYTHON_KEYS = {
    "title": lambda r: (r.get("title") or r.get("display_title") or "").lower(),
    "rating": lambda r: -(r.get("rating") or -1),
    "name": lambda r: (not r.get("name"), (r.get("name") or "").lower()),
}
TITLES = ["Zeta", "école normale", "École Libre", "alpha", "Édouard", "beta", "", "Beta", "édith"]


@pytest.fixture(scope="module")
def atlas(tmp_path_factory):
    path = tmp_path_factory.mktemp("sort") / "papers.jsonl"
    rows = [
        {
            "id": f"p{i}",
            "title": title,
            "abstract": f"Paper {i} studies sorting of lists number {i} with words.",
            "rating_avg": [5.5, None, 0, 7.25, 5.5, 3, None, 7.25, 1][i],
        }
        for i, title in enumerate(TITLES)
    ]
    path.write_text("\n".join(json.dumps(r, ensure_ascii=False) for r in rows) + "\n", encoding="utf-8")
    db = path.with_suffix(".db")
    atlas = Atlas(db)
    atlas.add([path], list_name="l", enrich=False)
    with atlas.store.transaction() as tx:  # names, as enrich would write them, for two papers
        for pid, name in (("p3", "Émile"), ("p5", "emma")):
            tx.execute(
                "INSERT INTO facts(paper_id, text_hash, version, data, name) VALUES (?, '', '', '{}', ?)",
                (pid, name),
            )
    return atlas


@pytest.mark.parametrize("sort", ["title", "rating", "name"])
@pytest.mark.parametrize("list_name", [None, "l"])
def test_sqlite_sorts_as_the_python_keys_did(atlas, sort, list_name):
    every = atlas.papers(filters=Filters(list_name=list_name))
    expected = [r["id"] for r in sorted(every, key=PYTHON_KEYS[sort])]
    assert [r["id"] for r in atlas.papers(sort=sort, filters=Filters(list_name=list_name))] == expected
    page = atlas.papers(sort=sort, limit=3, offset=3, filters=Filters(list_name=list_name))
    assert [r["id"] for r in page] == expected[3:6]
    assert atlas.count_papers(filters=Filters(list_name=list_name)) == len(TITLES)


def test_the_sorted_page_and_its_total(atlas):
    with TestClient(create_app(atlas.path), base_url="http://127.0.0.1") as client:
        html = client.get("/papers", params={"sort": "title"}).text
    ids = re.findall(r'class="card-title"><a href="/papers/([^"]+)"', html)
    expected = [r["id"] for r in sorted(atlas.papers(), key=PYTHON_KEYS["title"])]
    assert ids == expected
    assert re.search(r'<span class="muted small">9</span>', html)
