"""Digests: grouping by stored topics, overview, fallback by area, escaping of hostile text."""

from __future__ import annotations

import json
import re
from html.parser import HTMLParser
from pathlib import Path

import numpy as np
import pytest

from paperatlas.api import Atlas
from paperatlas.errors import PaperatlasError

FIXTURES = Path(__file__).parent / "fixtures" / "collections"
TOPICS = {
    json.loads(line)["id"]: json.loads(line)["topic"]
    for line in (FIXTURES / "corpus.jsonl").read_text().splitlines()
}
HOSTILE = [json.loads(line)["id"] for line in (FIXTURES / "hostile.jsonl").read_text().splitlines()]
MODEL = "test-vec"


def _store_map(atlas, list_name: str) -> None:
    """A map as the atlas stage stores it: one broad topic per fixture topic (hostile papers
    in the unlearning one, with a hostile label on a fine topic), vectors to match."""
    from paperatlas.atlas import signature_for

    store = atlas.store
    ids = store.papers.ids(list_name)
    names = ["unlearning", "speculative", "graphs", "proteins"]
    broad = [names.index(TOPICS.get(pid, "unlearning")) for pid in ids]
    rng = np.random.default_rng(0)
    vectors = rng.normal(size=(len(ids), 8)).astype(np.float32)
    with store.transaction():
        store.vectors.put(MODEL, ids, vectors, ["h"] * len(ids))
    xy = np.array([[b * 10.0, 0.0] for b in broad]) + rng.normal(size=(len(ids), 2))
    topics = [
        {
            "level": 0,
            "topic_id": t,
            "parent_id": None,
            "label": f"{name} label",
            "size": broad.count(t),
            "x": t * 10.0,
            "y": 0.0,
            "data": {"terms": [name, "term"]},
        }
        for t, name in enumerate(names)
    ]
    topics += [
        {
            "level": 1,
            "topic_id": t,
            "parent_id": t,
            "label": "<script>alert('label')</script>" if t == 0 else f"fine {name}",
            "size": broad.count(t),
            "x": t * 10.0,
            "y": 0.0,
            "data": {},
        }
        for t, name in enumerate(names)
    ]
    assignments = [
        {
            "paper_id": pid,
            "x": float(xy[i, 0]),
            "y": float(xy[i, 1]),
            "broad": broad[i],
            "fine": broad[i],
            "outlier": False,
        }
        for i, pid in enumerate(ids)
    ]
    signature = signature_for(store, ids, MODEL)  # as build_map would: reused, not rebuilt
    store.maps.save(list_name, MODEL, signature, {"papers": len(ids)}, topics, assignments)


@pytest.fixture(scope="module")
def atlas(tmp_path_factory):
    db = tmp_path_factory.mktemp("digest") / "atlas.db"
    a = Atlas(db)
    a.add([FIXTURES / "corpus.jsonl", FIXTURES / "hostile.jsonl"], list_name="conf", enrich=False)
    _enrich(a)
    _store_map(a, "conf")
    yield a
    a.close()


def _enrich(atlas) -> None:
    """Facts from the enrich stage's pure extractor (the area model is not needed here)."""
    from paperatlas.enrich.pipeline import extract_facts

    with atlas.store.transaction():
        for p in atlas.store.papers.iter():
            atlas.store.facts.set(p["id"], extract_facts(p.get("title"), p["abstract"]), "test", "test")


class _Tags(HTMLParser):
    def __init__(self):
        super().__init__()
        self.tags: list[tuple[str, dict]] = []

    def handle_starttag(self, tag, attrs):
        self.tags.append((tag, dict(attrs)))


def _assert_safe_html(html: str) -> list[tuple[str, dict]]:
    parser = _Tags()
    parser.feed(html)
    allowed = {
        "html",
        "head",
        "meta",
        "title",
        "style",
        "body",
        "main",
        "h1",
        "h2",
        "h3",
        "p",
        "div",
        "b",
        "span",
        "table",
        "tr",
        "td",
        "ul",
        "li",
        "a",
        "section",
        "figure",
        "img",
        "figcaption",
        "nav",
        "ol",
    }
    for tag, attrs in parser.tags:
        assert tag in allowed, f"unexpected <{tag}> in digest"
        assert not [k for k in attrs if k.startswith("on")], (tag, attrs)
        if tag == "a":
            assert re.match(r"^(https?://|#topic-)", attrs["href"]), attrs
        if tag == "img":
            assert attrs["src"].startswith("data:image/png;base64,")
    return parser.tags


def test_html_digest_groups_by_topic_and_escapes_everything(atlas):
    html = atlas.digest(fmt="html", list_name="conf")
    tags = _assert_safe_html(html)
    assert (
        "<script" not in html
        and "<iframe" not in html
        and "onerror=alert" not in html.replace("onerror=alert(1)&gt;", "")
    )
    assert "&lt;script&gt;alert(&#39;title&#39;)&lt;/script&gt;" in html
    assert "&lt;script&gt;alert(&#39;label&#39;)&lt;/script&gt;" in html  # hostile topic label
    assert "&lt;b&gt;bold area&lt;/b&gt; &amp; friends" in html
    assert "javascript:" not in " ".join(a.get("href", "") for _, a in tags)
    # no external asset: the only image is the inline map, links are plain anchors
    assert [t for t, _ in tags].count("img") == 1
    assert not re.search(r"""(src|href)=["'](//|http)[^"']*\.(css|js|png|woff)""", html)
    assert "@media print" in html
    # one section per topic, sizes as in the map, every paper listed once
    for name, size in (("unlearning", 32), ("speculative", 30), ("graphs", 30), ("proteins", 30)):
        assert re.search(rf"{name} label <span class=\"count\">{size} papers", html), name
    assert html.count("<li>") >= 122
    assert "https://openreview.net/forum?id=" in html


