"""Topic labels checked against the papers under them: the bundled sample list placed on the
shipped reference, each topic's "other" part (papers whose own text holds none of the
label's content words) counted and shown, a catch-all's label extended or the topic split,
placement preferring a near topic whose label the paper's text supports."""

from __future__ import annotations

import csv
import io
import json
from html import escape
from pathlib import Path

import numpy as np
import pytest
from fastapi.testclient import TestClient

from atlas_fixture import SAMPLE
from paperatlas import Atlas
from paperatlas.atlas import TopicLookup, reference
from paperatlas.atlas.labels import PaperText, TopicTerms, label_clusters, paper_support, support_words
from paperatlas.atlas.reference import SUPPORTED_VOTE, SupportedChoice
from paperatlas.atlas.split import split_catch_alls
from paperatlas.filters import Filters
from paperatlas.web.app import create_app


def _paragraphs() -> list[str]:
    return [p.strip() for p in SAMPLE.read_text(encoding="utf-8").split("\n\n")[1:] if p.strip()]


@pytest.fixture(scope="module")
def sample_atlas(tmp_path_factory):
    atlas = Atlas(tmp_path_factory.mktemp("support") / "atlas.db")
    atlas.add([SAMPLE], list_name="sample")
    atlas.embed(model="static", vocabulary=False)
    atlas.build_map(list_name="sample")
    yield atlas
    atlas.close()


def _sample_papers(atlas, stored):
    words = reference.shipped().label_support()
    papers = atlas.store.papers.get_many([a["paper_id"] for a in stored["assignments"]])
    return words, {p["id"]: words.stems(f"{p['title'] or ''} {p['abstract']}") for p in papers}


def test_sample_papers_are_shown_under_labels_their_text_supports_or_as_the_other_part(sample_atlas):
    stored = sample_atlas.store.maps.get("sample")
    words, text = _sample_papers(sample_atlas, stored)
    field = reference.shipped()
    topics = {(t["level"], t["topic_id"]): t for t in stored["topics"]}
    lookup = TopicLookup(sample_atlas.store, "sample")
    unsupported = dict.fromkeys(topics, 0)
    rest: dict[int, int] = {}
    fallen: dict[int, int] = {}
    for a in stored["assignments"]:
        broad, fine = topics[(0, a["broad"])], topics[(1, a["fine"])]
        assert fine["parent_id"] == a["broad"]  # the grouping (and colour) stays the field's
        shown = lookup(a["paper_id"])["topic"]
        assert shown["label"] == fine["data"].get("shown_broad", broad["label"])
        assert shown["other"] is ("other_of" in fine["data"])
        if shown["other"]:
            # the rest of a field topic: its text supports neither the field topic's label
            # nor its fine topic's, and the label it is shown under says it is the rest
            rest[a["broad"]] = rest.get(a["broad"], 0) + 1
            assert shown["label"] == f"Other (near {broad['label']})"
            assert fine["data"]["other_of"] == {"id": a["broad"], "label": broad["label"]}
            of_fine = field.fine_labels[a["fine"] - 2 * len(field.fine_labels)]
            assert fine["label"] == f"Other (near {of_fine})"
            assert not text[a["paper_id"]] & (words.stems(broad["label"]) | words.stems(of_fine))
            continue
        if "within" in fine["data"]:
            fallen[a["broad"]] = fallen.get(a["broad"], 0) + 1
            assert shown["label"] == fine["label"] in field.fine_labels
        unsupported[(0, a["broad"])] += not text[a["paper_id"]] & words.stems(shown["label"])
        unsupported[(1, a["fine"])] += not text[a["paper_id"]] & words.stems(fine["label"])
    # every broad label shown is one the paper's own text supports, or says it is the rest
    assert sum(unsupported[key] for key in topics if key[0] == 0) == 0 and fallen
    for key, t in topics.items():
        if key[0] == 0:  # a broad topic counts its "other" part and its papers shown by fine label
            assert t["data"]["other"] == rest.get(key[1], 0)
            assert t["data"].get("shown_fine", 0) == fallen.get(key[1], 0)
        elif "other_of" not in t["data"]:
            assert t["data"]["other"] == unsupported[key]
    # of the 9 of 19 papers the field's biggest topic gathers, 4 did not match its label:
    # now they are shown under their fine topic's label, or as its "other" part
    biggest = max((t for t in topics.values() if t["level"] == 0), key=lambda t: t["size"])
    assert rest.get(biggest["topic_id"], 0) + fallen.get(biggest["topic_id"], 0) >= 3
    assert sum(rest.values()) <= 3


