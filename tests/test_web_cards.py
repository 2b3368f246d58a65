"""web/cards.py: a card escapes everything that comes from the store, in text and in
attributes, and shows the snippet, the gist or the abstract's start, in that order."""

from jinja2 import Environment
from markupsafe import Markup

from paperatlas.web.cards import card_renderer
from paperatlas.web.i18n import translator

HOSTILE = '"><img src=x onerror=alert(1)><script>alert(2)</script>'


def render(p, lang="en"):
    def link(path, **params):
        return path + ("?" + "&".join(f"{k}={v}" for k, v in params.items()) if params else "")

    return card_renderer(Environment(autoescape=True), translator(lang), link)(p)


def test_every_field_is_escaped():
    html = render(
        {
            "id": 'x" onclick="boom',
            "title": HOSTILE,
            "name": HOSTILE,
            "kind": 'method" onmouseover="x',
            "area": HOSTILE,
            "decision": HOSTILE,
            "topic": {"broad": {"topic_id": 3, "label": HOSTILE}},
            "why": HOSTILE,
            "snippet": [{"text": HOSTILE, "match": True}, {"text": "<b>plain</b>", "match": False}],
        }
    )
    assert isinstance(html, Markup)
    assert "<script>" not in html and "<img" not in html and "<b>" not in html
    assert 'onclick="boom' not in html and 'onmouseover="x' not in html
    assert "&lt;script&gt;" in html and "<mark>&#34;&gt;&lt;img" in html
    assert 'href="/papers/x%22%20onclick%3D%22boom"' in html  # the id is a path segment


def test_snippet_then_gist_then_abstract():
    base = {"id": "p1", "title": "T"}
    assert '<p class="snippet">a <mark>b</mark></p>' in render(
        {**base, "gist": "G", "snippet": [{"text": "a ", "match": False}, {"text": "b", "match": True}]}
    )
    assert '<p class="gist">G</p>' in render({**base, "gist": "G", "abstract": "A"})
    long = "word " * 200
    shown = render({**base, "abstract": long})
    gist = shown.split('<p class="gist">', 1)[1].split("</p>", 1)[0]
    assert gist.startswith("word word") and len(gist) < len(long)


def test_labels_follow_the_language_and_the_mark():
    plain = render({"id": "p1", "liked": False, "has_code": True})
    liked = render({"id": "p1", "liked": True, "has_code": True}, lang="zh")
    assert 'class="star"' in plain and "☆" in plain and ">with code<" in plain
    assert 'class="star on"' in liked and "★" in liked and 'aria-pressed="true"' in liked
    assert translator("zh")("with_code") in liked
    assert translator("en")("untitled") in plain  # no title, no display title


def test_the_title_only_badge_follows_the_card_field_alone():
    """A search hit's card carries no abstract (its snippet stands in): the badge reads
    `title_only`, which the hit sets from the paper's own text, never a missing key."""
    assert "badge title-only" in render({"id": "p1", "title": "T", "title_only": True})
    assert "badge title-only" not in render({"id": "p1", "title": "T", "abstract": None, "snippet": []})
    assert "badge title-only" not in render({"id": "p1", "title": "T", "title_only": False, "abstract": "A"})


def _renderer():
    return card_renderer(Environment(autoescape=True), translator("en"), lambda path, **params: path)


ROW = {
    "id": "p1",
    "title": "Graph networks",
    "kind": "method",
    "area": "graphs",
    "topic": {"broad": {"topic_id": 3, "label": "Graphs", "size": 10}},
    "gist": "We propose a graph network.",
    "tags": ("to-read",),
    "state": None,
    "liked": False,
}


def test_a_cards_head_is_kept_and_shown_again_while_nothing_it_shows_changed(monkeypatch):
    import paperatlas.web.cards as cards

    heads: list[str] = []  # the head links the paper's page: its id quoted once per head written
    real = cards.quote
    monkeypatch.setattr(cards, "quote", lambda text, safe="/": heads.append(text) or real(text, safe=safe))
    card = _renderer()
    first = card(dict(ROW))
    assert card(dict(ROW, topic={"broad": {"topic_id": 3, "label": "Graphs", "size": 99}})) == first
    assert heads.count("p1") == 1
    for change in (
        {"state": "read"},
        {"liked": True},
        {"tags": ("to-read", "later")},
        {"title": "Graph networks, again"},
        {"topic": {"broad": {"topic_id": 4, "label": "Graphs"}}},
    ):
        assert card(dict(ROW, **change)) != first, change
    assert heads.count("p1") == 6
    assert 'class="card state-read"' in card(dict(ROW, state="read")) and heads.count("p1") == 6
    # what follows the head is written each time: another reason, another gist
    why = card(dict(ROW, why="title matches"))
    assert "title matches" in why and why.startswith(first.split("<p class=")[0]) and heads.count("p1") == 6
    assert "a graph network" not in card(dict(ROW, gist="Something else."))


def test_a_search_hit_card_is_written_with_its_own_marked_words_each_time():
    card = _renderer()
    one = card(dict(ROW, snippet=[{"text": "graph", "match": True}]))
    two = card(dict(ROW, snippet=[{"text": "network", "match": True}]))
    assert "<mark>graph</mark>" in one and "<mark>network</mark>" in two and "graph</mark>" not in two
