"""Topic labels checked against the papers under them: the bundled sample list placed on the
shipped reference, each topic's "other" part (papers whose own text holds none of the
label's content words) counted and shown, a catch-all's label extended or the topic split,
placement preferring a near topic whose label the paper's text supports."""

from __future__ import annotations

import numpy as np
import pytest
from fastapi.testclient import TestClient

from atlas_fixture import SAMPLE
from paperatlas import Atlas
from paperatlas.atlas import reference
from paperatlas.atlas.labels import PaperText, TopicTerms, label_clusters, paper_support, support_words
from paperatlas.atlas.reference import SUPPORTED_VOTE, SupportedChoice
from paperatlas.atlas.split import split_catch_alls
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


def test_sample_papers_not_supporting_their_label_are_its_other_part(sample_atlas):
    stored = sample_atlas.store.get_map("sample")
    words = reference.shipped().label_support()
    papers = {
        p["id"]: p for p in sample_atlas.store.get_papers([a["paper_id"] for a in stored["assignments"]])
    }
    topics = {(t["level"], t["topic_id"]): t for t in stored["topics"]}
    unsupported = dict.fromkeys(topics, 0)
    for a in stored["assignments"]:
        text = words.stems(f"{papers[a['paper_id']]['title'] or ''} {papers[a['paper_id']]['abstract']}")
        for key in ((0, a["broad"]), (1, a["fine"])):
            unsupported[key] += not text & words.stems(topics[key]["label"])
    assert {key: t["data"]["other"] for key, t in topics.items()} == unsupported
    # most of the sample's papers sit under labels their own abstract supports
    broad = sum(unsupported[key] for key in topics if key[0] == 0)
    fine = sum(unsupported[key] for key in topics if key[0] == 1)
    assert broad <= 9 and fine <= 4


def test_the_other_part_is_shown_on_the_topic_page_the_map_and_the_digest(sample_atlas):
    stored = sample_atlas.store.get_map("sample")
    topic = max((t for t in stored["topics"] if t["level"] == 0), key=lambda t: t["data"]["other"])
    assert topic["data"]["other"] > 0
    note = f"{topic['data']['other']} not matching the label"
    assert note in sample_atlas.digest("md", list_name="sample")
    assert note in sample_atlas.digest("html", list_name="sample")
    with TestClient(create_app(sample_atlas.path), base_url="http://127.0.0.1") as client:
        page = client.get(f"/topics/{topic['topic_id']}")
        assert page.status_code == 200 and note in page.text
        view = client.get("/api/map").json()
    shown = {t["id"]: t["other"] for t in view["topics"]["broad"]}
    assert shown[topic["topic_id"]] == topic["data"]["other"]


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


def test_the_map_command_lists_each_broad_topics_other_part(cli):
    assert cli("add", str(SAMPLE), "--list", "sample")[0] == 0
    assert cli("embed", "--model", "static")[0] == 0
    code, out, _ = cli("map", "--list", "sample")
    assert code == 0 and "not matching the label" in out
