"""The reference atlas: short lists placed on the field, generic words, user references,
the grouping in exports (issue 16). Uses the shipped ICLR 2026 reference (part of the
package) and small lists written here, nothing outside the repository."""

from __future__ import annotations

import csv
import io
import json
import random
from collections import Counter

import numpy as np
import pytest

from atlas_fixture import SAMPLE
from paperatlas import Atlas
from paperatlas.atlas import map_view, reference, reference_scope
from paperatlas.atlas.labels import PaperText, is_generic, label_clusters
from paperatlas.filters import Filters

# Four research topics, each a pool of its own words, plus words every abstract uses.
POOLS = {
    "unlearning": "machine unlearning forget set retain set erase memorized data privacy removal "
    "unlearned model influence gradient ascent membership inference".split(),
    "molecules": "molecule generation protein structure drug discovery molecular graph ligand "
    "docking binding affinity equivariant conformer".split(),
    "rl": "reinforcement learning policy reward agent environment exploration value function "
    "offline rl q-learning actor critic".split(),
    "vision": "image segmentation object detection vision transformer pixels semantic masks "
    "convolution visual recognition bounding boxes".split(),
}
FILLER = (
    "we propose a novel approach and show strong results on several benchmarks with "
    "extensive experiments that outperform baselines in this setting".split()
)


def synthetic_list(path, n_per_topic=60, seed=0):
    rng = random.Random(seed)
    lines = ["A synthetic list", ""]
    for topic, pool in POOLS.items():
        for i in range(n_per_topic):
            words = rng.sample(pool, 9) + rng.sample(FILLER, 8)
            rng.shuffle(words)
            lines += [f"Paper {i} on {topic}: " + " ".join(words) + ".", ""]
    path.write_text("\n".join(lines), encoding="utf-8")
    return path


@pytest.fixture(scope="module")
def sample_atlas(tmp_path_factory):
    atlas = Atlas(tmp_path_factory.mktemp("ref") / "atlas.db")
    atlas.add([SAMPLE], list_name="sample")
    atlas.embed()
    atlas.build_map(list_name="sample")
    yield atlas
    atlas.close()


def test_shipped_reference_is_small_and_leaves_out_held_out_papers():
    from paperatlas.enrich.areas import is_held_out

    ref = reference.shipped()
    assert ref is not None and ref.model == "static"
    assert reference.shipped_path().stat().st_size < 25e6
    assert len(ref.xy) > 10_000 and len(ref.ids) == len(ref.xy)
    assert not any(is_held_out(pid) for pid in ref.ids)
    assert 10 <= len(ref.broad_labels) <= 40 and len(ref.fine_labels) > len(ref.broad_labels)
    assert all(0 <= p < len(ref.broad_labels) for p in ref.fine_parent)
    # field topics are named by research topics, not by generic words of the field
    generic = set(ref.generic_words)
    assert generic and not any(is_generic(label.lower(), generic) for label in ref.broad_labels)


def test_new_abstracts_are_placed_on_the_topic_they_are_about():
    from paperatlas.embed import get_backend

    ref = reference.shipped()
    texts = [
        "We study machine unlearning: removing the influence of a forget set from a trained "
        "model without retraining, with guarantees against membership inference attacks.",
        "A diffusion model for 3D molecule generation that respects SE(3) equivariance and "
        "produces valid ligands for protein pockets in structure-based drug design.",
    ]
    placed = ref.place(get_backend("static").embed(texts))
    fine = [ref.fine_labels[f].lower() for f in placed.fine]
    broad = [ref.broad_labels[b].lower() for b in placed.broad]
    assert "unlearning" in fine[0] + broad[0]
    assert any(w in fine[1] + broad[1] for w in ("molec", "protein", "drug", "ligand"))
    assert ((placed.xy >= 0) & (placed.xy <= 1)).all()
    assert (placed.broad_conf > 0).all() and (placed.broad_conf <= 1).all()
    assert all(ref.fine_parent[f] == b for f, b in zip(placed.fine, placed.broad))


