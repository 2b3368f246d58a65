"""A person's own topics ("mine") and the paper filters everywhere a person reaches papers:
`paperatlas ls --topic`, `paperatlas digest` with the filters of `ls` (and the line naming
them), the map page's topic list and a topic's subtopics carrying the page's filters, with
counts of the papers that pass. On the web fixture's mapped atlas (a map of all papers)."""

from __future__ import annotations

import html as html_lib
import json
import re

from atlas_fixture import web_atlas_db, web_client  # noqa: F401  (module fixtures)
from paperatlas import Atlas, Filters
from paperatlas.api import web_reads

HOSTILE_TAG = "<script>alert(1)</script>"


def _topic_ids(db, level: int, topic_id: int) -> set[str]:
    with Atlas(db) as atlas:
        return set(atlas.store.follows.topic_paper_ids("*", level, topic_id))


def _listed(out: str, candidates: set[str]) -> set[str]:
    """The candidate ids `ls` printed (ids stand alone in their column)."""
    return {pid for pid in candidates if re.search(rf"(?<![\w-]){re.escape(pid)}(?![\w-])", out)}


def _all_ids(db) -> set[str]:
    with Atlas(db) as atlas:
        return {r["id"] for r in atlas.papers()}


def test_ls_topic_mine_lists_the_unread_papers_of_followed_and_liked_topics(cli, db):
    everything = _all_ids(db)
    code, out, err = cli("ls", "--topic", "mine", "--db", db, use_db=False)
    assert code == 0 and not _listed(out, everything) and "no topics of yours" in err
    topic_one, topic_two = _topic_ids(db, 0, 1), _topic_ids(db, 0, 2)
    liked = sorted(topic_one)[0]
    read = sorted(topic_one)[1]
    with Atlas(db) as atlas:
        atlas.like([liked])
        atlas.set_state([read], "read")
        atlas.follow_topic(2)
    code, out, err = cli(
        "ls", "--topic", "mine", "--state", "unread", "--limit", "500", "--db", db, use_db=False
    )
    assert code == 0, err
    assert _listed(out, everything) == (topic_one | topic_two) - {read}
    code, out, _ = cli("ls", "--topic", "mine", "--limit", "500", "--db", db, use_db=False)
    assert _listed(out, everything) == topic_one | topic_two


def test_ls_topic_takes_a_topic_label_and_names_the_topics_for_an_unknown_one(cli, db):
    with Atlas(db) as atlas:
        label = web_reads.map_reader(atlas, "*").header["topics"][0]
    assert label["level"] == 0
    code, out, err = cli("ls", "--topic", label["label"].upper(), "--limit", "500", "--db", db, use_db=False)
    assert code == 0, err
    assert _listed(out, _all_ids(db)) == _topic_ids(db, 0, label["topic_id"])
    code, out, err = cli("ls", "--topic", "no such topic anywhere", "--db", db, use_db=False)
    assert code == 2 and "no topic 'no such topic anywhere' on the map" in err
    assert label["label"] in err and len(err.strip().splitlines()) == 1


def test_digest_takes_the_filters_of_ls_and_names_them_at_its_top(cli, db):
    with Atlas(db) as atlas:
        some = sorted(r["id"] for r in atlas.papers())[:3]
        atlas.set_state(some, "read")
        expected = atlas.count_papers(Filters(kind="method", state="unread"))
        total = atlas.count_papers()
    assert 0 < expected < total
    code, out, err = cli("digest", "--kind", "method", "--state", "unread", "--db", db, use_db=False)
    assert code == 0, err
    head = out.splitlines()[:6]
    assert "*Papers chosen by: kind method · state unread*" in head
    assert re.search(rf"· selection · {expected} papers ·", out)
    code, out, _ = cli("digest", "--db", db, use_db=False)
    assert "Papers chosen by" not in out and re.search(rf"· all papers · {total} papers ·", out)