def test_markdown_digest_escapes_and_links(atlas, tmp_path):
    out = tmp_path / "digest.md"
    text = atlas.digest(fmt="md", list_name="conf", output=out)
    # every "<" is backslash-escaped (CommonMark shows it as text): no tag can start
    assert not re.search(r"(?<!\\)<(script|iframe|img)", text)
    assert "\\<script\\>" in text and "&lt;" not in text and "&amp;" not in text
    assert "javascript:" not in re.sub(r"\\\[click\\\]\(javascript:alert\(3\)\)", "", text)
    assert "](<https://openreview.net/forum?id=" in text
    # the map is written beside the report and referenced by name
    image = tmp_path / "digest.map.png"
    assert image.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
    assert "(digest.map.png)" in text
    headings = re.findall(r"^## \d+\. (.+) \((\d+)\)$", text, flags=re.M)
    assert sum(int(n) for _, n in headings) == 122
    # without an output file there is no map (a data: URI shows in no Markdown viewer)
    assert "data:image" not in atlas.digest(fmt="md", list_name="conf")


def test_overview_counts_names_and_code(atlas):
    from paperatlas.report.digest_data import collect

    data = collect(atlas.store, list_name="conf")
    assert len(data.papers) == 122 and data.grouping == "topics"
    assert sum(n for _, n in data.by_area) == 122
    assert sum(n for _, n in data.by_kind) == 122
    assert data.named and all(p.name for p in data.named)
    assert data.named[0].rating == max(p.rating or 0 for p in data.papers if p.name)
    assert data.with_code and all(p.code_url.startswith("https://github.com/") for p in data.with_code)
    assert data.map_png[:4] == b"\x89PNG"


@pytest.mark.slow  # Chinese terms: the multilingual model's real weights
def test_collection_digest_and_chinese(atlas):
    liked = [pid for pid, t in TOPICS.items() if t == "proteins"][:6]
    atlas.like(liked, collection="to-read")
    try:
        text = atlas.digest(fmt="md", lang="zh", collection="to-read")
        assert text.startswith("# 论文速览: to\\-read") or text.startswith("# 论文速览: to-read")
        assert "6 篇论文" in text and "## 概览" in text
        assert len(re.findall(r"^- ", text, flags=re.M)) >= 6
        html = atlas.digest(fmt="html", lang="zh", collection="to-read")
        assert '<html lang="zh-CN">' in html
        # the topic's label in Chinese terms, marked as a machine gloss
        assert "蛋白质标签" in html and "proteins label" not in html and "机器释义" in html
        # the map is the list's: the other papers show as context
        assert "灰点" in html
    finally:
        atlas.unlike(liked, collection="to-read")
    with pytest.raises(PaperatlasError, match="no liked papers"):
        atlas.digest(collection="to-read")


def test_without_vectors_groups_by_area_and_says_so(tmp_path):
    a = Atlas(tmp_path / "plain.db")
    a.add([FIXTURES / "list_2025.jsonl"], list_name="y2025", enrich=False)
    text = a.digest(fmt="md", list_name="y2025")
    assert "Grouped by research area" in text
    headings = re.findall(r"^## \d+\. (.+) \((\d+)\)$", text, flags=re.M)
    assert headings[0] == ("learning on graphs and other geometries & topologies", "12")
    html = a.digest(fmt="html", list_name="y2025")
    _assert_safe_html(html)
    assert 'class="note"' in html and "<img" not in html
    with pytest.raises(PaperatlasError):
        a.digest(fmt="pdf", list_name="y2025")
    with pytest.raises(PaperatlasError):
        a.digest(lang="fr", list_name="y2025")


def test_small_topics_fold_into_one_section_past_the_limit():
    from paperatlas.report.digest_data import MAX_GROUPS, Group, PaperLine, _fold_small

    def line(i):
        return PaperLine(
            id=str(i), title=f"t{i}", name=None, kind=None, number=None, url=None, code_url=None, area=None
        )

    sizes = [10] * 5 + [1] * (MAX_GROUPS + 3)
    groups, n = [], 0
    for g, size in enumerate(sizes):
        groups.append(Group(label=f"topic {g}", papers=[line(n + i) for i in range(size)]))
        n += size
    folded = _fold_small(groups)
    assert [g.label for g in folded] == [f"topic {g}" for g in range(5)] + ["(other topics)"]
    assert folded[-1].size == MAX_GROUPS + 3 and len(folded[-1].also) == MAX_GROUPS + 3
    assert sum(g.size for g in folded) == n
    assert _fold_small(groups[:6]) == groups[:6]  # few sections: nothing folded
