"""Comparing two small fixture lists whose topic mix differs (2025 vs 2026)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from paperatlas.api import Atlas
from paperatlas.compare import new_terms, share_rows
from paperatlas.errors import PaperatlasError

FIXTURES = Path(__file__).parent / "fixtures" / "collections"


def _rows(name):
    return [json.loads(line) for line in (FIXTURES / name).read_text().splitlines()]


def _enrich(atlas) -> None:
    """Facts from the enrich stage's pure extractor (the area model is not needed here)."""
    from paperatlas.enrich.pipeline import extract_facts

    with atlas.store.transaction():
        for p in atlas.store.papers.iter():
            atlas.store.facts.set(p["id"], extract_facts(p.get("title"), p["abstract"]), "test", "test")


@pytest.fixture(scope="module")
def db(tmp_path_factory) -> Path:
    path = tmp_path_factory.mktemp("compare") / "atlas.db"
    atlas = Atlas(path)
    atlas.add([FIXTURES / "list_2025.jsonl"], list_name="y2025", enrich=False)
    atlas.add([FIXTURES / "list_2026.jsonl"], list_name="y2026", enrich=False)
    _enrich(atlas)
    atlas.close()
    return path


@pytest.mark.slow  # builds an atlas with its map (UMAP) in the test
def test_area_shares_risers_and_fallers(db, tmp_path):
    atlas = Atlas(db)
    png = tmp_path / "chart.png"
    result = atlas.compare("y2025", "y2026", png=png)
    assert (result.n_a, result.n_b, result.shared) == (26, 28, 0)
    areas = {r.label: r for r in result.areas}
    graphs = areas["learning on graphs and other geometries & topologies"]
    assert (graphs.count_a, graphs.count_b) == (12, 4)
    assert graphs.share_a == pytest.approx(100 * 12 / 26, abs=0.01)
    assert graphs.delta == pytest.approx(100 * 4 / 28 - 100 * 12 / 26, abs=0.02)
    assert sum(r.share_a for r in result.areas) == pytest.approx(100, abs=0.1)
    assert sum(r.count_b for r in result.topics) == 28
    # topics (clustered here: no stored map) follow the fixture's design
    topic_of = {r["id"]: r["topic"] for r in _rows("list_2025.jsonl") + _rows("list_2026.jsonl")}
    assert result.topic_source.startswith("k-means")

    def main_topic(label):
        members = [topic_of[pid] for pid, t in result.topic_of.items() if t == label]
        return max(set(members), key=members.count)

    assert {main_topic(r.label) for r in result.fallers(2)} == {"graphs", "proteins"}
    assert main_topic(result.risers(1)[0].label) in {"speculative", "unlearning"}
    assert set(result.topic_of) == set(topic_of)
    assert png.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and png.stat().st_size > 10_000
    atlas.close()


def test_new_names_and_terms_are_absent_from_a(db):
    atlas = Atlas(db)
    result = atlas.compare("y2025", "y2026")
    facts_a = [atlas.paper(r["id"])["facts"] for r in _rows("list_2025.jsonl")]
    names_a = {n.lower() for f in facts_a for n in (f.get("names") or [])}
    assert result.new_names, "2026 introduces Forgetron/DraftJet names"
    assert all(name.lower() not in names_a for name, _ in result.new_names)
    assert any(name.startswith("Forgetron") for name, _ in result.new_names)
    texts_a = " ".join(
        (r["title"] + " " + r["abstract"] + " " + " ".join(r["keywords"])).lower()
        for r in _rows("list_2025.jsonl")
    )
    assert result.new_terms
    for term, count in result.new_terms:
        assert count >= 2
        assert f" {term} " not in f" {' '.join(texts_a.split())} ".replace(".", " ").replace(",", " ")
    atlas.close()


def test_pure_helpers():
    rows = share_rows(["x", "x", "y", "z"], ["y", "y", "y", "x"])
    by = {r.label: r for r in rows}
    assert by["x"].delta == pytest.approx(25 - 50) and by["y"].delta == pytest.approx(75 - 25)
    assert by["z"].count_b == 0 and rows[0].label == "y"
    terms = dict(
        new_terms(
            ["graph networks are old"] * 3,
            ["draft model speeds decoding", "the draft model verifies", "graph"],
        )
    )
    assert terms == {"draft model": 2}
    # LaTeX markup is not a term; `limit` keeps the most used
    many = [f"alpha{i} beta{i} \\widetilde gamma" for i in range(40)] * 2
    found = new_terms(["nothing here"], [*many, "gamma"], limit=5)
    assert len(found) == 5 and found[0] == ("gamma", 81)
    assert all("widetilde" not in t for t, _ in found)


@pytest.mark.slow  # builds an atlas with its map (UMAP) in the test
def test_errors_and_cli(db, tmp_path, cli):
    atlas = Atlas(db)
    with pytest.raises(PaperatlasError, match="no list named 'nope'"):
        atlas.compare("y2025", "nope")
    atlas.close()
    png = tmp_path / "cli.png"
    code, out, err = cli("compare", "y2025", "y2026", "--png", png, "--db", db, use_db=False)
    assert code == 0, err
    assert "share by area" in out and "risers" in out and png.exists()
    code, out, err = cli("compare", "y2025", "missing", "--db", db, use_db=False)
    assert code == 2 and "no list named 'missing'" in err


def test_topics_come_from_the_stored_map_of_all_papers(tmp_path):
    """With a map of the whole store, both lists are read on its broad topics."""
    atlas = Atlas(tmp_path / "mapped.db")
    atlas.add([FIXTURES / "list_2025.jsonl"], list_name="y2025", enrich=False)
    atlas.add([FIXTURES / "list_2026.jsonl"], list_name="y2026", enrich=False)
    topic_of = {r["id"]: r["topic"] for r in _rows("list_2025.jsonl") + _rows("list_2026.jsonl")}
    names = sorted(set(topic_of.values()))
    ids = atlas.store.papers.ids()
    topics = [
        {"level": 0, "topic_id": i, "parent_id": None, "label": f"map {n}", "size": 1, "x": 0.0, "y": 0.0}
        for i, n in enumerate(names)
    ]
    assignments = [
        {
            "paper_id": pid,
            "x": 0.0,
            "y": 0.0,
            "broad": names.index(topic_of[pid]),
            "fine": 0,
            "outlier": False,
        }
        for pid in ids
    ]
    atlas.store.maps.save("*", "m", "sig", {}, topics, assignments)
    result = atlas.compare("y2025", "y2026")
    assert result.topic_source == "stored map of all papers"
    rows = {r.label: r for r in result.topics}
    assert set(rows) == {f"map {n}" for n in names}
    assert (rows["map graphs"].count_a, rows["map graphs"].count_b) == (12, 4)
    assert result.fallers(1)[0].label == "map graphs"
    assert result.risers(1)[0].label == "map speculative"
    atlas.close()