def test_digest_of_my_topics_with_a_hostile_tag_escapes_the_filter_line(cli, db, tmp_path):
    # a tag holds no "<" (api refuses it), but a filter's value is whatever was typed
    page = tmp_path / "digest.html"
    code, _, err = cli(
        "digest", "-f", "html", "--topic", "mine", "--tag", HOSTILE_TAG, "-o", page, "--db", db, use_db=False
    )
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    assert "<script>alert" not in text
    line = re.search(r'<p class="meta narrowing">(.*?)</p>', text).group(1)
    assert html_lib.unescape(line) == f"Papers chosen by: tag {HOSTILE_TAG} · topic mine"
    assert re.search(r"· selection · 0 papers ·", text)
    code, out, _ = cli("digest", "--topic", "mine", "--tag", HOSTILE_TAG, "--db", db, use_db=False)
    assert "<script>" not in out and r"\<script\>alert(1)\</script\>" in out
    code, _, err = cli("digest", "--new", "--db", db, use_db=False)
    assert code == 2 and "--new needs --list" in err


def _map_counts(page: str) -> dict[int, int] | None:
    found = re.search(r"data-topic-counts='([^']*)'", page)
    return (
        None
        if found is None
        else {int(k): v for k, v in json.loads(html_lib.unescape(found.group(1))).items()}
    )


def test_the_map_pages_topic_links_carry_the_filters_and_its_counts_follow(client, db):
    plain = client.get("/map").text
    assert 'data-topic-url="/topics/{id}"' in plain and _map_counts(plain) is None
    with Atlas(db) as atlas:
        broad = [t for t in web_reads.map_reader(atlas, "*").header["topics"] if t["level"] == 0]
        atlas.set_state(sorted(_topic_ids(db, 0, 0))[:2], "skipped")
        unread = {r["id"] for r in atlas.papers(Filters(state="unread"))}
    page = client.get("/map", params={"state": "unread"}).text
    assert 'data-topic-url="/topics/{id}?state=unread"' in page
    counts = _map_counts(page)
    assert counts == {t["topic_id"]: len(_topic_ids(db, 0, t["topic_id"]) & unread) for t in broad}
    assert counts[0] < next(t["size"] for t in broad if t["topic_id"] == 0)
    assert 'id="map-filtered"' in page and "state unread" in page
    # the topic page a link opens lists the same papers the count counted
    shown = re.search(
        r'<span class="muted small">(\d+) / (\d+)</span>', client.get("/topics/0?state=unread").text
    )
    assert int(shown.group(2)) == counts[0]
    assert client.get("/map", params={"state": "sideways"}).status_code == 400
    # the paper list's filters reach the map by its link
    papers = client.get("/papers", params={"state": "unread", "kind": "method"}).text
    assert re.search(r'id="on-map" href="/map\?kind=method&amp;state=unread"', papers)


def test_the_map_page_escapes_a_hostile_tag_in_its_links_and_filter_line(client):
    page = client.get("/map", params={"tag": HOSTILE_TAG}).text
    assert "<script>alert" not in page
    assert 'data-topic-url="/topics/{id}?tag=%3Cscript%3Ealert%281%29%3C%2Fscript%3E"' in page
    assert "tag &lt;script&gt;alert(1)&lt;/script&gt;" in page


def test_a_topic_pages_subtopics_carry_the_filters_and_count_what_passes(client, db):
    page = client.get("/topics/0", params={"state": "unread"}).text
    subtopics = re.findall(
        r'<li><a href="/topics/(\d+)\?level=1&amp;state=unread">[^<]*</a> <span class="count"[^>]*>(\d+)</span>',
        page,
    )
    assert subtopics
    with Atlas(db) as atlas:
        unread = {r["id"] for r in atlas.papers(Filters(state="unread"))}
    for fine, count in subtopics:
        assert int(count) == len(_topic_ids(db, 1, int(fine)) & unread)