def test_short_list_is_grouped_by_the_field(sample_atlas):
    stored = sample_atlas.store.maps.get("sample")
    meta = stored["meta"]
    assert meta["grouping"] == "reference" and meta["reference"] == reference.SHIPPED
    ref = reference.shipped()
    broad = [t for t in stored["topics"] if t["level"] == 0]
    assert {t["label"] for t in broad} <= set(ref.broad_labels)
    assert sum(t["size"] for t in broad) == len(stored["assignments"]) == 19
    for t in broad:  # each topic says how big it is in the field
        assert t["data"]["reference"]["size"] == int(ref.broad_size[t["topic_id"]])
    # positions are on the field's layout
    assert all(0 <= a["x"] <= 1 and 0 <= a["y"] <= 1 for a in stored["assignments"])
    assert set(meta["confidence"]) == {a["paper_id"] for a in stored["assignments"]}
    view = map_view(stored, sample_atlas.store)
    assert view["field"]["papers"] == len(ref.xy) and len(view["field"]["points"]) > 1000
    assert "confidence" not in view["meta"]
    # no label is a generic phrase or a list of paper names (at most three ideas)
    generic = set(ref.generic_words)
    names = {
        f["name"]
        for f in sample_atlas.store.facts.get_many(list(meta["confidence"])).values()
        if f.get("name")
    }
    for t in stored["topics"]:
        assert not is_generic(t["label"].lower(), generic)
        assert not any(name in t["label"] for name in names) and t["label"].count(",") <= 1
    # unchanged list: reused
    assert sample_atlas.build_map(list_name="sample")["built"] is False


@pytest.mark.slow  # builds an atlas with its map (UMAP) in the test
def test_field_is_drawn_in_the_html_and_png(sample_atlas, tmp_path):
    from paperatlas.report.mapplot import write_html, write_png

    stored = sample_atlas.store.maps.get("sample")
    html = write_html(stored, sample_atlas.store, tmp_path / "atlas.html").read_text()
    data = html.split('id="atlas-data">', 1)[1].split("</script>", 1)[0]
    view = json.loads(data)
    assert view["field"]["title"] == "ICLR 2026" and "over" not in view["meta"]
    assert "drawField" in html
    png = write_png(stored, sample_atlas.store, tmp_path / "map.png")
    assert png.read_bytes()[:4] == b"\x89PNG"


def test_markdown_digest_links_a_map_file_and_has_no_entities(sample_atlas, tmp_path):
    out = tmp_path / "d.md"
    text = sample_atlas.digest(fmt="md", list_name="sample", output=out)
    assert "data:image" not in text and "&amp;" not in text and "&lt;" not in text
    assert "(d.map.png)" in text and (tmp_path / "d.map.png").exists()
    ref = reference.shipped()
    headings = [
        h.split(". ", 1)[1].rsplit(" (", 1)[0].replace("\\", "")
        for h in text.splitlines()
        if h.startswith("## ") and h[3:4].isdigit()
    ]
    # the field's labels; a paper whose text supports only its fine topic's label is shown
    # under it, one that supports none as its topic's "other" part
    shown = {*ref.broad_labels, *ref.fine_labels, *(f"Other (near {b})" for b in ref.broad_labels)}
    assert headings and all(h in shown or h in ("other topics",) for h in headings)


def test_exports_and_show_carry_the_grouping(sample_atlas, tmp_path):
    out = io.StringIO()
    sample_atlas.export("jsonl", out, filters=Filters(list_name="sample"))
    rows = [json.loads(line) for line in out.getvalue().splitlines()]
    assert len(rows) == 19
    ref = reference.shipped()
    for r in rows:
        assert r["topic"]["label"] and r["reference_topic"]["reference"] == "iclr2026"
        field_label = ref.broad_labels[r["reference_topic"]["id"]]
        # the field topic's label, else the fine topic's or its "other" part (build.shown_topics)
        assert r["reference_topic"]["label"] in (field_label, f"Other (near {field_label})", *ref.fine_labels)
        assert 0 < r["reference_topic"]["confidence"] <= 1
    out = io.StringIO()
    sample_atlas.export("csv", out, filters=Filters(list_name="sample"))
    table = list(csv.DictReader(io.StringIO(out.getvalue())))
    shown = {*ref.broad_labels, *ref.fine_labels, *(f"Other (near {b})" for b in ref.broad_labels)}
    assert all(row["reference_topic"] in shown and row["topic_id"].isdigit() for row in table)
    out = io.StringIO()
    sample_atlas.export("markdown", out, filters=Filters(list_name="sample"))
    assert out.getvalue().count("topic ") >= 19
    paper = sample_atlas.paper(rows[0]["id"])
    assert paper["reference_topic"]["id"] == rows[0]["reference_topic"]["id"]


def test_generic_words_are_learned_from_their_spread():
    rng = random.Random(1)
    texts, topics = [], []
    for t, pool in enumerate(POOLS.values()):
        for _ in range(50):
            texts.append(" ".join(rng.sample(pool, 6) + rng.sample(FILLER, 6)))
            topics.append(t)
    generic = set(reference.learn_generic_words(texts, np.array(topics), min_share=0.05, spread=0.9))
    assert {"baselines", "outperform", "setting", "strong"} <= generic
    assert not generic & {"unlearning", "molecule", "policy", "segmentation"}