@pytest.mark.slow  # builds an atlas with its map (UMAP) in the test
def test_the_other_part_is_shown_on_cards_pages_the_map_the_digest_and_exports(sample_atlas, tmp_path):
    stored = sample_atlas.store.maps.get("sample")
    fine = next(t for t in stored["topics"] if t["level"] == 1 and "other_of" in t["data"])
    label = fine["data"]["shown_broad"]
    members = [a["paper_id"] for a in stored["assignments"] if a["fine"] == fine["topic_id"]]
    broad = next(t for t in stored["topics"] if t["level"] == 0 and t["topic_id"] == fine["parent_id"])
    assert label == f"Other (near {broad['label']})" and members
    digest = sample_atlas.digest("md", list_name="sample")
    assert label in digest and f"{broad['label']} " in digest
    assert escape(label) in sample_atlas.digest("html", list_name="sample")
    html = tmp_path / "atlas.html"
    sample_atlas.write_map_html(sample_atlas.build_map(list_name="sample"), html)
    assert label.replace("&", "\\u0026") in html.read_text(encoding="utf-8")  # inline JSON
    with TestClient(create_app(sample_atlas.path), base_url="http://127.0.0.1") as client:
        page = client.get(f"/papers/{members[0]}").text
        assert escape(label) in page
        assert f'id="paper-topic">{escape(broad["label"])}<' not in page
        assert escape(label) in client.get("/papers", params={"list": "sample"}).text  # the card's badge
        assert escape(fine["label"]) in client.get(f"/topics/{fine['topic_id']}", params={"level": 1}).text
        view = client.get("/api/map").json()
        shown = {t["id"]: t for t in view["topics"]["fine"]}
        assert shown[fine["topic_id"]]["shown_broad"] == label
        # the broad topic says how many of its papers are shown under their fine topic's label
        held = next(t for t in view["topics"]["broad"] if t["shown_fine"])
        page = client.get(f"/topics/{held['id']}").text
        assert f"{held['shown_fine']} shown under their fine topic&#39;s label" in page
    # exports: the labels shown, and whether the paper is its topic's rest

    def exported(fmt: str) -> str:
        out = io.StringIO()
        sample_atlas.export(fmt, out, filters=Filters(list_name="sample"))
        return out.getvalue()

    rows = [json.loads(line) for line in exported("jsonl").splitlines()]
    by_id = {r["id"]: r["topic"] for r in rows}
    assert all(by_id[pid]["label"] == label and by_id[pid]["other"] is True for pid in members)
    assert sum(t["other"] for t in by_id.values()) == sum(
        t["data"]["other"] for t in stored["topics"] if t["level"] == 0
    )
    table = list(csv.DictReader(io.StringIO(exported("csv"))))
    assert {r["id"]: r["topic_other"] for r in table} == {
        pid: "1" if t["other"] else "0" for pid, t in by_id.items()
    }
    assert all(r["topic"] == by_id[r["id"]]["label"] and r["fine_topic"] for r in table)
    assert label in exported("markdown")


def test_a_catch_all_topic_is_named_by_terms_its_papers_support():
    # the sample's abstracts as one topic: no single phrase fits them; a word the whole
    # field uses ("LLMs") names none of them
    field = reference.shipped()
    papers = [PaperText(abstract=text) for text in _paragraphs()]
    support = paper_support(papers, field.generic_words, field.common_stems)
    topic = label_clusters(papers, [0] * len(papers), 1, support=support, generic=set(field.generic_words))[0]
    backing = sum(1 for p in support.papers if p & support.label(topic.label))
    assert topic.other == len(papers) - backing
    assert backing >= 0.25 * len(papers) and support.label("LLMs") == frozenset()
    assert 1 <= topic.label.count("&") + topic.label.count(",") + topic.label.count(" for ") <= 2


def test_labels_of_papers_in_another_script_are_left_as_they_are():
    papers = [
        PaperText(abstract="我们提出一种新的联邦学习方法，保护隐私。", keywords=["联邦学习"])
        for _ in range(6)
    ]
    topics = label_clusters(papers, [0] * 6, 1)
    assert topics[0].label == "联邦学习" and topics[0].other == 0


