"""A predicted area is shown with its top 3 and probabilities; a near-tie is shown as
"A or B" (paper page, CSV and Markdown exports)."""

from __future__ import annotations

import csv
import io

from atlas_fixture import web_atlas_db, web_client  # noqa: F401 - the db and client fixtures
from paperatlas import Atlas
from paperatlas.report.export import write_csv, write_markdown

TIE = {
    "label": "generative models",
    "prob": 0.41,
    "tie": True,
    "top3": [
        ["generative models", 0.41],
        ["foundation or frontier models, including LLMs", 0.37],
        ["optimization", 0.08],
    ],
}
CLEAR = {
    "label": "optimization",
    "prob": 0.8,
    "tie": False,
    "top3": [["optimization", 0.8], ["learning theory", 0.12], ["generative models", 0.03]],
}


def _set_area(db, paper_id: str, area: dict) -> None:
    atlas = Atlas(db)
    try:
        store = atlas.store
        facts = store.facts.get(paper_id) or {}
        text_hash, version = store.facts.state().get(paper_id, ("x", "1"))
        store.facts.set(paper_id, {**facts, "predicted_area": area}, text_hash, version)
    finally:
        atlas.close()


def test_paper_page_shows_top3_and_a_tie_as_both(client, db):
    _set_area(db, "protein-03", TIE)
    html = client.get("/papers/protein-03").text
    assert "generative models or foundation or frontier models, including LLMs" in html
    assert "(41% / 37%)" in html and "top 3: generative models 41%" in html
    assert "optimization 8%" in html
    _set_area(db, "protein-03", CLEAR)
    html = client.get("/papers/protein-03").text
    assert 'optimization <span class="muted">(80%)</span>' in html
    assert " or learning theory" not in html and "learning theory 12%" in html


def test_exports_carry_the_tie_and_the_top3():
    papers = [
        {"id": "p1", "title": "T", "abstract": "A.", "facts": {"predicted_area": TIE}},
        {"id": "p2", "title": "U", "abstract": "B.", "facts": {"predicted_area": CLEAR}},
    ]
    out = io.StringIO()
    write_csv(papers, out)
    rows = list(csv.DictReader(io.StringIO(out.getvalue())))
    assert rows[0]["predicted_area"] == "generative models or foundation or frontier models, including LLMs"
    assert rows[0]["predicted_area_top3"].startswith("generative models 41%; ")
    assert rows[1]["predicted_area"] == "optimization"
    assert rows[1]["predicted_area_top3"] == "optimization 80%; learning theory 12%; generative models 3%"
    md = io.StringIO()
    write_markdown(papers, md)
    assert "predicted area: optimization 80%, learning theory 12%, generative models 3%" in md.getvalue()