def test_labels_skip_generic_words_and_never_list_paper_names():
    papers = [
        PaperText(abstract="Final natural establishing context results here.", name=f"Name{i}")
        for i in range(4)
    ]
    labels = np.array([0, 0, 1, 1])
    generic = {"final", "natural", "establishing", "context", "results"}
    out = label_clusters(
        papers, labels, 2, generic=generic, fallback=["Machine unlearning", "Machine unlearning"]
    )
    assert [t.label for t in out] == ["Machine unlearning", "Machine unlearning (2)"]
    out = label_clusters(papers, labels, 2, generic=generic)
    assert all("," not in t.label and "Name" not in t.label for t in out)


@pytest.mark.slow  # builds an atlas with its map (UMAP) in the test
def test_user_reference_build_use_and_switch_back(tmp_path, cli):
    db, run = cli.db, cli

    def cli(*args):  # (code, stdout and stderr together)
        code, out, err = run(*args)
        return code, out + err

    big = synthetic_list(tmp_path / "big.txt")
    short = tmp_path / "short.txt"
    short.write_text(
        "Short\n\n"
        + "\n\n".join(
            " ".join(random.Random(i).sample(POOLS["unlearning"], 10)) + " for LLMs." for i in range(5)
        ),
        encoding="utf-8",
    )
    for args in (
        ["add", big, "--list", "lab"],
        ["add", short, "--list", "short"],
        ["reference", "build", "--list", "lab"],
    ):
        code, out = cli(*args)
        assert code == 0, out
    code, out = cli("reference", "ls")
    assert "* lab" in out and "iclr2026" in out
    atlas = Atlas(db)
    stored = atlas.build_map(list_name="short")
    assert stored["meta"]["reference"] == "lab"
    # the five unlearning abstracts land on the field's unlearning topics
    ref = reference.load(atlas.store, "lab")
    text = {p["id"]: p["abstract"] for p in atlas.store.papers.get_many(ref.ids)}
    for a in stored["assignments"]:
        members = [pid for pid, b in zip(ref.ids, ref.point_broad) if b == a["broad"]]
        assert sum("on unlearning" in text[pid] for pid in members) > 0.8 * len(members)
    atlas.close()
    code, out = cli("reference", "use", "iclr2026")
    assert code == 0
    atlas = Atlas(db)
    assert atlas.build_map(list_name="short")["meta"]["reference"] == "iclr2026"
    atlas.close()
    code, out = cli("reference", "use", "nope")
    assert code == 2 and "no reference named" in out
    code, out = cli("reference", "build", "--list", "short")
    assert code == 2 and "big list" in out


def test_long_list_keeps_its_own_map_with_the_field_as_a_layer(tmp_path):
    atlas = Atlas(tmp_path / "long.db")
    atlas.add([synthetic_list(tmp_path / "long.txt", n_per_topic=55)], list_name="long")
    atlas.embed()
    stored = atlas.build_map(list_name="long")
    assert stored["meta"]["grouping"] == "own" and stored["meta"]["reference"] == "iclr2026"
    layer = atlas.store.maps.get(reference_scope("long"))
    assert layer is not None and len(layer["assignments"]) == 220
    view = map_view(stored, atlas.store)
    assert "field" not in view and view["layer"]["name"] == "iclr2026"
    ref = reference.shipped()
    field_topics = {t["id"] for t in view["layer"]["topics"]["broad"]}
    assert all(p[8] in field_topics and p[9] >= 0 for p in view["points"])
    # the unlearning papers are placed on a field topic about unlearning
    unlearning = [p for p in view["points"] if "unlearning" in (p[6] or "").lower()]
    labels = Counter(ref.fine_labels[p[9]] for p in unlearning)
    assert "unlearning" in labels.most_common(1)[0][0].lower()
    # own topics are not named by generic words or lists of names
    generic = set(ref.generic_words)
    assert all(
        t["label"].count(",") <= 1 and not is_generic(t["label"].lower(), generic) for t in stored["topics"]
    )
    out = io.StringIO()
    atlas.export("jsonl", out, filters=Filters(list_name="long"))
    row = json.loads(out.getvalue().splitlines()[0])
    assert row["topic"]["map"] == "long" and row["reference_topic"]["reference"] == "iclr2026"
    atlas.close()
