"""The atlas: two-level topics, labels, outliers, determinism, storage, exports."""

from __future__ import annotations

import json
import sqlite3
from collections import Counter, defaultdict

import numpy as np
import pytest

from atlas_fixture import FIXTURE, SAMPLE, build_fixture_atlas, fixture_records
from paperatlas import Atlas
from paperatlas.atlas import build_map, map_view
from paperatlas.atlas.cluster import cluster_papers, topic_counts
from paperatlas.errors import PaperatlasError


@pytest.fixture(scope="module")
def fixture_atlas(tmp_path_factory):
    db = tmp_path_factory.mktemp("atlas") / "atlas.db"
    atlas = build_fixture_atlas(db)
    yield atlas
    atlas.close()


def _true_topic() -> dict[str, str]:
    return {r["id"]: r.get("topic", "hostile") for r in fixture_records()}


def test_topic_counts_scale_with_the_list():
    broad, fine = topic_counts(15602)
    assert 15 <= broad <= 40 and 100 <= fine <= 300
    assert topic_counts(19)[0] in (2, 3, 4) and topic_counts(19)[1] <= 6
    sizes = [topic_counts(n) for n in (10, 100, 1000, 10000, 100000)]
    assert [b for b, _ in sizes] == sorted(b for b, _ in sizes)
    assert all(b <= f for b, f in sizes)
    assert topic_counts(1) == (1, 1)


def test_every_paper_gets_one_broad_and_one_nested_fine_topic(fixture_atlas):
    stored = fixture_atlas.store.maps.get("*")
    ids = set(fixture_atlas.store.papers.ids())
    assert {a["paper_id"] for a in stored["assignments"]} == ids
    parent = {t["topic_id"]: t["parent_id"] for t in stored["topics"] if t["level"] == 1}
    broad_ids = {t["topic_id"] for t in stored["topics"] if t["level"] == 0}
    for a in stored["assignments"]:
        assert a["broad"] in broad_ids
        assert parent[a["fine"]] == a["broad"]  # fine topics nest in broad ones
    sizes = Counter(a["broad"] for a in stored["assignments"])
    for t in stored["topics"]:
        if t["level"] == 0:
            assert t["size"] == sizes[t["topic_id"]]
        assert 0.0 <= t["x"] <= 1.0 and 0.0 <= t["y"] <= 1.0


def test_topics_recover_the_fixture_subjects(fixture_atlas):
    from sklearn.metrics import adjusted_mutual_info_score

    stored = fixture_atlas.store.maps.get("*")
    truth = _true_topic()
    rows = [
        (truth[a["paper_id"]], a["broad"], a["fine"])
        for a in stored["assignments"]
        if truth[a["paper_id"]] != "hostile"
    ]
    true, broad, fine = zip(*rows)
    assert adjusted_mutual_info_score(true, broad) > 0.6
    # fine topics are nearly pure: each holds papers of one subject
    by_fine = defaultdict(Counter)
    for t, f in zip(true, fine):
        by_fine[f][t] += 1
    purity = sum(max(c.values()) for c in by_fine.values()) / len(true)
    assert purity >= 0.9


def test_labels_read_like_topics(fixture_atlas):
    stored = fixture_atlas.store.maps.get("*")
    broad = [t for t in stored["topics"] if t["level"] == 0]
    labels = [t["label"] for t in broad]
    assert len(set(labels)) == len(labels)
    for label in labels:
        assert label and not label.startswith("Topic ") and len(label) <= 60
        assert not any(c in label for c in "<>{}$")
    joined = " | ".join(labels).lower()
    assert "unlearning" in joined
    assert "time series" in joined or "forecasting" in joined
    # the unlearning papers' topic is named after unlearning
    truth = _true_topic()
    topic_of_unlearning = Counter(
        a["broad"] for a in stored["assignments"] if truth[a["paper_id"]] == "unlearning"
    ).most_common(1)[0][0]
    label = next(t["label"] for t in broad if t["topic_id"] == topic_of_unlearning)
    assert "unlearning" in label.lower()
    for t in broad:
        assert t["data"]["terms"] and t["data"]["representative"]


def test_map_is_stored_and_reused_until_the_list_changes(fixture_atlas, tmp_path):
    again = fixture_atlas.build_map(model="lsa")
    assert again["built"] is False
    db = tmp_path / "copy.db"
    target = sqlite3.connect(db)
    fixture_atlas.store.conn.backup(target)  # a consistent copy, WAL included
    target.close()
    copy = Atlas(db)
    extra = tmp_path / "extra.jsonl"
    extra.write_text(
        json.dumps(
            {
                "id": "extra-1",
                "title": "Patch Transformers for Forecasting Traffic",
                "abstract": "Long-term forecasting of multivariate time series with patch transformers "
                "and channel independence lowers mean squared error.",
            }
        )
        + "\n"
    )
    copy.add([extra], list_name="fixture", enrich=False)
    copy.embed(model="lsa")
    rebuilt = copy.build_map(model="lsa")
    assert rebuilt["built"] is True
    assert rebuilt["signature"] != again["signature"]
    assert "extra-1" in {a["paper_id"] for a in rebuilt["assignments"]}
    copy.close()


@pytest.mark.slow  # builds an atlas with its map (UMAP) in the test
def test_same_input_gives_the_same_map(fixture_atlas, tmp_path):
    first = fixture_atlas.store.maps.get("*")
    other = build_fixture_atlas(tmp_path / "again.db")
    second = other.store.maps.get("*")

    def key(m):
        return sorted(
            (a["paper_id"], a["broad"], a["fine"], round(a["x"], 5), round(a["y"], 5))
            for a in m["assignments"]
        )

    assert key(first) == key(second)
    assert [t["label"] for t in first["topics"]] == [t["label"] for t in second["topics"]]
    other.close()


