"""A paper's card (the box every list, search result and similar-papers row is made of),
written in Python rather than as a Jinja macro.

A page shows 10 to 200 cards; as a macro each one cost ~0.1 ms of Jinja machinery
(a new context per call, an interface string lookup per label, a filter per field),
about a quarter of a search page. Here the labels are looked up once per page, and every
value from the store goes through markupsafe's escape, as autoescaping would do.
"""

from __future__ import annotations

from collections import OrderedDict
from collections.abc import Callable
from typing import Any
from urllib.parse import quote

from jinja2 import Environment
from markupsafe import Markup, escape

GIST_CHARS = 260  # an abstract standing in for a missing gist is cut near here
KEPT_HEADS = 4096  # written card heads kept per language (~1.5 KB each)
# what a card's head (its triage buttons, title and badges) shows of its row, besides
# `topic`, of which its broad topic's number and label
HEAD_FIELDS = (
    "id",
    "title",
    "display_title",
    "state",
    "liked",
    "name",
    "kind",
    "area",
    "decision",
    "has_code",
    "tags",
    "title_only",
)


STATES = ("read", "skipped", "saved")
# the key that marks each (app.js reads it from data-key; the page's help lists them)
STATE_KEYS = {"read": "r", "skipped": "x", "saved": "s"}
STATE_GLYPHS = {"read": "✓", "skipped": "⊘", "saved": "⚑"}
STATE_LABELS = {"read": "mark_read", "skipped": "mark_skipped", "saved": "mark_saved"}


def triage_renderer(t: Callable[[str], str]) -> Callable[[str, str, str | None, bool], Markup]:
    """triage(id, title, state, liked) -> the like, read, skip and save-for-later buttons
    of one paper (a card's and the paper page's), each named for its paper (aria-label)."""
    liked_label, like_label = escape(t("liked")), escape(t("like"))
    labels = {s: escape(t(STATE_LABELS[s])) for s in STATES}
    group = escape(t("triage"))

    def triage(pid: str, title: str, state: str | None, liked: bool) -> Markup:
        pid_, title_ = escape(pid), escape(title)
        out = [
            f'<div class="triage" role="group" aria-label="{group}: {title_}">'
            f'<button type="button" class="star{" on" if liked else ""}" data-id="{pid_}" '
            f'aria-pressed="{"true" if liked else "false"}" data-key="l" aria-label="{like_label}: {title_}" '
            f'title="{liked_label if liked else like_label} (l)" data-label-on="{liked_label}" '
            f'data-label-off="{like_label}">{"★" if liked else "☆"}</button>'
        ]
        for s in STATES:
            on = state == s
            out.append(
                f'<button type="button" class="state-btn state-{s}{" on" if on else ""}" data-id="{pid_}" '
                f'data-state="{s}" data-key="{STATE_KEYS[s]}" aria-pressed="{"true" if on else "false"}" '
                f'aria-label="{labels[s]}: {title_}" title="{labels[s]} ({STATE_KEYS[s]})">'
                f"{STATE_GLYPHS[s]}</button>"
            )
        out.append("</div>")
        return Markup("".join(out))

    return triage