def test_a_catch_all_broad_topic_is_split_along_its_fine_topics():
    rng = np.random.default_rng(0)
    # broad topic 0 holds fine topics 0 and 1, far apart; broad topic 1 holds fine topic 2
    fine = np.repeat([0, 1, 2], 30)
    centres = np.eye(3) * 5
    space = centres[fine] + rng.normal(size=(90, 3))
    calls = []

    def label(broad, n):
        calls.append(n)
        # a broad topic is a catch-all while it holds two fine topics
        return [
            TopicTerms(
                label=f"T{t}", terms=[], coverage=[], other=40 if len(set(fine[broad == t])) > 1 else 0
            )
            for t in range(n)
        ]

    parent, terms = split_catch_alls(label, space, fine, np.array([0, 0, 1]))
    assert len(set(parent.tolist())) == 3 and len(terms) == 3 and calls == [2, 3]
    # fine topics stay whole, broad ids follow size
    assert all(len(set(parent[fine[fine == f]])) == 1 for f in range(3))


def test_a_placed_paper_goes_to_a_near_topic_its_text_supports():
    words = support_words()
    choice = SupportedChoice(
        papers=[words.stems("We certify robustness against adversarial attacks."), frozenset()],
        broad=[words.stems(s) for s in ("Graphs", "Adversarial attacks", "Causal inference")],
        fine=[words.stems(s) for s in ("Graph pooling", "Certified robustness", "Treatment effects")],
        parent=np.array([0, 1, 2]),
    )
    near = np.array([[0.6, SUPPORTED_VOTE + 0.1, 0.1], [0.6, 0.3, 0.1]])
    b, forced = choice.broad_of(0, near, near)
    assert b.tolist() == [1, 0]  # the second paper has no words to read: the vote decides
    stray = np.array([[0.8, SUPPORTED_VOTE / 2, 0.1], [0.8, 0.1, 0.1]])
    assert choice.broad_of(0, stray, stray)[0].tolist() == [0, 0]  # a stray neighbour is not near
    # no near broad label fits, a near fine one does: its broad topic
    choice.broad[1] = words.stems("Bandits")
    b, forced = choice.broad_of(0, near, near)
    assert b.tolist() == [1, 0] and forced.tolist() == [1, -1]


@pytest.mark.slow  # builds an atlas with its map (UMAP) in the test
def test_the_map_command_lists_each_broad_topics_other_part(cli):
    assert cli("add", str(SAMPLE), "--list", "sample")[0] == 0
    assert cli("embed", "--model", "static")[0] == 0
    code, out, _ = cli("map", "--list", "sample")
    assert code == 0 and "not matching the label" in out and "shown under their fine topic's label" in out


@pytest.mark.browser
def test_the_map_card_and_legend_of_atlas_html_show_the_label_a_paper_is_shown_under(sample_atlas, tmp_path):
    from browserkit import CHROMEDRIVER, CHROMIUM, headless_chrome

    if not (Path(CHROMIUM).exists() and Path(CHROMEDRIVER).exists()):
        pytest.skip("chromium and chromedriver are not installed (run `make browser-deps`)")
    stored = sample_atlas.build_map(list_name="sample")
    html = sample_atlas.write_map_html(stored, tmp_path / "atlas.html")
    rest = next(t for t in stored["topics"] if t["level"] == 1 and "other_of" in t["data"])
    held = next(t for t in stored["topics"] if t["level"] == 0 and t["data"].get("shown_fine"))
    driver = headless_chrome()
    try:
        driver.get(html.as_uri())
        card = driver.execute_script(
            """const m = window.atlasMap;
            const i = m.points.findIndex(p => p[3] === arguments[0]);
            m.showCard(i, 10, 10, true);
            return document.querySelector('.atlas-card-topic').textContent;""",
            rest["topic_id"],
        )
        note = driver.execute_script(
            "return document.querySelector('.atlas-legend-item[data-topic=\"' + arguments[0] + '\"] .count').title",
            held["topic_id"],
        )
    finally:
        driver.quit()
    assert card == f"{rest['data']['shown_broad']} › {rest['label']}"
    assert f"{held['data']['shown_fine']} shown under their fine topic's label" in note