def test_outliers_keep_their_nearest_topic_and_a_flag():
    rng = np.random.default_rng(0)
    centres = rng.normal(size=(4, 32))
    vectors = np.vstack([c + 0.15 * rng.normal(size=(40, 32)) for c in centres])
    lonely = rng.normal(size=(2, 32)) * 3  # far from every group
    vectors = np.vstack([vectors, lonely, np.zeros((1, 32))])  # and one with no text at all
    result = cluster_papers(vectors)
    assert result.outlier[-3:].all()
    assert result.outlier[:-3].mean() < 0.05
    assert (result.broad >= 0).all() and len(result.broad) == len(vectors)


def test_clustering_separates_clear_groups():
    rng = np.random.default_rng(1)
    centres = rng.normal(size=(5, 24))
    vectors = np.vstack([c + 0.1 * rng.normal(size=(30, 24)) for c in centres])
    truth = np.repeat(np.arange(5), 30)
    result = cluster_papers(vectors, k_broad=5)
    from sklearn.metrics import adjusted_rand_score

    assert adjusted_rand_score(truth, result.broad) > 0.95


def test_small_list_without_titles_gets_a_map(tmp_path):
    atlas = Atlas(tmp_path / "sample.db")
    atlas.add([SAMPLE], list_name="sample", enrich=False)
    atlas.embed(model="lsa")
    stored = atlas.build_map(list_name="sample", model="lsa")
    n = atlas.stats("sample")["papers"]
    assert n >= 15
    assert len(stored["assignments"]) == n
    broad = [t for t in stored["topics"] if t["level"] == 0]
    assert 2 <= len(broad) <= 4
    assert all(t["label"] and not t["label"].startswith("Topic ") for t in broad)
    assert stored["meta"]["list"] == "sample"
    atlas.close()


def test_clear_errors(tmp_path):
    atlas = Atlas(tmp_path / "empty.db")
    with pytest.raises(PaperatlasError, match="no papers"):
        build_map(atlas.store)
    with pytest.raises(PaperatlasError, match="no list named"):
        build_map(atlas.store, list_name="missing")
    atlas.add([FIXTURE], list_name="fixture", enrich=False)
    with pytest.raises(PaperatlasError, match="embed"):
        build_map(atlas.store)
    atlas.close()


@pytest.mark.slow  # builds an atlas with its map (UMAP) in the test
def test_png_has_labels_that_do_not_overlap(fixture_atlas, tmp_path):
    import matplotlib.pyplot as plt

    from paperatlas.report.mapplot import draw_map, label_boxes_overlap, write_png

    stored = fixture_atlas.store.maps.get("*")
    fig, texts = draw_map(stored, dpi=80)
    assert sum(t.get_visible() for t in texts) >= 3
    assert not label_boxes_overlap(fig, texts)
    plt.close(fig)
    out = write_png(stored, fixture_atlas.store, tmp_path / "map.png", dpi=60)
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n" and out.stat().st_size > 20_000


def test_html_export_is_self_contained_and_escaped(fixture_atlas, tmp_path):
    from paperatlas.report.mapplot import write_html

    stored = fixture_atlas.store.maps.get("*")
    out = write_html(stored, fixture_atlas.store, tmp_path / "atlas.html")
    text = out.read_text(encoding="utf-8")
    assert "<script src" not in text and "<link" not in text and "@import" not in text
    assert "https://" not in text.split('id="atlas-data"')[0]  # no external asset
    assert "<script>alert('xss-title')" not in text and "<img src=x" not in text
    data = text.split('<script type="application/json" id="atlas-data">')[1].split("</script>")[0]
    view = json.loads(data)
    assert len(view["points"]) == len(stored["assignments"])
    assert any("<script>alert('xss-title')</script>" in p[6] for p in view["points"])


def test_map_view_rows(fixture_atlas):
    view = map_view(fixture_atlas.store.maps.get("*"), fixture_atlas.store)
    assert view["topics"]["broad"] and view["topics"]["fine"]
    x, y, broad, fine, outlier, pid, title, name, field_broad, field_fine = view["points"][0]
    assert 0 <= x <= 1 and 0 <= y <= 1 and isinstance(pid, str) and title
    assert field_broad == field_fine == -1  # lsa vectors: not in the reference's space


def test_map_command_builds_and_writes_outputs(fixture_atlas, tmp_path, cli):
    png, html = tmp_path / "m.png", tmp_path / "m.html"
    code, out, err = cli("map", "--db", fixture_atlas.path, "--png", png, "--html", html, use_db=False)
    assert code == 0, err
    assert "broad topics" in out and "outliers" in out
    assert png.exists() and html.exists()


def test_placeholder_abstract_is_flagged_with_its_reason(tmp_path):
    atlas = Atlas(tmp_path / "placeholder.db")
    extra = tmp_path / "placeholder.jsonl"
    extra.write_text(
        json.dumps({"id": "null-1", "title": "Withdrawn", "abstract": "Graph neural networks."}) + "\n"
    )
    atlas.add([FIXTURE, extra], list_name="fixture", enrich=False)
    atlas.embed(model="lsa")
    stored = atlas.build_map(model="lsa")
    flagged = {a["paper_id"] for a in stored["assignments"] if a["outlier"]}
    assert "null-1" in flagged
    assert stored["meta"]["outlier_reasons"].get("too little text to place", 0) >= 1
    assert stored["meta"]["outlier_share"] == round(len(flagged) / len(stored["assignments"]), 4)
    assert stored["meta"]["outlier_share"] <= 0.05
    atlas.close()