def card_renderer(
    env: Environment,
    t: Callable[[str], str],
    link: Callable[..., str],
    gloss: Callable[[str, str | None], str | None] = lambda what, value: value,
    chinese: bool = False,
) -> Callable[[dict[str, Any]], Markup]:
    """card(p) -> the card's HTML, for one page's language (`t`, and `gloss(what, value)`
    for the kind, topic, area and decision badges; `chinese`: a model's Chinese summary,
    where there is one, in place of the gist) and links (`link`). `p["state"]` and
    `p["tags"]`: what the person keeps about the paper (its triage buttons, its tags).

    A card's head (triage buttons, title, badges: most of its markup) is kept, the
    KEPT_HEADS last used, under everything it shows of its row (`head_key`): the same paper
    in the same state has the same head on every page (a paper page's similar papers, a
    list's pages, the hits of other searches), and a change of anything shown is another
    key. The rest (the snippet with the query's words marked, or the gist; why it
    matched) is written each time."""
    untitled, why_label = escape(t("untitled")), escape(t("why"))
    in_note_label, tagged_label = escape(t("in_your_note")), escape(t("tagged"))
    written_note = escape(t("display_title_note"))
    truncate = env.filters["truncate"]
    triage = triage_renderer(t)
    badges = badges_renderer(t, link, gloss)

    kept: OrderedDict[tuple[Any, ...], str] = OrderedDict()

    def card(p: dict[str, Any]) -> Markup:
        key = head_key(p)
        html = kept.get(key)
        if html is not None:
            kept.move_to_end(key)
        else:
            html = kept[key] = head(p)
            if len(kept) > KEPT_HEADS:
                kept.popitem(last=False)
        return Markup(html + tail(p))

    def head(p: dict[str, Any]) -> str:
        pid = escape(p["id"])
        title = p.get("title") or p.get("display_title")
        written = (
            "" if p.get("title") or not title else f' class="written" title="{written_note}"'
        )  # paperatlas wrote it: set apart
        state = p.get("state")
        out = [
            f'<article class="card{" state-" + state if state in STATES else ""}" data-paper="{pid}">\n'
            f'  <div class="card-head">\n'
            f"    {triage(p['id'], title or t('untitled'), state, bool(p.get('liked')))}\n"
            f'    <h3 class="card-title"><a href="'
            f'{escape(link("/papers/" + quote(str(p["id"]), safe="")))}"{written}>'
            f'{escape(title) if title else untitled}</a></h3>\n  </div>\n  <div class="badges">\n'
        ]
        out.append(badges(p))
        out.append("  </div>\n")
        return "".join(out)

    def tail(p: dict[str, Any]) -> str:
        out = []
        if p.get("snippet"):
            pieces = "".join(
                f"<mark>{escape(s['text'])}</mark>" if s.get("match") else str(escape(s["text"]))
                for s in p["snippet"]
            )
            out.append(f'  <p class="snippet">{pieces}</p>\n')
        elif chinese and p.get("summary_zh"):
            out.append(f'  <p class="gist" lang="zh-CN">{escape(p["summary_zh"])}</p>\n')
        elif p.get("gist"):
            out.append(f'  <p class="gist">{escape(p["gist"])}</p>\n')
        elif p.get("abstract"):
            out.append(f'  <p class="gist">{escape(truncate(env, p["abstract"], GIST_CHARS))}</p>\n')
        if p.get("in_note") is not None:  # the person's own words: escaped like any text
            out.append(f'<p class="in-note">{in_note_label}: <q>{escape(p["in_note"])}</q></p>')
        if p.get("tagged"):
            tags = ", ".join(f"#{escape(tag)}" for tag in p["tagged"])
            out.append(f'<p class="tagged">{tagged_label}: {tags}</p>')
        if p.get("why"):
            out.append(f'<p class="why">{why_label}: {escape(p["why"])}</p>')
        out.append("</article>")
        return "".join(out)

    return card


def badges_renderer(
    t: Callable[[str], str],
    link: Callable[..., str],
    gloss: Callable[[str, str | None], str | None],
) -> Callable[[dict[str, Any]], str]:
    """badges(p) -> a card's badges (name, kind, topic, area, decision, code, tags, title
    only), in one page's language; the few kind, topic and tag links cards share are
    written once."""
    with_code, title_only = escape(t("with_code")), escape(t("title_only"))
    links: dict[tuple[object, ...], str] = {}

    def badge_link(path: str, **params: str) -> str:
        key = (path, *params.items())
        if key not in links:
            links[key] = str(escape(link(path, **params)))
        return links[key]

    def badges(p: dict[str, Any]) -> str:
        shown = []
        if p.get("name"):
            shown.append(f'<span class="badge name">{escape(p["name"])}</span>')
        if p.get("kind"):
            kind = escape(p["kind"])
            shown.append(
                f'<a class="badge kind kind-{kind}" href="{badge_link("/papers", kind=p["kind"])}">'
                f"{escape(gloss('kind', p['kind']))}</a>"
            )
        broad = (p.get("topic") or {}).get("broad")
        if broad:
            shown.append(
                f'<a class="badge topic" href="'
                f'{badge_link("/topics/" + str(broad["topic_id"]))}">'
                f"{escape(gloss('label', broad['label']))}</a>"
            )
        if p.get("area"):
            shown.append(f'<span class="badge area">{escape(gloss("area", p["area"]))}</span>')
        decision = p.get("decision")
        if decision:
            accepted = " accepted" if str(decision).startswith("Accept") else ""
            shown.append(
                f'<span class="badge decision{accepted}">{escape(gloss("decision", decision))}</span>'
            )
        if p.get("has_code"):
            shown.append(f'<span class="badge code">{with_code}</span>')
        for tag in p.get("tags") or ():
            shown.append(
                f'<a class="badge tag" href="{badge_link("/tags/" + quote(tag, safe=""))}">#{escape(tag)}</a>'
            )
        if p.get("title_only"):
            shown.append(f'<span class="badge title-only">{title_only}</span>')
        return "".join(shown)

    return badges


def head_key(p: dict[str, Any]) -> tuple[Any, ...]:
    """Everything a card's head shows of its row, as a key (its tags as a tuple)."""
    broad = (p.get("topic") or {}).get("broad")
    values = tuple(tuple(v) if isinstance(v, list) else v for v in map(p.get, HEAD_FIELDS))
    return (*values, (broad["topic_id"], broad["label"]) if broad else None)
